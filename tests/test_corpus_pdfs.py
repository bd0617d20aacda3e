"""Generated pages printed to PDF carry their gold in the text colour, read back by the PDF reader."""
from __future__ import annotations

import pytest

from scilabel.corpus.pdfs import STRUCT_KINDS, Printer, PrintJob, colour_gold, gold_colour, gold_of
from scilabel.structure.gold import zone_kinds
from scilabel.readers.pdf_pdfium import PDFiumReader, pdf_zones
from scilabel.schema import LABELS

PAGE = """<html><head><title>Printed gold</title></head><body>
<h1 data-scilabel="title">Exact Gold for Printed Pages</h1>
<p data-scilabel="authors">Grace Hopper, <a href="#">Alan Turing</a></p>
<p>Published online, with no label at all.</p>
<h2 data-scilabel="abstract_heading">Abstract</h2>
<p data-scilabel="abstract">A page printed to PDF keeps its labels in the colour of its text, <em>even inside
emphasis</em>, so the reader can give every zone its gold without matching any words.</p>
<div data-scilabel-content="1"><h2 data-scilabel-struct="heading">Methods</h2>
<p data-scilabel-struct="paragraph">We printed the page and read it back through the reader.</p>
<table><tr><td data-scilabel-struct="section">cell text</td></tr></table>
<div data-scilabel-struct="section" style="margin-top:2em">• a point of the list</div></div>
<ol><li data-scilabel="references">Hopper G. Compilers. J Tests. 1952;1:1-9.</li>
<li data-scilabel="references">Turing A. Machines. J Tests. 1950;2:10-19.</li></ol>
</body></html>"""


def test_every_label_and_kind_has_a_colour_that_reads_back():
    for label in LABELS:
        for kind in STRUCT_KINDS:
            _, green, blue = (int(v) for v in gold_colour(label, kind)[4:-1].split(","))
            for shift in (0, 2, -2):  # rounding in the PDF
                if green + shift >= 0:
                    assert colour_gold(((green + shift) << 8) + blue + shift) == (label, kind)
    assert colour_gold(0) == ("other", "noise") and colour_gold(0x112233) == ("other", "noise")


@pytest.mark.parametrize("layout", ["2col"])
def test_a_printed_page_reads_back_with_its_gold(tmp_path, layout):
    html = tmp_path / "page.html"
    html.write_text(PAGE)
    job = PrintJob(html, tmp_path / "page.pdf", layout, furniture=True)
    with Printer() as printer:
        printer.print(job)
    zones = pdf_zones(PDFiumReader().read_pages(job.pdf), "page.pdf", gold_of=gold_of)
    gold = dict(zip(zones["text"], zones["label"]))
    assert gold["Exact Gold for Printed Pages"] == "title"
    assert gold["Grace Hopper, Alan Turing"] == "authors"
    assert gold["Published online, with no label at all."] == "other"
    assert gold["Abstract"] == "abstract_heading"
    assert [label for text, label in gold.items() if text.startswith("A page printed")] == ["abstract"]
    assert sum(label == "references" for label in gold.values()) == 2
    assert gold.get("Printed gold", "other") == "other"  # the running head: furniture, or on one page other
    kinds = dict(zip(zones["text"], zone_kinds(zones)))
    assert kinds["Methods"] == "heading"
    assert kinds["We printed the page and read it back through the reader."] == "paragraph"
    assert kinds["cell text"] == "table"
    assert kinds["• a point of the list"] == "item"
    assert kinds["Exact Gold for Printed Pages"] == "noise"  # front matter is not body content
