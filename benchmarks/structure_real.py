"""Benchmark the block model where it must hold: section headings of reviewed real pages under
publisher-grouped cross-validation, and paragraph and sentence boundaries of real-platform families
held out by platform (issue 45).

    .venv/bin/python benchmarks/structure_real.py headings [--gold build/gold] [--heading-gold ../shared/data/gold-structure]
        [--data build/corpus] [--folds 5] [--labels svm|gold]
        [--records out.jsonl] [--no-gold-training] [--only-folds 0 1 2]
    .venv/bin/python benchmarks/structure_real.py platforms [--data ...] [--pages-dir build/corpus] [--test-pages 40]
        [--errors boundary-errors.tsv]
    .venv/bin/python benchmarks/structure_real.py rules [--only-folds 0 1 2]

``build/corpus`` (``scilabel corpus generate``) holds the generated and the real-platform families
(elife, janeway, quarto, plos_wombat, pmc_preview, scielo carry structure gold).

``headings``: for each fold of publishers (:func:`scilabel.crossval.publisher_folds`, no publisher on
both sides) a block model is trained on the structure-annotated datasets' training pages plus the
reviewed real pages of the other publishers, and structures the fold's pages (zones labelled by the
shipped labeller, as ``scilabel structure`` does, or by their gold labels); headings are scored as
``tools/score_structure.py`` scores them (``--records`` writes its input, to check). ``platforms``:
for each pair of platform families, a model trained without them structures their pages, scored by
:func:`scilabel.structure.evaluation.page_counts` against the pages' HTML gold (``boundary`` and
``sentence`` over every predicted paragraph, ``text_boundary`` and ``text_sentence`` over the gold's
running text only: see that module). ``rules``: both again with each pass of the hand-written
rules (:data:`scilabel.structure.blocks.RULE_PASSES`) left out in turn, features and model alike
(heading CV on the development folds unless ``--only-folds``). Designs are chosen on
folds 0–2 (``--only-folds 0 1 2``); the zone labels of the labeller are cached under
``build/structure-labels`` (by model file and its modification time). Training rows are
cached under ``build/structure-rows`` (remove it after changing the features or the gold matching); the
model settings are BlockModel's unless ``--params``.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

import pandas as pd

from scilabel.corpus.dataset import load_zones
from scilabel.crossval import publisher_folds
from scilabel.persistence import load_model, model_path
from scilabel.structure import article_structure
from scilabel.structure.evaluation import boundary_errors, page_counts, summary
from scilabel.structure.blocks import RULE_PASSES
from scilabel.structure.crossval import heading_cv
from scilabel.structure.gold import read_heading_gold
from scilabel.structure.model import BlockModel
from scilabel.structure.training import dataset_rows, fit_rows
from scilabel.writers.json import article_json

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
CACHE = REPO / "build" / "structure-rows"
#: Platform families with structure gold, held out two at a time.
PLATFORM_FOLDS = (("elife", "janeway"), ("quarto", "plos_wombat"), ("pmc_preview", "scielo"))
COLUMNS = ("heading_f1", "level_accuracy", "boundary_f1", "sentence_f1", "text_boundary_f1", "text_sentence_f1",
           "caption_f1", "item_f1", "content_precision", "content_recall")


def cached_rows(folder: Path, heading_gold: dict | None = None) -> pd.DataFrame:
    """Every training row of a dataset folder (all splits), cached by folder name."""
    path = CACHE / f"{folder.name}.parquet"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        zones = load_zones([folder])
        if heading_gold is not None:
            zones = zones[zones["document"].isin(list(heading_gold))]
        dataset_rows(zones, heading_gold, folder).assign(dataset=folder.name).to_parquet(path)
    return pd.read_parquet(path)


def base_rows(folders: list[Path], pages_per_family: int, hold_out: tuple[str, ...] = ()) -> pd.DataFrame:
    """Training-split rows of the structure-annotated datasets, ``pages_per_family`` pages a family."""
    frames = []
    for folder in folders:
        rows = cached_rows(folder)
        rows = rows[(rows["split"] == "train") & ~rows["group"].isin(hold_out)]
        pages = rows.drop_duplicates("page").groupby("group")["page"].apply(
            lambda s: list(s.sample(min(len(s), pages_per_family), random_state=0)))
        frames.append(rows[rows["page"].isin([p for ps in pages for p in ps])])
    return pd.concat(frames, ignore_index=True)


def pages_rows(folders: list[Path], pages: set[str], rules_off: tuple[str, ...]) -> pd.DataFrame:
    """The training rows of ``pages`` of the dataset ``folders``, features computed without ``rules_off``."""
    frames = []
    for folder in folders:
        zones = load_zones([folder])
        zones = zones[zones["document"].isin(pages)]
        frames.append(dataset_rows(zones, None, folder, rules_off).assign(dataset=folder.name))
    return pd.concat(frames, ignore_index=True)


def page_labels(zones: pd.DataFrame, labels: str) -> dict[str, list[str]]:
    """Document -> zone labels of every page of ``zones``: the gold ones, or the labeller ``labels``'s,
    cached under ``build/structure-labels`` by labeller name and the model file's modification time."""
    if labels == "gold":
        return {doc: page["label"].tolist() for doc, page in zones.groupby("document", sort=False)}
    path = model_path(labels)
    cache = REPO / "build" / "structure-labels" / f"{Path(labels).name}-{int(path.stat().st_mtime)}.json"
    if cache.exists():
        return json.loads(cache.read_text(encoding="utf-8"))
    labeller = load_model(path)
    out = {doc: list(labeller.label_pages(page.reset_index(drop=True))[0].labels)
           for doc, page in zones.groupby("document", sort=False)}
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out), encoding="utf-8")
    return out


