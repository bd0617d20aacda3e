"""Emission models: log b_j(O_t) for every zone t and each HMM state j (:data:`scilabel.schema.STATES`).

:class:`NaiveBayesEmission` is the paper's model: b_j(O) = b_j(nw) b_j(left) b_j(top) b_j(height)
prod_k b_j(w_k), word likelihoods multinomial per state, layout features discretised into quantile
bins with a smoothed categorical likelihood each. Word counts of the component states pool the
labelled page zones with the MEDLINE-style field collections (titles, author names, affiliations,
abstracts, reference strings); the heading and minor states learn from labelled pages only.

:class:`SVMEmission` is a linear SVM on words, all layout features and (given the field collections)
the zone's field word scores, with calibrated label probabilities turned into scaled likelihoods
log P(label | O) - log P(label), shared by the states that emit that label (the HMM's transitions
tell the minor states apart). After fitting, the calibrated classifier is kept as plain arrays
(every fold's SVM weights and sigmoids): one sparse product per page instead of scikit-learn's
per-class, per-fold calls.

Both implement :class:`Emission`, the interface the labeller decodes through; :data:`EMISSIONS`
names them (``nb``, ``svm``) for the labeller, training, the shipped models and the command line.
"""
from __future__ import annotations

import warnings
from abc import ABCMeta, abstractmethod
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.special import expit
from sklearn.base import BaseEstimator
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.model_selection import GroupKFold
from sklearn.naive_bayes import CategoricalNB, MultinomialNB
from sklearn.preprocessing import KBinsDiscretizer
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from .featurizer import ZoneFeaturizer
from .features import (LAYOUT_FEATURES, PAPER_LAYOUT, ZoneArrays, Zones, derived, layout_matrix, tokenize,
                       vocabulary_index)
from .schema import COLLECTION_STATES, N_STATES, STATE_INDEX, STATE_LABEL, STATES

#: SVM log-likelihood of the states of a label no training zone had.
_UNSEEN_LABEL = np.log(1e-9)


def _state_indices(states: np.ndarray | list[str]) -> np.ndarray:
    return np.fromiter((STATE_INDEX[s] for s in states), dtype=np.intp, count=len(states))


def _state_log_prior(y: np.ndarray) -> np.ndarray:
    counts = np.bincount(y, minlength=N_STATES).astype(float) + 1.0
    return np.log(counts / counts.sum())


class Emission(BaseEstimator, metaclass=ABCMeta):
    """What the labeller needs of an emission model: per-zone log-likelihoods of the HMM states.

    A subclass is a scikit-learn estimator (parameters only in ``__init__``, so that ``clone`` works)
    that implements :meth:`fit` and :meth:`log_likelihood` and sets the fitted attributes below; it
    plugs into :class:`~scilabel.labeler.ZoneLabeler` as an instance, or by name once it is in
    :data:`EMISSIONS`.

    Attributes
    ----------
    state_log_prior_ : ndarray of shape (n_states,)
        Log prior of each state (columns in ``schema.STATES`` order), set by :meth:`fit`. Added to
        :meth:`log_likelihood` it gives the state posterior of a zone on its own, which labelling
        without the HMM (``ZoneLabeler(sequence=False)``) decides by.
    n_collection_texts_ : int
        How many texts of the field collections the fit learned from (0 without them), for the
        model card.
    """

    @abstractmethod
    def fit(self, zones: pd.DataFrame, states: list[str] | np.ndarray,
            collections: pd.DataFrame | None = None) -> Emission:
        """Learn from labelling units and their HMM states.

        Parameters
        ----------
        zones : DataFrame
            The units' feature columns (``features.ZONE_COLUMNS``) and the :attr:`fit_columns`.
        states : sequence of str
            The HMM state of each unit (one of ``schema.STATES``).
        collections : DataFrame, optional
            Field collections (columns ``field``, ``text``): texts known to be titles, author
            names, affiliations, abstracts or references, as extra word evidence.

        Returns
        -------
        self
        """

    @abstractmethod
    def log_likelihood(self, zones: Zones | ZoneArrays) -> np.ndarray:
        """The (n_zones, n_states) log-likelihoods log b_j(O_t) of every unit under every state (columns in
        ``schema.STATES`` order; any scale shared by a unit's states, as scaled likelihoods are). Called
        once per batch of pages with a :class:`~scilabel.features.ZoneArrays` that the hand rules then
        read too; it must not change the arrays."""

    @property
    def fit_columns(self) -> tuple[str, ...]:
        """Columns of the zones frame beyond the features' that :meth:`fit` reads (the labeller
        carries them onto its labelling units); none by default."""
        return ()


