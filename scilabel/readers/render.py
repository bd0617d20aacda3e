"""Rendering pages in headless Chromium (Playwright) and reading the laid-out DOM with geometry.

One :class:`Renderer` starts one browser and renders many pages with it. Rendering is offline by
design: the page's own HTML is served from memory and every other request the page makes
(scripts, styles, images, frames, fetches, sockets) is blocked and counted. Consecutive pages share
one browser tab, wiped clean between them (starting a browser context and its renderer process per
page was most of a small page's cost), and each is read in a JavaScript world its scripts cannot
reach; how a hostile or broken page is contained is told in :class:`Renderer`.

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
import concurrent.futures
import contextlib
import json
import logging
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession, Page, Playwright, Route, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from ..atomic import atomic_path
from .base import PageError
from .sources import Limits, PageDocument, load_source

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
    # WebRTC may use no UDP that does not go through that (dead) proxy; no DNS prefetching.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
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
#: Leaves the page with nothing to run as it is left: ``document.open`` erases every event listener of
#: the document and its window (an unload handler runs even with scripts disabled, and could write
#: storage after it was cleared), then empties its local and session storage (where the page may have
#: none, an opaque origin, there is nothing to empty).
_DISARM_JS = """try { document.open(); document.close(); } catch (e) {}
for (const area of ["localStorage", "sessionStorage"]) { try { window[area].clear(); } catch (e) {} }"""

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
#: Runs first in every document: what a page may not use (WebRTC, WebTransport, new windows) throws
#: or does nothing, and each attempt is reported on the console under the renderer's token (captured
#: here, before the page's scripts can replace ``console``), to be counted as a blocked request.
_DENY_JS = """(() => {
  const report = console.debug.bind(console);
  const blocked = what => { try { report("TOKEN" + what); } catch (e) {} };
  const deny = (name, stub, owner = window) => {
    try { Object.defineProperty(owner, name, {value: stub, writable: false, configurable: false}); } catch (e) {}
  };
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceTransport",
                      "RTCRtpSender", "RTCRtpReceiver", "WebTransport"]) {
    if (name in window) deny(name, function () { blocked(name); throw new DOMException(name + " is disabled", "NotSupportedError"); });
  }
  deny("open", function (url) { blocked("window.open " + String(url).slice(0, 200)); return null; });
  // fetch and beacons to the web fail in the page itself, counted here and read once the page is read:
  // a page firing them by the thousand (a timer every millisecond) would otherwise queue a blocked
  // request per call in the browser's interception, and keep the renderer from everything else
  const refused = {count: 0, urls: []};
  deny("TOKEN", () => ({count: refused.count, urls: refused.urls.slice()}));
  const web = input => {
    try {
      const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
      return /^(https?|wss?):$/.test(url.protocol) ? url.href : null;
    } catch (e) { return null; }
  };
  const refuse = url => { refused.count++; if (refused.urls.length < KEPT) refused.urls.push(url); };
  const fetch = window.fetch;
  deny("fetch", function (input, init) {
    const url = web(input);
    if (url === null) return fetch.apply(this, arguments);
    refuse(url);
    return Promise.reject(new TypeError("Failed to fetch"));
  });
  deny("sendBeacon", function (input) {
    const url = web(input);
    if (url !== null) refuse(url);
    return true;
  }, navigator);
})();"""
_MAX_SCREENSHOT_HEIGHT = 16000
#: A start tag: a page with more of them than the node cap is refused without being laid out.
_START_TAG = re.compile(r"<[A-Za-z]")
_MAX_BLOCKED_URLS_KEPT = 50
#: Pages one tab renders before it is closed for a fresh one (bounds what a renderer process accumulates).
TAB_BUDGET = 100


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


@dataclass
class _Visit:
    """What one attempt at a page was served and tried: requests blocked, navigations refused."""

    body: bytes  #: the document, served once
    served_url: str | None = None
    blocked: list[str] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    refused: int = 0  #: fetches and beacons the page itself refused beyond those in ``blocked``
    late: bool = False  #: still loading at the timeout
    over_memory: bool = False
    world: int | None = None  #: scilabel's isolated JavaScript world in the page, once made


@dataclass
class _Tab:
    """A browser context with its one page and a DevTools session on it, kept for the next page
    while each page leaves it unspoilt (see :meth:`Renderer._release`)."""

    javascript: bool
    context: BrowserContext
    page: Page
    session: CDPSession
    visit: _Visit | None = None  #: the attempt being rendered; None between attempts
    pages: int = 0  #: attempts rendered in this tab
    popups: int = 0  #: windows the pages opened (each closed at once)
    crashed: bool = False  #: its renderer process crashed


class _PageFault(Exception):
    """The page's own doing (its scripts, its size) spoilt this attempt; the message says how."""


