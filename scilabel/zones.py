"""Component zones of a rendered page: the CollectComponentZones procedure (Zou, Le & Thoma 2007).

Consecutive inline nodes (bare text included) merge into one zone; every line-break node (a box
that starts a new line: block, list item, table cell, flex or grid container ...) and every
``<br>`` ends the current zone; whitespace-only zones are trivial and dropped. Inline versus
line-break is decided by the computed CSS ``display``, never by the tag name, and hidden content
(``display:none``, ``visibility:hidden``, clipped or zero-size, off-page) contributes nothing.

This module is the only place that looks at tags; gold annotations (``data-scilabel*``) are read
here into the zone's gold fields and go no further.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:  # types only: the HTML reader imports this module
    from .readers.render import Node, RenderedPage

#: Computed ``display`` values whose boxes flow inside a line; every other value breaks lines.
INLINE_DISPLAYS = frozenset(
    {"inline", "inline-block", "inline-flex", "inline-grid", "inline-table", "contents",
     "ruby", "ruby-base", "ruby-text", "ruby-base-container", "ruby-text-container", "math"}
)
#: Computed ``display`` values of MathML boxes: their children are laid out by the formula, whatever
#: their own display ("block math" for every token of an inline formula), and break no line.
MATH_DISPLAYS = frozenset({"math", "block math", "inline math"})
LABEL_ATTR = "data-scilabel"
#: Marks a generated page's translation of a component (:mod:`scilabel.corpus.translations`).
TRANSLATION_ATTR = "data-scilabel-translation"
#: Classes of an element kept in its :func:`_step` (a page's class lists can be long).
STEP_CLASSES = 3
_DIGITS = re.compile(r"[0-9]+")


@dataclass
class Zone:
    """A component zone: a run of inline content laid out together."""

    text: str  #: whitespace-normalised text
    bbox: tuple[float, float, float, float]  #: x, y, w, h in document CSS px (1280 px viewport)
    font_size: float  #: dominant (most characters) font size in px
    font_weight: int  #: dominant font weight
    tag_path: str  #: tags from the root to the zone's container, e.g. "html/body/div/p"
    node_path: str  #: DOM indices of the same elements, e.g. "0/2/9/40": which boxes two zones share
    class_path: str  #: the same elements with their classes and id, numbers blanked (:func:`_step`)
    dom_index: int  #: DOM-order index of the zone's first text node
    link_chars: int = 0  #: characters inside links
    sup_chars: int = 0  #: characters inside superscripts
    italic_chars: int = 0  #: characters in italic type
    lead_chars: int = 0  #: length of the text's opening run set bolder or in another slant than the rest (run-in title)
    label: str | None = None  #: gold label, None when the page carries no annotations
    content: bool = False  #: gold: part of the article content
    struct: str | None = None  #: gold structure role (section heading, paragraph, caption ...)
    ref_id: str | None = None  #: gold: id of the reference entry this zone belongs to
    cites: tuple[str, ...] = field(default_factory=tuple)  #: gold: reference ids cited in the zone
    #: gold: the component this zone prints in another language (``title``, ``abstract_heading``,
    #: ``abstract``: a bilingual page's translations, labelled ``other``), else None
    translation: str | None = None


class _Walk:
    """Per-node facts computed once, top-down (nodes are in pre-order, parents first)."""

    def __init__(self, nodes: list[Node]):
        n = len(nodes)
        self.depth = [0] * n
        self.label: list[str | None] = [None] * n
        self.content = [False] * n
        self.struct: list[str | None] = [None] * n
        self.ref_id: list[str | None] = [None] * n
        self.translation: list[str | None] = [None] * n
        self.in_link = [False] * n
        self.in_sup = [False] * n
        self.annotated = False
        self.cited = False  #: whether any element names cited references (``data-scilabel-cite``)
        self.ancestry: dict[int, tuple[str, str, str]] = {}  #: :func:`_ancestry` of each element met
        for node in nodes:
            i, p = node.index, node.parent
            if p >= 0:
                self.depth[i] = self.depth[p] + 1
                self.label[i], self.content[i], self.struct[i] = self.label[p], self.content[p], self.struct[p]
                self.ref_id[i], self.in_link[i], self.in_sup[i] = self.ref_id[p], self.in_link[p], self.in_sup[p]
                self.translation[i] = self.translation[p]
            if node.is_text:
                continue
            attrs = node.attrs
            if LABEL_ATTR in attrs:
                self.label[i] = attrs[LABEL_ATTR].strip() or None
                self.annotated = True
            if "data-scilabel-cite" in attrs:
                self.cited = True
            if attrs.get("data-scilabel-content") == "1":
                self.content[i] = True
            self.struct[i] = attrs.get("data-scilabel-struct", self.struct[i])
            self.ref_id[i] = attrs.get("data-scilabel-ref", self.ref_id[i]) or None
            self.translation[i] = attrs.get(TRANSLATION_ATTR, self.translation[i]) or None
            self.in_link[i] = self.in_link[i] or (node.tag == "a" and "href" in attrs)
            self.in_sup[i] = self.in_sup[i] or node.tag == "sup"


def collect_zones(page: RenderedPage) -> list[Zone]:
    """Collect the non-trivial component zones of a rendered page, in DOM order."""
    nodes = page.nodes
    if not nodes:
        return []
    children: list[list[int]] = [[] for _ in nodes]
    for node in nodes:
        if node.parent >= 0:
            children[node.parent].append(node.index)
    facts = _Walk(nodes)
    zones: list[Zone] = []
    run: list[int] = []  # text node indices of the zone being built

    def flush() -> None:
        if run:
            zone = _make_zone(nodes, run, facts)
            if zone is not None:
                zones.append(zone)
            run.clear()

    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        i, leaving = stack.pop()
        if leaving:
            flush()
            continue
        node = nodes[i]
        if node.is_text:
            if _visible_text(node, nodes):
                run.append(i)
            elif run and node.text.strip():
                run.append(-1)  # hidden words still take space between their neighbours
            elif run:
                run.append(i)  # whitespace between inline pieces
            continue
        if node.display == "none" or node.clipped:
            continue
        if node.tag == "br":
            flush()
            continue
        breaks = node.display not in INLINE_DISPLAYS and (
            node.parent < 0 or nodes[node.parent].display not in MATH_DISPLAYS)
        if breaks:
            flush()
            stack.append((i, True))
        stack.extend((c, False) for c in reversed(children[i]))
    flush()
    if not facts.annotated:
        for zone in zones:
            zone.label = None
    return zones


def _visible_text(node: Node, nodes: list[Node]) -> bool:
    x, y, w, h = node.bbox
    if w <= 0 or h <= 0 or x + w <= 0 or y + h <= 0:
        return False
    parent = nodes[node.parent]
    return parent.visibility == "visible"


def _make_zone(nodes: list[Node], run: list[int], facts: _Walk) -> Zone | None:
    text = " ".join(_join_run(nodes, run, facts.in_sup).split())
    if not text:
        return None
    texts = [i for i in run if i >= 0 and nodes[i].bbox[2] > 0]
    x0 = min(nodes[i].bbox[0] for i in texts)
    y0 = min(nodes[i].bbox[1] for i in texts)
    x1 = max(nodes[i].bbox[0] + nodes[i].bbox[2] for i in texts)
    y1 = max(nodes[i].bbox[1] + nodes[i].bbox[3] for i in texts)
    sizes: dict[float, int] = {}
    weights: dict[int, int] = {}
    labels: dict[str, int] = {}
    translated: dict[str | None, int] = {}
    link = sup = italic = 0
    content_chars = 0
    for i in texts:
        n_chars = len(nodes[i].text.strip())
        style = nodes[nodes[i].parent]
        sizes[style.font_size] = sizes.get(style.font_size, 0) + n_chars
        weights[style.font_weight] = weights.get(style.font_weight, 0) + n_chars
        label = facts.label[i] or "other"
        labels[label] = labels.get(label, 0) + n_chars
        translated[facts.translation[i]] = translated.get(facts.translation[i], 0) + n_chars
        link += n_chars * facts.in_link[i]
        sup += n_chars * facts.in_sup[i]
        italic += n_chars * (style.font_style == "italic")
        content_chars += n_chars * facts.content[i]
    first = texts[0]
    lead = _lead_run(nodes, texts, text)
    container = _common_ancestor(nodes, facts.depth, [nodes[i].parent for i in texts])
    tag_path, node_path, class_path = _ancestry(nodes, container, facts.ancestry)
    return Zone(
        text=text,
        bbox=(x0, y0, x1 - x0, y1 - y0),
        font_size=max(sizes, key=sizes.__getitem__),
        font_weight=max(weights, key=weights.__getitem__),
        tag_path=tag_path,
        node_path=node_path,
        class_path=class_path,
        dom_index=first,
        link_chars=link,
        sup_chars=sup,
        italic_chars=italic,
        lead_chars=lead,
        label=max(labels, key=labels.__getitem__),
        content=2 * content_chars > sum(labels.values()),
        struct=facts.struct[first],
        ref_id=facts.ref_id[first],
        cites=_cited_ids(nodes, run) if facts.cited else (),
        translation=max(translated, key=translated.__getitem__),
    )


def _emphasis(node: Node) -> tuple[bool, bool]:
    return node.font_weight >= 600, node.font_style == "italic"


def _lead_run(nodes: list[Node], texts: list[int], text: str) -> int:
    """Length in the zone's ``text`` of its opening run of text nodes set bolder or in another slant
    than the zone's last text node, when other text follows it (a run-in title: "**Statistical
    analysis.** Data were ..."); 0 otherwise."""
    first = _emphasis(nodes[nodes[texts[0]].parent])
    last = _emphasis(nodes[nodes[texts[-1]].parent])
    if not (first[0] > last[0] or first[1] > last[1]):
        return 0
    run = []
    for i in texts:
        if _emphasis(nodes[nodes[i].parent]) != first:
            break
        run.append(nodes[i].text)
    lead = " ".join(" ".join(run).split())
    return len(lead) if lead and len(lead) < len(text) and text.startswith(lead) else 0


