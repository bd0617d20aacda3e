"""The zone labeller: emission arithmetic, estimator conventions, decoding, persistence."""
from __future__ import annotations

import copy
import json
import os
import pickle
import warnings

import joblib
import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.base import clone

import scilabel
from scilabel.emission import NaiveBayesEmission, SVMEmission
from scilabel.features import ZoneArrays
from scilabel.labeler import MODEL_FORMAT, ZoneLabeler
from scilabel.persistence import ModelError, load_model, save_model
from scilabel.rules.vetoes import DEFAULT_VETOES, Veto, without
from scilabel.schema import LABELS, STATE_INDEX, STATES, labels_to_states

rng = np.random.default_rng(7)
TITLE_WORDS = "effects of drought on root growth in field beans a cohort study".split()
BODY_WORDS = "we measured the samples were collected and analysed using the method described".split()


def zone(text, label, y, size=16.0, weight=400):
    return {"text": text, "label": label, "x": 40.0, "y": float(y), "w": 600.0, "h": size * 1.2,
            "font_size": size, "font_weight": weight, "link_chars": 0, "sup_chars": 0, "italic_chars": 0}


def synthetic_page(i: int) -> list[dict]:
    """A small article page: furniture, title, authors, affiliation, abstract, body, references, footer."""
    y = iter(range(0, 100000, 40))
    words = lambda pool, n: " ".join(rng.choice(pool, n))  # noqa: E731
    rows = [zone("Home Journals About", "other", next(y)),
            zone(words(TITLE_WORDS, 8).capitalize(), "title", next(y), 28, 700),
            zone("Ana Silva, Bo Chen and Carl Dahl", "authors", next(y), 17),
            zone("Department of Biology, Lund University, Sweden", "affiliations", next(y), 13),
            zone("Abstract", "abstract_heading", next(y), 20, 700),
            zone(words(BODY_WORDS, 40) + " results suggest", "abstract", next(y))]
    rows += [zone(words(BODY_WORDS, 60), "other", next(y)) for _ in range(3)]
    rows.append(zone("References", "references_heading", next(y), 20, 700))
    rows += [zone(f"{k}. Smith J, Lee K. Root growth. J Bot. {1990 + k};{k}:1-9.", "references", next(y), 14) for k in range(1, 6)]
    rows.append(zone("© 2024 Example Press", "other", next(y), 12))
    return [dict(r, document=f"p{i}") for r in rows]


@pytest.fixture(scope="module")
def pages() -> pd.DataFrame:
    return pd.DataFrame([r for i in range(30) for r in synthetic_page(i)])


@pytest.fixture(scope="module")
def fitted(pages) -> ZoneLabeler:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ZoneLabeler(emission=NaiveBayesEmission(n_bins=3)).fit(pages)


def test_naive_bayes_arithmetic_by_hand():
    frame = pd.DataFrame([
        dict(zone("alpha beta", "title", 0), document="a"),
        dict(zone("beta beta gamma", "other", 500), document="a"),
    ])
    states = ["Title", "BTA"]
    em = NaiveBayesEmission(layout=("top",), n_bins=2, alpha=1.0, layout_alpha=1.0, min_df=1).fit(frame, states)
    ll = em.log_likelihood(pd.DataFrame([dict(zone("beta gamma", "other", 500), document="b")]))[0]
    vocab = 3  # alpha beta gamma
    # Title saw alpha, beta (2 tokens); BTA saw beta x2, gamma (3 tokens); 2 layout bins, Title in bin 0, BTA in bin 1
    title = np.log((1 + 1) / (2 + vocab)) + np.log((0 + 1) / (2 + vocab)) + np.log((0 + 1) / (1 + 2))
    bta = np.log((2 + 1) / (3 + vocab)) + np.log((1 + 1) / (3 + vocab)) + np.log((1 + 1) / (1 + 2))
    unseen = np.log(1 / vocab) * 2 + np.log(1 / 2)  # a state with no data: uniform words and bins
    assert ll[STATE_INDEX["Title"]] == pytest.approx(title)
    assert ll[STATE_INDEX["BTA"]] == pytest.approx(bta)
    assert ll[STATE_INDEX["Abstract"]] == pytest.approx(unseen)


