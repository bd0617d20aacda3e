"""The renderer: sources, offline blocking, time limits and robustness, with real Chromium."""
from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from scilabel.readers import PageError
from scilabel.readers.render import BrowserNotFound, Renderer, find_chromium
from scilabel.readers.sources import Limits
from scilabel.zones import collect_zones

from .conftest import EXAMPLE_PAGE, counting_server


def test_renders_file_path_and_string_alike(renderer):
    from_path = renderer.render(EXAMPLE_PAGE)
    from_str = renderer.render(str(EXAMPLE_PAGE))
    from_html = renderer.render(EXAMPLE_PAGE.read_text(encoding="utf-8"))
    assert from_path.title.startswith("Seasonal shifts")
    texts = [[z.text for z in collect_zones(p)] for p in (from_path, from_str, from_html)]
    assert texts[0] == texts[1] == texts[2]
    assert from_path.width == 1280
    assert from_path.source == str(EXAMPLE_PAGE) and from_html.source == "<html string>"


def test_renders_url_fetching_only_the_page_itself(renderer):
    page = (
        b"<html><head><script src='/app.js'></script></head>"
        b"<body><h1>Served page</h1><img src='/logo.png'></body></html>"
    )
    with counting_server(page) as server:
        rendered = renderer.render(server.url + "/page.html")
    assert [z.text for z in collect_zones(rendered)] == ["Served page"]
    assert server.paths == ["/page.html"]  # fetched once by scilabel, never by the browser
    assert rendered.blocked_requests == 2


def test_nothing_leaves_the_machine(renderer):
    with counting_server() as server:
        base = server.url
        html = f"""<html><head>
        <link rel="stylesheet" href="{base}/style.css"><link rel="dns-prefetch" href="{base}">
        <link rel="preconnect" href="{base}"><link rel="prefetch" href="{base}/next.html">
        <script src="{base}/remote.js"></script><script src="https://cdn.example.com/lib.js"></script>
        <style>body {{ background: url({base}/bg.png); }} @font-face {{ font-family: F; src: url({base}/f.woff); }}
        h1 {{ font-family: F; }}</style></head><body>
        <h1>Offline page</h1><img src="{base}/img.png"><iframe src="{base}/frame.html"></iframe>
        <video src="{base}/v.mp4" autoplay></video><object data="{base}/o.swf"></object>
        <script>
          fetch("{base}/fetch"); var x = new XMLHttpRequest(); x.open("GET", "{base}/xhr"); x.send();
          new WebSocket("{base.replace('http', 'ws')}/socket"); navigator.sendBeacon("{base}/beacon", "x");
          new Image().src = "{base}/pixel.gif"; var s = document.createElement("script");
          s.src = "{base}/dynamic.js"; document.head.appendChild(s);
        </script></body></html>"""
        rendered = renderer.render(html)
        time.sleep(0.5)  # give any stray request time to arrive
        assert server.paths == []
    assert rendered.blocked_requests >= 8
    assert any(u.startswith(base) for u in rendered.blocked_urls)
    assert [z.text for z in collect_zones(rendered)] == ["Offline page"]


def test_infinite_script_loop_falls_back_to_no_javascript():
    html = "<html><body><h1>Still readable</h1><script>while (true) {}</script><p>after the script</p></body></html>"
    with Renderer(timeout=2.0) as r:
        start = time.perf_counter()
        page = r.render(html)
        elapsed = time.perf_counter() - start
        assert [z.text for z in collect_zones(page)] == ["Still readable", "after the script"]
        assert not page.javascript
        assert any("without JavaScript" in w for w in page.warnings)
        assert elapsed < 30
        # the renderer is still usable afterwards, with scripts on again
        again = r.render("<p id=x>x</p><script>document.getElementById('x').textContent = 'scripted'</script>")
        assert again.javascript and [z.text for z in collect_zones(again)] == ["scripted"]


def test_slow_page_is_cut_off_and_still_yields_what_was_laid_out():
    html = (
        "<html><body><h1>Early heading</h1>"
        "<script>const t = Date.now(); while (Date.now() - t < 3000) {}</script>"
        "<p>late paragraph</p></body></html>"
    )
    # busy past the load timeout, but well within the further wait for the page to settle (one
    # timeout more), however late a loaded machine starts the script
    with Renderer(timeout=2.5) as r:
        page = r.render(html)
    assert page.javascript
    assert any("did not finish loading" in w for w in page.warnings)
    assert [z.text for z in collect_zones(page)] == ["Early heading", "late paragraph"]


