"""Section levels learned from how a page sets its headings.

A page's headings are compared two at a time: for each heading and each of the ``window`` headings
before it, a tree ensemble (:class:`LevelModel`) gives the probabilities that it is shallower than,
as deep as or deeper than that one, from the difference of their type (size relative to the body
text, weight, italics, capitals), their place (indent and heading element), their numbering and
how often the page uses each one's style. A beam search then picks the page's levels that agree
best with every such pair, a heading at most one level below the one before it. Levels printed as
section numbers are read, not guessed: the caller passes them as ``forced`` and the search keeps
them. How deep each heading sits in the HTML is left out: the generated pages nest a subsection's
element in its section's, and a model that learnt it read the platforms that do not (SciELO) as
flat; so are the titles' length and capitalisation, which made long sentence-case titles
subsections of short title-case ones set in the same type (docs/decisions.md).

Gold levels stop at :data:`MAX_LEVEL` (the reviewed real pages count every deeper heading as 3), so
the model learns and decodes levels 1 to 3; deeper numbered sections keep their numbers' depth.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingClassifier

#: The deepest level the model tells apart.
MAX_LEVEL = 3
#: Columns of the block features (:func:`~.features.page_features`) a heading is described by.
HEADING_COLUMNS = ("size_ratio", "weight", "italic_share", "caps", "heading_tag", "left_offset", "numbered",
                   "number_depth", "in_li", "after_references", "references_heading")
_FLOOR = 1e-9


def _columns(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """The page's heading columns as arrays, with each heading's share of the page's headings set in
    its style and its size's rank among theirs."""
    out = {name: frame[name].to_numpy(dtype=float) for name in HEADING_COLUMNS}
    size = np.round(out["size_ratio"], 2)
    style = list(zip(size, out["weight"] >= 0.6, out["italic_share"] > 0.5, out["heading_tag"]))
    counts = pd.Series(style).value_counts()
    out["style_share"] = np.array([counts[s] for s in style], dtype=float) / len(style)
    sizes = sorted(set(size), reverse=True)
    out["size_rank"] = np.array([sizes.index(s) for s in size], dtype=float)
    return out


def pair_features(frame: pd.DataFrame, window: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Features of each heading of a page's heading ``frame`` against each of the ``window`` headings
    before it, with the two headings' positions (``i`` the later, ``j`` the earlier)."""
    c = _columns(frame)
    pairs = [(i, j) for i in range(1, len(frame)) for j in range(max(0, i - window), i)]
    i, j = (np.array(side, dtype=int) for side in zip(*pairs)) if pairs else (np.zeros(0, int), np.zeros(0, int))
    d_size = np.log(np.maximum(c["size_ratio"][i], 1e-3) / np.maximum(c["size_ratio"][j], 1e-3))
    same = ((np.abs(d_size) < 0.01) & (c["weight"][i] == c["weight"][j]) & (c["italic_share"][i] == c["italic_share"][j])
            & (c["caps"][i] == c["caps"][j]) & (c["heading_tag"][i] == c["heading_tag"][j]))
    both_tagged = (c["heading_tag"][i] > 0) & (c["heading_tag"][j] > 0)
    both_numbered = (c["numbered"][i] > 0) & (c["numbered"][j] > 0)
    out = {"d_size": d_size, "same_style": same.astype(float), "distance": (i - j).astype(float),
           "position": i / len(frame), "d_rank": c["size_rank"][i] - c["size_rank"][j],
           "both_tagged": both_tagged.astype(float), "both_numbered": both_numbered.astype(float),
           "d_tag": np.where(both_tagged, c["heading_tag"][i] - c["heading_tag"][j], 0.0),
           "d_number_depth": np.where(both_numbered, c["number_depth"][i] - c["number_depth"][j], 0.0)}
    for name in ("weight", "italic_share", "caps", "left_offset"):
        out[f"d_{name}"] = c[name][i] - c[name][j]
    for name in ("heading_tag", "numbered", "number_depth", "style_share", "references_heading", "in_li"):
        out[name], out[f"{name}_before"] = c[name][i], c[name][j]
    out["after_references"] = c["after_references"][i]
    return pd.DataFrame(out), i, j


class LevelModel(BaseEstimator):
    """Section levels of a page's headings (1 to :data:`MAX_LEVEL`).

    Parameters
    ----------
    window : how many headings before a heading it is compared with.
    beam : how many partial level sequences the search keeps.
    max_iter, learning_rate : settings of the tree ensemble.
    random_state : its seed.
    """

    def __init__(self, window: int = 16, beam: int = 8, max_iter: int = 100, learning_rate: float = 0.1,
                 random_state: int = 0):
        self.window = window
        self.beam = beam
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, pages: list[pd.DataFrame], levels: list[np.ndarray]) -> "LevelModel":
        """Learn from pages' heading frames (:data:`HEADING_COLUMNS`, reading order) and their gold levels."""
        X, y = [], []
        for frame, gold in zip(pages, levels):
            gold = np.minimum(np.asarray(gold, dtype=int), MAX_LEVEL)
            pairs, i, j = pair_features(frame, self.window)
            X.append(pairs)
            y.append(np.sign(gold[i] - gold[j]))
        y = np.concatenate(y) if y else np.zeros(0)
        if len(set(y)) < 2:
            raise ValueError("levels are learnt from pages whose headings are not all at one level; these are")
        self.pair_ = HistGradientBoostingClassifier(max_iter=self.max_iter, learning_rate=self.learning_rate,
                                                    random_state=self.random_state)
        self.pair_.fit(pd.concat(X, ignore_index=True), y)
        return self

    def predict(self, frame: pd.DataFrame, forced: list[int | None] | None = None) -> list[int]:
        """The level of each heading of one page's heading ``frame``; ``forced`` levels (printed
        numbers' depth, None elsewhere) are kept as given."""
        forced = forced or [None] * len(frame)
        if not len(frame):
            return []
        pairs, later, earlier = pair_features(frame, self.window)
        log_p = np.full((len(pairs), 3), np.log(_FLOOR))  # columns: shallower, as deep, deeper (-1, 0, 1)
        if len(pairs):
            log_p[:, self.pair_.classes_.astype(int) + 1] = np.log(self.pair_.predict_proba(pairs) + _FLOOR)
        beams = [(0.0, [forced[0] or 1])]
        for i in range(1, len(frame)):
            rows = np.flatnonzero(later == i)
            grown = []
            for score, levels in beams:
                shown = np.minimum(np.array(levels)[earlier[rows]], MAX_LEVEL)
                for level in ([forced[i]] if forced[i] else range(1, min(levels[-1] + 1, MAX_LEVEL) + 1)):
                    picked = np.sign(min(level, MAX_LEVEL) - shown) + 1
                    grown.append((score + float(log_p[rows, picked].sum()), levels + [level]))
            beams = sorted(grown, key=lambda beam: -beam[0])[:self.beam]
        return beams[0][1]
