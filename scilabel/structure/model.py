"""The block model: the kind of each candidate body zone (:data:`~.gold.BLOCK_KINDS`) from its
features (:mod:`.features`) and words.

Gradient-boosted tree ensembles: ``heading_`` tells section headings from everything else and
learns from every page with heading gold (structure-annotated families and reviewed real pages);
``real_heading_`` does the same from the reviewed real pages alone, and a zone's heading probability
is the mean of the two (the generated families teach layouts the real pages lack, the real pages
what counts as a section there: real-page heading F1 .946 with the mean against .942 with
``heading_`` alone and .937 with ``real_heading_`` alone, development folds); ``kind_`` tells the
other kinds apart and learns from the structure-annotated pages only (the real pages give their
headings, not their paragraphs). Words enter as one feature: the smoothed log-odds
of the zone's words in training headings against other short zones (section names such as
"Methods" or "Acknowledgements" against "Share" or "Download"). The sequence enters through the
features of the neighbouring zones (:mod:`.features`); a second heading pass over the first pass's
probabilities of the neighbours was tried and dropped (real-page heading F1 .898 without, .888 with).
"""
from __future__ import annotations

import logging
import re
from collections import Counter

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import HistGradientBoostingClassifier

from ..lexicons import alternation
from .blocks import TABLE_CELL
from .features import SHORT_WORDS
from .levels import LevelModel

log = logging.getLogger(__name__)
#: The column of a feature frame holding the zone's text (read for the word score, not a feature).
TEXT = "text"
#: Body kinds the hand-written rules may restore over the kind ensemble's noise (``rule_body``).
RULE_BODY = ("paragraph", "item", "caption", "footnote")
#: Kinds of running text: a zone without a letter ("(2)", a display formula's number) is none of them,
#: nor a short text (``SHORT_WORDS``) the page's candidates hold ``REPEATED`` times word for word (an
#: author panel's "No competing interests declared", once per author).
TEXT_KINDS = ("paragraph", "item", "footnote")
#: An article-information line ("Received: 3 May 2015", "Data Availability: ..."), no paragraph or list
#: item (platform families held out: paragraph boundary F1 .942 -> .948, PLOS .896 -> .931).
ARTICLE_INFO = re.compile(rf"{alternation('article_info_labels')}\s*:")
#: A list of contributor roles (lexicon ``contributor_roles``), after a "Contribution:" label or none,
#: and after it nothing or a colon and the contributors' names ("Conceptualization, Formal analysis";
#: "Methodology: JR WY RW."): an author panel's or a contributions note's line (:func:`role_line`).
_ROLE = alternation("contributor_roles")
CONTRIBUTOR_ROLES = re.compile(rf"(?i:contributions?\s*:?\s*)?{_ROLE}(?:\s*(?:[,;]|and)\s*{_ROLE})*\s*")
#: Most words of the names after a role list's colon.
ROLE_NAMES = 20
#: How many times a text is repeated on a page to be no running text (2 cost the generated dev split
#: .002 of paragraph boundary F1; 3 nothing, and took eLife's author panels out on the platforms).
REPEATED = 3
#: Features only the heading ensembles read: how the page's template sets a zone's peers tells
#: section titles set in body type (:func:`~.features.page_features`); the kind ensemble read them as
#: a sign of list items and lost items on the platform families held out (item F1 .236 -> .117).
HEADING_ONLY = ("markup_peers", "markup_lines")
#: Prior counts smoothing the word log-odds.
WORD_PRIOR = 2.0
_TOKEN = re.compile(r"[^\W\d_]{2,}")
_LETTER = re.compile(r"[^\W\d_]")


def role_line(text: str) -> bool:
    """Whether ``text`` is a list of contributor roles (:data:`CONTRIBUTOR_ROLES`), alone or followed by a
    colon and up to :data:`ROLE_NAMES` capitalised words (names, initials)."""
    found = CONTRIBUTOR_ROLES.match(text)
    if not found:
        return False
    rest = text[found.end():].strip()
    if rest in ("", "."):
        return True
    names = rest[1:].split() if rest.startswith(":") else []
    return 0 < len(names) <= ROLE_NAMES and all(name[:1].isupper() for name in names)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(str(text).lower())[:SHORT_WORDS]


