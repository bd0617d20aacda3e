"""The veto table: hand rules that bar states for the zones a predicate picks, applied before decoding
(and three other kinds: rules whose zones the path passes over, rules that favour states, and rules
that favour states only where the page shows them nowhere else).

A :class:`Veto` names a rule, the predicate that finds its zones (a module-level function of a page's
:class:`~scilabel.features.ZoneArrays`, returning a boolean mask, so that the table pickles with the
model) and the states it bars there (or passes over them, or adds nats to the states it favours).
``ZoneLabeler(vetoes=...)`` takes the table: :data:`DEFAULT_VETOES` by default, ``()`` for the labeller
without hand rules, ``without(DEFAULT_VETOES, "sentence")`` to leave
one out. Vetoes act only when decoding, so a fitted labeller's table may be changed with
``set_params`` and no refit. Why each default rule holds is told in :mod:`scilabel.constraints`.

A new rule is a predicate and one line of the table, e.g. "a zone reading 'Advertisement' is no
title"::

    def advertisements(zones):
        return np.array([t.strip() == "Advertisement" for t in ZoneArrays.of(zones).texts])

    ZoneLabeler(vetoes=(*DEFAULT_VETOES, Veto("advertisement", advertisements, bars=("Title",))))
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from ..constraints import (abstract_boxes, above_larger_text, author_bios, below_larger_text, byline_captions,
                           caption_blocks, citation_lines, contribution_notes, correspondence_notes, dated,
                           editor_credits, list_end_headings, measurements, related_sidebar, section_headings,
                           sentences, site_controls, site_notices, table_row_cells)
from ..features import ZoneArrays, Zones
from ..schema import ARTICLE, LABELS, STATE_INDEX, STATES

Predicate = Callable[[ZoneArrays], np.ndarray]


@dataclass(frozen=True)
class Veto:
    """A hand rule: the zones where ``predicate`` holds may not be in the states ``bars`` (or are passed
    over, or favour the states ``favours``).

    Parameters
    ----------
    name : what the rule is called (unique within a table; :func:`without` leaves rules out by name)
    predicate : a module-level function (so that it pickles) of a page's zones
        (:class:`~scilabel.features.ZoneArrays`) returning a boolean mask of them
    bars : names of the states (:data:`~scilabel.schema.STATES`) barred where the predicate holds
    pass_over : the second kind of rule: the decoded path passes over the zones where the predicate
        holds, labelling them ``other`` in the gap state where they stand (HMM decoding only)
    favours : the third kind: states whose log-emission gains ``by`` nats where the predicate holds
    by : what ``favours`` adds (nats, positive)
    fallback : the fourth kind, with ``favours``: the zones are where those states' labels are found
        only when the page has them nowhere else. A first decoding without the rule decides: on a page
        where no other zone is decoded with their labels they are favoured by ``by``, else barred there
        (HMM decoding only; :func:`fallbacks`). A favour may take its own zones, not move the rest of
        the page: where the second decoding labels other zones differently, the favour is withdrawn
    """

    name: str
    predicate: Predicate
    bars: tuple[str, ...] = ()
    pass_over: bool = False
    favours: tuple[str, ...] = ()
    by: float = 0.0
    fallback: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "bars", tuple(self.bars))
        object.__setattr__(self, "favours", tuple(self.favours))
        unknown = [s for s in (*self.bars, *self.favours) if s not in STATE_INDEX]
        if unknown:
            raise ValueError(f"veto {self.name!r} names unknown states {unknown}; states are {list(STATES)}")
        if not callable(self.predicate):
            raise TypeError(f"veto {self.name!r}: predicate must be a function of the zones")
        if not self.bars and not self.pass_over and not self.favours:
            raise ValueError(f"veto {self.name!r} neither bars nor favours a state nor passes over its zones")
        if bool(self.favours) != (self.by > 0):
            raise ValueError(f"veto {self.name!r}: favours needs a positive 'by' (nats) and 'by' needs favours")
        if self.fallback and (not self.favours or self.bars or self.pass_over):
            raise ValueError(f"veto {self.name!r}: a fallback favours states and neither bars nor passes over")

    def __repr__(self) -> str:
        predicate = f"{self.predicate.__module__}.{getattr(self.predicate, '__qualname__', self.predicate)}"
        kind = ", pass_over=True" if self.pass_over else ""
        if self.favours:
            kind += f", favours={self.favours!r}, by={self.by!r}"
        if self.fallback:
            kind += ", fallback=True"
        return f"Veto({self.name!r}, {predicate}, bars={self.bars!r}{kind})"


#: States a byline caption, a citation line, a measurement, an editor's credit or a note of equal
#: contribution cannot be in.
_NOT_A_BYLINE = ("Authors", "Affiliations")
#: What the author_bio rule adds to a biography's address states where the page prints no other (nats).
BIO_FAVOUR = 10.0
#: States a site notice or control cannot be in (an abstract may end with a copyright line).
_NOT_A_NOTICE = ("Title", "Authors", "Affiliations", "References")

#: The hand rules a labeller applies unless told otherwise.
DEFAULT_VETOES: tuple[Veto, ...] = (
    Veto("byline_caption", byline_captions, bars=_NOT_A_BYLINE),
    Veto("citation_line", citation_lines, bars=(*_NOT_A_BYLINE, "Abstract")),
    Veto("measurement", measurements, bars=_NOT_A_BYLINE),
    Veto("editor_credit", editor_credits, bars=_NOT_A_BYLINE),
    Veto("contribution_note", contribution_notes, bars=_NOT_A_BYLINE),
    # "Correspondence to: <name>, <address>": the address again, which the gold counts once, in its list
    Veto("correspondence_note", correspondence_notes, bars=_NOT_A_BYLINE),
    Veto("section_heading", section_headings, bars=("Abstract",)),
    # BRHR too: else the path keeps a whole list in the gap after its heading and takes the list under
    # the next heading ("Cited by") as the references
    Veto("heading_ends_references", list_end_headings, bars=("References", "BR", "BRHR")),
    Veto("below_larger_text", below_larger_text, bars=("Title",)),
    Veto("above_larger_text", above_larger_text, bars=("Title",)),
    Veto("related_sidebar", related_sidebar, bars=("Title", "Authors", "Affiliations", "Abstract")),
    Veto("dated", dated, bars=("Authors",)),
    Veto("sentence", sentences, bars=("Authors",)),
    Veto("site_notice", site_notices, bars=_NOT_A_NOTICE),
    Veto("site_control", site_controls, bars=_NOT_A_NOTICE),
    Veto("table_row_cell", table_row_cells, bars=("References",)),
    # Springer's "Authors and Affiliations" or Nature's "Author information" after the reference list:
    # under such a caption the path may enter the end matter as readily as it stays in the gap after
    # the references (the counted entry, about 0.004 a zone, costs about 5.5 nats)
    Veto("end_matter_caption", caption_blocks, favours=("Affiliations",), by=5.5),
    # An abstract in several paragraphs, in the box of its heading: the later ones read like the body's
    # to the emission (about 2 nats short); 3 to 6 nats all take them in on the development folds
    Veto("abstract_box", abstract_boxes, favours=("Abstract",), by=4.0),
    # A caption between the title and the byline, or between two names, then costs the path no detour
    # through a gap state (Title -> BTA -> Authors is a rare order in training, Title -> Authors a common
    # one). Decoding only: training counts captions as the gap zones they are (left out there too, they
    # made BAA -> Affiliations rarer, and an address block after other furniture was missed).
    Veto("byline_caption_passed_over", byline_captions, pass_over=True),
    # The authors' biographies under "About the authors" or "Contributor's note" name their
    # institutions: the page's address list when it prints no other, a second telling of it when it does
    Veto("author_bio", author_bios, favours=("Affiliations",), by=BIO_FAVOUR, fallback=True),
)


def without(vetoes: Iterable[Veto], *names: str) -> tuple[Veto, ...]:
    """``vetoes`` but those called ``names`` (the ablation of one rule or a few)."""
    vetoes = tuple(vetoes)
    unknown = set(names) - {veto.name for veto in vetoes}
    if unknown:
        raise ValueError(f"no veto called {sorted(unknown)}; the vetoes are {[veto.name for veto in vetoes]}")
    return tuple(veto for veto in vetoes if veto.name not in names)


@dataclass(frozen=True)
class Fallback:
    """Where a fallback rule (``Veto(fallback=True)``) holds: the zones ``where``, the columns ``states``
    of the states it favours, their ``labels`` and the nats ``by``; :meth:`apply` once a first decoding
    is known."""

    where: np.ndarray
    states: tuple[int, ...]
    labels: tuple[str, ...]
    by: float

    def page(self, first: int, last: int) -> Fallback:
        """The rule on the zones ``first:last`` (one page)."""
        return Fallback(self.where[first:last], self.states, self.labels, self.by)

    def favours(self, found: np.ndarray) -> bool:
        """Whether the rule favours its states, given ``found`` (the zones a first decoding labelled
        with their labels): when none of them lies outside the rule's zones; else it bars them."""
        return not (found & ~self.where).any()

    def apply(self, log_emission: np.ndarray, favour: bool) -> None:
        """Favour the states on the rule's zones in ``log_emission`` (changed in place), or bar them."""
        zones = np.ix_(np.flatnonzero(self.where), list(self.states))
        if favour:
            log_emission[zones] += self.by
        else:
            log_emission[zones] = -np.inf