def test_collections_feed_the_component_word_models():
    frame = pd.DataFrame([dict(zone("x y", "title", 0), document="a"), dict(zone("z", "other", 40), document="a")])
    texts = pd.DataFrame({"field": ["abstract", "abstract", "other"], "text": ["photosynthesis rates", "photosynthesis", "ignored words"]})
    em = NaiveBayesEmission(min_df=1).fit(frame, ["Title", "BTA"], texts)
    ll = em.log_likelihood(pd.DataFrame([dict(zone("photosynthesis", "other", 0), document="b")]))[0]
    assert ll.argmax() == STATE_INDEX["Abstract"]
    assert em.n_collection_texts_ == 2 and "ignored" not in em.vocabulary_.vocabulary_


def test_labels_synthetic_pages_and_follows_the_topology(fitted, pages):
    test = pd.DataFrame([r for i in range(100, 105) for r in synthetic_page(i)])
    pred = fitted.predict(test)
    assert (pred == test["label"].to_numpy()).mean() > 0.95
    for page in fitted.label_pages(test):
        idx = [STATE_INDEX[s] for s in page.states]
        assert all(fitted.hmm_.allowed_transitions_[a, b] for a, b in zip(idx, idx[1:]))
        assert page.states[0] in ("PreTitle", "Title")
        assert np.all((page.confidence > 0) & (page.confidence <= 1 + 1e-9))
    proba = fitted.predict_proba(test)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert fitted.score(test) > 0.9


def with_vetoes(labeler: ZoneLabeler, vetoes) -> ZoneLabeler:
    """A copy of the fitted ``labeler`` decoding with ``vetoes`` (they act only when decoding: no refit)."""
    return copy.deepcopy(labeler).set_params(vetoes=vetoes)


def test_a_byline_caption_is_never_read_as_authors(fitted):
    page = synthetic_page(200)
    page.insert(2, dict(zone("Authors", "other", page[1]["y"] + 20, 17), document="p200"))
    test = pd.DataFrame(page)
    labels = fitted.predict(test)
    assert labels[2] != "authors" and labels[3] == "authors"
    assert fitted.label_pages(test)[0].states[2] == "BTA" and fitted.predict_proba(test)[2, LABELS.index("other")] == 1
    assert with_vetoes(fitted, ()).predict(test)[2] == "authors"  # what the veto and passing over prevent
    # either suffices: barring the byline's states, or passing the caption over
    for name in ("byline_caption", "byline_caption_passed_over"):
        assert with_vetoes(fitted, without(DEFAULT_VETOES, name)).predict(test)[2] == "other"
    assert with_vetoes(fitted, without(DEFAULT_VETOES, "byline_caption", "byline_caption_passed_over")).predict(
        test)[2] == "authors"


def advertisements(zones):
    """The worked example of a new veto's predicate: a zone reading "Advertisement"."""
    return np.array([text.strip() == "Advertisement" for text in ZoneArrays.of(zones).texts])


NO_AD_TITLE = (*DEFAULT_VETOES, Veto("advertisement", advertisements, bars=("Title",)))


def test_a_custom_veto_changes_the_decoded_path(fitted):
    page = synthetic_page(400)
    page[1] = dict(page[1], text="Advertisement")  # set as the title is
    test = pd.DataFrame(page)
    assert fitted.label_pages(test)[0].states[1] == "Title"
    ruled = with_vetoes(fitted, NO_AD_TITLE)
    decoded = ruled.label_pages(test)[0]
    assert decoded.states[1] != "Title" and decoded.labels[1] == "other"
    assert "Title" not in decoded.states  # the page has no other title
    assert ruled.predict_proba(test)[1, LABELS.index("title")] == 0


def test_vetoes_are_a_parameter(fitted, pages):
    assert ZoneLabeler().get_params()["vetoes"] is DEFAULT_VETOES
    labeler = ZoneLabeler(emission="nb", vetoes=NO_AD_TITLE)
    assert labeler.get_params()["vetoes"] is NO_AD_TITLE  # stored as given
    twin = clone(labeler)
    assert twin.get_params()["vetoes"] == NO_AD_TITLE and repr(twin) == repr(labeler)
    assert "advertisement" in repr(labeler) and "vetoes" not in repr(ZoneLabeler())
    assert clone(fitted).set_params(vetoes=()).vetoes == ()


