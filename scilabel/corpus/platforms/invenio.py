"""InvenioRDM record landing pages (Zenodo-style): invenio-app-rdm's own Jinja2 templates
(``records/detail.html`` and everything it includes) with our article as the record.

The record is given in the shape of InvenioRDM's UI serialiser (``record_ui``): title, creators with
numbered affiliations, the abstract as the description, publication date, resource type "Journal
article", keywords as subjects, the DOI and journal, the reference list as the record's references,
metrics and versions. ``invenio_theme/page.html`` (invenio-theme, not in the renderers folder) is
ours: a plain HTML shell with the blocks the app's ``page.html`` fills. The helpers Invenio computes
in Python (``_``, ``url_for``, the filters) are ours too; its ``urlize`` of reference strings is left
out (a link cut into a reference would cut its gold apart).

Styles: invenio-app-rdm holds only its Semantic UI theme layer (``.variables``/``.overrides``,
some 140 variables of Semantic UI that it does not define) and three landing-page LESS files, not
Semantic UI itself, so only what compiles on its own is inlined (the landing-page files); the page
is otherwise unstyled, as a real InvenioRDM page is offline when its style bundle is blocked.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import random
from pathlib import Path
from typing import Any

from scilabel.corpus.jats import Article
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.marks import Marks, attrs_of
from scilabel.corpus.platforms.styles import StyleError, compile_less, pairs, style_block
from scilabel.corpus.platforms.tools import missing_modules, missing_programs, plain_text
from scilabel.corpus.templates.base import PageContext, lab, ref_attrs
from scilabel.corpus.templates.body import render_abstract
from scilabel.corpus.templates.citations import Citer, reference_html

log = logging.getLogger(__name__)

FOLDER = "inveniosoftware__invenio-app-rdm"
APP = Path("invenio_app_rdm")
TEMPLATE_DIRS = (APP / "records_ui" / "templates" / "semantic-ui", APP / "theme" / "templates" / "semantic-ui")
LANDING_LESS = APP / "theme" / "assets" / "semantic-ui" / "less" / "invenio_app_rdm" / "landing_page"
#: The one Semantic UI variable the landing-page LESS uses (Semantic UI's muted text colour).
SEMANTIC_UI_VARIABLES = {"mutedTextColor": "rgba(0, 0, 0, 0.6)"}
#: Our shell for invenio-theme's ``page.html``: the blocks invenio-app-rdm's templates fill.
THEME_PAGE = """<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{%- block head_meta %}{% endblock head_meta %}
<title>{% block title %}{{ title ~ " | " if title }}{{ config.THEME_SITENAME }}{% endblock title %}</title>
{%- block css %}{% endblock css %}
</head>
<body{% block body_attrs %}{% endblock %}>
{%- block body_inner %}{% endblock body_inner %}
{%- block javascript %}{% endblock javascript %}
</body>
</html>
"""
#: Our stand-ins for the macros of other Invenio packages the templates import: the Highwire, Open
#: Graph and Twitter tags of invenio-formatter (as InvenioRDM pages carry them), the rest empty.
OTHER_PACKAGES = {
    "invenio_formatter/macros/meta.html": """
{%- macro meta_highwire(title, description, authors=[], publisher=None, publication_date=None, doi=None,
                        keywords=[], url=None) -%}
