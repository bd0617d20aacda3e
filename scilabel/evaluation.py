"""Evaluating labellers side by side on dataset folders (what `evaluate.py` and `scilabel evaluate` run).

Every system is scored on the same pages: zone-level and token-level precision / recall / F per
label, per dataset and split and per group (template family or publisher), with labelling time per
page, a confusion matrix per system and the worst pages.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd

from .corpus.dataset import MANIFEST_FILE, load_zones
from .metrics import confusion, texts_by_label, token_scores, zone_scores
from .schema import LABELS, MAJOR_LABELS
from .structure import main_content

log = logging.getLogger(__name__)
#: A system labels one page's zones frame and returns its labels.
System = Callable[[pd.DataFrame], list[str]]
#: Token-level scores: the major labels, and the main content (abstract and body, see
#: :func:`scilabel.structure.main_content`) on datasets that mark it.
TOKEN_LABELS = (*MAJOR_LABELS, "content")


@dataclass
class Evaluation:
    """All scores of one evaluation run."""

    summary: pd.DataFrame  #: one row per system x dataset x level: F per label, time per page
    by_group: pd.DataFrame  #: the same per group
    details: pd.DataFrame  #: precision / recall / F / support per system x dataset x level x label
    confusions: dict[str, pd.DataFrame]  #: system -> confusion counts (all datasets pooled)
    worst_pages: pd.DataFrame  #: lowest mean token F per system


def scored_labels(folder: Path) -> dict[str, set[str]]:
    """Labels whose gold each page of a dataset covers: all labels, except on silver pages (only the
    fields their meta tags declared); a dataset without a manifest has gold for every label."""
    path = Path(folder) / MANIFEST_FILE
    manifest = pd.read_csv(path) if path.exists() else pd.DataFrame()
    if "fields" not in manifest:
        return {}
    return {row.document: set(str(row.fields).split()) if isinstance(row.fields, str) else set()
            for row in manifest.itertuples()}


def _score_rows(name: str, dataset: str, group: str, level: str, table: pd.DataFrame) -> list[dict]:
    return [{"system": name, "dataset": dataset, "group": group, "level": level, "label": lab, **row}
            for lab, row in table.to_dict("index").items()]


def evaluate(systems: dict[str, System], datasets: list[Path], split: str = "test") -> Evaluation:
    """Score every system on the ``split`` pages of every dataset."""
    details, page_scores, timing = [], [], []
    confusions: dict[str, pd.DataFrame] = {}
    for folder in datasets:
        zones = load_zones([folder])
        zones = zones[zones["split"] == split]
        if zones.empty:
            log.warning("%s: no %r pages", folder, split)
            continue
        coverage = scored_labels(folder)
        dataset = Path(folder).name
        pages = [(page, frame.reset_index(drop=True)) for page, frame in zones.groupby("document", sort=False)]
        groups = {page: frame["group"].iloc[0] for page, frame in pages}
        for name, system in systems.items():
            preds, elapsed = [], 0.0
            for _, frame in pages:
                start = time.perf_counter()
                pred = np.asarray(system(frame), dtype=object)
                elapsed += time.perf_counter() - start
                preds.append(_scored(frame, pred))
            timing.append({"system": name, "dataset": dataset, "ms_per_page": 1000 * elapsed / len(pages)})
            by_group: dict[str, list] = {}
            for (page, frame), pred in zip(pages, preds):
                by_group.setdefault(groups[page], []).append((page, frame, pred))
            for group, items in [("all", [i for v in by_group.values() for i in v]), *sorted(by_group.items())]:
                details += _zone_rows(name, dataset, group, items, coverage)
                token_table, per_page = token_scores(
                    (_token_case(page, f, p, coverage.get(page, set(MAJOR_LABELS))) for page, f, p in items),
                    TOKEN_LABELS)
                details += _score_rows(name, dataset, group, "token", token_table)
                if group == "all":
                    page_scores.append(per_page.assign(system=name, dataset=dataset))
            gold = np.concatenate([f["label"].fillna("other").to_numpy(dtype=object) for _, f in pages])
            pooled = confusion(gold, np.concatenate(preds))
            confusions[name] = confusions[name].add(pooled, fill_value=0) if name in confusions else pooled
    details_frame = pd.DataFrame(details)
    summary, by_group = _tables(details_frame, pd.DataFrame(timing))
    per_page = pd.concat(page_scores, ignore_index=True) if page_scores else pd.DataFrame()
    worst = (per_page.groupby(["system", "dataset", "document"])["f"].mean().rename("mean_token_f").reset_index()
             .sort_values(["system", "mean_token_f"]).groupby("system").head(10)) if len(per_page) else per_page
    return Evaluation(summary, by_group, details_frame, confusions, worst)


def _scored(frame: pd.DataFrame, pred: np.ndarray) -> np.ndarray:
    """``pred`` with ``other`` where a zone's gold cannot give the predicted label (``unscored`` names
    it, among space-separated labels): such a zone then counts for no label, since its gold is ``other``."""
    if "unscored" not in frame:
        return pred
    unscored = frame["unscored"].to_numpy(dtype=object)
    hit = np.fromiter((isinstance(u, str) and p in u.split() for u, p in zip(unscored, pred)), dtype=bool, count=len(pred))
    return np.where(hit, "other", pred)


def _token_case(page: str, frame: pd.DataFrame, pred: np.ndarray, scored: set[str]) -> tuple:
    """``(page, gold texts, predicted texts, scored labels)`` for :func:`token_scores`; where the
    page has main-content gold, ``content`` compares it with the labeller's main content."""
    gold = texts_by_label(frame["text"], frame["label"].fillna("other"))
    predicted = texts_by_label(frame["text"], pred)
    marks = frame["content"].fillna(False).astype(bool) if "content" in frame else pd.Series(dtype=bool)
    if marks.any():  # pages without any content mark (real pages) have no main-content gold
        gold["content"] = " ".join(frame["text"][marks])
        predicted["content"] = main_content(frame, pred)
        scored = scored | {"content"}
    return page, gold, predicted, scored


