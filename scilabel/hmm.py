"""The left-right article HMM over the states of :mod:`scilabel.schema` (Zou, Le & Thoma 2007, Figure 1).

Transitions and start probabilities are estimated by counting state sequences of labelled
pages; decoding runs hmmlearn's Viterbi and (log-space) forward-backward, through its public
``decode`` and ``score_samples``, on a precomputed ``(n_zones, n_states)`` matrix of emission
log-likelihoods (columns in ``schema.STATES`` order). A topology with end matter
(:data:`~scilabel.schema.TOPOLOGIES`) has more states than the emissions have columns: each end-matter
state reads its component's column (:attr:`~scilabel.schema.Schema.emission_columns`), and the end
matter is decoded in a second pass, after the references the article's own states find.
"""
from __future__ import annotations

import logging
import numbers
from collections.abc import Iterable, Sequence

import numpy as np
from hmmlearn.base import BaseHMM
from scipy.sparse.csgraph import breadth_first_order
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from scilabel.schema import ARTICLE, TOPOLOGIES, Schema

_log = logging.getLogger(__name__)


def _topology_schema(topology: str) -> Schema:
    if topology not in TOPOLOGIES:
        raise ValueError(f"topology must be one of {sorted(TOPOLOGIES)}, got {topology!r}")
    return TOPOLOGIES[topology].schema


def _allowed_transitions(topology: str = "strict", schema: Schema | None = None) -> np.ndarray:
    """Figure 1 of the paper: forward links (which may skip missing components), self-loops,
    and the References <-> BR loop; the end matter's links, when the schema has end matter; plus the
    extra links of ``topology``. ``schema`` defaults to the topology's.

    Under the strict topology a component other than References split by an ``other`` zone
    (abstract, other, abstract) has no path: in training data its gap -> component transition is
    dropped and counted. The end matter is entered from the component it follows or the gap after it
    (References, AR); its states follow one another in any order, with its loop state between them,
    and leave to that gap (the loop state only back to an end-matter state). A translation's state
    (``schema.translated``) is entered from the component it follows, the gap after it and the other
    translations that follow that component, and goes wherever that gap goes.
    """
    schema = _topology_schema(topology) if schema is None else schema
    n_states = len(schema.states)
    allowed = np.zeros((n_states, n_states), dtype=bool)

    def link(src: str, dst: str) -> None:
        allowed[schema.state_index[src], schema.state_index[dst]] = True

    link(schema.start, schema.start)
    for i, component in enumerate(schema.components):
        link(schema.start, component.state)
        link(component.state, component.state)
        link(component.state, component.gap)
        link(component.gap, component.gap)
        if component.loop:
            link(component.state, component.loop)
            link(component.loop, component.loop)
            link(component.loop, component.state)
        for later in schema.components[i + 1:]:
            link(component.state, later.state)
            link(component.gap, later.state)
    if schema.end_matter is not None:
        end = schema.end_matter
        before, after = schema.label_state[end.after], schema.gap_after[end.after]
        link(end.loop, end.loop)
        for _, state in end.states:
            for src, dst in ((before, state), (after, state), (state, end.loop), (end.loop, state), (state, after)):
                link(src, dst)
            for _, next_state in end.states:
                link(state, next_state)
    for src, dst in TOPOLOGIES[topology].links:
        link(src, dst)
    for _, state, after in schema.translated:
        gap = schema.gap_after[after]
        allowed[schema.state_index[state]] |= allowed[schema.state_index[gap]]
        for src in (schema.label_state[after], gap, state, *(other for _, other, a in schema.translated if a == after)):
            link(src, state)
        link(state, gap)
    allowed.setflags(write=False)
    return allowed


def _allowed_start(allowed: np.ndarray, schema: Schema) -> np.ndarray:
    """States a page may start in: the start state or any state it links to."""
    start = allowed[schema.state_index[schema.start]].copy()
    start.setflags(write=False)
    return start


#: ``ALLOWED_TRANSITIONS[i, j]`` is True when state i may be followed by state j (strict topology).
ALLOWED_TRANSITIONS: np.ndarray = _allowed_transitions()
#: States a page may start in: PreTitle or any state PreTitle links to.
ALLOWED_START: np.ndarray = _allowed_start(ALLOWED_TRANSITIONS, ARTICLE)

