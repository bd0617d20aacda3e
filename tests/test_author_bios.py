"""Authors' biographies ("About the authors", "Contributor's note"): the page's addresses when it
prints no other list, a second telling of them when it does (the ``author_bio`` fallback rule)."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from scilabel.constraints import author_bios
from scilabel.emission import NaiveBayesEmission
from scilabel.labeler import ZoneLabeler
from scilabel.rules.vetoes import DEFAULT_VETOES, Fallback, Veto, fallbacks, without
from scilabel.schema import STATE_INDEX, STATES

NAMES = ["Ana Silva", "Bo Chen"]
ADDRESSES = ["Department of Biology, Lund University, Lund, Sweden",
             "School of Agriculture, University of Reading, Reading, United Kingdom"]
BIOS = ["Ana Silva is with the Department of Biology and the Lund University in Lund, Sweden",
        "Bo Chen is with the School of Agriculture and the University of Reading in Reading, United Kingdom"]
BODY = ("we measured root length in the samples which were collected in the field and analysed using the "
        "method described before")


def rows(page: str, labelled: list[tuple[str, str]], sizes: dict[int, float] | None = None) -> list[dict]:
    """A zones frame's rows: one zone per (text, label), one above the other (16 px unless ``sizes``)."""
    sizes = sizes or {}
    return [{"document": page, "text": text, "label": label, "x": 40.0, "y": 40.0 * k, "w": 600.0, "h": 19.0,
             "font_size": sizes.get(k, 16.0), "font_weight": 400, "link_chars": 0, "sup_chars": 0,
             "italic_chars": 0} for k, (text, label) in enumerate(labelled)]


def article(k: int, addresses: bool = True, bios: str | None = None, end_matter: bool = False
            ) -> list[tuple[str, str]]:
    """Title, byline (and its addresses, there or after the references), abstract, body, references,
    then a biography block or not."""
    page = [("Home Journals About", "other"), (f"Effects of drought on root growth in field beans {k}", "title"),
            (", ".join(NAMES), "authors")]
    page += [(a, "affiliations") for a in ADDRESSES] if addresses and not end_matter else []
    page += [("Abstract", "abstract_heading"), (BODY + " the results suggest drought limits growth", "abstract")]
    page += [(BODY, "other")] * 3 + [("References", "references_heading")]
    page += [(f"{j}. Smith J, Lee K. Root growth in dry soil. J Bot. {1990 + j};{j}:1-9.", "references")
             for j in range(1, 6)]
    if end_matter:
        page += [("Author information", "other")] + [(a, "affiliations") for a in ADDRESSES]
    if bios:
        page += [(bios, "other")] + [(bio, "other") for bio in BIOS]
    return page + [("Journal of Field Botany, 12 Garden Road, Lund, Sweden", "other"),
                   ("© 2024 Example Press", "other")]


@pytest.fixture(scope="module")
def labeler() -> ZoneLabeler:
    pages = pd.DataFrame([r for k in range(24) for r in rows(f"p{k}", article(k, end_matter=k % 3 == 0))])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ZoneLabeler(emission=NaiveBayesEmission(layout=("n_words",), n_bins=3)).fit(pages)


def page(addresses: bool, caption: str = "About the authors") -> pd.DataFrame:
    return pd.DataFrame(rows("new", article(99, addresses=addresses, bios=caption)))


def test_the_biographies_under_their_caption_are_found_and_nothing_else():
    frame = page(addresses=False)
    texts = frame["text"].tolist()
    found = [texts[i] for i in np.flatnonzero(author_bios(frame))]
    assert found == BIOS  # not the caption, the journal's own address or the copyright line below
    for caption in ("Contributor's Note", "Notes on contributors", "Author Biographies", "ABOUT THE AUTHORS"):
        assert author_bios(page(addresses=False, caption=caption)).sum() == 2
    for caption in ("Author information", "Acknowledgements", "About the journal"):
        assert not author_bios(page(addresses=False, caption=caption)).any()
    linked = page(addresses=False)
    linked.loc[linked["text"] == "About the authors", "link_chars"] = len("About the authors")
    assert not author_bios(linked).any()  # a link to a page about the authors
    heading = pd.DataFrame(rows("h", [("About the authors", "other"), (BIOS[0], "other"),
                                      ("Related articles", "other"), (BIOS[1], "other")], sizes={2: 24.0}))
    assert author_bios(heading).tolist() == [False, True, False, False]  # the block ends at a heading