<meta name="citation_title" content="{{ title }}">
{%- for author in authors %}
<meta name="citation_author" content="{{ author }}">{% endfor %}
{%- if publication_date %}
<meta name="citation_publication_date" content="{{ publication_date.strftime('%Y/%m/%d') }}">{% endif %}
{%- if publisher %}
<meta name="citation_publisher" content="{{ publisher }}">{% endif %}
{%- if doi %}
<meta name="citation_doi" content="{{ doi }}">{% endif %}
{%- for keyword in keywords %}
<meta name="citation_keywords" content="{{ keyword }}">{% endfor %}
<meta name="citation_abstract_html_url" content="{{ url }}">
{%- endmacro %}
{%- macro meta_opengraph(title, description, url=None) -%}
<meta property="og:title" content="{{ title }}">
<meta property="og:description" content="{{ description|truncate(200) }}">
<meta property="og:url" content="{{ url }}">
{%- endmacro %}
{%- macro meta_twittercard(title, description) -%}
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="{{ title }}">
<meta name="twitter:description" content="{{ description|truncate(200) }}">
{%- endmacro %}
""",
    "invenio_i18n/macros/language_selector.html": "{% macro language_selector_dropdown() %}{% endmacro %}",
    "semantic-ui/invenio_formatter/macros/badges.html": "{% macro badges_formats_list(image, link) %}{% endmacro %}",
    "invenio_theme/macros/messages.html": "{% macro flashed_messages() %}{% endmacro %}",
    "invenio_accounts/_macros.html": "{% macro render_field() %}{% endmacro %}{% macro form_errors() %}{% endmacro %}",
    "invenio_banners/banner.html": "{% macro banner() %}{% endmacro %}",
    "invenio_theme/header_login.html": (
        '<form><a href="/login/" class="ui button auto-width login-button">{{ _("Log in") }}</a>'
        '<a href="/signup/" class="ui button signup">{{ _("Sign up") }}</a></form>'
    ),
}
#: The record's side bar, as InvenioRDM configures it by default (the management menu needs a
#: signed-in curator, the communities and external resources a live instance).
SIDE_BAR = ("metrics", "versions", "keywords_subjects", "details", "licenses", "citations", "export")
SITES = ("Zenodo", "Research Data Repository", "Open Repository", "Institutional Research Archive")


class InvenioRecord(PlatformFamily):
    """InvenioRDM record landing page (module docstring)."""

    name = "invenio_rdm"
    description = "InvenioRDM record landing page (invenio-app-rdm records/detail.html), our article as the record"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        return missing_modules("jinja2") or missing_programs("lessc")

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir().resolve() / FOLDER
        marks = Marks()
        site = rng.choice(SITES)
        variables = _variables(article, rng, marks, site)
        page = _environment(root).get_template("invenio_app_rdm/records/detail.html").render(**variables)
        return marks.apply(page.replace("</head>", style_block([_css(root)]) + "</head>", 1))


@functools.lru_cache(maxsize=None)
def _environment(root: Path) -> Any:
    """The app's templates and our stand-ins; what the record does not hold renders as nothing, as
    for a record without that field."""
    import jinja2
    from jinja2.utils import htmlsafe_json_dumps
    from markupsafe import Markup, escape

    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader([root / d for d in TEMPLATE_DIRS]),
        jinja2.DictLoader({"invenio_theme/page.html": THEME_PAGE, **OTHER_PACKAGES}),
    ])
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.ChainableUndefined,
                             extensions=["jinja2.ext.i18n", "jinja2.ext.do"])
    env.install_null_translations(newstyle=True)
    env.filters.update(
        urlize=lambda text, *a, **k: escape(text),
        sanitize_html=lambda html_text, **k: Markup(html_text),
        pid_url=lambda identifier, scheme="": f"https://doi.org/{identifier}" if scheme == "doi" else str(identifier),
        get_scheme_label=lambda scheme: str(scheme).upper(),
        custom_fields_search=lambda *a, **k: "",
        truncate_number=lambda n, **k: n,
        localize_number=lambda n, **k: f"{int(n):,}" if str(n).isdigit() else n,
        compact_number=lambda n, **k: f"{int(n):,}" if str(n).isdigit() else n,
        order_entries=lambda entries: list(entries or []),
        has_previewable_files=lambda files: False,
        select_preview_file=lambda files, **k: None,
        resolve_community_logo=lambda *a: "",
        namespace_url=lambda *a: "",
        transform_record=lambda *a, **k: None,
        from_isodate=lambda text, **k: dt.date.fromisoformat(str(text)[:10]),
        tojson=lambda value, indent=None: htmlsafe_json_dumps(value, dumps=_json_dumps, indent=indent),
    )
    env.globals.update(url_for=_url_for, invenio_url_for=_url_for, webpack=_NoAssets(), current_user=_Anonymous(),
                       session={}, current_menu=MENU)
    return env


def _json_dumps(value: Any, **kwargs: Any) -> str:
    """JSON for the page's data attributes; what the record does not hold is null."""
    return json.dumps(value, default=lambda _: None, **kwargs)


