"""The end-matter topology: authors and affiliations printed again after the references (Springer's
"Authors and Affiliations", Nature's "Author information") decode in states of their own, whose links
are counted from the training pages."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from scilabel.emission import NaiveBayesEmission
from scilabel.hmm import ArticleHMM
from scilabel.labeler import ZoneLabeler
from scilabel.schema import ARTICLE_END_MATTER, STATE_INDEX, STATES

SCHEMA = ARTICLE_END_MATTER
INDEX = SCHEMA.state_index
AFFILIATIONS = ["Department of Biology, Lund University, Lund, Sweden",
                "Institute of Plant Science, Uppsala University, Uppsala, Sweden",
                "School of Agriculture, University of Reading, Reading, United Kingdom"]
NAMES = ["Ana Silva", "Bo Chen", "Carl Dahl"]
BODY = ("we measured root length in the samples which were collected in the field and analysed using the "
        "method described before")


def rows(page: str, labelled: list[tuple[str, str]]) -> list[dict]:
    """A zones frame's rows: one zone per (text, label), one above the other."""
    return [{"document": page, "text": text, "label": label, "x": 40.0, "y": 40.0 * k, "w": 600.0, "h": 19.0,
             "font_size": 16.0, "font_weight": 400, "link_chars": 0, "sup_chars": 0, "italic_chars": 0}
            for k, (text, label) in enumerate(labelled)]


def article(k: int, end_matter: bool) -> list[tuple[str, str]]:
    """A page: title, byline (with its affiliations unless they are in the end matter), abstract, body,
    references, then the end matter (addresses between the names, which are the byline's again) or a footer."""
    affiliations = [AFFILIATIONS[(k + j) % 3] for j in range(3)]
    page = [("Home Journals About", "other"), (f"Effects of drought on root growth in field beans {k}", "title"),
            (", ".join(NAMES), "authors")]
    page += [] if end_matter else [(a, "affiliations") for a in affiliations]
    page += [("Abstract", "abstract_heading"), (BODY + " the results suggest drought limits growth", "abstract")]
    page += [(BODY, "other")] * 3 + [("References", "references_heading")]
    page += [(f"{j}. Smith J, Lee K. Root growth in dry soil. J Bot. {1990 + j};{j}:1-9.", "references")
             for j in range(1, 6)]
    if end_matter:
        page += [("Author information", "other")]
        for name, affiliation in zip(NAMES, affiliations):
            page += [(affiliation, "affiliations"), (name, "other")]
    return page + [("© 2024 Example Press", "other")]


@pytest.fixture(scope="module")
def training_pages() -> pd.DataFrame:
    return pd.DataFrame([r for k in range(24) for r in rows(f"p{k}", article(k, end_matter=k % 3 == 0))])


def fit(pages: pd.DataFrame, topology: str) -> ZoneLabeler:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ZoneLabeler(emission=NaiveBayesEmission(layout=("n_words",), n_bins=3), topology=topology).fit(pages)


END_MATTER_PAGE = """<!doctype html><html><head><title>Roots</title></head><body style="font-size:16px">
<nav>Home Journals About</nav>
<h1>Effects of drought on root growth in field beans</h1>
<p>Ana Silva, Bo Chen and Carl Dahl</p>
<h2>Abstract</h2>
<p>We measured root length in the samples which were collected in the field and analysed using the method
described before; the results suggest drought limits growth.</p>
<p>We measured root length in the samples which were collected in the field and analysed.</p>
<p>The samples were collected in the field and analysed using the method described before.</p>
<h2>References</h2>
<ol><li>Smith J, Lee K. Root growth in dry soil. J Bot. 1991;1:1-9.</li>
<li>Smith J, Lee K. Root growth in dry soil. J Bot. 1992;2:1-9.</li>
<li>Smith J, Lee K. Root growth in dry soil. J Bot. 1993;3:1-9.</li></ol>
<h2>Author information</h2>
<p>Department of Biology, Lund University, Lund, Sweden</p>
<p>Ana Silva</p>
<p>School of Agriculture, University of Reading, Reading, United Kingdom</p>
<p>Bo Chen</p>
<footer>© 2024 Example Press</footer>
</body></html>"""