def test_a_labeler_with_its_vetoes_pickles(fitted, pages):
    ruled = with_vetoes(fitted, NO_AD_TITLE)
    restored = pickle.loads(pickle.dumps(ruled))
    assert restored.vetoes == NO_AD_TITLE
    np.testing.assert_array_equal(restored.predict(pages), ruled.predict(pages))


def test_the_path_passes_over_a_byline_caption_between_title_and_byline(fitted):
    # trained without captions, the HMM has no Title -> BTA -> Authors to count: a caption between the
    # title and the byline is passed over, and the byline is still read
    page = synthetic_page(300)
    page.insert(2, dict(zone("Authors and affiliations", "other", page[1]["y"] + 20, 16), document="p300"))
    result = fitted.label_pages(pd.DataFrame(page))[0]
    assert result.labels[2] == "other" and result.states[2] == "BTA" and result.confidence[2] == 1.0
    assert result.labels[3] == "authors"
    title, bta, authors = (STATE_INDEX[s] for s in ("Title", "BTA", "Authors"))
    assert fitted.hmm_.transmat_[title, authors] > fitted.hmm_.transmat_[title, bta]


def test_estimator_conventions(fitted, pages):
    assert fitted.fit(pages) is fitted
    twin = clone(fitted)
    assert repr(twin) == repr(fitted) and not hasattr(twin, "hmm_")
    independent = clone(fitted).set_params(sequence=False).fit(pages)
    assert independent.predict(pages).shape == (len(pages),)
    with pytest.raises(ValueError, match="emission must be one of"):
        ZoneLabeler(emission="crf").fit(pages)
    with pytest.raises(ValueError, match="labels for"):
        ZoneLabeler().fit(pages, y=["title"])


def test_svm_emission_fits_and_decodes(pages):
    labeler = ZoneLabeler(emission=SVMEmission(calibration_cv=2)).fit(pages)
    ll = labeler.emission_.log_likelihood(pages)
    assert ll.shape == (len(pages), len(STATES)) and np.isfinite(ll).all()
    assert (labeler.predict(pages) == pages["label"].to_numpy()).mean() > 0.95


def test_svm_probability_floor_bounds_the_veto_and_leaves_the_rest(pages):
    labeler = ZoneLabeler(emission=SVMEmission(calibration_cv=2, min_proba=1e-9)).fit(pages)
    em = labeler.emission_
    strict = em.log_likelihood(pages)
    seen = em.state_columns_ >= 0
    floor = np.log(1e-2) - em.prior_weight * em.label_log_prior_[em.state_columns_[seen]]
    assert (strict[:, seen] < floor).any()  # the calibrated SVM is surer than the floor somewhere
    floored = em.set_params(min_proba=1e-2).log_likelihood(pages)
    assert (floored[:, seen] >= floor - 1e-12).all()
    above = strict[:, seen] >= floor
    np.testing.assert_array_equal(floored[:, seen][above], strict[:, seen][above])
    np.testing.assert_array_equal(floored[:, ~seen], strict[:, ~seen])


def test_svm_common_floor_is_one_value_for_every_state(pages):
    em = ZoneLabeler(emission=SVMEmission(calibration_cv=2, min_proba=1e-9, min_log_likelihood=None)).fit(pages).emission_
    seen = em.state_columns_ >= 0
    free = em.log_likelihood(pages)[:, seen]
    assert (free < -3.0).any()  # the calibrated SVM is surer than the floor somewhere
    common = em.set_params(min_log_likelihood=-3.0).log_likelihood(pages)[:, seen]
    np.testing.assert_array_equal(common, np.maximum(free, -3.0))
    # through min_proba alone a rare label's floor is higher than a frequent one's
    by_proba = em.set_params(min_proba=1e-2, min_log_likelihood=None).log_likelihood(pages)[:, seen]
    assert len(np.unique(np.round(by_proba.min(axis=0), 6))) > 1