def _join_run(nodes: list[Node], run: list[int], in_sup: list[bool]) -> str:
    """Concatenate a run's text, adding a space where the layout (not the text) separates two words:
    a visible gap, or the edge of a superscript (author and footnote markers: "Naeije<sup>a</sup>")."""
    pieces: list[str] = []
    previous: int | None = None
    for i in run:
        if i < 0:
            pieces.append(" ")
            continue
        node = nodes[i]
        if previous is not None and node.bbox[2] > 0 and pieces and not pieces[-1][-1:].isspace() \
                and not node.text[:1].isspace() and (
                    _visual_gap(nodes[previous], node, nodes)
                    or (in_sup[previous] != in_sup[i] and pieces[-1][-1:].isalnum() and node.text[:1].isalnum())):
            pieces.append(" ")
        pieces.append(node.text)
        if node.bbox[2] > 0:
            previous = i
    return "".join(pieces)


def _visual_gap(a: Node, b: Node, nodes: list[Node]) -> bool:
    """True when text box ``b`` starts clearly apart from ``a``: on a lower line or after a gap."""
    ax, ay, aw, ah = a.bbox
    bx, by, _, _ = b.bbox
    if by >= ay + ah - 1:
        return True
    font = nodes[b.parent].font_size or 16.0
    return bx - (ax + aw) > 0.2 * font