#: The transition settings of :class:`ArticleHMM` (and :class:`~scilabel.labeler.ZoneLabeler`): each a
#: probability, or None for the counted estimate.
TRANSITION_SETTINGS: tuple[str, ...] = ("gap_self_loop", "br_self_loop", "barh_to_references", "affiliations_to_barh")

#: hmmlearn rejects infinite observations, so log-likelihoods of -inf travel as this value.
_LOG_ZERO = np.finfo(np.float64).min


def states_to_indices(states: Sequence[str], schema: Schema = ARTICLE) -> np.ndarray:
    """Map state names to their indices in ``schema.states``."""
    if isinstance(states, str):
        raise TypeError("expected a sequence of state names, got a single string")
    index = schema.state_index
    try:
        return np.fromiter((index[s] for s in states), dtype=np.intp, count=len(states))
    except KeyError:
        unknown = sorted({s for s in states if s not in index}, key=str)
        raise ValueError(f"unknown states: {unknown}") from None


def indices_to_states(indices: Iterable[int], schema: Schema = ARTICLE) -> list[str]:
    """Map state indices (as returned by :meth:`ArticleHMM.decode`) to the names of ``schema.states``."""
    return [schema.states[i] for i in indices]


class _LogEmissionHMM(BaseHMM):
    """hmmlearn HMM whose observation at each step is the row of per-state log-likelihoods
    (an emission family overrides ``_compute_log_likelihood``, as hmmlearn documents)."""

    def _compute_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        return np.where(X == _LOG_ZERO, -np.inf, X)


def _normalise_rows(counts: np.ndarray, allowed: np.ndarray, states: Sequence[str]) -> np.ndarray:
    """Normalise rows to sum to 1; a row without mass becomes uniform over its allowed entries (``states``
    names the rows in the warning)."""
    totals = counts.sum(axis=-1, keepdims=True)
    empty = totals[..., 0] == 0
    if empty.any():
        rows = [states[i] for i in np.flatnonzero(empty)] if counts.ndim == 2 else ["start"]
        _log.warning("no counts and no smoothing for %s; using uniform over allowed links", rows)
        counts = np.where(empty[..., None], allowed.astype(float), counts)
        totals = counts.sum(axis=-1, keepdims=True)
    return counts / totals


