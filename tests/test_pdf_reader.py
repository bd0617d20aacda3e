"""The PDF reader on PDFs the tests write themselves (:mod:`tests.pdfmaker`): the zones frame, reading order
on two-column pages, superscripts, running heads and page numbers, the PDFs it refuses, and the commands
end to end on a PDF."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from scilabel.cli import main
from scilabel.readers import PageError, PDFiumReader, SourceReader
from scilabel.readers.pdf_layout import PageText, bands, blocks, column_offset, furniture, paragraphs, reading_order
from scilabel.readers.pdf_text import Segment
from scilabel.readers.sources import Limits
from scilabel.zones import Zone

from .pdfmaker import Run, article_pages, make_pdf

TITLE = "Columns and Superscripts in Printed Articles"
#: The columns of the zones frame every reader gives (readers/base.py).
FRAME_COLUMNS = {"document", "page", "x", "y", "w", "h", "page_width", "page_height", "cites",
                 *(name for name in Zone.__dataclass_fields__ if name != "bbox")}


@pytest.fixture(scope="session")
def pdfs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pdfs")
    return {
        "two": make_pdf(folder / "two.pdf", article_pages(two_columns=True, n_pages=2)),
        "one": make_pdf(folder / "one.pdf", article_pages(two_columns=False, n_pages=1)),
    }


@pytest.fixture(scope="session")
def two_column(pdfs):
    with PDFiumReader() as reader:
        return reader.read(pdfs["two"]).zones


def position(zones, text: str) -> int:
    hits = [i for i, t in enumerate(zones["text"]) if text in t]
    assert hits, f"no zone holds {text!r}"
    return hits[0]


def test_the_frame_has_the_html_readers_columns(two_column, pdfs):
    assert set(two_column.columns) == FRAME_COLUMNS | {"column_offset"}  # the one optional column (readers/base.py)
    assert (two_column["document"] == str(pdfs["two"])).all()
    assert sorted(two_column["page"].unique()) == [1, 2]
    assert (two_column["page_width"] == 1280).all()
    assert two_column["page_height"].tolist() == pytest.approx([2 * 792 * 1280 / 612] * len(two_column))
    assert (two_column[two_column["page"] == 2]["y"] > 792 * 1280 / 612).all()  # pages stacked


def test_title_fonts_and_superscript_markers(two_column):
    assert two_column["text"].iloc[0] == TITLE
    title = two_column.iloc[0]
    assert title["font_weight"] >= 700 and title["font_size"] == pytest.approx(16 * 1280 / 612, rel=0.05)
    authors = two_column.iloc[position(two_column, "Ada Lovelace")]
    assert authors["text"] == "Ada Lovelace 1 Charles Babbage 2"
    assert authors["sup_chars"] == 2
    assert two_column.iloc[position(two_column, "Abstract")]["font_weight"] >= 700


def test_running_heads_and_page_numbers_are_left_out(two_column):
    texts = " ".join(two_column["text"])
    assert "Journal of Layout Tests" not in texts
    assert not two_column["text"].isin(["101", "102"]).any()


def test_a_text_at_one_place_on_three_pages_is_furniture_wherever_it_sits():
    def page(number: int, logo_y: float) -> PageText:
        logo = Segment(text="AMAZONICA", x0=60, x1=164, y0=logo_y, y1=logo_y + 20, size=17)  # under the top margin
        body = block(72, 540, 300, 3, f"the {('first', 'second', 'third')[number - 1]} page's line")
        return PageText(number, 612, 792, [logo, *body])

    assert [mask.tolist() for mask in furniture([page(n, 55) for n in (1, 2, 3)])] == [[True, False, False, False]] * 3
    assert not any(mask[0] for mask in furniture([page(1, 55), page(2, 55)]))  # two pages: could be chance
    assert not any(mask[0] for mask in furniture([page(1, 55), page(2, 120), page(3, 300)]))  # one text, three places


def test_a_title_in_the_top_margin_is_not_its_own_running_head():
    def page(number: int, size: float) -> PageText:  # the running head is centred, the title flush left
        x0 = 60 if size > 10 else 240
        head = Segment(text="A Title Set High", x0=x0, x1=x0 + 20 * size, y0=40, y1=40 + size, size=size)
        return PageText(number, 612, 792, [head, *block(72, 540, 300, 3, f"page {number}'s line")])

    first, *others = furniture([page(1, 17), page(2, 9), page(3, 9)])
    assert not first[0] and all(mask[0] for mask in others)
    assert furniture([page(1, 9), page(2, 9)])[0][0]  # in one size on two pages: a running head


def test_two_columns_are_read_left_then_right_on_every_page(two_column):
    for page in (1, 2):
        on_page = two_column[two_column["page"] == page].reset_index(drop=True)
        last_left = max(i for i, t in enumerate(on_page["text"]) if "(left)" in t)
        first_right = min(i for i, t in enumerate(on_page["text"]) if "(right)" in t)
        assert last_left < first_right
    # the full-width heading under both columns comes after the right column, the entries after it
    assert position(two_column, "(right)") < position(two_column, "References") < position(two_column, "[1] ")


def test_the_right_column_is_offset_by_its_distance_from_the_left_one(two_column, pdfs):
    scale = 1280 / 612
    right = two_column["text"].str.endswith("(right)")
    assert right.sum() >= 4
    assert two_column.loc[right, "column_offset"].tolist() == pytest.approx([(330 - 72) * scale] * right.sum())
    assert two_column.loc[right, "x"].tolist() == pytest.approx([330 * scale] * right.sum())  # the page's geometry kept
    assert (two_column.loc[~right, "column_offset"] == 0).all()  # left column, title, full-width heading, entries
    with PDFiumReader() as reader:
        assert (reader.read(pdfs["one"]).zones["column_offset"] == 0).all()


def block(x0: float, x1: float, y0: float, n: int, text: str) -> list[Segment]:
    return [Segment(text=f"{text} {i}", x0=x0, x1=x1, y0=y0 + 12 * i, y1=y0 + 12 * i + 10, size=10) for i in range(n)]


def test_a_narrow_side_column_is_no_second_column():
    def lines(x0: float, x1: float) -> list[Segment]:
        return block(x0, x1, 100, 12, "a line of text")

    assert column_offset(lines(72, 300) + lines(330, 560)) == (pytest.approx(315, abs=10), 258)
    gutter, offset = column_offset(lines(72, 380) + lines(410, 540))  # side column of links, 130 wide against 308
    assert gutter is not None and offset == 0
    assert column_offset(lines(72, 540)) == (None, 0.0)


def page_order(segments: list[Segment]) -> list[str]:
    """The texts of a page's segments in the order the reader reads them (band by band)."""
    return [seg.text for band in bands(segments) for seg in reading_order(band)]


