"""Features of the candidate body zones of one page, for the block model (:mod:`.model`).

A candidate is a zone after the article title that the labeller calls ``other`` or
``references_heading`` (the bibliography's own heading is a back-matter section title). Taking the
zones before the title too (a feature telling them apart) was tried and dropped: real-page heading F1
.895 and level accuracy .915 against .907 and .935 (publisher-grouped cross-validation). Its layout is
measured against the page's own body text (:func:`~.blocks.page_layout`: the size and column most
long zones are set in); its text by numbering, capitals, sentence ends and the patterns of captions,
list items, footnotes and furniture; its place by its position in the page and in the HTML (the
nearest heading, list, table, figure or navigation element); its style by how many short zones of
the page share it; its markup peers (the page's zones set in an element named as its own) by how many
they are and how many of them are short lines; the hand-written rules' verdict
(:func:`~.blocks.rule_kinds`) is one more feature. The features of the candidates before and after
it carry the sequence.
"""
from __future__ import annotations

import re
from collections.abc import Collection

import numpy as np
import pandas as pd

from .blocks import (
    CAPTION, FOOTNOTE_MARKER, FURNITURE_START, FURNITURE_ZONE, ITEM_MARKER, LONG_ZONE, NOTES_HEADING, RULE_KINDS,
    SENTENCE_END, Block, Layout, column_x, heading_number, is_caption, page_layout, rule_kinds, sharing_a_line,
)
from .levels import HEADING_COLUMNS

#: Labels whose zones the block model classifies.
CANDIDATE_LABELS = ("other", "references_heading")
#: Zones at most this many words count as short (candidate headings) for the page's style counts.
SHORT_WORDS = 15
#: HTML elements whose nearest ancestor-or-self marks the zone, as features ``in_<name>``.
CONTAINERS = ("li", "table", "figure", "nav", "header", "footer", "aside", "p", "a", "button", "label", "dt", "dd")
#: Steps of a zone's class path that name the element it sits in (:func:`_markup_key`).
MARKUP_STEPS = 2
#: Features of the neighbouring candidates (``prev_``, ``next_``).
NEIGHBOUR = ("size_ratio", "bold", "sentence_end", "log_chars", "numbered", "heading_tag", "caps", "gap")
_WORD = re.compile(r"[^\W\d_]{2,}")
_TAG = re.compile(r"[a-z][a-z0-9]*")
_HEADING_TAG = re.compile(r"(?:^|/)h([1-6])(?=/|$)")


def candidate_mask(labels: list[str] | np.ndarray) -> np.ndarray:
    """Which zones the block model classifies: ``CANDIDATE_LABELS`` zones after the first title zone."""
    labels = np.asarray(labels, dtype=object)
    title = np.flatnonzero(labels == "title")
    mask = np.isin(labels, CANDIDATE_LABELS)
    if len(title):
        mask[:title[0] + 1] = False
    return mask


def _number_depth(number: str | None) -> int:
    if not number:
        return 0
    return number.count(".") + 1 if any(c.isdigit() for c in number) else 1


_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")


def _previous_number(number: str) -> str | None:
    """The section number a numbered heading follows: "3.1.2" follows "3.1.1", "3.1" follows "3",
    "4" "3", "C" "B", "IV" "III"; None for a first number ("1", "A", "I")."""
    parts = number.split(".")
    last = parts[-1]
    if last.isdigit():
        n = int(last)
        if n > 1:
            return ".".join([*parts[:-1], str(n - 1)])
        return ".".join(parts[:-1]) or None
    if last in _ROMAN[1:]:
        return _ROMAN[_ROMAN.index(last) - 1]
    if len(last) == 1 and last.isalpha() and last not in "AI":
        return chr(ord(last) - 1)
    return None


