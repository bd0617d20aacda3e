"""Benchmark the labeller after rendering: time per page for line units + features + emission, Viterbi,
posteriors (for confidences) and the whole ``label_pages`` call, per shipped model, and training time
on 1,000 cached pages.

    .venv/bin/python benchmarks/labeling.py [--data build/corpus] [--train-pages 1000]
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

from scilabel.corpus.dataset import load_zones
from scilabel.labeler import ZoneLabeler
from scilabel.persistence import DEFAULT_MODEL_NAMES, default_model_path, load_model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("build/corpus"))
    ap.add_argument("--train-pages", type=int, default=1000)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    warnings.filterwarnings("ignore")
    zones = load_zones([args.data])
    zones["label"] = zones["label"].fillna("other")
    test = zones[zones["split"] == "test"]
    pages = [frame.reset_index(drop=True) for _, frame in test.groupby("page", sort=False)]
    result: dict = {"test_pages": len(pages), "zones_per_page_median": statistics.median(len(p) for p in pages)}
    for emission in DEFAULT_MODEL_NAMES:
        model = load_model(default_model_path(emission))
        parts = {"emission": [], "viterbi": [], "posteriors": [], "label_pages": []}
        for frame in pages:
            t0 = time.perf_counter()
            _, log_emission = model._unit_log_emission(frame)
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
    train = zones[zones["split"] == "train"]
    chosen = train["page"].drop_duplicates().sample(frac=1.0, random_state=0).head(args.train_pages)
    subset = train[train["page"].isin(set(chosen))].reset_index(drop=True)
    for emission in DEFAULT_MODEL_NAMES:
        start = time.perf_counter()
        ZoneLabeler(emission=emission).fit(subset)
        result[f"fit_{emission}_{len(chosen)}_pages_s"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
