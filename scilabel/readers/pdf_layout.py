"""From a PDF's segments (:mod:`.pdf_text`) to zones in reading order: page furniture, columns, blocks.

- **Furniture**: running heads and footers (a segment in the top or bottom :data:`MARGIN` of its page
  whose text, digits aside, comes back in the margins of another page in the same size), page
  numbers, and any text drawn at one place on :data:`FURNITURE_PAGES` pages are left out: they are
  not part of the article, and a running head would break a reference list in two.
- **Bands**: an empty strip across the whole page, :data:`BAND_GAP_EM` sizes of body type high at least,
  cuts the page into bands read one after the other (a first page's header block over its body, a
  full-width figure between two parts of the columns); each band finds its own columns.
- **Reading order**: a band's *gutter* is the vertical line, in the middle 40 % of its width, that the
  fewest segments cross; when at least :data:`COLUMN_SHARE` of the segments on either side of it (and
  three at least) have a segment of the other side beside them, the band is set in two columns.
  Segments crossing the gutter (a title, a full-width abstract, a wide figure caption) cut it into
  parts; within a part the left column is read before the right, and what the left side holds below
  the right column's foot before the next full-width segment (a short heading such as "References")
  after both. Each column is read the same way again, bands and columns, down to :data:`COLUMN_DEPTH`
  levels (a reference list in two columns within the wide column of a page with a margin column). A
  band of one column is read row by row. A zone of the right column is set :func:`column_offset` to the
  right of the left one: the features read its place within its column (on a web page, text that far
  right is a sidebar's).
- **Blocks**: consecutive segments of one column join into a block (a zone, as a paragraph is one zone
  of a web page) when they are set in one type, follow at line spacing (:data:`LINE_GAP_EM`, or the
  page's own leading in a manuscript set wide), overlap horizontally, and the line before is not short
  (a paragraph's end), unless both are centred (a title over two lines) and the line before wrapped
  (the next line's first word would not have fitted on it: else a short centred line over a longer one
  is a name over its address, unless it ends in a colon or dash, a title broken before its subtitle); a
  segment back at the block's left edge after indented lines (a hanging-indent reference) and a numbered
  or marked entry after another ("[3]", "3.", "2 Department") start a new block. A mark set alone in
  smaller type just left of a line (a note's "1" or "*" drawn apart from its text) opens that line's block.
- **Notes and paragraphs**: a note at a page's foot is read after the line that calls it
  (:func:`notes_after_calls`), and a paragraph broken off at a column's or a page's foot is one zone
  with its second part, read before the notes that stood between them (:func:`paragraphs`).
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .pdf_text import SOFT_HYPHEN, Segment

#: Share of the page height at the top and at the bottom where running heads, footers and page numbers sit.
MARGIN = 0.09
#: A text drawn at one place (within :data:`PLACE_SLACK` points) on this many pages is furniture wherever it
#: sits (a journal's logo lettering, a side stamp).
FURNITURE_PAGES = 3
PLACE_SLACK = 2.0
#: A margin text comes back on another page when set there in the same size within this share (a first
#: page's title at the top, in large type, is not the running head repeating it in small type).
SIZE_SLACK = 0.1
#: Height of an empty strip across the page, in the page's body type size (the median segment's), that cuts
#: the page into bands (:func:`bands`).
BAND_GAP_EM = 2.0
#: Lines of one block are at most this many type sizes apart, or the page's usual leading and
#: :data:`LEADING_SLACK_EM` more when it sets its text wider apart (a double-spaced manuscript).
LINE_GAP_EM = 0.5
LEADING_SLACK_EM = 0.25
#: A line at least this share of the widest line of its type on its page is full (it wrapped).
FULL_LINE = 0.9
#: A note is set smaller than this share of the page's body type, in the bottom NOTE_FOOT of the page.
NOTE_SIZE = 0.95
NOTE_FOOT = 0.4
#: Levels of columns within columns the reading order looks for (a page's two columns, a reference list
#: set in two columns within the wide one of a page with a margin column).
COLUMN_DEPTH = 2
#: Share of a page's column segments (those on one side of the gutter) that must have a segment of the
#: other column beside them for the page to be read as two columns.
COLUMN_SHARE = 0.15
#: The narrower of a page's two sides must be this share of the wider at least for the right one to be read as
#: the article's second column (:func:`column_offset`).
COLUMN_WIDTHS = 0.75
#: Points a segment may reach over the gutter and still be of one side (the reading order's sides, the
#: gutter's search and the right column's offset all use it).
GUTTER_SLACK = 1.0
_PAGE_NUMBER = re.compile(r"(?:page\s*)?[ivxlc\d]{1,5}(?:\s*(?:of|/)\s*\d{1,5})?", re.I)
_DIGITS = re.compile(r"\d+")
#: A note's opening mark: symbols, a number or a letter, then a space.
_NOTE_MARK = re.compile(r"\s*([*\u2020\u2021\u00a7\u00b6]+|\d{1,2}|[a-z])\s")
#: A segment that is only a mark (a note's number or symbol drawn apart from its text).
_LONE_MARK = re.compile(r"\s*(?:[*\u2020\u2021\u00a7\u00b6]+|\d{1,2}|[a-z])\s*")
_LEADS_ON = re.compile(r"[:\u2013\u2014-]\s*$")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*$")
#: The opening of a numbered or marked entry: "[3]", "3. ", or a marker before a capital ("1 Department",
#: "a Institute", "* Corresponding"): an affiliation or a footnote.
_NUMBERED = re.compile(r"\s*(?:\[\d{1,4}\]|\d{1,4}\.\s|(?:\d{1,2}|[a-z]|[*\u2020\u2021\u00a7\u00b6])\s*(?=[A-Z]))")


@dataclass
class PageText:
    """One page's segments and size (points)."""

    number: int  #: 1-based
    width: float
    height: float
    segments: list[Segment]


