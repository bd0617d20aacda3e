"""The kind of each body zone of a labelled page, by the block model (:mod:`.model`).

    kinds = classify_zones(zones, labels)        # the shipped block model
    kinds = classify_zones(zones, labels, model)  # another one

Kinds are those of :data:`~.blocks.KINDS` (table cells and furniture both ``noise``), None for zones
the model does not look at (front matter, abstract, references).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ..modelfile import MODELS_DIR
from .blocks import TABLE_CELL
from .features import page_features
from .model import BlockModel

#: The shipped block model.
BLOCK_MODEL_PATH = MODELS_DIR / "scilabel-blocks.npz"


@lru_cache(maxsize=1)
def default_block_model() -> BlockModel:
    """The shipped block model (``models/scilabel-blocks.npz``), loaded once."""
    from .training import load_block_model

    return load_block_model(BLOCK_MODEL_PATH)


def classified(zones: pd.DataFrame, labels: list[str] | np.ndarray,
               model: BlockModel | None = None) -> tuple[list[str | None], pd.DataFrame, np.ndarray]:
    """The kind of each zone of one page (reading order) by ``model`` (default: the shipped one), with
    its candidates' features and their rows (:func:`~.features.page_features`, computed as the model
    learnt them: without the rule passes of its ``rules_off``)."""
    zones = zones.reset_index(drop=True)
    model = model or default_block_model()
    frame, rows, _ = page_features(zones, labels, model.rules_off)
    kinds: list[str | None] = [None] * len(zones)
    if len(rows):
        X = frame.assign(text=[str(zones["text"].iat[i]).strip() for i in rows])
        for row, kind in zip(rows, model.predict(X)):
            kinds[row] = "noise" if kind == TABLE_CELL else str(kind)
    return kinds, frame, rows


def classify_zones(zones: pd.DataFrame, labels: list[str] | np.ndarray, model: BlockModel | None = None) -> list[str | None]:
    """The kind of each zone of one page (reading order), by ``model`` (default: the shipped one)."""
    return classified(zones, labels, model)[0]
