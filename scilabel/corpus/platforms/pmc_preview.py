"""NLM/NCBI JATS preview: ``jats-html.xsl`` (XSLT 1.0, lxml) with its ``jats-preview.css``.

A metadata table (journal, article ids, dates, permissions, funding) opens the page; then the title,
one two-column row per contributor (name and markers left, details right), the affiliations and author
notes, one row per abstract (its title left, text right), the body, back matter and the reference list
as a table of label and citation cells, and the keywords and counts at the foot.

Seeded variants are the repository's own pipelines (``shells/saxon``): the main transform after the
NLM/PubMed citation pre-pass (``jats-PMCcit.xsl`` punctuates element citations, which the main
transform alone runs together: "J BanchereauR. M Steinman1998Dendritic"), or after the web filter and
that pre-pass. The tool has no site chrome and no meta tags.
"""
from __future__ import annotations

import random

from lxml import etree

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.markup import (
    PageDropped,
    by_id,
    check,
    finish,
    has_class,
    load_jats,
    mark,
    mark_authors,
    mark_blocks,
    mark_citations,
    mark_content,
    mark_loose_text,
    mark_references,
    mark_section,
    mismatch,
    parse_html,
    shown_text,
    style_sheet,
    transform,
)
from scilabel.corpus.templates.base import PageContext, pick

FOLDER = "ncbi__JATSPreviewStylesheets"
MAIN = "xslt/main/jats-html.xsl"
#: The NLM/PubMed citation pre-pass: every citation becomes a punctuated ``mixed-citation``.
CITATIONS = "xslt/citations-prep/jats-PMCcit.xsl"
#: Pre-passes before the main transform, per variant (the repository's saxon shells chain them).
PIPELINES: dict[str, tuple[str, ...]] = {
    "pmc-citations": (CITATIONS,),
    "web-pmc-citations": ("xslt/prep/jats-webfilter.xsl", CITATIONS),
}
_ROW = f"div[{has_class('metadata')} and {has_class('table')}]"
_SECTION = f"{has_class('section')} or {has_class('back-section')}"


class PmcPreview(PlatformFamily):
    name = "pmc_preview"
    description = "NLM/NCBI JATS preview page (jats-html.xsl through lxml, jats-preview.css)"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        return None  # lxml only

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir() / FOLDER
        variant = pick(rng, {v: 1 for v in PIPELINES})
        doc = load_jats(article.source)
        for step in PIPELINES[variant]:
            doc = transform(root / step, doc)
        page = parse_html(str(transform(root / MAIN, doc)))
        # the preview's warnings to the editor ("{ label needed for aff[@id='aff1'] }") are no page text
        for el in page.xpath(f"//*[{has_class('warning')}]"):
            el.drop_tree()
        gold(page, article)
        return finish(page, style_sheet(root / "jats-preview.css"), variant)


def gold(page: etree._Element, article: Article) -> None:
    """Mark the preview's components (module docstring) after checking them against ``article``."""
    front = page.xpath("//div[@id='article-front']")
    if not front:
        raise PageDropped("no front matter on the page")
    # the first title block is the article's (sub-articles such as decision letters follow with theirs)
    heads = front[0].xpath(f"(.//div[{has_class('centered')}])[1]/*[(self::h1 or self::h2) and {has_class('document-title')}]")
    if not heads:
        raise PageDropped("title: not found on the page")
    why = mismatch(" ".join(shown_text(h) for h in heads), article.title, slack=2)
    if why:
        raise PageDropped(f"title: text mismatch, {why}")
    for h in heads:
        mark(h, "title")
    rows = _front_rows(heads[0].getparent())
    if article.authors:
        cells = [r.xpath("div[1]")[0] for r in rows["contrib"]]
        for cell in mark_authors(cells, article.authors, front[0], slack=16):
            for entry in cell.iter("p"):  # "(Equal contributor)": a note, not a name
                if not "".join(entry.xpath("text()|*[not(" + has_class("generated") + ")]//text()")).strip():
                    mark(entry, "other")
    _affiliations(page, front[0], rows["contrib"] + rows["affs"], article)
    if article.abstract:
        _abstract(rows["abstract"], article)
    refs = []
    for row in page.xpath(f"//div[{has_class('ref-list')} and {has_class('table')}]/div[{has_class('row')}]"):
        known = {r.ref_id: r for r in article.references}
        ids = [a.get("id") for a in row.xpath("div[1]//a[@id]") if a.get("id") in known]
        if ids:
            refs.append((row, known[ids[0]]))
    mark_references(refs, article, slack=6)
    for heading in page.xpath(f"//div[{has_class('ref-list')} and {has_class('section')}]/*[self::h2 or self::h3]"):
        mark(heading, "references_heading")
    for container in page.xpath("//div[@id='article-body' or @id='article-back']"):
        _sections(container, 1)
        mark_loose_text(container, article)
    mark_citations(page, article)


