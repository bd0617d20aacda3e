"""Modern open-access journal: HTML5 ``article/header/section/aside``, sticky header, grid layout.

Authors inline with numbered superscripts, affiliations as an ``<ol>``, references as an
``<ol>`` of ``<li>`` with look-up links inline, right sidebar with metrics and related articles.
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
    correspondence_lines,
    esc,
    inline_authors,
    lab,
    needs_markers,
    aff_markers,
    page,
    ref_attrs,
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
:root { --accent: %(accent)s; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 %(font)s; color: #1d1d1f; background: #fff; }
a { color: var(--accent); text-decoration: none; }
.site-header { position: sticky; top: 0; z-index: 5; background: #fff; border-bottom: 1px solid #ddd;
  display: flex; align-items: center; gap: 28px; padding: 10px 32px; }
.site-header .brand { font-weight: 700; font-size: 20px; color: var(--accent); }
.site-header nav a { margin-right: 18px; color: #333; font-size: 14px; }
.site-header form { margin-left: auto; }
.site-header input { padding: 5px 10px; border: 1px solid #bbb; border-radius: 14px; width: 220px; }
.journal-bar { background: var(--accent); color: #fff; padding: 14px 32px; font-size: 22px; }
.crumbs { padding: 8px 32px; font-size: 13px; color: #666; }
.crumbs a { color: #666; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 40px; max-width: 1200px;
  margin: 0 auto; padding: 10px 32px 40px; }
.layout.left-toc { grid-template-columns: 200px minmax(0, 1fr) 280px; }
.toc { font-size: 13px; position: sticky; top: 70px; align-self: start; }
.toc a { display: block; color: #444; padding: 3px 0; border-left: 2px solid #ddd; padding-left: 8px; }
.kicker { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--accent);
  font-weight: 700; margin: 18px 0 0; }
h1 { font-size: 32px; line-height: 1.25; margin: 8px 0 14px; font-family: %(head)s; }
ul.authors { list-style: none; padding: 0; margin: 0 0 8px; font-size: 16px; }
ul.authors li { display: inline; }
ol.affs { list-style: none; padding: 0; margin: 6px 0; font-size: 13px; color: #555; }
.meta-line { font-size: 13px; color: #555; margin: 4px 0; }
.abstract { background: %(absbg)s; padding: 4px 20px 10px; margin: 20px 0; border-radius: 4px; }
.abstract h2 { font-size: 20px; }
.abstract h3 { font-size: 15px; margin: 12px 0 2px; }
.kw { font-size: 14px; }
.kw span { background: #eef; padding: 1px 8px; margin: 0 4px 4px 0; border-radius: 10px;
  display: inline-block; }
article h2 { font-size: 23px; font-family: %(head)s; margin-top: 30px; }
article h3 { font-size: 18px; } article h4 { font-size: 16px; font-style: italic; }
figure.fig { margin: 20px 0; border: 1px solid #e2e2e2; padding: 10px; }
.fig-img { height: 220px;
  background: repeating-linear-gradient(45deg, #f1f3f6, #f1f3f6 12px, #e6e9ee 12px, #e6e9ee 24px); }
figcaption, .tbl-cap { font-size: 14px; color: #333; margin-top: 8px; }
.tbl { margin: 20px 0; } .data { border-collapse: collapse; font-size: 14px; } .data th, .data td { border-top: 1px solid #ccc; padding: 4px 8px; }
ol.refs { padding-left: 28px; font-size: 14px; } ol.refs li { margin-bottom: 8px; }
ol.refs .links a { margin-left: 6px; font-size: 12px; }
.fn { font-size: 13px; color: #444; }
aside .box { border: 1px solid #e2e2e2; padding: 12px 16px; margin-bottom: 18px; font-size: 14px; }
aside h4 { margin: 0 0 8px; font-size: 14px; text-transform: uppercase; letter-spacing: .05em; }
aside ul { list-style: none; padding: 0; margin: 0; } aside li { margin-bottom: 10px; }
.metrics { display: flex; justify-content: space-between; text-align: center; }
.metrics b { display: block; font-size: 18px; }
.share a { display: inline-block; margin: 0 8px 6px 0; padding: 3px 10px; border: 1px solid #ccc;
  border-radius: 3px; font-size: 13px; color: #333; }
.cite-box { background: #f7f7f7; font-size: 13px; }
.site-footer { background: #222; color: #bbb; padding: 30px 32px; font-size: 13px; }
.site-footer a { color: #ddd; margin-right: 18px; }
.cookie { position: fixed; bottom: 0; left: 0; right: 0; background: #2b2b2b; color: #eee; padding: 14px 32px;
  display: flex; gap: 20px; align-items: center; font-size: 14px; z-index: 9; }
.cookie button { background: var(--accent); color: #fff; border: 0; padding: 8px 16px; }
"""

