"""The SVM emission's feature matrix: words as TF-IDF, then layout features and field word scores
standardised and clipped, one row per zone."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

from .features import LAYOUT_FEATURES, ZoneArrays, Zones, layout_matrix, tokenize, vocabulary_index
from .field_words import FieldWordModel

#: Layout features spanning orders of magnitude, log-scaled before standardising.
_LOG_SCALED = {"n_words", "left", "top", "height", "width", "years", "lines", "chars"}


class ZoneFeaturizer(TransformerMixin, BaseEstimator):
    """Words (TF-IDF over :func:`tokenize` tokens), standardised and clipped layout features and, when
    fitted with field collections, the zone's field word scores (:class:`~scilabel.field_words.FieldWordModel`),
    as one sparse matrix.

    Parameters
    ----------
    layout : layout feature names to use (default all of :data:`LAYOUT_FEATURES`)
    min_df : minimum number of zones a word must occur in to enter the vocabulary
    max_features : vocabulary size limit
    clip : standardised dense features are clipped to [-clip, clip] (None: not clipped), so that a
        value far outside the training range ("Co 2+", whose superscripts are 40% of its characters,
        20 standard deviations out) cannot outvote everything else in a linear model
    """

    def __init__(self, layout: tuple[str, ...] = LAYOUT_FEATURES, min_df: int = 2, max_features: int | None = 50000,
                 clip: float | None = 6.0):
        self.layout = layout
        self.min_df = min_df
        self.max_features = max_features
        self.clip = clip

    def fit(self, zones: pd.DataFrame, y: object = None, collections: pd.DataFrame | None = None) -> ZoneFeaturizer:
        """Fit on zones; ``collections`` (columns field, text) add the field word scores."""
        unknown = set(self.layout) - set(LAYOUT_FEATURES)
        if unknown:
            raise ValueError(f"unknown layout features: {sorted(unknown)}")
        self.words_ = TfidfVectorizer(
            analyzer=tokenize, min_df=self.min_df, max_features=self.max_features, sublinear_tf=True
        ).fit(zones["text"].astype(str))
        self.field_words_ = FieldWordModel().fit(collections) if collections is not None else None
        self.scaler_ = StandardScaler().fit(self._blocks(ZoneArrays(zones))[1])
        return self

    def _blocks(self, arrays: ZoneArrays) -> tuple[sp.csr_matrix, np.ndarray]:
        """Words as TF-IDF (``words_.transform``), and the dense features unstandardised: layout (the
        wide-ranging ones log-scaled) and field word scores. One token lookup counts both vocabularies."""
        vectorizers = (self.words_,) if self.field_words_ is None else (self.words_, self.field_words_.vocabulary_)
        counts = vocabulary_index(*vectorizers).counts(arrays)
        values = layout_matrix(arrays, self.layout)
        logged = [i for i, name in enumerate(self.layout) if name in _LOG_SCALED]
        values[:, logged] = np.log1p(np.maximum(values[:, logged], 0.0))
        if self.field_words_ is not None:
            values = np.hstack([values, self.field_words_.count_scores(counts[1])])
        return self._tfidf(counts[0]), values

    def _tfidf(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        """``words_.transform`` from the token counts (sublinear TF x IDF, rows L2-normalised), in place."""
        counts.data = (np.log(counts.data) + 1.0) * self.words_.idf_[counts.indices]
        per_row = np.diff(counts.indptr)
        norms = np.sqrt(np.bincount(np.repeat(np.arange(counts.shape[0]), per_row), weights=counts.data ** 2,
                                    minlength=counts.shape[0]))
        counts.data /= np.repeat(np.where(norms > 0, norms, 1.0), per_row)
        return counts

    def transform_blocks(self, zones: Zones | ZoneArrays) -> tuple[sp.csr_matrix, np.ndarray]:
        """The two blocks of :meth:`transform`: words (sparse) and the standardised, clipped dense features."""
        check_is_fitted(self, "words_")
        words, dense = self._blocks(ZoneArrays.of(zones))
        dense = (dense - self.scaler_.mean_) / self.scaler_.scale_  # as scaler_.transform
        if self.clip is not None:
            np.clip(dense, -self.clip, self.clip, out=dense)
        return words, dense

    def transform(self, zones: Zones) -> sp.csr_matrix:
        words, dense = self.transform_blocks(zones)
        return sp.hstack([words, sp.csr_matrix(dense)], format="csr")

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        check_is_fitted(self, "words_")
        fields = [] if self.field_words_ is None else self.field_words_.feature_names()
        return np.concatenate([self.words_.get_feature_names_out(), np.asarray([*self.layout, *fields], dtype=object)])
