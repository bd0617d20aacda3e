"""Readers: every input kind becomes a :class:`Document` holding the same zones frame.

``base`` holds the :class:`Reader` protocol and the frame's contract; ``html_chromium`` reads web
pages through headless Chromium (``render``, ``extract.js``, ``sources``); ``pdf_pdfium`` reads PDF
files with PDFium (``pdf_text``: characters and lines, ``pdf_layout``: furniture, columns, blocks); ``registry`` picks the
reader for a source.
"""
from .base import Document, PageError, Reader, UnsupportedSource
from .html_chromium import ChromiumHTMLReader
from .pdf_pdfium import PDFiumReader
from .registry import READERS, SourceReader, reader_for, source_kind

__all__ = ["READERS", "ChromiumHTMLReader", "Document", "PDFiumReader", "PageError", "Reader", "SourceReader", "UnsupportedSource", "reader_for",
           "source_kind"]
