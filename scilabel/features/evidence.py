"""Page-metadata evidence: how well each zone matches what the page declares about itself.

A page's declared record (:class:`~scilabel.metadata.PageMeta`: its Highwire, Dublin Core, JSON-LD ...
tags) travels with its zones as :class:`Declared`, one object per page in the zones frame's
``declared`` column. The features (:data:`EVIDENCE_FEATURES`) say, per zone, how much of it the
declared title, authors, institutions, abstract and references account for, and whether each was
declared at all; they join the layout features, so the emission weighs them with words and layout
rather than the tags overriding the page. Without a ``declared`` column (or with None for a page)
every feature is 0: what a page without tags gives.
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
        return bool(self.title or self.authors or self.institutions or self.abstract or self.references)

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
    def reference_bigrams(self) -> frozenset[tuple[str, str]]:
        return frozenset(b for ref in self.references for b in _bigrams(_tokens(ref)))


#: Per declared field: how much of the zone it accounts for (``meta_*``), and whether the page declares
#: it (``declares_*``): a declared field that a zone does not match is evidence against it.
EVIDENCE_FEATURES = ("meta_title", "meta_authors", "meta_affiliations", "meta_abstract", "meta_references",
                     "declares_title", "declares_authors", "declares_affiliations", "declares_abstract",
                     "declares_references")


def _share(found: int, total: int) -> float:
    return found / total if total else 0.0


def zone_evidence(text: str, declared: Declared | None) -> tuple[float, ...]:
    """One zone's :data:`EVIDENCE_FEATURES` (all 0 without a declared record).

    Title: Dice of the zone's and the title's token sets. Authors: share of the zone's words (two
    letters or more) that are declared name tokens. Affiliations: share of the zone's words in the
    declared institutions. Abstract and references: share of the zone's word pairs found in the
    declared abstract or reference list (pairs, since single words of prose match any abstract).
    """
    if declared is None:
        return (0.0,) * len(EVIDENCE_FEATURES)
    return _evidence(_tokens(text), declared)


def _evidence(tokens: list[str], declared: Declared) -> tuple[float, ...]:
    """:func:`zone_evidence` of a zone's tokens."""
    words = [t for t in tokens if len(t) > 1 and not t.isdigit()]
    token_set = set(tokens)
    title = declared.title_tokens
    pairs = _bigrams(tokens)
    names, institutions = declared.name_tokens, declared.institution_tokens
    return (
        _share(2 * len(token_set & title), len(token_set) + len(title)),
        _share(sum(w in names for w in words), len(words)) if names else 0.0,
        _share(sum(w in institutions for w in words), len(words)) if institutions else 0.0,
        _share(len(pairs & declared.abstract_bigrams), len(pairs)),
        _share(len(pairs & declared.reference_bigrams), len(pairs)),
        float(bool(title)), float(bool(declared.authors)), float(bool(declared.institutions)),
        float(bool(declared.abstract)), float(bool(declared.references)),
    )


def evidence_matrix(texts: Sequence[str], declared: Sequence[Declared | None]) -> np.ndarray:
    """(n_zones, len(EVIDENCE_FEATURES)) evidence of zones and their pages' declared records; the
    texts of each page's zones are normalised in one pass."""
    out = np.zeros((len(texts), len(EVIDENCE_FEATURES)))
    rows_of: dict[int, list[int]] = {}
    records: dict[int, Declared] = {}
    for i, record in enumerate(declared):
        if record is not None:
            rows_of.setdefault(id(record), []).append(i)
            records[id(record)] = record
    for key, rows in rows_of.items():
        joined = unicodedata.normalize("NFKC", "\x00".join(str(texts[i]).replace("\x00", " ") for i in rows)).casefold()
        for i, text in zip(rows, joined.split("\x00")):
            out[i] = _evidence(_WORD.findall(text), records[key])
    return out


def with_declared(zones: pd.DataFrame, meta: PageMeta) -> pd.DataFrame:
    """One page's zones with its declared record (:meth:`Declared.of` ``meta``) as the ``declared`` column."""
    out = zones.copy()
    out[DECLARED_COLUMN] = [Declared.of(meta)] * len(zones)
    return out
