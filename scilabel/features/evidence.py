"""Page-metadata evidence: how well each zone matches what the page declares about itself.

A page's declared record (:class:`~scilabel.metadata.PageMeta`: its Highwire, Dublin Core, JSON-LD ...
tags) travels with its zones as :class:`Declared`, one object per page in the zones frame's
``declared`` column. The features (:data:`EVIDENCE_FEATURES`) say, per zone, how much of it the
declared title, authors, institutions, abstract and references account for, and whether each was
declared at all; :class:`~scilabel.metadata_evidence.MetadataEvidence` turns them into a factor of the
emission, so that the labeller weighs them with words and layout rather than the tags overriding the
page. Without a ``declared`` column (or with None for a page) every feature is 0: what a page without
tags gives.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from ..metadata import PageMeta

#: The column of a zones frame that carries each page's :class:`Declared` record.
DECLARED_COLUMN = "declared"
_WORD = re.compile(r"\w+")
#: Links and DOIs inside a declared reference, which are not words a reference zone prints.
_LINK = re.compile(r"\S*(?:https?://|doi:|10\.\d{4,}/)\S*", re.IGNORECASE)
#: Words a declared reference needs (links and identifiers aside) to count as declared.
REFERENCE_WORDS = 3


def _tokens(text: str) -> list[str]:
    """NFKC, case-folded word tokens."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _bigrams(tokens: list[str]) -> set[tuple[str, str]]:
    return set(zip(tokens, tokens[1:]))


@dataclass(frozen=True)
class Declared:
    """The fields of a page's declared record the evidence features compare zones with (texts as declared)."""

    title: str = ""
    authors: tuple[str, ...] = ()
    institutions: tuple[str, ...] = ()
    abstract: str = ""
    references: tuple[str, ...] = ()

    @classmethod
    def of(cls, meta: PageMeta) -> Declared | None:
        """The evidence record of a page's metadata; None when it declares none of these fields."""
        refs = tuple(" ".join(v for values in ref.values() for v in values) for ref in meta.references)
        out = cls(meta.title, tuple(meta.authors), tuple(meta.institutions), meta.abstract, refs)
        return out if out.any() else None

    @classmethod
    def from_dict(cls, record: dict) -> Declared | None:
        """Inverse of :meth:`to_dict` (None stays None)."""
        if not record:
            return None
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in record.items()})

    def to_dict(self) -> dict:
        return asdict(self)

    def any(self) -> bool:
        return bool(self.title or self.authors or self.institutions or self.abstract or self.reference_texts)

    @cached_property
    def title_tokens(self) -> frozenset[str]:
        return frozenset(_tokens(self.title))

    @cached_property
    def name_tokens(self) -> frozenset[str]:
        return frozenset(t for name in self.authors for t in _tokens(name) if len(t) > 1)

    @cached_property
    def institution_tokens(self) -> frozenset[str]:
        return frozenset(t for inst in self.institutions for t in _tokens(inst))

    @cached_property
    def abstract_bigrams(self) -> frozenset[tuple[str, str]]:
        return frozenset(_bigrams(_tokens(self.abstract)))

    @cached_property
    def reference_texts(self) -> tuple[str, ...]:
        """The declared references that give words to match: at least :data:`REFERENCE_WORDS` words
        besides links and identifiers (a JSON-LD ``citation`` that is only a DOI link declares nothing
        a reference zone could show)."""
        return tuple(ref for ref in self.references if len(_tokens(_LINK.sub(" ", ref))) >= REFERENCE_WORDS)

    @cached_property
    def reference_bigrams(self) -> frozenset[tuple[str, str]]:
        return frozenset(b for ref in self.reference_texts for b in _bigrams(_tokens(ref)))


#: Per declared field: how much of the zone it accounts for (``meta_*``); for title, authors and
#: affiliations, how much of that match zones read before it already made (``*_seen``: the second
#: showing of a byline, in an author panel or a "cite this" line, is not the byline; reading starts at
#: the title, :func:`_title_anchor`); whether the page declares the field (``declares_*``): a
#: declared field that a zone does not match is evidence against it; and how much the zone gives to
#: match (``word_pairs``, its word pairs up to :data:`PAIRS_ENOUGH`, scaled to 1): a link line of one or
#: two words that matches nothing says nothing, a sentence that matches nothing says it is no declared
#: text. (A model file fitted before a feature was added reads the columns before it: new ones go last.)
EVIDENCE_FEATURES = ("meta_title", "meta_authors", "meta_affiliations", "meta_abstract", "meta_references",
                     "meta_title_seen", "meta_authors_seen", "meta_affiliations_seen",
                     "declares_title", "declares_authors", "declares_affiliations", "declares_abstract",
                     "declares_references", "word_pairs")
#: Word pairs at which a zone has given enough to match that more add nothing (``word_pairs`` is 1).
PAIRS_ENOUGH = 8


