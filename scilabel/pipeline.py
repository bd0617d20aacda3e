"""Labelling a page end to end: render, collect zones, label, build the output record."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from .labeler import PageLabels, ZoneLabeler
from .output import page_record
from .overlay import draw_overlay
from .references import ReferenceParser, page_references
from .render import Renderer
from .zones import collect_zones, zones_frame


def model_name(labeler: ZoneLabeler) -> str:
    """The name a model reports in output: its model card's name, else its emission and version."""
    card = getattr(labeler, "model_card_", {})
    return card.get("name") or f"scilabel-{labeler.emission}-{labeler.versions_['scilabel']}"


def label_page(
    renderer: Renderer, labeler: ZoneLabeler, parser: ReferenceParser, source: str | Path, overlay: Path | None = None
) -> dict:
    """Label one page (file, URL or HTML string) and parse its references with ``parser``; with
    ``overlay``, also save the labelled screenshot."""
    with tempfile.TemporaryDirectory(prefix="scilabel-") as tmp:
        shot = Path(tmp) / "page.png" if overlay else None
        page = renderer.render(source, screenshot=shot)
        zones = zones_frame(collect_zones(page), page)
        labels = labeler.label_pages(zones)
        result = labels[0] if labels else PageLabels([], [], np.zeros(0))  # a page without zones
        if overlay:
            draw_overlay(shot, [((r.x, r.y, r.w, r.h), lab) for r, lab in zip(zones.itertuples(), result.labels)], overlay)
    references = page_references(zones.assign(predicted=result.labels), parser, label_column="predicted")
    record = page_record(page.source, model_name(labeler), zones, result, references)
    record["warnings"] = page.warnings
    return record
