"""Generated pages printed to PDF with their gold, and read back through the PDF reader.

Each labelled page of a generated corpus (:mod:`scilabel.corpus.generate`) is printed by Chromium
(``page.pdf()``, print media) in one of two layouts: as the page lays itself out (one column), or with
its body text and its reference list set in two columns (``column-count: 2`` on the element holding
most paragraphs and on the one holding the references), the front matter staying full width. Half the
PDFs get a running head (the page's title) and page numbers in the margins, as a journal's do.

The gold travels in the text's colour: before printing, every element's text is coloured with the code
of its gold label in the blue channel and of its structure role in the green one (its
``data-scilabel-struct`` within the article's content, ``table`` in a table cell, else noise:
:data:`STRUCT_KINDS`; :func:`gold_colour`: near-black shades); the PDF reader reads each character's
fill colour back, and a zone's gold is the label and the role most of its characters carry
(:func:`gold_of`: the zones' ``label``, ``struct`` and ``content`` columns, from which the block model's
training takes each zone's kind as it does on a web page: :func:`scilabel.structure.gold.zone_kinds`). Nothing is matched by
text, so the gold is exact for whatever zones the reader cuts; text the page did not label (the running
head, page numbers) reads as ``other`` and noise.

    python -m scilabel.corpus.pdfs --corpus build/corpus --out build/pdfcorpus --per-family 12

writes ``pdfs/<family>/<page>-<layout>.pdf`` and a dataset folder (``zones.parquet``,
``manifest.csv``: :mod:`scilabel.corpus.dataset`) whose documents are those PDFs, in the split of the
page they were printed from, grouped as ``<family>/pdf``.
"""
from __future__ import annotations

import argparse
import logging
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..readers.base import PageError
from ..readers.pdf_pdfium import PDFiumReader, pdf_zones
from ..readers.pdf_text import Char
from ..schema import LABELS
from ..structure.blocks import TABLE_CELL
from ..structure.evaluation import BODY_KINDS
from .dataset import MANIFEST_FILE, write_dataset

log = logging.getLogger(__name__)

#: Step between two labels' codes in the blue channel of the text colour.
COLOUR_STEP = 16
#: Structure roles a printed page's text carries (its code is the index): noise (not article content),
#: the marked roles, and a table cell's.
STRUCT_KINDS = ("noise", *BODY_KINDS, TABLE_CELL, "section")
#: The layouts a page is printed in.
LAYOUTS = ("1col", "2col")
#: Colours every element's text with its gold label's code; with ``twoColumns``, sets the body and the
#: reference list in two columns. Runs in the page before printing.
_PRINT_JS = """({labels, kinds, twoColumns}) => {
  const kindOf = el => {
    if (!el.closest("[data-scilabel-content]")) return "noise";
    const holder = el.closest("[data-scilabel-struct]");
    const struct = holder ? holder.getAttribute("data-scilabel-struct") : "";
    if (struct === "section" && el.closest("td, th")) return "table";
    return struct in kinds ? struct : "noise";
  };
  const colour = el => {
    const holder = el.closest("[data-scilabel]");
    const label = holder ? holder.getAttribute("data-scilabel").trim() : "other";
    return `rgb(0, ${kinds[kindOf(el)]}, ${labels[label] || labels.other})`;
  };
  for (const el of document.body.querySelectorAll("*")) {
    el.style.setProperty("color", colour(el), "important");
    el.style.setProperty("-webkit-text-fill-color", colour(el), "important");
  }
  document.body.style.setProperty("color", colour(document.body), "important");
  if (!twoColumns) return;
  const columns = el => {
    el.style.setProperty("column-count", "2", "important");
    el.style.setProperty("column-gap", "24px", "important");
  };
  let body = null, most = 2;
  for (const el of document.body.querySelectorAll("*")) {
    const paragraphs = [...el.children].filter(c => c.tagName === "P").length;
    if (paragraphs > most) { body = el; most = paragraphs; }
  }
  if (body) columns(body);
  const refs = [...document.querySelectorAll('[data-scilabel="references"]')];
  if (refs.length > 1) {
    let common = refs[0].parentElement;
    while (common && !refs.every(r => common.contains(r))) common = common.parentElement;
    if (common && common !== document.body && common !== body && !(body && body.contains(common))) columns(common);
  }
}"""


def gold_colour(label: str, kind: str = "noise") -> str:
    """The CSS colour carrying ``label`` (of :data:`~scilabel.schema.LABELS`) and structure role ``kind``
    (of :data:`STRUCT_KINDS`)."""
    return f"rgb(0, {_code(STRUCT_KINDS.index(kind))}, {_code(LABELS.index(label) + 1)})"


def _code(n: int) -> int:
    return COLOUR_STEP * n


