"""CSL-JSON, the citation items Zotero and citeproc read."""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

from .base import ReferencesWriter
from .citation import cite_key, entry_kind, given_names, unique_keys

_CSL_TYPES = {"article": "article-journal", "inproceedings": "paper-conference", "incollection": "chapter",
              "book": "book", "misc": "document"}


def to_csl(ref: dict, item_id: str | None = None) -> dict:
    """One reference as a CSL-JSON item."""
    item: dict[str, object] = {"id": item_id or cite_key(ref), "type": _CSL_TYPES[entry_kind(ref)]}
    if ref.get("authors"):
        item["author"] = [
            {"family": a.get("family", ""), **({"given": given_names(a["given"])} if a.get("given") else {})}
            for a in ref["authors"]
        ]
    for name, csl in (
        ("title", "title"), ("container", "container-title"), ("volume", "volume"), ("issue", "issue"),
        ("pages", "page"), ("publisher", "publisher"), ("location", "publisher-place"), ("doi", "DOI"), ("pmid", "PMID"), ("url", "URL"),
    ):
        if ref.get(name):
            item[csl] = str(ref[name])
    year = re.match(r"\d{4}", str(ref.get("year") or ""))
    if year:
        item["issued"] = {"date-parts": [[int(year.group())]]}
    return item


def csl_items(refs: Sequence[dict]) -> list[dict]:
    """Several references as a CSL-JSON list, with unique ids."""
    return [to_csl(ref, key) for ref, key in zip(refs, unique_keys(refs))]


class CslWriter(ReferencesWriter):
    """A CSL-JSON list of items with unique ids."""

    name = "csl"

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        return json.dumps(csl_items(references), ensure_ascii=False, indent=2)