class NaiveBayesEmission(Emission):
    """The paper's Naive Bayes emission over words and discretised layout features.

    Parameters
    ----------
    layout : layout features (default the paper's: number of words, left, top, height)
    n_bins : quantile bins per layout feature
    alpha : additive smoothing of word likelihoods
    layout_alpha : additive smoothing of layout-bin likelihoods
    min_df : a word must occur in this many texts to enter the vocabulary
    """

    def __init__(self, layout: tuple[str, ...] = PAPER_LAYOUT, n_bins: int = 10, alpha: float = 0.1,
                 layout_alpha: float = 1.0, min_df: int = 2):
        self.layout = layout
        self.n_bins = n_bins
        self.alpha = alpha
        self.layout_alpha = layout_alpha
        self.min_df = min_df

    def fit(self, zones: pd.DataFrame, states: list[str] | np.ndarray, collections: pd.DataFrame | None = None) -> NaiveBayesEmission:
        """Fit on zones with their HMM states; ``collections`` (columns field, text) add word evidence."""
        y = _state_indices(states)
        texts = zones["text"].astype(str).tolist()
        targets = list(y)
        if collections is not None:
            extra = collections[collections["field"].isin(COLLECTION_STATES)]
            texts += extra["text"].astype(str).tolist()
            targets += [STATE_INDEX[COLLECTION_STATES[f]] for f in extra["field"]]
        self.vocabulary_ = CountVectorizer(analyzer=tokenize, min_df=self.min_df, dtype=np.float64)
        counts = self.vocabulary_.fit_transform(texts)
        words = MultinomialNB(alpha=self.alpha)
        words.partial_fit(counts, np.asarray(targets), classes=np.arange(N_STATES))
        self.word_log_prob_ = words.feature_log_prob_
        layout = self._layout(zones)
        with warnings.catch_warnings():  # quantile bins of discrete or constant features merge: expected
            warnings.filterwarnings("ignore", message=r"(Bins whose width|Feature \d+ is constant)")
            # quantiles of every unit, not of a random 200,000: the same pages give the same model
            self.bins_ = KBinsDiscretizer(n_bins=self.n_bins, encode="ordinal", strategy="quantile",
                                          quantile_method="averaged_inverted_cdf", subsample=None).fit(layout)
        cats = CategoricalNB(alpha=self.layout_alpha, min_categories=self.n_bins)
        cats.partial_fit(self.bins_.transform(layout).astype(int), y, classes=np.arange(N_STATES))
        self.layout_log_prob_ = cats.feature_log_prob_
        self.state_log_prior_ = _state_log_prior(y)
        self.n_collection_texts_ = len(texts) - len(zones)
        return self

    def _layout(self, zones: pd.DataFrame) -> np.ndarray:
        return layout_matrix(zones, self.layout)

    def log_likelihood(self, zones: Zones | ZoneArrays) -> np.ndarray:
        """(n_zones, n_states) log-likelihoods: sum of word and layout-bin log-likelihoods per state."""
        check_is_fitted(self, "word_log_prob_")
        arrays = ZoneArrays.of(zones)
        (words,) = vocabulary_index(self.vocabulary_).counts(arrays)
        # the (vocabulary, n_states) table in row-major order: scipy would copy a transposed view every call
        result = words @ derived(self, self.word_log_prob_, lambda table: np.ascontiguousarray(table.T))
        bins = self._bins(layout_matrix(arrays, self.layout))
        for f, table in enumerate(self.layout_log_prob_):
            result += table[:, bins[:, f]].T
        return result

    def _bins(self, layout: np.ndarray) -> np.ndarray:
        """``bins_.transform(layout)`` as integers, without scikit-learn's per-call input checks."""
        if not np.isfinite(layout).all():
            raise ValueError("layout features must be finite")
        return np.stack([np.searchsorted(edges[1:-1], layout[:, f], side="right")
                         for f, edges in enumerate(self.bins_.bin_edges_)], axis=1)


