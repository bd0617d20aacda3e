"""Compare the shipped HMM + SVM labeller with a linear-chain CRF over the same line units.

The CRF (sklearn-crfsuite) reads each unit's words (its first tokens), the SVM featurizer's dense
features (layout and field word scores, in quantile bins) and the same of the units just before and
after it: emissions that see their neighbours, with transitions learned jointly. Its labels are the 16
HMM states. It is decoded twice: by crfsuite (any transition), and by Viterbi restricted to the article
HMM's links (the late_affiliations topology, start in PreTitle or a state it links to). Scores are zone- and
token-level F on the dev pages (the generated ``dev`` split and the silver ``train`` split), which
neither model trained on.

    .venv/bin/python benchmarks/crf_comparison.py [--train-pages 400] [--out build/eval/crf]
"""
from __future__ import annotations

import argparse
import logging
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
import sklearn_crfsuite
from sklearn.preprocessing import KBinsDiscretizer

from scilabel.corpus.dataset import load_zones
from scilabel.evaluation import evaluate
from scilabel.featurizer import ZoneFeaturizer
from scilabel.features import tokenize
from scilabel.hmm import ALLOWED_START, _allowed_transitions
from scilabel.labeler import _columns
from scilabel.lines import line_units, merge_units
from scilabel.persistence import default_model_path, load_model
from scilabel.schema import FIELD_LABELS, STATE_LABEL, STATES, labels_to_states

log = logging.getLogger("crf_comparison")


