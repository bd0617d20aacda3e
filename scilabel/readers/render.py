"""Rendering pages in headless Chromium (Playwright) and reading the laid-out DOM with geometry.

One :class:`Renderer` starts one browser and renders many pages with it. Rendering is offline by
design: the page's own HTML is served from memory and every other request the page makes
(scripts, styles, images, frames, fetches, sockets) is blocked and counted.

Blocking a page's style sheets also loses the rules that hide what a reader never sees: navigation
headings for screen readers, collapsed pop-ups, duplicate math markup. Before the DOM is read the
renderer adds :data:`FALLBACK_CSS`, the hiding rules of widespread class conventions, at zero
specificity (``:where``), so any rule of the page's own for those classes still wins.

The same page renders the same way every time: the page's ``Math.random`` is seeded (rotating job
advertisements, shuffled panels), and an ``<object>``, whose blocked resource would be replaced by
its fallback content at a moment that races the reading of the DOM, is replaced by it first.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from playwright.async_api import Browser, BrowserContext, Page, Playwright, Route, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from ..atomic import atomic_path
from .base import PageError
from .sources import PageDocument, load_source

log = logging.getLogger(__name__)

T = TypeVar("T")
VIEWPORT_WIDTH = 1280
VIEWPORT_HEIGHT = 1024
#: Environment variable naming a Chromium/Chrome executable to use instead of Playwright's own.
CHROMIUM_ENV = "SCILABEL_CHROMIUM"
_SYSTEM_CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
_EXTRACT_JS = (Path(__file__).with_name("extract.js")).read_text(encoding="utf-8")
_LAUNCH_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--mute-audio",
    "--disable-features=BackForwardCache",
    # Defence in depth behind request interception: resolve no host names and send
    # whatever escapes interception to a closed local port.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]
#: Class names that conventionally mean "not shown on screen" (hidden, hide, d-none ... and the
#: screen-reader-only families of Bootstrap, WordPress, jQuery UI, Drupal, USWDS, Springer Nature).
HIDING_CLASSES = (
    "hidden", "hide", "d-none", "is-hidden", "u-hide", "sr-only", "visually-hidden", "visuallyhidden",
    "u-visually-hidden", "screen-reader-text", "screen-reader-only", "usa-sr-only", "is-sr-only",
    "ui-helper-hidden-accessible", "element-invisible",
)
#: Rules a page's blocked style sheets would have applied: see the module docstring.
FALLBACK_CSS = ":where(" + ", ".join(f".{name}" for name in HIDING_CLASSES) + ") { display: none; }"
#: Run before the DOM is read: adds a style sheet (a constructed one, so a page's
#: Content-Security-Policy, which may forbid inline styles, does not stop it; it works with JavaScript
#: disabled) and puts every ``<object>``'s fallback content in its place, as the browser does once
#: the object's resource fails, as it always does here (unless it is inline, a ``data:`` URL).
_SETTLE_JS = """css => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  for (const object of [...document.querySelectorAll("object:not([data^='data:'])")]) object.replaceWith(...object.childNodes);
}"""
#: Runs first in every document: ``Math.random`` from a fixed seed (mulberry32).
_SEEDED_RANDOM_JS = """(() => {
  let state = 0x5c11abe1;
  Math.random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();"""
_MAX_SCREENSHOT_HEIGHT = 16000
#: A rendering tab is replaced after this many pages, so no per-tab state can accumulate.
_RENDERS_PER_TAB = 50
_MAX_BLOCKED_URLS_KEPT = 50


class BrowserNotFound(RuntimeError):
    """No usable Chromium executable."""


@dataclass(slots=True)
class Node:
    """One element or text node of the rendered DOM, in document order."""

    index: int
    parent: int  #: index of the parent element, -1 for the root
    is_text: bool
    tag: str  #: element tag; "#text" for text nodes
    text: str  #: text nodes only
    bbox: tuple[float, float, float, float]  #: x, y, w, h in document CSS px; zero w/h = no box
    display: str = ""
    visibility: str = ""
    font_size: float = 0.0
    font_weight: int = 400
    font_style: str = "normal"
    clipped: bool = False  #: hidden by clipping (zero-size overflow box, clip rect, opacity 0)
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class RenderedPage:
    """What the browser laid out for one page."""

    source: str
    url: str
    title: str
    html: str
    nodes: list[Node]
    width: float
    height: float
    javascript: bool  #: whether scripts ran (False after the no-JavaScript fallback)
    blocked_requests: int
    blocked_urls: list[str]
    warnings: list[str]
    timings: dict[str, float]  #: seconds: load, extract


def find_chromium(playwright_default: str | None) -> str | None:
    """The Chromium to launch: $SCILABEL_CHROMIUM, else Playwright's own (None), else a system one."""
    override = os.environ.get(CHROMIUM_ENV)
    if override:
        if not os.access(override, os.X_OK):
            raise BrowserNotFound(f"{CHROMIUM_ENV}={override} is not an executable file")
        return override
    if playwright_default and os.access(playwright_default, os.X_OK):
        return None
    for candidate in _SYSTEM_CHROMIUMS:
        if os.access(candidate, os.X_OK):
            return candidate
    raise BrowserNotFound(
        "no Chromium found: run `playwright install chromium`, or `apt-get install chromium` "
        f"on Debian/Ubuntu, or set {CHROMIUM_ENV} to a Chromium or Chrome executable"
    )


class Renderer:
    """Headless Chromium that renders pages offline and returns their DOM with geometry.

    Use as a context manager::

        with Renderer() as r:
            page = r.render("article.html")

    ``timeout`` bounds each page's loading (and script) time in seconds; a page still loading then
    is used as laid out so far, and a page whose scripts keep the browser busy is rendered again
    with JavaScript disabled. Both cases add a warning to the page.
    """

    def __init__(self, timeout: float = 10.0, javascript: bool = True, viewport_height: int = VIEWPORT_HEIGHT):
        self.timeout = timeout
        self.javascript = javascript
        self.viewport_height = viewport_height
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._contexts: dict[bool, BrowserContext] = {}
        self._pages: dict[bool, Page] = {}
        self._page_uses: dict[bool, int] = {}
        self._served: dict[str, bytes] = {}
        self._blocked: list[str] = []

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> Renderer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the browser (done once; rendering reuses it)."""
        if self._loop is not None:
            return
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="scilabel-renderer", daemon=True)
        self._thread.start()
        try:
            self._call(self._start(), timeout=120)
        except BaseException:
            self.close()
            raise

    async def _start(self) -> None:
        self._playwright = await async_playwright().start()
        executable = find_chromium(self._playwright.chromium.executable_path)
        log.debug("launching Chromium %s", executable or self._playwright.chromium.executable_path)
        self._browser = await self._playwright.chromium.launch(
            executable_path=executable, args=_LAUNCH_ARGS, headless=True
        )

    def close(self) -> None:
        """Stop the browser and the renderer's event-loop thread."""
        if self._loop is None:
            return
        try:
            if self._playwright is not None:
                self._call(self._stop(), timeout=60)
        except Exception as exc:  # closing must not mask the caller's own error
            log.warning("closing the browser failed: %s", exc)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._loop.close()
        self._loop = self._thread = None
        self._playwright = self._browser = None
        self._contexts, self._pages = {}, {}

    async def _stop(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        await self._playwright.stop()

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
        if self._loop is None:
            coro.close()
            raise RuntimeError("Renderer is not started: use `with Renderer() as r:` or call start()")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=timeout)

    # -- rendering ---------------------------------------------------------------------------
    def render(self, source: str | Path | PageDocument, screenshot: str | Path | None = None) -> RenderedPage:
        """Render a file path, an http(s) URL, an HTML string or a loaded document.

        With ``screenshot``, also save a full-page PNG there. Raises :class:`PageError` for a
        page that cannot be read.
        """
        doc = source if isinstance(source, PageDocument) else load_source(source, timeout=self.timeout)
        for warning in doc.warnings:
            log.warning(warning)
        # Hard ceiling far above the normal path: load + responsiveness probe + extraction + fallback.
        ceiling = 4 * self.timeout + 180
        return self._call(self._render(doc, screenshot), timeout=ceiling)

    async def _context(self, javascript: bool) -> BrowserContext:
        if javascript not in self._contexts:
            context = await self._browser.new_context(
                viewport={"width": VIEWPORT_WIDTH, "height": self.viewport_height},
                java_script_enabled=javascript,
                service_workers="block",
                accept_downloads=False,
            )
            await context.add_init_script(_SEEDED_RANDOM_JS)
            await context.route("**/*", self._route)
            await context.route_web_socket("**/*", self._block_socket)
            self._contexts[javascript] = context
        return self._contexts[javascript]

    async def _route(self, route: Route) -> None:
        request = route.request
        body = self._served.get(request.url)
        if body is not None and request.is_navigation_request():
            await route.fulfill(status=200, headers={"content-type": "text/html; charset=utf-8"}, body=body)
        else:
            self._note_blocked(request.url)
            await route.abort("blockedbyclient")

    async def _block_socket(self, ws: Any) -> None:
        self._note_blocked(ws.url)
        await ws.close(code=1008, reason="blocked by scilabel")

    def _note_blocked(self, url: str) -> None:
        self._blocked.append(url)

    async def _render(self, doc: PageDocument, screenshot: str | Path | None) -> RenderedPage:
        warnings = list(doc.warnings)
        self._blocked = []
        self._served = {doc.url: doc.html.encode("utf-8")}
        try:
            result = await self._render_once(doc, self.javascript, warnings, screenshot)
            if result is None:
                warnings.append(
                    f"{doc.source}: scripts kept the page busy past {self.timeout:g}s; rendered again without JavaScript"
                )
                result = await self._render_once(doc, False, warnings, screenshot)
            if result is None:
                raise PageError(f"{doc.source}: the browser did not respond while laying out the page")
        finally:
            self._served = {}
        data, load_s, extract_s, javascript = result
        for warning in warnings[len(doc.warnings):]:
            log.warning(warning)
        blocked = list(self._blocked)
        if blocked:
            log.info("%s: blocked %d outside requests", doc.source, len(blocked))
        return RenderedPage(
            source=doc.source,
            url=doc.url,
            title=data["title"],
            html=doc.html,
            nodes=_nodes_from_rows(data["rows"]),
            width=float(data["width"]),
            height=float(data["height"]),
            javascript=javascript,
            blocked_requests=len(blocked),
            blocked_urls=blocked[:_MAX_BLOCKED_URLS_KEPT],
            warnings=warnings,
            timings={"load": load_s, "extract": extract_s},
        )

    async def _page(self, javascript: bool) -> Page:
        """The page used for rendering, reused across renders (each navigation gets a fresh document)."""
        page = self._pages.get(javascript)
        if page is not None and self._page_uses[javascript] >= _RENDERS_PER_TAB:
            await self._discard_page(javascript, "tab recycling")
            page = None
        if page is None or page.is_closed():
            page = self._pages[javascript] = await (await self._context(javascript)).new_page()
            self._page_uses[javascript] = 0
        self._page_uses[javascript] += 1
        return page

    async def _discard_page(self, javascript: bool, name: str) -> None:
        page = self._pages.pop(javascript, None)
        if page is None:
            return
        try:
            await asyncio.wait_for(page.close(run_before_unload=False), timeout=10)
        except (asyncio.TimeoutError, PlaywrightError) as exc:
            log.warning("%s: closing a hung page failed: %s", name, _first_line(exc))

    async def _render_once(
        self, doc: PageDocument, javascript: bool, warnings: list[str], screenshot: str | Path | None
    ) -> tuple[dict, float, float, bool] | None:
        """Load and extract once; None when the page's scripts never yield the main thread."""
        page = await self._page(javascript)
        t0 = time.perf_counter()
        try:
            await page.goto(doc.url, wait_until="load", timeout=self.timeout * 1000)
        except PlaywrightTimeout:
            warnings.append(f"{doc.source}: page did not finish loading within {self.timeout:g}s; using what was laid out")
        except PlaywrightError as exc:
            await self._discard_page(javascript, doc.source)
            raise PageError(f"{doc.source}: the browser could not load the page ({_first_line(exc)})") from None
        load_s = time.perf_counter() - t0
        try:
            await asyncio.wait_for(page.evaluate("1"), timeout=min(5.0, self.timeout))
            if page.url != doc.url:
                warnings.append(f"{doc.source}: the page tried to navigate to {page.url}; that was blocked")
            await asyncio.wait_for(page.evaluate(_SETTLE_JS, FALLBACK_CSS), timeout=min(5.0, self.timeout))
            t1 = time.perf_counter()
            data = json.loads(await asyncio.wait_for(page.evaluate(_EXTRACT_JS), timeout=self.timeout + 120))
        except asyncio.TimeoutError:
            await self._discard_page(javascript, doc.source)
            return None
        extract_s = time.perf_counter() - t1
        if screenshot is not None:
            await self._screenshot(page, Path(screenshot), data["height"], warnings, doc.source)
        return data, load_s, extract_s, javascript

    async def _screenshot(self, page: Page, path: Path, height: float, warnings: list[str], name: str) -> None:
        clip = None
        if height > _MAX_SCREENSHOT_HEIGHT:
            warnings.append(f"{name}: page is {height:.0f}px tall; screenshot cut at {_MAX_SCREENSHOT_HEIGHT}px")
            clip = {"x": 0, "y": 0, "width": VIEWPORT_WIDTH, "height": _MAX_SCREENSHOT_HEIGHT}
        with atomic_path(path) as tmp:
            await page.screenshot(path=str(tmp), type="png", full_page=True, clip=clip, timeout=60_000)


def _nodes_from_rows(rows: list[list]) -> list[Node]:
    nodes: list[Node] = []
    for i, row in enumerate(rows):
        if row[0] == 3:
            _, parent, text, x, y, w, h = row
            nodes.append(Node(i, parent, True, "#text", text, (x, y, w, h)))
        else:
            _, parent, tag, display, vis, size, weight, style, x, y, w, h, clipped, attrs = row
            nodes.append(Node(i, parent, False, tag, "", (x, y, w, h), display, vis, size, weight, style, clipped, attrs))
    return nodes


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
