"""BibTeX and CSL-JSON renderings of parsed references (the dicts of ``ReferenceParser.parse``)."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..lexicons import alternation

#: A conference's name (the lexicon ``conference_words``).
_CONFERENCE = re.compile(rf"\b{alternation('conference_words')}\b", re.I)
#: "Proc" alone also names journals ("Proc R Soc B", "Proc Natl Acad Sci"): those have a volume.
_PROCEEDINGS = re.compile(r"\b(?:proc\.?|proceedings)\b", re.I)
_BIBTEX_SPECIAL = re.compile(r"([\\{}%&$#_^~])")
_BIBTEX_ESCAPES = {"\\": r"\textbackslash{}", "^": r"\^{}", "~": r"\~{}"}


def entry_kind(ref: dict) -> str:
    """``article``, ``inproceedings``, ``book`` or ``misc``, from which fields the reference has."""
    container = ref.get("container") or ""
    if _CONFERENCE.search(container) or (_PROCEEDINGS.search(container) and not ref.get("volume")):
        return "inproceedings"
    if container:
        return "article"
    if ref.get("title") and not (ref.get("volume") or ref.get("pages")):
        return "book"
    return "misc"


_CSL_TYPES = {"article": "article-journal", "inproceedings": "paper-conference", "book": "book", "misc": "document"}


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


def _bibtex_value(text: str) -> str:
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _given(given: str) -> str:
    """Vancouver initials spelled out for bibliography software: ``JE`` -> ``J. E.``."""
    return " ".join(f"{c}." for c in given) if re.fullmatch(r"[A-Z]{1,3}", given) else given


def _bibtex_name(author: dict) -> str:
    """``Family, Given``; a family name alone is braced when it has spaces (``{World Bank}``)."""
    family, given = _bibtex_value(author.get("family", "")), _bibtex_value(_given(author.get("given", "")))
    if given:
        return f"{family}, {given}"
    return f"{{{family}}}" if " " in family else family


def to_bibtex(ref: dict, key: str | None = None) -> str:
    """One reference as a BibTeX entry (``doi`` and ``url`` verbatim, everything else escaped)."""
    kind = entry_kind(ref)
    fields: list[tuple[str, str]] = []
    if ref.get("authors"):
        fields.append(("author", " and ".join(_bibtex_name(a) for a in ref["authors"])))
    container_field = {"article": "journal", "inproceedings": "booktitle"}.get(kind, "howpublished")
    for name, field in (
        ("title", "title"), ("container", container_field), ("year", "year"), ("volume", "volume"),
        ("issue", "number"), ("pages", "pages"), ("doi", "doi"), ("pmid", "pmid"), ("url", "url"),
    ):
        value = str(ref.get(name) or "")
        if value:
            value = re.sub(r"[–—]", "--", value) if name == "pages" else value
            fields.append((field, value if name in ("doi", "url") else _bibtex_value(value)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key or cite_key(ref)},\n{body}\n}}\n"


def to_csl(ref: dict, item_id: str | None = None) -> dict:
    """One reference as a CSL-JSON item."""
    item: dict[str, object] = {"id": item_id or cite_key(ref), "type": _CSL_TYPES[entry_kind(ref)]}
    if ref.get("authors"):
        item["author"] = [
            {"family": a.get("family", ""), **({"given": _given(a["given"])} if a.get("given") else {})}
            for a in ref["authors"]
        ]
    for name, csl in (
        ("title", "title"), ("container", "container-title"), ("volume", "volume"), ("issue", "issue"),
        ("pages", "page"), ("doi", "DOI"), ("pmid", "PMID"), ("url", "URL"),
    ):
        if ref.get(name):
            item[csl] = str(ref[name])
    year = re.match(r"\d{4}", str(ref.get("year") or ""))
    if year:
        item["issued"] = {"date-parts": [[int(year.group())]]}
    return item


def bibtex(refs: Sequence[dict]) -> str:
    """Several references as a BibTeX file, with unique keys."""
    return "\n".join(to_bibtex(ref, key) for ref, key in zip(refs, unique_keys(refs)))


def csl_json(refs: Sequence[dict]) -> list[dict]:
    """Several references as a CSL-JSON list, with unique ids."""
    return [to_csl(ref, key) for ref, key in zip(refs, unique_keys(refs))]
