"""Component-library publisher page built on definition lists.

Metadata, affiliations (``<dt>`` marker, ``<dd>`` text), structured-abstract parts and the
reference list are ``<dl>``s; authors are an inline ``<ul>`` with numbered superscripts.
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
    content,
    correspondence_lines,
    esc,
    inline_authors,
    lab,
    needs_markers,
    page,
    ref_attrs,
    ref_links_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
body { margin: 0; font: 17px/1.7 %(font)s; color: #222; }
a { color: %(accent)s; }
.c-header { display: flex; align-items: center; justify-content: space-between; padding: 14px 40px;
  border-bottom: 1px solid #ccc; }
.c-header__logo { font: 700 22px/1 %(head)s; letter-spacing: -.5px; }
.c-header__menu a { margin-left: 20px; font-size: 14px; color: #222; text-decoration: none; }
.c-journal { background: %(band)s; color: #fff; padding: 22px 40px; font: 26px %(head)s; }
.c-container { max-width: 1080px; margin: 0 auto; padding: 20px 40px; display: flex; gap: 48px; }
.c-main { flex: 1; min-width: 0; }
.c-side { flex: 0 0 260px; font-size: 14px; }
.c-meta { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 14px; color: #555; margin: 0 0 10px; }
.c-meta dt { font-weight: 700; } .c-meta dd { margin: 0 12px 0 0; }
h1 { font: 700 34px/1.2 %(head)s; margin: 8px 0 16px; }
.c-author-list { list-style: none; padding: 0; margin: 0 0 10px; font-size: 16px; }
.c-author-list li { display: inline; }
.c-affs { font-size: 14px; color: #444; display: grid; grid-template-columns: 24px 1fr; margin: 10px 0; }
.c-affs div { display: contents; } .c-affs dt { font-weight: 700; } .c-affs dd { margin: 0 0 4px; }
.c-section-title { font: 700 22px %(head)s; border-bottom: 2px solid %(band)s; padding-bottom: 4px;
  margin-top: 36px; }
.c-abs-parts dt { font-weight: 700; margin-top: 8px; } .c-abs-parts dd { margin: 0; }
h3 { font: 700 19px %(head)s; } h4 { font-size: 17px; }
.c-figure { background: #f6f6f6; padding: 14px; margin: 20px 0; }
.c-figure__img { height: 230px; background: linear-gradient(135deg, #dde3ea, #c6ced8); }
.c-figure__cap { font-size: 14px; }
.c-refs { font-size: 15px; }
.c-refs > div { display: grid; grid-template-columns: 44px 1fr; margin-bottom: 10px; }
.c-refs dt { color: #666; } .c-refs dd { margin: 0; }
.c-refs .c-ref-links a { font-size: 13px; margin-right: 10px; }
.c-kw { list-style: none; padding: 0; }
.c-kw li { display: inline-block; background: #eee; padding: 2px 10px; margin: 0 6px 6px 0; font-size: 14px; }
.c-box { border-top: 3px solid %(band)s; padding-top: 8px; margin-bottom: 24px; }
.c-box h2 { font-size: 16px; margin: 0 0 8px; }
.c-btn { display: block; background: %(band)s; color: #fff; text-align: center; padding: 10px;
  margin-bottom: 16px; text-decoration: none; }
.c-footer { background: #111; color: #aaa; padding: 30px 40px; font-size: 13px; display: flex; gap: 60px; }
.c-footer a { color: #ddd; display: block; }
"""

THEMES = (
    {
        "font": "Georgia, serif",
        "head": "Helvetica, Arial, sans-serif",
        "accent": "#025e8d",
        "band": "#025e8d",
    },
    {
        "font": "'DejaVu Serif', serif",
        "head": "'DejaVu Sans', sans-serif",
        "accent": "#b03a00",
        "band": "#333",
    },
    {
        "font": "Helvetica, Arial, sans-serif",
        "head": "Georgia, serif",
        "accent": "#006d5b",
        "band": "#006d5b",
    },
)

SPEC = BodySpec(
    section='<section class="c-article-section" id="{id}"{attrs}>\n{inner}</section>\n',
    headings=(
        '<h2 class="c-section-title"{attrs}>{text}</h2>\n',
        "<h3{attrs}>{text}</h3>\n",
        "<h4{attrs}>{text}</h4>\n",
    ),
    figure=(
        '<figure class="c-figure" id="{id}"><div class="c-figure__img"></div>'
        '<figcaption class="c-figure__cap"{attrs}><b>{label}</b> {text}</figcaption></figure>\n'
    ),
    table=(
        '<div class="c-figure" id="{id}"><p class="c-figure__cap"{attrs}><b>{label}</b> {text}</p>'
        '<a href="#">Full size table</a></div>\n'
    ),
)


