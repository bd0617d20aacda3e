"""Reference strings: field-labelled (GROBID citation TEI, AnyStyle XML, ParsCit), whole bibliographies
(GROBID reference-segmenter) and raw strings with a gold DOI (Crossref matching study, CERMINE)."""
from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .headers import element_text, local_name, parscit_spans, read_xml, squash

log = logging.getLogger(__name__)

#: Normalised reference fields.
REFERENCE_FIELDS = (
    "author", "title", "container", "year", "volume", "issue", "pages", "publisher", "location",
    "editor", "doi", "pmid", "url", "note", "other",
)

#: GROBID ``<bibl>`` children with a fixed field, by lower-cased name (``title``, ``biblScope``, ``idno``,
#: ``orgName`` depend on attributes and are decided in ``_grobid_field``). Includes upstream's misspellings.
GROBID_FIELDS: dict[str, str] = {
    "author": "author", "authors": "author", "editor": "editor", "date": "year",
    "publisher": "publisher", "publishe": "publisher", "pubplace": "location", "ptr": "url",
    "note": "note", "notes": "note", "page": "pages", "volumes": "volume",
}
#: ``biblScope`` ``unit`` (newer files) or ``type`` (older) -> field; the two untyped ones are volumes.
GROBID_SCOPES: dict[str, str] = {
    "volume": "volume", "vol": "volume", "issue": "issue", "page": "pages", "pages": "pages", "pp": "pages",
    "chapter": "note", "date": "year", "": "volume",
}
#: ``idno`` ``type`` -> field; other identifiers (ISBN, ISSN, PMC, arXiv, report numbers) are notes.
GROBID_IDNOS: dict[str, str] = {"doi": "doi", "pmid": "pmid"}

#: AnyStyle ``<sequence>`` child -> field.
ANYSTYLE_FIELDS: dict[str, str] = {
    "author": "author", "director": "author", "date": "year", "title": "title",
    "container-title": "container", "journal": "container", "booktitle": "container",
    "collection-title": "container", "source": "container", "event": "container",
    "editor": "editor", "translator": "editor", "producer": "editor",
    "publisher": "publisher", "authority": "publisher", "location": "location",
    "volume": "volume", "pages": "pages", "doi": "doi", "url": "url",
    "note": "note", "edition": "note", "genre": "note", "medium": "note", "isbn": "note",
    "accessed": "note", "section": "note", "citation-number": "other",
}

#: ParsCit tag -> field; ``br`` (end of entry) and ``contexts`` (start of a context list) are markup.
PARSCIT_FIELDS: dict[str, str] = {
    "author": "author", "title": "title", "journal": "container", "booktitle": "container",
    "date": "year", "volume": "volume", "pages": "pages", "publisher": "publisher",
    "location": "location", "editor": "editor", "institution": "publisher",
    "tech": "note", "note": "note", "notes": "note", "br": "other", "contexts": "other",
}

_DOI = re.compile(r"\b10\.\d{4,9}/\S+")
_LINE_BREAK_TAG = re.compile(r"<(?:\w+:)?lb\s*/>")
_ANY_TAG = re.compile(r"<[^>]+>")
_PARSCIT_TAG = re.compile(r"</?[A-Za-z_-]+>")
_SPACE = re.compile(r"\s+")
_LEADING = re.compile(r"^\s*")
_TRAILING = re.compile(r"\s*$")


@dataclass
class LabelledReference:
    """A reference string cut into ``(text, field)`` segments that together cover all of it."""

    segments: list[tuple[str, str]]
    source: str  #: file relative to the data folder
    split: str  #: corpus/evaluation (GROBID) or the file's name (AnyStyle, ParsCit)
    index: int = 0  #: position of the reference in its file

    @property
    def text(self) -> str:
        """The whole reference string."""
        return "".join(text for text, _ in self.segments)


@dataclass
class ReferenceEntry:
    """One entry of a bibliography, with its printed label ("[12]", "3.") when it has one."""

    text: str
    label: str | None = None


@dataclass
class ReferenceSection:
    """A whole bibliography cut into its entries, in order."""

    source: str
    entries: list[ReferenceEntry] = field(default_factory=list)


@dataclass
class RawReference:
    """An unlabelled reference string, with the DOI it should match and the citation style when known."""

    text: str
    source: str
    doi: str | None = None
    style: str | None = None


