"""What a page's declared metadata says about each zone's label, as a factor of the HMM's emission.

The emission model reads words and layout; :class:`MetadataEvidence` reads only how well a zone
matches the page's declared record (:data:`~scilabel.features.evidence.EVIDENCE_FEATURES`) and gives
``log P(label | evidence) - log P(label)``, which the labeller adds to the emission's log-likelihoods of
every state of that label: the two views combined as independent evidence, so that a declared title
lifts the zone that shows it without overriding the page. It is learned from the training pages that
declare something (generated pages carry tags with the faults real pages have, real pages their own),
and it is 0 on pages that declare nothing, which are labelled exactly as by layout and words alone.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler
from sklearn.utils.validation import check_is_fitted

from .schema import LABELS


class MetadataEvidence(BaseEstimator):
    """Label log-likelihood ratios from the page-metadata evidence of zones.

    Parameters
    ----------
    floor : share of the label prior mixed into the classifier's probabilities, so that no ratio is
        below ``log(floor)``: the declaration can make a label unlikely but never rules it out
    C : inverse regularisation of the logistic regression, which reads the features and their pairwise
        products, so that a match counts differently by what else the zone matches (a byline whose
        names are also in the declared references, a title declared and not matched)
    max_other : at most this many ``other`` rows are fitted on (a seeded sample, weighted up to stand for
        all of them), which keeps fitting fast; every row of the other labels is kept
    """

    def __init__(self, floor: float = 0.05, C: float = 1.0, max_other: int = 50_000):
        self.floor = floor
        self.C = C
        self.max_other = max_other

    def fit(self, evidence: np.ndarray, labels: np.ndarray) -> MetadataEvidence:
        """Fit on the evidence rows of zones of pages that declare metadata, and their labels."""
        labels = np.asarray(labels, dtype=object)
        other = np.flatnonzero(labels == "other")
        weight = np.ones(len(labels))
        kept = np.ones(len(labels), dtype=bool)
        if len(other) > self.max_other:
            kept[other] = False
            kept[np.random.default_rng(0).choice(other, self.max_other, replace=False)] = True
            weight[other] = len(other) / self.max_other
        self.classifier_: Pipeline = make_pipeline(PolynomialFeatures(degree=2, include_bias=False), StandardScaler(),
                                                   LogisticRegression(C=self.C, max_iter=1000))
        self.classifier_.fit(evidence[kept], labels[kept], logisticregression__sample_weight=weight[kept])
        counts = np.array([(labels == lab).sum() for lab in LABELS], dtype=float) + 1.0
        self.prior_ = counts / counts.sum()
        self.columns_ = np.array([LABELS.index(c) for c in self.classifier_.classes_])
        self.n_rows_ = len(labels)
        return self

    def log_ratio(self, evidence: np.ndarray, declared: np.ndarray) -> np.ndarray:
        """(n, len(LABELS)) ``log P(label | evidence) - log P(label)`` for the rows of pages that
        ``declared`` something, 0 for the others."""
        check_is_fitted(self, "classifier_")
        out = np.zeros((len(evidence), len(LABELS)))
        rows = np.flatnonzero(declared)
        if len(rows):
            proba = np.zeros((len(rows), len(LABELS)))
            known = evidence[rows][:, : self.classifier_.n_features_in_]  # the features it was fitted on
            proba[:, self.columns_] = self.classifier_.predict_proba(known)
            proba = (1 - self.floor) * proba + self.floor * self.prior_
            out[rows] = np.log(proba) - np.log(self.prior_)
        return out
