"""The text layer of a PDF page as characters, lines and segments, read with PDFium (pypdfium2).

:func:`page_chars` gives every drawn character with its box (the font's ascent-to-descent box, so the
characters of one line share a height), font size, weight and style; :func:`page_segments` groups them
into *segments*: runs of one visual line, in the order the page draws them, cut where a gap wider than
:data:`SEGMENT_GAP_EM` font sizes opens (a column gutter, a table's cells), with superscripts (smaller and
raised characters) counted and set off by a space from the word they mark ("Smith¹" -> "Smith 1"), and
the words of a letter-spaced line ("a b s t r a c t") found by its wider gaps ("abstract").
Coordinates are PDF points from the page's top-left corner. Rotated text (a margin stamp) is left out.
"""
from __future__ import annotations

import ctypes
import re
import unicodedata
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

#: A gap wider than this many font sizes between two characters of a line starts a new segment.
SEGMENT_GAP_EM = 1.2
#: A gap wider than this many font sizes between two characters is a word space.
WORD_GAP_EM = 0.18
#: A line of at least this many letters or digits with a space between every two is letter-spaced ("a b s t r a c t"):
#: its words are found by the gaps wider than its usual one.
LETTER_SPACED_MIN = 4
_MARK = re.compile(r"\d+|[^\W\d_]|[^\w\s,;]+")
#: A character this much smaller than its line's type, and raised, is a superscript.
SUP_SIZE_RATIO = 0.85
#: Font-name parts that mean a bold face, with the weight they stand for.
_WEIGHTS = (("black", 900), ("heavy", 900), ("extrabold", 800), ("ultrabold", 800), ("semibold", 600),
            ("demibold", 600), ("demi", 600), ("bold", 700), ("medium", 500), ("-bd", 700), (".b", 700))
_ITALIC_NAME = re.compile(r"italic|oblique|-it\b|\bit$|slanted", re.I)
_ITALIC_FLAG = 64
_FORCE_BOLD_FLAG = 262144
#: A hyphen PDFium finds breaking a word at a line's end: dropped when the lines join, else printed as "-".
SOFT_HYPHEN = "\u00ad"
_SPACES = frozenset(" \t\u00a0\u2002\u2003\u2009")
_BREAKS = frozenset("\r\n\x00\x02\x03\ufffe\uffff")
#: Spacing accents and the combining marks they become when drawn over a letter.
_ACCENTS = {"\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "^": "\u0302",
            "\u02dc": "\u0303", "~": "\u0303", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02da": "\u030a",
            "\u00b8": "\u0327", "\u00af": "\u0304", "\u02d9": "\u0307", "\u02dd": "\u030b", "\u02db": "\u0328"}
_MAYBE_HYPHEN = frozenset("-\x02\u00ad\u2010\ufffe")


@dataclass(frozen=True, slots=True)
class Font:
    """What a run of characters is set in."""

    size: float  #: points
    weight: int  #: CSS weight (400 regular, 700 bold)
    italic: bool


@dataclass(slots=True)
class Char:
    """One drawn character: its text, box (points, top-left origin) and font."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    font: Font
    space_before: bool = False  #: the page's text puts a space (real or generated) before it
    colour: int = 0  #: fill colour as 0xRRGGBB


@dataclass(slots=True)
class Segment:
    """A run of one visual line: the unit the reading order and the zones are built from."""

    chars: list[Char] = field(default_factory=list)
    text: str = ""
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    size: float = 0.0  #: dominant (most characters) font size, points
    weight: int = 400  #: dominant weight
    italic_chars: int = 0
    sup_chars: int = 0
    marks: tuple[str, ...] = ()  #: its superscripts' marks ("1", "*", "a"): the calls of notes

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def font_weight(name: str, weight: int, flags: int) -> int:
    """A font's CSS weight from its descriptor's weight, its flags and its name ("Times-Bold", "ABCDEF+NimbusSanL-Bold")."""
    lowered = name.lower().split("+", 1)[-1]
    named = next((w for part, w in _WEIGHTS if part in lowered), 0)
    forced = 700 if flags & _FORCE_BOLD_FLAG else 0
    return max(weight if weight > 0 else 400, named, forced)


def page_chars(page: pdfium.PdfPage) -> list[Char]:
    """The characters a page draws, in drawing order, spaces folded into ``space_before``."""
    textpage = page.get_textpage()
    try:
        return _chars(textpage.raw, page.get_height())
    finally:
        textpage.close()


def _prototype(function, restype, *argtypes):
    """``function`` of PDFium called through a plain prototype: pointers in and out as integers, without
    the per-call conversions of the bindings' pointer types."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, ctypes.c_void_p).value)


