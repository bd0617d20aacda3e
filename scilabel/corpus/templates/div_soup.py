"""Platform-publisher "div soup": nested ``<div>``s with BEM-like class names, flex columns.

Authors are ``<span>``s whose affiliations sit in hover pop-ups hidden by CSS; references are
``<div>`` entries whose look-up links are either inside the entry or on a line of their own.
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
    lab,
    page,
    ref_attrs,
    ref_links_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body, section_titles
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
body { margin: 0; font-family: %(font)s; font-size: 15px; color: #222; background: %(bg)s; }
a { color: %(link)s; }
.hdr__top { background: %(bar)s; color: #fff; display: flex; justify-content: space-between;
  padding: 8px 24px; font-size: 13px; }
.hdr__top a { color: #fff; margin-left: 16px; text-decoration: none; }
.hdr__main { background: #fff; padding: 16px 24px; display: flex; align-items: center; gap: 24px;
  border-bottom: 3px solid %(bar)s; }
.hdr__logo { font: 700 24px Georgia, serif; color: %(bar)s; }
.hdr__journal { font-size: 15px; color: #555; border-left: 1px solid #ccc; padding-left: 24px; }
.tabs { display: flex; gap: 2px; background: #e9e9e9; padding: 0 24px; }
.tabs div { padding: 10px 18px; font-size: 14px; } .tabs .is-active { background: #fff; font-weight: 700; }
.page-body { display: flex; gap: 28px; padding: 20px 24px; align-items: flex-start; }
.col-left { flex: 0 0 210px; font-size: 13px; background: #fff; padding: 12px; }
.col-left .toc-item { padding: 4px 0; border-bottom: 1px dotted #ccc; }
.col-main { flex: 1 1 auto; min-width: 0; background: #fff; padding: 20px 30px; }
.col-right { flex: 0 0 260px; font-size: 13px; }
.widget { background: #fff; padding: 12px; margin-bottom: 16px; }
.widget__title { font-weight: 700; margin-bottom: 8px; border-bottom: 2px solid %(bar)s; }
.citation__top { font-size: 13px; color: #666; text-transform: uppercase; }
.citation__title { font: 28px/1.3 Georgia, serif; margin: 10px 0; }
.loa { margin: 10px 0; font-size: 15px; }
.loa__item { display: inline-block; position: relative; margin-right: 4px; }
.loa__name { color: %(link)s; cursor: pointer; }
.author-info { display: none; position: absolute; top: 20px; left: 0; width: 300px; background: #fff;
  border: 1px solid #999; padding: 8px; z-index: 3; font-size: 13px; }
.loa__item:hover .author-info { display: block; }
.affs-list { font-size: 13px; color: #555; } .affs-list .aff { margin: 2px 0; }
.epub-section { font-size: 13px; color: #666; margin: 8px 0 16px; }
.abstractSection { border-top: 1px solid #ddd; margin-top: 16px; padding-top: 4px; }
.section__title { font-size: 20px; font-weight: 700; margin: 22px 0 8px; color: %(bar)s; }
.section__title--l2 { font-size: 17px; color: #222; }
.section__title--l3 { font-size: 15px; font-style: italic; }
.NLM_p { margin: 0 0 12px; line-height: 1.6; }
.fig-box { border: 1px solid #ddd; padding: 10px; margin: 16px 0; background: #fafafa; }
.fig-box__img { height: 200px; background: #dfe3e8; }
.fig-box__caption { font-size: 13px; margin-top: 6px; }
.ref { display: flex; gap: 8px; font-size: 13px; margin: 0 0 8px; }
.ref__num { flex: 0 0 28px; text-align: right; }
.ref__links, .ref-links-row { font-size: 12px; } .ref-links-row { margin: -4px 0 10px 36px; }
.ref__links a, .ref-links-row a { margin-right: 8px; }
.kwd-group span { display: inline-block; border: 1px solid #ccc; padding: 1px 6px; margin: 2px;
  font-size: 12px; }
.cookie-consent { position: fixed; left: 20px; bottom: 20px; width: 360px; background: #fff;
  border: 1px solid #888; padding: 14px; box-shadow: 0 2px 10px rgba(0,0,0,.3); font-size: 13px; z-index: 10; }
.ad-slot { background: #f3f3f3; border: 1px dashed #aaa; padding: 14px; text-align: center; font-size: 12px;
  color: #555; }
.footer { background: #333; color: #ccc; padding: 20px 24px; font-size: 12px; }
.footer a { color: #eee; margin-right: 14px; }
"""

