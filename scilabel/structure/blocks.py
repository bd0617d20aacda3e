"""The hand-written rules on body zones (heading, paragraph, item, caption, footnote, table cell or noise
by their text and layout), and the grouping of classified zones into blocks.

The rules' verdict (:func:`rule_kinds`) is one feature of the learned block model
(:mod:`scilabel.structure.model`), which makes the decision; with it the model's real-page heading F1
was .888 against .871 without (a model trained on no real page, scored on the 89 reviewed ones).

The body is what the labeller calls ``other`` on the side of the abstract that holds the running
text (after it on most pages, before it where a page puts the abstract below the article), plus
what follows the references (footnotes, back matter). Layout is judged against the page's own
body text: its font size (the size most characters of long zones are set in) and its column (where
long zones start and end). Boilerplate (navigation, share buttons, "Download PDF", related
articles, link lines between references) is ``noise``: outside the column, mostly links, inside
the reference list, known furniture phrases, or too short to be a sentence without looking like
a heading.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from os.path import commonprefix  # of any sequences: the DOM ancestors two zones share

import numpy as np
import pandas as pd

from ..lexicons import alternation

#: Kinds a body zone can take.
KINDS: tuple[str, ...] = ("heading", "paragraph", "item", "caption", "footnote", "noise")
#: The rules' verdict on a cell of a table they found by its grid (not a body kind: no part of the text).
TABLE_CELL = "table"
#: Verdicts of the hand-written rules (:func:`rule_kinds`).
RULE_KINDS: tuple[str, ...] = (*KINDS, TABLE_CELL)
#: Rule verdicts that take a zone out of the running text (None: outside the body).
_NOT_TEXT = (None, "noise", TABLE_CELL)

#: Zones this long (characters) set the page's body font size and column.
LONG_ZONE = 100
#: A heading is at most this long (characters, words).
HEADING_CHARS, HEADING_WORDS = 200, 25
#: Smallest font-size ratio to body text for an unnumbered, regular-weight heading.
HEADING_SIZE = 1.05
#: Longest run-in title (words) set apart in bold or italic with a full stop: "Statistical analysis."
RUN_IN_WORDS = 8
#: Weight given to a run-in title's block (its zone's weight is the paragraph's).
BOLD_WEIGHT = 700
#: Running text set below this share of the body size is not body text (small print, furniture).
SMALL_PRINT = 0.9
#: Words that make a zone running text even without a sentence end.
SENTENCE_WORDS = 8
#: Longest unemphasised body-size line (words) taken as a heading when running text follows it.
PLAIN_HEADING_WORDS = 12
#: Bold text at least this fraction of the body size can be a heading.
BOLD_HEADING_SIZE = 0.95
#: Indent (CSS px) from the column's left edge that makes a body-size zone a list item.
ITEM_INDENT = (12.0, 90.0)
#: Share of link characters above which a zone is navigation, not text.
LINK_DENSITY = 0.5
#: Longest cell (characters) of a table told by one row alone; most single-cell rows (section rows
#: spanning the table) between two rows of one table.
TABLE_CELL_CHARS, TABLE_SPANNING_ROWS = 60, 3
#: Paragraph zones closer than this many font sizes vertically continue one paragraph.
PARAGRAPH_GAP = 0.4

#: "Figure 3:", "Fig. 2.", "FIG. 1", "Table 1", "Table S2", "Figures 1–12.", "Scheme 1",
#: "Figure 1—figure supplement 2", "Box 2—Figure 1", and supplementary material numbered before its
#: kind: "S1 Fig.", "S2 Table", "S3 File", "S1 Movie" (kinds in group ``supplement_kind``).
CAPTION = re.compile(
    r"^(?:(?i:supplementary|extended\s+data|appendix(?:\s+\d+)?\s*[—–-]?)\s*)?"
    r"(?:S\d+[A-Za-z]?\s+(?P<supplement_kind>(?i:figs?\.?|figures?|tables?|files?|text|dataset|data|"
    r"appendix|movies?|videos?|audio|checklist|protocol|materials?|code|spreadsheet))"
    r"|(?P<kind>(?i:figures?|figs?\.?|table|tab\.|scheme|chart|plate|box|video|movie|algorithm))"
    r"\s*(?P<num>S?\d+[A-Za-z]?(?:\s*[–-]\s*S?\d+[A-Za-z]?)?|[IVXLC]+)(?:\s*[—–-]\s*(?i:figure|table|source data)(?i:\s+supplement)?\s+\d+)*)"
    r"(?P<sep>\s*[.:|]\s*|\s*[—–-]\s+|\s+(?=\S)|\s*$)"
)
#: Numbered headings: "2", "2.1.3", "2.1.", "IV.", "A." then the title.
HEADING_NUMBER = re.compile(
    r"^(?P<num>\d{1,2}(?:\.\d{1,2}){0,4}\.?|(?:[IVXLC]{1,6}|[A-Z])\.)\s+(?P<title>[^\W\d_].*)$", re.S
)
#: List-item markers written in the text: bullets, "1.", "1)", "(a)", "ii)".
ITEM_MARKER = re.compile(r"^(?:[•·▪◦‣○●■□➢►–—-]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})\))\s+|^\d{1,2}\.\s+(?=\S)")
#: Footnote markers glued to or opening the text: "*", "†", "1www...", "a Present address".
FOOTNOTE_MARKER = re.compile(r"^(?:[*†‡§¶#‖]+|\[\d{1,2}\]|\d{1,2}(?:[.)]?\s*[\^↑])?(?=[^\W\d_]|\s)|[a-z](?=\s+[A-Z]))")
#: Headings that open a list of notes rather than a section (the lexicon ``notes_headings``).
NOTES_HEADING = re.compile(rf"^{alternation('notes_headings')}\s*:?$", re.I)
#: Page furniture that makes up a whole zone ("Share", "PDF", "Views 1,024"): the lexicon ``page_furniture``.
FURNITURE_ZONE = re.compile(rf"^{alternation('page_furniture')}[\s:|]*(?:[\d,.]+[kKM]?)?$", re.I)
#: Page furniture opening a zone ("Download PDF", "Open in a separate window", "© 2015 ..."): the lexicon
#: ``furniture_openings``.
FURNITURE_START = re.compile(rf"^{alternation('furniture_openings')}", re.I)
#: Words after "Table 1" that make it running text ("Table 1 shows ...") rather than a caption: the
#: lexicon ``running_text_words``.
_RUNNING = re.compile(rf"{alternation('running_text_words')}\b")
#: Panel letters after a figure number ("Fig. 6 A shows", "Figs. 5 C and D show").
_PANELS = re.compile(r"^(?:[A-Za-z](?:\s*(?:[,–-]|and)\s*[A-Za-z])?\s+(?=\w))")
#: How running text ends: a full stop (or ?, !, :, ;), closing quotes or brackets, citation numbers.
SENTENCE_END = re.compile(r"""[.!?…:;]["'”’»)\]]*(?:\s*\[[\d,\s–-]+\]|\d{1,3}(?:[,–-]\d{1,3})*)?\s*$""")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Working kind of short zones that are noise unless they turn out to be headings.
_SHORT = "short"