class SVMEmission(Emission):
    """Linear SVM on words and layout with calibrated probabilities, as scaled likelihoods.

    Parameters
    ----------
    C : SVM regularisation
    layout : layout features (default all)
    calibration_cv : folds for the sigmoid calibration of SVM scores into probabilities
    calibrate_across : column of the zones whose values the calibration folds keep apart (the template
        family or publisher), so that every fold's sigmoids are fitted on layouts its SVM never saw,
        as a deployed model meets them; None, a missing column or fewer values than folds: stratified folds
    class_weight : passed to the SVM ("balanced" lifts rare labels)
    max_per_label : train on at most this many zones of each label (a seeded sample; None: all)
    random_state : seed of that sample and of the SVM solver
    min_proba : label probabilities are floored here before they become likelihoods, so that a calibrated
        "surely not" (a paragraph of a component that reads like body text) costs the HMM at most
        -log(min_proba) nats and the path can still carry the component through it
    prior_weight : the scaled likelihood is P(label | zone) / P(label) ** prior_weight: below 1 it damps
        the lift that dividing by a small prior gives a rare label (title, authors, a heading) on every
        zone the SVM grants a little of it (prior scaling, as in hybrid HMMs). The ``sequence=False``
        decision does not depend on it (see ``state_log_prior_``)
    min_log_likelihood : every state's scaled log-likelihood is floored here (None: no such floor). Floored
        through ``min_proba`` alone, a "surely not" costs less for a rare label (its floor, log min_proba -
        log prior, is higher), so a zone that reads as no component at all (a table cell "–") goes to the
        rarest, the title; one floor for all states leaves the choice to the path
    """

    def __init__(self, C: float = 0.1, layout: tuple[str, ...] = LAYOUT_FEATURES, calibration_cv: int = 3,
                 calibrate_across: str | None = "group", class_weight: str | None = None,
                 max_per_label: int | None = 15000, random_state: int = 0, min_proba: float = 1e-4,
                 prior_weight: float = 1.0, min_log_likelihood: float | None = -5.5):
        self.C = C
        self.layout = layout
        self.calibration_cv = calibration_cv
        self.calibrate_across = calibrate_across
        self.class_weight = class_weight
        self.max_per_label = max_per_label
        self.random_state = random_state
        self.min_proba = min_proba
        self.prior_weight = prior_weight
        self.min_log_likelihood = min_log_likelihood

    @property
    def fit_columns(self) -> tuple[str, ...]:
        """The ``calibrate_across`` column, when there is one."""
        return () if self.calibrate_across is None else (self.calibrate_across,)

    @property
    def state_log_prior_(self) -> np.ndarray:
        """Log prior of each state that, added to :meth:`log_likelihood`, gives the state posterior
        whatever ``prior_weight`` is: log P(state) - (1 - prior_weight) log P(label), so that labelling
        zones one by one (``ZoneLabeler(sequence=False)``) stays the calibrated classifier's decision."""
        check_is_fitted(self, "state_count_log_prior_")
        cols = self.state_columns_
        label_prior = np.where(cols >= 0, self.label_log_prior_[np.maximum(cols, 0)], 0.0)
        return self.state_count_log_prior_ - (1.0 - self.prior_weight) * label_prior

    def fit(self, zones: pd.DataFrame, states: list[str] | np.ndarray, collections: pd.DataFrame | None = None) -> SVMEmission:
        """Fit on zones and their states (the SVM learns labels); ``collections`` (field, text) add the
        field word scores to the features (:mod:`scilabel.field_words`)."""
        y_states = _state_indices(states)
        labels = np.array([STATE_LABEL[STATES[i]] for i in y_states])
        keep = self._sample(labels)
        if len(np.unique(labels[keep])) < 3:
            raise ValueError("SVMEmission needs zones of at least 3 labels")
        self.featurizer_ = ZoneFeaturizer(layout=self.layout).fit(zones.iloc[keep], collections=collections)
        X = self.featurizer_.transform(zones.iloc[keep])
        svm = LinearSVC(C=self.C, class_weight=self.class_weight, random_state=self.random_state)
        calibrated = CalibratedClassifierCV(svm, cv=self._folds(zones.iloc[keep]), method="sigmoid").fit(X, labels[keep])
        self._unpack(calibrated)
        classes = list(calibrated.classes_)
        # the priors the classifier was trained under: dividing them out leaves scaled likelihoods
        freq = np.array([(labels[keep] == c).sum() for c in classes], dtype=float)
        self.label_log_prior_ = np.log(freq / freq.sum())
        # column of the classifier's output that each state reads (-1: label never seen in training)
        self.state_columns_ = np.array([classes.index(STATE_LABEL[s]) if STATE_LABEL[s] in classes else -1 for s in STATES])
        self.state_count_log_prior_ = _state_log_prior(y_states)
        field_words = self.featurizer_.field_words_
        self.n_collection_texts_ = 0 if field_words is None else field_words.n_texts_
        return self

    def _folds(self, zones: pd.DataFrame) -> int | list[tuple[np.ndarray, np.ndarray]]:
        """Calibration folds: grouped by ``calibrate_across`` where it can be, else a fold count."""
        column = self.calibrate_across
        if column is None or column not in zones or zones[column].nunique() < self.calibration_cv:
            return self.calibration_cv
        return list(GroupKFold(n_splits=self.calibration_cv).split(zones, groups=zones[column].to_numpy()))

    def _unpack(self, calibrated: CalibratedClassifierCV) -> None:
        """Keep what ``calibrated.predict_proba`` computes with as arrays: every fold's one-vs-rest
        SVM scores come from one sparse product, then its sigmoids, row normalisation and the mean."""
        self.classes_ = calibrated.classes_
        folds = calibrated.calibrated_classifiers_
        self.coef_ = np.hstack([fold.estimator.coef_.T for fold in folds])
        self.intercept_ = np.concatenate([fold.estimator.intercept_ for fold in folds])
        self.sigmoid_a_ = np.array([c.a_ for fold in folds for c in fold.calibrators])
        self.sigmoid_b_ = np.array([c.b_ for fold in folds for c in fold.calibrators])
        # class column of each score column, and the fold it belongs to
        self.score_class_ = np.concatenate([np.searchsorted(self.classes_, fold.estimator.classes_)
                                            for fold in folds])
        self.score_fold_ = np.repeat(np.arange(len(folds)), [len(fold.estimator.classes_) for fold in folds])

    def predict_proba(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """Calibrated label probabilities (columns ``classes_``) of a feature matrix: the same as the
        fitted ``CalibratedClassifierCV(LinearSVC, method="sigmoid").predict_proba``."""
        check_is_fitted(self, "coef_")
        return self._calibrated(X @ self.coef_ + self.intercept_)

    def _calibrated(self, scores: np.ndarray) -> np.ndarray:
        """Label probabilities from every fold's SVM scores (columns as ``coef_``)."""
        sig = expit(-(self.sigmoid_a_ * scores + self.sigmoid_b_))
        n_folds, n_classes = self.score_fold_[-1] + 1, len(self.classes_)
        mean = np.zeros((scores.shape[0], n_classes))
        for k in range(n_folds):
            cols = self.score_fold_ == k
            proba = np.zeros_like(mean)
            proba[:, self.score_class_[cols]] = sig[:, cols]
            total = proba.sum(axis=1, keepdims=True)
            mean += np.divide(proba, total, out=np.full_like(proba, 1.0 / n_classes), where=total != 0)
        return mean / n_folds

    def _sample(self, labels: np.ndarray) -> np.ndarray:
        """Row positions to train on: every zone of rare labels, a seeded sample of frequent ones."""
        if self.max_per_label is None:
            return np.arange(len(labels))
        rng = np.random.default_rng(self.random_state)
        keep = []
        for lab in np.unique(labels):
            rows = np.flatnonzero(labels == lab)
            keep.append(rows if len(rows) <= self.max_per_label else rng.choice(rows, self.max_per_label, replace=False))
        return np.sort(np.concatenate(keep))

    def log_likelihood(self, zones: Zones | ZoneArrays) -> np.ndarray:
        """(n_zones, n_states) scaled log-likelihoods log P(label | O) - prior_weight * log P(label)."""
        check_is_fitted(self, "coef_")
        words, layout = self.featurizer_.transform_blocks(zones)  # X = [words layout]: its product in two
        n_words = words.shape[1]
        scores = words @ self.coef_[:n_words] + layout @ self.coef_[n_words:] + self.intercept_
        proba = self._calibrated(scores)
        scaled = np.log(np.clip(proba, self.min_proba, None)) - self.prior_weight * self.label_log_prior_
        if self.min_log_likelihood is not None:
            scaled = np.maximum(scaled, self.min_log_likelihood)
        cols = self.state_columns_
        return np.where(cols >= 0, scaled[:, np.maximum(cols, 0)], _UNSEEN_LABEL)


@dataclass(frozen=True)
class EmissionKind:
    """A registered emission model: its class, and the file of the model shipped with it in
    ``models/`` (None: none shipped)."""

    estimator: type[Emission]
    model_file: str | None = None


#: Emission name -> its class and shipped model, the one list the labeller (``ZoneLabeler(emission=name)``),
#: training, the shipped models (``load_model(name)``) and the command line read.
EMISSIONS: dict[str, EmissionKind] = {
    "nb": EmissionKind(NaiveBayesEmission, "scilabel-nb.npz"),
    "svm": EmissionKind(SVMEmission, "scilabel-svm.npz"),
}
