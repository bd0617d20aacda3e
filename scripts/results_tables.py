"""Write the result tables of README.md and docs/evaluation.md from an evaluation run's JSON.

    python scripts/results_tables.py RUN_DIR [--date YYYY-MM-DD]   # take a run, rewrite the tables
    python scripts/results_tables.py --check                       # the tables match the kept JSON

``RUN_DIR`` is the ``--out`` folder of ``evaluate.py --model svm nb --data build/corpus build/silver
--ablation``. Its ``summary.json`` is kept as ``docs/results/test-summary.json`` (with the run's
folder and date), and every block between ``<!-- results:NAME -->`` and ``<!-- /results -->`` in the
two pages is rewritten from it, so that the figures in the docs are never typed by hand.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KEPT = REPO / "docs" / "results" / "test-summary.json"
PAGES = (REPO / "README.md", REPO / "docs" / "evaluation.md")
_BLOCK = re.compile(r"(<!-- results:(?P<name>[\w-]+) -->\n).*?(<!-- /results -->)", re.S)

FIELDS = ("title", "authors", "affiliations", "abstract", "references")
ALL_LABELS = ("title", "authors", "affiliations", "abstract_heading", "abstract", "references_heading", "references")
DATASETS = {"corpus": "generated", "silver": "real (silver)"}
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


def blocks(kept: dict) -> dict[str, str]:
    """Every generated block by name, from the kept summary."""
    rows = kept["summary"]
    source = (f"Run of {kept['date']} (`{kept['run']}`), `python evaluate.py --model svm nb --data build/corpus "
              f"build/silver --ablation --out {kept['run']}`; tables written by `scripts/results_tables.py`.")
    return {
        "headline": table(rows, "zone", FIELDS, ("scilabel-svm", "scilabel-svm (no HMM)", "scilabel-nb")) + "\n\n" + source,
        "zone": table(rows, "zone", ALL_LABELS, tuple(SYSTEMS)) + "\n\n" + source,
        "token": table(rows, "token", ALL_LABELS, tuple(SYSTEMS)) + "\n\n" + source,
    }


def rewrite(text: str, generated: dict[str, str]) -> str:
    """``text`` with each marked block replaced by its generated content; an unknown name is an error."""
    def fill(match: re.Match) -> str:
        name = match["name"]
        if name not in generated:
            raise KeyError(f"no generated table named {name!r} (known: {sorted(generated)})")
        return f"{match.group(1)}{generated[name]}\n{match.group(3)}"

    return _BLOCK.sub(fill, text)


def stale_pages(kept: dict, pages: tuple[Path, ...] = PAGES) -> list[str]:
    """The pages whose marked blocks differ from what ``kept`` generates."""
    generated = blocks(kept)
    return [str(page.relative_to(REPO)) for page in pages if rewrite(page.read_text(), generated) != page.read_text()]


def _write(path: Path, text: str) -> None:
    """Write whole or not at all: a temporary file beside ``path``, then renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", type=Path, help="an evaluate.py --out folder")
    parser.add_argument("--date", default=date.today().isoformat(), help="the run's date (default today)")
    parser.add_argument("--check", action="store_true", help="only check that the tables match the kept JSON")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_pages(json.loads(KEPT.read_text()))
        for page in stale:
            print(f"{page}: result tables differ from {KEPT.relative_to(REPO)}", file=sys.stderr)
        return 1 if stale else 0
    if args.run is None:
        parser.error("give a run folder, or --check")
    summary = args.run / "summary.json"
    if not summary.is_file():
        parser.error(f"{summary}: no such file (the --out folder of evaluate.py)")
    run = args.run.resolve()
    kept = {"run": str(run.relative_to(REPO) if run.is_relative_to(REPO) else run), "date": args.date,
            "summary": json.loads(summary.read_text())}
    KEPT.parent.mkdir(parents=True, exist_ok=True)
    _write(KEPT, json.dumps(kept, indent=1) + "\n")
    generated = blocks(kept)
    for page in PAGES:
        _write(page, rewrite(page.read_text(), generated))
    return 0


if __name__ == "__main__":
    sys.exit(main())
