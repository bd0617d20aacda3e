"""Silver labels: aligning a page's meta tags with its zones."""
from pathlib import Path

import pandas as pd

from scilabel.corpus.silver import build_silver, publisher_key, publisher_split, silver_labels
from scilabel.metadata import PageMeta

ABSTRACT = ("We measured how deep the roots of field beans grow when water is scarce, in three dry seasons "
            "and two soils. Roots reached deeper layers under drought, and nodules moved down with them.")
TEXTS = [
    "Journal of Field Botany",                                          # 0 banner
    "Cite this: A. Okafor, M. Lee. Root growth of Vicia faba under drought. J Field Bot 2020",  # 1
    "Root Growth of Vicia faba Under Drought",                          # 2 title
    "Ada Okafor, PhD",                                                  # 3 authors (one per line)
    "Min-jun Lee 1 *",                                                  # 4
    "1 Dept. of Botany, Riverside College, Riverside, USA",             # 5 affiliation
    "Abstract",                                                         # 6 heading
    "Background",                                                       # 7 structured section label
    ABSTRACT[:100],                                                     # 8 abstract part 1
    ABSTRACT[100:],                                                     # 9 abstract part 2
    "Introduction",                                                     # 10
    "Okafor and Lee studied beans before [1].",                         # 11 body mentioning authors
    "References",                                                       # 12
    "Smith A, Jones B. Deep roots in dry soils of the northern plains. Plant J. 2001;4:1-9.",  # 13
    "[PubMed] [Google Scholar]",                                        # 14
    "Brown C. Nodules and water: a field guide to legumes. Soil Sci. 2003;7:22-30.",  # 15
    "Green D. Three seasons of drought in bean fields. Agron Lett. 2005;2:3-5.",  # 16
]
META = PageMeta(
    title="Root growth of Vicia faba under drought",
    authors=["Okafor, Ada", "Lee, Min-jun"],
    institutions=["Dept. of Botany, Riverside College, Riverside, USA"],
    abstract=ABSTRACT,
    references=[{"title": ["Deep roots in dry soils of the northern plains"]},
                {"title": ["Nodules and water: a field guide to legumes"]},
                {"title": ["Three seasons of drought in bean fields"]}],
)


def test_aligns_every_field_and_leaves_the_rest_other():
    result = silver_labels(TEXTS, META)
    expected = ["other", "other", "title", "authors", "authors", "affiliations", "abstract_heading",
                "abstract", "abstract", "abstract", "other", "other", "references_heading", "references",
                "other", "references", "references"]
    assert result.labels == expected
    assert result.fields == ["title", "authors", "affiliations", "abstract", "references"]
    assert result.confidence == 1.0


def test_truncated_description_matches_the_zone_it_starts():
    meta = PageMeta(abstract=ABSTRACT[:120] + "\u2026")
    texts = ["Summary", ABSTRACT, "Body text that follows the abstract and says other things entirely."]
    assert silver_labels(texts, meta).labels == ["abstract_heading", "abstract", "other"]


def test_parts_after_a_cut_structured_abstract_are_unscored():
    meta = PageMeta(abstract=ABSTRACT[:120] + "...")
    texts = ["Abstract", "Objective", ABSTRACT, "Methods", "Roots were weighed in three seasons.", "Results",
             "Deeper roots in every dry season.", "Key points", "Roots go deep.", "Introduction", "Body text."]
    result = silver_labels(texts, meta)
    assert result.labels[:3] == ["abstract_heading", "abstract", "abstract"]
    assert result.labels[3:] == ["other"] * 8
    assert result.unscored == {3: "abstract", 4: "abstract", 5: "abstract", 6: "abstract"}
    assert silver_labels(texts, PageMeta(abstract=ABSTRACT)).unscored == {}  # a whole tag knows the end


def test_missing_fields_score_zero_and_label_nothing():
    result = silver_labels(["Some page", "Nothing matches here at all"], PageMeta(title="A quite different title", authors=["Doe, Jane"]))
    assert result.labels == ["other", "other"]
    assert result.scores == {"title": 0.0, "authors": 0.0}
    assert result.fields == []  # declared but not found: gold unknown, not scored
    assert silver_labels(["x"], PageMeta()).fields == []


def test_publisher_split_is_deterministic_and_disjoint():
    key = publisher_key(PageMeta(doi="10.1371/journal.pone.0000001"), Path("a/b.html"))
    assert key == "doi:10.1371"
    assert publisher_key(PageMeta(), Path("pages/acs/x.html")) == "folder:acs"
    assert publisher_split(key) == publisher_split(key) in ("train", "test")


