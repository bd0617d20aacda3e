"""The HTML reader: a page laid out offline by headless Chromium (:mod:`.render`), cut into component
zones (:mod:`scilabel.zones`), with the metadata the page declares (:mod:`scilabel.metadata`)."""
from __future__ import annotations

from pathlib import Path

from ..metadata import read_meta
from ..zones import collect_zones, zones_frame
from .base import Document
from .render import Renderer
from .sources import Limits


class ChromiumHTMLReader:
    """Reads HTML pages (a file path, an http(s) URL or an HTML string) with one headless Chromium.

    Parameters
    ----------
    timeout : float
        Seconds a page may take to load (and its scripts to run); see :class:`.render.Renderer`.
    javascript : bool
        Whether the page's scripts run.
    limits : Limits
        What one page may use (time, bytes, DOM nodes, memory); see :class:`.sources.Limits`.

    Use as a context manager: the browser starts on entry and stops on exit::

        with ChromiumHTMLReader() as reader:
            document = reader.read("article.html")
    """

    def __init__(self, timeout: float = 10.0, javascript: bool = True, limits: Limits = Limits()):
        self.renderer = Renderer(timeout=timeout, javascript=javascript, limits=limits)

    def __enter__(self) -> ChromiumHTMLReader:
        self.renderer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.renderer.close()

    def read(self, source: str | Path, screenshot: Path | None = None) -> Document:
        """Render one page and collect its zones; with ``screenshot``, also save a full-page PNG there."""
        page = self.renderer.render(source, screenshot=screenshot)
        return Document(
            source=page.source,
            zones=zones_frame(collect_zones(page), page),
            metadata=read_meta(page.html),
            warnings=page.warnings,
            screenshot=None if screenshot is None else Path(screenshot),
        )
