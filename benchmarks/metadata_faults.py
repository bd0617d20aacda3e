"""How real pages declare their metadata against what they show: the rates the generator draws from.

    .venv/bin/python benchmarks/metadata_faults.py [DATA_DIR]      # default ../shared/data

For every reviewed gold page (``gold/`` and ``gold-extra/``), reads the page's declared record
(:func:`scilabel.metadata.read_meta`) and compares each field the page shows with its gold: no
declaration at all; title absent or declared; authors absent, only the first of several, or all;
affiliations absent or declared; abstract absent, cut short (under 90% of the gold's words but what is
declared is the gold's), another text, or whole; references absent or some (and what share of the
list). Prints the rows of ``scilabel/corpus/metadata_faults.tsv`` (field, declaration, rate, pages).
"""
from __future__ import annotations

import argparse
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

from scilabel.metadata import read_meta
from scilabel.readers.sources import load_source

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def declarations(gold: dict, html: str) -> dict[str, str | float]:
    """Field -> kind of declaration on one page (fields the page does not show left out)."""
    meta = read_meta(html)
    if not (meta.title or meta.authors or meta.abstract):
        return {"page": "none"}
    shown = set(gold.get("fields_scored", []))
    out: dict[str, str | float] = {"page": "own"}
    if "title" in shown:
        out["title"] = "full" if meta.title else "absent"
    if "authors" in shown and gold["authors"]:
        declared = set().union(*map(_words, meta.authors)) if meta.authors else set()
        found = sum(bool(_words(name) & declared) for name in gold["authors"])
        one_of_many = len(meta.authors) == 1 and len(gold["authors"]) > 1
        out["authors"] = "absent" if not meta.authors else "first_only" if one_of_many or found < len(gold["authors"]) \
            else "full"
    if "affiliations" in shown and gold.get("affiliations"):
        out["affiliations"] = "full" if meta.institutions else "absent"
    if "abstract" in shown and gold.get("abstract"):
        declared, truth = _words(meta.abstract), _words(gold["abstract"])
        common = len(declared & truth)
        out["abstract"] = ("absent" if not meta.abstract else "full" if common >= 0.9 * len(truth)
                           else "truncated" if common >= 0.8 * len(declared) else "other_article")
    if "references" in shown and gold.get("references"):
        out["references"] = "partial" if meta.references else "absent"
        if meta.references:
            out["kept_share"] = min(1.0, len(meta.references) / len(gold["references"]))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    counts: dict[str, Counter] = {}
    shares: list[float] = []
    n_pages = 0
    for path in sorted([*(args.data / "gold").rglob("*.json"), *(args.data / "gold-extra").rglob("*.json")]):
        gold = json.loads(path.read_text(encoding="utf-8"))
        n_pages += 1
        for field, kind in declarations(gold, load_source(args.data / gold["page"]).html).items():
            if field == "kept_share":
                shares.append(float(kind))
            else:
                counts.setdefault(field, Counter())[str(kind)] += 1
    print(f"# {n_pages} gold pages")
    for field, kinds in counts.items():
        total = sum(kinds.values())
        for kind, n in sorted(kinds.items()):
            print(f"{field}\t{kind}\t{n / total:.3f}\t{total}")
    if shares:
        print(f"references\tkept_share\t{sum(shares) / len(shares):.3f}\t{len(shares)}")


if __name__ == "__main__":
    main()