def headings(args: argparse.Namespace) -> None:
    gold_pages = read_heading_gold(args.heading_gold)
    manifest = pd.read_csv(args.gold / "manifest.csv")
    folds = publisher_folds(manifest, args.folds)
    folds = [f for k, f in enumerate(folds) if not args.only_folds or k in args.only_folds]
    rows = base_rows(args.data, args.pages_per_family)
    if not args.no_gold_training:
        rows = pd.concat([rows, cached_rows(args.gold, gold_pages)], ignore_index=True)
    zones = load_zones([args.gold])
    zones = zones[zones["document"].isin([d for d, g in gold_pages.items() if g])]
    t0 = time.perf_counter()
    result = heading_cv(rows, zones, gold_pages, page_labels(zones, args.labels), folds, **args.params)
    print(f"{len(folds)} folds in {time.perf_counter() - t0:.0f} s\n{result.table().to_string(index=False)}")
    if args.records:
        args.records.write_text("".join(json.dumps({**article_json(a), "source": os.path.realpath(SHARED / page)},
                                                   ensure_ascii=False) + "\n" for page, a in result.articles.items()),
                                encoding="utf-8")


def platform_counts(rows: pd.DataFrame, zones: pd.DataFrame, args: argparse.Namespace,
                    params: dict, errors: list[pd.DataFrame] | None = None) -> dict[str, Counter]:
    """Structure counts of each platform family's first ``--test-pages`` pages (``zones``), each pair of
    families structured by a block model (``params``) trained on the ``rows`` of the other families;
    each page's paragraph-boundary errors appended to ``errors`` when given."""
    totals: dict[str, Counter] = defaultdict(Counter)
    for held in PLATFORM_FOLDS:
        t0 = time.perf_counter()
        model = fit_rows(BlockModel(**params), rows[~rows["group"].isin(held)])
        for family in held:
            pages = zones[zones["group"] == family]["document"].unique()[: args.test_pages]
            for doc in pages:
                frame = zones[zones["document"] == doc].reset_index(drop=True)
                article = article_structure(frame, frame["label"].tolist(), model=model)
                page_html = (args.pages_dir / doc).read_bytes()
                counts = page_counts(frame, article, page_html)
                if errors is not None:
                    errors.append(boundary_errors(frame, article, page_html).assign(family=family, page=doc))
                totals[family].update(counts)
                totals["ALL"].update(counts)
        logging.info("held out %s: %.0f s", held, time.perf_counter() - t0)
    return totals


