"""What a review holds: each page's zones, the model's labels and confidences, the reviewer's labels
with their undo history, and the pages in the order they are reviewed.

A page is read once (rendered, with its screenshot) and labelled by the model when first opened, or
for every page up front when the pages are ordered by the model's uncertainty. A page with a gold file
opens with its saved labels, so that a review goes on where it stopped.
"""
from __future__ import annotations

import logging
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..corpus.gold import page_labels
from ..features.evidence import with_declared
from ..labeler import ZoneLabeler
from ..readers import Reader
from ..schema import LABELS
from .gold import gold_path, gold_record, page_key, read_gold_file, write_gold

log = logging.getLogger(__name__)
#: How pages may be ordered: as given (``path``) or the least sure first (``uncertainty``).
ORDERS = ("path", "uncertainty")


@dataclass
class ReviewPage:
    """One page under review.

    ``labels`` are the reviewer's (the model's until changed, or the saved gold's); every change is
    kept in ``history`` as (zone rows, their labels before it), so that it can be undone; ``version``
    counts changes and undos, ``saved_version`` is the version last written.
    """

    source: Path
    zones: pd.DataFrame
    screenshot: Path | None
    model_labels: np.ndarray
    confidence: np.ndarray
    labels: np.ndarray
    gold: dict | None = None  #: the page's gold record as read or last written
    history: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    version: int = 0
    saved_version: int | None = None

    @property
    def uncertainty(self) -> float:
        """The expected number of zones the model labelled wrongly: the sum of 1 - confidence."""
        return float(np.sum(1.0 - self.confidence))

    @property
    def dirty(self) -> bool:
        """Whether the labels changed since they were last saved (or opened)."""
        return self.version != (self.saved_version if self.saved_version is not None else 0)

    def relabel(self, rows: list[int], label: str) -> list[int]:
        """Give the zones ``rows`` the label ``label``; returns the rows whose label changed (none: no
        history entry)."""
        if label not in LABELS:
            raise ValueError(f"unknown label {label!r} (one of {', '.join(LABELS)})")
        rows_array = self._rows(rows)
        changed = rows_array[self.labels[rows_array] != label]
        if len(changed):
            self.history.append((changed, self.labels[changed].copy()))
            self.labels[changed] = label
            self.version += 1
        return changed.tolist()

    def undo(self) -> list[int]:
        """Undo the last change; returns the rows it gave back their labels (none when nothing to undo)."""
        if not self.history:
            return []
        rows, before = self.history.pop()
        self.labels[rows] = before
        self.version += 1
        return rows.tolist()

    def _rows(self, rows: list[int]) -> np.ndarray:
        try:
            out = np.unique(np.asarray(rows, dtype=np.int64))
        except (TypeError, ValueError):
            raise ValueError("zones must be a list of zone numbers") from None
        if len(out) and (out[0] < 0 or out[-1] >= len(self.labels)):
            raise ValueError(f"zone numbers run from 0 to {len(self.labels) - 1}")
        return out

    def gold_record(self, gold_dir: Path) -> dict:
        """The page's gold as it stands (:func:`~scilabel.review.gold.gold_record`)."""
        return gold_record(self.zones["text"].tolist(), self.labels.tolist(), page_key(gold_dir, self.source), self.gold)

    def save(self, gold_dir: Path) -> Path:
        """Write the page's gold into ``gold_dir``, atomically; returns the file."""
        record = self.gold_record(gold_dir)
        path = write_gold(gold_path(gold_dir, self.source), record)
        self.gold, self.saved_version = record, self.version
        return path

    def state(self) -> dict:
        """The page as the browser app shows it: zones as ``[x, y, w, h, label, model label, confidence,
        text]`` rows."""
        z = self.zones
        boxes = np.round(z[["x", "y", "w", "h"]].to_numpy(dtype=float), 1).tolist()
        rows = [[*box, label, model, round(float(conf), 3), text] for box, label, model, conf, text in
                zip(boxes, self.labels.tolist(), self.model_labels.tolist(), self.confidence, z["text"].tolist())]
        width = float(z["page_width"].iloc[0]) if len(z) and "page_width" in z else 0.0
        return {"source": str(self.source), "name": self.source.name, "zones": rows, "version": self.version,
                "dirty": self.dirty, "can_undo": bool(self.history), "saved": self.gold is not None,
                "page_width": width, "uncertainty": round(self.uncertainty, 3)}


class Review:
    """The pages of one review session, read with ``reader`` (entered) and labelled with ``labeler``;
    gold files are read from and written to ``gold_dir``. Thread-safe: one page is read at a time."""

    def __init__(self, sources: list[Path], reader: Reader, labeler: ZoneLabeler, gold_dir: Path,
                 order: str = "path"):
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r} (one of {', '.join(ORDERS)})")
        if not sources:
            raise ValueError("no pages to review")
        self.sources = [Path(s) for s in sources]
        self.reader = reader
        self.labeler = labeler
        self.gold_dir = Path(gold_dir)
        self._pages: dict[int, ReviewPage] = {}
        self._lock = threading.Lock()
        self._pictures = tempfile.TemporaryDirectory(prefix="scilabel-review-")
        if order == "uncertainty":
            unsure = [self.page(i).uncertainty for i in range(len(self.sources))]
            ranking = np.argsort(-np.asarray(unsure), kind="stable")
            self.sources = [self.sources[i] for i in ranking]
            self._pages = {new: self._pages[old] for new, old in enumerate(ranking.tolist())}

    def close(self) -> None:
        """Remove the screenshots."""
        self._pictures.cleanup()

    def __len__(self) -> int:
        return len(self.sources)

    def page(self, index: int) -> ReviewPage:
        """Page ``index`` of the review order, read and labelled on first use."""
        if not 0 <= index < len(self.sources):
            raise IndexError(f"no page {index} (the review has {len(self.sources)})")
        with self._lock:
            if index not in self._pages:
                self._pages[index] = self._open(self.sources[index], index)
            return self._pages[index]

    def listing(self) -> list[dict]:
        """The pages in review order: name, whether a gold file exists, and the model's uncertainty
        where the page has been opened."""
        out = []
        for i, source in enumerate(self.sources):
            page = self._pages.get(i)
            out.append({"index": i, "name": source.name,
                        "saved": gold_path(self.gold_dir, source).exists(),
                        "uncertainty": round(page.uncertainty, 3) if page else None})
        return out

    def _open(self, source: Path, index: int) -> ReviewPage:
        picture = Path(self._pictures.name) / f"page-{index}.png"
        document = self.reader.read(source, screenshot=picture)
        zones = document.zones.reset_index(drop=True)
        decoded = self.labeler.label_pages(with_declared(zones, document.metadata))
        model = np.asarray(decoded[0].labels if decoded else [], dtype=object)
        confidence = np.asarray(decoded[0].confidence if decoded else [], dtype=float)
        gold = read_gold_file(gold_path(self.gold_dir, source))
        labels = model.copy()
        if gold is not None:
            try:
                labels = page_labels(gold, zones["text"].tolist())
            except (KeyError, ValueError) as exc:
                log.warning("%s: its gold file does not fit the page (%s); the model's labels are shown", source, exc)
        log.info("%s: %d zones, uncertainty %.2f%s", source, len(zones), float(np.sum(1 - confidence)),
                 ", saved labels opened" if gold is not None else "")
        return ReviewPage(source, zones, document.screenshot, model, confidence, labels, gold)
