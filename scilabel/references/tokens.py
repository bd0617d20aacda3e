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
#: Token-window offsets whose features each token also sees: word, kind, shape (next-door tokens
#: only), or that the window runs past the edge of the reference.
WINDOW = (-2, -1, 1, 2)
_EDGE_ATTRS = {off: f"{off}:edge" for off in WINDOW}


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


@dataclass(frozen=True)
class _Word:
    """What a token's text alone decides: its lower-cased form (numbers by kind, not value), its kind,
    and its CRF attributes as the token itself and as each window offset's neighbour."""

    low: str
    kind: str
    own: tuple[str, ...]
    seen: dict[int, tuple[str, ...]]


@lru_cache(maxsize=65536)
def _word(word: str) -> _Word:
    kind = _kind(word)
    low = f"<{kind}>" if kind.startswith("num") or kind == "year" else word.lower()
    form = shape(word)
    own = [f"w:{low}", f"shape:{form}", f"kind:{kind}"]
    if word.isalpha() and len(word) > 2:
        own += [f"p3:{low[:3]}", f"s3:{low[-3:]}", f"s2:{low[-2:]}"]
    if _ROMAN.match(word) and len(word) > 1:
        own.append("roman")
    seen = {off: (f"{off}:w:{low}", f"{off}:kind:{kind}", *([f"{off}:shape:{form}"] if abs(off) == 1 else []))
            for off in WINDOW}
    return _Word(low, kind, tuple(own), seen)


def sequence_features(text: str, tokens: list[Token] | None = None) -> list[list[str]]:
    """The CRF attributes of each token of ``text`` (``name:value`` strings, or a bare name for a flag,
    as crfsuite reads them): the token itself (word, shape, kind, affixes, whether it is glued to the
    next token or followed by a space), its window, and where it stands in the reference (relative
    position, inside quotes or brackets, how many full stops and commas came before, whether a year
    came before, the nearest punctuation and the nearest word either side)."""
    tokens = tokenize(text) if tokens is None else tokens
    n = len(tokens)
    words = [_word(t.text) for t in tokens]
    nxt_punct, nxt_word = [""] * n, [""] * n
    following, following_word = "", ""
    for i in range(n - 1, -1, -1):
        nxt_punct[i], nxt_word[i] = following, following_word
        if words[i].kind == "punct":
            following = tokens[i].text
        else:
            following_word = words[i].low
    feats: list[list[str]] = []
    last_punct, last_word, since_punct = "", "", 0
    depth = quote = stops = commas = 0
    seen_year = False
    length = max(1, len(text))
    for i, tok in enumerate(tokens):
        here = words[i]
        f = ["bias", *here.own]
        if i + 1 < n and tokens[i + 1].start == tok.end:
            nxt = tokens[i + 1].text
            f.append(f"glued:{nxt if not nxt[0].isalnum() else 'w'}")  # "J." "Smith," "1999)"
        if tok.end == len(text) or text[tok.end].isspace():
            f.append("space_after")
        f += [f"pos:{min(9, 10 * tok.start // length)}", f"idx:{min(i, 6)}", f"stops:{min(stops, 6)}",
              f"commas:{min(commas, 8)}"]
        if depth:
            f.append("in_bracket")
        if quote:
            f.append("in_quote")
        if seen_year:
            f.append("after_year")
        f += [f"last_punct:{last_punct}", f"next_punct:{nxt_punct[i]}", f"prev_word:{last_word}",
              f"next_word:{nxt_word[i]}", f"since_punct:{min(since_punct, 4)}"]  # words across punctuation
        for off in WINDOW:
            j = i + off
            if 0 <= j < n:
                f += words[j].seen[off]
            else:
                f.append(_EDGE_ATTRS[off])
        if i:
            f.append(f"-1w|w:{words[i - 1].low}|{here.low}")
        if i + 1 < n:
            f.append(f"w|+1w:{here.low}|{words[i + 1].low}")
        feats.append(f)
        word = tok.text
        if here.kind == "punct":
            last_punct, since_punct = word, 0
        else:
            last_word, since_punct = here.low, since_punct + 1
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
        if here.kind == "year":
            seen_year = True
    return feats
