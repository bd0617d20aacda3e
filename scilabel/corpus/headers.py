"""Labelled title-page (header) data: GROBID header/affiliation/name/date TEI and ParsCit tagged headers.

Also home of the small XML/text helpers the other corpus readers share.
"""
from __future__ import annotations

import gzip
import logging
import re
from collections.abc import Container, Iterator
from pathlib import Path
from typing import NamedTuple

from lxml import etree

from ..lexicons import alternation
from ..schema import FIELD_LABELS

log = logging.getLogger(__name__)

#: Header fields (the zone labels they train: every field but the references) plus ``other``.
HEADER_FIELDS = (*(f for f in FIELD_LABELS if f != "references"), "other")

#: GROBID header TEI: element (``name`` or ``name:type``) -> field. Containers and ``lb`` are not listed.
GROBID_HEADER_FIELDS: dict[str, str] = {
    "titlePart": "title",
    "docAuthor": "authors",
    "affiliation": "affiliations",
    "address": "affiliations",
    "div:abstract": "abstract",
    **dict.fromkeys(
        ("email", "date", "keyword", "keywords", "note", "idno", "ptr", "phone", "page", "meeting",
         "publisher", "editor", "reference", "degree", "title"),
        "other",
    ),
}
#: Elements that only group labelled children.
_GROBID_CONTAINERS = frozenset({"byline", "docTitle"})

#: ParsCit ``tagged_headers.txt`` tag -> field.
PARSCIT_HEADER_FIELDS: dict[str, str] = {
    "title": "title",
    "author": "authors",
    "affiliation": "affiliations",
    "address": "affiliations",
    "abstract": "abstract",
    **dict.fromkeys(
        ("email", "date", "keyword", "note", "pubnum", "phone", "page", "web", "degree", "intro"), "other"
    ),
}

_SPACE = re.compile(r"\s+")
_PARSCIT_TAG = re.compile(r"<(/?)([A-Za-z_-]+)>")
_ABSTRACT_HEADING = re.compile(rf"^(?:\d\.?\s*)?{alternation('abstract_headings')}\s*[.:]?$", re.I)


class HeaderField(NamedTuple):
    """One labelled piece of a header: normalised field, its text, where it came from, the original tag."""

    field: str
    text: str
    source: str  #: file relative to the data folder, ``:<line>`` appended for one-header-per-line files
    tag: str  #: the source's own tag, ``name`` or ``name:type``


# --- shared helpers --------------------------------------------------------------------------------


def squash(text: str | None) -> str:
    """Collapse whitespace runs to one space and strip."""
    return _SPACE.sub(" ", text or "").strip()


def local_name(elem: etree._Element) -> str:
    """An element's tag without its namespace."""
    return etree.QName(elem).localname


def read_xml(path: Path) -> etree._Element:
    """Parse an XML file (``.gz`` too) and return its root.

    GROBID training files often carry ``xml:id="0"`` (not an NCName), which strict parsing rejects;
    such files are re-read in recovery mode. Raises ``ValueError`` for any other XML error.
    """
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    try:
        return etree.fromstring(data, etree.XMLParser(no_network=True, resolve_entities=False))
    except etree.XMLSyntaxError as strict_error:
        parser = etree.XMLParser(no_network=True, resolve_entities=False, recover=True)
        root = etree.fromstring(data, parser)
        if root is None or any("xml:id" not in e.message for e in parser.error_log):
            raise ValueError(squash(str(strict_error))) from strict_error
        return root


def element_text(elem: etree._Element, line_break: str = "\n") -> str:
    """All text inside an element in document order, ``<lb/>`` rendered as ``line_break``."""
    parts: list[str] = []
    _collect_text(elem, parts, line_break)
    return "".join(parts)


def _collect_text(elem: etree._Element, parts: list[str], line_break: str) -> None:
    if local_name(elem) == "lb":
        parts.append(line_break)
    elif elem.text:
        parts.append(elem.text)
    for child in elem:
        if isinstance(child.tag, str):
            _collect_text(child, parts, line_break)
        if child.tail:
            parts.append(child.tail)


def join_lines(text: str) -> str:
    """Join the lines of text laid out on a page into one line, undoing end-of-line hyphenation.

    ``"Amer-\\nican"`` -> ``"American"``, ``"methylation--\\nregulated"`` -> ``"methylation-regulated"``.
    """
    out = ""
    for line in (squash(piece) for piece in text.split("\n")):
        if not line:
            continue
        if out.endswith("--") and line[0].isalpha():
            out = out[:-1] + line
        elif len(out) > 1 and out[-1] == "-" and out[-2].isalpha() and line[0].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}" if out else line
    return out


def tag_key(elem: etree._Element) -> str:
    """``name`` or ``name:type`` for an element (``type``, else ``level``, qualifies it)."""
    qualifier = elem.get("type") or elem.get("level")
    return f"{local_name(elem)}:{qualifier}" if qualifier else local_name(elem)


# --- readers ---------------------------------------------------------------------------------------


