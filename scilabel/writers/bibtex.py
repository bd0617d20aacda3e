"""BibTeX: one entry per reference, with unique keys, each complete for its type (the fields the
standard styles require: :data:`~scilabel.writers.citation.REQUIRED_FIELDS`) or else a ``@misc``
entry whose note keeps the reference as printed."""
from __future__ import annotations

import re
from collections.abc import Sequence

from .base import ReferencesWriter
from .citation import cite_key, entry_kind, given_names, missing_fields, unique_keys

_BIBTEX_SPECIAL = re.compile(r"([\\{}%&$#_^~])")
_BIBTEX_ESCAPES = {"\\": r"\textbackslash{}", "^": r"\^{}", "~": r"\~{}"}
#: The BibTeX field of a reference's container, by entry type (a misc entry's is ``howpublished``).
_CONTAINER_FIELD = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle"}


def _bibtex_value(text: str) -> str:
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _bibtex_name(author: dict) -> str:
    """``Family, Given``; a family name alone is braced when it has spaces (``{World Bank}``)."""
    family, given = _bibtex_value(author.get("family", "")), _bibtex_value(given_names(author.get("given", "")))
    if given:
        return f"{family}, {given}"
    return f"{{{family}}}" if " " in family else family


def bibtex_type(ref: dict) -> str:
    """The entry type ``ref`` is written as: its kind (:func:`~.citation.entry_kind`) when it has every
    field that kind requires, else ``misc``."""
    kind = entry_kind(ref)
    return "misc" if missing_fields(ref, kind) else kind


def to_bibtex(ref: dict, key: str | None = None) -> str:
    """One reference as a BibTeX entry (``doi`` and ``url`` verbatim, everything else escaped); "et al."
    as ``and others``."""
    kind = bibtex_type(ref)
    fields: list[tuple[str, str]] = []
    names = [_bibtex_name(a) for a in ref.get("authors") or [] if a.get("family")]
    if names:
        fields.append(("author", " and ".join(names + ["others"] * bool(ref.get("et_al")))))
    for name, field in (
        ("title", "title"), ("container", _CONTAINER_FIELD.get(kind, "howpublished")), ("publisher", "publisher"),
        ("location", "address"), ("year", "year"), ("volume", "volume"), ("issue", "number"), ("pages", "pages"),
        ("doi", "doi"), ("pmid", "pmid"), ("url", "url"),
    ):
        value = str(ref.get(name) or "")
        if value:
            value = re.sub(r"[–—]", "--", value) if name == "pages" else value
            fields.append((field, value if name in ("doi", "url") else _bibtex_value(value)))
    if kind != entry_kind(ref) and ref.get("text"):  # incomplete for its type: keep what was printed
        fields.append(("note", _bibtex_value(f"As printed: {ref['text']}")))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key or cite_key(ref)},\n{body}\n}}\n"


class BibtexWriter(ReferencesWriter):
    """BibTeX entries (``article``, ``inproceedings``, ``incollection``, ``book``, ``misc``) keyed
    ``smith2001glial``."""

    name = "bibtex"

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        return "\n".join(to_bibtex(ref, key) for ref, key in zip(references, unique_keys(references)))
