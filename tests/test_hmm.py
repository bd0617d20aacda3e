"""Tests for scilabel.hmm: topology, supervised estimation, hmmlearn-backed decoding."""
from __future__ import annotations

import dataclasses
import itertools
import logging

import joblib
import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from scilabel.hmm import (
    ALLOWED_START,
    ALLOWED_TRANSITIONS,
    ArticleHMM,
    _allowed_transitions,
    _allowed_start,
    indices_to_states,
    states_to_indices,
)
from scilabel.schema import (
    ARTICLE,
    ARTICLE_END_MATTER,
    GAP_STATES,
    INTERLEAVED_LINKS,
    LABELS,
    LATE_AFFILIATION_LINKS,
    MAJOR_LABELS,
    N_STATES,
    STATE_INDEX,
    STATE_LABEL,
    STATES,
    TOPOLOGIES,
    EndMatter,
    labels_to_states,
)

S = STATE_INDEX


def is_ordered(labels) -> bool:
    """True when the page's components appear in order, each in one run (only references may be
    interrupted by other zones: the References/BR loop)."""
    ranks = [MAJOR_LABELS.index(lab) for lab in labels if lab != "other"]
    if not all(a <= b for a, b in zip(ranks, ranks[1:])):
        return False
    runs = [lab for i, lab in enumerate(labels) if lab != "other" and (i == 0 or labels[i - 1] != lab)]
    return all(runs.count(lab) == 1 for lab in set(runs) if lab != "references")


def random_page(rng: np.random.Generator, max_runs: int = 12) -> list[str]:
    """A random ordered label sequence: some components present, runs of zones, gaps."""
    labels: list[str] = []
    present = [lab for lab in MAJOR_LABELS if rng.random() < 0.7]
    for lab in present:
        if rng.random() < 0.5:
            labels += ["other"] * int(rng.integers(1, 4))
        labels += [lab] * int(rng.integers(1, 4))
        if lab == "references":
            for _ in range(int(rng.integers(0, max_runs))):
                labels += ["other"] * int(rng.integers(0, 2)) + ["references"]
    return labels + ["other"] * int(rng.integers(0, 4))


def transitions(states, schema=ARTICLE) -> set[tuple[int, int]]:
    idx = states_to_indices(states, schema)
    return set(zip(idx[:-1].tolist(), idx[1:].tolist()))


def random_fitted_model(rng: np.random.Generator, topology: str = "strict",
                        gap_self_loop: float | None = None) -> ArticleHMM:
    pages = [random_page(rng) for _ in range(int(rng.integers(1, 25)))]
    model = ArticleHMM(smoothing=float(rng.uniform(0.05, 2.0)), topology=topology, gap_self_loop=gap_self_loop)
    return model.fit(labels_to_states(p) for p in pages if p)


