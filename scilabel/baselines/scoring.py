"""Scoring baselines on dataset folders: every system on the same pages, with the same gold.

A dataset folder holds ``zones.parquet`` (one row per rendered zone with ``document``, ``split``,
``text``, ``label``, ``content`` ...) and ``manifest.csv`` (``document``/``path``, ``split``,
``html_path``; silver datasets add ``fields``, the labels their gold covers). Gold text of a label
is the page's zones of that label joined; gold main content is the zones marked ``content``
(generated datasets only: on silver pages it is unknown and not scored).

Measures: token-level P/R/F per label (micro-averaged over pages) and of the main content; the
CBR's Purity (extracted blocks without noise / extracted blocks) and Accuracy (content blocks
extracted / content blocks in the page), pooled over pages, where a block is content when gold
content zones make up more than half of its tokens; Ea, the share of pages whose main content was extracted
correctly (token F of at least :data:`EA_MIN_F`), for every content extractor; mean time per page.
"""
from __future__ import annotations

import copy
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..corpus.dataset import MANIFEST_FILE, ZONES_FILE
from ..metrics import texts_by_label, token_scores, words
from ..readers import PageError
from ..readers.sources import load_source
from .base import FIELD_LABELS, Baseline, BaselineInputError, BaselineResult
from .cbr import CBRBaseline

log = logging.getLogger(__name__)
#: A page's main content counts as correctly extracted for Ea at this token F or above.
EA_MIN_F = 0.9


@dataclass
class GoldPage:
    """One page of a dataset and its gold."""

    document: str  #: the page id the zones frame groups by
    group: str  #: template family or publisher
    html_path: Path
    gold: dict[str, str]  #: text per label
    scored: frozenset[str]  #: labels of FIELD_LABELS the gold covers
    content_zones: list[str] | None  #: texts of the gold main-content zones; None where unknown

    @property
    def content(self) -> str | None:
        """Gold main content: the content zones joined."""
        return None if self.content_zones is None else " ".join(self.content_zones)

    def html(self) -> str:
        """The page's HTML, decoded as the renderer decodes it."""
        return load_source(self.html_path).html


def load_pages(dataset_dir: str | Path, split: str | None = "test") -> list[GoldPage]:
    """Pages of a dataset folder in manifest order (``split=None``: all), with their gold."""
    folder = Path(dataset_dir)
    for name in (ZONES_FILE, MANIFEST_FILE):
        if not (folder / name).is_file():
            raise FileNotFoundError(f"{folder}: not a scilabel dataset (no {name})")
    manifest = pd.read_csv(folder / MANIFEST_FILE)
    zones = pd.read_parquet(folder / ZONES_FILE, columns=["document", "text", "label", "content"])
    silver = "fields" in manifest.columns
    by_page = dict(tuple(zones.groupby("document", sort=False)))
    pages = []
    for row in manifest.to_dict("records"):
        page_id = row.get("document", row.get("path"))
        if (split is not None and row.get("split") != split) or page_id not in by_page:
            continue
        frame = by_page[page_id]
        texts = frame["text"].fillna("").tolist()
        fields = row["fields"].split() if silver and isinstance(row["fields"], str) else []
        pages.append(GoldPage(
            document=page_id,
            group=str(row.get("family", row.get("group", ""))),
            html_path=_html_path(folder, row),
            gold=texts_by_label(texts, frame["label"].fillna("other")),
            scored=frozenset(fields) & frozenset(FIELD_LABELS) if silver else frozenset(FIELD_LABELS),
            content_zones=None if silver else [t for t, c in zip(texts, frame["content"].fillna(False)) if c],
        ))
    return pages


def _html_path(folder: Path, row: dict) -> Path:
    """The page's HTML: ``html_path`` (as written, or relative to the folder or one of its parents,
    where the dataset was built), else the generated corpora's ``path`` inside the folder (a corpus
    moved after it was built keeps its pages there)."""
    candidates = []
    raw = row.get("html_path")
    if isinstance(raw, str) and raw:
        path = Path(raw)
        candidates += [path] if path.is_absolute() else [path, *(d / path for d in (folder, *folder.resolve().parents))]
    if isinstance(row.get("path"), str):
        candidates.append(folder / row["path"])
    if not candidates:
        raise ValueError(f"{folder / MANIFEST_FILE}: no html_path for page {row.get('document', row.get('path'))!r}")
    return next((p for p in candidates if p.exists()), candidates[0])


def _timed_extract(baseline: Baseline, html: str, source: str) -> tuple[BaselineResult | None, float]:
    start = time.perf_counter()
    try:
        result = baseline.extract(html, source)
    except BaselineInputError as exc:
        log.warning("%s: %s", baseline.name, exc)
        result = None
    return result, time.perf_counter() - start


def _content_blocks(blocks: list[str], content_zones: list[str]) -> list[bool]:
    """Whether each block is article content: more than half of its tokens are in gold content zones
    it contains, or it lies inside one (texts compared as normalized token strings)."""
    zones = [f" {' '.join(words(z))} " for z in content_zones if words(z)]
    flags = []
    for text in blocks:
        tokens = words(text)
        norm = f" {' '.join(tokens)} "
        covered = sum(z.count(" ") - 1 for z in zones if z in norm)
        flags.append(bool(tokens) and (2 * covered > len(tokens) or any(norm in z for z in zones)))
    return flags


