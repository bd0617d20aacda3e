"""Scores of article structure against the gold of generated pages.

Gold comes from two places. Each zone carries ``content`` and ``struct`` (heading, paragraph,
item, caption, footnote; ``section`` for text inside a section but outside those), read by the
zone collector from the nearest annotated ancestor. Heading levels and which zones make up one
element are read from the page HTML: every ``data-scilabel-struct`` element in document order,
with the ``data-scilabel-level`` of its section (or its own), aligned to the gold zones by text.

Zone-level scores compare each zone's kind in the predicted tree (a heading kept as a section,
a paragraph, item, figure caption or footnote; else noise) with its gold kind. Paragraph
boundaries are the first zones of paragraphs and items. Sentence boundaries are compared as
sentence ends, each identified by its last words, with the gold paragraph texts split by the
same splitter, so they measure what the structure does to the text (merged, cut or noisy
paragraphs), not the splitter itself.

Both boundary scores come twice. ``boundary`` and ``sentence`` count every predicted paragraph,
so a furniture line or a flattened table kept as a paragraph is a false boundary and its
sentences false ends: they mix how the text is cut with which zones are kept (the ``content``
scores). ``text_boundary`` and ``text_sentence`` look only at the zones the gold calls running text
(paragraphs and items): predicted paragraph starts on those zones, and the predicted paragraphs'
text restricted to them, so they measure the cutting alone.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd
from lxml import html as lxml_html

from .blocks import KINDS
from ..corpus.templates.base import CONTINUES
from ..sentences import split_sentences
from .tree import Article, Figure, Item, Paragraph

#: Gold structure roles that are body blocks.
BODY_KINDS = tuple(k for k in KINDS if k != "noise")
#: Words that identify a sentence end.
END_WORDS = 4
_TOKEN = re.compile(r"\w+")


@dataclass
class GoldElement:
    kind: str
    level: int | None
    text: str  #: text without white space, for alignment


def gold_outline(page_html: str | bytes) -> list[GoldElement]:
    """The annotated body elements of a generated page, in document order; an element marked as
    continuing the one before it (:data:`~scilabel.corpus.templates.base.CONTINUES`: a paragraph's
    text after a block that closed it) is part of that one."""
    root = lxml_html.fromstring(page_html)
    out: list[GoldElement] = []
    for el in root.iter():
        kind = el.get("data-scilabel-struct") if isinstance(el.tag, str) else None
        if kind not in BODY_KINDS:
            continue
        text = "".join(el.text_content().split())
        if el.get(CONTINUES) and out and out[-1].kind == kind:
            out[-1].text += text
            continue
        level = next((int(a.get("data-scilabel-level")) for a in (el, *el.iterancestors())
                      if a.get("data-scilabel-level")), None)
        out.append(GoldElement(kind, level, text))
    return out


def gold_kinds(zones: pd.DataFrame) -> np.ndarray:
    """Gold kind of each zone: its ``struct`` when it is article content, else noise. Content
    zones whose struct is their section are list items whose bullet sits outside the annotated
    element ("• <span struct=item>"): the zone takes the struct of its first text node. The
    bibliography's heading (label ``references_heading``) is a heading: a back-matter section title,
    as the real-page heading gold counts it."""
    struct = zones["struct"].fillna("").to_numpy(dtype=object)
    content = zones["content"].to_numpy(dtype=bool)
    kinds = np.where(content & np.isin(struct, BODY_KINDS), struct, "noise")
    kinds = np.where(content & (struct == "section"), "item", kinds)
    return np.where(zones["label"].to_numpy(dtype=object) == "references_heading", "heading", kinds).astype(object)


def align(zones: pd.DataFrame, kinds: np.ndarray, outline: list[GoldElement]) -> np.ndarray:
    """Index into ``outline`` of the element each gold body zone belongs to (-1 if none found)."""
    texts = ["".join(str(t).split()) for t in zones["text"]]
    out = np.full(len(zones), -1)
    cursor, rest = 0, ""
    for i in np.flatnonzero(np.isin(kinds, BODY_KINDS)):
        text = texts[i]
        if rest and rest.startswith(text) and outline[cursor - 1].kind == kinds[i]:
            out[i], rest = cursor - 1, rest[len(text):]
            continue
        for k in range(cursor, len(outline)):
            el = outline[k]
            if el.kind == kinds[i] and el.text and (el.text.startswith(text[:20]) or text.startswith(el.text)):
                out[i], cursor, rest = k, k + 1, el.text[len(text):] if el.text.startswith(text) else ""
                break
    return out


def predicted_kinds(article: Article, n_zones: int) -> tuple[np.ndarray, dict[int, int]]:
    """Each zone's kind in the article tree, and the level of each heading zone."""
    kinds = np.full(n_zones, "noise", dtype=object)
    levels: dict[int, int] = {}
    for sec in article.walk():
        for row in sec.rows:
            kinds[row] = "heading"
            levels[row] = sec.level
        for block in sec.blocks:
            kinds[block.rows] = {Item: "item", Paragraph: "paragraph", Figure: "caption"}[type(block)]
    for note in article.footnotes:
        kinds[note.rows] = "footnote"
    return kinds, levels


def _sentence_ends(paragraphs: list[str]) -> Counter:
    ends: Counter = Counter()
    for text in paragraphs:
        for sentence in split_sentences(text):
            tokens = _TOKEN.findall(sentence.lower())
            if tokens:
                ends[tuple(tokens[-END_WORDS:])] += 1
    return ends


