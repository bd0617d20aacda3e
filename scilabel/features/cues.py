"""Cue features: rule-like composites of a zone's text and its neighbours on the page (the heading
above it, the related-content block it lies in, the shape of names, a structured abstract's part
names, the page's first paragraph of prose), each a function of :class:`~scilabel.features.arrays.ZoneArrays`
giving 1 or 0 per zone. :data:`CUE_FEATURES` names them for :mod:`scilabel.features.layout`."""
from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..lexicons import alternation
from .arrays import ZoneArrays, run_starts, search_each

#: The names of a structured abstract's parts (the lexicon ``abstract_parts``), as a regular expression.
ABSTRACT_PART_NAMES = alternation("abstract_parts")
#: A zone opening with the name of a structured abstract's part, then its text: "Methods Ten adult
#: subjects ...", "Results: For the ...", not the heading "Methods" alone nor "Results of the model ...".
_ABSTRACT_PART = re.compile(rf"\s*{ABSTRACT_PART_NAMES}\s*[:.\u2013\u2014-]?\s+(?=[A-Z0-9(])")
#: A part's name on a line of its own ("Methods", "Results:").
PART_LINE = re.compile(rf"{ABSTRACT_PART_NAMES}[:.]?$", re.I)
#: Fewest words of the paragraph under a part's name of its own.
PART_MIN_WORDS = 5
#: Words of an abstract's and a reference list's headings (the lexicons ``abstract_cues``, ``references_cues``).
_ABSTRACT_CUE = re.compile(alternation("abstract_cues"), re.I)
_REFERENCES_CUE = re.compile(alternation("references_cues"), re.I)
#: A heading over links to other articles (the lexicon ``related_cues``: "Related articles", "Cited by"),
#: at the start of its text (of its line, as cues are searched in texts joined by newlines).
_RELATED_CUE = re.compile(rf"^[^\w\n]*{alternation('related_cues')}", re.I | re.M)
#: Most words in a zone read as a heading (a cue) by the cue features.
CUE_MAX_WORDS = 4
#: Most words in a related-content heading ("Similar articles in this archive").
RELATED_CUE_MAX_WORDS = 6
#: A related block in the first half of a page ends at text (two words or more) set at least this many
#: times larger than the page's body text: the article's title.
RELATED_END_SCALE = 1.3
#: Fewest words in a zone of prose (a paragraph, not a line of a byline or a menu).
PROSE_MIN_WORDS = 30
#: Largest share of capitals among the letters of a zone of prose (a list of names has more).
PROSE_MAX_CAPS = 0.12
#: A site notice opening a paragraph (cookie consent, a copyright and licence line, a library's
#: disclaimer): prose of the site, not of the article (the lexicon ``notice_openings``).
_NOTICE = re.compile(alternation("notice_openings"), re.I)
#: Characters at the start of a paragraph searched for a notice (an abstract may end with its copyright line).
NOTICE_CHARS = 120
#: Characters at the start of a zone that ``name_shape`` reads.
NAME_SHAPE_CHARS = 160
#: Most words (counting those that start with a letter) in one name of a name-shaped zone.
NAME_WORDS = 4
_NAME_SEPARATOR = re.compile(r"[,;&]| and ")


def written_as_names(text: str) -> bool:
    """Whether ``text`` is a list of title-cased names of at most :data:`NAME_WORDS` words each."""
    if not text.replace(" and ", ", ").istitle():
        return False
    return all(sum(w[0].isalpha() for w in name.split()) <= NAME_WORDS for name in _NAME_SEPARATOR.split(text))


def name_shapes(z: ZoneArrays) -> np.ndarray:
    """1 for a zone whose first :data:`NAME_SHAPE_CHARS` characters are written as names are, else 0:
    every word a capital then lower case (``str.istitle``, "and" allowed) and at most
    :data:`NAME_WORDS` words between separators (",", ";", "&", "and"), as in "Núria Bonifaci",
    "J. R. Evans", "Gómez-Baldó L, O'Neil A" but not "Why Most Published Research Findings Are
    False". Unlike the field word scores it does not need the names to be known."""
    return np.fromiter((written_as_names(t[:NAME_SHAPE_CHARS]) for t in z.texts), dtype=float, count=z.n_zones)


def after_cue(z: ZoneArrays, cue: re.Pattern) -> np.ndarray:
    """1 for a zone whose previous zone on the page is a short text (at most 4 words) matching ``cue``
    (a heading such as "Abstract" or "References") and not a link (a tab or a table of contents
    entry), else 0."""
    return z.follows(z.found_in_short(cue, CUE_MAX_WORDS) & z.not_links).astype(float)


