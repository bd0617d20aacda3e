"""The page-family interface and helpers every family shares.

Gold annotations are ``data-scilabel*`` attributes (see ``design.md``); the helpers here are the
only place that spells them, so every family annotates the same way.
"""

from __future__ import annotations

import html
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from scilabel.corpus.jats import Affiliation, Article, Author, Reference

T = TypeVar("T")


# ---------------------------------------------------------------------------- interface


@dataclass(frozen=True)
class RelatedItem:
    """Another corpus article, shown as page furniture ("Related articles")."""

    title: str
    authors: str
    journal: str = ""
    year: str = ""


@dataclass(frozen=True)
class PageContext:
    """What a page may show about the rest of the corpus."""

    related: tuple[RelatedItem, ...] = ()


class Family(ABC):
    """A page-template family: one way publishers build article pages."""

    name: ClassVar[str]
    description: ClassVar[str]

    @abstractmethod
    def render(self, article: Article, rng: random.Random, context: PageContext) -> str:
        """A complete, self-contained HTML document for ``article``."""


# ---------------------------------------------------------------------------- escaping + gold


def esc(text: str) -> str:
    """HTML-escape text for element content and attribute values."""
    return html.escape(text, quote=True)


def lab(label: str) -> str:
    """Attribute string marking an element as one zone label."""
    return f' data-scilabel="{label}"'


def content(struct: str | None = None) -> str:
    """Attribute string for article content, with its structure role if any."""
    return ' data-scilabel-content="1"' + (f' data-scilabel-struct="{struct}"' if struct else "")


#: Attribute of an element whose text continues the annotated element before it (a paragraph's text
#: after a block that HTML parsing closed the paragraph at).
CONTINUES = "data-scilabel-continues"


def section_attrs(level: int) -> str:
    return f' data-scilabel-struct="section" data-scilabel-level="{min(level, 3)}"'


def ref_attrs(ref: Reference) -> str:
    return f'{lab("references")} data-scilabel-ref="{esc(ref.ref_id)}"'


def ref_links_attrs() -> str:
    """Attribute string for a reference's look-up links ("View article", "PubMed", "Google Scholar")
    set on a line of their own: the zone belongs to the reference list, as real pages' gold keeps such
    lines, but to no entry (they are no part of the reference's text)."""
    return f'{lab("references")} data-scilabel-ref=""'


def cite_attrs(ref_ids: Sequence[str]) -> str:
    return f' data-scilabel-cite="{esc(" ".join(ref_ids))}"'


#: Rules every family's style sheet carries: reference fields and stacked look-up links
#: (:func:`~scilabel.corpus.templates.citations.reference_html`, ``reference_links``) run inline.
BASE_CSS = ".cit-field, .ref-link { display: inline; }"


