"""MEDLINE/PubMed citation records (XML and the MEDLINE text format) as labelled header fields."""
from __future__ import annotations

import gzip
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ..lexicons import lexicon
from .headers import squash

log = logging.getLogger(__name__)

#: Root elements of files that hold MEDLINE citations (PubMed downloads, EFetch results, baseline files).
MEDLINE_ROOTS = frozenset({"PubmedArticleSet", "PubmedArticle", "MedlineCitationSet", "MedlineCitation"})
#: Generational suffixes, written after the given names in the text format's FAU and AU (the lexicon
#: ``name_suffixes``, in lower case).
_NAME_SUFFIXES = frozenset(lexicon("name_suffixes"))
_TEXT_LINE = re.compile(r"^([A-Z]{2,4}) *- ?(.*)$")


@dataclass
class MedlineRecord:
    """The header fields of one MEDLINE citation."""

    pmid: str
    title: str
    authors: list[str] = field(default_factory=list)  #: display names, "ForeName LastName"
    affiliations: list[str] = field(default_factory=list)  #: deduplicated, in order of first mention
    abstract: str = ""  #: structured sections joined as "LABEL: text LABEL: text"
    source: str = ""  #: file the record came from, relative to the parent of the MEDLINE folder


def iter_medline(medline_dir: Path) -> Iterator[MedlineRecord]:
    """Yield every record of every MEDLINE XML (``.xml``, ``.xml.gz``) or text (``.txt``) file under a folder.

    Files that are not MEDLINE or cannot be parsed are skipped with a one-line warning.
    """
    medline_dir = Path(medline_dir)
    for path in sorted(p for p in medline_dir.rglob("*") if p.is_file()):
        source = path.relative_to(medline_dir.parent).as_posix()
        name = path.name.lower()
        if name.endswith((".xml", ".xml.gz")):
            reader = _iter_xml_file
        elif name.endswith((".txt", ".medline", ".nbib")):
            reader = _iter_text_file
        else:
            log.info("%s: skipped, not a MEDLINE file name", source)
            continue
        try:
            records = list(reader(path, source))  # a file is read whole so a bad one is skipped whole
        except (OSError, EOFError, etree.XMLSyntaxError, UnicodeDecodeError, ValueError) as exc:
            log.warning("%s: skipped, %s", source, _one_line(exc))
            continue
        yield from records


def _one_line(exc: BaseException) -> str:
    return squash(str(exc)) or type(exc).__name__


def _dedupe(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(s for s in items if s))


# --- XML -------------------------------------------------------------------------------------------


def _iter_xml_file(path: Path, source: str) -> Iterator[MedlineRecord]:
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    with opener(path, "rb") as fh:
        events = etree.iterparse(fh, events=("start", "end"), no_network=True)
        _, root = next(events)
        if root.tag not in MEDLINE_ROOTS:
            raise ValueError(f"not MEDLINE (root element <{root.tag}>)")
        count = 0
        for event, elem in events:
            if event != "end":
                continue
            if elem.tag == "MedlineCitation":
                yield _record_from_xml(elem, source)
                count += 1
            if elem.getparent() is root:  # a finished record: free it
                root.remove(elem)
    if count == 0:
        log.warning("%s: no MedlineCitation records", source)


def _text_of(elem: etree._Element | None) -> str:
    return "" if elem is None else squash("".join(elem.itertext()))


def _record_from_xml(citation: etree._Element, source: str) -> MedlineRecord:
    article = citation.find("Article")
    if article is None:
        return MedlineRecord(pmid=_text_of(citation.find("PMID")), title="", source=source)
    authors = article.findall("AuthorList/Author")
    affiliations = [_text_of(a) for a in article.iterfind("Affiliation")]  # pre-2014 DTDs
    for author in authors:
        affiliations.extend(_text_of(a) for a in author.iterfind("AffiliationInfo/Affiliation"))
    sections = []
    for part in article.iterfind("Abstract/AbstractText"):
        text, label = _text_of(part), squash(part.get("Label"))
        if text:
            sections.append(f"{label}: {text}" if label else text)
    return MedlineRecord(
        pmid=_text_of(citation.find("PMID")),
        title=_text_of(article.find("ArticleTitle")),
        authors=[name for name in map(_xml_author_name, authors) if name],
        affiliations=_dedupe(affiliations),
        abstract=" ".join(sections),
        source=source,
    )


def _xml_author_name(author: etree._Element) -> str:
    collective = _text_of(author.find("CollectiveName"))
    if collective:
        return collective
    last = _text_of(author.find("LastName"))
    given = _text_of(author.find("ForeName")) or _spaced_initials(_text_of(author.find("Initials")))
    return " ".join(p for p in (given, last, _text_of(author.find("Suffix"))) if p)


def _spaced_initials(initials: str) -> str:
    """``"JA"`` -> ``"J A"``, the way MEDLINE writes initials-only fore names."""
    return " ".join(initials.replace(".", "").replace(" ", ""))


# --- MEDLINE text format ---------------------------------------------------------------------------


def _iter_text_file(path: Path, source: str) -> Iterator[MedlineRecord]:
    tags: list[tuple[str, str]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("      ") and tags:  # continuation of the previous tag's value
            tags[-1] = (tags[-1][0], f"{tags[-1][1]} {line.strip()}")
            continue
        match = _TEXT_LINE.match(line)
        if not match:
            raise ValueError(f"line {lineno} is not a MEDLINE tag line: {line[:40]!r}")
        if match.group(1) == "PMID" and tags:
            yield _record_from_tags(tags, source)
            tags = []
        tags.append((match.group(1), match.group(2)))
    if not tags:
        raise ValueError("no MEDLINE records")
    yield _record_from_tags(tags, source)


def _record_from_tags(tags: list[tuple[str, str]], source: str) -> MedlineRecord:
    values: dict[str, list[str]] = {}
    for tag, value in tags:
        values.setdefault(tag, []).append(squash(value))
    authors: list[str] = []
    previous = ""
    for tag, value in tags:
        if tag == "FAU":
            authors.append(_full_author_name(squash(value)))
        elif tag == "AU" and previous != "FAU":  # AU repeats the FAU just before it
            authors.append(_short_author_name(squash(value)))
        elif tag == "CN":
            authors.append(squash(value))
        previous = tag
    return MedlineRecord(
        pmid=" ".join(values.get("PMID", [])),
        title=" ".join(values.get("TI", [])),
        authors=[a for a in authors if a],
        affiliations=_dedupe(values.get("AD", [])),
        abstract=" ".join(values.get("AB", [])),
        source=source,
    )


def _full_author_name(fau: str) -> str:
    """``"Casbon, James A"`` -> ``"James A Casbon"``; a trailing suffix moves to the end."""
    last, _, given = fau.partition(", ")
    words = given.split()
    suffix = words.pop() if len(words) > 1 and words[-1].lower() in _NAME_SUFFIXES else ""
    return " ".join(p for p in (" ".join(words), last, suffix) if p)


def _short_author_name(au: str) -> str:
    """``"Casbon JA"`` -> ``"J A Casbon"``."""
    words = au.split()
    suffix = words.pop() if len(words) > 1 and words[-1].lower() in _NAME_SUFFIXES else ""
    initials = words.pop() if len(words) > 1 and words[-1].isupper() and words[-1].isalpha() else ""
    return " ".join(p for p in (_spaced_initials(initials), " ".join(words), suffix) if p)
