"""Splitting the references zones of a page into reference literals (one string per entry).

A page's list structure shows in its zones: one zone per list item, a number zone beside each
entry (``<dt>1.</dt><dd>..</dd>``, table cells), look-up link zones under it ("[PubMed] Google
Scholar"). Where there is no such structure the text and geometry decide: numbering patterns (also
inside one zone, for a ``<p>`` holding the whole list), hanging indents and line continuations (a
``<p>`` with ``<br>`` per line), and columns (a jump back up the page starts a new column).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from os.path import commonprefix  # of any sequences: the DOM ancestors two zones share

import numpy as np
import pandas as pd

from ..lexicons import alternation
from .names import PARTICLES

#: A printed entry label at the start of a piece of text: "[12]", "(12)", "12.", "12)", "12 A", "10a", "^".
_LABEL = re.compile(
    r"^\s*(?:\[(\d{1,4}[a-z]?)\]|\((\d{1,4}[a-z]?)\)|(\d{1,4}[a-z]?)[.)](?=\s|[^\W\d_]|$)"
    r"|(\d{1,3}[a-z]?)(?=\s+[A-Z]|[A-ZÀ-Þ][^\W\d_])|\^)\s*"
)
#: A number glued to the entry ("28van Dongen", "6D'Arcy"): trusted only in a numbered list.
_GLUED_LABEL = re.compile(r"^\s*(\d{1,4})\s*(?=[^\s\d.,;:–-])")
#: Punctuation that opens a piece after a volume or page number (", 299–306", ": 408", "(2008").
_FIELD_PUNCT = re.compile(r"^\s*[,;:.)(]")
_LABEL_ONLY = re.compile(r"^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)]?|\^|[•*–-])\s*$")
#: Back links from a reference entry to where it is cited.
_BACK_LINKS = "↩|↑|↵"
#: Link furniture (the lexicon ``reference_links``, back links) that belongs to the entry above it but
#: is not part of the reference.
_FURNITURE = re.compile(rf"^(?:\s*(?:\[?{alternation('reference_links')}\]?|{_BACK_LINKS}|\^)[\s,|/]*)+$")
#: The furniture cut off the end of an entry's text (the lexicon ``reference_links_trailing``).
_TRAILING = alternation("reference_links_trailing")
TRAILING_FURNITURE = re.compile(rf"(?:\s*(?:{_BACK_LINKS}|\[{_TRAILING}\]|{_TRAILING}))+\s*$")
#: Numbered entries inside one zone: a label after the end of the previous entry.
_INNER_LABEL = re.compile(r"(?<=[.\s])\s*(?:\[(\d{1,4})\]|(\d{1,4})\.)\s+(?=\S)")
#: A line ending in an initial ("M."): a name goes on on the next line.
_INITIAL_END = re.compile(r"(?:^|\s)[A-Z]\.$")
#: A publication year: an entry has one, a piece of an entry often has none.
_YEAR = re.compile(r"(?<!\d)(?:1[6-9]|20)\d\d(?!\d)")
#: The dash that stands for the authors of the entry before ("--.", "———"): it opens an entry.
_REPEATED_AUTHOR = re.compile(r"^\s*(?:-{2,}|[—–]+|_{2,})")
#: Dashes that end a line inside a number range ("203-" / "205.").
_RANGE_DASHES = ("-", "–", "−")
#: A piece opening with a closing bracket or the end of a number range (") Episodic ...", "–489."):
#: never an entry's start.
_RUNS_ON = re.compile(r"^\s*(?:[)\]]|[–−-]\s*\d)")
#: An opening bracket ending a piece ("Aggleton JP, Brown MW ("): the entry goes on in the next piece.
_OPEN_END = re.compile(r"[(\[]\s*$")
#: Words that join the names of a citation key ("Bradley and Bryant 1983", "Aaron et al. 1990").
_KEY_JOINERS = frozenset({"and", "et", "al", "&"})
#: Horizontal offset (CSS px) that counts as an indent.
INDENT_PX = 4.0
#: Share of the runs of reference zones (between other zones) holding one or two years from which
#: a run boundary ends an entry.
RUN_ENTRY_SHARE = 0.8


@dataclass
class Literal:
    """One reference entry: its text (without printed label and link furniture), its printed
    label ("12") when it has one, and the index labels of the zone rows it came from."""

    text: str
    label: str | None = None
    rows: list = field(default_factory=list)


@dataclass
class _Piece:
    text: str
    row: object
    x: float
    y: float
    h: float
    font_size: float
    label: str | None
    years: int = 0  #: publication years in the text
    glued: bool = False  #: whether a number glued to the text is a label (the list is numbered)
    bare: bool = False  #: whether the piece is an entry label and nothing else ("12.", "[12]")


def leading_label(text: str, glued: bool = False) -> tuple[str | None, str]:
    """The printed label of an entry ("12"; "" for a mark without number such as "^"; None for
    none) and the text after it; ``glued`` also takes a number glued to the text ("28van")."""
    m = _LABEL.match(text) or (_GLUED_LABEL.match(text) if glued else None)
    if not m or m.end() >= len(text.rstrip()):
        return None, text
    number = next((g for g in m.groups() if g), None)
    return number or "", text[m.end():]


def _number(label: str | None) -> int | None:
    m = re.match(r"\d+", label or "")
    return int(m.group()) if m else None


def _inner_split(text: str) -> list[str]:
    """Cut a zone holding several numbered entries ("1. A ... 2. B ...") at labels that count up."""
    first = _number(leading_label(text)[0])
    if first is None:
        return [text]
    expected, cuts = first + 1, []
    for m in _INNER_LABEL.finditer(text):
        number = int(next(g for g in m.groups() if g))
        if number == expected:
            cuts.append(m.start() + len(m.group()) - len(m.group().lstrip()))
            expected += 1
    bounds = [0, *cuts, len(text)]
    return [text[a:b].strip() for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]


def _pieces(zones: pd.DataFrame) -> list[_Piece]:
    """Pieces of text with their geometry; labels glued to the text count only if the list is numbered."""
    pieces = []
    sizes = zones["font_size"].fillna(16.0) if "font_size" in zones else [16.0] * len(zones)
    for row, text, x, y, h, size in zip(zones.index, zones["text"].astype(str), zones["x"], zones["y"], zones["h"],
                                        sizes):
        for part in _inner_split(text):
            pieces.append(_Piece(part, row, float(x), float(y), float(h), float(size or 16.0), None,
                                 len(_YEAR.findall(part))))
    numbered = _numbered([leading_label(p.text, glued=True)[0] for p in pieces])
    label_only = [bool(_LABEL_ONLY.match(p.text)) for p in pieces]
    # a plain number that is not followed by punctuation ("9", "," is a volume) may be a label
    plain = [p for p, only, after in zip(pieces, label_only, [*pieces[1:], None])
             if only and p.text.strip().isdigit() and not (after and _FIELD_PUNCT.match(after.text))]
    counted = {id(plain[i]) for i in _counting_up([int(p.text) for p in plain])}
    for p, only, before in zip(pieces, label_only, [None, *pieces[:-1]]):
        p.glued = numbered
        if before is not None and before.text.rstrip().endswith(_RANGE_DASHES):
            continue  # "205." after "Science 171: 203-" ends a page range: no label
        p.bare = only and (not p.text.strip().isdigit() or id(p) in counted)
        p.label = re.sub(r"[^\w]", "", p.text) if p.bare else leading_label(p.text, numbered)[0]
        if p.label and not numbered and _YEAR.fullmatch(p.label):
            p.label = None  # "1958. Longevity, habitat ..." opens with its year, not a number
    return pieces


def _counting_up(numbers: list[int]) -> list[int]:
    """Positions of the plain numbers on their own ("1", "2008", "2") that are entry labels: those
    counting up 1, 2, 3... (one label may be missing), when there are two or more and they are at least
    a fifth of the numbers; the others are years and pages of entries cut into fields."""
    chain, expected = [], 1
    for i, n in enumerate(numbers):
        if expected <= n <= expected + 1:
            chain.append(i)
            expected = n + 1
    return chain if len(chain) >= max(2, 0.2 * len(numbers)) else []


def _numbered(labels: list[str | None]) -> bool:
    """Whether the entries carry numbers: labels count up from 1 (or so) most of the way."""
    numbers = [n for n in map(_number, labels) if n is not None]
    if len(numbers) < 2:
        return False
    rising = sum(b == a + 1 for a, b in zip(numbers, numbers[1:]))
    return numbers[0] <= 2 and rising >= 0.8 * (len(numbers) - 1)


def _continues(piece: _Piece, prev: _Piece, start: _Piece) -> bool | None:
    """Whether an unlabelled piece continues the entry begun by ``start`` (last piece ``prev``) by
    the layout, or None where only the text tells."""
    if abs(piece.y - prev.y) < 0.5 * max(prev.h, 1.0) and piece.x > prev.x:
        return True  # beside the previous piece on its line (number cell, then text cell)
    if piece.y < prev.y:
        return False  # back up the page: the next column
    if piece.y - (prev.y + prev.h) > 0.5 * piece.font_size:
        return _bound(piece.text, prev.text)  # a gap between entries, unless the text runs on
    if piece.x > start.x + INDENT_PX:
        return True  # hanging indent
    return None


def _bound(text: str, before: str) -> bool:
    """Whether a piece goes on with the entry before it whatever the layout: that entry's text ends with
    an opening bracket, or the piece opens with a closing one or ends a number range (Oxford's pages set
    each field of an entry as a block of its own, with the same gap between fields as between entries)."""
    return bool(_OPEN_END.search(before) or _RUNS_ON.match(text))


def _continues_text(text: str, before: str) -> bool:
    """Whether a line of text continues the line ``before`` rather than opening an entry: it starts
    in lower case (not a name particle after a full stop), with a digit or a bracket, or runs on
    (:func:`_bound`), or the line before ends mid-phrase (a comma, a hyphen, "and", an initial such as
    "M.")."""
    if not text or before.endswith(("-", ",", ":", ";", "&", " and", " in", " In")) or _bound(text, before):
        return True
    if text[0].isdigit() or text[0] in "([{":
        return True
    if text[0].islower():
        # a family-name particle may open an entry in lower case ("van Noort, V.")
        first, *rest = text.split(" ", 1)
        return not (before.endswith((".", ")", "]")) and rest and first in PARTICLES)
    return bool(_INITIAL_END.search(before))


def split_references(zones: pd.DataFrame, label_column: str = "label", label: str = "references") -> list[Literal]:
    """Reference literals of one page's zones (columns ``text, x, y, h``, ``font_size`` and
    ``label_column``), from the zones whose label is ``label``, in page order, with the bare entry
    numbers beside them whatever their label (a labeller may leave a number column out). A
    numbered entry with no text ("7." alone) is kept, with empty text, so numbers still find their
    entries."""
    chosen = _with_numbers_beside(zones, zones[label_column].to_numpy() == label)
    pieces = _pieces(zones[chosen])
    numbered = _numbered([p.label for p in pieces])
    # entries the page's boxes delimit (one list item per entry, its fields in boxes of their own) ...
    run_of = _entry_boxes(zones[chosen], pieces)
    boxed = run_of is not None
    if not boxed:  # ... else runs of chosen zones that other zones (look-up links under each entry) keep apart
        run_of = dict(zip(zones.index[chosen], np.cumsum(~chosen)[chosen]))
    run_years = _years_per_run(pieces, run_of)
    by_run = boxed or (not numbered and _entry_like(run_years))
    box_rows: dict = {}
    for row, run in run_of.items():
        box_rows.setdefault(run, []).append(row)
    text_of = dict(zip(zones.index, zones["text"].astype(str)))
    literals: list[Literal] = []
    by_text: list[bool] = []  # whether only the text (not labels or layout) opened each literal
    start = prev = None
    for piece in pieces:
        if _FURNITURE.match(piece.text):
            if literals:
                literals[-1].rows.append(piece.row)
            continue
        if not literals:
            by_layout = False
        elif by_run and run_of[piece.row] != run_of[prev.row]:
            by_layout = False  # other zones between two runs: a new entry
        elif (boxed and run_years[run_of[piece.row]] <= 2) or (by_run and run_years[run_of[piece.row]] == 1):
            by_layout = True  # an entry's box, or a run with one year, is one entry whatever its pieces look like
        else:
            by_layout = _joins(piece, prev, start, numbered, literals[-1])
        if by_layout is None:
            joins = _continues_text(piece.text.lstrip(), TRAILING_FURNITURE.sub("", prev.text).rstrip())
        else:
            joins = by_layout
        if not joins:
            literals.append(Literal("", piece.label or None))
            by_text.append(by_layout is None and not _REPEATED_AUTHOR.match(piece.text))
            start = piece
            if boxed and _citation_key(piece.text, " ".join(
                    text_of[r] for r in box_rows[run_of[piece.row]] if r != piece.row)):
                literals[-1].label, prev = piece.text.strip(), piece
                literals[-1].rows.append(piece.row)
                continue
        lit = literals[-1]
        if not piece.bare:
            body = TRAILING_FURNITURE.sub("", leading_label(piece.text, piece.glued)[1] if piece.label is not None
                                          else piece.text).strip()
            # boxes of their own end the fields they hold (authors, title, journal) as a full stop would
            stop = "." if boxed and lit.text[-1:].isalnum() and body[:1].isalpha() else ""
            lit.text = f"{lit.text}{stop} {body}".strip()
        lit.label = lit.label or piece.label or None
        if lit.rows[-1:] != [piece.row]:
            lit.rows.append(piece.row)
        prev = piece
    literals = _rejoin_fragments(literals, by_text)
    return [lit for lit in literals if lit.text or _number(lit.label) is not None]  # a bare "7." is still entry 7


def _citation_key(text: str, rest: str) -> bool:
    """Whether ``text``, the first box of an entry, is the entry's citation key printed as its label
    ("Aaron et al. 1990" before "P.G. Aaron, S.S. Frantz ... (1990)"): a few words with a year, every
    name found again in the rest of the entry (the year need not be: "in press")."""
    words = re.findall(r"[^\W\d_][\w'’-]+", text)
    if not _YEAR.search(text) or len(text.split()) > 8 or not words or not words[0][0].isupper():
        return False
    after = rest.casefold()
    return len(after) > len(text) and all(w.casefold() in after for w in words if w.casefold() not in _KEY_JOINERS)


def _entry_like(run_years: dict) -> bool:
    """Whether runs of pieces look like one entry each: three or more, and most
    (:data:`RUN_ENTRY_SHARE`) holding one publication year or two."""
    return len(run_years) >= 3 and sum(1 <= n <= 2 for n in run_years.values()) >= RUN_ENTRY_SHARE * len(run_years)


def _entry_boxes(zones: pd.DataFrame, pieces: list[_Piece]) -> dict | None:
    """The entry (a number per zone row) of each zone by the boxes the page nests them in, or None
    when the boxes do not tell.

    Two neighbouring zones share the boxes of their common ancestors (``node_path``). Cutting the
    zones wherever two neighbours share no more than some depth, the shallowest cut whose pieces
    look like entries (:func:`_entry_like`) is the list's: every entry a box of its own however many
    boxes its fields take (authors, title, journal and links each in a block), several lists each cut
    at their own items. Zones in the very same box (lines of one paragraph) are never cut here: a
    paragraph holding the whole list is left to the text, and link furniture ("View in Scopus", "|"),
    wherever the page put its box, goes with the zone before it."""
    if "node_path" not in zones or len(zones) < 3 or not zones["node_path"].astype(bool).all():
        return None
    texts = zones["text"].astype(str)
    kept = [i for i, t in enumerate(texts) if not _FURNITURE.match(t) and any(c.isalnum() for c in t)]
    if len(kept) < 3:
        return None
    node_paths = zones["node_path"].tolist()
    paths = [tuple(node_paths[i].split("/")) for i in kept]
    shared = [None if a == b else len(commonprefix([a, b])) for a, b in zip(paths, paths[1:])]
    for depth in sorted({d for d in shared if d is not None}):
        opens = dict(zip(kept[1:], (d is not None and d <= depth for d in shared)))
        run_of = dict(zip(zones.index, np.cumsum([opens.get(i, False) for i in range(len(zones))])))
        if _entry_like(_years_per_run(pieces, run_of)):
            return run_of
    return None


def _years_per_run(pieces: list[_Piece], run_of: dict) -> dict:
    """Publication years in each run of pieces that other zones keep apart (look-up links under each
    entry). When most runs hold one year or two (:data:`RUN_ENTRY_SHARE`), a run boundary ends an
    entry, and a run with one year is one entry even when it is cut into one zone per field, as
    Oxford's pages set their lists; several entries without links between them make a run with more."""
    runs: dict = {}
    for piece in pieces:
        if not _FURNITURE.match(piece.text):
            run = run_of[piece.row]
            runs[run] = runs.get(run, 0) + piece.years
    return runs


