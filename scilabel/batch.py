"""Labelling many pages: :func:`label_many` runs worker processes, each with its own Chromium and
models (started once and reused), and yields each page's record as it finishes.

A page that fails gives a failure record (:func:`failure_record`) in place of its page record and the
run goes on; a worker that dies or hangs on a page is replaced. Every worker leads a process group of
its own, holding its browser: the group is killed when the worker ends, and a worker whose parent
died (even by ``kill -9``) kills its group, so no Chromium outlives a run.
"""
from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

from .inputs import Source, Unreadable, source_name
from .readers.base import PageError
from .readers.sources import Limits

log = logging.getLogger(__name__)

#: A worker restarts its browser after this many pages, so no browser state accumulates.
PAGE_BUDGET = 200
#: Pages sent to a worker at a time: the one it labels and the one its browser reads meanwhile.
PAGES_HELD = 2
_READY = "ready"
#: The modules a worker imports before its first page (loading the models imports nothing more).
WORKER_MODULES = ("scilabel.batch", "scilabel.pipeline", "scilabel.persistence", "scilabel.readers",
                  "scilabel.references")


@dataclass(frozen=True)
class LabelSettings:
    """How every worker labels: the models, the reader's page timeout and limits, the overlay folder.

    ``model`` and ``refs_model`` are as ``scilabel label --model/--refs-model`` take them (None: the
    shipped ones); ``overlays``, a folder for each page's labelled screenshot (named after the page).
    """

    model: str | None = None
    refs_model: Path | None = None
    page_metadata: bool = True
    timeout: float = 10.0
    overlays: Path | None = None
    limits: Limits = field(default_factory=Limits)  #: what one page may use (deadline, size, nodes, memory)
    trust_model: bool = False  #: also load model pickles (which run code on load)
    output: str = "label"  #: the record of each page: ``label``, ``refs`` or ``structure`` (pipeline.OUTPUTS)
    block_model: Path | None = None  #: with ``output="structure"``, a block model file (default the shipped one)
    references: bool = True  #: parse the references (False: a ``label`` record's references are null)

    def load_models(self):
        """The zone labeller and the reference parser (None when :attr:`references` is off)."""
        from .persistence import load_model, model_path
        from .references import load_parser

        if not self.references and self.output != "label":
            raise ValueError(f"the {self.output} output is made of the references: they cannot be left out")
        labeler = load_model(model_path(self.model), trust=self.trust_model)
        if not self.page_metadata:
            labeler.set_params(page_metadata=False)
        return labeler, load_parser(self.refs_model, trust=self.trust_model) if self.references else None

    def page_seconds(self) -> float:
        """How long a worker may take on one page before it is killed: above the renderer's own ceiling."""
        return 4 * self.timeout + self.limits.deadline + 180


def failure_record(source: str, exc: BaseException) -> dict:
    """The record of a page that failed: its ``source``, the ``error`` in one line, and its ``cause``
    (the exception's class name)."""
    text = str(exc).strip()
    return {"source": source, "error": text.splitlines()[0] if text else type(exc).__name__,
            "cause": type(exc).__name__}


def is_failure(record: dict) -> bool:
    """Whether ``record`` is a failure record rather than a page record."""
    return "error" in record