def test_svm_prior_weight_damps_rare_labels_and_leaves_zone_by_zone_labels(pages):
    labeler = ZoneLabeler(emission=SVMEmission(calibration_cv=2, min_log_likelihood=None), sequence=False).fit(pages)
    em = labeler.emission_
    assert em.prior_weight == 1.0  # the default divides by the whole prior
    seen = em.state_columns_ >= 0
    whole = em.set_params(prior_weight=1.0).log_likelihood(pages)
    independent = labeler.predict_proba(pages)
    half = em.set_params(prior_weight=0.5).log_likelihood(pages)
    # a rare label (log prior far below 0) gains half as much from the division
    lift = -0.5 * em.label_log_prior_[em.state_columns_[seen]]
    np.testing.assert_allclose(whole[:, seen] - half[:, seen], np.broadcast_to(lift, half[:, seen].shape))
    assert lift.max() > 1.0
    # labelling zones one by one is the calibrated classifier's decision at any weight
    np.testing.assert_allclose(labeler.predict_proba(pages), independent)


def test_svm_calibration_groups_reach_the_emission_through_line_units(pages):
    families = pages.assign(publisher="pub" + pages["document"].astype("category").cat.codes.mod(3).astype(str))
    grouped = ZoneLabeler(emission=SVMEmission(calibrate_across="publisher")).fit(families)
    plain = ZoneLabeler(emission=SVMEmission(calibrate_across=None)).fit(families)
    assert not np.allclose(grouped.emission_.sigmoid_a_, plain.emission_.sigmoid_a_)


def test_persistence_round_trip_and_errors(fitted, pages, tmp_path):
    path = save_model(fitted, tmp_path / "m.npz", {"name": "test-model"})
    loaded = load_model(path)
    assert loaded.model_card_["name"] == "test-model"
    np.testing.assert_array_equal(loaded.predict(pages), fitted.predict(pages))
    with pytest.raises(ModelError, match="no such model file"):
        load_model(tmp_path / "missing.npz")
    (tmp_path / "junk.joblib").write_bytes(b"not a pickle at all")
    with pytest.raises(ModelError, match="junk.joblib: not a scilabel model in the safe format.*--trust-model"):
        load_model(tmp_path / "junk.joblib")
    with pytest.raises(ModelError, match="junk.joblib: not a scilabel model"):
        load_model(tmp_path / "junk.joblib", trust=True)
    joblib.dump({"a": 1}, tmp_path / "dict.joblib")
    with pytest.raises(ModelError, match="not a fitted scilabel ZoneLabeler"):
        load_model(tmp_path / "dict.joblib", trust=True)
    old = copy.copy(fitted)  # the fixture is shared: its versions stay as they are
    old.versions_ = {**fitted.versions_, "scilabel": "0.0.1", "scikit-learn": "0.1"}
    save_model(old, tmp_path / "old.npz", {})
    with pytest.warns(UserWarning, match="saved with"):
        load_model(tmp_path / "old.npz")
    old.versions_ = {"scilabel": "0.2.0", "scikit-learn": "0.1"}  # as saved before formats were stamped
    save_model(old, tmp_path / "format1.npz", {})
    with pytest.raises(ModelError, match=r"format1.npz: a scilabel model of format 1; this scilabel reads format \d"):
        load_model(tmp_path / "format1.npz")


def test_a_model_file_is_read_once_while_unchanged_and_each_load_is_its_own(fitted, pages, tmp_path):
    path = save_model(fitted, tmp_path / "m.npz", {"name": "first"})
    one, two = load_model(path), load_model(path)
    assert one is not two and one.emission_ is not two.emission_
    one.set_params(page_metadata=False)
    assert two.page_metadata is not False  # a setting changed on one load stays there
    shared = one.hmm_.transmat_
    assert shared is two.hmm_.transmat_ and not shared.flags.writeable  # the arrays are read once, read-only
    np.testing.assert_array_equal(two.predict(pages), fitted.predict(pages))
    save_model(fitted, path, {"name": "second"})  # the file rewritten: read again
    assert load_model(path).model_card_["name"] == "second"