def _masks(vetoes: Iterable[Veto], arrays: ZoneArrays) -> Iterator[tuple[Veto, np.ndarray]]:
    """Each veto with the mask of its predicate (a predicate shared by several vetoes runs once)."""
    holds: dict[Predicate, np.ndarray] = {}
    for veto in vetoes:
        if veto.predicate not in holds:
            holds[veto.predicate] = np.asarray(veto.predicate(arrays), dtype=bool)
        yield veto, holds[veto.predicate]


def fallbacks(vetoes: Iterable[Veto], zones: Zones | ZoneArrays) -> list[Fallback]:
    """The fallback rules of ``vetoes`` where they hold on ``zones`` (none where they hold nowhere)."""
    rules = []
    for veto, mask in _masks([v for v in vetoes if v.fallback], ZoneArrays.of(zones)):
        if mask.any():
            states = tuple(STATE_INDEX[s] for s in veto.favours)
            labels = tuple(dict.fromkeys(LABELS[ARTICLE.label_position[i]] for i in states))
            rules.append(Fallback(mask, states, labels, veto.by))
    return rules


def apply_vetoes(vetoes: Iterable[Veto], log_emission: np.ndarray, zones: Zones | ZoneArrays) -> np.ndarray:
    """Bar, in ``log_emission`` (zones x states, changed in place: -inf), the states each veto bars where
    its predicate holds, and raise those it favours; return which zones the path passes over. Fallback
    rules are left to :func:`fallbacks`. A predicate shared by several vetoes runs once."""
    arrays = ZoneArrays.of(zones)
    over = np.zeros(arrays.n_zones, dtype=bool)
    for veto, mask in _masks([v for v in vetoes if not v.fallback], arrays):
        if veto.bars:
            log_emission[np.ix_(np.flatnonzero(mask), [STATE_INDEX[s] for s in veto.bars])] = -np.inf
        if veto.favours:
            log_emission[np.ix_(np.flatnonzero(mask), [STATE_INDEX[s] for s in veto.favours])] += veto.by
        if veto.pass_over:
            over |= mask
    return over