class BlockModel(ClassifierMixin, BaseEstimator):
    """Kinds of candidate body zones.

    Parameters
    ----------
    max_iter, learning_rate, max_leaf_nodes : settings of both tree ensembles.
    threshold : heading probability from which a zone is a heading (real-page development folds,
        .5 / .4 / .3 / .2 / .1: heading F1 .956 / .962 / .969 / .969 / .962, the level accuracy of the
        matched headings .944 / .945 / .947 / .948 / .938).
    rule_body : wherever the hand-written rules (``rule_<kind>`` features) name a caption (a figure or
        table label, or the line a bare label takes in) or a table cell (a zone of a grid of rows,
        :func:`~.blocks.rule_kinds`), take the rules' kind, and a table cell sharing its line with
        another zone is no heading. Trusting the rules' table cells keeps the
        tables of a layout the ensemble has not seen out of the text (generated dev families: paragraph
        boundary F1 .68 -> .98; the real-platform families held out: within .003).
    restore_below : with ``rule_body``, where the kind ensemble says noise (or table cell) with at most
        this probability and the rules name a body kind (paragraph, item, caption, footnote), take the
        rules' kind: 1 trusts the rules over every such call, 0 over none (the real-platform families
        held out: paragraph boundary F1 .832 at 1; .906, .909, .912 at .9, .75, .5). The page's last run of zones
        the rules call body text always takes the rules' kind: the ensemble learnt the end of a page
        from the chrome that follows the article, and a page that ends with its text has none.
    kind_weight : class weights of the kind ensemble (``"balanced"``: each kind weighs alike, so that
        the few captions and items are not outvoted by the many noise zones), or None.
    real_expert : also learn ``real_heading_`` from the rows whose only gold is their headings
        (``kind_mask`` False: the reviewed real pages) and average the two heading probabilities.
    rules_off : passes of the hand-written rules (:data:`~.blocks.RULE_PASSES`) left out of the
        ``rule_<kind>`` features, which are then computed without them for training and prediction alike
        (to measure what each pass is worth: ``benchmarks/structure_real.py rules``).
    levels : the section level model (:class:`~.levels.LevelModel`, default one with its defaults),
        fitted as ``levels_`` on the headings of known level, page by page.
    early_stopping : let the ensembles stop early on a seeded tenth of the rows held out. Off, they use
        every row and the fit no longer depends on the seed: real-page heading F1 .967, level accuracy
        .943 (development folds, seeds 0 and 1 alike), against .960 / .967 / .971 and .935 / .953 / .952
        with it on (seeds 0, 1, 2).
    random_state : seed of the ensembles.
    """

    def __init__(self, max_iter: int = 100, learning_rate: float = 0.1, max_leaf_nodes: int = 31,
                 threshold: float = 0.3, rule_body: bool = True, restore_below: float = 0.9,
                 kind_weight: str | None = "balanced", real_expert: bool = True, rules_off: tuple[str, ...] = (),
                 levels: LevelModel | None = None, early_stopping: bool = False, random_state: int = 0):
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.max_leaf_nodes = max_leaf_nodes
        self.threshold = threshold
        self.rule_body = rule_body
        self.restore_below = restore_below
        self.kind_weight = kind_weight
        self.real_expert = real_expert
        self.rules_off = rules_off
        self.levels = levels
        self.early_stopping = early_stopping
        self.random_state = random_state

    def _trees(self, class_weight: str | None = None) -> HistGradientBoostingClassifier:
        return HistGradientBoostingClassifier(max_iter=self.max_iter, learning_rate=self.learning_rate,
                                              max_leaf_nodes=self.max_leaf_nodes, class_weight=class_weight,
                                              early_stopping=self.early_stopping, random_state=self.random_state)

    @staticmethod
    def _word_odds(X: pd.DataFrame, heading: np.ndarray) -> dict[str, float]:
        """Smoothed log-odds of each word (seen at least 3 times) in the short headings of ``X``
        against its other short zones."""
        short = X["n_words"].to_numpy() <= SHORT_WORDS
        counts = {k: Counter(t for text in X.loc[short & m, TEXT] for t in set(_tokens(text)))
                  for k, m in (("in", heading), ("out", ~heading))}
        n_in, n_out = max(sum(counts["in"].values()), 1), max(sum(counts["out"].values()), 1)
        vocabulary = set(counts["in"]) | set(counts["out"])
        return {t: float(np.log((counts["in"][t] + WORD_PRIOR) / n_in) - np.log((counts["out"][t] + WORD_PRIOR) / n_out))
                for t in vocabulary if counts["in"][t] + counts["out"][t] >= 3}

    def _matrix(self, X: pd.DataFrame, odds: dict[str, float]) -> pd.DataFrame:
        out = X.drop(columns=[TEXT]).reindex(columns=self.features_)
        score = [np.mean([odds.get(t, 0.0) for t in toks]) if toks else 0.0 for toks in map(_tokens, X[TEXT])]
        return out.assign(word_score=np.array(score, dtype=float))

    @staticmethod
    def _kind_matrix(matrix: pd.DataFrame) -> pd.DataFrame:
        """The columns of ``matrix`` the kind ensemble reads."""
        return matrix.drop(columns=[c for c in HEADING_ONLY if c in matrix])

    def fit(self, X: pd.DataFrame, y, sample_weight=None, kind_mask=None, levels=None, pages=None) -> "BlockModel":
        """Learn from candidate zones ``X`` (features and ``text``, pages in reading order) and their
        kinds ``y``; ``kind_mask`` marks the rows whose non-heading kind is known (default all);
        ``levels`` the headings' gold levels (NaN where unknown) and ``pages`` which page each row is
        of, to learn section levels from (``levels_`` None without them, or when they never change)."""
        y = np.asarray(y, dtype=object)
        kind_mask = np.ones(len(y), dtype=bool) if kind_mask is None else np.asarray(kind_mask, dtype=bool)
        self.features_ = [c for c in X.columns if c != TEXT]
        self._fit_ensembles(X, y, sample_weight, kind_mask)
        self.levels_ = None
        if levels is not None and pages is not None:
            levels = np.asarray(levels, dtype=float)
            known = np.flatnonzero((y == "heading") & ~np.isnan(levels))
            groups = pd.Series(known).groupby(np.asarray(pages, dtype=object)[known], sort=False)
            try:
                self.levels_ = clone(self.levels or LevelModel()).fit([X.iloc[rows.to_numpy()] for _, rows in groups],
                                                                      [levels[rows.to_numpy()] for _, rows in groups])
            except ValueError as error:
                log.warning("no section levels learnt: %s", error)
        return self

    def _fit_ensembles(self, X: pd.DataFrame, y: np.ndarray, sample_weight, kind_mask: np.ndarray) -> None:
        """Fit the word odds and the tree ensembles on the rows put in an order of their content alone: the
        ensembles draw rows by position (a sample to bin the features from, above 200,000 rows; the rows
        early stopping holds out), so rows in another order gave another model (platform families'
        paragraph boundary F1 .929 or .932)."""
        weight = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        content = pd.util.hash_pandas_object(X.assign(_kind=y, _weight=weight, _known=kind_mask), index=False)
        order = np.argsort(content.to_numpy(), kind="stable")
        X, y, weight, kind_mask = X.iloc[order], y[order], weight[order], kind_mask[order]
        heading = y == "heading"
        self.word_odds_ = self._word_odds(X, heading)
        matrix = self._matrix(X, self.word_odds_)
        self.heading_ = self._trees().fit(matrix, heading, sample_weight=weight)
        real = ~kind_mask
        self.real_word_odds_, self.real_heading_ = None, None
        if self.real_expert and heading[real].any() and not heading[real].all():
            self.real_word_odds_ = self._word_odds(X[real], heading[real])
            self.real_heading_ = self._trees().fit(self._matrix(X[real], self.real_word_odds_), heading[real],
                                                   sample_weight=weight[real])
        rest = kind_mask & ~heading
        self.kind_ = self._trees(self.kind_weight).fit(self._kind_matrix(matrix[rest]), y[rest],
                                                       sample_weight=weight[rest])
        self.classes_ = np.array(sorted(set(y[rest]) | {"heading"}), dtype=object)

    def heading_probability(self, X: pd.DataFrame) -> np.ndarray:
        """Probability that each zone is a section heading."""
        return self._heading_probability(X, self._matrix(X, self.word_odds_))

    def _heading_probability(self, X: pd.DataFrame, matrix: pd.DataFrame) -> np.ndarray:
        """:meth:`heading_probability` given ``X``'s matrix under ``word_odds_``."""
        probability = self.heading_.predict_proba(matrix)[:, 1]
        if self.real_heading_ is None:
            return probability
        return (probability + self.real_heading_.predict_proba(self._matrix(X, self.real_word_odds_))[:, 1]) / 2

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """The kind of each zone of one page. A zone without a letter, or a short text the page repeats
        ``REPEATED`` times, is no running text (:data:`TEXT_KINDS`), and an article-information line
        (:data:`ARTICLE_INFO`) or a list of contributor roles (:func:`role_line`) no paragraph or list
        item: on the platform families held out, Janeway's display-formula numbers ("(2)"), eLife's
        author panels, PLOS's information block and the roles in eLife's author panel and PLOS's
        contributions were taken for paragraphs and list items (boundary F1 .932 -> .937 -> .942 -> .948
        -> .956; the generated dev split unchanged)."""
        if not len(X):
            return np.array([], dtype=object)
        matrix = self._matrix(X, self.word_odds_)
        proba = self.kind_.predict_proba(self._kind_matrix(matrix))
        kinds = self.kind_.classes_[proba.argmax(axis=1)].astype(object)
        heading = self._heading_probability(X, matrix) >= self.threshold
        if self.rule_body:
            rules = X[[f"rule_{k}" for k in RULE_BODY]].to_numpy(dtype=bool)
            named = np.array(RULE_BODY, dtype=object)[rules.argmax(axis=1)]
            body = rules.any(axis=1)
            last_run = np.flip(np.cumprod(np.flip(body))).astype(bool)
            sure = (proba.max(axis=1) > self.restore_below) & ~last_run
            restored = np.isin(kinds, ("noise", TABLE_CELL)) & body & ~sure
            trusted = restored | X["rule_caption"].to_numpy(dtype=bool)
            kinds[trusted] = named[trusted]
            cells = X[f"rule_{TABLE_CELL}"].to_numpy(dtype=bool)
            kinds[cells] = TABLE_CELL
            heading &= ~(cells & X["side_by_side"].to_numpy(dtype=bool))  # a cell with another beside it
        texts = X[TEXT].astype(str).str.strip().str.lower()
        letterless = ~texts.str.contains(_LETTER).to_numpy(dtype=bool)
        short = X["n_words"].to_numpy() <= SHORT_WORDS
        repeated = short & (texts.map(texts.value_counts()).to_numpy() >= REPEATED)
        kinds[(letterless | repeated) & np.isin(kinds, TEXT_KINDS)] = "noise"
        roles = np.array([role_line(str(t).strip()) for t in X[TEXT]], dtype=bool)
        information = texts.str.match(ARTICLE_INFO).to_numpy(dtype=bool) | roles
        kinds[information & np.isin(kinds, ("paragraph", "item"))] = "noise"
        return np.where(heading, "heading", kinds)
