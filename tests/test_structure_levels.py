"""The section level model on made-up pages: it learns a page's levels from how its headings are set,
keeps the levels printed numbers give, and follows scikit-learn's conventions."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from scilabel.structure.levels import HEADING_COLUMNS, MAX_LEVEL, LevelModel


def page(levels: list[int], rng: np.random.Generator) -> pd.DataFrame:
    """Headings of one page: each level has the page's own size and weight (sizes drawn per page, so that
    only their order carries over from page to page)."""
    sizes = np.sort(rng.uniform(1.0, 1.8, MAX_LEVEL))[::-1]
    weights = rng.choice([0.4, 0.7], MAX_LEVEL)
    return pd.DataFrame([{
        "size_ratio": sizes[lv - 1], "weight": weights[lv - 1], "italic_share": 0.0, "caps": 0.0,
        "heading_tag": 0.0, "left_offset": 0.0, "numbered": 0.0, "number_depth": 0.0, "in_li": 0.0,
        "after_references": 0.0, "references_heading": 0.0} for lv in levels], columns=list(HEADING_COLUMNS))


def outline(rng: np.random.Generator, n: int = 12) -> list[int]:
    """A well-formed level sequence: each heading at most one level below the one before."""
    out = [1]
    for _ in range(n - 1):
        out.append(int(rng.integers(1, min(out[-1] + 1, MAX_LEVEL) + 1)))
    return out


@pytest.fixture(scope="module")
def trained() -> LevelModel:
    rng = np.random.default_rng(0)
    gold = [outline(rng) for _ in range(60)]
    return LevelModel(max_iter=50).fit([page(g, rng) for g in gold], gold)


def test_levels_follow_the_pages_own_heading_styles(trained: LevelModel) -> None:
    rng = np.random.default_rng(1)
    right = total = 0
    for _ in range(10):
        gold = outline(rng)
        right += sum(p == g for p, g in zip(trained.predict(page(gold, rng)), gold))
        total += len(gold)
    assert right / total > 0.95


def test_forced_levels_are_kept(trained: LevelModel) -> None:
    rng = np.random.default_rng(2)
    frame = page([1, 2, 2, 1], rng)
    assert trained.predict(frame, [None, 3, None, None])[1] == 3
    assert trained.predict(frame.iloc[:0]) == []


def test_a_heading_goes_at_most_one_level_deeper(trained: LevelModel) -> None:
    rng = np.random.default_rng(3)
    frame = page([1, 3, 3], rng)  # set as levels 1 and 3, nothing between
    assert trained.predict(frame) == [1, 2, 2]


def test_conventions() -> None:
    model = LevelModel(window=4, beam=2)
    assert clone(model).get_params() == model.get_params()
    rng = np.random.default_rng(4)
    with pytest.raises(ValueError, match="one level"):
        model.fit([page([1, 1, 1], rng)], [[1, 1, 1]])
    gold = [outline(rng) for _ in range(20)]
    assert model.fit([page(g, rng) for g in gold], gold) is model
    assert hasattr(model, "pair_")