def _common_ancestor(nodes: list[Node], depth: list[int], indices: list[int]) -> int:
    lca = indices[0]
    for j in indices[1:]:
        a, b = lca, j
        while depth[a] > depth[b]:
            a = nodes[a].parent
        while depth[b] > depth[a]:
            b = nodes[b].parent
        while a != b:
            a, b = nodes[a].parent, nodes[b].parent
        lca = a
    return lca


def _ancestry(nodes: list[Node], index: int, known: dict[int, tuple[str, str, str]]) -> tuple[str, str, str]:
    """The tags, the DOM indices and the :func:`_step` of the elements from the root to ``index``:
    ``tag_path``, ``node_path``, ``class_path`` (``known`` holds those already built, of any element,
    and gains each one built here)."""
    chain = []
    while index >= 0 and index not in known:
        chain.append(index)
        index = nodes[index].parent
    tags, path, classes = known[index] if index >= 0 else ("", "", "")
    for i in reversed(chain):
        step = _step(nodes[i])
        tags, path, classes = ((f"{tags}/{nodes[i].tag}", f"{path}/{i}", f"{classes}/{step}") if path
                               else (nodes[i].tag, str(i), step))
        known[i] = (tags, path, classes)
    return tags, path, classes


def _step(node: Node) -> str:
    """An element as a template names it: tag, its first :data:`STEP_CLASSES` classes and its id
    (``li.c-author#author-0``), the classes and id lower-cased with each run of digits written 0, so
    that numbered items of one template read alike."""
    classes = node.attrs.get("class", "").split()[:STEP_CLASSES]
    ident = node.attrs.get("id", "").strip()
    named = "".join(f".{c}" for c in classes) + (f"#{ident}" if ident else "")
    return node.tag + _DIGITS.sub("0", named.lower().replace("/", "_"))


def _cited_ids(nodes: list[Node], run: list[int]) -> tuple[str, ...]:
    """Reference ids named by ``data-scilabel-cite`` on the ancestors of the zone's text nodes."""
    seen: dict[str, None] = {}
    visited: set[int] = set()
    for i in run:
        j = nodes[i].parent if i >= 0 else -1
        while j >= 0 and j not in visited:
            visited.add(j)
            for ref in nodes[j].attrs.get("data-scilabel-cite", "").split():
                seen.setdefault(ref)
            j = nodes[j].parent
    return tuple(seen)


def zones_frame(zones: list[Zone], page: RenderedPage) -> pd.DataFrame:
    """The zones frame of a rendered page (:mod:`scilabel.readers.base`), one row per zone: its
    ``document`` (the page's source) and ``page`` (1: a web page is one page), the zone's fields with
    the bbox split into x, y, w, h, and the page's width and height."""
    fields = [f for f in Zone.__dataclass_fields__ if f not in ("bbox", "cites")]
    data = {f: [getattr(zone, f) for zone in zones] for f in fields}  # not asdict: it deep-copies every value
    data["cites"] = [" ".join(zone.cites) for zone in zones]
    for i, axis in enumerate("xywh"):
        data[axis] = [zone.bbox[i] for zone in zones]
    frame = pd.DataFrame(data if zones else [], columns=[*fields, "cites", "x", "y", "w", "h"])
    frame.insert(0, "document", page.source)
    frame.insert(1, "page", 1)
    frame["page_width"] = page.width
    frame["page_height"] = page.height
    return frame