def make_segments(pieces: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Normalise ``(text, field)`` pieces covering a string into segments whose concatenation is
    the string with whitespace squashed: labelled segments lose surrounding space (it becomes
    ``other``), adjacent ``other`` pieces merge, empty pieces go."""
    expanded: list[tuple[str, str]] = []
    for text, name in pieces:
        if name == "other" or not text.strip():
            expanded.append((text, "other"))
        else:
            lead, trail = _LEADING.match(text).group(), _TRAILING.search(text).group()
            expanded += [(lead, "other"), (text.strip(), name), (trail, "other")]
    segments: list[tuple[str, str]] = []
    after_space = True  # strip space at the start of the string
    for text, name in expanded:
        text = _SPACE.sub(" ", text)
        if after_space:
            text = text.lstrip(" ")
        if not text:
            continue
        if name == "other" and segments and segments[-1][1] == "other":
            segments[-1] = (segments[-1][0] + text, "other")
        else:
            segments.append((text, name))
        after_space = text.endswith(" ")
    if segments and segments[-1][1] == "other":
        tail = segments.pop()[0].rstrip(" ")
        if tail:
            segments.append((tail, "other"))
    return segments


# --- labelled references ---------------------------------------------------------------------------


def iter_labelled_references(references_dir: Path) -> Iterator[LabelledReference]:
    """Yield field-labelled references of GROBID citation, AnyStyle and ParsCit data.

    A reference whose segments do not join back to the source's text is logged and skipped.
    """
    for ref, original in iter_references_with_text(references_dir):
        if ref.text == original:
            yield ref
        else:
            log.warning("%s#%d: segments do not join back to the reference text, skipped", ref.source, ref.index)


def iter_references_with_text(references_dir: Path) -> Iterator[tuple[LabelledReference, str]]:
    """Yield each labelled reference with its full text read independently from the source
    (markup stripped, whitespace squashed), for round-trip checks."""
    references_dir = Path(references_dir)
    base = references_dir.parent
    for path in sorted((references_dir / "grobid" / "citation").rglob("*.xml")):
        yield from _read_xml_references(path, base, _grobid_file)
    for path in sorted((references_dir / "anystyle").glob("*.xml")):
        yield from _read_xml_references(path, base, _anystyle_file)
    for path in sorted((references_dir / "ParsCit").glob("*.txt")):
        yield from _parscit_file(path, path.relative_to(base).as_posix())


_Reader = Callable[[etree._Element, str, Path], Iterator[tuple[LabelledReference, str]]]


def _read_xml_references(path: Path, base: Path, reader: _Reader) -> Iterator[tuple[LabelledReference, str]]:
    source = path.relative_to(base).as_posix()
    try:
        items = list(reader(read_xml(path), source, path))
    except (OSError, ValueError) as exc:
        log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
        return
    if not items:
        log.warning("%s: no labelled references", source)
    yield from items


def _markup_free_text(elem: etree._Element) -> str:
    """An element's text from its serialisation: line breaks to spaces, tags dropped, entities decoded."""
    xml = etree.tostring(elem, encoding="unicode", with_tail=False)
    return squash(html.unescape(_ANY_TAG.sub("", _LINE_BREAK_TAG.sub(" ", xml))))


def _grobid_file(root: etree._Element, source: str, path: Path) -> Iterator[tuple[LabelledReference, str]]:
    split = path.parent.name
    for index, bibl in enumerate(root.iter("{*}bibl")):
        has_article_title = any(t.get("level") == "a" for t in bibl.iterchildren("{*}title"))
        pieces = [(bibl.text or "", "other")]
        for child in bibl:
            if isinstance(child.tag, str):
                if local_name(child) == "lb":
                    pieces.append((" ", "other"))
                else:
                    pieces.append((element_text(child, " "), _grobid_field(child, has_article_title, source)))
            pieces.append((child.tail or "", "other"))
        ref = LabelledReference(make_segments(pieces), source, split, index)
        yield ref, _markup_free_text(bibl)


def _grobid_field(elem: etree._Element, has_article_title: bool, source: str) -> str:
    name = local_name(elem)
    if name == "title":
        kind = elem.get("level")
        if kind == "m":  # a book: the title itself, or the container of a chapter
            return "container" if has_article_title else "title"
        return "container" if kind in ("j", "s") else "title"
    kind = (elem.get("unit") or elem.get("type") or elem.get("level") or "").lower()
    if name in ("biblScope", "biblStruct") and kind in GROBID_SCOPES:  # biblStruct type=page: mistagged scope
        return GROBID_SCOPES[kind]
    if name == "idno":
        return GROBID_IDNOS.get(kind) or ("doi" if not kind and _DOI.search(element_text(elem)) else "note")
    if name == "orgName":
        return "author" if kind == "collaboration" else "publisher"
    if name.lower() in GROBID_FIELDS:
        return GROBID_FIELDS[name.lower()]
    log.warning("%s: unknown reference tag <%s%s>, kept as other", source, name, f" {kind}" if kind else "")
    return "other"


def _anystyle_file(root: etree._Element, source: str, path: Path) -> Iterator[tuple[LabelledReference, str]]:
    for index, sequence in enumerate(root.iter("sequence")):
        pieces = [(sequence.text or "", "other")]
        for child in sequence:
            if isinstance(child.tag, str):
                name = ANYSTYLE_FIELDS.get(child.tag)
                if name is None:
                    log.warning("%s: unknown reference tag <%s>, kept as other", source, child.tag)
                pieces.append((element_text(child, " "), name or "other"))
            pieces.append((child.tail or "", "other"))
        yield LabelledReference(make_segments(pieces), source, path.stem, index), _markup_free_text(sequence)


def _parscit_file(path: Path, source: str) -> Iterator[tuple[LabelledReference, str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
        return
    index = 0
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        pieces = []
        for tag, text in parscit_spans(line, PARSCIT_FIELDS):
            name = "other" if tag is None else PARSCIT_FIELDS.get(tag)
            if name is None:
                log.warning("%s:%d: unknown reference tag <%s>, kept as other", source, lineno, tag)
            pieces.append((text, name or "other"))
        original = squash(_PARSCIT_TAG.sub("", line))
        yield LabelledReference(make_segments(pieces), source, path.name.split(".")[0], index), original
        index += 1


# --- bibliographies and raw strings ----------------------------------------------------------------


def iter_reference_sections(references_dir: Path) -> Iterator[ReferenceSection]:
    """Yield each GROBID reference-segmenter file as a bibliography: its ``<bibl>`` entries in order.

    Entry text keeps the label as printed; ``<lb/>`` becomes a space. Upstream's ``*.tei.xml.missing``
    files (no matching raw-feature file in GROBID) are gold segmentations too and are included.
    """
    folder = Path(references_dir) / "grobid" / "reference-segmenter"
    paths = sorted(p for p in folder.rglob("*") if p.name.endswith((".xml", ".xml.missing")))
    for path in paths:
        source = path.relative_to(Path(references_dir).parent).as_posix()
        try:
            root = read_xml(path)
        except (OSError, ValueError) as exc:
            log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
            continue
        entries = []
        for bibl in root.iter("{*}bibl"):
            label = bibl.find("{*}label")
            text = squash(element_text(bibl, " "))
            if text:
                entries.append(ReferenceEntry(text, None if label is None else squash(element_text(label)) or None))
        if entries:
            yield ReferenceSection(source, entries)
        else:
            log.warning("%s: no <bibl> entries", source)


def iter_crossref_strings(references_dir: Path) -> Iterator[RawReference]:
    """Yield unlabelled reference strings: the Crossref matching study's (generated per citation
    style, and real-world with reviewed gold DOIs) and CERMINE's raw medical references."""
    references_dir = Path(references_dir)
    base = references_dir.parent
    crossref = references_dir / "crossref-matching"
    for path in sorted((crossref / "1_unstructured_analysis").glob("dataset-*.json")):
        for item in _json_items(path, base, "dataset"):
            yield RawReference(squash(item["ref_string"]), path.relative_to(base).as_posix(),
                               (item.get("target_gt") or {}).get("DOI"), item.get("style"))
    # The real-world set is repeated in four matcher-output files; comparison-reasons.json holds the
    # reviewed gold DOI (14 differ from unstructured_orig.json, all alias DOIs of the same work).
    path = crossref / "3_unstructured_real_evaluation" / "comparison-reasons.json"
    for item in _json_items(path, base, None):
        yield RawReference(squash(item["ref_string"]), path.relative_to(base).as_posix(), item.get("gt"), None)
    path = references_dir / "CERMINE" / "refs.txt"
    source = path.relative_to(base).as_posix()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
        return
    yield from (RawReference(squash(line), source) for line in lines if line.strip())


def _json_items(path: Path, base: Path, key: str | None) -> list[dict]:
    source = path.relative_to(base).as_posix()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data[key] if key else data
        if not isinstance(items, list):
            raise ValueError(f"expected a list under {key!r}")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
        return []
    kept = [item for item in items if isinstance(item, dict) and isinstance(item.get("ref_string"), str)]
    if len(kept) < len(items):
        log.info("%s: %d items without a ref_string skipped", source, len(items) - len(kept))
    return kept
