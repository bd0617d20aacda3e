"""Zone features, line units and the fast paths that must equal their scikit-learn references."""
from __future__ import annotations


import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.svm import LinearSVC

from scilabel.emission import SVMEmission
from scilabel.featurizer import ZoneFeaturizer
from scilabel.features import LAYOUT_FEATURES, ZoneArrays, layout_features, term_counts, tokenize
from scilabel.lines import LONE_MARKER, line_units, merge_units
from scilabel.schema import STATE_LABEL

TEXTS = [
    "Effects of Drought on Root Growth (2019)",
    "Ana Silva1,2, Bo Chen* and Carl Dahl",
    "Contact: ana.silva@lund.se, see https://example.org/x or doi 10.1000/abc.9",
    "",
    "1. Smith J, Lee K. Root growth. J Bot. 1999;12:1-9. 1234567",
    "Ünïcode wörds — dash · dot",
    "line one\nline two",
]


def zone(text, y, x=40.0, w=600.0, h=19.2, size=16.0, weight=400, document="p", label="other"):
    return {"text": text, "x": x, "y": float(y), "w": w, "h": h, "font_size": size, "font_weight": weight,
            "link_chars": 0, "sup_chars": 0, "italic_chars": 0, "document": document, "label": label}


def test_tokenize_shapes_numbers_and_patterns():
    assert tokenize("Ana Silva1,2 in 2019; ID 1234567") == [
        "ana", "silva", "0", ",", "0", "in", "0000", ";", "id", "00000"]
    assert tokenize("Mail a.b@c.org or http://x.y/z, 10.1000/abc") == ["mail", "<email>", "or", "<url>", "<doi>"]


def test_term_counts_equal_count_vectorizer():
    vectorizer = CountVectorizer(analyzer=tokenize, min_df=1).fit(TEXTS)
    expected = vectorizer.transform(TEXTS).toarray()
    np.testing.assert_array_equal(term_counts(TEXTS, vectorizer.vocabulary_).toarray(), expected)
    assert term_counts([], vectorizer.vocabulary_).shape == (0, len(vectorizer.vocabulary_))


def test_featurizer_words_equal_tfidf_vectorizer():
    frame = pd.DataFrame([zone(t, 40 * i) for i, t in enumerate(TEXTS)])
    featurizer = ZoneFeaturizer(min_df=1).fit(frame)
    words = featurizer.transform(frame)[:, : len(featurizer.words_.vocabulary_)].toarray()
    np.testing.assert_allclose(words, featurizer.words_.transform(frame["text"]).toarray(), atol=1e-12)
    assert featurizer.transform(frame).shape[1] == len(featurizer.get_feature_names_out())
    with pytest.raises(ValueError, match="unknown layout features"):
        ZoneFeaturizer(layout=("top", "colour")).fit(frame)


def test_dense_features_are_clipped_so_one_extreme_value_cannot_outvote_the_rest():
    frame = pd.DataFrame([zone(t, 40 * i) for i, t in enumerate(TEXTS)] * 3
                         + [{**zone("Co 2+", 900), "sup_chars": 2}])
    sup = list(ZoneFeaturizer().layout).index("sup")
    clipped = ZoneFeaturizer(min_df=1, clip=2.0).fit(frame)
    unclipped = ZoneFeaturizer(min_df=1, clip=None).fit(frame)
    assert unclipped.transform_blocks(frame)[1][-1, sup] > 4.0  # one zone among 22 with superscripts
    dense = clipped.transform_blocks(frame)[1]
    assert dense[-1, sup] == 2.0 and np.abs(dense).max() <= 2.0


def test_position_is_read_within_the_zones_text_column():
    page = pd.DataFrame({"text": ["left column line", "right column line"], "x": [150.0, 690.0], "y": [300.0, 300.0],
                         "w": [500.0, 500.0], "h": [20.0, 20.0], "font_size": 16.0, "font_weight": 400,
                         "link_chars": 0, "sup_chars": 0, "italic_chars": 0, "document": "d", "page_width": 1280.0})
    names = ["left", "x_rel"]
    plain = layout_features(page)[names].to_numpy()
    assert plain[1, 0] == 690 and plain[1, 1] == pytest.approx(690 / 1280)  # a frame without offsets: the page's x
    offset = layout_features(page.assign(column_offset=[0.0, 540.0]))[names].to_numpy()
    assert offset[0] == pytest.approx(offset[1]) and offset[1, 0] == 150  # the right column reads like the left


