"""The zone labeller: emission model + 16-state left-right HMM, as one scikit-learn estimator.

Input is a zones frame (rows of :func:`scilabel.zones.zones_frame`, in reading order within a page)
with a ``document`` column; pages are the groups of consecutive rows sharing a ``document`` value. With
``merge_lines`` the labelling units are line units (:mod:`scilabel.lines`): zone fragments side by
side on one visual line, labelled together.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import sklearn
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from . import __version__
from .emission import EMISSIONS, Emission
from .features import ZONE_COLUMNS, ZoneArrays, Zones, n_rows, page_codes
from .features.evidence import DECLARED_COLUMN
from .hmm import TRANSITION_SETTINGS, ArticleHMM
from .languages import translatable
from .layout_memory import LayoutMemory
from .lines import line_units, merge_units
from .metadata_evidence import MetadataEvidence
from .metrics import words as text_words
from .rules.vetoes import DEFAULT_VETOES, Fallback, Veto, apply_vetoes, fallbacks
from .schema import ARTICLE, DEFAULT_TOPOLOGY, LABELS, MAJOR_LABELS, Schema

log = logging.getLogger(__name__)
#: The layout of a fitted labeller's attributes. A model saved with another format is refused on load
#: (:func:`scilabel.persistence.load_model`): retrain it. Bump this when a pickled class gains, loses or
#: renames an attribute or parameter, and retrain the shipped models; no compatibility shims.
MODEL_FORMAT = 6
_LABEL_OF_EMISSION_STATE = np.asarray(ARTICLE.label_position)  # the label of each emission column


@dataclass
class PageLabels:
    """Decoded labels of one page's zones."""

    states: list[str]
    labels: list[str]
    confidence: np.ndarray  #: posterior probability of each zone's label


