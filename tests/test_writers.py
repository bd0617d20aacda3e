"""The writers registry: each command offers exactly the formats of its record kind, and a writer
of references writes a page record's references."""
from __future__ import annotations

import json

import pytest

from scilabel.cli import build_parser
from scilabel.writers import KINDS, LABEL, REFERENCES, STRUCTURE, WRITERS, ZONES, ReferencesWriter, Writer, formats

REFS = [{"text": "Smith J. Root growth. J Bot. 2001;3:1-9.", "authors": [{"given": "J", "family": "Smith"}],
         "title": "Root growth", "container": "J Bot", "year": "2001", "volume": "3", "pages": "1-9"},
        {"text": "Lee K. Leaves. 1999.", "authors": [{"given": "K", "family": "Lee"}], "title": "Leaves", "year": "1999"}]
RECORDS = [{"source": "a.html", "model": "m", "references": REFS[:1],
            "zones": [{"label": "title", "state": "Title", "text": "A\ttitle", "bbox": [1.0, 2.0, 3.0, 4.0],
                       "confidence": 0.5}]},
           {"source": "b.html", "model": "m", "references": REFS[1:],
            "zones": [{"label": "other", "state": "PreTitle", "text": "x", "bbox": [0, 0, 1, 1], "confidence": 1.0}]}]


def _choices(command: str) -> tuple[str, ...]:
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    return tuple(next(a for a in sub._actions if a.dest == "format").choices)


@pytest.mark.parametrize("command, kind", [("label", LABEL), ("refs", REFERENCES), ("structure", STRUCTURE),
                                           ("zones", ZONES)])
def test_commands_offer_the_formats_of_their_record_kind(command, kind):
    assert _choices(command) == formats(kind)


def test_kinds_follow_the_methods_a_writer_overrides():
    assert formats(LABEL) == ("json", "jsonl", "tsv", "bibtex", "csl", "ris", "cite-bibtex", "cite-csl", "cite-ris")
    assert formats(REFERENCES) == ("json", "bibtex", "csl", "ris")
    assert formats(STRUCTURE) == ("json", "xml", "jats", "tei")
    assert formats(ZONES) == ("jsonl", "table")
    assert all(name == writer.name and writer.kinds <= set(KINDS) for name, writer in WRITERS.items())
    with pytest.raises(ValueError, match="unknown record kind"):
        formats("pdf")

    class Plain(Writer):
        name = "plain"

        def structure(self, article):
            return article.title

    assert Plain().kinds == {STRUCTURE}
    with pytest.raises(ValueError, match="plain format cannot write references"):
        Plain().references(REFS)


def test_a_references_writer_writes_every_page_records_references():
    for name, writer in WRITERS.items():
        if isinstance(writer, ReferencesWriter):
            assert writer.label(RECORDS, batch=True) == writer.references(REFS), name
    assert WRITERS["bibtex"].label(RECORDS).count("@") == 2


def test_json_writes_one_record_indented_and_a_batch_as_lines():
    one = WRITERS["json"].label(RECORDS[:1])
    assert one.startswith("{\n  ") and json.loads(one) == RECORDS[0]
    batch = WRITERS["json"].label(RECORDS, batch=True)
    assert batch == WRITERS["jsonl"].label(RECORDS) and [json.loads(line) for line in batch.splitlines()] == RECORDS
    assert json.loads(WRITERS["json"].references(REFS)) == REFS
    assert json.loads(WRITERS["json"].references(REFS[:1], REFS[0])) == REFS[0]  # the document they came in


def test_tsv_writes_a_table_per_page_headed_by_its_source_in_a_batch():
    lines = WRITERS["tsv"].label(RECORDS, batch=True).splitlines()
    assert lines[0] == "# a.html" and lines[1].startswith("label\tstate\tconfidence")
    assert lines[2] == "title\tTitle\t0.5000\t1.0\t2.0\t3.0\t4.0\tA title" and lines[3] == "# b.html"
    assert not WRITERS["tsv"].label(RECORDS[:1]).startswith("#")
