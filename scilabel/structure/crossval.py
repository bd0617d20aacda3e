"""Section headings of the reviewed real pages under publisher-grouped cross-validation.

For each fold of publishers (:func:`scilabel.crossval.publisher_folds`: no publisher on both sides),
a block model learns from the structure-annotated pages' rows and the reviewed real pages of the
fold's training publishers, and structures the fold's scored pages from their zone labels; headings
are scored as the shared data's ``tools/score_structure.py`` scores them (:func:`~.gold.heading_counts`).

    result = heading_cv(rows, zones, headings, labels, folds)
    result.summary()          # precision, recall, F1, level accuracy over every scored page
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd

from ..crossval import Fold
from .gold import heading_summary, scored_pages
from .model import BlockModel
from .training import fit_rows


@dataclass
class HeadingCV:
    """Heading counts per fold and the structured articles of the scored pages."""

    folds: list[Fold]
    counts: list[Counter]  #: one per fold: ``tp``, ``pred``, ``gold``, ``level_ok``
    articles: dict  #: page -> its :class:`~.tree.Article`

    def summary(self) -> dict[str, float]:
        """Precision, recall, F1 and level accuracy over every fold's pages."""
        return heading_summary(sum(self.counts, Counter()))

    def table(self) -> pd.DataFrame:
        """One row a fold (its publishers and scores) and one for all folds."""
        rows = [{"fold": str(k), "publishers": ", ".join(f.publishers), **heading_summary(c)}
                for k, (f, c) in enumerate(zip(self.folds, self.counts))]
        rows.append({"fold": "all", "publishers": "", **self.summary()})
        return pd.DataFrame(rows).round(3)


def heading_cv(rows: pd.DataFrame, zones: pd.DataFrame, headings: dict[str, list[dict]],
               labels: dict[str, list[str]], folds: list[Fold], **params) -> HeadingCV:
    """Cross-validate the block model's headings.

    Parameters
    ----------
    rows : training rows (:func:`~.training.dataset_rows`, with ``page``): the structure-annotated
        pages' (``known``) and the reviewed real pages' (heading gold only); a fold trains on all of
        the former and on the latter of its training publishers.
    zones : the real pages' zones (``document`` the page as the gold names it).
    headings : page -> its gold headings (:func:`~.gold.read_heading_gold`).
    labels : page -> the zone labels to structure it from (a labeller's, cross-validated or not).
    folds : the publisher folds; each fold's ``test`` pages with gold headings are scored.
    **params : :class:`~.model.BlockModel` settings.
    """
    known = rows["known"].to_numpy(dtype=bool)
    counts, articles = [], {}
    for fold in folds:
        model = fit_rows(BlockModel(**params), rows[known | rows["page"].isin(fold.train).to_numpy()])
        fold_counts: Counter = Counter()
        scored = zones[zones["document"].isin(fold.test)]
        for page, article, page_counts in scored_pages(scored, lambda frame: labels[frame["document"].iloc[0]],
                                                       headings, model):
            articles[page] = article
            fold_counts += page_counts
        counts.append(fold_counts)
    return HeadingCV(list(folds), counts, articles)