@dataclass
class Layout:
    """What body text looks like on one page: font size and main column (CSS px)."""

    body_size: float
    left: float
    right: float


@dataclass
class Block:
    """Consecutive zones of one kind that form one unit (one paragraph, one heading ...)."""

    kind: str
    rows: list[int] = field(default_factory=list)  #: row positions in the page's zones frame
    texts: list[str] = field(default_factory=list)
    font_size: float = 0.0
    font_weight: int = 400
    italic: float = 0.0  #: share of the first zone's characters in italic type

    @property
    def text(self) -> str:
        return " ".join(self.texts)


def body_mask(labels: list[str] | np.ndarray, texts: list[str]) -> np.ndarray:
    """Which zones may be article body: ``other`` zones after the front matter.

    The body starts after the abstract when the abstract comes before the running text, else
    after the title (pages that put the abstract or "key points" below the article)."""
    labels = np.asarray(labels, dtype=object)
    n = len(labels)
    lengths = np.array([len(t) for t in texts])
    title = np.flatnonzero(labels == "title")
    abstract = np.flatnonzero(labels == "abstract")
    start = int(title[0]) + 1 if len(title) else 0
    if len(abstract):
        running = np.where((labels == "other") & (lengths >= LONG_ZONE), lengths, 0)
        after = int(abstract[-1]) + 1
        if running[start:abstract[0]].sum() <= running[after:].sum():
            start = max(start, after)
    mask = np.zeros(n, dtype=bool)
    mask[start:] = labels[start:] == "other"
    return mask


def column_x(zones: pd.DataFrame) -> np.ndarray:
    """Each zone's x within its text column: ``x`` less the reader's ``column_offset`` where the frame has
    one (a PDF's right column starts where its left one does), else ``x``."""
    x = zones["x"].to_numpy(dtype=float)
    if "column_offset" not in zones:
        return x
    return x - np.nan_to_num(zones["column_offset"].to_numpy(dtype=float))