class _NoAssets(dict):
    """The webpack bundles: scripts the offline page does not load."""

    def __missing__(self, key: str) -> str:
        return ""


class _MenuItem:
    """An entry of Flask-Menu's tree (the site's navigation)."""

    def __init__(self, text: str = "", url: str = "#", order: int = 0, children: tuple = ()) -> None:
        self.text, self.url, self.order, self.children = text, url, order, list(children)
        self.visible, self.active = True, False

    def submenu(self, name: str) -> _MenuItem:
        return next((c for c in self.children if c.text == name), _MenuItem())


#: The site's menus: "main" as an InvenioRDM instance has it by default, no "actions" signed out.
MENU = _MenuItem(children=(
    _MenuItem("main", children=(_MenuItem("Communities", "/communities", 1), _MenuItem("Search", "/search", 2))),
))


class _Anonymous:
    is_anonymous = True
    is_authenticated = False
    id = None


def _url_for(endpoint: str, **params: Any) -> str:
    if endpoint.endswith("static"):
        return f"/static/{params.get('filename', '')}"
    tail = "/".join(str(v) for v in params.values() if isinstance(v, (str, int)))
    return "/" + endpoint.split(".")[-1].replace("_", "-") + (f"/{tail}" if tail else "")


@functools.lru_cache(maxsize=None)
def _css(root: Path) -> str:
    """The landing-page LESS files that compile without Semantic UI (module docstring)."""
    sheets = []
    for less in sorted((root / LANDING_LESS).glob("*.less")):
        try:
            sheets.append(compile_less(less, (), pairs(SEMANTIC_UI_VARIABLES)))
        except StyleError as exc:
            log.info("invenio_rdm: leaving out %s: %s", less.name, exc)
    return "\n".join(sheets)


