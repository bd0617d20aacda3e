"""Training a zone labeller from dataset folders (what `train.py` and `scilabel train` run)."""
from __future__ import annotations

import logging
import time
from pathlib import Path

import pandas as pd

from .corpus.dataset import MANIFEST_FILE, ZONES_FILE, labelling_pages, load_zones, render_generated
from .emission import EMISSIONS
from .evaluation import evaluate
from .hmm import TRANSITION_SETTINGS
from .labeler import ZoneLabeler
from .persistence import save_model
from .schema import DEFAULT_TOPOLOGY, MAJOR_LABELS

log = logging.getLogger(__name__)


def ensure_rendered(folder: Path, workers: int = 2) -> None:
    """Render a generated corpus folder that has pages and a manifest but no zones yet."""
    folder = Path(folder)
    if not (folder / ZONES_FILE).exists():
        if not (folder / MANIFEST_FILE).exists():
            raise FileNotFoundError(f"{folder}: not a scilabel dataset (no {ZONES_FILE} or {MANIFEST_FILE})")
        log.info("%s: rendering its pages (cached for later runs)", folder)
        render_generated(folder, workers=workers)


def train_labeler(datasets: list[Path], emission: str, out: Path, collections: Path | None = None,
                  topology: str = DEFAULT_TOPOLOGY, split: str = "train", workers: int = 2,
                  random_state: int = 0, gold: list[Path] = (), gold_weight: int = 1, platforms: bool = False,
                  **hmm: float | None) -> ZoneLabeler:
    """Fit a labeller with the ``emission`` model (a name in :data:`~scilabel.emission.EMISSIONS`) on the
    ``split`` pages of the datasets and save it with its model card; ``hmm`` overrides ZoneLabeler's
    transition settings (:data:`~scilabel.hmm.TRANSITION_SETTINGS`; None keeps the counted estimate).
    ``random_state`` seeds an emission that has one (the SVM's training sample and solver; the Naive
    Bayes fit has no randomness): refits with several seeds tell a real difference from noise. Every page
    of the ``gold`` datasets (reviewed real pages) is trained on too, whatever its split, ``gold_weight``
    times (:func:`repeat_pages`), and remembered by its layout (``ZoneLabeler.fit``'s ``remembered``).
    The generated corpus's real-platform families are trained on only with ``platforms``
    (:func:`~scilabel.corpus.dataset.labelling_pages`)."""
    if emission not in EMISSIONS:
        raise ValueError(f"unknown emission {emission!r} (one of {', '.join(EMISSIONS)})")
    estimator = EMISSIONS[emission].estimator
    seeded = {"random_state": random_state} if "random_state" in estimator().get_params() else {}
    for folder in datasets:
        ensure_rendered(folder, workers)
    zones = labelling_pages(load_zones(datasets), split, platforms)
    remembered: list[str] = []
    if gold:
        gold_zones = load_zones(gold)
        remembered = gold_zones["document"].unique().tolist()
        zones = pd.concat([zones, repeat_pages(gold_zones, gold_weight)], ignore_index=True)
    zones = zones.reset_index(drop=True)
    if zones.empty:
        left_out = "" if platforms else " (real-platform families are left out without --platforms)"
        raise ValueError(f"no {split!r} pages in {', '.join(map(str, datasets))}{left_out}")
    zones["label"] = zones["label"].fillna("other")
    texts = pd.read_parquet(collections) if collections else None
    if texts is None:
        log.warning("no field collections given: %s learns words from page zones only", estimator.__name__)
    start = time.perf_counter()
    labeler = ZoneLabeler(emission=estimator(**seeded), topology=topology, **hmm)
    labeler.fit(zones, collections=texts, remembered=remembered)
    seconds = time.perf_counter() - start
    card = {
        "name": Path(out).stem,
        "emission": emission,
        **seeded,
        "topology": topology,
        **{name: getattr(labeler, name) for name in TRANSITION_SETTINGS},
        "trained_on": {"datasets": [str(d) for d in datasets], "split": split, "gold": [str(d) for d in gold],
                       "gold_weight": gold_weight, "platforms": platforms,
                       "groups": sorted(zones["group"].unique().tolist()), **labeler.training_summary_},
        "collections": str(collections) if collections else None,
        "fit_seconds": round(seconds, 2),
        "test_metrics": metrics_on_test_pages(labeler, datasets),
        "versions": labeler.versions_,
    }
    save_model(labeler, out, card)
    log.info("trained %s on %d pages in %.1fs -> %s", emission, labeler.n_pages_, seconds, out)
    return labeler


def repeat_pages(zones: pd.DataFrame, times: int) -> pd.DataFrame:
    """The pages of ``zones`` ``times`` over, each copy a page of its own (``document`` suffixed ``#2``,
    ``#3`` ...): how reviewed pages weigh more in training than their number, in the emission's fit and in
    the HMM's counts alike."""
    if times < 1:
        raise ValueError(f"a page weight is a whole number of at least 1, not {times}")
    copies = [zones.assign(document=zones["document"].astype(str) + f"#{k}") for k in range(2, times + 1)]
    return pd.concat([zones, *copies], ignore_index=True)


def metrics_on_test_pages(labeler: ZoneLabeler, datasets: list[Path]) -> dict:
    """F-measure (%) per major label, zone and token level, on the ``test`` pages of each dataset (none
    when a dataset has no test pages): the figures a model card carries."""
    summary = evaluate({"model": labeler.predict}, datasets, split="test").summary
    metrics: dict = {}
    for row in summary.to_dict("records"):
        scores = {label: round(float(row[label]), 1) for label in MAJOR_LABELS if pd.notna(row.get(label))}
        metrics.setdefault(row["dataset"], {})[f"{row['level']}_f"] = scores
    return metrics
