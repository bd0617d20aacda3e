"""RIS, the tagged format reference managers (EndNote, Zotero, Mendeley) import."""
from __future__ import annotations

import re
from collections.abc import Sequence

from .base import ReferencesWriter
from .citation import entry_kind, given_names, page_range, unique_keys

_RIS_TYPES = {"article": "JOUR", "inproceedings": "CONF", "incollection": "CHAP", "book": "BOOK", "misc": "GEN"}
#: Reference field -> RIS tag, in the order written.
_TAGS = (("title", "TI"), ("container", "T2"), ("volume", "VL"), ("issue", "IS"), ("publisher", "PB"),
         ("location", "CY"), ("doi", "DO"), ("pmid", "AN"), ("url", "UR"))


def _name(author: dict) -> str:
    given = given_names(author.get("given", ""))
    return f"{author.get('family', '')}, {given}" if given else author.get("family", "")


def to_ris(ref: dict, key: str) -> str:
    """One reference as a RIS record (``TY`` ... ``ER``), one tag a line."""
    lines = [("TY", _RIS_TYPES[entry_kind(ref)]), ("ID", key)]
    lines += [("AU", _name(a)) for a in ref.get("authors") or []]
    year = re.match(r"\d{4}", str(ref.get("year") or ""))
    if year:
        lines.append(("PY", year.group()))
    if ref.get("pages"):
        first, last = page_range(ref["pages"])
        lines += [("SP", first)] + ([("EP", last)] if last else [])
    lines += [(tag, ref[name]) for name, tag in _TAGS if ref.get(name)]
    return "".join(f"{tag}  - {' '.join(str(value).split())}\n" for tag, value in lines) + "ER  - \n"


class RisWriter(ReferencesWriter):
    """RIS records, one per reference, apart by a blank line."""

    name = "ris"

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        return "\n".join(to_ris(ref, key) for ref, key in zip(references, unique_keys(references)))
