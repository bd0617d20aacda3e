"""Large commercial platform: tab bar, outline on the left, recommendations on the right.

Authors are buttons opening ``<details>`` pop-ups with their affiliations (a toggle line such as "Show
author details" may follow the byline; it is not gold for authors), plus a lettered "Show more"
affiliation list; references are a ``<ul>`` whose entries end with look-up links.
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
    lab,
    page,
    pick,
    ref_attrs,
    ref_links_attrs,
)
from scilabel.corpus.templates.body import (
    BodySpec,
    render_abstract,
    render_body,
    render_footnotes,
    section_titles,
)
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 %(font)s; color: #2e2e2e; background: #fff; }
a { color: %(link)s; text-decoration: none; }
.gh { display: flex; align-items: center; padding: 0 24px; height: 56px; border-bottom: 1px solid #ddd;
  position: sticky; top: 0; background: #fff; z-index: 4; }
.gh .logo { font: 700 20px sans-serif; color: %(brand)s; margin-right: 32px; }
.gh a { margin-right: 20px; font-size: 14px; color: #2e2e2e; }
.gh .search { margin-left: auto; border: 1px solid #999; padding: 4px 12px; width: 260px; color: #888;
  font-size: 14px; }
.toolbar { display: flex; gap: 10px; padding: 10px 24px; background: #f5f5f5; border-bottom: 1px solid #ddd;
  font-size: 14px; }
.toolbar .btn { border: 1px solid %(brand)s; padding: 4px 14px; color: %(brand)s; border-radius: 3px; }
.toolbar .btn.primary { background: %(brand)s; color: #fff; }
.wrap { display: grid; grid-template-columns: 240px minmax(0, 1fr) 300px; gap: 32px; padding: 24px;
  max-width: 1400px; }
.outline { font-size: 14px; position: sticky; top: 70px; align-self: start; }
.outline h2, .side h2 { font-size: 15px; margin: 0 0 10px; }
.outline li { margin-bottom: 6px; }
.pub-title { font-size: 14px; color: #555; } .pub-title b { color: %(brand)s; }
.article-type { font-size: 14px; color: #666; margin: 16px 0 4px; }
h1.title-text { font: 400 30px/1.3 %(head)s; margin: 0 0 14px; }
.author-group { margin-bottom: 6px; }
.author-group details { display: inline-block; vertical-align: top; }
.author-group summary { list-style: none; color: %(link)s; cursor: pointer; display: inline; }
.author-group summary::-webkit-details-marker { display: none; }
.author-toggle { font-size: 13px; color: %(link)s; margin-bottom: 6px; }
.author-popup { position: absolute; background: #fff; border: 1px solid #aaa; padding: 10px 14px;
  width: 320px; font-size: 13px; box-shadow: 0 2px 6px rgba(0,0,0,.25); }
.affiliation-list { font-size: 13px; color: #444; list-style: none; padding: 0; margin: 8px 0; }
.affiliation-list sup { margin-right: 4px; }
.show-more { font-size: 14px; margin: 4px 0 10px; }
.dates { font-size: 13px; color: #666; border-top: 1px solid #eee; border-bottom: 1px solid #eee;
  padding: 6px 0; margin: 10px 0 20px; }
.abstract h2, .section-title { font: 400 22px %(head)s; margin: 28px 0 10px; }
.abstract h3 { font-size: 17px; margin: 14px 0 4px; }
.keywords span { display: inline-block; background: #eef2f5; padding: 2px 10px; margin: 0 6px 6px 0;
  font-size: 14px; }
h3.section-title { font-size: 19px; } h4.section-title { font-size: 17px; font-style: italic; }
.figure { border: 1px solid #e0e0e0; margin: 18px 0; padding: 12px; }
.figure .img { height: 240px; background: #e9edf1; }
.figure .captions { font-size: 14px; margin-top: 8px; }
.figure .dl { font-size: 13px; } .figure .dl a { margin-right: 12px; }
ul.references { list-style: none; padding: 0; font-size: 14px; }
ul.references li { margin-bottom: 14px; }
ul.references .label { display: inline-block; min-width: 34px; color: #666; }
ul.references .ref-links { display: block; margin-left: 34px; font-size: 13px; }
ul.references .ref-links a { margin-right: 14px; }
.side .card { border: 1px solid #e2e2e2; padding: 12px; margin-bottom: 16px; font-size: 14px; }
.side .card p { margin: 0 0 10px; }
.ad { background: #f0f0f0; height: 250px; display: flex; flex-direction: column; justify-content: center;
  align-items: center; font-size: 13px; color: #555; padding: 20px; text-align: center; }
.banner-cookie { position: fixed; bottom: 0; left: 0; right: 0; background: #fff;
  border-top: 3px solid %(brand)s; padding: 16px 24px; font-size: 14px; z-index: 9; }
.gf { background: #f5f5f5; padding: 28px 24px; font-size: 13px; color: #555; }
.gf a { margin-right: 18px; color: #555; }
"""

