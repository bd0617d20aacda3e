"""Per-field text collections (one row per labelled text) for the word statistics of the emission model."""
from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

import pandas as pd

from ..atomic import atomic_path
from ..schema import FIELD_LABELS
from .generate import article_split, split_key
from .headers import iter_headers, squash
from .jats import iter_articles
from .medline import iter_medline
from .refstrings import iter_crossref_strings, iter_labelled_references, iter_reference_sections

log = logging.getLogger(__name__)

#: Fields a collection row can have: the zone labels that carry text of their own.
COLLECTION_FIELDS = (*FIELD_LABELS, "other")
COLUMNS = ["field", "text", "source", "record_id"]

Row = tuple[str, str, str, str]


def build_field_collections(data_dir: Path, extra: Iterable[tuple[str, str, str]] = ()) -> pd.DataFrame:
    """Collect labelled texts per field from the MEDLINE, header and reference data under ``data_dir``.

    ``extra`` adds ``(field, text, source)`` rows from elsewhere (e.g. JATS front matter); ``source``
    is best a path relative to the data folder. Columns: ``field, text, source`` (the corpus, e.g.
    ``medline/fatcat``) and ``record_id`` (the file, line or PMID within it). Rows with the same field and
    text are kept once (the data repeats files and strings), the first occurrence winning.
    """
    data_dir = Path(data_dir)
    rows = [
        *_medline_rows(data_dir / "medline"),
        *_header_rows(data_dir / "headers"),
        *_extra_rows(extra),
        *_reference_rows(data_dir / "references"),
    ]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame[frame["text"] != ""]
    duplicate = frame.duplicated(subset=["field", "text"])
    dropped = frame[duplicate].groupby(["source", "field"]).size()
    frame = frame[~duplicate].reset_index(drop=True)
    log.info("field collections: %d rows (%d exact duplicates dropped)", len(frame), int(duplicate.sum()))
    for (source, name), count in frame.groupby(["source", "field"]).size().items():
        log.info("  %-40s %-13s %7d (%d duplicates dropped)", source, name, count, dropped.get((source, name), 0))
    return frame


def write_collections(frame: pd.DataFrame, path: Path) -> None:
    """Write the collections to Parquet atomically."""
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False)


def corpus_of(source: str) -> str:
    """The corpus a data path belongs to: ``headers/grobid/header/corpus/x.xml`` -> ``headers/grobid/header``,
    ``medline/fatcat/x.xml`` -> ``medline/fatcat``; anything else is returned as is."""
    parts = source.split(":")[0].split("/")
    depth = 3 if len(parts) > 3 and parts[1] == "grobid" else 2
    return "/".join(parts[:depth]) if len(parts) > depth else source


def _medline_rows(medline_dir: Path) -> Iterator[Row]:
    for record in iter_medline(medline_dir):
        source, record_id = corpus_of(record.source), f"pmid:{record.pmid}" if record.pmid else record.source
        yield "title", record.title, source, record_id
        yield from (("authors", name, source, record_id) for name in record.authors)
        yield from (("affiliations", aff, source, record_id) for aff in record.affiliations)
        yield "abstract", record.abstract, source, record_id


def _header_rows(headers_dir: Path) -> Iterator[Row]:
    for item in iter_headers(headers_dir):
        yield item.field, item.text, corpus_of(item.source), item.source


def _extra_rows(extra: Iterable[tuple[str, str, str]]) -> Iterator[Row]:
    for name, text, source in extra:
        if name not in COLLECTION_FIELDS:
            raise ValueError(f"extra row from {source}: unknown field {name!r}, expected one of {COLLECTION_FIELDS}")
        yield name, squash(text), corpus_of(source), source


def _reference_rows(references_dir: Path) -> Iterator[Row]:
    for ref in iter_labelled_references(references_dir):
        yield "references", ref.text, corpus_of(ref.source), f"{ref.source}#{ref.index}"
    for section in iter_reference_sections(references_dir):
        for index, entry in enumerate(section.entries):
            yield "references", entry.text, corpus_of(section.source), f"{section.source}#{index}"
    counters: dict[str, int] = {}
    for raw in iter_crossref_strings(references_dir):
        index = counters[raw.source] = counters.get(raw.source, -1) + 1
        yield "references", raw.text, corpus_of(raw.source), f"{raw.source}#{index}"


def jats_front_rows(jats_dir: Path, seed: int = 0) -> Iterator[tuple[str, str, str]]:
    """``(field, text, source)`` rows from the front matter and references of the JATS articles in the
    *train* split (the split `scilabel corpus generate` uses with the same seed), so no dev or test
    article's words reach the word model."""
    for path, art in iter_articles(jats_dir):
        if article_split(split_key(art), seed) != "train":
            continue
        source = f"jats/{path.relative_to(jats_dir).as_posix()}"
        yield "title", art.title, source
        yield from (("authors", a.name, source) for a in art.authors if a.name)
        yield from (("affiliations", aff.text, source) for aff in art.affiliations if aff.text)
        abstract = " ".join(p.text for sec in art.abstract for p in sec.paragraphs)
        if abstract:
            yield "abstract", abstract, source
        yield from (("references", ref.text, source) for ref in art.references if ref.text)
