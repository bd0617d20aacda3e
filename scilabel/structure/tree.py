"""The article as a tree: front matter, nested sections of paragraphs, items, figures and
footnotes, and references.

Heading levels come from section numbers where a page numbers its headings ("2.1.3" is level 3,
"IV." level 1, "B." one below a Roman numeral), else from the block model's level model
(:mod:`.levels`), which reads how each heading is set against the headings before it; on a numbered
page it places the unnumbered headings among the numbered ones.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Union

import numpy as np
import pandas as pd

from ..lexicons import alternation
from ..fields import affiliation_texts, field_text, split_author_names, strip_caption
from .blocks import CAPTION, FOOTNOTE_MARKER, ITEM_MARKER, Block, SENTENCE_END, group_blocks, heading_number
from .classify import classified, default_block_model
from .features import heading_features
from .levels import LevelModel
from .model import BlockModel
from ..sentences import split_sentences

_ROMAN = re.compile(r"^[IVXLC]+$")
#: Section titles that are the abstract when the labeller found none (the lexicon ``abstract_headings``).
ABSTRACT_TITLE = re.compile(rf"^{alternation('abstract_headings')}\W*$", re.I)
#: The bibliography's heading ("References", "Literature cited"): the lexicon ``references_headings``.
REFERENCES_TITLE = re.compile(rf"^\W*{alternation('references_headings')}\W*$", re.I)
#: The title of a site's own section among the article's ("More for You", "Career Center"): the lexicon
#: ``site_sections``; such a section is furniture, never part of the article.
SITE_SECTION_TITLE = re.compile(rf"^\W*{alternation('site_sections')}\W*$", re.I)
#: Share of a page's headings that must carry numbers for numbering to set the levels.
NUMBERED_SHARE = 1 / 3
#: Shortest sentence matched inside a longer citing context.
CITING_CHARS = 20
#: Abstract zones this short (words) without a sentence end title the abstract part they open.
ABSTRACT_TITLE_WORDS = 6


@dataclass
class Sentence:
    """One sentence of running text."""

    text: str
    cites: list[str] = field(default_factory=list)  #: ids of the references the sentence cites


@dataclass
class Paragraph:
    """A paragraph of running text, as sentences."""

    sentences: list[Sentence]
    rows: list[int] = field(default_factory=list)  #: zone rows the paragraph was read from

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


@dataclass
class Item(Paragraph):
    """A list item; ``marker`` is the bullet or number written before it, if any."""

    marker: str | None = None


@dataclass
class Figure:
    """A figure or table caption: ``kind`` figure, table, scheme ..., ``label`` "Figure 3"."""

    kind: str
    label: str
    caption: str
    rows: list[int] = field(default_factory=list)


@dataclass
class Footnote:
    """A note; ``marker`` is the symbol or number written before it, if any."""

    text: str
    marker: str | None = None
    rows: list[int] = field(default_factory=list)


BodyBlock = Union[Paragraph, Item, Figure, Footnote]


@dataclass
class Section:
    """A section: optional number and title, its blocks, then its subsections."""

    title: str | None
    number: str | None = None
    level: int = 1  #: level in the article (1 = top): its depth, or deeper where its number says so (:func:`nest`)
    blocks: list[BodyBlock] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  #: zone rows of the heading

    def walk(self) -> Iterator[Section]:
        """This section and all its subsections, depth first."""
        yield self
        for sub in self.sections:
            yield from sub.walk()


@dataclass
class Article:
    """One article: front matter, body sections, footnotes and references (parsed dicts with ``id``)."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    affiliations: list[str] = field(default_factory=list)
    abstract: list[Section] = field(default_factory=list)  #: one untitled part, or titled parts
    sections: list[Section] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    references: list[dict] = field(default_factory=list)
    source: str | None = None  #: the page as given (a path or URL)
    metadata: dict | None = None  #: what the page declares about itself (``PageMeta.record()``), if read

    def walk(self) -> Iterator[Section]:
        """Every body section, depth first."""
        for sec in self.sections:
            yield from sec.walk()


# ---------------------------------------------------------------------------- headings


def _number_kind(number: str) -> str:
    if "." in number or number.isdigit():
        return "arabic"
    return "roman" if _ROMAN.match(number) and (len(number) > 1 or number == "I") else "letter"