def test_heading_cues_look_at_the_previous_zone_of_the_same_page():
    rows = [zone("Home", 0), zone("Abstract", 40, weight=700), zone("We measured things " * 5, 80),
            zone("References", 120), zone("1. Smith J. Roots. 1999.", 160),
            zone("An abstract of many more than four words here", 200), zone("Next", 240),
            zone("Body on the next page", 0, document="q")]
    table = layout_features(pd.DataFrame(rows))
    assert list(table.columns) == list(LAYOUT_FEATURES)
    assert table["prev_abstract_cue"].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert table["prev_references_cue"].tolist() == [0, 0, 0, 0, 1, 0, 0, 0]
    # a tab or a contents entry (a link) is no heading: "Abstract | Article | References" marks nothing
    tabs = [dict(zone(text, 40 * i), link_chars=len(text)) for i, text in enumerate(["Abstract", "Article",
                                                                                     "References", "Cited By"])]
    tabbed = layout_features(pd.DataFrame(tabs))
    assert tabbed["prev_abstract_cue"].sum() == 0 and tabbed["prev_references_cue"].sum() == 0
    # the same features whatever the row order of the pages
    rows.insert(0, rows.pop())
    shuffled = layout_features(pd.DataFrame(rows))
    assert shuffled["prev_abstract_cue"].tolist() == [0, 0, 0, 1, 0, 0, 0, 0]


def test_related_cue_marks_the_related_block_after_the_article():
    texts = ["Related", "Sidebar link one", "Title of an article", "Body text of many words here", "References",
             "Smith J. Roots. 1999.", "Related articles", "Another title of a paper", "Feller C, Farcot E, Mazza C",
             "Abstract", "Body under the heading", "Related work", "More body text"]
    rows = [zone(text, 40 * i) for i, text in enumerate(texts)] + [zone("Feller C, Farcot E", 0, document="q")]
    table = layout_features(pd.DataFrame(rows))
    # a related menu item in the first half of the page, set as body text, marks nothing; "Abstract"
    # ends the block; "Related work" is no related heading; a page starts outside any block
    assert table["after_related_cue"].tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]


def test_related_sidebar_before_the_article_ends_where_larger_type_starts():
    sidebar = [zone("related articles", 40, weight=700), zone("Eddy current thermography of steel", 80),
               zone("Ana Silva, Bo Chen and Carl Dahl", 120), zone("more...", 160)]
    article = [zone("Pulsed thermography of composite plates", 200, size=32.0), zone("Dan Eck and Eva Fors", 240)]
    body = [zone("We measured the plates with a camera " * 6, 280 + 40 * i) for i in range(8)]
    table = layout_features(pd.DataFrame(sidebar + article + body))
    assert table["after_related_cue"].tolist()[:7] == [0, 1, 1, 1, 0, 0, 0]
    # unstyled, the title is body type: the first paragraph of prose ends the block
    plain = [dict(row, font_size=16.0) for row in article]
    table = layout_features(pd.DataFrame(sidebar + plain + body))
    assert table["after_related_cue"].tolist()[:8] == [0, 1, 1, 1, 1, 1, 0, 0]
    # a tab (a link) or a menu item in body type opens no block: the byline under it stays unmarked
    for heading in (dict(zone("Related content", 40, weight=700), link_chars=15), zone("Related", 40)):
        table = layout_features(pd.DataFrame([heading] + sidebar[1:] + article + body))
        assert table["after_related_cue"].sum() == 0


def test_first_prose_marks_the_first_paragraph_of_each_page_only():
    paragraph = "we measured the roots of twelve plants in dry soil and found that they grew deeper " * 2
    names = "Ana Silva, Bo Chen, Carl Dahl, Dana Ek, Eva Fors, Finn Gram, Gry Holm, Hans Isak, Ida Juhl, Jon Kvist"
    texts = ["Home | About | Contact", names * 2, "Abstract", paragraph, "Introduction", paragraph + "again"]
    rows = [zone(text, 40 * i) for i, text in enumerate(texts)] + [zone(paragraph.upper(), 0, document="q"),
                                                                      zone(paragraph, 40, document="q")]
    table = layout_features(pd.DataFrame(rows))
    # a list of names is long but mostly capitals; a second paragraph is no longer the first; each page
    # has its own first (a paragraph in capitals is none)
    assert table["first_prose"].tolist() == [0, 0, 0, 1, 0, 0, 0, 1]
    short = layout_features(pd.DataFrame([zone(" ".join(paragraph.split()[:29]), 0)]))
    assert short["first_prose"].tolist() == [0]


