"""OJS article landing pages: Open Journal Systems' own Smarty templates in four themes.

The page is ``frontend/pages/article.tpl`` rendered by Smarty 4 (Debian ``php-cli`` + ``smarty4``) in a
PHP subprocess (``smarty_render.php``), with the templates looked up theme -> ``pkp__ojs`` ->
``pkp__pkp-lib`` and the labels from their ``locale/en`` ``.po`` files. What the OJS application
computes is given as stand-in objects: the article as an OJS publication (authors each with their own
affiliations, the abstract as rich text, the references as citations with links), its issue, section
and galleys, the site menus, and what the usual plugins hang on the page's hooks (sidebar blocks,
"How to Cite", similar articles, the Google Scholar and Dublin Core meta tags).

An OJS landing page shows no body: the full text is in its galleys. Gold is set through
:class:`~scilabel.corpus.platforms.marks.Marks` (title, author names, affiliations, the two headings)
and as attributes inside the rich text the templates print unescaped (abstract, references).
"""
from __future__ import annotations

import functools
import json
import logging
import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scilabel.corpus.jats import Article, Author
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.marks import Marks, attrs_of
from scilabel.corpus.platforms.styles import compile_less, pairs, read_css, style_block
from scilabel.corpus.platforms.tools import missing_programs, plain_text, scratch_dir, with_variant
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import PageContext, content, esc, lab, pick, ref_attrs
from scilabel.corpus.templates.body import render_abstract
from scilabel.corpus.templates.citations import Citer, reference_html

log = logging.getLogger(__name__)

SMARTY = Path("/usr/share/php/smarty4/bootstrap.php")
DRIVER = Path(__file__).with_name("smarty_render.php")
OJS, PKP_LIB = "pkp__ojs", "pkp__pkp-lib"
#: Labels of theme and plugin keys, whose ``.po`` files the renderers folder does not hold (ours).
EXTRA_MESSAGES = {
    "plugins.themes.default.displayStats.downloads": "Downloads",
    "plugins.themes.default.displayStats.noStats": "Download data is not yet available.",
    "plugins.themes.bootstrap3.article.sidebar": "Article sidebar",
    "plugins.themes.bootstrap3.article.main": "Article main",
    "plugins.themes.bootstrap3.article.details": "Article details",
    "plugins.themes.bootstrap3.displayStats.downloads": "Downloads",
    "plugins.themes.bootstrap3.displayStats.noStats": "Download data is not yet available.",
    "plugins.themes.bootstrap3.accessible_menu.label": "Accessible navigation menu",
    "plugins.themes.bootstrap3.accessible_menu.main_content": "Jump to main content",
    "plugins.themes.bootstrap3.accessible_menu.main_navigation": "Jump to main navigation",
    "plugins.themes.bootstrap3.accessible_menu.sidebar": "Jump to sidebar",
    "plugins.themes.bootstrap3.nav.toggle": "Toggle navigation",
    "plugins.themes.healthSciences.article.authorBio": "Bio",
    "plugins.themes.healthSciences.article.supplementaryFiles": "Supplementary Files",
    "plugins.themes.healthSciences.displayStats.downloads": "Downloads",
    "plugins.themes.healthSciences.displayStats.noStats": "Download data is not yet available.",
    "plugins.themes.healthSciences.language.toggle": "Change the language",
    "plugins.themes.healthSciences.nav.toggle": "Toggle navigation",
    "plugins.themes.healthSciences.register.noAccount": "Don't have an account?",
    "plugins.themes.healthSciences.register.registerHere": "Register here",
    "plugins.themes.immersion.adminMenu": "Admin menu",
    "plugins.themes.immersion.article.biography": "Biography",
    "plugins.themes.immersion.article.figure": "Figure",
    "plugins.themes.immersion.displayStats.downloads": "Downloads",
    "plugins.themes.immersion.displayStats.noStats": "Download data is not yet available.",
    "plugins.themes.immersion.language.toggle": "Change the language",
    "plugins.themes.immersion.mainMenu": "Main menu",
    "plugins.block.information.link": "Information",
    "plugins.block.makeSubmission.linkLabel": "Make a Submission",
    "plugins.generic.webfeed.atom.altText": "Atom logo",
    "plugins.generic.webfeed.rss2.altText": "RSS2 logo",
    "plugins.generic.webfeed.rss1.altText": "RSS1 logo",
    "submission.howToCite": "How to Cite",
    "submission.howToCite.citationFormats": "More Citation Formats",
    "submission.howToCite.downloadCitation": "Download Citation",
}
#: The citation styles and downloads of the Citation Style Language plugin's "How to Cite" block.
CITATION_STYLES = ("ACM", "ACS", "APA", "ABNT", "Chicago", "Harvard", "IEEE", "MLA", "Turabian", "Vancouver")
CITATION_DOWNLOADS = ("Endnote/Zotero/Mendeley (RIS)", "BibTeX")
#: Stand-ins for pkp-lib's shared LESS (``lib/pkp/styles``), which the default theme imports and the
#: renderers folder lacks: the helper mixins and the few variables it uses without defining them, and
#: Font Awesome as an absent font.
PKP_STYLES_SHIM = """
*, *::before, *::after { box-sizing: border-box; }
@lift: #007ab2;
@offset: #d00a6c;
@font-tiny: 0.75rem;
.pkp_helpers_clear { &::after { content: ""; display: table; clear: both; } }
.pkp_screen_reader { position: absolute !important; clip: rect(1px, 1px, 1px, 1px); width: 1px; height: 1px;
  overflow: hidden; }
.pkp_unstyled_list { list-style: none; margin: 0; padding: 0; }
.fa() { display: inline-block; font-style: normal; text-rendering: auto; }
.fa { .fa(); }
"""
_FA_VAR = re.compile(r"@fa-var-[\w-]+")
_URL_IN_TEXT = re.compile(r"(https?://[^\s<>\"]+[^\s<>\".,;)])")
_MSG = re.compile(r'^(msgid|msgstr) "(.*)"$|^"(.*)"$')


