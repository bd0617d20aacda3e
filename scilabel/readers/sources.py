"""Reading a page's HTML from a file, an http(s) URL or a string, and decoding it to text."""
from __future__ import annotations

import codecs
import logging
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from .base import PageError

log = logging.getLogger(__name__)

#: Pages larger than this are refused rather than handed to the browser.
MAX_PAGE_BYTES = 64 * 1024 * 1024
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass
class PageDocument:
    """A page's decoded HTML and where it came from."""

    source: str  #: what the caller gave: a path, a URL, or "<html string>"
    url: str  #: the URL the browser sees for the document
    html: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def html_files(folder: Path) -> list[Path]:
    """The HTML pages under ``folder`` (recursively), sorted."""
    return sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in HTML_SUFFIXES and p.is_file())


def source_path(source: str | Path) -> Path | None:
    """The file a source names; None for an HTML string or an http(s) URL."""
    if isinstance(source, Path):
        return source
    stripped = str(source).lstrip()
    if stripped.startswith("<") or not stripped or re.match(r"https?://", stripped, re.I):
        return None
    return Path(str(source))


def load_source(source: str | Path, timeout: float = 30.0) -> PageDocument:
    """Read a page given as a file path, an http(s) URL or an HTML string."""
    path = source_path(source)
    if path is not None:
        return _load_file(path)
    text = str(source)
    if re.match(r"https?://", text.lstrip(), re.I):
        return _load_url(text.lstrip(), timeout)
    return from_html(text)


def from_html(html: str, name: str = "<html string>") -> PageDocument:
    """Wrap an HTML string as a page."""
    return PageDocument(source=name, url="https://scilabel.invalid/page.html", html=html, encoding="utf-8")


def _load_file(path: Path) -> PageDocument:
    try:
        size = path.stat().st_size
        if size > MAX_PAGE_BYTES:
            raise PageError(f"{path}: page too large ({size / 2**20:.0f} MiB > {MAX_PAGE_BYTES // 2**20} MiB)")
        data = path.read_bytes()
    except FileNotFoundError:
        raise PageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PageError(f"{path}: is a directory, not a page") from None
    except OSError as exc:
        raise PageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    html, encoding, warnings = decode_html(data, str(path))
    name = re.sub(r"[^A-Za-z0-9._-]", "_", path.name) or "page.html"
    return PageDocument(str(path), f"https://scilabel.invalid/{name}", html, encoding, warnings)


def _load_url(url: str, timeout: float) -> PageDocument:
    request = urllib.request.Request(url, headers={"User-Agent": f"scilabel/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            ctype = response.headers.get_content_type()
            if ctype not in ("text/html", "application/xhtml+xml", "text/plain"):
                raise PageError(f"{url}: not an HTML page (content type {ctype})")
            data = response.read(MAX_PAGE_BYTES + 1)
            charset = response.headers.get_content_charset()
            final_url = response.geturl()
    except urllib.error.HTTPError as exc:
        raise PageError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PageError(f"{url}: cannot fetch ({reason})") from None
    if len(data) > MAX_PAGE_BYTES:
        raise PageError(f"{url}: page too large (> {MAX_PAGE_BYTES // 2**20} MiB)")
    html, encoding, warnings = decode_html(data, url, declared=charset)
    return PageDocument(url, final_url, html, encoding, warnings)


def decode_html(data: bytes, name: str, declared: str | None = None) -> tuple[str, str, list[str]]:
    """Decode page bytes: BOM, then the declared (HTTP or meta) charset, else UTF-8, else Windows-1252.

    Bytes invalid in the chosen encoding are replaced and reported as a warning;
    binary data raises :class:`PageError`.
    """
    warnings: list[str] = []
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data.decode(enc, errors="replace"), enc, warnings
    head = data[:8192]
    if head.count(0) > 0 or _control_share(head) > 0.05:
        raise PageError(f"{name}: not an HTML page (binary content)")
    if declared is None:
        match = _META_CHARSET.search(data[:4096])
        declared = match.group(1).decode("ascii", "replace") if match else None
    if declared:
        try:
            enc = codecs.lookup(declared).name
        except LookupError:
            warnings.append(f"{name}: unknown charset {declared!r}; decoding as UTF-8")
        else:
            try:
                return data.decode(enc), enc, warnings
            except UnicodeDecodeError as exc:
                warnings.append(f"{name}: invalid {enc} bytes at offset {exc.start}; replaced")
                return data.decode(enc, errors="replace"), enc, warnings
    for enc in ("utf-8", "cp1252"):
        try:
            return data.decode(enc), enc, warnings
        except UnicodeDecodeError:
            continue
    warnings.append(f"{name}: bytes are neither UTF-8 nor Windows-1252; undecodable bytes replaced")
    return data.decode("cp1252", errors="replace"), "cp1252", warnings


def _control_share(head: bytes) -> float:
    if not head:
        return 0.0
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls / len(head)
