"""Late-1990s/2000s journal site: layout ``<table>``s, ``<font>`` tags, ``<center>``, bgcolor.

A coloured left navigation column, a banner row, authors in bold with lettered superscripts,
affiliations as ``<br>``-separated lines, references as rows of a two-column table.
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
    correspondence_lines,
    esc,
    inline_authors,
    lab,
    needs_markers,
    page,
    pick,
    ref_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
body { margin: 0; background: %(page)s; }
td { font-family: %(font)s; }
a:link { color: #0000cc; } a:visited { color: #551a8b; }
.fig-ph { width: 420px; height: 180px; background: #d8d8d8; border: 1px solid #888; }
"""

THEMES = (
    {"page": "#ffffff", "nav": "#003366", "band": "#cccc99", "font": "Times New Roman, serif"},
    {"page": "#f5f5dc", "nav": "#660000", "band": "#ffcc66", "font": "Arial, Helvetica, sans-serif"},
    {"page": "#ffffff", "nav": "#336633", "band": "#99cccc", "font": "Verdana, Arial, sans-serif"},
)

SPEC = BodySpec(
    section='<div class="sec"{attrs}><a name="{id}"></a>\n{inner}</div>\n',
    headings=(
        '<p><font size="3" color="#990000"><b{attrs}>{text}</b></font></p>\n',
        '<p><font size="2"><b{attrs}>{text}</b></font></p>\n',
        '<p><font size="2"><i{attrs}>{text}</i></font></p>\n',
    ),
    paragraph='<p><font size="2"{attrs}>{html}</font></p>\n',
    ulist="<ul>\n{items}</ul>\n",
    olist="<ol>\n{items}</ol>\n",
    item='<li><font size="2"{attrs}>{html}</font></li>\n',
    figure=(
        '<center><table border="0" cellpadding="4" width="90%"><tr><td align="center">'
        '<div class="fig-ph"></div></td></tr><tr><td><font size="1"{attrs}><b>{label}</b> {text}</font>'
        "</td></tr></table></center>\n"
    ),
    table=(
        '<center><table border="1" cellpadding="4" width="90%"><tr><td bgcolor="#eeeeee">'
        '<font size="1"{attrs}><b>{label}</b> {text}</font></td></tr><tr><td>{grid}</td></tr></table></center>\n'
    ),
    grid='<table border="1" cellspacing="0" cellpadding="2" width="100%">\n{rows}</table>',
    grid_head_cell='<td bgcolor="#dddddd"><b>{text}</b></td>',
    grid_cell='<td><font size="2">{text}</font></td>',
)


