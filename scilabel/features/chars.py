"""Characters as numbers: the code points of a text, classified with a table for ASCII and once per
distinct code point for the rest, and the kinds of characters the layout features count."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (lone surrogates included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def ascii_table(of_char: Callable[[str], int]) -> np.ndarray:
    """``of_char`` of the 128 ASCII characters, by code point."""
    return np.array([of_char(chr(code)) for code in range(128)], dtype=np.int8)


def classify(codes: np.ndarray, table: np.ndarray, of_char: Callable[[str], int]) -> np.ndarray:
    """``of_char`` of every code point: ASCII ones from ``table`` (:func:`ascii_table` of ``of_char``),
    the others computed once per distinct code point."""
    out = np.take(table, codes, mode="clip")
    wide = codes > 127
    if wide.any():
        distinct, inverse = np.unique(codes[wide], return_inverse=True)
        out[wide] = np.array([of_char(chr(code)) for code in distinct], dtype=table.dtype)[inverse]
    return out


#: Kinds of characters counted by layout features (ASCII capitals, other letters: ASCII or non-ASCII
#: outside the punctuation and symbol blocks, ASCII digits, punctuation), and the rest.
OTHER, CAPITAL, SMALL, FIGURE, MARK = range(5)


def char_kind(char: str) -> int:
    """The kind of a character (:data:`OTHER` .. :data:`MARK`) times 4, plus 2 if ``str.isdecimal``
    (regex ``\\d``), plus 1 if ``str.isspace`` (regex ``\\s``)."""
    code = ord(char)
    symbol = 0x2010 <= code <= 0x2BFF or code in (0xD7, 0xF7)
    space = code <= 32 or code == 160 or 0x2000 <= code <= 0x200B or code == 0x3000
    if 65 <= code <= 90:
        kind = CAPITAL
    elif 97 <= code <= 122 or (code >= 0xC0 and not symbol):
        kind = SMALL
    elif 48 <= code <= 57:
        kind = FIGURE
    elif not space and code != 95 and code > 32:
        kind = MARK
    else:
        kind = OTHER
    return 4 * kind + 2 * char.isdecimal() + char.isspace()


#: :func:`char_kind` of the ASCII characters.
ASCII_CHAR_KIND = ascii_table(char_kind)