def _number_sequence(numbers: list[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """Whether each zone's section number continues one printed before it (``number_follows``), and
    whether a later zone's number continues it (``number_followed``): numbered headings come in
    sequences ("3.1", "3.1.1", "3.1.2", "3.2"), a stray number in the text does not."""
    follows = np.zeros(len(numbers), dtype=bool)
    seen: set[str] = set()
    previous = [_previous_number(n) if n else None for n in numbers]
    for k, (number, before) in enumerate(zip(numbers, previous)):
        follows[k] = before is not None and before in seen
        if number:
            seen.add(number)
    followed = np.zeros(len(numbers), dtype=bool)
    wanted: set[str] = set()
    for k in range(len(numbers) - 1, -1, -1):
        followed[k] = numbers[k] is not None and numbers[k] in wanted
        if previous[k]:
            wanted.add(previous[k])
    return follows, followed


def _text_features(text: str, number: str | None, title: str) -> dict:
    """Features of a zone's text, given its :func:`~.blocks.heading_number` parts."""
    words = text.split()
    letters = [w for w in _WORD.findall(text)]
    capitalised = sum(w[:1].isupper() for w in letters)
    return {
        "log_chars": np.log1p(len(text)),
        "n_words": len(words),
        "sentence_end": bool(SENTENCE_END.search(text)),
        "ends_stop": text.endswith("."),
        "ends_colon": text.endswith(":"),
        "lower_start": text[:1].islower(),
        "digit_start": text[:1].isdigit(),
        "caps": title.isupper() and len(letters) > 0,
        "title_case": capitalised / len(letters) if letters else 0.0,
        "letter_share": sum(c.isalpha() for c in text) / max(len(text), 1),
        "numbered": number is not None,
        "number_depth": _number_depth(number),
        "caption": is_caption(text),
        "caption_start": bool(CAPTION.match(text)),
        "item_marker": bool(ITEM_MARKER.match(text)),
        "footnote_marker": bool(FOOTNOTE_MARKER.match(text)),
        "furniture": bool(FURNITURE_START.match(text) or (len(text) <= 80 and FURNITURE_ZONE.match(text))),
        "notes_heading": bool(NOTES_HEADING.match(text)),
        "inner_colon": ":" in text[:-1],
        "has_digits": sum(c.isdigit() for c in text) / max(len(text), 1),
    }


def _tag_features(path: str) -> dict:
    tags = _TAG.findall(str(path or "").lower())
    heading = _HEADING_TAG.findall("/".join(tags))
    out = {"heading_tag": int(heading[-1]) if heading else 0, "last_tag_span": tags[-1:] == ["span"] if tags else False,
           "last_tag_strong": bool(tags) and tags[-1] in ("b", "strong", "em", "i"), "depth": len(tags)}
    for name in CONTAINERS:
        out[f"in_{name}"] = name in tags or (name == "table" and ("td" in tags or "th" in tags))
    return out


def _markup_key(class_path: object) -> str:
    """The element a zone sits in as its template names it: the last :data:`MARKUP_STEPS` steps of its
    class path without their ids (``div.section/div.heading-text``; a bare ``span`` says little alone);
    "" where the zone has no markup (a PDF's zones)."""
    if not isinstance(class_path, str) or not class_path:
        return ""
    return "/".join(step.split("#")[0] for step in class_path.rsplit("/", MARKUP_STEPS)[-MARKUP_STEPS:])


def _markup_peers(keys: list[str], line: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate, its peers: the page's other candidates of the same key (set in an element
    named as its own: a template sets all its section titles alike, whatever their size; on a page
    without markup, in the same type): log(1 + how many), and the share of them that are lines
    (``line``: short, no sentence end); NaN without peers."""
    key = pd.Series(keys)
    count = np.where(key.to_numpy() == "", 0, key.map(key.value_counts()).to_numpy() - 1)
    lines = pd.Series(line.astype(float)).groupby(key).transform("sum").to_numpy() - line
    return np.log1p(count), np.where(count > 0, lines / np.maximum(count, 1), np.nan)


def page_features(zones: pd.DataFrame, labels: list[str] | np.ndarray,
                  rules_off: Collection[str] = ()) -> tuple[pd.DataFrame, np.ndarray, Layout | None]:
    """The features of a page's candidate zones (one row each, in reading order), their row positions
    in ``zones`` and the page's body layout (None when the page has no candidate); the rules' verdict
    without the passes named in ``rules_off`` (:data:`~.blocks.RULE_PASSES`)."""
    zones = zones.reset_index(drop=True)
    rows = np.flatnonzero(candidate_mask(labels))
    if not len(rows):
        return pd.DataFrame(), rows, None
    texts = [str(t).strip() for t in zones["text"]]
    mask = np.zeros(len(zones), dtype=bool)
    mask[rows] = True
    long = mask & (np.array([len(t) for t in texts]) >= LONG_ZONE)
    layout = page_layout(zones, long if long.any() else mask)
    sub = zones.iloc[rows]
    paths = sub["tag_path"] if "tag_path" in sub else [""] * len(rows)
    parsed = [heading_number(texts[i]) for i in rows]
    frame = pd.DataFrame([{**_text_features(texts[i], *parts), **_tag_features(path)}
                          for i, parts, path in zip(rows, parsed, paths)])
    chars = np.maximum([len(texts[i]) for i in rows], 1)
    size = sub["font_size"].to_numpy(dtype=float)
    frame["size_ratio"] = size / layout.body_size
    frame["bold"] = sub["font_weight"].to_numpy() >= 600
    frame["weight"] = sub["font_weight"].to_numpy() / 1000
    for column in ("italic_chars", "link_chars", "sup_chars"):
        frame[column.replace("_chars", "_share")] = sub[column].to_numpy() / chars if column in sub else 0.0
    width = layout.right - layout.left
    x, (w, y, h) = column_x(sub), (sub[c].to_numpy(dtype=float) for c in ("w", "y", "h"))
    frame["left_offset"] = (x - layout.left) / layout.body_size
    frame["right_offset"] = (x + w - layout.right) / layout.body_size
    frame["width_share"] = w / max(width, 1.0)
    frame["outside"] = (x < layout.left - 4 * layout.body_size) | (x >= layout.right - 10) | (x + w > layout.right + 4 * layout.body_size)
    frame["y_share"] = y / max(float(zones["y"].max() + zones["h"].max()), 1.0)
    frame["position"] = np.arange(len(rows)) / len(rows)
    frame["after_references"] = rows > (np.flatnonzero(np.asarray(labels) == "references").max(initial=-1))
    frame["references_heading"] = np.asarray(labels, dtype=object)[rows] == "references_heading"
    frame["gap"] = np.r_[0.0, (y[1:] - (y[:-1] + h[:-1])) / layout.body_size]
    frame["side_by_side"] = sharing_a_line(sub)  # with the candidate before or after
    frame["lines"] = h / np.maximum(size, 1.0)
    style = list(zip(np.round(size * 2) / 2, frame["bold"], frame["italic_share"] > 0.5, frame["heading_tag"]))
    short = frame["n_words"].to_numpy() <= SHORT_WORDS
    counts = pd.Series([s for s, k in zip(style, short) if k]).value_counts()
    numbered = pd.Series([s for s, k, n in zip(style, short, frame["numbered"]) if k and n]).value_counts()
    frame["style_count"] = [counts.get(s, 0) if k else 0 for s, k in zip(style, short)]
    frame["style_numbered"] = [numbered.get(s, 0) / counts[s] if k else 0.0 for s, k in zip(style, short)]
    keys = [_markup_key(p) for p in sub["class_path"]] if "class_path" in sub else [""] * len(rows)
    if not any(keys):  # a page without markup (a PDF's): zones are set alike by their type alone
        keys = ["|".join(map(str, s[:3])) for s in style]
    line = short & ~frame["sentence_end"].to_numpy(dtype=bool)
    frame["markup_peers"], frame["markup_lines"] = _markup_peers(keys, line)
    sizes = sorted({s[0] for s, k in zip(style, short) if k}, reverse=True)
    frame["size_rank"] = [sizes.index(s[0]) if k else len(sizes) for s, k in zip(style, short)]
    for name in NEIGHBOUR:
        values = frame[name].to_numpy(dtype=float)
        frame[f"prev_{name}"] = np.r_[np.nan, values[:-1]]
        frame[f"next_{name}"] = np.r_[values[1:], np.nan]
    rules = np.asarray(rule_kinds(zones, labels, rules_off), dtype=object)[rows]
    for kind in RULE_KINDS:
        frame[f"rule_{kind}"] = rules == kind
    frame["number_follows"], frame["number_followed"] = _number_sequence([number for number, _ in parsed])
    frame["next2_sentence_end"] = np.r_[frame["sentence_end"].to_numpy(dtype=float)[2:], np.nan, np.nan][:len(frame)]
    return frame.astype(float), rows, layout


def heading_features(frame: pd.DataFrame, rows: np.ndarray, headings: list[Block]) -> pd.DataFrame:
    """The level model's view of a page's heading blocks (:data:`~.levels.HEADING_COLUMNS`): the
    features of each block's zone (``frame`` at ``rows``, :func:`page_features`; NaN for a zone that is
    no candidate), with its text's features and weight from the block itself (a run-in title is the
    bold start of a paragraph zone)."""
    if not headings:
        return pd.DataFrame(columns=list(HEADING_COLUMNS), dtype=float)
    out = frame.reindex(columns=list(HEADING_COLUMNS)).set_axis(list(rows)).reindex([b.rows[0] for b in headings])
    text = pd.DataFrame([_text_features(b.text, *heading_number(b.text)) for b in headings], index=out.index)
    for column in ("caps", "numbered", "number_depth"):
        out[column] = text[column]
    out["weight"] = [b.font_weight / 1000 for b in headings]
    return out.reset_index(drop=True).astype(float)
