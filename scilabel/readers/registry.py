"""Which reader reads a source: :data:`READERS` by kind, and :func:`reader_for`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Document, Reader, UnsupportedSource
from .html_chromium import ChromiumHTMLReader
from .pdf_pdfium import PDFiumReader
from .sources import read_head, source_path

#: The reader of each kind of input.
READERS: dict[str, type[Reader]] = {"html": ChromiumHTMLReader, "pdf": PDFiumReader}
#: How a file of each kind other than HTML is recognised: endings of its name, or its first bytes.
SIGNATURES: dict[str, tuple[tuple[str, ...], bytes]] = {
    "pdf": ((".pdf",), b"%PDF-"),
    "warc": ((".warc", ".warc.gz"), b"WARC/"),
}


def source_kind(source: str | Path) -> str:
    """The kind of input a source is: a key of :data:`SIGNATURES` for a file recognised by its name or
    first bytes, else ``"html"`` (an HTML string, a URL, any other file)."""
    path = source_path(source)
    if path is None:
        return "html"
    name = path.name.lower()
    head = read_head(path, 8)  # empty for a missing file, a pipe or a device: its reader says so
    for kind, (endings, magic) in SIGNATURES.items():
        if name.endswith(endings) or head.startswith(magic):
            return kind
    return "html"


class SourceReader:
    """A reader of every kind in :data:`READERS`: each source goes to the reader of its kind, started the
    first time a source of that kind comes (a batch of PDFs starts no browser) and kept until exit.

    ``options`` are given to each kind's reader (the readers share ``timeout`` and ``limits``); a page
    already read (a WARC record's :class:`~.sources.PageDocument`) is HTML.
    """

    def __init__(self, **options: Any):
        self.options = options
        self.readers: dict[str, Reader] = {}

    def __enter__(self) -> SourceReader:
        return self

    def __exit__(self, *exc: object) -> None:
        readers, self.readers = self.readers, {}
        for reader in readers.values():
            reader.__exit__(None, None, None)

    def read(self, source: Any, screenshot: Path | None = None) -> Document:
        """Read ``source`` with the reader of its kind (see :meth:`Reader.read`)."""
        kind = readable_kind(source)
        if kind not in self.readers:
            self.readers[kind] = READERS[kind](**self.options).__enter__()
        return self.readers[kind].read(source, screenshot=screenshot)


def reader_for(source: str | Path, **options: Any) -> Reader:
    """A new (not yet entered) reader for ``source``'s kind, built with ``options``.

    Raises :class:`UnsupportedSource` ("PATH: WARC input is not supported yet") for a kind no reader reads.
    """
    return READERS[readable_kind(source)](**options)


def readable_kind(source: Any) -> str:
    """``source``'s kind, one :data:`READERS` reads (a page already read, such as a WARC record's
    :class:`~.sources.PageDocument`, is HTML); :class:`UnsupportedSource` for a kind no reader reads."""
    kind = source_kind(source) if isinstance(source, (str, Path)) else "html"
    if kind not in READERS:
        raise UnsupportedSource(f"{source}: {kind.upper()} input is not supported yet")
    return kind
