"""The SVM emission's feature matrix: words as TF-IDF, standardised layout features and field word
scores, one row per zone."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

from .features import LAYOUT_FEATURES, ZoneArrays, tokenize, vocabulary_index
from .field_words import FieldWordModel

#: Layout features spanning orders of magnitude, log-scaled before standardising.
_LOG_SCALED = {"n_words", "left", "top", "height", "width", "years", "lines", "chars"}


class ZoneFeaturizer(TransformerMixin, BaseEstimator):
    """Words (TF-IDF over :func:`tokenize` tokens), standardised layout features and, when fitted with
    field collections, the zone's field word scores (:class:`~scilabel.field_words.FieldWordModel`),
    as one sparse matrix.

    Parameters
    ----------
    layout : layout feature names to use (default all of :data:`LAYOUT_FEATURES`)
    min_df : minimum number of zones a word must occur in to enter the vocabulary
    max_features : vocabulary size limit
    """

    def __init__(self, layout: tuple[str, ...] = LAYOUT_FEATURES, min_df: int = 2, max_features: int | None = 50000):
        self.layout = layout
        self.min_df = min_df
        self.max_features = max_features

    def fit(self, zones: pd.DataFrame, y: object = None, collections: pd.DataFrame | None = None) -> ZoneFeaturizer:
        """Fit on zones; ``collections`` (columns field, text) add the field word scores."""
        unknown = set(self.layout) - set(LAYOUT_FEATURES)
        if unknown:
            raise ValueError(f"unknown layout features: {sorted(unknown)}")
        self.words_ = TfidfVectorizer(
            analyzer=tokenize, min_df=self.min_df, max_features=self.max_features, sublinear_tf=True
        ).fit(zones["text"].astype(str))
        self.field_words_ = FieldWordModel().fit(collections) if collections is not None else None
        self.scaler_ = StandardScaler().fit(self._dense(ZoneArrays(zones)))
        return self

    def _dense(self, arrays: ZoneArrays) -> np.ndarray:
        """Layout features (the wide-ranging ones log-scaled) and field word scores, unstandardised."""
        values = arrays.layout(self.layout)
        logged = [i for i, name in enumerate(self.layout) if name in _LOG_SCALED]
        values[:, logged] = np.log1p(np.maximum(values[:, logged], 0.0))
        return values if self.field_words_ is None else np.hstack([values, self.field_words_.scores(arrays)])

    def _words(self, texts: list[str] | ZoneArrays) -> sp.csr_matrix:
        """``self.words_.transform(texts)`` (sublinear TF x IDF, rows L2-normalised) via a :class:`TokenIndex`."""
        tfidf = vocabulary_index(self.words_).counts(texts)
        tfidf.data = (np.log(tfidf.data) + 1.0) * self.words_.idf_[tfidf.indices]
        norms = np.sqrt(np.bincount(np.repeat(np.arange(tfidf.shape[0]), np.diff(tfidf.indptr)),
                                    weights=tfidf.data ** 2, minlength=tfidf.shape[0]))
        tfidf.data /= np.repeat(np.where(norms > 0, norms, 1.0), np.diff(tfidf.indptr))
        return tfidf

    def transform_blocks(self, zones: pd.DataFrame) -> tuple[sp.csr_matrix, np.ndarray]:
        """The two blocks of :meth:`transform`: words (sparse) and the standardised dense features."""
        check_is_fitted(self, "words_")
        arrays = ZoneArrays(zones)
        dense = (self._dense(arrays) - self.scaler_.mean_) / self.scaler_.scale_  # as scaler_.transform
        return self._words(arrays), dense

    def transform(self, zones: pd.DataFrame) -> sp.csr_matrix:
        words, dense = self.transform_blocks(zones)
        return sp.hstack([words, sp.csr_matrix(dense)], format="csr")

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        check_is_fitted(self, "words_")
        fields = [] if self.field_words_ is None else self.field_words_.feature_names()
        return np.concatenate([self.words_.get_feature_names_out(), np.asarray([*self.layout, *fields], dtype=object)])
