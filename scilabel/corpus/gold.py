"""Reviewed gold of real publisher pages as a labelled dataset (``scilabel corpus gold``).

A gold file (``<gold dir>/<source>/<name>.json``, README beside the shared data's gold) holds a page's
field texts, the fields the page visibly shows (``fields_scored``) and ``zones``: the zone index
ranges of each field as the zone collector cut the page ("13", "14-15", "65, 72, 78"; "" for a field
the page does not show). The pages are rendered through the render cache and each zone takes the label
of the range holding it. Reviewed gold is complete: a field the page does not score is one it does not
show (an empty range), so every zone outside the ranges is a true ``other``, learnt as such; nothing is
masked (``unscored`` is for silver pages, whose alignment may miss a field that is there). Evaluation
scores only ``fields_scored`` (the manifest's ``fields``).

Pages of the first gold folder given (the balanced headline set) get split ``test``, of the others
``train``; ``group`` is the page's canonical publisher (:func:`canonical_publisher`, from
``publishers.tsv``), the unit publisher-grouped cross-validation keeps on one side.
"""
from __future__ import annotations

import csv
import fnmatch
import hashlib
import importlib.util
import json
import logging
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd

from ..cache import cached_zones
from ..schema import FIELD_LABELS, LABELS
from .dataset import write_dataset

log = logging.getLogger(__name__)
PUBLISHERS_FILE = Path(__file__).with_name("publishers.tsv")
#: The key of each field's zone range in a gold file.
RANGE_KEYS = {"title": "title", "authors": "author_zones", "affiliations": "affiliations",
              "abstract": "abstract", "references": "references"}
#: Token recall of the gold text in the ranged zones' text below which a field is reported as a mismatch
#: (recall, not F1: a byline zone may also hold markers, e-mails or an address, which the gold leaves out).
MISMATCH_RECALL = 0.9


@cache
def publisher_rules() -> tuple[tuple[str, str, str], ...]:
    """The rows of ``publishers.tsv``: (key, pattern, publisher), key ``page`` or ``publisher``."""
    with open(PUBLISHERS_FILE, encoding="utf-8", newline="") as fh:
        rows = [line for line in fh if line.strip() and not line.startswith("#")]
    return tuple((r["key"], r["pattern"], r["publisher"]) for r in csv.DictReader(rows, delimiter="\t"))


def canonical_publisher(gold: dict) -> str:
    """The publisher a gold page counts under: the first rule of ``publishers.tsv`` matching its
    ``page`` path or ``publisher`` string, else its ``publisher`` string as it is."""
    for key, pattern, publisher in publisher_rules():
        if fnmatch.fnmatchcase(gold.get(key) or "", pattern):
            return publisher
    return gold.get("publisher") or "?"


def read_gold(folders: list[Path]) -> list[dict]:
    """Every gold file under the folders, in folder then name order, with ``gold_set`` (the folder's
    name) and ``gold_file`` added."""
    pages = []
    for folder in map(Path, folders):
        files = sorted(folder.glob("*/*.json"))
        if not files:
            raise FileNotFoundError(f"{folder}: no gold files (<source>/<name>.json)")
        for path in files:
            gold = json.loads(path.read_text(encoding="utf-8"))
            pages.append({**gold, "gold_set": folder.name, "gold_file": str(path)})
    return pages


def zone_indices(spec: str) -> list[int]:
    """Zone indices of a gold range: "13", "14-15", "65, 72, 78" or "" (none)."""
    out: list[int] = []
    for part in str(spec or "").split(","):
        first, _, last = part.strip().partition("-")
        if first:
            out += range(int(first), int(last or first) + 1)
    return out


def gold_labels(gold: dict, n_zones: int) -> np.ndarray:
    """Label of each of a page's zones from its gold ranges (``other`` outside them; a zone in the
    ranges of two fields takes the first in :data:`~scilabel.schema.FIELD_LABELS` order)."""
    labels = np.full(n_zones, "other", dtype=object)
    scored = [f for f in FIELD_LABELS if f in gold["fields_scored"]]
    for field in reversed(scored):  # a zone in two ranges (a byline line "Name, Institution") keeps the first field
        rows = zone_indices(gold["zones"].get(RANGE_KEYS[field], ""))
        beyond = [i for i in rows if i >= n_zones]
        if beyond:
            raise ValueError(f"{gold['page']}: {field} range reaches zone {max(beyond)} of {n_zones}")
        labels[rows] = field
    return labels


