"""Splitting reference zones into literals, on hand-written zone frames, and its scores."""
from __future__ import annotations

import pandas as pd

from scilabel.references.evaluation import gold_entries, split_counts
from scilabel.references.split import split_references

LINE = 20.0


def frame(rows: list[tuple[str, float, float]], label: str = "references", font_size: float = 16.0) -> pd.DataFrame:
    """Zones from ``(text, x, y)``, one line high each."""
    return pd.DataFrame(
        [{"text": t, "x": x, "y": y, "h": LINE, "font_size": font_size, "label": label} for t, x, y in rows]
    )


def texts(zones: pd.DataFrame) -> list[str]:
    return [lit.text for lit in split_references(zones)]


def test_one_list_item_per_entry_with_link_furniture() -> None:
    zones = frame(
        [
            ("Smith J. A study. Nature 1, 2 (2001).", 100, 0),
            ("[PubMed] Google Scholar", 110, LINE),
            ("van Noort V. Another. Cell 3, 4 (2002).", 100, 2.5 * LINE),
            ("Google Scholar", 110, 3.5 * LINE),
        ]
    )
    literals = split_references(zones)
    assert [lit.text for lit in literals] == [
        "Smith J. A study. Nature 1, 2 (2001).",
        "van Noort V. Another. Cell 3, 4 (2002).",
    ]
    assert [lit.rows for lit in literals] == [[0, 1], [2, 3]]


def test_number_cells_beside_their_entries() -> None:
    zones = frame([("1.", 100, 0), ("Smith J. One.", 140, 0), ("2.", 100, LINE), ("Jones K. Two.", 140, LINE)])
    literals = split_references(zones)
    assert [(lit.label, lit.text, lit.rows) for lit in literals] == [
        ("1", "Smith J. One.", [0, 1]),
        ("2", "Jones K. Two.", [2, 3]),
    ]


def test_numbered_lines_of_one_paragraph_with_br() -> None:
    zones = frame(
        [
            ("[1] Smith J, Jones K. A long title that wraps onto", 100, 0),
            ("the next line. J Biol 3: 4-5.", 100, LINE),
            ("[2] Brown L. Short one. Cell 1: 2.", 100, 2 * LINE),
            ("[3] Green M. Another.", 100, 3 * LINE),
        ]
    )
    literals = split_references(zones)
    assert [lit.label for lit in literals] == ["1", "2", "3"]
    assert literals[0].text == "Smith J, Jones K. A long title that wraps onto the next line. J Biol 3: 4-5."


def test_hanging_indent_without_numbers() -> None:
    zones = frame(
        [
            ("Smith, J. (2001). A title that goes on and on and", 100, 0),
            ("on. Journal of Things, 3, 4-5.", 124, LINE),
            ("Jones, K. (1999). Second entry. Cell, 1, 2.", 100, 2 * LINE),
            ("Zeta, Z. (2005). Third entry spills over onto", 100, 3 * LINE),
            ("a second line. Nature, 7, 8.", 124, 4 * LINE),
        ]
    )
    assert texts(zones) == [
        "Smith, J. (2001). A title that goes on and on and on. Journal of Things, 3, 4-5.",
        "Jones, K. (1999). Second entry. Cell, 1, 2.",
        "Zeta, Z. (2005). Third entry spills over onto a second line. Nature, 7, 8.",
    ]


def test_two_column_list_starts_a_new_entry_at_the_top_of_the_next_column() -> None:
    zones = frame(
        [
            ("Adams A. First (2001).", 100, 0),
            ("Baker B. Second (2002), continued", 100, LINE),
            ("Clark C. Third (2003).", 700, 0),
            ("Dixon D. Fourth (2004).", 700, LINE),
        ]
    )
    assert texts(zones) == [
        "Adams A. First (2001).", "Baker B. Second (2002), continued", "Clark C. Third (2003).", "Dixon D. Fourth (2004)."
    ]


def test_entry_cut_into_fields_on_lines_of_their_own() -> None:
    fields = ["Pinto, D.", ", &", "Clevers, H.", "(", "2005", ").", "Wnt control of stem cells.", "Exp Cell Res", ",",
              "306", ",", "357–363", "Barker, N.", "(", "2007", ").", "Identification of stem cells.", "Nature", ",",
              "449", ",", "1003–1007"]
    zones = frame([(t, 48, k * LINE) for k, t in enumerate(fields)])
    literals = split_references(zones)
    assert [lit.text for lit in literals] == [
        "Pinto, D. , & Clevers, H. ( 2005 ). Wnt control of stem cells. Exp Cell Res , 306 , 357–363",
        "Barker, N. ( 2007 ). Identification of stem cells. Nature , 449 , 1003–1007",
    ]
    assert [lit.rows for lit in literals] == [list(range(12)), list(range(12, 22))]


