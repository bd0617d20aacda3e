"""Server-rendered single-page-app output: only ``<div>``/``<span>`` with hashed class names.

No heading, list or paragraph tags at all: structure is expressed with ARIA roles
(``role="heading" aria-level``, ``role="list"``/``listitem``) and CSS-in-JS classes. Authors
are chips; affiliations live in a collapsed panel (hidden) or a visible list.
"""

from __future__ import annotations

import hashlib
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
    lab,
    needs_markers,
    page,
    ref_attrs,
    ref_links_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

ROLES = (
    "app",
    "bar",
    "brand",
    "nav",
    "main",
    "side",
    "title",
    "chips",
    "chip",
    "h",
    "h2",
    "h3",
    "p",
    "sec",
    "abs",
    "fig",
    "img",
    "cap",
    "refs",
    "ref",
    "num",
    "links",
    "panel",
    "aff",
    "card",
    "fab",
    "foot",
    "kw",
    "meta",
    "li",
    "toast",
)

CSS = """
.%(app)s { font-family: %(font)s; color: #1c1c28; background: %(bg)s; margin: 0; }
.%(bar)s { position: sticky; top: 0; z-index: 5; height: 60px; display: flex; align-items: center; gap: 24px;
  padding: 0 24px; background: %(primary)s; color: #fff; box-shadow: 0 2px 4px rgba(0,0,0,.2); }
.%(brand)s { font-weight: 700; font-size: 19px; letter-spacing: .02em; }
.%(nav)s { display: flex; gap: 18px; font-size: 14px; opacity: .9; }
.%(main)s { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 32px; max-width: 1240px;
  margin: 24px auto; padding: 0 24px; }
.%(card)s { background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgba(0,0,0,.12); padding: 24px 32px;
  margin-bottom: 20px; }
.%(title)s { font-size: 30px; line-height: 1.25; font-weight: 600; margin: 8px 0 16px; }
.%(meta)s { font-size: 13px; color: #5c5c6e; display: flex; gap: 16px; flex-wrap: wrap; }
.%(chips)s { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; }
.%(chip)s { display: inline-flex; align-items: center; gap: 6px; border: 1px solid #d0d0dc;
  border-radius: 16px; padding: 2px 10px 2px 3px; font-size: 14px; }
.%(chip)s::before { content: ""; width: 22px; height: 22px; border-radius: 50%%; background: %(primary)s;
  opacity: .35; }
.%(panel)s { font-size: 13px; color: #444; border-top: 1px solid #eee; padding-top: 8px; }
.%(panel)s[aria-expanded="false"] > .%(aff)s { display: none; }
.%(aff)s { margin: 3px 0; }
.%(h)s { font-size: 22px; font-weight: 600; margin: 26px 0 10px; }
.%(h2)s { font-size: 18px; font-weight: 600; margin: 18px 0 8px; }
.%(h3)s { font-size: 16px; font-weight: 600; font-style: italic; margin: 14px 0 6px; }
.%(p)s { font-size: 16px; line-height: 1.7; margin: 0 0 14px; }
.%(li)s { font-size: 16px; line-height: 1.6; margin: 0 0 6px 20px; }
.%(fig)s { margin: 18px 0; }
.%(img)s { height: 240px; border-radius: 8px; background: linear-gradient(120deg, #e3e7f1, #cfd6e6); }
.%(cap)s { font-size: 14px; color: #555; margin-top: 8px; }
.%(ref)s { display: grid; grid-template-columns: 36px 1fr; font-size: 14px; padding: 8px 0;
  border-bottom: 1px solid #f0f0f4; }
.%(num)s { color: #888; }
.%(chip)s .%(num)s, .%(aff)s .%(num)s { vertical-align: super; font-size: 70%%; }
.%(links)s { font-size: 12px; margin-top: 4px; }
.%(links)s a { margin-right: 10px; color: %(primary)s; }
.%(kw)s { display: inline-block; background: #eef0f8; border-radius: 4px; padding: 2px 8px;
  margin: 0 6px 6px 0; font-size: 13px; }
.%(side)s { font-size: 14px; position: sticky; top: 84px; align-self: start; }
.%(fab)s { position: fixed; right: 28px; bottom: 28px; background: %(primary)s; color: #fff;
  border-radius: 28px; padding: 14px 22px; box-shadow: 0 3px 8px rgba(0,0,0,.3); font-weight: 600; }
.%(toast)s { position: fixed; left: 24px; bottom: 24px; max-width: 420px; background: #323232; color: #fff;
  border-radius: 6px; padding: 14px 18px; font-size: 14px; z-index: 20; }
.%(foot)s { text-align: center; font-size: 12px; color: #777; padding: 30px; }
"""

