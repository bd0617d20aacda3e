"""Which reader reads a source: :data:`READERS` by kind, and :func:`reader_for`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Reader, UnsupportedSource
from .html_chromium import ChromiumHTMLReader
from .sources import read_head, source_path

#: The reader of each kind of input.
READERS: dict[str, type[Reader]] = {"html": ChromiumHTMLReader}
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


def reader_for(source: str | Path, **options: Any) -> Reader:
    """A new (not yet entered) reader for ``source``'s kind, built with ``options``.

    Raises :class:`UnsupportedSource` ("PATH: PDF input is not supported yet") for a kind no reader reads.
    """
    kind = source_kind(source)
    if kind not in READERS:
        raise UnsupportedSource(f"{source}: {kind.upper()} input is not supported yet")
    return READERS[kind](**options)
