"""Labelled zone datasets on disk: one folder holding ``zones.parquet`` and ``manifest.csv``.

``zones.parquet`` has one row per zone of every page (the zones frame of :mod:`scilabel.readers.base`,
its ``document`` the page id: the manifest's ``document`` or ``path``) plus ``split`` (train/dev/test),
``group`` (template family or publisher) and ``label``; silver and gold pages also have ``unscored``,
the labels (space-separated, if any) whose gold a zone cannot give: training does not learn such a
zone as ``other`` (:meth:`~scilabel.labeler.ZoneLabeler.fit`).
``manifest.csv`` has one row per page, with ``document``/``path``, ``split``, ``html_path``
(where the page's HTML is) and zone counts per label. Generated corpora and silver corpora share
this layout, so training and evaluation read both the same way.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from ..atomic import atomic_path
from ..cache import cached_zones
from ..schema import LABELS

log = logging.getLogger(__name__)
ZONES_FILE = "zones.parquet"
MANIFEST_FILE = "manifest.csv"


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


def load_zones(folders: Iterable[Path]) -> pd.DataFrame:
    """Zones of one or more dataset folders, with a ``dataset`` column naming the folder."""
    frames = []
    for folder in folders:
        path = Path(folder) / ZONES_FILE
        if not path.exists():
            raise FileNotFoundError(f"{folder}: not a scilabel dataset (no {ZONES_FILE}; build it with `scilabel corpus`)")
        frames.append(pd.read_parquet(path).assign(dataset=Path(folder).name))
    return pd.concat(frames, ignore_index=True)
