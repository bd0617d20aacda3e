"""Reading the metadata a page declares (every form), its conflicts with the visible fields, and the
article's own citation merged from both."""
import json

import numpy as np
import pandas as pd
import rispy
from pybtex.database import parse_string

from scilabel.fields import page_record
from scilabel.labeler import PageLabels
from scilabel.metadata import conflicts, read_meta
from scilabel.references import PageReferences
from scilabel.writers import LABEL, WRITERS, formats

PAGE = """<html><head>
<meta name="citation_title" content="Root growth of &lt;i&gt;Vicia faba&lt;/i&gt; under drought">
<meta name="citation_author" content="Okafor, Ada"><meta name="citation_author" content="Lee Min-jun">
<meta name="citation_author" content="Okafor, Ada">
<meta name="citation_author_institution" content="Dept. of Botany, Riverside College">
<meta name="DC.Description" content="Abstract: Roots grew deeper when water was scarce.">
<meta name="citation_reference" content="citation_title=Deep roots;citation_author=A. Smith;citation_author=B. Jones;citation_publication_date=2001;">
<meta name="citation_reference" content="Smith A. Free-text reference. 2003.">
<meta name="citation_doi" content="10.1234/abc.5"><meta property="og:title" content="ignored, citation_title wins">
</head><body></body></html>"""


def test_reads_citation_and_dublin_core_tags():
    meta = read_meta(PAGE)
    assert meta.title == "Root growth of Vicia faba under drought"
    assert meta.authors == ["Okafor, Ada", "Lee Min-jun"]
    assert meta.institutions == ["Dept. of Botany, Riverside College"]
    assert meta.abstract == "Roots grew deeper when water was scarce."
    assert meta.references[0] == {"title": ["Deep roots"], "author": ["A. Smith", "B. Jones"], "publication_date": ["2001"]}
    assert meta.references[1] == {"text": ["Smith A. Free-text reference. 2003."]}
    assert meta.doi == "10.1234/abc.5"


def test_fallbacks_and_empty_pages():
    assert read_meta('<meta property="og:title" content="OG title">').title == "OG title"
    assert read_meta("").title == ""
    assert read_meta("<p>no head at all</p>").authors == []


def test_highwire_authors_keep_their_orcid_and_institutions():
    meta = read_meta("""<head>
<meta name="citation_author" content="Okafor, Ada">
<meta name="citation_author_institution" content="Riverside College">
<meta name="citation_author_orcid" content="https://orcid.org/0000-0002-1825-009x">
<meta name="citation_author" content="Lee Min-jun">
<meta name="citation_author_institution" content="Hill Institute"><meta name="citation_author_institution" content="Lake Lab">
<meta name="citation_doi" content="https://DOI.org/10.5555/Roots.12"><meta name="citation_issn" content="1234-5678">
<meta name="citation_issn" content="8765-4321"><meta name="citation_volume" content="7"><meta name="citation_issue" content="2">
<meta name="citation_firstpage" content="101"><meta name="citation_lastpage" content="118">
<meta name="citation_online_date" content="2021/03/04"><meta name="citation_keywords" content="roots; drought">
<meta name="citation_pdf_url" content="https://example.org/roots.pdf"><meta name="citation_language" content="en">
</head>""")
    assert [(a.name, a.orcid, a.affiliations) for a in meta.people] == [
        ("Okafor, Ada", "0000-0002-1825-009X", ["Riverside College"]),
        ("Lee Min-jun", "", ["Hill Institute", "Lake Lab"])]
    assert meta.doi == "10.5555/Roots.12" and meta.issn == ["1234-5678", "8765-4321"]
    assert (meta.volume, meta.issue, meta.first_page, meta.last_page) == ("7", "2", "101", "118")
    assert meta.keywords == ["roots", "drought"] and meta.online_date == "2021/03/04"
    assert meta.pdf_url == "https://example.org/roots.pdf" and meta.language == "en"
    assert meta.sources["doi"] == ["highwire"]


