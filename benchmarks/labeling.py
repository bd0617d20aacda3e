"""Benchmark the labeller after rendering: time per page for line units + features + emission, Viterbi,
posteriors (for confidences) and the whole ``label_pages`` call, per shipped model; the same call on
the pages cut to their first 5, 60 and 200 zones (what a page costs at any size, and what each zone
adds); and training time on 1,000 cached pages with the field collections, as the shipped models are
trained.

    .venv/bin/python benchmarks/labeling.py [--data build/corpus] [--collections build/collections.parquet]
        [--train-pages 1000]

``--train-pages 0`` times labelling only.
"""
from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from scilabel.corpus.dataset import load_zones
from scilabel.labeler import ZoneLabeler
from scilabel.persistence import SHIPPED_MODELS, default_model_path, load_model

#: Page sizes (first zones of each test page) timed to separate the per-page and per-zone cost.
CUT_SIZES = (5, 60, 200)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("build/corpus"))
    ap.add_argument("--collections", type=Path, default=Path("build/collections.parquet"))
    ap.add_argument("--train-pages", type=int, default=1000)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    warnings.filterwarnings("ignore")
    zones = load_zones([args.data])
    zones["label"] = zones["label"].fillna("other")
    test = zones[zones["split"] == "test"]
    pages = [frame.reset_index(drop=True) for _, frame in test.groupby("document", sort=False)]
    result: dict = {"test_pages": len(pages), "zones_per_page_median": statistics.median(len(p) for p in pages)}
    for emission in SHIPPED_MODELS:
        model = load_model(default_model_path(emission))
        parts = {"emission": [], "viterbi": [], "posteriors": [], "label_pages": []}
        for frame in pages:
            t0 = time.perf_counter()
            log_emission = model._unit_log_emission(frame)[1]
            t1 = time.perf_counter()
            model.hmm_.decode(log_emission)
            t2 = time.perf_counter()
            model.hmm_.posteriors(log_emission)
            t3 = time.perf_counter()
            model.label_pages(frame)
            t4 = time.perf_counter()
            for key, value in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                parts[key].append(1000 * value)
        result[emission] = {k: {"median_ms": round(statistics.median(v), 2), "p95_ms": round(float(np.percentile(v, 95)), 2)}
                            for k, v in parts.items()}
        for size in CUT_SIZES:
            times = []
            for frame in pages:
                start = time.perf_counter()
                model.label_pages(frame.head(size))
                times.append(1000 * (time.perf_counter() - start))
            result[emission][f"label_pages_first_{size}_zones"] = {"median_ms": round(statistics.median(times), 2)}
    if args.train_pages > 0:
        result.update(training_times(zones, args.train_pages, args.collections))
    print(json.dumps(result, indent=2))


def training_times(zones: pd.DataFrame, n_pages: int, collections_path: Path) -> dict:
    """Seconds to fit each shipped model's labeller on ``n_pages`` training pages (a seeded choice)."""
    train = zones[zones["split"] == "train"]
    chosen = train["document"].drop_duplicates().sample(frac=1.0, random_state=0).head(n_pages)
    subset = train[train["document"].isin(set(chosen))].reset_index(drop=True)
    collections = pd.read_parquet(collections_path) if collections_path.is_file() else None
    result: dict = {"fit_with_collections": collections is not None}
    for emission in SHIPPED_MODELS:
        start = time.perf_counter()
        ZoneLabeler(emission=emission).fit(subset, collections=collections)
        result[f"fit_{emission}_{len(chosen)}_pages_s"] = round(time.perf_counter() - start, 1)
    return result


if __name__ == "__main__":
    main()
