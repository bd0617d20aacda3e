"""Hostile and broken pages (tests/hostile/): nothing leaves the machine, no page touches the next,
every broken page gives a result or a one-line failure, and the reader goes on after each."""
from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scilabel.readers import PageError
from scilabel.readers.render import Renderer
from scilabel.readers.sources import Limits
from scilabel.zones import collect_zones

from .conftest import CountingServer

HOSTILE = Path(__file__).with_name("hostile")


class Listeners:
    """An HTTP server, a UDP socket and a raw TCP listener on 127.0.0.1, each counting what reaches it."""

    def __init__(self) -> None:
        self.http = CountingServer()
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


def test_an_attacker_page_first_leaves_no_mark_on_the_pages_after_it(renderer, listeners, tmp_path):
    attacker = tmp_path / "attacker.html"
    attacker.write_text(listeners.page("attacker.html"), encoding="utf-8")
    victims = []
    for n in range(3):
        victim = tmp_path / f"victim{n}.html"
        victim.write_text(listeners.page("victim.html").replace("VICTIM", str(n)), encoding="utf-8")
        victims.append(victim)
    assert texts(renderer.render(attacker)) == ["Attacker page"]
    for n, victim in enumerate(victims):
        page = renderer.render(victim)
        assert page.title == f"Victim {n}"
        assert texts(page) == [f"Victim article {n}", "clean"]
    assert listeners.arrived() == {"http": 0, "udp": 0, "tcp": 0}


@pytest.mark.parametrize(("name", "javascript", "warning"), [
    ("poisoned.html", True, None),
    ("no_root.html", False, "removed its root element; rendered again without JavaScript"),
    ("reload.html", True, "tried to navigate to"),
    ("navigate.html", True, "tried to navigate to"),
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
    table = "<table>" + "<tr><td>cell</td></tr>" * 200 + "</table>"
    with pytest.raises(PageError, match=r"<html string>: the page has over 400 elements .*--max-nodes"):
        small_renderer.render(table)
    assert texts(small_renderer.render("<h1>The next page</h1>")) == ["The next page"]


def test_the_deadline_bounds_a_page_as_a_whole_and_the_reader_goes_on():
    with Renderer(timeout=10.0, limits=Limits(deadline=3.0)) as renderer:  # the deadline comes first
        start = time.monotonic()
        with pytest.raises(PageError, match=r"not read within the 3s allowed per page \(--deadline"):
            renderer.render("<h1>Busy</h1><script>for (;;) {}</script>")
        assert time.monotonic() - start < 15
        assert texts(renderer.render("<h1>The next page</h1>")) == ["The next page"]