@dataclass(frozen=True)
class OjsTheme:
    """One OJS theme: its renderer folder (None: OJS's own default theme) and how it takes keywords."""

    name: str
    folder: str | None
    #: keywords as ``{"name": ...}`` maps (OJS 3.5's default templates) or as plain strings
    keyword_maps: bool
    #: the class the theme's own sidebar blocks carry besides ``pkp_block``
    block_class: str = ""
    #: whether the theme escapes the raw reference text it prints (Bootstrap 3 prints it as HTML)
    escapes_raw_references: bool = True


class OjsFamily(PlatformFamily):
    """An OJS article landing page in one theme (module docstring)."""

    def __init__(self, theme: OjsTheme, description: str) -> None:
        self.theme = theme
        self.name = theme.name
        self.description = description
        self.folders = tuple(f for f in (theme.folder, OJS, PKP_LIB) if f)

    def missing_tools(self) -> str | None:
        if not SMARTY.is_file():
            return f"Smarty 4 is not installed ({SMARTY}; Debian package smarty4)"
        return missing_programs("php", "lessc")

    # ------------------------------------------------------------------------ page

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir().resolve()
        marks = Marks()
        page = _OjsPage(article, rng, context, marks, self.theme)
        request = {
            "smarty": str(SMARTY),
            "template_dirs": [str(_overrides()), *(str(root / f / "templates") for f in self.folders)],
            "compile_dir": str(scratch_dir(f"smarty-{self.name}")),
            "template": "frontend/pages/article.tpl",
            "translations": str(_translations_file(root)),
            "messages": page.messages(),
            "vars": page.variables(),
            "menus": page.menus(),
            "hooks": page.hooks(),
            "header": page.meta_tags(),
        }
        variant, sheets = self.style_sheets(root, rng)
        request.update(stylesheet=style_block(sheets), base_url=page.base_url)
        done = subprocess.run(
            ["php", str(DRIVER)], input=json.dumps(request), capture_output=True, text=True, timeout=120
        )
        if done.returncode or not done.stdout.strip():
            raise RuntimeError(f"{self.name}: Smarty failed on {article.article_id}: {done.stderr.strip()[-3000:]}")
        for line in done.stderr.splitlines():
            log.debug("%s: %s", self.name, line)
        return with_variant(marks.apply(done.stdout), variant)

    def style_sheets(self, root: Path, rng: random.Random) -> tuple[str, list[str]]:
        """The theme's compiled CSS, with its seeded colour or Bootswatch scheme: (variant, sheets)."""
        base_url = (("baseUrl", "''"),)
        if self.theme.folder is None:
            styles = root / OJS / "plugins" / "themes" / "default" / "styles"
            colour = pick(rng, {"#1E6292": 4, "#7A1F3D": 1, "#0B6E4F": 1, "#333333": 1, "#8C4A0F": 1})
            return "default", [compile_less(styles / "index.less", (_pkp_styles_shim(styles),), (),
                                            (("bg-base", colour),))]
        theme = root / self.theme.folder
        if self.theme.folder == "pkp__bootstrap3":
            scheme = pick(rng, {s: 1 for s in _bootswatch_schemes(theme)} | {"bootstrap": 4})
            return f"bootstrap-{scheme}", [compile_less(theme / "styles" / f"{scheme}.less", (), base_url)]
        if self.theme.folder == "pkp__healthSciences":
            colour = pick(rng, {"#10BECA": 4, "#1E6292": 1, "#7A1F3D": 1, "#2E7D32": 1})
            return "health_sciences", [
                read_css(theme / "libs" / "app.min.css"),
                compile_less(theme / "styles" / "index.less", (), base_url, pairs({"primary": colour})),
            ]
        return "immersion", [
            read_css(theme / "resources" / "dist" / "app.min.css"),
            compile_less(theme / "resources" / "less" / "import.less", (), base_url),
        ]


