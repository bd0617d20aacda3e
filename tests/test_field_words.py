"""Field word scores: the text channel the SVM emission learns from the field collections."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scilabel.corpus.medline import iter_medline
from scilabel.emission import SVMEmission
from scilabel.field_words import FIELDS, FieldWordModel

from .conftest import SHARED_DATA
from .test_speed_equivalence import TRAIN_STATES, TRAIN_TEXTS, frame_of

COLLECTIONS = pd.DataFrame({
    "field": ["title", "title", "authors", "authors", "affiliations", "affiliations", "abstract", "abstract",
              "references", "references", "other", "other"],
    "text": ["Effects of drought on roots", "Roots under drought", "Ana Silva, Bo Chen", "Bo Chen and Li Wu",
             "Department of Botany, Lund University, Sweden", "Lund University, Department of Biology",
             "We measured roots in dry soils and found deeper growth.", "We found that roots grow deeper.",
             "Smith J. Roots. J Bot. 1999;12:1-9.", "Lee K. Leaves. J Bot. 2001;3:4-5.",
             "Received 12 May 2001", "Received 3 June 2002"],
})


def test_scores_are_centred_mean_log_likelihoods_per_known_token():
    model = FieldWordModel(alpha=1.0, min_df=1).fit(COLLECTIONS)
    zones = pd.DataFrame({"text": ["Bo Chen", "Department of Botany", "zzz qqq", ""]})
    scores = model.scores(zones)
    assert scores.shape == (4, len(FIELDS) + 1)
    assert scores[0, :-1].argmax() == FIELDS.index("authors")
    assert scores[1, :-1].argmax() == FIELDS.index("affiliations")
    np.testing.assert_allclose(scores[:, :-1].sum(axis=1), 0.0, atol=1e-9)  # centred over the fields
    np.testing.assert_array_equal(scores[2:], 0.0)  # no known token: no evidence
    # by hand: tokens "bo" and "chen" under each field, averaged, centred, shrunk by 2 / (2 + 1)
    columns = [model.vocabulary_.vocabulary_[t] for t in ("bo", "chen")]
    mean = model.log_prob_[columns].mean(axis=0)
    np.testing.assert_allclose(scores[0, :-1], (mean - mean.mean()) * 2 / 3)
    assert scores[0, -1] == pytest.approx(np.log1p(2))
    plain = FieldWordModel(alpha=1.0, min_df=1, shrink=0.0).fit(COLLECTIONS).scores(zones)
    np.testing.assert_allclose(plain[0, :-1], mean - mean.mean())
    np.testing.assert_array_equal(plain[2:], 0.0)


def test_few_known_tokens_speak_less_loudly():
    model = FieldWordModel(alpha=1.0, min_df=1).fit(COLLECTIONS)
    one, many = model.scores(pd.DataFrame({"text": ["Chen", "Chen Chen Chen Chen Chen Chen Chen Chen Chen"]}))
    np.testing.assert_allclose(many[:-1] / 0.9, one[:-1] / 0.5)  # the same mean, weighted 9/10 and 1/2


def test_missing_fields_are_a_clear_error():
    with pytest.raises(ValueError, match="lack"):
        FieldWordModel().fit(COLLECTIONS[COLLECTIONS["field"] != "references"])


def test_svm_with_collections_carries_the_field_scores():
    plain = SVMEmission(max_per_label=None, calibration_cv=2).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES)
    with_fields = SVMEmission(max_per_label=None, calibration_cv=2).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES, COLLECTIONS)
    assert plain.featurizer_.field_words_ is None
    names = list(with_fields.featurizer_.get_feature_names_out())
    assert names[-len(FIELDS) - 1:] == with_fields.featurizer_.field_words_.feature_names()
    assert with_fields.coef_.shape[0] == plain.coef_.shape[0] + len(FIELDS) + 1
    zones = frame_of(["Bo Chen and Ana Silva", "Department of Botany, Lund University"], seed=3)
    assert with_fields.log_likelihood(zones).shape == (2, 16)


def test_real_medline_names_and_addresses_are_told_apart(shared_data):
    rows = []
    for record in iter_medline(SHARED_DATA / "medline"):
        rows += [("title", record.title), ("abstract", record.abstract)]
        rows += [("authors", a) for a in record.authors] + [("affiliations", a) for a in record.affiliations]
    frame = pd.DataFrame(rows, columns=["field", "text"]).dropna()
    frame = pd.concat([frame, COLLECTIONS[COLLECTIONS["field"].isin(["references", "other"])]])
    model = FieldWordModel().fit(frame)
    scores = model.scores(pd.DataFrame({"text": ["Department of Medicine, University of California, San Francisco, USA",
                                                 "John A. Smith"]}))
    assert scores[0, :-1].argmax() == FIELDS.index("affiliations")
    assert scores[1, :-1].argmax() == FIELDS.index("authors")
