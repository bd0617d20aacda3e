"""What a zone's text or type shows it is not: the predicates of the hand rules (vetoes).

Each predicate takes a page's zones and returns a boolean mask of them; which states a rule then bars
before decoding is data, in the veto table :data:`scilabel.rules.vetoes.DEFAULT_VETOES`. Why each
rule holds:

A byline caption ("Authors", "Authors and affiliations", "Corresponding Author", "Correspondence",
"Author information", "Addresses", Springer's "Email author" link under a name) is never a name or an
address, yet it looks like one to the emission: it is short, capitalised as names are, and the word
"authors" opens bylines ("Authors: Li Sun, ...").
The generated training pages hold few such captions between the title and the byline, so the HMM
would rather read them as authors than pay for a gap there. Barring the Authors and Affiliations
states for them leaves the decoder a gap state (or another component) instead.

A citation line ("Yang CY, Liu HM, Chen SK (2016) Reproducibility of ...": a repository record's or
a publisher's "cite this article") opens with the authors' names too, and under the byline the
emission reads it as one; it is barred from the same two states, and from Abstract, which a
repository record's citation may otherwise open.

A title is the most prominent text of the article's head: a zone below a sentence set in type at least
1.3 times larger (an encyclopedia's tagline or a standfirst under the title) is barred from the Title
state, which otherwise may take such a line so that the byline can follow the title directly; so is a
zone a few lines above such a sentence (the journal's name and its editor over the article's title).

No zone of a related sidebar set before the article (under a "Related articles" or "Recommended"
heading, up to the article's larger title or its first prose) is the article's title, byline, address or
abstract: the sidebar lists other articles, each with its title and byline, which the emission reads as
the article's own. None of the 2,050 line units of such sidebars on the reviewed real pages (both gold
folders) and the generated pages is gold of any field.

A zone holding a year (1800-2099, as the ``years`` layout feature counts them) is no byline: a
dateline ("Posted on 1 August 2017"), a citation or a copyright line; it is barred from Authors.

A site notice, a copyright line ("© 2013 Author(s).") or a cookie consent ("We use cookies to improve
your experience"), is no title, byline, address or reference; an abstract may end with a copyright
line. Nor is a site control: a share or bookmark link ("Facebook", "Digg", "CiteULike", "Email") or a
search or sign-in control ("Skip to main content", "Search for Keyword: GO", "Advanced Search"),
which in a reference list of one name per line reads like a name.

A section heading ("Results", "Background" set in large type) is no part of the abstract: a short line
set at least 1.3 times larger than the page's body text is barred from Abstract. The part headings of
a structured abstract are set in body size or smaller.
Nor is it a reference or a line between two references: a heading after the reference list ("Cited
by (64)", "Recommended articles", "Author information") ends it, and the lists publishers print under
such headings (citing and related articles: a title, a journal and year, names) read like reference
entries, so the References/BR loop would otherwise carry the path through them.

A measurement (a decimal number in a text of at most two letters per digit: ".001 a", "94.65 (7)") is
no name and no address: a table of statistics or bond angles alternates such cells with short
labels, and the byline loop (Authors <-> Affiliations) could otherwise read the table as a byline. A
DOI's "10.1007" counts as such a number: a citation line that dense in digits is no byline either.

A zone that reads as a sentence (lower-case words outnumber the capitalised ones, and a short one such
as "the", "of" or "for" is among them) is no byline: an encyclopedia's tagline under the title ("From
OpenKnowledge Wiki, the peer-reviewed open encyclopedia"), a pop-up's "Search for more papers by this
author", or the first paragraph of an essay that credits its authors only after the body, all of which
the byline's place right under the title otherwise draws into Authors.

An editor's credit ("Associate Editor: James F. Cahill", "Edited by ...", "Reviewed by ...") names
people who did not write the article; it is barred from Authors and Affiliations, and so is the zone
under a credit set alone as a caption ("Edited by", then "Prathiba Natesan, University of North Texas").
A note of equal contribution ("These authors contributed equally: John Jumper, Richard Evans ...",
"Contributed equally to this work with: Yang Li, Tuanjie Wang") names authors but is no byline, and
once read as one, the byline's own names after it were passed over as repeats; it is barred from the
same two states.

A cell of a table row (three or more zones side by side) is no reference: a statistics table's lone
dash or asterisk reads as a piece of a reference to the emission, and once one cell is References the
References/BR loop carries the path through the whole table.

The other way round, a byline caption in the second half of a page ("Authors and Affiliations",
"Author information" after the reference list) is where the end matter begins: the zones of its
block are favoured as addresses. Entering the end matter from the gap after the references is
counted per zone of that gap (about 0.004), so a single address there, read by the emission as one
by 3 or 4 nats, could not pay the way in and out; under the caption the way in costs nothing.
"""
from __future__ import annotations

