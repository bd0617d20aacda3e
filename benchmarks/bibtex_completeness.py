"""Benchmark the completeness of the BibTeX that ``scilabel label --format bibtex`` writes for the
real-page gold: per page set (``gold/``, ``gold-extra/`` of the shared data), the share of entries
complete for their type, both as written (an incomplete entry falls back to ``@misc``, which requires
nothing) and before that fallback (the share of references whose fields make the entry their kind
asks for, ``misc`` by kind counting as complete), the share written as ``@misc`` (by kind or by
fallback), and the fields most often missing. Every entry is also formatted with pybtex's ``plain``
style, which fails on a missing required field.

    .venv/bin/python benchmarks/bibtex_completeness.py [--data ../shared/data] [--out build/bibtex]
        [--sets gold gold-extra] [--workers 1]

The pages are labelled with the shipped models into ``OUT/<set>.jsonl`` (kept: a second run reuses
them; ``scilabel label --resume`` finishes an interrupted one); the page records' references are what
is written.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from pybtex.database import parse_string
from pybtex.plugin import find_plugin

from scilabel.writers.bibtex import bibtex_type, to_bibtex
from scilabel.writers.citation import entry_kind, missing_fields

REPO = Path(__file__).resolve().parents[1]


def label_set(data: Path, name: str, out: Path, workers: int) -> Path:
    """The label records of a gold set's pages (labelled now unless a finished run is there)."""
    listing = out / f"{name}.txt"
    pages = [str(data / json.loads(f.read_text(encoding="utf-8"))["page"]) for f in sorted((data / name).glob("*/*.json"))]
    listing.write_text("\n".join(pages) + "\n", encoding="utf-8")
    records = out / f"{name}.jsonl"
    done = len(records.read_text(encoding="utf-8").splitlines()) if records.exists() else 0
    failures = out / f"{name}.failures.jsonl"
    failed = len(failures.read_text(encoding="utf-8").splitlines()) if failures.exists() else 0
    if done + failed < len(pages):
        subprocess.run([sys.executable, "-m", "scilabel", "-q", "label", f"@{listing}", "-o", str(records), "--resume",
                        "--failures", str(failures), "--workers", str(workers)], check=False)
    return records


def score(records: Path) -> dict:
    """Entries, the share complete for their type as written and before the ``@misc`` fallback, the
    entries pybtex's plain style formats, and the missing fields by kind."""
    style = find_plugin("pybtex.style.formatting", "plain")()
    refs = [ref for line in records.read_text(encoding="utf-8").splitlines() for ref in json.loads(line)["references"]]
    missing: Counter = Counter()
    complete_as_kind = formatted = 0
    for n, ref in enumerate(refs):
        kind = entry_kind(ref)
        lacking = missing_fields(ref, kind)
        missing.update(f"{kind}:{name}" for name in lacking)
        complete_as_kind += not lacking
        data = parse_string(to_bibtex(ref, f"ref{n}"), "bibtex")
        try:
            list(style.format_bibliography(data))
            formatted += 1
        except Exception:  # noqa: BLE001 - pybtex raises its own errors for an entry it cannot format
            pass
    kinds = Counter(entry_kind(ref) for ref in refs)
    written = Counter(bibtex_type(ref) for ref in refs)
    return {"pages": len(records.read_text(encoding="utf-8").splitlines()), "entries": len(refs),
            "complete_as_written": round(formatted / len(refs), 4) if refs else None,
            "complete_before_fallback": round(complete_as_kind / len(refs), 4) if refs else None,
            "written_as_misc": round(written["misc"] / len(refs), 4) if refs else None,
            "kinds": dict(kinds.most_common()), "written": dict(written.most_common()),
            "missing": dict(missing.most_common(8))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "bibtex")
    parser.add_argument("--sets", nargs="+", default=["gold", "gold-extra"])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = {name: score(label_set(args.data, name, args.out, args.workers)) for name in args.sets}
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
