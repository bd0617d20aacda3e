"""The article tree as a JSON-ready dict, as scilabel XML and as JATS-flavoured XML.

scilabel XML follows the tree: ``paper`` holds the front matter (title, authors, affiliations,
abstract), then nested ``section`` elements (number, level, title) of ``paragraph`` and ``item``
elements made of ``sentence`` elements, ``figure`` captions, then ``footnotes`` and
``references``. JATS output uses ``article/front/article-meta``, ``body/sec/p`` and
``back/ref-list/ref``. Both are built with lxml, so they are well-formed UTF-8; characters XML
cannot hold (control characters) are dropped.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from lxml import etree

from ..atomic import write_bytes
from .tree import Article, Figure, Footnote, Item, Paragraph, Section

FORMATS = ("xml", "jats", "json")
XLINK = "http://www.w3.org/1999/xlink"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_PAGES = re.compile(r"^\s*([\w.]+)\s*[-–—]+\s*([\w.]+)\s*$")
#: Reference fields written as child elements of a scilabel ``reference``, in order.
REFERENCE_FIELDS = ("title", "container", "year", "volume", "issue", "pages", "doi", "pmid", "url")


def xml_text(text: object) -> str:
    """``text`` as a string XML can hold."""
    return _NOT_XML.sub("", str(text))


def _sub(parent: etree._Element, tag: str, text: object = None, **attrs: object) -> etree._Element:
    el = etree.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items() if v not in (None, "")})
    if text not in (None, ""):
        el.text = xml_text(text)
    return el


def _leaf(parent: etree._Element, tag: str, text: object, **attrs: object) -> None:
    """A text element, left out when there is no text."""
    if text not in (None, ""):
        _sub(parent, tag, text, **attrs)


# ---------------------------------------------------------------------------- JSON


def _sentences_json(block: Paragraph) -> list[dict]:
    return [{"text": s.text, "cites": list(s.cites)} for s in block.sentences]


def _block_json(block: Paragraph | Figure | Footnote) -> dict:
    if isinstance(block, Figure):
        return {"type": "figure", "kind": block.kind, "label": block.label, "caption": block.caption}
    if isinstance(block, Footnote):
        return {"type": "footnote", "marker": block.marker, "text": block.text}
    if isinstance(block, Item):
        return {"type": "item", "marker": block.marker, "sentences": _sentences_json(block)}
    return {"type": "paragraph", "sentences": _sentences_json(block)}


def _section_json(sec: Section) -> dict:
    return {"number": sec.number, "title": sec.title, "level": sec.level,
            "content": [_block_json(b) for b in sec.blocks], "sections": [_section_json(s) for s in sec.sections]}


def to_json(article: Article) -> dict:
    """The article as a JSON-ready dict (front matter, sections, footnotes, references)."""
    return {
        "title": article.title,
        "authors": list(article.authors),
        "affiliations": list(article.affiliations),
        "abstract": [_section_json(s) for s in article.abstract],
        "sections": [_section_json(s) for s in article.sections],
        "footnotes": [_block_json(f) for f in article.footnotes],
        "references": [dict(r) for r in article.references],
    }


# ---------------------------------------------------------------------------- scilabel XML


def _sentences_xml(parent: etree._Element, block: Paragraph) -> None:
    for sentence in block.sentences:
        _sub(parent, "sentence", sentence.text, cites=" ".join(sentence.cites))


def _blocks_xml(parent: etree._Element, blocks: list) -> None:
    for block in blocks:
        if isinstance(block, Figure):
            _sub(parent, "figure", block.caption, kind=block.kind, label=block.label)
        elif isinstance(block, Footnote):
            _sub(parent, "footnote", block.text, marker=block.marker)
        else:
            el = _sub(parent, "item" if isinstance(block, Item) else "paragraph",
                      marker=getattr(block, "marker", None))
            _sentences_xml(el, block)


def _section_xml(parent: etree._Element, sec: Section) -> None:
    el = _sub(parent, "section", number=sec.number, level=sec.level)
    _leaf(el, "title", sec.title)
    _blocks_xml(el, sec.blocks)
    for sub in sec.sections:
        _section_xml(el, sub)


def _reference_xml(parent: etree._Element, ref: dict) -> None:
    el = _sub(parent, "reference", id=ref.get("id"), label=ref.get("label"))
    _leaf(el, "text", ref.get("text"))
    for author in ref.get("authors") or []:
        a = _sub(el, "author")
        _leaf(a, "given", author.get("given"))
        _leaf(a, "family", author.get("family"))
    for name in REFERENCE_FIELDS:
        _leaf(el, name, ref.get(name))


def _tree_bytes(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def to_xml(article: Article) -> bytes:
    """scilabel XML of the article (UTF-8 bytes with an XML declaration)."""
    root = etree.Element("paper")
    _leaf(root, "title", article.title)
    authors = _sub(root, "authors")
    for name in article.authors:
        _sub(authors, "author", name)
    affiliations = _sub(root, "affiliations")
    for aff in article.affiliations:
        _sub(affiliations, "affiliation", aff)
    abstract = _sub(root, "abstract")
    for part in article.abstract:
        if part.title:
            _section_xml(abstract, part)
        else:
            _blocks_xml(abstract, part.blocks)
    for sec in article.sections:
        _section_xml(root, sec)
    if article.footnotes:
        _blocks_xml(_sub(root, "footnotes"), article.footnotes)
    refs = _sub(root, "references")
    for ref in article.references:
        _reference_xml(refs, ref)
    return _tree_bytes(root)


# ---------------------------------------------------------------------------- JATS


class _Ids:
    """Element ids in document order: fig-1, tab-1, sec-1 ..."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def __call__(self, prefix: str) -> str:
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}-{self.counts[prefix]}"


