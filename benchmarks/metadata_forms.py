"""What real pages declare about themselves: the metadata reader on every page of a folder.

    .venv/bin/python benchmarks/metadata_forms.py [PAGES_DIR]      # default ../shared/data/pages

Reads each HTML file with :func:`scilabel.metadata.read_meta` (no rendering) and prints, per field, how
many pages declare it at all and in each form (Highwire, Dublin Core, PRISM, HTML meta, Open Graph,
JSON-LD, COinS, RDFa), with the reading time per page; any page the reader fails on is listed.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from scilabel.metadata import FORMS, read_meta
from scilabel.readers.sources import load_source

DEFAULT_PAGES = Path(__file__).resolve().parents[2] / "shared" / "data" / "pages"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="?", type=Path, default=DEFAULT_PAGES, help="folder of HTML pages")
    args = parser.parse_args(argv)
    paths = sorted(p for p in args.pages.rglob("*") if p.suffix.lower() in (".html", ".htm", ".xhtml"))
    any_form: Counter[str] = Counter()
    by_form: Counter[tuple[str, str]] = Counter()
    seconds, failed = [], []
    for path in paths:
        html = load_source(path).html
        start = time.perf_counter()
        try:
            meta = read_meta(html)
        except Exception as exc:  # the reader promises never to raise: list any page where it does
            failed.append(f"{path}: {type(exc).__name__}: {exc}")
            continue
        seconds.append(time.perf_counter() - start)
        for name, forms in meta.sources.items():
            any_form[name] += 1
            by_form.update((name, form) for form in forms)
    width = max(map(len, any_form), default=5) + 2
    print(f"{len(paths)} pages, {len(failed)} failed; read in {1000 * statistics.median(seconds):.0f} ms a page "
          f"(median), {1000 * max(seconds):.0f} ms at most")
    print(f"{'field':{width}}{'any':>5}" + "".join(f"{form[:11]:>12}" for form in FORMS))
    for name, count in any_form.most_common():
        print(f"{name:{width}}{count:5d}" + "".join(f"{by_form[name, form] or '':>12}" for form in FORMS))
    for line in failed:
        print(line)


if __name__ == "__main__":
    main()
