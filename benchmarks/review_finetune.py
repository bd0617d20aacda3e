"""Does reviewing a few pages of a layout teach the labeller that layout? The fine-tune target of issue 42.

Three publishers of the real-page gold are held out of training altogether. A base labeller (the
shipped model's settings) is trained on the other publishers' gold pages (and, with ``--data``, on a
sample of generated pages). For each held-out publisher, ``--reviewed`` of its pages (a seeded draw)
stand for a review (their gold labels are what ``scilabel review`` would have saved; drawn among the
pages whose gold ranges hold the gold text, :func:`faithful_ranges`), the labeller is trained again
with them added ``--weight`` times (``scilabel train --gold DIR --gold-weight N``; the labeller
remembers the gold pages' layouts, :mod:`scilabel.layout_memory`), and both labellers label the
publisher's other pages, scored per field with :mod:`scilabel.page_scores` (the measure of
``tools/score_pages.py``); each also as it labels with nothing remembered (``layout_memory=0``), which
tells the memory's share of a gain from the retraining's.

    python benchmarks/review_finetune.py --gold build/gold --out build/bench/review_finetune.json
    python benchmarks/review_finetune.py --gold build/gold --data build/corpus --generated-pages 300 \\
        --collections build/collections.parquet

``--gold`` is the gold dataset of ``scilabel corpus gold``. Prints token F1 (micro over the scored
pages, their number in parentheses) per field and publisher before and after, and writes them with the
per-page scores as JSON with ``--out``.
"""
from __future__ import annotations

import argparse
import copy
import json
import logging
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone

from scilabel import page_scores
from scilabel.atomic import write_text
from scilabel.corpus.dataset import MANIFEST_FILE, load_zones
from scilabel.corpus.gold import MISMATCH_RECALL
from scilabel.crossval import sample_pages
from scilabel.evaluation import score_gold_pages
from scilabel.persistence import load_model, model_path
from scilabel.training import repeat_pages

log = logging.getLogger("review_finetune")
PUBLISHERS = ("Nature", "Wiley", "Springer")
FIELDS = ("authors", "affiliations")


