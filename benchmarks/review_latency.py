"""How fast the review app answers a label change on a page of 3,000 zones (issue 42: under 100 ms).

A generated page of ``--zones`` one-line paragraphs is read and labelled by the shipped model and
served by the review app on 127.0.0.1. Two timings, each over ``--changes`` label changes (single
zones and runs of 50, labels cycling through the schema):

- server: a label change posted over HTTP until its answer is read (``POST /api/pages/0/labels``);
- browser: in Chromium (Playwright), from the key press in the app until the server's answer is
  applied to the boxes and the zone list.

    python benchmarks/review_latency.py [--zones 3000] [--changes 200] [--out build/bench/review_latency.json]
"""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import time
from pathlib import Path

from scilabel.atomic import write_text
from scilabel.persistence import load_model, model_path
from scilabel.readers import ChromiumHTMLReader
from scilabel.readers.render import find_chromium
from scilabel.review import Review, ReviewServer
from scilabel.schema import LABELS


def long_page(n_zones: int) -> str:
    lines = [f"<p>Line {i} of a long page: observations of site {i % 97} in week {i % 52}.</p>" for i in range(n_zones - 3)]
    return ("<html><head><title>Long page</title></head><body><h1>A very long article page</h1>"
            "<p>Ann Author and Bo Writer</p><h2>References</h2>" + "".join(lines) + "</body></html>")


def spread(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 2), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 2),
            "max_ms": round(ms[-1], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--zones", type=int, default=3000)
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ChromiumHTMLReader(timeout=30) as reader:
        page = Path(tmp) / "pages" / "long.html"
        page.parent.mkdir()
        page.write_text(long_page(args.zones), encoding="utf-8")
        review = Review([page], reader, load_model(model_path("svm")), Path(tmp) / "gold")
        n = len(review.page(0).zones)
        server = ReviewServer(review)
        server.start()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port)
            posted = []
            for k in range(args.changes):
                start = (k * 37) % (n - 50)
                body = json.dumps({"zones": list(range(start, start + (50 if k % 2 else 1))),
                                   "label": LABELS[k % len(LABELS)]})
                t = time.perf_counter()
                connection.request("POST", "/api/pages/0/labels", body, {"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                posted.append(1000 * (time.perf_counter() - t))
                assert answer.status == 200
            connection.close()
            browser_ms = in_browser(server, args.changes, n)
        finally:
            server.shutdown()
            server.server_close()
            review.close()
    report = {"zones": n, "server": spread(posted), "browser": spread(browser_ms),
              "server_one_zone": spread(posted[0::2]), "server_runs_of_50": spread(posted[1::2]),
              "browser_one_zone": spread(browser_ms[0::2]), "browser_runs_of_50": spread(browser_ms[1::2])}
    print(json.dumps(report, indent=1))
    if args.out:
        write_text(args.out, json.dumps(report, indent=1))


def in_browser(server: ReviewServer, changes: int, n: int) -> list[float]:
    """Milliseconds from a label key pressed in the app until its answer is shown."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(playwright.chromium.executable_path))
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        tab.goto(server.url)
        tab.wait_for_function(f"() => app.page && app.boxes.length === {n}")
        timings = tab.evaluate("""async ([changes, n]) => {
          const out = [];
          for (let k = 0; k < changes; k++) {
            const first = (k * 53) % (n - 50);
            select(k % 2 ? run(first, first + 49) : [first]);
            const t = performance.now();
            document.dispatchEvent(new KeyboardEvent("keydown", {key: String(1 + k % 8)}));
            await app.busy;
            out.push(performance.now() - t);
          }
          return out;
        }""", [changes, n])
        browser.close()
    return timings


if __name__ == "__main__":
    main()
