"""Zone features: the words of a zone and its layout.

Layout features are computed per page from a zones frame (:func:`scilabel.zones.zones_frame` rows,
a ``document`` column telling pages apart). The paper's four (number of words, left, top, height) come
first; the rest add what it lacks: width, position relative to the page and in reading order, font
size relative to the page's body text, bold and italic type, shares of capitals, digits and
punctuation, e-mail / URL / DOI / year patterns, superscript markers, link density, whether the
previous zone is an abstract or references heading, whether the zone is written as names are,
whether it opens with the name of a structured abstract's part, whether it lies below a
related-articles heading, and whether it is the page's first zone of prose (a site's notice aside). :class:`ZoneArrays`
computes only the features asked for, each input (texts, columns, character counts) once per call.

Words are the tokens of :func:`tokenize`, which fitting uses. Labelling counts them with a
:class:`TokenIndex`: a page's texts are joined and tokenized with numpy on their code points, and
tokens are matched to vocabulary columns by hash, then checked code point by code point: the counts of
a ``CountVectorizer`` with :func:`tokenize` as analyzer, without Python work per token.
"""
from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import TypeVar

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer

#: The zones-frame columns features are computed from (``document``, ``page_width`` and ``page_height``
#: when present).
ZONE_COLUMNS = ("text", "x", "y", "w", "h", "font_size", "font_weight", "link_chars", "sup_chars", "italic_chars",
                "document", "page_width", "page_height")
#: Zones as features read them: a zones frame, or its columns as arrays by name (all of one length).
Zones = pd.DataFrame | Mapping[str, np.ndarray]
#: The layout features of Zou, Le & Thoma (2007).
PAPER_LAYOUT = ("n_words", "left", "top", "height")
#: Every layout feature :func:`layout_matrix` computes.
LAYOUT_FEATURES = PAPER_LAYOUT + (
    "width", "x_rel", "y_rel", "order_rel", "font_rel", "bold", "italic", "caps", "digits", "punct",
    "sup", "link", "email", "url", "doi", "years", "lines", "chars", "marker", "prev_abstract_cue",
    "prev_references_cue", "name_shape", "abstract_part", "after_related_cue", "first_prose",
)
#: The names of a structured abstract's parts, as a regular expression (in lower case); not
#: "Introduction", which far more often opens the body.
ABSTRACT_PART_NAMES = (
    r"background|context|importance|purpose|aims?|objectives?|design|setting|participants"
    r"|patients|interventions?|measurements?|main outcomes?(?: and)? measures?|outcomes?|methods?(?: and findings)?"
    r"|results?|findings|interpretation|conclusions?(?: and relevance)?|significance|trial registration")
#: A zone opening with the name of a structured abstract's part, then its text: "Methods Ten adult
#: subjects ...", "Results: For the ...", not the heading "Methods" alone nor "Results of the model ...".
_ABSTRACT_PART = re.compile(rf"\s*(?i:{ABSTRACT_PART_NAMES})\s*[:.\u2013\u2014-]?\s+(?=[A-Z0-9(])")
#: A part's name on a line of its own ("Methods", "Results:").
PART_LINE = re.compile(rf"(?:{ABSTRACT_PART_NAMES})[:.]?$", re.I)
#: Fewest words of the paragraph under a part's name of its own.
PART_MIN_WORDS = 5
_ABSTRACT_CUE = re.compile(r"abstract|summary|synopsis|key points|highlights", re.I)
_REFERENCES_CUE = re.compile(r"references|bibliography|literature|works cited|notes", re.I)
#: A heading over links to other articles ("Related articles", "Similar articles in this archive",
#: "You may also like", "Cited by"), at the start of its text (of its line, as cues are searched in
#: texts joined by newlines); "Related work" is a body section.
_RELATED_CUE = re.compile(r"^[^\w\n]*(?:related(?!\s+work)|similar\b|recommended\b|you may also|more like this|"
                          r"people also|cited by|citing articles|read next|more from)", re.I | re.M)
#: Most words in a zone read as a heading (a cue) by the cue features.
CUE_MAX_WORDS = 4
#: Most words in a related-content heading ("Similar articles in this archive").
RELATED_CUE_MAX_WORDS = 6
#: A related block in the first half of a page ends at text (two words or more) set at least this many
#: times larger than the page's body text: the article's title.
RELATED_END_SCALE = 1.3
#: Least font weight read as bold.
BOLD_WEIGHT = 600
#: Fewest words in a zone of prose (a paragraph, not a line of a byline or a menu).
PROSE_MIN_WORDS = 30
#: Largest share of capitals among the letters of a zone of prose (a list of names has more).
PROSE_MAX_CAPS = 0.12
#: A site notice opening a paragraph (cookie consent, a copyright and licence line, a library's
#: disclaimer): prose of the site, not of the article.
_NOTICE = re.compile(r"\bcookies?\b|copyright|\u00a9|\blicen[cs]ed?\b|\bprivacy\b|\bdisclaimer|\bendorse"
                     r"|\bterms (?:of|and) (?:use|service|conditions)", re.I)
