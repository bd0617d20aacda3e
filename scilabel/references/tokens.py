"""Tokenising reference strings and the CRF features of each token.

Tokens keep their character offsets, so labelled tokens map back onto the exact text. URLs and
DOIs are single tokens; words are runs of letters (apostrophes inside kept) and numbers runs of
digits, so ``D86`` and ``e1396`` are two tokens each (the ``glued`` feature says they touch);
every other non-space character is a token of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..lexicons import lexicon

_TOKEN = re.compile(
    r"""(?:https?://|www\.)\S+?(?=[.,;)\]]?(?:\s|$))    # URL, trailing punctuation left out
      | 10\.\d{4,9}/\S+?(?=[.,;]?(?:\s|$))              # DOI
      | [^\W\d_]+(?:['’][^\W\d_]+)*                       # word ("D86" is "D", "86")
      | \d+                                              # number
      | [^\w\s]|_                                        # any other single character
    """,
    re.X,
)
_YEAR = re.compile(r"^(?:1[5-9]\d\d|20[0-3]\d)[a-z]?$")
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.I)
#: Month names and abbreviations (the lexicon ``months``).
_MONTHS = frozenset(lexicon("months"))
_OPEN, _CLOSE = "([{", ")]}"
_QUOTES = frozenset("\"“”«»„")
#: Token-window offsets whose features each token also sees.
WINDOW = (-2, -1, 1, 2)
#: Each offset's feature names: word, kind, shape (next-door tokens only), edge of the reference.
_WINDOW_KEYS = tuple((off, f"{off}:w", f"{off}:kind", f"{off}:shape" if abs(off) == 1 else None, f"{off}:edge")
                     for off in WINDOW)


@dataclass(frozen=True)
class Token:
    """A token of a reference string with its character span."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens with their offsets."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def shape(word: str) -> str:
    """Character classes of ``word`` with runs capped at two: ``Smith`` -> ``Xxx``, ``1999`` -> ``dd``."""
    out: list[str] = []
    for ch in word:
        c = "X" if ch.isupper() else "x" if ch.isalpha() else "d" if ch.isdigit() else ch
        if len(out) >= 2 and out[-1] == c and out[-2] == c:
            continue
        out.append(c)
    return "".join(out)


def _kind(word: str) -> str:
    """A coarse class of the token, shared by tokens of the same kind."""
    if word.startswith(("http", "www.")):
        return "url"
    if word.startswith("10.") and "/" in word:
        return "doi"
    if _YEAR.match(word):
        return "year"
    if word.isdigit():
        return f"num{min(len(word), 6)}"
    if word.isalpha():
        if len(word) == 1:
            return "initial" if word.isupper() else "letter"
        if word.lower() in _MONTHS:
            return "month"
        if word.isupper():
            return "caps"
        if word[0].isupper():
            return "cap"
        return "lower"
    if not any(ch.isalnum() for ch in word):
        return "punct"
    return "mixed"


@lru_cache(maxsize=65536)
def _word_features(word: str) -> dict[str, object]:
    """The features of a token that its text alone decides (shared: never change the dict)."""
    kind = _kind(word)
    low = f"<{kind}>" if kind.startswith("num") or kind == "year" else word.lower()  # numbers by kind, not value
    feats: dict[str, object] = {"w": low, "shape": shape(word), "kind": kind}
    if word.isalpha() and len(word) > 2:
        feats["p3"], feats["s3"], feats["s2"] = low[:3], low[-3:], low[-2:]
    if _ROMAN.match(word) and len(word) > 1:
        feats["roman"] = True
    return feats


def _base(tok: Token, nxt: Token | None, text: str) -> dict[str, object]:
    feats = dict(_word_features(tok.text))
    if nxt is not None and nxt.start == tok.end:
        feats["glued"] = nxt.text if not nxt.text[0].isalnum() else "w"  # "J." "Smith," "1999)"
    if tok.end == len(text) or (tok.end < len(text) and text[tok.end].isspace()):
        feats["space_after"] = True
    return feats


def sequence_features(text: str, tokens: list[Token] | None = None) -> list[dict[str, object]]:
    """One feature dict per token of ``text``: the token itself, its window, and where it stands
    in the reference (relative position, inside quotes or brackets, how many full stops and
    commas came before, whether a year came before, the nearest punctuation and the nearest word
    either side)."""
    tokens = tokenize(text) if tokens is None else tokens
    n = len(tokens)
    base = [_base(t, tokens[i + 1] if i + 1 < n else None, text) for i, t in enumerate(tokens)]
    nxt_punct, nxt_word = [""] * n, [""] * n
    following, following_word = "", ""
    for i in range(n - 1, -1, -1):
        nxt_punct[i], nxt_word[i] = following, following_word
        if base[i]["kind"] == "punct":
            following = tokens[i].text
        else:
            following_word = base[i]["w"]
    feats: list[dict[str, object]] = []
    last_punct, last_word, since_punct = "", "", 0
    depth = quote = stops = commas = 0
    seen_year = False
    length = max(1, len(text))
    for i, tok in enumerate(tokens):
        f = {"bias": 1.0, **base[i]}
        f["pos"] = str(min(9, 10 * tok.start // length))
        f["idx"] = str(min(i, 6))
        f["stops"] = str(min(stops, 6))
        f["commas"] = str(min(commas, 8))
        if depth:
            f["in_bracket"] = True
        if quote:
            f["in_quote"] = True
        if seen_year:
            f["after_year"] = True
        f["last_punct"], f["next_punct"] = last_punct, nxt_punct[i]
        f["prev_word"], f["next_word"] = last_word, nxt_word[i]  # across punctuation
        f["since_punct"] = str(min(since_punct, 4))
        for off, w_key, kind_key, shape_key, edge_key in _WINDOW_KEYS:
            j = i + off
            if 0 <= j < n:
                other = base[j]
                f[w_key] = other["w"]
                f[kind_key] = other["kind"]
                if shape_key:
                    f[shape_key] = other["shape"]
            else:
                f[edge_key] = True
        if i:
            f["-1w|w"] = f"{base[i - 1]['w']}|{base[i]['w']}"
        if i + 1 < n:
            f["w|+1w"] = f"{base[i]['w']}|{base[i + 1]['w']}"
        feats.append(f)
        word = tok.text
        if base[i]["kind"] == "punct":
            last_punct, since_punct = word, 0
        else:
            last_word, since_punct = base[i]["w"], since_punct + 1
        if word in _OPEN:
            depth += 1
        elif word in _CLOSE:
            depth = max(0, depth - 1)
        elif word in _QUOTES:
            quote = 0 if quote else 1
        elif word == "," and not depth:
            commas += 1
        elif word == "." and not depth and (i + 1 == n or tokens[i + 1].start > tok.end):
            if i == 0 or not (len(tokens[i - 1].text) == 1 and tokens[i - 1].text.isalpha()):  # "J." is an initial
                stops += 1
        if base[i]["kind"] == "year":
            seen_year = True
    return feats