def page_layout(zones: pd.DataFrame, mask: np.ndarray) -> Layout:
    """Body font size and column of a page, from its long body zones (else all body zones)."""
    body = zones[mask]
    if body.empty:
        body = zones
    lengths = body["text"].str.len().to_numpy()
    long = body[lengths >= LONG_ZONE] if (lengths >= LONG_ZONE).any() else body
    weights = long["text"].str.len().to_numpy()
    body_size = float(long.groupby("font_size")["text"].apply(lambda t: t.str.len().sum()).idxmax())
    x = column_x(long)
    left = _weighted_quantile(x, weights, 0.5)
    right = _weighted_quantile(x + long["w"].to_numpy(), weights, 0.9)
    return Layout(body_size or 16.0, left, max(right, left + 1.0))


def _share(zones: pd.DataFrame, column: str, texts: list[str]) -> np.ndarray:
    """Share of each zone's characters counted in ``column`` (zeros when the frame lacks it)."""
    if column not in zones:
        return np.zeros(len(texts))
    return zones[column].to_numpy() / np.maximum([len(t) for t in texts], 1)


def _weighted_quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cum, q * cum[-1])])


def is_caption(text: str) -> bool:
    """A figure or table caption ("Figure 3: ...", "Table 1 Patient ..."), not running text
    that starts by naming one ("Table 1 shows ...", "Fig. 2 refers to ...")."""
    m = CAPTION.match(text)
    if not m:
        return False
    rest = text[m.end():]
    if not rest.strip():
        return True
    return not (m.group("sep").isspace() and _RUNNING.match(_PANELS.sub("", rest)))


def heading_number(text: str) -> tuple[str | None, str]:
    """The section number of a heading ("2.1", "IV", "A") and its title, or (None, text)."""
    m = HEADING_NUMBER.match(text.strip())
    if not m:
        return None, text.strip()
    return m.group("num").rstrip("."), m.group("title").strip()


def _looks_like_heading(text: str, size_ratio: float, weight: int, italic: float) -> bool:
    """Short, set apart by size, weight, slant, capitals or a section number."""
    words = len(text.split())
    if not text or len(text) > HEADING_CHARS or words > HEADING_WORDS or not _WORD.search(text):
        return False
    number, title = heading_number(text)
    emphasis = (weight >= 600 or italic > 0.5) and size_ratio >= BOLD_HEADING_SIZE
    if text[-1:] in ".;," and number is None:  # run-in titles set apart: "Statistical analysis."
        return emphasis and text[-1] == "." and words <= RUN_IN_WORDS
    if size_ratio >= HEADING_SIZE or emphasis:
        return True
    return title.isupper() and words <= 8 and size_ratio >= BOLD_HEADING_SIZE


def _is_sentence_like(text: str) -> bool:
    """Running text: a sentence end, or enough words, or the continuation of a sentence."""
    words = len(_WORD.findall(text))
    return words >= 4 and (bool(SENTENCE_END.search(text)) or words >= SENTENCE_WORDS or text[:1].islower())


def _plain_heading(text: str, size_ratio: float) -> bool:
    """A short capitalised line in body type without a sentence end or inner colon (a heading when
    a paragraph follows; "Received: May 1; Accepted: ..." is not)."""
    return (len(text.split()) <= PLAIN_HEADING_WORDS and text[:1].isupper() and not SENTENCE_END.search(text)
            and not re.search(r"[:;]", text) and size_ratio >= BOLD_HEADING_SIZE and bool(_WORD.search(text)))