def _front_rows(title_block: etree._Element) -> dict[str, list[etree._Element]]:
    """The front-matter rows after the title: contributors, the affiliation block, abstracts."""
    rows: dict[str, list[etree._Element]] = {"contrib": [], "affs": [], "abstract": []}
    part = "contrib"
    for sib in title_block.itersiblings():
        if sib.tag == "hr":
            part = "abstract"
            continue
        if not sib.xpath(f"self::{_ROW}"):
            continue
        row = sib.xpath(f"div[{has_class('row')}]")[0]
        if part == "contrib" and row.xpath(f"div[1][{has_class('empty')}]"):
            rows["affs"].append(row)
        else:
            rows[part].append(row)
    return rows


def _affiliations(page: etree._Element, front: etree._Element, rows: list[etree._Element], article: Article) -> None:
    """Each affiliation's entry, by its id (the preview keeps JATS ids) or, for an unnamed one, by its
    text among the entries of the contributor details and the affiliation block; one the page shows
    nowhere is skipped."""
    entries = [p for r in rows for p in r.xpath(f"div[2]//p[{has_class('metadata-entry')}]")]
    for aff in article.affiliations:
        anchor = by_id(page, aff.aff_id)
        if anchor is not None:
            entry = next(anchor.iterancestors("p"), None)
        else:
            entry = next((p for p in entries if mismatch(shown_text(p), aff.text, 8) is None), None)
            if entry is None and not shows(front, aff.text):
                continue
        mark(check(f"affiliation {aff.aff_id}", entry, aff.text, slack=8), "affiliations")


def _abstract(rows: list[etree._Element], article: Article) -> None:
    expected = article.abstract_text
    slack = 4 + len(expected.split()) // 20
    for row in rows:
        heading, body = row.xpath("div[1]"), row.xpath("div[2]")
        if heading and body and mismatch(shown_text(body[0]), expected, slack) is None:
            mark(body[0], "abstract")
            for el in body[0].xpath(".//p | .//h3 | .//li"):
                mark_content(el)
            if shown_text(heading[0]):
                mark(heading[0], "abstract_heading")
            return
    raise PageDropped("abstract: no abstract row shows the article's main abstract")


def _sections(container: etree._Element, level: int) -> None:
    """Mark the body's sections, headings, paragraphs, list items and captions as article content."""
    for sec in container.xpath(f"div[({_SECTION}) and not({has_class('ref-list')})]"):
        mark_section(sec, level)
        mark_blocks(sec, heading="*[self::h2 or self::h3 or self::h4 or self::h5]",
                    paragraph=f"p | div[not({_SECTION})]//p[not(ancestor::table)]",
                    item=f"ul/li | ol/li | div[not({_SECTION})]//li | .//div[{has_class('def-item')}]",
                    caption=f".//div[{has_class('caption')}] | .//div[{has_class('caption')}]"
                            f"/preceding-sibling::h5[{has_class('label')}]",
                    footnote=f".//div[{has_class('table-wrap-foot')}]")
        _sections(sec, level + 1)