def fit(template, zones: pd.DataFrame, texts: pd.DataFrame | None, remembered: list[str]):
    start = time.perf_counter()
    labeler = clone(template).fit(zones.reset_index(drop=True), collections=texts, remembered=remembered)
    log.info("trained on %d pages in %.0fs", zones["document"].nunique(), time.perf_counter() - start)
    return labeler


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gold", type=Path, required=True, help="gold dataset (scilabel corpus gold)")
    ap.add_argument("--publishers", nargs="+", default=list(PUBLISHERS), help="held-out publishers (canonical names)")
    ap.add_argument("--reviewed", type=int, default=5, help="pages of each publisher reviewed (default 5)")
    ap.add_argument("--weight", type=int, nargs="+", default=[1, 5],
                    help="times each reviewed page counts in training; one retraining per weight (default 1 5)")
    ap.add_argument("--data", type=Path, nargs="*", default=[], help="generated datasets whose train split is added")
    ap.add_argument("--generated-pages", type=int, help="a seeded sample of this many generated pages")
    ap.add_argument("--collections", type=Path, help="field collections Parquet")
    ap.add_argument("--model", default="svm", help="the labeller whose settings are trained (default svm)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    template = load_model(model_path(args.model))
    manifest = pd.read_csv(args.gold / MANIFEST_FILE)
    manifest = manifest[manifest["render_error"].isna()]
    zones = load_zones([args.gold])
    zones["label"] = zones["label"].fillna("other")
    missing = sorted(set(args.publishers) - set(manifest["group"]))
    if missing:
        raise SystemExit(f"{args.gold}: no gold pages of {', '.join(missing)}")
    held = manifest["group"].isin(args.publishers)
    base_zones = zones[zones["document"].isin(manifest.loc[~held, "document"])]
    if args.data:
        generated = load_zones(args.data)
        generated = sample_pages(generated[generated["split"] == "train"], args.generated_pages, args.seed)
        base_zones = pd.concat([generated, base_zones], ignore_index=True)
    texts = pd.read_parquet(args.collections) if args.collections else None
    base_gold = manifest.loc[~held, "document"].tolist()
    base = fit(template, base_zones, texts, base_gold)
    rng = np.random.default_rng(args.seed)
    report = {"settings": {**{k: str(v) for k, v in vars(args).items()}, "base_pages": int(base_zones["document"].nunique())},
              "publishers": {}}
    for publisher in args.publishers:
        pages = sorted(manifest.loc[manifest["group"] == publisher, "document"])
        faithful = sorted(manifest.loc[(manifest["group"] == publisher) & faithful_ranges(manifest), "document"])
        reviewed = sorted(rng.choice(faithful, min(args.reviewed, len(faithful), len(pages) - 1), replace=False).tolist())
        scored = [p for p in pages if p not in reviewed]
        labelers = {"before": base}
        for weight in args.weight:
            review_zones = repeat_pages(zones[zones["document"].isin(reviewed)], weight)
            labelers[f"after, weight {weight}"] = fit(template, pd.concat([base_zones, review_zones], ignore_index=True),
                                                      texts, base_gold + reviewed)
        labelers.update({f"{name}, nothing remembered": copy.copy(labeler).set_params(layout_memory=0.0)
                         for name, labeler in list(labelers.items())})
        results = score_gold_pages_of(manifest[manifest["document"].isin(scored)], zones, labelers)
        summary = {name: page_scores.aggregate(rows) for name, rows in results.items()}
        report["publishers"][publisher] = {"reviewed": reviewed, "scored": scored, "summary": summary, "pages": results}
    print(table(report))
    if args.out:
        write_text(args.out, json.dumps(report, indent=1, ensure_ascii=False))


def faithful_ranges(manifest: pd.DataFrame) -> pd.Series:
    """Pages whose gold zone ranges hold their gold text (the scorer's recall of each scored field in the
    ranged zones at least :data:`~scilabel.corpus.gold.MISMATCH_RECALL`): a review of them would label the
    zones as the ranges do. Ranges written for an older zone collector may miss a field's zones."""
    checks = manifest[[c for c in manifest.columns if c.startswith("check_")]]
    return (checks.isna() | (checks >= MISMATCH_RECALL)).all(axis=1)


def score_gold_pages_of(manifest: pd.DataFrame, zones: pd.DataFrame, labelers: dict) -> dict[str, list[dict]]:
    """:func:`scilabel.evaluation.score_gold_pages` on the pages of ``manifest`` only."""
    import tempfile

    from scilabel.corpus.dataset import write_dataset

    with tempfile.TemporaryDirectory(prefix="review-finetune-") as tmp:
        chosen = zones[zones["document"].isin(manifest["document"])].drop(columns=["declared", "dataset"])
        write_dataset(Path(tmp), chosen, manifest)
        systems = {name: (lambda frame, m=labeler: m.predict(frame)) for name, labeler in labelers.items()}
        return score_gold_pages(systems, Path(tmp), page_scores)


def table(report: dict) -> str:
    """Token F1 (micro over the scored pages) per publisher and field: before, and after each retraining."""
    lines = [f"{'publisher':12} {'labeller':37} {'reviewed':>8} {'scored':>6} " + "".join(f"{f:>13}" for f in page_scores.SCORED)]
    for publisher, row in report["publishers"].items():
        for name, summary in row["summary"].items():
            cells = [f"{summary[f]['F1_micro']:.3f} ({summary[f]['n_pages']})".rjust(13) if f in summary else f"{'-':>13}"
                     for f in page_scores.SCORED]
            lines.append(f"{publisher[:12]:12} {name:37} {len(row['reviewed']):8d} {len(row['scored']):6d} " + "".join(cells))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
