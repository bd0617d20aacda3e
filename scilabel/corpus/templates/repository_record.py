"""Institutional repository record (deposit landing page) with the full text appended.

A citation paragraph repeating authors and title sits under the heading; metadata is a
two-column ``<th>``/``<td>`` table where affiliations are ``<br>``-separated lines of one cell;
references are one ``<p>`` each in a plain ``<div>``.
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
    esc,
    lab,
    page,
    pick,
    ref_attrs,
    short_authors,
)
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html

CSS = """
body { margin: 0; font: 14px/1.5 'Trebuchet MS', 'DejaVu Sans', sans-serif; color: #222; background: #fff; }
a { color: %(link)s; }
.ep_tm_header { background: %(brand)s; color: #fff; padding: 18px 28px; }
.ep_tm_header .inst { font: bold 22px Georgia, serif; } .ep_tm_header .repo { font-size: 14px; opacity: .85; }
.ep_tm_menu { background: #eee; border-bottom: 1px solid #ccc; padding: 6px 28px; }
.ep_tm_menu a { margin-right: 18px; font-size: 13px; }
.ep_tm_page_content { max-width: 980px; margin: 0 auto; padding: 10px 28px 30px; }
h1.ep_tm_pagetitle { font: normal 24px/1.3 Georgia, serif; margin: 18px 0 8px; }
.ep_block { margin: 12px 0; }
.creators { font-size: 15px; }
.ep_summary_citation { background: #f6f6f6; border-left: 4px solid %(brand)s; padding: 8px 12px;
  font-size: 13px; }
.ep_document_box { display: flex; gap: 12px; align-items: center; border: 1px solid #ddd; padding: 8px;
  margin: 10px 0; font-size: 13px; }
.ep_document_box .icon { width: 40px; height: 50px; background: #c33; }
h2 { font: normal 19px Georgia, serif; border-bottom: 1px solid #ccc; margin-top: 26px; }
h3 { font-size: 16px; } h4 { font-size: 14px; }
table.ep_meta { border-collapse: collapse; width: 100%%; font-size: 13px; margin-top: 18px; }
table.ep_meta th { text-align: right; vertical-align: top; width: 170px; padding: 5px 10px;
  background: #f0f0f0; border-bottom: 1px solid #fff; }
table.ep_meta td { padding: 5px 10px; border-bottom: 1px solid #eee; }
.fulltext p { text-align: justify; }
.fig { margin: 14px 0; } .fig .ph { height: 180px; background: #e4e4e4; } .fig .cap { font-size: 13px; }
.refs p { margin: 0 0 6px; padding-left: 24px; text-indent: -24px; font-size: 13px; }
.ep_tm_footer { border-top: 1px solid #ccc; padding: 14px 28px; font-size: 12px; color: #666; }
"""

THEMES = (
    {"brand": "#003b5c", "link": "#00629b"},
    {"brand": "#5b2c6f", "link": "#6c3483"},
    {"brand": "#1e5631", "link": "#1e7b3c"},
)

SPEC = BodySpec(
    figure=(
        '<div class="fig" id="{id}"><div class="ph"></div><p class="cap"{attrs}><b>{label}</b>'
        " {text}</p></div>\n"
    ),
    table='<div class="fig" id="{id}"><p class="cap"{attrs}><b>{label}</b> {text}</p></div>\n',
    show_labels=False,
)


class RepositoryRecord(Family):
    name = "repository_record"
    description = "repository deposit page: citation paragraph, th/td metadata table, full text, <p> refs"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, abstract_headings={"Abstract": 5, None: 1}, p_keywords=0.8)
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        inst = pick(
            rng,
            {
                "University of Eastmoor": 1,
                "Riverside Institute of Technology": 1,
                "College of the North Coast": 1,
                "Valdera University": 1,
            },
        )
        citer = Citer(article, opt.cite_style)
        content_html = "".join(
            [
                f'<h1 class="ep_tm_pagetitle"{lab("title")}>{esc(article.title)}</h1>\n',
                self._creators(article),
                self._citation(article, rng, journal),
                '<div class="ep_document_box"><div class="icon"></div><div>'
                '<a href="#">Text — published version</a><br>Available under a Creative Commons licence. '
                f"Download ({rng.randint(200, 4000)}kB)</div></div>\n",
                self._abstract(article, opt, citer),
                self._meta_table(article, opt, rng, journal),
                f'<h2>Full text</h2><div class="fulltext">\n{render_body(article, citer, SPEC)}</div>\n',
                (
                    f'<h2>Notes</h2>{render_footnotes(article, "<p{attrs}>{n}. {text}</p>")}\n'
                    if article.footnotes
                    else ""
                ),
                self._references(article, opt, citer),
            ]
        )
        rel = "".join(f'<li><a href="#">{esc(t)}</a></li>' for t, _ in fur.related(context, rng, 3))
        if rel and chance(rng, 0.7):
            content_html += f"<h2>More from this collection</h2><ul>{rel}</ul>"
        menu = ("Home", "About", "Browse by year", "Browse by subject", "Browse by division", "Login")
        body = (
            f'<div class="ep_tm_header"><div class="inst">{esc(inst)}</div>'
            '<div class="repo">Research Repository</div></div>\n'
            f'<div class="ep_tm_menu">{fur.link_list(list(menu))}</div>\n'
            f'<div class="ep_tm_page_content">\n{content_html}</div>\n'
            f'<div class="ep_tm_footer">{esc(inst)} Research Repository is powered by open-source software. '
            f"{esc(fur.copyright_line(article, rng, inst))}</div>\n"
        )
        return page(f"{article.title} - {inst} Research Repository", CSS % theme, body)

    def _creators(self, article: Article) -> str:
        if not article.authors:
            return ""
        names = ", ".join(f'<a href="#">{esc(a.name)}</a>' for a in article.authors)
        return f'<p class="creators"{lab("authors")}>{names}</p>\n'

    def _citation(self, article: Article, rng: random.Random, journal: str) -> str:
        """The repository's own citation line: repeats authors and title (unlabelled)."""
        volume = f", {article.volume}" if article.volume else ""
        issn = f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
        return (
            f'<p class="ep_summary_citation">{esc(short_authors(article, 6))} ({esc(article.year or "n.d.")}) '
            f"{esc(article.title)}. {esc(journal)}{esc(volume)}. ISSN {issn}</p>\n"
        )

    def _abstract(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.abstract:
            return ""
        heading = f'<h2{lab("abstract_heading")}>{esc(opt.abstract_heading)}</h2>' if opt.abstract_heading else ""
        inner = render_abstract(article, citer, inline_titles=True)
        return f'{heading}<div class="ep_block"{lab("abstract")}>{inner}</div>\n'

    def _meta_table(self, article: Article, opt: PageOptions, rng: random.Random, journal: str) -> str:
        affs = ""
        if opt.show_affiliations and article.affiliations:
            affs = "<br>".join(f'<span{lab("affiliations")}>{esc(a.text)}</span>' for a in article.affiliations)
        rows = [
            ("Item Type:", esc(f"Article ({article.article_type})" if article.article_type else "Article")),
            ("Affiliations:", affs),
            ("Uncontrolled Keywords:", esc(", ".join(article.keywords)) if opt.show_keywords else ""),
            ("Journal:", esc(journal)),
            (
                "Official URL:",
                (
                    f'<a href="https://doi.org/{esc(article.doi)}">https://doi.org/{esc(article.doi)}</a>'
                    if article.doi
                    else ""
                ),
            ),
            (
                "Depositing User:",
                pick(rng, {"Repository Staff": 1, "Library Services": 1, "Research Office": 1}),
            ),
            ("Date Deposited:", esc(fur.dates_line(article, rng).split(": ")[-1])),
            ("URI:", f'<a href="#">item/{rng.randint(1000, 99999)}</a>'),
        ]
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows if v)
        return f'<table class="ep_meta">{cells}</table>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        paras = "".join(
            f'<p id="ref-{i}"{ref_attrs(r)}>{f"[{i}] " if citer.numbered_references else ""}'
            f"{reference_html(r, opt.ref_style)}</p>\n"
            for i, r in enumerate(article.references, 1)
        )
        heading = (
            f'<h2{lab("references_heading")}>{esc(opt.references_heading)}</h2>\n'
            if opt.references_heading
            else "<hr>\n"
        )
        return f'{heading}<div class="refs">\n{paras}</div>\n'
