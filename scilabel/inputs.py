"""What a batch run labels: the pages named by `scilabel label`'s inputs, one source at a time.

An input is a page (a file, an http(s) URL), a directory (its files, recursively, that match the
patterns), a list (``@list.txt``: one path or URL a line; blank lines and ``#`` comments skipped;
relative paths from the list's folder) or a WARC file (``.warc``, ``.warc.gz``: its HTML responses,
each a page whose source is the record's target URI). :func:`expand_inputs` lists the files and URLs,
:func:`iter_pages` reads WARC records lazily, so a crawl's pages are never all held in memory.
"""
from __future__ import annotations

import fnmatch
import logging
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .readers.base import PageError
from .readers.registry import source_kind
from .readers.sources import HTML_SUFFIXES, PageDocument, decode_html, source_path

log = logging.getLogger(__name__)

#: File names of HTML pages.
HTML_PATTERNS = tuple(f"*{suffix}" for suffix in HTML_SUFFIXES)
#: The files of a directory a run labels unless ``patterns`` says otherwise: HTML pages, PDFs and WARC files.
DEFAULT_PATTERNS = HTML_PATTERNS + ("*.pdf", "*.warc", "*.warc.gz")
#: The content types of a WARC response that is a page.
HTML_TYPES = ("text/html", "application/xhtml+xml")



@dataclass(frozen=True)
class Unreadable:
    """An input found unreadable while listing the pages (a WARC record whose body is not text)."""

    source: str
    error: str


#: One unit of work: a path or URL, a page already read (a WARC record), or one found unreadable.
Source = str | PageDocument | Unreadable


def source_name(source: Source) -> str:
    """The ``source`` a record of this page carries (a path or URL as given, a WARC record's URI)."""
    return str(source) if isinstance(source, str) else source.source


def expand_inputs(inputs: Sequence[str], patterns: Sequence[str] = DEFAULT_PATTERNS,
                  follow_symlinks: bool = False) -> list[str]:
    """The files and URLs ``inputs`` name, in order: directories walked and ``@lists`` read (a WARC
    file stays one entry: :func:`iter_pages` reads its records).

    Parameters
    ----------
    inputs : sequence of str
        Files, URLs, directories, ``@list`` files and WARC files.
    patterns : sequence of str
        Shell patterns a directory's file names must match (case-insensitive).
    follow_symlinks : bool
        Whether a directory's symbolic links may lead out of it (by default a link is followed only to a
        file inside the directory, never into another directory).

    Raises :class:`PageError` for a list that cannot be read.
    """
    found: list[str] = []
    for given in inputs:
        if given.startswith("@"):
            found.extend(_listed(Path(given[1:])))
            continue
        path = source_path(given)
        if path is not None and path.is_dir():
            found.extend(str(file) for file in directory_files(path, patterns, follow_symlinks))
        else:
            found.append(given)
    return found


def iter_pages(files: Sequence[str]) -> Iterator[Source]:
    """The pages of :func:`expand_inputs`' files and URLs: each one itself, a WARC file its HTML
    responses (read lazily)."""
    for source in files:
        if is_warc(source):
            yield from warc_pages(Path(source))
        else:
            yield source


def is_warc(source: str) -> bool:
    """Whether ``source`` is a WARC file (by its name or first bytes)."""
    return source_kind(source) == "warc"


def _listed(listing: Path) -> list[str]:
    try:
        lines = listing.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PageError(f"@{listing}: cannot read the list ({exc.strerror or exc})") from None
    entries = []
    for line in lines:
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        path = source_path(entry)
        entries.append(str(listing.parent / path) if path is not None and not path.is_absolute() else entry)
    return entries


def directory_files(root: Path, patterns: Sequence[str] = DEFAULT_PATTERNS, follow_symlinks: bool = False) -> list[Path]:
    """The regular files under ``root`` whose names match one of ``patterns``, sorted (see
    :func:`expand_inputs` for ``follow_symlinks``; a directory reached twice is walked once)."""
    top = root.resolve()
    found, seen = [], set()
    for folder, dirs, files in os.walk(root, followlinks=follow_symlinks):
        real = Path(folder).resolve()
        if real in seen:  # a link cycle
            dirs[:] = []
            continue
        seen.add(real)
        for name in files:
            path = Path(folder) / name
            if not any(fnmatch.fnmatch(name.lower(), p.lower()) for p in patterns) or not path.is_file():
                continue  # also sockets, pipes, devices and broken links
            if path.is_symlink() and not follow_symlinks and not path.resolve().is_relative_to(top):
                log.info("%s: a link out of %s; not followed (--follow-symlinks)", path, root)
                continue
            found.append(path)
    return sorted(found)


def warc_pages(path: Path) -> Iterator[PageDocument]:
    """The HTML responses (2xx) of a WARC file as pages whose ``source`` and URL are the records' URIs."""
    from warcio.archiveiterator import ArchiveIterator

    try:
        stream = path.open("rb")
    except OSError as exc:
        raise PageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with stream:
        for record in ArchiveIterator(stream):
            if record.rec_type not in ("response", "resource"):
                continue
            uri = record.rec_headers.get_header("WARC-Target-URI")
            http = record.http_headers
            if http is not None:
                status = http.get_statuscode() or ""
                ctype = http.get_header("Content-Type") or ""
            else:  # a resource record: no HTTP, the content type is the record's
                status, ctype = "200", record.rec_headers.get_header("Content-Type") or ""
            if not uri or not status.startswith("2") or ctype.split(";")[0].strip().lower() not in HTML_TYPES:
                continue
            data = record.content_stream().read()
            charset = ctype.partition("charset=")[2].split(";")[0].strip(" \"'") or None
            try:
                html, encoding, warnings = decode_html(data, uri, declared=charset)
            except PageError as exc:  # binary content under an HTML type: the runner reports it
                yield Unreadable(uri, str(exc))
                continue
            yield PageDocument(uri, uri, html, encoding, warnings)
