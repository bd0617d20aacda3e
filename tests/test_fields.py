"""The article fields of the label record, assembled from the labelled zones' texts."""
import pytest

from scilabel.fields import affiliation_texts, field_text, split_author_names, strip_caption


@pytest.mark.parametrize("field,text,expected", [
    ("title", "Title:Attention Is All You Need", "Attention Is All You Need"),
    ("title", "Titles of nobility in Europe", "Titles of nobility in Europe"),
    ("title", "Title", ""),
    ("authors", "Authors", ""),
    ("authors", "Authors and affiliations", "Authors and affiliations"),
    ("authors", "Authors: A. Roe", "A. Roe"),
    ("authors", "Author(s): A. Roe", "A. Roe"),
    ("authors", "By Jane Roe", "Jane Roe"),
    ("authors", "Byron Smith", "Byron Smith"),
    ("authors", "by hand", "by hand"),
    ("authors", "Curator and contributors: A. Roe", "A. Roe"),
    ("authors", "Written by Jane Roe", "Jane Roe"),
    ("authors", "Editors", ""),
    ("affiliations", "Author information: Dept A", "Dept A"),
    ("affiliations", "Affiliations", ""),
    ("affiliations", "Addresses of the Royal Society", "Addresses of the Royal Society"),
    ("abstract", "ABSTRACT: We study", "We study"),
    ("abstract", "Abstract", ""),
    ("abstract", "Summary statistics were computed", "Summary statistics were computed"),
])
def test_strip_caption(field: str, text: str, expected: str) -> None:
    assert strip_caption(field, text).strip() == expected


def test_field_text_joins_what_is_left_after_captions() -> None:
    assert field_text("abstract", ["Abstract", "We study x.", "More."], sep="\n") == "We study x.\nMore."
    assert field_text("abstract", ["Abstract:"]) is None
    assert field_text("title", []) is None


def test_author_names_leave_out_addresses_and_institutions() -> None:
    texts = ["Authors:Ashish Vaswani, Noam Shazeer", "Victoria Van Hyning", "University of Oxford",
             "victoria [at] zooniverse.org", "jane@uni.edu", "https://orcid.org/0000-0002-1825-0097",
             "Department of Physics", "Ashish Vaswani", "J. Smith, MD, PhD", "Author", "Affiliation"]
    assert split_author_names(texts) == ["Ashish Vaswani", "Noam Shazeer", "Victoria Van Hyning", "J. Smith"]


def test_author_names_lose_affiliation_letters_and_lines_that_are_no_names() -> None:
    texts = ["Nai-Chi Chiu a,b, Chien-Wei Su b,c", "Chara A Zika\u2709", ", Gaspar Delso abc", "Show author details",
             "Search for more papers by this author", "Olaf von dem Knesebeck", "kConFab",
             "on behalf of the EMAS Study Group", "Correspondence", "Corresponding Author", "Author Information",
             "Author(s)", "Addresses"]
    assert split_author_names(texts) == ["Nai-Chi Chiu", "Chien-Wei Su", "Chara A Zika", "Gaspar Delso",
                                         "Olaf von dem Knesebeck", "kConFab", "on behalf of the EMAS Study Group"]


def test_affiliation_captions_and_markers_are_removed() -> None:
    assert affiliation_texts(["Affiliations", "Affiliations: 1 Dept A", "*Dept B", "a Univ C", "\u2020, Inst D", "2",
                              "Dept E, 12 Road"]) == ["Dept A", "Dept B", "Univ C", "Inst D", "Dept E, 12 Road"]


def test_affiliation_run_in_captions_and_correspondence_lines_are_left_out() -> None:
    texts = ["Affiliation Shandong Entry-exit Inspection Bureau, Qingdao, China", "\u21b5*Corresponding author's "
             "e-mail address: x{at}unm.edu", "Correspondence to: J Roe", "Affiliations in biology, Lund"]
    assert affiliation_texts(texts) == ["Shandong Entry-exit Inspection Bureau, Qingdao, China",
                                        "Affiliations in biology, Lund"]


def test_affiliations_repeated_for_each_author_are_listed_once() -> None:
    texts = ["Dept A, Univ X", "Dept B, Univ Y", "1 Dept A, Univ X", "Dept C", "Dept B,  Univ Y"]
    assert affiliation_texts(texts) == ["Dept A, Univ X", "Dept B, Univ Y", "Dept C"]


def test_author_names_split_where_markers_or_glued_names_join_them() -> None:
    texts = ["Li Sun1,2Datao Wang2Yufeng Luo2", "Anton CrombachPaulien Hogeweg", "Edward F. DeLong and Ross McDonald",
             "Curator and contributors: Diego Gazzolo, Douglas MacArthur", "Edited by Jane Roe"]
    assert split_author_names(texts) == ["Li Sun", "Datao Wang", "Yufeng Luo", "Anton Crombach", "Paulien Hogeweg",
                                         "Edward F. DeLong", "Ross McDonald", "Diego Gazzolo", "Douglas MacArthur",
                                         "Jane Roe"]


def test_author_names_keep_the_name_beside_an_address_a_link_or_a_role() -> None:
    texts = ["Silvia Brem sbrem@kjpd.uzh.ch, Silvia Bach, +5 , Ulla Richardson -", "Authors Info",
             "Oana-Maria Istrate b Author Vitae,", "Camelia Bala a, b, , Author Vitae",
             "Marian Goral, Evaluator and Barbara Wisniewska-Goclowska, Evaluator", "Adam Skrzecz, Compiler",
             "SARAH&nbsp;THOMSON a1, ELISABETH A.&nbsp;INNES a1 and FRANK&nbsp;KATZER",
             "Jo Lee (jo [at] uni.edu), https://example.org/jo", "Peng-Fei Xu (\u5f90\u9e4f\u98de), Tao Yang (University X, Y)", "for the Databases to Evaluate AIDS (IeDEA) Group"]
    assert split_author_names(texts) == ["Silvia Brem", "Silvia Bach", "Ulla Richardson", "Oana-Maria Istrate",
                                         "Camelia Bala", "Marian Goral", "Barbara Wisniewska-Goclowska",
                                         "Adam Skrzecz", "SARAH THOMSON", "ELISABETH A. INNES", "FRANK KATZER",
                                         "Jo Lee", "Peng-Fei Xu", "Tao Yang",
                                         "for the Databases to Evaluate AIDS (IeDEA) Group"]
