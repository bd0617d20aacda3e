"""A source end to end: read it into zones (any :class:`~scilabel.readers.Reader`), label them, parse the
references; then the output record (`scilabel label`) or the article structure (`scilabel structure`)
is built from that."""
from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .labeler import PageLabels, ZoneLabeler
from .features.evidence import with_declared
from .fields import page_record
from .overlay import draw_overlay
from .readers import Document, PageError, Reader
from .references import UNPARSED, PageReferences, ReferenceParser, page_references


@dataclass
class ReadPage:
    """One source as scilabel read it: the reader's document, its zones' labels and its references."""

    document: Document
    labels: PageLabels
    references: PageReferences


def model_name(labeler: ZoneLabeler) -> str:
    """The name a model reports in output: its model card's name, else its emission and version."""
    card = getattr(labeler, "model_card_", {})
    return card.get("name") or f"scilabel-{labeler.emission}-{labeler.versions_['scilabel']}"


def read_page(
    reader: Reader, labeler: ZoneLabeler, parser: ReferenceParser | None, source: str | Path,
    overlay: Path | None = None
) -> ReadPage:
    """Read one source with ``reader`` (an entered one), label its zones and parse its references with
    ``parser`` (None: leave them out); with ``overlay``, also save the labelled screenshot there."""
    with tempfile.TemporaryDirectory(prefix="scilabel-") as tmp:
        document = reader.read(source, screenshot=Path(tmp) / "page.png" if overlay else None)
        return labelled_page(document, labeler, parser, overlay)


def labelled_page(document: Document, labeler: ZoneLabeler, parser: ReferenceParser | None,
                  overlay: Path | None = None) -> ReadPage:
    """Label the zones of a document a reader read and parse its references (see :func:`read_page`;
    ``overlay`` needs the document's screenshot; without a ``parser`` the references are left out:
    :data:`~scilabel.references.UNPARSED`)."""
    zones = with_declared(document.zones, document.metadata)  # read only when labeler.page_metadata
    labels = labeler.label_pages(zones)
    result = labels[0] if labels else PageLabels([], [], np.zeros(0))  # a page without zones
    if overlay:
        if document.screenshot is None:
            raise PageError(f"{document.source}: no picture of the page to draw the overlay on")
        boxes = [((r.x, r.y, r.w, r.h), lab) for r, lab in zip(zones.itertuples(), result.labels)]
        draw_overlay(document.screenshot, boxes, overlay)
    references = (UNPARSED if parser is None
                  else page_references(zones.assign(predicted=result.labels), parser, label_column="predicted"))
    return ReadPage(document, result, references)


def label_page(
    reader: Reader, labeler: ZoneLabeler, parser: ReferenceParser, source: str | Path, overlay: Path | None = None
) -> dict:
    """The `scilabel label` record of one source (see :func:`read_page`); with the page's declared
    metadata, merged, unless the labeller is set to ``page_metadata=False``."""
    return label_record(read_page(reader, labeler, parser, source, overlay), labeler)


#: What a page command writes of a page: ``scilabel label``'s record, ``refs``' or ``structure``'s.
OUTPUTS = ("label", "refs", "structure")


def page_output(read: ReadPage, labeler: ZoneLabeler, output: str = "label", block_model: Path | None = None) -> dict:
    """The JSON record of a labelled page that ``scilabel <output>`` writes (one of :data:`OUTPUTS`):
    the page record (:func:`label_record`), its references with the page's source, model and anchor
    format, or its article tree (with ``block_model``, a block model file; default the shipped one)."""
    if output == "structure":
        from .writers.json import article_json

        return article_json(page_article_of(read, labeler, block_model))
    record = label_record(read, labeler)
    if output == "refs":
        return {key: record[key] for key in ("source", "model", "anchor_format", "references")}
    if output != "label":
        raise ValueError(f"unknown page output {output!r} (one of {', '.join(OUTPUTS)})")
    return record


def page_article_of(read: ReadPage, labeler: ZoneLabeler, block_model: Path | None = None):
    """The article tree of a labelled page, its body classified by ``block_model`` (a block model file,
    loaded once per process; default the shipped one)."""
    from .structure import page_article

    return page_article(read, labeler, _block_model(block_model) if block_model else None)


@functools.lru_cache(maxsize=2)
def _block_model(path: Path):
    """A block model file, loaded once per process (a batch worker structures many pages with it)."""
    from .structure.training import load_block_model

    return load_block_model(path)


def label_record(read: ReadPage, labeler: ZoneLabeler) -> dict:
    """The `scilabel label` record of a labelled page (see :func:`label_page`)."""
    record = page_record(read.document.source, model_name(labeler), read.document.zones, read.labels, read.references,
                         read.document.metadata if labeler.page_metadata else None)
    record["warnings"] = read.document.warnings
    return record
