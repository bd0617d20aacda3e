"""Hostile and broken pages (tests/hostile/): nothing leaves the machine, no page touches the next,
every broken page gives a result or a one-line failure, and the reader goes on after each."""
from __future__ import annotations

import http.server
import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scilabel.readers import PageError, UnsupportedSource
from scilabel.readers.render import Renderer
from scilabel.readers.sources import Limits, load_source
from scilabel.zones import collect_zones

from .conftest import ScriptedServer, counting_server

HOSTILE = Path(__file__).with_name("hostile")


class Listeners:
    """An HTTP server, a UDP socket and a raw TCP listener on 127.0.0.1, each counting what reaches it."""

    def __init__(self) -> None:
        self.http = counting_server()
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.tcp.settimeout(0.2)
        self.udp.settimeout(0.2)
        self.datagrams: list[bytes] = []
        self.connections = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._receive, daemon=True),
                         threading.Thread(target=self._accept, daemon=True)]

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                self.datagrams.append(self.udp.recvfrom(4096)[0])
            except OSError:
                continue

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                self.tcp.accept()[0].close()
                self.connections += 1
            except OSError:
                continue

    def page(self, name: str) -> str:
        html = (HOSTILE / name).read_text(encoding="utf-8")
        return (html.replace("HTTP_ORIGIN", self.http.url).replace("UDP_PORT", str(self.udp.getsockname()[1]))
                .replace("TCP_PORT", str(self.tcp.getsockname()[1])))

    def arrived(self) -> dict[str, int]:
        return {"http": len(self.http.paths), "udp": len(self.datagrams), "tcp": self.connections}

    def __enter__(self) -> Listeners:
        self.http.__enter__()
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()
        self.http.__exit__()
        self.udp.close()
        self.tcp.close()


@pytest.fixture()
def listeners() -> Iterator[Listeners]:
    with Listeners() as found:
        yield found


def texts(page) -> list[str]:
    return [z.text for z in collect_zones(page)]


def test_no_packet_of_any_protocol_leaves_and_every_attempt_is_counted(renderer, listeners):
    page = renderer.render(listeners.page("exfiltrate.html"))
    time.sleep(0.5)  # what escaped would have arrived by now
    assert listeners.arrived() == {"http": 0, "udp": 0, "tcp": 0}
    assert texts(page) == ["Exfiltration attempts"]
    assert page.javascript
    tried = " ".join(page.blocked_urls)
    for attempt in ("/fetch", "/beacon", "/image", "/socket", "/events", "RTCPeerConnection", "WebTransport",
                    "window.open", "/navigate", "/style.css"):
        assert attempt in tried, attempt
    assert page.blocked_requests >= 10


@pytest.mark.parametrize("name", ["attacker.html", "lingering.html", "stuck.html"])
def test_an_attacker_page_first_leaves_no_mark_on_the_pages_after_it(renderer, listeners, tmp_path, name):
    attacker = tmp_path / "attacker.html"
    attacker.write_text(listeners.page(name), encoding="utf-8")
    victims = []
    for n in range(3):
        victim = tmp_path / f"victim{n}.html"
        victim.write_text(listeners.page("victim.html").replace("VICTIM", str(n)), encoding="utf-8")
        victims.append(victim)
    assert texts(renderer.render(attacker)) == [Path(name).stem.capitalize() + " page"]
    for n, victim in enumerate(victims):  # in the attacker's tab, unless it had to be closed
        page = renderer.render(victim)
        assert page.title == f"Victim {n}"
        assert texts(page) == [f"Victim article {n}", "clean"]
    assert listeners.arrived() == {"http": 0, "udp": 0, "tcp": 0}


def test_a_page_is_left_without_running_what_it_set_to_run_as_it_is_left(renderer, caplog):
    # the stuck page's pagehide handler never returns: run, it would hold the wipe until the tab is closed
    # (and an unload handler run would write storage after it was cleared)
    with caplog.at_level(logging.DEBUG, logger="scilabel.readers.render"):
        assert texts(renderer.render(HOSTILE / "stuck.html")) == ["Stuck page"]
    assert not [r.message for r in caplog.records if "closing the tab" in r.message]


@pytest.mark.parametrize(("name", "javascript", "warning"), [
    ("poisoned.html", True, None),
    ("no_root.html", False, "removed its root element; rendered again without JavaScript"),
    ("reload.html", True, "tried to navigate to"),
    ("navigate.html", True, "tried to navigate to"),
    ("popup.html", True, None),
    # a step back in history commits the tab's first document, about:blank: caught, unless after reading
    ("history.html", None, None),
])
def test_a_broken_page_is_read_as_it_was_served(renderer, name, javascript, warning):
    page = renderer.render(HOSTILE / name)
    assert texts(page)[1:] == ["Its text is still here."]
    assert page.javascript == javascript or javascript is None
    if not page.javascript:
        assert any("rendered again without JavaScript" in w for w in page.warnings)
    assert page.title == Path(name).stem.replace("_", " ").capitalize()
    if warning:
        assert any(warning in w for w in page.warnings), page.warnings
    after = renderer.render("<h1>The next page</h1>")  # the reader goes on
    assert texts(after) == ["The next page"] and not after.warnings


