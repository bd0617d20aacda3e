"""Gold for the block model and the real-page heading yardstick.

Pages with structure gold (generated and real-platform families) give every zone a kind from its
``struct`` and ``content`` columns (:func:`zone_kinds`). The reviewed real pages of
``gold-structure`` (``<folder>/<source>/<name>.json``: ``page`` and ``headings``, each ``text`` as
displayed, ``level`` and the ``zone`` it was found at) give their section headings only;
:func:`heading_rows` finds them among a page's zones. :func:`heading_counts` scores an article's headings against them as the shared data's
``tools/score_structure.py`` does: texts normalised (NFKC, case-folded word tokens, a leading section
number dropped), matched one to one in order of appearance, levels compared over the matched ones.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from .blocks import NOTES_HEADING, TABLE_CELL
from .evaluation import align, gold_kinds, gold_outline
from .model import BlockModel
from .tree import Article

#: Kinds the block model learns: the body kinds, table cells and noise (furniture).
BLOCK_KINDS = ("heading", "paragraph", "item", "caption", "footnote", TABLE_CELL, "noise")
_TOKEN = re.compile(r"\w+")
_SECTION_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*|[ivxlc]+|[a-z])$")
_CELL = re.compile(r"(?:^|/)t[dh](?:/|$)")


def zone_kinds(zones: pd.DataFrame) -> np.ndarray:
    """Each zone's kind from structure gold: :func:`~.evaluation.gold_kinds`, with the content zones
    inside a table cell that are not a caption taken as ``table`` (a printed page's zones say so in their
    ``struct``), and the title right over a list of
    notes ("Footnotes", "Notes": :data:`~.blocks.NOTES_HEADING`) a heading: the reviewed real-page gold
    counts it as a back-matter section title, where the generated pages leave it unannotated."""
    kinds = gold_kinds(zones)
    content = zones["content"].to_numpy(dtype=bool)
    struct = zones["struct"].fillna("").to_numpy(dtype=object)
    cell = zones["tag_path"].astype(str).str.contains(_CELL).to_numpy() & content & (struct == "section")
    kinds = np.where(cell | (content & (struct == TABLE_CELL)), TABLE_CELL, kinds).astype(object)
    texts = zones["text"].astype(str).str.strip().to_numpy()
    for i in np.flatnonzero(kinds[:-1] == "noise"):
        if kinds[i + 1] == "footnote" and NOTES_HEADING.match(texts[i]):
            kinds[i] = "heading"
    return kinds


def outline_levels(zones: pd.DataFrame, page_html: bytes | str) -> dict[int, int]:
    """Row -> level of each heading zone of a structure-annotated page, from its HTML's outline
    (:func:`~.evaluation.gold_outline`)."""
    zones = zones.reset_index(drop=True)
    kinds = gold_kinds(zones)
    outline = gold_outline(page_html)
    element = align(zones, kinds, outline)
    return {int(row): outline[element[row]].level for row in np.flatnonzero(kinds == "heading")
            if element[row] >= 0 and outline[element[row]].level is not None}


def has_structure(zones: pd.DataFrame) -> bool:
    """Whether a page's zones carry structure gold (at least one heading or paragraph)."""
    return bool(zones["struct"].isin(("heading", "paragraph")).any())


def normalise(text: str) -> str:
    """A heading as compared: NFKC, case-folded word tokens, a leading section number dropped."""
    tokens = _TOKEN.findall(unicodedata.normalize("NFKC", text or "").casefold())
    while len(tokens) > 1 and _SECTION_NUMBER.match(tokens[0]):
        tokens = tokens[1:]
    return " ".join(tokens)


def read_heading_gold(folder: Path) -> dict[str, list[dict]]:
    """Page (path relative to the shared data) -> its gold headings, for every file of ``folder``."""
    out = {}
    for path in sorted(Path(folder).glob("*/*.json")):
        gold = json.loads(path.read_text(encoding="utf-8"))
        out[gold["page"]] = gold["headings"]
    return out


def heading_rows(texts: list[str], headings: list[dict]) -> dict[int, int]:
    """Row -> gold level of each gold heading found as a whole zone of ``texts``: at the gold's
    ``zone`` index where that zone holds the heading, else at the first zone holding it after the
    previous heading found. The hint matters: a third of the headings of the reviewed pages are
    written twice (an outline or jump menu before the body), and the first copy is not the heading."""
    normal = [normalise(t) for t in texts]
    out, cursor = {}, 0
    for heading in headings:
        wanted = normalise(heading["text"])
        hint = heading.get("zone")
        if isinstance(hint, int) and 0 <= hint < len(normal) and normal[hint] == wanted:
            row: int | None = hint
        else:
            row = next((i for i in range(cursor, len(normal)) if normal[i] == wanted), None)
        if row is not None:
            out[row] = heading["level"]
            cursor = row + 1
    return out


def article_headings(article: Article) -> list[tuple[str, int]]:
    """(normalised number and title, level) of every body section heading, depth first."""
    return [(normalise(" ".join(filter(None, (sec.number or "", sec.title or "")))), sec.level)
            for sec in article.walk() if (sec.number or sec.title or "").strip()]


def heading_counts(headings: list[dict], predicted: list[tuple[str, int]]) -> Counter:
    """``tp``, ``pred``, ``gold`` and ``level_ok`` of one page's predicted headings."""
    pool: dict[str, list[int]] = defaultdict(list)
    for heading in headings:
        pool[normalise(heading["text"])].append(heading["level"])
    counts = Counter(pred=len(predicted), gold=len(headings))
    for text, level in predicted:
        if pool.get(text):
            counts["tp"] += 1
            counts["level_ok"] += int(pool[text].pop(0) == level)
    return counts


def heading_summary(counts: Counter) -> dict[str, float]:
    """Precision, recall, F1 and level accuracy of summed page counts."""
    tp, pred, gold = counts["tp"], counts["pred"], counts["gold"]
    precision = tp / pred if pred else 0.0
    recall = tp / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1,
            "level_accuracy": counts["level_ok"] / tp if tp else 0.0, "gold": gold}


def scored_pages(zones: pd.DataFrame, labels_of: Callable[[pd.DataFrame], list[str]],
                 headings: dict[str, list[dict]], model: BlockModel | None = None) -> Iterator[tuple[str, Article, Counter]]:
    """Each page of ``zones`` that ``headings`` gives gold headings for: its document, its article (zones
    labelled by ``labels_of``, classified by ``model``, default the shipped block model) and its
    :func:`heading_counts`."""
    from . import article_structure

    for document, frame in zones.groupby("document", sort=False):
        if headings.get(document):
            frame = frame.reset_index(drop=True)
            article = article_structure(frame, labels_of(frame), model=model)
            yield document, article, heading_counts(headings[document], article_headings(article))


def score_headings(zones: pd.DataFrame, labels_of: Callable[[pd.DataFrame], list[str]],
                   headings: dict[str, list[dict]], model: BlockModel | None = None) -> dict[str, float]:
    """Heading precision, recall, F1 and level accuracy (:func:`heading_summary`) of the pages of
    ``zones`` (a dataset's zones) that ``headings`` gives gold headings for (:func:`scored_pages`)."""
    counts = [page_counts for _, _, page_counts in scored_pages(zones, labels_of, headings, model)]
    return {**heading_summary(sum(counts, Counter())), "pages": len(counts)}
