"""What every reader gives: the :class:`Reader` protocol and the :class:`Document` it returns.

A reader turns one source (a file, a URL, an HTML string, a PDF; later a WARC record) into a
:class:`Document` whose zones frame is the contract between readers and every later stage. The frame
has one row per zone in reading order with

- ``document``: which document the row belongs to, the key rows are grouped by (a reader gives the
  source as given; a dataset, its page id);
- ``page``: the 1-based page number within the document (always 1 for a web page; a PDF's pages are
  stacked top to bottom, each scaled to the 1280 px width);
- ``text``, ``x``, ``y``, ``w``, ``h`` (CSS px at a 1280 px viewport), ``font_size``, ``font_weight``,
  ``italic_chars``, ``sup_chars``, ``link_chars``, ``tag_path``, ``node_path`` and ``class_path`` (the tags, the DOM
  indices and the tags with classes and id of the elements from the root to the zone's container; HTML
  only, else empty), ``lead_chars`` (the length of
  the text's opening run set bolder or in another slant than its end, a run-in title; HTML only, else
  0), ``dom_index``,
  ``page_width``, ``page_height``;
- optionally ``column_offset``: how far right of the page's first text column the zone's column starts
  (a PDF page set in two columns gives it for its right column's zones; absent means 0);
- the gold columns ``label``, ``content``, ``struct``, ``ref_id``, ``cites`` (empty unless the source
  carries gold annotations).

A reader holds what it needs open (a browser) between ``__enter__`` and ``__exit__``, so one reader
reads many sources::

    with reader_for(path) as reader:
        document = reader.read(path)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import pandas as pd

from ..metadata import PageMeta


class PageError(ValueError):
    """A source that cannot be read; the message names the source and the problem in one line."""


class UnsupportedSource(PageError):
    """A source of a kind no reader reads yet."""


@dataclass
class Document:
    """One source as a reader read it."""

    source: str  #: what the caller gave: a path, a URL, or "<html string>"
    zones: pd.DataFrame  #: the zones frame (see the module docstring)
    metadata: PageMeta  #: what the source declares about itself (a web page's meta tags, JSON-LD, COinS, RDFa)
    warnings: list[str] = field(default_factory=list)  #: what went wrong short of failing, one line each
    screenshot: Path | None = None  #: a picture of the page in the zones' coordinates, when one was asked for


@runtime_checkable
class Reader(Protocol):
    """Reads sources into documents; a context manager holding what reading needs open."""

    def __enter__(self) -> Reader: ...

    def __exit__(self, *exc: object) -> None: ...

    def read(self, source: str | Path, screenshot: Path | None = None) -> Document:
        """Read one source; with ``screenshot``, also save a picture of it there for an overlay.

        Raises :class:`PageError` for a source that cannot be read.
        """
        ...
