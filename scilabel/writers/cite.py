"""The labelled article's own citation in a bibliography format: ``cite-bibtex``, ``cite-csl`` and
``cite-ris`` write, for each page record, the article's reference merged from the visible fields and
the page's declared metadata (:func:`~scilabel.writers.citation.article_reference`), where ``bibtex``,
``csl`` and ``ris`` write the page's references."""
from __future__ import annotations

from collections.abc import Sequence

from .base import Writer
from .citation import article_reference


class CiteWriter(Writer):
    """The article's own citation, written by a bibliography writer (``bibliography``) of the pages'
    merged records; its name is that writer's with ``cite-`` before it."""

    def __init__(self, bibliography: Writer) -> None:
        self.bibliography = bibliography
        self.name = f"cite-{bibliography.name}"

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        return self.bibliography.references([article_reference(record) for record in records])