import re

import numpy as np

from .features import ZoneArrays, Zones, page_codes, search_each, short_fullmatches
from .features.cues import related_sidebars
from .lexicons import alternation, lexicon
from .references.names import PARTICLES
from .schema import STATE_INDEX

#: Words a byline caption is made of (the lexicon ``byline_captions``); "and" may join them
#: ("Authors and affiliations").
_CAPTION_WORD = alternation("byline_captions")
BYLINE_CAPTION = re.compile(rf"(?i)\W*{_CAPTION_WORD}(?!\w)(?:\W*(?:{_CAPTION_WORD}|and)(?!\w))*\W*")
#: A caption over the authors' biographies, the whole of a zone's text (the lexicon ``bio_captions``).
BIO_CAPTION = re.compile(rf"\W*{alternation('bio_captions')}\W*")
#: Fewest words of a biography (:func:`author_bios`) ...
BIO_MIN_WORDS = 8
#: ... which names an institution (the lexicon ``institution_words``, whole words).
_INSTITUTION = re.compile(rf"\b{alternation('institution_words')}\b", re.I)
#: Longest text (characters) read as a caption.
CAPTION_MAX_LEN = 60
#: Most zones below a byline caption that make its block (:func:`caption_blocks`).
CAPTION_BLOCK_ZONES = 12
#: Where a page's end matter may begin, as a share of its zones in reading order.
END_MATTER_FROM = 0.5
#: A text opening as a bibliographic citation does: names, then the year in parentheses, then a word
#: ("Yang CY, Liu HM (2016) Reproducibility of ...", "Babich, A., & Li, S. (2012). F-actin ..."); the
#: names are checked by :func:`citation_lines`.
_CITATION_OPENING = re.compile(r"([^\d\n]{5,300}?)\((?:1[89]|20)\d\d[a-z]?\)[.,;:]?\s*[^\W\d]")
#: The year in parentheses every citation line holds, searched for first.
_CITATION_YEAR = re.compile(r"\((?:1[89]|20)\d\d[a-z]?\)")
#: Lower-case words a list of names may hold: name particles ("van", "de", "ten") and the words that
#: join or end the list ("and", "et al.").
_LOWER_NAME_WORDS = PARTICLES | {"et", "and"}
#: A title is the article's most prominent text: no zone above it, nor among the next
#: :data:`TITLE_RIVAL_WINDOW` below it, of at least this many words ...
TITLE_RIVAL_WORDS = 4
#: ... is set in type this many times larger.
TITLE_RIVAL_SCALE = 1.3
#: Line units below a title candidate searched for a rival.
TITLE_RIVAL_WINDOW = 10
#: A section heading has at most this many words ...
HEADING_MAX_WORDS = 3
#: ... and is set in type at least this many times the page's body size.
HEADING_SCALE = 1.3
#: A short line set at least this many times the body size ends a reference list too when no line
#: among its :data:`LONE_STYLE_WINDOW` neighbours on either side shares its size and weight: a
#: heading stands alone in its style, a styled field of every entry (a bold journal name) recurs.
LONE_HEADING_SCALE = 1.1
LONE_STYLE_WINDOW = 8
#: A site notice: a copyright line ("©", "Copyright 2016" or "Copyright ©", "All rights reserved") or
#: a cookie consent ("We use cookies", "This website uses cookies", "Accept all cookies"): the lexicon
#: ``site_notices`` ...
_SITE_NOTICE = re.compile(alternation("site_notices"), re.I)
#: ... searched for only in the texts holding one of these (in lower case): the lexicon ``site_notice_cues``.
_SITE_NOTICE_CUES = lexicon("site_notice_cues")
#: A site control, the whole of a zone's text: a share or bookmark link (the lexicon ``share_targets``),
#: a skip link, a search or sign-in control (the lexicon ``site_controls``).
_SITE_CONTROL = re.compile(
    rf"\W*(?:(?:share (?:on |via )?)?{alternation('share_targets')}|{alternation('site_controls')})\W*", re.I)
#: Longest text (characters) read as a site control.
SITE_CONTROL_MAX_LEN = 60
#: An editor's or reviewer's credit, at the start of a zone ("Associate Editor:", "Edited by"; the
#: lexicons ``editor_titles`` and ``credit_verbs``) ...
_EDITOR_CREDIT = re.compile(rf"^\W*(?:(?:{alternation('editor_titles')}\s+)?editors?\b(?!ial)"
                            rf"|{alternation('credit_verbs')}\s+by\b)", re.I)
