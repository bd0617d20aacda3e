"""Page metadata as evidence: the features, the labeller's two modes, the generated pages' tags, the
datasets' declared records and the record's provenance."""
import copy
import json
import random
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from scilabel.corpus.dataset import DECLARED_FILE, declared_records, load_zones, write_dataset
from scilabel.corpus.jats import Affiliation, Article, Author
from scilabel.corpus.meta_tags import DECLARATION_RATES, declare, meta_tags
from scilabel.emission import SVMEmission
from scilabel.features import ZoneArrays
from scilabel.features.evidence import EVIDENCE_FEATURES, Declared, with_declared, zone_evidence
from scilabel.labeler import ZoneLabeler
from scilabel.metadata import PageMeta, merge_fields, read_meta

DECLARED = Declared(title="Root growth of Vicia faba under drought", authors=("Ada Okafor", "Min-jun Lee"),
                    institutions=("Department of Botany, Riverside College",),
                    abstract="Roots grew deeper when water was scarce, and shoots grew less.",
                    references=("Smith A. Deep roots in dry soils. J Bot. 2001",))


def features(text: str, declared: Declared | None = DECLARED) -> dict[str, float]:
    return dict(zip(EVIDENCE_FEATURES, zone_evidence(text, declared)))


def test_each_declared_field_matches_its_own_zone_best():
    zones = {"meta_title": "Root growth of Vicia faba under drought", "meta_authors": "Ada Okafor, Min-jun Lee",
             "meta_affiliations": "1 Department of Botany, Riverside College, Leeds",
             "meta_abstract": "Roots grew deeper when water was scarce.",
             "meta_references": "2. Smith A. Deep roots in dry soils. J Bot. 2001;3:1-9"}
    scores = {name: features(text) for name, text in zones.items()}
    for feature, text in zones.items():
        best = max(scores, key=lambda name: scores[name][feature])
        assert best == feature, (feature, scores)
    assert scores["meta_title"]["meta_title"] == 1.0
    assert scores["meta_authors"]["meta_authors"] == 1.0
    assert features("Results were mixed in the field.")["meta_abstract"] == 0.0


def test_a_second_showing_of_the_title_or_byline_is_seen_before():
    from scilabel.features.evidence import evidence_matrix

    texts = ["Root growth of Vicia faba under drought", "Ada Okafor, Min-jun Lee", "Body text.",
             "Okafor A, Lee M. Root growth of Vicia faba under drought. J Bot 2020."]
    rows = [dict(zip(EVIDENCE_FEATURES, row)) for row in evidence_matrix(texts, [DECLARED] * len(texts))]
    assert rows[0]["meta_title_seen"] == 0.0 and rows[1]["meta_authors_seen"] == 0.0
    assert rows[3]["meta_title"] > 0.5 and rows[3]["meta_title_seen"] == rows[3]["meta_title"]
    # the names repeated in the citation are no new evidence of authors
    assert rows[1]["meta_authors"] > 0 and rows[3]["meta_authors"] == 0.0 and rows[3]["meta_authors_seen"] == 1.0
    # two pages: what one page matched is not seen on the other
    other = Declared(**DECLARED.to_dict())
    two = evidence_matrix(texts[:2] * 2, [DECLARED, DECLARED, other, other])
    assert (two[:2] == two[2:]).all()


def test_names_in_a_panel_above_the_title_are_the_second_showing():
    """Reading starts at the zone that shows the declared title: a 'By author' panel of links above it
    repeats the byline below it, not the other way round."""
    from scilabel.features.evidence import evidence_matrix

    texts = ["Sign in", "By author", "Ada Okafor", "Min-jun Lee", "Root growth of Vicia faba under drought",
             "Ada Okafor 1, Min-jun Lee 2", "Body text."]
    rows = [dict(zip(EVIDENCE_FEATURES, row)) for row in evidence_matrix(texts, [DECLARED] * len(texts))]
    assert rows[5]["meta_authors"] > 0.9 and rows[5]["meta_authors_seen"] == 0.0
    for panel in rows[2:4]:
        assert panel["meta_authors"] == 0.0 and panel["meta_authors_seen"] == 1.0
    # no zone shows the declared title: reading starts at the top, the first showing is new evidence
    untitled = [text for text in texts if "Vicia" not in text]
    first = dict(zip(EVIDENCE_FEATURES, evidence_matrix(untitled, [DECLARED] * len(untitled))[2]))
    assert first["meta_authors"] == 1.0 and first["meta_authors_seen"] == 0.0


