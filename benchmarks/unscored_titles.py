"""Titles on the real pages the silver corpus cannot score: whether the labeller's title is the page's
most prominent text, the zone(s) of at least four words set in the largest type on the page.

The silver alignment labels a page only where the page's meta tags (or a JATS article) name its
fields, so whole publishers (Scitation's AIP pages carry no citation tags) are left out of the
F-measures. Largest type is a proxy for the title, not a gold label (a journal banner or a heading
can be set larger), so read the figure per group and look at the pages it lists.

    .venv/bin/python benchmarks/unscored_titles.py [--silver build/silver] [--model svm|nb|FILE...]
        [--examples 5]
"""
from __future__ import annotations

import argparse
import logging
import warnings
from collections import defaultdict
from pathlib import Path

import pandas as pd

from scilabel.corpus.dataset import load_zones
from scilabel.evaluation import scored_labels
from scilabel.persistence import load_model, model_path

#: Fewest words of a zone that may stand for the title.
TITLE_MIN_WORDS = 4


def largest_type(page: pd.DataFrame) -> set[int]:
    """Row positions of the page's zones of at least :data:`TITLE_MIN_WORDS` words set in its largest type."""
    long = page[page["text"].str.split().str.len() >= TITLE_MIN_WORDS]
    if long.empty:
        return set()
    return {int(i) for i in long.index[long["font_size"] == long["font_size"].max()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--silver", type=Path, default=Path("build/silver"))
    ap.add_argument("--model", nargs="+", default=["svm"], help="model files, or nb / svm for the shipped ones")
    ap.add_argument("--examples", type=int, default=5, help="pages listed where the title is elsewhere")
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    warnings.filterwarnings("ignore")
    zones = load_zones([args.silver])
    scored = {page for page, labels in scored_labels(args.silver).items() if "title" in labels}
    pages = [(group, f.reset_index(drop=True)) for (page, group), f in zones.groupby(["document", "group"], sort=True)
             if page not in scored]
    print(f"{len(pages)} real pages without a silver title ({len(scored)} with one)")
    for spec in args.model:
        model = load_model(model_path(spec))
        agree: dict[str, list[bool]] = defaultdict(list)
        misses = []
        for group, page in pages:
            gold = largest_type(page)
            if not gold:
                continue
            title = {i for i, label in enumerate(model.predict(page)) if label == "title"}
            ok = bool(title) and title <= gold
            agree[group].append(ok)
            if not ok:
                misses.append((page["document"][0], [page["text"][i][:60] for i in sorted(title)]))
        total = [ok for oks in agree.values() for ok in oks]
        print(f"\n{spec}: title is the largest type on {sum(total)} of {len(total)} pages")
        for group, oks in sorted(agree.items(), key=lambda kv: -len(kv[1])):
            print(f"  {group:28s} {sum(oks):3d} / {len(oks):3d}")
        for page, title in misses[:args.examples]:
            print(f"  elsewhere: {page}  title {title}")


if __name__ == "__main__":
    main()