def _jats_blocks(parent: etree._Element, blocks: list, ids: _Ids) -> None:
    items: etree._Element | None = None
    for block in blocks:
        if isinstance(block, Item):
            if items is None:
                ordered = bool(block.marker and re.match(r"\(?\w+[.)]", block.marker))
                items = _sub(parent, "list", **{"list-type": "order" if ordered else "bullet"})
            _sub(_sub(items, "list-item"), "p", block.text)
            continue
        items = None
        if isinstance(block, Figure):
            table = block.kind == "table"
            el = _sub(parent, "table-wrap" if table else "fig", id=ids("tab" if table else "fig"))
            _leaf(el, "label", block.label)
            _sub(_sub(el, "caption"), "p", block.caption)
        elif isinstance(block, Footnote):
            fn = _sub(parent, "fn", id=ids("fn"))
            _leaf(fn, "label", block.marker)
            _sub(fn, "p", block.text)
        else:
            _sub(parent, "p", block.text)


def _jats_section(parent: etree._Element, sec: Section, ids: _Ids) -> None:
    el = _sub(parent, "sec", id=ids("sec"))
    _leaf(el, "label", sec.number)
    _leaf(el, "title", sec.title)
    _jats_blocks(el, sec.blocks, ids)
    for sub in sec.sections:
        _jats_section(el, sub, ids)


def _jats_reference(parent: etree._Element, ref: dict) -> None:
    el = _sub(parent, "ref", id=ref.get("id"))
    _leaf(el, "label", ref.get("label"))
    _leaf(el, "mixed-citation", ref.get("text"))
    fields = _sub(el, "element-citation")
    if ref.get("authors"):
        group = _sub(fields, "person-group", **{"person-group-type": "author"})
        for author in ref["authors"]:
            name = _sub(group, "name")
            _leaf(name, "surname", author.get("family"))
            _leaf(name, "given-names", author.get("given"))
    for key, tag in (("title", "article-title"), ("container", "source"), ("year", "year"),
                     ("volume", "volume"), ("issue", "issue")):
        _leaf(fields, tag, ref.get(key))
    pages = ref.get("pages")
    if pages:
        m = _PAGES.match(str(pages))
        if m:
            _leaf(fields, "fpage", m.group(1))
            _leaf(fields, "lpage", m.group(2))
        else:
            _leaf(fields, "fpage", pages)
    for key in ("doi", "pmid"):
        _leaf(fields, "pub-id", ref.get(key), **{"pub-id-type": key})
    _leaf(fields, "ext-link", ref.get("url"), **{"ext-link-type": "uri", f"{{{XLINK}}}href": ref.get("url")})
    if not len(fields):  # nothing parsed: the mixed citation says it all
        el.remove(fields)


def to_jats(article: Article) -> bytes:
    """JATS-flavoured XML of the article (UTF-8 bytes with an XML declaration)."""
    root = etree.Element("article", nsmap={"xlink": XLINK})
    meta = _sub(_sub(root, "front"), "article-meta")
    _sub(_sub(meta, "title-group"), "article-title", article.title)
    if article.authors:
        contribs = _sub(meta, "contrib-group")
        for name in article.authors:
            _sub(_sub(contribs, "contrib", **{"contrib-type": "author"}), "string-name", name)
    for n, aff in enumerate(article.affiliations, 1):
        _sub(meta, "aff", aff, id=f"aff-{n}")
    ids = _Ids()
    if article.abstract:
        abstract = _sub(meta, "abstract")
        for part in article.abstract:
            if part.title:
                _jats_section(abstract, part, ids)
            else:
                _jats_blocks(abstract, part.blocks, ids)
    body = _sub(root, "body")
    for sec in article.sections:
        if sec.title is None and sec.number is None:
            _jats_blocks(body, sec.blocks, ids)
            for sub in sec.sections:
                _jats_section(body, sub, ids)
        else:
            _jats_section(body, sec, ids)
    back = _sub(root, "back")
    if article.footnotes:
        _jats_blocks(_sub(back, "fn-group"), article.footnotes, ids)
    if article.references:
        refs = _sub(back, "ref-list")
        for ref in article.references:
            _jats_reference(refs, ref)
    return _tree_bytes(root)


# ---------------------------------------------------------------------------- files


def serialize(article: Article, fmt: str) -> bytes:
    """The article in ``fmt`` (``xml``, ``jats`` or ``json``) as UTF-8 bytes."""
    if fmt == "xml":
        return to_xml(article)
    if fmt == "jats":
        return to_jats(article)
    if fmt == "json":
        return (json.dumps(to_json(article), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    raise ValueError(f"unknown structure format {fmt!r} (one of {', '.join(FORMATS)})")


def write(article: Article, path: str | Path, fmt: str) -> None:
    """Write the article in ``fmt`` to ``path`` atomically."""
    write_bytes(path, serialize(article, fmt))
