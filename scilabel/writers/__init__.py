"""Output formats: the :data:`WRITERS` registry every command reads for its ``--format`` choices
and its writing.

    WRITERS["bibtex"].references(refs)          # a bibliography of parsed references
    WRITERS["cite-bibtex"].label(records)       # each labelled article's own citation
    WRITERS["jats"].structure(article)          # the article tree as JATS XML
    formats(LABEL)                              # the formats `scilabel label` offers

A writer is a :class:`Writer` whose class overrides the method of each record kind it can write
(:data:`LABEL`, :data:`REFERENCES`, :data:`STRUCTURE`, :data:`ZONES`); a format of references alone
subclasses :class:`ReferencesWriter` and writes page records' references too. A new format is one
module here and one line in :data:`WRITERS`.
"""
from __future__ import annotations

from .base import KINDS, LABEL, REFERENCES, STRUCTURE, ZONES, ReferencesWriter, Writer
from .bibtex import BibtexWriter
from .cite import CiteWriter
from .csl import CslWriter
from .jats import JatsWriter
from .json import JsonWriter
from .jsonl import JsonLinesWriter
from .ris import RisWriter
from .table import TableWriter
from .tei import TeiWriter
from .tsv import TsvWriter
from .xml import XmlWriter

__all__ = ["KINDS", "LABEL", "REFERENCES", "STRUCTURE", "WRITERS", "ZONES", "ReferencesWriter", "Writer", "formats"]

#: Format name -> writer, in the order commands list them.
WRITERS: dict[str, Writer] = {writer.name: writer for writer in (
    JsonWriter(),
    JsonLinesWriter(),
    TsvWriter(),
    TableWriter(),
    XmlWriter(),
    JatsWriter(),
    TeiWriter(),
    BibtexWriter(),
    CslWriter(),
    RisWriter(),
    CiteWriter(BibtexWriter()),
    CiteWriter(CslWriter()),
    CiteWriter(RisWriter()),
)}


def formats(kind: str) -> tuple[str, ...]:
    """The names of the formats that write records of ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"unknown record kind {kind!r} (one of {', '.join(KINDS)})")
    return tuple(name for name, writer in WRITERS.items() if kind in writer.kinds)
