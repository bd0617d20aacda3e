"""The CRF reference parser: tokens and labels, a tiny model trained here (fit, parse, safe-format
round trip), field scoring, and the shipped model on a few typical strings."""
from __future__ import annotations

from pathlib import Path

import pytest
from sklearn.base import clone

from scilabel.corpus.refstrings import LabelledReference
from scilabel.references import MODEL_PATH, load_parser, save_parser
from scilabel.references.evaluation import field_counts, normalise
from scilabel.references.parser import ReferenceParser, strip_furniture, token_labels
from scilabel.references.tokens import sequence_features, tokenize

TRAIN = [
    [("Smith J", "author"), (", ", "other"), ("Jones K", "author"), (" (", "other"), ("2001", "year"), (") ", "other"),
     ("A study of things", "title"), (". ", "other"), ("J Biol", "container"), (" ", "other"), ("12", "volume"),
     (": ", "other"), ("3–9", "pages"), (".", "other")],
    [("Brown L", "author"), (" (", "other"), ("1999", "year"), (") ", "other"), ("Cells and their parts", "title"),
     (". ", "other"), ("Nature", "container"), (" ", "other"), ("401", "volume"), (": ", "other"), ("10–20", "pages"),
     (".", "other")],
    [("Green M", "author"), (", ", "other"), ("White P", "author"), (" (", "other"), ("2010", "year"), (") ", "other"),
     ("On the origin of data", "title"), (". ", "other"), ("Cell", "container"), (" ", "other"), ("7", "volume"),
     (": ", "other"), ("100–110", "pages"), (". doi: ", "other"), ("10.1000/xyz.1", "doi")],
    [("Black A", "author"), (" (", "other"), ("2005", "year"), (") ", "other"), ("Models of mind", "title"),
     (". ", "other"), ("Brain Res", "container"), (" ", "other"), ("55", "volume"), (": ", "other"), ("1–4", "pages"),
     (".", "other")],
]
REFS = [LabelledReference(segs, "references/test/tiny.xml", "corpus", i) for i, segs in enumerate(TRAIN * 3)]


@pytest.fixture(scope="module")
def tiny() -> ReferenceParser:
    return ReferenceParser(c1=0.0, c2=0.01, max_iterations=40).fit(REFS)


def test_tokens_keep_offsets_and_split_letters_from_digits() -> None:
    text = "Phys. Rev. D86, 054009 (2012). doi:10.1103/PhysRevD.86.054009."
    tokens = tokenize(text)
    assert [t.text for t in tokens][:6] == ["Phys", ".", "Rev", ".", "D", "86"]
    assert "10.1103/PhysRevD.86.054009" in [t.text for t in tokens]
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert len(sequence_features(text, tokens)) == len(tokens)


def test_token_attributes_are_what_crfsuite_reads() -> None:
    """Each token's attributes as crfsuite's ``name:value`` strings (bare names for flags): the token,
    its glue to the next, its place in the reference, and its window up to the edges."""
    text = "Smith J (2001) Cells."
    features = sequence_features(text)
    first, year = features[0], features[3]
    assert first[:5] == ["bias", "w:smith", "shape:Xxx", "kind:cap", "p3:smi"]
    assert {"space_after", "pos:0", "idx:0", "-2:edge", "-1:edge", "1:w:j", "1:kind:initial", "1:shape:X",
            "2:w:(", "w|+1w:smith|j"} <= set(first)
    assert not any(a.startswith(("glued", "-1w|w")) for a in first)
    assert {"w:<year>", "kind:year", "glued:)", "in_bracket", "last_punct:(", "prev_word:j", "-1:w:(",
            "-2:w:j"} <= set(year)
    assert "after_year" not in year and "after_year" in features[4]


def test_token_labels_drop_punctuation_at_field_edges() -> None:
    segments = [("Smith J.", "author"), (" ", "other"), ("(2004):", "year"), (" T", "title")]
    text = "".join(t for t, _ in segments)
    labels = token_labels(segments, tokenize(text))
    assert labels == ["author", "author", "other", "other", "year", "other", "other", "title"]


def test_strip_furniture() -> None:
    assert strip_furniture("[12] Smith J. A study. [PubMed] Google Scholar") == ("Smith J. A study.", "12")
    assert strip_furniture("3. Jones K. Title ↩") == ("Jones K. Title", "3")
    assert strip_furniture("3D printing. Cell 1: 2.") == ("3D printing. Cell 1: 2.", None)


def test_tiny_crf_learns_and_parses(tiny: ReferenceParser) -> None:
    parsed = tiny.parse("Jones K, Smith J (2001) A study of things. J Biol 12: 3–9.")
    assert parsed["year"] == "2001"
    assert parsed["volume"] == "12" and parsed["pages"] == "3–9"
    assert [a["family"] for a in parsed["authors"]] == ["Jones", "Smith"]


def test_safe_round_trip_gives_identical_output(tiny: ReferenceParser, tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="saved with"):  # the tiny parser carries no model card
        loaded = load_parser(save_parser(tiny, tmp_path / "tiny.npz"))
    texts = ["Green M (2010) On the origin of data. Cell 7: 100–110.", "Brown L (1999) Cells. Nature 401: 10–20."]
    assert loaded.predict(texts) == tiny.predict(texts)
    assert [loaded.parse(t) for t in texts] == [tiny.parse(t) for t in texts]


def test_estimator_conventions(tiny: ReferenceParser) -> None:
    params = tiny.get_params()
    assert params["max_iterations"] == 40
    assert not hasattr(clone(tiny), "crf_")
    with pytest.raises(Exception):
        ReferenceParser().predict(["x"])


def test_field_counts_soft_match_and_prefixes() -> None:
    gold = [("doi: 10.1/AB", "doi"), ("pp. 3-9", "pages"), ("The Title", "title")]
    predicted = [("10.1/ab", "doi"), ("3–9", "pages"), ("The Title of", "title"), ("12", "volume")]
    counts = field_counts(gold, predicted)
    assert counts["doi", "tp"] == counts["pages", "tp"] == 1
    assert counts["title", "fp"] == counts["title", "fn"] == 1
    assert counts["volume", "fp"] == 1 and counts["volume", "fn"] == 0
    assert normalise("volume", "Vol. 12") == "12"


def test_shipped_model_parses_common_styles() -> None:
    parser = load_parser()
    vancouver = parser.parse("3. Lawn JE, Cousens S, Zupan J. 4 million neonatal deaths: when? Where? Why? "
                             "Lancet. 2005;365(9462):891-900. doi:10.1016/S0140-6736(05)71048-5")
    assert vancouver["label"] == "3"
    assert [a["family"] for a in vancouver["authors"]] == ["Lawn", "Cousens", "Zupan"]
    assert vancouver["year"] == "2005" and vancouver["volume"] == "365" and vancouver["issue"] == "9462"
    assert vancouver["doi"] == "10.1016/S0140-6736(05)71048-5"
    apa = parser.parse(
        "Smith, J. A., & Jones, K. (2001). Growth of cells in culture. Journal of Biology, 12(3), 45–67."
    )
    assert apa["title"] == "Growth of cells in culture"
    assert apa["container"] == "Journal of Biology"
    assert apa["pages"] == "45–67"
    glued = parser.parse("Timberlake TP, Memmott J. Phenology of floral resources. J Appl Ecol. 2019;56(7):1585–1596.")
    assert (glued["volume"], glued["issue"]) == ("56", "7")
    assert parser.model_card_["held_out_field_scores"]
