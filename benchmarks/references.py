"""Benchmark the reference pipeline (issue 6): parser field F1 on held-out labelled strings per
corpus, author-name splitting, splitting of reference zones into literals, and anchor-to-reference
linking (P/R/F1, Bergmark et al.'s Item and Reference accuracy) on the generated pages' gold.

    .venv/bin/python benchmarks/references.py [--model models/scilabel-refs.joblib]
        [--data ../shared/data] [--corpus build/corpus] [--splits test dev train]
        [--labels gold|svm|nb|MODEL] [--json out.json]

Reference and body zones are picked with the gold ``label`` column, or with the labels a zone
labeller predicts (``--labels svm``: the whole pipeline as ``scilabel label`` runs it); test pages
come from template families never seen in training.
"""
from __future__ import annotations

import argparse
import json
import logging
import time
from collections import Counter, defaultdict
from pathlib import Path

import pandas as pd

from scilabel.persistence import load_model, model_path
from scilabel.references import load_parser, page_references, split_references
from scilabel.references.evaluation import (
    LinkCounts,
    SplitCounts,
    corpus_name,
    gold_entries,
    link_counts,
    name_scores,
    prf,
    segmenter_pages,
    split_counts,
)
from scilabel.references.training import scores_by_corpus, training_data

REPO = Path(__file__).resolve().parents[1]


def fields_section(parser, data_dir: Path) -> dict:
    _, held = training_data(data_dir)
    scores = scores_by_corpus(parser, held)
    print("\n== Field F1 on held-out labelled strings (soft match; micro over the fields each corpus annotates)")
    print(f"{'corpus':10} {'n':>6} {'P':>6} {'R':>6} {'F1':>6}   per-field F1")
    for name, s in scores.items():
        fields = " ".join(f"{k}={v:.2f}" for k, v in s["fields"].items())
        print(f"{name:10} {s['n']:6d} {s['precision']:6.3f} {s['recall']:6.3f} {s['f1']:6.3f}   {fields}")
    for label, names in (("all", list(scores)), ("all but jats", [n for n in scores if n != "jats"])):
        total = prf(*(sum(scores[n][k] for n in names) for k in ("tp", "fp", "fn")))
        n = sum(scores[name]["n"] for name in names)
        print(f"{label:10} {n:6d} {total['precision']:6.3f} {total['recall']:6.3f} {total['f1']:6.3f}")
    detail = scores_by_corpus(parser, [r for r in held if corpus_name(r) != "jats"], detail=True)
    print("per file: " + ", ".join(f"{name} {s['f1']:.3f} (n={s['n']})" for name, s in detail.items()))
    names = name_scores(data_dir / "references" / "grobid" / "name-citation")
    print(f"\nauthor names (GROBID name-citation files, family names): P {names['precision']:.3f} "
          f"R {names['recall']:.3f} F1 {names['f1']:.3f} over {names['tp'] + names['fn']} names")
    return {"fields": scores, "fields_per_file": detail, "names": names}


def segmenter_section(data_dir: Path) -> dict:
    total = SplitCounts()
    for frame in segmenter_pages(data_dir / "references" / "grobid" / "reference-segmenter"):
        total.add(split_counts([lit.rows for lit in split_references(frame)], gold_entries(frame)))
    s = total.scores()
    print("\n== Splitting real bibliographies by text alone (GROBID reference-segmenter: one zone per printed line,"
          " no list structure, no indents)")
    print(f"{s['pages']} bibliographies, {s['entries']} entries: count exact {s['count_exact']:.3f}, boundary "
          f"P {s['boundary_precision']:.3f} R {s['boundary_recall']:.3f} F1 {s['boundary_f1']:.3f}, "
          f"entries exact {s['entries_exact']:.3f}")
    return s


def print_table(totals: dict, columns: list[tuple[str, str]]) -> None:
    """One row per (split, family) of summed counts: the named scores under their headers."""
    print(f"{'split':6} {'family':18} " + " ".join(f"{head:>8}" for _, head in columns))
    for (split, group), counts in sorted(totals.items()):
        scores = counts.scores()
        cells = (f"{scores[key]:>{max(8, len(head))}{'d' if isinstance(scores[key], int) else '.3f'}}"
                 for key, head in columns)
        print(f"{split:6} {group:18} " + " ".join(cells))


def pages_section(parser, zones: pd.DataFrame, splits: list[str], label_column: str = "label") -> dict:
    split_totals: dict = defaultdict(SplitCounts)
    link_totals: dict = defaultdict(LinkCounts)
    formats: dict = defaultdict(Counter)
    started = time.perf_counter()
    pages = 0
    for page, frame in zones[zones["split"].isin(splits)].groupby("document", sort=False):
        split, group = frame["split"].iloc[0], frame["group"].iloc[0]
        found = page_references(frame, parser, label_column)
        rows = [lit.rows for lit in found.literals]
        refs = frame[frame["label"] == "references"]
        sc = split_counts(rows, gold_entries(refs))
        lc = link_counts(frame, rows, found.anchors)
        for key in ((split, group), (split, "ALL")):
            split_totals[key].add(sc)
            link_totals[key].add(lc)
        formats[split][found.format or "none"] += 1
        pages += 1
    seconds = time.perf_counter() - started
    print(f"\n== Splitting reference zones of generated pages into literals ({pages} pages, {seconds:.0f} s with "
          f"parsing and linking; zones chosen by the {label_column!r} column)")
    print_table(split_totals, [("pages", "pages"), ("count_exact", "count exact"), ("boundary_precision", "bound P"),
                               ("boundary_recall", "bound R"), ("boundary_f1", "bound F1"),
                               ("entries_exact", "entries exact")])
    print("\n== Anchor-to-reference links (pairs of body zone and reference id against the zones' gold cites)")
    print_table(link_totals, [("link_precision", "link P"), ("link_recall", "link R"), ("link_f1", "link F1"),
                              ("item_accuracy", "Item acc"), ("reference_accuracy", "Ref acc"), ("references", "refs")])
    print("\nanchor formats decided per page:")
    for split, counts in sorted(formats.items()):
        print(f"  {split}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    return {
        "splitting": {f"{k[0]}/{k[1]}": c.scores() for k, c in split_totals.items()},
        "links": {f"{k[0]}/{k[1]}": c.scores() for k, c in link_totals.items()},
        "formats": {k: dict(v) for k, v in formats.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=REPO / "models" / "scilabel-refs.npz")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--corpus", type=Path, default=REPO / "build" / "corpus")
    ap.add_argument("--splits", nargs="+", default=["test", "dev"])
    ap.add_argument("--labels", default="gold",
                    help="which zones are references and body: gold, or a zone labeller (svm, nb, model file)")
    ap.add_argument("--skip-fields", action="store_true", help="only the page figures")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    parser = load_parser(args.model)
    card = parser.model_card_
    print(f"model {args.model} ({args.model.stat().st_size / 2**20:.1f} MB), trained on "
          f"{sum(card['training_references'].values())} strings in {card['training_seconds']} s")
    out = {} if args.skip_fields else fields_section(parser, args.data)
    out["segmenter"] = segmenter_section(args.data)
    zones = pd.read_parquet(args.corpus / "zones.parquet")
    zones = zones[zones["split"].isin(args.splits)].reset_index(drop=True)
    column = "label"
    if args.labels != "gold":
        labeller = load_model(model_path(args.labels))
        zones["predicted"], column = labeller.predict(zones), "predicted"
        out["labels"] = labeller.model_card_.get("name", args.labels)
    out.update(pages_section(parser, zones, args.splits, column))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
