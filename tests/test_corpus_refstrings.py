"""Reference-string readers against the real GROBID, AnyStyle, ParsCit, Crossref and CERMINE data."""
from __future__ import annotations

import logging
import re
import shutil
from collections import Counter

import pytest
from lxml import etree

from scilabel.corpus import refstrings
from scilabel.corpus.headers import local_name, read_xml
from scilabel.corpus.refstrings import (

    ANYSTYLE_FIELDS,
    GROBID_FIELDS,
    GROBID_SCOPES,
    PARSCIT_FIELDS,
    REFERENCE_FIELDS,
    LabelledReference,
    iter_crossref_strings,
    iter_labelled_references,
    iter_reference_sections,
    iter_references_with_text,
    make_segments,
)

from .conftest import SHARED_DATA

DATA = SHARED_DATA
REFS = DATA / "references"

#: References per (corpus, split), from the data README.
EXPECTED_COUNTS = {
    ("grobid", "corpus"): 8678,
    ("grobid", "evaluation"): 327,
    ("anystyle", "core"): 1514,
    ("anystyle", "gold"): 1669,
    ("anystyle", "good"): 4663,
    ("anystyle", "bad"): 368,
    ("anystyle", "ugly"): 3847,
    ("anystyle", "cora"): 656,
    ("ParsCit", "cora"): 500,
    ("ParsCit", "flux-cim-cs"): 300,
    ("ParsCit", "en-humanities"): 177,
    ("ParsCit", "it-humanities"): 67,
    ("ParsCit", "mixed-humanities"): 67,
    ("ParsCit", "iconip"): 74,
}


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def loaded(shared_data) -> tuple[list[tuple[LabelledReference, str]], list[str]]:
    handler = _Warnings()
    logger = logging.getLogger("scilabel.corpus")
    logger.addHandler(handler)
    try:
        pairs = list(iter_references_with_text(REFS))
    finally:
        logger.removeHandler(handler)
    return pairs, handler.messages


@pytest.fixture(scope="module")
def refs(loaded) -> dict[tuple[str, int], LabelledReference]:
    return {(r.source, r.index): r for r, _ in loaded[0]}


def test_every_reference_round_trips(loaded):
    pairs, _ = loaded
    counts = Counter((r.source.split("/")[1], r.split) for r, _ in pairs)
    assert dict(counts) == EXPECTED_COUNTS
    failures = [(r.source, r.index, r.text, original) for r, original in pairs if r.text != original]
    assert failures == []


def test_no_warnings_no_unknown_tags(loaded):
    assert loaded[1] == []


def test_segments_are_normalised(loaded):
    for ref, _ in loaded[0]:
        assert ref.segments, (ref.source, ref.index)
        for text, field in ref.segments:
            assert field in REFERENCE_FIELDS
            assert text and "  " not in text
            if field != "other":
                assert text == text.strip(), (ref.source, ref.index, text)
        assert all(a[1] != "other" or b[1] != "other" for a, b in zip(ref.segments, ref.segments[1:]))


def test_every_tag_present_is_mapped(shared_data):
    """Independent walk over the source files: every field tag has an explicit mapping."""
    grobid: set[str] = set()
    for path in (REFS / "grobid" / "citation").rglob("*.xml"):
        for bibl in read_xml(path).iter("{*}bibl"):
            for child in bibl:
                if not isinstance(child.tag, str):
                    continue
                name = local_name(child)
                kind = (child.get("unit") or child.get("type") or child.get("level") or "").lower()
                if name in ("biblScope", "biblStruct"):
                    grobid.add(f"scope:{kind}")
                elif name not in ("title", "idno", "orgName", "lb"):
                    grobid.add(name.lower())
    scopes = {k for k in grobid if k.startswith("scope:")}
    assert {k[6:] for k in scopes} - set(GROBID_SCOPES) == set()
    assert grobid - scopes - set(GROBID_FIELDS) == set()

    anystyle = {c.tag for p in (REFS / "anystyle").glob("*.xml") for s in etree.parse(p).iter("sequence") for c in s}
    assert anystyle - set(ANYSTYLE_FIELDS) == set()
    parscit = {t for p in (REFS / "ParsCit").glob("*.txt") for t in re.findall(r"<([A-Za-z_-]+)>", p.read_text())}
    assert parscit - set(PARSCIT_FIELDS) == set()


def test_known_grobid_reference(refs):
    ref = refs["references/grobid/citation/corpus/0.CanadianJournalOfChemistry.training.references.tei.xml", 0]
    assert ref.split == "corpus"
    assert ref.segments == [
        ("J. P. COLLMAN", "author"), (". ", "other"), ("Acc. Chem. Res.", "container"), (" ", "other"),
        ("10", "volume"), (", ", "other"), ("265", "pages"), (" (", "other"), ("1977", "year"), (");", "other"),
    ]
    assert ref.text == "J. P. COLLMAN. Acc. Chem. Res. 10, 265 (1977);"


