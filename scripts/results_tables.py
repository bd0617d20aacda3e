"""Write the result tables of README.md and docs/evaluation.md from an evaluation run's JSON.

    python scripts/results_tables.py RUN_DIR [--date YYYY-MM-DD]   # take a run, rewrite the tables
    python scripts/results_tables.py --gold-cv GOLD_RUN_DIR        # take a gold cross-validation run
    python scripts/results_tables.py --check                       # the tables match the kept JSON

``RUN_DIR`` is the ``--out`` folder of ``evaluate.py --model svm nb --data build/corpus build/silver
--ablation``; its ``summary.json`` is kept as ``docs/results/test-summary.json`` (with the run's folder
and date). ``GOLD_RUN_DIR`` is the ``--out`` folder of ``evaluate.py --gold-cv build/gold --data
build/corpus --collections build/collections.parquet``; its ``gold_cv.json`` summary is kept as
``docs/results/gold-cv-summary.json`` (and its per-publisher chart beside it). Every block between ``<!-- results:NAME -->`` and ``<!-- /results
-->`` in the two pages is rewritten from the kept files, so that the figures in the docs are never typed
by hand.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from pathlib import Path

from scilabel.atomic import write_bytes, write_text

REPO = Path(__file__).resolve().parents[1]
KEPT = REPO / "docs" / "results" / "test-summary.json"
KEPT_GOLD = REPO / "docs" / "results" / "gold-cv-summary.json"
#: The gold run's per-publisher chart, kept beside its summary.
CHART = REPO / "docs" / "results" / "gold_cv_publishers.png"
PAGES = (REPO / "README.md", REPO / "docs" / "evaluation.md")
_BLOCK = re.compile(r"(<!-- results:(?P<name>[\w-]+) -->\n).*?(<!-- /results -->)", re.S)

FIELDS = ("title", "authors", "affiliations", "abstract", "references")
ALL_LABELS = ("title", "authors", "affiliations", "abstract_heading", "abstract", "references_heading", "references")
DATASETS = {"corpus": "generated", "silver": "real (silver)"}
GOLD_SYSTEMS = {"cv": "HMM + SVM, publisher-grouped cross-validation", "shipped": "HMM + SVM, the shipped model",
                "zone ceiling": "best labelling of the zones (ceiling)",
                "metatags": "the page's meta tags", "trafilatura": "trafilatura"}
SYSTEMS = {
    "scilabel-svm": "HMM + SVM (default)",
    "scilabel-svm (no HMM)": "SVM without the HMM",
    "scilabel-nb": "HMM + Naive Bayes (the paper's emission)",
    "scilabel-nb (no HMM)": "Naive Bayes without the HMM",
}


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def table(rows: list[dict], level: str, labels: tuple[str, ...], systems: tuple[str, ...]) -> str:
    """A Markdown table of F (%) per label: one row per system and dataset, in the order given."""
    head = ["system", "pages", *(label.replace("_", " ") for label in labels)]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * len(labels)]
    by_key = {(r["system"], r["dataset"], r["level"]): r for r in rows}
    for system in systems:
        for dataset, data_name in DATASETS.items():
            row = by_key.get((system, dataset, level))
            if row is not None:
                cells = [SYSTEMS[system], data_name, *(_cell(row.get(label)) for label in labels)]
                lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def gold_table(kept: dict, variants: bool = False) -> str:
    """A Markdown table of token F1, micro / macro, per field on the real-page gold: one row per system,
    or, with ``variants``, the cross-validated model beside its decoding variants (the vetoes left out)."""
    summary = kept["summary"]
    chosen = ["cv", *kept["variants"]] if variants else [name for name in summary if name not in kept["variants"]]
    lines = ["| system | " + " | ".join(FIELDS) + " |", "|---|" + "---:|" * len(FIELDS)]
    for system in chosen:
        table = summary[system]
        cells = [f"{table[f]['F1_micro']:.3f} / {table[f]['F1_macro']:.3f}" if f in table else "–" for f in FIELDS]
        lines.append(f"| {GOLD_SYSTEMS.get(system, system)} | " + " | ".join(cells) + " |")
    pages = next(iter(summary.values()))
    lines.append("| pages scored | " + " | ".join(str(pages[f]["n_pages"]) for f in FIELDS) + " |")
    return "\n".join(lines) + (f"\n\nRun of {kept['date']} (`{kept['run']}`), `{kept['command']}`; table written by "
                               "`scripts/results_tables.py`.")


def blocks(kept: dict, kept_gold: dict) -> dict[str, str]:
    """Every generated block by name, from the kept summaries."""
    rows = kept["summary"]
    source = (f"Run of {kept['date']} (`{kept['run']}`), `python evaluate.py --model svm nb --data build/corpus "
              f"build/silver --ablation --out {kept['run']}`; tables written by `scripts/results_tables.py`.")
    return {
        "headline": table(rows, "zone", FIELDS, ("scilabel-svm", "scilabel-svm (no HMM)", "scilabel-nb")) + "\n\n" + source,
        "zone": table(rows, "zone", ALL_LABELS, tuple(SYSTEMS)) + "\n\n" + source,
        "token": table(rows, "token", ALL_LABELS, tuple(SYSTEMS)) + "\n\n" + source,
        "gold-cv": gold_table(kept_gold),
        "gold-cv-vetoes": gold_table(kept_gold, variants=True),
    }


def rewrite(text: str, generated: dict[str, str]) -> str:
    """``text`` with each marked block replaced by its generated content; an unknown name is an error."""
    def fill(match: re.Match) -> str:
        name = match["name"]
        if name not in generated:
            raise KeyError(f"no generated table named {name!r} (known: {sorted(generated)})")
        return f"{match.group(1)}{generated[name]}\n{match.group(3)}"

    return _BLOCK.sub(fill, text)


def stale_pages(kept: dict, kept_gold: dict, pages: tuple[Path, ...] = PAGES) -> list[str]:
    """The pages whose marked blocks differ from what the kept summaries generate."""
    generated = blocks(kept, kept_gold)
    return [str(page.relative_to(REPO)) for page in pages if rewrite(page.read_text(), generated) != page.read_text()]


def _keep(run_dir: Path, day: str, gold_cv: bool, parser: argparse.ArgumentParser) -> None:
    """Keep a run's summary in docs/results/."""
    name, kept_path = ("gold_cv.json", KEPT_GOLD) if gold_cv else ("summary.json", KEPT)
    source = run_dir / name
    if not source.is_file():
        parser.error(f"{source}: no such file (the --out folder of evaluate.py{' --gold-cv' if gold_cv else ''})")
    run = run_dir.resolve()
    kept = {"run": str(run.relative_to(REPO) if run.is_relative_to(REPO) else run), "date": day}
    data = json.loads(source.read_text())
    if gold_cv:
        settings = data["settings"]
        kept["command"] = (f"python evaluate.py --gold-cv {settings['gold']} --data {' '.join(settings['train_datasets'])} "
                           f"--collections {settings['collections']} --folds {settings['n_folds']}"
                           + (" --ablate-vetoes" if any(v.startswith("cv without") for v in data.get("variants", ()))
                              else ""))
        kept["summary"] = data["summary"]
        kept["variants"] = data.get("variants", [])
    else:
        kept["summary"] = data
    write_text(kept_path, json.dumps(kept, indent=1) + "\n")
    chart = run_dir / CHART.name
    if gold_cv and chart.is_file():
        write_bytes(CHART, chart.read_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", type=Path, help="an evaluate.py --out folder")
    parser.add_argument("--date", default=date.today().isoformat(), help="the run's date (default today)")
    parser.add_argument("--gold-cv", action="store_true", help="RUN_DIR is a gold cross-validation run")
    parser.add_argument("--check", action="store_true", help="only check that the tables match the kept JSON")
    args = parser.parse_args(argv)
    if not args.check:
        if args.run is None:
            parser.error("give a run folder, or --check")
        _keep(args.run, args.date, gold_cv=args.gold_cv, parser=parser)
    kept, kept_gold = json.loads(KEPT.read_text()), json.loads(KEPT_GOLD.read_text())
    if args.check:
        stale = stale_pages(kept, kept_gold)
        for page in stale:
            print(f"{page}: result tables differ from docs/results/", file=sys.stderr)
        return 1 if stale else 0
    generated = blocks(kept, kept_gold)
    for page in PAGES:
        write_text(page, rewrite(page.read_text(), generated))
    return 0


if __name__ == "__main__":
    sys.exit(main())