def test_no_declaration_gives_zeros_and_a_partial_one_says_what_it_declares():
    assert set(features("Root growth", None).values()) == {0.0}
    partial = features("Root growth", Declared(title="Root growth"))
    assert partial["declares_title"] == 1.0 and partial["declares_authors"] == 0.0 and partial["meta_title"] == 1.0
    assert Declared.of(PageMeta()) is None
    assert Declared.from_dict(DECLARED.to_dict()) == DECLARED
    assert Declared.from_dict(json.loads(json.dumps(DECLARED.to_dict()))) == DECLARED


def test_zone_arrays_read_the_evidence_from_the_declared_column():
    frame = pd.DataFrame({"text": ["Root growth of Vicia faba under drought", "Body"], "x": 0.0, "y": [0.0, 50.0],
                          "w": 100.0, "h": 20.0, "font_size": 16.0, "font_weight": 400, "link_chars": 0,
                          "sup_chars": 0, "italic_chars": 0})
    assert not ZoneArrays(frame).evidence.any() and not ZoneArrays(frame).declares.any()
    arrays = ZoneArrays(with_declared(frame, read_meta(
        '<meta name="citation_title" content="Root growth of Vicia faba under drought">')))
    declared = arrays.evidence
    assert arrays.declares.all()
    assert declared[0, EVIDENCE_FEATURES.index("meta_title")] == 1.0
    assert declared[1, EVIDENCE_FEATURES.index("meta_title")] == 0.0
    assert (declared[:, EVIDENCE_FEATURES.index("declares_title")] == 1.0).all()


def _page(i: int, declared: bool) -> list[dict]:
    """A toy page whose title is set no larger than its furniture: only the declaration tells them apart."""
    rng = np.random.default_rng(i)
    title = " ".join(rng.choice(["growth", "roots", "soil", "water", "drought", "yield", "leaf", "stem"], 5))
    furniture = " ".join(rng.choice(["growth", "roots", "soil", "water", "drought", "yield", "leaf", "stem"], 5))
    record = Declared(title=title) if declared else None
    rows = [(furniture, "other"), (title, "title"), ("Ada Okafor and Min Lee", "authors"),
            ("We measured roots in dry soil over two seasons and report it.", "abstract"), ("Body text here.", "other")]
    order = [1, 0, 2, 3, 4] if i % 2 else [0, 1, 2, 3, 4]
    return [{"text": rows[k][0], "label": rows[k][1], "x": 40.0, "y": 40.0 * n, "w": 600.0, "h": 20.0,
             "font_size": 16.0, "font_weight": 400, "link_chars": 0, "sup_chars": 0, "italic_chars": 0,
             "document": f"p{i}", "declared": record} for n, k in enumerate(order)]


@pytest.fixture(scope="module")
def declared_pages() -> pd.DataFrame:
    return pd.DataFrame([row for i in range(40) for row in _page(i, declared=True)])


def test_the_labeler_learns_the_declared_title_and_layout_only_mode_ignores_it(declared_pages):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labeler = ZoneLabeler(emission=SVMEmission(random_state=0), vetoes=()).fit(declared_pages)
    test = pd.DataFrame([row for i in range(100, 110) for row in _page(i, declared=True)])
    titles = test["label"].to_numpy() == "title"
    assert (labeler.predict(test)[titles] == "title").all()
    layout_only = copy.deepcopy(labeler).set_params(page_metadata=False)
    undeclared = test.drop(columns="declared")
    assert (layout_only.predict(test) == labeler.predict(undeclared)).all()
    assert (layout_only.predict_proba(test) == labeler.predict_proba(undeclared)).all()


