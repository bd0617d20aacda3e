"""JATS-flavoured XML of the article tree: ``article/front/article-meta``, ``body/sec/p`` and
``back/ref-list/ref``."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from .base import Writer
from .citation import page_range
from .xmltree import document, leaf, sub

if TYPE_CHECKING:
    from ..structure import Article, Section

XLINK = "http://www.w3.org/1999/xlink"


class _Ids:
    """Element ids in document order: fig-1, tab-1, sec-1 ..."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def __call__(self, prefix: str) -> str:
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}-{self.counts[prefix]}"


def _jats_blocks(parent: etree._Element, blocks: list, ids: _Ids) -> None:
    from ..structure import Figure, Footnote, Item  # the structure package loads the labeller: only when used

    items: etree._Element | None = None
    for block in blocks:
        if isinstance(block, Item):
            if items is None:
                ordered = bool(block.marker and re.match(r"\(?\w+[.)]", block.marker))
                items = sub(parent, "list", **{"list-type": "order" if ordered else "bullet"})
            sub(sub(items, "list-item"), "p", block.text)
            continue
        items = None
        if isinstance(block, Figure):
            table = block.kind == "table"
            el = sub(parent, "table-wrap" if table else "fig", id=ids("tab" if table else "fig"))
            leaf(el, "label", block.label)
            sub(sub(el, "caption"), "p", block.caption)
        elif isinstance(block, Footnote):
            fn = sub(parent, "fn", id=ids("fn"))
            leaf(fn, "label", block.marker)
            sub(fn, "p", block.text)
        else:
            sub(parent, "p", block.text)


def _jats_section(parent: etree._Element, sec: Section, ids: _Ids) -> None:
    el = sub(parent, "sec", id=ids("sec"))
    leaf(el, "label", sec.number)
    leaf(el, "title", sec.title)
    _jats_blocks(el, sec.blocks, ids)
    for child in sec.sections:
        _jats_section(el, child, ids)


def _jats_reference(parent: etree._Element, ref: dict) -> None:
    el = sub(parent, "ref", id=ref.get("id"))
    leaf(el, "label", ref.get("label"))
    leaf(el, "mixed-citation", ref.get("text"))
    fields = sub(el, "element-citation")
    if ref.get("authors"):
        group = sub(fields, "person-group", **{"person-group-type": "author"})
        for author in ref["authors"]:
            name = sub(group, "name")
            leaf(name, "surname", author.get("family"))
            leaf(name, "given-names", author.get("given"))
    for key, tag in (("title", "article-title"), ("container", "source"), ("year", "year"),
                     ("volume", "volume"), ("issue", "issue")):
        leaf(fields, tag, ref.get(key))
    if ref.get("pages"):
        first, last = page_range(ref["pages"])
        leaf(fields, "fpage", first)
        leaf(fields, "lpage", last)
    for key in ("doi", "pmid"):
        leaf(fields, "pub-id", ref.get(key), **{"pub-id-type": key})
    leaf(fields, "ext-link", ref.get("url"), **{"ext-link-type": "uri", f"{{{XLINK}}}href": ref.get("url")})
    if not len(fields):  # nothing parsed: the mixed citation says it all
        el.remove(fields)


class JatsWriter(Writer):
    """JATS-flavoured XML, for tools that read journal articles."""

    name = "jats"

    def structure(self, article: Article) -> str:
        root = etree.Element("article", nsmap={"xlink": XLINK})
        meta = sub(sub(root, "front"), "article-meta")
        sub(sub(meta, "title-group"), "article-title", article.title)
        if article.authors:
            contribs = sub(meta, "contrib-group")
            for name in article.authors:
                sub(sub(contribs, "contrib", **{"contrib-type": "author"}), "string-name", name)
        for n, aff in enumerate(article.affiliations, 1):
            sub(meta, "aff", aff, id=f"aff-{n}")
        ids = _Ids()
        if article.abstract:
            abstract = sub(meta, "abstract")
            for part in article.abstract:
                if part.title:
                    _jats_section(abstract, part, ids)
                else:
                    _jats_blocks(abstract, part.blocks, ids)
        body = sub(root, "body")
        for sec in article.sections:
            if sec.title is None and sec.number is None:
                _jats_blocks(body, sec.blocks, ids)
                for child in sec.sections:
                    _jats_section(body, child, ids)
            else:
                _jats_section(body, sec, ids)
        back = sub(root, "back")
        if article.footnotes:
            _jats_blocks(sub(back, "fn-group"), article.footnotes, ids)
        if article.references:
            refs = sub(back, "ref-list")
            for ref in article.references:
                _jats_reference(refs, ref)
        return document(root)
