"""What the bibliography formats (BibTeX, CSL-JSON, RIS) share: a reference's kind, its citation key,
initials spelled out, a page range cut into first and last page, and the article's own reference
merged from a page record's visible fields and declared metadata."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..lexicons import alternation
from ..references.names import split_name

#: A conference's name (the lexicon ``conference_words``).
_CONFERENCE = re.compile(rf"\b{alternation('conference_words')}\b", re.I)
#: "Proc" alone also names journals ("Proc R Soc B", "Proc Natl Acad Sci"): those have a volume.
_PROCEEDINGS = re.compile(r"\b(?:proc\.?|proceedings)\b", re.I)
_PAGES = re.compile(r"^\s*([\w.]+)\s*[-–—]+\s*([\w.]+)\s*$")


def entry_kind(ref: dict) -> str:
    """``article``, ``inproceedings``, ``incollection`` (a chapter: a container with a publisher and no
    volume), ``book`` or ``misc``: the reference's ``kind`` when it says, else from which fields it has."""
    if ref.get("kind"):
        return ref["kind"]
    container = ref.get("container") or ""
    if _CONFERENCE.search(container) or (_PROCEEDINGS.search(container) and not ref.get("volume")):
        return "inproceedings"
    if container and ref.get("publisher") and not ref.get("volume"):
        return "incollection"
    if container:
        return "article"
    if ref.get("title") and (ref.get("publisher") or not (ref.get("volume") or ref.get("pages"))):
        return "book"
    return "misc"


#: The fields a BibTeX entry of each kind must have (as the standard styles require them; ``authors`` is
#: ``author``, ``container`` the journal or book title), by reference field name.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "article": ("authors", "title", "container", "year"),
    "inproceedings": ("authors", "title", "container", "year"),
    "incollection": ("authors", "title", "container", "publisher", "year"),
    "book": ("authors", "title", "publisher", "year"),
    "misc": (),
}


def missing_fields(ref: dict, kind: str | None = None) -> list[str]:
    """The fields a reference of ``kind`` (default :func:`entry_kind`'s) must have and ``ref`` lacks."""
    return [name for name in REQUIRED_FIELDS[kind or entry_kind(ref)] if not ref.get(name)]


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def cite_key(ref: dict) -> str:
    """``smith2001glial``: first author's family name, year and first title word, in ASCII."""
    family = (ref.get("authors") or [{}])[0].get("family", "") or "anon"
    title = next((w for w in re.findall(r"\w+", _ascii(ref.get("title") or "")) if len(w) > 3), "")
    return re.sub(r"\W", "", _ascii(f"{family}{ref.get('year') or ''}{title}").lower()) or "ref"


def unique_keys(refs: Sequence[dict]) -> list[str]:
    """:func:`cite_key` of each reference, with ``-2``, ``-3`` ... added to repeats."""
    seen: Counter = Counter()
    keys = []
    for ref in refs:
        key = cite_key(ref)
        seen[key] += 1
        keys.append(key if seen[key] == 1 else f"{key}-{seen[key]}")
    return keys


def given_names(given: str) -> str:
    """Vancouver initials spelled out for bibliography software: ``JE`` -> ``J. E.``."""
    return " ".join(f"{c}." for c in given) if re.fullmatch(r"[A-Z]{1,3}", given) else given


def page_range(pages: object) -> tuple[object, str | None]:
    """First and last page of a range ("45–67" -> "45", "67"); anything else is the first page alone."""
    m = _PAGES.match(str(pages))
    return (m.group(1), m.group(2)) if m else (pages, None)


def article_reference(record: dict) -> dict:
    """The labelled article's own reference, in the shape of a parsed reference, from a page record
    (:func:`scilabel.fields.page_record`): title and authors as the page declares them unless the
    record reports them in conflict with the visible ones (``metadata_conflicts``) or declares fewer
    authors than the page shows, else the visible ones; journal, volume, issue, pages, year, DOI from
    the declared metadata; the URL the page was read from."""
    meta = record.get("metadata") or {}
    disputed = {c["field"] for c in record.get("metadata_conflicts") or []}
    title = meta.get("title") if meta.get("title") and "title" not in disputed else record.get("title")
    declared = meta.get("author_names") or []
    names = declared if declared and "authors" not in disputed and len(declared) >= len(record.get("authors") or []) \
        else record.get("authors") or []
    first, last = meta.get("first_page"), meta.get("last_page")
    year = re.search(r"\d{4}", meta.get("publication_date") or meta.get("online_date") or "")
    source = str(record.get("source") or "")
    ref = {
        "kind": None if meta.get("journal") else "article",
        "title": title,
        "authors": [split_name(n) for n in names],
        "container": meta.get("journal"),
        "year": year.group() if year else None,
        "volume": meta.get("volume"),
        "issue": meta.get("issue"),
        "pages": f"{first}\u2013{last}" if first and last and first != last else first,
        "publisher": meta.get("publisher"),
        "doi": meta.get("doi"),
        "url": source if source.startswith(("http://", "https://")) else None,
    }
    return {k: v for k, v in ref.items() if v}