def test_a_layout_only_fit_never_reads_the_declaration(declared_pages):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        blind = ZoneLabeler(emission=SVMEmission(random_state=0), vetoes=(), page_metadata=False).fit(declared_pages)
        plain = ZoneLabeler(emission=SVMEmission(random_state=0), vetoes=()).fit(declared_pages.drop(columns="declared"))
    test = pd.DataFrame([row for i in range(100, 110) for row in _page(i, declared=True)])
    assert (blind.predict_proba(test) == plain.predict_proba(test)).all()


ARTICLE = Article(
    article_id="a1", source="a1.xml", title="Root growth under drought",
    authors=[Author("Ada Okafor", aff_ids=["x"]), Author("Min Lee", aff_ids=["x"])],
    affiliations=[Affiliation("x", "1", "Riverside College")], abstract=[], keywords=[], article_type="research",
    journal="J Bot", year="2020", doi="", sections=[], figures=[], tables=[], footnotes=[], references=[])


def test_generated_tags_follow_the_measured_rates():
    drawn = [meta_tags(ARTICLE, random.Random(i)) for i in range(3000)]
    none = sum(not tags for tags in drawn) / len(drawn)
    assert abs(none - DECLARATION_RATES["page"]["none"]) < 0.03
    declared = [read_meta(f"<head>{tags}</head>") for tags in drawn if tags]
    first_only = sum(len(m.authors) == 1 for m in declared) / len(declared)
    assert abs(first_only - DECLARATION_RATES["authors"]["first_only"]) < 0.02
    with_institutions = Counter(bool(m.institutions) for m in declared if m.authors)
    share = with_institutions[True] / sum(with_institutions.values())
    assert abs(share - DECLARATION_RATES["affiliations"]["full"]) < 0.04
    assert all(m.title in ("", ARTICLE.title) for m in declared)


def test_stale_tags_declare_the_other_article():
    other = Article(**{**ARTICLE.__dict__, "title": "Leaf fall in autumn"})
    titles = Counter(read_meta(f"<head>{meta_tags(ARTICLE, random.Random(i), other)}</head>").title for i in range(3000))
    assert 0.01 < titles["Leaf fall in autumn"] / 3000 < 0.04
    assert declare("<html><head></head><body></body></html>", '<meta name="a" content="b">').count("<meta") == 1
    with pytest.raises(ValueError, match="head"):
        declare("<p>x</p>", '<meta name="a" content="b">')


def test_datasets_keep_each_pages_declaration(tmp_path):
    (tmp_path / "a.html").write_text('<head><meta name="citation_title" content="Roots"></head><body>x</body>')
    (tmp_path / "b.html").write_text("<head></head><body>y</body>")
    manifest = pd.DataFrame({"document": ["a", "b"], "html_path": [str(tmp_path / "a.html"), str(tmp_path / "b.html")]})
    zones = pd.DataFrame({"document": ["a", "b"], "text": ["x", "y"], "label": ["other", "other"]})
    write_dataset(tmp_path, zones, manifest)
    assert (tmp_path / DECLARED_FILE).exists()
    assert declared_records(tmp_path) == {"a": Declared(title="Roots"), "b": None}
    loaded = load_zones([tmp_path])
    assert loaded["declared"].tolist() == [Declared(title="Roots"), None]
    (tmp_path / DECLARED_FILE).unlink()  # a dataset built before declarations were kept: read again
    assert load_zones([tmp_path])["declared"].tolist() == [Declared(title="Roots"), None]


