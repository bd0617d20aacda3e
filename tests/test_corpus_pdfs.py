"""Generated pages printed to PDF carry their gold in the text colour, read back by the PDF reader."""
from __future__ import annotations

import pytest

from scilabel.corpus.pdfs import Printer, PrintJob, colour_label, label_colour, label_of
from scilabel.readers.pdf_pdfium import PDFiumReader, pdf_zones
from scilabel.schema import LABELS

PAGE = """<html><head><title>Printed gold</title></head><body>
<h1 data-scilabel="title">Exact Gold for Printed Pages</h1>
<p data-scilabel="authors">Grace Hopper, <a href="#">Alan Turing</a></p>
<p>Published online, with no label at all.</p>
<h2 data-scilabel="abstract_heading">Abstract</h2>
<p data-scilabel="abstract">A page printed to PDF keeps its labels in the colour of its text, <em>even inside
emphasis</em>, so the reader can give every zone its gold without matching any words.</p>
<ol><li data-scilabel="references">Hopper G. Compilers. J Tests. 1952;1:1-9.</li>
<li data-scilabel="references">Turing A. Machines. J Tests. 1950;2:10-19.</li></ol>
</body></html>"""


def test_every_label_has_a_colour_that_reads_back():
    for label in LABELS:
        value = int(label_colour(label).split(",")[2].strip(" )"))
        assert colour_label(value) == label
        assert colour_label(value + 2) == label and colour_label(value - 2) == label  # rounding in the PDF
    assert colour_label(0) == "other" and colour_label(0x112233) == "other"


@pytest.mark.parametrize("layout", ["2col"])
def test_a_printed_page_reads_back_with_its_gold(tmp_path, layout):
    html = tmp_path / "page.html"
    html.write_text(PAGE)
    job = PrintJob(html, tmp_path / "page.pdf", layout, furniture=True)
    with Printer() as printer:
        printer.print(job)
    zones = pdf_zones(PDFiumReader().read_pages(job.pdf), "page.pdf", label_of=label_of)
    gold = dict(zip(zones["text"], zones["label"]))
    assert gold["Exact Gold for Printed Pages"] == "title"
    assert gold["Grace Hopper, Alan Turing"] == "authors"
    assert gold["Published online, with no label at all."] == "other"
    assert gold["Abstract"] == "abstract_heading"
    assert [label for text, label in gold.items() if text.startswith("A page printed")] == ["abstract"]
    assert sum(label == "references" for label in gold.values()) == 2
    assert gold.get("Printed gold", "other") == "other"  # the running head: furniture, or on one page other