def heading_levels(headings: list[Block], features: pd.DataFrame | None = None,
                   model: LevelModel | None = None) -> list[tuple[str | None, str, int]]:
    """(number, title, level) of each heading of a page, in order.

    A page counts as numbered when at least ``NUMBERED_SHARE`` of its headings (and two) carry
    numbers. Dotted numbers are as deep as their parts; undotted ones take the rank of their
    kind (Roman, letter, Arabic) in order of first appearance ("I." > "A." > "1."). The other
    headings' levels are the level ``model``'s, from the headings' ``features``
    (:func:`~.features.heading_features`), the numbered ones kept; without a model they are 1."""
    parsed = [heading_number(b.text) for b in headings]
    n_numbered = sum(1 for n, _ in parsed if n)
    if n_numbered < 2 or n_numbered < NUMBERED_SHARE * len(headings):
        parsed = [(None, b.text.strip()) for b in headings]
    kinds: list[str] = []
    for number, _ in parsed:
        if number and "." not in number and _number_kind(number) not in kinds:
            kinds.append(_number_kind(number))

    def depth(number: str) -> int:
        return number.count(".") + 1 if "." in number else kinds.index(_number_kind(number)) + 1

    forced = [depth(number) if number else None for number, _ in parsed]
    levels = model.predict(features, forced) if model is not None else [level or 1 for level in forced]
    return [(number, title, level) for (number, title), level in zip(parsed, levels)]


def nest(entries: list[tuple[Section, int]]) -> list[Section]:
    """Nest sections by their heading level. A section's ``level`` is its depth in the tree, but a
    numbered section keeps the level its number gives when that is deeper: "2.1" under a "2" that
    was not found as a heading is still level 2 (its depth alone would make it, and every
    subsection under it, one level too high)."""
    roots: list[Section] = []
    stack: list[tuple[Section, int]] = []
    for sec, level in entries:
        while stack and stack[-1][1] >= level:
            stack.pop()
        depth = (stack[-1][0].level if stack else 0) + 1
        sec.level = max(depth, level) if sec.number else depth
        (stack[-1][0].sections if stack else roots).append(sec)
        stack.append((sec, level))
    return roots


# ---------------------------------------------------------------------------- blocks


def _sentences(text: str) -> list[Sentence]:
    return [Sentence(s) for s in split_sentences(text)]


def _figure(block: Block) -> Figure:
    text = block.text
    m = CAPTION.match(text)
    kind = (m.group("kind") or m.group("supplement_kind")).lower().rstrip(".") if m else "figure"
    kind = {"fig": "figure", "figs": "figure", "figures": "figure", "tab": "table", "tables": "table"}.get(kind, kind)
    label = text[:m.end()].strip().rstrip(".:|—–-").strip() if m else ""
    return Figure(kind, label, text[m.end():].strip() if m else text, list(block.rows))


def _item(block: Block) -> Item:
    m = ITEM_MARKER.match(block.text)
    marker = m.group().strip() if m else None
    return Item(_sentences(block.text[m.end():] if m else block.text), list(block.rows), marker)


def _footnote(block: Block) -> Footnote:
    m = FOOTNOTE_MARKER.match(block.text)
    marker = m.group().strip() if m and m.group().strip() else None
    text = block.text[m.end():].strip() if marker else block.text
    return Footnote(text, marker, list(block.rows))


def body_sections(blocks: list[Block], features: pd.DataFrame | None = None,
                  levels_model: LevelModel | None = None) -> tuple[list[Section], list[Footnote]]:
    """Nested sections of the body blocks (text before the first heading goes to an untitled
    first section, levels by :func:`heading_levels` from the headings' ``features`` and
    ``levels_model``) and the footnotes. A section without content stays: the bibliography's heading
    ("References") and back-matter titles over lists count as sections; furniture headings are the
    block model's to leave out."""
    headings = [b for b in blocks if b.kind == "heading"]
    levels = iter(heading_levels(headings, features, levels_model))
    preamble = Section(None)
    entries: list[tuple[Section, int]] = []
    footnotes: list[Footnote] = []
    current = preamble
    for block in blocks:
        if block.kind == "heading":
            number, title, level = next(levels)
            current = Section(title, number, rows=list(block.rows))
            entries.append((current, level))
        elif block.kind == "footnote":
            footnotes.append(_footnote(block))
        elif block.kind == "caption":
            current.blocks.append(_figure(block))
        elif block.kind == "item":
            current.blocks.append(_item(block))
        else:
            current.blocks.append(Paragraph(_sentences(block.text), list(block.rows)))
    return ([preamble] if preamble.blocks else []) + nest(entries), footnotes