THEMES = (
    {"font": "Arial, sans-serif", "bg": "#eef0f2", "bar": "#00467f", "link": "#0061a8"},
    {"font": "Verdana, sans-serif", "bg": "#f4f1ec", "bar": "#5a2d82", "link": "#5a2d82"},
    {"font": "Tahoma, sans-serif", "bg": "#e8eef0", "bar": "#8b0000", "link": "#a11"},
)

SPEC = BodySpec(
    section='<div class="article-section article-section--l{level}" id="{id}"{attrs}>\n{inner}</div>\n',
    headings=(
        '<div class="section__title"{attrs}>{text}</div>\n',
        '<div class="section__title section__title--l2"{attrs}>{text}</div>\n',
        '<div class="section__title section__title--l3"{attrs}>{text}</div>\n',
    ),
    paragraph='<div class="NLM_p"{attrs}>{html}</div>\n',
    ulist='<div class="NLM_list NLM_list-list_type-bullet">\n{items}</div>\n',
    olist='<div class="NLM_list NLM_list-list_type-order">\n{items}</div>\n',
    item='<div class="NLM_list-item"{attrs}>• {html}</div>\n',
    figure=(
        '<div class="fig-box" id="{id}"><div class="fig-box__img"></div>'
        '<div class="fig-box__caption"{attrs}><span class="captionLabel">{label}</span> {text}</div></div>\n'
    ),
    table=(
        '<div class="fig-box table-box" id="{id}"><div class="fig-box__caption"{attrs}>'
        '<span class="captionLabel">{label}</span> {text}</div>{grid}</div>\n'
    ),
    grid='<div class="tbl-grid">\n{rows}</div>\n',
    grid_row='<div class="tbl-row" style="display:flex;border-bottom:1px solid #ddd">{cells}</div>\n',
    grid_head_cell='<div class="tbl-cell" style="flex:1 1 0;font-weight:bold;padding:2px 4px">{text}</div>',
    grid_cell='<div class="tbl-cell" style="flex:1 1 0;padding:2px 4px">{text}</div>',
)