class Renderer:
    """Headless Chromium that renders pages offline and returns their DOM with geometry.

    Use as a context manager::

        with Renderer() as r:
            page = r.render("article.html")

    ``timeout`` bounds each page's loading (and script) time in seconds; a page still loading then
    is used as laid out so far, and a page whose scripts keep the browser busy is rendered again
    with JavaScript disabled. Both cases add a warning to the page. ``limits`` bounds each page as a
    whole (:class:`~.sources.Limits`): time, bytes, DOM nodes and renderer memory.

    Consecutive pages share one tab (a page in a browser context of its own, with its own storage and
    processes). After each page the tab goes to ``about:blank``, which ends the page with its timers,
    workers and unload handlers; its history is cut back to that one entry, ``window.name`` emptied,
    storage of every kind and cookies at the page's origin cleared: the next page finds the tab as a
    fresh one. A page that did anything unusual (not rendered as it was, or still loading at the
    timeout, or tried to navigate, opened a window, crashed its renderer, was read without JavaScript)
    has its tab closed with all its windows, workers and frames, and the next page gets a new tab;
    so does every :data:`TAB_BUDGET`-th page. Inside a tab:
    every request but the page's own document is blocked; a navigation after the document was
    served is answered with "204 No Content", which keeps the page where it is; popups are closed,
    downloads and permissions refused; WebRTC and WebTransport are replaced by constructors that
    throw, and Chromium's own switches keep them and DNS prefetching off the network. All of these
    count in :attr:`RenderedPage.blocked_requests`. The DOM is read in an isolated JavaScript world,
    whose functions (``getComputedStyle``, ``JSON.stringify`` ...) the page's scripts cannot
    replace. When the page's scripts spoil a render (busy past the timeout, a removed root, a
    navigation that got through, a renderer crash or memory past the cap), it is rendered again
    without JavaScript, with a warning; a page that fails that too raises :class:`PageError`.
    """

    def __init__(self, timeout: float = 10.0, javascript: bool = True, viewport_height: int = VIEWPORT_HEIGHT,
                 limits: Limits = Limits()):
        self.timeout = timeout
        self.javascript = javascript
        self.viewport_height = viewport_height
        self.limits = limits
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._browser_session: CDPSession | None = None
        self._tab: _Tab | None = None  #: the tab the last page left clean, for the next
        self._token = secrets.token_hex(8)
        self._wedged = False  #: a page's context would not close: the browser is replaced before the next page

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
        self._browser_session = await self._browser.new_browser_cdp_session()

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
        self._playwright = self._browser = self._browser_session = None

    async def _stop(self) -> None:
        """Close the browser, and stop Playwright (which ends a browser that would not close)."""
        tab, self._tab = self._tab, None
        with contextlib.suppress(Exception):
            if tab is not None:
                await asyncio.wait_for(tab.context.close(), timeout=5)
        with contextlib.suppress(Exception):
            if self._browser is not None:
                await asyncio.wait_for(self._browser.close(), timeout=10)
        await self._playwright.stop()

    async def _restart(self) -> None:
        log.warning("the browser stopped answering after a page; starting a new one")
        await self._stop()
        self._wedged = False
        await self._start()

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
        if self._loop is None:
            coro.close()
            raise RuntimeError("Renderer is not started: use `with Renderer() as r:` or call start()")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=timeout)

    # -- rendering ---------------------------------------------------------------------------
    def render(self, source: str | Path | PageDocument, screenshot: str | Path | None = None) -> RenderedPage:
        """Render a file path, an http(s) URL, an HTML string or a loaded document.

        With ``screenshot``, also save a full-page PNG there. Raises :class:`PageError` for a
        page that cannot be read, or not within the limits.
        """
        started = time.monotonic()
        deadline = self.limits.deadline
        if isinstance(source, PageDocument):
            doc = source
        else:
            doc = load_source(source, timeout=min(self.timeout, deadline), limits=self.limits)
        for warning in doc.warnings:
            log.warning(warning)
        if len(_START_TAG.findall(doc.html)) > self.limits.max_nodes:  # refused before any layout
            raise PageError(f"{doc.source}: {self._too_many_nodes()}")
        remaining = deadline - (time.monotonic() - started)
        late = f"{doc.source}: not read within the {deadline:g}s allowed per page (--deadline raises it)"
        if remaining <= 0:
            raise PageError(late)
        try:
            # the loop's own deadline below ends the render; this one only guards against a wedged loop
            return self._call(self._render_within(doc, screenshot, remaining, late), timeout=remaining + 60)
        except concurrent.futures.TimeoutError:
            raise PageError(late) from None

    async def _render_within(self, doc: PageDocument, screenshot: str | Path | None, seconds: float,
                             late: str) -> RenderedPage:
        if self._wedged:
            await self._restart()
        try:
            return await asyncio.wait_for(self._render(doc, screenshot), timeout=seconds)
        except asyncio.TimeoutError:
            raise PageError(late) from None
        except PageError:
            raise
        except Exception as exc:  # whatever else one page does to the browser fails that page alone
            log.debug("%s: rendering failed", doc.source, exc_info=True)
            raise PageError(f"{doc.source}: the browser failed on the page ({type(exc).__name__}: "
                            f"{_first_line(exc)[:200]})") from None

    async def _render(self, doc: PageDocument, screenshot: str | Path | None) -> RenderedPage:
        warnings = list(doc.warnings)
        blocked: list[str] = []
        refused = 0  # beyond the URLs kept in ``blocked``
        attempts = (True, False) if self.javascript else (False,)
        for javascript in attempts:
            tab = await self._take_tab(javascript)
            visit = tab.visit = _Visit(doc.html.encode("utf-8"))
            try:
                data, load_s, extract_s = await self._render_once(doc, tab, warnings, screenshot)
                break
            except _PageFault as fault:
                if not javascript:
                    raise PageError(f"{doc.source}: {fault}") from None
                warnings.append(f"{doc.source}: {fault}; rendered again without JavaScript")
            finally:
                blocked.extend(visit.blocked)
                refused += visit.refused
        warnings.extend(f"{doc.source}: the page tried to navigate to {url[:200]}; it was kept where it was"
                        for url in dict.fromkeys(visit.navigations))
        for warning in warnings[len(doc.warnings):]:
            log.warning(warning)
        if blocked:
            log.info("%s: blocked %d outside requests", doc.source, len(blocked) + refused)
        return RenderedPage(
            source=doc.source,
            url=doc.url,
            title=data["title"],
            html=doc.html,
            nodes=_nodes_from_rows(data["rows"]),
            width=float(data["width"]),
            height=float(data["height"]),
            javascript=javascript,
            blocked_requests=len(blocked) + refused,
            blocked_urls=blocked[:_MAX_BLOCKED_URLS_KEPT],
            warnings=warnings,
            timings={"load": load_s, "extract": extract_s},
        )

    async def _new_tab(self, javascript: bool) -> _Tab:
        """A page in a new browser context, with everything a page may not do refused."""
        context = await self._browser.new_context(
            viewport={"width": VIEWPORT_WIDTH, "height": self.viewport_height},
            java_script_enabled=javascript,
            service_workers="block",
            accept_downloads=False,
            permissions=[],
        )
        await context.add_init_script(_SEEDED_RANDOM_JS)
        await context.add_init_script(_DENY_JS.replace("TOKEN", self._token).replace("KEPT", str(_MAX_BLOCKED_URLS_KEPT)))
        page = await context.new_page()
        tab = _Tab(javascript, context, page, await context.new_cdp_session(page))
        await context.route("**/*", lambda route: self._route(route, tab))
        await context.route_web_socket("**/*", lambda ws: self._block_socket(ws, tab))
        context.on("page", lambda other: self._refuse_popup(other, tab))
        page.on("crash", lambda _: setattr(tab, "crashed", True))
        page.on("console", lambda message: self._note_console(message.text, tab))
        page.on("download", lambda download: _note_blocked(tab, download.url))
        return tab

    async def _take_tab(self, javascript: bool) -> _Tab:
        """The tab the last page left clean, or a new one. A kept tab has JavaScript as the renderer
        does, as a page's first attempt asks (a retry without it follows a fault, which keeps no tab)."""
        tab, self._tab = self._tab, None
        if tab is not None and not (tab.popups or tab.crashed):
            return tab
        if tab is not None:  # a window or a crash reported after the tab was kept
            await self._close_tab(tab, "the next page", "its last page opened a window or crashed")
        return await self._new_tab(javascript)

    async def _release(self, tab: _Tab, name: str, rendered: bool) -> None:
        """After an attempt: keep the tab for the next page, wiped clean, unless the attempt went any
        way but the plain one (then the tab is closed, with every window, worker and frame in it)."""
        visit, tab.visit = tab.visit, None  # what the page does from now on is counted nowhere
        tab.pages += 1
        why = next((why for why, spoilt in (
            ("the page was not rendered", not rendered),
            ("the page was still loading at the timeout", visit.late),
            ("the page tried to navigate", visit.navigations),
            ("the page opened a window", tab.popups),
            ("the renderer crashed", tab.crashed),
            ("the page had JavaScript off", tab.javascript != self.javascript),
            (f"it rendered its {TAB_BUDGET} pages", tab.pages >= TAB_BUDGET),
        ) if spoilt), None)
        if why is None:
            try:
                await asyncio.wait_for(self._wipe(tab, visit), timeout=5)
                self._tab = tab
                return
            except (asyncio.TimeoutError, PlaywrightError) as exc:
                why = f"wiping it failed ({_first_line(exc)})"
        await self._close_tab(tab, name, why)

    @staticmethod
    async def _wipe(tab: _Tab, visit: _Visit) -> None:
        """Stop the page's scripts (a timer firing requests would keep the wipe waiting behind what it
        asks for), disarm it from scilabel's own world (its event listeners erased, so no unload
        handler runs as it is left; its local and session storage emptied through the renderer it
        wrote through), unload it (its timers and workers end with it), then clear what it could
        leave a later page: history (back to a fresh tab's one entry, ``about:blank``),
        ``window.name``, and at the page's origin storage of every kind (local and session storage,
        IndexedDB, Cache Storage, service workers ...) and cookies."""
        await tab.session.send("Emulation.setScriptExecutionDisabled", {"value": True})
        await _evaluate(tab.session, visit.world, _DISARM_JS)
        await tab.page.goto("about:blank")
        await tab.session.send("Emulation.setScriptExecutionDisabled", {"value": False})
        await tab.session.send("Page.resetNavigationHistory")
        await tab.page.evaluate("window.name = ''")
        scheme, host = _origin(visit.served_url)
        await tab.session.send("Storage.clearDataForOrigin", {"origin": f"{scheme}://{host}", "storageTypes": "all"})

    async def _close_tab(self, tab: _Tab, name: str, why: str) -> None:
        log.debug("%s: closing the tab after %d page(s): %s", name, tab.pages, why)
        try:
            await asyncio.wait_for(tab.context.close(), timeout=5)
        except (asyncio.TimeoutError, PlaywrightError) as exc:
            log.warning("%s: closing the page's browser context failed: %s", name, _first_line(exc))
            self._wedged = True

    async def _route(self, route: Route, tab: _Tab) -> None:
        request, visit = route.request, tab.visit
        main = visit is not None and request.is_navigation_request() and _frame_of(request) is tab.page.main_frame
        if main and visit.served_url is None:
            visit.served_url = request.url
            await route.fulfill(status=200, headers={"content-type": "text/html; charset=utf-8"}, body=visit.body)
        elif main:
            visit.navigations.append(request.url)  # answered with No Content: the page stays where it is
            visit.blocked.append(request.url)
            await route.fulfill(status=204, body=b"")
        else:
            _note_blocked(tab, request.url)
            await route.abort("blockedbyclient")

    @staticmethod
    async def _block_socket(ws: Any, tab: _Tab) -> None:
        _note_blocked(tab, ws.url)
        await ws.close(code=1008, reason="blocked by scilabel")

    async def _render_once(
        self, doc: PageDocument, tab: _Tab, warnings: list[str], screenshot: str | Path | None
    ) -> tuple[dict, float, float]:
        """Load and extract once in the tab, released afterwards; :class:`_PageFault` when the page
        spoilt the attempt."""
        visit, page = tab.visit, tab.page
        task = asyncio.current_task()
        watchdog = asyncio.create_task(self._watch_memory(visit, task))
        rendered = False
        try:
            t0 = time.perf_counter()
            try:
                await page.goto(doc.url, wait_until="load", timeout=self.timeout * 1000)
            except PlaywrightTimeout:
                visit.late = True
                warnings.append(f"{doc.source}: page did not finish loading within {self.timeout:g}s; "
                                "using what was laid out")
            load_s = time.perf_counter() - t0
            try:
                session, frame, world_id = await asyncio.wait_for(self._isolated_world(tab),
                                                                  timeout=min(5.0, self.timeout))
                visit.world = world_id
                await asyncio.wait_for(_evaluate(session, world_id, f"({_SETTLE_JS})({json.dumps(FALLBACK_CSS)})"),
                                       timeout=min(5.0, self.timeout))
                t1 = time.perf_counter()
                data = json.loads(await asyncio.wait_for(
                    _evaluate(session, world_id, f"({_EXTRACT_JS})({self.limits.max_nodes})"),
                    timeout=self.timeout + 120))
            except asyncio.TimeoutError:
                raise _PageFault(f"scripts kept the page busy past {self.timeout:g}s") from None
            extract_s = time.perf_counter() - t1
            await self._count_refused(session, visit)
            after = (await session.send("Page.getFrameTree"))["frameTree"]["frame"]
            _check_document(after, visit)
            if after["loaderId"] != frame["loaderId"]:
                raise _PageFault(f"the page navigated away (to {after.get('url', '')[:200]})")
            if "error" in data:
                self._data_error(data)
            if screenshot is not None:
                await self._screenshot(page, Path(screenshot), data["height"], warnings, doc.source)
            rendered = True
            return data, load_s, extract_s
        except asyncio.CancelledError:
            if not visit.over_memory:  # the page's deadline
                raise
            task.uncancel()  # the watchdog's: it killed the renderer, whatever Playwright was waiting for
            raise _PageFault(self._over_memory()) from None
        except PlaywrightError as exc:
            if visit.over_memory:
                raise _PageFault(self._over_memory()) from None
            if tab.crashed or "crash" in str(exc).lower():
                raise _PageFault(f"the browser's renderer crashed ({_first_line(exc)})") from None
            raise PageError(f"{doc.source}: the browser could not load the page ({_first_line(exc)})") from None
        finally:
            watchdog.cancel()
            await self._release(tab, doc.source, rendered)

    async def _count_refused(self, session: CDPSession, visit: _Visit) -> None:
        """Add the fetches and beacons the page refused in itself (``_DENY_JS``) to the visit's blocked
        requests; none where scripts are off."""
        answer = await session.send("Runtime.evaluate", {"expression": f"window['{self._token}']?.()",
                                                         "returnByValue": True})
        refused = answer.get("result", {}).get("value")
        if isinstance(refused, dict):
            visit.blocked.extend(refused["urls"])
            visit.refused += refused["count"] - len(refused["urls"])

    @staticmethod
    async def _isolated_world(tab: _Tab) -> tuple[CDPSession, dict, int]:
        """The page's DevTools session, its main frame (which must hold the document served, not an
        error page) and a JavaScript world of scilabel's own in it; waits while the page's scripts are busy."""
        session = tab.session
        frame = (await session.send("Page.getFrameTree"))["frameTree"]["frame"]
        _check_document(frame, tab.visit)
        world = await session.send("Page.createIsolatedWorld", {"frameId": frame["id"], "worldName": "scilabel"})
        await _evaluate(session, world["executionContextId"], "1")
        return session, frame, world["executionContextId"]

    def _data_error(self, data: dict) -> None:
        raise _PageFault(self._too_many_nodes() if data["error"] == "nodes" else "the page removed its root element")

    def _too_many_nodes(self) -> str:
        return f"the page has over {self.limits.max_nodes} elements and text nodes (--max-nodes raises the cap)"

    @staticmethod
    def _refuse_popup(other: Page, tab: _Tab) -> None:
        if other is not tab.page:
            tab.popups += 1
            _note_blocked(tab, f"popup {other.url}")
            asyncio.ensure_future(other.close())

    def _note_console(self, text: str, tab: _Tab) -> None:
        if text.startswith(self._token):
            _note_blocked(tab, text[len(self._token):])

    def _over_memory(self) -> str:
        return f"the page took over {self.limits.memory_mb} MB of memory (--max-memory-mb raises the cap)"

    async def _watch_memory(self, visit: _Visit, task: asyncio.Task) -> None:
        """Kill a renderer whose resident memory passes the cap, and stop the render waiting on it."""
        cap = self.limits.memory_mb * 2**20
        while True:
            await asyncio.sleep(0.2)
            try:
                info = await self._browser_session.send("SystemInfo.getProcessInfo")
            except PlaywrightError:
                continue
            for process in info.get("processInfo", []):
                if process.get("type") == "renderer" and _resident_bytes(process["id"]) > cap:
                    visit.over_memory = True
                    log.warning("killing a renderer (pid %s) over %d MB", process["id"], self.limits.memory_mb)
                    with contextlib.suppress(OSError):
                        os.kill(process["id"], signal.SIGKILL)
                    task.cancel()
                    return

    async def _screenshot(self, page: Page, path: Path, height: float, warnings: list[str], name: str) -> None:
        clip = None
        if height > _MAX_SCREENSHOT_HEIGHT:
            warnings.append(f"{name}: page is {height:.0f}px tall; screenshot cut at {_MAX_SCREENSHOT_HEIGHT}px")
            clip = {"x": 0, "y": 0, "width": VIEWPORT_WIDTH, "height": _MAX_SCREENSHOT_HEIGHT}
        with atomic_path(path) as tmp:
            await page.screenshot(path=str(tmp), type="png", full_page=True, clip=clip, timeout=60_000)


