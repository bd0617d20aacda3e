"""Sentence splitting for scholarly text: pysbd, guarded against the abbreviations of papers.

pysbd alone splits after "Eq. 3", "approx. 5", species abbreviations ("An. gambiae",
"Geocoris spp. predators", "s. l.") and before run-in enumerations ("revealed 1) a loss"), and it
keeps superscript citations at sentence ends ("confirmed.13,14 Next") inside one sentence. A
protective pass hides the full stops of known abbreviations from pysbd (same-length stand-in, so
offsets stay valid); a repair pass then merges pieces that cannot be sentence ends, gives
closing brackets back to the sentence they close and splits after superscript citation numbers.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pysbd

from ..lexicons import alternation, lexicon

#: Private-use stand-in for a protected full stop; one character, so spans map back unchanged.
_GUARD = "\ue000"

#: Abbreviations (lower case, without their final full stop) that do not end a sentence when
#: a digit, a lower-case word or a bracket follows: the lexicon ``abbreviations``.
ABBREVIATIONS = frozenset(lexicon("abbreviations"))
#: Abbreviations that never end a sentence, whatever follows ("Cf. Table 1", "Dr. Smith"): the lexicon
#: ``never_final``.
NEVER_FINAL = frozenset(lexicon("never_final"))
_ABBREV_WORDS = alternation("abbreviations")
#: A known abbreviation followed by something that cannot start a sentence.
_PROTECT_ABBREV = re.compile(rf"(?<![\w.]){_ABBREV_WORDS}(\.)(?=\s+[\da-z(\[])")
#: An abbreviation that never ends a sentence, before any word.
_PROTECT_NEVER_FINAL = re.compile(rf"(?<![\w.]){alternation('never_final')}(\.)(?=\s+\S)")
#: An abbreviated genus before its species epithet: "E. coli", "An. gambiae".
_PROTECT_GENUS = re.compile(r"(?<![\w.])[A-Z][a-z]?(\.)(?=\s+[a-z]{3,})")
#: How a sentence may end: terminal punctuation, closing quotes or brackets, citation numbers.
_TERMINAL = re.compile(r"""(?:[.!?…][\s"'”’»)\]]*(?:\d{1,3}(?:\s*[,–-]\s*\d{1,3})*)?|[.!?…]["'”’»)\]]*\s*\[[\d,\s–-]+\])\s*$""")
_ENDS_ABBREV = re.compile(rf"(?<![\w.])(?:{_ABBREV_WORDS}|[A-Za-z])\.\s*$", re.I)
#: Closing brackets and quotes at the start of a piece.
_CLOSING = re.compile(r"\s*[)\]}”’»\"']+")
#: A superscript citation glued to a full stop, then a new sentence: "confirmed.13,14 Next".
_SUPERSCRIPT_END = re.compile(r"(?<=[a-z)\]]\.)\d{1,3}(?:[,–-]\d{1,3})*(?=\s+[A-Z][a-z])")


@lru_cache(maxsize=1)
def _segmenter() -> pysbd.Segmenter:
    return pysbd.Segmenter(language="en", clean=False, char_span=False)


def _protect(text: str) -> str:
    chars = list(text)
    for pattern in (_PROTECT_ABBREV, _PROTECT_NEVER_FINAL, _PROTECT_GENUS):
        for m in pattern.finditer(text):
            chars[m.start(1)] = _GUARD
    return "".join(chars)


def _pysbd_spans(text: str) -> list[tuple[int, int]]:
    """pysbd's pieces of ``text`` as character spans (pieces are located if pysbd changed them)."""
    spans, cursor = [], 0
    for piece in _segmenter().segment(text):
        start = text.find(piece, cursor)
        if start < 0:  # pysbd altered the piece: fall back to its stripped text
            stripped = piece.strip()
            start = text.find(stripped, cursor) if stripped else -1
            if start < 0:
                continue
            piece = stripped
        spans.append((start, start + len(piece)))
        cursor = start + len(piece)
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
            if not _TERMINAL.search(prev) or (lower and _ENDS_ABBREV.search(prev)) or not re.search(r"\w", nxt):
                out[-1] = (out[-1][0], end)
                continue
        out.append((start, end))
    return out


def _split_superscripts(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for start, end in spans:
        for m in _SUPERSCRIPT_END.finditer(text, start, end):
            word = re.search(r"(\w+)\.$", text[start:m.start()])
            if word and word.group(1).lower() in ABBREVIATIONS:
                continue
            out.append((start, m.end()))
            start = m.end()
        out.append((start, end))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text``, surrounding white space excluded."""
    if not text.strip():
        return []
    spans = _split_superscripts(text, _merge(text, _pysbd_spans(_protect(text))))
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