def test_a_fallback_favours_where_the_page_shows_the_label_nowhere_else_and_bars_where_it_does():
    where = np.array([False, True, True, False])
    rule = Fallback(where, (STATE_INDEX["Affiliations"],), ("affiliations",), 10.0)
    assert rule.favours(found=np.array([False, True, False, False]))  # found only where it holds
    assert not rule.favours(found=np.array([True, False, False, False]))
    log_emission = np.zeros((4, len(STATES)))
    rule.apply(log_emission, favour=True)
    assert log_emission[:, STATE_INDEX["Affiliations"]].tolist() == [0.0, 10.0, 10.0, 0.0]
    log_emission = np.zeros((4, len(STATES)))
    rule.apply(log_emission, favour=False)
    assert log_emission[:, STATE_INDEX["Affiliations"]].tolist() == [0.0, -np.inf, -np.inf, 0.0]
    assert (np.delete(log_emission, STATE_INDEX["Affiliations"], axis=1) == 0).all()
    # the table's rule is found where its predicate holds, and only there
    frame = page(addresses=False)
    (bio_rule,) = fallbacks(DEFAULT_VETOES, frame)
    assert bio_rule.where.tolist() == author_bios(frame).tolist() and bio_rule.by > 0
    assert bio_rule.labels == ("affiliations",)
    assert fallbacks(DEFAULT_VETOES, pd.DataFrame(rows("n", article(1)))) == []


def test_a_fallback_is_checked_when_written():
    with pytest.raises(ValueError, match="fallback"):
        Veto("bad", author_bios, bars=("Title",), fallback=True)
    with pytest.raises(ValueError, match="favours"):
        Veto("bad", author_bios, fallback=True)
    assert "fallback=True" in repr([v for v in DEFAULT_VETOES if v.name == "author_bio"][0])


def test_the_biographies_are_the_addresses_of_a_page_that_prints_no_other(labeler):
    frame = page(addresses=False)
    bios = np.flatnonzero(frame["text"].isin(BIOS))
    labels = labeler.predict(frame)
    assert labels[bios].tolist() == ["affiliations"] * 2
    assert (labels[~frame["text"].isin(BIOS)] != "affiliations").all()
    assert labels[frame["text"] == ", ".join(NAMES)].tolist() == ["authors"]
    assert (labels[frame["text"].str.contains("J Bot")] == "references").all()
    proba = labeler.predict_proba(frame)
    assert (proba[bios, list(labeler.classes_).index("affiliations")] > 0.5).all()
    plain = labeler.set_params(vetoes=without(DEFAULT_VETOES, "author_bio"))
    try:  # without the rule the lone biographies after the references stay in the gap
        assert "affiliations" not in plain.predict(frame)[bios].tolist()
    finally:
        labeler.set_params(vetoes=DEFAULT_VETOES)


def test_the_biographies_are_no_second_address_list(labeler):
    frame = page(addresses=True)
    bios = frame["text"].isin(BIOS).to_numpy()
    labels = labeler.predict(frame)
    assert labels[frame["text"].isin(ADDRESSES)].tolist() == ["affiliations"] * 2
    assert "affiliations" not in labels[bios].tolist()
    column = list(labeler.classes_).index("affiliations")
    assert (labeler.predict_proba(frame)[bios, column] == 0).all()  # barred, not merely unlikely
    plain = labeler.set_params(vetoes=without(DEFAULT_VETOES, "author_bio"))
    try:
        assert (plain.predict_proba(frame)[bios, column] > 0).all()
    finally:
        labeler.set_params(vetoes=DEFAULT_VETOES)


def test_a_favour_that_would_move_the_rest_of_the_page_is_withdrawn(labeler):
    """Biographies before the reference list of a page with no byline: taking them moves the path's
    other labels (here the reference heading), so the fallback keeps the first decoding; a plain
    favour of the same zones takes them and moves the rest."""
    page = [("Home Journals About", "other"), (BODY + " the results suggest drought limits growth", "other")]
    page += [(BODY, "other")] * 3 + [("About the authors", "other")] + [(bio, "other") for bio in BIOS]
    page += [("References", "other")] + [(f"{j}. Smith J, Lee K. Root growth in dry soil. J Bot. {1990 + j};{j}:1-9.",
                                         "other") for j in range(1, 6)]
    frame = pd.DataFrame(rows("early", page))
    bios = frame["text"].isin(BIOS).to_numpy()
    rest = without(DEFAULT_VETOES, "author_bio")
    try:
        plain = labeler.set_params(vetoes=rest).predict(frame)
        favoured = labeler.set_params(vetoes=(*rest, Veto("bio", author_bios, favours=("Affiliations",), by=300.0))
                                      ).predict(frame)
        fallback = labeler.set_params(vetoes=(*rest, Veto("bio", author_bios, favours=("Affiliations",), by=300.0,
                                                          fallback=True))).predict(frame)
    finally:
        labeler.set_params(vetoes=DEFAULT_VETOES)
    assert favoured[bios].tolist() == ["affiliations"] * 2 and (favoured[~bios] != plain[~bios]).any()
    assert fallback.tolist() == plain.tolist()