def _training_pages(folder: Path) -> Iterable[tuple[str, dict[str, str]]]:
    for page in load_pages(folder, "train"):
        try:
            yield page.html(), page.gold
        except PageError as exc:
            log.warning("training page skipped: %s", exc)


def score_baselines(baselines: Sequence[Baseline], dataset_dirs: Iterable[str | Path],
                    split: str | None = "test") -> pd.DataFrame:
    """One row per dataset and baseline: token P/R/F per label and of the main content, Purity,
    Accuracy, Ea, pages, errors and mean milliseconds per page (NaN where a measure does not apply).

    Each baseline is copied per dataset; a supervised one is first fitted on the ``train`` split.
    """
    rows = []
    for folder in map(Path, dataset_dirs):
        pages = load_pages(folder, split)
        htmls = {}
        for page in pages:
            try:
                htmls[page.document] = page.html()
            except PageError as exc:
                log.warning("page skipped: %s", exc)
        for proto in baselines:
            baseline = copy.deepcopy(proto)
            if getattr(baseline, "supervised", False):
                baseline.fit(_training_pages(folder))
            rows.append({"dataset": folder.name, "baseline": baseline.name,
                         **_score_one(baseline, [p for p in pages if p.document in htmls], htmls)})
            log.info("%s on %s: done", baseline.name, folder.name)
    return pd.DataFrame(rows)


def _content_scores(pages: list[tuple[str, str, str]]) -> tuple[pd.Series, pd.DataFrame]:
    """Micro token P/R/F of main content over ``(page, gold, extracted)``, and per-page scores."""
    scores, per_page = token_scores([(page, {"content": gold}, {"content": pred}, {"content"})
                                     for page, gold, pred in pages], ["content"])
    return scores.loc["content"], per_page


def _score_one(baseline: Baseline, pages: list[GoldPage], htmls: dict[str, str]) -> dict[str, float]:
    label_pages, content_pages, blocks = [], [], [0, 0, 0, 0]  # blocks: clean, extracted, found, in page
    errors = 0
    seconds = 0.0
    for page in pages:
        result, took = _timed_extract(baseline, htmls[page.document], str(page.html_path))
        seconds += took
        errors += result is None
        result = result or BaselineResult(model=baseline.name)
        label_pages.append((page.document, page.gold, result.fields, page.scored & baseline.produces))
        if not baseline.extracts_content or page.content is None:
            continue
        content_pages.append((page.document, page.content, result.main_content))
        if "document_blocks" in result.extras:
            flags = _content_blocks(result.extras["document_blocks"], page.content_zones)
            taken = result.extras["content_index"]
            clean = sum(flags[i] for i in taken)
            blocks = [blocks[0] + clean, blocks[1] + len(taken), blocks[2] + clean, blocks[3] + sum(flags)]
    nan = float("nan")
    out: dict[str, float] = {"pages": len(pages), "errors": errors}
    per_label, _ = token_scores(label_pages, FIELD_LABELS)
    for label in FIELD_LABELS:
        produced = label in baseline.produces
        for short, col in (("p", "precision"), ("r", "recall"), ("f", "f")):
            out[f"{label}_{short}"] = per_label.loc[label, col] if produced else nan
    if content_pages:
        scores, per_page = _content_scores(content_pages)
        out.update(content_p=scores["precision"], content_r=scores["recall"], content_f=scores["f"],
                   ea=100 * float((per_page["f"] >= EA_MIN_F).mean()))
    else:
        out.update(content_p=nan, content_r=nan, content_f=nan, ea=nan)
    out["purity"] = blocks[0] / blocks[1] if blocks[1] else nan
    out["accuracy"] = blocks[2] / blocks[3] if blocks[3] else nan
    out["ms_per_page"] = 1000 * seconds / len(pages) if pages else nan
    return out


def cbr_learning_curve(dataset_dir: str | Path, family: str, labelled: bool = False) -> pd.DataFrame:
    """The CBR on the pages of one template family (or publisher) arriving one after another.

    One row per page in arrival order: whether the content was answered from the case base
    (``hit``), the share of its tag patterns retrieved, milliseconds in all and in the reasoning
    step (``solve_ms``, parsing excluded), case base size after the page,
    and content token F where gold is known. With ``labelled`` the labelled variant runs and gets
    each page's gold as feedback after answering it (revise); ``fields_f`` is its mean token F over
    the labels present in the page's gold.
    """
    pages = [p for p in load_pages(dataset_dir, split=None) if p.group == family]
    if not pages:
        raise ValueError(f"{dataset_dir}: no pages of family {family!r}")
    cbr = CBRBaseline(labelled=labelled)
    rows = []
    for page in pages:
        result, took = _timed_extract(cbr, page.html(), str(page.html_path))
        if result is None:
            continue
        row = {"document": page.document, "hit": result.extras["hit"],
               "retrieved": result.extras["retrieved"] / max(1, result.extras["patterns"]),
               "ms": 1000 * took, "solve_ms": result.extras["solve_ms"], "cases": len(cbr.case_base)}
        if page.content is not None:
            row["content_f"] = _content_scores([(page.document, page.content, result.main_content)])[0]["f"]
        if labelled:
            _, per_label = token_scores([(page.document, page.gold, result.fields, page.scored)], FIELD_LABELS)
            row["fields_f"] = per_label.loc[per_label["gold_tokens"] > 0, "f"].mean()
            cbr.learn(result, page.gold)
        rows.append(row)
    return pd.DataFrame(rows)
