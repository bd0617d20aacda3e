"""Benchmark what the page's boxes bring to reference splitting: every page split with the zones'
``node_path`` (each entry's box, :func:`scilabel.references.split._entry_boxes`) and without it (the text
and geometry alone, as before), on

* the reviewed real pages (``gold/`` of the shared data; zones labelled by the shipped SVM, references
  parsed by the shipped parser): entries per page and the share without authors, title or year (no
  entry gold exists for these pages: their reviewed references follow the zones of the time);
* the generated dev and test pages (``build/corpus``; their gold labels pick the reference zones, so
  only the splitting is measured): boundary F1 and exact entries against the pages' gold entries.

    .venv/bin/python benchmarks/reference_boxes.py [--data ../shared/data] [--corpus build/corpus]
        [--cache build/reference-boxes] [--workers 1]

Pages are rendered once into ``--cache`` (zones as Parquet, keyed by the rendering code like
:mod:`scilabel.cache`); a second run only splits.
"""
from __future__ import annotations

import argparse
import json
import logging
from collections import Counter
from pathlib import Path

import pandas as pd

from scilabel.cache import cached_zones
from scilabel.persistence import load_model, model_path
from scilabel.references import load_parser, page_references, split_references
from scilabel.references.evaluation import SplitCounts, gold_entries, split_counts

REPO = Path(__file__).resolve().parents[1]


def gold_pages(data: Path) -> list[Path]:
    return [data / json.loads(f.read_text(encoding="utf-8"))["page"] for f in sorted((data / "gold").glob("*/*.json"))]


def parsed_fields(pages: dict[Path, pd.DataFrame], boxes: bool) -> dict[str, float]:
    parser = load_parser()
    counts: Counter = Counter()
    for zones in pages.values():
        refs = page_references(zones if boxes else zones.drop(columns="node_path"), parser).references
        counts.update(entries=len(refs), no_authors=sum(not r["authors"] for r in refs),
                      no_title=sum(not r["title"] for r in refs), no_year=sum(not r["year"] for r in refs))
    n = max(counts["entries"], 1)
    return {"entries": counts["entries"], **{k: round(counts[k] / n, 3) for k in ("no_authors", "no_title", "no_year")}}


def split_scores(pages: dict[Path, pd.DataFrame], boxes: bool) -> dict[str, float]:
    total = SplitCounts()
    for zones in pages.values():
        zones = zones.reset_index(drop=True)
        gold = gold_entries(zones[zones["label"] == "references"])
        if gold:
            literals = split_references(zones if boxes else zones.drop(columns="node_path"))
            total.add(split_counts([lit.rows for lit in literals], gold))
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in total.scores().items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--corpus", type=Path, default=REPO / "build" / "corpus")
    ap.add_argument("--cache", type=Path, default=REPO / "build" / "reference-boxes")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    labeler = load_model(model_path("svm"))
    real = {}
    for page in cached_zones(gold_pages(args.data), args.cache, workers=args.workers):
        if page.zones is not None:
            real[page.path] = page.zones.assign(label=labeler.label_pages(page.zones)[0].labels)
    manifest = pd.read_csv(args.corpus / "manifest.csv")
    manifest = manifest[manifest["split"] != "train"]
    generated: dict[str, dict[Path, pd.DataFrame]] = {}
    paths = [args.corpus / p for p in manifest["path"]]
    for split, page in zip(manifest["split"], cached_zones(paths, args.cache, workers=args.workers)):
        if page.zones is not None:
            generated.setdefault(split, {})[page.path] = page.zones
    out = {"gold pages, SVM labels": {name: parsed_fields(real, boxes) for name, boxes in
                                      (("text alone", False), ("with boxes", True))}}
    for split, pages in sorted(generated.items()):
        out[f"generated {split}, gold labels"] = {name: split_scores(pages, boxes) for name, boxes in
                                                  (("text alone", False), ("with boxes", True))}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
