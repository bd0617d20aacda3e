"""States a zone's text rules out, applied to the log-emissions before decoding.

A byline caption ("Authors", "Authors and affiliations", "Corresponding Author", "Correspondence",
"Author information", "Addresses") is never a name or an address, yet it looks like one to the
emission: it is short, capitalised as names are, and the word "authors" opens bylines ("Authors: Li
Sun, ...").
The generated training pages hold few such captions between the title and the byline, so the HMM
would rather read them as authors than pay for a gap there. Barring the Authors and Affiliations
states for them leaves the decoder a gap state (or another component) instead.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .features import short_fullmatches
from .labels import STATE_INDEX

#: Words a byline caption is made of; "and" may join them ("Authors and affiliations").
_CAPTION_WORD = (r"corresponding|author(?:s|\(s\))?|affiliation(?:s|\(s\))?|address(?:es)?|correspondence|"
                 r"contributors?|information|details")
BYLINE_CAPTION = re.compile(rf"(?i)\W*(?:{_CAPTION_WORD})(?!\w)(?:\W*(?:{_CAPTION_WORD}|and)(?!\w))*\W*")
#: Longest text (characters) read as a caption.
CAPTION_MAX_LEN = 60
#: States a byline caption cannot be in.
_NOT_FOR_CAPTIONS = np.array([STATE_INDEX["Authors"], STATE_INDEX["Affiliations"]])


def byline_captions(texts: Sequence[str]) -> np.ndarray:
    """Whether each text is a byline caption and nothing else (:data:`BYLINE_CAPTION`)."""
    return short_fullmatches(BYLINE_CAPTION, texts, CAPTION_MAX_LEN)


def constrain(log_emission: np.ndarray, texts: Sequence[str]) -> np.ndarray:
    """``log_emission`` (zones x 16, changed in place and returned) with the states each text rules out
    set to -inf."""
    captions = np.flatnonzero(byline_captions(texts))
    log_emission[np.ix_(captions, _NOT_FOR_CAPTIONS)] = -np.inf
    return log_emission