_TEXT_OBJECT = _prototype(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
_LOOSE_BOX = _prototype(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                        ctypes.POINTER(pdfium_c.FS_RECTF))
_UNICODE = _prototype(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint, ctypes.c_void_p, ctypes.c_int)
_IS_HYPHEN = _prototype(pdfium_c.FPDFText_IsHyphen, ctypes.c_int, ctypes.c_void_p, ctypes.c_int)


def _chars(raw, height: float) -> list[Char]:
    n = pdfium_c.FPDFText_CountChars(raw)
    if n <= 0:
        return []
    handle = ctypes.cast(raw, ctypes.c_void_p).value
    units = [_UNICODE(handle, i) for i in range(n)]  # not FPDFText_GetText: its text can drift off the indices
    rect = pdfium_c.FS_RECTF()
    box = ctypes.byref(rect)
    fonts: dict[int, tuple[Font, int] | None] = {}
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    chars: list[Char] = []
    space = False
    skip = -1
    for i in range(n):
        if i == skip:
            continue
        text = chr(units[i]) if 0 < units[i] < 0x110000 else "\ufffe"
        if 0xD800 <= units[i] < 0xDC00 and i + 1 < n and 0xDC00 <= units[i + 1] < 0xE000:
            text = chr(0x10000 + ((units[i] - 0xD800) << 10) + (units[i + 1] - 0xDC00))
            skip = i + 1
        elif 0xD800 <= units[i] < 0xE000:
            continue
        if text in _MAYBE_HYPHEN and _IS_HYPHEN(handle, i):
            text = SOFT_HYPHEN
        elif text in _SPACES or text in _BREAKS:
            space = True
            continue
        key = _TEXT_OBJECT(handle, i) or 0
        style = fonts.get(key, False)
        if style is False:
            style = fonts[key] = _style(raw, i, name, flags)
        if style is None or not _LOOSE_BOX(handle, i, box):  # rotated, or no box
            continue
        if rect.right - rect.left <= 0 and rect.top - rect.bottom <= 0:
            continue
        chars.append(Char(text, rect.left, height - rect.top, rect.right, height - rect.bottom, style[0], space,
                          style[1]))
        space = False
    return _compose_accents(chars)


def _compose_accents(chars: list[Char]) -> list[Char]:
    """Accents drawn apart from their letters (TeX's "\\v{R}"), put on the letter under or over them."""
    out: list[Char] = []
    pending: Char | None = None  # an accent drawn before its letter
    for char in chars:
        mark = _ACCENTS.get(char.text)
        if mark is not None:
            if out and _over(char, out[-1]):
                out[-1].text = _accented(out[-1].text, mark)
            else:
                pending = char
            continue
        if pending is not None:
            if _over(pending, char):
                char.text = _accented(char.text, _ACCENTS[pending.text])
                char.space_before = char.space_before and not pending.space_before
            pending = None
        out.append(char)
    return out


def _accented(letter: str, mark: str) -> str:
    """``letter`` with the combining ``mark``, composed (TeX puts accents on a dotless i: "ı" + "¨" is "ï")."""
    return unicodedata.normalize("NFC", letter.replace("\u0131", "i") + mark)


def _over(accent: Char, letter: Char) -> bool:
    """Whether ``accent`` is drawn over (or under) ``letter``: its middle within the letter's width."""
    middle = (accent.x0 + accent.x1) / 2
    return letter.x0 - 0.5 <= middle <= letter.x1 + 0.5


def _style(raw, i: int, name, flags) -> tuple[Font, int] | None:
    """The font and fill colour of character ``i`` (and of the text object it belongs to); None if rotated."""
    angle = pdfium_c.FPDFText_GetCharAngle(raw, i)
    if angle > 0.05 and abs(angle - 6.283185) > 0.05:
        return None
    matrix = pdfium_c.FS_MATRIX()
    scale = 1.0
    if pdfium_c.FPDFText_GetMatrix(raw, i, matrix):  # the text matrix scales the font's size on some pages
        scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5 or 1.0
    size = float(pdfium_c.FPDFText_GetFontSize(raw, i)) * scale
    pdfium_c.FPDFText_GetFontInfo(raw, i, name, len(name), flags)
    font_name = name.value.decode("latin-1", "replace")
    weight = font_weight(font_name, int(pdfium_c.FPDFText_GetFontWeight(raw, i)), flags.value)
    italic = bool(flags.value & _ITALIC_FLAG) or bool(_ITALIC_NAME.search(font_name))
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    colour = 0
    if pdfium_c.FPDFText_GetFillColor(raw, i, r, g, b, a):
        colour = (r.value << 16) | (g.value << 8) | b.value
    return Font(round(size, 2), weight, italic), colour


def page_segments(chars: list[Char]) -> list[Segment]:
    """Group a page's characters into segments (see the module docstring), in drawing order; segments of
    one visual line that abut (a line drawn in pieces) are joined."""
    segments: list[Segment] = []
    current: list[Char] = []
    for char in chars:
        if current and not _continues(current, char):
            segments.append(_segment(current))
            current = []
        current.append(char)
    if current:
        segments.append(_segment(current))
    return _join_pieces(segments)


def _continues(run: list[Char], char: Char) -> bool:
    """Whether ``char`` goes on the run: on its line (overlapping its last character by half the
    smaller height), not behind it, and not past a segment gap."""
    last = run[-1]
    overlap = min(last.y1, char.y1) - max(last.y0, char.y0)
    if overlap < 0.5 * min(last.y1 - last.y0, char.y1 - char.y0):
        return False
    em = max(last.font.size, char.font.size, 1.0)
    # not behind the last character's start (the letters of a ligature share its box), nor past a gap
    return char.x0 >= last.x0 - 0.5 * em and char.x0 - last.x1 <= SEGMENT_GAP_EM * em


def _join_pieces(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for seg in segments:
        prev = out[-1] if out else None
        if prev is not None:
            overlap = min(prev.y1, seg.y1) - max(prev.y0, seg.y0)
            gap = seg.x0 - prev.x1
            em = max(prev.size, seg.size, 1.0)
            if overlap >= 0.6 * min(prev.height, seg.height) and -0.5 * em <= gap <= SEGMENT_GAP_EM * em:
                out[-1] = _segment(prev.chars + seg.chars)
                continue
        out.append(seg)
    return out


def _segment(chars: list[Char]) -> Segment:
    sizes: dict[float, int] = {}
    weights: dict[int, int] = {}
    for c in chars:
        sizes[c.font.size] = sizes.get(c.font.size, 0) + 1
        weights[c.font.weight] = weights.get(c.font.weight, 0) + 1
    size = max(sizes, key=sizes.__getitem__)
    body = [c for c in chars if c.font.size == size]
    base = max(c.y1 for c in body)  # the bottom of the line's own type
    sup = [c.font.size < SUP_SIZE_RATIO * size and c.y1 < base - 0.15 * size for c in chars]
    spaces = [False] + [
        c.space_before or c.x0 - prev.x1 > WORD_GAP_EM * max(prev.font.size, c.font.size, 1.0)
        or (sup[i] != sup[i - 1] and prev.text[-1:].isalnum() and c.text[:1].isalnum())
        for i, (prev, c) in enumerate(zip(chars, chars[1:]), start=1)]
    if len(chars) >= LETTER_SPACED_MIN and all(spaces[1:]) and all(c.text.isalnum() for c in chars):
        spaces = _letter_spaced_words(chars)
    pieces: list[str] = []
    for c, space in zip(chars, spaces):
        if space and not pieces[-1].endswith(" "):
            pieces.append(" ")
        pieces.append(c.text)
    text = " ".join("".join(pieces).split())
    return Segment(
        chars=chars, text=text,
        x0=min(c.x0 for c in chars), y0=min(c.y0 for c in body), x1=max(c.x1 for c in chars),
        y1=max(c.y1 for c in body), size=size, weight=max(weights, key=weights.__getitem__),
        italic_chars=sum(c.font.italic for c in chars), sup_chars=sum(sup), marks=_marks(chars, sup),
    )


def _marks(chars: list[Char], sup: list[bool]) -> tuple[str, ...]:
    """The marks a line's superscripts set: numbers, single letters, runs of symbols ("1,4*" gives
    "1", "4" and "*")."""
    runs = "".join(c.text if raised else " " for c, raised in zip(chars, sup))
    return tuple(_MARK.findall(runs))


def _letter_spaced_words(chars: list[Char]) -> list[bool]:
    """Word spaces of a letter-spaced line ("a b s t r a c t"): where the gap between two characters
    exceeds the line's usual letter gap by :data:`WORD_GAP_EM` of the type size."""
    gaps = [c.x0 - prev.x1 for prev, c in zip(chars, chars[1:])]
    usual = sorted(gaps)[len(gaps) // 2]
    return [False] + [gap - usual > WORD_GAP_EM * max(prev.font.size, c.font.size, 1.0)
                      for gap, prev, c in zip(gaps, chars, chars[1:])]
