"""Preprint-server abstract page followed by the HTML full text.

Labels are run in: "Title:", "Authors:" and "Abstract:" descriptors share the line with the
component (only the component is labelled, the descriptor heading the abstract is its
heading); affiliations, when shown, sit in parentheses after each author.
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
    esc,
    lab,
    page,
    pick,
    ref_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html

CSS = """
body { margin: 0; font: 15px/1.5 'Lucida Grande', Helvetica, Arial, sans-serif; color: #000; }
a { color: #0044aa; }
.header { background: %(band)s; color: #fff; padding: 10px 20px; display: flex;
  justify-content: space-between; align-items: center; }
.header .logo { font: bold 26px Georgia, serif; }
.header input { padding: 4px; width: 240px; }
.subheader { border-bottom: 1px solid #ccc; padding: 6px 20px; font-size: 13px; }
#content { display: flex; gap: 26px; padding: 16px 20px; }
#abs-outer { flex: 1; min-width: 0; max-width: 900px; }
.extra-services { flex: 0 0 240px; font-size: 13px; border-left: 1px solid #ddd; padding-left: 16px; }
.extra-services h2 { font-size: 14px; margin: 12px 0 4px; }
.dateline { font-size: 13px; font-style: italic; color: #555; }
h1.title { font-size: 24px; margin: 10px 0; line-height: 1.3; }
.descriptor { font-size: 13px; font-weight: normal; color: #444; margin-right: 6px; }
.authors { font-size: 16px; margin: 8px 0; } .authors .aff { color: #555; font-size: 14px; }
blockquote.abstract { margin: 14px 0 14px 24px; font-size: 15px; line-height: 1.55; }
.metatable td { font-size: 13px; padding: 2px 10px 2px 0; vertical-align: top; }
.metatable .tablecell.label { text-align: right; color: #555; }
.submission-history { font-size: 13px; margin: 14px 0; }
.fulltext { border-top: 3px double #999; margin-top: 24px; padding-top: 10px;
  font-family: 'Latin Modern Roman', 'DejaVu Serif', serif; font-size: 16px; }
.fulltext h2 { font-size: 20px; } .fulltext h3 { font-size: 17px; } .fulltext h4 { font-size: 16px; }
.ltx_figure { margin: 16px 0; text-align: center; }
.ltx_figure .ph { height: 180px; background: #eee; margin: 0 auto; width: 70%%; }
.ltx_caption { font-size: 14px; text-align: left; }
.ltx_bibliography { font-size: 14px; } .ltx_bibliography li { margin-bottom: 6px; }
.footer { border-top: 1px solid #ccc; padding: 12px 20px; font-size: 12px; color: #555; }
"""

SPEC = BodySpec(
    section='<section class="ltx_section" id="{id}"{attrs}>\n{inner}</section>\n',
    paragraph='<div class="ltx_para"><p class="ltx_p"{attrs}>{html}</p></div>\n',
    figure=(
        '<figure class="ltx_figure" id="{id}"><div class="ph">'
        '</div><figcaption class="ltx_caption"{attrs}><span class="ltx_tag">{label}</span> {text}</figcaption>'
        "</figure>\n"
    ),
    table=(
        '<figure class="ltx_table" id="{id}"><figcaption class="ltx_caption"{attrs}>'
        '<span class="ltx_tag">{label}</span> {text}</figcaption>{grid}</figure>\n'
    ),
    grid='<table class="ltx_tabular ltx_centering">\n{rows}</table>\n',
    grid_row='<tr class="ltx_tr">{cells}</tr>\n',
    grid_head_cell='<th class="ltx_td ltx_th">{text}</th>',
    grid_cell='<td class="ltx_td ltx_align_center">{text}</td>',
)


class PreprintLanding(Family):
    name = "preprint_landing"
    description = "preprint abstract page with run-in descriptors, metadata table, full text below"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Abstract:": 4, None: 1},
            cite_styles={"numbered": 3, "author-year": 2, "original": 1},
            p_affiliations=0.5,
            p_cite_box=0.6,
        )
        band = rng.choice(("#b31b1b", "#333366", "#9b2335"))
        site = pick(rng, {"openRxiv": 1, "preprints.example": 1, "ArchivX": 1})
        citer = Citer(article, opt.cite_style)
        ident = f"{rng.randint(1000, 2499)}.{rng.randint(10000, 99999)}"
        archive = pick(rng, {"q-bio": 1, "physics": 1, "cond-mat": 1, "stat": 1})
        full_text = (
            render_body(article, citer, SPEC) + self._notes(article) + self._references(article, opt, citer)
        )
        body = (
            f'<div class="header"><span class="logo">{esc(site)}</span>'
            '<form><input type="text" placeholder="Search..."> <button>Search</button></form></div>\n'
            f'<div class="subheader">{esc(site)} &gt; {esc(archive)} &gt; {ident}</div>\n'
            f'<div id="content"><div id="abs-outer">\n{self._abstract_page(article, opt, rng, citer, ident)}'
            '<div class="fulltext"><p><b>Full text</b> (HTML rendering of version 1)</p>\n'
            f"{full_text}</div>\n</div>\n{self._services(rng, context)}</div>\n"
            f'<div class="footer">{fur.link_list(fur.footer_links(rng)[:5], " | ")}</div>\n'
        )
        return page(f"[{ident}] {article.title}", CSS % {"band": band}, body)

    def _abstract_page(
        self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer, ident: str
    ) -> str:
        submitted = fur.dates_line(article, rng).split(": ")[-1]
        out = [
            f'<div class="dateline">[Submitted on {esc(submitted)}]</div>\n',
            '<h1 class="title"><span class="descriptor">Title:</span>'
            f'<span{lab("title")}>{esc(article.title)}</span></h1>\n',
        ]
        affs = {a.aff_id: a.text for a in article.affiliations}
        names = []
        for author in article.authors:
            where = [affs[x] for x in author.aff_ids if x in affs] if opt.show_affiliations else []
            aff = (
                (
                    f' <span class="aff">(<span{lab("affiliations")}>'
                    + f'</span>; <span{lab("affiliations")}>'.join(esc(w) for w in where)
                    + "</span>)</span>"
                )
                if where
                else ""
            )
            names.append(f'<a href="#">{esc(author.name)}</a>{aff}')
        if names:
            out.append(
                '<div class="authors"><span class="descriptor">Authors:</span>'
                f'<span{lab("authors")}>{", ".join(names)}</span></div>\n'
            )
        if article.abstract:
            parts = []
            for part in article.abstract:
                text = " ".join(citer.runs(p.runs) for p in part.paragraphs)
                parts.append((f"<b{content()}>{esc(part.title)}:</b> " if part.title else "") + text)
            heading = (
                f'<span class="descriptor"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</span>'
                if opt.abstract_heading
                else ""
            )
            out.append(
                f'<blockquote class="abstract">{heading}<span{lab("abstract")}{content()}>{" ".join(parts)}</span>'
                "</blockquote>\n"
            )
        rows = [
            ("Comments:", f"{rng.randint(8, 40)} pages, {len(article.figures)} figures"),
            ("Subjects:", article.article_type or "General"),
            (
                "Journal reference:",
                f"{article.journal} {article.volume} ({article.year})" if article.journal else "",
            ),
            ("DOI:", article.doi),
            ("Cite as:", f"{ident} [preprint]" if opt.show_cite_box else ""),
        ]
        if opt.show_keywords and article.keywords:
            rows.append(("Keywords:", ", ".join(article.keywords)))
        table = "".join(f'<tr><td class="tablecell label">{k}</td><td>{esc(v)}</td></tr>' for k, v in rows if v)
        out.append(f'<table class="metatable">{table}</table>\n')
        submitter = article.authors[0].name if article.authors else "anonymous"
        out.append(
            f'<div class="submission-history"><b>Submission history</b><br>From: {esc(submitter)} [view email]'
            f"<br><b>[v1]</b> {esc(fur.dates_line(article, rng))} ({rng.randint(200, 9000)} KB)</div>\n"
        )
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return f'<section class="ltx_notes"><h2>Footnotes</h2><ol>{render_footnotes(article)}</ol></section>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        items = "".join(
            f'<li class="ltx_bibitem" id="ref-{i}"{ref_attrs(r)}>{reference_html(r, opt.ref_style, opt.ref_layout)}</li>\n'
            for i, r in enumerate(article.references, 1)
        )
        heading = (
            f'<h2 class="ltx_title_bibliography"{lab("references_heading")}>{esc(opt.references_heading)}</h2>'
            "\n"
            if opt.references_heading
            else ""
        )
        tag = "ol" if citer.numbered_references else "ul"
        return (
            f'<section class="ltx_bibliography" id="references">{heading}'
            f'<{tag} class="ltx_biblist">\n{items}</{tag}></section>\n'
        )

    def _services(self, rng: random.Random, context: PageContext) -> str:
        related = "".join(f'<li><a href="#">{esc(t)}</a></li>' for t, _ in fur.related(context, rng, 4))
        access = fur.link_list(["View PDF", "HTML (experimental)", "Other formats"], "</li><li>")
        tools = fur.link_list(["Semantic index", "Citation graph"], "</li><li>")
        bookmark = ""
        if chance(rng, 0.5):
            bookmark = "<h2>Bookmark</h2><p>" + " ".join(f"[{s}]" for s in fur.share_labels(rng)[:3]) + "</p>"
        return (
            f'<div class="extra-services"><h2>Access paper:</h2><ul><li>{access}</li></ul>'
            "<h2>Current browse context:</h2><p>&lt; prev | next &gt;</p>"
            f"<h2>References &amp; citations</h2><ul><li>{tools}</li></ul>"
            f"<h2>Similar preprints</h2><ul>{related}</ul>{bookmark}</div>\n"
        )
