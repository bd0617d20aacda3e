"""JSON lines: one compact JSON object per line (a zone, or a page record)."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from .base import Writer

if TYPE_CHECKING:
    from ..zones import Zone


def json_lines(items: Iterable[object]) -> str:
    """Each item as compact JSON on a line of its own."""
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def zone_record(zone: Zone) -> dict:
    """A zone as a JSON-ready dict (its box rounded to 0.01 px)."""
    record = asdict(zone)
    record["bbox"] = [round(v, 2) for v in zone.bbox]
    record["cites"] = list(zone.cites)
    return record


class JsonLinesWriter(Writer):
    """One JSON object per line: a page record per page, or a zone per zone."""

    name = "jsonl"

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        return json_lines(records)

    def zones(self, zones: Sequence[Zone]) -> str:
        return json_lines(zone_record(z) for z in zones)
