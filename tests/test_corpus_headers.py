"""Header readers against the real GROBID and ParsCit header data."""
from __future__ import annotations

import logging
import re
import shutil
from collections import Counter

import pytest

from scilabel.corpus.headers import (

    GROBID_HEADER_FIELDS,
    HEADER_FIELDS,
    PARSCIT_HEADER_FIELDS,
    HeaderField,
    iter_headers,
    join_lines,
    local_name,
    parscit_spans,
    read_xml,
    tag_key,
)

from .conftest import SHARED_DATA

DATA = SHARED_DATA
HEADERS = DATA / "headers"


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def loaded(shared_data) -> tuple[list[HeaderField], list[str]]:
    handler = _Warnings()
    logger = logging.getLogger("scilabel.corpus")
    logger.addHandler(handler)
    try:
        items = list(iter_headers(HEADERS))
    finally:
        logger.removeHandler(handler)
    return items, handler.messages


@pytest.fixture(scope="module")
def items(loaded) -> list[HeaderField]:
    return loaded[0]


def _corpus(item: HeaderField) -> str:
    parts = item.source.split("/")
    return "/".join(parts[1:3]) if parts[1] == "grobid" else parts[1]


def test_no_warnings_no_unknown_tags(loaded):
    assert loaded[1] == []


def test_every_grobid_header_tag_is_mapped(shared_data):
    """Independent walk over every header TEI file: each element under <front> has a mapping."""
    seen: Counter[str] = Counter()
    containers = {"byline", "docTitle"}

    def walk(elem):
        for child in elem:
            if not isinstance(child.tag, str) or local_name(child) == "lb":
                continue
            if local_name(child) in containers:
                walk(child)
            else:
                seen[tag_key(child)] += 1

    for path in (HEADERS / "grobid" / "header").rglob("*.xml"):
        for front in read_xml(path).iter("{*}front"):
            walk(front)
    unmapped = {k for k in seen if k not in GROBID_HEADER_FIELDS and k.split(":")[0] not in GROBID_HEADER_FIELDS}
    assert unmapped == set()
    assert seen["titlePart"] > 700 and seen["div:abstract"] > 700


def test_every_parscit_header_tag_is_mapped(shared_data):
    text = (HEADERS / "ParsCit" / "tagged_headers.txt").read_text(encoding="utf-8")
    opening = set(re.findall(r"<([A-Za-z_-]+)>", text))
    assert opening - set(PARSCIT_HEADER_FIELDS) == set()


def test_fields_and_text_are_clean(items):
    assert {i.field for i in items} == set(HEADER_FIELDS)
    assert all(i.text and i.text == i.text.strip() for i in items)
    assert not [i for i in items if "\n" in i.text or "+L+" in i.text or "+PAGE+" in i.text]


def test_counts_per_corpus_and_field(items):
    counts = Counter((_corpus(i), i.field) for i in items)
    assert 740 <= counts["grobid/header", "title"] <= 760  # 746 files, a few with two titleParts
    assert 740 <= counts["grobid/header", "abstract"] <= 760
    assert 1100 <= counts["grobid/header", "authors"] <= 1200
    assert 2400 <= counts["grobid/header", "affiliations"] <= 2700
    assert counts["grobid/affiliation-address", "affiliations"] == 2460
    assert counts["grobid/name-header", "authors"] == 1429
    assert counts["grobid/date", "other"] == 644
    assert counts["ParsCit", "title"] == 937
    assert counts["ParsCit", "abstract"] == 798
    assert counts["ParsCit", "authors"] == 1160
    assert 1100 <= counts["ParsCit", "affiliations"] <= 1300


def _file_items(items, name):
    return [(i.field, i.tag, i.text) for i in items if i.source.endswith(name)]


def test_known_grobid_header(items):
    got = _file_items(items, "/003061v1.training.header.tei.xml")
    assert got[0] == (
        "title",
        "titlePart",
        "DNA methylation modulates transcription factor occupancy chiefly at sites of high intrinsic "
        "cell--type variability",
    )
    assert got[1][:2] == ("authors", "docAuthor")
    assert got[1][2].startswith("Matthew T. Maurano 1,* , Hao Wang 1,*")
    assert got[2] == (
        "affiliations",
        "affiliation+address",
        "1. Dept. of Genome Sciences, University of Washington School of Medicine, Seattle WA, 98195 USA",
    )
    assert got[4][:2] == ("other", "keyword")
    abstract = got[5]
    assert abstract[:2] == ("abstract", "div:abstract")
    assert "Rather, methylation-regulated binding is restricted" in abstract[2]  # "methylation--<lb/>regulated"


def test_known_grobid_header_line_break_hyphens(items):
    got = _file_items(items, "/0070234.header.tei.xml")
    assert (
        "affiliations",
        "affiliation+address",
        "Division of Medical Journals and Professional Periodicals, American Academy of Pediatrics, "
        "141 Northwest Point Boulevard, Elk Grove Village, IL 60007;",
    ) in got
    assert ("other", "note:submission", "Received for publication: 9/24/99; accepted for publication: 1/4/00..") in got
    assert ("other", "note:doctype", "Analysis of a Case") in got


def test_known_parscit_header(items):
    got = [(i.field, i.tag, i.text) for i in items if i.source == "headers/ParsCit/tagged_headers.txt:1"]
    assert got[0] == ("title", "title", "Protocols for Collecting Responses in Multi-hop Radio Networks")
    assert got[1] == ("authors", "author", "Chungki Lee James E. Burns Mostafa H. Ammar")
    assert ("other", "pubnum", "GIT-CC-92/28") in got
    abstract = next(text for field, _, text in got if field == "abstract")
    assert abstract.startswith("The problem of collecting responses")  # "Abstract" heading dropped
    assert got[-1] == (
        "affiliations",
        "affiliation+address",
        "College of Computing Georgia Institute of Technology Atlanta, Georgia 30332-0280",
    )


def test_known_affiliation_and_name(items):
    assert _file_items(items, "/01198988.affiliation.tei.xml") == [
        ("affiliations", "affiliation", "University of Tarbiat-Modem, Tehran")
    ]
    names = [i.text for i in items if i.source.startswith("headers/grobid/name-header/")]
    assert "Homayoun Navabi" in names


def test_join_lines():
    assert join_lines("Amer-\nican Academy") == "American Academy"
    assert join_lines("methylation--\nregulated") == "methylation-regulated"
    assert join_lines("  one\n\n  two  \n") == "one two"
    assert join_lines("1990-\n1995") == "1990- 1995"


def test_parscit_spans():
    line = "<author> A <</sep>,> B </author> x <notes> n </note> <br>"
    assert list(parscit_spans(line, {"author", "note", "br"})) == [
        ("author", " A <</sep>,> B "),
        (None, " x "),
        ("notes", " n "),
        (None, " "),
    ]


def test_bad_file_is_skipped_with_a_warning(shared_data, tmp_path, caplog):
    corpus = tmp_path / "headers" / "grobid" / "header" / "corpus"
    corpus.mkdir(parents=True)
    shutil.copy(HEADERS / "grobid" / "header" / "corpus" / "0070234.header.tei.xml", corpus / "good.tei.xml")
    (corpus / "bad.tei.xml").write_text("<tei><text><front><docTitle>")
    with caplog.at_level(logging.WARNING, logger="scilabel.corpus"):
        got = list(iter_headers(tmp_path / "headers"))
    assert {i.source for i in got} == {"headers/grobid/header/corpus/good.tei.xml"}
    assert [r.getMessage() for r in caplog.records if "bad.tei.xml" in r.getMessage()]