def test_build_silver_writes_zones_manifest_and_overlays(tmp_path):
    pages = tmp_path / "pages"
    pages.mkdir()
    head = "".join(f'<meta name="citation_author" content="{a}">' for a in META.authors)
    body = "".join(f"<p>{t}</p>" for t in TEXTS)
    (pages / "one.html").write_text(
        f'<html><head><meta name="citation_title" content="{META.title}">{head}'
        f'<meta name="citation_doi" content="10.5555/x"></head><body>{body}</body></html>')
    (pages / "broken.html").write_bytes(b"\x00\x01\x02" * 100)
    manifest = build_silver(pages, tmp_path / "out", workers=1, overlays=1)
    ok = manifest.set_index("document").loc["one.html"]
    assert ok["fields"] == "title authors" and ok["confidence"] == 1.0 and ok["zones_title"] == 1
    assert "binary content" in manifest.set_index("document").loc["broken.html", "error"]
    zones = pd.read_parquet(tmp_path / "out" / "zones.parquet")
    assert zones.loc[zones["label"] == "authors", "text"].tolist() == ["Ada Okafor, PhD", "Min-jun Lee 1 *"]
    assert (tmp_path / "out" / "overlays" / "one.html.png").read_bytes()[:4] == b"\x89PNG"


def test_byline_with_glued_suffixes_wins_over_a_later_listing_and_repeated_affiliations_count():
    texts = ["Root Growth of Vicia faba Under Drought",
             "A. OkaforEmail author", "M.-j. Lee",                              # byline, names glued to a link
             "Dept. of Botany, Riverside College, Riverside, USA",
             "Abstract", ABSTRACT,
             "Riverside College",                                               # a fragment in the footer
             *[f"Body paragraph {n} about roots and water." for n in range(15)],
             "Authors and affiliations", "Ada Okafor", "Min-jun Lee",           # listed again at the end
             "Dept. of Botany, Riverside College, Riverside, USA"]
    labels = silver_labels(texts, META).labels
    assert [i for i, lab in enumerate(labels) if lab == "authors"] == [1, 2]
    assert [i for i, lab in enumerate(labels) if lab == "affiliations"] == [3, 25]


def test_author_blocks_and_addresses_broken_over_lines():
    meta = PageMeta(title=META.title, authors=["Okafor, Ada", "Lee, Min-jun"],
                    institutions=["Department of Botany, Riverside College, Riverside, USA"])
    block = ["ORCID", "Google Scholar", "Search for other works", "PubMed", "Web of Science", "Crossref"]
    texts = ["Root Growth of Vicia faba Under Drought",
             "A. Okafor", "Department of Botany, Riverside College", "Riverside, USA", *block,
             "M. Lee", "Department of Botany, Riverside College", "Riverside, USA", "Received 2020"]
    labels = silver_labels(texts, meta).labels
    assert [texts[i] for i, lab in enumerate(labels) if lab == "authors"] == ["A. Okafor", "M. Lee"]
    assert [i for i, lab in enumerate(labels) if lab == "affiliations"] == [2, 3, 11, 12]


def test_reference_entries_split_into_fields_are_labelled_whole():
    refs = [{"title": ["Deep roots in dry soils of the northern plains"], "author": ["Smith A.", "Jones B."],
             "journal_title": ["Plant J"], "year": ["2001"], "volume": ["4"], "pages": ["1-9"]},
            {"title": ["Nodules and water: a field guide to legumes"], "author": ["Brown C."],
             "journal_title": ["Soil Sci"], "year": ["2003"], "volume": ["7"], "pages": ["22-30"]},
            {"title": ["Three seasons of drought in bean fields"], "author": ["Green D."]}]
    meta = PageMeta(title=META.title, references=refs)
    texts = ["Root Growth of Vicia faba Under Drought", "Introduction", "Roots grow deep.", "References",
             "1", "Smith", "A.", "Jones", "B.", "(", "2001", ")", "Deep roots in dry soils of the northern plains",
             ".", "Plant J", ",", "4", ",", "1", "–", "9", ".", "Google Scholar", "CrossRef",
             "2", "Brown C. (2003) Nodules and water: a field guide to legumes. Soil Sci 7: 22-30", "PubMed",
             "3", "Green D. Three seasons of drought in bean fields.", "Footer text of the site"]
    labels = silver_labels(texts, meta).labels
    assert labels[3] == "references_heading"
    assert all(lab == "references" for lab in labels[4:22])  # the first entry, number to final stop
    assert labels[22:24] == ["other", "other"]  # its link line
    assert labels[24:27] == ["references", "references", "other"]
    assert labels[27:] == ["references", "references", "other"]
    assert "references" in silver_labels(texts, meta).fields
    few = silver_labels(texts[:24], meta)  # one of three entries on the page: its gold is too thin to score
    assert few.scores["references"] < 0.8 and "references" not in few.fields and "title" in few.fields