def abstract_sections(zones: pd.DataFrame, labels: np.ndarray) -> list[Section]:
    """The abstract's parts: short zones without a sentence end title the part they open. A run-in
    caption ("Abstract:", "Summary.") is left out of the first zone, as in the label record."""
    rows = np.flatnonzero(labels == "abstract")
    if len(rows):
        column = zones.columns.get_loc("text")
        zones = zones.copy()
        zones.iat[rows[0], column] = strip_caption("abstract", str(zones.iat[rows[0], column]))
        if not zones.iat[rows[0], column].strip():
            rows = rows[1:]
    texts = zones["text"].astype(str).str.strip().to_numpy()
    kinds: list[str | None] = [None] * len(zones)
    for n, i in enumerate(rows):
        text = texts[i]
        opens = n + 1 < len(rows) and len(text.split()) <= ABSTRACT_TITLE_WORDS and not SENTENCE_END.search(text)
        kinds[i] = "heading" if opens or (text.endswith(":") and n + 1 < len(rows)) else "paragraph"
    parts: list[Section] = []
    for block in group_blocks(zones, kinds):
        if block.kind == "heading":
            parts.append(Section(block.text.rstrip(":").strip(), rows=list(block.rows)))
            continue
        if not parts:
            parts.append(Section(None))
        parts[-1].blocks.append(Paragraph(_sentences(block.text), list(block.rows)))
    return parts


def _take_sections(sections: list[Section], wanted: Callable[[Section], bool],
                   limit: int | None = None) -> list[Section]:
    """Remove the sections ``wanted(section)`` picks (at any depth, at most ``limit``) and return them."""
    taken: list[Section] = []

    def visit(children: list[Section]) -> None:
        for sec in list(children):
            if limit is not None and len(taken) >= limit:
                return
            if wanted(sec):
                children.remove(sec)
                taken.append(sec)
            else:
                visit(sec.sections)

    visit(sections)
    return taken


def references_section(sec: Section) -> bool:
    """Whether ``sec`` is the bibliography's heading (its list is the article's references)."""
    return bool(REFERENCES_TITLE.match(sec.title or ""))


def _fold(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


# ---------------------------------------------------------------------------- citations


def _link_citations(article: Article) -> None:
    """Mark sentences with the ids of the references whose citing sentences (``contexts``) hold
    them or are held by them (sentences this short are too common to tell)."""
    contexts: list[tuple[str, str]] = []
    for ref in article.references:
        for context in ref.get("contexts") or []:
            text = " ".join(str(context).split())
            if text:
                contexts.append((text, ref["id"]))
    if not contexts:
        return
    for sec in [*article.abstract, *article.walk()]:
        for block in sec.blocks:
            for sentence in getattr(block, "sentences", []):
                for text, ref_id in contexts:
                    held = len(sentence.text) >= CITING_CHARS and sentence.text in text
                    if (held or text in sentence.text) and ref_id not in sentence.cites:
                        sentence.cites.append(ref_id)


# ---------------------------------------------------------------------------- the article


def build_article(zones: pd.DataFrame, labels: list[str] | np.ndarray,
                  references: list[dict] | None = None, model: BlockModel | None = None) -> Article:
    """The article tree of one page's zones (reading order) and their labels, its body zones
    classified by ``model`` (default: the shipped block model)."""
    zones = zones.reset_index(drop=True)
    labels = np.asarray(labels, dtype=object)
    if len(labels) != len(zones):
        raise ValueError(f"{len(labels)} labels for {len(zones)} zones")
    texts = zones["text"].astype(str).str.strip().tolist()

    def of(label: str) -> list[str]:
        return [t for t, lab in zip(texts, labels) if lab == label and t]

    title = field_text("title", of("title"))
    model = model or default_block_model()
    kinds, frame, rows = classified(zones, labels, model)
    for i, kind in enumerate(kinds):  # the title repeated in a page header is not a section
        if kind == "heading" and title and _fold(texts[i]) == _fold(title):
            kinds[i] = "noise"
        elif labels[i] == "references_heading":  # the labeller's bibliography heading: a back-matter title
            kinds[i] = "heading"
    blocks = group_blocks(zones, kinds)
    headings = heading_features(frame, rows, [b for b in blocks if b.kind == "heading"])
    sections, footnotes = body_sections(blocks, headings, getattr(model, "levels_", None))
    abstract = abstract_sections(zones, labels)
    if not abstract:  # the labeller found none: a section titled "Abstract" is it
        abstract = _take_sections(sections, lambda sec: bool(ABSTRACT_TITLE.match(sec.title or "")), limit=1)
        for part in abstract:
            part.title, part.number, part.level = None, None, 1
    _take_sections(sections, lambda sec: bool(SITE_SECTION_TITLE.match(sec.title or "")))
    refs = [dict(ref, id=ref.get("id") or f"r{n}") for n, ref in enumerate(references or [], 1)]
    article = Article(
        title=title,
        authors=split_author_names(of("authors")),
        affiliations=affiliation_texts(of("affiliations")),
        abstract=abstract,
        sections=sections,
        footnotes=footnotes,
        references=refs,
    )
    _link_citations(article)
    return article