def furniture(pages: list[PageText]) -> list[np.ndarray]:
    """For each page, whether each segment is furniture (see the module docstring)."""
    keys = [[_DIGITS.sub("#", seg.text.casefold()).strip() for seg in page.segments] for page in pages]
    margins = [[_in_margin(seg, page) for seg in page.segments] for page in pages]
    seen: dict[str, list[tuple[int, float]]] = defaultdict(list)  # a margin text: the pages it is on, its sizes
    places: dict[str, list[tuple[int, float, float]]] = defaultdict(list)  # any text: page and place
    for page, page_keys, page_margins in zip(pages, keys, margins):
        for seg, key, in_margin in zip(page.segments, page_keys, page_margins):
            places[key].append((page.number, seg.x0, seg.y0))
            if in_margin:
                seen[key].append((page.number, seg.size))

    def comes_back(key: str, seg: Segment) -> bool:
        return len({n for n, size in seen[key] if abs(size - seg.size) <= SIZE_SLACK * seg.size}) > 1

    def repeated(key: str, number: int, seg: Segment) -> bool:
        same = {n for n, x, y in places[key]
                if n != number and abs(x - seg.x0) <= PLACE_SLACK and abs(y - seg.y0) <= PLACE_SLACK}
        return len(same) >= FURNITURE_PAGES - 1

    return [np.array([(in_margin and (comes_back(key, seg) or bool(_PAGE_NUMBER.fullmatch(seg.text.strip()))))
                      or repeated(key, page.number, seg)
                      for key, seg, in_margin in zip(page_keys, page.segments, page_margins)], dtype=bool)
            for page_keys, page_margins, page in zip(keys, margins, pages)]


def _in_margin(seg: Segment, page: PageText) -> bool:
    return seg.y1 <= MARGIN * page.height or seg.y0 >= (1 - MARGIN) * page.height


def bands(segments: list[Segment]) -> list[list[Segment]]:
    """A page's segments cut into bands, top to bottom, at every empty strip across the page at least
    :data:`BAND_GAP_EM` body-type sizes high."""
    if not segments:
        return []
    gap = BAND_GAP_EM * float(np.median([s.size for s in segments]))
    out: list[list[Segment]] = []
    bottom = -float("inf")
    for seg in sorted(segments, key=lambda s: (s.y0, s.x0)):
        if not out or seg.y0 - bottom >= gap:
            out.append([])
        out[-1].append(seg)
        bottom = max(bottom, seg.y1)
    return out