def test_provenance_says_where_each_field_came_from():
    meta = read_meta('<head><meta name="citation_title" content="Root growth under drought">'
                     '<meta name="citation_author" content="Okafor, Ada"><meta name="citation_author" content="Lee, Min">'
                     '<meta name="description" content="Roots grew deeper."></head>')
    page = {"title": "Root Growth under Drought", "authors": ["Zoe Quinn", "Ian Park", "Eva Stone"],
            "affiliations": ["Riverside College"], "abstract": None}
    merged, provenance = merge_fields(meta, page)
    assert provenance == {"title": "both", "authors": "page", "affiliations": "page", "abstract": "metadata"}
    assert merged["abstract"] == "Roots grew deeper." and merged["title"] == page["title"]
    assert merge_fields(PageMeta(), {"title": None, "authors": [], "affiliations": [], "abstract": None})[1] == \
        dict.fromkeys(("title", "authors", "affiliations", "abstract"))


def test_metadata_evidence_is_a_bounded_ratio_and_nothing_without_a_declaration():
    from scilabel.metadata_evidence import MetadataEvidence
    from scilabel.schema import LABELS

    rng = np.random.default_rng(0)
    labels = np.array(["title"] * 50 + ["other"] * 450, dtype=object)
    evidence = np.zeros((500, len(EVIDENCE_FEATURES)))
    evidence[:50, 0] = rng.uniform(0.8, 1.0, 50)  # titles match the declared title
    evidence[50:, 0] = rng.uniform(0.0, 0.3, 450)
    model = MetadataEvidence(floor=0.05).fit(evidence, labels)
    rest = [0.0] * (len(EVIDENCE_FEATURES) - 1)
    ratio = model.log_ratio(np.array([[0.95, *rest], [0.1, *rest], [0.95, *rest]]), np.array([True, True, False]))
    title = LABELS.index("title")
    assert ratio[0, title] > 1.0 > ratio[1, title]
    assert ratio.min() >= np.log(0.05) - 1e-9
    assert (ratio[2] == 0).all()
    assert ratio[:, LABELS.index("authors")].max() <= np.log(1 / model.prior_[LABELS.index("authors")])


def test_word_pairs_tell_a_link_line_that_matches_nothing_from_a_sentence_that_matches_nothing():
    """A one-word link line has nothing to match a declared reference with; a sentence has, and matching
    nothing is then evidence."""
    link, sentence = features("Google Scholar"), features("Thanks for your feedback on these subject areas today.")
    assert link["meta_references"] == sentence["meta_references"] == 0.0
    assert link["word_pairs"] < sentence["word_pairs"] == 1.0
    assert features("PubMed")["word_pairs"] == 0.0


def test_a_model_fitted_before_a_feature_was_added_reads_the_columns_it_knows():
    from scilabel.metadata_evidence import MetadataEvidence

    rng = np.random.default_rng(1)
    labels = np.array(["title"] * 40 + ["other"] * 160, dtype=object)
    evidence = rng.uniform(0, 1, (200, len(EVIDENCE_FEATURES)))
    evidence[:40, 0] += 1
    older = MetadataEvidence().fit(evidence[:, :-1], labels)
    declared = np.ones(len(evidence), dtype=bool)
    assert np.allclose(older.log_ratio(evidence, declared), older.log_ratio(evidence[:, :-1], declared))


def test_a_reference_declared_only_by_its_link_declares_no_references():
    """A JSON-LD ``citation`` that is only a DOI link gives no words a reference zone could show: it is
    no evidence against the page's real reference list."""
    link_only = Declared(title=DECLARED.title, references=("https://doi.org/10.3389/fpsyg.2014.00781",))
    entry = "2. Smith A. Deep roots in dry soils. J Bot. 2001;3:1-9"
    assert features(entry, link_only)["declares_references"] == 0.0
    assert features(entry, DECLARED)["declares_references"] == 1.0 and features(entry, DECLARED)["meta_references"] > 0.5
    assert Declared(references=("doi:10.1000/182",)).any() is False