def test_an_author_information_block_after_the_references_decodes_as_affiliations(reader, training_pages):
    zones = reader.read(END_MATTER_PAGE).zones
    texts = zones["text"].tolist()
    addresses = [i for i, t in enumerate(texts) if "University" in t]
    assert len(addresses) == 2 and addresses[0] > max(i for i, t in enumerate(texts) if "Smith J" in t)
    end_matter = fit(training_pages, "end_matter")
    decoded = end_matter.label_pages(zones)[0]
    assert [decoded.labels[i] for i in addresses] == ["affiliations"] * 2
    assert [decoded.states[i] for i in addresses] == ["EndAffiliations"] * 2
    assert [decoded.labels[i] for i, t in enumerate(texts) if "Smith J" in t] == ["references"] * 3
    assert decoded.labels[texts.index("Ana Silva")] == "other"  # the byline's names again
    assert decoded.labels[texts.index("Ana Silva, Bo Chen and Carl Dahl")] == "authors"
    proba = end_matter.predict_proba(zones)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (proba[addresses, 2] > 0.5).all()  # affiliations, the third label
    # the late_affiliations chain cannot go back to the byline's states after the references
    late = fit(training_pages, "late_affiliations").label_pages(zones)[0]
    assert [late.labels[i] for i in addresses] != ["affiliations"] * 2


def test_the_end_matter_links_are_counted_from_the_training_pages(training_pages):
    labeler = fit(training_pages, "end_matter")
    late = fit(training_pages, "late_affiliations")
    # 8 pages with end matter: late_affiliations drops AR -> Affiliations on each
    assert labeler.training_summary_["dropped_transitions"] == 0
    assert late.training_summary_["dropped_transitions"] == 8
    T = labeler.hmm_.transmat_
    # each end matter: AR -> EndAffiliations, twice EndAffiliations -> BEM -> EndAffiliations, then back to AR
    assert T[INDEX["EndAffiliations"], INDEX["BEM"]] > T[INDEX["EndAffiliations"], INDEX["AR"]] > 0
    # a gap: BEM keeps gap_self_loop, its one exit the rest
    assert T[INDEX["BEM"], INDEX["BEM"]] == pytest.approx(0.6)
    assert T[INDEX["BEM"], INDEX["EndAffiliations"]] == pytest.approx(0.4)
    # the emissions are the article's sixteen states: the end matter reads the byline's columns
    assert labeler.emission_.log_likelihood(training_pages.iloc[:3]).shape == (3, len(STATES))


def test_ar_keeps_its_counted_exits_under_the_gap_self_loop():
    """AR, the gap after the references, is left only for the end matter. Under ``gap_self_loop`` its row
    keeps the counted rates (few pages go on after their references) and staying costs log p a zone,
    through its emissions, as when AR was absorbing."""
    with_end = ["title", "references", "other", "other", "affiliations", "other"]
    plain = ["title", "references"] + ["other"] * 8
    sequences = [SCHEMA.labels_to_states(p) for p in [with_end] + [plain] * 9]
    counted = ArticleHMM(topology="end_matter").fit(sequences)
    tied = ArticleHMM(topology="end_matter", gap_self_loop=0.6).fit(sequences)
    ar = INDEX["AR"]
    np.testing.assert_array_equal(tied.transmat_[ar], counted.transmat_[ar])
    # AR -> AR 1 + 9 * 7, AR -> EndAffiliations 1; one pseudo-count on each
    assert counted.transmat_[ar, INDEX["EndAffiliations"]] == pytest.approx(2 / 67)
    assert tied.log_emission_offset_[ar] == pytest.approx(np.log(0.6) - np.log(65 / 67))
    assert tied.transmat_[INDEX["BARH"], INDEX["BARH"]] == pytest.approx(0.6)
    assert tied.log_emission_offset_[STATE_INDEX["BARH"]] == 0.0


def test_an_end_matter_state_is_barred_where_its_component_is():
    """The end-matter states read their component's emission column, vetoes (-inf) included."""
    pages = [SCHEMA.labels_to_states(["title", "references", "other", "affiliations", "other"])] * 3
    model = ArticleHMM(topology="end_matter", gap_self_loop=0.6).fit(pages)
    log_emission = np.full((5, len(STATES)), -5.0)
    for i, state in enumerate(["Title", "References", "AR", "Affiliations", "AR"]):
        log_emission[i, STATE_INDEX[state]] = 5.0
    path = [SCHEMA.states[i] for i in model.decode(log_emission)[1]]
    assert path == ["Title", "References", "AR", "EndAffiliations", "AR"]
    log_emission[3, STATE_INDEX["Affiliations"]] = -np.inf
    path = [SCHEMA.states[i] for i in model.decode(log_emission)[1]]
    assert "EndAffiliations" not in path and model.posteriors(log_emission)[3, INDEX["EndAffiliations"]] == 0.0


