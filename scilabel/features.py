"""Zone features: the words of a zone and its layout.

Layout features are computed per page from a zones frame (:func:`scilabel.zones.zones_frame` rows,
a ``page`` column telling pages apart). The paper's four (number of words, left, top, height) come
first; the rest add what it lacks: width, position relative to the page and in reading order, font
size relative to the page's body text, bold and italic type, shares of capitals, digits and
punctuation, e-mail / URL / DOI / year patterns, superscript markers, link density, and whether the
previous zone is an abstract or references heading.

Words are counted by :func:`term_counts`, one regex pass over a page's joined texts (as fast as the
labeller needs), equal to a ``CountVectorizer`` with :func:`tokenize` as analyzer.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

#: The layout features of Zou, Le & Thoma (2007).
PAPER_LAYOUT = ("n_words", "left", "top", "height")
#: Every layout feature :func:`layout_features` computes.
LAYOUT_FEATURES = PAPER_LAYOUT + (
    "width", "x_rel", "y_rel", "order_rel", "font_rel", "bold", "italic", "caps", "digits", "punct",
    "sup", "link", "email", "url", "doi", "years", "lines", "chars", "marker", "prev_abstract_cue",
    "prev_references_cue",
)
#: Features spanning orders of magnitude, log-scaled before standardising.
_LOG_SCALED = {"n_words", "left", "top", "height", "width", "years", "lines", "chars"}
_ABSTRACT_CUE = re.compile(r"abstract|summary|synopsis|key points|highlights", re.I)
_REFERENCES_CUE = re.compile(r"references|bibliography|literature|works cited|notes", re.I)

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+")  # starts only where a run starts: linear time
_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
_DOI = re.compile(r"\b10\.\d{4,9}/\S+")
_YEAR = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
_MARKER = re.compile(r"^\s*(?:\[\d+\]|\(?\d{1,3}[.)]|[*\u2020\u2021\u00a7]|[a-z]\))\s")
_TOKEN = re.compile(r"<\w+>|[^\W\d_]+|\d+|[^\w\s]")
#: The same tokens plus newlines, which separate texts joined into one string.
_TOKEN_OR_NEWLINE = re.compile(r"\n|<\w+>|[^\W\d_]+|\d+|[^\w\s]")
_NONZERO_DIGIT = re.compile(r"[1-9]")
_LONG_NUMBER = re.compile(r"0{6,}")


def _normalise(text: str) -> str:
    """Lower case; e-mail addresses, DOIs and URLs as ``<email>``, ``<doi>``, ``<url>``; every number
    as its shape (``0000`` for a 4-digit number, at most five zeros). Never crosses a newline."""
    text = text.lower()
    text = _sub_lines(_EMAIL, " <email> ", text, ("@",))
    text = _sub_lines(_DOI, " <doi> ", text, ("10.",))
    text = _sub_lines(_URL, " <url> ", text, ("http", "www."))
    return _LONG_NUMBER.sub("00000", _NONZERO_DIGIT.sub("0", text))


def _sub_lines(pattern: re.Pattern, repl: str, text: str, cues: tuple[str, ...]) -> str:
    """``pattern.sub(repl, text)``, run only on the lines holding one of the ``cues`` (lower case)
    every match needs: far fewer characters for the regex engine to scan."""
    if not any(cue in text for cue in cues):
        return text
    return "\n".join(pattern.sub(repl, line) if any(cue in line for cue in cues) else line
                     for line in text.split("\n"))


def tokenize(text: str) -> list[str]:
    """Normalised word tokens (see :func:`_normalise`); punctuation kept as tokens."""
    return _TOKEN.findall(_normalise(text))


def term_counts(texts: list[str], vocabulary: dict[str, int]) -> sp.csr_matrix:
    """(n_texts, len(vocabulary)) counts of :func:`tokenize` tokens, as ``CountVectorizer(analyzer=tokenize,
    vocabulary=vocabulary).transform(texts)`` but in one regex pass over the joined texts."""
    joined = _normalise("\n".join(t.replace("\n", " ") for t in texts))
    tokens = _TOKEN_OR_NEWLINE.findall(joined)
    lookup = vocabulary.get
    cols = np.array([lookup(tok, -1) for tok in tokens], dtype=np.int64)
    rows = np.cumsum(np.array(tokens, dtype=object) == "\n")
    keep = cols >= 0
    counts = sp.csr_matrix((np.ones(int(keep.sum())), (rows[keep], cols[keep])), shape=(len(texts), len(vocabulary)))
    counts.sum_duplicates()
    return counts


def _span_sums(flags: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Sum of ``flags`` over each text's span of the joined page text."""
    cum = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    return (cum[starts + lengths] - cum[starts]).astype(float)