#: ... searched for only in the texts holding one of these in lower case (every credit does).
_EDITOR_CREDIT_CUES = ("editor", "ed by")
#: Most words in a credit that is a caption over the zone below it.
CREDIT_CAPTION_WORDS = 3
#: A note of equal contribution at the start of a zone (the lexicon ``contribution_notes``).
_CONTRIBUTION_NOTE = re.compile(rf"^\W*(?:{alternation('contribution_notes')})", re.I)
#: A note of correspondence at the start of a zone (the lexicon ``correspondence_notes``).
_CORRESPONDENCE_NOTE = re.compile(rf"^\W*(?:{alternation('correspondence_notes')})", re.I)
#: An abstract's heading, the whole of a short zone (the lexicon ``abstract_headings``: "Abstract", "Summary:").
_ABSTRACT_HEADING = re.compile(rf"\W*{alternation('abstract_headings')}\W*", re.I)
#: Most zones from an abstract's heading (included) to the end of the box that holds it and its paragraphs.
ABSTRACT_BOX_ZONES = 10
#: Fewest words of a paragraph of the abstract read by :func:`abstract_boxes`.
ABSTRACT_BOX_WORDS = 12
#: Characters at the start of a zone read to tell a sentence.
SENTENCE_CHARS = 160
#: Fewest words in a sentence (an obfuscated e-mail address, "samantha [at] zooniverse.org", has three).
SENTENCE_MIN_WORDS = 4
#: Fewest lower-case words of three or more letters in a sentence.
SENTENCE_MIN_LOWER = 3
#: Fewest zones side by side (the same top, to the pixel, on one page) that make a table row.
TABLE_ROW_MIN = 3
#: A decimal number (".001", "94.65"), not within a longer run of digits and points ("1.2.3").
_DECIMAL = re.compile(r"(?<![\d.])\d*\.\d+(?![\d.])")
#: Most letters per digit in a measurement.
MEASUREMENT_LETTERS_PER_DIGIT = 2