def test_first_prose_passes_over_site_notices_but_not_an_abstract_ending_with_its_copyright():
    filler = " and the study of it goes on for many more words in this long paragraph" * 3
    cookies = "This website uses technologies such as cookies to enable essential site functions" + filler
    licence = "Copyright © 2014 A. Author et al. This is an open access article distributed under a license" + filler
    abstract = "we measured the roots of twelve plants in dry soil" + filler + ". Copyright © 2016 Wiley"
    table = layout_features(pd.DataFrame([zone(text, 40 * i) for i, text in enumerate([cookies, licence, abstract])]))
    assert table["first_prose"].tolist() == [0, 0, 1]
    # a notice far into a paragraph is not one that opens it
    late = "we measured the roots of twelve plants in dry soil" + filler + " under a licence"
    assert layout_features(pd.DataFrame([zone(late, 0)]))["first_prose"].tolist() == [1]


def test_max_before_is_the_largest_value_above_each_zone_on_its_page():
    pages = np.array(["p", "q", "p", "q", "p", "p"], dtype=object)  # pages interleaved in the rows
    arrays = ZoneArrays({"text": np.array(["x"] * 6, dtype=object), "document": pages})
    values = np.array([3.0, 9.0, 1.0, 0.0, 5.0, 2.0])
    assert arrays.max_before(values).tolist() == [0.0, 0.0, 3.0, 9.0, 3.0, 5.0]
    assert ZoneArrays({"text": np.array([], dtype=object)}).max_before(np.array([])).tolist() == []
    assert ZoneArrays.of(arrays) is arrays and ZoneArrays.of({"text": pages}).n_zones == 6


def test_max_after_is_the_largest_value_among_the_next_zones_on_its_page():
    pages = np.array(["p", "q", "p", "q", "p", "p"], dtype=object)  # p: rows 0, 2, 4, 5; q: rows 1, 3
    arrays = ZoneArrays({"text": np.array(["x"] * 6, dtype=object), "document": pages})
    values = np.array([3.0, 9.0, 1.0, 4.0, 5.0, 2.0])
    assert arrays.max_after(values, 1).tolist() == [1.0, 4.0, 5.0, 0.0, 2.0, 0.0]
    assert arrays.max_after(values, 2).tolist() == [5.0, 4.0, 5.0, 0.0, 2.0, 0.0]
    assert arrays.max_after(values, 10).tolist() == [5.0, 4.0, 5.0, 0.0, 2.0, 0.0]
    assert ZoneArrays({"text": np.array([], dtype=object)}).max_after(np.array([]), 3).tolist() == []


def test_name_shape_marks_zones_written_as_names():
    texts = ["Núria Bonifaci", "Gómez-Baldó L, O'Neil A", "J. R. Evans", "Bo Shi and Vijay K. Dhir",
             "By Ya Zhao 1,2 & Carolina Beltrame Del Debbio", "We measured 12 roots", "BRCA1 and RHAMM", "2019",
             "", "Why Most Published Research Findings Are False"]
    rows = [zone(t, 20 * i) for i, t in enumerate(texts)]
    assert layout_features(pd.DataFrame(rows))["name_shape"].tolist() == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]


def test_abstract_part_marks_zones_opening_with_a_structured_abstract_part():
    texts = ["Methods Ten adult subjects (2 women) were scanned", "Results: For the conventional system",
             "Main outcome measures Predicted annual rates", "  Background. Leprosy reactions are common",
             "Methods", "Results of the statistical models", "Patients with prior treatment", "Our methods differ",
             "Methodsology Ten", "Introduction. Combining the advantages of high strength"]
    rows = [zone(t, 20 * i) for i, t in enumerate(texts)]
    assert layout_features(pd.DataFrame(rows))["abstract_part"].tolist() == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]