#: Characters at the start of a paragraph searched for a notice (an abstract may end with its copyright line).
NOTICE_CHARS = 120

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+")  # starts only where a run starts: linear time
_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
_DOI = re.compile(r"10(?<!\w10)\.\d{4,9}/\S+")  # ``\b10\.\d{4,9}/\S+``, starting with a literal: faster
_MARKER = re.compile(r"^\s*(?:\[\d+\]|\(?\d{1,3}[.)]|[*\u2020\u2021\u00a7]|[a-z]\))\s")
#: Characters at the start of a zone that ``name_shape`` reads.
NAME_SHAPE_CHARS = 160
#: Most words (counting those that start with a letter) in one name of a name-shaped zone.
NAME_WORDS = 4
_NAME_SEPARATOR = re.compile(r"[,;&]| and ")
_TOKEN = re.compile(r"<\w+>|[^\W\d_]+|\d+|[^\w\s]")
_NONZERO_DIGIT = re.compile(r"[1-9]")
_LONG_NUMBER = re.compile(r"0{6,}")


def written_as_names(text: str) -> bool:
    """Whether ``text`` is a list of title-cased names of at most :data:`NAME_WORDS` words each."""
    if not text.replace(" and ", ", ").istitle():
        return False
    return all(sum(w[0].isalpha() for w in name.split()) <= NAME_WORDS for name in _NAME_SEPARATOR.split(text))


def _mask_patterns(lowered: str) -> str:
    """E-mail addresses, DOIs and URLs of a lower-cased text as ``<email>``, ``<doi>``, ``<url>``.
    Never crosses a newline."""
    text = _sub_lines(_EMAIL, " <email> ", lowered, ("@",))
    text = _sub_lines(_DOI, " <doi> ", text, ("10.",))
    return _sub_lines(_URL, " <url> ", text, ("http", "www."))


def _normalise(text: str) -> str:
    """Lower case, patterns masked (:func:`_mask_patterns`), every number as its shape (``0000`` for
    a 4-digit number, at most five zeros)."""
    return _LONG_NUMBER.sub("00000", _NONZERO_DIGIT.sub("0", _mask_patterns(text.lower())))


def _sub_lines(pattern: re.Pattern, repl: str, text: str, cues: tuple[str, ...]) -> str:
    """``pattern.sub(repl, text)``, run only on the lines holding one of the ``cues`` (lower case)
    every match needs: far fewer characters for the regex engine to scan."""
    parts, done = [], 0
    for start, end in _cue_lines(text, cues):
        parts += (text[done:start], pattern.sub(repl, text[start:end]))
        done = end
    return "".join(parts) + text[done:] if parts else text


def _cue_lines(text: str, cues: tuple[str, ...]) -> list[tuple[int, int]]:
    """Start and end of every line of ``text`` holding one of ``cues``, in order."""
    lines = {}
    for cue in cues:
        at = text.find(cue)
        while at >= 0:
            start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
            lines[start] = end = len(text) if end < 0 else end
            at = text.find(cue, end)
    return sorted(lines.items())


def tokenize(text: str) -> list[str]:
    """Normalised word tokens (see :func:`_normalise`); punctuation kept as tokens."""
    return _TOKEN.findall(_normalise(text))


# -- code points ------------------------------------------------------------------------------------

