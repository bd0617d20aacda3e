"""JATS XML of the article tree, valid against the JATS Journal Publishing DTD (:data:`DTD_VERSION`)
when the page declares what that DTD requires (a journal with an ISSN, a publication date):
``front/journal-meta`` and ``article-meta`` from the page's declared metadata, authors with name parts
linked to their affiliations, ``body/sec/p`` with an ``xref`` at each in-text citation, and
``back/ref-list/ref`` with the printed and the parsed citation."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from ..references.names import split_name
from .anchors import CitationSpans
from .base import Writer
from .citation import entry_kind, page_range
from .front import author_affiliations
from .xmltree import append_text, document, leaf, sub

if TYPE_CHECKING:
    from ..structure import Article, Section

XLINK = "http://www.w3.org/1999/xlink"
#: The JATS version written, and the document type that names its Journal Publishing DTD.
DTD_VERSION = "1.1"
DTD_PUBLIC_ID = "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.1 20151215//EN"
DTD_SYSTEM_ID = "JATS-journalpublishing1.dtd"
DOCTYPE = f'<!DOCTYPE article PUBLIC "{DTD_PUBLIC_ID}" "{DTD_SYSTEM_ID}">'
#: Reference kind (:func:`~scilabel.writers.citation.entry_kind`) -> JATS ``publication-type``.
PUBLICATION_TYPES = {"article": "journal", "book": "book", "incollection": "book", "inproceedings": "confproc",
                     "misc": "other"}
_DATE = re.compile(r"(\d{4})(?:[-/](\d{1,2}))?(?:[-/](\d{1,2}))?")


class _Ids:
    """Element ids in document order: fig-1, tab-1, sec-1 ..."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def __call__(self, prefix: str) -> str:
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}-{self.counts[prefix]}"


class _Context:
    """What the body's writing needs: element ids, the references' ids and where sentences cite them."""

    def __init__(self, references: list[dict]) -> None:
        self.ids = _Ids()
        self.citations = CitationSpans(references)
        self.ids_of_refs = {ref["id"] for ref in references if ref.get("id")}


def _sentences(parent: etree._Element, sentences: list, context: _Context) -> None:
    """Sentences as the mixed content of ``parent``, each citation anchor an ``xref`` to its references;
    cited references without a printed anchor get an empty ``xref`` at the sentence's end."""
    for n, sentence in enumerate(sentences):
        text = sentence.text if n == 0 else " " + sentence.text
        offset = 0 if n == 0 else 1
        cites = [rid for rid in sentence.cites if rid in context.ids_of_refs]
        spans = context.citations(sentence.text, cites)
        at = 0
        for start, end, ids in spans:
            append_text(parent, text[at:start + offset])
            sub(parent, "xref", text[start + offset:end + offset], **{"ref-type": "bibr", "rid": " ".join(ids)})
            at = end + offset
        append_text(parent, text[at:])
        placed = {rid for _, _, ids in spans for rid in ids}
        for rid in cites:
            if rid not in placed:
                sub(parent, "xref", **{"ref-type": "bibr", "rid": rid})


def _blocks(parent: etree._Element, blocks: list, context: _Context) -> None:
    from ..structure import Figure, Footnote, Item  # the structure package loads the labeller: only when used

    items: etree._Element | None = None
    for block in blocks:
        if isinstance(block, Item):
            if items is None:
                ordered = bool(block.marker and re.match(r"\(?\w+[.)]", block.marker))
                items = sub(parent, "list", **{"list-type": "order" if ordered else "bullet"})
            _sentences(sub(sub(items, "list-item"), "p"), block.sentences, context)
            continue
        items = None
        if isinstance(block, Figure):
            table = block.kind == "table"
            el = sub(parent, "table-wrap" if table else "fig", id=context.ids("tab" if table else "fig"))
            leaf(el, "label", block.label)
            sub(sub(el, "caption"), "p", block.caption)
        elif isinstance(block, Footnote):
            fn = sub(parent, "fn", id=context.ids("fn"))
            leaf(fn, "label", block.marker)
            sub(fn, "p", block.text)
        else:
            _sentences(sub(parent, "p"), block.sentences, context)


def _section(parent: etree._Element, sec: Section, context: _Context) -> None:
    el = sub(parent, "sec", id=context.ids("sec"))
    leaf(el, "label", sec.number)
    sub(el, "title", sec.title)
    _blocks(el, sec.blocks, context)
    for child in sec.sections:
        _section(el, child, context)


def _person_group(parent: etree._Element, ref: dict) -> None:
    names = [a for a in ref.get("authors") or [] if a.get("family")]
    if not names and not ref.get("et_al"):
        return
    group = sub(parent, "person-group", **{"person-group-type": "author"})
    for author in names:
        name = sub(group, "name")
        sub(name, "surname", author["family"])
        leaf(name, "given-names", author.get("given"))
    if ref.get("et_al"):
        sub(group, "etal")


