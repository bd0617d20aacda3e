"""The article tree as scilabel XML, JATS and JSON: well-formed, Unicode and markup characters
kept, control characters dropped, empty articles valid."""
from __future__ import annotations

import json

import pytest
from lxml import etree

from scilabel.structure import Article, Figure, Footnote, Item, Paragraph, Section, Sentence
from scilabel.writers import STRUCTURE, WRITERS, formats
from scilabel.writers.json import article_json

TRICKY = "Na⁺/K⁺ <ATPase> & \"pumps\" 'work' — 10 µm, β-actin, 北京, 😀, &amp; stays literal\x0b\x00."


def article() -> Article:
    refs = [{"id": "r1", "label": "1", "text": "Smith J (2001) A study & more. Nature 1:2-9.",
             "authors": [{"given": "J", "family": "Smith"}], "title": "A study & more", "container": "Nature",
             "year": "2001", "volume": "1", "issue": None, "pages": "2-9", "doi": "10.1/x<y>", "pmid": None,
             "url": "https://example.org/?a=1&b=2", "contexts": ["Cells grow [1]."]}]
    methods = Section("Methods", "2", 1, [Paragraph([Sentence("We counted.")])],
                      [Section("Mice", "2.1", 2, [Item([Sentence("first")], marker="•"),
                                                   Item([Sentence("second")], marker="•")])])
    intro = Section("Introduction", "1", 1, [
        Paragraph([Sentence("Cells grow [1].", ["r1"]), Sentence(TRICKY)]),
        Figure("table", "Table 1", "Counts & <rates>."),
    ])
    return Article(title="Cells & <tags>", authors=["Jane Doe", "José Núñez"], affiliations=["Univ. A & B"],
                   abstract=[Section(None, blocks=[Paragraph([Sentence("We studied cells.")])])],
                   sections=[Section(None, blocks=[Paragraph([Sentence("Preamble.")])]), intro, methods],
                   footnotes=[Footnote("Present address: X.", "1")], references=refs)


def write(article: Article, fmt: str) -> bytes:
    return WRITERS[fmt].structure(article).encode("utf-8")


def parse(data: bytes) -> etree._Element:
    assert data.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    return etree.fromstring(data)


def test_xml_hierarchy_and_text_round_trip() -> None:
    root = parse(write(article(), "xml"))
    assert [c.tag for c in root] == ["title", "authors", "affiliations", "abstract", "section", "section", "section",
                                     "footnotes", "references"]
    assert root.findtext("title") == "Cells & <tags>"
    intro = root.findall("section")[1]
    assert (intro.get("number"), intro.get("level"), intro.findtext("title")) == ("1", "1", "Introduction")
    sentences = intro.findall("paragraph/sentence")
    assert sentences[0].get("cites") == "r1"
    assert sentences[1].text == TRICKY.replace("\x0b", "").replace("\x00", "")
    assert intro.find("figure").attrib == {"kind": "table", "label": "Table 1"}
    sub = root.findall("section")[2].find("section")
    assert (sub.get("number"), sub.get("level")) == ("2.1", "2")
    assert [i.get("marker") for i in sub.findall("item")] == ["•", "•"]
    ref = root.find("references/reference")
    assert ref.get("id") == "r1" and ref.findtext("doi") == "10.1/x<y>" and ref.findtext("author/family") == "Smith"
    assert ref.find("issue") is None  # missing fields are left out, not written empty
    assert all(el.text or len(el) for el in root.iter())


def test_entities_are_escaped_once() -> None:
    data = write(article(), "xml")
    assert b"&amp;amp; stays literal" in data and b"&lt;ATPase&gt;" in data
    assert "北京".encode() in data and "😀".encode() in data  # UTF-8, not character references


def test_jats_layout() -> None:
    root = parse(write(article(), "jats"))
    assert root.tag == "article"
    assert root.findtext("front/article-meta/title-group/article-title") == "Cells & <tags>"
    assert [(c.findtext("name/given-names"), c.findtext("name/surname"))
            for c in root.findall("front/article-meta/contrib-group/contrib")] == [("Jane", "Doe"), ("José", "Núñez")]
    # one affiliation: every author is linked to it
    assert [c.find("xref").get("rid") for c in root.iter("contrib")] == ["aff1", "aff1"]
    assert root.findtext("front/article-meta/abstract/p") == "We studied cells."
    body = root.find("body")
    assert [c.tag for c in body] == ["p", "sec", "sec"]
    sec = body.find("sec")
    assert (sec.findtext("label"), sec.findtext("title")) == ("1", "Introduction")
    assert "".join(sec.find("p").itertext()).startswith("Cells grow [1].")
    assert [(x.text, x.get("rid")) for x in sec.iter("xref")] == [("[1]", "r1")]
    assert sec.findtext("table-wrap/label") == "Table 1"
    assert [p.text for p in body.findall("sec/sec/list/list-item/p")] == ["first", "second"]
    assert body.find("sec/sec/list").get("list-type") == "bullet"
    ref = root.find("back/ref-list/ref")
    assert ref.get("id") == "r1" and ref.findtext("mixed-citation").startswith("Smith J")
    cite = ref.find("element-citation")
    assert (cite.findtext("fpage"), cite.findtext("lpage")) == ("2", "9")
    assert cite.find("pub-id").get("pub-id-type") == "doi"
    link = cite.find("ext-link")
    assert link.get("{http://www.w3.org/1999/xlink}href") == "https://example.org/?a=1&b=2"
    assert root.findtext("back/fn-group/fn/p") == "Present address: X."
    assert cite.find("issue") is None and all(el.text or len(el) for el in root.iter() if el.tag != "journal-meta")


def test_json_is_serialisable_and_mirrors_the_tree() -> None:
    data = json.loads(write(article(), "json"))
    assert data == json.loads(json.dumps(article_json(article())))
    intro = data["sections"][1]
    assert intro["title"] == "Introduction" and intro["content"][1] == {
        "type": "figure", "kind": "table", "label": "Table 1", "caption": "Counts & <rates>."}
    assert intro["content"][0]["sentences"][0] == {"text": "Cells grow [1].", "cites": ["r1"]}
    assert data["sections"][2]["sections"][0]["content"][0]["type"] == "item"


TEI = "{http://www.tei-c.org/ns/1.0}"


def test_structure_formats() -> None:
    assert formats(STRUCTURE) == ("json", "xml", "jats", "tei")


@pytest.mark.parametrize("fmt", formats(STRUCTURE))
def test_empty_article_is_valid(fmt: str) -> None:
    data = write(Article(), fmt)
    if fmt == "json":
        assert json.loads(data)["sections"] == []
    else:
        root = parse(data)
        assert root.tag in ("paper", "article", TEI + "TEI")
        assert root.find("section") is None and root.find("body/sec") is None and root.find(f".//{TEI}body/{TEI}div") is None


def test_a_format_without_the_kind_refuses_it() -> None:
    with pytest.raises(ValueError, match="cannot write structure"):
        WRITERS["bibtex"].structure(Article())
