"""The render cache: pages rendered once, bad pages reported, no worker outliving a killed batch."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from scilabel import cache


def test_pages_render_once_and_a_bad_page_is_reported(tmp_path, monkeypatch):
    good = tmp_path / "good.html"
    good.write_text("<h1>Roots in dry soil</h1><p>Body text.</p>")
    missing = tmp_path / "missing.html"
    store = tmp_path / "cache"
    first = list(cache.cached_zones([good, missing], store, progress=False))
    assert [p.path for p in first] == [good, missing]
    assert first[0].zones["text"].tolist() == ["Roots in dry soil", "Body text."]
    assert first[1].zones is None and "cannot read" in first[1].error

    def no_render(*args):
        raise AssertionError("a cached page was rendered again")

    monkeypatch.setattr(cache, "_render_all", no_render)
    again = list(cache.cached_zones([good], store, progress=False))
    assert again[0].zones.equals(first[0].zones)


def _state(pid: int) -> str | None:
    """The process's state letter from /proc (None once it is gone; "Z" for an unreaped zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def test_a_worker_ends_when_the_process_that_started_it_is_killed():
    watcher = "import sys; from scilabel.cache import _exit_with_parent; _exit_with_parent(int(sys.argv[1]))"
    starter = ("import os, subprocess, sys, time; "
               f"child = subprocess.Popen([sys.executable, '-c', {watcher!r}, str(os.getpid())]); "
               "print(child.pid, flush=True); time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", starter], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert _state(child) not in (None, "Z")
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while _state(child) not in (None, "Z") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _state(child) in (None, "Z")
