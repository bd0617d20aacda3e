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
    text = _EMAIL.sub(" <email> ", text)
    text = _DOI.sub(" <doi> ", text)
    text = _URL.sub(" <url> ", text)
    out = []
    for tok in _TOKEN.findall(text.lower()):
        out.append(f"<d{min(len(tok), 5)}>" if tok.isdigit() else tok)
    return out


def _count(pattern: re.Pattern, texts: pd.Series) -> np.ndarray:
    return texts.str.count(pattern).to_numpy(dtype=float)


def layout_features(zones: pd.DataFrame) -> pd.DataFrame:
    """The layout feature table (columns :data:`LAYOUT_FEATURES`), one row per zone, same index."""
    text = zones["text"].astype(str)
    chars = text.str.len().to_numpy(dtype=float)
    safe = np.maximum(chars, 1.0)
    page = zones["page"] if "page" in zones else pd.Series(0, index=zones.index)
    x, y, w, h = (zones[c].to_numpy(dtype=float) for c in ("x", "y", "w", "h"))
    size = zones["font_size"].to_numpy(dtype=float)
    grouped = pd.DataFrame({"page": page.to_numpy(), "size": size, "chars": chars, "bottom": y + h})
    # body font size: the size carrying most characters on the page
    weight = grouped.groupby(["page", "size"], sort=False)["chars"].sum().reset_index()
    body = weight.sort_values("chars", ascending=False).drop_duplicates("page").set_index("page")["size"]
    body_size = page.map(body).to_numpy(dtype=float)
    order = grouped.groupby("page", sort=False).cumcount().to_numpy(dtype=float)
    n_zones = grouped.groupby("page", sort=False)["page"].transform("size").to_numpy(dtype=float)
    bottom = grouped.groupby("page", sort=False)["bottom"].transform("max").to_numpy(dtype=float)
    page_height = zones["page_height"].to_numpy(dtype=float) if "page_height" in zones else bottom
    page_width = zones["page_width"].to_numpy(dtype=float) if "page_width" in zones else np.full(len(zones), 1280.0)
    letters = text.str.count(r"[^\W\d_]").to_numpy(dtype=float)
    return pd.DataFrame(
        {
            "n_words": text.str.split().str.len().fillna(0).to_numpy(dtype=float),
            "left": x,
            "top": y,
            "height": h,
            "width": w,
            "x_rel": x / np.maximum(page_width, 1.0),
            "y_rel": y / np.maximum(page_height, 1.0),
            "order_rel": order / np.maximum(n_zones - 1, 1.0),
            "font_rel": size / np.where(body_size > 0, body_size, 16.0),
            "bold": (zones["font_weight"].to_numpy(dtype=float) >= 600).astype(float),
            "italic": zones["italic_chars"].to_numpy(dtype=float) / safe,
            "caps": text.str.count(r"[A-Z]").to_numpy(dtype=float) / np.maximum(letters, 1.0),
            "digits": text.str.count(r"\d").to_numpy(dtype=float) / safe,
            "punct": text.str.count(r"[^\w\s]").to_numpy(dtype=float) / safe,
            "sup": zones["sup_chars"].to_numpy(dtype=float) / safe,
            "link": zones["link_chars"].to_numpy(dtype=float) / safe,
            "email": _count(_EMAIL, text),
            "url": _count(_URL, text),
            "doi": _count(_DOI, text),
            "years": _count(_YEAR, text),
            "lines": h / np.maximum(size * 1.15, 1.0),
            "chars": chars,
            "marker": text.str.contains(_MARKER).to_numpy(dtype=float),
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
