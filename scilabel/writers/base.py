"""What an output format is: a :class:`Writer` writes the record kinds whose method it overrides.

A command reads the :data:`~scilabel.writers.WRITERS` registry for its ``--format`` choices (the
writers of its record kind) and writes with the one chosen; it never names a format itself.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..structure import Article
    from ..zones import Zone

#: Page records of ``scilabel label`` (:func:`scilabel.fields.page_record`), one per page.
LABEL = "label"
#: Parsed references of ``scilabel refs`` (dicts of :meth:`scilabel.references.ReferenceParser.parse`).
REFERENCES = "references"
#: The article tree of ``scilabel structure`` (:class:`scilabel.structure.Article`).
STRUCTURE = "structure"
#: Component zones of ``scilabel zones`` (:class:`scilabel.zones.Zone`).
ZONES = "zones"
#: Every record kind; each is the name of the :class:`Writer` method that writes it.
KINDS = (LABEL, REFERENCES, STRUCTURE, ZONES)


class Writer:
    """An output format. A subclass sets :attr:`name` and overrides the method of each record kind
    it can write (:attr:`kinds`); every method returns the whole output as text, written as UTF-8."""

    #: The format's name, the value of ``--format``.
    name: str = ""

    @property
    def kinds(self) -> frozenset[str]:
        """The record kinds this writer writes: those whose method its class overrides."""
        return frozenset(kind for kind in KINDS if getattr(type(self), kind) is not getattr(Writer, kind))

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        """Page records; ``batch``: they come from a run over several pages (a directory), where a
        failed page has no record."""
        raise self._cannot(LABEL)

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        """Parsed references; ``record``: the JSON document they were reported in, when there is one
        (a page's source, model, anchor format and references; or the one reference parsed from a string)."""
        raise self._cannot(REFERENCES)

    def structure(self, article: Article) -> str:
        """The article tree of one page."""
        raise self._cannot(STRUCTURE)

    def zones(self, zones: Sequence[Zone]) -> str:
        """The component zones of one page, in reading order."""
        raise self._cannot(ZONES)

    def _cannot(self, kind: str) -> ValueError:
        return ValueError(f"the {self.name} format cannot write {kind} (it writes {', '.join(sorted(self.kinds))})")


class ReferencesWriter(Writer):
    """A format of references alone (a bibliography): of page records it writes their references,
    all pages' in one bibliography."""

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        return self.references([ref for record in records for ref in record["references"]])