def _code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (lone surrogates included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _ascii_table(of_char: Callable[[str], int]) -> np.ndarray:
    return np.array([of_char(chr(code)) for code in range(128)], dtype=np.int8)


def _classify(codes: np.ndarray, table: np.ndarray, of_char: Callable[[str], int]) -> np.ndarray:
    """``of_char`` of every code point: ASCII ones from ``table`` (:func:`_ascii_table` of ``of_char``),
    the others computed once per distinct code point."""
    out = np.take(table, codes, mode="clip")
    wide = codes > 127
    if wide.any():
        distinct, inverse = np.unique(codes[wide], return_inverse=True)
        out[wide] = np.array([of_char(chr(code)) for code in distinct], dtype=table.dtype)[inverse]
    return out


def _token_text(texts: list[str]) -> str:
    """The texts joined by newlines, in lower case, newlines within a text as spaces (no token holds
    either): what :class:`TokenIndex` tokenizes."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1:
        joined = "\n".join(t.replace("\n", " ") for t in texts)
    return joined.lower()


def _line_starts(text: str) -> np.ndarray:
    """Where each line of ``text`` starts."""
    return np.concatenate([[0], np.flatnonzero(_code_points(text) == 10) + 1])


def _join_lines(texts: list[str]) -> tuple[list[str], str]:
    """``texts`` with one line each and no NULs (spaces instead), and those texts joined by newlines."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1 or "\0" in joined:
        texts = [t.replace("\n", " ").replace("\0", " ") for t in texts]
        joined = "\n".join(texts)
    return texts, joined


# -- words --------------------------------------------------------------------------------------------

#: Code point classes of :data:`_TOKEN`'s alternatives: characters between tokens, newlines (between
#: texts), letters, digits, punctuation (one token each), characters of a ``<\w+>`` placeholder.
_BETWEEN, _NEWLINE, _LETTER, _DIGIT, _PUNCT, _PLACEHOLDER = range(6)
_CLASS_OF = re.compile(r"(\n)|([^\W\d_])|(\d)|([^\w\s])")  # group numbers are the classes above


def _token_class(char: str) -> int:
    match = _CLASS_OF.fullmatch(char)
    return match.lastindex if match else _BETWEEN


_ASCII_TOKEN_CLASS = _ascii_table(_token_class)


def _shape_numbers(codes: np.ndarray) -> np.ndarray:
    """:func:`_normalise`'s number shapes on code points: ASCII digits as ``0``, runs of zeros cut to five."""
    digit = (codes - np.uint32(48)) <= 9  # unsigned: wraps below "0"
    codes = np.where(digit, np.uint32(48), codes)
    cut = digit[5:].copy()  # code point i + 5 is the sixth (or later) zero of a run
    for back in range(5):
        cut &= digit[back:len(digit) - 5 + back]
    return codes[np.concatenate([np.ones(min(5, len(codes)), dtype=bool), ~cut])] if cut.any() else codes


def _offsets(lengths: np.ndarray) -> np.ndarray:
    """Offset of every code point within its string, for strings of ``lengths`` one after another
    (int32: positions in a page's text)."""
    ends = np.cumsum(lengths)
    starts = (ends - lengths).astype(np.int32)
    return np.arange(ends[-1] if len(ends) else 0, dtype=np.int32) - np.repeat(starts, lengths)


def _mark_placeholders(codes: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Class the characters of every ``<\\w+>`` as :data:`_PLACEHOLDER` (in place); return their starts."""
    opens = np.flatnonzero(codes == 60)  # "<"
    if len(opens) == 0:
        return opens
    word = (classes == _LETTER) | (classes == _DIGIT) | (codes == 95)
    breaks = np.append(np.flatnonzero(~word), len(codes))
    closes = breaks[np.searchsorted(breaks, opens, side="right")]
    closed = (closes > opens + 1) & (closes < len(codes))
    closed[closed] = codes[closes[closed]] == 62  # ">"
    opens = opens[closed]
    lengths = closes[closed] + 1 - opens
    classes[np.repeat(opens, lengths) + _offsets(lengths)] = _PLACEHOLDER
    return opens


class _Tokens:
    """The :data:`_TOKEN` matches of normalised text given as code points (texts joined by newlines):
    where each starts, its length and its line (text number); ``inside`` marks their code points.
    Their hashes are kept per hash base, so several vocabularies look up one page's tokens once."""

    @classmethod
    def of(cls, token_text: str) -> _Tokens:
        """The tokens of texts given as :func:`_token_text`."""
        return cls(_shape_numbers(_code_points(_mask_patterns(token_text))))

    def __init__(self, codes: np.ndarray):
        classes = _classify(codes, _ASCII_TOKEN_CLASS, _token_class)
        opens = _mark_placeholders(codes, classes)
        inside = classes >= _LETTER
        first = inside.copy()
        first[1:] &= (classes[1:] != classes[:-1]) | (classes[1:] == _PUNCT)
        first[opens] = True
        last = inside.copy()
        last[:-1] &= first[1:] | ~inside[1:]
        self.codes = codes
        self.inside = inside
        self.starts = np.flatnonzero(first)
        self.lengths = np.flatnonzero(last) + 1 - self.starts
        self.rows = np.cumsum(classes == _NEWLINE, dtype=np.int32)[self.starts]
        self._hashes: dict[int, np.ndarray] = {}

    @cached_property
    def chars(self) -> np.ndarray:
        """The tokens' code points, token after token."""
        return np.compress(self.inside, self.codes)

    @cached_property
    def offsets(self) -> np.ndarray:
        """Offset of each of :attr:`chars` within its token."""
        return _offsets(self.lengths)

    def hashes(self, base: int) -> np.ndarray:
        """:func:`_hash_strings` of every token under ``base`` (computed once per base)."""
        if base not in self._hashes:
            self._hashes[base] = _hash_strings(self.chars, self.offsets, self.lengths, base)
        return self._hashes[base]


#: Odd multipliers of the token hash, tried in turn until a vocabulary's hashes are distinct.
_HASH_BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5)
_POWERS: dict[int, np.ndarray] = {}  # base -> its powers, grown to the longest token


def _powers(base: int, n: int) -> np.ndarray:
    """``base ** k`` modulo 2**64 for k = 0 .. at least n - 1."""
    powers = _POWERS.get(base)
    if powers is None or len(powers) < n:
        size = max(n, 2 * len(powers) if powers is not None else 256)
        factors = np.full(size, base, dtype=np.uint64)
        factors[0] = 1
        powers = _POWERS[base] = np.cumprod(factors)
    return powers


def _hash_strings(chars: np.ndarray, offsets: np.ndarray, lengths: np.ndarray, base: int) -> np.ndarray:
    """Hash (mod 2**64) of each string (none empty) in ``chars`` (code points of strings of ``lengths``
    one after another, ``offsets`` within them): the sum of ``code * base ** offset``, then mixed so
    that the top bits vary (a one-character string hashes to its code point)."""
    if len(lengths) == 0:
        return np.empty(0, dtype=np.uint64)
    sums = np.cumsum(chars * _powers(base, int(lengths.max()))[offsets])  # wraps around: mod 2**64
    last = sums[np.cumsum(lengths) - 1]
    hashes = last - np.concatenate([np.zeros(1, np.uint64), last[:-1]])
    hashes ^= hashes >> np.uint64(29)
    hashes *= np.uint64(0xBF58476D1CE4E5B9)
    return hashes ^ (hashes >> np.uint64(32))


class TokenIndex:
    """Counts of the :func:`tokenize` tokens of many texts over one or more vocabularies, as ``CountVectorizer(
    analyzer=tokenize, vocabulary=vocabulary)`` makes them, but tokenized with numpy over the joined
    texts and matched to the vocabularies' words by hash, then checked code point by code point (so a
    hash collision cannot miscount): each token is looked up once for all the vocabularies.

    Each vocabulary maps tokens (non-empty) to columns ``0 .. len(vocabulary) - 1``. Words are numbered
    in string order, the column order of scikit-learn's vectorizers: a page's (text, word) counts,
    sorted once, are then every such vocabulary's sparse matrix with its indices already sorted.
    """

    def __init__(self, *vocabularies: Mapping[str, int]):
        words = sorted({word for vocabulary in vocabularies for word in vocabulary})
        self.size = len(words)
        self.sizes = tuple(len(vocabulary) for vocabulary in vocabularies)
        #: column of each word in each vocabulary, -1 where it has none
        self.columns = np.array([[vocabulary.get(word, -1) for word in words] for vocabulary in vocabularies],
                                dtype=np.intp).reshape(len(vocabularies), self.size)
        #: whether each vocabulary's columns follow the words' order (else counts sort their indices)
        self.in_order = tuple(bool(np.all(np.diff(columns[columns >= 0]) > 0)) for columns in self.columns)
        self.lengths = np.fromiter(map(len, words), dtype=np.intp, count=self.size)
        self.starts = np.cumsum(self.lengths) - self.lengths
        self.codes = _code_points("".join(words))
        offsets = _offsets(self.lengths)
        for base in _HASH_BASES:
            hashes = _hash_strings(self.codes, offsets, self.lengths, base)
            if len(np.unique(hashes)) == self.size:
                break
        else:
            raise ValueError("vocabulary tokens collide under every hash base")
        self.base = base
        self._build_table(hashes)

    def _build_table(self, hashes: np.ndarray) -> None:
        """Word numbers sorted by hash, in buckets picked by the top bits of the hash (about one word
        per bucket): a lookup touches two small arrays instead of a large table."""
        bits = max(1, int(self.size - 1).bit_length())
        self.shift = np.uint64(64 - bits)
        self.order = np.argsort(hashes).astype(np.int32)
        self.hashes = hashes[self.order]
        buckets = (self.hashes >> self.shift).astype(np.int32)
        self.bucket_start = np.searchsorted(buckets, np.arange((1 << bits) + 1)).astype(np.int32)
        self.bucket_size = int(np.diff(self.bucket_start).max())

    def _find(self, hashes: np.ndarray) -> np.ndarray:
        """Word number (position in the vocabulary) of every hash, -1 for none."""
        words = np.full(len(hashes), -1, dtype=np.intp)
        bucket = (hashes >> self.shift).astype(np.int32)
        todo, at, end = np.arange(len(hashes)), self.bucket_start[bucket], self.bucket_start[bucket + 1]
        last = len(self.hashes) - 1
        while len(todo):  # walk each bucket in hash order
            held = self.hashes[np.minimum(at, last)]
            live = at < end
            match = np.flatnonzero(live & (held == hashes))  # positions, not masks: faster to index with
            words[todo[match]] = self.order[at[match]]
            going = np.flatnonzero(live & (held < hashes))
            todo, at, end, hashes = todo[going], at[going] + 1, end[going], hashes[going]
        return words

    def _words(self, tokens: _Tokens) -> np.ndarray:
        """Vocabulary word number of every token, -1 for none."""
        if len(tokens.starts) == 0 or self.size == 0:
            return np.full(len(tokens.starts), -1, dtype=np.intp)
        chars, offsets = tokens.chars, tokens.offsets
        words = self._find(tokens.hashes(self.base))
        words[self.lengths[words] != tokens.lengths] = -1
        # every code point of a token against its word's (any code point for a token without a word:
        # a mismatch there changes nothing)
        expected = self.codes.take(np.repeat(self.starts[words], tokens.lengths) + offsets, mode="clip")
        words[np.searchsorted(np.cumsum(tokens.lengths), np.flatnonzero(expected != chars), side="right")] = -1
        return words

    def counts(self, texts: list[str] | ZoneArrays) -> list[sp.csr_matrix]:
        """Per vocabulary, the (n_texts, vocabulary size) token counts, indices sorted: the
        ``CountVectorizer``'s matrix, down to the order in which products with it sum."""
        arrays = texts if isinstance(texts, ZoneArrays) else None
        n_texts = len(texts) if arrays is None else arrays.n_zones
        tokens = _Tokens.of(_token_text(texts)) if arrays is None else arrays.tokens
        words = self._words(tokens)
        found = words >= 0
        # (text, word) of every known token, sorted (tokens come text by text: runs a stable sort merges fast)
        pairs = np.sort(tokens.rows[found].astype(np.int64) * self.size + words[found], kind="stable")
        new = np.ones(len(pairs), dtype=bool)
        new[1:] = pairs[1:] != pairs[:-1]
        first = np.flatnonzero(new)
        counts = np.diff(np.append(first, len(pairs))).astype(float)
        rows, words = np.divmod(pairs[first], max(self.size, 1))
        out = []
        for columns, size, in_order in zip(self.columns, self.sizes, self.in_order):
            cols = columns[words]
            keep = cols >= 0
            matrix = sp.csr_matrix((counts[keep], cols[keep], np.searchsorted(rows[keep], np.arange(n_texts + 1))),
                                   shape=(n_texts, size))
            if not in_order:
                matrix.sort_indices()
            out.append(matrix)
        return out


def term_counts(texts: list[str], vocabulary: Mapping[str, int]) -> sp.csr_matrix:
    """(n_texts, len(vocabulary)) counts of :func:`tokenize` tokens, as ``CountVectorizer(analyzer=tokenize,
    vocabulary=vocabulary).transform(texts)`` (builds a :class:`TokenIndex`: keep one to count often)."""
    return TokenIndex(vocabulary).counts(texts)[0]


_Source = TypeVar("_Source")
_Derived = TypeVar("_Derived")
#: owner -> (source, value) of :func:`derived`; entries go with their owner.
_DERIVED: weakref.WeakKeyDictionary[object, tuple[object, object]] = weakref.WeakKeyDictionary()


def derived(owner: object, source: _Source, build: Callable[[_Source], _Derived]) -> _Derived:
    """``build(source)``, where ``source`` is a fitted attribute of ``owner`` (or a tuple of fitted
    attributes): built on first use, then kept while ``owner`` lives and ``source`` is not replaced (a
    refit). Never pickled: saved models need nothing new. One derived value per owner."""
    cached = _DERIVED.get(owner)
    if cached is None or not _same(cached[0], source):
        cached = _DERIVED[owner] = (source, build(source))
    return cached[1]


def _same(kept: object, source: object) -> bool:
    """Whether ``source`` is ``kept``, or a tuple of the same objects."""
    if isinstance(kept, tuple) and isinstance(source, tuple):
        return len(kept) == len(source) and all(a is b for a, b in zip(kept, source))
    return kept is source


def vocabulary_index(vectorizer: CountVectorizer, *more: CountVectorizer) -> TokenIndex:
    """The :class:`TokenIndex` of fitted vectorizers' vocabularies, in order (built once per first
    vectorizer, see :func:`derived`)."""
    vocabularies = tuple(v.vocabulary_ for v in (vectorizer, *more))
    return derived(vectorizer, vocabularies, lambda kept: TokenIndex(*kept))


# -- layout -------------------------------------------------------------------------------------------

#: Kinds of characters counted by layout features (ASCII capitals, other letters: ASCII or non-ASCII
#: outside the punctuation and symbol blocks, ASCII digits, punctuation), and the rest.
_OTHER, _CAPITAL, _SMALL, _FIGURE, _MARK = range(5)


def _char_kind(char: str) -> int:
    """The kind of a character (:data:`_OTHER` .. :data:`_MARK`) times 4, plus 2 if ``str.isdecimal``
    (regex ``\\d``), plus 1 if ``str.isspace`` (regex ``\\s``)."""
    code = ord(char)
    symbol = 0x2010 <= code <= 0x2BFF or code in (0xD7, 0xF7)
    space = code <= 32 or code == 160 or 0x2000 <= code <= 0x200B or code == 0x3000
    if 65 <= code <= 90:
        kind = _CAPITAL
    elif 97 <= code <= 122 or (code >= 0xC0 and not symbol):
        kind = _SMALL
    elif 48 <= code <= 57:
        kind = _FIGURE
    elif not space and code != 95 and code > 32:
        kind = _MARK
    else:
        kind = _OTHER
    return 4 * kind + 2 * char.isdecimal() + char.isspace()


_ASCII_CHAR_KIND = _ascii_table(_char_kind)


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


class ZoneArrays:
    """Zones as the arrays features are computed from (texts, columns, character counts, page
    statistics), each computed on first use, so that words and layout features of one call share them."""

    def __init__(self, zones: Zones):
        self.zones = zones
        self.n_zones = n_rows(zones)
        self._columns: dict[str, np.ndarray] = {}
        self._cue_hits: dict[tuple[re.Pattern, int], np.ndarray] = {}

    @classmethod
    def of(cls, zones: Zones | ZoneArrays) -> ZoneArrays:
        """``zones`` as :class:`ZoneArrays`: itself when it is one already (its computed arrays shared)."""
        return zones if isinstance(zones, ZoneArrays) else cls(zones)

    def layout(self, names: Sequence[str]) -> np.ndarray:
        """(n_zones, len(names)) layout features ``names`` (of :data:`LAYOUT_FEATURES`)."""
        out = np.empty((self.n_zones, len(names)))
        for j, name in enumerate(names):
            out[:, j] = _LAYOUT[name](self)
        return out

    @cached_property
    def texts(self) -> list[str]:
        return list(map(str, np.asarray(self.zones["text"], dtype=object).tolist()))

    def column(self, name: str) -> np.ndarray:
        if name not in self._columns:
            self._columns[name] = np.asarray(self.zones[name], dtype=float)
        return self._columns[name]

    @cached_property
    def _lines(self) -> tuple[list[str], str]:
        """The texts with one line each and no NULs, and those texts joined (:func:`_join_lines`)."""
        return _join_lines(self.texts)

    @cached_property
    def token_text(self) -> str:
        """The texts as :func:`_token_text`: lower case, one line each."""
        return _token_text(self.texts)

    @cached_property
    def tokens(self) -> _Tokens:
        """The texts' word tokens, shared by every vocabulary that counts them."""
        return _Tokens.of(self.token_text)

    @cached_property
    def _kinds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The code points of the joined lines, :func:`_char_kind` of each, and the text each belongs to."""
        texts, joined = self._lines
        lengths = np.fromiter(map(len, texts), dtype=np.intp, count=len(texts))
        rows = np.repeat(np.arange(len(texts), dtype=np.int32), lengths + 1)[:len(joined)]
        codes = _code_points(joined)
        return codes, _classify(codes, _ASCII_CHAR_KIND, _char_kind), rows

    @cached_property
    def n_words(self) -> np.ndarray:
        """Words per text, as ``str.split`` counts them."""
        _, kinds, rows = self._kinds
        space = (kinds & 1).astype(bool)
        word_start = np.flatnonzero(~space & np.concatenate([[True], space[:-1]]))
        return np.bincount(rows[word_start], minlength=self.n_zones).astype(float)

    @cached_property
    def kind_counts(self) -> np.ndarray:
        """(n_texts, 5) characters of each kind (:data:`_OTHER` .. :data:`_MARK`) per text."""
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
        return self.kind_counts[:, _CAPITAL] / np.maximum(self.letters, 1.0)

    @property
    def letters(self) -> np.ndarray:
        """Letters (capital or small) of each text."""
        return self.kind_counts[:, _CAPITAL] + self.kind_counts[:, _SMALL]

    @property
    def figures(self) -> np.ndarray:
        """Digits of each text."""
        return self.kind_counts[:, _FIGURE]

    def word_cases(self, max_chars: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Words (runs of letters) in the first ``max_chars`` characters of each text: in lower case of
        three or more letters, in lower case of two or three letters, and opening with a capital."""
        codes, kinds, rows = self._kinds
        starts = self._text_starts
        lengths = np.minimum(self.chars, max_chars).astype(np.intp)
        at = np.arange(int(lengths.sum())) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
        kind = kinds[at] >> 2
        small = kind == _SMALL
        letter = small | (kind == _CAPITAL)
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
        spans = _cue_lines(self.token_text if lowered else joined, cues)
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
    def _pages(self) -> np.ndarray:
        return page_codes(self.zones)

    @cached_property
    def _by_page(self) -> np.ndarray:
        """Row positions page by page (reading order within a page)."""
        return np.argsort(self._pages, kind="stable")

    @cached_property
    def _page_starts(self) -> np.ndarray:
        """In page order (:attr:`_by_page`), whether each zone is the first of its page."""
        return run_starts(self._pages[self._by_page])

    def max_before(self, values: np.ndarray) -> np.ndarray:
        """Per zone, the largest of ``values`` (none negative) over the zones before it on its page
        (in reading order); 0 for a page's first zone."""
        order, starts = self._by_page, self._page_starts
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
        order = self._by_page
        n = len(order)
        out = np.zeros(n)
        if n < 2 or window < 1:
            return out
        ordered = np.asarray(values, dtype=float)[order]
        # pages lowered one below another, so that a later page's zones never win
        lift = (ordered.max() + 1.0) * self._pages[order]
        ahead = np.append(ordered[1:] - lift[1:], -np.inf)  # ahead[i]: the zone after zone i
        # maxima over spans of 1, 2, 4 ... zones ahead, then two spans cover the window
        span = 1
        while 2 * span <= window:
            ahead = np.maximum(ahead, _ahead(ahead, span))
            span *= 2
        out[order] = np.maximum(np.maximum(ahead, _ahead(ahead, window - span)) + lift, 0.0)
        return out

    @cached_property
    def _n_pages(self) -> int:
        return int(self._pages.max()) + 1 if len(self._pages) else 0

    @cached_property
    def order_rel(self) -> np.ndarray:
        """Reading-order position of each zone within its page, from 0 to 1."""
        codes, by_page = self._pages, self._by_page
        order = np.empty(len(codes))
        order[by_page] = np.arange(len(codes)) - np.searchsorted(codes[by_page], codes[by_page])
        n_zones = np.bincount(codes, minlength=self._n_pages).astype(float)
        return order / np.maximum(n_zones[codes] - 1, 1.0)

    @cached_property
    def font_rel(self) -> np.ndarray:
        """Font size relative to the page's body size: the size carrying most characters on the page."""
        size, codes = self.column("font_size"), self._pages
        if len(size) == 0:
            return size
        sizes, size_codes = np.unique(size, return_inverse=True)
        weight = np.zeros((self._n_pages, len(sizes)))
        np.add.at(weight, (codes, size_codes), self.chars)
        body_size = sizes[weight.argmax(axis=1)][codes]
        return size / np.where(body_size > 0, body_size, 16.0)

    def page_height(self) -> np.ndarray:
        """The frame's page height, else the bottom of the page's lowest zone."""
        if "page_height" in self.zones:
            return self.column("page_height")
        bottom = np.zeros(self._n_pages)
        np.maximum.at(bottom, self._pages, self.column("y") + self.column("h"))
        return bottom[self._pages]

    def page_width(self) -> np.ndarray:
        return self.column("page_width") if "page_width" in self.zones else np.full(self.n_zones, 1280.0)

    def name_shapes(self) -> np.ndarray:
        """1 for a zone whose first :data:`NAME_SHAPE_CHARS` characters are written as names are, else 0:
        every word a capital then lower case (``str.istitle``, "and" allowed) and at most
        :data:`NAME_WORDS` words between separators (",", ";", "&", "and"), as in "Núria Bonifaci",
        "J. R. Evans", "Gómez-Baldó L, O'Neil A" but not "Why Most Published Research Findings Are
        False". Unlike the field word scores it does not need the names to be known."""
        return np.fromiter((written_as_names(t[:NAME_SHAPE_CHARS]) for t in self.texts),
                           dtype=float, count=self.n_zones)

    def _cues(self, cue: re.Pattern, max_words: int = CUE_MAX_WORDS) -> np.ndarray:
        """Whether each zone is a short text (at most ``max_words`` words) in which ``cue`` is found
        (computed once per cue)."""
        key = (cue, max_words)
        if key not in self._cue_hits:
            hit = np.zeros(self.n_zones, dtype=bool)
            short = np.flatnonzero(self.n_words <= max_words)
            hit[short] = search_each(cue, [self.texts[i] for i in short.tolist()])
            self._cue_hits[key] = hit
        return self._cue_hits[key]

    def after_cue(self, cue: re.Pattern) -> np.ndarray:
        """1 for a zone whose previous zone on the page is a short text (at most 4 words) matching ``cue``
        (a heading such as "Abstract" or "References") and not a link (a tab or a table of contents
        entry), else 0."""
        hit = self._cues(cue) & self._not_links
        out = np.zeros(self.n_zones)
        by_page = self._by_page
        out[by_page[1:]] = (~self._page_starts[1:] & hit[by_page[:-1]]).astype(float)
        return out

    @cached_property
    def _not_links(self) -> np.ndarray:
        """Whether under half of each zone's characters are in links."""
        return self.per_char(self.column("link_chars")) < 0.5

    def after_related_cue(self) -> np.ndarray:
        """1 for a zone below a related-content heading (:data:`_RELATED_CUE`), up to the next references
        or abstract heading; else 0. In the second half of a page such blocks follow the reference list
        and hold author lists ("Feller C, Farcot E, Mazza C") that read like a reference's first field.
        In the first half a related sidebar set before the article (as an unstyled page shows it) holds
        titles and bylines that read like the article's own; there the cue must be set as a heading
        (bold, or type :data:`RELATED_END_SCALE` times the body's) and not as a link (a tab or menu item
        such as "Related content" above the byline is none), and the block also ends where the article
        starts: at the next text set in larger type (its title) or the next paragraph of prose."""
        out = np.zeros(self.n_zones)
        if self.n_zones == 0:
            return out
        cue = self._cues(_RELATED_CUE, RELATED_CUE_MAX_WORDS)
        late = cue & (self.order_rel >= 0.5)
        heading = self.bold | (self.font_rel >= RELATED_END_SCALE)
        early = cue & ~late & heading & self._not_links
        headings = self._cues(_REFERENCES_CUE) | self._cues(_ABSTRACT_CUE)
        larger = (self.font_rel >= RELATED_END_SCALE) & (self.n_words >= 2)
        out[self._by_page] = self._in_block(late, late | headings) | self._in_block(
            early, cue | headings | larger | self._prose)
        return out

    def _in_block(self, opens: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """In page order: whether each zone lies after a zone of ``opens`` with no zone of ``ends`` (or a
        page start) between them; ``ends`` holds ``opens``."""
        by_page = self._by_page
        order = np.arange(len(by_page))
        last = np.maximum.accumulate(np.where(ends[by_page] | self._page_starts, order, 0))
        return opens[by_page][last] & (last != order)

    @cached_property
    def bold(self) -> np.ndarray:
        """Whether each zone is set in bold type (weight :data:`BOLD_WEIGHT` or more)."""
        return self.column("font_weight") >= BOLD_WEIGHT

    @cached_property
    def _prose(self) -> np.ndarray:
        """Whether each zone is prose: at least :data:`PROSE_MIN_WORDS` words, at most
        :data:`PROSE_MAX_CAPS` of its letters capitals (a paragraph, not a byline or a menu)."""
        return (self.n_words >= PROSE_MIN_WORDS) & (self.caps <= PROSE_MAX_CAPS)

    def abstract_parts(self) -> np.ndarray:
        """1 for a zone that opens with a structured abstract's part name and goes on with its text
        ("Methods Ten adult subjects ..."), and for the parts whose names stand on lines of their own
        right under an abstract heading: each name and the paragraph under it ("Abstract", "Objective",
        its text, "Methods", its text ...), up to a name without a paragraph (a table of contents), set
        in another size or seen before (the body's "Background" after the abstract's "Conclusions");
        else 0."""
        out = self.opening(_ABSTRACT_PART)
        order, pages, size = self._by_page, self._pages, self.column("font_size")
        position = np.empty(len(order), dtype=np.intp)
        position[order] = np.arange(len(order))
        for row in np.flatnonzero(self.after_cue(_ABSTRACT_CUE)).tolist():
            seen: set[str] = set()
            for k in range(position[row], len(order) - 1, 2):  # a part's name, then its paragraph
                name, paragraph = order[k], order[k + 1]
                text = self.texts[name]
                if (pages[paragraph] != pages[row] or size[name] != size[row] or text.lower() in seen
                        or self.n_words[paragraph] < PART_MIN_WORDS or PART_LINE.match(text) is None):
                    break
                seen.add(text.lower())
                out[[name, paragraph]] = 1.0
        return out

    def first_prose(self) -> np.ndarray:
        """1 for the first zone of prose on its page (at least :data:`PROSE_MIN_WORDS` words, at most
        :data:`PROSE_MAX_CAPS` of its letters capitals) that does not open with a site notice
        (:data:`_NOTICE`, in its first :data:`NOTICE_CHARS` characters), else 0: in most articles the
        abstract, with or without a heading above it (Springer's pages have none); on real pages a
        cookie banner or a library's disclaimer often comes first."""
        out = np.zeros(self.n_zones)
        rows = self._by_page[self._prose[self._by_page]]  # prose, page by page
        at = np.flatnonzero(run_starts(self._pages[rows]))  # each page's first ...
        end = np.append(at[1:], len(rows))
        while len(at):  # ... then, where that is a notice, the page's next
            notice = search_each(_NOTICE, [self.texts[i][:NOTICE_CHARS] for i in rows[at].tolist()])
            out[rows[at[~notice]]] = 1.0
            at, end = at[notice] + 1, end[notice]
            at, end = at[at < end], end[at < end]
        return out


#: How each layout feature is computed.
_LAYOUT: dict[str, Callable[[ZoneArrays], np.ndarray]] = {
    "n_words": lambda z: z.n_words,
    "left": lambda z: z.column("x"),
    "top": lambda z: z.column("y"),
    "height": lambda z: z.column("h"),
    "width": lambda z: z.column("w"),
    "x_rel": lambda z: z.column("x") / np.maximum(z.page_width(), 1.0),
    "y_rel": lambda z: z.column("y") / np.maximum(z.page_height(), 1.0),
    "order_rel": lambda z: z.order_rel,
    "font_rel": lambda z: z.font_rel,
    "bold": lambda z: z.bold.astype(float),
    "italic": lambda z: z.per_char(z.column("italic_chars")),
    "caps": lambda z: z.caps,
    "digits": lambda z: z.per_char(z.kind_counts[:, _FIGURE]),
    "punct": lambda z: z.per_char(z.kind_counts[:, _MARK]),
    "sup": lambda z: z.per_char(z.column("sup_chars")),
    "link": lambda z: z.per_char(z.column("link_chars")),
    "email": lambda z: z.cue_matches(_EMAIL, ("@",)),
    "url": lambda z: z.cue_matches(_URL, ("http", "www."), lowered=True),
    "doi": lambda z: z.matches(_DOI),
    "years": lambda z: z.years,
    "lines": lambda z: z.column("h") / np.maximum(z.column("font_size") * 1.15, 1.0),
    "chars": lambda z: z.chars,
    "marker": lambda z: z.opening(_MARKER),
    "prev_abstract_cue": lambda z: z.after_cue(_ABSTRACT_CUE),
    "prev_references_cue": lambda z: z.after_cue(_REFERENCES_CUE),
    "name_shape": ZoneArrays.name_shapes,
    "abstract_part": ZoneArrays.abstract_parts,
    "after_related_cue": ZoneArrays.after_related_cue,
    "first_prose": ZoneArrays.first_prose,
}


def layout_matrix(zones: Zones, names: Sequence[str] = LAYOUT_FEATURES) -> np.ndarray:
    """(n_zones, len(names)) layout features ``names`` (of :data:`LAYOUT_FEATURES`), computing only
    what those need."""
    return ZoneArrays(zones).layout(names)


def layout_features(zones: pd.DataFrame) -> pd.DataFrame:
    """The layout feature table (columns :data:`LAYOUT_FEATURES`), one row per zone, same index."""
    return pd.DataFrame(layout_matrix(zones), columns=list(LAYOUT_FEATURES), index=zones.index)
