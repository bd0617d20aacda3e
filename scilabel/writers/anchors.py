"""Where a sentence cites its references: the printed anchors ("[2, 3]", "(Smith et al., 2001)", "¹⁻³")
of a sentence and the reference ids each names, for the XML formats' citation links (JATS ``xref``,
TEI ``ref``)."""
from __future__ import annotations

import re
from collections.abc import Sequence

#: A printed anchor: a bracketed or parenthesised group with a digit, or a run of superscript digits.
_ANCHOR = re.compile(r"\[[^\[\]]*\d[^\[\]]*\]|\([^()]*\d[^()]*\)|[⁰¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹,⁻–\-]*")
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_RANGE = re.compile(r"(\d+)\s*[-–—]\s*(\d+)|(\d+)")
_YEAR = re.compile(r"(?:1[5-9]|20)\d\d[a-z]?")


def _numbers(anchor: str) -> list[str]:
    found: list[str] = []
    for m in _RANGE.finditer(anchor.translate(_SUPERSCRIPT)):
        if m.group(3):
            found.append(m.group(3))
        elif int(m.group(2)) - int(m.group(1)) < 100:
            found.extend(str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1))
    return found


def _named(anchor: str, ref: dict) -> bool:
    """Whether an author-year anchor names ``ref``: its first author's family name and its year."""
    family = ((ref.get("authors") or [{}])[0].get("family") or "").strip()
    year = str(ref.get("year") or "")
    return bool(family and year and family in anchor and year in _YEAR.findall(anchor))


def citation_spans(text: str, cites: Sequence[str], refs: dict[str, dict]) -> list[tuple[int, int, list[str]]]:
    """The anchors of a sentence ``text`` citing the reference ids ``cites``: ``(start, end, ids)`` for
    each anchor that names some of them (by printed number, or by first author and year), in order.
    ``refs`` maps an id to its reference (with ``label``, ``authors``, ``year``)."""
    by_label = {str(ref.get("label")): rid for rid, ref in refs.items() if ref.get("label")}
    spans = []
    for m in _ANCHOR.finditer(text):
        anchor = m.group()
        ids = [by_label[n] for n in _numbers(anchor) if by_label.get(n) in cites]
        ids += [rid for rid in cites if rid not in ids and _named(anchor, refs.get(rid, {}))]
        if ids:
            spans.append((m.start(), m.end(), list(dict.fromkeys(ids))))
    if not spans and cites:  # one anchor, named otherwise (a year alone, a footnote mark): all its cites
        anchors = list(_ANCHOR.finditer(text))
        if len(anchors) == 1:
            spans.append((anchors[0].start(), anchors[0].end(), list(cites)))
    return spans