#: Dice with the declared title a zone needs to be where the page's reading starts (:func:`_title_anchor`).
ANCHOR_TITLE_MATCH = 0.5


def _share(found: int, total: int) -> float:
    return found / total if total else 0.0


class _Page:
    """The evidence of one page's zones, taken in reading order (what the zones read before matched)."""

    def __init__(self, declared: Declared):
        self.declared = declared
        self.best_title = 0.0
        self.names: set[str] = set()
        self.institutions: set[str] = set()
        d = declared
        self.declares = (float(bool(d.title)), float(bool(d.authors)), float(bool(d.institutions)),
                         float(bool(d.abstract)), float(bool(d.reference_texts)))

    def title_match(self, tokens: list[str]) -> float:
        """Dice of a zone's token set and the declared title's."""
        token_set = set(tokens)
        title_tokens = self.declared.title_tokens
        return _share(2 * len(token_set & title_tokens), len(token_set) + len(title_tokens))

    def next_zone(self, tokens: list[str], title: float) -> tuple[float, ...]:
        """The next zone's :data:`EVIDENCE_FEATURES` from its tokens and its :meth:`title_match`."""
        d = self.declared
        words = [t for t in tokens if len(t) > 1 and not t.isdigit()]
        pairs = _bigrams(tokens)
        names = [w for w in words if w in d.name_tokens]
        institutions = [w for w in words if w in d.institution_tokens]
        seen_names = sum(w in self.names for w in names)
        seen = (min(title, self.best_title), _share(seen_names, len(names)),
                _share(sum(w in self.institutions for w in institutions), len(institutions)))
        self.best_title = max(self.best_title, title)
        self.names.update(names)
        self.institutions.update(institutions)
        return (title, _share(len(names) - seen_names, len(words)), _share(len(institutions), len(words)),
                _share(len(pairs & d.abstract_bigrams), len(pairs)),
                _share(len(pairs & d.reference_bigrams), len(pairs)),
                *seen, *self.declares, min(len(pairs), PAIRS_ENOUGH) / PAIRS_ENOUGH)


def zone_evidence(text: str, declared: Declared | None) -> tuple[float, ...]:
    """One zone's :data:`EVIDENCE_FEATURES`, as the first zone of its page (all 0 without a declared record).

    Title: Dice of the zone's and the title's token sets. Authors: share of the zone's words (two
    letters or more) that are declared name tokens not matched by a zone of the page read before it (a
    repeated author list, in a citation pop-up or a side panel, is no new evidence). Affiliations: share
    of the zone's words in the declared institutions. Abstract and references: share of the zone's word
    pairs found in the declared abstract or reference list (pairs, since single words of prose match any
    abstract).
    """
    return evidence_matrix([text], [declared])[0]


def evidence_matrix(texts: Sequence[str], declared: Sequence[Declared | None]) -> np.ndarray:
    """(n_zones, len(EVIDENCE_FEATURES)) evidence of zones (each page's in reading order) and their
    pages' declared records (:func:`zone_evidence`; the ``*_seen`` features from the zones of the same
    page read before, reading from the title: :func:`_title_anchor`); the texts of each page's zones are
    normalised in one pass."""
    out = np.zeros((len(texts), len(EVIDENCE_FEATURES)))
    rows_of: dict[int, list[int]] = {}
    records: dict[int, Declared] = {}
    for i, record in enumerate(declared):
        if record is not None:
            rows_of.setdefault(id(record), []).append(i)
            records[id(record)] = record
    for key, rows in rows_of.items():
        joined = unicodedata.normalize("NFKC", "\x00".join(str(texts[i]).replace("\x00", " ") for i in rows)).casefold()
        page = _Page(records[key])
        tokens = [_WORD.findall(text) for text in joined.split("\x00")]
        titles = [page.title_match(t) for t in tokens]
        start = _title_anchor(titles)
        for k in [*range(start, len(rows)), *range(start)]:
            out[rows[k]] = page.next_zone(tokens[k], titles[k])
    return out


def _title_anchor(titles: list[float]) -> int:
    """Where a reader of the page starts, from its zones' title matches: the first zone that best matches
    the declared title, when one shares at least :data:`ANCHOR_TITLE_MATCH` of it (else the first zone).
    The zones before it are read last, so that names or a title in a side panel above the article are
    its second showing."""
    best = int(np.argmax(titles))
    return best if titles[best] >= ANCHOR_TITLE_MATCH else 0


def with_declared(zones: pd.DataFrame, meta: PageMeta) -> pd.DataFrame:
    """One page's zones with its declared record (:meth:`Declared.of` ``meta``) as the ``declared`` column."""
    out = zones.copy()
    out[DECLARED_COLUMN] = [Declared.of(meta)] * len(zones)
    return out