def _note_blocked(tab: _Tab, what: str) -> None:
    """Count a refused request or attempt against the page being rendered (none between pages)."""
    if tab.visit is not None:
        tab.visit.blocked.append(what)


def _frame_of(request: Any) -> Any:
    """The frame a request is for; None for a new window's first navigation (its frame does not exist yet)."""
    try:
        return request.frame
    except PlaywrightError:
        return None


def _check_document(frame: dict, visit: _Visit) -> None:
    """The main frame holds the document served (at its origin; ``history.pushState`` may change the
    path), not an error page, nor ``about:blank`` after a step back in history."""
    url = frame.get("unreachableUrl") or frame.get("url", "")
    if visit.served_url is None or frame.get("unreachableUrl") or _origin(url) != _origin(visit.served_url):
        raise _PageFault(f"the page navigated away (to {url[:200]})")


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


async def _evaluate(session: CDPSession, world: int, expression: str) -> Any:
    """Evaluate in the isolated world; a script error there is a fault of the page's making."""
    answer = await session.send("Runtime.evaluate", {"expression": expression, "contextId": world,
                                                     "returnByValue": True})
    if "exceptionDetails" in answer:
        details = answer["exceptionDetails"]
        raise _PageFault(f"reading the page failed ({(details.get('exception') or {}).get('description') or details.get('text')})"[:300])
    return answer["result"].get("value")


def _resident_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


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
