"""Reading a page's HTML from a file, an http(s) URL or a string, and decoding it to text.

Whatever the source, one page is bounded (:class:`Limits`): a URL is fetched within one overall
deadline (redirects included; a server that trickles bytes is cut off), only to http(s) and by
default only on the same host; a file is read only if it is a regular file (never a device or a
named pipe) within a size cap. An empty page is a :class:`~.base.PageError`, as is every other
failure, in one line naming the source.
"""
from __future__ import annotations

import codecs
import http.client
import logging
import os
import re
import socket
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from .. import __version__
from .base import PageError, UnsupportedSource

log = logging.getLogger(__name__)

_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
#: A source naming a scheme: ``name://...``, or one of the schemes written without slashes.
_URL = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):(//)?")
_SLASHLESS_SCHEMES = ("data", "javascript", "about", "blob", "mailto")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_REDIRECTS = (301, 302, 303, 307, 308)
_MAX_REDIRECTS = 5
_FILE_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
               (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class Limits:
    """What one page may use; each limit's message names the command-line option that raises it."""

    deadline: float = 60.0  #: seconds for the whole page: fetch, render and extraction (--deadline)
    max_bytes: int = 64 * 2**20  #: bytes of a file or a fetched response (--max-page-mb)
    max_nodes: int = 300_000  #: elements and text nodes read from the rendered DOM (--max-nodes)
    memory_mb: int = 2048  #: resident memory of the page's renderer process (--max-memory-mb)
    redirect_any_host: bool = False  #: follow a URL's redirects to other hosts and ports (--redirects-any-host)


#: Pages larger than this are refused by default rather than handed to the browser.
MAX_PAGE_BYTES = Limits.max_bytes


@dataclass
class PageDocument:
    """A page's decoded HTML and where it came from."""

    source: str  #: what the caller gave: a path, a URL, or "<html string>"
    url: str  #: the URL the browser sees for the document
    html: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def url_scheme(source: str | Path) -> str | None:
    """The scheme (lower case) a source given as a URL names; None for a path or an HTML string."""
    if isinstance(source, Path):
        return None
    match = _URL.match(str(source))
    if match and (match.group(2) or match.group(1).lower() in _SLASHLESS_SCHEMES):
        return match.group(1).lower()
    return None


def source_path(source: str | Path) -> Path | None:
    """The file a source names; None for an HTML string or a URL."""
    if isinstance(source, Path):
        return source
    stripped = str(source).lstrip()
    if stripped.startswith("<") or not stripped or url_scheme(source):
        return None
    return Path(str(source))


def load_source(source: str | Path, timeout: float = 30.0, limits: Limits = Limits()) -> PageDocument:
    """Read a page given as a file path, an http(s) URL or an HTML string.

    ``timeout`` bounds fetching a URL as a whole (redirects included). Raises :class:`PageError`
    (:class:`UnsupportedSource` for a URL of another scheme).
    """
    path = source_path(source)
    if path is not None:
        return _load_file(path, limits.max_bytes)
    scheme = url_scheme(source)
    if scheme in _DEFAULT_PORTS:
        return _load_url(str(source).strip(), timeout, limits)
    if scheme is not None:
        raise UnsupportedSource(f"{str(source).strip()[:200]}: {scheme}: URLs are not supported (only http and https)")
    return from_html(str(source))


def from_html(html: str, name: str = "<html string>") -> PageDocument:
    """Wrap an HTML string as a page."""
    return PageDocument(source=name, url="https://scilabel.invalid/page.html", html=html, encoding="utf-8")


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file; empty for anything else (a pipe, a device, a missing file)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return b""
    try:
        return _read(fd, size) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _read(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes of an open regular file."""
    chunks, total = [], 0
    while total < size and (chunk := os.read(fd, min(size - total, 1 << 20))):
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _load_file(path: Path, max_bytes: int) -> PageDocument:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a named pipe opens at once, and is refused below
    except FileNotFoundError:
        raise PageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PageError(f"{path}: is a directory, not a page") from None
    except OSError as exc:
        raise PageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        mode, size = os.fstat(fd).st_mode, os.fstat(fd).st_size
        if stat.S_ISDIR(mode):
            raise PageError(f"{path}: is a directory, not a page")
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")
            raise PageError(f"{path}: is {kind}, not a page file (only regular files are read)")
        if size > max_bytes:
            raise PageError(_too_large(path, max_bytes))
        data = _read(fd, max_bytes + 1)
    except OSError as exc:
        raise PageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise PageError(_too_large(path, max_bytes))
    html, encoding, warnings = decode_html(data, str(path))
    name = re.sub(r"[^A-Za-z0-9._-]", "_", path.name) or "page.html"
    return PageDocument(str(path), f"https://scilabel.invalid/{name}", html, encoding, warnings)


def _too_large(name: object, max_bytes: int) -> str:
    return f"{name}: page too large (over {max_bytes / 2**20:g} MiB; --max-page-mb raises the cap)"


def normalize_url(url: str) -> str:
    """An http(s) URL as it is requested: scheme and host in lower case, a path (``/`` at least),
    spaces and other unsafe characters quoted, no fragment and no user name, the default port left out.

    Raises :class:`PageError` for a URL without a host or with a bad port.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    try:
        host, port = parts.hostname, parts.port
        if not host:
            raise ValueError("no host")
        host = host.encode("idna").decode("ascii")
    except (ValueError, UnicodeError) as exc:
        raise PageError(f"{url}: not a usable URL ({exc})") from None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc += f":{port}"
    path = quote(parts.path or "/", safe="/%:@!$&'()*+,;=-._~")
    query = quote(parts.query, safe="/?%:@!$&'()*+,;=-._~")
    return urlunsplit((scheme, netloc, path, query, ""))


def _origin(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "", parts.port or _DEFAULT_PORTS[parts.scheme]


def _same_host(origin: str, target: str) -> bool:
    """Same host and port, or the same host moving from http to https on the default ports."""
    (host, port), (new_host, new_port) = _origin(origin), _origin(target)
    upgrade = (urlsplit(origin).scheme, port, urlsplit(target).scheme, new_port) == ("http", 80, "https", 443)
    return host == new_host and (port == new_port or upgrade)


def _load_url(url: str, timeout: float, limits: Limits) -> PageDocument:
    deadline = time.monotonic() + timeout
    current = first = normalize_url(url)
    for _ in range(_MAX_REDIRECTS + 1):
        status, reason, headers, data = _get(current, url, deadline, timeout, limits.max_bytes)
        if status not in _REDIRECTS:
            break
        location = headers.get("Location")
        if not location:
            raise PageError(f"{url}: HTTP {status} redirect without a Location")
        target = urljoin(current, location.strip())
        scheme = urlsplit(target).scheme.lower()
        if scheme not in _DEFAULT_PORTS:
            raise PageError(f"{url}: redirected to a {scheme}: URL ({target[:200]}); only http(s) redirects are followed")
        target = normalize_url(target)
        if not limits.redirect_any_host and not _same_host(first, target):
            raise PageError(f"{url}: redirected to another host or port ({target[:200]}); "
                            "--redirects-any-host follows such redirects")
        current = target
    else:
        raise PageError(f"{url}: more than {_MAX_REDIRECTS} redirects")
    if status >= 400:
        raise PageError(f"{url}: HTTP {status} {reason}")
    ctype = headers.get_content_type()
    if ctype not in ("text/html", "application/xhtml+xml", "text/plain"):
        raise PageError(f"{url}: not an HTML page (content type {ctype})")
    html, encoding, warnings = decode_html(data, url, declared=headers.get_content_charset())
    return PageDocument(url, current, html, encoding, warnings)


def _get(url: str, name: str, deadline: float, timeout: float, max_bytes: int):
    """One GET: (status, reason, headers, body); the body is not read for a redirect."""
    parts = urlsplit(url)
    remaining = deadline - time.monotonic()
    expired = f"{name}: no complete answer within {timeout:g}s"
    if remaining <= 0:
        raise PageError(expired)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, parts.port, timeout=remaining)
    # The socket timeout bounds each wait; this timer bounds them all, however slowly bytes trickle in.
    timer = threading.Timer(remaining, _cut, (connection,))
    timer.daemon = True
    timer.start()
    try:
        connection.request("GET", urlunsplit(("", "", parts.path, parts.query, "")), headers={
            "User-Agent": f"scilabel/{__version__}", "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
            "Accept-Encoding": "identity"})
        response = connection.getresponse()
        if response.status in _REDIRECTS:
            return response.status, response.reason, response.headers, b""
        length = response.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > max_bytes:
            raise PageError(_too_large(name, max_bytes))
        chunks, total = [], 0
        while chunk := response.read1(65536):
            total += len(chunk)
            if total > max_bytes:
                raise PageError(_too_large(name, max_bytes))
            if time.monotonic() > deadline:
                raise PageError(expired)
            chunks.append(chunk)
        return response.status, response.reason, response.headers, b"".join(chunks)
    except (OSError, http.client.HTTPException) as exc:
        if time.monotonic() >= deadline - 0.01 or isinstance(exc, (TimeoutError, socket.timeout)):
            raise PageError(expired) from None
        raise PageError(f"{name}: cannot fetch ({_reason(exc)})") from None
    finally:
        timer.cancel()
        connection.close()


def _cut(connection: http.client.HTTPConnection) -> None:
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _reason(exc: BaseException) -> str:
    text = str(getattr(exc, "reason", "") or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def decode_html(data: bytes, name: str, declared: str | None = None) -> tuple[str, str, list[str]]:
    """Decode page bytes: BOM, then the declared (HTTP or meta) charset, else UTF-8, else Windows-1252.

    Bytes invalid in the chosen encoding are replaced and reported as a warning, as are NUL
    characters (removed); binary data and a page of nothing but white space raise :class:`PageError`.
    """
    html, encoding, warnings = _decode(data, name, declared)
    nuls = html.count("\x00")
    if nuls:
        html = html.replace("\x00", "")
        warnings.append(f"{name}: {nuls} NUL character{'s' * (nuls > 1)} removed")
    if not html.strip():
        raise PageError(f"{name}: the page is empty")
    return html, encoding, warnings


def _decode(data: bytes, name: str, declared: str | None) -> tuple[str, str, list[str]]:
    warnings: list[str] = []
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data.decode(enc, errors="replace"), enc, warnings
    head = data[:8192]
    if _control_share(head) > 0.05:
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
