"""eLife research-article pages: the eLife pattern library's own Mustache patterns (``04-pages/
article--research``) rendered with chevron, with its SCSS compiled by sassc.

The page's data is the pattern's example data (site header, menus, footer, metrics: the site's
furniture) with the article put in its shape: content header (title, byline, institutions, date,
DOI, subjects), article sections (abstract, the body, "Article and author information" with each
author's affiliations, the reference list through the pattern's own reference atom), jump links,
citation modal, further reading from the corpus. Two layouts the library offers are drawn: the
classic header with its side section, and the aside with tabs and a jump menu. Gold goes through
:class:`~scilabel.corpus.platforms.marks.Marks` (strings and the platform's own containers by id).
"""
from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import random
import re
from pathlib import Path
from typing import Any

from scilabel.corpus.jats import Article, Reference, Section
from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.marks import Marks, attrs_of
from scilabel.corpus.platforms.styles import compile_scss, style_block
from scilabel.corpus.platforms.tools import missing_modules, missing_programs, scratch_dir, with_variant
from scilabel.corpus.templates import furniture as fur
from scilabel.corpus.templates.base import (
    PageContext,
    content,
    esc,
    lab,
    ref_attrs,
    ref_links_attrs,
    section_attrs,
)
from scilabel.corpus.templates.body import BodySpec, heading_text, render_abstract, render_blocks
from scilabel.corpus.templates.citations import Citer, reference_html

FOLDER = "elifesciences__pattern-library"
PATTERNS = Path("source") / "_patterns"
#: The page layouts drawn: the research-article page and its pseudo-pattern with the content aside.
LAYOUTS = {"article--research.json": 1, "article--research~with-content-aside-with-tabs-and-jump-menu.json": 1}
#: Where the pattern library's assets would be served from (images are not in the renderers folder).
ASSETS = "/assets/patterns"
#: Body blocks in the markup of eLife's article sections (figures in its captioned-asset idiom).
BODY = BodySpec(
    section='<section class="article-section" id="{id}"{attrs}>\n{inner}</section>\n',
    headings=(
        '<h2 class="article-section__header_text"{attrs}>{text}</h2>\n',
        '<h3 class="article-section__header_text"{attrs}>{text}</h3>\n',
        '<h4 class="article-section__header_text"{attrs}>{text}</h4>\n',
    ),
    paragraph='<p class="paragraph"{attrs}>{html}</p>\n',
    ulist='<ul class="list list--bullet">\n{items}</ul>\n',
    olist='<ol class="list list--number">\n{items}</ol>\n',
    figure=(
        '<div class="asset-viewer-inline" id="{id}"><div class="asset-viewer-inline__header_panel">'
        '<span class="asset-viewer-inline__header_text">{label}</span></div>'
        '<figure class="captioned-asset"><div class="captioned-asset__image"></div>'
        '<figcaption class="captioned-asset__caption"{attrs}><b>{label}</b> {text}</figcaption></figure></div>\n'
    ),
    table=(
        '<div class="asset-viewer-inline" id="{id}"><figure class="captioned-asset">'
        '<figcaption class="captioned-asset__caption"{attrs}><b>{label}</b> {text}</figcaption>'
        '<div class="table">{grid}</div></figure></div>\n'
    ),
)
SUBJECTS = ("Cell Biology", "Neuroscience", "Epidemiology and Global Health", "Medicine", "Genetics and Genomics",
            "Ecology", "Microbiology and Infectious Disease", "Computational and Systems Biology")


class ElifeArticle(PlatformFamily):
    """eLife research-article page (module docstring)."""

    name = "elife"
    description = "eLife research-article page (pattern-library Mustache patterns), our article as its data"
    folders = (FOLDER,)

    def missing_tools(self) -> str | None:
        return missing_modules("chevron") or missing_programs("sassc")

    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        root = renderers_dir().resolve() / FOLDER
        marks = Marks()
        layout = rng.choices(list(LAYOUTS), weights=list(LAYOUTS.values()))[0]
        data = _page_data(root, layout, article, rng, context, marks)
        body = _mustache(root, _page_template(root), data)
        page = (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(article.title)} | eLife</title>\n{_meta_tags(article, data)}"
            f"{style_block([_css(root)])}</head>\n<body>\n{body}\n</body>\n</html>\n"
        )
        return with_variant(marks.apply(page), "aside" if "~" in layout else "research")


def _mustache(root: Path, template: str, data: dict[str, Any]) -> str:
    """``template`` rendered with ``data``, the library's patterns as its partials."""
    import chevron

    return chevron.render(template, data, partials_dict=_partials(root))


