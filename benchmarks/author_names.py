"""Benchmark the author names of the label record (``authors`` in `scilabel label` output) on
generated pages against the names of the JATS article each page was made from (none for a page
that shows no byline: some templates only credit authors in running text), and on real silver
pages against the page's own ``citation_author`` (or Dublin Core creator) meta tags.

    .venv/bin/python benchmarks/author_names.py [--corpus build/corpus] [--jats ../shared/data/jats]
        [--silver build/silver] [--splits dev test] [--labels gold|svm|nb|MODEL] [--examples 10]

A name counts as found when the record has it exactly (case, spaces and full stops aside); on real
pages, whose tags write "Wang, Ge" as often as "Ge Wang", the words of a name are compared in any
order. Real pages count where the silver alignment found the byline (``authors`` in its fields);
their splits are the silver corpus's ("train" pages are the real dev pages). With ``--labels gold``
the figures are those of the name splitting alone; with a labeller, of the labelling and the
splitting together.
"""
from __future__ import annotations

import argparse
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from pathlib import Path

import pandas as pd

from scilabel.corpus.jats import parse_jats
from scilabel.labeler import ZoneLabeler
from scilabel.metadata import read_meta
from scilabel.fields import split_author_names
from scilabel.persistence import load_model, model_path

REPO = Path(__file__).resolve().parents[1]
#: One scored page: split, family ("real" for silver pages), gold names, names of the record.
Case = tuple[str, str, Counter, Counter]


def normalise(name: str) -> str:
    return " ".join(re.sub(r"[.\u00a0]", " ", name).casefold().split())


def unordered(name: str) -> str:
    """A name's words in sorted order (commas dropped): "Wang, Ge" and "Ge Wang" alike."""
    return " ".join(sorted(normalise(name.replace(",", " ")).split()))


@lru_cache(maxsize=None)
def gold_names(path: Path) -> Counter:
    """The normalised author names of one JATS article (read once: several pages share an article)."""
    return Counter(normalise(a.name) for a in parse_jats(path).authors if a.name.strip())


@lru_cache(maxsize=None)
def labeller(labels: str) -> ZoneLabeler:
    """The zone labeller named by ``--labels`` (loaded once for generated and real pages)."""
    return load_model(model_path(labels))


def labelled(zones: pd.DataFrame, labels: str) -> str:
    """The column of ``zones`` holding the labels to read names from (predicting them if asked)."""
    if labels == "gold":
        return "label"
    zones["predicted"] = labeller(labels).predict(zones)
    return "predicted"


def record_names(frame: pd.DataFrame, column: str) -> list[str]:
    """The record's author names of one page, from the zones labelled ``authors`` in ``column``."""
    return split_author_names(frame.loc[frame[column] == "authors", "text"].astype(str).tolist())


def generated_cases(args: argparse.Namespace) -> Iterator[Case]:
    """(split, family, gold names, found names) of every generated page of ``args.splits``."""
    manifest = pd.read_csv(args.corpus / "manifest.csv")
    manifest = manifest[manifest.split.isin(args.splits)].set_index("path")
    zones = pd.read_parquet(args.corpus / "zones.parquet")
    zones = zones[zones.document.isin(manifest.index)].reset_index(drop=True)
    column = labelled(zones, args.labels)
    for page, frame in zones.groupby("document", sort=False):
        row = manifest.loc[page]
        found = Counter(normalise(n) for n in record_names(frame, column))
        shown = (frame["label"] == "authors").any()
        yield row.split, row.family, gold_names(args.jats / row.source) if shown else Counter(), found


def real_cases(args: argparse.Namespace) -> Iterator[Case]:
    """(split, "real", gold names, found names) of every silver page whose byline the silver
    alignment found, gold from the page's meta tags."""
    manifest = pd.read_csv(args.silver / "manifest.csv")
    manifest = manifest[manifest.fields.fillna("").str.split().map(lambda f: "authors" in f)].set_index("document")
    zones = pd.read_parquet(args.silver / "zones.parquet")
    zones = zones[zones.document.isin(manifest.index)].reset_index(drop=True)
    column = labelled(zones, args.labels)
    for page, frame in zones.groupby("document", sort=False):
        row = manifest.loc[page]
        html = (REPO / row.html_path).read_text(encoding="utf-8", errors="replace")
        gold = Counter(unordered(n) for n in read_meta(html).authors)
        if gold:
            yield row.split, "real", gold, Counter(unordered(n) for n in record_names(frame, column))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=REPO / "build" / "corpus")
    ap.add_argument("--jats", type=Path, default=REPO.parent / "shared" / "data" / "jats")
    ap.add_argument("--silver", type=Path, default=None, help="also score the real pages of this silver corpus")
    ap.add_argument("--splits", nargs="+", default=["dev", "test"])
    ap.add_argument("--labels", default="gold", help="gold, or a zone labeller (svm, nb, model file)")
    ap.add_argument("--examples", type=int, default=10, help="names found wrongly to print")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)

    counts: dict = defaultdict(Counter)
    wrong: Counter = Counter()
    cases = generated_cases(args)
    if args.silver is not None:
        cases = chain(cases, real_cases(args))
    for split, family, gold, found in cases:
        hit = sum((gold & found).values())
        for key in [(split, family)] if family == "real" else [(split, family), (split, "ALL")]:
            c = counts[key]
            c.update(tp=hit, fp=sum(found.values()) - hit, fn=sum(gold.values()) - hit, pages=1,
                     exact=int(gold == found))
        wrong.update((found - gold).elements())

    print(f"Author names of the label record against the articles' names (zones labelled by {args.labels!r})")
    print(f"{'split':6} {'family':18} {'pages':>6} {'P':>6} {'R':>6} {'F1':>6} {'pages exact':>12}")
    for (split, family), c in sorted(counts.items()):
        p = c["tp"] / max(c["tp"] + c["fp"], 1)
        r = c["tp"] / max(c["tp"] + c["fn"], 1)
        f = 2 * p * r / max(p + r, 1e-9)
        print(f"{split:6} {family:18} {c['pages']:6d} {p:6.3f} {r:6.3f} {f:6.3f} {c['exact'] / c['pages']:12.3f}")
    if args.examples:
        print("\nmost frequent names found that the article does not have:")
        for name, n in wrong.most_common(args.examples):
            print(f"  {n:5d}  {name}")


if __name__ == "__main__":
    main()
