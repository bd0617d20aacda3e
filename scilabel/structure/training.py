"""Training rows of the block model from labelled datasets, and the trained model saved with its card.

Every page of a dataset folder (``scilabel corpus generate``, the real-platform families, ``scilabel
corpus gold``) gives one row per candidate zone (:func:`~.features.page_features` over the dataset's
gold labels), with its ``kind``: from structure gold where the page carries it, else, for a page of
the reviewed heading gold, ``heading`` where a gold heading sits and an unknown non-heading kind
elsewhere (``known`` False). Pages with neither are left out. A heading row's ``level`` comes from the
heading gold, or from the page's HTML where the structure gold is read from it (NaN where unknown).
"""
from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from .. import __version__
from .. import modelfile
from ..persistence import ModelError, read_model_file
from .features import page_features
from .gold import has_structure, heading_rows, outline_levels, zone_kinds
from .model import BlockModel

log = logging.getLogger(__name__)
#: Columns of a training frame that are not features.
META = ("text", "page", "row", "kind", "known", "level", "group", "split", "dataset")


def page_rows(zones: pd.DataFrame, headings: list[dict] | None = None, page_html: bytes | None = None,
              rules_off: Collection[str] = ()) -> pd.DataFrame:
    """The training rows of one page's zones (gold ``label`` column) with its structure gold (levels
    read from ``page_html`` when given) or ``headings`` (reviewed heading gold); empty when the page
    has neither. ``rules_off``: rule passes left out of the features (``BlockModel.rules_off``)."""
    zones = zones.reset_index(drop=True)
    structured = "struct" in zones and has_structure(zones)
    if not structured and headings is None:
        return pd.DataFrame()
    frame, rows, _ = page_features(zones, zones["label"].to_numpy(dtype=object), rules_off)
    if not len(rows):
        return frame
    if structured:
        kinds, known = zone_kinds(zones)[rows], np.ones(len(rows), dtype=bool)
        levels = outline_levels(zones, page_html) if page_html is not None else {}
    else:
        levels = heading_rows([str(t).strip() for t in zones["text"]], headings)
        kinds = np.array(["heading" if r in levels else "noise" for r in rows], dtype=object)
        known = np.zeros(len(rows), dtype=bool)
    level = [float(levels[r]) if kind == "heading" and r in levels else np.nan for r, kind in zip(rows, kinds)]
    return frame.assign(text=zones["text"].iloc[rows].astype(str).str.strip().to_numpy(), row=rows, kind=kinds,
                        known=known, level=level)


def dataset_rows(zones: pd.DataFrame, headings: dict[str, list[dict]] | None = None,
                 folder: Path | None = None, rules_off: Collection[str] = ()) -> pd.DataFrame:
    """The training rows of every page of a dataset's zones (``document``, ``group``, ``split``); the
    structure-annotated pages' heading levels are read from their HTML under ``folder`` (the dataset's)."""
    frames = []
    for document, page in tqdm(zones.groupby("document", sort=False), desc="block features", unit="page", leave=False):
        html = Path(folder, document) if folder is not None else None
        rows = page_rows(page, (headings or {}).get(document), html.read_bytes() if html and html.is_file() else None,
                         rules_off)
        if len(rows):
            frames.append(rows.assign(page=document, group=page["group"].iloc[0], split=page["split"].iloc[0]))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def training_rows(datasets: list[Path], heading_gold: dict[str, list[dict]] | None = None,
                  pages_per_family: int | None = None, hold_out: tuple[str, ...] = (), seed: int = 0,
                  rules_off: Collection[str] = ()) -> pd.DataFrame:
    """The training rows of dataset folders (:func:`dataset_rows`): their ``train`` split and the pages
    of ``heading_gold`` (page -> gold headings of reviewed real pages), at most ``pages_per_family``
    pages of each ``group`` (seeded sample), none of the families in ``hold_out``; ``rules_off`` as
    :func:`page_rows`."""
    from ..corpus.dataset import load_zones

    frames = []
    for folder in datasets:
        zones = load_zones([folder])
        wanted = (zones["split"] == "train") | zones["document"].isin(list(heading_gold or ()))
        zones = zones[wanted & ~zones["group"].isin(hold_out)]
        if pages_per_family:
            rng = np.random.default_rng(seed)
            chosen = [d for _, pages in zones.groupby("group")["document"] for d in
                      rng.permutation(pages.unique())[:pages_per_family]]
            zones = zones[zones["document"].isin(chosen)]
        rows = dataset_rows(zones, heading_gold, folder, rules_off)
        frames.append(rows.assign(dataset=Path(folder).name))
    return pd.concat(frames, ignore_index=True)


def fit_rows(model: BlockModel, rows: pd.DataFrame) -> BlockModel:
    """Fit ``model`` on training rows (:func:`dataset_rows`)."""
    X = rows.drop(columns=[c for c in META if c != "text"], errors="ignore")
    return model.fit(X, rows["kind"].to_numpy(dtype=object), kind_mask=rows["known"].to_numpy(dtype=bool),
                     levels=rows["level"].to_numpy(dtype=float) if "level" in rows else None,
                     pages=rows["page"].to_numpy(dtype=object) if "page" in rows else None)


def train_block_model(datasets: list[Path], out: Path, gold: Path | None = None, heading_gold: Path | None = None,
                      pages_per_family: int | None = 25, hold_out: tuple[str, ...] = (), **params) -> BlockModel:
    """Train a block model on the structure-annotated ``datasets`` (``pages_per_family`` training pages of
    each family but the ``hold_out`` ones) and the reviewed real pages of ``gold`` (a ``scilabel corpus
    gold`` dataset) that ``heading_gold`` (the shared data's ``gold-structure``) covers; save it to
    ``out`` with its card."""
    from .gold import read_heading_gold

    headings = read_heading_gold(heading_gold) if gold is not None and heading_gold is not None else {}
    folders = [*datasets, *([gold] if headings else [])]
    model = BlockModel(**params)
    rows = training_rows(folders, headings, pages_per_family, hold_out, rules_off=model.rules_off)
    model = fit_rows(model, rows)
    card = {"name": "scilabel-blocks", "params": model.get_params(), "held_out_family": ",".join(hold_out) or None,
            "training": {name: {"pages": int(part["page"].nunique()), "zones": len(part),
                                "kinds": part.loc[part["known"], "kind"].value_counts().to_dict(),
                                "gold_headings": int((~part["known"] & (part["kind"] == "heading")).sum()),
                                "headings_of_known_level": int(part["level"].notna().sum())}
                         for name, part in rows.groupby("dataset")}}
    save_block_model(model, out, card)
    return model


def save_block_model(model: BlockModel, path: Path, card: dict) -> Path:
    """Write ``model`` with ``card`` (training data, measured figures) as ``model_card_``, atomically in
    the safe model format (:mod:`scilabel.modelfile`)."""
    model.model_card_ = {**card, "versions": {"scilabel": __version__}}
    return modelfile.dump(model, path)


def load_block_model(path: Path, trust: bool = False) -> BlockModel:
    """A block model saved by :func:`save_block_model` (a joblib pickle only with ``trust``)."""
    model = read_model_file(path, trust, what="block model")
    if not isinstance(model, BlockModel):
        raise ModelError(f"{path}: not a scilabel block model (found {type(model).__name__})")
    return model
