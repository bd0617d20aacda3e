"""Zones as the arrays features are computed from: :class:`ZoneArrays` (texts, columns, character
counts, words, page order), each computed on first use and shared by the words, layout and cue
features and the constraints of one call."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np
import pandas as pd

from .chars import ASCII_CHAR_KIND, CAPITAL, FIGURE, SMALL, char_kind, classify, code_points
from .evidence import DECLARED_COLUMN, evidence_matrix
from .text import Tokens, cue_lines, join_for_tokens

#: The zones-frame columns features are computed from (``document``, ``page_width``, ``page_height`` and
#: the pages' declared metadata when present).
ZONE_COLUMNS = ("text", "x", "y", "w", "h", "font_size", "font_weight", "link_chars", "sup_chars", "italic_chars",
                "document", "page_width", "page_height", "column_offset", DECLARED_COLUMN)
#: Zones as features read them: a zones frame, or its columns as arrays by name (all of one length).
Zones = pd.DataFrame | Mapping[str, np.ndarray]
#: Least font weight read as bold.
BOLD_WEIGHT = 600


def short_fullmatches(pattern: re.Pattern, texts: Sequence[str], max_len: int) -> np.ndarray:
    """Whether each text (``str`` of it) is at most ``max_len`` characters long and ``pattern`` matches
    it in full; the pattern is tried on the short texts only."""
    texts = list(map(str, texts))
    found = np.zeros(len(texts), dtype=bool)
    short = np.flatnonzero(np.fromiter(map(len, texts), dtype=np.intp, count=len(texts)) <= max_len)
    found[short] = [pattern.fullmatch(texts[i]) is not None for i in short.tolist()]
    return found


def search_each(pattern: re.Pattern, texts: list[str]) -> np.ndarray:
    """Whether ``pattern`` (which never matches a newline) is found in each text: one scan of the
    texts joined by newlines."""
    ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.intp, count=len(texts)) + 1)
    found = np.zeros(len(texts), dtype=bool)
    found[np.searchsorted(ends, [m.start() for m in pattern.finditer("\n".join(texts))], side="right")] = True
    return found


def n_rows(zones: Zones) -> int:
    """Number of zones."""
    return len(zones["text"])


def page_codes(zones: Zones) -> np.ndarray:
    """Document number of every row (documents in order of first appearance)."""
    if "document" not in zones:
        return np.zeros(n_rows(zones), dtype=np.intp)
    pages = np.asarray(zones["document"])
    if len(pages) and (pages == pages[0]).all():  # one page, the common case: far cheaper than factorize
        return np.zeros(len(pages), dtype=np.intp)
    return pd.factorize(pages, sort=False)[0]


def run_starts(values: np.ndarray) -> np.ndarray:
    """Whether each value starts a run of equal values: in page order, whether a zone is its page's first."""
    starts = np.ones(len(values), dtype=bool)
    starts[1:] = values[1:] != values[:-1]
    return starts


def _ahead(values: np.ndarray, k: int) -> np.ndarray:
    """``values`` moved ``k`` places towards the start, -inf filling the end."""
    return np.concatenate([values[k:], np.full(min(k, len(values)), -np.inf)])


def _line_starts(text: str) -> np.ndarray:
    """Where each line of ``text`` starts."""
    return np.concatenate([[0], np.flatnonzero(code_points(text) == 10) + 1])


