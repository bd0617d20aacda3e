"""Batch runs: label_many's worker processes (records, failure records, no browser left behind, even
after kill -9 of the parent), the label command's resume, list/WARC inputs and quiet mode, and Dask."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scilabel.batch import LabelSettings, PageLabeller, descendants, is_failure, label_many
from scilabel.cli import main
from scilabel.readers.sources import from_html

from .conftest import EXAMPLE_PAGE, REPO
from .test_inputs import write_warc

PAGE = EXAMPLE_PAGE.read_text(encoding="utf-8")


def workers_of(pids) -> list[int]:
    """The processes of ``pids`` that are label_many's workers (children of multiprocessing's fork server)."""
    found = []
    for pid in pids:
        try:
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
            if b"multiprocessing.forkserver" in Path(f"/proc/{ppid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def alive(pids) -> list[int]:
    """The processes of ``pids`` still running, but multiprocessing's resource tracker (one per parent)."""
    living = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat, open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if stat.read().rpartition(")")[2].split()[0] != "Z" and b"resource_tracker" not in cmdline.read():
                    living.append(pid)
        except OSError:
            pass
    return living


def pages(tmp_path, n: int) -> list[str]:
    paths = []
    for i in range(n):
        path = tmp_path / f"page{i}.html"
        path.write_text(PAGE.replace("Seasonal shifts", f"Seasonal shifts {i}"), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_two_workers_yield_records_and_failures_and_leave_no_process(tmp_path):
    good = pages(tmp_path, 3)
    binary = tmp_path / "binary.html"
    binary.write_bytes(b"\x00\xff" * 500)
    sources = [*good, str(binary), str(tmp_path / "missing.html"), from_html(PAGE, name="https://example.org/p")]
    before = set(descendants(os.getpid()))
    records, workers = {}, set()
    run = label_many(sources, workers=2)
    for record in run:
        records[record["source"]] = record
        for pid in workers_of(set(descendants(os.getpid())) - before):  # (not a browser other tests left open)
            workers |= {pid, *descendants(pid)}
    assert set(records) == {*good, str(binary), str(tmp_path / "missing.html"), "https://example.org/p"}
    assert [records[s]["title"].startswith(f"Seasonal shifts {i}") for i, s in enumerate(good)] == [True] * 3
    failed = {s for s, r in records.items() if is_failure(r)}
    assert failed == {str(binary), str(tmp_path / "missing.html")}
    assert records[str(binary)]["cause"] == "PageError" and "binary content" in records[str(binary)]["error"]
    assert len(workers) > 2  # the workers and their browsers ...
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive(workers) == []  # ... all gone once the run is over


def test_a_worker_sees_the_callers_environment_as_it_is_at_the_call(tmp_path, monkeypatch):
    page = pages(tmp_path, 1)
    assert not is_failure(next(iter(label_many(page, workers=1))))  # the fork server starts here
    monkeypatch.setenv("SCILABEL_CHROMIUM", str(tmp_path / "no-such-chromium"))
    [record] = label_many(page, workers=1)
    assert record["cause"] == "BrowserNotFound" and "no-such-chromium is not an executable" in record["error"]


def test_a_run_without_references_labels_the_header_and_refuses_outputs_made_of_them(tmp_path):
    with PageLabeller(LabelSettings(references=False)) as labeller:
        record = labeller.label(pages(tmp_path, 1)[0])
    assert record["references"] is None and record["title"].startswith("Seasonal shifts 0")
    with pytest.raises(ValueError, match="references"):
        LabelSettings(references=False, output="refs").load_models()


def test_no_browser_outlives_a_parent_killed_with_sigkill(tmp_path):
    script = ("import sys\nfrom scilabel.batch import label_many\n"
              "if __name__ == '__main__':\n"
              "    for record in label_many(sys.argv[1:], workers=1):\n"
              "        print(record['source'], flush=True)\n")
    (tmp_path / "run.py").write_text(script)
    parent = subprocess.Popen([sys.executable, str(tmp_path / "run.py"), *pages(tmp_path, 40)], cwd=REPO,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert parent.stdout.readline().strip().endswith("page0.html")
        below = descendants(parent.pid)
        assert any("chrom" in open(f"/proc/{p}/comm").read() for p in alive(below))
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 15
        while alive(below) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert alive(below) == []
    finally:
        parent.kill()


def test_resume_after_a_crash_over_directories_lists_and_warc_files(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "crawl" / "deep"
    folder.mkdir(parents=True)
    good = pages(folder, 3)
    (folder / "bad.html").write_bytes(b"\x00\xff" * 500)
    (tmp_path / "list.txt").write_text(f"# the same page twice\ncrawl/deep/page1.html\n{good[1]}\n")
    write_warc(tmp_path / "crawl.warc.gz", [("https://example.org/article", "200 OK", "text/html", PAGE.encode()),
                                            ("https://example.org/x.css", "200 OK", "text/css", b"p {}")])
    out, failures = tmp_path / "out.jsonl", tmp_path / "failed.jsonl"
    done = json.dumps({"source": good[0], "zones": []})
    out.write_text(done + "\n" + json.dumps({"source": good[1], "zones": []})[:20])  # killed mid-line
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["label", str(tmp_path / "crawl"), f"@{tmp_path / 'list.txt'}", str(tmp_path / "crawl.warc.gz"),
                 "-o", str(out), "--resume", "--failures", str(failures)]) == 3
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["source"] for r in records) == sorted([*good, "https://example.org/article"])
    assert records[0] == json.loads(done)  # kept, not labelled again
    assert all(r["title"].startswith("Seasonal shifts") for r in records[1:])
    assert [json.loads(line)["source"] for line in failures.read_text().splitlines()] == [str(folder / "bad.html")]
    err = capsys.readouterr().err
    assert "bad.html: not an HTML page" in err and "scilabel: 1 of 4 pages failed" in err
    assert "labelling: 4page" in err and "page/s" in err  # the progress bar (no total: a WARC is read as it goes)


def test_quiet_batch_prints_nothing_but_the_failure_count(tmp_path, capsys, monkeypatch):
    pages(tmp_path, 2)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["-q", "label", str(tmp_path), "--baseline", "metatags", "-o", str(tmp_path / "out.jsonl")]) == 0
    assert capsys.readouterr().err == ""
    (tmp_path / "bad.html").write_bytes(b"\x00\xff" * 500)
    assert main(["-q", "label", str(tmp_path), "--baseline", "metatags", "-o", str(tmp_path / "out.jsonl"),
                 "--resume"]) == 3
    assert capsys.readouterr().err == "scilabel: 1 of 1 pages failed\n"
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 2


def test_dask_local_cluster_of_two_processes(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the Dask path needs distributed: pip install -e '.[batch]'")
    good = pages(tmp_path, 4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        records = list(label_many([*good, str(tmp_path / "missing.html")], client=client))
        hosts = client.run(lambda dask_worker: dask_worker.plugins["scilabel-labeller"].labeller.pages)
    assert sorted(r["source"] for r in records) == sorted([*good, str(tmp_path / "missing.html")])
    assert [r["source"] for r in records if is_failure(r)] == [str(tmp_path / "missing.html")]
    assert sum(hosts.values()) == 5 and all(n > 0 for n in hosts.values())  # both workers labelled


def test_a_worker_keeps_what_it_has_loaded_out_of_the_collectors_walks():
    # in a process of its own: freezing is for the whole process
    code = ("import gc; from scilabel.batch import freeze_long_lived; from scilabel import labeler; "
            "before = gc.get_freeze_count(); freeze_long_lived(); print(before, gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    before, after = map(int, out.stdout.split())
    assert before == 0 and after > 10_000  # scikit-learn, numpy and pandas alone are tens of thousands
