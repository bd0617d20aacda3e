"""Reading a page's own bibliographic meta tags."""
from scilabel.metadata import read_meta

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