def test_a_pickle_runs_no_code_unless_trusted_and_converts_to_the_safe_format(fitted, pages, tmp_path):
    from scilabel.persistence import convert_model

    marker = tmp_path / "marker"

    class Payload:  # unpickling calls os.system: what a hostile model file would do
        def __reduce__(self):
            return os.system, (f"touch {marker}",)

    joblib.dump(Payload(), tmp_path / "evil.joblib")
    with pytest.raises(ModelError, match="evil.joblib: not a scilabel model in the safe format"):
        load_model(tmp_path / "evil.joblib")
    assert not marker.exists()
    with pytest.raises(ModelError, match="not a fitted scilabel ZoneLabeler"):
        load_model(tmp_path / "evil.joblib", trust=True)
    assert marker.exists()  # the test can fail: trusted, the pickle does run
    model = copy.deepcopy(fitted)  # the test above changed the shared model's versions
    model.versions_ = {"model_format": MODEL_FORMAT, "scilabel": scilabel.__version__, "scikit-learn": sklearn.__version__}
    joblib.dump(model, tmp_path / "old.joblib")
    converted = load_model(convert_model(tmp_path / "old.joblib", tmp_path / "new.npz"))
    np.testing.assert_array_equal(converted.predict(pages), fitted.predict(pages))


@pytest.mark.parametrize("graph", [
    {"$function": "os:system"},
    {"$object": "subprocess:Popen", "state": {"$dict": {}}},
    {"$object": "sklearn_crfsuite._fileresource:FileResource", "state": {"$dict": {"name": "/etc/x"}}},
    {"$type": "builtins:eval"},
    {"$function": "scilabel.atomic:write_text"},
])
def test_a_safe_model_file_naming_anything_untrusted_is_refused(tmp_path, graph):
    from scilabel import modelfile

    path = tmp_path / "crafted.npz"
    data = np.frombuffer(json.dumps({"$tuple": [graph]}).encode(), dtype=np.uint8)
    np.savez(path, **{modelfile.GRAPH: data})
    with pytest.raises(ModelError, match="crafted.npz: not a usable scilabel model"):
        load_model(path)


