"""The words of zones: the tokenizer, and a vocabulary index that counts tokens without Python work per
token.

Words are the tokens of :func:`tokenize`, which fitting uses. Labelling counts them with a
:class:`TokenIndex`: a page's texts are joined and tokenized with numpy on their code points, and
tokens are matched to vocabulary columns by hash, then checked code point by code point: the counts of
a ``CountVectorizer`` with :func:`tokenize` as analyzer.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer

from .chars import ascii_table, classify, code_points
from .cache import derived

if TYPE_CHECKING:
    from .arrays import ZoneArrays

#: An e-mail address, a URL, a DOI: masked by the tokenizer, counted by the layout features.
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+")  # starts only where a run starts: linear time
URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
DOI = re.compile(r"10(?<!\w10)\.\d{4,9}/\S+")  # ``\b10\.\d{4,9}/\S+``, starting with a literal: faster
_TOKEN = re.compile(r"<\w+>|[^\W\d_]+|\d+|[^\w\s]")
_NONZERO_DIGIT = re.compile(r"[1-9]")
_LONG_NUMBER = re.compile(r"0{6,}")


def _mask_patterns(lowered: str) -> str:
    """E-mail addresses, DOIs and URLs of a lower-cased text as ``<email>``, ``<doi>``, ``<url>``.
    Never crosses a newline."""
    text = _sub_lines(EMAIL, " <email> ", lowered, ("@",))
    text = _sub_lines(DOI, " <doi> ", text, ("10.",))
    return _sub_lines(URL, " <url> ", text, ("http", "www."))


def _normalise(text: str) -> str:
    """Lower case, patterns masked (:func:`_mask_patterns`), every number as its shape (``0000`` for
    a 4-digit number, at most five zeros)."""
    return _LONG_NUMBER.sub("00000", _NONZERO_DIGIT.sub("0", _mask_patterns(text.lower())))


def _sub_lines(pattern: re.Pattern, repl: str, text: str, cues: tuple[str, ...]) -> str:
    """``pattern.sub(repl, text)``, run only on the lines holding one of the ``cues`` (lower case)
    every match needs: far fewer characters for the regex engine to scan."""
    parts, done = [], 0
    for start, end in cue_lines(text, cues):
        parts += (text[done:start], pattern.sub(repl, text[start:end]))
        done = end
    return "".join(parts) + text[done:] if parts else text


def cue_lines(text: str, cues: tuple[str, ...]) -> list[tuple[int, int]]:
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


def join_for_tokens(texts: Sequence[str]) -> str:
    """The texts joined by newlines, in lower case, newlines within a text as spaces (no token holds
    either): what :class:`TokenIndex` tokenizes."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1:
        joined = "\n".join(t.replace("\n", " ") for t in texts)
    return joined.lower()


# -- tokens on code points ------------------------------------------------------------------------------

#: Code point classes of :data:`_TOKEN`'s alternatives: characters between tokens, newlines (between
#: texts), letters, digits, punctuation (one token each), characters of a ``<\w+>`` placeholder.
_BETWEEN, _NEWLINE, _LETTER, _DIGIT, _PUNCT, _PLACEHOLDER = range(6)
_CLASS_OF = re.compile(r"(\n)|([^\W\d_])|(\d)|([^\w\s])")  # group numbers are the classes above


def _token_class(char: str) -> int:
    match = _CLASS_OF.fullmatch(char)
    return match.lastindex if match else _BETWEEN


_ASCII_TOKEN_CLASS = ascii_table(_token_class)


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


class Tokens:
    """The :data:`_TOKEN` matches of normalised text given as code points (texts joined by newlines):
    where each starts, its length and its line (text number); ``inside`` marks their code points.
    Their hashes are kept per hash base, so several vocabularies look up one page's tokens once."""

    @classmethod
    def of(cls, token_text: str) -> Tokens:
        """The tokens of texts given as :func:`join_for_tokens`."""
        return cls(_shape_numbers(code_points(_mask_patterns(token_text))))

    def __init__(self, codes: np.ndarray):
        classes = classify(codes, _ASCII_TOKEN_CLASS, _token_class)
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


# -- vocabulary index -------------------------------------------------------------------------------------

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
        self.codes = code_points("".join(words))
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

    def _words(self, tokens: Tokens) -> np.ndarray:
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

    def counts(self, texts: Sequence[str] | ZoneArrays) -> list[sp.csr_matrix]:
        """Per vocabulary, the (n_texts, vocabulary size) token counts, indices sorted: the
        ``CountVectorizer``'s matrix, down to the order in which products with it sum. Texts given as
        :class:`~scilabel.features.arrays.ZoneArrays` share their tokens with every other count of them."""
        arrays = None if isinstance(texts, Sequence) else texts
        n_texts = len(texts) if arrays is None else arrays.n_zones
        tokens = Tokens.of(join_for_tokens(texts)) if arrays is None else arrays.tokens
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


def vocabulary_index(vectorizer: CountVectorizer, *more: CountVectorizer) -> TokenIndex:
    """The :class:`TokenIndex` of fitted vectorizers' vocabularies, in order (built once per first
    vectorizer, see :func:`derived`)."""
    vocabularies = tuple(v.vocabulary_ for v in (vectorizer, *more))
    return derived(vectorizer, vocabularies, lambda kept: TokenIndex(*kept))