def after_related_cue(z: ZoneArrays) -> np.ndarray:
    """1 for a zone below a related-content heading (:data:`_RELATED_CUE`), up to the next references
    or abstract heading; else 0. In the second half of a page such blocks follow the reference list
    and hold author lists ("Feller C, Farcot E, Mazza C") that read like a reference's first field.
    In the first half a related sidebar set before the article (:func:`related_sidebars`) holds titles
    and bylines that read like the article's own."""
    if z.n_zones == 0:
        return np.zeros(0)
    cue = z.found_in_short(_RELATED_CUE, RELATED_CUE_MAX_WORDS)
    late = cue & (z.order_rel >= 0.5)
    headings = z.found_in_short(_REFERENCES_CUE, CUE_MAX_WORDS) | z.found_in_short(_ABSTRACT_CUE, CUE_MAX_WORDS)
    return (z.in_block(late, late | headings) | related_sidebars(z)).astype(float)


def related_sidebars(z: ZoneArrays) -> np.ndarray:
    """Whether each zone lies in a related sidebar set before the article (as an unstyled page shows
    it): below a related-content heading (:data:`_RELATED_CUE`) in the first half of the page, set as a
    heading (bold, or type :data:`RELATED_END_SCALE` times the body's) and not as a link (a tab or menu
    item such as "Related content" above the byline is none), up to where the article starts: the next
    text set in larger type (its title), the next paragraph of prose, or an abstract, references or
    another related heading."""
    cue = z.found_in_short(_RELATED_CUE, RELATED_CUE_MAX_WORDS)
    if not cue.any():
        return np.zeros(z.n_zones, dtype=bool)
    heading = z.bold | (z.font_rel >= RELATED_END_SCALE)
    early = cue & (z.order_rel < 0.5) & heading & z.not_links
    headings = z.found_in_short(_REFERENCES_CUE, CUE_MAX_WORDS) | z.found_in_short(_ABSTRACT_CUE, CUE_MAX_WORDS)
    larger = (z.font_rel >= RELATED_END_SCALE) & (z.n_words >= 2)
    return z.in_block(early, cue | headings | larger | _prose(z))


def _prose(z: ZoneArrays) -> np.ndarray:
    """Whether each zone is prose: at least :data:`PROSE_MIN_WORDS` words, at most
    :data:`PROSE_MAX_CAPS` of its letters capitals (a paragraph, not a byline or a menu)."""
    return (z.n_words >= PROSE_MIN_WORDS) & (z.caps <= PROSE_MAX_CAPS)


def abstract_parts(z: ZoneArrays) -> np.ndarray:
    """1 for a zone that opens with a structured abstract's part name and goes on with its text
    ("Methods Ten adult subjects ..."), and for the parts whose names stand on lines of their own
    right under an abstract heading: each name and the paragraph under it ("Abstract", "Objective",
    its text, "Methods", its text ...), up to a name without a paragraph (a table of contents), set
    in another size or seen before (the body's "Background" after the abstract's "Conclusions");
    else 0."""
    out = z.opening(_ABSTRACT_PART)
    order, pages, size, position = z.by_page, z.pages, z.column("font_size"), z.page_positions
    for row in np.flatnonzero(after_cue(z, _ABSTRACT_CUE)).tolist():
        seen: set[str] = set()
        for k in range(position[row], len(order) - 1, 2):  # a part's name, then its paragraph
            name, paragraph = order[k], order[k + 1]
            text = z.texts[name]
            if (pages[paragraph] != pages[row] or size[name] != size[row] or text.lower() in seen
                    or z.n_words[paragraph] < PART_MIN_WORDS or PART_LINE.match(text) is None):
                break
            seen.add(text.lower())
            out[[name, paragraph]] = 1.0
    return out


def first_prose(z: ZoneArrays) -> np.ndarray:
    """1 for the first zone of prose on its page (at least :data:`PROSE_MIN_WORDS` words, at most
    :data:`PROSE_MAX_CAPS` of its letters capitals) that does not open with a site notice
    (:data:`_NOTICE`, in its first :data:`NOTICE_CHARS` characters), else 0: in most articles the
    abstract, with or without a heading above it (Springer's pages have none); on real pages a
    cookie banner or a library's disclaimer often comes first."""
    out = np.zeros(z.n_zones)
    rows = z.by_page[_prose(z)[z.by_page]]  # prose, page by page
    at = np.flatnonzero(run_starts(z.pages[rows]))  # each page's first ...
    end = np.append(at[1:], len(rows))
    while len(at):  # ... then, where that is a notice, the page's next
        notice = search_each(_NOTICE, [z.texts[i][:NOTICE_CHARS] for i in rows[at].tolist()])
        out[rows[at[~notice]]] = 1.0
        at, end = at[notice] + 1, end[notice]
        at, end = at[at < end], end[at < end]
    return out


#: The cue features by name, in the order of :data:`~scilabel.features.layout.LAYOUT_FEATURES`.
CUE_FEATURES: dict[str, Callable[[ZoneArrays], np.ndarray]] = {
    "prev_abstract_cue": lambda z: after_cue(z, _ABSTRACT_CUE),
    "prev_references_cue": lambda z: after_cue(z, _REFERENCES_CUE),
    "name_shape": name_shapes,
    "abstract_part": abstract_parts,
    "after_related_cue": after_related_cue,
    "first_prose": first_prose,
}
