"""Throughput of batch labelling against bare Chromium, in one run.

1. ratio: bare Chromium (load + the geometry walk, :meth:`Renderer.render`) and the whole labeller as a
   worker runs it (:meth:`scilabel.batch.PageLabeller.label_all`: render, zones, labels, references,
   record), and the labeller one page after the other (:meth:`~scilabel.batch.PageLabeller.label`), on
   the same pages, in blocks of 10 pages in turn so that other load hits all sides alike;
2. workers: pages/s of :func:`scilabel.label_many` with 1 and with 2 workers (first to last record);
3. memory: resident memory of a worker, alone and with its browser, over the same real pages early in a long
   run (the first cycle of them from page 200) and at its end (the last cycle): medians of a sample a page;
4. kill and resume: ``scilabel label DIR -o out.jsonl --resume`` killed (``kill -9``) at random points
   three times, then run to the end: every page must be in the output exactly once, and no browser left;
5. cold start: wall time of ``scilabel label`` on the bundled example page as a new process (imports,
   models, browser, page), median of ``--cold`` runs in turn under two conditions: with compiled bytecode
   as any run after the first finds it (kept under build/ through ``PYTHONPYCACHEPREFIX``) and with the
   environment as it is (where ``PYTHONDONTWRITEBYTECODE`` is set and nothing compiled scilabel, every
   module of scilabel is compiled at every start).

    .venv/bin/python benchmarks/throughput.py [--pages ../shared/data/pages] [--ratio 159] [--workers-pages 120]
        [--long 2000] [--resume-pages 2000] [--cold 9] [--no-references] [--json out.json]

Real pages are cycled to the counts asked; the kill-and-resume run labels generated copies of the
example page (written under build/).
"""
from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil
from tqdm import tqdm

from scilabel.batch import LabelSettings, PageLabeller, descendants, freeze_long_lived, is_failure, label_many
from scilabel.readers import PageError
from scilabel.readers.render import Renderer
from scilabel.inputs import HTML_PATTERNS, directory_files

REPO = Path(__file__).resolve().parents[1]