def _pages(zones: Zones) -> list[np.ndarray]:
    """Row positions of each page, in order of first appearance."""
    codes = page_codes(zones)
    order = np.argsort(codes, kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    return np.split(order, bounds) if len(order) else []


def _columns(zones: pd.DataFrame, keep: tuple[str, ...] = (), page_metadata: bool = True) -> dict[str, np.ndarray]:
    """The columns features read, plus ``keep``, as arrays (no pandas work after this); without the
    pages' declared metadata unless ``page_metadata``."""
    wanted = (*ZONE_COLUMNS, *keep) if page_metadata else [c for c in (*ZONE_COLUMNS, *keep) if c != DECLARED_COLUMN]
    return {c: zones[c].to_numpy() for c in wanted if c in zones.columns}


def _masked(zones: pd.DataFrame, labels: np.ndarray) -> np.ndarray:
    """Zones labelled ``other`` that are ``unscored`` for some field: their gold is unknown."""
    if "unscored" not in zones:
        return np.zeros(len(labels), dtype=bool)
    unscored = zones["unscored"].to_numpy(dtype=object)
    named = np.fromiter((isinstance(u, str) and bool(u.strip()) for u in unscored), dtype=bool, count=len(unscored))
    return named & (labels == "other")


#: Labels an article shows once per showing of their owner's label: a panel prints each author's
#: addresses under the author, so addresses repeat within one showing of the byline, and a second
#: showing of the panel repeats names and addresses together. A unit that opens with an owner's name
#: read before ("Lili Long, Department of Neurology, ...": a correspondence line) is no new one either.
OWNED_BY = {"affiliations": "authors"}


def _opens_with_read_name(text: str, names: set[str]) -> bool:
    """Whether ``text``'s words before its first comma are two or more words of two characters or more,
    all in ``names``."""
    head, comma, _ = text.partition(",")
    lead = [w for w in text_words(head) if len(w) > 1]
    return bool(comma) and len(lead) >= 2 and all(w in names for w in lead)


def _repeats(texts: list[str], labels: list[str], once: tuple[str, ...], share: float = 0.8) -> np.ndarray:
    """Which units, labelled with a label of ``once``, were read before with the same label
    (``ZoneLabeler.printed_once``): at least two words of two characters or more of which ``share`` or
    more were in earlier units with that label, or one such word whose initials were read there too
    ("L. E. Muresan", "J. Oro" repeated in an author panel). A unit of a label :data:`OWNED_BY` one of
    ``once`` is a repeat by the same measure when the owner's units since that label's last unit
    were all repeats (the addresses under a repeated name), and when it opens with a name read with
    the owner's label (:func:`_opens_with_read_name`)."""
    owned = {label: owner for label, owner in OWNED_BY.items() if owner in once}
    read: dict[str, set[str]] = {label: set() for label in (*once, *owned)}
    fresh = dict.fromkeys(owned, True)  # a new owner unit stands since the label's last unit
    closed = dict.fromkeys(owned, True)  # the label's unit came last: the next owner unit starts afresh
    out = np.zeros(len(labels), dtype=bool)
    for unit, (text, label) in enumerate(zip(texts, labels)):
        if label not in read:
            continue
        words = text_words(text)
        long = [w for w in words if len(w) > 1]
        initials = [w for w in words if len(w) == 1 and w.isalpha()]
        if len(long) >= 2:
            out[unit] = sum(w in read[label] for w in long) >= share * len(long)
        elif long and initials:
            out[unit] = all(w in read[label] for w in long + initials)
        read[label].update(long + initials)
        if label in owned:
            out[unit] = (out[unit] and not fresh[label]) or _opens_with_read_name(text, read[owned[label]])
            closed[label] = True
        for kept in (k for k, owner in owned.items() if owner == label):
            fresh[kept] = not out[unit] or (fresh[kept] and not closed[kept])
            closed[kept] = False
    return out


def _with_rules(log_emission: np.ndarray, barring: Sequence[Fallback], favouring: Sequence[Fallback]) -> np.ndarray:
    """A copy of ``log_emission`` with the fallback rules applied: ``barring`` bar their states,
    ``favouring`` favour them."""
    ruled = log_emission.copy()
    for rule in barring:
        rule.apply(ruled, favour=False)
    for rule in favouring:
        rule.apply(ruled, favour=True)
    return ruled


def _on_page(rules: list[Fallback], first: int, last: int) -> list[Fallback]:
    """The fallback ``rules`` that hold on the units ``first:last`` (one page), on those units."""
    return [rule.page(first, last) for rule in rules if rule.where[first:last].any()]


def _label_posterior(state_posterior: np.ndarray, schema: Schema) -> np.ndarray:
    """Sum probabilities of ``schema.states`` into label probabilities (columns in ``LABELS`` order)."""
    out = np.zeros((len(state_posterior), len(LABELS)))
    np.add.at(out.T, np.asarray(schema.label_position), state_posterior.T)
    return out


class ZoneLabeler(BaseEstimator):
    """Label article zones with an emission model and Viterbi decoding of the article HMM.

    Parameters
    ----------
    emission : a name in :data:`~scilabel.emission.EMISSIONS` ("nb", the paper's Naive Bayes, or "svm"), or an
        unfitted :class:`~scilabel.emission.Emission`
    sequence : decode with the HMM (True) or label each zone independently (False, the ablation)
    smoothing : pseudo-count on allowed HMM transitions
    topology : HMM states and links, a name in :data:`~scilabel.schema.TOPOLOGIES` (:class:`ArticleHMM`):
        "end_matter" (the default: Figure 1 of the paper plus affiliations -> authors, so that name,
        affiliation, name ... bylines decode; abstract -> affiliations -> past the abstract, for
        affiliations listed after the abstract; and affiliations printed after the references, in
        states of their own, looked for after the references the article's states find),
        "late_affiliations" (without the end matter), "interleaved" (affiliations -> authors only) or
        "strict" (Figure 1)
    merge_lines : label line units (fragments on one visual line together) instead of single zones
    gap_self_loop : self-loop probability shared by the HMM's gap states (None: counted, as in the
        paper; see :class:`ArticleHMM`)
    br_self_loop : self-loop probability of BR, the lines between references (None: counted)
    barh_to_references : probability that the reference list begins in the body without a heading
        (BARH -> References; None: counted)
    affiliations_to_barh : probability that the page goes on past its abstract after affiliations
        that follow the abstract (Affiliations -> BARH, late_affiliations topology; None: counted)
    vetoes : hand rules applied before decoding (:class:`~scilabel.rules.vetoes.Veto`): states barred
        where a rule's predicate holds, units the path passes over, and states favoured (by a fallback
        rule, only where a first decoding finds them nowhere else on the page); ``()`` decodes the
        emission alone. Decoding only, so a fitted labeller's vetoes may be changed without refitting
        (``set_params(vetoes=without(labeler.vetoes, "sentence"))``)
    page_metadata : weigh what each page declares about itself (its meta tags, JSON-LD ...: the zones
        frame's ``declared`` column) with layout and words: a factor of the emission
        (:class:`~scilabel.metadata_evidence.MetadataEvidence`) learned from the training pages that
        declare something. False labels every page as if it declared nothing (layout and words alone);
        it may be set on a fitted labeller. Pages that declare nothing are labelled the same either way
    metadata_floor : the ``floor`` of :class:`~scilabel.metadata_evidence.MetadataEvidence`: how far
        a declaration can make a label unlikely (at most ``-log(metadata_floor)`` nats)
    printed_once : labels an article shows once: a unit decoded with one of them whose words (nearly
        all) were already read as that label earlier on the page (a byline repeated in a citation
        pop-up or an author panel) is passed over and the page decoded again without it; so are the
        addresses under a repeated author panel's names and correspondence lines (:data:`OWNED_BY`).
        Decoding only; ``()`` keeps every repeat
    layout_memory : weight of the remembered pages' labels (``fit``'s ``remembered``) for pages of
        their template (:class:`~scilabel.layout_memory.LayoutMemory`), a factor of the emission; 0
        labels every page as if nothing were remembered. It may be set on a fitted labeller
    """

    def __init__(self, emission: str | Emission = "nb", sequence: bool = True,
                 smoothing: float = 1.0, topology: str = DEFAULT_TOPOLOGY, merge_lines: bool = True,
                 gap_self_loop: float | None = 0.6, br_self_loop: float | None = 0.4,
                 barh_to_references: float | None = 0.01, affiliations_to_barh: float | None = 0.06,
                 vetoes: tuple[Veto, ...] = DEFAULT_VETOES, page_metadata: bool = True, metadata_floor: float = 0.05,
                 printed_once: tuple[str, ...] = ("title", "authors"), layout_memory: float = 1.0):
        self.emission = emission
        self.sequence = sequence
        self.smoothing = smoothing
        self.topology = topology
        self.merge_lines = merge_lines
        self.gap_self_loop = gap_self_loop
        self.br_self_loop = br_self_loop
        self.barh_to_references = barh_to_references
        self.affiliations_to_barh = affiliations_to_barh
        self.vetoes = vetoes
        self.page_metadata = page_metadata
        self.metadata_floor = metadata_floor
        self.printed_once = printed_once
        self.layout_memory = layout_memory

    def _emission_model(self) -> Emission:
        if isinstance(self.emission, str):
            if self.emission not in EMISSIONS:
                raise ValueError(f"emission must be one of {sorted(EMISSIONS)} or an Emission, got {self.emission!r}")
            return EMISSIONS[self.emission].estimator()
        return clone(self.emission)

    def fit(self, zones: pd.DataFrame, y: list[str] | np.ndarray | None = None,
            collections: pd.DataFrame | None = None, remembered: list[str] | None = None) -> ZoneLabeler:
        """Fit on labelled zones (``y`` defaults to the frame's ``label`` column); ``collections``
        (field, text) give either emission its MEDLINE-style word evidence; the labels of the pages
        (``document`` values) in ``remembered`` (reviewed real pages) are also kept by their place in
        the page's template (:class:`~scilabel.layout_memory.LayoutMemory`, for ``layout_memory``).

        A zone labelled ``other`` whose ``unscored`` column names a field (a page whose gold does not
        cover that field) is masked: its gold may be that field, so it is not learned as ``other``.
        The emission model does not see it, and the HMM counts no transition into or out of it (nor a
        start state there), so the page's path is broken at it.

        The HMM counts the states of the topology's schema (end matter and translations included: a
        zone's ``translation`` column names the component it prints in another language); the emission
        model learns each unit as the emission state that state reads (a translated abstract as an abstract).
        """
        labels = np.asarray(zones["label"] if y is None else y, dtype=object)
        if len(labels) != len(zones):
            raise ValueError(f"{len(labels)} labels for {len(zones)} zones")
        pages = _pages(zones)
        emission = self._emission_model()
        columns = _columns(zones, keep=(*emission.fit_columns, "class_path", "translation"),
                           page_metadata=self.page_metadata)
        columns["label"] = labels
        columns["masked"] = _masked(zones, labels)
        _, unit_columns = self._units(columns)
        unit_masked = unit_columns.pop("masked").astype(bool)
        unit_zones = pd.DataFrame(unit_columns)
        unit_labels = unit_columns["label"]
        hmm = ArticleHMM(smoothing=self.smoothing, topology=self.topology,
                         **{name: getattr(self, name) for name in TRANSITION_SETTINGS})
        schema = hmm.schema
        states = np.empty(len(unit_zones), dtype=object)
        sequences = []
        translated = unit_columns.pop("translation", None)
        for rows in _pages(unit_zones):
            page_states = schema.labels_to_states(list(unit_labels[rows]),
                                                  None if translated is None else list(translated[rows]))
            states[rows] = [schema.emission_state[s] for s in page_states]
            sequences.append([None if masked else state for state, masked in zip(page_states, unit_masked[rows])])
        kept = np.flatnonzero(~unit_masked)
        self.emission_ = emission.fit(unit_zones.iloc[kept].reset_index(drop=True), states[kept], collections)
        self.metadata_evidence_ = self._fit_metadata_evidence(unit_zones.iloc[kept].reset_index(drop=True),
                                                              np.asarray(unit_labels)[kept])
        self.hmm_ = hmm.fit(sequences)
        self.layout_memory_ = self._fit_layout_memory(unit_columns, unit_masked, set(remembered or ()))
        self.classes_ = np.array(LABELS, dtype=object)
        self.n_pages_ = len(pages)
        self.versions_ = {"model_format": MODEL_FORMAT, "scilabel": __version__, "scikit-learn": sklearn.__version__}
        self.training_summary_ = {
            "pages": len(pages),
            "zones": int(len(zones)),
            "zones_per_label": {lab: int((labels == lab).sum()) for lab in LABELS},
            "masked_zones": int(columns["masked"].sum()),
            "collection_texts": int(self.emission_.n_collection_texts_),
            "dropped_transitions": int(self.hmm_.n_dropped_transitions_),
            "units_with_declared_metadata": self.metadata_evidence_.n_rows_ if self.metadata_evidence_ else 0,
            "remembered_pages": self.layout_memory_.n_pages_,
        }
        return self

    def _fit_metadata_evidence(self, unit_zones: pd.DataFrame, labels: np.ndarray) -> MetadataEvidence | None:
        """The metadata factor, fitted on the units of pages that declare something (None when no page
        does, or without ``page_metadata``)."""
        arrays = ZoneArrays(unit_zones)
        if not self.page_metadata or not arrays.declares.any():
            return None
        declares = arrays.declares
        return MetadataEvidence(floor=self.metadata_floor).fit(arrays.evidence[declares], labels[declares])

    @staticmethod
    def _fit_layout_memory(units: dict[str, np.ndarray], masked: np.ndarray, remembered: set[str]) -> LayoutMemory:
        """The memory of the ``remembered`` pages' unit labels (masked units left out)."""
        kept = ~masked & np.fromiter((d in remembered for d in units["document"]), dtype=bool, count=len(masked))
        paths = units["class_path"][kept] if "class_path" in units else [""] * int(kept.sum())
        return LayoutMemory().fit(paths, units["label"][kept], units["document"][kept])

    def _units(self, zones: Zones) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Labelling unit of every row, and the units' columns (pages contiguous, in order)."""
        if not self.merge_lines:
            n = n_rows(zones)
            rows = np.concatenate(_pages(zones)) if n else np.arange(0)
            units = np.empty(n, dtype=np.intp)
            units[rows] = np.arange(n)
            return units, {name: np.asarray(zones[name])[rows] for name in zones}
        units = line_units(zones)
        return units, merge_units(zones, units)

    def _unit_log_emission(self, zones: pd.DataFrame
                           ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, list[str], list[Fallback]]:
        """Per page, the unit of each row (from 0 within the page); the units' log-emissions (with
        the states the vetoes rule out barred); which units the path passes over (the vetoes of that
        kind); the units' texts; and the fallback rules where they hold (applied when decoding)."""
        columns = _columns(zones, keep=("class_path", "node_path"), page_metadata=self.page_metadata)
        units, unit_zones = self._units(columns)
        arrays = ZoneArrays(unit_zones)  # shared: the vetoes read what the emission computed
        log_emission = self.emission_.log_likelihood(arrays)
        if self.page_metadata and self.metadata_evidence_ is not None and arrays.declares.any():
            log_emission = log_emission + self.metadata_evidence_.log_ratio(arrays.evidence, arrays.declares)[
                :, _LABEL_OF_EMISSION_STATE]
        page_units = [units[rows] for rows in _pages(columns)]
        if self.layout_memory and self.layout_memory_.n_pages_ and "class_path" in unit_zones:
            paths = unit_zones["class_path"]
            for page in page_units:
                first, last = page.min(), page.max() + 1
                log_emission[first:last] += self.layout_memory * self.layout_memory_.log_ratio(
                    paths[first:last])[:, _LABEL_OF_EMISSION_STATE]
        over = apply_vetoes(self.vetoes, log_emission, arrays)
        return page_units, log_emission, over, arrays.texts, fallbacks(self.vetoes, arrays)

    def label_pages(self, zones: pd.DataFrame) -> list[PageLabels]:
        """Decode every page: states, labels and label confidences per zone."""
        check_is_fitted(self, "hmm_")
        if len(zones) == 0:
            return []
        page_units, log_emission, over, texts, rules = self._unit_log_emission(zones)
        results = []
        for units in page_units:
            first, last = units.min(), units.max() + 1
            page_texts = texts[first:last]
            page, _, _ = self._decode_page(log_emission[first:last], over[first:last], page_texts,
                                           translatable(page_texts), _on_page(rules, first, last))
            local = units - first
            results.append(PageLabels([page.states[u] for u in local], [page.labels[u] for u in local],
                                      page.confidence[local]))
        return results

    def _decode_page(self, log_emission: np.ndarray, over: np.ndarray, texts: list[str], translated: np.ndarray,
                     rules: Sequence[Fallback] = ()) -> tuple[PageLabels, np.ndarray, np.ndarray]:
        """One page's labels (:meth:`_decode`, ``translated`` its units that may be translations), the
        units passed over (the vetoes', and the repeats of what an article shows once, ``printed_once``)
        and the log-emission decoded (with the fallback ``rules`` applied), both found on a first decoding."""
        page = self._decode(log_emission, over, translated)
        if not self.sequence:
            return page, over, log_emission
        if rules:
            labels = np.asarray(page.labels, dtype=object)
            favour = [rule.favours(np.isin(labels, rule.labels)) for rule in rules]
            barring = [rule for rule, f in zip(rules, favour) if not f]
            favouring = [rule for rule, f in zip(rules, favour) if f]
            ruled = _with_rules(log_emission, barring, favouring)
            second = self._decode(ruled, over, translated)
            if favouring:  # a favour may take its own zones, not move the rest of the page: else withdrawn
                kept = ~np.logical_or.reduce([rule.where for rule in favouring])
                if (np.asarray(second.labels, dtype=object) != labels)[kept].any():
                    if barring:
                        ruled = _with_rules(log_emission, barring, [])
                        second = self._decode(ruled, over, translated)
                    else:  # nothing left to apply: the first decoding stands
                        ruled, second = log_emission, page
            page, log_emission = second, ruled
        if self.printed_once:
            repeated = _repeats(texts, page.labels, self.printed_once)
            if repeated.any():
                over = over | repeated
                page = self._decode(log_emission, over, translated)
        return page, over, log_emission

    def _path_schema(self) -> Schema:
        """The schema of the decoded states: the HMM's, or the emission's when zones are labelled alone."""
        return self.hmm_.schema if self.sequence else ARTICLE

    def _state_posterior(self, log_emission: np.ndarray, translatable: np.ndarray | None = None) -> np.ndarray:
        """(n, n_states) probabilities of ``_path_schema().states``: HMM forward-backward (translations'
        states only for ``translatable`` zones), or normalised emission x prior."""
        if self.sequence:
            return self.hmm_.posteriors(log_emission, translatable)
        scores = log_emission + self.emission_.state_log_prior_
        posterior = np.exp(scores - scores.max(axis=1, keepdims=True))
        return posterior / posterior.sum(axis=1, keepdims=True)

    def _decode(self, log_emission: np.ndarray, over: np.ndarray, translatable: np.ndarray | None = None) -> PageLabels:
        """One page's states, labels and confidences; the units ``over`` marks are left out of the
        path and labelled ``other``, in the gap state where they stand; only ``translatable`` units
        (:func:`scilabel.languages.translatable`) may be in a translation's state."""
        schema = self._path_schema()
        if self.sequence and over.any():
            kept = np.flatnonzero(~over)
            page = self._decode(log_emission[kept], over[kept], None if translatable is None else translatable[kept])
            labels = np.full(len(over), "other", dtype=object)
            labels[kept] = page.labels
            states = schema.labels_to_states(list(labels))
            for unit, state in zip(kept.tolist(), page.states):
                states[unit] = state  # a component's gap states (BR, AR) as decoded
            confidence = np.ones(len(over))
            confidence[kept] = page.confidence
            return PageLabels(states, list(labels), confidence)
        posterior = self._state_posterior(log_emission, translatable)
        if self.sequence:
            _, path = self.hmm_.decode(log_emission, translatable)
        else:
            path = (log_emission + self.emission_.state_log_prior_).argmax(axis=1)
        label_of_state = np.asarray(schema.label_position)
        label_idx = label_of_state[path]
        confidence = np.where(label_of_state == label_idx[:, None], posterior, 0.0).sum(axis=1)
        return PageLabels([schema.states[i] for i in path], [LABELS[i] for i in label_idx], confidence)

    def predict(self, zones: pd.DataFrame) -> np.ndarray:
        """Labels of all zones, aligned with the rows of ``zones``."""
        out = np.empty(len(zones), dtype=object)
        for rows, page in zip(_pages(zones), self.label_pages(zones)):
            out[rows] = page.labels
        return out

    def predict_proba(self, zones: pd.DataFrame) -> np.ndarray:
        """(n_zones, 8) label probabilities (columns ``classes_``): HMM posteriors summed per label,
        or normalised emission x prior when ``sequence=False``."""
        check_is_fitted(self, "hmm_")
        out = np.zeros((len(zones), len(LABELS)))
        if len(zones) == 0:
            return out
        page_units, log_emission, over, texts, rules = self._unit_log_emission(zones)
        for rows, units in zip(_pages(zones), page_units):
            first, last = units.min(), units.max() + 1
            page_over = over[first:last] if self.sequence else np.zeros(last - first, dtype=bool)
            page_emission = log_emission[first:last]
            translated = translatable(texts[first:last])
            page_rules = _on_page(rules, first, last)
            if self.sequence and (self.printed_once or page_rules):  # both are found on a decoding of the page
                _, page_over, page_emission = self._decode_page(page_emission, page_over, texts[first:last],
                                                                translated, page_rules)
            proba = np.zeros((last - first, len(LABELS)))
            proba[page_over, LABELS.index("other")] = 1.0
            proba[~page_over] = _label_posterior(
                self._state_posterior(page_emission[~page_over], translated[~page_over]), self._path_schema())
            out[rows] = proba[units - first]
        return out

    def score(self, zones: pd.DataFrame, y: list[str] | np.ndarray | None = None) -> float:
        """Macro-averaged zone-level F-measure over the component labels present in ``y``."""
        truth = np.asarray(zones["label"] if y is None else y, dtype=object)
        pred = self.predict(zones)
        scores = []
        for lab in MAJOR_LABELS:
            tp = np.sum((pred == lab) & (truth == lab))
            support, predicted = np.sum(truth == lab), np.sum(pred == lab)
            if support:
                scores.append(2 * tp / (support + predicted))
        return float(np.mean(scores)) if scores else 0.0