def all_paths_log_prob(model: ArticleHMM, log_emission: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every one of the 16**T state paths and its joint log-probability."""
    n = len(log_emission)
    log_emission = log_emission + model.log_emission_offset_
    paths = np.array(list(itertools.product(range(N_STATES), repeat=n)))
    with np.errstate(divide="ignore"):
        log_start, log_trans = np.log(model.startprob_), np.log(model.transmat_)
    score = log_start[paths[:, 0]] + log_emission[0, paths[:, 0]]
    for t in range(1, n):
        score = score + log_trans[paths[:, t - 1], paths[:, t]] + log_emission[t, paths[:, t]]
    return paths, score


# ---------------------------------------------------------------- topology


def test_topology_is_exactly_what_labels_to_states_produces():
    produced: set[tuple[int, int]] = set()
    starts: set[int] = set()
    for n in range(1, 5):
        for labels in itertools.product(LABELS, repeat=n):
            if is_ordered(labels):
                states = labels_to_states(labels)
                produced |= transitions(states)
                starts.add(S[states[0]])
    allowed = {tuple(ij) for ij in np.argwhere(ALLOWED_TRANSITIONS).tolist()}
    assert produced == allowed
    assert starts == set(np.flatnonzero(ALLOWED_START).tolist())

    rng = np.random.default_rng(0)
    for _ in range(2000):
        states = labels_to_states(random_page(rng, max_runs=30))
        assert transitions(states) <= allowed


#: The end matter with a second component (the byline's names): its links follow from the same rules.
WITH_END_AUTHORS = dataclasses.replace(ARTICLE, end_matter=EndMatter(
    states=(("authors", "EndAuthors"), ("affiliations", "EndAffiliations")), loop="BEM"))


@pytest.mark.parametrize("schema", [ARTICLE_END_MATTER, WITH_END_AUTHORS], ids=["end_matter", "with_end_authors"])
def test_end_matter_links_are_exactly_what_labels_to_states_produces(schema):
    """Ordered pages, and short ordered pages with references followed by any run of end matter and
    other zones: their transitions are the strict links over the end-matter schema."""
    tail_labels = [*(lab for lab, _ in schema.end_matter.states), "other"]
    tails = [tail for m in range(1, 5) for tail in itertools.product(tail_labels, repeat=m)]
    produced: set[tuple[int, int]] = set()
    for n in range(1, 5):
        for labels in itertools.product(LABELS, repeat=n):
            if is_ordered(labels):
                for tail in [(), *tails] if "references" in labels and n <= 2 else [()]:
                    produced |= transitions(schema.labels_to_states((*labels, *tail)), schema)
    allowed = _allowed_transitions("strict", schema)
    translations = {schema.state_index[s] for s in schema.translation_states}  # need marked zones: tests/test_translations.py
    assert produced == {(i, j) for i, j in np.argwhere(allowed).tolist() if i not in translations and j not in translations}
    end = [schema.state_index[s] for s in schema.end_states]
    assert not allowed[np.ix_(end, range(N_STATES))][:, :-1].any()  # from the end matter only back to AR
    assert not allowed[S["BR"], end].any() and not _allowed_start(allowed, schema)[end].any()


def test_topology_spot_checks():
    def ok(a: str, b: str) -> bool:
        return bool(ALLOWED_TRANSITIONS[S[a], S[b]])

    assert ALLOWED_TRANSITIONS.sum() == 74
    # Only References may be re-entered after a gap (through BR); other components may not.
    assert not ok("BTA", "Title") and not ok("BARH", "Abstract") and not ok("BRHR", "ReferenceHeading")
    assert labels_to_states(["abstract", "other", "abstract"]) == ["Abstract", "BARH", "Abstract"]
    # past the abstract a page stays past it: the gap after late affiliations is BARH, not BAAH
    assert labels_to_states(["affiliations", "other", "abstract", "affiliations", "other"]) == [
        "Affiliations", "BAAH", "Abstract", "Affiliations", "BARH"]
    assert ok("PreTitle", "References") and ok("Title", "References") and ok("BTA", "Abstract")
    assert ok("References", "BR") and ok("BR", "References") and ok("References", "AR")
    assert not ok("BR", "AR") and not ok("AR", "References") and not ok("AR", "BR")
    assert not ok("BAA", "Title") and not ok("Title", "PreTitle") and not ok("Title", "BAA")
    assert not ok("Authors", "BTA") and not ok("ReferenceHeading", "BR")
    assert [STATES[i] for i in np.flatnonzero(ALLOWED_START)] == [
        "PreTitle", "Title", "Authors", "Affiliations", "AbstractHeading", "Abstract",
        "ReferenceHeading", "References",
    ]


def test_interleaved_topology_adds_only_the_author_affiliation_loops():
    strict = ArticleHMM(smoothing=0.0).fit(HAND_SEQUENCES)
    interleaved = ArticleHMM(smoothing=0.0, topology="interleaved").fit(HAND_SEQUENCES)
    np.testing.assert_array_equal(strict.allowed_transitions_, ALLOWED_TRANSITIONS)
    added = {(STATES[i], STATES[j]) for i, j in np.argwhere(interleaved.allowed_transitions_ & ~ALLOWED_TRANSITIONS)}
    assert added == set(INTERLEAVED_LINKS) == {("Affiliations", "Authors"), ("BAAH", "Authors")}
    with pytest.raises(ValueError, match="topology must be one of"):
        ArticleHMM(topology="loopy").fit(HAND_SEQUENCES)


def test_late_affiliations_topology_adds_only_the_links_around_affiliations_after_the_abstract():
    interleaved = ArticleHMM(smoothing=0.0, topology="interleaved").fit(HAND_SEQUENCES)
    late = ArticleHMM(smoothing=0.0, topology="late_affiliations").fit(HAND_SEQUENCES)
    added = {(STATES[i], STATES[j]) for i, j in np.argwhere(late.allowed_transitions_ & ~interleaved.allowed_transitions_)}
    assert added == set(LATE_AFFILIATION_LINKS) == {("Abstract", "Affiliations"), ("BARH", "Affiliations"),
                                                    ("Affiliations", "BARH")}
    assert not (interleaved.allowed_transitions_ & ~late.allowed_transitions_).any()


def test_end_matter_topology_adds_only_the_end_matter_states_and_their_links():
    late = _allowed_transitions("late_affiliations")
    end = _allowed_transitions("end_matter")
    np.testing.assert_array_equal(end[:N_STATES, :N_STATES], late)
    index = ARTICLE_END_MATTER.state_index
    translations = ARTICLE_END_MATTER.translation_states  # their links: tests/test_translations.py
    added = {(a, b) for a in ARTICLE_END_MATTER.states for b in ARTICLE_END_MATTER.states
             if end[index[a], index[b]] and (a not in STATES or b not in STATES)
             and a not in translations and b not in translations}
    assert added == {("References", "EndAffiliations"), ("AR", "EndAffiliations"), ("EndAffiliations", "AR"),
                     ("EndAffiliations", "EndAffiliations"), ("EndAffiliations", "BEM"), ("BEM", "EndAffiliations"),
                     ("BEM", "BEM")}


#: Pages only a topology's added links decode: (topology, the one it extends, page, transitions dropped
#: by the narrower one).
_ADDED_LINK_PAGES = [
    ("interleaved", "strict", ["other", "title", "authors", "affiliations", "authors", "affiliations", "other",
                               "authors", "affiliations", "other", "abstract", "other"], 2),
    ("late_affiliations", "interleaved", ["other", "title", "authors", "abstract", "abstract", "affiliations",
                                          "affiliations", "other", "references", "other", "references"], 2),
    ("late_affiliations", "interleaved", ["other", "title", "authors", "abstract", "other", "affiliations",
                                          "other", "references"], 2),
    ("end_matter", "late_affiliations", ["other", "title", "authors", "abstract", "other", "references", "references",
                                         "other", "affiliations", "other", "affiliations", "other"], 1),
    ("end_matter", "late_affiliations", ["title", "abstract", "references", "references", "references",
                                         "affiliations", "affiliations", "other", "other"], 1),
]


@pytest.mark.parametrize(("topology", "narrower", "page", "dropped"), _ADDED_LINK_PAGES)
def test_added_links_learn_and_decode_their_pages(topology, narrower, page, dropped):
    models = {}
    for name in (topology, narrower):
        schema = TOPOLOGIES[name].schema
        models[name] = ArticleHMM(topology=name).fit(schema.labels_to_states(p) for p in [page, *TRAINING_PAGES])
    wide, narrow = models[topology], models[narrower]
    assert narrow.n_dropped_transitions_ == dropped and wide.n_dropped_transitions_ == 0
    log_emission = np.array([[0.0 if STATE_LABEL[s] == lab else -20.0 for s in STATES] for lab in page])
    _, path = wide.decode(log_emission)
    assert indices_to_states(path, wide.schema) == wide.schema.labels_to_states(page)
    _, narrow_path = narrow.decode(log_emission)
    assert narrow.schema.states_to_labels(indices_to_states(narrow_path, narrow.schema)) != page  # cannot go back


def test_out_of_order_pages_produce_disallowed_transitions():
    states = labels_to_states(["references", "title", "other"])
    assert not ALLOWED_TRANSITIONS[S["References"], S["Title"]]
    assert transitions(states) - {tuple(ij) for ij in np.argwhere(ALLOWED_TRANSITIONS).tolist()}


# ---------------------------------------------------------------- estimation


HAND_SEQUENCES = [
    ["PreTitle", "Title", "BTA", "Authors"],
    ["Title", "Title", "Authors", "BAA"],
    ["PreTitle", "PreTitle", "Title", "Authors"],
]


def test_fit_without_smoothing_gives_hand_computed_matrix(caplog):
    model = ArticleHMM(smoothing=0.0)
    with caplog.at_level(logging.WARNING, logger="scilabel.hmm"):
        model.fit(HAND_SEQUENCES)
    assert model.n_sequences_ == 3 and model.n_dropped_transitions_ == 0

    start = np.zeros(N_STATES)
    start[S["PreTitle"]], start[S["Title"]] = 2 / 3, 1 / 3
    np.testing.assert_allclose(model.startprob_, start)
    T = model.transmat_
    # PreTitle: ->Title x2, ->PreTitle x1.   Title: ->BTA, ->Title, ->Authors x2.
    assert T[S["PreTitle"], S["Title"]] == pytest.approx(2 / 3)
    assert T[S["PreTitle"], S["PreTitle"]] == pytest.approx(1 / 3)
    assert T[S["Title"], S["BTA"]] == pytest.approx(1 / 4)
    assert T[S["Title"], S["Title"]] == pytest.approx(1 / 4)
    assert T[S["Title"], S["Authors"]] == pytest.approx(2 / 4)
    assert T[S["BTA"], S["Authors"]] == 1.0
    assert T[S["Authors"], S["BAA"]] == 1.0
    # Rows never observed (e.g. Abstract) fall back to uniform over their allowed links.
    row = T[S["Abstract"]]
    np.testing.assert_allclose(row[ALLOWED_TRANSITIONS[S["Abstract"]]], 1 / 4)
    assert "uniform" in caplog.text


def test_fit_with_smoothing_hand_computed_and_only_on_allowed_links():
    model = ArticleHMM(smoothing=0.5).fit(HAND_SEQUENCES)
    T = model.transmat_
    # Title row: counts BTA 1, Title 1, Authors 2; 8 allowed links -> total 4 + 8 * 0.5 = 8.
    assert T[S["Title"], S["Authors"]] == pytest.approx(2.5 / 8)
    assert T[S["Title"], S["BTA"]] == pytest.approx(1.5 / 8)
    assert T[S["Title"], S["References"]] == pytest.approx(0.5 / 8)
    # Start: PreTitle 2, Title 1; 8 allowed starts -> total 3 + 4 = 7.
    assert model.startprob_[S["PreTitle"]] == pytest.approx(2.5 / 7)
    assert model.startprob_[S["Authors"]] == pytest.approx(0.5 / 7)

    assert np.all(T[~ALLOWED_TRANSITIONS] == 0.0)
    assert np.all(T[ALLOWED_TRANSITIONS] > 0.0)
    assert np.all(model.startprob_[~ALLOWED_START] == 0.0)
    assert np.all(model.startprob_[ALLOWED_START] > 0.0)
    np.testing.assert_allclose(T.sum(axis=1), 1.0)
    assert model.startprob_.sum() == pytest.approx(1.0)


def test_fit_drops_and_counts_out_of_order_transitions(caplog):
    pages = [
        ["title", "authors", "other", "references"],          # ordered
        ["references", "title", "other", "authors"],          # References->Title
        ["abstract", "other", "authors", "references", "title"],  # BARH->Authors, References->Title
    ]
    with caplog.at_level(logging.WARNING, logger="scilabel.hmm"):
        model = ArticleHMM().fit(labels_to_states(p) for p in pages)
    assert model.n_dropped_transitions_ == 3
    assert "dropped 3 transitions" in caplog.text
    assert model.transmat_[S["References"], S["Title"]] == 0.0
    assert model.transmat_[S["BARH"], S["Authors"]] == 0.0
    # A first state the chain cannot start in is dropped too.
    assert ArticleHMM().fit([["BTA", "Authors"]]).n_dropped_transitions_ == 1


def test_fit_rejects_bad_input():
    with pytest.raises(ValueError, match="unknown states"):
        ArticleHMM().fit([["Title", "Nonsense"]])
    with pytest.raises(TypeError, match="single string"):
        ArticleHMM().fit(["Title", "BTA"])
    with pytest.raises(ValueError, match="non-empty"):
        ArticleHMM().fit([[]])
    with pytest.raises(ValueError, match="smoothing"):
        ArticleHMM(smoothing=-1).fit(HAND_SEQUENCES)


# ---------------------------------------------------------------- tied gap self-loops


def test_gap_self_loop_ties_gap_rows_and_keeps_exit_proportions():
    rng = np.random.default_rng(5)
    pages = [labels_to_states(random_page(rng)) for _ in range(30)]
    pages = [p for p in pages if p]
    counted = ArticleHMM().fit(pages)
    tied = ArticleHMM(gap_self_loop=0.8).fit(pages)
    np.testing.assert_allclose(tied.transmat_.sum(axis=1), 1.0)
    for state in STATES:
        i = S[state]
        if state == "AR":  # absorbing: its stay cost travels with its emissions
            assert tied.transmat_[i, i] == 1.0 and tied.log_emission_offset_[i] == pytest.approx(np.log(0.8))
        elif state in GAP_STATES:
            assert tied.transmat_[i, i] == pytest.approx(0.8)
            exits, counted_exits = np.delete(tied.transmat_[i], i), np.delete(counted.transmat_[i], i)
            np.testing.assert_allclose(exits / exits.sum(), counted_exits / counted_exits.sum())
        else:
            np.testing.assert_array_equal(tied.transmat_[i], counted.transmat_[i])
            assert tied.log_emission_offset_[i] == 0.0
    assert "BR" not in GAP_STATES and np.all(counted.log_emission_offset_ == 0.0)
    np.testing.assert_array_equal(tied.startprob_, counted.startprob_)


def test_br_self_loop_sets_only_the_br_row():
    rng = np.random.default_rng(6)
    pages = [p for p in (labels_to_states(random_page(rng)) for _ in range(30)) if p]
    counted = ArticleHMM(gap_self_loop=0.6).fit(pages)
    tied = ArticleHMM(gap_self_loop=0.6, br_self_loop=0.3).fit(pages)
    br = S["BR"]
    assert tied.transmat_[br, br] == pytest.approx(0.3)
    exits, counted_exits = np.delete(tied.transmat_[br], br), np.delete(counted.transmat_[br], br)
    np.testing.assert_allclose(exits, counted_exits / counted_exits.sum() * 0.7)
    np.testing.assert_array_equal(np.delete(tied.transmat_, br, axis=0), np.delete(counted.transmat_, br, axis=0))
    np.testing.assert_array_equal(tied.log_emission_offset_, counted.log_emission_offset_)


def test_barh_to_references_sets_the_link_and_keeps_the_self_loop():
    rng = np.random.default_rng(8)
    pages = [p for p in (labels_to_states(random_page(rng)) for _ in range(40)) if p]
    counted = ArticleHMM(gap_self_loop=0.6).fit(pages)
    set_ = ArticleHMM(gap_self_loop=0.6, barh_to_references=0.01).fit(pages)
    barh, refs = S["BARH"], S["References"]
    assert counted.transmat_[barh, refs] > 0.01
    assert set_.transmat_[barh, refs] == pytest.approx(0.01)
    assert set_.transmat_[barh, barh] == pytest.approx(0.6)
    others, counted_others = (np.delete(m.transmat_[barh], [barh, refs]) for m in (set_, counted))
    np.testing.assert_allclose(others, counted_others / counted_others.sum() * 0.39)
    np.testing.assert_array_equal(np.delete(set_.transmat_, barh, axis=0), np.delete(counted.transmat_, barh, axis=0))
    np.testing.assert_array_equal(set_.startprob_, counted.startprob_)


def test_affiliations_to_barh_sets_the_link_where_the_topology_has_it():
    late = ["other", "title", "authors", "abstract", "affiliations", "other", "references_heading", "references"]
    front = ["other", "title", "authors", "affiliations", "other", "abstract", "other", "references"]
    pages = [labels_to_states(late)] * 2 + [labels_to_states(front)] * 20
    counted = ArticleHMM(gap_self_loop=0.6, topology="late_affiliations").fit(pages)
    set_ = ArticleHMM(gap_self_loop=0.6, topology="late_affiliations", affiliations_to_barh=0.3).fit(pages)
    aff, barh = S["Affiliations"], S["BARH"]
    assert counted.transmat_[aff, barh] < 0.3 and set_.transmat_[aff, barh] == pytest.approx(0.3)
    assert set_.transmat_[aff, aff] == pytest.approx(counted.transmat_[aff, aff])
    others, counted_others = (np.delete(m.transmat_[aff], [aff, barh]) for m in (set_, counted))
    np.testing.assert_allclose(others / others.sum(), counted_others / counted_others.sum())
    np.testing.assert_array_equal(np.delete(set_.transmat_, aff, axis=0), np.delete(counted.transmat_, aff, axis=0))
    # a topology without the link ignores the setting
    interleaved = [ArticleHMM(gap_self_loop=0.6, topology="interleaved", affiliations_to_barh=p).fit(pages)
                   for p in (None, 0.3)]
    np.testing.assert_array_equal(interleaved[0].transmat_, interleaved[1].transmat_)
    assert interleaved[1].transmat_[aff, barh] == 0.0


def test_late_affiliations_then_a_body_heading_do_not_reopen_the_abstract():
    """A record: abstract, then its affiliations, then the body with a lone "Results" heading that the
    emission gives a little abstract evidence. At the counted (rare) Affiliations -> BARH the best path
    goes back before the abstract (BAAH) and passes Abstract again at the heading; the abstract is read
    once, so the decoded path goes on past it (BARH), as it does at a set 0.2."""
    late = ["other", "title", "authors", "abstract", "affiliations", "other", "references_heading", "references"]
    body = ["abstract"] * 3 + ["other", "references_heading", "references"]
    front = ["other", "title", "authors", "affiliations", "other", "abstract_heading"] + body
    unheaded = ["other", "title", "authors", "affiliations", "other"] + body
    pages = [labels_to_states(late)] + [labels_to_states(front)] * 30 + [labels_to_states(unheaded)] * 5
    log_emission = np.zeros((30, N_STATES))
    components = [S[s] for s in STATES if s not in GAP_STATES and s != "BR"]
    log_emission[:, components] = -6.0
    for i, state, value in [(1, "Title", 8.0), (2, "Authors", 8.0), (3, "Abstract", 8.0), (4, "Affiliations", 8.0),
                            (20, "Abstract", 1.0), (28, "ReferenceHeading", 8.0), (29, "References", 8.0)]:
        log_emission[i, S[state]] = value
    models = {p: ArticleHMM(gap_self_loop=0.6, topology="late_affiliations", affiliations_to_barh=p).fit(pages)
              for p in (None, 0.2)}
    decoded = {p: indices_to_states(model.decode(log_emission)[1]) for p, model in models.items()}
    unrestricted = models[None]._hmm().decode(log_emission + models[None].log_emission_offset_)[1]
    assert indices_to_states(unrestricted)[5] == "BAAH" and indices_to_states(unrestricted)[20] == "Abstract"
    assert decoded[None][5:28] == decoded[0.2][5:28] == ["BARH"] * 23
    assert models[None].posteriors(log_emission)[21:, S["Abstract"]].max() == 0.0  # confidences agree


def test_a_citation_like_run_in_the_body_does_not_open_the_list():
    """A quarter of the training lists begin without a heading. On a page with two citation-like
    body zones well before the reference heading, the counted link opens the list there and the heading
    becomes a line between references; at a set 0.01 the path waits for the heading."""
    headed = ["title", "abstract"] + ["other"] * 10 + ["references_heading"] + ["references"] * 5
    unheaded = ["title", "abstract"] + ["other"] * 10 + ["references"] * 5
    pages = [labels_to_states(headed)] * 12 + [labels_to_states(unheaded)] * 4
    components = [S[s] for s in STATES if s not in GAP_STATES and s != "BR"]
    log_emission = np.zeros((50, N_STATES))
    log_emission[:, components] = -6.0
    log_emission[0, S["Title"]] = 8.0
    log_emission[1, S["Abstract"]] = 6.0
    log_emission[20:22, S["References"]] = 8.5
    log_emission[35, S["ReferenceHeading"]] = 6.0
    log_emission[36:46, S["References"]] = 4.0
    fitted = {p: ArticleHMM(gap_self_loop=0.6, br_self_loop=0.4, barh_to_references=p).fit(pages) for p in (None, 0.01)}
    counted, set_ = (indices_to_states(fitted[p].decode(log_emission)[1]) for p in (None, 0.01))
    assert counted[20:22] == ["References"] * 2 and counted[35] == "BR"
    assert set_[20:22] == ["BARH"] * 2 and set_[35] == "ReferenceHeading"
    assert set_[36:46] == ["References"] * 10


def test_barh_to_references_must_leave_room_for_the_other_exits():
    with pytest.raises(ValueError, match="BARH -> References = 0.5 leaves nothing"):
        ArticleHMM(gap_self_loop=0.6, barh_to_references=0.5).fit(
            [["PreTitle", "Title", "BTA", "Abstract", "BARH", "ReferenceHeading", "References"]])


def test_several_lines_between_references_stay_in_the_list():
    """Trained on lists with one look-up line between references, a list with three: BR's counted
    self-loop makes the path leave for AR; a set one keeps it in the list."""
    page = (["other", "title", "other", "references_heading"]
            + ["references", "other"] * 10 + ["other"] * 5)
    pages = [labels_to_states(page)] * 20
    log_emission = np.zeros((3 + 1 + 10 * 4, N_STATES))
    log_emission[1, S["Title"]] = 6.0
    log_emission[3, S["ReferenceHeading"]] = 6.0
    log_emission[4:, S["References"]] = -8.0  # the emission is sure look-up lines are no references
    refs = np.arange(4, len(log_emission), 4)
    log_emission[refs, S["References"]] = 4.0
    counted = indices_to_states(ArticleHMM(gap_self_loop=0.6).fit(pages).decode(log_emission)[1])
    tied = indices_to_states(ArticleHMM(gap_self_loop=0.6, br_self_loop=0.4).fit(pages).decode(log_emission)[1])
    assert [counted[i] for i in refs].count("References") < len(refs)
    assert all(tied[i] == "References" for i in refs)
    assert set(tied[5:-1]) <= {"References", "BR"}


@pytest.mark.parametrize("name", ["gap_self_loop", "br_self_loop", "barh_to_references", "affiliations_to_barh"])
@pytest.mark.parametrize("bad", [0.0, 1.0, -0.5, 2.0])
def test_self_loops_must_be_probabilities(name, bad):
    with pytest.raises(ValueError, match=name):
        ArticleHMM(**{name: bad}).fit([["PreTitle", "Title"]])


def test_long_gaps_do_not_fall_into_the_absorbing_state():
    """Trained on short gaps, a long page with one reference-like zone near the top: counted
    self-loops make every zone in AR free, so the path ends the article there; tied ones do not."""
    short = (["other"] * 3 + ["title", "authors"] + ["other"] * 3 + ["abstract_heading", "abstract"]
             + ["other"] * 20 + ["references_heading", "references", "references"] + ["other"] * 30)
    pages = [labels_to_states(short)] * 20
    n = 400
    log_emission = np.zeros((n, N_STATES))
    log_emission[1, S["Title"]] = 6.0
    log_emission[5, S["References"]] = 2.0  # a "cite this article" line near the top
    log_emission[200, S["AbstractHeading"]] = 4.0
    log_emission[201:205, S["Abstract"]] = 3.0
    log_emission[380:390, S["References"]] = 1.0
    counted = indices_to_states(ArticleHMM().fit(pages).decode(log_emission)[1])
    tied = indices_to_states(ArticleHMM(gap_self_loop=0.8).fit(pages).decode(log_emission)[1])
    assert counted[202] == "AR" and "Abstract" not in counted  # what the tied loops mend
    assert tied[5] != "References"
    assert tied[200] == "AbstractHeading" and set(tied[201:205]) == {"Abstract"}
    assert set(tied[380:390]) == {"References"}


# ---------------------------------------------------------------- decoding


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gap_self_loop", [None, 0.8])
def test_viterbi_equals_brute_force(n, seed, gap_self_loop):
    rng = np.random.default_rng(100 * n + seed)
    model = random_fitted_model(rng, gap_self_loop=gap_self_loop)
    log_emission = rng.normal(scale=3.0, size=(n, N_STATES))
    if seed % 2:  # some zero-probability emissions
        log_emission[rng.random(log_emission.shape) < 0.3] = -np.inf
    paths, score = all_paths_log_prob(model, log_emission)
    best = int(np.argmax(score))
    assert np.isfinite(score[best])
    log_prob, path = model.decode(log_emission)
    assert log_prob == pytest.approx(score[best], rel=1e-12, abs=1e-9)
    np.testing.assert_array_equal(path, paths[best])


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gap_self_loop", [None, 0.8])
def test_posteriors_equal_brute_force_marginals(n, seed, gap_self_loop):
    rng = np.random.default_rng(200 * n + seed)
    model = random_fitted_model(rng, gap_self_loop=gap_self_loop)
    log_emission = rng.normal(scale=3.0, size=(n, N_STATES))
    if seed % 2:
        log_emission[rng.random(log_emission.shape) < 0.3] = -np.inf
    paths, score = all_paths_log_prob(model, log_emission)
    weight = np.exp(score - logsumexp(score))
    expected = np.zeros((n, N_STATES))
    for t in range(n):
        np.add.at(expected[t], paths[:, t], weight)
    posteriors = model.posteriors(log_emission)
    np.testing.assert_allclose(posteriors, expected, atol=1e-10)
    assert np.all(posteriors[0, ~ALLOWED_START] == 0.0)


def log_space_passes(model: ArticleHMM, log_emission: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Viterbi's best log-probability, the total log-probability and the posteriors, by the textbook
    log-space recursions in numpy and scipy: a reference independent of hmmlearn. The observations are
    the model's own (its states' columns; end matter barred before the references, the way back to an
    abstract after the first)."""
    E = model._observations(log_emission)
    E[E == np.finfo(np.float64).min] = -np.inf
    with np.errstate(divide="ignore"):
        log_start, log_trans = np.log(model.startprob_), np.log(model.transmat_)
    best, fwd, bwd = log_start + E[0], np.empty_like(E), np.zeros_like(E)
    fwd[0] = best
    for t in range(1, len(E)):
        best = (best[:, None] + log_trans).max(axis=0) + E[t]
        fwd[t] = logsumexp(fwd[t - 1][:, None] + log_trans, axis=0) + E[t]
    for t in range(len(E) - 2, -1, -1):
        bwd[t] = logsumexp(log_trans + E[t + 1] + bwd[t + 1], axis=1)
    total = logsumexp(fwd[-1])
    if total == -np.inf:
        return best.max(), total, np.full_like(E, np.nan)
    log_gamma = fwd + bwd
    return best.max(), total, np.exp(log_gamma - logsumexp(log_gamma, axis=1, keepdims=True))


@pytest.mark.parametrize("seed", range(30))
def test_passes_equal_log_space_recursions_on_long_pages(seed):
    """Long pages, emissions spanning thousands of nats (far past what scaled probabilities hold),
    some impossible: decoding equals the plain log-space recursions."""
    rng = np.random.default_rng(seed)
    model = random_fitted_model(rng, topology=str(rng.choice(list(TOPOLOGIES))), gap_self_loop=0.6)
    n = int(rng.integers(1, 300))
    log_emission = rng.normal(scale=[1.0, 5.0, 30.0, 300.0, 3000.0][seed % 5], size=(n, N_STATES))
    log_emission[rng.random(log_emission.shape) < 0.2] = -np.inf
    best, total, expected = log_space_passes(model, log_emission)
    if total == -np.inf:
        with pytest.raises(ValueError, match="no state path"):
            model.posteriors(log_emission)
        return
    log_prob, path = model.decode(log_emission)
    assert log_prob == pytest.approx(best, rel=1e-12)
    np.testing.assert_allclose(model.posteriors(log_emission), expected, atol=1e-10)
    assert transitions(indices_to_states(path, model.schema), model.schema) <= {
        tuple(ij) for ij in np.argwhere(model.allowed_transitions_)}


def test_passes_where_scaled_probabilities_underflow():
    """Pages on which forward-backward over scaled probabilities loses mass (the second zone's best state
    out of reach, its reachable ones 650 nats below; PreTitle's mass underflowing over 30
    reference-like zones before title-like zones need it) still get the log-space posteriors."""
    model = ArticleHMM(topology="interleaved", gap_self_loop=0.6).fit(
        [labels_to_states(["other", "title", "authors", "abstract", "references", "references", "other"])] * 3)
    floored = np.full((2, N_STATES), -np.inf)
    floored[0, S["References"]] = 0.0
    floored[1, [S["Title"], S["References"], S["BR"]]] = [0.0, -650.0, -700.0]
    lost = np.full((70, N_STATES), -30.0)
    lost[:30, S["References"]] = 0.0
    lost[30:, S["Title"]] = 0.0
    for log_emission in (floored, lost):
        best, _, expected = log_space_passes(model, log_emission)
        assert model.decode(log_emission)[0] == pytest.approx(best, rel=1e-12)
        np.testing.assert_allclose(model.posteriors(log_emission), expected, atol=1e-10)


@pytest.mark.parametrize("topology", list(TOPOLOGIES))
@pytest.mark.parametrize("seed", range(40))
def test_no_disallowed_transition_is_decoded(seed, topology):
    rng = np.random.default_rng(seed)
    model = random_fitted_model(rng, topology)
    n = int(rng.integers(20, 300))
    log_emission = rng.normal(scale=float(rng.choice([1.0, 10.0, 100.0])), size=(n, N_STATES))
    if seed % 3 == 0:  # emissions that favour out-of-order states
        log_emission[:, S["AR"]] += 50.0 * (np.arange(n) < n // 2)
    _, path = model.decode(log_emission)
    allowed_start = _allowed_start(model.allowed_transitions_, model.schema)
    assert allowed_start[path[0]]
    assert model.allowed_transitions_[path[:-1], path[1:]].all()
    posteriors = model.posteriors(log_emission)
    assert np.all(posteriors[0, ~allowed_start] == 0.0)
    np.testing.assert_allclose(posteriors.sum(axis=1), 1.0)


TRAINING_PAGES = [
    ["other", "title", "other", "authors", "affiliations", "other", "abstract_heading",
     "abstract", "abstract", "other", "references_heading", "references", "other",
     "references", "references", "other", "other"],
    ["title", "authors", "other", "affiliations", "abstract", "other", "references",
     "references", "other"],
    ["other", "other", "title", "authors", "abstract_heading", "abstract", "other", "other"],
]

MISSING_COMPONENT_PAGES = {
    "no affiliations": ["other", "title", "other", "authors", "other", "abstract_heading",
                        "abstract", "other", "references_heading", "references", "other"],
    "no abstract heading": ["title", "authors", "affiliations", "other", "abstract", "other",
                            "references", "other", "references", "other"],
    "no references": ["other", "title", "authors", "other", "affiliations", "abstract_heading",
                      "abstract", "other", "other"],
    "no title": ["other", "authors", "other", "abstract", "other", "references"],
    "references only": ["references", "other", "other", "references", "other"],
    "no heading before references": ["title", "other", "abstract", "other", "references",
                                     "references", "other"],
    "nothing but other": ["other", "other", "other"],
}


@pytest.mark.parametrize("name", list(MISSING_COMPONENT_PAGES))
def test_missing_components_decode(name):
    labels = MISSING_COMPONENT_PAGES[name]
    model = ArticleHMM().fit(labels_to_states(p) for p in TRAINING_PAGES)
    # Emissions only say which *label* a zone has; the topology must pick the gap states.
    log_emission = np.array([[0.0 if STATE_LABEL[s] == lab else -20.0 for s in STATES]
                             for lab in labels])
    _, path = model.decode(log_emission)
    assert indices_to_states(path) == labels_to_states(labels)
    posteriors = model.posteriors(log_emission)
    np.testing.assert_array_equal(posteriors.argmax(axis=1), path)


def test_split_component_is_dropped_in_fit_and_never_decoded_backwards():
    split = ["title", "authors", "abstract", "other", "abstract", "other", "references"]
    model = ArticleHMM().fit([labels_to_states(split)] + [labels_to_states(p) for p in TRAINING_PAGES])
    assert model.n_dropped_transitions_ == 1  # BARH -> Abstract
    log_emission = np.array([[0.0 if STATE_LABEL[s] == lab else -20.0 for s in STATES] for lab in split])
    _, path = model.decode(log_emission)
    assert transitions(indices_to_states(path)) <= {tuple(ij) for ij in np.argwhere(ALLOWED_TRANSITIONS).tolist()}


def test_impossible_emissions_raise():
    model = ArticleHMM().fit(labels_to_states(p) for p in TRAINING_PAGES)
    log_emission = np.full((2, N_STATES), -np.inf)
    log_emission[0, S["AR"]] = 0.0  # AR cannot start a page
    log_emission[1, S["Title"]] = 0.0
    with pytest.raises(ValueError, match="non-zero probability"):
        model.decode(log_emission)
    with pytest.raises(ValueError, match="non-zero probability"):
        model.posteriors(log_emission)


def test_decode_input_validation():
    model = ArticleHMM().fit(HAND_SEQUENCES)
    with pytest.raises(ValueError, match=r"shape \(n_zones, 16\)"):
        model.decode(np.zeros((3, 15)))
    with pytest.raises(ValueError, match=r"shape \(n_zones, 16\)"):
        model.decode(np.zeros(16))
    bad = np.zeros((3, N_STATES))
    bad[1, 4] = np.nan
    with pytest.raises(ValueError, match=r"NaN in rows \[1\]"):
        model.posteriors(bad)
    bad[1, 4] = np.inf
    with pytest.raises(ValueError, match=r"\+inf in rows \[1\]"):
        model.decode(bad)
    with pytest.raises(NotFittedError):
        ArticleHMM().decode(np.zeros((3, N_STATES)))
    log_prob, path = model.decode(np.zeros((0, N_STATES)))
    assert log_prob == 0.0 and path.shape == (0,)
    assert model.posteriors(np.zeros((0, N_STATES))).shape == (0, N_STATES)


def test_decode_accepts_lists_and_does_not_modify_input():
    model = ArticleHMM().fit(labels_to_states(p) for p in TRAINING_PAGES)
    log_emission = np.random.default_rng(3).normal(size=(6, N_STATES))
    log_emission[:, S["BR"]] = -np.inf
    before = log_emission.copy()
    lp_array, path_array = model.decode(log_emission)
    lp_list, path_list = model.decode(log_emission.tolist())
    np.testing.assert_array_equal(log_emission, before)
    assert lp_array == lp_list
    np.testing.assert_array_equal(path_array, path_list)
    assert S["BR"] not in path_array


def test_clone_and_joblib_round_trip_decode_identically(tmp_path):
    pages = [labels_to_states(p) for p in TRAINING_PAGES]
    model = ArticleHMM(smoothing=0.3).fit(pages)
    log_emission = np.random.default_rng(7).normal(scale=5.0, size=(50, N_STATES))

    cloned = clone(model)
    assert cloned.get_params() == {"smoothing": 0.3, "topology": "strict", "gap_self_loop": None,
                                   "br_self_loop": None, "barh_to_references": None, "affiliations_to_barh": None}
    with pytest.raises(NotFittedError):
        cloned.decode(log_emission)
    cloned.fit(pages)

    joblib.dump(model, tmp_path / "hmm.joblib")
    loaded = joblib.load(tmp_path / "hmm.joblib")

    expected_lp, expected_path = model.decode(log_emission)
    for other in (cloned, loaded):
        lp, path = other.decode(log_emission)
        assert lp == expected_lp
        np.testing.assert_array_equal(path, expected_path)
        np.testing.assert_array_equal(other.posteriors(log_emission),
                                      model.posteriors(log_emission))
        np.testing.assert_array_equal(other.transmat_, model.transmat_)


def test_state_name_helpers_round_trip():
    assert indices_to_states(states_to_indices(STATES)) == list(STATES)
    assert indices_to_states(np.array([0, 1, 15])) == ["PreTitle", "Title", "AR"]