def test_bare_markers_under_author_names_are_part_of_the_byline():
    texts = ["Root Growth of Vicia faba Under Drought", "Ada Okafor", "1", "Min-jun Lee", "1 2", "*",
             "Dept. of Botany, Riverside College, Riverside, USA", "3", "Abstract"]
    labels = silver_labels(texts, META).labels
    assert labels[1:6] == ["authors"] * 5 and labels[6] == "affiliations" and labels[7:] == ["other", "other"]


def test_references_declared_as_free_text_or_without_title_are_found():
    refs = [{"text": ["Moult, J. & Fidelis, K. Critical assessment of techniques for protein structure "
                      "prediction. CASP 14 Abstract Book (2020)."]},
            {"journal_title": ["Chest"], "volume": ["137"], "year": ["2010"], "pmid": ["19762550"]},
            {"journal_title": ["Chest"], "volume": ["138"], "year": ["2010"]},
            {"year": ["1999"], "volume": ["22"], "pages": ["425"]}]  # too little to look for
    texts = ["Root Growth of Vicia faba Under Drought", "Body text, Chest 137 (2010) cited in passing and "
             "much else besides." * 40, "References",
             "Moult J, Fidelis K. Critical assessment of techniques for protein structure prediction. "
             "CASP 14 Abstract Book (2020).",
             "Lip GYH, Nieuwlaat R. Refining clinical risk stratification. Chest 2010;137:263-72.",
             "OpenUrlCrossRef",
             "Pisters R, Lane DA. A novel user-friendly score. Chest 2010;138:1093-100.",
             "Smith A. Deep roots. Plant J 1999;22:425-30."]
    result = silver_labels(texts, PageMeta(title=META.title, references=refs))
    assert result.labels == ["title", "other", "references_heading", "references", "references", "other",
                             "references", "other"]
    assert result.scores["references"] == 1.0  # three of the three references it could look for


def test_a_zone_is_the_match_of_one_reference_only():
    refs = [{"title": ["Dabigatran versus warfarin in patients with atrial fibrillation"]},
            {"title": ["Apixaban versus warfarin in patients with atrial fibrillation"]},
            {"title": ["Rivaroxaban versus warfarin in patients with atrial fibrillation"]}]
    texts = ["References", "Connolly SJ. Dabigatran versus warfarin in patients with atrial fibrillation. N Engl J Med 2009",
             "Granger CB. Apixaban versus warfarin in patients with atrial fibrillation. N Engl J Med 2011"]
    result = silver_labels(texts, PageMeta(references=refs))
    assert result.labels == ["references_heading", "references", "references"]
    assert round(result.scores["references"], 2) == 0.67  # the third has no zone of its own


def test_byline_lines_of_a_name_and_a_role_are_the_byline():
    meta = PageMeta(title=META.title, authors=["Wang, Shirley V", "Jessica M Franklin", "Os Keyes"],
                    institutions=["University of Washington, School of Law"])
    texts = ["Root Growth of Vicia faba Under Drought",
             "Shirley V Wang, assistant professor, associate epidemiologist1,",  # 1
             "Jessica M Franklin, assistant professor, biostatistician1",         # 2
             "Os Keyes, University of Washington, School of Law",                 # 3: name and affiliation
             "Abstract", ABSTRACT] + ["Body text."] * 20 + [
             "Articles by Shirley V Wang", "Articles by Jessica M Franklin", "Articles by Os Keyes"]
    labels = silver_labels(texts, meta).labels
    assert [i for i, lab in enumerate(labels) if lab == "authors"] == [1, 2]
    assert labels[3] == "affiliations"


def test_a_pop_up_close_glyph_between_names_is_no_marker():
    texts = ["Root Growth of Vicia faba Under Drought", "Ada Okafor", "\u2a2f", "*", "Min-jun Lee", "\u2020", "\u00d7", "Abstract"]
    labels = silver_labels(texts, META).labels
    assert labels[1:7] == ["authors", "other", "authors", "authors", "authors", "other"]


def test_citation_and_copyright_lines_naming_the_authors_are_no_byline():
    texts = ["Root Growth of Vicia faba Under Drought", "Ada Okafor", "Min-jun Lee", "Abstract", ABSTRACT,
             "Okafor, A. & Lee, M. J Field Bot (2020) 4: 12. doi:10.1000/jfb.12",  # "Cite this article"
             "\u00a9 Okafor et al. 2020"]
    labels = silver_labels(texts, META).labels
    assert [i for i, lab in enumerate(labels) if lab == "authors"] == [1, 2]
    # without the byline the citation line is still not taken for one
    assert "authors" not in silver_labels(texts[:1] + texts[3:], META).labels