def _reference(parent: etree._Element, ref: dict) -> None:
    el = sub(parent, "ref", id=ref.get("id"))
    leaf(el, "label", ref.get("label"))
    sub(el, "mixed-citation", ref.get("text"))
    kind = entry_kind(ref)
    fields = sub(el, "element-citation", **{"publication-type": PUBLICATION_TYPES[kind]})
    _person_group(fields, ref)
    if kind == "book":  # a whole book: its title is the source
        leaf(fields, "source", ref.get("title") or ref.get("container"))
    else:
        leaf(fields, "chapter-title" if kind == "incollection" else "article-title", ref.get("title"))
        leaf(fields, "source", ref.get("container"))
    leaf(fields, "publisher-loc", ref.get("location"))
    leaf(fields, "publisher-name", ref.get("publisher"))
    for key in ("year", "volume", "issue"):
        leaf(fields, key, ref.get(key))
    if ref.get("pages"):
        first, last = page_range(ref["pages"])
        leaf(fields, "fpage", first)
        leaf(fields, "lpage", last)
    for key in ("doi", "pmid"):
        leaf(fields, "pub-id", ref.get(key), **{"pub-id-type": key})
    leaf(fields, "ext-link", ref.get("url"), **{"ext-link-type": "uri", f"{{{XLINK}}}href": ref.get("url")})
    if len(fields) == 0:  # nothing parsed: the mixed citation says it all
        el.remove(fields)


def _journal_meta(front: etree._Element, meta: dict) -> None:
    journal = sub(front, "journal-meta")
    issns = meta.get("issn") or []
    if meta.get("journal"):
        leaf(journal, "journal-id", meta["journal"], **{"journal-id-type": "publisher-id"})
    elif issns:
        leaf(journal, "journal-id", issns[0], **{"journal-id-type": "issn"})
    if meta.get("journal"):
        sub(sub(journal, "journal-title-group"), "journal-title", meta["journal"])
    for issn in dict.fromkeys(issns):
        sub(journal, "issn", issn)
    if meta.get("publisher"):
        sub(sub(journal, "publisher"), "publisher-name", meta["publisher"])


def _contributors(meta_el: etree._Element, article: Article) -> None:
    """Authors with name parts, each linked to its affiliations (:func:`~.front.author_affiliations`);
    the affiliations numbered and labelled."""
    if article.authors:
        group = sub(meta_el, "contrib-group")
        for name, linked in zip(article.authors, author_affiliations(article)):
            contrib = sub(group, "contrib", **{"contrib-type": "author"})
            parts = split_name(name)
            if parts.get("family"):
                el = sub(contrib, "name")
                sub(el, "surname", parts["family"])
                leaf(el, "given-names", parts.get("given"))
            else:
                sub(contrib, "string-name", name)
            for i in linked:
                sub(contrib, "xref", str(i + 1), **{"ref-type": "aff", "rid": f"aff{i + 1}"})
    for n, text in enumerate(article.affiliations, 1):
        aff = sub(meta_el, "aff", id=f"aff{n}")
        sub(aff, "label", str(n))
        append_text(aff, text)


def _article_meta(front: etree._Element, article: Article, meta: dict, context: _Context) -> None:
    el = sub(front, "article-meta")
    leaf(el, "article-id", meta.get("doi"), **{"pub-id-type": "doi"})
    sub(sub(el, "title-group"), "article-title", article.title or meta.get("title"))
    _contributors(el, article)
    for kind, value in (("pub", meta.get("publication_date")), ("epub", meta.get("online_date"))):
        date = _DATE.search(value or "")
        if date:
            pub = sub(el, "pub-date", **{"pub-type": kind})
            leaf(pub, "day", date.group(3))
            leaf(pub, "month", date.group(2))
            sub(pub, "year", date.group(1))
    for key in ("volume", "issue"):
        leaf(el, key, meta.get(key))
    if meta.get("first_page"):
        sub(el, "fpage", meta["first_page"])
        leaf(el, "lpage", meta.get("last_page"))
    if article.abstract:
        abstract = sub(el, "abstract")
        for part in article.abstract:
            if part.title:
                _section(abstract, part, context)
            else:
                _blocks(abstract, part.blocks, context)
    if meta.get("keywords"):
        group = sub(el, "kwd-group")
        for word in meta["keywords"]:
            sub(group, "kwd", word)


class JatsWriter(Writer):
    """JATS XML (Journal Publishing), for tools that read journal articles."""

    name = "jats"

    def structure(self, article: Article) -> str:
        from ..structure import references_section

        meta = article.metadata or {}
        root = etree.Element("article", {"dtd-version": DTD_VERSION, "article-type": "research-article"},
                             nsmap={"xlink": XLINK})
        if meta.get("language"):
            root.set("{http://www.w3.org/XML/1998/namespace}lang", meta["language"].split("-")[0].lower())
        context = _Context(article.references)
        front = sub(root, "front")
        _journal_meta(front, meta)
        _article_meta(front, article, meta, context)
        body = sub(root, "body")
        for sec in article.sections:
            if references_section(sec):  # the bibliography's heading: its list is the back's ref-list
                continue
            if sec.title is None and sec.number is None:
                _blocks(body, sec.blocks, context)
                for child in sec.sections:
                    _section(body, child, context)
            else:
                _section(body, sec, context)
        back = sub(root, "back")
        if article.footnotes:
            _blocks(sub(back, "fn-group"), article.footnotes, context)
        if article.references:
            refs = sub(back, "ref-list")
            for ref in article.references:
                _reference(refs, ref)
        if not len(back):
            root.remove(back)
        return document(root, DOCTYPE)
