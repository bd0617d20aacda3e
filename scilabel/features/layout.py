"""Layout features, computed per page from a zones frame (:func:`scilabel.zones.zones_frame` rows, a
``document`` column telling documents apart). The paper's four (number of words, left, top, height) come first;
the rest add what it lacks: width, position relative to the page and in reading order, font size
relative to the page's body text, bold and italic type, shares of capitals, digits and punctuation,
e-mail / URL / DOI / year patterns, superscript markers, link density, and the cue features of
:mod:`scilabel.features.cues`. Only the features asked for are computed, each input (texts, columns,
character counts) once per call (:class:`~scilabel.features.arrays.ZoneArrays`)."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .arrays import ZoneArrays, Zones
from .chars import FIGURE, MARK
from .cues import CUE_FEATURES
from .text import DOI, EMAIL, URL

#: The layout features of Zou, Le & Thoma (2007).
PAPER_LAYOUT = ("n_words", "left", "top", "height")
#: Every layout feature :func:`layout_matrix` computes.
LAYOUT_FEATURES = PAPER_LAYOUT + (
    "width", "x_rel", "y_rel", "order_rel", "font_rel", "bold", "italic", "caps", "digits", "punct",
    "sup", "link", "email", "url", "doi", "years", "lines", "chars", "marker", "prev_abstract_cue",
    "prev_references_cue", "name_shape", "abstract_part", "after_related_cue", "first_prose",
)
_MARKER = re.compile(r"^\s*(?:\[\d+\]|\(?\d{1,3}[.)]|[*\u2020\u2021\u00a7]|[a-z]\))\s")

#: How each layout feature is computed.
_LAYOUT: dict[str, Callable[[ZoneArrays], np.ndarray]] = {
    "n_words": lambda z: z.n_words,
    "left": lambda z: z.left,
    "top": lambda z: z.column("y"),
    "height": lambda z: z.column("h"),
    "width": lambda z: z.column("w"),
    "x_rel": lambda z: z.left / np.maximum(z.page_width(), 1.0),
    "y_rel": lambda z: z.column("y") / np.maximum(z.page_height(), 1.0),
    "order_rel": lambda z: z.order_rel,
    "font_rel": lambda z: z.font_rel,
    "bold": lambda z: z.bold.astype(float),
    "italic": lambda z: z.per_char(z.column("italic_chars")),
    "caps": lambda z: z.caps,
    "digits": lambda z: z.per_char(z.kind_counts[:, FIGURE]),
    "punct": lambda z: z.per_char(z.kind_counts[:, MARK]),
    "sup": lambda z: z.per_char(z.column("sup_chars")),
    "link": lambda z: z.per_char(z.column("link_chars")),
    "email": lambda z: z.cue_matches(EMAIL, ("@",)),
    "url": lambda z: z.cue_matches(URL, ("http", "www."), lowered=True),
    "doi": lambda z: z.matches(DOI),
    "years": lambda z: z.years,
    "lines": lambda z: z.column("h") / np.maximum(z.column("font_size") * 1.15, 1.0),
    "chars": lambda z: z.chars,
    "marker": lambda z: z.opening(_MARKER),
    **CUE_FEATURES,
}


def layout_matrix(zones: Zones | ZoneArrays, names: Sequence[str] = LAYOUT_FEATURES) -> np.ndarray:
    """(n_zones, len(names)) layout features ``names`` (of :data:`LAYOUT_FEATURES`), computing only
    what those need (``zones`` given as :class:`~scilabel.features.arrays.ZoneArrays` share what they hold)."""
    arrays = ZoneArrays.of(zones)
    out = np.empty((arrays.n_zones, len(names)))
    for j, name in enumerate(names):
        out[:, j] = _LAYOUT[name](arrays)
    return out


def layout_features(zones: pd.DataFrame) -> pd.DataFrame:
    """The layout feature table (columns :data:`LAYOUT_FEATURES`), one row per zone, same index."""
    return pd.DataFrame(layout_matrix(zones), columns=list(LAYOUT_FEATURES), index=zones.index)