def _boundaries(gold: np.ndarray, element: np.ndarray, article: Article) -> tuple[set[int], set[int], list[Paragraph]]:
    """The gold paragraph starts (first zones of gold paragraphs and items), the predicted ones (first
    zones of the tree's paragraphs) and the tree's paragraphs."""
    running = np.isin(gold, ("paragraph", "item"))
    gold_starts = {i for i in np.flatnonzero(running) if element[i] < 0 or i == 0 or element[i - 1] != element[i]}
    blocks = [b for sec in article.walk() for b in sec.blocks if isinstance(b, Paragraph)]
    return gold_starts, {b.rows[0] for b in blocks}, blocks


def boundary_errors(zones: pd.DataFrame, article: Article, page_html: str | bytes) -> pd.DataFrame:
    """The paragraph-boundary errors of one page, zone by zone (to read what :func:`page_counts` counts):
    ``row``, ``error`` (``fp``: a predicted start the gold does not have; ``fn``: a gold start not
    predicted), the zone's ``gold`` and predicted (``pred``) kind and its ``text``."""
    zones = zones.reset_index(drop=True)
    gold = gold_kinds(zones)
    gold_starts, pred_starts, _ = _boundaries(gold, align(zones, gold, gold_outline(page_html)), article)
    pred, _ = predicted_kinds(article, len(zones))
    rows = [(i, "fp" if i in pred_starts else "fn", gold[i], pred[i], str(zones.at[i, "text"]))
            for i in sorted(gold_starts ^ pred_starts)]
    return pd.DataFrame(rows, columns=["row", "error", "gold", "pred", "text"])


def page_counts(zones: pd.DataFrame, article: Article, page_html: str | bytes) -> dict[str, int]:
    """True-positive, false-positive and false-negative counts of one page, by score name."""
    zones = zones.reset_index(drop=True)
    gold = gold_kinds(zones)
    outline = gold_outline(page_html)
    element = align(zones, gold, outline)
    pred, pred_levels = predicted_kinds(article, len(zones))
    counts: Counter = Counter()

    def add(name: str, truth: np.ndarray, guess: np.ndarray) -> None:
        counts[f"{name}_tp"] += int((truth & guess).sum())
        counts[f"{name}_fp"] += int((~truth & guess).sum())
        counts[f"{name}_fn"] += int((truth & ~guess).sum())

    for kind in BODY_KINDS:
        add(kind, gold == kind, pred == kind)
    add("content", gold != "noise", pred != "noise")
    running = np.isin(gold, ("paragraph", "item"))
    counts["caption_in_text"] += int(((gold == "caption") & np.isin(pred, ("paragraph", "item"))).sum())
    counts["text_as_caption"] += int((running & (pred == "caption")).sum())
    for row, level in pred_levels.items():
        if gold[row] == "heading" and element[row] >= 0 and outline[element[row]].level is not None:
            counts["level_n"] += 1
            counts["level_ok"] += int(min(level, 3) == outline[element[row]].level)

    gold_starts, pred_starts, blocks = _boundaries(gold, element, article)
    _add_sets(counts, "boundary", gold_starts, pred_starts)
    _add_sets(counts, "text_boundary", gold_starts, {i for i in pred_starts if running[i]})

    texts = zones["text"].astype(str).str.strip().tolist()
    gold_paragraphs: list[list[str]] = []
    for i in np.flatnonzero(running):
        if i in gold_starts or not gold_paragraphs:
            gold_paragraphs.append([])
        gold_paragraphs[-1].append(texts[i])
    gold_ends = _sentence_ends([" ".join(p) for p in gold_paragraphs])
    _add_counters(counts, "sentence", gold_ends, _sentence_ends([b.text for b in blocks]))
    in_text = [" ".join(texts[r] for r in b.rows if running[r]) for b in blocks]
    _add_counters(counts, "text_sentence", gold_ends, _sentence_ends(in_text))
    return dict(counts)


def _add_sets(counts: Counter, name: str, truth: set, guess: set) -> None:
    counts[f"{name}_tp"] += len(truth & guess)
    counts[f"{name}_fp"] += len(guess - truth)
    counts[f"{name}_fn"] += len(truth - guess)


def _add_counters(counts: Counter, name: str, truth: Counter, guess: Counter) -> None:
    matched = sum((truth & guess).values())
    counts[f"{name}_tp"] += matched
    counts[f"{name}_fp"] += sum(guess.values()) - matched
    counts[f"{name}_fn"] += sum(truth.values()) - matched


def f1(counts: dict[str, int], name: str) -> dict[str, float]:
    """Precision, recall and F1 of one score from summed counts (NaN without support)."""
    tp, fp, fn = (counts.get(f"{name}_{k}", 0) for k in ("tp", "fp", "fn"))
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")
    return {"precision": p, "recall": r, "f1": f, "support": tp + fn}


def summary(counts: dict[str, int]) -> dict[str, float]:
    """The reported figures of summed page counts."""
    out = {f"{name}_f1": f1(counts, name)["f1"] for name in ("heading", "boundary", "sentence", "text_boundary",
                                                               "text_sentence", "caption", "footnote", "item",
                                                               "paragraph", "content")}
    out["content_precision"] = f1(counts, "content")["precision"]
    out["content_recall"] = f1(counts, "content")["recall"]
    out["level_accuracy"] = counts.get("level_ok", 0) / counts["level_n"] if counts.get("level_n") else float("nan")
    captions = counts.get("caption_tp", 0) + counts.get("caption_fn", 0)
    out["caption_in_text"] = counts.get("caption_in_text", 0) / captions if captions else float("nan")
    return out
