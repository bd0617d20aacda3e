"""arXiv abstract pages: arXiv's own Jinja2 templates (``arXiv__arxiv-browse`` ``abs/abs.html`` on the
``arXiv__arxiv-base`` layout) with arXiv's style sheets.

The article becomes the abs page's metadata record (``abs_meta``): an arXiv identifier and versions
in its year, a primary category and cross-lists in quantitative biology or a neighbouring archive,
the journal reference and DOI of its published version, a comments line. The helpers arXiv computes
in Python (``url_for``, the TeX-to-Unicode and link filters, the author links, the browse context)
are ours. An abs page shows no affiliations and no references: that is the layout (title, authors,
abstract, furniture). Gold goes through :class:`~scilabel.corpus.platforms.marks.Marks`.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import html
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.marks import Marks, attrs_of
from scilabel.corpus.platforms.styles import inline_stylesheets, read_css
from scilabel.corpus.platforms.tools import missing_modules
from scilabel.corpus.templates.base import PageContext, content, lab, pick

BROWSE, BASE = "arXiv__arxiv-browse", "arXiv__arxiv-base"
#: Primary categories an article may be filed under: id -> (archive name, category name).
CATEGORIES = {
    "q-bio.PE": ("Quantitative Biology", "Populations and Evolution"),
    "q-bio.QM": ("Quantitative Biology", "Quantitative Methods"),
    "q-bio.NC": ("Quantitative Biology", "Neurons and Cognition"),
    "q-bio.GN": ("Quantitative Biology", "Genomics"),
    "q-bio.MN": ("Quantitative Biology", "Molecular Networks"),
    "q-bio.TO": ("Quantitative Biology", "Tissues and Organs"),
    "q-bio.BM": ("Quantitative Biology", "Biomolecules"),
    "physics.med-ph": ("Physics", "Medical Physics"),
    "physics.bio-ph": ("Physics", "Biological Physics"),
    "stat.AP": ("Statistics", "Applications"),
    "stat.ME": ("Statistics", "Methodology"),
    "cs.LG": ("Computer Science", "Machine Learning"),
}
#: The style sheets the abs page links (screen media), by the path ``url_for`` gives them.
STYLE_SHEETS = {
    "/static/browse/css/arXiv.css": (BROWSE, "browse/static/css/arXiv.css"),
    "/static/browse/css/browse_search.css": (BROWSE, "browse/static/css/browse_search.css"),
    "/static/browse/css/tooltip.css": (BROWSE, "browse/static/css/tooltip.css"),
    "/static/base/css/arxiv-header-footer.css": (BASE, "arxiv/base/static/css/arxiv-header-footer.css"),
    "/static/base/css/abs.css": (BASE, "arxiv/base/static/css/abs.css"),
}


@dataclass(frozen=True)
class Category:
    id: str
    full_name: str
    canonical: str = ""

    def display(self) -> str:
        return f"{self.full_name} ({self.id})"


@dataclass(frozen=True)
class Version:
    version: int
    submitted_date: dt.datetime
    size_kilobytes: int


@dataclass
class AbsMeta:
    """The abs page's metadata record, in the shape its templates read."""

    arxiv_id: str
    arxiv_identifier: SimpleNamespace
    title: str
    authors: SimpleNamespace
    abstract: str
    primary_category: Category
    primary_archive: Category
    secondary_categories: list[Category]
    version: int
    version_history: list[Version]
    submitter: SimpleNamespace
    license: SimpleNamespace
    comments: str | None = None
    journal_ref: str | None = None
    doi: str | None = None
    report_num: str | None = None
    msc_class: str | None = None
    acm_class: str | None = None
    proxy: str | None = None
    arxiv_id_v: str = ""
    categories: list[str] = field(default_factory=list)

    def get_datetime_of_version(self, version: int | None = None) -> dt.datetime:
        return self.version_history[max(0, (version or self.version) - 1)].submitted_date

    def get_secondaries(self) -> list[Category]:
        return self.secondary_categories

    def display_secondaries(self) -> list[str]:
        return [c.display() for c in self.secondary_categories]

    def get_browse_context_list(self) -> list[str]:
        return [self.primary_category.id, *(c.id for c in self.secondary_categories)]


class ArxivAbs(PlatformFamily):
    """arXiv abstract page (module docstring)."""

    name = "arxiv_abs"
    description = "arXiv abstract page (arxiv-browse abs.html on arxiv-base), our article as its record"
    folders = (BROWSE, BASE)

    def missing_tools(self) -> str | None:
        return missing_modules("jinja2")

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir().resolve()
        marks = Marks()
        meta = _abs_meta(article, rng, marks)
        variables = _page_variables(meta, article, rng, marks)
        page = _environment(root).get_template("abs/abs.html").render(**variables)
        page = inline_stylesheets(page, lambda href: _style_sheet(root, href))
        return marks.apply(page)


