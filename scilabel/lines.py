"""Line fragments: zones that sit side by side on one visual line, merged into one labelling unit.

Some layouts split what a reader sees as one piece of text into several zones, e.g. an author name
and its superscript affiliation marker as separate flex items. Labelling works on line units and
broadcasts each unit's label back to its zones; the zones themselves (and the render cache) stay as
:mod:`scilabel.zones` collected them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

#: Zone counts summed over a unit's members.
_SUMMED = ("link_chars", "sup_chars", "italic_chars")


def line_units(zones: pd.DataFrame, max_gap_em: float = 1.0) -> np.ndarray:
    """Unit number of every row: consecutive zones of one page join a unit when they overlap
    vertically by at least half the smaller height and the next starts at most ``max_gap_em`` font
    sizes to the right of where the previous ends. Units are numbered page by page (pages in order of
    first appearance), in reading order."""
    n = len(zones)
    codes = pd.factorize(zones["page"], sort=False)[0] if "page" in zones else np.zeros(n, dtype=np.intp)
    by_page = np.argsort(codes, kind="stable")
    x, y, w, h, size = (zones[c].to_numpy(dtype=float)[by_page] for c in ("x", "y", "w", "h", "font_size"))
    overlap = np.minimum(y[:-1] + h[:-1], y[1:] + h[1:]) - np.maximum(y[:-1], y[1:])
    gap = x[1:] - (x[:-1] + w[:-1])
    join = ((codes[by_page][1:] == codes[by_page][:-1]) & (overlap >= 0.5 * np.minimum(h[:-1], h[1:]))
            & (gap >= -2.0) & (gap <= max_gap_em * np.maximum(size[:-1], size[1:])))
    units = np.empty(n, dtype=np.intp)
    units[by_page] = np.concatenate([[0], np.cumsum(~join)]) if n else []
    return units


def merge_units(zones: pd.DataFrame, units: np.ndarray) -> pd.DataFrame:
    """One row per unit (in unit order): texts joined by spaces, the union of the boxes, font of the
    member with the most characters, summed character counts; other columns (page, label ...) from
    that member."""
    n_units = int(units.max()) + 1 if len(units) else 0
    if n_units == len(zones) and np.array_equal(units, np.arange(len(zones))):
        return zones.reset_index(drop=True)
    texts = zones["text"].astype(str).to_numpy()
    chars = np.fromiter(map(len, texts), dtype=float, count=len(texts))
    # the member with the most characters (first on ties) stands for its unit
    order = np.lexsort((np.arange(len(units)), -chars, units))
    first = np.flatnonzero(np.r_[True, units[order][1:] != units[order][:-1]])
    out = zones.iloc[order[first]].reset_index(drop=True)
    x, y = zones["x"].to_numpy(dtype=float), zones["y"].to_numpy(dtype=float)
    right, bottom = x + zones["w"].to_numpy(dtype=float), y + zones["h"].to_numpy(dtype=float)
    box = {}
    for name, values, reduce in (("x", x, np.minimum), ("y", y, np.minimum), ("r", right, np.maximum),
                                 ("b", bottom, np.maximum)):
        acc = np.full(n_units, np.inf if reduce is np.minimum else -np.inf)
        reduce.at(acc, units, values)
        box[name] = acc
    out["x"], out["y"], out["w"], out["h"] = box["x"], box["y"], box["r"] - box["x"], box["b"] - box["y"]
    for col in _SUMMED:
        if col in zones:
            out[col] = np.bincount(units, weights=zones[col].to_numpy(dtype=float), minlength=n_units)
    members = np.argsort(units, kind="stable")  # rows unit by unit, in reading order within a unit
    bounds = np.flatnonzero(np.diff(units[members])) + 1
    out["text"] = [" ".join(part) for part in np.split(texts[members], bounds)]
    return out