def reading_order(segments: list[Segment], depth: int = COLUMN_DEPTH) -> list[Segment]:
    """A band's segments in reading order (see the module docstring); each column is read the same way
    again, down to ``depth`` levels of columns within columns."""
    return read_columns(segments, _gutter(segments) if len(segments) >= 2 else None, depth)


def read_columns(segments: list[Segment], gutter: float | None, depth: int = COLUMN_DEPTH) -> list[Segment]:
    """:func:`reading_order` with the band's gutter already found (:func:`column_offset` gives it)."""
    if gutter is None or len(segments) < 2:
        return _rows(segments)

    def read(side: list[Segment]) -> list[Segment]:
        if depth <= 1:
            return _rows(side)
        return [seg for band in bands(side) for seg in reading_order(band, depth - 1)]

    ordered: list[Segment] = []
    left: list[Segment] = []
    right: list[Segment] = []
    for seg in sorted(segments, key=lambda s: (s.y0, s.x0)):
        if seg.x0 < gutter - GUTTER_SLACK and seg.x1 > gutter + GUTTER_SLACK:
            # what the left side holds below the right column's foot opens the full-width part (a heading)
            foot = max((r.y1 for r in right), default=float("inf"))
            below = [s for s in left if s.y0 >= foot]
            ordered += read([s for s in left if s.y0 < foot]) + read(right) + _rows(below) + [seg]
            left, right = [], []
        elif seg.x1 <= gutter + GUTTER_SLACK:
            left.append(seg)
        else:
            right.append(seg)
    return ordered + read(left) + read(right)


def column_offset(segments: list[Segment]) -> tuple[float | None, float]:
    """A page's gutter (None for a page of one column) and how far right of the left column's left edge
    the right column's starts: 0 for a page of one column, and when the narrower side is less than
    :data:`COLUMN_WIDTHS` of the wider (a side column, margin notes: text set apart, not the article's next column)."""
    gutter = _gutter(segments) if len(segments) >= 2 else None
    if gutter is None:
        return None, 0.0
    left = [s for s in segments if s.x1 <= gutter + GUTTER_SLACK]
    right = [s for s in segments if s.x0 >= gutter - GUTTER_SLACK]
    if not left or not right:
        return gutter, 0.0
    (left_x0, left_width), (right_x0, right_width) = (
        (min(s.x0 for s in side), max(s.x1 for s in side) - min(s.x0 for s in side)) for side in (left, right))
    if min(left_width, right_width) < COLUMN_WIDTHS * max(left_width, right_width):
        return gutter, 0.0
    return gutter, max(right_x0 - left_x0, 0.0)


def _gutter(segments: list[Segment]) -> float | None:
    """The x of a two-column page's gutter, or None for a page of one column."""
    x0 = np.array([s.x0 for s in segments])
    x1 = np.array([s.x1 for s in segments])
    lo, hi = float(x0.min()), float(x1.max())
    candidates = np.linspace(lo + 0.3 * (hi - lo), lo + 0.7 * (hi - lo), 41)
    crossing = ((x0[None, :] < candidates[:, None] - GUTTER_SLACK)
                & (x1[None, :] > candidates[:, None] + GUTTER_SLACK)).sum(axis=1)
    best = candidates[crossing == crossing.min()]
    gutter = float(best[np.argmin(np.abs(best - (lo + hi) / 2))])
    left = x1 <= gutter + GUTTER_SLACK
    right = x0 >= gutter - GUTTER_SLACK
    y0 = np.array([s.y0 for s in segments])
    y1 = np.array([s.y1 for s in segments])
    beside = (np.minimum(y1[left][:, None], y1[right][None, :]) > np.maximum(y0[left][:, None], y0[right][None, :]))
    side_by_side = int(beside.any(axis=1).sum()) if beside.size else 0
    return gutter if side_by_side >= max(3, COLUMN_SHARE * int(left.sum() + right.sum())) else None


