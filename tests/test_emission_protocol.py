"""The emission interface: the shipped models declare it, and a new emission plugs in by name."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from scilabel.emission import EMISSIONS, Emission, EmissionKind, NaiveBayesEmission, SVMEmission
from scilabel.features import ZoneArrays
from scilabel.labeler import ZoneLabeler
from scilabel.schema import STATE_INDEX, STATES
from scilabel.persistence import SHIPPED_MODELS, model_path

from .test_labeler import pages, synthetic_page  # noqa: F401  (the module's page fixture)


class TextLookupEmission(Emission):
    """A toy emission: each state's share of the training units with exactly this text (smoothed);
    a text never seen is equally likely under every state."""

    def __init__(self, smoothing: float = 0.01):
        self.smoothing = smoothing

    def fit(self, zones, states, collections=None):
        y = np.array([STATE_INDEX[s] for s in states])
        counts: dict[str, np.ndarray] = {}
        for text, state in zip(zones["text"], y):
            counts.setdefault(text, np.zeros(len(STATES)))[state] += 1
        self.table_ = {text: np.log((c + self.smoothing) / (c + self.smoothing).sum()) for text, c in counts.items()}
        prior = np.bincount(y, minlength=len(STATES)) + 1.0
        self.state_log_prior_ = np.log(prior / prior.sum())
        self.n_collection_texts_ = 0
        return self

    def log_likelihood(self, zones):
        unseen = np.full(len(STATES), -np.log(len(STATES)))
        texts = ZoneArrays.of(zones).texts
        return np.array([self.table_.get(t, unseen) for t in texts]).reshape(len(texts), len(STATES))


def test_shipped_emissions_declare_the_interface():
    assert issubclass(NaiveBayesEmission, Emission) and issubclass(SVMEmission, Emission)
    assert {name: kind.estimator for name, kind in EMISSIONS.items()} == {"nb": NaiveBayesEmission, "svm": SVMEmission}
    assert SVMEmission().fit_columns == ("group",) and SVMEmission(calibrate_across=None).fit_columns == ()
    assert NaiveBayesEmission().fit_columns == ()
    with pytest.raises(TypeError, match="abstract"):
        Emission()


def test_shipped_models_come_from_the_registry():
    assert set(SHIPPED_MODELS) == {name for name, kind in EMISSIONS.items() if kind.model_file}
    for name, kind in EMISSIONS.items():
        assert model_path(name).name == kind.model_file and model_path(name).is_file()


def test_a_new_emission_plugs_in_by_name_and_decodes(pages, monkeypatch):  # noqa: F811
    monkeypatch.setitem(EMISSIONS, "lookup", EmissionKind(TextLookupEmission))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labeler = ZoneLabeler(emission="lookup").fit(pages)
    assert isinstance(labeler.emission_, TextLookupEmission) and labeler.training_summary_["collection_texts"] == 0
    page = pd.DataFrame(synthetic_page(100))
    labels = labeler.predict(page)
    # texts seen in training are labelled as they were; the new title and paragraphs by the HMM path
    assert labels.tolist() == page["label"].tolist()
    alone = labeler.set_params(sequence=False).predict(page)
    assert (alone != page["label"]).any()  # unseen texts: without the HMM only the prior decides


def test_an_unknown_emission_name_is_refused(pages):  # noqa: F811
    with pytest.raises(ValueError, match="one of"):
        ZoneLabeler(emission="crf").fit(pages)