def rule_kinds(zones: pd.DataFrame, labels: list[str] | np.ndarray, off: Collection[str] = ()) -> list[str | None]:
    """The kind of each zone of one page by the hand-written rules (``RULE_KINDS``), None for zones
    outside the body; the passes of :data:`RULE_PASSES` named in ``off`` left out (to measure them)."""
    unknown = set(off) - set(RULE_PASSES)
    if unknown:
        raise ValueError(f"no rule pass named {', '.join(sorted(unknown))} (the passes: {', '.join(RULE_PASSES)})")
    texts = [str(t).strip() for t in zones["text"]]
    labels = np.asarray(labels, dtype=object)
    mask = body_mask(labels, texts)
    kinds: list[str | None] = [None] * len(texts)
    if not mask.any():
        return kinds
    layout = page_layout(zones, mask)
    refs = np.flatnonzero(labels == "references")
    ref_first, ref_last = (int(refs[0]), int(refs[-1])) if len(refs) else (len(texts), len(texts))
    link, italic = _share(zones, "link_chars", texts), _share(zones, "italic_chars", texts)
    x, w = column_x(zones), zones["w"].to_numpy()
    ratio = zones["font_size"].to_numpy() / layout.body_size
    weight = zones["font_weight"].to_numpy()
    slack = 4 * layout.body_size
    notes: float | None = None  # size ratio of the "Notes" heading whose list we are in
    for i in np.flatnonzero(mask):
        text = texts[i]
        if ref_first < i < ref_last or not text:
            kinds[i] = "noise"
        elif x[i] < layout.left - slack or x[i] >= layout.right - 10 or x[i] + w[i] > layout.right + slack:
            kinds[i] = "noise"  # beside or across the main column
        elif is_caption(text):
            kinds[i] = "caption"
        elif link[i] > LINK_DENSITY or FURNITURE_START.match(text) or (len(text) <= 80 and FURNITURE_ZONE.match(text)):
            kinds[i] = "noise"
        elif notes is not None and not _WORD.search(text):
            kinds[i] = "noise"  # a note's bare marker ("1.")
        elif notes is not None and not (ratio[i] >= notes and heading_number(text)[0] is None
                                        and _looks_like_heading(text, ratio[i], int(weight[i]), italic[i])):
            kinds[i] = "footnote"
        elif _looks_like_heading(text, ratio[i], int(weight[i]), italic[i]):
            notes = ratio[i] if NOTES_HEADING.match(text) else None
            kinds[i] = "noise" if notes is not None else "heading"
        elif FOOTNOTE_MARKER.match(text) and ratio[i] < BOLD_HEADING_SIZE and len(text) > 20:
            kinds[i] = "footnote"
        elif ITEM_MARKER.match(text) or (ITEM_INDENT[0] <= x[i] - layout.left <= ITEM_INDENT[1]
                                         and ratio[i] >= BOLD_HEADING_SIZE):
            kinds[i] = "item"
        elif _is_sentence_like(text) and ratio[i] >= SMALL_PRINT:
            kinds[i] = "paragraph"
        else:
            kinds[i] = _SHORT
    for name, rule_pass in RULE_PASSES.items():
        if name not in off:
            rule_pass(kinds, zones, texts, ratio)
    return ["noise" if kind == _SHORT else kind for kind in kinds]  # short leftovers no pass made a heading


def _extend_caption_boxes(kinds: list[str | None], zones: pd.DataFrame, texts: list[str], ratio: np.ndarray) -> None:
    """Text in the box of a caption label is caption. A zone after a caption label sits in the
    figure's wrapper with it (title and caption paragraphs, in a ``div`` or a ``figure``, however the
    platform tags it) when its DOM path shares more with the label's than the label's shares with the
    long zone (running text, whatever the rules made of it) or the heading before the label (the zone
    before it when neither comes first). The box is at most the label's grandparent, and a section
    title numbered in digits closes it. Table cells (and zones sharing their line with a neighbour)
    and footnotes in the box keep their kinds. Zones without DOM paths (PDFs) have no boxes."""
    if "node_path" not in zones:
        return
    paths = [tuple(p.split("/")) if p else () for p in zones["node_path"].fillna("").astype(str)]
    side_by_side = sharing_a_line(zones)
    label, outer, text_before, titled = -1, 0, -1, -1
    for i, kind in enumerate(kinds):
        if kind is None or not paths[i]:
            continue
        if kind == "caption" and is_caption(texts[i]):
            before = [j for j in (text_before, titled) if j >= 0] or ([i - 1] if i else [])
            label, outer = i, max((len(commonprefix([paths[i], paths[j]])) for j in before), default=len(paths[i]))
            continue
        inside = label >= 0 and len(commonprefix([paths[i], paths[label]])) > max(outer, len(paths[label]) - 3)
        if inside and any(c.isdigit() for c in heading_number(texts[i])[0] or ""):
            inside, label = False, -1  # a section title numbered "3.1" closes any box (not a panel's "A.")
        if inside and kind not in (TABLE_CELL, "footnote") and not side_by_side[i]:
            kinds[i] = "caption"
        elif not inside and len(texts[i]) >= LONG_ZONE:
            label, text_before = -1, i
        elif not inside and kind == "heading":
            titled = i


