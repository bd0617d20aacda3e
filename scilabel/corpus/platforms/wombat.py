"""PLOS Wombat article page: the article body through Wombat's ``article-transform.xsl`` (XSLT 2.0,
saxonche) inside its FreeMarker page templates (Java FreeMarker in a subprocess), with its style sheet
compiled from the desktop theme's SCSS (sassc).

The page: site header and search, then the title block (article type, title, author list whose names
open tool tips with roles, affiliations and correspondence, publication date, DOI), the article tabs,
the body as the transform writes it (abstract, citation and editorial notes, sections, figures,
acknowledgements, author contributions, the numbered reference list with "View Article / PubMed / Google
Scholar" links under each entry) and a sidebar (download, print, share, related articles from the
corpus, subject areas); ``citation_*``, Dublin Core and Open Graph meta tags fill the head.

As in Wombat, the title and the author list come from the article's metadata (here the parsed article)
and the body from the JATS. A PLOS journal's style (``journalStyle``) is a seeded variant. What Wombat's
Java code provides to the templates (site links, configuration, script and style sheet links) is stood
in for by ``wombat_ftl/article/page.ftl``; ``wombat_ftl/RenderFtl.java`` runs FreeMarker.
"""
from __future__ import annotations

import atexit
import html
import importlib.util
import json
import random
import re
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

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
    mark_ref_links,
    mark_references,
    mark_run,
    mark_section,
    parse_html,
    shown_text,
    words,
)
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import PageContext

FOLDER = "PLOS__wombat"
THEMES = "src/main/webapp/WEB-INF/themes"
FREEMARKER = Path("/usr/share/java/freemarker.jar")
STAND_INS = Path(__file__).with_name("wombat_ftl")
#: Journal styles of the desktop theme (``journals/_*.scss``); "generic" is Wombat's own.
JOURNAL_STYLES = ("generic", "plosone", "plosbiology", "plosmedicine", "ploscompbiol", "plosgenetics",
                  "plospathogens", "plosntd")
_PAGE_END = "\f\n"


class PlosWombat(PlatformFamily):
    name = "plos_wombat"
    description = "PLOS Wombat article page (article-transform.xsl through saxonche in its FreeMarker templates)"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        if importlib.util.find_spec("saxonche") is None:
            return "the Python package saxonche is not installed (pip install 'scilabel[corpus]')"
        for tool, package in (("java", "default-jdk-headless"), ("javac", "default-jdk-headless"),
                              ("sassc", "sassc")):
            if shutil.which(tool) is None:
                return f"{tool} is not installed (Debian package {package})"
        if not FREEMARKER.is_file():
            return f"FreeMarker is not installed ({FREEMARKER}: Debian package libfreemarker-java)"
        return None

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        themes = renderers_dir() / FOLDER / THEMES
        style = rng.choice(JOURNAL_STYLES)
        body = _transform(themes, load_jats(article.source))
        page_html = _freemarker(themes).render(_model(article, rng, context, body, style))
        if "<!-- RenderFtl error" in page_html:
            raise PageDropped(f"the FreeMarker templates failed: {page_html[page_html.index('RenderFtl'):][:200]}")
        page = parse_html(page_html)
        gold(page, article)
        return finish(page, _screen_css(themes), style)


# ---------------------------------------------------------------------------- the body (XSLT 2.0)


@lru_cache(maxsize=None)
def _executable(themes: Path):
    """The desktop ``article-transform.xsl`` compiled once per process; it imports ``jpub3-html.xsl``
    of the root theme, which Saxon finds from the root theme's folder."""
    from saxonche import PySaxonProcessor

    processor = PySaxonProcessor(license=False)
    compiler = processor.new_xslt30_processor()
    compiler.set_cwd(str(themes / "root" / "xform") + "/")
    stylesheet = (themes / "desktop" / "xform" / "article-transform.xsl").read_text(encoding="utf-8")
    return processor, compiler.compile_stylesheet(stylesheet_text=stylesheet)


