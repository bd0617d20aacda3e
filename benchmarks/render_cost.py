"""What Chromium costs per page in one :class:`~scilabel.readers.render.Renderer`: CPU seconds and wall
seconds per page for real pages and for tiny HTML strings (where the browser's fixed cost per page is
nearly all), and the CPU split by Chromium process type for the tiny pages.

    .venv/bin/python benchmarks/render_cost.py [--pages ../shared/data/pages] [--real 30] [--tiny 20]
        [--json out.json]

CPU is counted two ways: the process tree of this script (itself, Playwright's driver, the browser
and its renderers, with what each reaps), which load from elsewhere does not change, and the whole
machine's (``/proc/stat``), which includes that load (the load average is printed beside it).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import time
from pathlib import Path

import psutil

from scilabel.readers import PageError
from scilabel.readers.render import Renderer

REPO = Path(__file__).resolve().parents[1]


def machine_cpu_s() -> float:
    """Busy CPU seconds of the whole machine since boot (every field of /proc/stat but idle and iowait)."""
    fields = list(map(int, Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]))
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def tree_cpu_by_type() -> collections.Counter:
    """CPU seconds of this process and each below it, by Chromium process type (``--type=``, else the
    program's name), with what each process has reaped."""
    seconds: collections.Counter = collections.Counter()
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            command, times = process.cmdline(), process.cpu_times()
        except psutil.Error:
            continue
        kind = next((a.split("=", 1)[1] for a in command if a.startswith("--type=")),
                    os.path.basename(command[0]) if command else "?")
        seconds[kind] += times.user + times.system + times.children_user + times.children_system
    return seconds


def measure(renderer: Renderer, sources: list) -> dict:
    """Render ``sources`` one after the other: CPU and wall seconds per page, and the tree's CPU by type."""
    before, machine, start = tree_cpu_by_type(), machine_cpu_s(), time.perf_counter()
    failed = 0
    for source in sources:
        try:
            renderer.render(source)
        except PageError as exc:
            failed += 1
            print(f"failed: {exc}")
    wall, machine = time.perf_counter() - start, machine_cpu_s() - machine
    spent = tree_cpu_by_type()
    spent.subtract(before)
    n = len(sources)
    return {"pages": n, "failed": failed, "cpu_s_per_page": round(sum(spent.values()) / n, 3),
            "machine_cpu_s_per_page": round(machine / n, 3), "wall_s_per_page": round(wall / n, 3),
            "cpu_s_per_page_by_process": {kind: round(s / n, 3) for kind, s in spent.most_common() if s > 0}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=Path, default=REPO.parent / "shared" / "data" / "pages")
    parser.add_argument("--real", type=int, default=30, help="real pages (the first, by path)")
    parser.add_argument("--tiny", type=int, default=20, help="tiny HTML strings")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    real = sorted(args.pages.rglob("*.html"))[: args.real]
    tiny = [f"<html><body><h1>Page {i}</h1><p>A short paragraph.</p></body></html>" for i in range(args.tiny)]
    with Renderer() as renderer:
        renderer.render(tiny[0])  # the browser started, its first tab open
        time.sleep(1)
        result = {"load_average": os.getloadavg(), "tiny": measure(renderer, tiny),
                  "real": measure(renderer, real) if real else None}
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