def zone_digest(texts) -> str:
    """A short hash of a page's zone texts in order: which zones a review's ``zone_labels`` belong to."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(str(text).encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]


def page_labels(gold: dict, texts) -> np.ndarray:
    """Label of each zone of a page whose zones have ``texts``: the gold's ``zone_labels`` (written by
    ``scilabel review``, headings included) when they were saved for these very zones, else the labels
    of its field ranges (:func:`gold_labels`)."""
    saved = gold.get("zone_labels")
    if saved is not None and len(saved) == len(texts) and gold.get("zone_digest") == zone_digest(texts):
        return np.asarray(saved, dtype=object)
    if saved is not None:
        log.warning("%s: the page's zones have changed since its review; its field ranges are used", gold["page"])
    return gold_labels(gold, len(texts))


def load_page_scorer(path: Path) -> ModuleType:
    """The shared data's page scorer (``tools/score_pages.py``), imported as a module: the project
    scores real pages with its functions (``score_page``, ``aggregate``, ``tokens``), never a copy."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no page scorer (tools/score_pages.py of the shared data)")
    spec = importlib.util.spec_from_file_location("score_pages", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def default_scorer_path(gold_dir: Path) -> Path:
    """``tools/score_pages.py`` beside the shared data folder holding ``gold_dir``."""
    return Path(gold_dir).resolve().parent.parent / "tools" / "score_pages.py"


def zone_records(texts, labels) -> list[dict]:
    """Zones in the shape the page scorer reads (``{"label", "text"}``)."""
    return [{"label": lab, "text": text} for text, lab in zip(texts, labels)]


def build_gold(gold_dirs: list[Path], out_dir: Path, data_root: Path, scorer: ModuleType,
               workers: int = 2, timeout: float = 10.0) -> pd.DataFrame:
    """Render every gold page (cached in ``out_dir/cache``), label its zones from the gold ranges,
    and write the dataset; the manifest has, per page, how well the ranged zones' text matches the
    gold text (``check_<field>``, the scorer's token recall of the gold text) so a zone collector that has
    moved shows.
    Returns the manifest."""
    out_dir = Path(out_dir)
    golds = read_gold(gold_dirs)
    first = Path(gold_dirs[0]).name
    paths = [Path(data_root) / g["page"] for g in golds]
    frames, rows = [], []
    for gold, cached in zip(golds, cached_zones(paths, out_dir / "cache", workers, timeout)):
        row = {"document": gold["page"], "gold_set": gold["gold_set"], "split": "test" if gold["gold_set"] == first else "train",
               "group": canonical_publisher(gold), "publisher": gold.get("publisher"),
               "fields": " ".join(gold["fields_scored"]), "html_path": str(cached.path),
               "gold_file": gold["gold_file"], "render_error": cached.error}
        if cached.zones is not None:
            labels = page_labels(gold, cached.zones["text"].tolist())
            frame = cached.zones.assign(document=gold["page"], split=row["split"], group=row["group"], label=labels)
            frames.append(frame)
            checks, _, _ = scorer.score_page(gold, zone_records(frame["text"], labels))
            row.update({f"check_{field}": s["R"] for field, s in checks.items()})
            row.update({f"zones_{lab}": int((labels == lab).sum()) for lab in LABELS})
        rows.append(row)
    manifest = pd.DataFrame(rows)
    for where, recall in mismatches(manifest):
        log.warning("%s: the ranged zones hold %.3f of the gold text's tokens", where, recall)
    write_dataset(out_dir, pd.concat(frames, ignore_index=True), manifest)
    return manifest


def mismatches(manifest: pd.DataFrame) -> list[tuple[str, float]]:
    """(page and field, token recall) where the ranged zones' text misses some of the gold text."""
    out = []
    for row in manifest.to_dict("records"):
        for field in FIELD_LABELS:
            recall = row.get(f"check_{field}")
            if recall is not None and not pd.isna(recall) and recall < MISMATCH_RECALL:
                out.append((f"{row['document']}: {field}", recall))
    return out
