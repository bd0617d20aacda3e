"""A page end to end: render, collect zones, label, parse the references; then the output record
(`scilabel label`) or the article structure (`scilabel structure`) is built from that."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .labeler import PageLabels, ZoneLabeler
from .output import page_record
from .overlay import draw_overlay
from .references import PageReferences, ReferenceParser, page_references
from .render import RenderedPage, Renderer
from .zones import collect_zones, zones_frame


@dataclass
class ReadPage:
    """One page as scilabel read it: the rendering, its zones, their labels and its references."""

    page: RenderedPage
    zones: pd.DataFrame
    labels: PageLabels
    references: PageReferences


def model_name(labeler: ZoneLabeler) -> str:
    """The name a model reports in output: its model card's name, else its emission and version."""
    card = getattr(labeler, "model_card_", {})
    return card.get("name") or f"scilabel-{labeler.emission}-{labeler.versions_['scilabel']}"


def read_page(
    renderer: Renderer, labeler: ZoneLabeler, parser: ReferenceParser, source: str | Path, overlay: Path | None = None
) -> ReadPage:
    """Render one page (file, URL or HTML string), label its zones and parse its references with
    ``parser``; with ``overlay``, also save the labelled screenshot there."""
    with tempfile.TemporaryDirectory(prefix="scilabel-") as tmp:
        shot = Path(tmp) / "page.png" if overlay else None
        page = renderer.render(source, screenshot=shot)
        zones = zones_frame(collect_zones(page), page)
        labels = labeler.label_pages(zones)
        result = labels[0] if labels else PageLabels([], [], np.zeros(0))  # a page without zones
        if overlay:
            draw_overlay(shot, [((r.x, r.y, r.w, r.h), lab) for r, lab in zip(zones.itertuples(), result.labels)], overlay)
    references = page_references(zones.assign(predicted=result.labels), parser, label_column="predicted")
    return ReadPage(page, zones, result, references)


def label_page(
    renderer: Renderer, labeler: ZoneLabeler, parser: ReferenceParser, source: str | Path, overlay: Path | None = None
) -> dict:
    """The `scilabel label` record of one page (see :func:`read_page`)."""
    read = read_page(renderer, labeler, parser, source, overlay)
    record = page_record(read.page.source, model_name(labeler), read.zones, read.labels, read.references)
    record["warnings"] = read.page.warnings
    return record