@functools.lru_cache(maxsize=None)
def _partials(root: Path) -> dict[str, str]:
    """Every pattern by its partial name: ``<type>-<name>`` (``02-organisms/**/_site-header.mustache``
    is ``organisms-site-header``)."""
    out = {}
    for path in sorted((root / PATTERNS).rglob("*.mustache")):
        kind = re.sub(r"^\d+-", "", path.relative_to(root / PATTERNS).parts[0])
        out[f"{kind}-{path.stem.lstrip('_')}"] = path.read_text(encoding="utf-8")
    return out


@functools.lru_cache(maxsize=None)
def _page_template(root: Path) -> str:
    return (root / PATTERNS / "04-pages" / "article--research.mustache").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def _example(root: Path, name: str) -> dict[str, Any]:
    """A page's example data; a pseudo-pattern (``page~variant.json``) merged over its page's."""
    data = _titles(json.loads((root / PATTERNS / "04-pages" / name).read_text(encoding="utf-8")))
    if "~" not in name:
        return data
    return _merged(_example(root, name.split("~")[0] + ".json"), data)


def _titles(data: Any) -> Any:
    """``data`` with every string under a ``title`` key a :class:`Title`."""
    if isinstance(data, dict):
        return {k: Title(v) if k == "title" and isinstance(v, str) else _titles(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_titles(v) for v in data]
    return data


def _merged(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _merged(base.get(k), v) for k, v in over.items()}}
    return copy.deepcopy(over)


@functools.lru_cache(maxsize=None)
def _css(root: Path) -> str:
    """The library's ``build.scss``, its glob import of every pattern's SCSS spelt out (the library
    builds with a globbing plugin that sassc lacks)."""
    sass = root / "assets" / "sass"
    entry = scratch_dir("elife-sass") / "build.scss"
    patterns = sorted(p for p in (sass / "patterns").rglob("*.scss") if not p.name.startswith("_"))
    imports = [sass / "base.scss", *patterns, sass / "third-party-hacks.scss"]
    entry.write_text("".join(f'@import "{p}";\n' for p in imports), encoding="utf-8")
    return compile_scss(entry, (sass,))