def test_dublin_core_prism_and_open_graph():
    meta = read_meta("""<html lang="fr"><head>
<meta name="DC.Title" content="Dew on spider silk"><meta name="dcterms.creator" content="Ruiz, Paz">
<meta name="DC.Identifier" content="publisher-id-77"><meta name="DC.Identifier" content="doi:10.4444/dew.3">
<meta name="DC.Rights" content="CC BY 4.0"><meta name="prism.publicationName" content="Silk Letters">
<meta name="prism.volume" content="12"><meta name="prism.startingPage" content="e5">
<meta property="og:title" content="Dew on spider silk | Silk Letters"><meta property="og:site_name" content="Silk Site">
<meta property="article:published_time" content="2020-05-06">
</head><body></body></html>""")
    assert meta.title == "Dew on spider silk" and meta.authors == ["Ruiz, Paz"]
    assert meta.doi == "10.4444/dew.3"  # not the publisher's own identifier
    assert meta.journal == "Silk Letters" and meta.volume == "12" and meta.first_page == "e5"
    assert meta.licence == "CC BY 4.0" and meta.language == "fr" and meta.date == "2020-05-06"
    assert meta.sources["title"] == ["dublin_core", "open_graph"] and meta.sources["journal"] == ["prism", "open_graph"]


JSON_LD = """<head><script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
 {"@type": "WebPage", "@id": "#page", "name": "Site page"},
 {"@type": "Person", "@id": "#p1", "givenName": "Ines", "familyName": "Moreau",
  "sameAs": "https://orcid.org/0000-0001-2345-6789", "affiliation": {"@type": "Organization", "name": "Coast &amp; Sea Lab"}},
 {"@type": ["ScholarlyArticle"], "headline": "Kelp <i>forests</i> at night", "author": [{"@id": "#p1"}, "Tom Baker"],
  "description": "Kelp grew at night.", "datePublished": "2019-01-02", "inLanguage": {"@type": "Language", "name": "English"},
  "identifier": {"@type": "PropertyValue", "propertyID": "doi", "value": "10.7777/kelp.1"},
  "keywords": "kelp, night", "license": {"@type": "CreativeWork", "url": "https://creativecommons.org/licenses/by/4.0/"},
  "publisher": {"@type": "Organization", "name": "Tide Press"}, "pageStart": "3", "pageEnd": 9,
  "citation": [{"@type": "CreativeWork", "name": "Older kelp"}],
  "isPartOf": {"@type": "PublicationIssue", "issueNumber": "4", "isPartOf": {"@type": "PublicationVolume",
   "volumeNumber": "21", "isPartOf": {"@type": "Periodical", "name": "Marine Notes", "issn": ["1111-2222"]}}}}
]}</script>
<script type="application/ld+json">{"@type": "Article", "headline": "a less specific node", }</script>
<script type="application/ld+json">{ broken json [</script></head>"""


def test_json_ld_graph_with_nested_authors_and_periodical():
    meta = read_meta(JSON_LD)
    assert meta.title == "Kelp forests at night"
    assert [(a.name, a.orcid, a.affiliations) for a in meta.people] == [
        ("Ines Moreau", "0000-0001-2345-6789", ["Coast & Sea Lab"]), ("Tom Baker", "", [])]
    assert meta.institutions == ["Coast & Sea Lab"]
    assert (meta.journal, meta.volume, meta.issue, meta.issn) == ("Marine Notes", "21", "4", ["1111-2222"])
    assert (meta.doi, meta.first_page, meta.last_page, meta.publisher) == ("10.7777/kelp.1", "3", "9", "Tide Press")
    assert meta.keywords == ["kelp", "night"] and meta.language == "English"
    assert meta.licence == "https://creativecommons.org/licenses/by/4.0/"
    assert meta.references == [{"text": ["Older kelp"]}] and meta.sources["title"] == ["json_ld"]


def test_broken_json_ld_alone_gives_an_empty_record():
    assert read_meta('<head><script type="application/ld+json">{"@type": "ScholarlyArticle", "name": </script></head>') \
        == read_meta("<head></head>")
    # a trailing comma and an HTML comment wrapper are tolerated
    assert read_meta('<script type="application/ld+json"><!-- {"@type": "Article", "name": "T",} --></script>').title == "T"