def sharing_a_line(zones: pd.DataFrame) -> np.ndarray:
    """Whether each zone shares its line with the zone before or after it (:func:`_beside`)."""
    n = len(zones)
    after = np.r_[False, _beside(zones, np.arange(1, n), np.arange(n - 1))] if n else np.zeros(0, dtype=bool)
    return after | np.r_[after[1:], False]


def _beside(zones: pd.DataFrame, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Whether each zone of ``i`` stands to the right of the zone of ``j`` beside it on the same line:
    it starts where that one ends or further right, and the two overlap vertically by half the
    lower one's height."""
    x, y, w, h = (zones[c].to_numpy(dtype=float) for c in ("x", "y", "w", "h"))
    overlap = np.minimum(y[i] + h[i], y[j] + h[j]) - np.maximum(y[i], y[j])
    return (x[i] >= x[j] + w[j] - 1) & (overlap >= 0.5 * np.minimum(h[i], h[j]))


def _mark_table_rows(kinds: list[str | None], zones: pd.DataFrame, texts: list[str], ratio: np.ndarray) -> None:
    """Table cells are :data:`TABLE_CELL`. A row is a run of consecutive body zones side by side on one line; two
    or more rows that follow one another closely and share a column edge are a table, and every
    zone from its first row to its last (rows of a single spanning cell included) is a cell. A lone
    row of at least three short zones is a table row too."""
    x = zones["x"].to_numpy()
    body = [i for i, k in enumerate(kinds) if k not in (None, "noise", "caption")]  # a caption is never a cell
    cells_at = np.array(body, dtype=int)
    follows_on_line = np.r_[False, _beside(zones, cells_at[1:], cells_at[:-1])] if body else []
    rows: list[list[int]] = []
    for prev, i, follows in zip([None, *body], body, follows_on_line):
        if follows and rows and rows[-1][-1] == prev:
            rows[-1].append(i)
        else:
            rows.append([i])
    position = {i: n for n, row in enumerate(rows) for i in row}
    grid = [row for row in rows if len(row) >= 2]
    cells: set[int] = set()
    for row in grid:
        if len(row) >= 3 and all(len(texts[i]) <= TABLE_CELL_CHARS for i in row):
            cells.update(row)
    for first, second in zip(grid, grid[1:]):
        between = position[second[0]] - position[first[-1]] - 1  # single-zone rows in between
        starts = {round(x[i]) for i in first}
        aligned = any(abs(x[i] - s) <= 4 for i in second for s in starts)
        if between <= TABLE_SPANNING_ROWS and aligned:
            cells.update(range(first[0], second[-1] + 1))
    for i in cells:
        if kinds[i] not in (None, "noise", "caption"):
            kinds[i] = TABLE_CELL


def _extend_bare_captions(kinds: list[str | None], zones: pd.DataFrame, texts: list[str], ratio: np.ndarray) -> None:
    """A caption zone holding only its label ("Table 1.") takes in the text zone right below it."""
    y, h, size = zones["y"].to_numpy(), zones["h"].to_numpy(), zones["font_size"].to_numpy()
    for i in range(len(kinds) - 1):
        m = CAPTION.match(texts[i]) if kinds[i] == "caption" else None
        if m and not texts[i][m.end():].strip() and kinds[i + 1] in ("noise", TABLE_CELL, "paragraph", _SHORT) and texts[i + 1] \
                and y[i + 1] - (y[i] + h[i]) <= 2 * size[i] and not is_caption(texts[i + 1]):
            kinds[i + 1] = "caption"


def _promote_plain_headings(kinds: list[str | None], zones: pd.DataFrame, texts: list[str], ratio: np.ndarray) -> None:
    """Short leftovers that read like a heading and are followed by running text become headings
    (the others end as noise)."""
    following: str | None = None
    for i in range(len(kinds) - 1, -1, -1):
        if kinds[i] == _SHORT and following in ("paragraph", "item") and _plain_heading(texts[i], ratio[i]):
            kinds[i] = "heading"
        if kinds[i] not in (*_NOT_TEXT, _SHORT):
            following = kinds[i]


#: The passes over the first verdicts, in order, by name: each can be left out to measure what it does
#: (``rule_kinds(..., off=...)``, ``benchmarks/structure_real.py rules``).
RULE_PASSES: dict[str, Callable[[list, pd.DataFrame, list, np.ndarray], None]] = {
    "table_rows": _mark_table_rows,
    "bare_captions": _extend_bare_captions,
    "caption_boxes": _extend_caption_boxes,
    "plain_headings": _promote_plain_headings,
}


def run_in_title(text: str, lead_chars: int) -> str | None:
    """The run-in title opening a paragraph zone: its opening run set apart in bold or italic
    (``lead_chars``, :mod:`scilabel.zones`), when that run reads as a title ending in a full stop
    ("Statistical analysis.", "2.1. Temperature Distribution.") and a sentence follows it; else None."""
    lead, rest = text[:lead_chars].strip(), text[lead_chars:]
    if not lead.endswith(".") or not rest[:1].isspace() or not rest.lstrip(" [(\"“‘'")[:1].isupper():
        return None
    title = heading_number(lead)[1]
    words = _WORD.findall(title)
    ok = 0 < len(words) <= RUN_IN_WORDS and len(title.split()) <= RUN_IN_WORDS and title[:1].isupper()
    return lead if ok else None


def _paragraph_elements(zones: pd.DataFrame) -> list[str]:
    """The DOM path of the ``p`` element each zone lies in (its nearest), "" for none (a PDF's zones)."""
    if "node_path" not in zones or "tag_path" not in zones:
        return [""] * len(zones)
    out = []
    for nodes, tags in zip(zones["node_path"].fillna("").astype(str), zones["tag_path"].fillna("").astype(str)):
        nodes, tags = nodes.split("/"), tags.split("/")
        last = max((k for k, tag in enumerate(tags) if tag == "p"), default=-1)
        out.append("/".join(nodes[:last + 1]) + "/" if last >= 0 and len(nodes) == len(tags) else "")
    return out


def group_blocks(zones: pd.DataFrame, kinds: list[str | None]) -> list[Block]:
    """Blocks in reading order. Consecutive paragraph zones that continue one another (no vertical
    gap, same left edge, the first without a sentence end or the second opening in lower case) are
    one paragraph, and so are two paragraph zones of one ``p`` element with only zones inside it and
    no body kind between them (a display formula set in the paragraph, its number a zone of its own);
    text right after a caption that does not open another caption continues it. A
    paragraph zone opening with a run-in title (:func:`run_in_title`) gives a heading block of that
    title, then the paragraph."""
    texts = [str(t).strip() for t in zones["text"]]
    x, y, h = column_x(zones), zones["y"].to_numpy(), zones["h"].to_numpy()
    size, weight = zones["font_size"].to_numpy(), zones["font_weight"].to_numpy()
    italic = _share(zones, "italic_chars", texts)
    lead = zones["lead_chars"].fillna(0).to_numpy(dtype=int) if "lead_chars" in zones else np.zeros(len(texts), dtype=int)
    inside = _paragraph_elements(zones)
    blocks: list[Block] = []
    for i, kind in enumerate(kinds):
        if kind is None or kind == "noise":
            continue
        last = blocks[-1].rows[-1] if blocks and blocks[-1].kind == kind == "paragraph" else None
        if last is not None and inside[i] == inside[last] != "":
            between = range(last + 1, i)
            if len(between) and all(inside[k].startswith(inside[i]) and kinds[k] in (None, "noise") for k in between):
                blocks[-1].rows.extend([*between, i])  # one ``p`` element: the text around a formula set in it
                blocks[-1].texts.extend([texts[k] for k in between] + [texts[i]])
                continue
        title = run_in_title(texts[i], int(lead[i])) if kind == "paragraph" and lead[i] else None
        if title is not None:
            blocks.append(Block("heading", [i], [title], float(size[i]), BOLD_WEIGHT, float(italic[i])))
            rest = texts[i][len(title):].strip()
            blocks.append(Block(kind, [i], [rest], float(size[i]), int(weight[i]), float(italic[i])))
            continue
        prev = blocks[-1] if blocks and blocks[-1].rows[-1] == i - 1 and blocks[-1].kind == kind else None
        if prev is not None and kind == "paragraph":
            gap = y[i] - (y[i - 1] + h[i - 1])
            open_end = not SENTENCE_END.search(prev.texts[-1]) or texts[i][:1].islower()
            joins = -1.0 <= gap <= PARAGRAPH_GAP * size[i] and abs(x[i] - x[i - 1]) < 2 * size[i] and open_end
        else:
            joins = prev is not None and kind == "caption" and not is_caption(texts[i])
        if joins:
            prev.rows.append(i)
            prev.texts.append(texts[i])
        else:
            blocks.append(Block(kind, [i], [texts[i]], float(size[i]), int(weight[i]), float(italic[i])))
    return blocks
