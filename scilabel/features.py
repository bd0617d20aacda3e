"""Zone features: the words of a zone and its layout.

Layout features are computed per page from a zones frame (:func:`scilabel.zones.zones_frame` rows,
a ``page`` column telling pages apart). The paper's four (number of words, left, top, height) come
first; the rest add what it lacks: width, position relative to the page and in reading order, font
size relative to the page's body text, bold and italic type, shares of capitals, digits and
punctuation, e-mail / URL / DOI / year patterns, superscript markers and link density.
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
    "sup", "link", "email", "url", "doi", "years", "lines", "chars", "marker",
)
#: Features spanning orders of magnitude, log-scaled before standardising.
_LOG_SCALED = {"n_words", "left", "top", "height", "width", "years", "lines", "chars"}

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
_DOI = re.compile(r"\b10\.\d{4,9}/\S+")
_YEAR = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
_MARKER = re.compile(r"^\s*(?:\[\d+\]|\(?\d{1,3}[.)]|[*\u2020\u2021\u00a7]|[a-z]\))\s")
_TOKEN = re.compile(r"<\w+>|[^\W\d_]+|\d+|[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Normalised word tokens: lower case; numbers as shape tokens (``<d4>`` for a 4-digit number);
    e-mail addresses, URLs and DOIs as ``<email>``, ``<url>``, ``<doi>``; punctuation kept as tokens."""
    if "@" in text:
        text = _EMAIL.sub(" <email> ", text)
    if "10." in text:
        text = _DOI.sub(" <doi> ", text)
    if "http" in text or "www." in text:
        text = _URL.sub(" <url> ", text)
    return [f"<d{min(len(tok), 5)}>" if tok.isdigit() else tok for tok in _TOKEN.findall(text.lower())]


def _span_sums(flags: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Sum of ``flags`` over each text's span of the joined page text."""
    cum = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    return (cum[starts + lengths] - cum[starts]).astype(float)


def _pattern_counts(pattern: re.Pattern, joined: str, starts: np.ndarray) -> np.ndarray:
    """Matches of ``pattern`` per text, found in one pass over the joined text."""
    hits = [m.start() for m in pattern.finditer(joined)]
    return np.bincount(np.searchsorted(starts, hits, side="right") - 1, minlength=len(starts)).astype(float)


def _text_counts(texts: list[str]) -> dict[str, np.ndarray]:
    """Character-class and pattern counts of every text, computed on the texts joined by newlines
    (no pattern crosses a newline). Letters are ASCII letters and non-ASCII characters outside the
    punctuation and symbol blocks; digits and capitals are ASCII."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
    joined = "\n".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    upper = (codes >= 65) & (codes <= 90)
    digit = (codes >= 48) & (codes <= 57)
    space = (codes <= 32) | (codes == 160) | ((codes >= 0x2000) & (codes <= 0x200B)) | (codes == 0x3000)
    symbol_block = ((codes >= 0x2010) & (codes <= 0x2BFF)) | (codes == 0xD7) | (codes == 0xF7)
    letter = upper | ((codes >= 97) & (codes <= 122)) | ((codes >= 0xC0) & ~symbol_block)
    punct = ~(letter | digit | space | (codes == 95)) & (codes > 32)
    none, lowered = np.zeros(len(texts)), joined.lower()  # patterns whose cue is absent are skipped
    return {
        "n_words": np.fromiter((len(t.split()) for t in texts), dtype=float, count=len(texts)),
        "chars": lengths.astype(float),
        "letters": _span_sums(letter, starts, lengths),
        "caps": _span_sums(upper, starts, lengths),
        "digits": _span_sums(digit, starts, lengths),
        "punct": _span_sums(punct, starts, lengths),
        "email": _pattern_counts(_EMAIL, joined, starts) if "@" in joined else none,
        "url": _pattern_counts(_URL, joined, starts) if "http" in lowered or "www." in lowered else none,
        "doi": _pattern_counts(_DOI, joined, starts) if "10." in joined else none,
        "years": _pattern_counts(_YEAR, joined, starts),
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
        },
        index=zones.index,
    )


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
        table = layout_features(zones)[list(self.layout)]
        for name in self.layout:
            if name in _LOG_SCALED:
                table[name] = np.log1p(np.maximum(table[name], 0.0))
        return table.to_numpy(dtype=float)

    def transform(self, zones: pd.DataFrame) -> sp.csr_matrix:
        check_is_fitted(self, "words_")
        words = self.words_.transform(zones["text"].astype(str))
        layout = self.scaler_.transform(self._layout(zones))
        return sp.hstack([words, sp.csr_matrix(layout)], format="csr")

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        check_is_fitted(self, "words_")
        return np.concatenate([self.words_.get_feature_names_out(), np.asarray(self.layout, dtype=object)])
