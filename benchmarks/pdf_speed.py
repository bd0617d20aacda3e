"""How fast a PDF article is read and labelled, without a browser: the target is a 10-page article in under 1 s.

For every PDF of ../shared/data/pdfs/pages (models loaded once, each PDF read once before timing), the
time to read it (PDFium, furniture, reading order, blocks) and to label it (the HMM over the whole
article, fields, references split and parsed: :func:`scilabel.pipeline.labelled_page`), best of
``--repeat`` runs, in CPU seconds of this process (the machine is shared: wall time is reported too).
Reported: per PDF, and the median seconds per 10 pages.

    OMP_NUM_THREADS=1 python benchmarks/pdf_speed.py [--pdfs ../shared/data/pdfs/pages] [--repeat 3] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from scilabel.batch import LabelSettings
from scilabel.pipeline import labelled_page
from scilabel.readers import PDFiumReader

HERE = Path(__file__).resolve().parent


def timed(function, repeat: int) -> tuple[float, float, object]:
    """Best CPU and wall seconds of ``repeat`` calls, and the last result."""
    cpu, wall, result = [], [], None
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        result = function()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=HERE.parent.parent / "shared" / "data" / "pdfs" / "pages")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    labeler, refs = LabelSettings().load_models()
    reader = PDFiumReader()
    rows = []
    for path in sorted(args.pdfs.rglob("*.pdf")):
        document = reader.read(path)
        labelled_page(document, labeler, refs)  # warm
        read_cpu, read_wall, document = timed(lambda: reader.read(path), args.repeat)
        label_cpu, label_wall, _ = timed(lambda: labelled_page(document, labeler, refs), args.repeat)
        pages = int(document.zones["page"].max())
        rows.append({"pdf": str(path.relative_to(args.pdfs)), "pages": pages, "zones": len(document.zones),
                     "read_cpu": round(read_cpu, 3), "label_cpu": round(label_cpu, 3),
                     "total_cpu": round(read_cpu + label_cpu, 3), "total_wall": round(read_wall + label_wall, 3),
                     "cpu_per_10_pages": round(10 * (read_cpu + label_cpu) / pages, 3)})
        print(json.dumps(rows[-1]))
    summary = {
        "pdfs": len(rows), "pages": sum(r["pages"] for r in rows),
        "median_cpu_per_10_pages": statistics.median(r["cpu_per_10_pages"] for r in rows),
        "median_read_share": statistics.median(r["read_cpu"] / r["total_cpu"] for r in rows),
        "articles_of_8_to_12_pages": [{k: r[k] for k in ("pdf", "pages", "total_cpu", "total_wall")}
                                      for r in rows if 8 <= r["pages"] <= 12],
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "pdfs": rows}, indent=2))


if __name__ == "__main__":
    main()