def _zone_rows(name: str, dataset: str, group: str, items: list, coverage: dict[str, set[str]]) -> list[dict]:
    """Zone-level scores, each label counted only on pages whose gold covers it."""
    rows = []
    for lab in MAJOR_LABELS:
        kept = [(f, p) for page, f, p in items if lab in coverage.get(page, set(MAJOR_LABELS))]
        if not kept:
            continue
        gold = np.concatenate([f["label"].fillna("other").to_numpy(dtype=object) for f, _ in kept])
        pred = np.concatenate([p for _, p in kept])
        rows += _score_rows(name, dataset, group, "zone", zone_scores(gold, pred, [lab]))
    return rows


def _tables(details: pd.DataFrame, timing: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    if details.empty:
        return details, details
    wide = details.pivot_table(index=["system", "dataset", "group", "level"], columns="label", values="f")
    wide = wide.reindex(columns=[lab for lab in TOKEN_LABELS if lab in wide.columns]) * 100
    summary = wide.xs("all", level="group").reset_index()
    summary = summary.merge(timing, on=["system", "dataset"], how="left")
    by_group = wide.drop(index="all", level="group").reset_index()
    return summary.round(1), by_group.round(1)


def score_gold_pages(systems: dict[str, System], gold_dataset: Path, scorer: ModuleType) -> dict[str, list[dict]]:
    """Label every page of a gold dataset (``scilabel corpus gold``, or one built from reviewed gold by
    :func:`scilabel.review.gold.gold_dataset`) with each system and score its fields against the page's
    gold file with ``scorer`` (:mod:`scilabel.page_scores`, or the shared data's ``score_pages`` module).

    Returns system -> per-page results (``page``, ``publisher``, ``title_similarity``, ``labels``), the
    input of ``scorer.aggregate``.
    """
    from .corpus.gold import zone_records

    manifest = pd.read_csv(Path(gold_dataset) / MANIFEST_FILE)
    manifest = manifest[manifest["render_error"].isna()]
    golds = {row.document: json.loads(Path(row.gold_file).read_text(encoding="utf-8")) for row in manifest.itertuples()}
    publisher = dict(zip(manifest["document"], manifest["group"]))
    zones = load_zones([gold_dataset])
    results: dict[str, list[dict]] = {name: [] for name in systems}
    for page, frame in zones[zones["document"].isin(golds)].groupby("document", sort=False):
        frame = frame.reset_index(drop=True)
        for name, system in systems.items():
            scores, similarity, _ = scorer.score_page(golds[page], zone_records(frame["text"], system(frame)))
            results[name].append({"page": golds[page]["page"], "publisher": publisher[page],
                                  "title_similarity": similarity, "labels": scores})
    return results


def gold_table(results: dict[str, list[dict]], scorer: ModuleType) -> str:
    """Token F1 per field (micro / macro) of each system, then micro F1 per publisher and system."""
    fields = list(scorer.SCORED)
    lines = [f"{'system':30}" + "".join(f"{f[:12]:>19}" for f in fields) + "   (token F1 micro/macro, pages)"]
    for name, pages in results.items():
        summary = scorer.aggregate(pages)
        lines.append(f"{name[:30]:30}" + "".join(
            f"{summary[f]['F1_micro']:.3f}/{summary[f]['F1_macro']:.3f} ({summary[f]['n_pages']})".rjust(19)
            if f in summary else f"{'-':>19}" for f in fields))
    lines.append(f"\nmicro F1 by publisher {'':38} pages" + "".join(f"{f[:7]:>8}" for f in fields))
    for name, pages in results.items():
        for group in sorted({p["publisher"] for p in pages}):
            chosen = [p for p in pages if p["publisher"] == group]
            summary = scorer.aggregate(chosen)
            lines.append(f"  {name[:28]:28} {group[:30]:30} {len(chosen):3d}" + "".join(
                f"{summary[f]['F1_micro']:8.3f}" if f in summary else f"{'-':>8}" for f in fields))
    return "\n".join(lines)


def render_ms_per_page(folder: Path, split: str = "test", sample: int = 20) -> float:
    """Mean milliseconds to render a page and collect its zones, over the first ``sample`` pages of
    ``split`` in a dataset: what a labeller costs before its own work, which baselines reading the
    HTML do not pay. NaN when no page renders."""
    from .baselines.scoring import load_pages
    from .readers.render import Renderer
    from .readers import PageError
    from .zones import collect_zones

    pages = load_pages(folder, split)[:sample]
    seconds, done = 0.0, 0
    with Renderer() as renderer:
        renderer.render("<p>warm-up</p>")
        for page in pages:
            start = time.perf_counter()
            try:
                collect_zones(renderer.render(page.html_path))
            except PageError as exc:
                log.warning("render timing: %s", exc)
                continue
            seconds += time.perf_counter() - start
            done += 1
    return 1000 * seconds / done if done else float("nan")


def plot_confusion(table: pd.DataFrame, title: str, path: Path) -> None:
    """Save a confusion matrix (rows normalised to gold support) as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .atomic import atomic_path

    counts = table.reindex(index=list(LABELS), columns=list(LABELS), fill_value=0).to_numpy(dtype=float)
    share = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    fig, ax = plt.subplots(figsize=(7.5, 6.5))
    ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(LABELS)), LABELS, rotation=45, ha="right")
    ax.set_yticks(range(len(LABELS)), LABELS)
    for i in range(len(LABELS)):
        for j in range(len(LABELS)):
            if counts[i, j]:
                ax.text(j, i, f"{int(counts[i, j])}", ha="center", va="center", fontsize=7,
                        color="white" if share[i, j] > 0.5 else "black")
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)
