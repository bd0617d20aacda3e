"""Quarto HTML articles: Quarto's own pandoc page template (``pandoc/template.html``) and title-block
partials (default, banner and manuscript), run by Debian's pandoc.

The article's front matter goes in as pandoc metadata in the shape Quarto's Lua filters normalise
authors to (``by-author`` with each author's affiliations, ``by-affiliation``), with the labels
Quarto sets; every string as raw HTML, so pandoc does not read it as Markdown. The body is the
article in the HTML pandoc and citeproc write for a Quarto document (``section.levelN``, citations
linked into a ``csl-bib-body`` reference list), passed through as one raw block. Gold goes through
:class:`~scilabel.corpus.platforms.marks.Marks` and as attributes in the raw body.

Styles: pandoc's default style sheet (Quarto's ``styles.html`` partial, ``document-css``); Quarto's
own SCSS builds on Bootstrap's variables, which the renderers folder does not hold, so it is left out.
"""
from __future__ import annotations

import datetime as dt
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.marks import Marks, attrs_of
from scilabel.corpus.platforms.tools import missing_programs, scratch_dir, with_variant
from scilabel.corpus.templates.base import PageContext, esc, lab, pick, ref_attrs
from scilabel.corpus.templates.body import BodySpec, render_abstract, render_body
from scilabel.corpus.templates.citations import Citer, reference_html

FOLDER = "quarto-dev__quarto-cli"
HTML = Path("src") / "resources" / "formats" / "html"
#: Title-block designs Quarto offers: the partials of each, over the default ones.
TITLE_BLOCKS = {"default": 3, "banner": 1, "manuscript": 1}
#: The labels Quarto's title block prints (Quarto's English language file).
LABELS = {"authors": "Authors", "affiliations": "Affiliations", "published": "Published",
          "modified": "Modified", "doi": "Doi", "keywords": "Keywords"}
BODY = BodySpec(
    section='<section id="{id}" class="level{level}"{attrs}>\n{inner}</section>\n',
    headings=(
        '<h2 class="anchored" data-anchor-id="{id}"{attrs}>{text}</h2>\n',
        '<h3 class="anchored" data-anchor-id="{id}"{attrs}>{text}</h3>\n',
        '<h4 class="anchored" data-anchor-id="{id}"{attrs}>{text}</h4>\n',
    ),
    figure=(
        '<div id="{id}" class="quarto-float quarto-figure quarto-figure-center anchored">'
        '<figure class="quarto-float quarto-float-fig figure"><div aria-describedby="{id}-caption"></div>'
        '<figcaption class="quarto-float-caption-bottom quarto-float-caption quarto-float-fig" id="{id}-caption"'
        '{attrs}>{label} {text}</figcaption></figure></div>\n'
    ),
    table=(
        '<div id="{id}" class="quarto-float quarto-figure quarto-figure-center anchored">'
        '<figure class="quarto-float quarto-float-tbl figure"><figcaption class="quarto-float-caption-top '
        'quarto-float-caption quarto-float-tbl"{attrs}>{label} {text}</figcaption>{grid}</figure></div>\n'
    ),
    grid='<table class="caption-top table">\n{rows}</table>\n',
)


class QuartoArticle(PlatformFamily):
    """Quarto HTML article (module docstring)."""

    name = "quarto"
    description = "Quarto HTML article (Quarto's pandoc template and title-block partials)"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        return missing_programs("pandoc")

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir().resolve() / FOLDER
        marks = Marks()
        design = pick(rng, TITLE_BLOCKS)
        work = scratch_dir(f"quarto-{design}")
        template = _templates(root, design, work)
        meta = work / f"{article.article_id}.json"
        source = work / f"{article.article_id}.md"
        meta.write_text(json.dumps(_metadata(article, rng, marks)), encoding="utf-8")
        source.write_text(f"```{{=html}}\n{_body(article, rng)}\n```\n", encoding="utf-8")
        done = subprocess.run(
            ["pandoc", "-f", "markdown", "-t", "html5", "--standalone", f"--template={template}",
             f"--metadata-file={meta}", str(source)],
            capture_output=True, text=True, timeout=120,
        )
        meta.unlink()
        source.unlink()
        if done.returncode:
            raise RuntimeError(f"quarto: pandoc failed on {article.article_id}: {done.stderr.strip()[-800:]}")
        return with_variant(marks.apply(done.stdout), design)