@functools.lru_cache(maxsize=1)
def _overrides() -> Path:
    """Our templates, looked up before the platform's: an empty SVG icon sprite (pkp-lib's is a
    Laravel Blade view; the page needs none of its icons)."""
    own = scratch_dir("smarty-overrides")
    (own / "frontend" / "components").mkdir(parents=True, exist_ok=True)
    (own / "frontend" / "components" / "svg-icon-sprite.blade").write_text("", encoding="utf-8")
    return own


def _bootswatch_schemes(theme: Path) -> list[str]:
    return sorted(p.stem for p in (theme / "styles").glob("*.less") if p.stem != "bootstrap")


@functools.lru_cache(maxsize=None)
def _pkp_styles_shim(styles: Path) -> Path:
    """An include path under which ``../../../../lib/pkp/styles/*.less`` resolves to our stand-ins."""
    top = scratch_dir("pkp-styles-shim")
    include = top / "a" / "b" / "c" / "d"
    include.mkdir(parents=True, exist_ok=True)
    shim = top / "lib" / "pkp" / "styles"
    shim.mkdir(parents=True, exist_ok=True)
    used = sorted({m for f in styles.rglob("*.less") for m in _FA_VAR.findall(f.read_text(encoding="utf-8"))})
    for name in ("fontawesome", "normalize", "variables", "utils", "helpers", "orcid"):
        (shim / f"{name}.less").write_text("", encoding="utf-8")
    (shim / "helpers.less").write_text(PKP_STYLES_SHIM + "".join(f'{v}: "";\n' for v in used), encoding="utf-8")
    return include


@functools.lru_cache(maxsize=None)
def _messages(root: Path) -> dict[str, str]:
    """The English labels of OJS and pkp-lib (their ``.po`` files) and :data:`EXTRA_MESSAGES`."""
    messages: dict[str, str] = {}
    for folder in (PKP_LIB, OJS):  # OJS's own labels win
        for po in sorted((root / folder / "locale" / "en").glob("*.po")):
            messages.update(read_po(po))
    return {**messages, **EXTRA_MESSAGES}


@functools.lru_cache(maxsize=None)
def _translations_file(root: Path) -> Path:
    """:func:`_messages` as the JSON file the Smarty driver reads."""
    path = scratch_dir("pkp-locale") / "en.json"
    path.write_text(json.dumps(_messages(root)), encoding="utf-8")
    return path


