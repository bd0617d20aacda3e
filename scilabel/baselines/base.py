"""The one interface every baseline implements, and what they share.

A baseline reads a page's HTML (no browser) and returns a :class:`BaselineResult`: text per label
for the labels it produces, the article text it extracts, and its extracted blocks. Gold annotations
(``data-scilabel*`` attributes) are stripped from the tree before any baseline looks at it.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import lxml.html
from lxml import etree

from ..readers import PageError
from ..schema import FIELD_LABELS  # the labels a baseline may fill in BaselineResult.fields

#: Elements that start a new block of text (static HTML semantics; no CSS is applied).
BLOCK_TAGS: frozenset[str] = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p pre "
    "section summary table tbody tfoot thead td th tr ul legend".split()
)
#: Elements whose content is never page text.
_DROP_TAGS = ("script", "style", "noscript", "template", "head")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_MARKUP = re.compile(r"<\s*[A-Za-z!]")
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
TagSequence = tuple[str, ...]
_GOLD_ATTRS = etree.XPath("//@*[starts-with(name(), 'data-scilabel')]")


class BaselineInputError(PageError):
    """Input a baseline cannot read as an HTML page; the message names the input and the problem."""


@dataclass
class BaselineResult:
    """What a baseline extracted from one page."""

    model: str  #: the baseline's name
    fields: dict[str, str] = field(default_factory=dict)  #: label -> text; list fields one item a line
    main_content: str = ""  #: the article text it extracts ("" if it extracts none)
    blocks: list[str] = field(default_factory=list)  #: texts of the extracted blocks, in page order
    labels: list[str] = field(default_factory=list)  #: the label of each block ("other" if unlabelled)
    extras: dict[str, Any] = field(default_factory=dict)  #: baseline-specific output (images, cases ...)


class Baseline:
    """A system compared with scilabel: ``extract(html, url)`` returns a :class:`BaselineResult`."""

    name: str = ""
    #: Labels of :data:`FIELD_LABELS` this baseline fills; the others are not scored for it.
    produces: frozenset[str] = frozenset()
    #: Whether it extracts the article's main content.
    extracts_content: bool = False
    #: Whether it learns from labelled training pages (``fit(pages)`` with ``(html, gold text per label)``).
    supervised: bool = False

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Extract from one page's HTML; ``url`` names the input in errors and helps some peers."""
        raise NotImplementedError


def parse_html(html: str, source: str | None = None) -> lxml.html.HtmlElement:
    """Parse HTML into a well-formed tree without gold attributes, scripts, styles, HEAD, comments
    and elements hidden by the ``hidden`` attribute or an inline style (``<body>`` itself is kept:
    pages often hide it until their scripts run).

    Raises :class:`BaselineInputError` for input that is not an HTML page.
    """
    root = gold_free_tree(html, source)
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, *_DROP_TAGS, with_tail=False)
    for el in root.xpath("/html/body//*[@hidden or @style]"):
        if el.get("hidden") is not None or _HIDDEN_STYLE.search(el.get("style") or ""):
            el.drop_tree()
    return root


def gold_free_tree(html: str, source: str | None = None) -> lxml.html.HtmlElement:
    """The page's whole tree without any ``data-scilabel*`` attribute (what peers are given).

    Raises :class:`BaselineInputError` for input that is not an HTML page.
    """
    return _parse(html, source or "<html string>")


def _parse(html: str, source: str) -> lxml.html.HtmlElement:
    if not isinstance(html, str):
        raise BaselineInputError(f"{source}: expected HTML text, got {type(html).__name__}")
    if "\x00" in html:
        raise BaselineInputError(f"{source}: not an HTML page (binary content)")
    if not html.strip():
        raise BaselineInputError(f"{source}: empty document")
    if not _MARKUP.search(html[:65536]):
        raise BaselineInputError(f"{source}: not an HTML page (no markup)")
    try:
        root = lxml.html.document_fromstring(_XML_DECL.sub("", html, count=1))
    except (etree.ParserError, ValueError) as exc:
        raise BaselineInputError(f"{source}: cannot parse HTML ({' '.join(str(exc).split())})") from None
    for attr in _GOLD_ATTRS(root):
        del attr.getparent().attrib[attr.attrname]
    return root


