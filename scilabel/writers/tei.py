"""TEI XML in the shape GROBID writes (``teiHeader`` with the article's own ``biblStruct``, ``text/body``
of ``div``/``head``/``p``/``s`` with ``ref type="bibr"`` at each citation, ``back`` with the reference
list as ``listBibl/biblStruct``), so that what reads GROBID's output reads scilabel's."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from lxml import etree

from .. import __version__
from ..references.names import split_name
from .anchors import CitationSpans
from .base import Writer
from .citation import entry_kind, page_range
from .front import author_affiliations
from .xmltree import append_text, document, leaf, sub

if TYPE_CHECKING:
    from ..structure import Article, Section

TEI = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_DATE = re.compile(r"(\d{4})(?:[-/](\d{1,2}))?(?:[-/](\d{1,2}))?")


def _when(text: object) -> str | None:
    """An ISO date (``2024``, ``2024-03``, ``2024-03-14``) from a written one, or None."""
    m = _DATE.search(str(text or ""))
    return "-".join(f"{int(p):02d}" if i else p for i, p in enumerate(m.groups()) if p) if m else None


def _pers_name(parent: etree._Element, given: str | None, family: str | None, full: str) -> None:
    pers = sub(parent, "persName")
    if family:
        for n, part in enumerate((given or "").split()):
            sub(pers, "forename", part, type="first" if n == 0 else "middle")
        sub(pers, "surname", family)
    else:
        append_text(pers, full)


def _imprint(monogr: etree._Element, ref: dict) -> None:
    imprint = sub(monogr, "imprint")
    leaf(imprint, "publisher", ref.get("publisher"))
    leaf(imprint, "pubPlace", ref.get("location"))
    leaf(imprint, "biblScope", ref.get("volume"), unit="volume")
    leaf(imprint, "biblScope", ref.get("issue"), unit="issue")
    if ref.get("pages"):
        first, last = page_range(ref["pages"])
        sub(imprint, "biblScope", None if last else first, unit="page", **({"from": first, "to": last} if last else {}))
    when = _when(ref.get("year"))
    if when:
        sub(imprint, "date", ref.get("year"), type="published", when=when)


def _bibl_struct(parent: etree._Element, ref: dict, xml_id: str | None) -> etree._Element:
    """A parsed reference as GROBID's ``biblStruct``: ``analytic`` (a part's title and authors) and
    ``monogr`` (the journal, proceedings or book, with its imprint), ids, and the raw string."""
    bibl = sub(parent, "biblStruct", **({XML_ID: xml_id} if xml_id else {}))
    kind = entry_kind(ref)
    part = kind != "book" and (ref.get("container") or kind == "article")
    holder = sub(bibl, "analytic") if part else None
    monogr = sub(bibl, "monogr")
    for author in ref.get("authors") or []:
        full = " ".join(p for p in (author.get("given"), author.get("family")) if p)
        _pers_name(sub(holder if holder is not None else monogr, "author"), author.get("given"), author.get("family"), full)
    if part:
        leaf(holder, "title", ref.get("title"), level="a", type="main")
        leaf(monogr, "title", ref.get("container"), level="j" if kind == "article" else "m")
    else:
        sub(monogr, "title", ref.get("title") or ref.get("container"), level="m", type="main")
    _imprint(monogr, ref)
    for key, kind_name in (("doi", "DOI"), ("pmid", "PMID")):
        leaf(bibl, "idno", ref.get(key), type=kind_name)
    if ref.get("url"):
        sub(bibl, "ptr", target=ref["url"])
    leaf(bibl, "note", ref.get("text"), type="raw_reference")
    return bibl


class _Body:
    """Writes the body: ``div``/``head``/``p``/``s`` with citation ``ref``s to the ``b0``, ``b1`` ...
    of the reference list."""

    def __init__(self, article: Article) -> None:
        self.citations = CitationSpans(article.references)
        self.target = {ref["id"]: f"b{n}" for n, ref in enumerate(article.references) if ref.get("id")}
        self.figures = 0

    def sentences(self, parent: etree._Element, sentences: list) -> None:
        for sentence in sentences:
            s = sub(parent, "s")
            cites = [rid for rid in sentence.cites if rid in self.target]
            at = 0
            for start, end, ids in self.citations(sentence.text, cites):
                append_text(s, sentence.text[at:start])
                sub(s, "ref", sentence.text[start:end], type="bibr", target=" ".join(f"#{self.target[i]}" for i in ids))
                at = end
            append_text(s, sentence.text[at:])

    def blocks(self, parent: etree._Element, blocks: list) -> None:
        from ..structure import Figure, Footnote, Item  # the structure package loads the labeller: only when used

        items: etree._Element | None = None
        for block in blocks:
            if isinstance(block, Item):
                if items is None:
                    items = sub(parent, "list")
                self.sentences(sub(items, "item"), block.sentences)
                continue
            items = None
            if isinstance(block, Figure):
                figure = sub(parent, "figure", **{XML_ID: f"fig_{self.figures}",
                                                  **({"type": "table"} if block.kind == "table" else {})})
                self.figures += 1
                leaf(figure, "head", block.label)
                leaf(figure, "figDesc", block.caption)
            elif isinstance(block, Footnote):
                sub(parent, "note", block.text, place="foot", n=block.marker)
            else:
                self.sentences(sub(parent, "p"), block.sentences)

    def section(self, parent: etree._Element, sec: Section) -> None:
        """A section as a ``div`` (GROBID's are flat: subsections follow their parent)."""
        div = sub(parent, "div")
        if sec.title or sec.number:
            sub(div, "head", sec.title, n=sec.number)
        self.blocks(div, sec.blocks)
        for child in sec.sections:
            self.section(parent, child)


class TeiWriter(Writer):
    """GROBID-shaped TEI XML of the article."""

    name = "tei"

    def structure(self, article: Article) -> str:
        from ..structure import references_section

        meta = article.metadata or {}
        root = etree.Element(f"{{{TEI}}}TEI", nsmap={None: TEI})
        header = sub(root, "teiHeader")
        file_desc = sub(header, "fileDesc")
        sub(sub(file_desc, "titleStmt"), "title", article.title or meta.get("title"), level="a", type="main")
        publication = sub(file_desc, "publicationStmt")
        leaf(publication, "publisher", meta.get("publisher"))
        own = sub(sub(file_desc, "sourceDesc"), "biblStruct")
        analytic = sub(own, "analytic")
        for name, linked in zip(article.authors, author_affiliations(article)):
            author = sub(analytic, "author")
            parts = split_name(name)
            _pers_name(author, parts.get("given"), parts.get("family"), name)
            for i in linked:
                affiliation = sub(author, "affiliation", key=f"aff{i}")
                sub(affiliation, "note", article.affiliations[i], type="raw_affiliation")
                sub(affiliation, "orgName", article.affiliations[i], type="institution")
        leaf(analytic, "title", article.title or meta.get("title"), level="a", type="main")
        monogr = sub(own, "monogr")
        leaf(monogr, "title", meta.get("journal"), level="j")
        for issn in meta.get("issn") or []:
            sub(monogr, "idno", issn, type="ISSN")
        _imprint(monogr, {"volume": meta.get("volume"), "issue": meta.get("issue"),
                          "pages": "–".join(p for p in (meta.get("first_page"), meta.get("last_page")) if p),
                          "year": meta.get("publication_date") or meta.get("online_date")})
        leaf(own, "idno", meta.get("doi"), type="DOI")
        app = sub(sub(sub(header, "encodingDesc"), "appInfo"), "application", ident="scilabel", version=__version__,
                  when=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M+0000"))
        sub(app, "desc", "scilabel: labelled zones of a rendered article web page")
        if article.source:
            sub(app, "ref", article.source, target=article.source)
        profile = sub(header, "profileDesc")
        body = _Body(article)
        abstract = sub(profile, "abstract")
        for part in article.abstract:
            body.section(abstract, part)
        if meta.get("keywords"):
            keywords = sub(sub(profile, "textClass"), "keywords")
            for word in meta["keywords"]:
                sub(keywords, "term", word)
        text = sub(root, "text", **({XML_LANG: meta["language"].split("-")[0].lower()} if meta.get("language") else {}))
        body_el = sub(text, "body")
        for sec in article.sections:
            if not references_section(sec):  # the bibliography's heading: its list is the back's listBibl
                body.section(body_el, sec)
        body.blocks(body_el, article.footnotes)
        back = sub(text, "back")
        bibliography = sub(sub(back, "div", type="references"), "listBibl")
        for n, ref in enumerate(article.references):
            _bibl_struct(bibliography, ref, f"b{n}")
        return document(root)