def test_a_header_band_and_the_body_below_find_their_own_columns():
    # a narrow "article info" box beside a wide abstract, then 40 points of white, then the body's two columns
    page = (block(72, 180, 100, 6, "info") + block(220, 540, 100, 8, "abstract")
            + block(72, 300, 236, 10, "left") + block(330, 540, 236, 10, "right"))
    order = page_order(page)
    assert [t.split()[0] for t in order] == ["info"] * 6 + ["abstract"] * 8 + ["left"] * 10 + ["right"] * 10
    assert order[:2] == ["info 0", "info 1"] and order[-1] == "right 9"


def test_columns_within_a_column_are_read_as_columns():
    # a margin column beside a wide one whose reference list is set in two columns
    page = (block(40, 150, 100, 6, "margin") + block(200, 560, 100, 10, "text")
            + block(200, 370, 224, 8, "refs-left") + block(390, 560, 224, 8, "refs-right"))
    order = page_order(page)
    assert [t.split()[0] for t in order] == ["margin"] * 6 + ["text"] * 10 + ["refs-left"] * 8 + ["refs-right"] * 8


def test_a_band_needs_a_strip_of_white_across_the_whole_page():
    columns = block(72, 300, 100, 10, "left") + block(330, 540, 140, 10, "right")  # the right column starts lower
    assert len(bands(columns)) == 1
    assert len(bands(block(72, 540, 100, 3, "a") + block(72, 540, 150, 3, "b"))) == 1  # 16 points of white
    assert len(bands(block(72, 540, 100, 3, "a") + block(72, 540, 160, 3, "b"))) == 2  # 26: over two body sizes


def centred(text: str, width: float, y0: float) -> Segment:
    return Segment(text=text, x0=300 - width / 2, x1=300 + width / 2, y0=y0, y1=y0 + 10, size=10)


