"""Benchmark rendering and zone collection on the real publisher pages.

Reports per-page time (median, p95) split into Chromium (navigation to the load event, in-page DOM
extraction) and scilabel's own Python (reading and decoding the file, building nodes, collecting
zones), zones per page, and browser reuse: pages per second over N renders in one Renderer with the
memory of the browser and of this process before and after.

    .venv/bin/python benchmarks/render_zones.py [--pages ../shared/data/pages] [--reuse 200] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from pathlib import Path

import psutil
from tqdm import tqdm

from scilabel.readers import PageError
from scilabel.readers.render import Renderer
from scilabel.readers.sources import load_source
from scilabel.zones import collect_zones


def rss_mb(include_children: bool) -> float:
    me = psutil.Process()
    procs = [me] + (me.children(recursive=True) if include_children else [])
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared/data/pages")
    ap.add_argument("--reuse", type=int, default=200)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    paths = sorted(p for p in args.pages.rglob("*.htm*") if p.is_file())
    rows, failures = [], []
    with Renderer() as renderer:
        renderer.render("<p>warm-up</p>")
        for path in tqdm(paths, desc="pages"):
            t0 = time.perf_counter()
            try:
                doc = load_source(path)
                t1 = time.perf_counter()
                page = renderer.render(doc)
            except PageError as exc:
                failures.append(str(exc))
                continue
            t2 = time.perf_counter()
            zones = collect_zones(page)
            t3 = time.perf_counter()
            chromium = page.timings["load"] + page.timings["extract"]
            rows.append({
                "page": str(path.relative_to(args.pages)), "bytes": path.stat().st_size,
                "nodes": len(page.nodes), "zones": len(zones), "blocked": page.blocked_requests,
                "warnings": len(page.warnings), "total": t3 - t0, "chromium": chromium,
                "decode": t1 - t0, "zones_s": t3 - t2, "other": (t2 - t1) - chromium,
            })
        # browser reuse
        cycle = [p for p in paths][: max(1, min(len(paths), 40))]
        renderer.render(cycle[0])
        base_py, base_all = rss_mb(False), rss_mb(True)
        t0 = time.perf_counter()
        mem_trace = []
        for i in tqdm(range(args.reuse), desc="reuse"):
            collect_zones(renderer.render(cycle[i % len(cycle)]))
            if (i + 1) % 50 == 0:
                mem_trace.append(round(rss_mb(True)))
        reuse_s = time.perf_counter() - t0
        end_py, end_all = rss_mb(False), rss_mb(True)

    def summary(key: str) -> dict:
        vals = [r[key] for r in rows]
        return {"median": statistics.median(vals), "p95": pct(vals, 0.95), "mean": statistics.mean(vals)}

    total = sum(r["total"] for r in rows)
    result = {
        "pages": len(rows), "failed": failures,
        "seconds_per_page": {k: summary(k) for k in ("total", "chromium", "decode", "other", "zones_s")},
        "share_of_time": {
            "chromium (load + in-page extraction)": sum(r["chromium"] for r in rows) / total,
            "scilabel: read + decode": sum(r["decode"] for r in rows) / total,
            "scilabel: zones": sum(r["zones_s"] for r in rows) / total,
            "protocol, request interception, node building": sum(r["other"] for r in rows) / total,
        },
        "zones_per_page": summary("zones"), "nodes_per_page": summary("nodes"),
        "pages_with_warnings": sum(1 for r in rows if r["warnings"]),
        "blocked_requests_per_page": summary("blocked"),
        "reuse": {
            "renders": args.reuse, "distinct_pages": len(cycle), "pages_per_second": args.reuse / reuse_s,
            "rss_mb_python_before_after": [round(base_py), round(end_py)],
            "rss_mb_with_browser_before_after": [round(base_all), round(end_all)],
            "rss_mb_with_browser_every_50": mem_trace,
        },
        "slowest": sorted(rows, key=lambda r: -r["total"])[:5],
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
