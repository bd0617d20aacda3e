"""Sentence splitting for scholarly text: the one splitter of citation contexts, structure and baselines.

A sentence may end after terminal punctuation (with its closing quotes or brackets, or a bracketed
citation: "known [12].") and after a superscript citation glued to its full stop ("confirmed.13,14
Next"), where white space follows. Three passes decide: a protective pass hides the full stops of
known abbreviations, initials and abbreviated genera (a same-length stand-in, so offsets stay valid);
every remaining place is cut, except inside a short bracketed aside; a repair pass joins pieces whose
end cannot be a sentence end (no terminal punctuation; an abbreviation or a closed aside before a
lower-case word or a digit) and gives closing brackets back to the sentence they close.

General splitters miss the habits of papers ("Eq. 3", "approx. 5", "An. gambiae", "s. l.",
"revealed 1) a loss") and pysbd, which this replaced, costs about 200 times as much
(``docs/decisions.md``).
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from .lexicons import lexicon

#: Private-use stand-in for a protected full stop; one character, so spans map back unchanged.
_GUARD = "\ue000"

#: Abbreviations (lower case, without their final full stop) that do not end a sentence when
#: a digit, a lower-case word or a bracket follows: the lexicon ``abbreviations``.
ABBREVIATIONS = frozenset(lexicon("abbreviations"))
#: Abbreviations that never end a sentence, whatever follows ("Cf. Table 1", "Dr. Smith"): the lexicon
#: ``never_final``.
NEVER_FINAL = frozenset(lexicon("never_final"))
#: A full stop before white space, with the next (up to three) characters.
_STOP = re.compile(r"\.(?=\s+(\S{1,3}))")
#: The word before a full stop: letters, digits and inner full stops ("e.g", "J.M", "An").
_WORD = re.compile(r"(?<![\w.])[\w.]+$")
#: The word characters just before a position (searched up to it).
_LAST_WORD = re.compile(r"\w+$")
#: An abbreviated genus: "E", "An".
_GENUS = re.compile(r"[A-Z][a-z]?")
#: Where a sentence may end before white space: terminal punctuation, closing quotes or brackets.
_CUT = re.compile(r"""[.!?…]+["'”’»)\]]*(?:\[[\d,\s–-]+\])?(?=\s)"""
                  r"|(?<=[^\W\d_)\]°%])(?P<dot>\.)\d{1,3}(?:[,–-]\d{1,3})*(?=\s+[A-Z])")
#: A bracketed aside, inside which no sentence ends: "(see Smith. Also Jones)".
_ASIDE = re.compile(r"\([^()]{0,400}\)|\[[^\[\]]{0,400}\]")
#: How a sentence may end: terminal punctuation, closing quotes or brackets, citation numbers.
_TERMINAL = re.compile(r"""(?:[.!?…][\s"'”’»)\]]*(?:\d{1,3}(?:\s*[,–-]\s*\d{1,3})*)?|[.!?…]["'”’»)\]]*\s*\[[\d,\s–-]+\])\s*$""")
#: A bracketed aside closing on its own terminal punctuation: "(see above.)", "(“Why?”)".
_ENDS_ASIDE = re.compile(r"""[.!?]["'”’]*[)\]]\s*$""")
#: What continues a sentence and never starts one: "3 vol. % DIO", "Tel. : +49".
_CONTINUES = re.compile(r"[,;:%]")
#: Closing brackets and quotes at the start of a piece.
_CLOSING = re.compile(r"\s*[)\]}”’»\"']+")


def _word(text: str, stop: int) -> str:
    """The word that the full stop at ``stop`` closes ("" if none)."""
    m = _WORD.search(text, max(0, stop - 24), stop)
    return m.group() if m else ""


def _ends_in_letter(word: str) -> bool:
    """Whether ``word`` ends in a letter standing alone or after an initial's full stop: "A", "J.M", "s"."""
    return word[-1:].isascii() and word[-1:].isalpha() and (len(word) == 1 or not word[-2].isalpha())