def best_path(start: np.ndarray, transitions: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Viterbi over additive scores (CRF weights; -inf bars a start or a link): the best state path."""
    best, back = start + scores[0], np.zeros(scores.shape, dtype=np.intp)
    for t in range(1, len(scores)):
        total = best[:, None] + transitions
        back[t] = total.argmax(axis=0)
        best = total[back[t], np.arange(len(best))] + scores[t]
    path = [int(best.argmax())]
    for t in range(len(scores) - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return np.array(path[::-1])


class LineUnitCRF:
    """A CRF over one page's line units; ``predict`` decodes freely, ``predict_constrained`` on the HMM's links."""

    def __init__(self, n_bins: int = 8, max_tokens: int = 12, c1: float = 0.05, c2: float = 0.05,
                 max_iterations: int = 150):
        self.n_bins, self.max_tokens = n_bins, max_tokens
        self.crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=c1, c2=c2, max_iterations=max_iterations)

    @staticmethod
    def _units(page: pd.DataFrame) -> tuple[np.ndarray, pd.DataFrame]:
        columns = _columns(page, keep=("label",))
        units = line_units(columns)
        return units, pd.DataFrame(merge_units(columns, units))

    def _features(self, units: pd.DataFrame) -> list[dict[str, float]]:
        bins = self.bins.transform(self.featurizer.transform_blocks(units)[1]).astype(int)
        own = []
        for row, text in zip(bins, units["text"].astype(str)):
            feats = {f"{name}={b}": 1.0 for name, b in zip(self.dense_names, row)}
            feats.update({f"w:{t}": 1.0 for t in tokenize(text)[: self.max_tokens]})
            own.append(feats)
        out = []
        for i, feats in enumerate(own):
            feats = dict(feats)
            for j, tag in ((i - 1, "prev:"), (i + 1, "next:")):
                if 0 <= j < len(own):
                    feats.update({tag + key: v for key, v in own[j].items()})
                else:
                    feats[tag + "none"] = 1.0
            out.append(feats)
        return out

    def fit(self, zones: pd.DataFrame, collections: pd.DataFrame) -> LineUnitCRF:
        pages = [self._units(page)[1] for _, page in zones.groupby("document", sort=False)]
        units = pd.concat(pages, ignore_index=True)
        self.featurizer = ZoneFeaturizer().fit(units, collections=collections)
        dense = self.featurizer.transform_blocks(units)[1]
        self.dense_names = self.featurizer.get_feature_names_out()[-dense.shape[1]:]
        with warnings.catch_warnings():  # discrete features merge quantile bins: expected
            warnings.simplefilter("ignore", UserWarning)
            self.bins = KBinsDiscretizer(n_bins=self.n_bins, encode="ordinal", strategy="quantile",
                                         quantile_method="averaged_inverted_cdf").fit(dense)
        X = [self._features(page) for page in pages]
        y = [labels_to_states(list(page["label"])) for page in pages]
        self.crf.fit(X, y)
        self._constraint_tables()
        return self

    def _constraint_tables(self) -> None:
        """State weights as a sparse (attribute x state) matrix, and transition weights for
        :func:`best_path` (-inf on links the article HMM does not have)."""
        self.attributes: dict[str, int] = {}
        rows, cols, weights = [], [], []
        for (attr, state), w in self.crf.state_features_.items():
            rows.append(self.attributes.setdefault(attr, len(self.attributes)))
            cols.append(STATES.index(state))
            weights.append(w)
        self.state_weights = sp.csr_matrix((weights, (rows, cols)), shape=(len(self.attributes), len(STATES)))
        trans = np.zeros((len(STATES), len(STATES)))
        for (a, b), w in self.crf.transition_features_.items():
            trans[STATES.index(a), STATES.index(b)] = w
        allowed = _allowed_transitions("late_affiliations")
        self.transitions = np.where(allowed, trans, -np.inf)

    def _decode(self, page: pd.DataFrame, constrained: bool) -> list[str]:
        units, unit_zones = self._units(page)
        feats = self._features(unit_zones)
        if not constrained:
            states = self.crf.predict_single(feats)
        else:
            hits = [(i, self.attributes[a]) for i, f in enumerate(feats) for a in f if a in self.attributes]
            r, c = zip(*hits) if hits else ((), ())
            X = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(len(feats), len(self.attributes)))
            scores = (X @ self.state_weights).toarray()
            states = [STATES[i] for i in best_path(np.where(ALLOWED_START, 0.0, -np.inf), self.transitions, scores)]
        return [STATE_LABEL[states[u]] for u in units]

    def _labels(self, zones: pd.DataFrame, constrained: bool) -> np.ndarray:
        out = np.empty(len(zones), dtype=object)
        for rows in zones.groupby("document", sort=False).indices.values():
            out[rows] = self._decode(zones.iloc[rows], constrained)
        return out

    def predict(self, zones: pd.DataFrame) -> np.ndarray:
        return self._labels(zones, constrained=False)

    def predict_constrained(self, zones: pd.DataFrame) -> np.ndarray:
        return self._labels(zones, constrained=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("build/corpus"))
    parser.add_argument("--silver", type=Path, default=Path("build/silver"))
    parser.add_argument("--collections", type=Path, default=Path("build/collections.parquet"))
    parser.add_argument("--train-pages", type=int, default=400, help="training pages (0: all)")
    parser.add_argument("--out", type=Path, default=Path("build/eval/crf"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("scilabel").setLevel(logging.WARNING)

    zones = load_zones([args.data])
    zones = zones[zones["split"] == "train"].assign(label=lambda z: z["label"].fillna("other"))
    if args.train_pages:
        pages = zones["document"].drop_duplicates().sample(args.train_pages, random_state=0)
        zones = zones[zones["document"].isin(pages)]
    start = time.perf_counter()
    crf = LineUnitCRF().fit(zones.reset_index(drop=True), pd.read_parquet(args.collections))
    log.info("CRF fitted on %d pages in %.0f s", zones["document"].nunique(), time.perf_counter() - start)

    systems = {"HMM + SVM (shipped)": load_model(default_model_path("svm")).predict,
               "CRF": crf.predict, "CRF on HMM links": crf.predict_constrained}
    summary = pd.concat([evaluate(systems, [args.data], split="dev").summary,
                         evaluate(systems, [args.silver], split="train").summary])
    table = summary[["level", "dataset", "system", *FIELD_LABELS]].sort_values(["level", "dataset"], kind="stable")
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "summary.csv", index=False)
    print(table.round(1).to_string(index=False))


if __name__ == "__main__":
    main()