def test_train_labeler_fits_the_split_and_writes_the_card(pages, tmp_path):
    from scilabel.training import train_labeler

    data = tmp_path / "data"
    data.mkdir()
    split = np.where(pages["document"].isin(["p0", "p1"]), "test", "train")
    pages.assign(split=split, group="fam").to_parquet(data / "zones.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        train_labeler([data], "nb", tmp_path / "m.joblib", topology="interleaved")
    card = load_model(tmp_path / "m.joblib").model_card_
    assert card["trained_on"]["pages"] == 28 and card["trained_on"]["groups"] == ["fam"]
    assert (card["topology"], card["gap_self_loop"], card["br_self_loop"], card["barh_to_references"]) == (
        "interleaved", 0.6, 0.4, 0.01)
    assert card["name"] == "m" and card["fit_seconds"] > 0
    test = card["test_metrics"]["data"]  # the two test pages of the dataset
    assert set(test) == {"zone_f", "token_f"} and 0 <= test["zone_f"]["title"] <= 100
    assert set(test["zone_f"]) == {"title", "authors", "affiliations", "abstract_heading", "abstract",
                                   "references_heading", "references"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        train_labeler([data], "nb", tmp_path / "c.joblib", br_self_loop=None, barh_to_references=0.02,
                      affiliations_to_barh=None)
    card = load_model(tmp_path / "c.joblib").model_card_
    assert (card["gap_self_loop"], card["br_self_loop"], card["barh_to_references"], card["affiliations_to_barh"]) == (
        0.6, None, 0.02, None)
    # a gold dataset is trained on whole, its test pages too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        train_labeler([data], "nb", tmp_path / "g.joblib", gold=[data])
    card = load_model(tmp_path / "g.joblib").model_card_
    assert card["trained_on"]["pages"] == 30 and card["trained_on"]["gold"] == [str(data)]  # the 2 test pages too


def test_the_real_platform_families_are_trained_on_only_when_asked(pages, tmp_path):
    from scilabel.corpus.dataset import labelling_pages
    from scilabel.training import train_labeler

    data = tmp_path / "data"
    data.mkdir()
    group = np.where(pages["document"].isin(["p2", "p3", "p4"]), "scielo", "fam")
    pages.assign(split="train", group=group).to_parquet(data / "zones.parquet")
    assert set(labelling_pages(pages.assign(split="train", group=group))["document"]) == {
        f"p{k}" for k in range(30)} - {"p2", "p3", "p4"}
    for platforms, n_pages, groups in ((False, 27, ["fam"]), (True, 30, ["fam", "scielo"])):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            train_labeler([data], "nb", tmp_path / "m.joblib", topology="interleaved", platforms=platforms)
        trained_on = load_model(tmp_path / "m.joblib").model_card_["trained_on"]
        assert (trained_on["pages"], trained_on["groups"], trained_on["platforms"]) == (n_pages, groups, platforms)
    only = tmp_path / "only"
    only.mkdir()
    pages.assign(split="train", group="scielo").to_parquet(only / "zones.parquet")
    with pytest.raises(ValueError, match="real-platform families are left out without --platforms"):
        train_labeler([only], "nb", tmp_path / "x.joblib")


def test_state_mapping_used_for_training():
    assert labels_to_states(["other", "title", "other", "authors"]) == ["PreTitle", "Title", "BTA", "Authors"]


def test_line_fragments_are_labelled_together_and_broadcast(pages):
    """An author name and its superscript marker as two zones on one line: one unit, one label."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labeler = ZoneLabeler(emission=NaiveBayesEmission(n_bins=3), topology="interleaved").fit(pages)
    page = synthetic_page(200)
    name = dict(zone("Ana Silva", "authors", page[2]["y"]), w=70.0, document="p200")
    marker = dict(zone("1,2", "authors", page[2]["y"] + 2, 11), x=name["x"] + name["w"] + 4, w=12.0, document="p200")
    rows = pd.DataFrame(page[:2] + [name, marker] + page[3:])
    units, unit_zones = labeler._units(rows)
    assert len(unit_zones["text"]) == len(rows) - 1 and units[2] == units[3]
    assert unit_zones["text"][units[2]] == "Ana Silva 1,2"
    (decoded,) = labeler.label_pages(rows)
    assert decoded.labels[2] == decoded.labels[3] == "authors" and decoded.states[2] == decoded.states[3]
    assert len(decoded.labels) == len(rows) and decoded.confidence.shape == (len(rows),)
    proba = labeler.predict_proba(rows)
    np.testing.assert_array_equal(proba[2], proba[3])
    assert labeler.hmm_.topology == "interleaved"
    apart = clone(labeler).set_params(merge_lines=False).fit(pages)
    assert len(apart._units(rows)[1]["text"]) == len(rows)
    assert apart.predict(rows).shape == (len(rows),)


def test_train_labeler_seeds_the_svm(pages, tmp_path):
    from scilabel.training import train_labeler

    data = tmp_path / "data"
    data.mkdir()
    pages.assign(split="train", group=np.where(pages["document"] < "p2", "a", "b")).to_parquet(data / "zones.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in (0, 3):
            train_labeler([data], "svm", tmp_path / f"s{seed}.joblib", random_state=seed)
        train_labeler([data], "nb", tmp_path / "nb.joblib", random_state=3)
    for seed in (0, 3):
        model = load_model(tmp_path / f"s{seed}.joblib")
        assert model.model_card_["random_state"] == seed == model.emission_.random_state
    assert "random_state" not in load_model(tmp_path / "nb.joblib").model_card_


def test_a_page_of_nothing_but_a_caption_is_still_decoded(fitted):
    page = pd.DataFrame([dict(zone("Authors and affiliations", "other", 0), document="only")])
    assert fitted.predict(page).tolist() == ["other"]
    assert fitted.predict_proba(page).shape == (1, len(LABELS))
    assert fitted.label_pages(page)[0].states == ["PreTitle"]


def test_repeats_are_units_whose_words_were_read_with_their_label_before():
    from scilabel.labeler import _repeats

    texts = ["Ana Silva, Bo Chen", "Department of Biology", "Ana Silva, Dora Ek", "Silva A, Chen B", "Bo", "Root growth"]
    labels = ["authors", "affiliations", "authors", "authors", "authors", "title"]
    # the third unit is half new names; the fourth repeats two ("A", "B" are too short to count); the fifth
    # is one word
    assert _repeats(texts, labels, ("title", "authors")).tolist() == [False, False, False, True, False, False]
    assert not _repeats(texts, labels, ()).any()
    assert not _repeats(texts, ["other"] * 6, ("authors",)).any()
    # one surname with initials: a repeat when the initials were read with it ("J. Oro" in an author
    # panel after the byline), not when they are another author's ("A. Oro")
    names = ["J. Oro", "L. E. Muresan", "J. Oro", "L. E. Muresan 2", "A. Oro"]
    assert _repeats(names, ["authors"] * 5, ("authors",)).tolist() == [False, False, True, True, False]


def test_addresses_repeat_only_under_a_repeated_author_panel():
    from scilabel.labeler import _repeats

    lab, dep = "Lab of Soils, Uppsala University", "Department of Physics, Lund University"
    # the byline's panel: each name (shown again in its pop-up) with its addresses, one address shared;
    # then the same panel again, names and addresses
    panel = [("Ana Silva,", "authors"), ("Ana Silva", "authors"), (lab, "affiliations"),
             ("Bo Chen,", "authors"), ("Bo Chen", "authors"), (lab, "affiliations"), (dep, "affiliations")]
    texts, labels = map(list, zip(*panel, *panel))
    repeated = _repeats(texts, labels, ("authors",)).tolist()
    assert repeated[:7] == [False, True, False, False, True, False, False]  # the shared address is kept
    assert repeated[7:] == [True] * 7
    assert not _repeats(texts, labels, ("title",)).any()  # authors read more than once: addresses kept
    # end matter that names the authors again under an address printed for the first time keeps it
    end = ["Ana Silva", "Bo Chen", "Ana Silva, Bo Chen", dep]
    assert not _repeats(end, ["authors", "authors", "authors", "affiliations"], ("authors",))[3]
    # a correspondence line opens with a name of the byline; an address that opens with other
    # capitalised words, or a lone surname, is no such line
    lines = ["Ana Silva, Bo Chen", lab, "Ana Silva, Lab of Soils, Box 7014, Uppsala",
             "Chen Laboratory, Lund University", "Silva, Lab of Soils"]
    assert _repeats(lines, ["authors"] + ["affiliations"] * 4, ("authors",)).tolist() == [False, False, True, False, False]


def test_a_byline_shown_again_is_read_once(fitted, pages):
    page = pd.DataFrame(synthetic_page(99))
    byline = page.index[page["label"] == "authors"][0]
    again = page.loc[[byline]].assign(label="other", y=page.loc[byline, "y"] + 20)
    page = pd.concat([page.loc[:byline], again, page.loc[byline + 1:]], ignore_index=True)
    kept = fitted.set_params(printed_once=()).predict(page)
    assert list(kept[byline:byline + 2]) == ["authors", "authors"]
    once = fitted.set_params(printed_once=("title", "authors"))
    assert list(once.predict(page)[byline:byline + 2]) == ["authors", "other"]
    assert once.predict_proba(page)[byline + 1, list(once.classes_).index("other")] == 1.0


def test_gradient_boosted_trees_and_their_random_stream_round_trip_the_safe_format(tmp_path):
    from sklearn.ensemble import HistGradientBoostingClassifier

    from scilabel import modelfile

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(120, 4)), rng.choice(["a", "b", "c"], 120)
    trees = HistGradientBoostingClassifier(max_iter=5, max_features=0.5, random_state=0).fit(X, y)
    back = modelfile.load(modelfile.dump({"trees": trees, "rng": np.random.default_rng(7)}, tmp_path / "t.npz"))
    assert np.allclose(back["trees"].predict_proba(X), trees.predict_proba(X))
    assert back["rng"].integers(1 << 30) == np.random.default_rng(7).integers(1 << 30)


def test_a_setting_added_after_a_model_file_was_written_takes_its_default(tmp_path):
    from scilabel import modelfile
    from scilabel.structure.model import BlockModel

    path = modelfile.dump(BlockModel(threshold=0.4, rule_body=False), tmp_path / "old.npz")
    with np.load(path) as archive:
        graph = json.loads(bytes(archive[modelfile.GRAPH]).decode("utf-8"))
    del graph["state"]["$dict"]["threshold"]  # as if the file was written before the setting existed
    np.savez(path, **{modelfile.GRAPH: np.frombuffer(json.dumps(graph).encode(), dtype=np.uint8)})
    back = modelfile.load(path)
    assert (back.threshold, back.rule_body) == (BlockModel().threshold, False)