def platform_zones(args: argparse.Namespace) -> pd.DataFrame:
    zones = load_zones(args.data)
    return zones[zones["group"].isin([f for held in PLATFORM_FOLDS for f in held])]


def platforms(args: argparse.Namespace) -> None:
    errors: list[pd.DataFrame] | None = [] if args.errors else None
    totals = platform_counts(base_rows(args.data, args.pages_per_family), platform_zones(args), args, args.params,
                             errors)
    if errors:
        pd.concat(errors, ignore_index=True).to_csv(args.errors, sep="\t", index=False)
    print(f"{'family':14} " + " ".join(f"{c[:12]:>12}" for c in COLUMNS))
    for family, counts in sorted(totals.items()):
        s = summary(counts)
        print(f"{family:14} " + " ".join(f"{s[c]:12.3f}" for c in COLUMNS))


def rules(args: argparse.Namespace) -> None:
    """Heading CV and platforms with every rule pass, then with each left out (rows recomputed for
    the same training pages)."""
    gold_pages = read_heading_gold(args.heading_gold)
    folds = publisher_folds(pd.read_csv(args.gold / "manifest.csv"), args.folds)
    folds = [f for k, f in enumerate(folds) if k in (args.only_folds or (0, 1, 2))]
    sample = base_rows(args.data, args.pages_per_family)
    zones = load_zones([args.gold])
    zones = zones[zones["document"].isin([d for d, g in gold_pages.items() if g])]
    labels, platform = page_labels(zones, args.labels), platform_zones(args)
    print(f"{'left out':16} {'head F1':>8} {'level':>8} " + " ".join(f"{c[:12]:>12}" for c in COLUMNS[2:]))
    for off in ((), *((name,) for name in RULE_PASSES)):
        if off:
            rows = pages_rows(args.data, set(sample["page"]), off)
            gold_rows = dataset_rows(zones, gold_pages, args.gold, off)
        else:
            rows, gold_rows = sample, cached_rows(args.gold, gold_pages)
        params = {**args.params, "rules_off": off}
        cv = heading_cv(pd.concat([rows, gold_rows], ignore_index=True), zones, gold_pages, labels, folds, **params).summary()
        s = summary(platform_counts(rows, platform, args, params)["ALL"])
        print(f"{'+'.join(off) or 'none':16} {cv['f1']:8.3f} {cv['level_accuracy']:8.3f} "
              + " ".join(f"{s[c]:12.3f}" for c in COLUMNS[2:]), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("task", choices=("headings", "platforms", "rules"))
    ap.add_argument("--data", type=Path, nargs="+",
                    default=[REPO / "build" / "corpus"])
    ap.add_argument("--gold", type=Path, default=REPO / "build" / "gold")
    ap.add_argument("--heading-gold", type=Path, default=SHARED / "gold-structure")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--labels", default="svm", help="zone labels: a labeller (svm, nb, model file) or gold")
    ap.add_argument("--pages-per-family", type=int, default=25, help="training pages per family (seeded sample)")
    ap.add_argument("--only-folds", type=int, nargs="+",
                    help="score these folds only (the development folds 0 1 2 when choosing a design)")
    ap.add_argument("--no-gold-training", action="store_true", help="train on the annotated datasets only")
    ap.add_argument("--records", type=Path, help="write the structures as JSON lines for tools/score_structure.py")
    ap.add_argument("--pages-dir", type=Path, default=REPO / "build" / "corpus",
                    help="folder the platform datasets' page paths are under")
    ap.add_argument("--test-pages", type=int, default=40, help="held-out pages per platform family")
    ap.add_argument("--params", type=json.loads, default={}, help="BlockModel settings as JSON")
    ap.add_argument("--errors", type=Path, help="platforms: write every paragraph-boundary error, zone by zone (TSV)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    {"headings": headings, "platforms": platforms, "rules": rules}[args.task](args)


if __name__ == "__main__":
    main()