def read_po(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a gettext ``.po`` file (continued lines joined; the header entry left out)."""
    out: dict[str, str] = {}
    key = value = None
    field = None

    def flush() -> None:
        if key and value:
            out[key] = value

    for line in path.read_text(encoding="utf-8").splitlines():
        m = _MSG.match(line.strip())
        if not m:
            continue
        if m.group(1) == "msgid":
            flush()
            key, value, field = _unquote(m.group(2)), None, "id"
        elif m.group(1) == "msgstr":
            value, field = _unquote(m.group(2)), "str"
        elif field == "id":
            key = (key or "") + _unquote(m.group(3))
        elif field == "str":
            value = (value or "") + _unquote(m.group(3))
    flush()
    return out


def _unquote(text: str) -> str:
    return json.loads(f'"{text}"') if "\\" in text else text


def stub(methods: dict[str, Any], props: dict[str, Any] | None = None) -> dict[str, Any]:
    """An application object for ``smarty_render.php``: calls answered from ``methods``."""
    return {"__o": methods, "__p": props or {}}


# ---------------------------------------------------------------------------- the article as OJS sees it


class _OjsPage:
    """One page's data in OJS's shape, with its seeded choices (drawn in a fixed order)."""

    def __init__(self, article: Article, rng: random.Random, context: PageContext, marks: Marks,
                 theme: OjsTheme) -> None:
        self.article, self.rng, self.context, self.marks, self.theme = article, rng, context, marks, theme
        self.journal = fur.journal_name(article, rng)
        self.path = re.sub(r"[^a-z]+", "", self.journal.lower())[:12] or "journal"
        self.base_url = f"https://journals.{pick(rng, {'example.org': 1, 'example.edu': 1, 'example.net': 1})}" \
                        f"/index.php/{self.path}"
        year = int(article.year) if article.year.isdigit() else 2020
        self.published = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        self.volume = article.volume or str(max(1, year - rng.randint(1960, 2015)))
        self.issue = article.issue or str(rng.randint(1, 4))
        self.article_id = rng.randint(100, 45000)
        self.raw_references = rng.random() < 0.25
        self.show_orcid = rng.random() < 0.4
        self.how_to_cite = rng.random() < 0.6
        self.similar = rng.random() < 0.5 and bool(context.related)
        self.sidebar = rng.random() < 0.8
        self.license = rng.random() < 0.7
        self.date_format = pick(rng, {"Y-m-d": 3, "F j, Y": 1, "d/m/Y": 1, "Y-m-d H:i": 0})
        self.galleys = ["PDF"] + [g for g in ("HTML", "XML", "EPUB") if rng.random() < 0.25]
        self.number_references = rng.random() < 0.4
        self.citer = Citer(article, "original", link="<span{attrs}>{text}</span>")

    # -- what the templates print ----------------------------------------------------------

    def messages(self) -> dict[str, str]:
        """Per-page labels: the abstract and reference headings carry their gold."""
        return {
            "article.abstract": self.marks.mark("Abstract", attrs_of(lab("abstract_heading"))),
            "submission.citations": self.marks.mark("References", attrs_of(lab("references_heading"))),
        }

    def variables(self) -> dict[str, Any]:
        art = self.article
        journal = self.journal_object()
        publication = self.publication()
        doi_url = f"https://doi.org/{art.doi}" if art.doi else None
        return {
            "currentLocale": "en",
            "currentLocaleLangDir": "ltr",
            "defaultCharset": "utf-8",
            "requestedPage": "article",
            "requestedOp": "view",
            "displayPageHeaderTitle": self.journal,
            "siteTitle": self.journal,
            "applicationName": "Open Journal Systems",
            "currentContext": journal,
            "currentJournal": journal,
            "hasSidebar": self.sidebar,
            "baseUrl": self.base_url.rsplit("/index.php", 1)[0],
            "publicFilesDir": f"{self.base_url.rsplit('/index.php', 1)[0]}/public/journals/1",
            "brandImage": "templates/images/ojs_brand.png",
            "pageFooter": self.footer(),
            "article": self.submission(publication),
            "publication": publication,
            "firstPublication": publication,
            "currentPublication": publication,
            "issue": self.issue_object(),
            "section": stub({"getLocalizedTitle": self.section_title(), "getId": 1}),
            "primaryGalleys": [self.galley(i, label) for i, label in enumerate(self.galleys, 1)],
            "supplementaryGalleys": [],
            "pubIdPlugins": [self.doi_plugin()] if art.doi else [],
            "doiObject": stub({"getData": {"resolvingUrl": doi_url}}) if art.doi else None,
            "parsedCitations": [] if self.raw_references else self.citations(),
            "ccLicenseBadge": self.license_badge() if self.license else None,
            "licenseUrl": "https://creativecommons.org/licenses/by/4.0/" if self.license else None,
            "activeTheme": stub({"getOption": {"displayStats": "none"}, "displayUsageStatsGraph": None}),
            "orcidIcon": _icon(renderers_dir().resolve(), "Orcid"),
            "orcidUnauthenticatedIcon": _icon(renderers_dir().resolve(), "OrcidUnauthenticated"),
            "rorIdIcon": "",
            "dateFormatShort": self.date_format,
            "dateFormatLong": "F j, Y",
            "hasAccess": True,
            "enablePublicComments": False,
            "creditRoleTerms": {"roles": {}, "degrees": {}},
            "categories": [],
        }

    def journal_object(self) -> dict[str, Any]:
        return stub(
            {
                "getLocalizedName": self.journal,
                "getId": 1,
                "getPath": self.path,
                "getData": {"purchaseArticleFee": None, "currency": None, "onlineIssn": None},
                "getLocalizedData": {"licenseTerms": None, "name": self.journal},
                "getSetting": {},
            }
        )

    def publication(self) -> dict[str, Any]:
        art = self.article
        title_html = self.marks.mark(esc(art.title), attrs_of(lab("title")))
        title_text = self.marks.mark(art.title, attrs_of(lab("title")))
        keywords = [{"name": k} for k in art.keywords] if self.theme.keyword_maps else list(art.keywords)
        data = {
            "status": 3,
            "authors": {"__list": [self.author(a) for a in art.authors]},
            "datePublished": self.published,
            "citationsRaw": self.raw_citations() if self.raw_references else None,
            "licenseUrl": "https://creativecommons.org/licenses/by/4.0/" if self.license else None,
            "copyrightYear": self.published[:4],
            "urlPath": None,
            "version": 1,
            "versionString": "1",
            "pages": self.article.pages or None,
        }
        localized = {
            "title": title_text,
            "fullTitle": title_text,
            "subtitle": None,
            "abstract": self.abstract_html(),
            "keywords": keywords,
            "coverImage": None,
            "copyrightHolder": self.journal if self.license else None,
        }
        return stub(
            {
                "getId": 1,
                "getID": 1,
                "getLocalizedTitle": title_html,
                "getLocalizedFullTitle": title_html,
                "getLocalizedSubTitle": None,
                "getData": data,
                "getLocalizedData": localized,
                "getStoredPubId": {"doi": self.article.doi or None},
                "getLocalizedCoverImageUrl": None,
            }
        )

    def submission(self, publication: dict[str, Any]) -> dict[str, Any]:
        return stub(
            {
                "getId": self.article_id,
                "getBestId": str(self.article_id),
                "getCurrentPublication": publication,
                "getPublishedPublications": [publication],
                "getData": {"contextId": 1, "currentPublicationId": 1},
                "getLocalizedData": {"title": publication["__o"]["getLocalizedData"]["title"]},
                "getStoredPubId": {"doi": self.article.doi or None},
            }
        )

    def author(self, author: Author) -> dict[str, Any]:
        name = self.marks.mark(author.name, attrs_of(lab("authors")))
        affs = [self.marks.mark(text, attrs_of(lab("affiliations"))) for text in self.affiliations_of(author)]
        orcid = _fake_orcid(self.rng) if self.show_orcid and self.rng.random() < 0.6 else None
        return stub(
            {
                "getFullName": name,
                "getAffiliations": [stub({"getLocalizedName": a, "getRor": None}) for a in affs],
                "getLocalizedAffiliationNamesAsString": ", ".join(affs),
                "getData": {"orcid": orcid, "creditRoles": None},
                "hasVerifiedOrcid": orcid is not None and self.rng.random() < 0.7,
                "getOrcidDisplayValue": orcid,
                "getLocalizedBiography": None,
                "getLocalizedData": {"biography": None},
                "getLocalizedContributorRoleNames": [],
            }
        )

    def affiliations_of(self, author: Author) -> list[str]:
        """An author's affiliations as OJS holds them (one free text each, per author). When the JATS
        links no author to an affiliation, a single affiliation is everybody's, several nobody's."""
        affs = self.article.affiliations
        if any(a.aff_ids for a in self.article.authors):
            by_id = {a.aff_id: a.text for a in affs}
            return [by_id[i] for i in dict.fromkeys(author.aff_ids) if i in by_id]
        return [affs[0].text] if len(affs) == 1 else []

    def abstract_html(self) -> str | None:
        if not self.article.abstract:
            return None
        gold = lab("abstract")
        inline = self.rng.random() < 0.6
        body = render_abstract(
            self.article,
            self.citer,
            paragraph=f"<p{gold}{{attrs}}>{{html}}</p>",
            part_title=f"<p{gold}{{attrs}}><strong>{{text}}</strong></p>",
            inline_titles=inline,
        )
        return body.replace("\n", "")  # a theme's nl2br would add a line break per newline

    def reference_texts(self) -> list[str]:
        """Each reference as the plain text an author pasted into OJS (numbered on some pages)."""
        out = []
        for i, ref in enumerate(self.article.references, 1):
            text = ref.text or plain_text(reference_html(ref, "apa"))
            out.append(f"{ref.label or i}. {text}" if self.number_references else text)
        return out

    def citations(self) -> list[dict[str, Any]]:
        items = []
        for ref, text in zip(self.article.references, self.reference_texts()):
            linked = _URL_IN_TEXT.sub(r'<a href="\1">\1</a>', esc(text))
            marked = f"<span{ref_attrs(ref)}>{linked}</span>"
            items.append(stub({"getRawCitationWithLinks": marked, "getCitationWithLinks": marked}))
        return items

    def raw_citations(self) -> str:
        """The references as one text, one per line, each line marked (the templates print it with nl2br)."""
        escape = esc if not self.theme.escapes_raw_references else str
        return "\n".join(
            self.marks.mark(escape(text), attrs_of(ref_attrs(ref)))
            for ref, text in zip(self.article.references, self.reference_texts())
        )

    def issue_object(self) -> dict[str, Any]:
        ident = f"Vol. {self.volume} No. {self.issue} ({self.published[:4]})"
        return stub(
            {
                "getIssueIdentification": ident,
                "getIssueSeries": ident,
                "getBestIssueId": str(self.rng.randint(10, 400)),
                "getLocalizedCoverImage": None,
                "getLocalizedCoverImageUrl": None,
                "getLocalizedCoverImageAltText": None,
                "getPublished": 1,
            }
        )

    def section_title(self) -> str:
        kind = self.article.article_type
        return kind if kind and len(kind) < 40 else pick(self.rng, {"Articles": 4, "Original Articles": 1,
                                                                     "Research Articles": 1})

    def galley(self, galley_id: int, label: str) -> dict[str, Any]:
        return stub(
            {
                "getGalleyLabel": label,
                "getBestGalleyId": str(galley_id),
                "isPdfGalley": label == "PDF",
                "getData": {"urlRemote": None},
            }
        )

    def doi_plugin(self) -> dict[str, Any]:
        return stub(
            {
                "getPubIdType": "doi",
                "getPubIdDisplayType": "DOI",
                "getResolvingURL": f"https://doi.org/{self.article.doi}",
                "getPubId": self.article.doi,
            }
        )

    def license_badge(self) -> str:
        return (
            '<a rel="license" href="https://creativecommons.org/licenses/by/4.0/">'
            '<img alt="Creative Commons License" src="https://i.creativecommons.org/l/by/4.0/88x31.png" /></a>'
            "<p>This work is licensed under a "
            '<a rel="license" href="https://creativecommons.org/licenses/by/4.0/">'
            "Creative Commons Attribution 4.0 International License</a>.</p>"
        )

    def footer(self) -> str:
        issn = f"{self.rng.randint(1000, 9999)}-{self.rng.randint(100, 999)}{self.rng.choice('0123456789X')}"
        return (
            f"<p>{esc(self.journal)}<br>ISSN {issn} (online)</p>"
            f"<p>{esc(fur.copyright_line(self.article, self.rng, self.journal))}</p>"
        )

    # -- menus, hooks, head ------------------------------------------------------------

    def menus(self) -> dict[str, Any]:
        messages = _messages(renderers_dir().resolve())

        ids = iter(range(1, 100))

        def item(key: str, page: str, children: list | None = None) -> dict[str, Any]:
            entry = stub(
                {
                    "getType": "NMI_TYPE_" + re.sub(r"\W", "_", page.upper()),
                    "getIsDisplayed": True,
                    "getUrl": f"{self.base_url}/{page}",
                    "getLocalizedTitle": messages.get(key, key),
                    "getIsChildVisible": bool(children),
                }
            )
            return stub({"getMenuItemId": next(ids)}, {"navigationMenuItem": entry, "children": children or []})

        about = [
            item("about.aboutContext", "about"),
            item("navigation.submissions", "about/submissions"),
            item("common.editorialMasthead", "about/editorialMasthead"),
            item("manager.setup.privacyStatement", "about/privacy"),
            item("about.contact", "about/contact"),
        ]
        primary = [item("navigation.current", "issue/current"), item("navigation.archives", "issue/archive")]
        if self.rng.random() < 0.5:
            primary.append(item("announcement.announcements", "announcement"))
        primary.append(item("navigation.about", "about", about))
        user = [item("navigation.register", "user/register"), item("navigation.login", "login")]
        return {"primary": stub({}, {"menuTree": primary}), "user": stub({}, {"menuTree": user})}

    def hooks(self) -> dict[str, list]:
        """What the usual plugins print on the page's hooks: a part is HTML, or one of the theme's own
        plugin templates with its variables when the theme has one."""
        hooks: dict[str, list] = {}
        if self.sidebar:
            hooks["Templates::Common::Sidebar"] = self.sidebar_blocks()
        if self.how_to_cite:
            hooks["Templates::Article::Details"] = [self.how_to_cite_block()]
        if self.similar:
            hooks["Templates::Article::Footer::PageFooter"] = [self.similar_articles()]
        return hooks

    def theme_template(self, path: str, variables: dict[str, Any]) -> dict[str, Any] | None:
        """The theme's own template ``path`` (under its ``templates``) as a hook part, if it has one."""
        folder = self.theme.folder
        if folder and (renderers_dir().resolve() / folder / "templates" / path).is_file():
            return {"template": path, "vars": variables}
        return None

    def sidebar_blocks(self) -> list:
        cls = f" {self.theme.block_class}" if self.theme.block_class else ""
        url = self.base_url
        feeds = "".join(
            f'<li><a href="{url}/gateway/plugin/WebFeedGatewayPlugin/{kind}">'
            f'<img src="{url.rsplit("/index.php", 1)[0]}/lib/pkp/templates/images/{image}" alt="{alt}"></a></li>'
            for kind, image, alt in (("atom", "atom.svg", "Atom logo"), ("rss2", "rss20_logo.svg", "RSS2 logo"),
                                     ("rss", "rss10_logo.svg", "RSS1 logo"))
        )
        blocks = [
            self.theme_template("plugins/blocks/makeSubmission/block.tpl", {})
            or f'<div class="pkp_block block_make_submission{cls}"><h2 class="pkp_screen_reader">Make a Submission'
               f'</h2><div class="content"><a class="block_make_submission_link" href="{url}/about/submissions">'
               "Make a Submission</a></div></div>",
            self.theme_template("plugins/blocks/information/block.tpl",
                                {"forReaders": True, "forAuthors": True, "forLibrarians": True})
            or f'<div class="pkp_block block_information{cls}"><h2 class="title">Information</h2><div class="content">'
               f'<ul><li><a href="{url}/information/readers">For Readers</a></li>'
               f'<li><a href="{url}/information/authors">For Authors</a></li>'
               f'<li><a href="{url}/information/librarians">For Librarians</a></li></ul></div></div>',
            self.theme_template("plugins/generic/webFeed/block.tpl", {})
            or f'<div class="pkp_block block_web_feed{cls}"><h2 class="title">Current Issue</h2><div class="content">'
               f"<ul>{feeds}</ul></div></div>",
        ]
        popular = fur.related(self.context, self.rng, 4)
        if popular and self.rng.random() < 0.5:
            items = "".join(f'<li><a href="{url}/article/view/{self.rng.randint(100, 45000)}">'
                            f"{esc(t)}</a></li>" for t, _ in popular)
            blocks.append(f'<div class="pkp_block block_most_read{cls}"><h2 class="title">Most Read Articles</h2>'
                          f'<div class="content"><ul class="most_read">{items}</ul></div></div>')
        if self.rng.random() < 0.4:
            words = sorted({w for t, _ in fur.related(self.context, self.rng, 6) for w in t.split()
                            if len(w) > 7 and w.isalpha()})[:12]
            if words:
                cloud = " ".join(f'<a href="{url}/search?query={esc(w)}">{esc(w.lower())}</a>' for w in words)
                blocks.append(f'<div class="pkp_block block_keyword_cloud{cls}"><h2 class="title">Keywords</h2>'
                              f'<div class="content">{cloud}</div></div>')
        self.rng.shuffle(blocks)
        return blocks

    def how_to_cite_block(self) -> str | dict[str, Any]:
        """The Citation Style Language plugin's block: an APA citation (furniture, unlabelled), through the
        theme's own template of it where the theme has one."""
        cite = f'<div class="csl-bib-body"><div class="csl-entry">{esc(self.apa_citation())}</div></div>'
        url = self.base_url
        own = self.theme_template(
            "plugins/generic/citationStyleLanguage/citationblock.tpl",
            {
                "citation": cite,
                "citationStyles": [{"id": s.lower(), "title": s} for s in CITATION_STYLES],
                "citationDownloads": [{"id": d.split()[-1].strip("()").lower(), "title": d}
                                      for d in CITATION_DOWNLOADS],
                "citationArgs": {"submissionId": self.article_id},
                "citationArgsJson": {"submissionId": self.article_id, "return": "json"},
            },
        )
        if own:
            return own
        styles = "".join(f'<li><a aria-controls="citationOutput" href="{url}/citationstylelanguage/get/'
                         f'{s.lower()}?submissionId={self.article_id}" data-load-citation>{s}</a></li>'
                         for s in CITATION_STYLES)
        downloads = "".join(f'<li><a href="{url}/citationstylelanguage/download/ris?submissionId='
                            f'{self.article_id}">{d}</a></li>' for d in CITATION_DOWNLOADS)
        return (
            '<div class="item citation"><section class="sub_item citation_display"><h2 class="label">'
            f'How to Cite</h2><div class="value"><div id="citationOutput" role="region" aria-live="polite">{cite}'
            '</div><div class="citation_formats"><button class="citation_formats_button label" '
            'aria-controls="cslCitationFormats" aria-expanded="false" data-csl-dropdown="true">'
            'More Citation Formats</button><div id="cslCitationFormats" class="citation_formats_list" '
            f'aria-hidden="true"><ul class="citation_formats_styles">{styles}</ul><div class="label">'
            f'Download Citation</div><ul class="citation_formats_styles">{downloads}</ul></div></div></div>'
            "</section></div>"
        )

    def apa_citation(self) -> str:
        art = self.article
        names = [a.name if a.is_collab else f"{a.surname}, {_initials(a.given)}".strip(", ") for a in art.authors]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1] if names else ""
        doi = f" https://doi.org/{art.doi}" if art.doi else ""
        return f"{who} ({self.published[:4]}). {art.title}. {self.journal}, {self.volume}({self.issue}).{doi}"

    def similar_articles(self) -> str:
        items = "".join(
            f'<li>{esc(a)}, <a href="{self.base_url}/article/view/{self.rng.randint(100, 45000)}">{esc(t)}</a>, '
            f"{esc(self.journal)}: Vol. {self.rng.randint(1, 40)} No. {self.rng.randint(1, 4)}</li>"
            for t, a in fur.related(self.context, self.rng, 5)
        )
        return (
            f'<div id="articlesBySimilarityList"><h3>Similar Articles</h3><ul>{items}</ul>'
            f'<p id="articlesBySimilaritySearch">You may also <a href="{self.base_url}/search/search?query='
            f'{self.article_id}">start an advanced similarity search</a> for this article.</p></div>'
        )

    def meta_tags(self) -> str:
        """What OJS and its Google Scholar and Dublin Core plugins put in ``<head>``."""
        art = self.article
        tags: list[tuple[str, str]] = [("generator", "Open Journal Systems 3.4.0.8")]
        dc = self.rng.random() < 0.7
        if dc:
            tags += [("DC.Creator.PersonalName", a.name) for a in art.authors]
            tags += [("DC.Date.created", self.published), ("DC.Date.issued", self.published),
                     ("DC.Description", art.abstract_text), ("DC.Format", "application/pdf"),
                     ("DC.Identifier", str(self.article_id))]
            if art.doi:
                tags.append(("DC.Identifier.DOI", art.doi))
            tags += [("DC.Identifier.URI", f"{self.base_url}/article/view/{self.article_id}"),
                     ("DC.Language", "en"), ("DC.Source", self.journal), ("DC.Source.Issue", self.issue),
                     ("DC.Source.Volume", self.volume), ("DC.Title", art.title), ("DC.Type", "Text.Serial.Journal"),
                     ("DC.Type.articleType", self.section_title())]
            tags += [("DC.Subject", k) for k in art.keywords]
        tags += [("citation_journal_title", self.journal), ("citation_journal_abbrev", self.path)]
        for author in art.authors:
            tags.append(("citation_author", author.name))
            tags += [("citation_author_institution", a) for a in self.affiliations_of(author)]
        tags += [("citation_title", art.title), ("citation_language", "en"),
                 ("citation_date", self.published.replace("-", "/")), ("citation_volume", self.volume),
                 ("citation_issue", self.issue)]
        first, _, last = (art.pages or "").partition("–")
        if first:
            tags.append(("citation_firstpage", first))
        if last:
            tags.append(("citation_lastpage", last))
        if art.doi:
            tags.append(("citation_doi", art.doi))
        tags += [("citation_keywords", k) for k in art.keywords]
        tags += [("citation_abstract_html_url", f"{self.base_url}/article/view/{self.article_id}"),
                 ("citation_pdf_url", f"{self.base_url}/article/download/{self.article_id}/1")]
        tags += [("citation_reference", t) for t in self.reference_texts()]
        return "".join(f'<meta name="{k}" content="{esc(v)}"/>\n' for k, v in tags if v)