def _decode(channel: int, count: int) -> int | None:
    """The code a colour channel carries (rounding in the PDF allowed), None when it carries none."""
    code, rest = divmod(channel + COLOUR_STEP // 4, COLOUR_STEP)
    return code if rest <= COLOUR_STEP // 2 and 0 <= code < count else None


def colour_gold(colour: int) -> tuple[str, str]:
    """The label and the structure role a character's fill colour (0xRRGGBB) carries: ``other`` and noise
    for a colour that is not a gold code."""
    label = _decode(colour & 0xFF, len(LABELS) + 1)
    kind = _decode((colour >> 8) & 0xFF, len(STRUCT_KINDS))
    if colour >> 16 or not label or kind is None:
        return "other", "noise"
    return LABELS[label - 1], STRUCT_KINDS[kind]


def gold_of(chars: list[Char]) -> dict:
    """A zone's gold: the label and the structure role most of its characters carry (``label``, ``struct``
    and ``content`` columns)."""
    golds = [colour_gold(c.colour) for c in chars]
    label = Counter(g[0] for g in golds).most_common(1)[0][0] if golds else "other"
    kind = Counter(g[1] for g in golds).most_common(1)[0][0] if golds else "noise"
    return {"label": label, "struct": None if kind == "noise" else kind, "content": kind != "noise"}


@dataclass(frozen=True)
class PrintJob:
    """One page to print: its HTML file, where the PDF goes, the layout, and whether it gets running heads."""

    html: Path
    pdf: Path
    layout: str
    furniture: bool


class Printer:
    """Prints HTML pages to PDF in one headless Chromium, offline (every request but the page refused)."""

    def __init__(self, timeout: float = 15.0):
        self.timeout = timeout

    def __enter__(self) -> Printer:
        from playwright.sync_api import sync_playwright

        from ..readers.render import _LAUNCH_ARGS, find_chromium

        self._playwright = sync_playwright().start()
        executable = find_chromium(self._playwright.chromium.executable_path)
        self._browser = self._playwright.chromium.launch(executable_path=executable, args=_LAUNCH_ARGS, headless=True)
        return self

    def __exit__(self, *exc: object) -> None:
        self._browser.close()
        self._playwright.stop()

    def print(self, job: PrintJob) -> Path:
        """Print one page as ``job`` says; returns the PDF's path."""
        context = self._browser.new_context(java_script_enabled=True, viewport={"width": 1280, "height": 1024})
        try:
            page = context.new_page()
            page.route("**/*", lambda route: route.abort())
            page.set_default_timeout(self.timeout * 1000)
            page.set_content(job.html.read_text(encoding="utf-8"), wait_until="load")
            page.emulate_media(media="print")
            page.evaluate(_PRINT_JS, {"labels": {label: _code(i + 1) for i, label in enumerate(LABELS)},
                                      "kinds": {kind: _code(i) for i, kind in enumerate(STRUCT_KINDS)},
                                      "twoColumns": job.layout == "2col"})
            title = (page.title() or "")[:80].replace("&", "&amp;").replace("<", "&lt;")
            style = "font-size:8px;width:100%;text-align:center;color:#000"
            job.pdf.parent.mkdir(parents=True, exist_ok=True)
            page.pdf(path=str(job.pdf), format="A4", print_background=False, display_header_footer=job.furniture,
                     header_template=f'<div style="{style}">{title}</div>' if job.furniture else "<span></span>",
                     footer_template=f'<div style="{style}"><span class="pageNumber"></span></div>'
                     if job.furniture else "<span></span>",
                     margin={"top": "18mm", "bottom": "18mm", "left": "15mm", "right": "15mm"})
        finally:
            context.close()
        return job.pdf


def print_corpus(corpus: Path, out: Path, per_family: int = 12, seed: int = 0, max_pages: int = 40) -> pd.DataFrame:
    """Print ``per_family`` pages of each family and split of a generated corpus, each in both layouts, read
    them back with their gold and write the dataset folder ``out`` (see the module docstring). Returns its
    manifest; a page that fails to print or read is logged and left out. PDFs already in ``out`` are read
    again, not printed again."""
    manifest = pd.read_csv(Path(corpus) / MANIFEST_FILE)
    rng = random.Random(seed)
    chosen = []
    for _, group in manifest.groupby(["family", "split"], sort=True):
        rows = list(group.itertuples())
        chosen += rng.sample(rows, min(per_family, len(rows)))
    reader = PDFiumReader(max_pages=max_pages)
    frames, entries = [], []
    with Printer() as printer:
        for n, row in enumerate(chosen):
            for layout in LAYOUTS:
                document = f"pdfs/{row.family}/{Path(row.path).stem}-{layout}.pdf"
                job = PrintJob(Path(corpus) / row.path, Path(out) / document, layout, furniture=rng.random() < 0.5)
                try:
                    if not job.pdf.exists():  # printed by an earlier run: read again only
                        printer.print(job)
                    zones = pdf_zones(reader.read_pages(job.pdf), document, gold_of=gold_of)
                except (PageError, OSError, RuntimeError) as exc:
                    log.warning("%s (%s): %s", row.path, layout, str(exc).splitlines()[0])
                    continue
                except Exception as exc:  # noqa: BLE001 - Playwright's errors: one page lost, not the corpus
                    log.warning("%s (%s): %s", row.path, layout, str(exc).splitlines()[0])
                    continue
                frames.append(zones.assign(split=row.split, group=f"{row.family}/pdf"))
                counts = zones["label"].value_counts()
                entries.append({"document": document, "path": document, "family": row.family, "split": row.split,
                                "layout": layout, "furniture": job.furniture, "source_page": row.path,
                                "pages": int(zones["page"].max()), "html_path": "",
                                **{f"zones_{label}": int(counts.get(label, 0)) for label in LABELS}})
            if n % 20 == 0:
                log.info("printed %d of %d pages", n + 1, len(chosen))
    result = pd.DataFrame(entries)
    write_dataset(Path(out), pd.concat(frames, ignore_index=True), result)
    return result


def main(argv: list[str] | None = None) -> None:
    """Command line: print a generated corpus's pages to a PDF dataset."""
    parser = argparse.ArgumentParser(prog="python -m scilabel.corpus.pdfs", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a generated corpus folder (pages and manifest.csv)")
    parser.add_argument("--out", type=Path, required=True, help="the PDF dataset folder to write")
    parser.add_argument("--per-family", type=int, default=12, help="pages per family and split (each printed twice)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    manifest = print_corpus(args.corpus, args.out, args.per_family, args.seed)
    print(manifest.groupby(["split", "layout"]).size().to_string())


if __name__ == "__main__":
    main()