def walk_text(root: etree._Element, on_start: Callable[[etree._Element], None] | None = None,
              on_end: Callable[[etree._Element], None] | None = None,
              emit: Callable[[str, bool], None] | None = None) -> None:
    """Walk ``root`` in document order, reporting text as it reads.

    ``emit(text, in_link)`` receives every text run, and a single space at each block boundary and
    ``<br>``; ``on_start``/``on_end`` see each element as it opens and closes.
    """
    links = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            links += tag == "a"
            if on_start:
                on_start(el)
            if emit and (tag in BLOCK_TAGS or tag == "br"):
                emit(" ", False)
            if emit and el.text:
                emit(el.text, links > 0)
        else:
            if emit and tag in BLOCK_TAGS:
                emit(" ", False)
            if on_end:
                on_end(el)
            links -= tag == "a"
            if emit and el.tail and el is not root:
                emit(el.tail, links > 0)


def element_text(el: etree._Element) -> str:
    """Text of an element as a reader sees it: inline runs joined, blocks separated by a space."""
    parts: list[str] = []
    walk_text(el, emit=lambda text, _link: parts.append(text))
    return " ".join("".join(parts).split())


@dataclass(frozen=True)
class Block:
    """The text of a block element outside its nested blocks, with its tag sequence.

    The sequence lists the tags from ``<html>`` down to the block (a tag's level is its position + 1).
    """

    sequence: TagSequence
    text: str
    link_chars: int


def page_blocks(root: etree._Element, classes: bool = True) -> list[Block]:
    """The page's blocks in document order, parsed top-down; ``classes`` adds each tag's first class name."""
    path: list[str] = []
    frames: list[tuple[int, TagSequence, list[str], list[int]]] = []
    found: list[tuple[int, Block]] = []
    starts = itertools.count()

    def on_start(el: etree._Element) -> None:
        cls = (el.get("class") or "").split()
        path.append(f"{el.tag}.{cls[0]}" if classes and cls else el.tag)
        if el.tag in BLOCK_TAGS or el is root:
            frames.append((next(starts), tuple(path), [], [0]))

    def on_end(el: etree._Element) -> None:
        if el.tag in BLOCK_TAGS or el is root:
            order, seq, parts, links = frames.pop()
            text = " ".join("".join(parts).split())
            if text:
                found.append((order, Block(seq, text, links[0])))
        path.pop()

    def emit(text: str, in_link: bool) -> None:
        _, _, parts, links = frames[-1]
        parts.append(text)
        if in_link:
            links[0] += len(text.strip())

    walk_text(root, on_start, on_end, emit)
    return [block for _, block in sorted(found, key=lambda item: item[0])]


def record(result: BaselineResult, source: str, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """The result in the JSON shape of ``scilabel label`` (one zone per extracted block; what a baseline
    does not find or place, such as a zone's state and box, null); ``warnings``: the reader's."""
    from ..references.parser import unparsed_reference

    labels = result.labels or ["other"] * len(result.blocks)

    def items(label: str) -> list[str]:
        return [line.strip() for line in result.fields.get(label, "").splitlines() if line.strip()]

    return {
        "source": source,
        "model": result.model,
        "zones": [{"label": lab, "state": None, "text": text, "bbox": None, "page": None, "confidence": None}
                  for text, lab in zip(result.blocks, labels)],
        "title": result.fields.get("title") or None,
        "authors": items("authors"),
        "affiliations": items("affiliations"),
        "abstract": result.fields.get("abstract") or None,
        "references": [unparsed_reference(text) for text in items("references")],
        "anchor_format": None,
        "warnings": list(warnings),
    }
