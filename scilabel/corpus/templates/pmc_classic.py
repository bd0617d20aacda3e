"""Older full-text archive layout: running citation header, lettered affiliations, link rows.

Above the title sits a running header that repeats the journal citation; authors are links
with lettered superscripts; references are ``<div>`` blocks each followed, on its own line, by
``[PubMed] [CrossRef] [Google Scholar]`` links (unlabelled, between references).
"""

from __future__ import annotations

import random

from scilabel.corpus.jats import Article
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import (
    Family,
    PageContext,
    PageOptions,
    aff_markers,
    chance,
    correspondence_lines,
    esc,
    inline_authors,
    lab,
    needs_markers,
    page,
    ref_attrs,
    ref_links_attrs,
    short_authors,
)
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
body { margin: 0; font: 13px/1.5 arial, helvetica, clean, sans-serif; color: #000; background: #fff; }
a { color: #2f4a8b; } a:visited { color: #5b0088; }
#universal_header { background: #e5e5e5; border-bottom: 1px solid #bbb; padding: 4px 12px; font-size: 11px; }
#branding { background: linear-gradient(#2a5796, #1d3f73); color: #fff; padding: 12px; font: bold 20px arial; }
#search_bar { background: #d4dcea; padding: 6px 12px; } #search_bar input { width: 420px; }
.container { display: table; width: 100%%; }
.content { display: table-cell; padding: 10px 20px; vertical-align: top; }
.col-right { display: table-cell; width: 230px; padding: 10px; border-left: 1px solid #ccc;
  vertical-align: top; background: #f7f7f7; }
.portlet { margin-bottom: 14px; }
.portlet h3 { font-size: 12px; background: #c7d3e3; padding: 3px 6px; margin: 0 0 4px; }
.portlet li { margin-bottom: 4px; font-size: 12px; }
.fm-citation { font-size: 12px; color: #333; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.fm-citation .cit { font-style: italic; }
h1.content-title { font-size: 20px; color: #985735; margin: 14px 0 8px; }
.fm-author { font-size: 13px; margin: 4px 0; }
.fm-panel { background: #f2f2f2; border: 1px solid #ddd; padding: 6px 10px; margin: 6px 0; font-size: 12px; }
.fm-affl { margin: 2px 0; }
.fm-copyright { font-size: 11px; color: #555; margin: 6px 0; }
h2.head { font-size: 15px; color: #985735; border-bottom: 1px solid #97b0c8; margin: 20px 0 6px; }
h3.head { font-size: 13px; color: #985735; } h4.head { font-size: 13px; font-style: italic; }
.p { margin: 0 0 10px; text-align: justify; }
.fig { border: 1px solid #c5cfdc; background: #f5f7fa; padding: 8px; margin: 12px 0; display: flex; gap: 10px; }
.fig .thumb { flex: 0 0 160px; height: 110px; background: #c9d2de; }
.fig .caption { font-size: 12px; }
.ref-list { font-size: 12px; }
.ref-cit-blk { margin: 8px 0 0; } .ref-cit-blk .label { font-weight: bold; margin-right: 4px; }
.ref-links { font-size: 11px; margin: 0 0 8px 14px; } .ref-links a { margin-right: 6px; }
.kwd-title { font-weight: bold; }
#footer { border-top: 1px solid #aaa; padding: 10px 12px; font-size: 11px; color: #666; }
"""

SPEC = BodySpec(
    section='<div class="sec" id="{id}"{attrs}>\n{inner}</div>\n',
    headings=(
        '<h2 class="head"{attrs}>{text}</h2>\n',
        '<h3 class="head"{attrs}>{text}</h3>\n',
        '<h4 class="head"{attrs}>{text}</h4>\n',
    ),
    paragraph='<p class="p p-first"{attrs}>{html}</p>\n',
    figure=(
        '<div class="fig iconblock" id="{id}"><div class="thumb"></div><div class="icnblk_cntnt">'
        '<div class="caption"{attrs}><b>{label}</b> {text}</div>'
        '<a href="#">Open in a separate window</a></div></div>\n'
    ),
    table=(
        '<div class="table-wrap iconblock" id="{id}"><div class="caption"{attrs}><b>{label}</b> {text}</div>'
        '{grid}<a href="#">Open in a separate window</a></div>\n'
    ),
)


class PmcClassic(Family):
    name = "pmc_classic"
    description = "archive layout with running citation header, lettered affiliations, link rows between refs"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            ref_links={"block": 4, "none": 1, "stacked": 1},
            cite_styles={"original": 3, "numbered": 1, "author-year": 1},
        )
        journal = fur.journal_name(article, rng)
        citer = Citer(
            article, opt.cite_style, link='<a class="bibr" href="#{href}" rid="{href}"{attrs}>{text}</a>'
        )
        main = (
            self._front(article, opt, rng, citer, journal)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        related = "".join(
            f'<li><a href="#">{esc(t)}</a><br><span style="color:#666">{esc(a)}</span></li>'
            for t, a in fur.related(context, rng, 5)
        )
        archive = rng.choice(("OpenArchive Central", "LifeSci Full Text", "BioMed Library Online"))
        formats = fur.link_list(["Article", "PubReader", "PDF", "Citation"], "</li><li>")
        share = fur.link_list(fur.share_labels(rng)[:3], "</li><li>")
        portlets = (
            f'<div class="portlet"><h3>Formats:</h3><ul><li>{formats}</li></ul></div>'
            f'<div class="portlet"><h3>Share</h3><ul><li>{share}</li></ul></div>'
            f'<div class="portlet"><h3>Similar articles in this archive</h3><ul>{related}</ul></div>'
            '<div class="portlet"><h3>Cited by other articles</h3>'
            f"<ul><li>{fur.fake_count(rng, 1, 300)} citing articles</li></ul></div>"
        )
        body = (
            '<div id="universal_header">Resources ▾ | How To ▾ | '
            '<a href="#">Sign in to your account</a></div>\n'
            f'<div id="branding">{esc(archive)}</div>\n'
            '<div id="search_bar"><select><option>Archive</option></select> <input type="text"> '
            '<button>Search</button> <a href="#">Advanced</a></div>\n'
            f'<div class="container"><div class="content">\n{main}</div>\n'
            f'<div class="col-right">{portlets}</div></div>\n'
            f'<div id="footer">{fur.link_list(fur.footer_links(rng)[:5], " | ")}</div>\n'
        )
        return page(f"{article.title} - {journal}", CSS, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer, journal: str) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = (
            aff_markers(article.affiliations, "letter" if chance(rng, 0.7) else "number")
            if show_affs and needs_markers(article)
            else {}
        )
        out = [
            f'<div class="fm-citation"><span class="cit">{esc(running_citation(article, journal))}</span>'
            + (f" doi: {esc(article.doi)}" if article.doi else "")
            + "</div>\n"
        ]
        if opt.show_article_type and article.article_type:
            out.append(f'<div class="fm-subject">{esc(article.article_type)}</div>\n')
        out.append(f'<h1 class="content-title"{lab("title")}>{esc(article.title)}</h1>\n')
        if article.authors:
            line = inline_authors(
                article,
                markers,
                name='<a href="#">{}</a>',
                last=", and " if len(article.authors) > 2 else " and ",
                corr="*" if opt.show_correspondence else "",
            )
            out.append(f'<div class="contrib-group fm-author"{lab("authors")}>{line}</div>\n')
        if show_affs or opt.show_correspondence or opt.show_author_notes:
            panel = ['<div class="fm-panel"><b>Author information ▼</b>']
            if show_affs:
                panel.extend(
                    f'<div class="fm-affl"{lab("affiliations")}>'
                    + (f"<sup>{esc(markers[a.aff_id])}</sup>" if markers else "")
                    + f"{esc(a.text)}</div>"
                    for a in article.affiliations
                )
            if opt.show_correspondence:
                panel.extend(f"<div>*{esc(c)}</div>" for c in correspondence_lines(article))
            if opt.show_author_notes:
                panel.extend(f"<div>{esc(n)}</div>" for n in article.author_notes)
            out.append("".join(panel) + "</div>\n")
        out.append(
            f'<div class="fm-copyright">{esc(fur.dates_line(article, rng))}. Copyright © '
            f"{esc(article.year)} {esc(short_authors(article, 1))}. This is an open-access article.</div>\n"
        )
        if article.abstract:
            heading = (
                f'<h2 class="head"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</h2>'
                if opt.abstract_heading
                else ""
            )
            inner = render_abstract(
                article,
                citer,
                paragraph='<p class="p"{attrs}>{html}</p>\n',
                part_title='<h3 class="head"{attrs}>{text}</h3>\n',
            )
            out.append(f'<div id="abstract-1" class="sec">{heading}<div{lab("abstract")}>{inner}</div></div>\n')
        if opt.show_keywords and article.keywords:
            out.append(f'<p><span class="kwd-title">Keywords: </span>{esc(", ".join(article.keywords))}</p>\n')
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        notes = render_footnotes(article, '<p class="fn"{attrs}>{text}</p>')
        return f'<div class="fn-list"><h2 class="head">Footnotes</h2>{notes}</div>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        rows = []
        for i, ref in enumerate(article.references, 1):
            label = f'<span class="label">{i}.</span>' if citer.numbered_references else ""
            rows.append(
                f'<div class="ref-cit-blk half_rhythm" id="ref-{i}"{ref_attrs(ref)}>{label}'
                f"{reference_html(ref, opt.ref_style, opt.ref_layout)}</div>\n"
            )
            if opt.ref_links in ("block", "stacked"):
                rows.append(f'<div class="ref-links"{ref_links_attrs()}>{reference_links(ref, stacked=opt.ref_links == "stacked")}</div>\n')
        heading = (
            f'<h2 class="head"{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else ""
        )
        return f'<div class="ref-list-sec sec" id="reference-list">{heading}{"".join(rows)}</div>\n'


def running_citation(article: Article, journal: str) -> str:
    """``Journal. 2008; 8(1): 11–19.`` — the running header above the title (furniture)."""
    volume = article.volume + (f"({article.issue})" if article.issue else "")
    pages = f": {article.pages}." if article.pages else ""
    year = f"{article.year};" if article.year else ""
    return " ".join(x for x in (f"{journal}.", year, volume + pages) if x)