class PageLabeller:
    """One worker's reader and models: :meth:`label` turns a source into its record, never raising;
    :meth:`label_all` does so for many, reading (rendering) the next page while it labels the last.

    The browser restarts after ``page_budget`` pages and after any error that is not the page's own
    (:class:`PageError`). Use as a context manager.
    """

    def __init__(self, settings: LabelSettings, page_budget: int = PAGE_BUDGET):
        self.settings = settings
        self.page_budget = page_budget
        self.labeler, self.parser = settings.load_models()
        self.reader = None
        self.pages = 0

    def __enter__(self) -> PageLabeller:
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def _start(self) -> None:
        from .readers import SourceReader

        self.reader = SourceReader(timeout=self.settings.timeout, limits=self.settings.limits).__enter__()
        self.pages = 0

    def _stop(self) -> None:
        if self.reader is not None:
            reader, self.reader = self.reader, None
            reader.__exit__(None, None, None)

    def _guarded(self, source: Source, step, browser: bool = True):
        """``step(source)``, or the failure record of what it raised (restarting the browser, when the
        step used it, on an error that is not the page's own)."""
        name = source_name(source)
        try:
            if isinstance(source, Unreadable):
                raise PageError(source.error)
            return step(source)
        except Exception as exc:  # noqa: BLE001 - one page's failure is a record, never the run's end
            if browser and not isinstance(exc, PageError):
                log.warning("%s: %s; restarting the browser", name, exc)
                self._stop()
            return failure_record(name, exc)

    def _next_reader(self):
        """The reader for the next page: the browser restarted once it has read its page budget."""
        if self.reader is None or self.pages >= self.page_budget:
            self._stop()
            self._start()
        self.pages += 1
        return self.reader

    def _read(self, source: Source):
        """The document of ``source`` as the reader read it."""
        return self._next_reader().read(source)

    def _record(self, document) -> dict:
        from .pipeline import labelled_page, page_output

        return page_output(labelled_page(document, self.labeler, self.parser), self.labeler, self.settings.output,
                           self.settings.block_model)

    def _label(self, source: Source) -> dict:
        from .overlay import overlay_path
        from .pipeline import page_output, read_page

        overlay = overlay_path(self.settings.overlays, source_name(source)) if self.settings.overlays else None
        read = read_page(self._next_reader(), self.labeler, self.parser, source, overlay=overlay)
        return page_output(read, self.labeler, self.settings.output, self.settings.block_model)

    def label(self, source: Source) -> dict:
        """The page record of ``source``, or its failure record."""
        return self._guarded(source, self._label)

    def label_all(self, sources: Iterable[Source]) -> Iterator[dict]:
        """The record of each source, in order; a thread reads each page while the one before is labelled,
        so the browser's time and the labelling's overlap (sequential with overlays, which need both)."""
        if self.settings.overlays:
            yield from map(self.label, sources)
            return
        ahead: queue.Queue = queue.Queue(maxsize=1)

        def read_ahead() -> None:
            try:
                for source in sources:
                    ahead.put((source, self._guarded(source, self._read)))
            except BaseException as exc:  # noqa: BLE001 - handed to the consuming thread
                ahead.put(exc)
            ahead.put(None)

        threading.Thread(target=read_ahead, name="scilabel-read-ahead", daemon=True).start()
        while (item := ahead.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            source, read = item
            yield read if isinstance(read, dict) else self._guarded(read, self._record, browser=False)


def freeze_long_lived() -> None:
    """Keep what a worker process has loaded so far (modules, models) out of the cyclic garbage
    collector's walks: it lives as long as the worker, and every page allocates enough to set off
    collections that would walk all of it again (about 30 ms of CPU a page on real pages)."""
    gc.collect()
    gc.freeze()


def label_many(sources: Iterable[Source], workers: int = 1, *, settings: LabelSettings | None = None,
               client=None, page_budget: int = PAGE_BUDGET) -> Iterator[dict]:
    """Label many pages in parallel, yielding each page's record as it finishes (not in input order).

    The workers fork from a server process that has imported what they need (multiprocessing's
    ``forkserver``, started on the first call and kept while the caller lives); as with ``spawn``, a
    script calling this guards its top level with ``if __name__ == "__main__":``. Closing the generator early (or an exception in the loop over it)
    stops the workers and their browsers.

    Parameters
    ----------
    sources : iterable
        Pages: paths, http(s) URLs, or pages already read (:class:`~scilabel.readers.sources.PageDocument`,
        as :func:`scilabel.inputs.iter_pages` reads a WARC file's). Read lazily.
    workers : int
        Worker processes, each with its own Chromium and models (ignored with ``client``).
    settings : LabelSettings
        Models, timeout and overlays (default: the shipped models).
    client : distributed.Client, optional
        Run on this Dask cluster instead (:mod:`scilabel.cluster`).
    page_budget : int
        Pages a browser renders before it is restarted.

    Yields
    ------
    dict
        A page record (as ``scilabel label`` writes it) or, for a page that failed, a failure record
        (:func:`failure_record`; :func:`is_failure` tells them apart).
    """
    settings = settings or LabelSettings()
    if client is not None:
        from .cluster import label_on_cluster

        return label_on_cluster(client, sources, settings, page_budget)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    return _label_local(iter(sources), workers, settings, page_budget)


# -- local worker processes ------------------------------------------------------------------------
def _serve(conn: Connection, settings: LabelSettings, page_budget: int, environ: dict[str, str]) -> None:
    """A worker process: label each source the parent sends until it sends None.

    ``environ`` is the caller's environment when it started the worker (the fork server's dates from
    its own start)."""
    os.environ.clear()
    os.environ.update(environ)
    os.setpgrp()  # the worker's browser joins its group: killing the group leaves nothing behind
    # the fork server is the worker's parent, and it exits when the caller does, even by kill -9
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers
    try:
        labeller = PageLabeller(settings, page_budget).__enter__()
    except Exception as exc:  # noqa: BLE001 - no model or no browser: the parent stops the run with it
        conn.send(("error", exc))
        return
    freeze_long_lived()
    conn.send(_READY)

    def incoming() -> Iterator[Source]:
        try:
            while (source := conn.recv()) is not None:
                yield source
        except (EOFError, OSError):  # the parent is gone
            return

    try:
        for record in labeller.label_all(incoming()):
            conn.send(record)
    except (EOFError, OSError):
        pass
    finally:
        labeller.__exit__(None, None, None)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    kill_tree(os.getpid())  # the parent died without stopping us: take the browser along


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (from /proc; none where there is no /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            stat = entry.read_text()
        except OSError:  # gone meanwhile
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(ppid, []).append(int(entry.parent.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


def kill_tree(pid: int) -> None:
    """Kill ``pid``'s descendants, then its process group (the browser leads a group of its own, which
    its descendants' groups catch), then ``pid``."""
    below = descendants(pid)
    for group in {_group(p) for p in below} - {None} | {pid}:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for p in [*below, pid]:
        try:
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


class _Worker:
    """The parent's handle on one worker process and the pages it holds (in the order sent)."""

    def __init__(self, context, settings: LabelSettings, page_budget: int):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, settings, page_budget, dict(os.environ)),
                                       name="scilabel-worker", daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self.held: deque[Source] = deque()
        self.deadline = 0.0

    def send(self, source: Source, seconds: float) -> None:
        if not self.held:
            self.deadline = time.monotonic() + seconds
        self.held.append(source)
        self.conn.send(source)

    def received(self) -> Iterator[dict]:
        """The records the worker has sent so far (marking it ready on its start-up message)."""
        try:
            while self.conn.poll():
                message = self.conn.recv()
                if message == _READY:
                    self.ready = True
                elif isinstance(message, tuple) and message[0] == "error":
                    raise message[1]  # the worker could not start: no model, no browser
                else:
                    self.held.popleft()
                    yield message
        except (EOFError, OSError):  # it died: the caller finds out
            return

    def stop(self, wait_s: float = 30.0) -> None:
        """Ask the worker to finish, then kill what is left of it and of its browser."""
        if self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(wait_s)
        self.kill()

    def kill(self) -> None:
        kill_tree(self.process.pid)
        self.process.join(5)
        self.conn.close()


def _worker_context():
    """Where workers come from: a fork server that has imported what a worker needs before its first
    page (3-4 s of CPU that each spawned worker would spend again)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(WORKER_MODULES))
    return context


def _label_local(sources: Iterator[Source], workers: int, settings: LabelSettings, page_budget: int) -> Iterator[dict]:
    context = _worker_context()
    pool = [_Worker(context, settings, page_budget) for _ in range(workers)]
    seconds = settings.page_seconds()
    exhausted = False
    try:
        while True:
            for worker in pool:
                while worker.ready and len(worker.held) < PAGES_HELD and not exhausted:
                    source = next(sources, None)
                    if source is None:
                        exhausted = True
                    elif isinstance(source, Unreadable):  # no worker needed to say so
                        yield failure_record(source.source, PageError(source.error))
                    else:
                        worker.send(source, seconds)
            if exhausted and not any(w.held for w in pool):
                return
            wait([w.conn for w in pool] + [w.process.sentinel for w in pool], timeout=1.0)
            for i, worker in enumerate(pool):
                for record in worker.received():
                    worker.deadline = time.monotonic() + seconds
                    yield record
                if worker.process.is_alive() and not (worker.held and time.monotonic() > worker.deadline):
                    continue
                why = ("its worker died (exit code {})".format(worker.process.exitcode) if not worker.process.is_alive()
                       else f"not labelled within {seconds:g}s; its worker was killed")
                worker.kill()
                for lost in worker.held:
                    yield failure_record(source_name(lost), PageError(f"{source_name(lost)}: {why}"))
                pool[i] = _Worker(context, settings, page_budget)
    finally:
        for worker in pool:
            worker.stop()