@pytest.fixture(scope="module")
def small_renderer() -> Iterator[Renderer]:
    """A renderer with small limits: 400 MB of memory, 400 DOM nodes."""
    with Renderer(timeout=5.0, limits=Limits(memory_mb=400, max_nodes=400)) as r:
        yield r


@pytest.mark.parametrize(("name", "fault"), [("heap.html", "crashed|memory"), ("typed_arrays.html", "memory")])
def test_a_page_past_the_memory_cap_is_stopped_and_read_without_scripts(small_renderer, name, fault):
    page = small_renderer.render(HOSTILE / name)
    assert not page.javascript
    assert texts(page)[1:] == ["Its text is still here."]
    assert any(re.search(fault, w) for w in page.warnings), page.warnings
    assert texts(small_renderer.render("<h1>The next page</h1>")) == ["The next page"]


def test_the_node_cap_fails_with_the_option_to_raise_it(small_renderer):
    table = "<table>" + "<tr><td>cell</td></tr>" * 500 + "</table>"  # refused before it is laid out
    with pytest.raises(PageError, match=r"<html string>: the page has over 400 elements .*--max-nodes"):
        small_renderer.render(table)
    built = small_renderer.render("<h1>Built</h1><table id=t></table><script>t.innerHTML = "
                                  "'<tr><td>cell</td></tr>'.repeat(500)</script>")  # by its scripts: read without
    assert texts(built) == ["Built"] and not built.javascript
    assert any("over 400 elements and text nodes (--max-nodes raises the cap); rendered again without JavaScript" in w
               for w in built.warnings)
    assert texts(small_renderer.render("<h1>The next page</h1>")) == ["The next page"]


def test_the_deadline_bounds_a_page_as_a_whole_and_the_reader_goes_on():
    # the deadline comes first; 5 s, as a fresh tab on a loaded two-core machine took over 3 s for the next page
    with Renderer(timeout=20.0, limits=Limits(deadline=5.0)) as renderer:
        start = time.monotonic()
        with pytest.raises(PageError, match=r"not read within the 5s allowed per page \(--deadline"):
            renderer.render("<h1>Busy</h1><script>for (;;) {}</script>")
        assert time.monotonic() - start < 15
        assert texts(renderer.render("<h1>The next page</h1>")) == ["The next page"]


