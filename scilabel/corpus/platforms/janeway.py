"""Janeway article page: the JATS body and back through Janeway's galley stylesheet (``default.xsl``
or ``michigan.xsl``, XSLT 1.0, lxml) inside its Django article-page templates, in the OLH, clean or
material theme.

The themes put the title (OLH and clean with the author names) in a banner (or, with the large image
off, above the abstract; OLH repeats them in a block for small screens, which is furniture here, as a
sticky header's repeat is in the real-page gold), then the abstract, keywords, "How to
Cite", funding, metrics, dates and licence, the galley (body, acknowledgements, references); a sidebar
holds share links, "Author details" (each author with the first affiliation as its organisation: the
affiliations, and the byline where the title has none), files, issue, DOI and publication details. ``citation_*`` and Dublin Core meta tags fill the head.

Janeway stores the front matter in its database, not in the galley: the article's title, authors,
affiliations, abstract and keywords come from the parsed article (the abstract as HTML paragraphs,
part titles in bold, as its editors hold them). Template tags that need a running Janeway (plugin hooks,
URLs, media, roles) are stand-ins (:mod:`~scilabel.corpus.platforms.janeway_tags`).

Style sheets: each theme's own (``clean.css``, ``mat.css``) and Janeway's common sheets; the clean theme
loads Bootstrap 4 from a CDN, here Debian's ``libjs-bootstrap4``. OLH's style sheet is built from
``app.scss``, which imports Foundation 6 and motion-ui (not in the folder, not packaged for Debian or
PyPI), so it cannot be compiled (the folder's ``app.css`` is Sass's error report): OLH pages carry the
common sheets only, as do the material pages for Materialize (a CDN, not in the folder).
"""
from __future__ import annotations

import datetime as dt
import html
import importlib.util
import random
import re
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace as NS

from lxml import etree

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.markup import (
    PageDropped,
    by_id,
    check,
    finish,
    has_class,
    load_jats,
    mark,
    mark_authors,
    mark_blocks,
    mark_citations,
    mark_content,
    mark_loose_text,
    mark_references,
    mark_run,
    mark_section,
    mismatch,
    parse_html,
    shown_text,
    style_sheet,
    transform,
)
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import PageContext, pick

FOLDER = "openlibhums__janeway"
THEMES = ("OLH", "clean", "material")
#: The galley stylesheets: Janeway's default, and the one a press (Michigan) contributed (for articles
#: whose references are all mixed citations: it leaves element citations out).
GALLEYS = {"default": 3, "michigan": 1}
#: Bootstrap 4 from Debian (the clean theme loads it from a CDN).
BOOTSTRAP4 = Path("/usr/share/javascript/bootstrap4/css/bootstrap.min.css")
#: Each theme's style sheets in the order its ``base.html`` links them (relative to ``src/``);
#: ``None`` stands for Bootstrap 4.
THEME_CSS: dict[str, tuple[str | None, ...]] = {
    "OLH": ("static/common/css/index.css",),
    "clean": (None, "themes/clean/assets/css/clean.css", "static/common/css/index.css"),
    "material": ("themes/material/assets/mat.css", "static/common/css/index.css"),
}
_TAG_LIBRARIES = ("hooks", "dates", "files", "press_url", "next_url", "roles", "static")
_IMPORT = re.compile(r"""@import\s+["']([^"']+)["']\s*;""")
#: How many authors the compact byline lists before "others".
BYLINE_LIMIT = 10


class Janeway(PlatformFamily):
    name = "janeway"
    description = "Janeway article page (galley XSLT through lxml inside its Django templates; OLH, clean, material)"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        if importlib.util.find_spec("django") is None:
            return "the Python package django is not installed (pip install 'scilabel[corpus]')"
        if not BOOTSTRAP4.is_file():
            return f"Bootstrap 4 is not installed ({BOOTSTRAP4}: Debian package libjs-bootstrap4)"
        return None

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        src = renderers_dir() / FOLDER / "src"
        theme = rng.choice(THEMES)
        galley = pick(rng, GALLEYS)
        banner = rng.random() < 0.7
        doc = load_jats(article.source)
        if doc.xpath("//ref[element-citation or nlm-citation]"):
            galley = "default"  # michigan.xsl shows mixed citations only
        content = str(transform(src / "transform" / "xsl" / f"{galley}.xsl", doc))
        text = _engine(src, theme).get_template("journal/article.html").render(
            _context(article, rng, content, banner, theme)
        )
        page = parse_html(text)
        gold(page, article)
        css = "\n".join(style_sheet(BOOTSTRAP4) if s is None else _with_imports(src / s) for s in THEME_CSS[theme])
        return finish(page, css, f"{theme.lower()}-{galley}{'' if banner else '-plain'}")