#: Namespaces JATS files use; some leave their declaration out, which Saxon's parser refuses.
NAMESPACES = {"xlink": "http://www.w3.org/1999/xlink", "mml": "http://www.w3.org/1998/Math/MathML",
              "oasis": "http://www.niso.org/standards/z39-96/ns/oasis-exchange/table"}
#: Named character references of a DTD that is not loaded ("&copy;"), which Saxon's parser refuses.
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}


def _transform(themes: Path, doc: etree._ElementTree) -> str:
    from saxonche import PySaxonApiError

    processor, executable = _executable(themes)
    xml = etree.tostring(doc.getroot(), encoding="unicode")
    undeclared = "".join(f' xmlns:{p}="{uri}"' for p, uri in NAMESPACES.items()
                         if f"{p}:" in xml and p not in doc.getroot().nsmap)
    xml = xml.replace(f"<{doc.getroot().tag}", f"<{doc.getroot().tag}{undeclared}", 1)
    xml = _ENTITY.sub(lambda m: m.group(0) if m.group(1) in _XML_ENTITIES
                      else html.escape(html.unescape(m.group(0)), quote=False), xml)
    try:
        node = processor.parse_xml(xml_text=xml)
        return executable.transform_to_string(xdm_node=node) or ""
    except PySaxonApiError as exc:
        raise PageDropped(f"article-transform.xsl failed on the article: {exc}") from exc


# ---------------------------------------------------------------------------- the chrome (FreeMarker)


