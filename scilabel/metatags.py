"""Bibliographic metadata a page declares about itself in its HEAD: Highwire ``citation_*``,
Dublin Core ``dc.*``, PRISM and Open Graph (what Zotero's Embedded Metadata translator reads)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from .lexicons import alternation

_TAGS = re.compile(r"<[^>]+>")
#: An abstract's heading (the lexicon ``abstract_headings``) opening a declared abstract.
_ABSTRACT_CAPTION = re.compile(rf"^{alternation('abstract_headings')}\b[:.]?\s*", re.I)


@dataclass
class PageMeta:
    """Metadata fields declared by a page; empty when absent."""

    title: str = ""
    authors: list[str] = field(default_factory=list)
    institutions: list[str] = field(default_factory=list)
    abstract: str = ""
    references: list[dict[str, list[str]]] = field(default_factory=list)
    doi: str = ""
    journal: str = ""
    publisher: str = ""
    date: str = ""


def _clean(text: str) -> str:
    """Strip markup that some publishers leave inside meta values, and normalise spaces."""
    if "<" in text and ">" in text:
        try:
            text = lxml.html.fromstring(f"<div>{text}</div>").text_content()
        except (etree.ParserError, ValueError):
            text = _TAGS.sub(" ", text)
    return " ".join(text.split())


def read_meta(html: str) -> PageMeta:
    """Read the page's own metadata tags (first value wins for single fields)."""
    values: dict[str, list[str]] = {}
    try:
        root = lxml.html.fromstring(html) if html.strip() else None
    except (etree.ParserError, ValueError):
        root = None
    if root is None:
        return PageMeta()
    for meta in root.iter("meta"):
        name = (meta.get("name") or meta.get("property") or "").strip().lower()
        content = meta.get("content")
        if name and content and content.strip():
            values.setdefault(name, []).append(content)

    def first(*names: str) -> str:
        for name in names:
            for value in values.get(name, []):
                cleaned = _clean(value)
                if cleaned:
                    return cleaned
        return ""

    def every(*names: str) -> list[str]:
        for name in names:
            found = list(dict.fromkeys(c for c in (_clean(v) for v in values.get(name, [])) if c))
            if found:
                return found
        return []

    abstract = first("citation_abstract", "dc.description", "dcterms.abstract", "description", "og:description")
    return PageMeta(
        title=first("citation_title", "dc.title", "dcterms.title", "prism.title", "og:title"),
        authors=every("citation_author", "dc.creator", "dcterms.creator"),
        institutions=every("citation_author_institution"),
        abstract=_ABSTRACT_CAPTION.sub("", abstract),
        references=[_parse_reference(v) for v in values.get("citation_reference", [])],
        doi=first("citation_doi", "dc.identifier", "prism.doi"),
        journal=first("citation_journal_title", "prism.publicationname", "og:site_name"),
        publisher=first("citation_publisher", "dc.publisher", "dcterms.publisher"),
        date=first("citation_publication_date", "citation_date", "dc.date", "prism.publicationdate"),
    )


def _parse_reference(value: str) -> dict[str, list[str]]:
    """``citation_reference`` content: ``citation_title=...; citation_author=...`` pairs, or free text."""
    fields: dict[str, list[str]] = {}
    if "citation_" not in value:
        return {"text": [_clean(value)]}
    for part in re.split(r";\s*(?=citation_\w+=)", value):
        key, _, val = part.partition("=")
        val = _clean(val.rstrip(";"))
        if val:
            fields.setdefault(key.strip().removeprefix("citation_"), []).append(val)
    return fields
