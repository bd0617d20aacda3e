"""Labelling on a Dask distributed cluster: a :class:`LabellerPlugin` gives every worker its own
:class:`~scilabel.batch.PageLabeller` (browser and models, started once), and
:func:`label_on_cluster` keeps the cluster busy with a bounded number of pages in flight.

Each worker needs scilabel and a Chromium installed; the pages travel to the workers as paths or
URLs (which each worker must be able to read) or, for WARC records, as their HTML.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

from distributed import Client, WorkerPlugin, as_completed, get_worker

from .batch import LabelSettings, PageLabeller, failure_record, freeze_long_lived
from .inputs import Source, Unreadable, source_name
from .readers.base import PageError

#: The name the plugin is registered under on every worker.
PLUGIN = "scilabel-labeller"
#: Pages in flight per worker thread: enough to hide the round trip to the scheduler.
IN_FLIGHT_PER_THREAD = 2


class LabellerPlugin(WorkerPlugin):
    """A worker's page labeller, started when the plugin is registered and closed with the worker.

    Pages are labelled one at a time per worker (a lock), whatever its number of threads: start
    workers with ``--nthreads 1`` and as many processes as cores.
    """

    name = PLUGIN

    def __init__(self, settings: LabelSettings, page_budget: int):
        self.settings = settings
        self.page_budget = page_budget
        self.labeller: PageLabeller | None = None
        self.lock = threading.Lock()

    def setup(self, worker) -> None:
        self.labeller = PageLabeller(self.settings, self.page_budget).__enter__()
        freeze_long_lived()

    def teardown(self, worker) -> None:
        if self.labeller is not None:
            self.labeller.__exit__(None, None, None)
            self.labeller = None

    def __getstate__(self) -> dict:  # the lock and the labeller stay where they are made
        return {"settings": self.settings, "page_budget": self.page_budget}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["settings"], state["page_budget"])


def _label_on_worker(source: Source) -> dict:
    plugin = get_worker().plugins[PLUGIN]
    with plugin.lock:
        return plugin.labeller.label(source)


def label_on_cluster(client: Client, sources: Iterable[Source], settings: LabelSettings,
                     page_budget: int) -> Iterator[dict]:
    """:func:`scilabel.batch.label_many` on the cluster of ``client`` (see there)."""
    client.register_plugin(LabellerPlugin(settings, page_budget), name=PLUGIN)
    threads = max(1, sum(client.nthreads().values()))
    pending = enumerate(sources)
    futures = as_completed()
    names: dict[str, str] = {}

    def submit(count: int) -> Iterator[dict]:
        for i, source in pending:
            if isinstance(source, Unreadable):
                yield failure_record(source.source, PageError(source.error))
                continue
            key = f"scilabel-page-{i}"
            names[key] = source_name(source)
            futures.add(client.submit(_label_on_worker, source, key=key))
            count -= 1
            if count == 0:
                return

    yield from submit(IN_FLIGHT_PER_THREAD * threads)
    for future in futures:
        name = names.pop(future.key)
        try:
            record = future.result()
        except Exception as exc:  # noqa: BLE001 - a worker lost mid-page: a failure, the run goes on
            record = failure_record(name, exc)
        future.release()
        yield record
        yield from submit(1)
