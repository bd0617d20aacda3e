"""scilabel XML of the article tree.

``paper`` holds the front matter (title, authors, affiliations, abstract), then nested ``section``
elements (number, level, title) of ``paragraph`` and ``item`` elements made of ``sentence``
elements, ``figure`` captions, then ``footnotes`` and ``references``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from .base import Writer
from .xmltree import document, leaf, sub

if TYPE_CHECKING:
    from ..structure import Article, Paragraph, Section

#: Reference fields written as child elements of a ``reference``, in order.
REFERENCE_FIELDS = ("title", "container", "year", "volume", "issue", "pages", "doi", "pmid", "url")


def _sentences_xml(parent: etree._Element, block: Paragraph) -> None:
    for sentence in block.sentences:
        sub(parent, "sentence", sentence.text, cites=" ".join(sentence.cites))


def _blocks_xml(parent: etree._Element, blocks: list) -> None:
    from ..structure import Figure, Footnote, Item  # the structure package loads the labeller: only when used

    for block in blocks:
        if isinstance(block, Figure):
            sub(parent, "figure", block.caption, kind=block.kind, label=block.label)
        elif isinstance(block, Footnote):
            sub(parent, "footnote", block.text, marker=block.marker)
        else:
            el = sub(parent, "item" if isinstance(block, Item) else "paragraph", marker=getattr(block, "marker", None))
            _sentences_xml(el, block)


def _section_xml(parent: etree._Element, sec: Section) -> None:
    el = sub(parent, "section", number=sec.number, level=sec.level)
    leaf(el, "title", sec.title)
    _blocks_xml(el, sec.blocks)
    for child in sec.sections:
        _section_xml(el, child)


def _reference_xml(parent: etree._Element, ref: dict) -> None:
    el = sub(parent, "reference", id=ref.get("id"), label=ref.get("label"))
    leaf(el, "text", ref.get("text"))
    for author in ref.get("authors") or []:
        a = sub(el, "author")
        leaf(a, "given", author.get("given"))
        leaf(a, "family", author.get("family"))
    for name in REFERENCE_FIELDS:
        leaf(el, name, ref.get(name))


class XmlWriter(Writer):
    """scilabel XML, which follows the article tree."""

    name = "xml"

    def structure(self, article: Article) -> str:
        root = etree.Element("paper")
        leaf(root, "title", article.title)
        authors = sub(root, "authors")
        for name in article.authors:
            sub(authors, "author", name)
        affiliations = sub(root, "affiliations")
        for aff in article.affiliations:
            sub(affiliations, "affiliation", aff)
        abstract = sub(root, "abstract")
        for part in article.abstract:
            if part.title:
                _section_xml(abstract, part)
            else:
                _blocks_xml(abstract, part.blocks)
        for sec in article.sections:
            _section_xml(root, sec)
        if article.footnotes:
            _blocks_xml(sub(root, "footnotes"), article.footnotes)
        refs = sub(root, "references")
        for ref in article.references:
            _reference_xml(refs, ref)
        return document(root)
