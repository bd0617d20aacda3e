"""Tab-separated values: a page's zones, one line each."""
from __future__ import annotations

from collections.abc import Sequence

from .base import Writer


def page_tsv(record: dict) -> str:
    """One line per zone: label, state, confidence, x, y, w, h, text."""
    lines = ["label\tstate\tconfidence\tx\ty\tw\th\ttext"]
    for z in record["zones"]:
        text = z["text"].replace("\t", " ").replace("\n", " ")
        lines.append("\t".join([z["label"], z["state"], f"{z['confidence']:.4f}", *map(str, z["bbox"]), text]))
    return "\n".join(lines) + "\n"


class TsvWriter(Writer):
    """A page's labelled zones as a table; in a batch run each page's table follows a ``# source`` line."""

    name = "tsv"

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        return "".join((f"# {record['source']}\n" if batch else "") + page_tsv(record) for record in records)