class TableLayout(Family):
    name = "table_layout"
    description = "nested layout tables, font tags, bgcolor navigation column, references as table rows"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Abstract": 3, "ABSTRACT": 3, "Summary": 1, "SYNOPSIS": 1, None: 1},
            reference_headings={
                "REFERENCES": 3,
                "References": 2,
                "LITERATURE CITED": 2,
                "Bibliography": 1,
                None: 1,
            },
        )
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(article, opt.cite_style, link='<a href="#{href}"{attrs}>{text}</a>')
        nav = "".join(
            f'<tr><td><font size="2" face="Arial"><a href="#" style="color:#ffffff">{esc(x)}</a>'
            "</font></td></tr>"
            for x in fur.nav_items(rng, 8)
        )
        content = (
            self._front(article, opt, rng, citer)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        related = "".join(
            f'<p><font size="1"><a href="#" style="color:#ffffcc">{esc(t)}</a></font></p>'
            for t, _ in fur.related(context, rng, 4)
        )
        white = ' style="color:#fff"'
        banner = (
            f'<table width="100%" border="0" cellspacing="0" cellpadding="6" bgcolor="{theme["nav"]}"><tr>'
            f'<td><font color="#ffffff" size="5" face="Georgia"><b>{esc(journal)}</b></font><br>'
            f'<font color="#dddddd" size="2">{esc(site)} - Online Edition</font></td>'
            f'<td align="right"><font color="#ffffff" size="1">[ <a href="#"{white}>Search</a> | '
            f'<a href="#"{white}>Subscribe</a> | <a href="#"{white}>Contact</a> ]</font></td></tr></table>\n'
            f'<table width="100%" border="0" cellspacing="0" cellpadding="3" bgcolor="{theme["band"]}"><tr><td>'
            '<font size="1">You are here: <a href="#">Home</a> &gt; <a href="#">Contents</a> &gt; '
            f'{esc(article.year or "Current issue")}</font></td></tr></table>\n'
        )
        left = (
            f'<td width="160" bgcolor="{theme["nav"]}"><table width="100%" cellpadding="5">{nav}</table>'
            '<table width="100%" cellpadding="5"><tr><td><font size="1" color="#ffffff"><b>Related articles:</b>'
            f"</font>{related}</td></tr></table></td>\n"
        )
        body = (
            banner
            + '<table width="100%" border="0" cellspacing="0" cellpadding="0"><tr valign="top">\n'
            + left
            + f'<td width="15">&nbsp;</td>\n<td>\n{content}</td>\n<td width="20">&nbsp;</td></tr></table>\n'
            + f'<hr noshade size="1"><center><font size="1">{esc(fur.copyright_line(article, rng, site))}<br>'
            + fur.link_list(fur.footer_links(rng)[:4], " | ")
            + "</font></center><br>\n"
        )
        return page(f"{journal}: {article.title}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = (
            aff_markers(article.affiliations, pick(rng, {"letter": 2, "symbol": 1, "number": 1}))
            if show_affs and needs_markers(article)
            else {}
        )
        out = ["<br>"]
        if opt.show_article_type and article.article_type:
            out.append(f'<font size="2" color="#666666"><i>{esc(article.article_type)}</i></font><br>\n')
        out.append(
            f'<center><font size="5" face="Georgia"><b{lab("title")}>{esc(article.title)}</b>'
            "</font></center><br>\n"
        )
        if article.authors:
            line = inline_authors(
                article,
                markers,
                corr="*" if opt.show_correspondence else "",
                last=pick(rng, {" and ": 1, ", ": 1}),
            )
            out.append(f'<center><font size="3"><b{lab("authors")}>{line}</b></font></center><br>\n')
        if show_affs:
            lines = "<br>\n".join(
                f'<span{lab("affiliations")}>'
                + (f"<sup>{esc(markers[a.aff_id])}</sup>" if markers else "")
                + f"{esc(a.text)}</span>"
                for a in article.affiliations
            )
            out.append(f'<center><font size="2"><i>{lines}</i></font></center><br>\n')
        if opt.show_correspondence:
            out.extend(f'<font size="1">*{esc(c)}</font><br>\n' for c in correspondence_lines(article))
        out.append(f'<font size="1" color="#666666">{esc(fur.dates_line(article, rng))}</font><br><hr size="1">\n')
        if article.abstract:
            heading = (
                f'<font size="3"><b{lab("abstract_heading")}>{esc(opt.abstract_heading)}</b></font><br>\n'
                if opt.abstract_heading
                else ""
            )
            inner = render_abstract(
                article, citer, paragraph='<p><font size="2"{attrs}>{html}</font></p>\n', inline_titles=True
            )
            out.append(
                '<table width="100%" border="0" cellpadding="8" bgcolor="#eeeeee"><tr><td>'
                f'{heading}<div{lab("abstract")}>{inner}</div></td></tr></table><br>\n'
            )
        if opt.show_keywords and article.keywords:
            out.append(
                f'<font size="2"><b>Key words:</b> {esc("; ".join(article.keywords))}</font><br><hr size="1">\n'
            )
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        notes = render_footnotes(article, '<li><font size="1"{attrs}>{text}</font></li>')
        return f'<p><font size="2"><b>NOTES</b></font></p><ol>{notes}</ol>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        rows = []
        for i, ref in enumerate(article.references, 1):
            num = f"{i}." if citer.numbered_references else "&nbsp;"
            links = f' <font size="1">{reference_links(ref, stacked=opt.ref_links == "stacked")}</font>' if opt.ref_links != "none" else ""
            rows.append(
                f'<tr valign="top" id="ref-{i}"{ref_attrs(ref)}><td width="30" align="right">'
                f'<font size="2">{num}</font></td><td><font size="2">'
                f"{reference_html(ref, opt.ref_style, opt.ref_layout)}</font>{links}</td></tr>\n"
            )
        heading = (
            f'<p><font size="3" color="#990000"><b{lab("references_heading")}>{esc(opt.references_heading)}</b>'
            "</font></p>\n"
            if opt.references_heading
            else "<hr size=1>\n"
        )
        return (
            f'{heading}<table border="0" cellpadding="3" cellspacing="0" width="100%">\n{"".join(rows)}</table>'
            "\n"
        )