def test_abstract_part_marks_parts_named_on_lines_of_their_own_under_an_abstract_heading():
    text = "Twenty adult patients were scanned twice over ten years."
    texts = ["Abstract", "Objective", text, "Methods", text, "Results", text, "Key points", text,    # 1-6
             "Abstract", "Methods", "Results", "Discussion",                                       # contents
             "Abstract", "Background", text, "Conclusions", text, "Background", text,               # 14-17
             "Abstract", "Background", text, "Methods", text,                                     # 21-22
             "Summary", "Introduction", text,                                                     # the body
             "Methods", text]                                                                     # no heading
    sizes = {23: 20.0}  # a body heading set larger than the part names
    rows = [zone(t, 20 * i, size=sizes.get(i, 16.0)) for i, t in enumerate(texts)]
    marked = np.flatnonzero(layout_features(pd.DataFrame(rows))["abstract_part"]).tolist()
    assert marked == [1, 2, 3, 4, 5, 6, 14, 15, 16, 17, 21, 22]


def test_line_units_merge_fragments_on_one_line_only():
    rows = [zone("Title of the paper", 0, size=30), zone("Li Sun", 100, x=88, w=40, size=14),
            zone("1,2", 102, x=134, w=14, h=11, size=9.8), zone("Datao Wang", 100, x=196, w=77, size=14),
            zone("2", 102, x=280, w=5, h=11, size=9.8), zone("Next line", 140, x=88, w=100, size=14),
            zone("Other page", 100, x=150, w=50, size=14, document="q")]
    frame = pd.DataFrame(rows)
    units = line_units(frame)
    assert units.tolist() == [0, 1, 1, 2, 2, 3, 4]  # 48 px (> 1 em) between the two names: two units
    merged = pd.DataFrame(merge_units(frame, units))
    assert merged["text"].tolist() == ["Title of the paper", "Li Sun 1,2", "Datao Wang 2", "Next line", "Other page"]
    box = merged.loc[1, ["x", "y", "w", "h", "font_size"]].to_numpy(float)
    np.testing.assert_allclose(box, [88, 100, 60, 19.2, 14])
    assert merged["document"].tolist() == ["p", "p", "p", "p", "q"]
    apart = frame.iloc[[0, 5, 6]]
    pd.testing.assert_frame_equal(pd.DataFrame(merge_units(apart, line_units(apart))), apart.reset_index(drop=True))


def test_line_units_join_a_lone_marker_to_the_text_it_marks():
    rows = [zone("Department of Physics, Leeds", 100, x=48, w=300),
            zone("2", 134, x=48, w=7, h=15, size=13),  # a <dt> over its <dd>, 23 px (< 2 em) apart
            zone("School of Medicine, Oslo", 172, x=48, w=280),
            zone("[3]", 206, x=48, w=18),  # a marker before another marker stays alone
            zone("b", 230, x=48, w=7),
            zone("Institute of Chemistry, Lyon", 254, x=88, w=260),  # to the right and below: marked
            zone("*", 288, x=88, w=7),
            zone("Caption to the left", 312, x=48, w=200),  # starts left of the marker: not what it marks;
            # nor is the line above, which starts where the marker does
            zone("c", 346, x=48, w=7),
            zone("Text far below", 420, x=48, w=200),  # 55 px under the marker (> 2 em): not joined
            zone("1,3", 454, x=48, w=20, document="q"), zone("Other page", 478, x=48, w=90, document="q")]
    units = line_units(pd.DataFrame(rows))
    assert units.tolist() == [0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 8]
    assert pd.DataFrame(merge_units(pd.DataFrame(rows), units))["text"].tolist()[:4] == [
        "Department of Physics, Leeds", "2 School of Medicine, Oslo", "[3]", "b Institute of Chemistry, Lyon"]