@lru_cache(maxsize=None)
def _engine(src: Path, theme: str):
    """A Django template engine with the theme's search path in Janeway's ``src`` folder and the
    stand-in tag libraries."""
    from django.conf import settings
    from django.template import Engine

    if not settings.configured:
        settings.configure(USE_I18N=False, USE_TZ=False)
    dirs = [src / "themes" / theme / "templates", src / "themes" / "OLH" / "templates", src / "templates",
            src / "templates" / "common", src / "templates" / "admin"]
    tags = "scilabel.corpus.platforms.janeway_tags"
    return Engine(
        dirs=[str(d) for d in dirs],
        libraries={**{name: tags for name in _TAG_LIBRARIES}, "i18n": "django.templatetags.i18n"},
        # as Janeway's settings have it, i18n is built in; after Django's own, so its {% url %} gives way
        builtins=["django.templatetags.i18n", tags],
        autoescape=True,
    )


def _with_imports(path: Path) -> str:
    """A style sheet with its ``@import``s of sheets beside it inlined (one that is absent is left out)."""
    css = style_sheet(path)

    def inline(match: re.Match) -> str:
        target = path.parent / match.group(1)
        return _with_imports(target) if target.is_file() else ""

    return _IMPORT.sub(inline, css)


class Rows(list):
    """A list that answers like a Django related manager (``.all``, ``.count``, ``.exists``, ``.first``)."""

    def all(self) -> Rows:
        return self

    def count(self) -> int:
        return len(self)

    def exists(self) -> bool:
        return bool(self)

    def first(self):
        return self[0] if self else None


def _context(article: Article, rng: random.Random, content: str, banner: bool, theme: str):
    from django.template import Context
    from django.utils.safestring import mark_safe

    journal = fur.journal_name(article, rng)
    year = int(article.year) if article.year.isdigit() else 2020
    published = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    affs = {a.aff_id: a for a in article.affiliations}
    authors = Rows()
    for i, author in enumerate(article.authors, 1):
        first = next((affs[a] for a in author.aff_ids if a in affs), None)
        organisation = NS(name=first.text, ror_id="", locations=Rows()) if first else None
        authors.append(NS(
            pk=i, full_name=author.name, orcid="", display_email=False, biography="", author=None,
            institution=first.text if first else "", credits=Rows(),
            affiliations=Rows([organisation] if first else []),
            primary_affiliation=NS(organization=organisation, title_display="", department_display=""),
        ))
    doi_url = f"https://doi.org/{article.doi}" if article.doi else ""
    issue = NS(volume=article.volume, issue=article.issue, pk=1,
               display_title=" ".join(x for x in (article.volume and f"Volume {article.volume}",
                                                  article.issue and f"Issue {article.issue}", str(year)) if x))
    page = NS(
        pk=1, id=1, title=mark_safe(html.escape(article.title)), section=NS(name=article.article_type or "Article"),
        frozen_authors=authors, frozenauthor_set=authors, abstract=mark_safe(_abstract_html(article)),
        keywords=Rows(NS(word=k, pk=i) for i, k in enumerate(article.keywords, 1)),
        is_published=True, date_published=published, date_accepted=published - dt.timedelta(days=rng.randint(20, 90)),
        date_submitted=published - dt.timedelta(days=rng.randint(100, 300)), peer_reviewed=True,
        how_to_cite=fur.citation_line(article, journal), get_doi_url=doi_url, url="#",
        identifier=NS(id_type="doi", identifier=article.doi) if article.doi else None,
        issue=issue, primary_issue=issue, issues_list=Rows([issue]), page_range=article.pages,
        license=NS(name="CC BY 4.0", url="https://creativecommons.org/licenses/by/4.0/", text=""),
        metrics=NS(views=fur.fake_count(rng, 50, 20000), downloads=fur.fake_count(rng, 10, 5000), alm=NS()),
        journal_title=journal, language="en", has_publication_details=bool(article.pages),
        publisher_notes=Rows(), supplementary_files=Rows(), funders=Rows(), custom_fields=[],
        pdfs=Rows([1]), xml_galleys=Rows([1]),
    )
    galleys = [NS(label=label, id=i, file=NS(mime_type=mime, checksum=f"{rng.getrandbits(128):032x}"))
               for i, (label, mime) in enumerate((("PDF", "application/pdf"), ("XML", "application/xml")), 1)]
    nav = [NS(link_name=name, url="#", link="#", has_sub_nav=False, for_footer=False, sub_nav_items=[])
           for name in fur.nav_items(rng, 4)[1:]]
    site = NS(
        name=journal, site_url="#", id=1, header_image="", description="", issn="", print_issn="",
        disable_metrics_display=False, nav_home=True, nav_articles=True, nav_issues=True, nav_contact=True,
        nav_news=False, nav_sub=False, nav_start=True, nav_review=False, press=NS(journal_footer_text=""),
    )
    request = NS(journal=site, press=NS(name=fur.site_name(rng)), repository=None, press_cover="",
                 user=NS(is_authenticated=False, is_staff=False), current_language="en", available_languages=[],
                 PATH="/", resolver_match=NS(url_name="article_view"))
    settings = {
        "general": {"journal_name": journal, "publisher_name": fur.site_name(rng), "feeds": True,
                    "keyword_list_page": False, "switch_language": False},
        "article": {"disable_article_large_image": not banner},
        "styling": {"display_journal_title": theme == "OLH"},
        "news": {"news_title": "News"},
    }
    return Context({
        "article": page, "article_content": mark_safe(content), "galleys": galleys, "request": request,
        "journal_settings": settings, "navigation_items": nav, "journal": site, "proofing": False,
        "tables_in_galley": [],
    })