THEMES = (
    {
        "font": "'Nimbus Sans', Arial, sans-serif",
        "head": "Georgia, serif",
        "link": "#0c7dbb",
        "brand": "#e9711c",
    },
    {
        "font": "'Open Sans', Arial, sans-serif",
        "head": "'DejaVu Serif', serif",
        "link": "#005274",
        "brand": "#005274",
    },
    {
        "font": "Roboto, Arial, sans-serif",
        "head": "Roboto, Arial, sans-serif",
        "link": "#1f5aa6",
        "brand": "#3d3d8e",
    },
)

SPEC = BodySpec(
    headings=(
        '<h2 class="section-title"{attrs}>{text}</h2>\n',
        '<h3 class="section-title"{attrs}>{text}</h3>\n',
        '<h4 class="section-title"{attrs}>{text}</h4>\n',
    ),
    paragraph='<div class="u-margin-s-bottom"><p{attrs}>{html}</p></div>\n',
    figure=(
        '<figure class="figure" id="{id}"><div class="img">'
        '</div><span class="captions"><p{attrs}><span class="label">{label}</span> {text}</p>'
        '</span><div class="dl"><a href="#">Download high-res image</a>'
        '<a href="#">Download full-size image</a></div></figure>\n'
    ),
    table=(
        '<div class="figure tables" id="{id}"><span class="captions">'
        '<p{attrs}><span class="label">{label}</span> {text}</p>'
        '</span>{grid}'
        "</div>\n"
    ),
)