def test_an_author_panel_at_the_top_is_no_end_matter(monkeypatch):
    """A byline panel of fifteen names, each with its address and a "Search for more papers by this author"
    line, on a page without a reference list (a Wiley landing page). Trained on bylines that do not
    alternate and on end matter that does, the cheapest single path takes one zone as the reference list
    and reads the panel as end matter; the end matter looked for after the references found without it
    keeps the byline."""
    byline = ["other", "title", "authors", "affiliations", "other", "abstract"] + ["other"] * 6 + ["references"] * 6
    end = ["other", "title", "authors", "other", "abstract"] + ["other"] * 6 + ["references"] * 6 + [
        "other", "affiliations", "other", "affiliations", "other", "affiliations", "other"]
    model = ArticleHMM(topology="end_matter", gap_self_loop=0.6, br_self_loop=0.4).fit(
        SCHEMA.labels_to_states(p) for p in [byline] * 10 + [end] * 10)
    log_emission = np.zeros((60, len(STATES)))
    log_emission[:, [STATE_INDEX[s] for s in SCHEMA.component_states]] = -6.0
    log_emission[0, STATE_INDEX["Title"]] = 8.0
    for k in range(15):
        log_emission[1 + 3 * k, STATE_INDEX["Authors"]] = 4.0
        log_emission[2 + 3 * k, STATE_INDEX["Affiliations"]] = 6.0
    log_emission[47, STATE_INDEX["Abstract"]] = 3.0
    log_emission[55, STATE_INDEX["References"]] = 1.0  # a citation-like line, no list
    path = [SCHEMA.states[i] for i in model.decode(log_emission)[1]]
    assert path[1:4] == ["Authors", "Affiliations", "BAAH"] and path[47] == "Abstract"
    assert not set(SCHEMA.end_states) & set(path)
    monkeypatch.setattr(ArticleHMM, "_end_matter_after_references", lambda self, X: X)
    single = [SCHEMA.states[i] for i in model.decode(log_emission)[1]]
    assert single[3:6] == ["References", "AR", "EndAffiliations"] and "Abstract" not in single


def test_a_late_byline_caption_opens_the_end_matter_for_a_lone_address():
    """Springer's "Authors and Affiliations" after the references: the names again, then one address.
    Entering the end matter is counted per zone of the long gap after the references, so an address
    the emission favours by 4 nats cannot pay the way in and out; the caption's block can."""
    from scilabel.rules.vetoes import DEFAULT_VETOES, apply_vetoes

    plain = ["title", "references", "references"] + ["other"] * 40
    late = ["title", "references", "references"] + ["other"] * 20 + ["affiliations"] + ["other"] * 19
    model = ArticleHMM(topology="end_matter", gap_self_loop=0.6).fit(
        SCHEMA.labels_to_states(p) for p in [plain] * 9 + [late])
    texts = ["Roots in dry soil", "Smith J. Roots. J Bot. 1991;1:1-9.", "Lee K. Roots. J Bot. 1992;2:1-9.",
             "Copyright information", "© 2014 Example Press", "Authors and Affiliations", "Xiaoping Ma", "1",
             "1.Shenyang National Laboratory for Materials Science, Shenyang, China", "About this article",
             "Print ISSN"]
    sizes = [24, 12, 12, 18, 12, 18, 12, 12, 12, 18, 12]
    zones = {"text": np.array(texts, dtype=object), "font_size": np.array(sizes, dtype=float),
             "font_weight": np.full(len(texts), 400.0), "link_chars": np.zeros(len(texts))}
    log_emission = np.zeros((len(texts), len(STATES)))
    log_emission[:, [STATE_INDEX[s] for s in SCHEMA.component_states]] = -6.0
    log_emission[0, STATE_INDEX["Title"]] = 6.0
    log_emission[[1, 2], STATE_INDEX["References"]] = 6.0
    log_emission[8, STATE_INDEX["Affiliations"]] = 4.0
    caption = [veto for veto in DEFAULT_VETOES if veto.name == "end_matter_caption"]
    for vetoes, address_state in (((), "AR"), (caption, "EndAffiliations")):
        favoured = log_emission.copy()
        apply_vetoes(vetoes, favoured, zones)
        path = [SCHEMA.states[i] for i in model.decode(favoured)[1]]
        assert path[8] == address_state
        assert path[6] == path[7] == path[9] != "EndAffiliations"  # the names and the next heading stay out