def test_line_units_join_markers_set_on_lines_of_their_own_under_what_they_mark():
    rows = [zone("Authors and affiliations", 0, x=48, w=200),
            zone("Lisa Wagels", 34, x=48, w=90),
            zone("1", 52, x=88, w=8),  # indented under the name, the next line back to the left: marks the name
            zone("Email author", 70, x=48, w=90),
            zone("Frank Schneider", 88, x=48, w=120),
            zone("1", 106, x=88, w=8), zone("2", 124, x=88, w=8),  # a run of markers: both
            zone("Ute Habel", 142, x=48, w=80),
            zone("3", 160, x=48, w=8),  # not indented: alone (and too far above the next name to mark it)
            zone("Nils Kohn", 214, x=48, w=80),
            zone("4", 232, x=88, w=8),
            zone("Indented text", 250, x=88, w=200),  # the next line is not further left: the marker marks it
            zone("Results", 290, x=48, w=80),
            zone("5", 290, x=300, w=8),  # on the name's line, far to its right (a table cell): alone
            zone("Last", 320, x=48, w=80),
            zone("6", 380, x=88, w=8),  # more than 2 em under the text above: alone
            zone("Failure rate (%)", 420, x=48, w=120), zone("7", 438, x=88, w=8),  # under no name: alone
            zone("End", 456, x=48, w=40)]
    units = line_units(pd.DataFrame(rows))
    assert units.tolist() == [0, 1, 1, 2, 3, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14]
    assert pd.DataFrame(merge_units(pd.DataFrame(rows), units))["text"].tolist()[1:4] == [
        "Lisa Wagels 1", "Email author", "Frank Schneider 1 2"]


@pytest.mark.parametrize("text, marker", [("2", True), ("12.", True), ("[3]", True), ("(4)", True), ("b)", True),
                                          ("*", True), ("\u2020", True), ("1, 2", True), ("a,b", True), ("X", False),
                                          ("1.2", False), ("Ab", False), ("\u2a2f", False), ("1234", False)])
def test_lone_markers(text, marker):
    assert (LONE_MARKER.fullmatch(text) is not None) == marker


def test_svm_predict_proba_equals_calibrated_classifier():
    rng = np.random.default_rng(0)
    labels = ["title", "authors", "abstract", "references", "other"]
    rows = [zone(" ".join(rng.choice(["alpha", "beta", "gamma", "delta", lab], 6)), 10 * i, label=lab,
                 document=f"p{i // 20}") for i, lab in enumerate(rng.choice(labels, 200))]
    frame = pd.DataFrame(rows)
    state_of = {lab: state for state, lab in STATE_LABEL.items() if lab != "other"}
    states = np.array([state_of.get(lab, "BTA") for lab in frame["label"]])
    em = SVMEmission(max_per_label=None).fit(frame, states)
    X = em.featurizer_.transform(frame)
    reference = CalibratedClassifierCV(LinearSVC(C=em.C, random_state=em.random_state), cv=3, method="sigmoid")
    reference.fit(X, frame["label"].to_numpy())
    np.testing.assert_allclose(em.predict_proba(X), reference.predict_proba(X), atol=1e-12)
    assert not hasattr(em, "classifier_")  # only the arrays are kept


def test_svm_calibration_folds_keep_template_groups_apart():
    rng = np.random.default_rng(1)
    labels = ["title", "authors", "abstract", "references", "other"]
    rows = [zone(" ".join(rng.choice(["alpha", "beta", "gamma", lab], 5)), 10 * i, label=lab, document=f"p{i // 20}")
            for i, lab in enumerate(rng.choice(labels, 240))]
    frame = pd.DataFrame(rows).assign(group=lambda f: "family" + f["document"].str[1:].astype(int).mod(4).astype(str))
    folds = SVMEmission()._folds(frame)
    assert len(folds) == 3
    for train, test in folds:
        assert not set(frame["group"].iloc[train]) & set(frame["group"].iloc[test])
    assert SVMEmission(calibrate_across=None)._folds(frame) == 3
    assert SVMEmission()._folds(frame.drop(columns="group")) == 3
    assert SVMEmission()._folds(frame.assign(group="one")) == 3  # fewer groups than folds
    state_of = {lab: state for state, lab in STATE_LABEL.items() if lab != "other"}
    states = np.array([state_of.get(lab, "BTA") for lab in frame["label"]])
    grouped = SVMEmission(max_per_label=None).fit(frame, states)
    plain = SVMEmission(max_per_label=None, calibrate_across=None).fit(frame, states)
    assert not np.allclose(grouped.sigmoid_a_, plain.sigmoid_a_)