@functools.lru_cache(maxsize=None)
def _environment(root: Path) -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([root / BROWSE / "browse" / "templates",
                                        root / BASE / "arxiv" / "base" / "templates"]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.do"],
    )
    env.filters.update(
        tex2utf=lambda text, **_: text,
        tex2utf_no_symbols=lambda text, **_: text,
        arxiv_id_urlize=lambda text: text,
        abstract_lf_to_br=_lf_to_br,
        urlize=lambda text, *a, **k: text,
        abs_doi_to_urls=_doi_links,
        show_email_hash=lambda arxiv_id: hashlib.sha1(str(arxiv_id).encode()).hexdigest()[:8],
        entity_to_utf=lambda text: html.unescape(str(text)),
        embed_content=lambda path: "",
        as_eastern=lambda when: when.astimezone(dt.timezone(dt.timedelta(hours=-5))),
        tidy_filesize=lambda size: f"{int(size) // 1024} KB",
        canonical_url=_canonical_url,
    )
    env.globals.update(url_for=_url_for, canonical_url=_canonical_url)
    return env


def _style_sheet(root: Path, href: str) -> str | None:
    found = STYLE_SHEETS.get(href.split("?")[0])
    return read_css(root / found[0] / found[1]) if found else None


def _url_for(endpoint: str, **params: Any) -> str:
    """arXiv's URL registry: static files under ``/static/<app>/``, the rest as readable paths."""
    if endpoint in ("static", "base.static"):
        return f"/static/{'base' if endpoint == 'base.static' else 'browse'}/{params['filename']}"
    path = "/" + endpoint.strip(".").replace(".", "/").replace("_", "-")
    return "https://arxiv.org" + path + "".join(f"/{v}" for v in params.values() if isinstance(v, (str, int)))


def _canonical_url(arxiv_id: str, version: int | None = None) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}" + (f"v{version}" if version else "")


def _lf_to_br(text: str) -> Any:
    """A line feed and the indent after it start a new line (arXiv writes abstract paragraphs so)."""
    from markupsafe import Markup, escape

    return Markup(re.sub(r"\n\s*", "<br/>", str(escape(text))))


def _doi_links(dois: str) -> Any:
    from markupsafe import Markup, escape

    return Markup(" ".join(f'<a href="https://doi.org/{escape(d)}">{escape(d)}</a>' for d in dois.split()))


def _arxiv_id(year: int, rng: random.Random, archive: str) -> tuple[str, SimpleNamespace]:
    month = rng.randint(1, 12)
    if year >= 2007:
        digits = 5 if year >= 2015 else 4
        number = rng.randint(1, 10**digits // 3)
        ident = f"{year % 100:02d}{month:02d}.{number:0{digits}d}"
        return ident, SimpleNamespace(id=ident, year=year, month=month, is_old_id=False)
    ident = f"{archive}/{year % 100:02d}{month:02d}{rng.randint(1, 400):03d}"
    return ident, SimpleNamespace(id=ident, year=year, month=month, is_old_id=True)


def _abs_meta(article: Article, rng: random.Random, marks: Marks) -> AbsMeta:
    year = int(article.year) if article.year.isdigit() else 2019
    year = min(max(year, 1996), 2025)
    primary_id = pick(rng, {c: 1 for c in CATEGORIES} | {"q-bio.PE": 3, "q-bio.QM": 3})
    archive_name, category_name = CATEGORIES[primary_id]
    archive_id = primary_id.split(".")[0]
    primary = Category(primary_id, category_name)
    secondaries = [Category(c, CATEGORIES[c][1]) for c in rng.sample(sorted(set(CATEGORIES) - {primary_id}),
                                                                      rng.choice((0, 0, 1, 2)))]
    arxiv_id, identifier = _arxiv_id(year, rng, archive_id)
    start = dt.datetime(year, identifier.month, rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59),
                        rng.randint(0, 59), tzinfo=dt.timezone.utc)
    versions, when = [], start
    for v in range(1, rng.choice((1, 1, 2, 2, 3)) + 1):
        versions.append(Version(v, when, rng.randint(80, 9000)))
        when += dt.timedelta(days=rng.randint(10, 300), seconds=rng.randint(0, 86400))
    names = [a.name for a in article.authors]
    title = marks.mark(article.title, attrs_of(lab("title")))
    abstract = "\n  ".join(
        marks.mark(f"{part.title}: {text}" if part.title and i == 0 else text, attrs_of(lab("abstract") + content()))
        for part in article.abstract
        for i, text in enumerate(p.text for p in part.paragraphs)
    )
    n_figures = len(article.figures)
    comments = pick(rng, {f"{rng.randint(8, 40)} pages, {n_figures} figures": 3, None: 2,
                          f"{rng.randint(8, 40)} pages": 1})
    journal_ref = None
    if article.journal and rng.random() < 0.7:
        volume = f" {article.volume}" if article.volume else ""
        pages = f", {article.pages}" if article.pages else ""
        journal_ref = f"{article.journal}{volume} ({article.year}){pages}"
    return AbsMeta(
        arxiv_id=arxiv_id,
        arxiv_identifier=identifier,
        title=title,
        authors=SimpleNamespace(raw=", ".join(names)),
        abstract=abstract,
        primary_category=primary,
        primary_archive=Category(archive_id, archive_name),
        secondary_categories=secondaries,
        version=versions[-1].version,
        version_history=versions,
        submitter=SimpleNamespace(name=names[0] if names else "arXiv admin"),
        license=SimpleNamespace(effective_uri="http://creativecommons.org/licenses/by/4.0/",
                                icon_uri_path="/icons/licenses/by-4.0.png"),
        comments=comments,
        journal_ref=journal_ref,
        doi=article.doi or None,
        arxiv_id_v=f"{arxiv_id}v{versions[-1].version}",
        categories=[primary_id, *(c.id for c in secondaries)],
    )


