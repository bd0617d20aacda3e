"""Science-magazine layout on a CSS grid: hero title, standfirst, one-line byline, ad rail.

The abstract is a standfirst without heading; affiliations come at the end under "Author
information"; each reference is an ``<li>`` holding the entry ``<p>`` and a ``<p>`` of look-up
links. In the ``commentary`` variant (one page in four) there is no abstract and the authors
follow the body.
"""

from __future__ import annotations

import random

from scilabel.corpus.jats import Article
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import (
    Family,
    PageContext,
    PageOptions,
    chance,
    content,
    correspondence_lines,
    esc,
    join_names,
    lab,
    page,
    pick,
    ref_attrs,
    ref_links_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

#: Share of pages rendered as commentary (no abstract, authors after the body).
COMMENTARY_RATE = 0.25

CSS = """
* { box-sizing: border-box; }
body { margin: 0; font: 18px/1.65 %(font)s; color: #111; }
a { color: #111; }
.masthead { display: grid; grid-template-columns: 1fr auto 1fr; align-items: center; padding: 12px 28px;
  border-bottom: 4px solid #111; position: sticky; top: 0; background: #fff; z-index: 3; }
.masthead .brand { font: 900 30px/1 %(head)s; text-align: center; letter-spacing: -1px; }
.masthead nav a, .masthead .acct a { font: 600 13px Arial, sans-serif; margin-right: 14px;
  text-decoration: none; text-transform: uppercase; }
.masthead .acct { text-align: right; }
.leaderboard { width: 728px; height: 90px; margin: 14px auto; background: #eee; display: flex;
  align-items: center; justify-content: center; font: 12px Arial; color: #666; }
.hero { display: grid; grid-template-columns: 1fr minmax(0, 760px) 300px 1fr; gap: 40px; padding: 20px 28px 8px;
  background: %(herobg)s; }
.hero > div { grid-column: 2; }
.section-tag { font: 700 13px Arial, sans-serif; color: %(accent)s; text-transform: uppercase;
  letter-spacing: .1em; }
.hero h1 { font: 700 42px/1.12 %(head)s; margin: 10px 0 16px; }
.standfirst { font-size: 21px; line-height: 1.5; color: #333; }
.standfirst p { margin: 0 0 10px; }
.byline { font: 600 15px Arial, sans-serif; margin: 14px 0 4px; }
.dateline { font: 13px Arial, sans-serif; color: #666; }
.share-row a { font: 12px Arial; border: 1px solid #bbb; border-radius: 14px; padding: 3px 12px;
  margin-right: 6px; text-decoration: none; }
.grid { display: grid; grid-template-columns: 1fr minmax(0, 760px) 300px 1fr; gap: 40px; padding: 20px 28px; }
.grid .body { grid-column: 2; } .grid .rail { grid-column: 3; font: 14px/1.45 Arial, sans-serif; }
.body h2 { font: 700 26px %(head)s; margin-top: 34px; }
.body h3 { font: 700 21px %(head)s; }
.body h4 { font-size: 18px; }
.body figure { margin: 24px 0; } .body figure .img { height: 300px; background: #d9d9d9; }
.body figcaption, .body .tcap { font: 14px/1.4 Arial, sans-serif; color: #444; margin-top: 6px; }
.refs { font: 14px/1.5 Arial, sans-serif; padding-left: 22px; } .refs li { margin-bottom: 10px; }
.refs__text { margin: 0; }
.refs__links { margin: 0; font-size: 12px; }
.refs__links a { margin-right: 10px; color: %(accent)s; }
.about { border-top: 2px solid #111; margin-top: 30px; font: 15px/1.5 Arial, sans-serif; }
.about h2 { font-size: 18px; }
.about .affs p { margin: 4px 0; }
.rail .card { border-top: 3px solid %(accent)s; padding: 10px 0; margin-bottom: 20px; }
.rail .card h3 { font-size: 14px; text-transform: uppercase; margin: 0 0 8px; }
.rail .card p { margin: 0 0 10px; }
.rail .mpu { height: 250px; background: #eee; display: flex; align-items: center; justify-content: center;
  color: #666; font-size: 12px; margin-bottom: 20px; text-align: center; padding: 16px; }
footer { background: #111; color: #aaa; padding: 30px 28px; font: 13px Arial, sans-serif; }
footer a { color: #fff; margin-right: 16px; }
"""

THEMES = (
    {
        "font": "Georgia, serif",
        "head": "'Helvetica Neue', Helvetica, Arial, sans-serif",
        "accent": "#c00",
        "herobg": "#fff",
    },
    {
        "font": "'DejaVu Serif', Georgia, serif",
        "head": "Georgia, serif",
        "accent": "#006699",
        "herobg": "#f4f1ea",
    },
    {"font": "'Times New Roman', serif", "head": "Arial, sans-serif", "accent": "#7b3fa0", "herobg": "#fff"},
)

SPEC = BodySpec(
    section='<div class="article__section" id="{id}"{attrs}>\n{inner}</div>\n',
    headings=(
        '<h2 class="article__heading"{attrs}>{text}</h2>\n',
        '<h3 class="article__heading"{attrs}>{text}</h3>\n',
        '<h4 class="article__heading"{attrs}>{text}</h4>\n',
    ),
    paragraph='<p class="article__para"{attrs}>{html}</p>\n',
    figure=(
        '<figure id="{id}"><div class="img"></div><figcaption{attrs}><b>{label}</b>'
        " {text}</figcaption></figure>\n"
    ),
    table='<div class="table" id="{id}"><p class="tcap"{attrs}><b>{label}</b> {text}</p></div>\n',
)


class MagazineGrid(Family):
    name = "magazine_grid"
    description = "magazine CSS grid: hero title, standfirst abstract, byline, ad rail; 25% commentary variant"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        commentary = chance(rng, COMMENTARY_RATE)
        opt = PageOptions.draw(
            rng,
            reference_headings={
                "References": 5,
                "Notes": 1 if commentary else 0,
                "References and Notes": 1,
                None: 1,
            },
            cite_styles={"superscript": 3, "numbered": 1, "author-year": 1},
        )
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(article, opt.cite_style)
        byline = join_names([a.name for a in article.authors], "&")
        hero = [
            f'<div class="section-tag">{esc(article.article_type or "Research")}</div>',
            f'<h1{lab("title")}>{esc(article.title)}</h1>',
        ]
        if article.abstract and not commentary:
            paras = "".join(
                f"<p{content()}>{citer.runs(p.runs)}</p>" for part in article.abstract for p in part.paragraphs
            )
            hero.append(f'<div class="standfirst"{lab("abstract")}>{paras}</div>')
        if article.authors and not commentary:
            hero.append(f'<div class="byline">By <span{lab("authors")}>{esc(byline)}</span></div>')
        hero.append(
            f'<div class="dateline">{esc(fur.dates_line(article, rng).split(" · ")[-1])}'
            f'{" · " + esc(journal) if journal else ""}</div>'
        )
        hero.append(
            '<p class="share-row">' + "".join(f'<a href="#">{esc(s)}</a>' for s in fur.share_labels(rng)) + "</p>"
        )
        main = (
            render_body(article, citer, SPEC)
            + self._references(article, opt, citer)
            + self._about(article, opt, commentary, byline)
        )
        if article.footnotes:
            main += f"<h2>Notes</h2><ol>{render_footnotes(article)}</ol>\n"
        body = (
            f'<header class="masthead"><nav>{fur.nav_links(rng, 4)}</nav><div class="brand">{esc(site)}</div>'
            '<div class="acct"><a href="#">Subscribe</a><a href="#">Log in</a></div></header>\n'
            '<div class="leaderboard">Advertisement</div>\n'
            f'<div class="hero"><div>{"".join(hero)}</div></div>\n'
            f'<div class="grid"><article class="body">\n{main}</article>\n'
            f"{self._rail(article, opt, rng, context, journal)}</div>\n"
            f"<footer>{fur.link_list(fur.footer_links(rng))}<p>{esc(fur.copyright_line(article, rng, site))}</p>"
            "</footer>\n"
        )
        return page(
            f"{article.title} | {site}", CSS % theme, body, variant="commentary" if commentary else "standard"
        )

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        items = "".join(
            f'<li class="refs__item" id="ref-{i}">'
            f'<p class="refs__text"{ref_attrs(r)}>{reference_html(r, opt.ref_style)}</p>'
            f'<p class="refs__links"{ref_links_attrs()}>{reference_links(r)}</p></li>\n'
            for i, r in enumerate(article.references, 1)
        )
        heading = (
            f'<h2{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else "<hr>\n"
        )
        style = "" if citer.numbered_references else ' style="list-style:none;padding-left:0"'
        return f'<section id="references">{heading}<ol class="refs"{style}>\n{items}</ol></section>\n'

    def _about(self, article: Article, opt: PageOptions, commentary: bool, byline: str) -> str:
        out = ['<section class="about">']
        if commentary and article.authors:
            out.append(f'<h2>About the authors</h2><p{lab("authors")}>{esc(byline)}</p>')
        if opt.show_affiliations and article.affiliations:
            if not commentary:
                out.append("<h2>Author information</h2><h3>Affiliations</h3>")
            out.append(
                '<div class="affs">'
                + "".join(f'<p{lab("affiliations")}>{esc(a.text)}</p>' for a in article.affiliations)
                + "</div>"
            )
        if opt.show_correspondence:
            out.extend(f"<p>Correspondence to {esc(c)}</p>" for c in correspondence_lines(article))
        out.append("</section>\n")
        return "".join(out) if len(out) > 2 else ""

    def _rail(
        self, article: Article, opt: PageOptions, rng: random.Random, context: PageContext, journal: str
    ) -> str:
        title, text = fur.ad_text(rng)
        out = [
            '<aside class="rail"><div class="mpu"><div><small>Advertisement</small>'
            f"<br><b>{esc(title)}</b><br>{esc(text)}</div></div>"
        ]
        out.append(
            '<div class="card"><h3>Related</h3>'
            + "".join(f'<p><a href="#">{esc(t)}</a></p>' for t, _ in fur.related(context, rng, 4))
            + "</div>"
        )
        if opt.show_cite_box:
            out.append(
                '<div class="card"><h3>Cite this article</h3>'
                f"<p>{esc(fur.citation_line(article, journal))}</p></div>"
            )
        out.append(
            '<div class="card"><h3>Subjects</h3><p>'
            + esc(", ".join(article.keywords[:5]) or pick(rng, {"Biology": 1, "Physics": 1, "Medicine": 1}))
            + "</p></div>"
        )
        out.append("</aside>\n")
        return "".join(out)