def _rows(segments: list[Segment]) -> list[Segment]:
    """Segments row by row (a row: segments overlapping the first one's height by half), each row left to right."""
    out: list[Segment] = []
    row: list[Segment] = []
    for seg in sorted(segments, key=lambda s: (s.y0, s.x0)):
        if row and min(row[0].y1, seg.y1) - max(row[0].y0, seg.y0) < 0.5 * min(row[0].height, seg.height):
            out += sorted(row, key=lambda s: s.x0)
            row = []
        row.append(seg)
    return out + sorted(row, key=lambda s: s.x0)


def blocks(ordered: list[Segment]) -> list[list[Segment]]:
    """Consecutive segments of a page (in reading order) grouped into blocks (see the module docstring)."""
    leading = _leading(ordered)
    out: list[list[Segment]] = []
    for seg in ordered:
        if out and _joins(out[-1], seg, leading):
            out[-1].append(seg)
        else:
            out.append([seg])
    return out


def _leading(ordered: list[Segment]) -> float:
    """The page's usual white between two lines of a paragraph, in type sizes: the median gap under
    full lines (as wide as the widest of their type, within :data:`FULL_LINE`: lines that wrapped) to
    the next line of their type that they overlap, at most two sizes down; 0 with fewer than three."""
    widest: dict[float, float] = {}
    for seg in ordered:
        widest[seg.size] = max(widest.get(seg.size, 0.0), seg.width)
    gaps = [(b.y0 - a.y1) / max(a.size, 1.0) for a, b in zip(ordered, ordered[1:])
            if a.size == b.size and a.width >= FULL_LINE * widest[a.size] and b.x0 < a.x1 and b.x1 > a.x0
            and 0 <= b.y0 - a.y1 <= 2 * max(a.size, 1.0)]
    return float(np.median(gaps)) if len(gaps) >= 3 else 0.0


def _joins(block: list[Segment], seg: Segment, leading: float = 0.0) -> bool:
    last, first = block[-1], block[0]
    em = max(last.size, seg.size, 1.0)
    if len(block) == 1 and _LONE_MARK.fullmatch(last.text) and last.size < seg.size:
        beside = min(last.y1, seg.y1) - max(last.y0, seg.y0) > 0.5 * last.height
        return beside and 0 <= seg.x0 - last.x1 <= 2 * em  # a note's mark drawn apart from its text
    if abs(last.size - seg.size) > 0.06 * em or (last.weight >= 600) != (seg.weight >= 600):
        return False
    gap = seg.y0 - last.y1
    most = max(LINE_GAP_EM, leading + LEADING_SLACK_EM) * em
    if not -0.3 * em <= gap <= most or seg.x0 >= last.x1 or seg.x1 <= last.x0:
        return False
    centred = abs((last.x0 + last.x1) - (seg.x0 + seg.x1)) / 2 < 0.75 * em
    if centred and not _LEADS_ON.search(last.text) and last.width + _first_word_width(seg) + 0.5 * em < seg.width:
        return False  # the next line's first word would have fitted on this one: no wrap, a name over its address
    left, right = min(min(s.x0 for s in block), seg.x0), max(max(s.x1 for s in block), seg.x1)
    if last.x1 < right - 2 * em and not centred and (
            _SENTENCE_END.search(last.text) or last.x1 - left < 0.6 * (right - left)):
        return False  # the line before ends short, a sentence's end, or very short: a paragraph's (an entry's) end
    if seg.x0 < last.x0 - 0.5 * em and abs(seg.x0 - first.x0) < 0.5 * em and len(block) > 1:
        return False  # back at the block's edge after indented lines: the next hanging-indent entry
    if _NUMBERED.match(seg.text) and _NUMBERED.match(first.text):
        return False
    return True