def test_screenshot_is_a_full_page_png(renderer, tmp_path):
    out = tmp_path / "shots" / "page.png"
    page = renderer.render(EXAMPLE_PAGE, screenshot=out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width == 1280 and height == int(page.height)
    assert list(out.parent.iterdir()) == [out]  # no temporary file left behind


@pytest.mark.parametrize("content", [b"", b"  \n\t\r\n  "])
def test_an_empty_file_is_a_clear_error(renderer, tmp_path, content):
    empty = tmp_path / "empty.html"
    empty.write_bytes(content)
    with pytest.raises(PageError, match=r"empty\.html: the page is empty"):
        renderer.render(empty)


def test_binary_garbage_is_a_clear_error(renderer, tmp_path):
    garbage = tmp_path / "garbage.html"
    garbage.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(PageError, match=r"garbage\.html: not an HTML page \(binary content\)"):
        renderer.render(garbage)


def test_missing_file_and_directory_are_clear_errors(renderer, tmp_path):
    with pytest.raises(PageError, match="no such file"):
        renderer.render(tmp_path / "missing.html")
    with pytest.raises(PageError, match="is a directory"):
        renderer.render(tmp_path)


@pytest.mark.parametrize(
    ("raw", "expected", "warns"),
    [
        ("<meta charset='utf-8'><p>caf\xe9 na\xefve</p>".encode("cp1252"), "caf\ufffd na\ufffdve", True),
        ("<p>caf\xe9 r\xe9sum\xe9</p>".encode("cp1252"), "caf\xe9 r\xe9sum\xe9", False),
        ("<p>Stra\xdfe \u2013 \u00b5m</p>".encode("utf-8"), "Stra\xdfe \u2013 \u00b5m", False),
        ("<meta charset='x-no-such-charset'><p>plain</p>".encode(), "plain", True),
        ("<meta charset='iso-8859-2'><p>\u0141\xf3d\u017a</p>".encode("iso-8859-2"), "\u0141\xf3d\u017a", False),
        ("\ufeff<p>bom utf-16</p>".encode("utf-16-le"), "bom utf-16", False),
    ],
)
def test_encodings(renderer, tmp_path, raw, expected, warns):
    path = tmp_path / "page.html"
    path.write_bytes(raw)
    page = renderer.render(path)
    assert [z.text for z in collect_zones(page)] == [expected]
    assert bool(page.warnings) == warns


def test_deeply_nested_page(renderer):
    depth = 5000
    html = "<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth + "<p>after</p></body></html>"
    zones = collect_zones(renderer.render(html))
    assert [z.text for z in zones] == ["deep text", "after"]


@pytest.mark.slow
def test_page_far_larger_than_any_real_one(tmp_path):
    # 5 MB, over three times the largest publisher page in the shared data (1.5 MB): the time goes
    # linearly with the bytes (20 MB took a fifth of the suite and showed nothing 5 MB does not)
    paragraph = "<p>" + " ".join(f"w{i}" for i in range(60)) + "</p>\n"
    n = 5 * 2**20 // len(paragraph) + 1
    path = tmp_path / "big.html"
    path.write_text("<html><body>" + paragraph * n + "</body></html>")
    assert path.stat().st_size >= 5 * 2**20
    with Renderer(timeout=60, limits=Limits(deadline=300)) as r:
        zones = collect_zones(r.render(path))
    assert len(zones) == n


def test_chromium_discovery(monkeypatch, tmp_path):
    monkeypatch.setenv("SCILABEL_CHROMIUM", str(tmp_path / "nope"))
    with pytest.raises(BrowserNotFound, match="SCILABEL_CHROMIUM=.*nope is not an executable"):
        find_chromium(None)
    fake = tmp_path / "chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("SCILABEL_CHROMIUM", str(fake))
    assert find_chromium("/also/fake") == str(fake)
    monkeypatch.delenv("SCILABEL_CHROMIUM")
    assert find_chromium(str(fake)) is None  # Playwright's own browser wins when it exists
    monkeypatch.setattr("scilabel.readers.render._SYSTEM_CHROMIUMS", (str(tmp_path / "none"),))
    with pytest.raises(BrowserNotFound, match="playwright install chromium"):
        find_chromium(str(tmp_path / "missing"))


def test_renderer_must_be_started():
    with pytest.raises(RuntimeError, match="not started"):
        Renderer().render("<p>x</p>")


def test_many_renders_reuse_one_browser(renderer):
    for i in range(12):
        zones = collect_zones(renderer.render(f"<h1>Page {i}</h1><script>window.leak = {i}</script>"))
        assert [z.text for z in zones] == [f"Page {i}"]


def test_a_page_renders_the_same_every_time(renderer):
    # the object's resource is blocked: its fallback (here, the rest of the page, since an HTML
    # object does not self-close) is shown, and not only when its failure beats the reading of the DOM
    page = ("<p>Lead</p><div><object type='image/svg+xml' data='table.svgz'/></div><p>After the table</p>"
            "<p id='ad'></p><script>document.getElementById('ad').textContent = 'Ad ' + Math.random();</script>")
    texts = [[z.text for z in collect_zones(renderer.render(page))] for _ in range(5)]
    assert texts[0][:2] == ["Lead", "After the table"]
    assert texts[0][2].startswith("Ad 0.")
    assert all(t == texts[0] for t in texts[1:])
    inline = "<object data='data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E'><p>Fallback</p></object>"
    assert [z.text for z in collect_zones(renderer.render(inline + "<p>Text</p>"))] == ["Text"]


#: What a tab reused for page after page could carry from one page into the next: scripts that build
#: and restyle the DOM, a web font that never arrives (and an image), requests made up to the moment a
#: page is left and as it is left.
_SCRIPTED = """<title>Scripted</title><h1 id=h>Heading</h1><div id=list></div><script>
  for (let i = 0; i < 20; i++) {
    const p = document.createElement("p");
    p.textContent = "Item " + i + " " + Math.random();
    document.getElementById("list").appendChild(p);
  }
  document.getElementById("h").style.fontSize = 20 + Math.floor(Math.random() * 20) + "px";
  addEventListener("load", () => document.getElementById("list").firstChild.remove());
</script>"""
_WEB_FONT = """<title>Web font</title><style>
  @font-face { font-family: Remote; src: url(https://fonts.example/remote.woff2) format("woff2"); }
  body { font-family: Remote, serif; } h1 { font: 700 32px Remote, sans-serif; }
</style><h1>Web font</h1><p>Body text in a font that never arrives.</p><img src="https://cdn.example/figure.png">"""
_LEAVING = """<p>Leaving</p><script>setInterval(() => fetch("https://x.example/tick").catch(() => {}), 1);
  addEventListener("pagehide", () => {
    navigator.sendBeacon("https://x.example/beacon");
    fetch("https://x.example/late", {keepalive: true}).catch(() => {});
    window.open("https://x.example/popup");
  });
</script>"""
_NAVIGATING = "<p>Away</p><script>addEventListener('load', () => { location.href = 'https://elsewhere.example/'; })</script>"


def _reading(page) -> tuple:
    # the order of the blocked requests is the order the browser issued them, which may vary
    return page.title, page.nodes, page.width, page.height, page.javascript, sorted(page.blocked_urls), page.warnings


def test_a_page_renders_the_same_first_in_a_tab_and_after_other_pages_in_it(renderer, caplog):
    caplog.set_level(logging.DEBUG, logger="scilabel.readers.render")
    pages = (EXAMPLE_PAGE, _SCRIPTED, _WEB_FONT)
    first = []
    for page in pages:  # each the first page of a new tab: the page before it tried to navigate
        renderer.render(_NAVIGATING)
        first.append(renderer.render(page))
    assert caplog.text.count("closing the tab after") == len(pages)
    caplog.clear()
    leaving = [renderer.render(_LEAVING) for _ in range(2)]
    again = [renderer.render(page) for page in pages]
    assert "closing the tab" not in caplog.text  # all of them in the one reused tab
    for fresh, reused in zip(first, again):
        assert _reading(fresh) == _reading(reused)
        assert set(reused.timings) == {"load", "extract"}
    assert all(p.blocked_requests >= 1 for p in leaving)  # and none of them in the pages after it
    assert [p.blocked_requests for p in first[1:]] == [0, 2]
    scripted = [z.text for z in collect_zones(again[1])]
    assert scripted[0] == "Heading" and scripted[1].startswith("Item 1 0.") and len(scripted) == 20


def test_a_flood_of_fetches_and_beacons_is_counted_whole_and_the_tab_kept(renderer, caplog):
    # refused in the page: through the browser's request interception, 20,000 requests would take
    # longer than the session renderer's 5 s timeout, and the count would stop where the render did
    flood = """<p>Flood</p><script>
      for (let i = 0; i < 10000; i++) { fetch("https://x.example/f" + i).catch(() => {}); navigator.sendBeacon("/b" + i); }
      fetch("data:text/plain,kept").then(r => r.text()).then(t => document.body.append(t));
    </script>"""
    caplog.set_level(logging.DEBUG, logger="scilabel.readers.render")
    page = renderer.render(flood)
    after = renderer.render(EXAMPLE_PAGE)
    assert page.blocked_requests == 20000
    assert len(page.blocked_urls) == 50 and page.blocked_urls[0] == "https://x.example/f0"
    assert page.blocked_urls[1].endswith("/b0")
    assert [z.text for z in collect_zones(page)] == ["Flood", "kept"]  # a data: URL is no request
    assert after.blocked_requests == 0 and "closing the tab" not in caplog.text


def test_a_tab_is_closed_after_its_budget_of_pages(renderer, caplog, monkeypatch):
    monkeypatch.setattr("scilabel.readers.render.TAB_BUDGET", 3)
    caplog.set_level(logging.DEBUG, logger="scilabel.readers.render")
    renderer.render(_NAVIGATING)
    for i in range(5):
        assert [z.text for z in collect_zones(renderer.render(f"<p>Page {i}</p>"))] == [f"Page {i}"]
    assert caplog.text.count("closing the tab after 3 page(s): it rendered its 3 pages") == 1
