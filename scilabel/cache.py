"""Render many pages once: zones cached as Parquet, keyed by page bytes and by the code that made them.

Retraining and re-evaluating read the cache and never re-render. The key covers the page's bytes and
the source of the rendering and zone code, so a change to either renders the page again. Rendering
runs in worker processes (one Chromium each) so throughput grows with ``workers``; a page that fails
is reported and skipped, never fatal to the batch.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context, util
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from .atomic import atomic_path
from .readers import PageError
from .readers.render import Renderer
from .zones import collect_zones, zones_frame

log = logging.getLogger(__name__)
_CODE_FILES = ("readers/render.py", "readers/extract.js", "zones.py", "readers/sources.py")


def _code_version() -> str:
    digest = hashlib.sha256()
    for name in _CODE_FILES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:12]


CODE_VERSION = _code_version()


@dataclass
class CachedPage:
    """One page's zones frame (None when it failed; ``document`` is the page's path) and why it failed."""

    path: Path
    zones: pd.DataFrame | None
    error: str | None = None


def cache_key(path: Path) -> str:
    """Cache file name for a page: hash of its bytes plus the rendering code version."""
    return f"{hashlib.sha256(path.read_bytes()).hexdigest()[:20]}-{CODE_VERSION}.parquet"


_worker_renderer: Renderer | None = None


def _init_worker(timeout: float) -> None:
    global _worker_renderer
    _worker_renderer = Renderer(timeout=timeout)
    _worker_renderer.start()
    util.Finalize(_worker_renderer, _worker_renderer.close, exitpriority=10)


def _init_pool_worker(timeout: float, parent: int) -> None:
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    _init_worker(timeout)


def _exit_with_parent(parent: int) -> None:
    """End this worker once ``parent``, the process that started it, is gone (killed rather than shut
    down), so that no worker, and no browser of one, outlives a killed batch."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _render_one(job: tuple[Path, Path]) -> tuple[Path, str | None]:
    """Render one page with this process's renderer and cache its zones; an error message on failure."""
    global _worker_renderer
    path, target = job
    try:
        page = _worker_renderer.render(path)
    except PageError as exc:
        return path, str(exc)
    except Exception as exc:  # the browser itself failed: report the page, restart the browser
        timeout = _worker_renderer.timeout
        _worker_renderer.close()
        _init_worker(timeout)
        return path, f"{path}: rendering failed ({type(exc).__name__}: {str(exc).strip()[:200]})"
    frame = zones_frame(collect_zones(page), page)
    frame["blocked_requests"] = page.blocked_requests
    frame["render_warnings"] = len(page.warnings)
    with atomic_path(target) as tmp:
        frame.to_parquet(tmp, index=False)
    return path, None


def _render_all(todo: list[tuple[Path, Path]], workers: int, timeout: float) -> Iterator[tuple[Path, str | None]]:
    if workers <= 1:  # in this process: no pool, so callers need no ``__main__`` guard
        _init_worker(timeout)
        try:
            yield from map(_render_one, todo)
        finally:
            _worker_renderer.close()
        return
    # spawn, not fork: the parent may already run Playwright threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_init_pool_worker, initargs=(timeout, os.getpid())) as pool:
        yield from pool.map(_render_one, todo, chunksize=1)


def cached_zones(
    paths: Iterable[Path], cache_dir: Path, workers: int = 1, timeout: float = 10.0, progress: bool = True
) -> Iterator[CachedPage]:
    """Zones of every page, rendering only pages missing from the cache; in input order."""
    paths = [Path(p) for p in paths]
    cache_dir.mkdir(parents=True, exist_ok=True)
    targets = {}
    for path in paths:
        try:
            targets[path] = cache_dir / cache_key(path)
        except OSError as exc:
            targets[path] = None
            log.warning("%s: cannot read (%s); skipped", path, exc.strerror or exc)
    todo = [(p, t) for p, t in targets.items() if t is not None and not t.exists()]
    errors: dict[Path, str] = {p: "cannot read the file" for p, t in targets.items() if t is None}
    if todo:
        log.info("rendering %d of %d pages (%d cached) with %d worker(s)", len(todo), len(paths),
                 len(paths) - len(todo), workers)
        results = _render_all(todo, workers, timeout)
        for path, error in tqdm(results, total=len(todo), desc="rendering", disable=not progress):
            if error:
                errors[path] = error
                log.warning("skipped: %s", error)
    for path in paths:
        if path in errors:
            yield CachedPage(path, None, errors[path])
        else:
            yield CachedPage(path, pd.read_parquet(targets[path]).assign(document=str(path)))
