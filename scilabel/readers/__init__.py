"""Readers: every input kind becomes a :class:`Document` holding the same zones frame.

``base`` holds the :class:`Reader` protocol and the frame's contract; ``html_chromium`` reads web
pages through headless Chromium (``render``, ``extract.js``, ``sources``); ``registry`` picks the
reader for a source.
"""
from .base import Document, PageError, Reader, UnsupportedSource
from .html_chromium import ChromiumHTMLReader
from .registry import READERS, reader_for, source_kind

__all__ = ["READERS", "ChromiumHTMLReader", "Document", "PageError", "Reader", "UnsupportedSource", "reader_for",
           "source_kind"]