@functools.lru_cache(maxsize=None)
def _icon(root: Path, name: str) -> str:
    """An icon of pkp-lib's (its Blade file is plain SVG)."""
    path = root / PKP_LIB / "templates" / "frontend" / "icons" / f"{name}.blade"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _fake_orcid(rng: random.Random) -> str:
    digits = "".join(str(rng.randint(0, 9)) for _ in range(15))
    return f"https://orcid.org/0000-{digits[3:7]}-{digits[7:11]}-{digits[11:14]}{rng.choice('0123456789X')}"


def _initials(given: str) -> str:
    return " ".join(f"{p[0]}." for p in given.replace("-", " ").split() if p[:1].isalpha())


#: The four OJS themes, one family each.
OJS_FAMILIES = (
    OjsFamily(OjsTheme("ojs_default", None, keyword_maps=True), "OJS article page, default theme"),
    OjsFamily(OjsTheme("ojs_bootstrap3", "pkp__bootstrap3", keyword_maps=False, escapes_raw_references=False),
              "OJS article page, Bootstrap 3 theme (Bootswatch schemes)"),
    OjsFamily(OjsTheme("ojs_health_sciences", "pkp__healthSciences", keyword_maps=False),
              "OJS article page, Health Sciences theme"),
    OjsFamily(OjsTheme("ojs_immersion", "pkp__immersion", keyword_maps=False, block_class="col-md-3"),
              "OJS article page, Immersion theme"),
)
