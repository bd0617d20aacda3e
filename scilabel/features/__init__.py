"""Zone features: the words of a zone and its layout.

=============  ===============================================================================
``text``       the tokenizer (:func:`tokenize`) and the vocabulary index that counts its tokens
               (:class:`TokenIndex`, :func:`vocabulary_index`)
``chars``      code points and character classes
``arrays``     zones as arrays (:class:`ZoneArrays`), computed once and shared by every feature
``layout``     layout features (:data:`LAYOUT_FEATURES`, :func:`layout_matrix`)
``cues``       rule-like cue features (the heading above, names, abstract parts, first prose)
``derived``    values derived from fitted attributes, kept while their estimator lives
=============  ===============================================================================

The names below are those the rest of scilabel imports. Saved models refer to
``scilabel.features.tokenize`` (the vectorizers' analyzer): keep it importable from here.
"""
from .arrays import ZONE_COLUMNS, ZoneArrays, Zones, n_rows, page_codes, run_starts, search_each, short_fullmatches
from .cues import written_as_names
from .derived import derived
from .layout import LAYOUT_FEATURES, PAPER_LAYOUT, layout_features, layout_matrix
from .text import TokenIndex, term_counts, tokenize, vocabulary_index

__all__ = [
    "LAYOUT_FEATURES", "PAPER_LAYOUT", "ZONE_COLUMNS", "TokenIndex", "ZoneArrays", "Zones", "derived",
    "layout_features", "layout_matrix", "n_rows", "page_codes", "run_starts", "search_each", "short_fullmatches",
    "term_counts", "tokenize", "vocabulary_index", "written_as_names",
]
