"""Citation anchors: each format, ranges, implausible anchors, OCR-like damage, per-paper format
decision, author-year linking and contexts."""
from __future__ import annotations

import pandas as pd
import pytest

from scilabel.references.anchors import (
    attach_contexts,
    candidates,
    detect_format,
    expand_numbers,
    find_anchors,
    glued_terms,
)


def keys(text: str, fmt: str, limit: int | None = 60) -> list[list]:
    return [c[3] for c in candidates(text, fmt, limit)]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("1", [1]),
        ("1, 3", [1, 3]),
        ("1-4", [1, 2, 3, 4]),
        ("1–4", [1, 2, 3, 4]),
        ("19, 20, 21", [19, 20, 21]),
        ("2, 5–7, 9", [2, 5, 6, 7, 9]),
        ("7–3", []),  # a reversed range is no citation
        ("l1", [11]),  # OCR: l for 1
        ("O7", [7]),
    ],
)
def test_expand_numbers(body: str, expected: list[int]) -> None:
    assert expand_numbers(body) == expected


def test_expand_numbers_respects_the_list_length() -> None:
    assert expand_numbers("12", limit=10) == []
    assert expand_numbers("2010", limit=40) == []


def test_bracket_numbers_lists_and_ranges() -> None:
    text = "Shown before [1]. Several [19, 20, 21] and a range [3–5] and across brackets [6]–[8]."
    assert keys(text, "bracket-number") == [[1], [19, 20, 21], [3, 4, 5], [6, 7, 8]]


def test_bracket_numbers_are_whole_words_only() -> None:
    assert keys("the array x[1] and y[2] hold values", "bracket-number") == []


def test_ocr_damage_in_brackets_and_missing_closing_bracket() -> None:
    assert keys("as found in [l1] and later", "bracket-number") == [[11]]
    assert keys("as seen (51 and others", "paren-number") == [[51]]
    assert keys("a dose (2 mg/l) was given", "paren-number") == []  # closes later: a parenthesis


def test_paren_numbers() -> None:
    assert keys("as reported (4, 7–9).", "paren-number") == [[4, 7, 8, 9]]


def test_superscripts_and_implausible_hosts() -> None:
    text = "This is known in cancer1–3. Units 5 cm2 and In2O3 and sp3 are not, nor CO2 or DNA7; but LIBs.9 is."
    assert keys(text, "superscript") == [[1, 2, 3], [9]]


def test_superscript_after_punctuation_and_et_al() -> None:
    assert keys("as in insects.31 and by Smith et al.12 too", "superscript") == [[31], [12]]


def test_superscript_after_a_name_in_parentheses_is_no_citation() -> None:
    assert keys("the Su(var)3-9 domain", "superscript") == []
    assert keys("both (Figure 2 and 3)8,9 agree", "superscript") == [[8, 9]]


def test_recurring_glued_terms_are_names_not_citations() -> None:
    texts = ["Notch1 binds. Notch1 again and Notch1 once more, as shown earlier12."]
    terms = glued_terms(texts)
    assert "Notch1" in terms
    assert [c[3] for c in candidates(texts[0], "superscript", 40, terms)] == [[12]]


def test_author_year_groups_and_narrative() -> None:
    text = "Known (Smith et al., 2001; Jones 1999a) and as Brown and Green (2004) said (see Li, 2003, 2005)."
    found = keys(text, "author-year", None)
    assert found == [
        [("Smith", None, "2001"), ("Jones", None, "1999a")],
        [("Brown", "Green", "2004")],
        [("Li", None, "2003"), ("Li", None, "2005")],
    ]


def test_author_year_in_brackets_and_alpha_tags() -> None:
    assert keys("as in [Smith 2001] and", "author-year-bracket") == [[("Smith", None, "2001")]]
    assert keys("see [BPZ01] and [Smi99] but not [ab]", "alpha-bracket") == [["BPZ01"], ["Smi99"]]


def test_format_is_decided_per_paper() -> None:
    numbered = ["As shown [1], [2, 3] and [4–6].", "Equation (1) holds."]
    assert detect_format(numbered, 10) == "bracket-number"
    author_year = ["As shown (Smith, 2001) and (Jones et al., 1999).", "See [1]."]
    assert detect_format(author_year, 10) == "author-year"
    assert detect_format(["No citations here."], 10) is None


def _page(body: list[str], sup: list[int] | None = None) -> pd.DataFrame:
    return pd.DataFrame(
        {"text": body, "label": "other", "sup_chars": sup or [0] * len(body)}, index=range(100, 100 + len(body))
    )


def test_numbers_link_by_printed_label_and_contexts_are_sentences() -> None:
    refs = [{"text": f"Ref {n}", "label": str(n)} for n in (1, 2, 3)]
    zones = _page(["First sentence. Known facts [2, 3] hold here. Last one."])
    anchors = find_anchors(zones, refs)
    assert [(a.zone, a.targets) for a in anchors] == [(100, [1, 2])]
    assert anchors[0].context == "Known facts [2, 3] hold here."
    attach_contexts(refs, anchors)
    assert refs[0]["contexts"] == [] and refs[2]["contexts"] == ["Known facts [2, 3] hold here."]


def test_author_year_links_by_surname_and_year() -> None:
    refs = [
        {"text": "Smith J, Brown K (2001) A.", "authors": [{"family": "Smith"}, {"family": "Brown"}], "year": "2001"},
        {"text": "Smith J (2003) B.", "authors": [{"family": "Smith"}], "year": "2003"},
        {"text": "Müller A (1999) C.", "authors": [{"family": "Müller"}], "year": "1999"},
        {"text": "Smyth P (2001) D.", "authors": [{"family": "Smyth"}], "year": "2001"},
    ]
    zones = _page(["We agree (Smith and Brown, 2001; Smith, 2003). Muller (1999) found it."])
    anchors = find_anchors(zones, refs)
    assert [a.targets for a in anchors] == [[0, 1], [2]]


def test_spaced_superscripts_need_superscript_characters_and_a_plausible_host() -> None:
    text = "as in the brain 3, from 32 cases (Figure 1) and the liver 4 as expected"
    assert keys(text, "superscript") == []  # spaced numbers: only where the zone has superscripts
    assert [c[3] for c in candidates(text, "superscript", 40, sup_chars=2)] == [[3], [4]]
    assert [c[3] for c in candidates(text, "superscript", 40, sup_chars=1)] == [[3]]  # best first


def test_superscripts_need_superscript_characters_when_known() -> None:
    refs = [{"text": f"Ref {n}", "label": str(n)} for n in range(1, 6)]
    assert find_anchors(_page(["in the brain3 and the liver4 as expected"], sup=[0]), refs) == []
    found = find_anchors(_page(["in the brain3 and the liver4 as expected"], sup=[2]), refs)
    assert [a.targets for a in found] == [[2], [3]]