def tree_rss_mb(pid: int) -> float:
    total = 0
    for p in [pid, *descendants(pid)]:
        try:
            total += psutil.Process(p).memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and every process below it, with what each has
    reaped (Chromium's renderers, which come and go, are counted by the process that reaps them)."""
    total = 0.0
    for p in [pid, *descendants(pid)]:
        try:
            t = psutil.Process(p).cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def ratio(pages: list[str], block: int = 10, settings: LabelSettings = LabelSettings()) -> dict:
    """Bare Chromium and the labeller (as a worker runs it, reading ahead; and one page after the other)
    over the same pages, block by block in turn, so that load from elsewhere falls on all three. Beside
    the wall time, the CPU time of each side's processes (this one, its browsers and workers): what
    bounds pages per second when every core is busy, and what other load does not change."""
    seconds = {"bare": 0.0, "labeller": 0.0, "labeller_in_turn": 0.0}
    cpu = dict.fromkeys(seconds, 0.0)
    me = os.getpid()
    failed = 0
    with Renderer() as renderer, PageLabeller(settings) as labeller:
        renderer.render(pages[0])
        labeller.label(pages[0])
        freeze_long_lived()  # as a worker process does
        for start in tqdm(range(0, len(pages), block), desc="ratio (blocks)"):
            chunk = pages[start:start + block]
            t0, c0 = time.perf_counter(), tree_cpu_s(me)
            for page in chunk:
                try:
                    renderer.render(page)
                except PageError:
                    pass
            t1, c1 = time.perf_counter(), tree_cpu_s(me)
            failed += sum(is_failure(r) for r in labeller.label_all(chunk))
            t2, c2 = time.perf_counter(), tree_cpu_s(me)
            for page in chunk:
                labeller.label(page)
            t3, c3 = time.perf_counter(), tree_cpu_s(me)
            for side, took, used in zip(seconds, (t1 - t0, t2 - t1, t3 - t2), (c1 - c0, c2 - c1, c3 - c2)):
                seconds[side] += took
                cpu[side] += used
    return {"pages": len(pages), "failed": failed, **{f"{k}_s": round(v, 2) for k, v in seconds.items()},
            **{f"{k}_pages_per_s": round(len(pages) / v, 3) for k, v in seconds.items()},
            **{f"{k}_cpu_s_per_page": round(v / len(pages), 3) for k, v in cpu.items()},
            "ratio": round(seconds["labeller"] / seconds["bare"], 3),
            "cpu_ratio": round(cpu["labeller"] / cpu["bare"], 3),
            "ratio_in_turn": round(seconds["labeller_in_turn"] / seconds["bare"], 3)}


def pages_per_second(pages: list[str], workers: int) -> float:
    times = [time.perf_counter() for _ in label_many(pages, workers=workers)]
    return (len(times) - 1) / (times[-1] - times[0])


def worker_processes(pid: int) -> list[psutil.Process]:
    """The batch workers of the process ``pid``: the children of its fork server (which forks them and
    is their parent, :func:`scilabel.batch.label_many`), or its own children under another start
    method; never multiprocessing's resource tracker."""
    def tracker(process: psutil.Process) -> bool:
        return "resource_tracker" in " ".join(process.cmdline())

    found = []
    for child in psutil.Process(pid).children():
        if tracker(child):
            continue
        if "forkserver" in " ".join(child.cmdline()):
            found += [w for w in child.children() if not tracker(w)]
        else:
            found.append(child)
    return found


def memory(pages: list[str], cycle: int) -> dict:
    """Resident memory of the worker process alone and with its browser, sampled after every record, over
    the first whole cycle of the real pages (``cycle`` pages, cycled) that starts at page 200 or later
    (the first browser's budget spent) and over the last whole cycle: medians and maxima of the same
    pages at both ends. Single samples swing by hundreds of MB with the page the browser holds at that
    moment, which hides or fakes a trend; the worker's own memory is where a leak of ours would show, since
    the browser restarts every :data:`~scilabel.batch.PAGE_BUDGET` pages. The samples are kept (MB)."""
    me = os.getpid()
    own, tree = [], []
    for _ in tqdm(label_many(pages, workers=1), total=len(pages), desc="memory"):
        workers = worker_processes(me)
        own.append(sum(w.memory_info().rss for w in workers) / 2**20)
        tree.append(sum(tree_rss_mb(w.pid) for w in workers))
    early = -(-min(200, len(pages) // 10) // cycle) * cycle
    late = (len(pages) // cycle - 1) * cycle

    def growth(samples: list[float]) -> dict:
        first, last = samples[early:early + cycle], samples[late:late + cycle]
        return {"early_mb": round(statistics.median(first), 1), "last_mb": round(statistics.median(last), 1),
                "growth_pct": round(100 * (statistics.median(last) / statistics.median(first) - 1), 1),
                "early_max_mb": round(max(first), 1), "last_max_mb": round(max(last), 1)}

    return {"pages": len(pages), "early_pages": [early, early + cycle], "last_pages": [late, late + cycle],
            "worker": growth(own), "worker_and_browser": growth(tree),
            "samples_mb": {"worker": [round(v) for v in own], "worker_and_browser": [round(v) for v in tree]}}


def kill_and_resume(count: int, folder: Path, kills: int = 3, seed: int = 0) -> dict:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    page = (REPO / "data" / "examples" / "example_article.html").read_text(encoding="utf-8")
    for i in range(count):
        (folder / f"page{i:05d}.html").write_text(page.replace("Seasonal shifts", f"Seasonal shifts {i}"), encoding="utf-8")
    out = folder.with_suffix(".jsonl")
    out.unlink(missing_ok=True)
    command = [sys.executable, "-m", "scilabel", "-q", "label", str(folder), "-o", str(out), "--resume"]
    rng, left_behind, runs = random.Random(seed), 0, 0
    while True:
        runs += 1
        run = subprocess.Popen(command, cwd=REPO)
        if runs <= kills:
            time.sleep(rng.uniform(10, 40))
            below = descendants(run.pid)
            run.send_signal(signal.SIGKILL)
            run.wait()
            time.sleep(3)
            left_behind += sum(psutil.pid_exists(p) and psutil.Process(p).status() != "zombie" for p in below)
            continue
        run.wait()
        break
    sources = [json.loads(line)["source"] for line in out.read_text().splitlines()]
    expected = {str(p) for p in directory_files(Path(folder), HTML_PATTERNS)}
    return {"pages": count, "kills": kills, "records": len(sources), "distinct": len(set(sources)),
            "all_once": sorted(sources) == sorted(expected), "processes_left_after_kills": left_behind}


def cold_start(runs: int) -> dict:
    page = REPO / "data" / "examples" / "example_article.html"
    command = [sys.executable, "-m", "scilabel", "-q", "label", str(page), "-o", os.devnull]
    compiled = {**os.environ, "PYTHONPYCACHEPREFIX": str(REPO / "build" / "throughput" / "pycache")}
    compiled.pop("PYTHONDONTWRITEBYTECODE", None)
    conditions = {"bytecode": compiled, "environment": dict(os.environ)}
    subprocess.run(command, cwd=REPO, env=compiled, check=True)  # writes the bytecode
    seconds: dict[str, list[float]] = {name: [] for name in conditions}
    for _ in range(runs):
        for name, env in conditions.items():
            started = time.perf_counter()
            subprocess.run(command, cwd=REPO, env=env, check=True)
            seconds[name].append(time.perf_counter() - started)
    return {"runs": runs, "dont_write_bytecode": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
            **{f"{name}_median_s": round(statistics.median(s), 3) for name, s in seconds.items()},
            **{f"{name}_s": [round(x, 3) for x in s] for name, s in seconds.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=REPO.parent / "shared/data/pages")
    ap.add_argument("--ratio", type=int, default=159, help="pages of the ratio (0: skip)")
    ap.add_argument("--workers-pages", type=int, default=120, help="pages of each workers run (0: skip)")
    ap.add_argument("--long", type=int, default=2000, help="pages of the memory run (0: skip)")
    ap.add_argument("--resume-pages", type=int, default=2000, help="pages of the kill-and-resume run (0: skip)")
    ap.add_argument("--cold", type=int, default=9, help="cold starts under each condition (0: skip)")
    ap.add_argument("--no-references", action="store_true",
                    help="the ratio's labeller leaves the references out (scilabel label --no-references)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    real = [str(p) for p in directory_files(Path(args.pages), HTML_PATTERNS)]
    cycled = lambda n: list(itertools.islice(itertools.cycle(real), n))  # noqa: E731
    result = {"cores": os.cpu_count(), "load_at_start": os.getloadavg()}
    if args.ratio:
        result["ratio"] = ratio(cycled(args.ratio), settings=LabelSettings(references=not args.no_references))
        print("ratio", result["ratio"], flush=True)
    if args.workers_pages:
        one, two = (pages_per_second(cycled(args.workers_pages), n) for n in (1, 2))
        result["workers"] = {"pages": args.workers_pages, "1": round(one, 3), "2": round(two, 3),
                             "speedup": round(two / one, 2)}
        print("workers", result["workers"], flush=True)
    if args.long:
        result["memory"] = memory(cycled(args.long), cycle=len(real))
        print("memory", {k: v for k, v in result["memory"].items() if k != "samples_mb"}, flush=True)
    if args.resume_pages:
        result["kill_and_resume"] = kill_and_resume(args.resume_pages, REPO / "build" / "throughput" / "pages")
        print("kill and resume", result["kill_and_resume"], flush=True)
    if args.cold:
        result["cold_start"] = cold_start(args.cold)
        print("cold start", {k: v for k, v in result["cold_start"].items() if not isinstance(v, list)}, flush=True)
    result["load_at_end"] = os.getloadavg()
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