def test_numbers_on_their_own_lines_are_labels_only_when_they_count_up() -> None:
    fields = ["1", "Kumar, S.", "MEGA.", "Brief Bioinform", "9", ",", "299–306", "(", "2008", ").",
              "2", "Hedges, S. B.", "TimeTree.", "Bioinformatics", "22", ",", "2971–2972", "(", "2006", ").",
              "3", "Chen, R.", "AILUN.", "Nat Methods", "4", ",", "879", "(", "2007", ")."]
    zones = frame([(t, 48, k * LINE) for k, t in enumerate(fields)])
    assert [(lit.label, lit.text) for lit in split_references(zones)] == [
        ("1", "Kumar, S. MEGA. Brief Bioinform 9 , 299–306 ( 2008 )."),
        ("2", "Hedges, S. B. TimeTree. Bioinformatics 22 , 2971–2972 ( 2006 )."),
        ("3", "Chen, R. AILUN. Nat Methods 4 , 879 ( 2007 )."),
    ]


def test_one_zone_holding_a_whole_numbered_list() -> None:
    zones = frame([("1. Smith J. One. Cell 2: 3. 2. Jones K. Two (2001). 3. Brown L. Three.", 100, 0)])
    literals = split_references(zones)
    assert [(lit.label, lit.text) for lit in literals] == [
        ("1", "Smith J. One. Cell 2: 3."),
        ("2", "Jones K. Two (2001)."),
        ("3", "Brown L. Three."),
    ]


def test_glued_numbers_count_only_in_a_numbered_list() -> None:
    numbered = frame(
        [("1Attwell D. One.", 100, 0), ("2van Golen K. Two.", 100, 2 * LINE), ("3D'Arcy F. Three.", 100, 4 * LINE)]
    )
    assert [(lit.label, lit.text) for lit in split_references(numbered)] == [
        ("1", "Attwell D. One."), ("2", "van Golen K. Two."), ("3", "D'Arcy F. Three.")
    ]
    plain = frame([("3D printing in labs. Cell 1: 2.", 100, 0)])
    assert texts(plain) == ["3D printing in labs. Cell 1: 2."]


def test_only_reference_zones_are_used() -> None:
    zones = pd.concat([frame([("Body text [1].", 100, 0)], label="other"), frame([("Smith J. One.", 100, 5 * LINE)])])
    zones.index = [0, 1]
    assert [(lit.text, lit.rows) for lit in split_references(zones)] == [("Smith J. One.", [1])]


def test_split_counts_against_gold_entries() -> None:
    zones = frame([("1.", 100, 0), ("Smith J. One.", 140, 0), ("2.", 100, LINE), ("Jones K. Two.", 140, LINE)])
    zones["ref_id"] = ["a", "a", "b", "b"]
    gold = gold_entries(zones)
    assert gold == [[0, 1], [2, 3]]
    perfect = split_counts([lit.rows for lit in split_references(zones)], gold)
    assert perfect.scores()["count_exact"] == 1.0 and perfect.scores()["boundary_f1"] == 1.0
    merged = split_counts([[0, 1, 2, 3]], gold).scores()
    assert merged["count_exact"] == 0.0 and merged["boundary_recall"] == 0.5 and merged["entries_exact"] == 0.0


def test_number_cells_left_out_by_the_labeller_are_taken_back() -> None:
    zones = frame([("1", 56, 100), ("Lawn JE. Neonatal deaths. Lancet. 2005.", 92, 100), ("Google Scholar", 92, 120),
                   ("2", 56, 150), ("Cowan F. Origins of lesions. Lancet. 2003.", 92, 150),
                   ("3", 56, 300)])
    zones.loc[[3, 5], "label"] = "other"  # the second number, and a page number far from any entry
    literals = split_references(zones)
    assert [(lit.label, lit.rows) for lit in literals] == [("1", [0, 1, 2]), ("2", [3, 4])]


def test_lines_by_text_alone_years_dashes_and_page_ranges() -> None:
    lines = ["Stebbins, G. L. 1941. Apomixis in the angiosperms. Bot. Rev. 7: 507-",
             "542.",
             "--.",
             "1958. Longevity, habitat, and release of genetic variability. Cold Spring",
             "Harbor Symposium on Quantitative Biology 23: 365-378.",
             "Stearns, S. C. 1989. The significance of plasticity. Bioscience 39: 436-445.",
             "Archives of the Society."]
    zones = frame([(t, 0, k * LINE) for k, t in enumerate(lines)])
    assert [(lit.label, lit.rows) for lit in split_references(zones)] == [
        (None, [0, 1]), (None, [2, 3, 4]), (None, [5, 6])
    ]


