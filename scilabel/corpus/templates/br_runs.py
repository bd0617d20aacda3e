"""Plain-HTML e-journal (early web magazines, society newsletters): ``<p>`` blocks cut by ``<br>``.

One author per line with the affiliation on the line after it, a run-in "Abstract:" heading,
paragraphs as ``<br><br>``-separated runs, references as one ``<p>`` with a ``<br>`` per entry.
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
    ref_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
body { margin: 24px auto; max-width: %(width)spx; font: %(size)s/1.45 %(font)s; color: #000;
  background: %(bg)s; }
.masthead { border-bottom: 2px solid #000; padding-bottom: 6px; margin-bottom: 18px; }
.masthead .name { font-size: 28px; font-weight: bold; font-family: %(head)s; }
.title { font-size: 24px; font-weight: bold; font-family: %(head)s; }
.fig-ph { display: inline-block; width: 360px; height: 160px; background: #ccc; }
.small { font-size: 85%%; }
"""

THEMES = (
    {
        "width": 760,
        "size": "16px",
        "font": "Times, 'Times New Roman', serif",
        "head": "Times, serif",
        "bg": "#fff",
    },
    {"width": 820, "size": "15px", "font": "Georgia, serif", "head": "Arial, sans-serif", "bg": "#fffff4"},
    {
        "width": 700,
        "size": "14px",
        "font": "Verdana, sans-serif",
        "head": "Verdana, sans-serif",
        "bg": "#f8f8f8",
    },
)

SPEC = BodySpec(
    section="<div{attrs}>\n{inner}</div>\n",
    headings=(
        "<br><big><b{attrs}>{text}</b></big><br><br>\n",
        "<b><i{attrs}>{text}</i></b><br>\n",
        "<i{attrs}>{text}</i><br>\n",
    ),
    paragraph="<span{attrs}>{html}</span><br><br>\n",
    ulist="{items}<br>\n",
    olist="{items}<br>\n",
    item="&nbsp;&nbsp;&bull; <span{attrs}>{html}</span><br>\n",
    figure=('<br><div class="fig-ph"></div><br><span class="small"{attrs}><b>{label}</b> {text}</span><br><br>\n'),
    table=(
        '<br><span class="small"{attrs}><b>{label}</b> {text}</span><br>[Table not shown in this'
        " version]<br><br>\n"
    ),
)


class BrRuns(Family):
    name = "br_runs"
    description = "plain e-journal HTML: <p> blocks split by <br>, one author per line, refs as one <p>"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Abstract": 4, "ABSTRACT": 1, "Summary": 1, None: 1},
            ref_links={"none": 3, "inline": 1, "block": 2},
            p_cite_box=0.5,
        )
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        citer = Citer(article, opt.cite_style)
        issue = " ".join(
            x
            for x in (
                article.volume and f"Volume {article.volume}",
                article.issue and f"Number {article.issue}",
                article.year,
            )
            if x
        )
        body = (
            f'<div class="masthead"><span class="name">{esc(journal)}</span>'
            f'<br><span class="small">{esc(issue or "Online edition")} &nbsp;|&nbsp;'
            f' {fur.nav_links(rng, 4, " | ")}</span></div>\n'
            + self._front(article, opt, rng, citer)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
            + self._tail(article, opt, rng, context, journal)
        )
        return page(f"{article.title}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer) -> str:
        out = []
        if opt.show_article_type and article.article_type:
            out.append(f'<p class="small">{esc(article.article_type.upper())}</p>\n')
        out.append(f'<p class="title"{lab("title")}>{esc(article.title)}</p>\n<p>\n')
        affs = {a.aff_id: a for a in article.affiliations}
        printed: set[str] = set()
        for author in article.authors:
            out.append(f'<b{lab("authors")}>{esc(author.name)}</b><br>\n')
            if opt.show_affiliations:
                for aff_id in author.aff_ids:
                    if aff_id in affs and aff_id not in printed:
                        out.append(f'<span{lab("affiliations")}>{esc(affs[aff_id].text)}</span><br>\n')
                        printed.add(aff_id)
            if opt.show_correspondence and author.email:
                out.append(f'<a href="mailto:{esc(author.email)}">{esc(author.email)}</a><br>\n')
        if opt.show_affiliations:
            out.extend(
                f'<span{lab("affiliations")}>{esc(a.text)}</span><br>\n'
                for a in article.affiliations
                if a.aff_id not in printed
            )
        out.append("</p>\n")
        if article.abstract:
            out.append(self._abstract(article, opt, citer))
        if opt.show_keywords and article.keywords:
            out.append(f'<p><b>Keywords:</b> {esc(", ".join(article.keywords))}</p>\n')
        out.append("<hr>\n")
        if chance(rng, 0.5):
            links = "".join(
                f'<a href="#sec-{i}">{esc(s.title)}</a><br>\n'
                for i, s in enumerate(article.sections, 1)
                if s.title
            )
            out.append(f"<p><b>Contents</b><br>\n{links}</p>\n<hr>\n")
        return "".join(out)

    def _abstract(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        parts = []
        for part in article.abstract:
            paras = "<br><br>".join(citer.runs(p.runs) for p in part.paragraphs)
            title = f"<i{content()}>{esc(part.title)}.</i> " if part.title else ""
            parts.append(title + paras)
        text = f'<span{lab("abstract")}{content()}>{"<br><br>".join(parts)}</span>'
        if not opt.abstract_heading:
            return f"<p>{text}</p>\n"
        heading = f'<b{lab("abstract_heading")}>{esc(opt.abstract_heading)}{":" if len(parts) == 1 else ""}</b>'
        sep = " " if len(parts) == 1 and not article.abstract[0].title else "<br>\n"
        return f"<p>{heading}{sep}{text}</p>\n"

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        return f"<p><b>Notes</b><br>\n{render_footnotes(article, '<span{attrs}>{n}. {text}</span><br>')}</p>\n"

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        lines = []
        for i, ref in enumerate(article.references, 1):
            num = f"{i}. " if citer.numbered_references else ""
            links = reference_links(ref)
            inline = f" {links}" if opt.ref_links == "inline" else ""
            text = reference_html(ref, opt.ref_style, opt.ref_layout)
            lines.append(f'<a name="ref-{i}"></a><span{ref_attrs(ref)}>{num}{text}{inline}</span><br>\n')
            if opt.ref_links == "block":
                lines.append(f'<span class="small">{links}</span><br>\n')
        head = (
            f'<b{lab("references_heading")}>{esc(opt.references_heading)}</b><br>\n'
            if opt.references_heading
            else ""
        )
        return f"<p>{head}<br>\n{''.join(lines)}</p>\n"

    def _tail(
        self, article: Article, opt: PageOptions, rng: random.Random, context: PageContext, journal: str
    ) -> str:
        out = ["<hr>\n"]
        if opt.show_cite_box:
            out.append(f"<p><b>How to cite this article</b><br>\n{esc(fur.citation_line(article, journal))}</p>\n")
        rel = fur.related(context, rng, 3)
        if rel and chance(rng, 0.6):
            out.append(
                "<p><b>Also in this issue</b><br>\n"
                + "".join(f'<a href="#">{esc(t)}</a><br>\n' for t, _ in rel)
                + "</p>\n"
            )
        notice = rng.choice(
            (
                "Copyright notice: articles are the property of their authors.",
                "This page is best viewed in any browser.",
            )
        )
        out.append(
            f'<p class="small">{esc(notice)}<br>{esc(fur.copyright_line(article, rng, fur.site_name(rng)))}</p>\n'
        )
        return "".join(out)