#: Authors the abs page lists before it folds the rest behind "et al. (n additional authors not shown)".
AUTHORS_SHOWN = 100


def _author_links(article: Article, marks: Marks) -> tuple[list, list, int]:
    """The abs page's author list: names (linked to an author search) between separators."""
    parts: list = []
    for i, author in enumerate(article.authors):
        if i:
            parts.append(", ")
        parts.append((marks.mark(author.name, attrs_of(lab("authors"))), author.surname or author.name))
    cut = 2 * AUTHORS_SHOWN - 1
    if len(parts) <= cut:
        return parts, [], 0
    return parts[:cut], parts[cut:], len(article.authors) - AUTHORS_SHOWN


#: Moments the page is requested at: some fall in the site's announcement-banner windows.
REQUEST_TIMES = (
    dt.datetime(2025, 11, 4, 10, 0), dt.datetime(2026, 2, 17, 8, 30), dt.datetime(2026, 3, 12, 12, 0),
    dt.datetime(2026, 6, 9, 15, 45), dt.datetime(2026, 9, 1, 9, 15),
)


def _page_variables(meta: AbsMeta, article: Article, rng: random.Random, marks: Marks) -> dict[str, Any]:
    formats = ["pdf", *(["latexml"] if rng.random() < 0.5 else []), "other"]
    scholar = [("citation_title", meta.title), *(("citation_author", f"{a.surname}, {a.given}".strip(", "))
                                                 for a in article.authors),
               ("citation_date", meta.version_history[0].submitted_date.strftime("%Y/%m/%d")),
               ("citation_online_date", meta.version_history[-1].submitted_date.strftime("%Y/%m/%d")),
               ("citation_pdf_url", f"https://arxiv.org/pdf/{meta.arxiv_id}"),
               ("citation_arxiv_id", meta.arxiv_id),
               ("citation_abstract", " ".join(p.text for s in article.abstract for p in s.paragraphs))]
    if article.doi:
        scholar.append(("citation_doi", article.doi))
    return {
        "requested_id": meta.arxiv_id,
        "abs_meta": meta,
        "author_links": _author_links(article, marks),
        "formats": formats,
        "latexml_url": f"https://arxiv.org/html/{meta.arxiv_id_v}",
        "source_format": "pdftex",
        "encrypted": False,
        "withdrawn": False,
        "withdrawn_versions": [],
        "higher_version_withdrawn": False,
        "higher_version_withdrawn_submitter": None,
        "is_covid_match": False,
        "show_labs": rng.random() < 0.8,
        "browse_context": meta.primary_category.id,
        "browse_context_previous_url": f"https://arxiv.org/prevnext?id={meta.arxiv_id}&function=prev",
        "browse_context_next_url": f"https://arxiv.org/prevnext?id={meta.arxiv_id}&function=next",
        "show_refs_cites": True,
        "include_inspire_link": False,
        "trackback_ping_count": rng.choice((0, 0, 0, 1, 2)),
        "dblp": None,
        "ancillary_files": None,
        "has_audio": False,
        "datacite_doi": f"10.48550/arXiv.{meta.arxiv_id}" if rng.random() < 0.8 else None,
        "meta_tags": [SimpleNamespace(name=k, content=v) for k, v in scholar],
        "request_datetime": rng.choice(REQUEST_TIMES),
        "request": SimpleNamespace(session=None, args={}),
        "config": {"LABS_ENABLED": False, "LABS_BIBEXPLORER_ENABLED": False, "BROWSE_STATUS_BANNER_ENABLED": False},
    }