class _FreeMarker:
    """One Java process rendering Wombat's templates, a data model per line in, a page out."""

    def __init__(self, themes: Path) -> None:
        self.classes = tempfile.mkdtemp(prefix="scilabel-ftl-")
        subprocess.run(["javac", "-cp", str(FREEMARKER), "-d", self.classes, str(STAND_INS / "RenderFtl.java")],
                       check=True, capture_output=True)
        # theme inheritance: the stand-ins (a journal sub-theme), desktop, root
        dirs = [STAND_INS, themes / "desktop" / "ftl", themes / "root" / "ftl"]
        self.process = subprocess.Popen(
            ["java", "-cp", f"{FREEMARKER}:{self.classes}", "RenderFtl", "article/page.ftl", *map(str, dirs)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
        )
        atexit.register(self.close)

    def render(self, model: dict) -> str:
        self.process.stdin.write(json.dumps(model, ensure_ascii=True) + "\n")
        self.process.stdin.flush()
        lines = []
        for line in self.process.stdout:
            if line == _PAGE_END:
                return "".join(lines)
            lines.append(line)
        raise RuntimeError("the FreeMarker process ended")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        shutil.rmtree(self.classes, ignore_errors=True)


@lru_cache(maxsize=None)
def _freemarker(themes: Path) -> _FreeMarker:
    return _FreeMarker(themes)


@lru_cache(maxsize=None)
def _screen_css(themes: Path) -> str:
    """The desktop theme's ``screen.scss`` compiled with its vendored Foundation and Compass."""
    sass = themes / "desktop" / "sass"
    done = subprocess.run(["sassc", "-t", "compressed", "-I", str(sass / "vendor"),
                           "-I", str(sass / "vendor" / "compass" / "stylesheets"), str(sass / "screen.scss")],
                          check=True, capture_output=True, text=True)
    return done.stdout


def _model(article: Article, rng: random.Random, context: PageContext, body: str, style: str) -> dict:
    """The data model Wombat's article controller gives the templates."""
    affs = {a.aff_id: a.text for a in article.affiliations}
    authors = [
        {
            "fullName": a.name, "affiliations": [affs[i] for i in a.aff_ids if i in affs],
            "equalContrib": False, "deceased": False, "roles": [], "customFootnotes": [], "currentAddresses": [],
            **({"corresponding": f"* E-mail: {a.email}"} if a.corresponding and a.email else {}),
        }
        for a in article.authors
    ]
    references = [
        {"title": r.fields.title, "journal": r.fields.source, "volume": r.fields.volume, "issue": r.fields.issue,
         "authors": [{"fullName": f"{n.given} {n.family}".strip()} for n in r.fields.authors]}
        if r.fields.title else {"unStructuredReference": r.text}
        for r in article.references
    ]
    year = article.year if article.year.isdigit() else "2020"
    journal = fur.journal_name(article, rng)
    related = [{"title": html.escape(title), "doi": "", "journal": {"journalKey": ""}}
               for title, _ in fur.related(context, rng, 5)]
    return {
        "article": {
            "title": html.escape(article.title), "doi": article.doi, "articleType": article.article_type,
            "publicationDate": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "journal": {"title": journal, "journalKey": style}, "eLocationId": article.pages,
            "volume": article.volume, "issue": article.issue,
            "abstractText": html.escape(article.abstract_text),
        },
        "articleType": {"name": article.article_type or "Research Article"},
        "authors": authors, "equalContributors": [], "articleText": body, "references": references,
        "categoryTerms": article.keywords, "revisionMenu": {"revisions": []},
        "relatedArticlesByType": {"related": related} if related else {},
        "journalStyle": style, "config": {"journal.journalKey": style},
    }


# ---------------------------------------------------------------------------- gold


def gold(page: etree._Element, article: Article) -> None:
    """Mark the page's components (module docstring) after checking them against ``article``."""
    mark(check("title", by_id(page, "artTitle"), article.title, slack=0), "title")
    names = page.xpath(f"//ul[@id='author-list']/li/*[{has_class('author-name')}]")
    mark_authors(names, article.authors, page, slack=2)
    affs = {a.aff_id: a.text for a in article.affiliations}
    for i, author in enumerate(article.authors):
        shown = [affs[a] for a in author.aff_ids if a in affs]
        el = by_id(page, f"authAffiliations-{i}")
        if shown:
            mark(check(f"affiliations of {author.name}", el, " ".join(shown), slack=1), "affiliations")
    text = page.xpath("//*[@id='artText']")
    if not text:
        raise PageDropped("article text: not on the page")
    if article.abstract:
        _abstract(text[0], article)
    entries = []
    for r in article.references:
        anchor = by_id(text[0], r.ref_id)
        entry = None if anchor is None else next(anchor.iterancestors("li"), None)
        entries.append((entry, r))
        for links in [] if entry is None else entry.xpath(f"ul[{has_class('reflinks')}]"):
            mark_ref_links(links)
    mark_references(entries, article, slack=6)
    for heading in text[0].xpath(f".//ol[{has_class('references')}]/preceding-sibling::h2[1]"):
        mark(heading, "references_heading")
    mark_citations(text[0], article)
    for sec in text[0].xpath(f".//div[{has_class('section')} and not(ancestor::div[{has_class('abstract')}])]"):
        mark_section(sec, len(sec.xpath(f"ancestor::div[{has_class('section')}]")) + 1)
        figure = f".//div[{has_class('figure')} or {has_class('supplementary-material')}]"
        mark_blocks(sec, heading="h2 | h3 | h4 | h5 | h6", paragraph="p | blockquote/p", item="ul/li | ol/li",
                    caption=f"{figure}/*[{has_class('figcaption')} or self::p[not(@class)] or {has_class('siTitle')}"
                            f" or {has_class('caption_object')} or {has_class('preSiDOI')} or {has_class('postSiDOI')}]")
    mark_loose_text(text[0], article)


def _abstract(text: etree._Element, article: Article) -> None:
    """The main abstract's parts after its heading, in the first abstract block that shows it (an
    author summary is a block of its own)."""
    expected = article.abstract_text
    for box in text.xpath(f".//div[{has_class('abstract')}]"):
        heading = box.xpath("h2")
        parts = [el for el in box if isinstance(el.tag, str) and el.tag not in ("a", "h2") and shown_text(el)]
        run = mark_run(parts, expected, "abstract", slack=2 + len(words(expected)) // 20)
        if run:
            for el in run:
                mark_content(el)
            for h in heading[:1]:
                mark(h, "abstract_heading")
            return
    raise PageDropped("abstract: no abstract block shows the article's main abstract")
