"""BibTeX and CSL-JSON renderings of parsed references."""
from __future__ import annotations

import json

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
