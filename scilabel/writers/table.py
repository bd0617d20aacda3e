"""A table to read: a page's component zones with their box, font and text."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .base import Writer

if TYPE_CHECKING:
    from ..zones import Zone


class TableWriter(Writer):
    """One aligned line per zone: number, gold label, box, font size and weight, text cut at 90 characters."""

    name = "table"

    def zones(self, zones: Sequence[Zone]) -> str:
        lines = [f"{'#':>4} {'label':<18} {'x':>6} {'y':>7} {'w':>6} {'h':>6} {'size':>5} {'wt':>4}  text"]
        for n, z in enumerate(zones):
            x, y, w, h = z.bbox
            text = z.text if len(z.text) <= 90 else z.text[:87] + "..."
            lines.append(f"{n:>4} {z.label or '-':<18} {x:>6.0f} {y:>7.0f} {w:>6.0f} {h:>6.0f} "
                         f"{z.font_size:>5.1f} {z.font_weight:>4}  {text}")
        return "\n".join(lines)
