"""Building the XML formats with lxml: well-formed UTF-8, characters XML cannot hold dropped."""
from __future__ import annotations

import re

from lxml import etree

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: object) -> str:
    """``text`` as a string XML can hold (control characters dropped)."""
    return _NOT_XML.sub("", str(text))


def sub(parent: etree._Element, tag: str, text: object = None, **attrs: object) -> etree._Element:
    """A child element; attributes and text that are None or empty are left out."""
    el = etree.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items() if v not in (None, "")})
    if text not in (None, ""):
        el.text = xml_text(text)
    return el


def leaf(parent: etree._Element, tag: str, text: object, **attrs: object) -> None:
    """A text element, left out when there is no text."""
    if text not in (None, ""):
        sub(parent, tag, text, **attrs)


def append_text(el: etree._Element, text: str) -> None:
    """Add ``text`` at the end of ``el``'s mixed content (after its last child, if any)."""
    if not text:
        return
    if len(el):
        el[-1].tail = (el[-1].tail or "") + xml_text(text)
    else:
        el.text = (el.text or "") + xml_text(text)


def document(root: etree._Element, doctype: str | None = None) -> str:
    """The tree as a pretty-printed document with an XML declaration (UTF-8) and ``doctype``, if given."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True,
                          doctype=doctype).decode("utf-8")
