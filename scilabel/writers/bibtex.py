"""BibTeX: one entry per reference, with unique keys."""
from __future__ import annotations

import re
from collections.abc import Sequence

from .base import ReferencesWriter
from .citation import cite_key, entry_kind, given_names, unique_keys

_BIBTEX_SPECIAL = re.compile(r"([\\{}%&$#_^~])")
_BIBTEX_ESCAPES = {"\\": r"\textbackslash{}", "^": r"\^{}", "~": r"\~{}"}


def _bibtex_value(text: str) -> str:
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _bibtex_name(author: dict) -> str:
    """``Family, Given``; a family name alone is braced when it has spaces (``{World Bank}``)."""
    family, given = _bibtex_value(author.get("family", "")), _bibtex_value(given_names(author.get("given", "")))
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


class BibtexWriter(ReferencesWriter):
    """BibTeX entries (``article``, ``inproceedings``, ``book``, ``misc``) keyed ``smith2001glial``."""

    name = "bibtex"

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        return "\n".join(to_bibtex(ref, key) for ref, key in zip(references, unique_keys(references)))
