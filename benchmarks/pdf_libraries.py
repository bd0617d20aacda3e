"""Which PDF library to read PDFs with: speed and text quality on the real PDFs of ../shared/data/pdfs.

For each library, the text of every page in the library's own reading order, and the time it takes
(median and total milliseconds per page, this process's CPU time, so that other load on the machine
does not count). Quality is measured against the gold of each PDF (fields the gold scores), with the
scorer's own tokens (``../shared/tools/score_pages.py``): *token recall*, the share of gold tokens found
in the text (a multiset; words broken or glued by the extraction are lost), and *bigram recall*, the
share of the gold's consecutive token pairs found consecutive in the text (reading order: a column read
across, a line broken inside a word, a hyphen left in).

    python benchmarks/pdf_libraries.py [--pdfs ../shared/data/pdfs] [--libraries pdfium ...] [--json out.json]

Libraries: ``pdfium`` (scilabel's reader, pypdfium2: its zones' text), ``pymupdf`` (page.get_text),
``pdfminer`` (pdfminer.six extract_text, the layout analysis pdfplumber builds on), ``poppler``
(``pdftotext`` from poppler-utils, a process per file). One not installed is skipped.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import subprocess
import time
from collections import Counter
from pathlib import Path

from scilabel.schema import FIELD_LABELS

HERE = Path(__file__).resolve().parent


def _scorer(pdfs: Path):
    spec = importlib.util.spec_from_file_location("score_pages", pdfs.parent.parent / "tools" / "score_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_pdfium(path: Path) -> tuple[str, int]:
    from scilabel.readers import PDFiumReader

    zones = PDFiumReader().read(path).zones
    return "\n".join(zones["text"]), int(zones["page"].max())


def read_pymupdf(path: Path) -> tuple[str, int]:
    import pymupdf

    with pymupdf.open(path) as doc:
        return "\n".join(page.get_text() for page in doc), len(doc)


def read_pdfminer(path: Path) -> tuple[str, int]:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage

    with open(path, "rb") as fh:
        pages = sum(1 for _ in PDFPage.get_pages(fh))
    return extract_text(str(path)), pages


def read_poppler(path: Path) -> tuple[str, int]:
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    return text.decode("utf-8", "replace"), text.count(b"\f")


LIBRARIES = {"pdfium": (read_pdfium, "pypdfium2"), "pymupdf": (read_pymupdf, "pymupdf"),
             "pdfminer": (read_pdfminer, "pdfminer"), "poppler": (read_poppler, None)}


def available(name: str) -> bool:
    module = LIBRARIES[name][1]
    return shutil.which("pdftotext") is not None if module is None else importlib.util.find_spec(module) is not None


def recall(gold_tokens: list[str], text_tokens: list[str]) -> tuple[int, int, int, int]:
    """Gold tokens found, gold tokens, gold bigrams found, gold bigrams."""
    found = sum((Counter(gold_tokens) & Counter(text_tokens)).values())
    pairs = Counter(zip(text_tokens, text_tokens[1:]))
    gold_pairs = Counter(zip(gold_tokens, gold_tokens[1:]))
    return found, len(gold_tokens), sum((gold_pairs & pairs).values()), sum(gold_pairs.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=HERE.parent.parent / "shared" / "data" / "pdfs")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--libraries", nargs="+", choices=list(LIBRARIES), default=list(LIBRARIES))
    args = parser.parse_args()
    scorer = _scorer(args.pdfs)
    golds = [json.loads(p.read_text()) for p in sorted((args.pdfs / "gold").rglob("*.json"))]
    results = {}
    for name, (read, _) in LIBRARIES.items():
        if name not in args.libraries:
            continue
        if not available(name):
            print(f"{name}: not installed, skipped")
            continue
        per_page, totals = [], Counter()
        for gold in golds:
            start = time.process_time()
            wall = time.perf_counter()
            text, pages = read(args.pdfs / gold["page"])
            cpu = time.process_time() - start
            if name == "poppler":  # the work is done in the child process
                cpu = time.perf_counter() - wall
            per_page.append(1000 * cpu / max(pages, 1))
            totals["pages"] += pages
            totals["ms"] += 1000 * cpu
            for field in gold["fields_scored"]:
                value = gold[field]
                values = value if isinstance(value, list) else [value]
                text_tokens = scorer.tokens(text, field)
                for item in values:
                    found, n, pairs_found, pairs = recall(scorer.tokens(item, field), text_tokens)
                    totals[f"{field}_found"] += found
                    totals[f"{field}_n"] += n
                    totals["bigrams_found"] += pairs_found
                    totals["bigrams"] += pairs
                    totals["tokens_found"] += found
                    totals["tokens"] += n
        results[name] = {
            "ms_per_page_median": round(statistics.median(per_page), 1),
            "ms_per_page_mean": round(totals["ms"] / totals["pages"], 1),
            "token_recall": round(totals["tokens_found"] / totals["tokens"], 4),
            "bigram_recall": round(totals["bigrams_found"] / totals["bigrams"], 4),
            **{f"{f}_token_recall": round(totals[f"{f}_found"] / totals[f"{f}_n"], 4)
               for f in FIELD_LABELS if totals[f"{f}_n"]},
        }
        print(name, json.dumps(results[name]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