def iter_headers(headers_dir: Path) -> Iterator[HeaderField]:
    """Yield labelled header fields from every corpus under ``headers_dir`` (GROBID folders and ParsCit)."""
    headers_dir = Path(headers_dir)
    readers = (
        ("grobid/header", _grobid_header_file),
        ("grobid/affiliation-address", _grobid_affiliation_file),
        ("grobid/name-header", _grobid_name_file),
        ("grobid/date", _grobid_date_file),
    )
    for folder, reader in readers:
        for path in sorted((headers_dir / folder).rglob("*.xml")):
            source = path.relative_to(headers_dir.parent).as_posix()
            try:
                items = list(reader(read_xml(path), source))
            except (OSError, ValueError) as exc:
                log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
                continue
            if not items:
                log.warning("%s: no labelled header fields", source)
            yield from items
    for path in sorted((headers_dir / "ParsCit").glob("*.txt")):
        yield from iter_parscit_headers(path, path.relative_to(headers_dir.parent).as_posix())


def _grobid_header_file(root: etree._Element, source: str) -> Iterator[HeaderField]:
    """GROBID header TEI: the labelled children of ``<front>``, in order."""
    items = []
    for front in root.iter("{*}front"):
        for elem in _labelled_elements(front):
            key = tag_key(elem)
            field = GROBID_HEADER_FIELDS.get(key) or GROBID_HEADER_FIELDS.get(local_name(elem))
            if field is None:
                log.warning("%s: unknown header tag <%s>, kept as other", source, key)
                field = "other"
            items.append(HeaderField(field, join_lines(element_text(elem)), source, key))
    return _join_addresses(items)


def _join_addresses(items: list[HeaderField]) -> Iterator[HeaderField]:
    """Drop empty items; an address that directly follows an affiliation is appended to it."""
    previous: HeaderField | None = None
    for item in items:
        if not item.text:
            continue
        if previous is not None and previous.tag == "affiliation" and item.tag == "address":
            previous = previous._replace(text=f"{previous.text} {item.text}", tag="affiliation+address")
            continue
        if previous is not None:
            yield previous
        previous = item
    if previous is not None:
        yield previous


def _labelled_elements(front: etree._Element) -> Iterator[etree._Element]:
    for elem in front:
        if not isinstance(elem.tag, str) or local_name(elem) == "lb":
            continue
        if local_name(elem) in _GROBID_CONTAINERS:
            yield from _labelled_elements(elem)
        else:
            yield elem


def _grobid_affiliation_file(root: etree._Element, source: str) -> Iterator[HeaderField]:
    """GROBID affiliation-address TEI: each outermost ``<affiliation>`` (also the misspelt ``affilliation``)."""
    names = {"affiliation", "affilliation"}
    for elem in root.iter("{*}affiliation", "{*}affilliation"):
        parent = elem.getparent()
        if parent is not None and local_name(parent) in names:
            continue
        text = squash(element_text(elem, " "))
        if text:
            yield HeaderField("affiliations", text, source, local_name(elem))


def _grobid_name_file(root: etree._Element, source: str) -> Iterator[HeaderField]:
    """GROBID name-header TEI: each ``<author>`` is one author line (one or more ``persName``)."""
    for elem in root.iter("{*}author"):
        text = squash(element_text(elem, " "))
        if text:
            yield HeaderField("authors", text, source, "author")


def _grobid_date_file(root: etree._Element, source: str) -> Iterator[HeaderField]:
    """GROBID date TEI: each ``<date>`` string."""
    for elem in root.iter("{*}date"):
        text = squash(element_text(elem, " "))
        if text:
            yield HeaderField("other", text, source, "date")


def iter_parscit_headers(path: Path, source: str | None = None) -> Iterator[HeaderField]:
    """ParsCit ``tagged_headers.txt``: one header per line, inline ``<tag> ... </tag>``, ``+L+`` = line break."""
    source = source or path.name
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("%s: skipped, %s", source, squash(str(exc)) or type(exc).__name__)
        return
    for lineno, line in enumerate(lines, 1):
        items = []
        for tag, raw in parscit_spans(line, PARSCIT_HEADER_FIELDS):
            if tag is None:
                continue
            field = PARSCIT_HEADER_FIELDS.get(tag)
            if field is None:
                log.warning("%s:%d: unknown header tag <%s>, kept as other", source, lineno, tag)
                field = "other"
            pieces = raw.replace("+PAGE+", "").split("+L+")
            if field == "abstract" and _ABSTRACT_HEADING.match(squash(pieces[0])):
                pieces = pieces[1:]  # ParsCit keeps the "Abstract" heading inside the abstract
            items.append(HeaderField(field, join_lines("\n".join(pieces)), f"{source}:{lineno}", tag))
        yield from _join_addresses(items)


def parscit_spans(line: str, known: Container[str]) -> Iterator[tuple[str | None, str]]:
    """Split a ParsCit line into ``(tag, text)`` spans in order, ``tag`` None for untagged text.

    Every ``<name>`` opens a span. A closing tag ends the open span when it names that span or any
    ``known`` tag (ParsCit has ``<notes> ... </note>``); other closing tags are kept as text.
    """
    tag: str | None = None
    start = 0
    for match in _PARSCIT_TAG.finditer(line):
        closing, name = match.group(1), match.group(2)
        if closing and name != tag and name not in known:
            continue
        if line[start:match.start()]:
            yield tag, line[start:match.start()]
        tag = None if closing else name
        start = match.end()
    if line[start:]:
        yield tag, line[start:]