@pytest.mark.parametrize("first, second, n_blocks", [
    (("Razvan C. Bunescu", 80), ("Department of Computer Sciences University", 200), 2),  # "Department" would fit
    (("Continuous Growth of Metal Oxide", 180), ("Nanocrystals: Enhanced Control of", 190), 1),  # wrapped
    (("How to make words with vectors:", 150), ("Phrase generation in distributional semantics", 230), 1),
])
def test_a_centred_line_joins_the_next_only_when_it_wrapped_into_it(first, second, n_blocks):
    assert len(blocks([centred(*first, 100), centred(*second, 112)])) == n_blocks


def test_lines_of_a_double_spaced_manuscript_make_one_paragraph():
    # 10-point type on a 24-point pitch: 14 points of white between lines, two paragraphs of four lines
    lines = [Segment(text=f"line {i} of a manuscript set with double spacing", x0=72, y0=100 + 24 * i,
                     x1=300 if i in (3, 7) else 540, y1=110 + 24 * i, size=10) for i in range(8)]
    assert [len(b) for b in blocks(lines)] == [4, 4]
    assert [len(b) for b in blocks(lines[:1] + lines[6:7])] == [1, 1]  # no usual leading on the page: 0.5 sizes


def _byline_and_notes(path: Path, notes: list[Run]) -> list[str]:
    """The zone texts of a page with a byline calling marks 1, 2 and *, a body, and ``notes`` at its foot."""
    body = [Run(72, 200 + 14 * i, f"Body text of the article, line {i}, set in the page's own type.", 10)
            for i in range(20)]
    pdf = make_pdf(path, [[
        Run(72, 100, "Notes After Their Calls", 16, "B"),
        Run(72, 130, "Ada Lovelace", 11), Run(136.5, 130, "1", 7, rise=4),
        Run(150, 130, "Charles Babbage", 11), Run(231, 130, "2*", 7, rise=4),
        *body, *notes]])
    with PDFiumReader() as reader:
        return reader.read(pdf).zones["text"].tolist()


def test_notes_at_the_foot_are_read_after_their_calls(tmp_path):
    texts = _byline_and_notes(tmp_path / "notes.pdf", [
        Run(72, 700, "1 Department of Analytical Engines, University of London, UK", 8),
        Run(72, 715, "* Correspondence: ada@example.org", 8),
        Run(72, 730, "3 A note whose call is nowhere on the page", 8)])
    byline = texts.index("Ada Lovelace 1 Charles Babbage 2*")
    assert texts[byline + 1].startswith("1 Department") and texts[byline + 2].startswith("* Correspondence")
    assert texts[byline + 3].startswith("Body text") and texts[-1].startswith("3 A note")


def test_a_mark_drawn_apart_opens_its_note(tmp_path):
    texts = _byline_and_notes(tmp_path / "mark.pdf", [
        Run(72, 700, "2", 6, rise=2), Run(88, 700, "Department of Analytical Engines, University of London, UK", 8)])
    byline = texts.index("Ada Lovelace 1 Charles Babbage 2*")
    assert texts[byline + 1] == "2 Department of Analytical Engines, University of London, UK"


def test_a_paragraph_broken_by_a_column_is_one_zone_read_before_the_notes_under_it(tmp_path):
    left = [Run(72, 300 + 14 * i, f"Left column line {i} of a paragraph that goes on and on", 10) for i in range(12)]
    right = [Run(320, 300 + 14 * i, f"{'carries' if i == 0 else 'then'} on in the right column, line {i} of it", 10)
             for i in range(30)]
    right[11] = Run(320, 300 + 14 * 11, "and ends here.", 10)
    pdf = make_pdf(tmp_path / "cut.pdf", [[
        Run(72, 100, "A Paragraph Cut By Notes", 16, "B"), *left, *right,
        Run(72, 700, "Communicated by A. Editor", 8), Run(72, 730, "Received 1 May 2020", 8)]])
    with PDFiumReader() as reader:
        zones = reader.read(pdf).zones
    texts = zones["text"].tolist()
    first = next(i for i, t in enumerate(texts) if t.startswith("Left column"))
    assert "line 11 of a paragraph that goes on and on carries on in the right column" in texts[first]
    assert texts[first].endswith("and ends here.")
    assert zones["x"].iloc[first] == pytest.approx(72 * 1280 / 612, abs=2)  # the first part's box
    assert texts[first + 1:first + 3] == ["Communicated by A. Editor", "Received 1 May 2020"]
    assert texts[first + 3].startswith("then on in the right column, line 12")  # after a sentence's end