THEMES = (
    {"font": "Inter, Roboto, 'Helvetica Neue', sans-serif", "bg": "#f4f5f9", "primary": "#3949ab"},
    {"font": "'Source Sans Pro', 'DejaVu Sans', sans-serif", "bg": "#f7f7f2", "primary": "#00796b"},
    {"font": "'IBM Plex Sans', Arial, sans-serif", "bg": "#f2f4f8", "primary": "#c2185b"},
)


def class_names(rng: random.Random) -> dict[str, str]:
    """Hashed CSS-in-JS class names, new for every page."""
    salt = str(rng.random())
    return {r: "css-" + hashlib.sha1(f"{salt}{r}".encode()).hexdigest()[:6] for r in ROLES}


def heading(cls: str, level: int, text: str, attrs: str = "") -> str:
    """A heading as the app renders it: a ``div`` with an ARIA heading role."""
    return f'<div role="heading" aria-level="{level}" class="{cls}"{attrs}>{text}</div>'


def body_spec(c: dict[str, str]) -> BodySpec:
    return BodySpec(
        section=f'<div class="{c["sec"]}" id="{{id}}"{{attrs}}>\n{{inner}}</div>\n',
        headings=tuple(heading(c[k], n + 2, "{text}", "{attrs}") + "\n" for n, k in enumerate(("h", "h2", "h3"))),
        paragraph=f'<div class="{c["p"]}"{{attrs}}>{{html}}</div>\n',
        ulist='<div role="list">\n{items}</div>\n',
        olist='<div role="list">\n{items}</div>\n',
        item=f'<div role="listitem" class="{c["li"]}"{{attrs}}>{{html}}</div>\n',
        figure=(
            f'<div role="figure" class="{c["fig"]}" id="{{id}}"><div class="{c["img"]}"></div>'
            f'<div class="{c["cap"]}"{{attrs}}><span>{{label}}</span> {{text}}</div></div>\n'
        ),
        table=(
            f'<div role="table" class="{c["fig"]}" id="{{id}}">'
            f'<div class="{c["cap"]}"{{attrs}}><span>{{label}}</span> {{text}}</div>{{grid}}</div>\n'
        ),
        grid='<div role="rowgroup">\n{rows}</div>\n',
        grid_row='<div role="row" style="display:flex;gap:8px">{cells}</div>\n',
        grid_head_cell='<div role="columnheader" style="flex:1 1 0;font-weight:600">{text}</div>',
        grid_cell='<div role="cell" style="flex:1 1 0">{text}</div>',
    )


