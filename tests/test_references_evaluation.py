"""Scores of the reference pipeline: links, Item and Reference accuracy, per-corpus field merges."""
from __future__ import annotations

import pandas as pd

from scilabel.corpus.refstrings import LabelledReference
from scilabel.references.anchors import Anchor
from scilabel.references.evaluation import corpus_name, field_counts, gold_entries, link_counts, segmenter_pages


def page() -> pd.DataFrame:
    """Two body zones citing r1 and r1+r2; three reference zones (r2 has a link zone)."""
    return pd.DataFrame(
        {
            "text": ["Body [1].", "More [1, 2].", "Ref one.", "Ref two.", "Google Scholar"],
            "label": ["other", "other", "references", "references", "references"],
            "ref_id": [None, None, "r1", "r2", "r2"],
            "cites": ["r1", "r1 r2", None, None, None],
        }
    )


def anchor(zone: int, targets: list[int]) -> Anchor:
    return Anchor(zone, 0, 1, "[x]", "bracket-number", [], targets)


def test_perfect_links() -> None:
    counts = link_counts(page(), [[2], [3, 4]], [anchor(0, [0]), anchor(1, [0, 1])])
    s = counts.scores()
    assert s["link_f1"] == 1.0 and s["item_accuracy"] == 1.0 and s["reference_accuracy"] == 1.0


def test_a_missed_link_costs_recall_and_reference_accuracy_only() -> None:
    s = link_counts(page(), [[2], [3, 4]], [anchor(0, [0]), anchor(1, [0])]).scores()
    assert s["link_precision"] == 1.0 and s["link_recall"] == 2 / 3
    assert s["item_accuracy"] == 1.0 and s["reference_accuracy"] == 0.5


def test_a_badly_cut_literal_costs_item_accuracy() -> None:
    s = link_counts(page(), [[2], [3]], [anchor(0, [0]), anchor(1, [0, 1])]).scores()
    assert s["link_f1"] == 1.0  # the literal still carries r2's id
    assert s["item_accuracy"] == 0.5 and s["reference_accuracy"] == 0.5


def test_anystyle_volume_holds_the_issue() -> None:
    gold = [("17(4):", "volume")]
    predicted = [("17", "volume"), ("4", "issue")]
    assert field_counts(gold, predicted, ("volume",))["volume", "fn"] == 1
    assert field_counts(gold, predicted, ("volume",), {"issue": "volume"})["volume", "tp"] == 1


def test_corpus_names() -> None:
    assert corpus_name(LabelledReference([], "references/anystyle/gold.xml", "gold")) == "anystyle"
    assert corpus_name(LabelledReference([], "PMC123", "train")) == "jats"


def test_segmenter_pages_give_one_zone_per_printed_line(tmp_path) -> None:
    (tmp_path / "a.tei.xml").write_text(
        "<tei><text><listBibl>REFERENCES<lb/>"
        "<bibl><label>1</label>. A. Smith, Phys. Rev. D 63,<lb/> 114015 (2001).<lb/></bibl>"
        "<bibl><label>2</label>. B. Jones, JHEP 07 (2007).<lb/></bibl>"
        "</listBibl></text></tei>",
        encoding="utf-8",
    )
    (frame,) = list(segmenter_pages(tmp_path))
    assert list(frame["text"]) == ["1. A. Smith, Phys. Rev. D 63,", "114015 (2001).", "2. B. Jones, JHEP 07 (2007)."]
    assert list(frame["ref_id"]) == ["b0", "b0", "b1"]
    assert gold_entries(frame) == [[0, 1], [2]]