def test_cells_of_one_line_are_not_joined_over_a_column_break():
    def line(x: float, y: float, text: str) -> list[Segment]:
        return [Segment(text=text, x0=x, x1=x + 6 * len(text), y0=y, y1=y + 10, size=10)]

    cells = [line(72, 120, "reduced"), line(300, 100, "non-reduced")]  # a table read column by column
    wrapped = [[*line(72, 100, "two lines of a paragraph set in one type"),
                *line(72, 114, "that run on to the foot of their column in")], line(300, 100, "next column")]
    assert paragraphs(cells, [1, 1], [False, False]) == [[0], [1]]
    assert paragraphs(wrapped, [1, 1], [False, False]) == [[0, 1]]


def test_a_paragraph_goes_on_over_a_page_break_past_the_licence_at_the_foot(tmp_path):
    first_page = [Run(72, 100, "Over The Page", 16, "B"),
                  *[Run(72, 300 + 14 * i, f"First page line {i} of the abstract running down to the", 10)
                    for i in range(25)],
                  Run(72, 730, "Published under a licence that allows reuse", 8)]
    second_page = [Run(72, 72, "foot of the page and on to the next one.", 10),
                   Run(72, 100, "Introduction", 12, "B"),
                   *[Run(72, 130 + 14 * i, f"body line {i} set in the article's own type", 10) for i in range(20)]]
    pdf = make_pdf(tmp_path / "pages.pdf", [first_page, second_page])
    with PDFiumReader() as reader:
        zones = reader.read(pdf).zones
    texts = zones["text"].tolist()
    at = next(i for i, t in enumerate(texts) if t.startswith("First page line 0"))
    assert texts[at].endswith("running down to the foot of the page and on to the next one.")
    assert zones["page"].iloc[at] == 1
    assert texts[at + 1:at + 3] == ["Published under a licence that allows reuse", "Introduction"]


def test_letter_spaced_words_are_read_as_words(tmp_path):
    pdf = make_pdf(tmp_path / "spaced.pdf", [[
        Run(72, 100, "article info", 9, spacing=3), Run(300, 100, "abstract", 9, spacing=3),
        Run(300, 120, "Short words in a normal line of type.", 9),
        Run(72, 200, "Contents" + "." * 40 + "7", 9, spacing=2)]])
    with PDFiumReader() as reader:
        texts = reader.read(pdf).zones["text"].tolist()
    assert "article info" in texts and "abstract" in texts
    assert "Short words in a normal line of type." in texts
    assert any(t.startswith("C o n t e n t s .") for t in texts)  # dots are no letters: left as drawn


def test_lines_of_a_paragraph_make_one_zone_and_each_reference_its_own(two_column, pdfs):
    abstract = two_column.iloc[position(two_column, "We test how")]["text"]
    assert abstract.endswith("superscript markers.")
    entries = [t for t in two_column["text"] if t.startswith("[")]
    assert len(entries) == 8 and entries[0].startswith("[1] AuthorB")


def test_a_single_column_page_is_read_line_by_line(pdfs):
    with PDFiumReader() as reader:
        zones = reader.read(pdfs["one"]).zones
    body = [t for t in zones["text"] if t.startswith("Reading order")]
    assert len(body) == 2 and all("as a reader of a printed journal would do" in t for t in body)
    assert (zones["y"].diff().dropna() > -1).all()  # top to bottom


def test_the_overlay_picture_stacks_the_pages(pdfs, tmp_path):
    with PDFiumReader() as reader:
        document = reader.read(pdfs["two"], screenshot=tmp_path / "pages.png")
    with Image.open(document.screenshot) as picture:
        assert picture.width == 1280
        assert picture.height == pytest.approx(document.zones["page_height"].iloc[0], abs=2)


def test_a_source_reader_reads_pdfs_without_a_browser(pdfs):
    with SourceReader(timeout=5.0) as reader:
        document = reader.read(str(pdfs["two"]))
        assert list(reader.readers) == ["pdf"]
    assert document.zones["text"].iloc[0] == TITLE


