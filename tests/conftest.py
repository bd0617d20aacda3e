"""Shared fixtures: one real headless Chromium for the whole test session, and the shared data folder."""
from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from scilabel.corpus.gold import default_scorer_path, load_page_scorer
from scilabel.readers import ChromiumHTMLReader
from scilabel.readers.render import Renderer
from scilabel.zones import Zone, collect_zones

REPO = Path(__file__).resolve().parents[1]
#: The shared data folder (publisher pages, gold, JATS, MEDLINE, reference strings): $SCILABEL_DATA, as
#: for the command line, else ../shared/data beside the repository. A clone without it skips what needs it.
SHARED_DATA = Path(os.environ.get("SCILABEL_DATA", REPO.parent / "shared" / "data"))
EXAMPLE_PAGE = REPO / "data" / "examples" / "example_article.html"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; every test that reads it asks for this fixture and skips without it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"needs the shared data folder: {SHARED_DATA} is absent (set SCILABEL_DATA to where it is)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def scorer(shared_data: Path) -> ModuleType:
    """The shared data's own page scorer (``tools/score_pages.py`` beside the data), imported as a module."""
    path = default_scorer_path(shared_data / "gold")
    if not path.is_file():
        pytest.skip(f"needs the page scorer {path}")
    return load_page_scorer(path)


#: The user property under which the accuracy gate records its measured figures (shown at the end).
GATE_PROPERTY = "accuracy gate"


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the figures the accuracy gate measured, passed or failed."""
    lines = [value for key in ("passed", "failed") for report in terminalreporter.stats.get(key, [])
             for name, value in report.user_properties if name == GATE_PROPERTY]
    if lines:
        terminalreporter.write_sep("-", "accuracy gate (token F1, micro over pages)")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def reader() -> Iterator[ChromiumHTMLReader]:
    with ChromiumHTMLReader(timeout=5.0) as r:
        yield r


@pytest.fixture(scope="session")
def renderer(reader: ChromiumHTMLReader) -> Renderer:
    """The session reader's renderer: one browser for the whole session."""
    return reader.renderer


@pytest.fixture(scope="session")
def zones_of(renderer: Renderer):
    """Render an HTML string and return its zones."""

    def run(html: str) -> list[Zone]:
        return collect_zones(renderer.render(html))

    return run


class ScriptedServer:
    """An HTTP server on 127.0.0.1 answering each path as ``routes`` says (else as ``default``):
    (status, headers, body), or a callable writing the answer itself (to trickle it); ``paths`` are the
    paths asked for, in order."""

    def __init__(self, routes: dict, default: tuple = (404, {}, b"not here")) -> None:
        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server naming)
                outer.paths.append(self.path)
                answer = routes.get(self.path, default)
                if callable(answer):
                    answer(self)
                    return
                status, headers, body = answer
                self.send_response(status)
                for name, value in {"Content-Type": "text/html; charset=utf-8", **headers}.items():
                    self.send_header(name, value.replace("ORIGIN", outer.url))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def counting_server(page: bytes = b"<html><body><h1>Served page</h1></body></html>") -> ScriptedServer:
    """A server giving ``page`` at / and /page.html and a script anywhere else, counting every request."""
    return ScriptedServer({"/": (200, {}, page), "/page.html": (200, {}, page)},
                          default=(200, {}, b"console.log('remote');"))
