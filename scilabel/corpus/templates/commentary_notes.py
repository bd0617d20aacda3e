"""Blog-engine editorial/commentary page: components missing or out of the usual order.

There is no byline at the top (only a date); authors and affiliations follow the body in an
"about the authors" box, either as a name list or as bio sentences; the abstract is usually
absent and otherwise appears after the body; references are footnotes with back-links.
Every page of this family is variant ``commentary``.
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
    join_names,
    lab,
    page,
    pick,
    ref_attrs,
)
from scilabel.corpus.templates.body import BodySpec, render_body, render_footnotes
from scilabel.corpus.templates.citations import Citer, reference_html

CSS = """
body { margin: 0; background: %(bg)s; font: 17px/1.75 %(font)s; color: #333; }
a { color: %(accent)s; }
.site-header { text-align: center; padding: 34px 20px 10px; }
.site-title { font: 700 34px %(head)s; margin: 0; }
.site-description { color: #777; font-style: italic; margin: 4px 0 14px; }
#site-navigation ul { list-style: none; padding: 10px 0; margin: 0; border-top: 1px solid #ddd;
  border-bottom: 1px solid #ddd; }
#site-navigation li { display: inline; margin: 0 14px; font: 600 13px Arial, sans-serif;
  text-transform: uppercase; letter-spacing: .08em; }
.site-content { max-width: 1100px; margin: 30px auto; display: flex; gap: 50px; padding: 0 20px; }
#primary { flex: 1; min-width: 0; background: #fff; padding: 30px 44px; }
#secondary { flex: 0 0 260px; font-size: 14px; }
.widget { margin-bottom: 30px; }
.widget-title { font: 700 13px Arial, sans-serif; text-transform: uppercase; letter-spacing: .1em;
  border-bottom: 2px solid %(accent)s; padding-bottom: 4px; }
.widget ul { padding-left: 16px; }
.cat-links a { font: 700 12px Arial, sans-serif; text-transform: uppercase; letter-spacing: .12em;
  text-decoration: none; }
.entry-title { font: 700 34px/1.25 %(head)s; margin: 8px 0 6px; color: #111; }
.entry-meta { font: 13px Arial, sans-serif; color: #888; margin-bottom: 24px; }
.entry-content h2 { font: 700 24px %(head)s; margin-top: 34px; }
.entry-content h3 { font: 700 20px %(head)s; }
.entry-content h4 { font-size: 17px; }
.wp-block-image { margin: 24px 0; } .wp-block-image .ph { height: 260px; background: #e8e8e8; }
.wp-element-caption { font-size: 14px; color: #777; font-style: italic; }
.wp-block-pullquote { border-top: 4px solid #333; border-bottom: 4px solid #333; padding: 14px 0;
  margin: 30px 0; font-size: 18px; }
.author-box { background: #f7f7f7; padding: 18px 22px; margin: 34px 0; font-size: 15px;
  border-left: 4px solid %(accent)s; }
.author-box h4 { margin: 0 0 8px; font: 700 13px Arial, sans-serif; text-transform: uppercase;
  letter-spacing: .1em; }
.footnotes { font-size: 14px; line-height: 1.55; }
.footnotes hr { border: 0; border-top: 1px solid #ccc; width: 30%%; margin: 30px 0 10px; }
.footnotes li { margin-bottom: 6px; } .footnote-backref { text-decoration: none; }
.share-buttons a { display: inline-block; font: 12px Arial; padding: 4px 10px; background: #eee;
  margin-right: 4px; text-decoration: none; color: #333; }
.comment-respond { border-top: 1px solid #ddd; margin-top: 40px; padding-top: 10px; font-size: 15px; }
.comment-respond textarea { width: 100%%; height: 90px; }
.comment-respond input { width: 48%%; margin: 4px 1%% 4px 0; }
.site-footer { text-align: center; font: 13px Arial; color: #888; padding: 30px; }
"""

THEMES = (
    {
        "bg": "#f1f1f1",
        "font": "Georgia, serif",
        "head": "'Helvetica Neue', Arial, sans-serif",
        "accent": "#c0392b",
    },
    {"bg": "#fafaf7", "font": "'DejaVu Serif', serif", "head": "'DejaVu Serif', serif", "accent": "#2a6f97"},
    {"bg": "#ecebe8", "font": "'Trebuchet MS', sans-serif", "head": "Georgia, serif", "accent": "#6a994e"},
)

SPEC = BodySpec(
    section='<div class="wp-block-group" id="{id}"{attrs}>\n{inner}</div>\n',
    figure=(
        '<figure class="wp-block-image" id="{id}"><div class="ph">'
        '</div><figcaption class="wp-element-caption"{attrs}>{label} {text}</figcaption>'
        "</figure>\n"
    ),
    table=(
        '<figure class="wp-block-table" id="{id}">{grid}<figcaption class="wp-element-caption"{attrs}>{label}'
        " {text}</figcaption></figure>\n"
    ),
)


class CommentaryNotes(Family):
    name = "commentary_notes"
    description = "blog-style editorial: date only on top, authors after the body, references as footnotes"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(
            rng,
            abstract_headings={"Summary": 2, "In brief": 1, "Key points": 1, None: 1},
            reference_headings={"Notes": 3, "References": 2, "Sources": 1, None: 3},
        )
        theme = rng.choice(THEMES)
        blog = pick(rng, {"The Lab Notebook": 1, "Field Notes": 1, "Open Peer Commons": 1, "The Bench Report": 1})
        citer = Citer(
            article,
            "superscript",
            link='<a href="#fn-{href}" class="footnote-ref" id="fnref-{href}"{attrs}>{text}</a>',
        )
        kicker = pick(rng, {"Editorial": 1, "Perspective": 1, "Commentary": 1, "Viewpoint": 1, "Opinion": 1})
        posted = fur.dates_line(article, rng).split(": ")[-1]
        parts = [
            f'<header class="entry-header"><span class="cat-links"><a href="#">{kicker}</a></span>'
            f'<h1 class="entry-title"{lab("title")}>{esc(article.title)}</h1>'
            f'<div class="entry-meta">Posted on <time>{esc(posted)}</time> · {rng.randint(2, 25)} min read</div>'
            "</header>\n",
            f'<div class="entry-content">\n{render_body(article, citer, SPEC)}</div>\n',
        ]
        if article.abstract and chance(rng, 0.3):
            parts.append(self._late_abstract(article, opt, citer))
        parts.append(self._authors(article, opt, rng))
        parts.append(self._footnotes(article, opt))
        parts.append(f'<div class="share-buttons">Share this: {fur.link_list(fur.share_labels(rng))}</div>\n')
        parts.append(
            '<div class="comment-respond"><h3>Leave a reply</h3>'
            "<p>Your email address will not be published.</p><textarea></textarea>"
            '<input placeholder="Name"><input placeholder="Email"><p><button>Post comment</button></p></div>\n'
        )
        tagline = pick(rng, {"Conversations about research": 1, "Notes from the research community": 1})
        menu = "".join(f'<li><a href="#">{esc(x)}</a></li>' for x in fur.nav_items(rng, 5))
        header = (
            f'<header class="site-header"><p class="site-title">{esc(blog)}</p>'
            f'<p class="site-description">{esc(tagline)}</p>'
            f'<nav id="site-navigation"><ul>{menu}</ul></nav></header>\n'
        )
        body = (
            header
            + '<div class="site-content"><main id="primary">'
            + f'<article class="post type-post status-publish">\n{"".join(parts)}</article></main>\n'
            + self._sidebar(article, rng, context)
            + "</div>\n"
            + f'<footer class="site-footer">{esc(fur.copyright_line(article, rng, blog))}'
            + " · Proudly built with an open-source blog engine.</footer>\n"
        )
        return page(
            f"{article.title} – {blog}",
            CSS % theme,
            body,
            variant="commentary",
            body_attrs=' class="post-template-default single single-post"',
        )

    def _sidebar(self, article: Article, rng: random.Random, context: PageContext) -> str:
        recent = "".join(f'<li><a href="#">{esc(t)}</a></li>' for t, _ in fur.related(context, rng, 5))
        year = article.year or "2019"
        months = "".join(f'<li><a href="#">{m} {year}</a></li>' for m in ("March", "February", "January"))
        return (
            '<aside id="secondary"><section class="widget"><h2 class="widget-title">Recent posts</h2>'
            f'<ul>{recent}</ul></section><section class="widget"><h2 class="widget-title">Archives</h2>'
            f"<ul>{months}</ul></section>"
            '<section class="widget"><h2 class="widget-title">Subscribe</h2><p>Get new posts by email.</p>'
            '<input placeholder="Email address"> <button>Subscribe</button></section></aside>\n'
        )

    def _late_abstract(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        paras = "".join(
            f"<p{content()}>{citer.runs(p.runs)}</p>" for part in article.abstract for p in part.paragraphs
        )
        heading = (
            f'<p><strong{lab("abstract_heading")}>{esc(opt.abstract_heading)}</strong></p>'
            if opt.abstract_heading
            else ""
        )
        return f'<div class="wp-block-pullquote">{heading}<div{lab("abstract")}>{paras}</div></div>\n'

    def _authors(self, article: Article, opt: PageOptions, rng: random.Random) -> str:
        if not article.authors:
            return ""
        affs = {a.aff_id: a.text for a in article.affiliations} if opt.show_affiliations else {}
        head = pick(rng, {"About the authors": 1, "The authors": 1, "Author details": 1})
        if chance(rng, 0.5):
            rows = []
            for a in article.authors:
                where = [affs[x] for x in a.aff_ids if x in affs]
                place = (
                    (" is at " + " and ".join(f'<span{lab("affiliations")}>{esc(w)}</span>' for w in where))
                    if where
                    else " contributed to this piece"
                )
                rows.append(f'<p><strong{lab("authors")}>{esc(a.name)}</strong>{place}.</p>')
            return f'<div class="author-box"><h4>{head}</h4>{"".join(rows)}</div>\n'
        names = join_names([a.name for a in article.authors], "and", serial=True)
        aff_lines = (
            "".join(f'<p{lab("affiliations")}>{esc(a.text)}</p>' for a in article.affiliations) if affs else ""
        )
        return f'<div class="author-box"><h4>{head}</h4><p{lab("authors")}>{esc(names)}</p>{aff_lines}</div>\n'

    def _footnotes(self, article: Article, opt: PageOptions) -> str:
        items = "".join(
            f'<li id="fn-ref-{i}"{ref_attrs(r)}>{reference_html(r, opt.ref_style, opt.ref_layout)}&nbsp;'
            f'<a href="#fnref-ref-{i}" class="footnote-backref">↩</a></li>\n'
            for i, r in enumerate(article.references, 1)
        )
        notes = render_footnotes(article, "<li{attrs}>{text}</li>\n")
        if not items and not notes:
            return ""
        heading = (
            f'<h3{lab("references_heading")}>{esc(opt.references_heading)}</h3>\n'
            if opt.references_heading and items
            else ""
        )
        extra = f"<ul>{notes}</ul>" if notes else ""
        return f'<div class="footnotes"><hr>{heading}<ol>\n{items}</ol>{extra}</div>\n'