class Title(str):
    """A string as Mustache reads it inside its own section: ``{{#title}}{{{title}}}{{/title}}`` looks
    ``title`` up in the string, which for chevron is ``str.title`` (a method) and for Mustache is not
    there, so the enclosing scope's ``title`` (the string itself) is printed."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return str(self)


def _date(when: dt.date) -> dict[str, Any]:
    return {"forHuman": {"dayOfMonth": when.day, "month": when.strftime("%b"), "year": when.year},
            "forMachine": when.isoformat()}


def _page_data(root: Path, layout: str, article: Article, rng: random.Random, context: PageContext,
               marks: Marks) -> dict[str, Any]:
    data = copy.deepcopy(_example(root, layout))
    year = int(article.year) if article.year.isdigit() else 2016
    published = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    doi = article.doi or f"10.7554/eLife.{rng.randint(10000, 99999)}"
    citer = Citer(article, "author-year" if rng.random() < 0.7 else "original")
    header = data["contentHeader"]
    header.update(
        title=marks.mark(esc(article.title), attrs_of(lab("title"))),
        titleLong=len(article.title) > 80,
        authors={"list": [{"name": marks.mark(a.name, attrs_of(lab("authors"))), "url": f"#author-{i}",
                           "isCorresponding": a.corresponding} for i, a in enumerate(article.authors, 1)]},
        institutions={"list": [{"name": marks.mark(esc(a.text), attrs_of(lab("affiliations")))}
                               for a in article.affiliations]} if article.affiliations else None,
        meta={"date": _date(published)},
        header={"possible": True, "hasSubjects": True,
                "subjects": [{"name": s, "url": "#"} for s in rng.sample(SUBJECTS, rng.choice((1, 1, 2)))]},
    )
    header.pop("impactStatement", None)
    article_sections = []
    if article.abstract:
        article_sections.append(_abstract_section(article, citer, marks))
    article_sections += _body_sections(article, citer, marks)
    if article.authors and rng.random() < 0.8:
        article_sections.append(_author_information(root, article, rng, marks))
    if article.references:
        article_sections.append(_references_section(root, article, marks))
    article_sections[0]["isFirst"] = True
    jump = [{"name": esc(s["jumpLabel"]), "url": f"#{s['id']}"} for s in article_sections if s["jumpLabel"]]
    data.update(
        doi=doi,
        infoBars=[],
        iframe=None,
        elifeAssessment=None,
        articleSections=article_sections,
        articleMeta={"groups": [{"title": "Keywords",
                                 "items": [{"url": "#", "name": esc(k)} for k in article.keywords]}]}
        if article.keywords else None,
        modalWindowCitation={**data["modalWindowCitation"], "body": _citation(root, article, doi, published)},
        furtherReading=_further_reading(data.get("furtherReading"), context, rng),
        related=None,
        year=published.year,
    )
    if data.get("contentAside"):
        data["contentAside"] = _aside(data["contentAside"], published, rng)
    if data.get("viewSelector"):
        data["viewSelector"]["jumpLinks"] = {"links": jump}
    if data.get("jumpMenu"):
        data["jumpMenu"] = {"items": jump}
    return data


def _aside(example: dict[str, Any], published: dt.date, rng: random.Random) -> dict[str, Any]:
    """The content aside: the example's buttons, this article's version history and metrics."""
    steps, when = [], published
    for term in ("Version of Record", "Accepted Manuscript", "Received"):
        steps.append({"term": term, "descriptors": [f'<time datetime="{when.isoformat()}">{when:%B %-d, %Y}</time>']})
        when -= dt.timedelta(days=rng.randint(20, 120))
    steps[0].update(color="vor", isActive=True)
    views = rng.randint(300, 60000)
    counts = (f'<a href="#"><span class="contextual-data__counter">{views:,}</span> views</a>',
              f'<span class="contextual-data__counter">{rng.randint(20, views // 5):,}</span> downloads',
              f'<span class="contextual-data__counter">{rng.randint(0, 300)}</span> citations')
    return {**{k: v for k, v in example.items() if k != "previousVersion"},
            "timeline": {**example["timeline"], "items": steps},
            "metrics": {"metricsData": {"data": [{"text": c} for c in counts]}}}


def _abstract_section(article: Article, citer: Citer, marks: Marks) -> dict[str, Any]:
    gold = lab("abstract")
    body = render_abstract(article, citer, paragraph=f'<p class="paragraph"{gold}{{attrs}}>{{html}}</p>\n',
                           part_title=f'<h3 class="article-section__header_text"{gold}{{attrs}}>{{text}}</h3>\n')
    return {"id": "abstract", "title": Title(marks.mark("Abstract", attrs_of(lab("abstract_heading")))),
            "jumpLabel": "Abstract", "headingLevel": 2, "hasBehaviour": True, "body": body, "doi": False}


def _body_sections(article: Article, citer: Citer, marks: Marks) -> list[dict[str, Any]]:
    """Each top-level section as an article section (its subsections in the body, in eLife's markup);
    the template's own ``<section>`` carries the gold of a level-1 section. ``jumpLabel`` (ours, not
    the pattern's) is the plain title the jump links repeat, unlabelled."""
    out = []
    for i, sec in enumerate(article.sections, 1):
        sid = f"s{i}"
        head = heading_text(sec, show_labels=False)
        body = render_blocks(sec.paragraphs, citer, BODY) + _subsections(sec.subsections, citer, 2, sid)
        marks.mark_element(sid, attrs_of(section_attrs(1)))
        title = Title(marks.mark(esc(head), attrs_of(content("heading")))) if head else None
        out.append({"id": sid, "title": title, "jumpLabel": head, "headingLevel": 2, "hasBehaviour": True,
                    "isInitiallyClosed": i > 1, "body": body, "doi": False})
    return out


def _subsections(sections: list[Section], citer: Citer, level: int, prefix: str) -> str:
    out = []
    for i, sec in enumerate(sections, 1):
        sid = f"{prefix}-{i}"
        head = heading_text(sec, show_labels=False)
        inner = BODY.headings[min(level, 3) - 1].format(attrs=content("heading"), text=esc(head)) if head else ""
        inner += render_blocks(sec.paragraphs, citer, BODY) + _subsections(sec.subsections, citer, level + 1, sid)
        out.append(BODY.section.format(id=sid, attrs=section_attrs(level), inner=inner))
    return "".join(out)


CONTRIBUTIONS = ("Conceptualization", "Data curation", "Formal analysis", "Investigation", "Methodology",
                 "Writing - original draft", "Writing - review and editing", "Supervision", "Funding acquisition")


def _author_information(root: Path, article: Article, rng: random.Random, marks: Marks) -> dict[str, Any]:
    """"Article and author information" through the library's authors-details pattern: each author's
    name (the byline's, not gold a second time), affiliations (gold wherever they are shown), and
    contribution and competing interests (furniture)."""
    affs = {a.aff_id: a.text for a in article.affiliations}
    linked = any(a.aff_ids for a in article.authors)
    details = []
    for i, author in enumerate(article.authors, 1):
        own = [affs[x] for x in dict.fromkeys(author.aff_ids) if x in affs] if linked else list(affs.values())
        rows: list[dict[str, Any]] = []
        if own:
            rows.append({"values": [marks.mark(esc(t), attrs_of(lab("affiliations"))) for t in own]})
        rows.append({"heading": "Contribution", "value": ", ".join(rng.sample(CONTRIBUTIONS, rng.randint(1, 4)))})
        if author.corresponding and author.email:
            rows.append({"heading": "For correspondence",
                         "values": [f'<a href="mailto:{esc(author.email)}">{esc(author.email)}</a>']})
        rows.append({"heading": "Competing interests", "value": "No competing interests declared"})
        details.append({"name": esc(author.name), "authorId": f"author-{i}", "details": rows})
    body = _mustache(root, _partials(root)["molecules-authors-details"], {"authorDetails": details})
    return {"id": "info", "title": Title("Article and author information"),
            "jumpLabel": "Article and author information", "headingLevel": 2,
            "hasBehaviour": True, "isInitiallyClosed": True, "body": body, "doi": False}


def _reference_data(ref: Reference, number: int) -> dict[str, Any]:
    """A reference in the shape of the library's reference atom (fields when JATS tags them)."""
    f = ref.fields
    if not (f.title and f.authors):  # untagged or unusual: the entry's text as its title line
        return {"bibId": f"ref-{number}", "title": reference_html(ref, "vancouver"), "hasAuthors": False}
    names = [{"name": esc(f"{n.family} {''.join(p[0] for p in n.given.split() if p[:1].isalpha())}".strip())}
             for n in f.authors]
    if f.etal:
        names.append({"name": "et al"})
    origin = " ".join(x for x in (f"<i>{esc(f.source)}</i>" if f.source else "",
                                  f"<b>{esc(f.volume)}</b>" + (f":{esc(f.pages)}" if f.pages else "")
                                  if f.volume else esc(f.pages)) if x)
    data: dict[str, Any] = {"bibId": f"ref-{number}", "title": esc(f.title), "origin": origin + "." if origin else "",
                            "hasAuthors": True,
                            "authorLists": [{"authors": names, "suffix": f"({f.year})" if f.year else ""}]}
    if f.doi:
        data["doi"] = {"doi": esc(f.doi)}
    return data


def _references_section(root: Path, article: Article, marks: Marks) -> dict[str, Any]:
    """The reference list through the library's reference-list molecule; each entry's ``div.reference``
    is gold, its look-up links ("PubMed", "Google Scholar") are not part of it."""
    links = ref_links_attrs()
    references = []
    for i, ref in enumerate(article.references, 1):
        item = _reference_data(ref, i)
        item["hasAbstracts"] = True
        item["abstracts"] = [{"name": f"<span{links}>{name}</span>", "url": url} for name, url in (
            ("PubMed", f"https://pubmed.ncbi.nlm.nih.gov/{ref.fields.pmid}" if ref.fields.pmid else ""),
            ("Google Scholar", "https://scholar.google.com/scholar_lookup")) if url]
        references.append(item)
        marks.mark_element(f"ref-{i}", attrs_of(ref_attrs(ref)))
    body = _mustache(root, _partials(root)["molecules-reference-list"], {"references": references})
    return {"id": "references", "title": Title(marks.mark("References", attrs_of(lab("references_heading")))),
            "jumpLabel": "References", "headingLevel": 2, "hasBehaviour": True, "isInitiallyClosed": True,
            "body": body, "doi": False}


def _citation(root: Path, article: Article, doi: str, published: dt.date) -> str:
    """The "Cite this article" modal: the article as a reference (furniture, unlabelled)."""
    names = [{"name": esc(a.name)} for a in article.authors]
    data = {"title": esc(article.title), "hasAuthors": bool(names),
            "authorLists": [{"authors": names, "suffix": f"({published.year})"}],
            "origin": f"eLife <b>{esc(article.volume or str(published.year - 2011))}</b>:e{doi.rsplit('.', 1)[-1]}.",
            "doi": {"doi": esc(doi)}}
    return _mustache(root, _partials(root)["atoms-reference"], data)


def _further_reading(example: dict[str, Any] | None, context: PageContext, rng: random.Random) -> dict | None:
    related = fur.related(context, rng, 4)
    if not example or not related:
        return None
    items = [{"isRelated": False, "item": {"title": esc(t), "authorLine": esc(a), "hasSubjects": True,
                                           "subjects": [{"name": rng.choice(SUBJECTS), "url": "#"}],
                                           "meta": {"url": "#", "text": "Research Article"}}}
             for t, a in related]
    return {**example, "items": items}


def _meta_tags(article: Article, data: dict[str, Any]) -> str:
    """Highwire-style citation tags and Dublin Core, as eLife's article pages carry them."""
    tags = [("citation_title", article.title), ("citation_publisher", "eLife Sciences Publications Limited"),
            ("citation_journal_title", "eLife"), ("citation_doi", data["doi"]),
            ("citation_publication_date", data["contentHeader"]["meta"]["date"]["forMachine"].replace("-", "/"))]
    tags += [("citation_author", a.name) for a in article.authors]
    tags += [("citation_keywords", k) for k in article.keywords]
    tags += [("dc.title", article.title), ("dc.identifier", f"doi:{data['doi']}")]
    return "".join(f'<meta name="{k}" content="{esc(v)}">\n' for k, v in tags)