class DivSoup(Family):
    name = "div_soup"
    description = "nested divs with BEM classes, hover pop-up affiliations, three flex columns"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, ref_links={"none": 2, "inline": 2, "block": 2, "stacked": 1})
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(
            article, opt.cite_style, link='<a class="ref-link tab-link" href="#{href}"{attrs}>{text}</a>'
        )
        main = (
            self._front(article, opt, rng, citer)
            + f'<div class="article__body">\n{render_body(article, citer, SPEC)}</div>\n'
            + self._references(article, opt, citer)
        )
        tabs = "".join(
            f'<div class="{"is-active" if i == 0 else ""}">{t}</div>'
            for i, t in enumerate(("Full text", "Figures", "References", "Related", "Information"))
        )
        toc = "".join(
            f'<div class="toc-item"><a href="#{sid}">{esc(t)}</a></div>' for sid, t in section_titles(article)
        )
        ad_title, ad_body = fur.ad_text(rng)
        related = "".join(
            f'<div class="related-item"><a href="#">{esc(t)}</a><div>{esc(a)}</div></div><br>'
            for t, a in fur.related(context, rng, 3)
        )
        right = (
            f'<div class="widget"><div class="widget__title">Recommended</div>{related}</div>'
            f'<div class="ad-slot"><b>{esc(ad_title)}</b><br>{esc(ad_body)}</div>'
            '<div class="widget"><div class="widget__title">Metrics</div>'
            + "".join(f"<div>{k}: {v}</div>" for k, v in fur.metrics(rng))
            + "</div>"
        )
        body = (
            f'<div class="hdr"><div class="hdr__top"><div>{esc(site)}</div><div>'
            '<a href="#">Sign in</a><a href="#">Register</a><a href="#">Institutional access</a></div></div>'
            f'<div class="hdr__main"><div class="hdr__logo">{esc(site.split()[0])}</div>'
            f'<div class="hdr__journal">{esc(journal)}</div></div></div>\n'
            f'<div class="tabs">{tabs}</div>\n'
            '<div class="page-body">\n<div class="col-left">'
            f'<div class="widget__title">In this article</div>{toc}</div>\n'
            f'<div class="col-main">\n{main}</div>\n<div class="col-right">{right}</div>\n</div>\n'
            f'<div class="footer">{fur.link_list(fur.footer_links(rng))}'
            f"<div>{esc(fur.copyright_line(article, rng, site))}</div></div>\n"
        )
        if chance(rng, 0.6):
            body += (
                f'<div class="cookie-consent"><div>{esc(fur.cookie_text(rng))}</div>'
                "<div><button>Accept</button> <button>Reject</button></div></div>\n"
            )
        return page(f"{article.title} - {journal}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        out = ['<div class="citation">\n']
        if opt.show_article_type and article.article_type:
            out.append(f'<div class="citation__top">{esc(article.article_type)}</div>\n')
        out.append(f'<div class="citation__title"{lab("title")}>{esc(article.title)}</div>\n')
        affs_by_id = {a.aff_id: a for a in article.affiliations}
        items = []
        for i, author in enumerate(article.authors):
            pops = (
                "".join(
                    f'<div class="aff"{lab("affiliations")}>{esc(affs_by_id[x].text)}</div>'
                    for x in author.aff_ids
                    if x in affs_by_id
                )
                if opt.show_affiliations
                else ""
            )
            pop = f'<div class="author-info">{pops}</div>' if pops else ""
            sep = ", " if i < len(article.authors) - 1 else ""
            star = "*" if author.corresponding and opt.show_correspondence else ""
            items.append(
                f'<span class="loa__item"><a class="loa__name" href="#">{esc(author.name)}</a>'
                f"{star}{pop}{sep}</span>"
            )
        if items:
            out.append(f'<div class="loa"{lab("authors")}>{"".join(items)}</div>\n')
        visible = (
            opt.show_affiliations
            and article.affiliations
            and (chance(rng, 0.5) or not any(a.aff_ids for a in article.authors))
        )
        if visible:
            affs = "".join(
                f'<div class="aff"{lab("affiliations")}>{esc(a.text)}</div>' for a in article.affiliations
            )
            out.append(f'<div class="affs-list"><b>Affiliations</b>{affs}</div>\n')
        if opt.show_correspondence:
            out.extend(
                f'<div class="corresp">*Corresponding author. {esc(c)}</div>\n'
                for c in correspondence_lines(article)
            )
        out.append(
            f'<div class="epub-section">{esc(fur.dates_line(article, rng))}'
            + (f' | <a href="#">https://doi.org/{esc(article.doi)}</a>' if article.doi else "")
            + "</div>\n</div>\n"
        )
        if article.abstract:
            heading = (
                f'<div class="section__title"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</div>'
                if opt.abstract_heading
                else ""
            )
            inner = render_abstract(
                article,
                citer,
                paragraph='<div class="NLM_p"{attrs}>{html}</div>\n',
                part_title='<div class="section__title section__title--l3"{attrs}>{text}</div>\n',
            )
            out.append(
                f'<div class="abstractSection abstractInFull">{heading}'
                f'<div class="abstract-content"{lab("abstract")}>\n{inner}</div></div>\n'
            )
        if opt.show_keywords and article.keywords:
            out.append(
                '<div class="kwd-group"><b>Keywords: </b>'
                + "".join(f"<span>{esc(k)}</span>" for k in article.keywords)
                + "</div>\n"
            )
        return "".join(out)

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        rows = []
        for i, ref in enumerate(article.references, 1):
            num = f'<div class="ref__num">{i}.</div>' if citer.numbered_references else ""
            links = reference_links(ref, stacked=opt.ref_links == "stacked")
            inline = f'<div class="ref__links"{ref_links_attrs()}>{links}</div>' if opt.ref_links in ("inline", "stacked") else ""
            rows.append(
                f'<div class="ref" id="ref-{i}"{ref_attrs(ref)}>{num}<div class="ref__content">'
                f"{reference_html(ref, opt.ref_style, opt.ref_layout)}{inline}</div></div>\n"
            )
            if opt.ref_links == "block":
                rows.append(f'<div class="ref-links-row"{ref_links_attrs()}>{links}</div>\n')
        heading = (
            f'<div class="section__title"{lab("references_heading")}>{esc(opt.references_heading)}</div>\n'
            if opt.references_heading
            else ""
        )
        return f'<div class="article__references" id="references">\n{heading}{"".join(rows)}</div>\n'
