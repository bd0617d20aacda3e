"""Gold for text that a platform's own template prints (escaped, repeated, moved where it likes).

A string is handed to the template wrapped in private-use sentinels that name its gold attributes
(:meth:`Marks.mark`); on the rendered page (:meth:`Marks.apply`) every wrapped run of text becomes an
element carrying them. The sentinels are removed, leaving no gold, from ``<head>``, attributes and
comments, where the template may also print the string, and from markup the page never shows (the
``hidden`` attribute, inline ``display: none``, :data:`SCREEN_READER_CLASSES`). A gold element that
is all its parent holds passes its attributes up to it, so the page keeps the platform's own markup.
A sentinel the template cut apart in the body (truncation, a link wrapped into the string) leaves a
stray mark: the page is refused (:class:`GoldError`) rather than given wrong gold.
"""
from __future__ import annotations

import html
import re
from collections.abc import Mapping

from lxml import etree
from lxml import html as lxml_html
from scilabel.corpus.platforms.markup import PageDropped

_OPEN, _SEP, _CLOSE = "\ue000", "\ue001", "\ue002"
_RUN = re.compile(f"{_OPEN}(\\d+){_SEP}([^{_OPEN}{_SEP}{_CLOSE}]*){_CLOSE}")
_STRAY = re.compile(f"{_OPEN}\\d*{_SEP}?|{_SEP}|{_CLOSE}")
#: Gold attribute names (``data-scilabel``, ``data-scilabel-ref`` ...).
GOLD_PREFIX = "data-scilabel"
#: Classes that platforms give text meant for screen readers only: a mark inside is no gold (the page
#: does not show it; unstyled, it is a repeat of what the page shows elsewhere).
SCREEN_READER_CLASSES = frozenset({"sr-only", "visually-hidden", "pkp_screen_reader", "screen-reader-text"})
#: Inline wrappers a gold element may pass its attributes up to when it is their only content.
_WRAPPERS = frozenset({"span", "a", "strong", "b", "em", "i", "cite", "h1", "h2", "h3", "div", "p", "li", "dd"})


class GoldError(PageDropped):
    """A page's gold cannot be set exactly (a marked string cut apart, text the page cannot show):
    the corpus generator drops the page and logs why."""


class Marks:
    """Sentinel-wrapped strings for one page and the gold attributes each stands for."""

    def __init__(self) -> None:
        self._attrs: list[dict[str, str]] = []
        self._elements: dict[str, dict[str, str]] = {}

    def mark(self, text: str, attrs: Mapping[str, str]) -> str:
        """``text`` wrapped so that wherever the template prints it, it carries ``attrs``."""
        self._attrs.append(dict(attrs))
        return f"{_OPEN}{len(self._attrs) - 1}{_SEP}{text}{_CLOSE}"

    def mark_element(self, element_id: str, attrs: Mapping[str, str]) -> None:
        """Give the page's element ``id="element_id"`` (the platform's own container: a section, a
        reference entry) the gold ``attrs``; the page is refused if it has no such element."""
        self._elements[element_id] = dict(attrs)

    def apply(self, page: str) -> str:
        """The rendered page with every marked run as a gold element and no sentinel left."""
        root = lxml_html.document_fromstring(page)
        body = root.find("body")
        in_body = set() if body is None else set(body.iter())
        shown = {n for n in in_body if not _not_shown(n)}
        for node in root.iter():
            if isinstance(node.tag, str):
                for name, value in node.attrib.items():
                    node.set(name, strip(value))
            if node in shown and isinstance(node.tag, str) and node.tag not in ("script", "style"):
                self._split(node, "text")
            else:
                node.text = strip(node.text)
            if node in in_body and node is not body and node.getparent() in shown:
                self._split(node, "tail")
            else:
                node.tail = strip(node.tail)
        for node in [] if body is None else list(body.iter()):
            if isinstance(node.tag, str) and any(k.startswith(GOLD_PREFIX) for k in node.attrib):
                _pass_up(node)
        for element_id, attrs in self._elements.items():
            found = root.xpath("//body//*[@id=$id]", id=element_id)
            if len(found) != 1:
                raise GoldError(f"{len(found)} elements with id {element_id!r} on the page")
            for name, value in attrs.items():
                found[0].set(name, value)
        out = lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")
        stray = _STRAY.search(out)
        if stray:
            near = strip(out[max(0, stray.start() - 60):stray.end() + 60])
            raise GoldError(f"a marked string was cut apart near {near!r}")
        return out + "\n"

    def _split(self, node: etree._Element, where: str) -> None:
        """Turn the marked runs in ``node.text`` or ``node.tail`` into gold ``span`` elements."""
        text = getattr(node, where)
        if not text or _OPEN not in text:
            return
        pieces = _RUN.split(text)  # text, index, inner, text, index, inner, ..., text
        setattr(node, where, pieces[0])
        spans = []
        for i in range(1, len(pieces), 3):
            span = etree.Element("span", self._attrs[int(pieces[i])])
            span.text, span.tail = pieces[i + 1], pieces[i + 2]
            spans.append(span)
        parent, at = (node, 0) if where == "text" else (node.getparent(), node.getparent().index(node) + 1)
        for offset, span in enumerate(spans):
            parent.insert(at + offset, span)


def strip(text: str | None) -> str | None:
    """``text`` without sentinels, whole or cut apart (for places where a marked string is no gold:
    ``<head>``, attributes, comments, text for screen readers)."""
    if not text or not any(c in text for c in (_OPEN, _SEP, _CLOSE)):
        return text
    return _STRAY.sub("", _RUN.sub(lambda m: m.group(2), text))


_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.I)


def _not_shown(node: etree._Element) -> bool:
    """Inside markup the page never shows: the ``hidden`` attribute, an inline ``display: none`` or a
    screen-reader-only class."""
    return any(
        n.get("hidden") is not None or _DISPLAY_NONE.search(n.get("style") or "")
        or set((n.get("class") or "").split()) & SCREEN_READER_CLASSES
        for n in (node, *node.iterancestors()) if isinstance(n.tag, str)
    )


def _pass_up(node: etree._Element) -> None:
    """Move a gold ``span``'s attributes to its parent when it is all the parent holds (and unwrap it)."""
    parent = node.getparent()
    if node.tag != "span" or any(not k.startswith(GOLD_PREFIX) for k in node.attrib):
        return
    if parent is None or parent.tag not in _WRAPPERS or len(parent) != 1:
        return
    if (parent.text or "").strip() or (node.tail or "").strip():
        return
    if any(k.startswith(GOLD_PREFIX) for k in parent.attrib):
        return
    for name, value in node.attrib.items():
        parent.set(name, value)
    parent.text = node.text
    for child in list(node):
        parent.append(child)
    parent.remove(node)


_ATTR = re.compile(r'\s*([\w-]+)="([^"]*)"')


def attrs_of(markup: str) -> dict[str, str]:
    """The attributes of a gold attribute string (:func:`~scilabel.corpus.templates.base.lab`,
    :func:`~scilabel.corpus.templates.base.ref_attrs` ...) as a mapping."""
    return {k: html.unescape(v) for k, v in _ATTR.findall(markup)}