def _pattern_counts(pattern: re.Pattern, texts: list[str], cue_texts: list[str], cues: tuple[str, ...]) -> np.ndarray:
    """Matches of ``pattern`` per text, searched only in texts whose ``cue_texts`` entry holds a cue."""
    return np.fromiter((len(pattern.findall(t)) if any(c in k for c in cues) else 0 for t, k in zip(texts, cue_texts)),
                       dtype=float, count=len(texts))


def _text_counts(texts: list[str]) -> dict[str, np.ndarray]:
    """Character-class and pattern counts of every text, computed on the texts joined by newlines
    (no pattern crosses a newline). Letters are ASCII letters and non-ASCII characters outside the
    punctuation and symbol blocks; digits and capitals are ASCII."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1 or "\0" in joined:  # keep one line per text, no NULs
        texts = [t.replace("\n", " ").replace("\0", " ") for t in texts]
        joined = "\n".join(texts)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    upper = (codes >= 65) & (codes <= 90)
    digit = (codes >= 48) & (codes <= 57)
    space = (codes <= 32) | (codes == 160) | ((codes >= 0x2000) & (codes <= 0x200B)) | (codes == 0x3000)
    symbol_block = ((codes >= 0x2010) & (codes <= 0x2BFF)) | (codes == 0xD7) | (codes == 0xF7)
    letter = upper | ((codes >= 97) & (codes <= 122)) | ((codes >= 0xC0) & ~symbol_block)
    punct = ~(letter | digit | space | (codes == 95)) & (codes > 32)
    lowered = joined.lower().split("\n")  # patterns are searched only in texts holding their cue
    return {
        "n_words": np.fromiter((len(t.split()) for t in texts), dtype=float, count=len(texts)),
        "chars": lengths.astype(float),
        "letters": _span_sums(letter, starts, lengths),
        "caps": _span_sums(upper, starts, lengths),
        "digits": _span_sums(digit, starts, lengths),
        "punct": _span_sums(punct, starts, lengths),
        "email": _pattern_counts(_EMAIL, texts, texts, ("@",)),
        "url": _pattern_counts(_URL, texts, lowered, ("http", "www.")),
        "doi": _pattern_counts(_DOI, texts, texts, ("10.",)),
        "years": _pattern_counts(_YEAR, texts, texts, ("18", "19", "20")),
        "marker": np.fromiter((1.0 if _MARKER.match(t) else 0.0 for t in texts), dtype=float, count=len(texts)),
    }


def layout_features(zones: pd.DataFrame) -> pd.DataFrame:
    """The layout feature table (columns :data:`LAYOUT_FEATURES`), one row per zone, same index."""
    counts = _text_counts(zones["text"].astype(str).tolist())
    chars = counts["chars"]
    safe = np.maximum(chars, 1.0)
    n = len(zones)
    codes = pd.factorize(zones["page"], sort=False)[0] if "page" in zones else np.zeros(n, dtype=np.intp)
    x, y, w, h = (zones[c].to_numpy(dtype=float) for c in ("x", "y", "w", "h"))
    size = zones["font_size"].to_numpy(dtype=float)
    n_pages = codes.max() + 1 if n else 0
    # body font size: the size carrying most characters on the page
    sizes, size_codes = np.unique(size, return_inverse=True)
    weight = np.zeros((n_pages, len(sizes)))
    np.add.at(weight, (codes, size_codes), chars)
    body_size = sizes[weight.argmax(axis=1)][codes] if n else size
    n_zones = np.bincount(codes, minlength=n_pages).astype(float)
    by_page = np.argsort(codes, kind="stable")  # reading-order position of each zone within its page
    order = np.empty(n)
    order[by_page] = np.arange(n) - np.searchsorted(codes[by_page], codes[by_page])
    bottom = np.zeros(n_pages)
    np.maximum.at(bottom, codes, y + h)
    page_height = zones["page_height"].to_numpy(dtype=float) if "page_height" in zones else bottom[codes]
    page_width = zones["page_width"].to_numpy(dtype=float) if "page_width" in zones else np.full(n, 1280.0)
    return pd.DataFrame(
        {
            "n_words": counts["n_words"],
            "left": x,
            "top": y,
            "height": h,
            "width": w,
            "x_rel": x / np.maximum(page_width, 1.0),
            "y_rel": y / np.maximum(page_height, 1.0),
            "order_rel": order / np.maximum(n_zones[codes] - 1, 1.0),
            "font_rel": size / np.where(body_size > 0, body_size, 16.0),
            "bold": (zones["font_weight"].to_numpy(dtype=float) >= 600).astype(float),
            "italic": zones["italic_chars"].to_numpy(dtype=float) / safe,
            "caps": counts["caps"] / np.maximum(counts["letters"], 1.0),
            "digits": counts["digits"] / safe,
            "punct": counts["punct"] / safe,
            "sup": zones["sup_chars"].to_numpy(dtype=float) / safe,
            "link": zones["link_chars"].to_numpy(dtype=float) / safe,
            "email": counts["email"],
            "url": counts["url"],
            "doi": counts["doi"],
            "years": counts["years"],
            "lines": h / np.maximum(size * 1.15, 1.0),
            "chars": chars,
            "marker": counts["marker"],
            "prev_abstract_cue": _after_cue(_ABSTRACT_CUE, zones, counts["n_words"], codes, by_page),
            "prev_references_cue": _after_cue(_REFERENCES_CUE, zones, counts["n_words"], codes, by_page),
        },
        index=zones.index,
    )


def _after_cue(cue: re.Pattern, zones: pd.DataFrame, n_words: np.ndarray, codes: np.ndarray,
               by_page: np.ndarray) -> np.ndarray:
    """1 for a zone whose previous zone on the page is a short text (at most 4 words) matching ``cue``
    (a heading such as "Abstract" or "References"), else 0; ``by_page`` lists rows page by page."""
    texts = zones["text"].to_numpy()
    hit = np.zeros(len(zones), dtype=bool)
    for i in np.flatnonzero(n_words <= 4):
        hit[i] = cue.search(str(texts[i])) is not None
    out = np.zeros(len(zones))
    if len(zones) > 1:
        same_page = codes[by_page[1:]] == codes[by_page[:-1]]
        out[by_page[1:]] = (same_page & hit[by_page[:-1]]).astype(float)
    return out


class ZoneFeaturizer(TransformerMixin, BaseEstimator):
    """Words (TF-IDF over :func:`tokenize` tokens) and standardised layout features, as one sparse matrix.

    Parameters
    ----------
    layout : layout feature names to use (default all of :data:`LAYOUT_FEATURES`)
    min_df : minimum number of zones a word must occur in to enter the vocabulary
    max_features : vocabulary size limit
    """

    def __init__(self, layout: tuple[str, ...] = LAYOUT_FEATURES, min_df: int = 2, max_features: int | None = 50000):
        self.layout = layout
        self.min_df = min_df
        self.max_features = max_features

    def fit(self, zones: pd.DataFrame, y: object = None) -> ZoneFeaturizer:
        unknown = set(self.layout) - set(LAYOUT_FEATURES)
        if unknown:
            raise ValueError(f"unknown layout features: {sorted(unknown)}")
        self.words_ = TfidfVectorizer(
            analyzer=tokenize, min_df=self.min_df, max_features=self.max_features, sublinear_tf=True
        ).fit(zones["text"].astype(str))
        self.scaler_ = StandardScaler().fit(self._layout(zones))
        return self

    def _layout(self, zones: pd.DataFrame) -> np.ndarray:
        values = layout_features(zones)[list(self.layout)].to_numpy(dtype=float, copy=True)
        logged = [i for i, name in enumerate(self.layout) if name in _LOG_SCALED]
        values[:, logged] = np.log1p(np.maximum(values[:, logged], 0.0))
        return values

    def _words(self, texts: list[str]) -> sp.csr_matrix:
        """``self.words_.transform(texts)`` (sublinear TF x IDF, rows L2-normalised) via :func:`term_counts`."""
        tfidf = term_counts(texts, self.words_.vocabulary_)
        tfidf.data = (np.log(tfidf.data) + 1.0) * self.words_.idf_[tfidf.indices]
        norms = np.sqrt(np.bincount(np.repeat(np.arange(tfidf.shape[0]), np.diff(tfidf.indptr)),
                                    weights=tfidf.data ** 2, minlength=tfidf.shape[0]))
        tfidf.data /= np.repeat(np.where(norms > 0, norms, 1.0), np.diff(tfidf.indptr))
        return tfidf

    def transform(self, zones: pd.DataFrame) -> sp.csr_matrix:
        check_is_fitted(self, "words_")
        words = self._words(zones["text"].astype(str).tolist())
        layout = self.scaler_.transform(self._layout(zones))
        return sp.hstack([words, sp.csr_matrix(layout)], format="csr")

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        check_is_fitted(self, "words_")
        return np.concatenate([self.words_.get_feature_names_out(), np.asarray(self.layout, dtype=object)])