def test_coins_span():
    meta = read_meta('<body><span class="Z3988" title="ctx_ver=Z39.88-2004&amp;rft.atitle=Moss+%26+lichen&amp;'
                     'rft.jtitle=Bryo+Journal&amp;rft.au=Nils+Berg&amp;rft.au=Ana+Silva&amp;rft.date=2011&amp;'
                     'rft.pages=12-19&amp;rft_id=info%3Adoi%2F10.3333%2Fmoss.9"></span></body>')
    assert meta.title == "Moss & lichen" and meta.authors == ["Nils Berg", "Ana Silva"]
    assert (meta.journal, meta.date, meta.first_page, meta.last_page) == ("Bryo Journal", "2011", "12", "19")
    assert meta.doi == "10.3333/moss.9" and meta.sources["authors"] == ["coins"]


def test_rdfa_in_the_body():
    meta = read_meta("""<body><div vocab="http://schema.org/" typeof="ScholarlyArticle">
<h1 property="schema:name">Ants &amp; <em>acacias</em></h1>
<span property="author" typeof="Person"><span property="name">Kofi Mensah</span>
  <span property="affiliation" typeof="Organization"><span property="name">Savanna Station</span></span></span>
<meta property="datePublished" content="2018-07-01"><p property="description">Ants guard trees.</p>
</div></body>""")
    assert meta.title == "Ants & acacias" and meta.authors == ["Kofi Mensah"]
    assert meta.people[0].affiliations == ["Savanna Station"]
    assert meta.date == "2018-07-01" and meta.abstract == "Ants guard trees." and meta.sources["title"] == ["rdfa"]


def test_duplicate_and_conflicting_tags_first_of_the_most_specific_form_wins():
    meta = read_meta("""<head><meta property="og:title" content="OG title"><meta name="dc.title" content="DC title">
<meta name="citation_title" content=" "><meta name="citation_title" content="First &amp;amp; best">
<meta name="citation_title" content="Second"><meta name="citation_author" content="A. One">
<meta name="citation_author" content="A. One"><meta name="citation_volume" content="">
<meta name="prism.volume" content="3"></head>""" + JSON_LD.removeprefix("<head>"))
    assert meta.title == "First & best"  # empty values skipped, entities decoded twice-escaped too
    assert meta.authors == ["A. One"] and meta.volume == "3"
    assert meta.sources["title"] == ["highwire", "dublin_core", "open_graph", "json_ld"]
    assert meta.people[0].name == "A. One" and meta.journal == "Marine Notes"  # JSON-LD fills what tags leave


def test_never_raises_and_records_nulls():
    for page in ("", "   ", "<p>no head at all</p>", "<<<>>>", "\x00", "<head><meta name=citation_title></head>"):
        read_meta(page)
    record = read_meta("<head></head>").record()
    assert set(record.values()) == {None}
    full = read_meta(JSON_LD).record()
    assert json.loads(json.dumps(full))["authors"][0] == {
        "name": "Ines Moreau", "orcid": "0000-0001-2345-6789", "affiliations": ["Coast & Sea Lab"]}
    assert full["volume"] == "21" and full["online_date"] is None and full["sources"]["doi"] == ["json_ld"]


def test_conflicts_report_a_stale_title_and_foreign_authors():
    meta = read_meta('<meta name="citation_title" content="Kelp forests at night">'
                     '<meta name="citation_author" content="Moreau, Ines"><meta name="citation_author" content="Baker, Tom">')
    assert conflicts(meta, "Kelp Forests at Night.", ["Ines Moreau", "Tom Baker", "Lu Wen"]) == []
    assert conflicts(meta, "Kelp forests at night", ["Ines Moreau"]) == []  # a byline cut short is no conflict
    assert conflicts(meta, "Kelp forests at night", ["Sara Holm", "Tom Baker", "Piet Kok"]) == []  # half is enough
    found = conflicts(meta, "Glacier melt in spring", ["Sara Holm", "Piet Kok", "Ines Berg"])
    assert [c["field"] for c in found] == ["title", "authors"]
    assert found[0]["page"] == "Glacier melt in spring" and found[0]["metadata"] == "Kelp forests at night"
    assert found[1] == {"field": "authors", "page": ["Sara Holm", "Piet Kok", "Ines Berg"],
                        "metadata": ["Moreau, Ines", "Baker, Tom"], "agreement": 0.0}
    assert found[0]["agreement"] < 0.9
    assert conflicts(meta, None, []) == []


