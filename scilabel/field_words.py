"""Field word likelihoods: how much a zone's words read like a title, author names, affiliations, an
abstract, a reference or other text, learned from the field collections.

The generated pages hold the words of a few hundred articles; the field collections
(:mod:`scilabel.corpus.collections`: MEDLINE records, labelled headers and reference strings) hold
tens of thousands of real titles, names, addresses, abstracts and references. A multinomial model per
field over :func:`~scilabel.features.tokenize` tokens gives every zone its mean log-likelihood per
known token under each field, centred over the fields and shrunk towards zero for zones of few
known tokens, and the log of its known-token count: a nearly length-free text channel that the SVM
emission weighs with the layout (as the paper's Naive Bayes draws its word likelihoods from such
collections).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.utils.validation import check_is_fitted

from .features import ZoneArrays, Zones, tokenize, vocabulary_index
from .schema import FIELD_LABELS

#: Fields of the collections the model tells apart, in output order.
FIELDS: tuple[str, ...] = (*FIELD_LABELS, "other")


class FieldWordModel(BaseEstimator):
    """Per-field multinomial word model over the field collections.

    Parameters
    ----------
    alpha : additive smoothing of the word likelihoods
    min_df : a word must occur in this many collection texts to be known
    shrink : pseudo-count of tokens: a zone's centred scores are multiplied by known / (known +
        shrink), so that one or two known tokens ("•", "Professor") do not speak as loudly as a
        sentence (0: the plain mean)
    """

    def __init__(self, alpha: float = 0.5, min_df: int = 2, shrink: float = 1.0):
        self.alpha = alpha
        self.min_df = min_df
        self.shrink = shrink

    def fit(self, collections: pd.DataFrame) -> FieldWordModel:
        """Fit on a collections frame (columns ``field``, ``text``); fields outside :data:`FIELDS` are ignored."""
        rows = collections[collections["field"].isin(FIELDS)]
        missing = sorted(set(FIELDS) - set(rows["field"]))
        if missing:
            raise ValueError(f"field collections lack {missing}")
        self.vocabulary_ = CountVectorizer(analyzer=tokenize, min_df=self.min_df, dtype=np.float64)
        counts = self.vocabulary_.fit_transform(rows["text"].astype(str))
        words = MultinomialNB(alpha=self.alpha).fit(counts, rows["field"].map(FIELDS.index).to_numpy())
        self.log_prob_ = np.ascontiguousarray(words.feature_log_prob_.T)  # (vocabulary, fields)
        self.n_texts_ = len(rows)
        return self

    def scores(self, zones: Zones | ZoneArrays) -> np.ndarray:
        """(n_zones, len(FIELDS) + 1): mean log-likelihood per known token under each field, minus
        its mean over the fields, times known / (known + shrink) (zeros without known tokens), then
        log(1 + known tokens)."""
        check_is_fitted(self, "log_prob_")
        return self.count_scores(vocabulary_index(self.vocabulary_).counts(ZoneArrays.of(zones))[0])

    def count_scores(self, counts: sp.csr_matrix) -> np.ndarray:
        """:meth:`scores` from the zones' token counts over ``vocabulary_``."""
        known = np.asarray(counts.sum(axis=1)).ravel()
        mean = (counts @ self.log_prob_) / np.maximum(known, 1.0)[:, None]
        weight = known / np.maximum(known + self.shrink, 1e-12)
        centred = (mean - mean.mean(axis=1, keepdims=True)) * weight[:, None]
        return np.hstack([centred, np.log1p(known)[:, None]])

    def feature_names(self) -> list[str]:
        return [f"words_like_{field}" for field in FIELDS] + ["known_words"]