def _bad(kind: str, folder: Path) -> tuple[Path, dict]:
    path = folder / f"{kind}.pdf"
    if kind == "encrypted":
        make_pdf(path, article_pages(n_pages=1), encrypted=True)
    elif kind == "damaged":
        path.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage")
    elif kind == "image-only":
        make_pdf(path, [[], []], shapes=True)
    elif kind == "html":
        path.write_text("<!DOCTYPE html><html><body>not a PDF</body></html>")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind in ("huge", "long", "slow"):
        make_pdf(path, article_pages(n_pages=2))
    options = {"huge": {"limits": Limits(max_bytes=1000)}, "long": {"max_pages": 1},
               "slow": {"limits": Limits(deadline=0.0)}}
    return path, options.get(kind, {})


@pytest.mark.parametrize(("kind", "message"), [
    ("encrypted", "an encrypted PDF (needs a password)"),
    ("damaged", "a damaged PDF (not in PDF format or corrupted)"),
    ("image-only", "no text layer (an image-only or scanned PDF; scilabel does no OCR)"),
    ("html", "not a PDF file (it starts with '<!DOCTYPE ht')"),
    ("empty", "the file is empty"),
    ("huge", "larger than the limit of 0.000953674 MB (--max-page-mb)"),
    ("long", "2 pages, more than the limit of 1"),
    ("slow", "reading took longer than 0 s (--deadline)"),
])
def test_unreadable_pdfs_give_one_line_errors(tmp_path, kind, message):
    path, options = _bad(kind, tmp_path)
    with PDFiumReader(**options) as reader, pytest.raises(PageError) as raised:
        reader.read(path)
    text = str(raised.value)
    assert text.startswith(f"{path}: ") and text.endswith(message) and "\n" not in text


def test_the_cli_labels_a_pdf_end_to_end(pdfs, tmp_path, capsys):
    out, overlay = tmp_path / "label.json", tmp_path / "overlay.png"
    assert main(["label", str(pdfs["two"]), "-o", str(out), "--overlay", str(overlay)]) == 0
    record = json.loads(out.read_text())
    assert record["title"] == TITLE
    assert "Ada Lovelace" in " ".join(record["authors"]) and "Charles Babbage" in " ".join(record["authors"])
    assert record["abstract"].startswith("We test how a reader of PDF files")
    assert len(record["references"]) == 8
    assert {z["page"] for z in record["zones"]} == {1, 2}
    with Image.open(overlay) as picture:
        assert picture.width == 1280
    assert main(["refs", str(pdfs["two"]), "--format", "bibtex"]) == 0
    assert capsys.readouterr().out.count("@") == 8
    bad = tmp_path / "bad.pdf"
    bad.write_text("<html>not a pdf</html>")
    assert main(["label", str(bad)]) == 1
    assert capsys.readouterr().err == f"scilabel: error: {bad}: not a PDF file (it starts with '<html>not a ')\n"


def test_the_structure_of_a_two_column_pdf_keeps_both_columns(tmp_path):
    """The column with less text is the article's too: measured within its column, the left column's
    paragraph stays in its section (by page x it lay outside the body and was dropped)."""
    lines = ["The cells were grown in a standard medium for", "three days before the assay was run on each of",
             "the plates, and every condition was repeated", "three times before the results were averaged."]

    def column(x: float, heading: str, paragraphs: int) -> list[Run]:
        runs, y = [Run(x, 230, heading, 11, "B")], 248.0
        for _ in range(paragraphs):
            for line in lines:
                runs.append(Run(x, y, line, 10))
                y += 12
            y += 8
        return runs

    runs = [Run(110, 100, "Columns and Sections in Printed Articles", 16, "B"),
            Run(200, 130, "Ada Lovelace and Charles Babbage", 11), Run(72, 165, "Abstract", 11, "B"),
            Run(72, 180, "We test how the structure of a two-column article is read from a PDF,", 10),
            Run(72, 192, "with a section heading at the top of each of its two columns.", 10),
            *column(72, "1 Introduction", 1), *column(330, "2 Methods", 6), Run(72, 620, "References", 11, "B"),
            *(Run(72, 640 + 14 * i, f"[{i}] Author B, Writer C. A study of reading order number {i}. J Tests. "
                  f"20{10 + i};{i}:1-9.", 9) for i in range(1, 6))]
    pdf, out = make_pdf(tmp_path / "sections.pdf", [runs]), tmp_path / "structure.json"
    assert main(["structure", str(pdf), "--format", "json", "-o", str(out)]) == 0
    sections = json.loads(out.read_text())["sections"]
    assert [(s["number"], s["title"], len(s["content"])) for s in sections] == [
        ("1", "Introduction", 1), ("2", "Methods", 6), (None, "References", 0)]