class DefinitionList(Family):
    name = "definition_list"
    description = "definition lists for metadata, affiliations, structured abstract and references"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, ref_links={"none": 1, "inline": 2, "stacked": 1})
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(article, opt.cite_style)
        main = (
            self._front(article, opt, rng, citer)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        body = (
            f'<header class="c-header"><span class="c-header__logo">{esc(site)}</span>'
            f'<nav class="c-header__menu">{fur.nav_links(rng, 5)}</nav></header>\n'
            f'<div class="c-journal">{esc(journal)}</div>\n'
            f'<div class="c-container"><main class="c-main">\n{main}</main>\n'
            f"{self._side(article, opt, rng, context, journal)}</div>\n"
            f'<footer class="c-footer"><div>{fur.link_list(fur.footer_links(rng)[:3])}</div>'
            f"<div>{fur.link_list(fur.footer_links(rng)[:3])}</div>"
            f"<div>{esc(fur.copyright_line(article, rng, site))}</div></footer>\n"
        )
        return page(f"{article.title} | {journal}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = aff_markers(article.affiliations, "number") if show_affs and needs_markers(article) else {}
        meta = [
            ("Type", article.article_type if opt.show_article_type else ""),
            ("Published", article.year),
            ("Volume", article.volume),
            ("DOI", article.doi),
        ]
        dl = "".join(f"<dt>{k}:</dt><dd>{esc(v)}</dd>" for k, v in meta if v)
        out = [f'<dl class="c-meta">{dl}</dl>\n', f'<h1{lab("title")}>{esc(article.title)}</h1>\n']
        if article.authors:
            line = inline_authors(
                article,
                markers,
                sep=", </li><li>",
                last=" &amp; </li><li>",
                name='<a href="#">{}</a>',
                corr="✉" if opt.show_correspondence else "",
            )
            out.append(f'<ul class="c-author-list"{lab("authors")}><li>{line}</li></ul>\n')
        if show_affs:
            rows = "".join(
                f'<div{lab("affiliations")}><dt>{esc(markers.get(a.aff_id, "·"))}</dt>'
                f"<dd>{esc(a.text)}</dd></div>"
                for a in article.affiliations
            )
            out.append(f'<dl class="c-affs">{rows}</dl>\n')
        if opt.show_correspondence:
            out.extend(f'<p style="font-size:14px">✉ {esc(c)}</p>\n' for c in correspondence_lines(article))
        if article.abstract:
            heading = (
                f'<h2 class="c-section-title"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</h2>\n'
                if opt.abstract_heading
                else ""
            )
            out.append(
                f'<section class="c-abstract" id="Abs1">{heading}<div{lab("abstract")}>'
                f"{self._abstract(article, citer)}</div></section>\n"
            )
        if opt.show_keywords and article.keywords:
            out.append(
                '<h3>Keywords</h3><ul class="c-kw">'
                + "".join(f"<li>{esc(k)}</li>" for k in article.keywords)
                + "</ul>\n"
            )
        return "".join(out)

    def _abstract(self, article: Article, citer: Citer) -> str:
        if not any(part.title for part in article.abstract):
            return "".join(
                f"<p{content()}>{citer.runs(p.runs)}</p>\n" for part in article.abstract for p in part.paragraphs
            )
        rows = []
        for part in article.abstract:
            paras = "".join(f"<p{content()}>{citer.runs(p.runs)}</p>" for p in part.paragraphs)
            rows.append(f"<dt{content()}>{esc(part.title or '')}</dt><dd>{paras}</dd>\n")
        return f'<dl class="c-abs-parts">\n{"".join(rows)}</dl>\n'

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return (
            '<section><h2 class="c-section-title">Notes</h2><dl class="c-refs">'
            + render_footnotes(article, "<div><dt>{n}.</dt><dd{attrs}>{text}</dd></div>")
            + "</dl></section>\n"
        )

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        rows = []
        for i, ref in enumerate(article.references, 1):
            links = f'<div class="c-ref-links"{ref_links_attrs()}>{reference_links(ref, stacked=opt.ref_links == "stacked")}</div>' if opt.ref_links != "none" else ""
            num = f"{i}." if citer.numbered_references else ""
            rows.append(
                f'<div id="ref-{i}"{ref_attrs(ref)}><dt>{num}</dt><dd>'
                f"{reference_html(ref, opt.ref_style, opt.ref_layout)}{links}</dd></div>\n"
            )
        heading = (
            f'<h2 class="c-section-title"{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else ""
        )
        return f'<section id="Bib1">{heading}<dl class="c-refs">\n{"".join(rows)}</dl></section>\n'

    def _side(
        self, article: Article, opt: PageOptions, rng: random.Random, context: PageContext, journal: str
    ) -> str:
        out = ['<aside class="c-side"><a class="c-btn" href="#">Download PDF</a>']
        if opt.show_cite_box:
            out.append(
                '<div class="c-box"><h2>Cite this article</h2>'
                f"<p>{esc(fur.citation_line(article, journal))}</p></div>"
            )
        metrics = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in fur.metrics(rng)[:3])
        out.append(f'<div class="c-box"><h2>Metrics</h2><dl>{metrics}</dl></div>')
        rel = fur.related(context, rng, 3)
        if rel:
            out.append(
                '<div class="c-box"><h2>You may also like</h2>'
                + "".join(f'<p><a href="#">{esc(t)}</a><br><small>{esc(a)}</small></p>' for t, a in rel)
                + "</div>"
            )
        if chance(rng, 0.5):
            out.append(
                '<div class="c-box"><h2>Share</h2>'
                + " · ".join(f'<a href="#">{esc(s)}</a>' for s in fur.share_labels(rng))
                + "</div>"
            )
        out.append("</aside>")
        return "".join(out)
