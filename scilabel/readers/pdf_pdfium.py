"""The PDF reader: a PDF's text layer read with PDFium (pypdfium2, no browser) into the zones frame.

A whole article is one document: its pages are stacked top to bottom, each scaled to the 1280 px width
of the HTML reader's viewport, so ``x``, ``y`` (from the top of the first page), ``w``, ``h`` and
``font_size`` are in the same units as a web page's and ``page`` says which PDF page a zone is on. The
characters, segments and their fonts come from :mod:`.pdf_text`; furniture, reading order and blocks
(the zones) from :mod:`.pdf_layout`.

What cannot be read is a :class:`~.base.PageError` naming the file and the problem in one line: a
file that is not a PDF (whatever its name), a damaged or encrypted one, one with no text layer (a
scanned PDF: there is no OCR), one larger than ``limits.max_bytes``, with more pages than
``max_pages``, or taking longer than ``limits.deadline`` seconds to read.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import atomic_path
from ..metadata import PageMeta
from .base import Document, PageError
from .pdf_layout import (GUTTER_SLACK, PageText, bands, block_text, blocks, column_offset, furniture,
                         notes_after_calls, paragraphs, read_columns)
from .pdf_text import Char, Segment, page_chars, page_segments
from .render import VIEWPORT_WIDTH
from .sources import Limits, read_head, source_path

log = logging.getLogger(__name__)

#: Pages a PDF may have unless the reader is told otherwise.
MAX_PAGES = 300
#: Pages drawn in an overlay's picture at most (a picture of 1280 px by this many pages).
MAX_PICTURE_PAGES = 40
#: Where the ``%PDF-`` signature may start (readers accept some bytes before it).
_SIGNATURE_WITHIN = 1024
#: PDFium's document-loading error codes and what they mean for the reader.
_LOAD_ERRORS = {
    2: "cannot open the file",
    3: "a damaged PDF (not in PDF format or corrupted)",
    4: "an encrypted PDF (needs a password)",
    6: "an encrypted PDF (unsupported security handler)",
}
#: The gold columns besides ``label``: empty, since a PDF carries no annotations (a printed page's
#: ``struct`` and ``content`` come from its colours).
_GOLD = {"content": False, "struct": None, "ref_id": None, "cites": "", "translation": None}


class PDFiumReader:
    """Reads PDF files (paths) into documents, one article a document, without a browser.

    Parameters
    ----------
    timeout : float
        Accepted for the readers' common signature; a PDF's reading time is bounded by ``limits.deadline``.
    limits : Limits
        ``deadline``: seconds one PDF may take; ``max_bytes``: its largest size (see :class:`.sources.Limits`).
    max_pages : int
        Most pages a PDF may have.

    Use as a context manager, like every reader::

        with PDFiumReader() as reader:
            document = reader.read("article.pdf")
    """

    def __init__(self, timeout: float = 10.0, limits: Limits = Limits(), max_pages: int = MAX_PAGES):
        self.timeout = timeout
        self.limits = limits
        self.max_pages = max_pages

    def __enter__(self) -> PDFiumReader:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def read(self, source: str | Path, screenshot: Path | None = None) -> Document:
        """Read one PDF; with ``screenshot``, also save its pages, stacked, as one PNG there."""
        started = time.monotonic()
        pages, picture = self._read(source, screenshot)
        zones = pdf_zones(pages, str(source))
        log.debug("%s: %d pages, %d zones in %.3f s", source, len(pages), len(zones), time.monotonic() - started)
        warnings = []
        if picture is not None and len(pages) > MAX_PICTURE_PAGES:
            warnings.append(f"{source}: the overlay shows the first {MAX_PICTURE_PAGES} of {len(pages)} pages")
        return Document(source=str(source), zones=zones, metadata=PageMeta(), warnings=warnings, screenshot=picture)

    def read_pages(self, source: str | Path) -> list[PageText]:
        """The segments of each page of one PDF, before furniture, reading order and blocks."""
        return self._read(source, None)[0]

    def _read(self, source: str | Path, screenshot: Path | None) -> tuple[list[PageText], Path | None]:
        import pypdfium2 as pdfium

        name = str(source)
        path = self._checked_path(source)
        started = time.monotonic()
        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:
            raise PageError(f"{name}: {_LOAD_ERRORS.get(exc.err_code, 'cannot read the PDF')}") from None
        try:
            n_pages = len(pdf)
            if n_pages == 0:
                raise PageError(f"{name}: the PDF has no pages")
            if n_pages > self.max_pages:
                raise PageError(f"{name}: {n_pages} pages, more than the limit of {self.max_pages}")
            pages: list[PageText] = []
            for i in range(n_pages):
                if time.monotonic() - started > self.limits.deadline:
                    raise PageError(f"{name}: reading took longer than {self.limits.deadline:g} s (--deadline)")
                page = pdf[i]
                try:
                    width, height = page.get_size()
                    pages.append(PageText(i + 1, width, height, page_segments(page_chars(page))))
                finally:
                    page.close()
            if not any(p.segments for p in pages):
                raise PageError(f"{name}: no text layer (an image-only or scanned PDF; scilabel does no OCR)")
            picture = None if screenshot is None else _save_pages(pdf, Path(screenshot), [p.width for p in pages])
        finally:
            pdf.close()
        return pages, picture

    def _checked_path(self, source: str | Path) -> Path:
        name = str(source)
        path = source_path(source)
        if path is None:
            raise PageError(f"{name}: a PDF is read from a file (not a URL or a string)")
        if not path.is_file():
            raise PageError(f"{name}: {'not a regular file' if path.exists() else 'no such file'}")
        size = path.stat().st_size
        if size > self.limits.max_bytes:
            raise PageError(f"{name}: {size / 2**20:.1f} MB, larger than the limit of "
                            f"{self.limits.max_bytes / 2**20:g} MB (--max-page-mb)")
        head = read_head(path, _SIGNATURE_WITHIN)
        if b"%PDF-" not in head:
            shown = head[:12].decode("latin-1").encode("unicode_escape").decode("ascii")
            raise PageError(f"{name}: not a PDF file (it starts with {shown!r})" if head else f"{name}: the file is empty")
        return path


def pdf_zones(pages: list[PageText], source: str,
              gold_of: Callable[[list[Char]], dict] | None = None) -> pd.DataFrame:
    """The zones frame of a PDF's pages: furniture left out, each page in reading order and cut into
    blocks, the pages stacked at the viewport width (see the module docstring). ``gold_of`` gives a
    zone's gold columns (``label``, ``struct``, ``content``) from its characters, for a PDF printed with its
    gold (:mod:`scilabel.corpus.pdfs`)."""
    parts: list[tuple[list[Segment], int, float, float, float]] = []  # block, page, scale, offset, column offset
    loose: list[bool] = []
    offset = 0.0
    for page, is_furniture in zip(pages, furniture(pages)):
        scale = VIEWPORT_WIDTH / page.width
        kept = [seg for seg, drop in zip(page.segments, is_furniture) if not drop]
        page_blocks: list[list[Segment]] = []
        shifts: list[float] = []  # each block's column offset
        for band in bands(kept):
            gutter, shift = column_offset(band)
            for block in blocks(read_columns(band, gutter)):
                right = gutter is not None and min(s.x0 for s in block) >= gutter - GUTTER_SLACK
                page_blocks.append(block)
                shifts.append(shift if right else 0.0)
        order, notes = notes_after_calls(page_blocks, page)
        parts += [(page_blocks[i], page.number, scale, offset, shifts[i]) for i in order]
        loose += [i in notes for i in order]
        offset += page.height * scale
    groups = paragraphs([block for block, *_ in parts], [number for _, number, *_ in parts], loose)
    rows = [_zone_row([parts[i][0] for i in group], *parts[group[0]][1:], gold_of) for group in groups]
    frame = pd.DataFrame(rows, columns=["text", "x", "y", "w", "h", "column_offset", "font_size", "font_weight",
                                        "italic_chars", "sup_chars", "link_chars", "page", "chars", "label",
                                        *(("struct", "content") if gold_of else ())])
    frame = frame[frame["text"].str.strip().astype(bool)].drop(columns="chars").reset_index(drop=True)
    frame.insert(0, "document", source)
    frame.insert(1, "page", frame.pop("page").astype(int))
    frame["tag_path"] = frame["node_path"] = frame["class_path"] = ""
    frame["lead_chars"] = 0  # run-in titles are read from HTML only
    frame["dom_index"] = np.arange(len(frame))
    for column, value in _GOLD.items():
        if column not in frame:
            frame[column] = value
    frame["page_width"] = float(VIEWPORT_WIDTH)
    frame["page_height"] = offset
    return frame


def _zone_row(parts: list[list[Segment]], page: int, scale: float, offset: float, shift: float,
              gold_of: Callable[[list[Char]], dict] | None) -> dict:
    """One zone's row of the zones frame from its blocks (a paragraph's parts on both sides of a column
    or page break): their text and type, the first part's box at the viewport's scale and column offset."""
    block = [seg for part in parts for seg in part]
    chars = [c for seg in block for c in seg.chars]
    sizes: dict[float, int] = {}
    weights: dict[int, int] = {}
    for seg in block:
        sizes[seg.size] = sizes.get(seg.size, 0) + len(seg.chars)
        weights[seg.weight] = weights.get(seg.weight, 0) + len(seg.chars)
    first = parts[0]
    x0 = min(s.x0 for s in first)
    y0 = min(s.y0 for s in first)
    return {
        "text": block_text(block),
        "x": x0 * scale, "y": offset + y0 * scale, "column_offset": shift * scale,
        "w": (max(s.x1 for s in first) - x0) * scale, "h": (max(s.y1 for s in first) - y0) * scale,
        "font_size": max(sizes, key=sizes.__getitem__) * scale,
        "font_weight": max(weights, key=weights.__getitem__),
        "italic_chars": sum(s.italic_chars for s in block), "sup_chars": sum(s.sup_chars for s in block),
        "link_chars": 0, "page": page, "chars": len(chars),
        **(gold_of(chars) if gold_of else {"label": None}),
    }


def _save_pages(pdf, target: Path, widths: list[float]) -> Path:
    """The first :data:`MAX_PICTURE_PAGES` pages drawn at the viewport width, stacked, saved as PNG at ``target``."""
    from PIL import Image

    images = []
    for i, width in enumerate(widths[:MAX_PICTURE_PAGES]):
        page = pdf[i]
        try:
            images.append(page.render(scale=VIEWPORT_WIDTH / width).to_pil().convert("RGB"))
        finally:
            page.close()
    sheet = Image.new("RGB", (VIEWPORT_WIDTH, sum(im.height for im in images)), "white")
    y = 0
    for im in images:
        sheet.paste(im, (0, y))
        y += im.height
    with atomic_path(target) as tmp:
        sheet.save(tmp, format="PNG")
    return target