def _rejoin_fragments(literals: list[Literal], by_text: list[bool]) -> list[Literal]:
    """``literals`` with each one that only its text opened (a capital after a full stop) and that has
    no year joined to the entry before it: the fields of one entry on lines of their own (authors,
    "(2005).", title, journal) are not entries."""
    out: list[Literal] = []
    for lit, weak in zip(literals, by_text):
        if out and weak and not _YEAR.search(lit.text):
            out[-1].text = f"{out[-1].text} {lit.text}".strip()
            out[-1].rows += [row for row in lit.rows if row not in out[-1].rows]
        else:
            out.append(lit)
    return out


def _with_numbers_beside(zones: pd.DataFrame, chosen: np.ndarray) -> np.ndarray:
    """``chosen`` plus each bare label zone ("12.", "[12]") just before a chosen zone on its line."""
    if len(chosen) < 2:
        return chosen
    bare = zones["text"].astype(str).str.match(_LABEL_ONLY).to_numpy()
    y, h = zones["y"].to_numpy(dtype=float), zones["h"].to_numpy(dtype=float)
    beside = np.abs(y[:-1] - y[1:]) < 0.5 * np.maximum(h[1:], 1.0)
    out = chosen.copy()
    out[:-1] |= ~chosen[:-1] & chosen[1:] & bare[:-1] & beside
    return out


def _joins(piece: _Piece, prev: _Piece, start: _Piece, numbered: bool, current: Literal) -> bool | None:
    """Whether ``piece`` belongs to the current entry rather than starting the next one, by its label
    and the layout; None where only the text tells."""
    if piece.bare:
        return False  # a number zone opens the next entry
    if numbered and piece.label:  # a number that counts on opens the next entry ("10", "10a", "11")
        number, new = _number(current.label), _number(piece.label)
        return number is not None and not (piece.label != current.label and number <= new <= number + 3)
    if prev.bare and not current.text:
        return True  # the entry's text after its number zone
    if numbered:
        return True  # numbered list: everything up to the next number belongs to the entry
    if piece.label is not None:
        return False
    return _continues(piece, prev, start)