class ArticleHMM(BaseEstimator):
    """Left-right HMM over the article states (:data:`~scilabel.schema.STATES`, and the end matter's
    with the ``end_matter`` topology) with supervised transition estimates.

    Parameters
    ----------
    smoothing
        Pseudo-count added to every allowed transition and start state (never to
        disallowed ones, which keep probability exactly 0).
    topology
        A name in :data:`~scilabel.schema.TOPOLOGIES`: ``"strict"`` (Figure 1 of the paper),
        ``"interleaved"`` (adds :data:`INTERLEAVED_LINKS`: authors and affiliations may alternate),
        ``"late_affiliations"`` (also :data:`LATE_AFFILIATION_LINKS`: affiliations may follow the
        abstract) or ``"end_matter"`` (also the end-matter states of
        :data:`~scilabel.schema.ARTICLE_END_MATTER`: affiliations printed after the references, with
        their links counted like all others). With end matter, decoding and posteriors take two passes:
        the path without the end-matter states, then the path with them allowed only from that path's
        first reference on (:meth:`_end_matter_after_references`).
    gap_self_loop
        ``None`` keeps every counted self-loop (the paper). A probability p gives every gap state
        (:attr:`~scilabel.schema.Schema.gap_states`) the self-loop p, its exits keeping their counted
        proportions of 1 - p: a stretch of ``other`` zones then costs the same per zone in any gap, so
        its length does not decide where it belongs. Counted gap lengths come from the training pages;
        real pages have far longer navigation and body text, and without this the absorbing AR state
        (which costs nothing per zone) pulls the path into it at the first reference-like zone. AR, the
        gap after the last component, pays log p per zone too, added to its log-emissions because
        hmmlearn needs stochastic rows; its exits into the end matter (``end_matter`` topology) keep
        their counted probabilities, which say how rarely a page goes on after its references.
    br_self_loop
        ``None`` keeps BR's counted self-loop. A probability p gives BR (the ``other`` lines between
        references) the self-loop p, its exits keeping their proportions: the training pages put at
        most one look-up line between two references, real pages several ("Google Scholar",
        "View Article", "PubMed"), and with the counted loop the path left the list for AR at them.
    barh_to_references
        ``None`` keeps the counted probability of BARH -> References: a reference list that begins
        in the body, with no heading. A probability p sets it, BARH's self-loop unchanged and its
        other exits keeping their proportions. The training pages that do this are lists without
        any heading; at their counted rate a run of citation-like body zones (data-availability
        entries, numeric table cells) opens the list early, after which the real reference heading
        can only be read as an entry.
    affiliations_to_barh
        ``None`` keeps the counted probability of Affiliations -> BARH, in topologies with that link
        (``late_affiliations``; others ignore the setting): affiliations that follow the abstract,
        after which the page is past its abstract. A probability p sets it, the self-loop of
        Affiliations unchanged and its other exits keeping their proportions. Only ``magazine_grid``'s
        training pages take the link, and at their rate a repository record (abstract, affiliations,
        full text, references) went back before its abstract (BAAH) and then read a lone body heading
        ("Results") as the abstract, to reach the references.

    Attributes
    ----------
    schema : Schema
        The topology's schema: the states, in the order of every matrix below (a property of the
        parameters, not fitted).
    startprob_ : ndarray of shape (n_states,)
        Probability of the first zone's state.
    transmat_ : ndarray of shape (n_states, n_states)
        ``transmat_[i, j]`` = P(next state j | state i).
    n_sequences_ : int
        Number of non-empty sequences counted.
    allowed_transitions_ : ndarray of shape (n_states, n_states)
        The topology's links: ``allowed_transitions_[i, j]`` is True when state j may follow i.
    n_dropped_transitions_ : int
        Transitions (including disallowed first states) found in the data but not allowed by
        the topology, hence not counted.
    log_emission_offset_ : ndarray of shape (n_states,)
        Added to every zone's log-emissions: log p less AR's counted self-loop on AR under
        ``gap_self_loop``, else zeros.
    """

    def __init__(self, smoothing: float = 1.0, topology: str = "strict", gap_self_loop: float | None = None,
                 br_self_loop: float | None = None, barh_to_references: float | None = None,
                 affiliations_to_barh: float | None = None) -> None:
        self.smoothing = smoothing
        self.topology = topology
        self.gap_self_loop = gap_self_loop
        self.br_self_loop = br_self_loop
        self.barh_to_references = barh_to_references
        self.affiliations_to_barh = affiliations_to_barh

    @property
    def schema(self) -> Schema:
        """The schema of the topology: the HMM's states and the emission columns they read."""
        return _topology_schema(self.topology)

    def fit(self, state_sequences: Iterable[Sequence[str]]) -> ArticleHMM:
        """Estimate start and transition probabilities from state-name sequences (names of
        ``schema.states``, as ``schema.labels_to_states`` gives them); None marks a zone of unknown state
        (masked gold), and no start or transition touching it is counted."""
        if (not isinstance(self.smoothing, numbers.Real) or not np.isfinite(self.smoothing)
                or self.smoothing < 0):
            raise ValueError(f"smoothing must be a finite number >= 0, got {self.smoothing!r}")
        schema = self.schema
        allowed = _allowed_transitions(self.topology)
        allowed_start = _allowed_start(allowed, schema)
        n_states = len(schema.states)
        start_counts = np.zeros(n_states)
        trans_counts = np.zeros((n_states, n_states))
        n_sequences = 0
        n_dropped = 0
        for sequence in state_sequences:
            if isinstance(sequence, str):
                raise TypeError("expected a sequence of state names, got a single string")
            known = np.fromiter((s is not None for s in sequence), dtype=bool, count=len(sequence))
            if not known.any():
                continue
            idx = np.zeros(len(sequence), dtype=np.intp)
            idx[known] = states_to_indices([s for s in sequence if s is not None], schema)
            n_sequences += 1
            if known[0] and allowed_start[idx[0]]:
                start_counts[idx[0]] += 1
            elif known[0]:
                n_dropped += 1
            pair = known[:-1] & known[1:]
            src, dst = idx[:-1][pair], idx[1:][pair]
            ok = allowed[src, dst]
            n_dropped += int(np.count_nonzero(~ok))
            np.add.at(trans_counts, (src[ok], dst[ok]), 1)
        if n_sequences == 0:
            raise ValueError("fit needs at least one non-empty state sequence")
        for name in TRANSITION_SETTINGS:
            p = getattr(self, name)
            if p is not None and not 0 < p < 1:
                raise ValueError(f"{name} must be None or in (0, 1), got {p!r}")
        if n_dropped:
            _log.warning("dropped %d transitions not allowed by the topology "
                         "(components out of order)", n_dropped)
        self.startprob_ = _normalise_rows(start_counts + self.smoothing * allowed_start, allowed_start, schema.states)
        self.transmat_ = _normalise_rows(trans_counts + self.smoothing * allowed, allowed, schema.states)
        self.log_emission_offset_ = np.zeros(n_states)
        if self.gap_self_loop is not None:
            for state in schema.gap_states:
                self._set_self_loop(state, self.gap_self_loop)
        if self.br_self_loop is not None:
            self._set_self_loop("BR", self.br_self_loop)
        if self.barh_to_references is not None:
            self._set_exit("BARH", "References", self.barh_to_references)
        index = schema.state_index
        if self.affiliations_to_barh is not None and allowed[index["Affiliations"], index["BARH"]]:
            self._set_exit("Affiliations", "BARH", self.affiliations_to_barh)
        self.allowed_transitions_ = allowed
        self.n_sequences_ = n_sequences
        self.n_dropped_transitions_ = n_dropped
        return self

    def _set_self_loop(self, state: str, p: float) -> None:
        """Give ``state`` the self-loop p, its exits keeping their proportions of 1 - p; AR (the gap after
        the last component) keeps its counted row and pays log p per zone through its emissions
        instead, less its counted self-loop."""
        schema = self.schema
        i = schema.state_index[state]
        if state == schema.gap[schema.component_states[-1]]:
            self.log_emission_offset_[i] = np.log(p) - np.log(self.transmat_[i, i])
            return
        exits = self.transmat_[i].copy()
        exits[i] = 0.0
        self.transmat_[i] = exits * (1 - p) / exits.sum()
        self.transmat_[i, i] = p

    def _set_exit(self, source: str, target: str, p: float) -> None:
        """Give the link ``source`` -> ``target`` the probability p, the self-loop of ``source``
        unchanged and its other exits keeping their proportions."""
        i, j = self.schema.state_index[source], self.schema.state_index[target]
        stay = self.transmat_[i, i]
        others = self.transmat_[i].copy()
        others[[i, j]] = 0.0
        if p >= 1 - stay or others.sum() == 0:
            raise ValueError(f"{source} -> {target} = {p} leaves nothing for the other exits of {source} "
                             f"(self-loop {stay:.3g})")
        self.transmat_[i] = others * (1 - stay - p) / others.sum()
        self.transmat_[i, i] = stay
        self.transmat_[i, j] = p

    def decode(self, log_emission: np.ndarray, translatable: np.ndarray | None = None) -> tuple[float, np.ndarray]:
        """Viterbi: the most probable state path (indices into ``schema.states``) and its joint
        log-probability.

        ``log_emission`` has shape ``(n_zones, len(schema.emission_states))``, columns in
        ``schema.STATES`` order; ``-inf`` marks impossible emissions. ``translatable`` says which
        zones may be in a translation's state (:attr:`~scilabel.schema.Schema.translated`): all when
        None. Raises ValueError when no state path has non-zero probability.
        """
        X = self._observations(log_emission, translatable)
        if len(X) == 0:
            return 0.0, np.empty(0, dtype=np.intp)
        log_prob, states = self._hmm().decode(X, algorithm="viterbi")
        self._check_possible(log_prob)
        return float(log_prob), states

    def posteriors(self, log_emission: np.ndarray, translatable: np.ndarray | None = None) -> np.ndarray:
        """Forward-backward: P(state of zone t = j | all emissions), shape ``(n_zones, len(schema.states))``;
        ``translatable`` as for :meth:`decode`."""
        X = self._observations(log_emission, translatable)
        if len(X) == 0:
            return np.empty((0, len(self.schema.states)))
        with np.errstate(invalid="ignore"):  # NaN posteriors only when log_prob is -inf
            log_prob, posteriors = self._hmm().score_samples(X)
        self._check_possible(log_prob)
        return posteriors

    def _observations(self, log_emission: np.ndarray, translatable: np.ndarray | None = None) -> np.ndarray:
        """Validate a log-emission matrix, give every state its emission column (a translation's state
        none where a zone is not ``translatable``), and encode -inf for hmmlearn."""
        check_is_fitted(self)
        schema = self.schema
        X = np.asarray(log_emission, dtype=np.float64)
        n_columns = len(schema.emission_states)
        if X.ndim != 2 or X.shape[1] != n_columns:
            raise ValueError(f"log_emission must have shape (n_zones, {n_columns}), got {X.shape}")
        if not np.isfinite(X).all():
            if np.isnan(X).any():
                rows = np.flatnonzero(np.isnan(X).any(axis=1)).tolist()
                raise ValueError(f"log_emission contains NaN in rows {rows}")
            if np.isposinf(X).any():
                rows = np.flatnonzero(np.isposinf(X).any(axis=1)).tolist()
                raise ValueError(f"log_emission contains +inf in rows {rows}")
        if len(schema.states) > n_columns:
            columns = schema.emission_columns
            emission, X = X, X[:, [read[0] for read in columns]]
            for state, read in enumerate(columns):
                if len(read) > 1:
                    X[:, state] = np.max(emission[:, list(read)], axis=1)
        X = X + self.log_emission_offset_
        if translatable is not None and schema.translation_states:
            barred = np.flatnonzero(~np.asarray(translatable, dtype=bool))
            X[np.ix_(barred, [schema.state_index[s] for s in schema.translation_states])] = -np.inf
        if not np.isfinite(X).all():
            X = np.where(X == -np.inf, _LOG_ZERO, X)
        if schema.end_states and len(X):
            X = self._end_matter_after_references(X)
        return self._abstract_once(X) if len(X) and self._reopens_abstract() else X

    def _reopens_abstract(self) -> bool:
        """Whether a path can come back to the abstract after the gap that follows it (the late
        affiliations' links: BARH -> Affiliations -> BAAH -> AbstractHeading)."""
        index = self.schema.state_index
        reached = breadth_first_order(self.transmat_ > 0, index[self.schema.gap_after["abstract"]],
                                      return_predecessors=False)
        return index[self.schema.label_state["abstract"]] in reached

    def _abstract_once(self, X: np.ndarray) -> np.ndarray:
        """Bar, after the first abstract of the path decoded as is, the states that lead to an abstract
        (the gap after the affiliations, the abstract heading and the gap after it, the abstract): an
        article prints its abstract once, and the way back the late affiliations open would read a body
        section titled "Summary" after a misread line as a second one."""
        schema = self.schema
        _, path = self._hmm().decode(X, algorithm="viterbi")
        abstract = schema.state_index[schema.label_state["abstract"]]
        opened = np.flatnonzero(path == abstract)
        if not len(opened):
            return X
        end = opened[0] + np.argmax(np.append(path[opened[0]:] != abstract, True))
        leading = (schema.gap_after["affiliations"], schema.label_state["abstract_heading"],
                   schema.gap_after["abstract_heading"])
        before = [schema.state_index[s] for s in leading] + [abstract]
        if not np.isin(path[end:], before).any():
            return X
        X = X.copy()
        X[end:, before] = _LOG_ZERO
        return X

    def _end_matter_after_references(self, X: np.ndarray) -> np.ndarray:
        """Bar the end-matter states before the first reference of the path decoded without them (all
        of the page when that path has none): the end matter is looked for after a reference list
        the article's own states found, so that an author panel (name, addresses, "Search for this
        author", name ...) near the top cannot be read as end matter after a one-zone reference list."""
        schema = self.schema
        end = [schema.state_index[s] for s in schema.end_states]
        without = X.copy()
        without[:, end] = _LOG_ZERO
        _, path = self._hmm().decode(without, algorithm="viterbi")
        references = np.flatnonzero(path == schema.state_index[schema.label_state[schema.end_matter.after]])
        first = references[0] if len(references) else len(X)
        without[first:, end] = X[first:, end]
        return without

    def _hmm(self) -> _LogEmissionHMM:
        hmm = _LogEmissionHMM(n_components=len(self.schema.states), implementation="log")
        hmm.startprob_ = self.startprob_
        hmm.transmat_ = self.transmat_
        return hmm

    @staticmethod
    def _check_possible(log_prob: float) -> None:
        if log_prob == -np.inf:
            raise ValueError("no state path has non-zero probability under these emissions")