def _abstract_html(article: Article) -> str:
    """The abstract as a Janeway editor holds it: paragraphs, a part title in bold on a line of its own."""
    out = []
    for part in article.abstract:
        if part.title:
            out.append(f"<p><strong>{html.escape(part.title)}</strong></p>")
        out.extend(f"<p>{html.escape(p.text)}</p>" for p in part.paragraphs)
    return "".join(out)


def gold(page: etree._Element, article: Article) -> None:
    """Mark the page's components (module docstring) after checking them against ``article``."""
    # the yardstick's gold has the title and the byline once: OLH's repeat for small screens is furniture
    small = "ancestor::*[contains(@class, 'show-for-small-only')]"
    titles = [h for h in page.xpath(f"//h1[not({small})]") if mismatch(shown_text(h), article.title) is None]
    if not titles:
        raise PageDropped("title: not found on the page")
    mark(titles[0], "title")
    details = page.xpath("//ul[starts-with(@id, 'author-')]")
    if article.authors and not details:
        raise PageDropped("authors: no author details on the page")
    bylines = page.xpath(f"//ul[contains(@class, 'comma-and-sep')][li/a[starts-with(@href, '#author-')]][not({small})]")
    if bylines:
        mark_authors(bylines[0].xpath("li[a]"), article.authors[:BYLINE_LIMIT], bylines[0], slack=0)
    else:  # no byline under the title (material, or the large image off): the author details are the byline
        mark_authors([d.xpath(".//span[@itemprop='name']")[0] for d in details], article.authors, page, slack=0)
    by_name = {a.name: a for a in article.authors}
    affs = {a.aff_id: a for a in article.affiliations}
    for detail in details:
        author = by_name.get(shown_text(detail.xpath(".//span[@itemprop='name']")[0]))
        for org in detail.xpath(".//li[@itemprop='worksFor']"):
            expected = next((affs[a].text for a in (author.aff_ids if author else []) if a in affs), None)
            mark(check("affiliation", org if expected else None, expected or "", slack=0), "affiliations")
    if article.abstract:
        _abstract(page, article)
    galley = page.xpath("//*[@id='main_article']")
    if not galley and (article.references or article.sections):
        raise PageDropped("galley: not on the page")
    mark_references(((by_id(galley[0], r.ref_id), r) for r in article.references), article, slack=4)
    if article.references:
        first = by_id(galley[0], article.references[0].ref_id)
        for heading in first.xpath("preceding::h2[1]"):
            mark(heading, "references_heading")
    mark_citations(page, article)
    sections = galley[0].xpath(".//div[contains(@class, 'section') or contains(@class, 'article-section')]")
    for sec in sections:
        mark_section(sec, sum(a in sections for a in sec.iterancestors("div")) + 1)
        mark_blocks(sec, heading="h2 | h3 | h4 | h5 | h6", item="ul/li | ol/li",
                    paragraph=f"p[not({has_class('disp-formula')})] | blockquote/p",  # a formula is the paragraph's
                    caption=f".//div[{has_class('fig-caption')} or {has_class('table-caption')}"
                            f" or {has_class('supplementary-material')}]",
                    footnote=f".//div[{has_class('table-foot')}]")
    mark_loose_text(galley[0], article)


def _abstract(page: etree._Element, article: Article) -> None:
    """The paragraphs after the "Abstract" heading (the keywords follow them in the same block)."""
    for heading in page.xpath("//*[self::h2 or self::h3][normalize-space()='Abstract']"):
        after = [el for el in heading.itersiblings() if shown_text(el)]
        if mark_run(after, article.abstract_text, "abstract"):
            mark(heading, "abstract_heading")
            for el in after:
                if el.get("data-scilabel") == "abstract":
                    mark_content(el)
            return
    raise PageDropped("abstract: no run of paragraphs after its heading shows the main abstract")
