"""Readers: the protocol, the zones frame every reader yields, the choice of reader, and the pipeline
driven by a reader that needs no browser."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from scilabel.cli import main
from scilabel.metadata import PageMeta, read_meta
from scilabel.overlay import LEGEND_HEIGHT
from scilabel.persistence import load_model, model_path
from scilabel.pipeline import label_page, read_page
from scilabel.readers import (READERS, ChromiumHTMLReader, Document, PageError, PDFiumReader, Reader, UnsupportedSource,
                              reader_for, source_kind)
from scilabel.readers.render import Renderer
from scilabel.references import load_parser
from scilabel.zones import Zone

from .conftest import EXAMPLE_PAGE

PAGE = """<html><head><meta name="citation_title" content="Roots in dry soil"></head>
<body><h1>Roots in dry soil</h1><p>Ada Lovelace</p><p>Body text of the page.</p></body></html>"""


def test_every_registered_reader_follows_the_protocol():
    assert READERS["html"] is ChromiumHTMLReader
    for kind, reader_class in READERS.items():
        assert isinstance(reader_class(), Reader), kind  # building one starts nothing
    assert not isinstance(object(), Reader)


def test_html_reader_yields_the_zones_frame_with_document_and_page(reader):
    document = reader.read(PAGE)
    zones = document.zones
    assert isinstance(document, Document) and document.source == "<html string>"
    assert list(zones.columns[:2]) == ["document", "page"]
    assert set(zones["document"]) == {"<html string>"} and set(zones["page"]) == {1}
    assert {"text", "x", "y", "w", "h", "font_size", "page_width", "page_height", "label"} <= set(zones.columns)
    assert zones["text"].tolist() == ["Roots in dry soil", "Ada Lovelace", "Body text of the page."]
    assert document.metadata.title == "Roots in dry soil" and document.warnings == []
    assert document.screenshot is None


def test_html_reader_of_a_file_names_it_as_the_document_and_saves_a_screenshot(reader, tmp_path):
    shot = tmp_path / "page.png"
    document = reader.read(EXAMPLE_PAGE, screenshot=shot)
    assert set(document.zones["document"]) == {str(EXAMPLE_PAGE)} and document.source == str(EXAMPLE_PAGE)
    assert document.screenshot == shot and shot.read_bytes()[:4] == b"\x89PNG"
    assert document.metadata == read_meta(EXAMPLE_PAGE.read_text(encoding="utf-8"))


def test_a_reader_that_cannot_read_a_source_raises_a_page_error(reader, tmp_path):
    with pytest.raises(PageError, match="no such file"):
        reader.read(tmp_path / "missing.html")


@pytest.mark.parametrize(("name", "head", "kind"), [
    ("crawl.warc.gz", b"\x1f\x8b", "WARC"),
    ("crawl.warc", b"WARC/1.1\r\n", "WARC"),
])
def test_unsupported_kinds_get_a_one_line_error(tmp_path, name, head, kind):
    path = tmp_path / name
    path.write_bytes(head)
    with pytest.raises(UnsupportedSource) as raised:
        reader_for(path)
    assert str(raised.value) == f"{path}: {kind} input is not supported yet"
    assert isinstance(raised.value, PageError)  # the CLI reports it like any unreadable page


@pytest.mark.parametrize(("name", "head"), [
    ("paper.pdf", b"%PDF-1.7\n"),
    ("Paper.PDF", b""),
    ("saved.html", b"%PDF-1.4\n"),  # a PDF under another name
])
def test_pdfs_go_to_the_pdf_reader(tmp_path, name, head):
    path = tmp_path / name
    path.write_bytes(head)
    assert source_kind(path) == "pdf" and isinstance(reader_for(path), PDFiumReader)


def test_the_cli_reports_an_unreadable_pdf_in_one_line(tmp_path, capsys):
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    for command in ("label", "refs", "structure"):
        assert main([command, str(pdf)]) == 1
        assert capsys.readouterr().err == f"scilabel: error: {pdf}: a damaged PDF (not in PDF format or corrupted)\n"


def test_html_strings_urls_and_other_files_are_html(tmp_path):
    page = tmp_path / "page.txt"
    page.write_text("<p>x</p>")
    for source in (PAGE, "https://example.org/paper.pdf", page, str(page), tmp_path / "missing.html"):
        assert source_kind(source) == "html"
    assert isinstance(reader_for(page, timeout=3.0), ChromiumHTMLReader)
    assert reader_for(page, timeout=3.0).renderer.timeout == 3.0


def frame_row(text: str, y: float, size: float = 16.0, weight: int = 400, x: float = 100.0) -> dict:
    """One zones-frame row of a page 800 px wide, as a reader of any kind gives it."""
    row = {name: None for name in Zone.__dataclass_fields__ if name != "bbox"}
    row |= {"text": text, "font_size": size, "font_weight": weight, "tag_path": "", "dom_index": int(y),
            "link_chars": 0, "sup_chars": 0, "italic_chars": 0, "content": False, "cites": "",
            "x": x, "y": y, "w": min(700.0, 9.0 * len(text)), "h": 1.25 * size}
    return row


ARTICLE = [
    ("Journal of Root Science", 20, 13, 400),
    ("Seasonal growth of roots in dry soil", 80, 30, 700),
    ("Ana Silva, Ben Okafor", 140, 16, 400),
    ("Department of Botany, University of Lisbon, Portugal", 170, 13, 400),
    ("Abstract", 220, 20, 700),
    ("We measured the roots of twelve plants in dry soil over two seasons and found that they grow "
     "deeper when the soil is dry, which suggests that water drives root depth.", 260, 16, 400),
    ("Introduction", 360, 20, 700),
    ("Roots are the hidden half of a plant and their growth in dry soil is poorly known, although "
     "water limits crops in many places.", 400, 16, 400),
    ("References", 500, 20, 700),
    ("1. Smith J, Lee K. Root growth in dry soil. J Bot. 2001;12:1-9.", 540, 14, 400),
    ("2. Brown A. Water and roots. Plant Sci. 2010;3:22-30.", 570, 14, 400),
]


class MemoryReader:
    """A reader of pages held in memory: no browser, no file; a white picture when one is asked for."""

    def __init__(self, frames: dict[str, pd.DataFrame]):
        self.frames = frames
        self.open = False

    def __enter__(self) -> MemoryReader:
        self.open = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.open = False

    def read(self, source: str | Path, screenshot: Path | None = None) -> Document:
        assert self.open, "read outside the reader's context"
        if screenshot is not None:
            Image.new("RGB", (800, 700), "white").save(screenshot)
        zones = self.frames[str(source)].assign(document=str(source), page=1, page_width=800.0, page_height=700.0)
        return Document(str(source), zones, PageMeta(), ["a note from the reader"], screenshot)


@pytest.fixture(scope="module")
def memory_reader() -> MemoryReader:
    return MemoryReader({"article": pd.DataFrame([frame_row(t, y, s, w) for t, y, s, w in ARTICLE])})


@pytest.fixture(scope="module")
def models():
    return load_model(model_path("svm")), load_parser()


@pytest.fixture()
def no_browser(monkeypatch):
    def refuse(self):
        raise AssertionError("the pipeline started a browser")

    monkeypatch.setattr(Renderer, "start", refuse)


def test_the_pipeline_labels_what_any_reader_reads(memory_reader, models, no_browser):
    assert isinstance(memory_reader, Reader)
    labeler, parser = models
    with memory_reader:
        record = label_page(memory_reader, labeler, parser, "article")
    assert record["source"] == "article" and record["warnings"] == ["a note from the reader"]
    assert [z["text"] for z in record["zones"]] == [t for t, *_ in ARTICLE]
    assert {z["page"] for z in record["zones"]} == {1}
    assert record["title"] == "Seasonal growth of roots in dry soil"
    assert record["authors"] == ["Ana Silva", "Ben Okafor"]
    assert record["abstract"].startswith("We measured the roots")
    assert [r["year"] for r in record["references"]] == ["2001", "2010"]


def test_an_overlay_is_drawn_on_the_readers_picture(memory_reader, models, no_browser, tmp_path):
    labeler, parser = models
    with memory_reader:
        read = read_page(memory_reader, labeler, parser, "article", overlay=tmp_path / "labelled.png")
    assert Image.open(tmp_path / "labelled.png").size == (800, 700 + LEGEND_HEIGHT)  # the page under its legend
    assert len(read.labels.labels) == len(ARTICLE)


def test_an_overlay_needs_a_picture(models, tmp_path):
    class Blind(MemoryReader):
        def read(self, source, screenshot=None):
            return super().read(source)

    labeler, parser = models
    with Blind({"p": pd.DataFrame([frame_row("Only text", 10)])}) as blind:
        with pytest.raises(PageError, match="^p: no picture of the page to draw the overlay on$"):
            read_page(blind, labeler, parser, "p", overlay=tmp_path / "x.png")
