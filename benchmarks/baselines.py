"""Score the baselines on dataset folders, and show the CBR case base learning one template family.

    .venv/bin/python benchmarks/baselines.py build/corpus build/silver [--split test] \
        [--baselines cbr sentences ...] [--family commentary_notes] \
        [--curve-dataset build/corpus] [--out table.csv] [--curve-out curve.csv]

Prints token F per label, main-content P/R/F, Ea, Purity, Accuracy and ms per page for every
baseline on every dataset (plus the CBR ablation ``cbr[anchor=text]``), then the CBR learning curve (plain and labelled-with-feedback) for the
family's pages in manifest order.
"""
from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from scilabel.baselines import BASELINES, CBRBaseline, get_baseline
from scilabel.baselines.scoring import cbr_learning_curve, score_baselines

TABLE_COLUMNS = ["dataset", "baseline", "pages", "title_f", "authors_f", "affiliations_f", "abstract_f",
                 "references_f", "content_p", "content_r", "content_f", "ea", "purity", "accuracy", "ms_per_page"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="+", type=Path, help="dataset folders (zones.parquet + manifest.csv)")
    ap.add_argument("--split", default="test", help="split to score, or 'all' (default: test)")
    ap.add_argument("--baselines", nargs="+", default=list(BASELINES), choices=list(BASELINES))
    ap.add_argument("--family", default="commentary_notes", help="template family for the CBR learning curve")
    ap.add_argument("--curve-dataset", type=Path, help="dataset holding the family (default: the first)")
    ap.add_argument("--out", type=Path, help="write the score table as CSV")
    ap.add_argument("--curve-out", type=Path, help="write the learning curves as CSV")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    for noisy in ("trafilatura", "readability", "htmldate", "courlan"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 40)

    systems = [get_baseline(n) for n in args.baselines] + [CBRBaseline(anchor="text")]  # last: an ablation
    table = score_baselines(systems, args.datasets, split=None if args.split == "all" else args.split)
    print(f"\nBaselines, split {args.split} (token F per label; content P/R/F; Ea, Purity, Accuracy; ms per page)")
    print(table[TABLE_COLUMNS].round(3).to_string(index=False))
    if args.out:
        table.to_csv(args.out, index=False)

    curves = []
    for labelled in (False, True):
        curve = cbr_learning_curve(args.curve_dataset or args.datasets[0], args.family, labelled=labelled)
        curves.append(curve.assign(variant="cbr-labelled (gold feedback)" if labelled else "cbr"))
    curves = pd.concat(curves, ignore_index=True)
    print(f"\nCBR learning curve, family {args.family} (pages in arrival order)")
    print(curves.round(3).to_string(index=False))
    summary = curves.assign(first=curves.groupby("variant").cumcount() == 0).groupby(["variant", "first"]).agg(
        pages=("document", "size"), hit_rate=("hit", "mean"), retrieved=("retrieved", "mean"), ms=("ms", "mean"),
        solve_ms=("solve_ms", "mean"),
        **{c: (c, "mean") for c in ("content_f", "fields_f") if c in curves})
    print("\nFirst page vs the rest\n" + summary.round(3).to_string())
    if args.curve_out:
        curves.to_csv(args.curve_out, index=False)


if __name__ == "__main__":
    main()