def test_entries_cut_into_fields_between_look_up_links_are_one_entry_each() -> None:
    """Oxford's lists: one zone per field, each entry followed by look-up links the labeller reads as
    `other`. Without the runs, "CD 2006" (a capital, then a year) would open a new entry."""
    entries = [["Amodio DM", "Frith", "CD", "2006", ".", "Meeting of minds", ".", "Nat Rev Neurosci", "7", ":", "268"],
               ["Blakemore SJ", "Frith", "CD", "2003", ".", "Self-awareness and action", ".", "Curr Opin", "13"],
               ["Benoit RG", "Gilbert SJ", "2010", ".", "When I think about me", ".", "Neuroimage", "50"]]
    rows, y = [], 0.0
    for fields in entries:
        for text in fields:
            rows.append({"text": text, "x": 8.0, "y": y, "h": LINE, "font_size": 16.0, "label": "references"})
            y += LINE
        for text in ("Google Scholar", "Crossref", "WorldCat"):
            rows.append({"text": text, "x": 8.0, "y": y, "h": LINE, "font_size": 16.0, "label": "other"})
            y += LINE
    assert texts(pd.DataFrame(rows)) == [" ".join(fields) for fields in entries]


def test_a_run_holding_several_entries_is_split_by_its_text() -> None:
    """Entries without look-up links under them run together: the run has more than one year."""
    rows = []
    for k, (text, label) in enumerate([("Ames B. Rats. J Bio 1, 2 (2001).", "references"), ("Google Scholar", "other"),
                                       ("Bell C. Mice. J Bio 3, 4 (2002).", "references"), ("Google Scholar", "other"),
                                       ("Cole D. Voles. Proc IEEE 5 (2016).", "references"),
                                       ("Dunn E. Moles. Proc IEEE 6 (2017).", "references"), ("Google Scholar", "other"),
                                       ("Eck F. Bats. J Bio 7, 8 (2003).", "references"), ("Google Scholar", "other")]):
        rows.append({"text": text, "x": 8.0, "y": k * LINE, "h": LINE, "font_size": 16.0, "label": label})
    assert texts(pd.DataFrame(rows)) == ["Ames B. Rats. J Bio 1, 2 (2001).", "Bell C. Mice. J Bio 3, 4 (2002).",
                                         "Cole D. Voles. Proc IEEE 5 (2016).", "Dunn E. Moles. Proc IEEE 6 (2017).",
                                         "Eck F. Bats. J Bio 7, 8 (2003)."]


def test_fields_set_apart_by_gaps_stay_together_where_the_text_runs_on() -> None:
    """Oxford's lists without look-up links: each field a block of its own, with the same gap between
    fields as between entries. An opening bracket at the end of a field and a page range's end
    ("–489.") go on with the entry; the gap before the next names still ends it."""
    entries = [["Aggleton JP, Brown MW (", "1999", ") Episodic memory. Behav Brain Sci", "22", ":", "425", "–489."],
               ["Allan K, Rugg MD (", "2000", ") The role of the prefrontal. Neuroimage", "11", ":", "217", "–227."]]
    rows, y = [], 0.0
    for fields in entries:
        for k, text in enumerate(fields):
            gap = LINE if k in (0, 1) else 0.0  # gaps after the names and after the year's bracket
            rows.append({"text": text, "x": 8.0, "y": y, "h": LINE, "font_size": 16.0, "label": "references"})
            y += LINE + gap
    assert texts(pd.DataFrame(rows)) == [" ".join(fields) for fields in entries]
    # the same gaps with no bracket or range to bind the fields: each is read as an entry of its own
    loose = pd.DataFrame([{**row, "text": row["text"].strip("(–")} for row in rows])
    assert len(texts(loose)) > 2


def boxed(entries: list[list[str]], extra: list[tuple[str, str]] = ()) -> pd.DataFrame:
    """Zones of list items, one box (``node_path``) per entry and one per field inside it, one line each;
    ``extra``: (text, node path) zones after them."""
    rows, y = [], 0.0
    for i, fields in enumerate(entries):
        for j, text in enumerate(fields):
            rows.append({"text": text, "x": 100.0, "y": y, "h": LINE, "font_size": 16.0, "label": "references",
                         "node_path": f"0/2/7/{10 * i + 20}/{10 * i + 21 + j}"})
            y += LINE
    for text, path in extra:
        rows.append({"text": text, "x": 100.0, "y": y, "h": LINE, "font_size": 16.0, "label": "references",
                     "node_path": path})
        y += LINE
    return pd.DataFrame(rows)


