"""BibTeX, CSL-JSON and RIS renderings of parsed references."""
from __future__ import annotations

import json

import rispy

from scilabel.writers import WRITERS
from scilabel.writers.bibtex import to_bibtex
from scilabel.writers.citation import entry_kind
from scilabel.writers.csl import csl_items, to_csl

REF = {
    "authors": [
        {"given": "J. A.", "family": "Smith"}, {"given": "", "family": "World Bank"}, {"given": "JE", "family": "Lawn"}
    ],
    "title": "Growth & 100% {fun}",
    "container": "Journal of Biology",
    "year": "2001a",
    "volume": "12",
    "issue": "3",
    "pages": "45–67",
    "doi": "10.1000/x_y",
    "pmid": "123456",
    "url": None,
}


def test_bibtex_entry() -> None:
    entry = to_bibtex(REF)
    assert entry.startswith("@article{smith2001agrowth,\n")
    assert "  author = {Smith, J. A. and {World Bank} and Lawn, J. E.},\n" in entry
    assert "  title = {Growth \\& 100\\% \\{fun\\}},\n" in entry
    assert "  journal = {Journal of Biology},\n" in entry
    assert "  number = {3},\n" in entry and "  pages = {45--67},\n" in entry
    assert "  doi = {10.1000/x_y},\n" in entry  # verbatim
    assert "url" not in entry
    assert entry.endswith("}\n")


def test_bibtex_keys_are_unique() -> None:
    text = WRITERS["bibtex"].references([REF, REF])
    assert "@article{smith2001agrowth," in text and "@article{smith2001agrowth-2," in text


def test_entry_kinds() -> None:
    assert entry_kind({"container": "Proceedings of the ACL"}) == "inproceedings"
    assert entry_kind({"container": "Proc. ICML"}) == "inproceedings"
    assert entry_kind({"container": "Proc R Soc B", "volume": "282"}) == "article"  # a journal
    assert entry_kind({"title": "A Book"}) == "book"
    assert entry_kind({}) == "misc"


def test_csl_json_item() -> None:
    item = to_csl(REF)
    assert item["type"] == "article-journal"
    assert item["author"] == [
        {"family": "Smith", "given": "J. A."}, {"family": "World Bank"}, {"family": "Lawn", "given": "J. E."}
    ]
    assert item["container-title"] == "Journal of Biology"
    assert item["issued"] == {"date-parts": [[2001]]}
    assert item["page"] == "45–67" and item["DOI"] == "10.1000/x_y" and item["PMID"] == "123456"
    assert "URL" not in item
    assert [i["id"] for i in csl_items([REF, REF])] == ["smith2001agrowth", "smith2001agrowth-2"]
    assert json.loads(WRITERS["csl"].references([REF, REF])) == csl_items([REF, REF])


def test_ris_reads_back_with_rispy() -> None:
    book = {"authors": [{"given": "", "family": "World Health Organization"}], "title": "Guidelines\non  malaria",
            "year": "2015", "url": "https://example.org/a"}
    entries = rispy.loads(WRITERS["ris"].references([REF, book, REF]))
    assert len(entries) == 3
    first = entries[0]
    assert (first["type_of_reference"], first["id"]) == ("JOUR", "smith2001agrowth")
    assert first["authors"] == ["Smith, J. A.", "World Bank", "Lawn, J. E."]
    assert (first["title"], first["secondary_title"]) == ("Growth & 100% {fun}", "Journal of Biology")
    assert (first["year"], first["volume"], first["number"]) == ("2001", "12", "3")
    assert (first["start_page"], first["end_page"]) == ("45", "67")
    assert (first["doi"], first["accession_number"]) == ("10.1000/x_y", "123456") and "urls" not in first
    assert entries[1] == {"type_of_reference": "BOOK", "id": "worldhealthorganization2015guidelines",
                          "authors": ["World Health Organization"], "year": "2015", "title": "Guidelines on malaria",
                          "urls": ["https://example.org/a"]}
    assert entries[2]["id"] == "smith2001agrowth-2"


def test_ris_of_page_records_holds_every_pages_references() -> None:
    records = [{"source": "a.html", "references": [REF]}, {"source": "b.html", "references": [REF, {"text": "x"}]}]
    entries = rispy.loads(WRITERS["ris"].label(records, batch=True))
    assert [e["type_of_reference"] for e in entries] == ["JOUR", "JOUR", "GEN"]
    assert WRITERS["ris"].references([]) == ""
