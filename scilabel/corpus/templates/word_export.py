"""A manuscript saved as HTML by a word processor and posted on a proceedings/society site.

``<div class=WordSection1>``, ``<p class=MsoNormal>`` paragraphs full of inline ``style``
and ``<span>``s, centred title/author/affiliation paragraphs, headings as ``<h1>``/``<h2>``
with ``<span>`` wrappers, references as hanging-indent ``MsoNormal`` paragraphs.
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
    content,
    correspondence_lines,
    esc,
    inline_authors,
    lab,
    needs_markers,
    page,
    pick,
    ref_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html

CSS = """
p.MsoNormal, li.MsoNormal { margin: 0in 0in 8pt; font-size: %(size)s; font-family: %(font)s; line-height: 1.3; }
p.MsoTitle { margin: 12pt 0 6pt; text-align: center; font-size: 18pt; font-family: %(font)s; }
h1 { margin: 14pt 0 4pt; font-size: 13pt; font-family: %(font)s; }
h2 { margin: 10pt 0 3pt; font-size: 12pt; font-family: %(font)s; font-style: italic; }
h3 { margin: 8pt 0 2pt; font-size: 11pt; font-family: %(font)s; font-weight: normal;
  text-decoration: underline; }
p.MsoCaption { font-size: 9pt; font-family: %(font)s; margin: 4pt 0 10pt; }
p.MsoBibliography { margin: 0 0 4pt .4in; text-indent: -.4in; font-size: 10pt; font-family: %(font)s; }
p.MsoFootnoteText { font-size: 9pt; font-family: %(font)s; margin: 0; }
div.WordSection1 { width: 6.5in; margin: 0 auto; background: #fff; padding: .6in .8in;
  box-shadow: 0 0 6px #999; }
body { background: %(bg)s; margin: 0; }
.sitebar { background: %(bar)s; color: #fff; font: 13px Verdana, sans-serif; padding: 8px 20px; }
.sitebar a { color: #fff; margin-right: 14px; }
.crumb { font: 12px Verdana, sans-serif; padding: 8px 20px; color: #333; }
.ph { height: 2.2in; background: #ddd; margin: 6pt auto; width: 80%%; }
.foot { font: 11px Verdana, sans-serif; color: #555; text-align: center; padding: 20px; }
"""

THEMES = (
    {"size": "11.0pt", "font": "'Times New Roman', serif", "bg": "#d9d9d9", "bar": "#4a4a8a"},
    {"size": "10.0pt", "font": "Calibri, Carlito, sans-serif", "bg": "#e6e0d4", "bar": "#7a5230"},
    {"size": "12.0pt", "font": "Cambria, 'DejaVu Serif', serif", "bg": "#cfd8dc", "bar": "#37474f"},
)

ABSTRACT_STYLE = "margin-left:.3in;margin-right:.3in;text-align:justify"

SPEC = BodySpec(
    section="<div{attrs}>\n{inner}</div>\n",
    headings=(
        "<h1{attrs}><span style='mso-fareast-font-family:\"Times New Roman\"'>{text}</span></h1>\n",
        "<h2{attrs}><span lang=EN-US>{text}</span></h2>\n",
        "<h3{attrs}><span lang=EN-US>{text}</span></h3>\n",
    ),
    paragraph=(
        "<p class=MsoNormal style='text-align:justify;text-indent:.25in'{attrs}>"
        "<span lang=EN-US>{html}</span></p>\n"
    ),
    ulist="{items}",
    olist="{items}",
    item=(
        "<p class=MsoListParagraph style='margin-left:.5in;text-indent:-.25in;mso-list:l0 level1 lfo1'"
        "{attrs}><span style='font-family:Symbol'>·</span>"
        "<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp;&nbsp; </span>{html}</p>\n"
    ),
    figure=(
        "<p class=MsoNormal align=center style='text-align:center'>"
        "<span class=ph style='display:block'></span></p>\n<p class=MsoCaption{attrs}>"
        "<b>{label}</b> {text}</p>\n"
    ),
    table="<p class=MsoCaption{attrs}><b>{label}</b> {text}</p>\n{grid}",
    grid="<table class=MsoTableGrid border=1 cellspacing=0 cellpadding=0 style='border-collapse:collapse'>\n{rows}</table>\n",
    grid_head_cell="<td valign=top style='border:solid windowtext 1.0pt'><p class=MsoNormal><b>{text}</b></p></td>",
    grid_cell="<td valign=top style='border:solid windowtext 1.0pt'><p class=MsoNormal>{text}</p></td>",
)


class WordExport(Family):
    name = "word_export"
    description = "word-processor HTML export: MsoNormal paragraphs, inline styles, hanging-indent references"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Abstract": 3, "ABSTRACT": 2, "Summary": 1, None: 1},
            reference_headings={
                "References": 3,
                "REFERENCES": 2,
                "Bibliography": 1,
                "Literature Cited": 1,
                None: 1,
            },
            cite_styles={"numbered": 2, "author-year": 2, "original": 2, "superscript": 1},
            p_keywords=0.7,
            p_cite_box=0.0,
        )
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        citer = Citer(article, opt.cite_style, link='<a href="#{href}"{attrs}>{text}</a>')
        doc = (
            self._front(article, opt, rng, citer)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        related = " | ".join(f'<a href="#">{esc(t[:60])}…</a>' for t, _ in fur.related(context, rng, 2))
        body = (
            f"<div class=sitebar><b>{esc(journal)}</b> &nbsp; {fur.nav_links(rng, 4)}</div>\n"
            f'<div class=crumb>Proceedings archive › {esc(article.year or "Papers")} › '
            f"Paper {rng.randint(1, 220)} &nbsp; · &nbsp; Next papers: {related}</div>\n"
            f"<div class=WordSection1>\n{doc}</div>\n"
            f"<div class=foot>{esc(fur.copyright_line(article, rng, fur.site_name(rng)))}<br>"
            "This paper was converted from the authors' manuscript; layout may differ from the printed"
            " version.</div>\n"
        )
        head = '<meta name="Generator" content="Word processor HTML filter">\n'
        return page(article.title, CSS % theme, body, head_extra=head, lang="EN-US")

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        show_affs = opt.show_affiliations and article.affiliations
        markers = (
            aff_markers(article.affiliations, pick(rng, {"number": 2, "symbol": 1}))
            if show_affs and needs_markers(article)
            else {}
        )
        out = [f"<p class=MsoTitle{lab('title')}><b><span lang=EN-US>{esc(article.title)}</span></b></p>\n"]
        if article.authors:
            line = inline_authors(
                article, markers, mark="<sup>{}</sup>", corr="*" if opt.show_correspondence else ""
            )
            out.append(
                f"<p class=MsoNormal align=center style='text-align:center'{lab('authors')}>"
                f"<span lang=EN-US>{line}</span></p>\n"
            )
        if show_affs:
            out.extend(
                f"<p class=MsoNormal align=center style='text-align:center;margin-bottom:0'{lab('affiliations')}>"
                + (f"<sup>{esc(markers[a.aff_id])}</sup>" if markers else "")
                + f"<i><span style='font-size:9.0pt'>{esc(a.text)}</span></i></p>\n"
                for a in article.affiliations
            )
        if opt.show_correspondence:
            out.extend(
                "<p class=MsoNormal align=center style='text-align:center'>"
                f"<span style='font-size:9.0pt'>*{esc(c)}</span>"
                "</p>\n"
                for c in correspondence_lines(article)
            )
        out.append("<p class=MsoNormal>&nbsp;</p>\n")
        if article.abstract:
            paras = []
            for part in article.abstract:
                for j, p in enumerate(part.paragraphs):
                    title = f"<b>{esc(part.title)}. </b>" if part.title and j == 0 else ""
                    paras.append(
                        f"<p class=MsoNormal style='{ABSTRACT_STYLE}'{content()}>"
                        f"<span style='font-size:10.0pt'>{title}{citer.runs(p.runs)}</span></p>\n"
                    )
            if opt.abstract_heading:
                out.append(
                    f"<p class=MsoNormal style='margin-left:.3in'><b><span{lab('abstract_heading')}>"
                    f"{esc(opt.abstract_heading)}</span></b></p>\n"
                )
            out.append(f"<div{lab('abstract')}>\n{''.join(paras)}</div>\n")
        if opt.show_keywords and article.keywords:
            out.append(
                "<p class=MsoNormal style='margin-left:.3in'><b><i>Keywords:</i></b>"
                f" {esc(', '.join(article.keywords))}</p>\n"
            )
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return (
            "<div style='mso-element:footnote-list'><hr align=left size=1 width='33%'>\n"
            + render_footnotes(article, "<p class=MsoFootnoteText{attrs}><sup>[{n}]</sup> {text}</p>\n")
            + "</div>\n"
        )

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        paras = []
        for i, ref in enumerate(article.references, 1):
            num = f"[{i}]<span style='mso-tab-count:1'>&nbsp;&nbsp; </span>" if citer.numbered_references else ""
            paras.append(
                f"<p class=MsoBibliography id=ref-{i}{ref_attrs(ref)}>{num}"
                f"<span lang=EN-US>{reference_html(ref, opt.ref_style)}</span></p>\n"
            )
        heading = (
            f"<h1{lab('references_heading')}><span lang=EN-US>{esc(opt.references_heading)}</span></h1>\n"
            if opt.references_heading
            else "<p class=MsoNormal>&nbsp;</p>\n"
        )
        return heading + "".join(paras)