def notes_after_calls(page_blocks: list[list[Segment]], page: PageText) -> tuple[list[int], set[int]]:
    """The order to read a page's blocks in: each note at its foot (smaller type than the page's body,
    no body text below it) opening with a mark ("1 Department ...", "* Correspondence ...") just after
    the first block before it whose superscripts call that mark (an author line's "Smith 1*"), the
    notes of one calling block in their own order; every other block where it is. Also the notes left
    where they are (no call found): :func:`paragraphs` reads them after a paragraph they cut."""
    order = list(range(len(page_blocks)))
    segments = [seg for block in page_blocks for seg in block]
    if not segments:
        return order, set()
    body = float(np.median(np.repeat([seg.size for seg in segments], [max(len(seg.text), 1) for seg in segments])))
    loose: set[int] = set()
    placed: dict[int, int] = defaultdict(int)  # notes already moved after a calling block: they stay first
    for n, block in enumerate(page_blocks):
        note = block[1] if len(block) > 1 and _LONE_MARK.fullmatch(block[0].text) else block[0]
        if (note.size >= NOTE_SIZE * body or note.y0 < (1 - NOTE_FOOT) * page.height
                or any(s.size >= NOTE_SIZE * body and s.y0 > note.y1 and s.x0 < note.x1 and s.x1 > note.x0
                       for s in segments)):
            continue
        mark = _NOTE_MARK.match(" ".join(s.text for s in block[:2]))
        at = order.index(n)
        caller = None if mark is None else next(
            (i for i, b in enumerate(order[:at]) if any(mark[1] in s.marks for s in page_blocks[b])), None)
        if caller is None:
            loose.add(n)
            continue
        order.pop(at)
        order.insert(caller + 1 + placed[order[caller]], n)
        placed[order[caller]] += 1
    return order, loose


def paragraphs(blocks: list[list[Segment]], pages: list[int], loose: list[bool]) -> list[list[int]]:
    """A document's blocks (in reading order, with their page numbers) grouped into zones: a paragraph
    broken off at a column's or a page's foot and carried on at the top of the next is one zone (the
    two parts in one type, the first of two lines at least, its last line full and not a sentence's
    end, the second opening in lower case), and the ``loose`` notes between its parts (a licence line,
    an editor's note at the foot) are read after it."""
    order = list(range(len(blocks)))
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and loose[order[j]]:
            j += 1
        if 0 < i < j < len(order) and not loose[order[i - 1]] and _goes_on(
                blocks[order[i - 1]], blocks[order[j]], pages[order[i - 1]] != pages[order[j]]):
            order[i:j + 1] = [order[j], *order[i:j]]
        i = j + 1
    groups: list[list[int]] = []
    for n in order:
        last = groups[-1][-1] if groups else None
        if last is not None and _goes_on(blocks[last], blocks[n], pages[last] != pages[n]):
            groups[-1].append(n)
        else:
            groups.append([n])
    return groups


def _goes_on(before: list[Segment], after: list[Segment], new_page: bool) -> bool:
    """Whether ``after``, on a new page or back up at the top of a column, carries on ``before``, a block
    of two lines at least (a table's cells are blocks of one line, read row by row or column by column)."""
    last, first = before[-1], after[0]
    em = max(last.size, first.size, 1.0)
    return ((new_page or first.y0 < last.y0) and len(before) > 1 and abs(last.size - first.size) <= 0.06 * em
            and (last.weight >= 600) == (first.weight >= 600) and first.text[:1].islower()
            and not _SENTENCE_END.search(last.text) and last.x1 >= max(s.x1 for s in before) - 2 * em)


def _first_word_width(seg: Segment) -> float:
    """About how wide a segment's first word is (its share of the segment's characters)."""
    return seg.width * len(seg.text.split(" ", 1)[0]) / max(len(seg.text), 1)


def block_text(block: list[Segment]) -> str:
    """A block's text: its segments joined by spaces, a word hyphenated at a line's end made whole."""
    text = ""
    for seg in block:
        if text.endswith(SOFT_HYPHEN):
            text = text[:-1] + seg.text
        else:
            text = f"{text} {seg.text}" if text else seg.text
    return text.replace(SOFT_HYPHEN, "-")
