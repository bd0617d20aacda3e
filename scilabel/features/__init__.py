"""Zone features: the words of a zone and its layout, one row per zone.

- :mod:`~scilabel.features.chars`: code points and character classes.
- :mod:`~scilabel.features.text`: the tokenizer (:func:`tokenize`) and the vocabulary index that counts
  its tokens as ``CountVectorizer`` would (:class:`TokenIndex`, :func:`vocabulary_index`).
- :mod:`~scilabel.features.arrays`: zones as arrays (:class:`ZoneArrays`), each computed once per call
  and shared by the word, layout and cue features and the constraints.
- :mod:`~scilabel.features.cues`: rule-like cue features (the heading above a zone, names, a structured
  abstract's parts, a related-content block, the first paragraph of prose).
- :mod:`~scilabel.features.layout`: every layout feature by name (:data:`LAYOUT_FEATURES`,
  :func:`layout_matrix`), the cue features included.
- :mod:`~scilabel.features.cache`: values derived from fitted attributes (:func:`derived`), kept while
  their estimator lives.

The names below are those the rest of scilabel imports. Saved models refer to
``scilabel.features.tokenize`` (their vectorizers' analyzer): keep it importable from here.
"""
from .arrays import ZONE_COLUMNS, ZoneArrays, Zones, n_rows, page_codes, run_starts, search_each, short_fullmatches
from .cache import derived
from .cues import written_as_names
from .layout import LAYOUT_FEATURES, PAPER_LAYOUT, layout_features, layout_matrix
from .text import TokenIndex, term_counts, tokenize, vocabulary_index

__all__ = [
    "LAYOUT_FEATURES", "PAPER_LAYOUT", "ZONE_COLUMNS", "TokenIndex", "ZoneArrays", "Zones", "derived",
    "layout_features", "layout_matrix", "n_rows", "page_codes", "run_starts", "search_each", "short_fullmatches",
    "term_counts", "tokenize", "vocabulary_index", "written_as_names",
]