def _variables(article: Article, rng: random.Random, marks: Marks, site: str) -> dict[str, Any]:
    year = int(article.year) if article.year.isdigit() else 2020
    published = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    record_id = f"{rng.randint(1000000, 9999999)}"
    numbers: dict[str, int] = {}
    linked = any(a.aff_ids for a in article.authors)
    texts = {a.aff_id: a.text for a in article.affiliations}
    creators = []
    for author in article.authors:
        own = [i for i in dict.fromkeys(author.aff_ids) if i in texts] if linked else list(texts)
        for aff_id in own:
            numbers.setdefault(aff_id, len(numbers) + 1)
        creators.append({
            "person_or_org": {"name": marks.mark(author.name, attrs_of(lab("authors"))),
                              "type": "organizational" if author.is_collab else "personal", "identifiers": []},
            "affiliations": [[numbers[i], texts[i], None] for i in own],
        })
    affiliations = [[n, marks.mark(texts[i], attrs_of(lab("affiliations"))), None] for i, n in numbers.items()]
    citer = Citer(article, "original", link="<span{attrs}>{text}</span>")
    gold = lab("abstract")
    description = render_abstract(article, citer, paragraph=f"<p{gold}{{attrs}}>{{html}}</p>",
                                  part_title=f"<p{gold}{{attrs}}><strong>{{text}}</strong></p>",
                                  inline_titles=rng.random() < 0.5)
    references = [{"reference": marks.mark(ref.text or plain_text(reference_html(ref, "apa")),
                                           attrs_of(ref_attrs(ref)))} for ref in article.references]
    keywords = [{"subject": k} for k in article.keywords]
    views = rng.randint(40, 20000)
    doi = article.doi or f"10.5281/zenodo.{record_id}"
    metadata = {
        "title": marks.mark(article.title, attrs_of(lab("title"))),
        "description": _markup(description),
        "publication_date": published.isoformat(),
        "publisher": article.journal or site,
        "subjects": keywords,
        "creators": creators,
        "references": references,
        "resource_type": {"id": "publication-article", "title": {"en": "Journal article"}},
        "languages": [{"id": "eng", "title": {"en": "English"}}],
        "rights": [{"id": "cc-by-4.0", "title": {"en": "Creative Commons Attribution 4.0 International"},
                    "description": {"en": "The Creative Commons Attribution license allows re-distribution and "
                                          "re-use of a licensed work on the condition that the creator is "
                                          "appropriately credited."},
                    "link": "https://creativecommons.org/licenses/by/4.0/legalcode", "icon": "cc-by-icon"}],
    }
    record_ui = {
        "id": record_id,
        "metadata": metadata,
        "publication_date": published.isoformat(),
        "pids": {"doi": {"identifier": doi, "provider": "datacite"}},
        "is_published": True,
        "is_draft": False,
        "versions": {"index": 1, "is_latest": True},
        "access": {"record": "public", "files": "public", "embargo": {"active": False}},
        "files": {"enabled": False, "entries": {}},
        "links": {"self_html": f"/records/{record_id}", "doi": f"https://doi.org/{doi}"},
        "parent": {"access": {"settings": None}},
        "stats": {"this_version": {"views": views, "unique_views": views, "downloads": views // 3,
                                   "unique_downloads": views // 3, "data_volume": views * 2048},
                  "all_versions": {"views": views, "unique_views": views, "downloads": views // 3,
                                   "unique_downloads": views // 3, "data_volume": views * 2048}},
        "custom_fields": {"journal:journal": {"title": article.journal, "volume": article.volume,
                                              "issue": article.issue, "pages": article.pages}}
        if article.journal else {},
        "ui": {
            "publication_date_l10n_long": f"{published:%B} {published.day}, {published.year}",
            "publication_date_l10n_medium": f"{published:%b} {published.day}, {published.year}",
            "version": "v1",
            "resource_type": {"id": "publication-article", "title_l10n": "Journal article"},
            "access_status": {"id": "open", "title_l10n": "Open", "icon": "unlock",
                              "description_l10n": "The record and files are publicly accessible.",
                              "message_class": ""},
            "creators": {"creators": creators, "affiliations": affiliations},
            "rights": metadata["rights"],
            "languages": [{"title_l10n": "English"}],
            "subjects": keywords,
        },
    }
    headings = {"References": marks.mark("References", attrs_of(lab("references_heading")))}
    return {
        "_": lambda text, **params: headings.get(text) or (text % params if params else text),
        "record_ui": record_ui,
        "record": record_ui,
        "config": _config(site),
        "permissions": {"can_read_files": True, "can_edit": False, "can_review": False},
        "is_preview": False,
        "community": None,
        "files": [],
        "media_files": None,
    }


def _markup(html_text: str) -> Any:
    """Our HTML as markupsafe's safe string (the templates print the description unescaped)."""
    from markupsafe import Markup

    return Markup(html_text)


def _config(site: str) -> dict[str, Any]:
    return {
        "BASE_TEMPLATE": "invenio_app_rdm/page.html",
        "THEME_HEADER_TEMPLATE": "invenio_app_rdm/header.html",
        "THEME_FOOTER_TEMPLATE": "invenio_app_rdm/footer.html",
        "THEME_SITENAME": site,
        "THEME_LOGO": None,
        "THEME_SEARCHBAR": True,
        "THEME_HEADER_LOGIN_TEMPLATE": "invenio_theme/header_login.html",
        "APP_RDM_DETAIL_SIDE_BAR_TEMPLATES": [f"invenio_app_rdm/records/details/side_bar/{n}.html" for n in SIDE_BAR],
        "APP_RDM_IDENTIFIER_SCHEMES_UI": {},
        "APP_RDM_RECORD_LANDING_PAGE_EXTERNAL_LINKS": [],
        "APP_RDM_DISPLAY_DECIMAL_FILE_SIZES": True,
        "RDM_CITATION_STYLES": [("apa", "APA"), ("harvard-cite-them-right", "Harvard"),
                                ("modern-language-association", "MLA"), ("vancouver", "Vancouver"),
                                ("chicago-fullnote-bibliography", "Chicago"), ("ieee", "IEEE")],
        "RDM_CITATION_STYLES_DEFAULT": "apa",
        "RDM_RECORDS_REQUIRE_SECRET_LINKS_EXPIRATION": False,
    }
