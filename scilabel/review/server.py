"""The review app's web server: the standard library's HTTP server, on the loopback interface only.

What it serves is named, never looked up on disk from the request: the app's own files (``static/``,
by exact name), and per page (by its number in the review) its state, its screenshot, and the
actions on it. A connection from any address but loopback is closed unanswered; a request whose
``Host`` is not the server's own loopback name (a page elsewhere that rebinds its host name to
127.0.0.1) is refused, as is a ``POST`` that is not JSON or comes from another origin (a page
elsewhere posting a form). The app makes no request outside the server: its script and style are the
package's own.

Routes: ``GET /`` (the app), ``GET /static/NAME``, ``GET /api/session`` (labels, colours, keys,
pages), ``GET /api/pages/N`` (zones and labels), ``GET /api/pages/N/screenshot.png``, ``POST
/api/pages/N/labels`` (``{"zones": [...], "label": L}``), ``POST /api/pages/N/undo``, ``POST
/api/pages/N/save``.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ..overlay import LABEL_COLOURS
from ..readers import PageError
from ..schema import LABELS
from .pages import Review

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
#: The app's own files, by the name a request may ask for.
ASSETS = {path.name: path for path in STATIC.iterdir() if path.is_file()}
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".png": "image/png"}
_PAGE_ROUTE = re.compile(r"^/api/pages/(\d{1,6})(?:/(screenshot\.png|labels|undo|save))?$")
#: The largest request body read (a label change names zones: a few kilobytes even for a long run).
MAX_BODY = 1 << 20
#: Keyboard keys that set a label: 1 to 8 in the schema's order.
LABEL_KEYS = {str(i): label for i, label in enumerate(LABELS, 1)}
LOOPBACK_HOST = "127.0.0.1"


def is_loopback(address: str) -> bool:
    """Whether ``address`` (an IP address, v4 or v6) is a loopback address."""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


class ReviewServer(ThreadingHTTPServer):
    """The review app for ``review``, listening on 127.0.0.1 at ``port`` (0: any free port)."""

    daemon_threads = True

    def __init__(self, review: Review, port: int = 0):
        self.review = review
        super().__init__((LOOPBACK_HOST, port), ReviewHandler)
        self.port = self.server_address[1]
        self.url = f"http://{LOOPBACK_HOST}:{self.port}/"
        self.hosts = {f"{LOOPBACK_HOST}:{self.port}", f"localhost:{self.port}"}

    def verify_request(self, request, client_address) -> bool:  # noqa: ANN001 (socketserver's signature)
        """Refuse (close unanswered) every connection that does not come from loopback."""
        if is_loopback(str(client_address[0])):
            return True
        log.warning("refused a connection from %s", client_address[0])
        return False

    def start(self) -> threading.Thread:
        """Serve in a daemon thread (``shutdown()`` stops it)."""
        thread = threading.Thread(target=self.serve_forever, name="scilabel-review", daemon=True)
        thread.start()
        return thread


class RequestError(Exception):
    """A request the app answers with ``status`` and a one-line message."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


class ReviewHandler(BaseHTTPRequestHandler):
    """Answers the app's routes (module docstring)."""

    server: ReviewServer
    server_version = "scilabel-review"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        self._answer(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._answer(self._post)

    def _answer(self, route) -> None:  # noqa: ANN001
        try:
            if self.headers.get("Host") not in self.server.hosts:
                raise RequestError(HTTPStatus.FORBIDDEN, "unknown host")
            status, content_type, body = route(self.path.split("?", 1)[0])
        except RequestError as exc:
            status, content_type, body = exc.status, "application/json", json.dumps({"error": str(exc)}).encode()
        except PageError as exc:  # the page could not be read
            status, content_type, body = HTTPStatus.UNPROCESSABLE_ENTITY, "application/json", \
                json.dumps({"error": str(exc).splitlines()[0]}).encode()
        except OSError as exc:  # the gold file could not be written
            log.error("%s: %s", self.path, exc)
            status, content_type, body = HTTPStatus.INTERNAL_SERVER_ERROR, "application/json", \
                json.dumps({"error": f"{exc.filename or ''}: {exc.strerror or exc}"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self'; frame-ancestors 'none'")
        self.end_headers()
        self.wfile.write(body)

    def _get(self, path: str) -> tuple[int, str, bytes]:
        review = self.server.review
        if path in ("/", "/index.html"):
            return self._asset("index.html")
        if path.startswith("/static/"):
            return self._asset(path[len("/static/"):])
        if path == "/api/session":
            return _json({"labels": list(LABELS), "keys": LABEL_KEYS, "pages": review.listing(),
                          "colours": {label: "#%02x%02x%02x" % LABEL_COLOURS[label] for label in LABELS},
                          "gold_dir": str(review.gold_dir)})
        index, action = self._page_route(path)
        if action is None:
            return _json({"index": index, "pages": len(review), **self._page(index).state()})
        if action == "screenshot.png":
            picture = self._page(index).screenshot
            if picture is None or not picture.exists():
                raise RequestError(HTTPStatus.NOT_FOUND, "no screenshot of this page")
            return HTTPStatus.OK, "image/png", picture.read_bytes()
        raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, f"{action} takes POST")

    def _post(self, path: str) -> tuple[int, str, bytes]:
        origin = self.headers.get("Origin")
        if origin is not None and origin.split("//", 1)[-1] not in self.server.hosts:
            raise RequestError(HTTPStatus.FORBIDDEN, "another origin")
        if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
        index, action = self._page_route(path)
        body = self._body()
        page = self._page(index)
        if action == "labels":
            try:
                changed = page.relabel(body.get("zones", []), body.get("label"))
            except ValueError as exc:
                raise RequestError(HTTPStatus.BAD_REQUEST, str(exc)) from None
        elif action == "undo":
            changed = page.undo()
        elif action == "save":
            path_written = page.save(self.server.review.gold_dir)
            log.info("saved %s", path_written)
            return _json({"gold_file": str(path_written), "fields_scored": page.gold["fields_scored"],
                          "version": page.version, "dirty": page.dirty})
        else:
            raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, "GET only")
        return _json({"changed": [[row, page.labels[row]] for row in changed], "version": page.version,
                      "dirty": page.dirty, "can_undo": bool(page.history)})

    def _body(self) -> dict:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
        if length > MAX_BODY:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None
        if not isinstance(body, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body is not a JSON object")
        return body

    def _page_route(self, path: str) -> tuple[int, str | None]:
        match = _PAGE_ROUTE.match(path)
        if not match:
            raise RequestError(HTTPStatus.NOT_FOUND, "not here")
        return int(match.group(1)), match.group(2)

    def _page(self, index: int):  # noqa: ANN202
        try:
            return self.server.review.page(index)
        except IndexError as exc:
            raise RequestError(HTTPStatus.NOT_FOUND, str(exc)) from None

    @staticmethod
    def _asset(name: str) -> tuple[int, str, bytes]:
        path = ASSETS.get(name)
        if path is None:
            raise RequestError(HTTPStatus.NOT_FOUND, "not here")
        return HTTPStatus.OK, _TYPES.get(path.suffix, "application/octet-stream"), path.read_bytes()


def _json(data: dict) -> tuple[int, str, bytes]:
    return HTTPStatus.OK, "application/json", json.dumps(data, ensure_ascii=False).encode("utf-8")