def _join_lines(texts: list[str]) -> tuple[list[str], str]:
    """``texts`` with one line each and no NULs (spaces instead), and those texts joined by newlines."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1 or "\0" in joined:
        texts = [t.replace("\n", " ").replace("\0", " ") for t in texts]
        joined = "\n".join(texts)
    return texts, joined


class ZoneArrays:
    """Zones as the arrays features are computed from (texts, columns, character counts, page
    statistics), each computed on first use, so that words and layout features of one call share them."""

    def __init__(self, zones: Zones):
        self.zones = zones
        self.n_zones = n_rows(zones)
        self._columns: dict[str, np.ndarray] = {}
        self._short_hits: dict[tuple[re.Pattern, int], np.ndarray] = {}

    @classmethod
    def of(cls, zones: Zones | ZoneArrays) -> ZoneArrays:
        """``zones`` as :class:`ZoneArrays`: itself when it is one already (its computed arrays shared)."""
        return zones if isinstance(zones, ZoneArrays) else cls(zones)

    @cached_property
    def texts(self) -> list[str]:
        return list(map(str, np.asarray(self.zones["text"], dtype=object).tolist()))

    def column(self, name: str) -> np.ndarray:
        if name not in self._columns:
            self._columns[name] = np.asarray(self.zones[name], dtype=float)
        return self._columns[name]

    @cached_property
    def _declared(self) -> list:
        return list(self.zones[DECLARED_COLUMN]) if DECLARED_COLUMN in self.zones else [None] * self.n_zones

    @cached_property
    def declares(self) -> np.ndarray:
        """Whether each zone's page declares metadata (a declared record comes with it)."""
        return np.fromiter((d is not None for d in self._declared), dtype=bool, count=self.n_zones)

    @cached_property
    def evidence(self) -> np.ndarray:
        """(n, len(EVIDENCE_FEATURES)) page-metadata evidence (:mod:`scilabel.features.evidence`); 0
        where no declared record comes with the zones."""
        return evidence_matrix(self.texts, self._declared)

    @cached_property
    def _lines(self) -> tuple[list[str], str]:
        """The texts with one line each and no NULs, and those texts joined (:func:`_join_lines`)."""
        return _join_lines(self.texts)

    @cached_property
    def token_text(self) -> str:
        """The texts as :func:`~scilabel.features.text.join_for_tokens`: lower case, one line each."""
        return join_for_tokens(self.texts)

    @cached_property
    def tokens(self) -> Tokens:
        """The texts' word tokens, shared by every vocabulary that counts them."""
        return Tokens.of(self.token_text)

    @cached_property
    def _kinds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The code points of the joined lines, :func:`~scilabel.features.chars.char_kind` of each, and the
        text each belongs to."""
        texts, joined = self._lines
        lengths = np.fromiter(map(len, texts), dtype=np.intp, count=len(texts))
        rows = np.repeat(np.arange(len(texts), dtype=np.int32), lengths + 1)[:len(joined)]
        codes = code_points(joined)
        return codes, classify(codes, ASCII_CHAR_KIND, char_kind), rows

    @cached_property
    def n_words(self) -> np.ndarray:
        """Words per text, as ``str.split`` counts them."""
        _, kinds, rows = self._kinds
        space = (kinds & 1).astype(bool)
        word_start = np.flatnonzero(~space & np.concatenate([[True], space[:-1]]))
        return np.bincount(rows[word_start], minlength=self.n_zones).astype(float)

    @cached_property
    def kind_counts(self) -> np.ndarray:
        """(n_texts, 5) characters of each kind (:data:`~scilabel.features.chars.OTHER` ..
        :data:`~scilabel.features.chars.MARK`) per text."""
        _, kinds, rows = self._kinds
        return np.bincount(rows * 5 + (kinds >> 2), minlength=5 * self.n_zones).reshape(-1, 5).astype(float)

    @cached_property
    def years(self) -> np.ndarray:
        """Years 1800-2099 not within a longer number per text: matches of the regex
        ``(?<!\\d)(?:1[89]|20)\\d\\d(?!\\d)``, i.e. runs of exactly four decimal digits starting "18", "19", "20"."""
        codes, kinds, rows = self._kinds
        decimal = np.concatenate([[False], (kinds & 2).astype(bool), np.zeros(5, dtype=bool)])  # [i + 1]: of i
        at = np.flatnonzero((codes == 49) | (codes == 50))  # "1", "2"
        second = codes[np.minimum(at + 1, len(codes) - 1)]
        lead = np.where(codes[at] == 49, (second == 56) | (second == 57), second == 48)  # 18, 19 / 20
        year = lead & ~decimal[at] & decimal[at + 3] & decimal[at + 4] & ~decimal[at + 5]
        return np.bincount(rows[at[year]], minlength=self.n_zones).astype(float)

    @cached_property
    def chars(self) -> np.ndarray:
        return np.fromiter(map(len, self.texts), dtype=float, count=len(self.texts))

    @cached_property
    def caps(self) -> np.ndarray:
        """Share of capitals among the letters of each text."""
        return self.kind_counts[:, CAPITAL] / np.maximum(self.letters, 1.0)

    @property
    def letters(self) -> np.ndarray:
        """Letters (capital or small) of each text."""
        return self.kind_counts[:, CAPITAL] + self.kind_counts[:, SMALL]

    @property
    def figures(self) -> np.ndarray:
        """Digits of each text."""
        return self.kind_counts[:, FIGURE]

    def word_cases(self, max_chars: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Words (runs of letters) in the first ``max_chars`` characters of each text: in lower case of
        three or more letters, in lower case of two or three letters, and opening with a capital."""
        codes, kinds, rows = self._kinds
        starts = self._text_starts
        lengths = np.minimum(self.chars, max_chars).astype(np.intp)
        at = np.arange(int(lengths.sum())) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
        kind = kinds[at] >> 2
        small = kind == SMALL
        letter = small | (kind == CAPITAL)
        breaks = np.ones(len(at) + 1, dtype=bool)  # [i]: no letter run goes on from i - 1 to i
        breaks[1:-1] = ~(letter[:-1] & letter[1:]) | (np.diff(at) != 1)
        first = np.flatnonzero(letter & breaks[:-1])
        size = np.flatnonzero(letter & breaks[1:]) + 1 - first
        lower = np.add.reduceat(letter & ~small, first) == 0 if len(first) else np.zeros(0, dtype=bool)
        row = rows[at[first]]

        def count(words: np.ndarray) -> np.ndarray:
            return np.bincount(row[words], minlength=self.n_zones)

        return count(lower & (size >= 3)), count(lower & (size >= 2) & (size <= 3)), count(~small[first])

    def per_char(self, counts: np.ndarray) -> np.ndarray:
        """Counts per character (at least 1) of each text."""
        return counts / np.maximum(self.chars, 1.0)

    @cached_property
    def _text_starts(self) -> np.ndarray:
        """Where each text starts in the joined texts (:attr:`_lines`)."""
        return _line_starts(self._lines[1])

    @cached_property
    def _token_text_starts(self) -> np.ndarray:
        """Where each text starts in :attr:`token_text` (lower case can change a text's length)."""
        return _line_starts(self.token_text)

    def matches(self, pattern: re.Pattern) -> np.ndarray:
        """Matches of ``pattern`` (which never spans a newline) per text, in one scan of the joined texts."""
        lines, joined = self._lines
        starts = [match.start() for match in pattern.finditer(joined)]
        rows = np.searchsorted(self._text_starts, starts, side="right") - 1
        return np.bincount(rows, minlength=len(lines)).astype(float)

    def cue_matches(self, pattern: re.Pattern, cues: tuple[str, ...], lowered: bool = False) -> np.ndarray:
        """Matches of ``pattern`` per text, searched only in texts holding one of ``cues`` (in lower case
        for ``lowered``), which every match holds: for a pattern the regex engine cannot skip ahead for.
        Where each text starts is found once per call, for all patterns."""
        lines, joined = self._lines
        counts = np.zeros(len(lines))
        spans = cue_lines(self.token_text if lowered else joined, cues)
        if spans:
            starts = self._token_text_starts if lowered else self._text_starts
            for row in (np.searchsorted(starts, [start for start, _ in spans], side="right") - 1).tolist():
                counts[row] = len(pattern.findall(lines[row]))
        return counts

    def opening(self, pattern: re.Pattern) -> np.ndarray:
        """1 for a text that ``pattern`` matches at its start, else 0."""
        return np.fromiter((1.0 if pattern.match(t) else 0.0 for t in self._lines[0]), dtype=float,
                           count=self.n_zones)

    @cached_property
    def pages(self) -> np.ndarray:
        """Page number of each zone (:func:`page_codes`)."""
        return page_codes(self.zones)

    @cached_property
    def by_page(self) -> np.ndarray:
        """Row positions page by page (reading order within a page)."""
        return np.argsort(self.pages, kind="stable")

    @cached_property
    def page_starts(self) -> np.ndarray:
        """In page order (:attr:`by_page`), whether each zone is the first of its page."""
        return run_starts(self.pages[self.by_page])

    @cached_property
    def page_positions(self) -> np.ndarray:
        """Each zone's position in page order (the inverse of :attr:`by_page`)."""
        positions = np.empty(len(self.by_page), dtype=np.intp)
        positions[self.by_page] = np.arange(len(self.by_page))
        return positions

    @cached_property
    def not_links(self) -> np.ndarray:
        """Whether under half of each zone's characters are in links (not a tab, a menu item or a table
        of contents entry)."""
        return self.per_char(self.column("link_chars")) < 0.5

    def follows(self, mask: np.ndarray) -> np.ndarray:
        """Whether each zone's previous zone on its page (in reading order) is one of ``mask``."""
        order = self.by_page
        out = np.zeros(self.n_zones, dtype=bool)
        out[order[1:]] = ~self.page_starts[1:] & np.asarray(mask, dtype=bool)[order[:-1]]
        return out

    def in_block(self, opens: np.ndarray, ends: np.ndarray, max_zones: int | None = None) -> np.ndarray:
        """Whether each zone lies after a zone of ``opens`` on its page with no zone of ``ends`` between
        them (``ends`` holds ``opens``), and at most ``max_zones`` zones after it when given."""
        order = self.by_page
        position = np.arange(len(order))
        last = np.maximum.accumulate(np.where(np.asarray(ends, dtype=bool)[order] | self.page_starts, position, 0))
        inside = np.asarray(opens, dtype=bool)[order][last] & (last != position)
        if max_zones is not None:
            inside &= position - last <= max_zones
        out = np.zeros(self.n_zones, dtype=bool)
        out[order] = inside
        return out

    def max_before(self, values: np.ndarray) -> np.ndarray:
        """Per zone, the largest of ``values`` (none negative) over the zones before it on its page
        (in reading order); 0 for a page's first zone."""
        order, starts = self.by_page, self.page_starts
        ordered = np.asarray(values, dtype=float)[order]
        # a running maximum per page: pages lifted one above another
        lift = np.cumsum(starts) * (1.0 + (ordered.max() if len(ordered) else 0.0))
        before = np.empty(len(ordered))
        before[:1] = 0.0
        before[1:] = (np.maximum.accumulate(ordered + lift) - lift)[:-1]
        before[starts] = 0.0
        out = np.empty(len(ordered))
        out[order] = before
        return out

    def max_after(self, values: np.ndarray, window: int) -> np.ndarray:
        """Per zone, the largest of ``values`` (none negative) over the next ``window`` zones on its page
        (in reading order); 0 for a page's last zone."""
        order = self.by_page
        n = len(order)
        out = np.zeros(n)
        if n < 2 or window < 1:
            return out
        ordered = np.asarray(values, dtype=float)[order]
        # pages lowered one below another, so that a later page's zones never win
        lift = (ordered.max() + 1.0) * self.pages[order]
        ahead = np.append(ordered[1:] - lift[1:], -np.inf)  # ahead[i]: the zone after zone i
        # maxima over spans of 1, 2, 4 ... zones ahead, then two spans cover the window
        span = 1
        while 2 * span <= window:
            ahead = np.maximum(ahead, _ahead(ahead, span))
            span *= 2
        out[order] = np.maximum(np.maximum(ahead, _ahead(ahead, window - span)) + lift, 0.0)
        return out

    @cached_property
    def n_pages(self) -> int:
        """Number of pages."""
        return int(self.pages.max()) + 1 if len(self.pages) else 0

    @cached_property
    def order_rel(self) -> np.ndarray:
        """Reading-order position of each zone within its page, from 0 to 1."""
        codes, by_page = self.pages, self.by_page
        order = np.empty(len(codes))
        order[by_page] = np.arange(len(codes)) - np.searchsorted(codes[by_page], codes[by_page])
        n_zones = np.bincount(codes, minlength=self.n_pages).astype(float)
        return order / np.maximum(n_zones[codes] - 1, 1.0)

    @cached_property
    def font_rel(self) -> np.ndarray:
        """Font size relative to the page's body size: the size carrying most characters on the page."""
        size, codes = self.column("font_size"), self.pages
        if len(size) == 0:
            return size
        sizes, size_codes = np.unique(size, return_inverse=True)
        weight = np.zeros((self.n_pages, len(sizes)))
        np.add.at(weight, (codes, size_codes), self.chars)
        body_size = sizes[weight.argmax(axis=1)][codes]
        return size / np.where(body_size > 0, body_size, 16.0)


    def page_height(self) -> np.ndarray:
        """The frame's page height, else the bottom of the page's lowest zone."""
        if "page_height" in self.zones:
            return self.column("page_height")
        bottom = np.zeros(self.n_pages)
        np.maximum.at(bottom, self.pages, self.column("y") + self.column("h"))
        return bottom[self.pages]

    def page_width(self) -> np.ndarray:
        return self.column("page_width") if "page_width" in self.zones else np.full(self.n_zones, 1280.0)

    @cached_property
    def left(self) -> np.ndarray:
        """Each zone's x within its text column: ``x`` less the frame's ``column_offset`` where it has one
        (the right column of a PDF page set in two columns reads like the left one, not like a sidebar)."""
        if "column_offset" not in self.zones:
            return self.column("x")
        return self.column("x") - np.nan_to_num(self.column("column_offset"))

    @cached_property
    def bold(self) -> np.ndarray:
        """Whether each zone is set in bold type (weight :data:`BOLD_WEIGHT` or more)."""
        return self.column("font_weight") >= BOLD_WEIGHT

    def found_in_short(self, pattern: re.Pattern, max_words: int) -> np.ndarray:
        """Whether each zone is a short text (at most ``max_words`` words) in which ``pattern`` is found
        (computed once per pattern and bound)."""
        key = (pattern, max_words)
        if key not in self._short_hits:
            hit = np.zeros(self.n_zones, dtype=bool)
            short = np.flatnonzero(self.n_words <= max_words)
            hit[short] = search_each(pattern, [self.texts[i] for i in short.tolist()])
            self._short_hits[key] = hit
        return self._short_hits[key]