THEMES = (
    {
        "accent": "#1a5b8c",
        "font": "Georgia, serif",
        "head": "Helvetica, Arial, sans-serif",
        "absbg": "#f3f7fa",
    },
    {
        "accent": "#7a1f3d",
        "font": "Helvetica, Arial, sans-serif",
        "head": "Georgia, serif",
        "absbg": "#faf5f6",
    },
    {
        "accent": "#0b6e4f",
        "font": "'DejaVu Sans', Verdana, sans-serif",
        "head": "'DejaVu Serif', serif",
        "absbg": "#fff",
    },
)


class SemanticHtml5(Family):
    name = "semantic_html5"
    description = "HTML5 article/header/section/aside, sticky header, grid with right sidebar"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng)
        theme = rng.choice(THEMES)
        left_toc = chance(rng, 0.4)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(article, opt.cite_style)
        spec = BodySpec()
        main = "".join(
            [
                self._front(article, opt, rng, citer),
                render_body(article, citer, spec),
                self._footnotes(article),
                self._references(article, opt, citer),
            ]
        )
        toc = ""
        if left_toc:
            links = "".join(f'<a href="#{sid}">{esc(t)}</a>' for sid, t in section_titles(article))
            toc = f'<nav class="toc" aria-label="Contents"><b>Contents</b>{links}</nav>\n'
        body = (
            f'<header class="site-header"><span class="brand">{esc(site)}</span>'
            f"<nav>{fur.nav_links(rng, 5)}</nav>"
            '<form role="search"><input type="search" placeholder="Search articles"></form></header>\n'
            f'<div class="journal-bar">{esc(journal)}</div>\n'
            f'<nav class="crumbs"><a href="#">Home</a> › <a href="#">{esc(journal)}</a> › '
            f'<a href="#">{esc(article.year or "Archive")}</a> › Article</nav>\n'
            f'<main class="layout{" left-toc" if left_toc else ""}">\n{toc}'
            f"<article>\n{main}</article>\n{self._aside(article, opt, rng, context, journal)}</main>\n"
            f'<footer class="site-footer"><p>{fur.link_list(fur.footer_links(rng))}</p>'
            f"<p>{esc(fur.copyright_line(article, rng, site))}</p></footer>\n"
        )
        if chance(rng, 0.5):
            body += (
                f'<div class="cookie"><p>{esc(fur.cookie_text(rng))}</p>'
                "<button>Accept all</button><button>Settings</button></div>\n"
            )
        return page(f"{article.title} | {journal}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = (
            aff_markers(article.affiliations, "jats" if chance(rng, 0.5) else "number")
            if show_affs and needs_markers(article)
            else {}
        )
        out = ['<header class="article-header">\n']
        if opt.show_article_type and article.article_type:
            out.append(f'<p class="kicker">{esc(article.article_type)}</p>\n')
        out.append(f'<h1{lab("title")}>{esc(article.title)}</h1>\n')
        if article.authors:
            line = inline_authors(
                article,
                markers,
                sep=", </li><li>",
                last=" and </li><li>",
                corr="*" if opt.show_correspondence else "",
            )
            out.append(f'<ul class="authors"{lab("authors")}><li>{line}</li></ul>\n')
        if show_affs:
            items = "".join(
                f'<li{lab("affiliations")}>'
                + (f"<sup>{esc(markers[a.aff_id])}</sup> " if markers else "")
                + f"{esc(a.text)}</li>\n"
                for a in article.affiliations
            )
            out.append(f'<ol class="affs">\n{items}</ol>\n')
        if opt.show_correspondence:
            out.extend(f'<p class="meta-line">* {esc(c)}</p>\n' for c in correspondence_lines(article))
        if opt.show_author_notes:
            out.extend(f'<p class="meta-line">{esc(n)}</p>\n' for n in article.author_notes)
        meta = [
            x
            for x in (
                article.journal,
                article.year and f"Published {article.year}",
                article.doi and f"https://doi.org/{article.doi}",
            )
            if x
        ]
        out.append(f'<p class="meta-line">{" · ".join(esc(m) for m in meta)}</p>\n</header>\n')
        if article.abstract:
            heading = (
                f'<h2{lab("abstract_heading")}>{esc(opt.abstract_heading)}</h2>\n' if opt.abstract_heading else ""
            )
            out.append(
                f'<section class="abstract" id="abstract">\n{heading}'
                f'<div{lab("abstract")}>\n{render_abstract(article, citer)}</div>\n</section>\n'
            )
        if opt.show_keywords and article.keywords:
            kws = "".join(f"<span>{esc(k)}</span>" for k in article.keywords)
            out.append(f'<p class="kw"><b>Keywords:</b> {kws}</p>\n')
        return "".join(out)

    def _footnotes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return f'<section class="fn"><h2>Notes</h2><ol>\n{render_footnotes(article)}</ol></section>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        items = []
        for i, ref in enumerate(article.references, 1):
            links = f' <span class="links">{reference_links(ref, stacked=opt.ref_links == "stacked")}</span>' if opt.ref_links != "none" else ""
            items.append(f'<li id="ref-{i}"{ref_attrs(ref)}>{reference_html(ref, opt.ref_style, opt.ref_layout)}{links}</li>\n')
        heading = (
            f'<h2{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else ""
        )
        style = "" if citer.numbered_references else ' style="list-style:none;padding-left:0"'
        return (
            f'<section class="references" id="references">\n{heading}'
            f'<ol class="refs"{style}>\n{"".join(items)}</ol>\n</section>\n'
        )

    def _aside(
        self, article: Article, opt: PageOptions, rng: random.Random, context: PageContext, journal: str
    ) -> str:
        boxes = []
        metrics = "".join(f"<div><b>{v}</b>{k}</div>" for k, v in fur.metrics(rng)[:3])
        boxes.append(f'<div class="box"><h4>Article metrics</h4><div class="metrics">{metrics}</div></div>')
        boxes.append(
            '<div class="box share"><h4>Share</h4>'
            + "".join(f'<a href="#">{esc(s)}</a>' for s in fur.share_labels(rng))
            + "</div>"
        )
        if opt.show_cite_box:
            boxes.append(
                '<div class="box cite-box"><h4>Cite this article</h4>'
                f"<p>{esc(fur.citation_line(article, journal))}</p></div>"
            )
        rel = fur.related(context, rng, 4)
        if rel:
            lis = "".join(f'<li><a href="#">{esc(t)}</a><br><small>{esc(a)}</small></li>' for t, a in rel)
            boxes.append(f'<div class="box"><h4>Related articles</h4><ul>{lis}</ul></div>')
        rng.shuffle(boxes)
        return "<aside>\n" + "\n".join(boxes) + "\n</aside>\n"