def _templates(root: Path, design: str, work: Path) -> Path:
    """Quarto's page template with the partials of one title-block design beside it (pandoc looks
    partials up in the template's folder): pandoc's, then Quarto's, then the design's."""
    html = root / HTML
    sources = [html / "pandoc", html / "templates"] + ([html / "templates" / design] if design != "default" else [])
    for folder in sources:
        for partial in folder.glob("*.html"):
            shutil.copyfile(partial, work / partial.name)
    # Quarto's styles.html includes a partial of pandoc 3 that Debian's pandoc 2.17 lacks
    (work / "styles.citations.html").write_text("", encoding="utf-8")
    return work / "template.html"


def _raw(text: str) -> str:
    """``text`` as a raw HTML inline for pandoc (so it is not read as Markdown)."""
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}{{=html}}"


def _metadata(article: Article, rng: random.Random, marks: Marks) -> dict[str, Any]:
    """The front matter in Quarto's normalised shape (module docstring)."""
    texts = {a.aff_id: a.text for a in article.affiliations}
    linked = any(a.aff_ids for a in article.authors)
    numbered: dict[str, str] = {}
    by_author = []
    for author in article.authors:
        own = [i for i in dict.fromkeys(author.aff_ids) if i in texts] if linked else list(texts)
        for aff_id in own:
            numbered.setdefault(aff_id, f"aff-{len(numbered) + 1}")
        entry: dict[str, Any] = {
            "name": {"literal": _raw(marks.mark(esc(author.name), attrs_of(lab("authors"))))},
            "affiliations": [{"id": numbered[i], "name": _raw(marks.mark(esc(texts[i]), attrs_of(lab("affiliations"))))}
                             for i in own],
        }
        if author.email and author.corresponding:
            entry["email"] = author.email
        by_author.append(entry)
    year = int(article.year) if article.year.isdigit() else 2021
    published = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    citer = Citer(article, "original", link="<span{attrs}>{text}</span>")
    gold = lab("abstract")
    abstract = render_abstract(article, citer, paragraph=f"<p{gold}{{attrs}}>{{html}}</p>\n",
                               part_title=f"<p{gold}{{attrs}}><strong>{{text}}</strong></p>\n")
    meta: dict[str, Any] = {
        "title": _raw(marks.mark(esc(article.title), attrs_of(lab("title")))),
        "pagetitle": article.title,
        "lang": "en",
        "author-meta": [a.name for a in article.authors],
        "date": f"{published:%B} {published.day}, {published.year}",
        "date-meta": published.isoformat(),
        "by-author": by_author,
        "by-affiliation": [{"id": n, "name": _raw(esc(texts[i]))} for i, n in numbered.items()],
        "labels": {**LABELS, "abstract": _raw(marks.mark("Abstract", attrs_of(lab("abstract_heading"))))},
        "quarto-template-params": {"title-block-categories": True},
    }
    if article.abstract:
        meta["abstract"] = f"```{{=html}}\n{abstract}```\n"
    if article.doi:
        meta["doi"] = article.doi
    if article.keywords and rng.random() < 0.7:
        meta["keywords"] = [_raw(esc(k)) for k in article.keywords]
    if article.article_type and rng.random() < 0.5:
        meta["categories"] = [_raw(esc(article.article_type))]
    return {k: v for k, v in meta.items() if v not in (None, [], "")}


def _body(article: Article, rng: random.Random) -> str:
    """The article as pandoc and citeproc write a Quarto document's body (module docstring)."""
    citer = Citer(article, pick(rng, {"author-year": 2, "original": 1}),
                  link='<a href="#{href}" role="doc-biblioref"{attrs}>{text}</a>')
    body = render_body(article, citer, BODY)
    if not article.references:
        return f'<main class="content" id="quarto-document-content">\n{body}</main>'
    entries = "".join(
        f'<div id="ref-{i}" class="csl-entry" role="listitem"{ref_attrs(ref)}>{reference_html(ref, "apa")}</div>\n'
        for i, ref in enumerate(article.references, 1)
    )
    refs = (
        f'<section id="references" class="level2 unnumbered">\n'
        f'<h2 class="unnumbered anchored" data-anchor-id="references"{lab("references_heading")}>References</h2>\n'
        f'<div id="refs" class="references csl-bib-body hanging-indent" data-entry-spacing="0" role="list">\n'
        f"{entries}</div>\n</section>\n"
    )
    return f'<main class="content" id="quarto-document-content">\n{body}{refs}</main>'
