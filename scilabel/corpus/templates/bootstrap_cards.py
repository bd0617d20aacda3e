"""Framework-styled site (grid rows/cols, cards, list groups, badges, sticky navbar).

Authors are rows of a ``<table>`` (one author per row with the affiliation beside it);
references are a ``list-group`` of ``<li>`` items with number badges.
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
from scilabel.corpus.templates.body import (
    BodySpec,
    render_abstract,
    render_body,
    render_footnotes,
    section_titles,
)
from scilabel.corpus.templates.citations import Citer, reference_html, reference_links

CSS = """
* { box-sizing: border-box; }
body { margin: 0;
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  color: #212529; background: %(bg)s; }
a { color: %(primary)s; text-decoration: none; }
.navbar { position: sticky; top: 0; z-index: 10; display: flex; align-items: center; gap: 16px;
  padding: 10px 24px; background: %(nav)s; color: #fff; }
.navbar-brand { font-size: 20px; font-weight: 600; }
.navbar .nav-link { color: rgba(255,255,255,.8); font-size: 15px; }
.navbar .ms-auto { margin-left: auto; }
.btn { display: inline-block; padding: 6px 12px; border-radius: 6px; border: 1px solid transparent;
  font-size: 14px; }
.btn-light { background: #f8f9fa; color: #000; }
.btn-primary { background: %(primary)s; color: #fff; }
.btn-outline { border-color: %(primary)s; color: %(primary)s; }
.container { max-width: 1240px; margin: 0 auto; padding: 20px 12px; }
.row { display: flex; flex-wrap: wrap; margin: 0 -12px; }
.col-md-8 { flex: 0 0 66.66%%; padding: 0 12px; }
.col-md-4 { flex: 0 0 33.33%%; padding: 0 12px; }
.card { background: #fff; border: 1px solid rgba(0,0,0,.125); border-radius: 8px; margin-bottom: 20px; }
.card-header { padding: 10px 16px; background: rgba(0,0,0,.03); border-bottom: 1px solid rgba(0,0,0,.125);
  font-weight: 600; }
.card-body { padding: 16px; }
.badge { display: inline-block; padding: 3px 8px; font-size: 12px; font-weight: 700; border-radius: 6px;
  background: %(primary)s; color: #fff; }
.badge.bg-secondary { background: #6c757d; }
h1.display-6 { font-size: 30px; font-weight: 400; line-height: 1.25; margin: 10px 0; }
.table { width: 100%%; border-collapse: collapse; font-size: 14px; }
.table td, .table th { border-top: 1px solid #dee2e6; padding: 6px 8px; text-align: left; vertical-align: top; }
.text-muted { color: #6c757d; } .small { font-size: 14px; }
.card-body h2 { font-size: 24px; font-weight: 500; }
.card-body h3 { font-size: 19px; font-weight: 500; }
.card-body h4 { font-size: 16px; }
.figure { margin: 16px 0; }
.figure-img { height: 220px; background: #e9ecef; border-radius: 6px; }
.figure-caption { font-size: 14px; color: #6c757d; margin-top: 6px; }
.list-group { list-style: none; padding: 0; margin: 0; }
.list-group-item { padding: 10px 14px; border: 1px solid rgba(0,0,0,.125); margin-top: -1px; font-size: 14px; }
.list-group-item .badge { margin-right: 8px; }
.list-group-item .refl { display: block; font-size: 12px; margin-top: 4px; }
.list-group-item .refl a { margin-right: 10px; }
.nav-pills a { display: block; padding: 6px 10px; border-radius: 6px; font-size: 14px; }
.nav-pills a:hover { background: #e9ecef; }
.toast { position: fixed; right: 20px; bottom: 20px; width: 340px; background: #fff; border-radius: 8px;
  box-shadow: 0 4px 16px rgba(0,0,0,.2); padding: 14px; font-size: 14px; z-index: 20; }
footer { background: #212529; color: #adb5bd; padding: 28px 24px; font-size: 14px; }
footer a { color: #dee2e6; margin-right: 16px; }
"""

THEMES = (
    {"bg": "#f8f9fa", "nav": "#0d6efd", "primary": "#0d6efd"},
    {"bg": "#f1f3f5", "nav": "#212529", "primary": "#198754"},
    {"bg": "#fff", "nav": "#6f42c1", "primary": "#6f42c1"},
)

SPEC = BodySpec(
    section='<div class="card"><div class="card-body" id="{id}"{attrs}>\n{inner}</div></div>\n',
    subsection='<div class="mt-3" id="{id}"{attrs}>\n{inner}</div>\n',
    figure=(
        '<figure class="figure d-block" id="{id}"><div class="figure-img img-fluid">'
        '</div><figcaption class="figure-caption"{attrs}><span class="badge bg-secondary">{label}</span>'
        " {text}</figcaption></figure>\n"
    ),
    table=(
        '<div class="table-responsive" id="{id}"><p class="figure-caption"{attrs}>'
        '<span class="badge bg-secondary">{label}</span> {text}</p>{grid}'
        "</div>\n"
    ),
    grid='<table class="table table-sm table-striped">\n<tbody>{rows}</tbody></table>\n',
)


class BootstrapCards(Family):
    name = "bootstrap_cards"
    description = "framework grid with cards, author table (one author per row), list-group references"

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        opt = PageOptions.draw(rng, ref_links={"none": 2, "inline": 2})
        theme = rng.choice(THEMES)
        journal = fur.journal_name(article, rng)
        site = fur.site_name(rng)
        citer = Citer(article, opt.cite_style)
        main = (
            self._front(article, opt, rng, citer, journal)
            + render_body(article, citer, SPEC)
            + self._notes(article)
            + self._references(article, opt, citer)
        )
        pills = "".join(f'<a href="#{sid}">{esc(t)}</a>' for sid, t in section_titles(article))
        side = [
            (
                '<div class="card"><div class="card-header">Sections</div>'
                f'<div class="card-body nav-pills">{pills}</div>'
                "</div>"
            ),
            '<div class="card"><div class="card-header">Metrics</div><div class="card-body">'
            + " ".join(f'<span class="badge">{k} {v}</span>' for k, v in fur.metrics(rng))
            + "</div></div>",
            '<div class="card"><div class="card-header">Related articles</div><ul class="list-group">'
            + "".join(
                f'<li class="list-group-item"><a href="#">{esc(t)}</a>'
                f'<div class="text-muted small">{esc(a)}</div></li>'
                for t, a in fur.related(context, rng, 4)
            )
            + "</ul></div>",
        ]
        if opt.show_cite_box:
            side.insert(
                1,
                '<div class="card"><div class="card-header">How to cite</div><div class="card-body small">'
                f"{esc(fur.citation_line(article, journal))}</div></div>",
            )
        body = (
            f'<nav class="navbar"><span class="navbar-brand">{esc(site)}</span>'
            + "".join(f'<a class="nav-link" href="#">{esc(x)}</a>' for x in fur.nav_items(rng, 5))
            + '<span class="ms-auto"><a class="btn btn-light" href="#">Sign in</a></span></nav>\n'
            f'<div class="container"><div class="row"><div class="col-md-8">\n{main}</div>\n'
            f'<div class="col-md-4">{"".join(side)}</div></div></div>\n'
            f"<footer>{fur.link_list(fur.footer_links(rng))}<p>{esc(fur.copyright_line(article, rng, site))}</p>"
            "</footer>\n"
        )
        if chance(rng, 0.5):
            body += (
                f'<div class="toast"><b>Cookies</b><p>{esc(fur.cookie_text(rng))}</p>'
                '<a class="btn btn-primary" href="#">OK</a></div>\n'
            )
        return page(f"{article.title} — {journal}", CSS % theme, body)

    def _front(self, article: Article, opt: PageOptions, rng: random.Random, citer: Citer, journal: str) -> str:
        affs = {a.aff_id: a.text for a in article.affiliations}
        head = [
            (
                f'<span class="badge">{esc(article.article_type)}</span> '
                if opt.show_article_type and article.article_type
                else ""
            ),
            f'<span class="text-muted small">{esc(journal)} · {esc(article.year)}</span>',
            f'<h1 class="display-6"{lab("title")}>{esc(article.title)}</h1>',
        ]
        rows = []
        for author in article.authors:
            where = [affs[x] for x in author.aff_ids if x in affs] if opt.show_affiliations else []
            cells = "".join(f'<div{lab("affiliations")}>{esc(w)}</div>' for w in where)
            mail = ""
            if opt.show_correspondence and author.email:
                mail = f' <a href="mailto:{esc(author.email)}">✉</a>'
            rows.append(f'<tr><td{lab("authors")}>{esc(author.name)}</td><td>{cells}{mail}</td></tr>')
        if rows:
            head.append(
                '<table class="table table-sm"><thead><tr><th>Author</th><th>Affiliation</th></tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>'
            )
        cited = {x for a in article.authors for x in a.aff_ids}
        loose = [a for a in article.affiliations if a.aff_id not in cited]
        if opt.show_affiliations and loose:
            head.append(
                "".join(f'<p class="small text-muted"{lab("affiliations")}>{esc(a.text)}</p>' for a in loose)
            )
        if opt.show_correspondence:
            head.extend(f'<p class="small">Correspondence: {esc(c)}</p>' for c in correspondence_lines(article))
        out = [f'<div class="card"><div class="card-body">{"".join(head)}</div></div>\n']
        if article.abstract:
            header = (
                f'<div class="card-header"{lab("abstract_heading")}>{esc(opt.abstract_heading)}</div>'
                if opt.abstract_heading
                else ""
            )
            out.append(
                f'<div class="card">{header}<div class="card-body"{lab("abstract")}>'
                f'{render_abstract(article, citer, part_title="<h5{attrs}>{text}</h5>")}</div></div>\n'
            )
        if opt.show_keywords and article.keywords:
            out.append(
                "<p>"
                + " ".join(f'<span class="badge bg-secondary">{esc(k)}</span>' for k in article.keywords)
                + "</p>\n"
            )
        return "".join(out)

    def _notes(self, article: Article) -> str:
        if not article.footnotes:
            return ""
        notes = render_footnotes(article, '<li class="list-group-item"{attrs}>{text}</li>')
        return f'<div class="card"><div class="card-header">Notes</div><ul class="list-group">{notes}</ul></div>\n'

    def _references(self, article: Article, opt: PageOptions, citer: Citer) -> str:
        if not article.references:
            return ""
        items = []
        for i, ref in enumerate(article.references, 1):
            badge = f'<span class="badge">{i}</span>' if citer.numbered_references else ""
            links = f'<span class="refl"{ref_links_attrs()}>{reference_links(ref)}</span>' if opt.ref_links != "none" else ""
            text = reference_html(ref, opt.ref_style, opt.ref_layout)
            items.append(f'<li class="list-group-item" id="ref-{i}"{ref_attrs(ref)}>{badge}{text}{links}</li>\n')
        header = (
            f'<div class="card-header"{lab("references_heading")}>{esc(opt.references_heading)}</div>'
            if opt.references_heading
            else ""
        )
        return (
            f'<div class="card" id="references">{header}'
            f'<ul class="list-group list-group-flush">\n{"".join(items)}</ul></div>\n'
        )