def byline_captions(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone's text is a byline caption and nothing else (:data:`BYLINE_CAPTION`)."""
    return short_fullmatches(BYLINE_CAPTION, ZoneArrays.of(zones).texts, CAPTION_MAX_LEN)


def caption_blocks(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone is among the :data:`CAPTION_BLOCK_ZONES` below a byline caption that is no
    link and stands in the page's end matter (from :data:`END_MATTER_FROM` of its zones on: "Authors
    and Affiliations", "Author information"), up to the next caption or text set :data:`HEADING_SCALE`
    times larger than the body ("About this article")."""
    arrays = ZoneArrays.of(zones)
    captions = byline_captions(arrays) & (arrays.order_rel >= END_MATTER_FROM)
    if not captions.any():
        return captions
    captions &= arrays.not_links
    ends = captions | ((arrays.font_rel >= HEADING_SCALE) & (arrays.n_words >= 2))
    return arrays.in_block(captions, ends, CAPTION_BLOCK_ZONES)


def author_bios(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone is running text (at least :data:`BIO_MIN_WORDS` words, of which
    :data:`SENTENCE_MIN_LOWER` in lower case of three letters or more and one of two or three: a
    biography names people and places, so capitals may outnumber them) among the
    :data:`CAPTION_BLOCK_ZONES` below a caption over the authors' biographies that is no link
    (:data:`BIO_CAPTION`: "About the authors", "Contributor's note"), up to the next such caption,
    byline caption or heading (a line of at most :data:`HEADING_MAX_WORDS` words set
    :data:`LONE_HEADING_SCALE` times larger than the body), that names an institution
    (:data:`_INSTITUTION`: a reference list under the block names none) and is no citation
    (:func:`citation_lines`)."""
    arrays = ZoneArrays.of(zones)
    captions = short_fullmatches(BIO_CAPTION, arrays.texts, CAPTION_MAX_LEN)
    if not captions.any():
        return captions
    captions &= arrays.not_links
    headings = (arrays.font_rel >= LONE_HEADING_SCALE) & (arrays.n_words <= HEADING_MAX_WORDS)
    ends = captions | byline_captions(arrays) | headings
    lower, short, _ = arrays.word_cases(SENTENCE_CHARS)
    running = (arrays.n_words >= BIO_MIN_WORDS) & (lower >= SENTENCE_MIN_LOWER) & (short > 0)
    bios = arrays.in_block(captions, ends, CAPTION_BLOCK_ZONES) & running
    bios[bios] = search_each(_INSTITUTION, [arrays.texts[i] for i in np.flatnonzero(bios)])
    return bios & ~citation_lines(arrays)


def citation_lines(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone's text opens as a bibliographic citation: names (a comma between them, no
    lower-case word but :data:`_LOWER_NAME_WORDS`), then the year in parentheses, then the title
    (:data:`_CITATION_OPENING`); tried only on the texts holding such a year."""
    texts = ZoneArrays.of(zones).texts
    found = np.zeros(len(texts), dtype=bool)
    for i in np.flatnonzero(search_each(_CITATION_YEAR, texts)).tolist():
        match = _CITATION_OPENING.match(texts[i])
        found[i] = match is not None and "," in match.group(1) and all(
            not word[0].islower() or word.strip(".,;") in _LOWER_NAME_WORDS for word in match.group(1).split())
    return found


def below_larger_text(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone lies below (in reading order, on its page) a zone of at least
    :data:`TITLE_RIVAL_WORDS` words set in type at least :data:`TITLE_RIVAL_SCALE` times larger; a zone
    without a font size is never below."""
    arrays = ZoneArrays.of(zones)
    rivals, least = _title_rivals(arrays)
    return arrays.max_before(rivals) >= least


def above_larger_text(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone lies above one of the next :data:`TITLE_RIVAL_WINDOW` zones on its page that has
    at least :data:`TITLE_RIVAL_WORDS` words and is set in type at least :data:`TITLE_RIVAL_SCALE` times
    larger; a zone without a font size is never above."""
    arrays = ZoneArrays.of(zones)
    rivals, least = _title_rivals(arrays)
    return arrays.max_after(rivals, TITLE_RIVAL_WINDOW) >= least


def _title_rivals(arrays: ZoneArrays) -> tuple[np.ndarray, np.ndarray]:
    """Each zone's type size as a title's rival (0 under :data:`TITLE_RIVAL_WORDS` words or without a size),
    and the least size that outranks it (infinite for a zone without a size)."""
    sizes = np.nan_to_num(arrays.column("font_size"))
    rivals = np.where(arrays.n_words >= TITLE_RIVAL_WORDS, sizes, 0.0)
    return rivals, TITLE_RIVAL_SCALE * np.where(sizes > 0, sizes, np.inf)


def related_sidebar(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone lies in a related sidebar set before the article
    (:func:`~scilabel.features.cues.related_sidebars`)."""
    return related_sidebars(ZoneArrays.of(zones))


def site_notices(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone holds a site notice (:data:`_SITE_NOTICE`, in any case)."""
    return ZoneArrays.of(zones).cue_matches(_SITE_NOTICE, _SITE_NOTICE_CUES, lowered=True) > 0


def site_controls(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone's text (at most :data:`SITE_CONTROL_MAX_LEN` characters) is a site control
    (:data:`_SITE_CONTROL`, in full)."""
    return short_fullmatches(_SITE_CONTROL, ZoneArrays.of(zones).texts, SITE_CONTROL_MAX_LEN)


def section_headings(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone is a short line (at most :data:`HEADING_MAX_WORDS` words) set at least
    :data:`HEADING_SCALE` times the page's body size."""
    arrays = ZoneArrays.of(zones)
    return (arrays.n_words <= HEADING_MAX_WORDS) & (arrays.font_rel >= HEADING_SCALE)


def list_end_headings(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone is a section heading (:func:`section_headings`) or a short line set at least
    :data:`LONE_HEADING_SCALE` times the body size in a style (size and weight) that none of its
    :data:`LONE_STYLE_WINDOW` neighbours on either side of its page shares: a heading that can end a
    reference list ("Citing Literature" set 1.17 times the body)."""
    arrays = ZoneArrays.of(zones)
    order = arrays.by_page
    style = np.column_stack([arrays.pages, arrays.column("font_size"), arrays.column("font_weight")])[order]
    key = np.unique(style, axis=0, return_inverse=True)[1].ravel()
    shared = np.zeros(len(key), dtype=bool)
    for step in range(1, LONE_STYLE_WINDOW + 1):
        same = key[step:] == key[:-step]
        shared[step:] |= same
        shared[:-step] |= same
    lone = np.empty(len(key), dtype=bool)
    lone[order] = ~shared
    short = arrays.n_words <= HEADING_MAX_WORDS
    return section_headings(arrays) | (short & (arrays.font_rel >= LONE_HEADING_SCALE) & lone)


def measurements(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone holds a decimal number and at most :data:`MEASUREMENT_LETTERS_PER_DIGIT`
    letters per digit."""
    arrays = ZoneArrays.of(zones)
    short = np.flatnonzero((arrays.figures > 0) & (arrays.letters <= MEASUREMENT_LETTERS_PER_DIGIT * arrays.figures))
    found = np.zeros(arrays.n_zones, dtype=bool)
    found[short] = search_each(_DECIMAL, [arrays.texts[i] for i in short.tolist()])
    return found


def dated(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone holds a year (1800-2099, as :attr:`ZoneArrays.years` counts them)."""
    return ZoneArrays.of(zones).years > 0


def editor_credits(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone opens with an editor's or reviewer's credit (:data:`_EDITOR_CREDIT`), or
    follows on its page a credit that is a caption alone ("Edited by", "Reviewed by:", at most
    :data:`CREDIT_CAPTION_WORDS` words) over the names and addresses it credits."""
    arrays = ZoneArrays.of(zones)
    credits = arrays.cue_matches(_EDITOR_CREDIT, _EDITOR_CREDIT_CUES, lowered=True) > 0
    return credits | arrays.follows(credits & (arrays.n_words <= CREDIT_CAPTION_WORDS))


def abstract_boxes(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone is a paragraph (:data:`ABSTRACT_BOX_WORDS` words or more) after an abstract's
    heading (:data:`_ABSTRACT_HEADING`, no link) in the box that holds the heading (its DOM parent), when
    that box ends within :data:`ABSTRACT_BOX_ZONES` zones of the heading: the later paragraphs of an
    abstract in several, which read like the body's. False throughout for zones without a DOM path
    (PDF pages)."""
    arrays = ZoneArrays.of(zones)
    out = np.zeros(arrays.n_zones, dtype=bool)
    if "node_path" not in arrays.zones:
        return out
    headings = short_fullmatches(_ABSTRACT_HEADING, arrays.texts, CAPTION_MAX_LEN) & arrays.not_links
    if not headings.any():
        return out
    paths, order, pages = np.asarray(arrays.zones["node_path"], dtype=object), arrays.by_page, arrays.pages
    position = arrays.page_positions
    for heading in np.flatnonzero(headings).tolist():
        box = f"{str(paths[heading]).rpartition('/')[0]}/"
        inside = []
        for row in order[position[heading] + 1: position[heading] + 1 + ABSTRACT_BOX_ZONES].tolist():
            if pages[row] != pages[heading] or not str(paths[row]).startswith(box):
                break
            inside.append(row)
        if len(inside) < ABSTRACT_BOX_ZONES:  # else the box holds more than an abstract
            out[inside] = arrays.n_words[inside] >= ABSTRACT_BOX_WORDS
    return out


def contribution_notes(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone opens with a note of equal contribution (:data:`_CONTRIBUTION_NOTE`)."""
    return ZoneArrays.of(zones).opening(_CONTRIBUTION_NOTE) > 0


def correspondence_notes(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone opens with a note of correspondence (:data:`_CORRESPONDENCE_NOTE`:
    "Correspondence to:", "Corresponding author at:", "Reprint requests should be sent to")."""
    return ZoneArrays.of(zones).opening(_CORRESPONDENCE_NOTE) > 0


def sentences(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone has at least :data:`SENTENCE_MIN_WORDS` words and its first
    :data:`SENTENCE_CHARS` characters read as a sentence: at least :data:`SENTENCE_MIN_LOWER` lower-case
    words of three or more letters, more of them than words opening with a capital, and a lower-case
    word of two or three letters."""
    arrays = ZoneArrays.of(zones)
    lower, short, capitalised = arrays.word_cases(SENTENCE_CHARS)
    return (arrays.n_words >= SENTENCE_MIN_WORDS) & (lower >= SENTENCE_MIN_LOWER) & (lower > capitalised) & (short > 0)


def table_row_cells(zones: Zones | ZoneArrays) -> np.ndarray:
    """Whether each zone sits in a row of at least :data:`TABLE_ROW_MIN` zones side by side: the same
    top (rounded to the pixel) on its page; none without tops."""
    arrays = ZoneArrays.of(zones)
    if arrays.n_zones == 0 or "y" not in arrays.zones:
        return np.zeros(arrays.n_zones, dtype=bool)
    tops = np.round(np.nan_to_num(arrays.column("y"), nan=-1.0)).astype(np.int64)
    tops -= tops.min()
    rows = page_codes(arrays.zones) * (int(tops.max()) + 1) + tops
    _, row, size = np.unique(rows, return_inverse=True, return_counts=True)
    return size[row] >= TABLE_ROW_MIN

