"""Labelling units: zones that sit side by side on one visual line, and a lone marker with the text it
marks, merged into one unit.

Some layouts split what a reader sees as one piece of text into several zones, e.g. an author name
and its superscript affiliation marker as separate flex items, or an affiliation's number in a
``<dt>`` above its text in the ``<dd>``. Labelling works on line units and
broadcasts each unit's label back to its zones; the zones themselves (and the render cache) stay as
:mod:`scilabel.zones` collected them.

Both functions take zones as columns (:data:`scilabel.features.Zones`: a frame, or arrays by column
name), and :func:`merge_units` gives its units as arrays by column name: no pandas work per call.
"""
from __future__ import annotations

import re

import numpy as np

from .features import Zones, n_rows, page_codes, run_starts, short_fullmatches, written_as_names

#: A zone holding nothing but a marker: a number ("2", "12.", "[3]"), a lower-case letter ("a", "b)"),
#: a symbol ("*", "†", "·"), or a list of numbers or letters ("1,3").
LONE_MARKER = re.compile(
    r"\s*(?:\[\d{1,3}\]|\(?\d{1,3}[.)]?|[a-z]\)?|[*†‡§¶#·•∗])"
    r"(?:\s*,\s*(?:\d{1,3}|[a-z]))*\s*")
#: Longest text :data:`LONE_MARKER` is tried on.
_MARKER_MAX_LEN = 8

#: Zone counts summed over a unit's members.
_SUMMED = ("link_chars", "sup_chars", "italic_chars")


def line_units(zones: Zones, max_gap_em: float = 1.0, marker_gap_em: float = 2.0) -> np.ndarray:
    """Unit number of every row: consecutive zones of one page join a unit when they overlap
    vertically by at least half the smaller height and the next starts at most ``max_gap_em`` font
    sizes to the right of where the previous ends. A zone holding only a marker (:data:`LONE_MARKER`:
    "2", "[3]", "b", "*") also joins the zone after it, the text it marks, when that zone is no marker
    and starts to its right or below it, at most ``marker_gap_em`` font sizes under its bottom (a
    ``<dt>`` number over its ``<dd>``); one set on its own line, indented under a name, with the text
    after it starting further left, joins that name (:func:`_marks_above`). The marker gets the label
    of what it marks. Units are numbered page by page (pages in order of first appearance), in reading
    order."""
    n = n_rows(zones)
    codes = page_codes(zones)
    by_page = np.argsort(codes, kind="stable")
    x, y, w, h, size = (np.asarray(zones[c], dtype=float)[by_page] for c in ("x", "y", "w", "h", "font_size"))
    same_page = ~run_starts(codes[by_page])[1:]
    overlap = np.minimum(y[:-1] + h[:-1], y[1:] + h[1:]) - np.maximum(y[:-1], y[1:])
    gap = x[1:] - (x[:-1] + w[:-1])
    em = np.maximum(size[:-1], size[1:])
    join = same_page & (overlap >= 0.5 * np.minimum(h[:-1], h[1:])) & (gap >= -2.0) & (gap <= max_gap_em * em)
    texts = np.asarray(zones["text"], dtype=object)[by_page]
    marker = short_fullmatches(LONE_MARKER, texts, _MARKER_MAX_LEN)
    trailing = np.r_[False, join[:-1]]  # on one line with the zone before: it marks that one ("Li Sun 1,2")
    close_below = y[1:] - (y[:-1] + h[:-1]) <= marker_gap_em * em
    join |= (same_page & marker[:-1] & ~trailing & ~marker[1:] & (y[1:] >= y[:-1] - 2.0) & (x[1:] >= x[:-1] - 2.0)
             & close_below)
    join |= _marks_above(x, y, h, size, texts, marker, same_page, close_below, join)
    units = np.empty(n, dtype=np.intp)
    units[by_page] = np.concatenate([[0], np.cumsum(~join)]) if n else []
    return units


def _marks_above(x: np.ndarray, y: np.ndarray, h: np.ndarray, size: np.ndarray, texts: np.ndarray,
                 marker: np.ndarray, same_page: np.ndarray, close_below: np.ndarray, join: np.ndarray) -> np.ndarray:
    """Whether each zone after the first is a lone marker (or run of markers, "1" then "2") set on its
    own line, indented, under a name it marks (two words or more, :func:`~scilabel.features.written_as_names`),
    with the text after it starting further left: a byline whose entries are the name, then its
    affiliation numbers on lines of their own ("Rene Bergs", "1", "Benjamin Clemens", "1", ...). A
    table's header over its column of numbers and a "Views" over its count are no names. Arrays in page
    order; ``close_below``, ``same_page`` and ``join`` (the joins found so far) are between neighbours,
    as in :func:`line_units`."""
    n = len(marker)
    if n < 2:
        return np.zeros(max(n - 1, 0), dtype=bool)
    rows = np.arange(n)
    text = np.maximum.accumulate(np.where(~marker, rows, -1))  # the last non-marker zone up to each
    after = np.minimum.accumulate(np.where(~marker, rows, n)[::-1])[::-1]  # the first from each on
    marked = np.maximum(text, 0)
    following = np.minimum(after, n - 1)
    page_of = np.r_[0, np.cumsum(~same_page)]  # page number of each zone
    ok = (marker & (text >= 0) & (page_of[marked] == page_of)
          & (y >= y[marked] + 0.5 * h[marked]) & (x > x[marked] + 0.5 * size)
          & ((after == n) | (page_of[following] != page_of) | (x[following] < x - 2.0)))
    ok[1:] &= same_page & close_below & ~join & np.r_[~join[1:], True]
    for i in np.flatnonzero(ok).tolist():
        name = str(texts[marked[i]])
        ok[i] = len(name.split()) >= 2 and written_as_names(name)
    # a run of markers joins only as far as each of its markers does
    failed = np.cumsum(marker & ~ok)
    ok &= failed == failed[marked]
    return ok[1:]


def merge_units(zones: Zones, units: np.ndarray) -> dict[str, np.ndarray]:
    """One row per unit (in unit order), as arrays by column name: texts joined by spaces, the union of
    the boxes, font of the member with the most characters, summed character counts; other columns
    (page, label ...) from that member."""
    columns = {name: np.asarray(zones[name]) for name in zones}
    n_units = int(units.max()) + 1 if len(units) else 0
    if n_units == len(units) and np.array_equal(units, np.arange(len(units))):
        return columns
    texts = list(map(str, columns["text"].tolist()))
    chars = np.fromiter(map(len, texts), dtype=float, count=len(texts))
    members = np.argsort(units, kind="stable")  # rows unit by unit, in reading order within a unit
    grouped = units[members]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    # the member with the most characters (first on ties) stands for its unit
    order = np.lexsort((np.arange(len(units)), -chars, units))
    out = {name: values[order[starts]] for name, values in columns.items()}
    x, y, w, h = (np.asarray(columns[c], dtype=float)[members] for c in ("x", "y", "w", "h"))
    out["x"], out["y"] = np.minimum.reduceat(x, starts), np.minimum.reduceat(y, starts)
    out["w"] = np.maximum.reduceat(x + w, starts) - out["x"]
    out["h"] = np.maximum.reduceat(y + h, starts) - out["y"]
    for col in _SUMMED:
        if col in columns:
            out[col] = np.bincount(units, weights=np.asarray(columns[col], dtype=float), minlength=n_units)
    ordered = [texts[i] for i in members.tolist()]
    ends = np.append(starts[1:], len(units)).tolist()
    out["text"] = np.array([" ".join(ordered[a:b]) for a, b in zip(starts.tolist(), ends)], dtype=object)
    return out
