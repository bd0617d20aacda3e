"""Tests for scilabel.schema: the article model's invariants, adding a label as one edit, and no other
module spelling the model out again."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from scilabel import schema
from scilabel.hmm import _allowed_transitions
from scilabel.schema import (
    ARTICLE,
    ARTICLE_END_MATTER,
    COLLECTION_STATES,
    COMPONENTS,
    FIELD_LABELS,
    GAP,
    GAP_AFTER,
    GAP_STATES,
    LABEL_STATE,
    LABELS,
    MAJOR_LABELS,
    N_STATES,
    STATE_INDEX,
    STATE_LABEL,
    STATES,
    TOPOLOGIES,
    Component,
    EndMatter,
    Topology,
    Schema,
    labels_to_states,
    states_to_labels,
)

ROOT = Path(__file__).resolve().parents[1]


def test_the_papers_states_in_left_to_right_order():
    assert STATES == ("PreTitle", "Title", "BTA", "Authors", "BAA", "Affiliations", "BAAH", "AbstractHeading",
                      "BAHA", "Abstract", "BARH", "ReferenceHeading", "BRHR", "References", "BR", "AR")
    assert N_STATES == len(STATES) == len(STATE_INDEX)
    assert [STATE_INDEX[s] for s in STATES] == list(range(N_STATES))


def test_every_state_emits_a_label_and_every_label_has_a_state():
    assert set(STATE_LABEL) == set(STATES)
    assert set(STATE_LABEL.values()) == set(LABELS)
    assert LABELS == (*MAJOR_LABELS, "other")
    assert set(FIELD_LABELS) == set(MAJOR_LABELS) - {"abstract_heading", "references_heading"}
    for label in MAJOR_LABELS:
        assert STATE_LABEL[LABEL_STATE[label]] == label
    assert [s for s in STATES if STATE_LABEL[s] != "other"] == list(COMPONENTS)


def test_each_component_has_a_gap_state_after_it():
    assert set(GAP) == set(COMPONENTS)
    for component, gap in GAP.items():
        assert gap in STATES and STATE_LABEL[gap] == "other"
        assert STATE_INDEX[gap] > STATE_INDEX[component]
    assert GAP_AFTER[None] == "PreTitle" == STATES[0]
    assert {GAP_AFTER[STATE_LABEL[c]] for c in COMPONENTS} == set(GAP.values())
    assert set(GAP_STATES) == {"PreTitle", *GAP.values()} and "BR" not in GAP_STATES
    assert set(STATES) == {*COMPONENTS, *GAP_STATES, "BR"}


def test_collection_states_are_the_field_states():
    assert COLLECTION_STATES == {label: LABEL_STATE[label] for label in FIELD_LABELS}


@pytest.mark.parametrize("name", list(TOPOLOGIES))
def test_topology_links_name_real_states_and_are_new(name):
    topology = TOPOLOGIES[name]
    index = topology.schema.state_index
    strict = _allowed_transitions("strict", topology.schema)
    for src, dst in topology.links:
        assert src in index and dst in index
        assert not strict[index[src], index[dst]]
    assert set(TOPOLOGIES["interleaved"].links) <= set(TOPOLOGIES["late_affiliations"].links)
    with pytest.raises(ValueError, match="unknown"):
        Topology((("AR", "EndAffiliations"),))


def test_labels_and_states_round_trip():
    rng = np.random.default_rng(0)
    for _ in range(300):
        labels = list(rng.choice(LABELS, size=int(rng.integers(0, 20))))
        states = labels_to_states(labels)
        assert states_to_labels(states) == labels
        assert all(s in STATE_INDEX for s in states)
    assert labels_to_states(states_to_labels(COMPONENTS)) == list(COMPONENTS)
    with pytest.raises(ValueError, match="unknown labels"):
        labels_to_states(["title", "keywords"])


def test_other_zones_take_the_gap_the_page_is_in():
    labels = ["other", "title", "other", "abstract", "affiliations", "other", "references", "other", "references",
              "other"]
    assert labels_to_states(labels) == ["PreTitle", "Title", "BTA", "Abstract", "Affiliations", "BARH", "References",
                                        "BR", "References", "AR"]


# ---------------------------------------------------------------- adding a label


KEYWORDS = Component("Keywords", "keywords", gap="BKR")


def with_keywords() -> Schema:
    """The article schema with a keywords line after the abstract: the one edit adding a label takes."""
    after = MAJOR_LABELS.index("abstract") + 1
    return dataclasses.replace(ARTICLE, components=(*ARTICLE.components[:after], KEYWORDS,
                                                    *ARTICLE.components[after:]))


def test_adding_a_component_is_one_row():
    extended = with_keywords()
    assert extended.labels == ("title", "authors", "affiliations", "abstract_heading", "abstract", "keywords",
                               "references_heading", "references", "other")
    assert len(extended.states) == N_STATES + 2
    assert extended.states[STATE_INDEX["BARH"] + 1:STATE_INDEX["BARH"] + 3] == ("Keywords", "BKR")
    assert extended.state_label["Keywords"] == "keywords" and extended.state_label["BKR"] == "other"
    assert extended.label_state["keywords"] == "Keywords"
    assert extended.collection_states["keywords"] == "Keywords"
    assert extended.gap_after["keywords"] == "BKR"
    assert extended.labels_to_states(["title", "abstract", "other", "keywords", "other", "references"]) == [
        "Title", "Abstract", "BARH", "Keywords", "BKR", "References"]
    assert extended.states_to_labels(["Keywords", "BKR"]) == ["keywords", "other"]
    allowed = _allowed_transitions("strict", extended)
    index = extended.state_index

    def link(a: str, b: str) -> bool:
        return bool(allowed[index[a], index[b]])

    assert link("Abstract", "Keywords") and link("BARH", "Keywords") and link("Keywords", "BKR")
    assert link("BKR", "ReferenceHeading") and link("Keywords", "References") and link("PreTitle", "Keywords")
    assert not link("Keywords", "Abstract") and not link("BKR", "Abstract")
    assert len(STATES) == N_STATES  # the article schema itself is untouched


@pytest.mark.parametrize("component, message", [
    (Component("Title", "keywords", gap="BKR"), "state must be named once"),
    (Component("Keywords", "title", gap="BKR"), "label must be named once"),
    (Component("Keywords", "keywords", gap="BTA"), "state must be named once"),
    (Component("Keywords", "other", gap="BKR"), "label must be named once"),
])
def test_a_schema_names_each_label_and_state_once(component, message):
    with pytest.raises(ValueError, match=message):
        Schema(components=(*ARTICLE.components, component))
    with pytest.raises(ValueError, match="late pairs"):
        Schema(components=ARTICLE.components, late=(("keywords", "abstract"),))


# ---------------------------------------------------------------- written once

#: The sets the schema names; no other module may spell one of them out.
SCHEMA_SETS = {name: frozenset(getattr(schema, name)) for name in (
    "LABELS", "MAJOR_LABELS", "FIELD_LABELS", "STATES", "COMPONENTS", "GAP_STATES")}
SCHEMA_SETS["FIELD_LABELS + other"] = frozenset((*FIELD_LABELS, "other"))


def spelled_out_sets(source: str) -> list[tuple[int, str]]:
    """(line, schema set) for every tuple, list or set display in ``source`` whose strings are one of
    :data:`SCHEMA_SETS`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            strings = frozenset(e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
            found += [(node.lineno, name) for name, names in SCHEMA_SETS.items() if strings == names]
    return found


def test_the_scan_finds_a_spelled_out_set():
    assert spelled_out_sets('FIELDS = ("title", "authors", "affiliations", "abstract", "references", "other")\n'
                            'x = frozenset({"title", "authors", "affiliations", "abstract", "references"})') == [
        (1, "FIELD_LABELS + other"), (2, "FIELD_LABELS")]
    assert spelled_out_sets('pair = ("title", "authors")') == []


def test_no_module_but_the_schema_spells_out_labels_or_states():
    files = [p for p in (ROOT / "scilabel").rglob("*.py") if p.name != "schema.py"]
    files += [*(ROOT / "benchmarks").glob("*.py"), ROOT / "train.py", ROOT / "evaluate.py"]
    offenders = {str(p.relative_to(ROOT)): hits for p in files if p.is_file()
                 if (hits := spelled_out_sets(p.read_text(encoding="utf-8")))}
    assert offenders == {}


# ---------------------------------------------------------------- end matter

#: The end matter with the byline's names as a component of their own: adding one is one row.
WITH_END_AUTHORS = dataclasses.replace(ARTICLE, end_matter=EndMatter(
    states=(("authors", "EndAuthors"), ("affiliations", "EndAffiliations")), loop="BEM"))


def test_end_matter_states_follow_the_emission_states_and_read_their_components():
    end = ARTICLE_END_MATTER
    assert end.emission_states == STATES and end.states == (*STATES, *end.end_states, *end.translation_states)
    assert end.translation_states == ("TransTitle", "TransAbstractHeading", "TransAbstract")
    assert end.end_states == ("EndAffiliations", "BEM")
    assert end.labels == LABELS and end.gap_states == (*GAP_STATES, "BEM") and end.label_state == LABEL_STATE
    for schema in (end, WITH_END_AUTHORS):
        for state in schema.states:
            read = schema.emission_state[state]
            emitted = "other" if state in schema.translation_states else STATE_LABEL[read]  # a translation's
            assert read in STATES and schema.state_label[state] == emitted
            assert schema.emission_columns[schema.state_index[state]][0] == STATE_INDEX[read]
            assert LABELS[schema.label_position[schema.state_index[state]]] == schema.state_label[state]
    assert end.emission_state["EndAffiliations"] == "Affiliations" and end.emission_state["BEM"] == "AR"
    # the loop state also reads the byline's names (repeats); without repeats only its own column
    assert end.emission_columns[end.state_index["BEM"]] == (STATE_INDEX["AR"], STATE_INDEX["Authors"])
    assert WITH_END_AUTHORS.emission_columns[-3:] == ((STATE_INDEX["Authors"],), (STATE_INDEX["Affiliations"],),
                                                      (STATE_INDEX["AR"],))
    assert ARTICLE.end_states == () and ARTICLE.emission_columns == tuple((i,) for i in range(N_STATES))


def test_end_matter_labels_map_to_their_own_states_after_the_references():
    labels = ["title", "authors", "affiliations", "abstract", "other", "references", "other", "references", "other",
              "affiliations", "other", "other", "affiliations", "authors", "other", "other"]
    assert ARTICLE_END_MATTER.labels_to_states(labels) == [
        "Title", "Authors", "Affiliations", "Abstract", "BARH", "References", "BR", "References", "AR",
        "EndAffiliations", "BEM", "BEM", "EndAffiliations", "Authors", "BAA", "BAA"]
    assert WITH_END_AUTHORS.labels_to_states(labels)[9:] == [
        "EndAffiliations", "BEM", "BEM", "EndAffiliations", "EndAuthors", "AR", "AR"]
    # without end matter the same page goes back to the byline's states
    assert labels_to_states(labels)[9:14] == ["Affiliations", "BARH", "BARH", "Affiliations", "Authors"]
    # before any reference, authors and affiliations are the byline's
    assert ARTICLE_END_MATTER.labels_to_states(["title", "abstract", "affiliations", "other"]) == labels_to_states(
        ["title", "abstract", "affiliations", "other"])


@pytest.mark.parametrize("schema", [ARTICLE_END_MATTER, WITH_END_AUTHORS])
def test_end_matter_labels_and_states_round_trip(schema):
    rng = np.random.default_rng(1)
    for _ in range(300):
        labels = list(rng.choice(LABELS, size=int(rng.integers(0, 20))))
        states = schema.labels_to_states(labels)
        assert schema.states_to_labels(states) == labels
        assert all(s in schema.state_index for s in states)


def test_end_matter_must_name_component_labels():
    with pytest.raises(ValueError, match="end matter must name component labels"):
        dataclasses.replace(ARTICLE, end_matter=EndMatter(states=(("keywords", "EndKeywords"),), loop="BEM"))
    with pytest.raises(ValueError, match="end matter must name component labels"):
        dataclasses.replace(ARTICLE, end_matter=EndMatter(states=(), loop="BEM", repeats=("keywords",)))
    with pytest.raises(ValueError, match="state must be named once"):
        dataclasses.replace(ARTICLE, end_matter=EndMatter(states=(("authors", "Authors"),), loop="BEM"))