def test_grobid_monograph_title_rule(refs):
    chapter = refs["references/grobid/citation/corpus/citations.xml", 814]
    assert ("Improving Search in Genetic Algorithms", "title") in chapter.segments
    assert ("Genetic Algorithms and Simulated Annealing", "container") in chapter.segments  # level m + level a
    assert ("Lawrence Davis", "editor") in chapter.segments
    assert ("London", "location") in chapter.segments
    book = next(r for (s, _), r in refs.items() if s.endswith("/citations.xml") and r.text.startswith("Barry Wilkinson"))
    assert ("Digital System Design", "title") in book.segments  # level m alone


def test_known_anystyle_and_parscit_references(refs):
    assert refs["references/anystyle/core.xml", 0].segments == [
        ("Heidegger M.,", "author"), (" ", "other"), ("1927,", "year"), (" ", "other"),
        ("Être et temps,", "title"), (" ", "other"), ("Gallimard, Ed.", "editor"), (" ", "other"),
        ("1986,", "year"), (" ", "other"), ("Paris.", "location"),
    ]
    cora = refs["references/ParsCit/cora.tagged.txt", 0]
    assert cora.split == "cora"
    assert cora.segments[0] == ("A. Cau, R. Kuiper, and W.-P. de Roever.", "author")
    assert ("Proc. 5th. BCS-FACS Refinement Workshop,", "container") in cora.segments
    notes = refs["references/ParsCit/en-humanities.tagged.txt", 36]  # <notes> ... </note>
    assert notes.segments[-1] == ("(Rpt. 1988, 1992. Updated electronic version at http://www.oraltradition.org)", "note")


def test_make_segments():
    pieces = [("  [1] ", "other"), (" Smith, J. ", "author"), ("\n, ", "other"), ("A title", "title"), (" . ", "other")]
    assert make_segments(pieces) == [("[1] ", "other"), ("Smith, J.", "author"), (" , ", "other"), ("A title", "title"), (" .", "other")]
    assert make_segments([(" ", "title"), ("", "other")]) == []


def test_failed_round_trip_is_skipped_with_a_warning(shared_data, tmp_path, caplog, monkeypatch):
    folder = tmp_path / "references" / "anystyle"
    folder.mkdir(parents=True)
    shutil.copy(REFS / "anystyle" / "bad.xml", folder / "bad.xml")
    original = refstrings._markup_free_text  # make every source text disagree with its segments
    monkeypatch.setattr(refstrings, "_markup_free_text", lambda elem: original(elem) + " x")
    with caplog.at_level(logging.WARNING, logger="scilabel.corpus"):
        assert list(iter_labelled_references(tmp_path / "references")) == []
    assert len(caplog.records) == 368


def test_reference_sections(shared_data):
    sections = list(iter_reference_sections(REFS))
    assert len(sections) == 133
    assert sum(len(s.entries) for s in sections) == 5464
    assert 3000 < sum(1 for s in sections for e in s.entries if e.label) < 3500
    example = next(s for s in sections if s.source.endswith("/example.tei.xml.missing"))
    first = example.entries[0]
    assert first.label == "[1]"
    assert first.text.startswith("[1] Hu W., Barkana, R., & Gruzinov A. Phys. Rev. Lett. 85, 1158 - 1161 (2000)")
    assert all(e.text and "\n" not in e.text for s in sections for e in s.entries)


def test_crossref_and_cermine_strings(shared_data):
    raws = list(iter_crossref_strings(REFS))
    per_file = Counter(r.source.rsplit("/", 1)[-1] for r in raws)
    generated = [r for r in raws if "/1_unstructured_analysis/" in r.source]
    assert len([f for f in per_file if f.startswith("dataset-")]) == 16
    assert len(generated) == 40000 - 6  # six upstream items have a null ref_string
    assert {r.style for r in generated} == {
        "american-chemical-society", "american-institute-of-physics", "apa", "chicago-author-date",
        "elsevier-without-titles", "harvard3", "ieee", "modern-language-association",
    }
    assert all(r.doi for r in generated if "/dataset-excluded-" not in r.source)
    assert generated[0].text == "(1) Suresh, M. R.; Milstein, C. Analytical Biochemistry 1985, 151, 192–195."
    assert generated[0].doi == "10.1016/0003-2697(85)90071-5"
    assert per_file["comparison-reasons.json"] == 2000
    assert sum(1 for r in raws if r.source.endswith("comparison-reasons.json") and r.doi) == 1194
    cermine = [r for r in raws if r.source == "references/CERMINE/refs.txt"]
    assert len(cermine) == 79 and cermine[0].doi is None
    assert cermine[0].text.startswith("1. Kudsk KA, Fabian TC")