class SpaFlat(Family):
    name = "spa_flat"
    description = "single-page-app output: only div/span with hashed classes and ARIA roles"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, ref_links={"none": 1, "inline": 2})
        c = class_names(rng)
        theme = dict(rng.choice(THEMES), **c)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        link = f'<span role="link" tabindex="0" class="{c["num"]}" data-target="{{href}}"{{attrs}}>{{text}}</span>'
        citer = Citer(article, opt.cite_style, link=link)
        main = (
            self._front(article, opt, rng, citer, c, journal)
            + f'<div class="{c["card"]}">{render_body(article, citer, body_spec(c))}</div>'
            + self._notes(article, c)
            + self._references(article, opt, citer, c)
        )
        nav = "".join(f'<span role="link">{esc(x)}</span>' for x in fur.nav_items(rng, 5))
        toast = ""
        if chance(rng, 0.6):
            toast = (
                f'<div class="{c["toast"]}" role="dialog">{esc(fur.cookie_text(rng))} '
                '<span role="button"><b>GOT IT</b></span></div>'
            )
        body = (
            f'<div id="root" class="{c["app"]}">'
            f'<div class="{c["bar"]}" role="banner"><span class="{c["brand"]}">{esc(site)}</span>'
            f'<div class="{c["nav"]}" role="navigation">{nav}</div></div>\n'
            f'<div class="{c["main"]}"><div role="main">\n{main}</div>\n'
            f'<div class="{c["side"]}" role="complementary">{self._side(rng, context, c)}</div></div>\n'
            f'<div class="{c["fab"]}" role="button">Download PDF</div>\n'
            f'<div class="{c["foot"]}" role="contentinfo">{esc(fur.copyright_line(article, rng, site))}</div>\n'
            f"{toast}</div>\n"
        )
        return page(f"{article.title} | {journal}", CSS % theme, body, body_attrs=' style="margin:0"')

    def _side(self, rng: random.Random, context: PageContext, c: dict[str, str]) -> str:
        metrics = "".join(f"<div>{k}: <span>{v}</span></div>" for k, v in fur.metrics(rng))
        related = "".join(
            f'<div style="margin-bottom:10px"><span role="link">{esc(t)}</span>'
            f'<div style="color:#777;font-size:12px">{esc(a)}</div></div>'
            for t, a in fur.related(context, rng, 4)
        )
        return (
            f'<div class="{c["card"]}">{heading(c["h2"], 2, "Metrics")}{metrics}</div>'
            f'<div class="{c["card"]}">{heading(c["h2"], 2, "Recommended for you")}{related}</div>'
        )

    def _front(
        self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer, c: dict[str, str], journal: str
    ) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = aff_markers(article.affiliations, "number") if show_affs and needs_markers(article) else {}
        meta = [
            article.article_type if opt.show_article_type else "",
            journal,
            article.year,
            article.doi and f"doi.org/{article.doi}",
        ]
        out = [
            f'<div class="{c["card"]}"><div class="{c["meta"]}">'
            + "".join(f"<span>{esc(m)}</span>" for m in meta if m)
            + "</div>",
            heading(c["title"], 1, esc(article.title), lab("title")),
        ]
        if article.authors:
            chips = []
            for a in article.authors:
                marks = ",".join(markers[x] for x in a.aff_ids if x in markers)
                sup = f'<span class="{c["num"]}">{esc(marks)}</span>' if marks else ""
                chips.append(f'<span class="{c["chip"]}" role="listitem"><span>{esc(a.name)}</span>{sup}</span>')
            out.append(f'<div class="{c["chips"]}" role="list"{lab("authors")}>{"".join(chips)}</div>')
        if show_affs:
            expanded = "true" if chance(rng, 0.6) else "false"
            affs = "".join(
                f'<div class="{c["aff"]}"{lab("affiliations")}>'
                + (f'<span class="{c["num"]}">{esc(markers[a.aff_id])}</span> ' if markers else "")
                + f"{esc(a.text)}</div>"
                for a in article.affiliations
            )
            out.append(
                f'<div class="{c["panel"]}" aria-expanded="{expanded}">'
                f'<span role="button">Author affiliations ▾</span>{affs}</div>'
            )
        if opt.show_correspondence:
            out.extend(f'<div class="{c["meta"]}">{esc(x)}</div>' for x in correspondence_lines(article))
        out.append("</div>\n")
        if article.abstract:
            out.append(self._abstract(article, opt, citer, c))
        return "".join(out)

    def _abstract(self, article: Article, opt: PageOptions, citer: Citer, c: dict[str, str]) -> str:
        head = (
            heading(c["h"], 2, esc(opt.abstract_heading), lab("abstract_heading")) if opt.abstract_heading else ""
        )
        parts = []
        for part in article.abstract:
            if part.title:
                parts.append(f'<div class="{c["h3"]}"{content()}>{esc(part.title)}</div>')
            parts.extend(f'<div class="{c["p"]}"{content()}>{citer.runs(p.runs)}</div>' for p in part.paragraphs)
        keywords = ""
        if opt.show_keywords and article.keywords:
            keywords = (
                "<div>" + "".join(f'<span class="{c["kw"]}">{esc(k)}</span>' for k in article.keywords) + "</div>"
            )
        return (
            f'<div class="{c["card"]}" role="region">{head}'
            f'<div class="{c["abs"]}"{lab("abstract")}>{"".join(parts)}</div>{keywords}</div>\n'
        )

    def _notes(self, article: Article, c: dict[str, str]) -> str:
        if not article.footnotes:
            return ""
        notes = render_footnotes(article, f'<div class="{c["cap"]}"{{attrs}}>{{n}}. {{text}}</div>')
        return f'<div class="{c["card"]}">{heading(c["h"], 2, "Footnotes")}{notes}</div>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer, c: dict[str, str]) -> str:
        if not article.references:
            return ""
        rows = []
        for i, ref in enumerate(article.references, 1):
            links = f'<div class="{c["links"]}"{ref_links_attrs()}>{reference_links(ref)}</div>' if opt.ref_links != "none" else ""
            num = f"{i}" if citer.numbered_references else ""
            rows.append(
                f'<div role="listitem" class="{c["ref"]}" id="ref-{i}"{ref_attrs(ref)}>'
                f'<span class="{c["num"]}">{num}</span>'
                f"<span>{reference_html(ref, opt.ref_style, opt.ref_layout)}{links}</span></div>\n"
            )
        head = ""
        if opt.references_heading:
            head = heading(c["h"], 2, esc(opt.references_heading), lab("references_heading")) + "\n"
        return (
            f'<div class="{c["card"]}">{head}<div class="{c["refs"]}" role="list">\n{"".join(rows)}</div></div>\n'
        )