# -- sources: URLs, local files ------------------------------------------------------------------
def _trickle(handler: http.server.BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.end_headers()
    handler.wfile.flush()
    try:
        for _ in range(20):
            # MSG_NOSIGNAL: once the client hangs up, a failed send, not SIGPIPE (which a native library
            # loaded by an earlier test may have set to kill the process)
            handler.connection.send(b"<p>x</p>", socket.MSG_NOSIGNAL)
            time.sleep(0.3)
    except OSError:
        pass


PAGE = b"<html><head><title>Served</title></head><body><h1>Served page</h1></body></html>"


def test_a_trickling_server_is_cut_off_at_the_fetch_deadline():
    with ScriptedServer({"/slow": _trickle}) as server:
        start = time.monotonic()
        with pytest.raises(PageError, match=r"/slow: no complete answer within 1.5s"):
            load_source(server.url + "/slow", timeout=1.5)
        assert time.monotonic() - start < 4


def test_redirects_go_only_to_http_on_the_same_host_unless_allowed():
    with ScriptedServer({"/page.html": (200, {}, PAGE)}) as other, ScriptedServer({
        "/same": (302, {"Location": "/page.html"}, b""),
        "/page.html": (200, {}, PAGE),
        "/ftp": (301, {"Location": "ftp://127.0.0.1/file.html"}, b""),
        "/file": (301, {"Location": "file:///etc/passwd"}, b""),
        "/port": (302, {"Location": other.url + "/page.html"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
    }) as server:
        assert load_source(server.url + "/same").url == server.url + "/page.html"
        with pytest.raises(PageError, match=r"/ftp: redirected to a ftp: URL .*only http\(s\) redirects"):
            load_source(server.url + "/ftp")
        with pytest.raises(PageError, match=r"/file: redirected to a file: URL"):
            load_source(server.url + "/file")
        with pytest.raises(PageError, match=r"/port: redirected to another host or port .*--redirects-any-host"):
            load_source(server.url + "/port")
        assert load_source(server.url + "/port", limits=Limits(redirect_any_host=True)).url == other.url + "/page.html"
        with pytest.raises(PageError, match=r"/loop: more than 5 redirects"):
            load_source(server.url + "/loop")
        assert other.paths == ["/page.html"]


def test_urls_are_parsed_properly():
    with ScriptedServer({"/": (200, {}, PAGE), "/a%20page.html": (200, {}, PAGE)}) as server:
        port = server.url.rsplit(":", 1)[1]
        for url in (server.url, server.url + "/#section", f"HTTP://127.0.0.1:{port}/", server.url + "/a page.html",
                    f"  {server.url}/a%20page.html#x  "):
            doc = load_source(url)
            assert "Served page" in doc.html and "#" not in doc.url, url
        assert server.paths == ["/", "/", "/", "/a%20page.html", "/a%20page.html"]
    with pytest.raises(UnsupportedSource, match=r"^ftp://example.org/x.html: ftp: URLs are not supported"):
        load_source("ftp://example.org/x.html")
    with pytest.raises(UnsupportedSource, match=r"javascript: URLs are not supported"):
        load_source("javascript:alert(1)")
    with pytest.raises(PageError, match=r"http://: not a usable URL"):
        load_source("http://")


def _bounded(call, seconds: float = 10.0):
    """Run ``call`` in a thread; fail if it has not finished within ``seconds``."""
    outcome: list = []
    thread = threading.Thread(target=lambda: outcome.append(_outcome(call)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still running after {seconds}s"
    return outcome[0]


def _outcome(call):
    try:
        return call()
    except Exception as exc:  # handed back to the test to check
        return exc


def test_only_regular_files_are_read_and_never_hang(tmp_path):
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    error = _bounded(lambda: load_source(fifo))
    assert isinstance(error, PageError) and "pipe.html: is a named pipe" in str(error)
    error = _bounded(lambda: load_source("/dev/zero"))
    assert isinstance(error, PageError) and "/dev/zero: is a character device" in str(error)
    big = tmp_path / "big.html"
    big.write_bytes(b"<p>" + b"x" * 3 * 2**20 + b"</p>")
    with pytest.raises(PageError, match=r"big.html: page too large \(over 2 MiB; --max-page-mb"):
        load_source(big, limits=Limits(max_bytes=2 * 2**20))


def test_nul_bytes_in_a_textual_page_are_removed_with_a_warning(renderer, tmp_path):
    path = tmp_path / "nul.html"
    path.write_bytes(b"<h1>Title with a NUL\x00 inside</h1><p>Body</p>")
    page = renderer.render(path)
    assert texts(page) == ["Title with a NUL inside", "Body"]
    assert any("1 NUL character removed" in w for w in page.warnings)


def test_a_fifo_on_the_command_line_fails_in_one_line_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    run = subprocess.run([sys.executable, "-m", "scilabel", "render", str(fifo)], capture_output=True, text=True,
                         timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 1
    assert run.stderr.strip() == f"scilabel: error: {fifo}: is a named pipe, not a page file (only regular files are read)"


def test_a_mixed_batch_with_an_attacker_first_completes_and_keeps_every_good_page(capsys, tmp_path, listeners):
    from scilabel.cli import main

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "00-attacker.html").write_text(listeners.page("attacker.html"), encoding="utf-8")
    for n in range(2):
        (pages / f"10-victim{n}.html").write_text(listeners.page("victim.html").replace("VICTIM", str(n)), encoding="utf-8")
    for name in ("poisoned.html", "no_root.html", "reload.html", "navigate.html"):
        (pages / f"20-{name}").write_bytes((HOSTILE / name).read_bytes())
    (pages / "30-empty.html").write_bytes(b" \n ")
    (pages / "30-binary.html").write_bytes(b"\x00\xff" * 500)
    out = tmp_path / "out.jsonl"
    assert main(["label", str(pages), "-o", str(out), "--timeout", "5"]) == 3
    err = capsys.readouterr().err
    assert "30-empty.html: the page is empty" in err and "30-binary.html: not an HTML page" in err
    assert "2 of 9 pages failed" in err and "Traceback" not in err
    records = {Path(r["source"]).name: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == sorted(p.name for p in pages.iterdir() if not p.name.startswith("30-"))
    for n in range(2):
        zones = [z["text"] for z in records[f"10-victim{n}.html"]["zones"]]
        assert zones == [f"Victim article {n}", "clean"]
    assert listeners.arrived() == {"http": 0, "udp": 0, "tcp": 0}


def test_permissions_are_denied(renderer):
    page = renderer.render("""<p id=p></p><script>
      const p = document.getElementById("p"), out = [], show = v => { out.push(v); p.textContent = out.sort().join(" "); };
      for (const name of ["geolocation", "notifications", "camera"])
        navigator.permissions.query({name}).then(s => show(name + ":" + s.state), () => show(name + ":error"));
      navigator.geolocation.getCurrentPosition(() => show("position"), e => show("position:" + e.code));
      addEventListener("load", () => { const t = Date.now(); while (Date.now() - t < 300) {} });
    </script>""")
    assert texts(page) == ["camera:denied geolocation:denied notifications:denied position:1"]
