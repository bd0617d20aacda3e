"""Leave-one-family-out cross-validation of the labeller on the generated corpus's training families:
for each family, fit on the other families' train pages (with the field collections), label the
held-out family's pages and score zones; then the mean over families. Nine more unseen layouts to
judge a change on than the three dev families.

    .venv/bin/python benchmarks/family_cv.py [--data build/corpus] [--collections build/collections.parquet]
        [--emission svm|nb] [--emission-param NAME=VALUE ...] [--json out.json]

``--emission-param prior_weight=0.5`` sets a parameter of the emission estimator (numbers as floats,
``None`` as None).
"""
from __future__ import annotations

import argparse
import json
import logging
import time
import warnings
from pathlib import Path

import pandas as pd

from scilabel.corpus.dataset import load_zones
from scilabel.emission import EMISSIONS
from scilabel.labeler import ZoneLabeler
from scilabel.metrics import zone_scores
from scilabel.schema import FIELD_LABELS


def _value(text: str) -> float | None:
    return None if text == "None" else float(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("build/corpus"))
    ap.add_argument("--collections", type=Path, default=Path("build/collections.parquet"))
    ap.add_argument("--emission", choices=sorted(EMISSIONS), default="svm")
    ap.add_argument("--emission-param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    warnings.filterwarnings("ignore")
    params = {name: _value(value) for name, value in (p.split("=", 1) for p in args.emission_param)}
    zones = load_zones([args.data])
    zones["label"] = zones["label"].fillna("other")
    train = zones[zones["split"] == "train"]
    collections = pd.read_parquet(args.collections)
    rows = []
    for family in sorted(train["group"].unique()):
        start = time.perf_counter()
        held = train["group"] == family
        emission = EMISSIONS[args.emission].estimator(**params)
        model = ZoneLabeler(emission=emission).fit(train[~held].reset_index(drop=True), collections=collections)
        pages = train[held].reset_index(drop=True)
        scores = zone_scores(pages["label"], model.predict(pages))
        rows.append({"family": family, "pages": pages["document"].nunique(),
                     **{label: 100 * scores.loc[label, "f"] for label in FIELD_LABELS}})
        print(f"{family}: {time.perf_counter() - start:.0f} s", flush=True)
    table = pd.DataFrame(rows).set_index("family")
    table.loc["mean"] = table.mean()
    print(f"zone F (%), {args.emission} {params or ''}, each family held out of training:")
    print(table.round(1).to_string())
    if args.json:
        args.json.write_text(json.dumps(table.round(2).reset_index().to_dict("records"), indent=2))


if __name__ == "__main__":
    main()