def _record(visible_title: str, visible_authors: list[str]) -> dict:
    meta = read_meta(JSON_LD)
    return {"source": "https://example.org/kelp", "title": visible_title, "authors": visible_authors,
            "references": [], "metadata": meta.record(),
            "metadata_conflicts": conflicts(meta, visible_title, visible_authors)}


def test_the_article_citation_merges_declared_and_visible_fields_and_parses_back():
    assert {"cite-bibtex", "cite-csl", "cite-ris"} <= set(formats(LABEL))
    record = _record("Kelp forests at night", ["Ines Moreau"])  # the byline shows one author: declared two win
    entry = next(iter(parse_string(WRITERS["cite-bibtex"].label([record]), "bibtex").entries.values()))
    assert entry.type == "article" and entry.fields["title"] == "Kelp forests at night"
    assert [str(p) for p in entry.persons["author"]] == ["Moreau, Ines", "Baker, Tom"]
    assert (entry.fields["journal"], entry.fields["year"], entry.fields["volume"], entry.fields["number"]) == \
        ("Marine Notes", "2019", "21", "4")
    assert entry.fields["pages"] == "3--9" and entry.fields["doi"] == "10.7777/kelp.1"
    item = json.loads(WRITERS["cite-csl"].label([record]))[0]
    assert item["type"] == "article-journal" and item["DOI"] == "10.7777/kelp.1" and item["page"] == "3\u20139"
    assert item["author"][1] == {"family": "Baker", "given": "Tom"} and item["issued"] == {"date-parts": [[2019]]}
    ris = rispy.loads(WRITERS["cite-ris"].label([record]))[0]
    assert ris["type_of_reference"] == "JOUR" and ris["title"] == "Kelp forests at night"
    assert (ris["start_page"], ris["end_page"], ris["urls"]) == ("3", "9", ["https://example.org/kelp"])


def test_the_article_citation_keeps_the_visible_fields_in_conflict():
    record = _record("Glacier melt in spring", ["Sara Holm", "Piet Kok"])
    assert [c["field"] for c in record["metadata_conflicts"]] == ["title", "authors"]
    entry = next(iter(parse_string(WRITERS["cite-bibtex"].label([record]), "bibtex").entries.values()))
    assert entry.fields["title"] == "Glacier melt in spring"
    assert [str(p) for p in entry.persons["author"]] == ["Holm, Sara", "Kok, Piet"]


def test_the_label_record_reports_the_declared_record_and_the_conflicts():
    zones = pd.DataFrame({"text": ["Glacier melt in spring", "Sara Holm, Piet Kok"], "x": [0.0, 0.0], "y": [0.0, 40.0],
                          "w": [500.0, 500.0], "h": [30.0, 20.0], "page": [1, 1]})
    labels = PageLabels(["title", "authors"], ["title", "authors"], np.array([0.9, 0.8]))
    refs = PageReferences([], [], [], None)
    meta = read_meta(JSON_LD)
    plain = page_record("page.html", "m", zones, labels, refs)
    record = page_record("page.html", "m", zones, labels, refs, meta)
    # visible fields stay as the page shows them; the ones it does not show are filled from the declaration
    assert {k: v for k, v in record.items() if k in ("title", "authors")} == {k: plain[k] for k in ("title", "authors")}
    assert record["provenance"] == {"title": "page", "authors": "page", "affiliations": "metadata", "abstract": "metadata"}
    assert (record["affiliations"], record["abstract"]) == (meta.institutions, meta.abstract)
    assert record["metadata"] == json.loads(json.dumps(meta.record())) and record["metadata"]["title"] == meta.title
    assert [(c["field"], c["page"]) for c in record["metadata_conflicts"]] == [
        ("title", "Glacier melt in spring"), ("authors", ["Sara Holm", "Piet Kok"])]


def test_coins_of_cited_works_and_xml_declarations():
    cited = ('<body><ol class="references"><li><span class="Z3988" title="rft.atitle=A+cited+work&amp;rft.volume=9">'
             '</span></li></ol></body>')
    assert read_meta(cited).title == "" and read_meta(cited).volume == ""
    page = '<?xml version="1.0" encoding="UTF-8"?>\n<html><head><meta name="citation_title" content="Declared"></head></html>'
    assert read_meta(page).title == "Declared"