def page(
    title: str,
    css: str,
    body: str,
    *,
    variant: str = "standard",
    lang: str = "en",
    head_extra: str = "",
    body_attrs: str = "",
) -> str:
    """Wrap a body in a complete HTML5 document with inline CSS only."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}" data-scilabel-variant="{variant}">\n<head>\n'
        '<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n{head_extra}<style>\n{css.strip()}\n{BASE_CSS}\n</style>\n</head>\n"
        f"<body{body_attrs}>\n{body}\n</body>\n</html>\n"
    )


# ---------------------------------------------------------------------------- seeded variants


def pick(rng: random.Random, weights: Mapping[T, float]) -> T:
    """One key of ``weights``, drawn with those weights (in the mapping's order)."""
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


ABSTRACT_HEADINGS: dict[str | None, float] = {
    "Abstract": 6,
    "ABSTRACT": 2,
    "Summary": 1,
    "Synopsis": 1,
    None: 2,
}
REFERENCE_HEADINGS: dict[str | None, float] = {
    "References": 6,
    "REFERENCES": 1,
    "Literature Cited": 1,
    "Bibliography": 1,
    "Notes and References": 1,
    "References and Notes": 1,
    None: 1,
}
CITE_STYLES: dict[str, float] = {"numbered": 3, "superscript": 2, "author-year": 2, "original": 3}
REF_STYLES: dict[str, float] = {"vancouver": 2, "apa": 2, "nature": 2, "acs": 1, "harvard": 1}
REF_LINKS: dict[str, float] = {"none": 3, "inline": 1, "block": 1, "stacked": 1}
#: How a reference entry is set out: one run of text; field by field in elements the style sheet sets
#: inline (one line each where it is missing, as offline); authors, title and source in lines of their own.
REF_LAYOUTS: dict[str, float] = {"run": 11, "fields": 5, "lines": 4}


@dataclass(frozen=True)
class PageOptions:
    """Per-page choices shared by all families; drawn in a fixed order from the page's rng."""

    abstract_heading: str | None
    references_heading: str | None
    cite_style: str
    ref_style: str
    ref_links: str
    show_affiliations: bool
    show_keywords: bool
    show_cite_box: bool
    show_correspondence: bool
    show_article_type: bool
    show_author_notes: bool
    #: how reference entries are set out, a key of :data:`REF_LAYOUTS` ("fields" not in families that
    #: hold a reference in a <p>, which the fields' block elements would close)
    ref_layout: str

    @classmethod
    def draw(
        cls,
        rng: random.Random,
        *,
        abstract_headings: Mapping | None = None,
        reference_headings: Mapping | None = None,
        cite_styles: Mapping | None = None,
        ref_styles: Mapping | None = None,
        ref_links: Mapping | None = None,
        p_affiliations: float = 0.92,
        p_keywords: float = 0.5,
        p_cite_box: float = 0.3,
        p_correspondence: float = 0.5,
        p_article_type: float = 0.6,
        p_author_notes: float = 0.3,
        ref_layouts: Mapping | None = None,
    ) -> PageOptions:
        return cls(
            abstract_heading=pick(rng, abstract_headings or ABSTRACT_HEADINGS),
            references_heading=pick(rng, reference_headings or REFERENCE_HEADINGS),
            cite_style=pick(rng, cite_styles or CITE_STYLES),
            ref_style=pick(rng, ref_styles or REF_STYLES),
            ref_links=pick(rng, ref_links or REF_LINKS),
            show_affiliations=chance(rng, p_affiliations),
            show_keywords=chance(rng, p_keywords),
            show_cite_box=chance(rng, p_cite_box),
            show_correspondence=chance(rng, p_correspondence),
            show_article_type=chance(rng, p_article_type),
            show_author_notes=chance(rng, p_author_notes),
            ref_layout=pick(rng, ref_layouts or REF_LAYOUTS),
        )


# ---------------------------------------------------------------------------- front matter


SYMBOLS = ("*", "†", "‡", "§", "¶", "#", "**", "††", "‡‡", "§§")


def aff_markers(affs: Sequence[Affiliation], style: str) -> dict[str, str]:
    """Marker per affiliation id: ``number`` 1 2 3, ``letter`` a b c, ``symbol`` † ‡, ``jats`` as given."""
    out: dict[str, str] = {}
    for i, aff in enumerate(affs):
        if style == "letter":
            out[aff.aff_id] = _letters(i)
        elif style == "symbol":
            out[aff.aff_id] = SYMBOLS[1:][i % (len(SYMBOLS) - 1)] * (1 + i // (len(SYMBOLS) - 1))
        elif style == "jats" and aff.label:
            out[aff.aff_id] = aff.label
        else:
            out[aff.aff_id] = str(i + 1)
    return out


def _letters(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


def author_marks(author: Author, markers: Mapping[str, str]) -> list[str]:
    """The affiliation markers one author carries, in affiliation order."""
    return [markers[a] for a in author.aff_ids if a in markers]


def needs_markers(article: Article) -> bool:
    """Markers are shown when there are several affiliations and authors point at them."""
    return len(article.affiliations) > 1 and any(a.aff_ids for a in article.authors)


def join_names(names: Sequence[str], conj: str = "and", serial: bool = False) -> str:
    """``A, B and C`` (``serial`` adds the Oxford comma)."""
    if len(names) <= 1:
        return "".join(names)
    sep = "," if serial and len(names) > 2 else ""
    return ", ".join(names[:-1]) + f"{sep} {conj} " + names[-1]


def correspondence_lines(article: Article) -> list[str]:
    """Correspondence text from JATS, or built from the corresponding authors' e-mails."""
    if article.correspondence:
        return article.correspondence
    return [f"{a.name}: {a.email}" for a in article.authors if a.corresponding and a.email]


def short_authors(article: Article, limit: int = 3) -> str:
    """``Smith J, Jones K, et al.`` style byline for citation boxes and furniture."""
    names = [a.name if a.is_collab else f"{a.surname} {_initials(a.given)}".strip() for a in article.authors]
    if len(names) > limit:
        return ", ".join(names[:limit]) + ", et al."
    return ", ".join(names)


def _initials(given: str) -> str:
    return "".join(p[0] for p in given.replace("-", " ").split() if p[:1].isalpha())


def author_entries(article: Article, markers: Mapping[str, str], corr: str = "*") -> list[tuple[str, list[str]]]:
    """(name, markers) per author; corresponding authors also carry ``corr``."""
    return [
        (a.name, author_marks(a, markers) + ([corr] if a.corresponding and corr else [])) for a in article.authors
    ]


def inline_authors(
    article: Article,
    markers: Mapping[str, str],
    *,
    mark: str = "<sup>{}</sup>",
    name: str = "{}",
    sep: str = ", ",
    last: str = " and ",
    corr: str = "*",
) -> str:
    """Author line HTML: ``A Smith<sup>1,2</sup>, B Jones<sup>2</sup> and C Brown<sup>1</sup>``."""
    parts = []
    for who, marks in author_entries(article, markers, corr):
        parts.append(name.format(esc(who)) + (mark.format(esc(",".join(marks))) if marks else ""))
    if len(parts) > 1 and last:
        return sep.join(parts[:-1]) + last + parts[-1]
    return sep.join(parts)
