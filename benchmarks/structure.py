"""Benchmark article structure (issue 7): section headings, heading levels, paragraph and sentence
boundaries, captions, footnotes and the content/noise split on generated pages, per template
family, plus the sentence splitter against pysbd (``pip install pysbd``, in the dev extra) on the JATS
abstracts.

    .venv/bin/python benchmarks/structure.py [--corpus build/corpus] [--splits test dev]
        [--labels gold|svm|nb|MODEL] [--block-model FILE] [--jats ../shared/data/jats] [--json out.json]

Zones are labelled with the gold ``label`` column, or by a zone labeller (``--labels svm``: the
pipeline as ``scilabel structure`` runs it). Rules were tuned on train families only; test and
dev families are unseen. Gold: zone ``content``/``struct`` columns and the page HTML's
``data-scilabel-level`` (see ``scilabel.structure.evaluation``).
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
from scilabel.structure import article_structure, split_sentences
from scilabel.structure.evaluation import page_counts, summary
from scilabel.structure.model import BlockModel
from scilabel.structure.training import load_block_model

REPO = Path(__file__).resolve().parents[1]
COLUMNS = (("heading_f1", "head F1"), ("level_accuracy", "level"), ("boundary_f1", "para bnd"),
           ("sentence_f1", "sent bnd"), ("text_boundary_f1", "text para"), ("text_sentence_f1", "text sent"),
           ("caption_f1", "caption"), ("caption_in_text", "cap->text"),
           ("footnote_f1", "footnote"), ("item_f1", "item"), ("content_precision", "cont P"),
           ("content_recall", "cont R"))


def pages_section(zones: pd.DataFrame, corpus: Path, column: str, model: BlockModel | None = None) -> dict:
    totals: dict = defaultdict(Counter)
    started, pages, build_seconds = time.perf_counter(), 0, 0.0
    for page, frame in zones.groupby("document", sort=False):
        frame = frame.reset_index(drop=True)
        t0 = time.perf_counter()
        article = article_structure(frame, frame[column].tolist(), model=model)
        build_seconds += time.perf_counter() - t0
        counts = page_counts(frame, article, (corpus / page).read_bytes())
        split, group = frame["split"].iloc[0], frame["group"].iloc[0]
        for key in ((split, group), (split, "ALL")):
            totals[key].update(counts)
        pages += 1
    seconds = time.perf_counter() - started
    print(f"\n== Structure of generated pages ({pages} pages, {seconds:.0f} s with scoring; structure "
          f"{1000 * build_seconds / max(pages, 1):.0f} ms per page; zones labelled by the {column!r} column)")
    print(f"{'split':6} {'family':18} " + " ".join(f"{name:>9}" for _, name in COLUMNS))
    out = {}
    for (split, group), counts in sorted(totals.items()):
        s = summary(counts)
        out[f"{split}/{group}"] = {**s, "counts": dict(counts)}
        print(f"{split:6} {group:18} " + " ".join(f"{s[key]:9.3f}" for key, _ in COLUMNS))
    return out


def splitter_section(jats_dir: Path) -> dict:
    from scilabel.corpus.jats import iter_articles

    import pysbd

    texts = [p.text for _, art in iter_articles(jats_dir) for part in art.abstract for p in part.paragraphs]
    plain = pysbd.Segmenter(language="en", clean=False, char_span=False)
    t0 = time.perf_counter()
    raw = [[s.strip() for s in plain.segment(t) if s.strip()] for t in texts]
    t1 = time.perf_counter()
    ours = [split_sentences(t) for t in texts]
    t2 = time.perf_counter()
    changed = [(r, o) for r, o in zip(raw, ours) if r != o]
    merged = sum(max(len(r) - len(o), 0) for r, o in changed)
    print(f"\n== Sentence splitter on {len(texts)} JATS abstract paragraphs ({jats_dir})")
    print(f"pysbd {sum(map(len, raw))} sentences ({t1 - t0:.1f} s), scilabel {sum(map(len, ours))} "
          f"({t2 - t1:.1f} s); {len(changed)} paragraphs split differently, net {merged} fewer pieces")
    return {"paragraphs": len(texts), "pysbd": sum(map(len, raw)), "scilabel": sum(map(len, ours)),
            "changed_paragraphs": len(changed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=REPO / "build" / "corpus")
    ap.add_argument("--splits", nargs="+", default=["test", "dev"])
    ap.add_argument("--labels", default="gold", help="zone labels: gold, or a zone labeller (svm, nb, model file)")
    ap.add_argument("--block-model", type=Path, help="block model file (default: the shipped one)")
    ap.add_argument("--jats", type=Path, default=REPO.parent / "shared" / "data" / "jats")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    zones = pd.read_parquet(args.corpus / "zones.parquet")
    zones = zones[zones["split"].isin(args.splits)].reset_index(drop=True)
    out: dict = {"splits": args.splits, "labels": args.labels}
    column = "label"
    if args.labels != "gold":
        labeller = load_model(model_path(args.labels))
        zones["predicted"], column = labeller.predict(zones), "predicted"
        out["labels"] = labeller.model_card_.get("name", args.labels)
    model = load_block_model(args.block_model) if args.block_model else None
    out["pages"] = pages_section(zones, args.corpus, column, model)
    if args.jats.is_dir():
        out["splitter"] = splitter_section(args.jats)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
