"""Wiki-engine encyclopedia article (peer-reviewed wiki): portal sidebar, tabs, TOC box, infobox.

Headings carry ``mw-headline`` spans and "[edit]" links, the abstract is the lead paragraph
(optionally under a "Summary" heading), affiliations sit in the right-floated infobox table,
citations are bracketed superscripts and references an ``<ol class="references">`` with ^ back-links.
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
)
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html

CSS = """
body { margin: 0; background: #f6f6f6; font-family: sans-serif; }
#mw-panel { position: absolute; top: 0; left: 0; width: 176px; font-size: 12.5px; padding-top: 160px; }
#p-logo { position: absolute; top: 0; left: 0; width: 160px; height: 150px; display: flex;
  align-items: center; justify-content: center; font: bold 18px Georgia, serif; text-align: center;
  color: #333; }
.portal { margin: 0 8px 12px 18px; }
.portal h3 { font-size: 12px; color: #54595d; margin: 6px 0 2px; font-weight: normal;
  border-bottom: 1px solid #c8ccd1; }
.portal ul { list-style: none; padding: 0; margin: 4px 0; } .portal li { padding: 3px 0; }
a { color: #0645ad; text-decoration: none; }
#mw-head { position: absolute; top: 0; right: 0; left: 176px; height: 80px; }
#p-personal { text-align: right; font-size: 12px; padding: 6px 14px; }
.tabs { position: absolute; bottom: 0; left: 0; font-size: 13px; }
.tabs a, .rtabs a { display: inline-block; padding: 6px 10px; background: linear-gradient(#fff, #eaf3ff);
  border: 1px solid #a7d7f9; border-bottom: 0; margin-right: 1px; }
.rtabs { position: absolute; bottom: 0; right: 14px; font-size: 13px; }
#content { margin-left: 176px; margin-top: 80px; background: #fff; border: 1px solid #a7d7f9;
  padding: 16px 24px 24px; font-size: 14px; line-height: 1.6; color: #202122; }
h1#firstHeading { font: normal 28px/1.3 'Linux Libertine', Georgia, Times, serif;
  border-bottom: 1px solid #a2a9b1; margin: 0 0 4px; }
#siteSub { font-size: 12.5px; color: #54595d; margin-bottom: 10px; }
.curators { font-size: 13px; margin-bottom: 10px; }
.infobox { float: right; clear: right; width: 280px; margin: 0 0 12px 16px; border: 1px solid #a2a9b1;
  background: #f8f9fa; font-size: 12.5px; border-spacing: 3px; }
.infobox th.head { background: #cedff2; font-size: 14px; text-align: center; padding: 4px; }
.infobox td, .infobox th { vertical-align: top; padding: 2px 4px; text-align: left; }
#toc { display: inline-block; border: 1px solid #a2a9b1; background: #f8f9fa; padding: 7px 14px;
  font-size: 13px; margin: 10px 0; }
#toc .toctitle { text-align: center; font-weight: bold; }
#toc ul { list-style: none; padding-left: 0; margin: 4px 0; }
#toc ul ul { padding-left: 18px; }
#toc .tocnumber { color: #202122; margin-right: 6px; }
h2 { font: normal 22px 'Linux Libertine', Georgia, serif; border-bottom: 1px solid #a2a9b1;
  margin: 22px 0 6px; }
h3 { font-size: 16px; margin: 16px 0 4px; } h4 { font-size: 14px; }
.mw-editsection { font: normal 12px sans-serif; margin-left: 10px; color: #54595d; }
.thumb { float: right; clear: right; margin: 6px 0 10px 16px; border: 1px solid #c8ccd1; background: #f8f9fa;
  padding: 3px; width: 260px; }
.thumbimage { height: 160px; background: #dde2e8; } .thumbcaption { font-size: 12px; padding: 3px; }
sup.reference { font-size: 11px; }
ol.references { font-size: 12.5px; } .mw-cite-backlink { margin-right: 4px; }
#catlinks { clear: both; border: 1px solid #a2a9b1; background: #f8f9fa; padding: 5px; margin-top: 20px;
  font-size: 13px; }
#footer { margin-left: 176px; padding: 14px 24px; font-size: 11.5px; color: #54595d; }
#footer li { display: inline; margin-right: 12px; }
"""

SPEC = BodySpec(
    section='<section class="mw-section" id="{id}"{attrs}>\n{inner}</section>\n',
    headings=(
        (
            '<h2><span class="mw-headline"{attrs}>{text}</span>'
            '<span class="mw-editsection">[<a href="#">edit</a>]</span>'
            "</h2>\n"
        ),
        (
            '<h3><span class="mw-headline"{attrs}>{text}</span>'
            '<span class="mw-editsection">[<a href="#">edit</a>]</span>'
            "</h3>\n"
        ),
        '<h4><span class="mw-headline"{attrs}>{text}</span></h4>\n',
    ),
    figure=(
        '<div class="thumb tright" id="{id}"><div class="thumbinner"><div class="thumbimage"></div>'
        '<div class="thumbcaption"{attrs}>{label} {text}</div></div></div>\n'
    ),
    table='<div class="thumb tright" id="{id}"><div class="thumbcaption"{attrs}>{label} {text}</div></div>\n{grid}',
    grid='<table class="wikitable sortable">\n<tbody>{rows}</tbody></table>\n',
)


PORTALS = (
    ("Navigation", ("Main page", "Contents", "Random article", "Recent changes")),
    ("Contribute", ("Help", "Community portal", "Upload file")),
    ("Tools", ("What links here", "Related changes", "Permanent link", "Cite this page")),
)


class WikiMarkup(Family):
    name = "wiki_markup"
    description = "wiki encyclopedia: portal sidebar, TOC box, infobox with affiliations, ^ back-linked references"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Summary": 1, "Abstract": 1, None: 3},
            reference_headings={"References": 6, "Notes and references": 1, "Bibliography": 1},
            p_affiliations=0.85,
        )
        wiki = pick(rng, {"Scholarpaedia": 1, "OpenKnowledge Wiki": 1, "ResearchWiki": 1})
        citer = Citer(
            article,
            "numbered",
            link=(
                '<sup class="reference" id="cite_ref-{href}"{attrs}>'
                '<a href="#cite_note-{href}">{text}</a></sup>'
            ),
        )
        content_html = "".join(
            [
                f'<h1 id="firstHeading"{lab("title")}>{esc(article.title)}</h1>\n',
                f'<div id="siteSub">From {esc(wiki)}, the peer-reviewed open encyclopedia</div>\n',
                self._curators(article),
                self._infobox(article, opt, rng),
                self._lead(article, opt, citer),
                self._toc(article),
                render_body(article, citer, SPEC),
                self._references(article, opt),
                (
                    f'<h2><span class="mw-headline">Notes</span></h2><ul>{render_footnotes(article)}</ul>'
                    if article.footnotes
                    else ""
                ),
                self._see_also(rng, context),
                '<div id="catlinks"><a href="#">Categories</a>: '
                + fur.link_list(article.keywords[:4] or ["Articles"], " | ")
                + "</div>\n",
            ]
        )
        portals = "".join(
            f'<div class="portal"><h3>{head}</h3><ul><li>{fur.link_list(list(items), "</li><li>")}</li></ul></div>'
            for head, items in PORTALS
        )
        edited = fur.dates_line(article, rng).split(": ")[-1]
        body = (
            f'<div id="content" class="mw-body" role="main">\n{content_html}</div>\n'
            '<div id="mw-head"><div id="p-personal"><a href="#">Not logged in</a> · <a href="#">Talk</a> · '
            '<a href="#">Log in</a></div>'
            f'<div class="tabs">{fur.link_list(["Page", "Discussion"])}</div>'
            f'<div class="rtabs">{fur.link_list(["Read", "View source", "View history"])}</div></div>\n'
            f'<div id="mw-panel"><div id="p-logo">{esc(wiki)}</div>{portals}</div>\n'
            f'<div id="footer"><ul><li>This page was last edited on {esc(edited)}.</li>'
            "<li>Text is available under a free licence; additional terms may apply.</li>"
            f'<li>{fur.link_list(["Privacy policy", "About", "Disclaimers"], "</li><li>")}</li></ul></div>\n'
        )
        return page(f"{article.title} - {wiki}", CSS, body, body_attrs=' class="mediawiki ltr skin-classic"')

    def _lead(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        """The abstract as the article's lead section, usually without a heading."""
        if not article.abstract:
            return ""
        heading = ""
        if opt.abstract_heading:
            heading = (
                f'<h2><span class="mw-headline"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</span></h2>'
            )
        inner = render_abstract(article, citer, part_title="<p><b{attrs}>{text}</b></p>")
        return f'{heading}<div class="mw-lead"{lab("abstract")}>{inner}</div>\n'

    def _see_also(self, rng: random.Random, context: PageContext) -> str:
        if not chance(rng, 0.7):
            return ""
        items = "".join(f'<li><a href="#">{esc(t)}</a></li>' for t, _ in fur.related(context, rng, 4))
        return f'<h2><span class="mw-headline">See also</span></h2><ul>{items}</ul>'

    def _curators(self, article: Article) -> str:
        if not article.authors:
            return ""
        names = ", ".join(f'<a href="#">{esc(a.name)}</a>' for a in article.authors)
        # the caption shares the names' zone: label the whole line, so the zone is authors however short the names
        return f'<div class="curators"{lab("authors")}>Curator and contributors: {names}</div>\n'

    def _infobox(self, article: Article, opt: PageOptions, rng: random.Random) -> str:
        rows = [f'<tr><th class="head" colspan="2">{esc(article.journal or "Article")}</th></tr>']
        for k, v in (
            ("Published", article.year),
            ("Volume", article.volume),
            ("Type", article.article_type),
            ("DOI", article.doi),
        ):
            if v:
                rows.append(f"<tr><th>{k}</th><td>{esc(v)}</td></tr>")
        if opt.show_affiliations and article.affiliations:
            affs = "".join(f'<li{lab("affiliations")}>{esc(a.text)}</li>' for a in article.affiliations)
            rows.append(f'<tr><th colspan="2">Affiliations</th></tr><tr><td colspan="2"><ul>{affs}</ul></td></tr>')
        rows.append(f"<tr><th>Page views</th><td>{fur.fake_count(rng, 500, 90000)}</td></tr>")
        return f'<table class="infobox">{"".join(rows)}</table>\n'

    def _toc(self, article: Article) -> str:
        items = []
        for i, sec in enumerate(article.sections, 1):
            if not sec.title:
                continue
            subs = "".join(
                f'<li><a href="#sec-{i}-{j}"><span class="tocnumber">{i}.{j}</span>{esc(s.title)}</a></li>'
                for j, s in enumerate(sec.subsections, 1)
                if s.title
            )
            items.append(
                f'<li><a href="#sec-{i}"><span class="tocnumber">{i}</span>{esc(sec.title)}</a>'
                + (f"<ul>{subs}</ul>" if subs else "")
                + "</li>"
            )
        if len(items) < 3:
            return ""
        return (
            '<div id="toc" class="toc"><div class="toctitle">'
            f'<h2>Contents</h2></div><ul>{"".join(items)}</ul>'
            "</div>\n"
        )

    def _references(self, article: Article, opt: PageOptions) -> str:
        if not article.references:
            return ""
        items = "".join(
            f'<li id="cite_note-ref-{i}"{ref_attrs(r)}><span class="mw-cite-backlink">'
            f'<b><a href="#cite_ref-ref-{i}">^</a></b></span> '
            f'<span class="reference-text">{reference_html(r, opt.ref_style, opt.ref_layout)}</span></li>\n'
            for i, r in enumerate(article.references, 1)
        )
        return (
            f'<h2><span class="mw-headline"{lab("references_heading")}>{esc(opt.references_heading)}</span>'
            '<span class="mw-editsection">[<a href="#">edit</a>]</span></h2>\n'
            f'<div class="reflist"><ol class="references">\n{items}</ol></div>\n'
        )