def _keeps(word: str, follow: str) -> bool:
    """Whether the full stop after ``word`` cannot end a sentence before ``follow`` (the next
    characters): an abbreviation that never ends one ("Fig. 3", "Dr. Smith"); a known abbreviation
    before a digit, a lower-case word or a bracket ("approx. 5", "et al. (2010)"); an abbreviated genus
    before its epithet ("E. coli", "An. gambiae"); an initial before a name ("A. D. Craig")."""
    lower = word.lower()
    first = follow[0]
    return (lower in NEVER_FINAL
            or (lower in ABBREVIATIONS and (first.isdigit() or first.islower() or first in "(["))
            or (bool(_GENUS.fullmatch(word)) and len(follow) == 3 and follow.isalpha() and follow.islower())
            or (_ends_in_letter(word) and word[-1].isupper() and (first in "(" or "A" <= first <= "Z")))


def _protect(text: str) -> str:
    """``text`` with the full stops that cannot end a sentence (:func:`_keeps`) hidden."""
    chars = None
    for m in _STOP.finditer(text):
        word = _word(text, m.start())
        if word and _keeps(word, m.group(1)):
            chars = chars or list(text)
            chars[m.start()] = _GUARD
    return "".join(chars) if chars else text


def _ends_abbreviation(piece: str) -> bool:
    """Whether ``piece`` ends in a known abbreviation or a single letter, with its full stop (and a
    closing bracket): "et al.", "(H.R.S. or M.P.)"."""
    piece = piece.rstrip()
    if piece[-1:] in ")]":
        piece = piece[:-1]
    if not piece.endswith("."):
        return False
    word = _word(piece, len(piece) - 1)
    return bool(word) and (word.lower() in ABBREVIATIONS or _ends_in_letter(word))


def _cuts(text: str) -> list[tuple[int, int]]:
    """``text`` cut at every place a sentence may end, except inside a short bracketed aside and
    after an abbreviation glued to a citation number ("et al.12")."""
    asides = [(m.start(), m.end()) for m in _ASIDE.finditer(text)]
    starts = [a for a, _ in asides]
    spans, start = [], 0
    for m in _CUT.finditer(text):
        end = m.end()
        i = bisect.bisect_left(starts, end) - 1
        if i >= 0 and end < asides[i][1]:
            continue
        if m.group("dot"):
            word = _LAST_WORD.search(text, start, m.start("dot"))
            if word and word.group().lower() in ABBREVIATIONS:
                continue
        spans.append((start, end))
        start = end
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def _merge(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Join pieces whose end cannot be a sentence end; closing brackets or quotes that open a
    piece go back to the sentence they close, and a piece of punctuation only (")") with them."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out:
            closing = _CLOSING.match(text, start, end)
            if closing:
                out[-1] = (out[-1][0], closing.end())
                start = closing.end()
            prev = text[out[-1][0]:out[-1][1]]
            nxt = text[start:end].lstrip()
            lower = nxt[:1].islower() or nxt[:1].isdigit()
            tail = prev[-80:]
            closed = _ends_abbreviation(tail) or _ENDS_ASIDE.search(tail)
            if (not _TERMINAL.search(tail) or (lower and closed) or _CONTINUES.match(nxt)
                    or not re.search(r"\w", nxt)):
                out[-1] = (out[-1][0], end)
                continue
        out.append((start, end))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text``, surrounding white space excluded."""
    if not text.strip():
        return []
    spans = _merge(text, _cuts(_protect(text)))
    out = []
    for start, end in spans:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece) - len(piece.rstrip())
        if end - trail > start + lead:
            out.append((start + lead, end - trail))
    return out


@lru_cache(maxsize=8192)
def _split(text: str) -> tuple[str, ...]:
    return tuple(text[a:b] for a, b in sentence_spans(text))


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (a paragraph), in order, stripped."""
    return list(_split(text))
