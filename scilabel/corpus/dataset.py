"""Labelled zone datasets on disk: one folder holding ``zones.parquet`` and ``manifest.csv``.

``zones.parquet`` has one row per zone of every page (the zones frame of :mod:`scilabel.readers.base`,
its ``document`` the page id: the manifest's ``document`` or ``path``) plus ``split`` (train/dev/test),
``group`` (template family or publisher) and ``label``; silver and gold pages also have ``unscored``,
the labels (space-separated, if any) whose gold a zone cannot give: training does not learn such a
zone as ``other`` (:meth:`~scilabel.labeler.ZoneLabeler.fit`).
``manifest.csv`` has one row per page, with ``document``/``path``, ``split``, ``html_path``
(where the page's HTML is) and zone counts per label. ``declared.jsonl`` holds what each page declares
about itself (:class:`~scilabel.features.evidence.Declared`, from its HTML's meta tags), which
:func:`load_zones` sets as the zones' ``declared`` column. Generated, silver and gold corpora share
this layout, so training and evaluation read them the same way.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from ..atomic import atomic_path, write_text
from ..cache import cached_zones
from ..features.evidence import DECLARED_COLUMN, Declared
from ..metadata import read_meta
from ..readers.base import PageError
from ..readers.sources import load_source
from ..schema import LABELS

log = logging.getLogger(__name__)
ZONES_FILE = "zones.parquet"
MANIFEST_FILE = "manifest.csv"
DECLARED_FILE = "declared.jsonl"


def render_generated(out_dir: Path, workers: int = 1, timeout: float = 10.0) -> pd.DataFrame:
    """Render every page of a generated corpus (its ``manifest.csv`` lists them), read the gold labels
    back through the zone collector, write ``zones.parquet``, and add zone counts per label to the
    manifest. Returns the updated manifest."""
    out_dir = Path(out_dir)
    manifest = pd.read_csv(out_dir / MANIFEST_FILE)
    paths = [out_dir / p for p in manifest["path"]]
    frames, counts, errors = [], [], []
    for row, cached in zip(manifest.itertuples(), cached_zones(paths, out_dir / "cache", workers, timeout)):
        errors.append(cached.error)
        if cached.zones is None:
            counts.append({})
            continue
        frame = cached.zones.assign(document=row.path, split=row.split, group=row.family)
        frame["label"] = frame["label"].fillna("other")
        frames.append(frame)
        counts.append(frame["label"].value_counts().to_dict())
    manifest = manifest.drop(columns=[c for c in manifest.columns if c.startswith("zones_")])
    for label in LABELS:
        manifest[f"zones_{label}"] = [int(c.get(label, 0)) for c in counts]
    manifest["render_error"] = errors
    manifest["html_path"] = [str(p) for p in paths]
    write_dataset(out_dir, pd.concat(frames, ignore_index=True), manifest)
    return manifest


def write_dataset(out_dir: Path, zones: pd.DataFrame, manifest: pd.DataFrame) -> None:
    """Write a dataset folder atomically file by file."""
    with atomic_path(Path(out_dir) / ZONES_FILE) as tmp:
        zones.to_parquet(tmp, index=False)
    with atomic_path(Path(out_dir) / MANIFEST_FILE) as tmp:
        manifest.to_csv(tmp, index=False)
    write_declared(out_dir, manifest)


def _documents(manifest: pd.DataFrame) -> pd.Series:
    return manifest["document"] if "document" in manifest else manifest["path"]


def write_declared(out_dir: Path, manifest: pd.DataFrame) -> dict[str, Declared | None]:
    """Read every page's declared metadata (:func:`~scilabel.metadata.read_meta` of its ``html_path``,
    or of ``document`` under ``out_dir``; None where it cannot be read), write ``declared.jsonl`` and
    return it by document."""
    records: dict[str, Declared | None] = {}
    html_paths = manifest["html_path"] if "html_path" in manifest else [None] * len(manifest)
    for document, html_path in zip(_documents(manifest), html_paths):
        path = Path(html_path) if isinstance(html_path, str) and Path(html_path).exists() else Path(out_dir) / document
        try:
            records[document] = Declared.of(read_meta(load_source(path).html))
        except (OSError, PageError):  # a page gone or unreadable (its render failed too): nothing declared
            records[document] = None
    lines = (json.dumps({"document": doc, "declared": rec.to_dict() if rec else None}, ensure_ascii=False)
             for doc, rec in records.items())
    write_text(Path(out_dir) / DECLARED_FILE, "".join(line + "\n" for line in lines))
    return records


def declared_records(folder: Path) -> dict[str, Declared | None]:
    """Each page's declared record by document (``declared.jsonl``; read from the pages and written when
    the dataset predates it); empty for a folder without a manifest (no pages to read)."""
    path = Path(folder) / DECLARED_FILE
    if not path.exists() and not (Path(folder) / MANIFEST_FILE).exists():
        return {}
    if not path.exists():
        log.info("%s: reading the pages' declared metadata", folder)
        return write_declared(Path(folder), pd.read_csv(Path(folder) / MANIFEST_FILE))
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return {row["document"]: Declared.from_dict(row["declared"]) for row in rows}


def load_zones(folders: Iterable[Path]) -> pd.DataFrame:
    """Zones of one or more dataset folders, with a ``dataset`` column naming the folder and each page's
    ``declared`` record."""
    frames = []
    for folder in folders:
        path = Path(folder) / ZONES_FILE
        if not path.exists():
            raise FileNotFoundError(f"{folder}: not a scilabel dataset (no {ZONES_FILE}; build it with `scilabel corpus`)")
        frame = pd.read_parquet(path).assign(dataset=Path(folder).name)
        records = declared_records(folder)
        frame[DECLARED_COLUMN] = [records.get(doc) for doc in frame["document"]]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def labelling_pages(zones: pd.DataFrame, split: str = "train", platforms: bool = False) -> pd.DataFrame:
    """The ``split`` pages of datasets' zones that a zone labeller trains on.

    The real-platform families of a generated corpus (:data:`~scilabel.corpus.platforms.PLATFORMS`) are
    left out unless ``platforms``: on the real-page gold folds they cost the labeller title, authors,
    affiliations and abstract (docs/decisions.md); the structure model is what learns from them.
    """
    from .platforms import PLATFORMS

    chosen = zones["split"] == split
    if not platforms:
        chosen &= ~zones["group"].isin(list(PLATFORMS))
    return zones[chosen]