class PortalTabs(Family):
    name = "portal_tabs"
    description = "commercial platform: tab/tool bars, outline sidebar, <details> author pop-ups, <ul> refs"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, ref_links={"none": 1, "inline": 3, "stacked": 1})
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(
            article,
            opt.cite_style,
            link='<a class="workspace-trigger" name="bbib{href}" href="#{href}"{attrs}>{text}</a>',
        )
        main = (
            self._front(article, opt, rng, citer)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        outline = "".join(f'<li><a href="#{sid}">{esc(t)}</a></li>' for sid, t in section_titles(article))
        body = (
            f'<header class="gh"><span class="logo">{esc(site)}</span>'
            '<a href="#">Journals &amp; Books</a><a href="#">Help</a>'
            '<span class="search">Search</span></header>\n'
            '<div class="toolbar"><span class="btn primary">View PDF</span>'
            '<span class="btn">Download full issue</span>'
            '<span class="btn">Export citation</span><span class="btn">Share</span></div>\n'
            '<div class="wrap">\n<nav class="outline"><h2>Outline</h2><ol>'
            f'{"<li><a href=#abstract>Abstract</a></li>" if article.abstract else ""}{outline}'
            f'{"<li><a href=#references>References</a></li>" if article.references else ""}</ol>'
            f"<h2>Figures ({len(article.figures)})</h2><h2>Tables ({len(article.tables)})</h2></nav>\n"
            f'<article class="Article">\n{main}</article>\n{self._side(article, opt, rng, context, journal)}</div>'
            "\n"
            f'<footer class="gf">{fur.link_list(fur.footer_links(rng))}'
            f"<p>{esc(fur.copyright_line(article, rng, site))}</p></footer>\n"
        )
        if chance(rng, 0.5):
            body += (
                f'<div class="banner-cookie">{esc(fur.cookie_text(rng))} '
                "<button>Accept all cookies</button> <button>Cookie settings</button></div>\n"
            )
        return page(f"{article.title} - {site}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = aff_markers(article.affiliations, "letter") if show_affs else {}
        affs = {a.aff_id: a for a in article.affiliations}
        out = [f'<div class="pub-title"><b>{esc(journal_line(article))}</b></div>\n']
        if opt.show_article_type and article.article_type:
            out.append(f'<div class="article-type">{esc(article.article_type)}</div>\n')
        out.append(f'<h1 class="title-text"{lab("title")}>{esc(article.title)}</h1>\n')
        if article.authors:
            buttons = []
            for i, author in enumerate(article.authors):
                marks = "".join(f"<sup>{esc(markers[x])}</sup>" for x in author.aff_ids if x in markers)
                pop = "".join(
                    f'<div{lab("affiliations")}>{esc(affs[x].text)}</div>'
                    for x in author.aff_ids
                    if x in affs and show_affs
                )
                star = " ✉" if author.corresponding and opt.show_correspondence else ""
                sep = "," if i < len(article.authors) - 1 else ""
                popup = f'<div class="author-popup">{pop}</div>' if pop else ""
                buttons.append(
                    f'<details><summary><span class="author-name">{esc(author.name)}</span>{marks}{star}{sep}</summary>'
                    f"{popup}</details> "
                )
            out.append(f'<div class="author-group"{lab("authors")}>{"".join(buttons)}</div>\n')
            if chance(rng, 0.5):
                toggle = pick(rng, {"Show author details": 1, "Author information": 1, "About the authors": 1})
                out.append(f'<div class="author-toggle">{toggle}</div>\n')
        if show_affs:
            expanded = chance(rng, 0.6)
            items = "".join(
                f'<li{lab("affiliations")}><sup>{esc(markers[a.aff_id])}</sup>{esc(a.text)}</li>'
                for a in article.affiliations
            )
            out.append(
                f'<details class="show-more"{" open" if expanded else ""}><summary>Show more</summary>'
                f'<ul class="affiliation-list">{items}</ul>'
            )
            if opt.show_correspondence:
                out.extend(f"<p>{esc(c)}</p>" for c in correspondence_lines(article))
            out.append("</details>\n")
        out.append(
            f'<div class="dates">{esc(fur.dates_line(article, rng))}'
            + (f' · <a href="#">https://doi.org/{esc(article.doi)}</a>' if article.doi else "")
            + "</div>\n"
        )
        if article.abstract:
            heading = (
                f'<h2{lab("abstract_heading")}>{esc(opt.abstract_heading)}</h2>' if opt.abstract_heading else ""
            )
            out.append(
                f'<div class="abstract author" id="abstract">{heading}'
                f'<div{lab("abstract")}>{render_abstract(article, citer)}</div></div>\n'
            )
        if opt.show_keywords and article.keywords:
            out.append(
                '<div class="keywords"><h2 class="section-title">Keywords</h2>'
                + "".join(f"<span>{esc(k)}</span>" for k in article.keywords)
                + "</div>\n"
            )
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return (
            f'<section><h2 class="section-title">Notes</h2><ul class="references">{render_footnotes(article)}</ul>'
            "</section>\n"
        )

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        items = []
        for i, ref in enumerate(article.references, 1):
            label = f'<span class="label">[{i}]</span>' if citer.numbered_references else ""
            links = f'<span class="ref-links"{ref_links_attrs()}>{reference_links(ref, stacked=opt.ref_links == "stacked")}</span>' if opt.ref_links != "none" else ""
            items.append(
                f'<li id="ref-{i}"{ref_attrs(ref)}>{label}<span class="reference">'
                f"{reference_html(ref, opt.ref_style, opt.ref_layout)}</span>{links}</li>\n"
            )
        heading = (
            f'<h2 class="section-title"{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else ""
        )
        return (
            f'<section class="bibliography" id="references">{heading}'
            f'<ul class="references">\n{"".join(items)}</ul></section>\n'
        )

    def _side(
        self, article: Article, opt: PageOptions, rng: random.Random, context: PageContext, journal: str
    ) -> str:
        cards = [
            '<div class="card"><h2>Recommended articles</h2>'
            + "".join(
                f'<p><a href="#">{esc(t)}</a><br><small>{esc(journal)} · {esc(a)}</small></p>'
                for t, a in fur.related(context, rng, 5)
            )
            + "</div>"
        ]
        cards.append(
            '<div class="card"><h2>Article metrics</h2>'
            + "".join(f"<p>{k}: <b>{v}</b></p>" for k, v in fur.metrics(rng))
            + "</div>"
        )
        if opt.show_cite_box:
            cards.append(f'<div class="card"><h2>Cite</h2><p>{esc(fur.citation_line(article, journal))}</p></div>')
        title, text = fur.ad_text(rng)
        cards.insert(
            rng.randint(0, len(cards)),
            f'<div class="ad"><small>Advertisement</small><b>{esc(title)}</b><p>{esc(text)}</p></div>',
        )
        return '<aside class="side">' + "".join(cards) + "</aside>\n"


def journal_line(article: Article) -> str:
    """``Journal, Volume 12, Issue 3, 2014, Pages 1–9`` (furniture)."""
    parts = [
        article.journal,
        article.volume and f"Volume {article.volume}",
        article.issue and f"Issue {article.issue}",
        article.year,
        article.pages and f"Pages {article.pages}",
    ]
    return ", ".join(p for p in parts if p)
