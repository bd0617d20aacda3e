"""Citation anchors placed in a sentence for the XML writers, found as the reference pipeline finds them."""
from __future__ import annotations

from scilabel.writers.anchors import CitationSpans

REFS = [
    {"id": "r1", "label": "1", "authors": [{"family": "Smith"}], "year": "2001", "text": "Smith J. One. 2001."},
    {"id": "r2", "label": "2", "authors": [{"family": "Jones"}], "year": "1999", "text": "Jones K. Two. 1999."},
    {"id": "r3", "label": "3", "authors": [{"family": "Roe"}], "year": "2005", "text": "Roe R. Three. 2005."},
]


def spans(text: str, cites: list[str]) -> list[tuple[str, list[str]]]:
    return [(text[a:b], ids) for a, b, ids in CitationSpans(REFS)(text, cites)]


def test_numbered_anchors_link_by_their_numbers_ranges_expanded() -> None:
    assert spans("As shown before [1], and since [2-3].", ["r1", "r2", "r3"]) == [
        ("[1]", ["r1"]), ("[2-3]", ["r2", "r3"])]
    # an anchor to a reference the sentence is not known to cite is left as text
    assert spans("As shown before [1], and since [2].", ["r2"]) == [("[2]", ["r2"])]


def test_author_year_anchors_link_by_name_and_year() -> None:
    assert spans("Bees forage far (Smith et al., 2001; Jones 1999).", ["r1", "r2"]) == [
        ("(Smith et al., 2001; Jones 1999)", ["r1", "r2"])]


def test_what_is_no_anchor_of_the_list_is_not_placed() -> None:
    assert spans("Counts rose [a].", ["r3"]) == []  # no anchor of any format
    assert spans("Counts rose, as reported [7].", ["r3"]) == []  # beyond the list: not an anchor
    assert spans("No anchor here [1].", []) == []