def test_each_entry_box_is_one_entry_whatever_boxes_its_fields_take() -> None:
    entries = [
        ["Aaron et al. 1990", "P.G. Aaron, S.S. Frantz", "Dissociation in dyslexic children",
         "Reading and Writing, 2 (1990), pp. 243-264", "View in Scopus"],
        ["Aram 1997", "D.M. Aram", "Hyperlexia: reading without meaning", "Top. Lang. Disord., 17 (1997), pp. 1-13"],
        ["Cohen, 2001", "J. Cohen", "Word forms", "Brain, 123 (2001), pp. 291-307", "|"],
        ["Dunn 2004", "A. Dunn", "Hyperlexia again", "Brain, 127 (2004), pp. 1-5"],
    ]
    literals = split_references(boxed(entries))
    # the citation key is the entry's printed label; its fields end where their boxes do; links go
    assert [(lit.label, lit.text) for lit in literals] == [
        ("Aaron et al. 1990", "P.G. Aaron, S.S. Frantz. Dissociation in dyslexic children. Reading and Writing, "
                              "2 (1990), pp. 243-264"),
        ("Aram 1997", "D.M. Aram. Hyperlexia: reading without meaning. Top. Lang. Disord., 17 (1997), pp. 1-13"),
        ("Cohen, 2001", "J. Cohen. Word forms. Brain, 123 (2001), pp. 291-307 |"),
        ("Dunn 2004", "A. Dunn. Hyperlexia again. Brain, 127 (2004), pp. 1-5"),
    ]
    assert [len(lit.rows) for lit in literals] == [5, 4, 5, 4]
    # without the boxes the text alone cuts the fields apart
    assert len(split_references(boxed(entries).drop(columns="node_path"))) > len(entries)


def test_boxes_that_do_not_look_like_entries_leave_the_split_to_the_text() -> None:
    # one paragraph holding the whole list (every line in the same box): the text decides, as before
    lines = ["Smith J. A study. Nature 1, 2 (2001).", "Jones K. Another. Cell 3, 4 (2002).",
             "Roe R. A third. Science 5, 6 (2003)."]
    zones = frame([(t, 100, i * LINE) for i, t in enumerate(lines)]).assign(node_path="0/2/7/9")
    assert texts(zones) == lines
    # a box holding two entries is not taken for one: the two lists' items are the entries
    entries = [["Smith J. A study.", "Nature 1, 2 (2001)."], ["Jones K. Another.", "Cell 3, 4 (2002)."],
               ["Roe R. A third.", "Science 5, 6 (2003)."]]
    two_lists = boxed(entries, [("Poe E. Later. Cell 7 (2004).", "0/2/8/90/91"), ("Doe J. Last. Cell 8 (2005).",
                                                                                  "0/2/8/92/93")])
    assert texts(two_lists) == ["Smith J. A study. Nature 1, 2 (2001).", "Jones K. Another. Cell 3, 4 (2002).",
                                "Roe R. A third. Science 5, 6 (2003).", "Poe E. Later. Cell 7 (2004).",
                                "Doe J. Last. Cell 8 (2005)."]


def test_a_boxed_entry_parses_with_its_key_as_label_and_the_keys_year_when_the_entry_hides_it() -> None:
    from scilabel.references import load_parser, page_references

    entries = [
        ["Aaron et al. 1990", "P.G. Aaron, S.S. Frantz, A.R. Manges",
         "Dissociation between comprehension and pronunciation in dyslexic and hyperlexic children",
         "Reading and Writing, 2 (1990), pp. 243-264"],
        ["Aram 1997", "D.M. Aram", "Hyperlexia: reading without meaning in young children",
         "Top. Lang. Disord., 17 (1997), pp. 1-13"],
        ["Cohen 2001", "J. Cohen", "The visual word form area", "Brain, 123 (2001), pp. 291-307"],
        ["Dunn 2004", "A. Dunn", "Hyperlexia once more", "Brain, in press"],  # the key alone gives the year
    ]
    refs = page_references(boxed(entries), load_parser()).references
    assert [r["label"] for r in refs] == ["Aaron et al. 1990", "Aram 1997", "Cohen 2001", "Dunn 2004"]
    assert [a["family"] for a in refs[0]["authors"]] == ["Aaron", "Frantz", "Manges"]
    assert refs[0]["title"].startswith("Dissociation between") and refs[0]["year"] == "1990"
    assert refs[3]["year"] == "2004"
