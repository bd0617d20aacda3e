"""The article model: zone labels, the 16 states of the article HMM (Zou, Le & Thoma 2007, Figure 1)
and the named topologies. Every other module reads these names from here.

The model is one table, :data:`ARTICLE`: the article's components in left-to-right order, each with the
HMM state that emits its label and the minor state (the gap, emitting ``other``) that follows it.
Labels, states, their order and every map between them are derived from that table, so adding a label
(keywords, a DOI line) is one row there, plus the data that teaches it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Component:
    """An article component, as the HMM sees it.

    Parameters
    ----------
    state
        The HMM state whose zones carry this component's label.
    label
        The zone label.
    gap
        The minor state after the component: ``other`` zones between it and the next component.
    loop
        A minor state between two zones of the component (``other`` lines inside the reference list),
        or None.
    field
        Whether the label is an article field (a record field, with a field collection to learn its
        words from); headings are not.
    """

    state: str
    label: str
    gap: str
    loop: str | None = None
    field: bool = True


@dataclass(frozen=True)
class Schema:
    """Labels and HMM states derived from the article's components.

    Parameters
    ----------
    components
        The components in left-to-right order.
    start
        The minor state before the first component.
    other
        The label of every zone outside the components.
    late
        ``(component, earlier)`` label pairs: ``component`` may also follow ``earlier``'s later
        neighbours, and an ``other`` zone after it is then in the gap after ``earlier`` (the page is
        already past ``earlier``).
    """

    components: tuple[Component, ...]
    start: str = "PreTitle"
    other: str = "other"
    late: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for kind, names in (("label", self.labels), ("state", self.states)):
            repeated = sorted({n for n in names if names.count(n) > 1})
            if repeated:
                raise ValueError(f"each {kind} must be named once, repeated: {repeated}")
        unknown = sorted({lab for pair in self.late for lab in pair} - set(self.major_labels))
        if unknown:
            raise ValueError(f"late pairs must name component labels, unknown: {unknown}")

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Labels in page order, ``other`` last."""
        return (*self.major_labels, self.other)

    @cached_property
    def major_labels(self) -> tuple[str, ...]:
        """Labels of the components (every label but ``other``)."""
        return tuple(c.label for c in self.components)

    @cached_property
    def field_labels(self) -> tuple[str, ...]:
        """Labels of the article's fields (the components but headings)."""
        return tuple(c.label for c in self.components if c.field)

    @cached_property
    def states(self) -> tuple[str, ...]:
        """States in left-to-right order: the start, then each component, its loop state and its gap."""
        states = [self.start]
        for c in self.components:
            states += [c.state, *([c.loop] if c.loop else []), c.gap]
        return tuple(states)

    @cached_property
    def state_index(self) -> dict[str, int]:
        """State name -> its column in every (n_zones, n_states) matrix."""
        return {s: i for i, s in enumerate(self.states)}

    @cached_property
    def state_label(self) -> dict[str, str]:
        """The label each state emits: a component's state its label, a minor state ``other``."""
        named = {c.state: c.label for c in self.components}
        return {s: named.get(s, self.other) for s in self.states}

    @cached_property
    def label_state(self) -> dict[str, str]:
        """Component label -> its state."""
        return {c.label: c.state for c in self.components}

    @cached_property
    def component_states(self) -> tuple[str, ...]:
        """The components' states in left-to-right order."""
        return tuple(c.state for c in self.components)

    @cached_property
    def gap(self) -> dict[str, str]:
        """Component state -> the gap state after it."""
        return {c.state: c.gap for c in self.components}

    @cached_property
    def gap_after(self) -> dict[str | None, str]:
        """Component label -> the gap state after it; None (the page start) -> the start state."""
        return {None: self.start, **{c.label: c.gap for c in self.components}}

    @cached_property
    def gap_states(self) -> tuple[str, ...]:
        """States that emit ``other`` between and around the components (loop states are not gaps)."""
        return (self.start, *self.gap.values())

    @cached_property
    def collection_states(self) -> dict[str, str]:
        """Field label -> the state whose word model that field's collection feeds."""
        return {label: self.label_state[label] for label in self.field_labels}

    def labels_to_states(self, labels: Sequence[str]) -> list[str]:
        """Map a page's zone labels to HMM states, deterministically by position.

        A component label maps to its own state. An ``other`` zone maps to the gap after the last
        component seen before it (the start state before any), with two exceptions: between two zones
        of a component with a loop state it is that loop state (BR between references; after the last
        reference it is the gap, AR), and after a late component (affiliations that follow the
        abstract) it is the gap after the component it came late to (BARH: the page is past its abstract).
        """
        unknown = set(labels) - set(self.labels)
        if unknown:
            raise ValueError(f"unknown labels: {sorted(unknown)}")
        loops = {c.label: c.loop for c in self.components if c.loop}
        last = {lab: i for i, lab in enumerate(labels)}
        late = dict(self.late)
        states: list[str] = []
        previous: str | None = None
        seen: set[str] = set()
        for i, lab in enumerate(labels):
            if lab != self.other:
                states.append(self.label_state[lab])
                previous = lab
                seen.add(lab)
            elif previous in loops and i < last[previous]:
                states.append(loops[previous])
            else:
                states.append(self.gap_after[late[previous] if late.get(previous) in seen else previous])
        return states

    def states_to_labels(self, states: Sequence[str]) -> list[str]:
        """Map HMM states back to zone labels."""
        return [self.state_label[s] for s in states]


#: The article's components, as in Figure 1 of the paper.
ARTICLE = Schema(
    components=(
        Component("Title", "title", gap="BTA"),
        Component("Authors", "authors", gap="BAA"),
        Component("Affiliations", "affiliations", gap="BAAH"),
        Component("AbstractHeading", "abstract_heading", gap="BAHA", field=False),
        Component("Abstract", "abstract", gap="BARH"),
        Component("ReferenceHeading", "references_heading", gap="BRHR", field=False),
        Component("References", "references", gap="AR", loop="BR"),
    ),
    late=(("affiliations", "abstract"),),
)

#: Labels a zone can carry, in the order they appear on a typical article page (``other`` last).
LABELS: tuple[str, ...] = ARTICLE.labels
#: Labels of article components (everything but ``other``).
MAJOR_LABELS: tuple[str, ...] = ARTICLE.major_labels
#: Labels of the article's fields: title, authors, affiliations, abstract, references.
FIELD_LABELS: tuple[str, ...] = ARTICLE.field_labels
#: HMM states in left-to-right order.
STATES: tuple[str, ...] = ARTICLE.states
N_STATES: int = len(STATES)
STATE_INDEX: dict[str, int] = ARTICLE.state_index
#: The label each state emits: named states are their component, minor states are ``other``.
STATE_LABEL: dict[str, str] = ARTICLE.state_label
#: Component label -> its state.
LABEL_STATE: dict[str, str] = ARTICLE.label_state
#: The components' states in left-to-right order.
COMPONENTS: tuple[str, ...] = ARTICLE.component_states
#: Component state -> the gap state after it.
GAP: dict[str, str] = ARTICLE.gap
#: Component label -> the gap state after it; None is the page start.
GAP_AFTER: dict[str | None, str] = ARTICLE.gap_after
#: States that emit ``other`` between (and around) components; BR, inside the reference list, is not one.
GAP_STATES: tuple[str, ...] = ARTICLE.gap_states
#: Field collection -> HMM state whose word model the collection feeds.
COLLECTION_STATES: dict[str, str] = ARTICLE.collection_states
labels_to_states = ARTICLE.labels_to_states
states_to_labels = ARTICLE.states_to_labels

#: Links the ``"interleaved"`` topology adds to the strict one: authors and affiliations may alternate
#: (name, affiliation, name ...), also with an ``other`` zone (e-mail, separator) after the affiliation.
INTERLEAVED_LINKS: tuple[tuple[str, str], ...] = (("Affiliations", "Authors"), ("BAAH", "Authors"))
#: Links the ``"late_affiliations"`` topology adds to the interleaved one: affiliations may also follow
#: the abstract (title, authors, abstract, affiliations, as repository records and some publishers order
#: them), and the page then goes on past its abstract (BARH), not back before it.
LATE_AFFILIATION_LINKS: tuple[tuple[str, str], ...] = (("Abstract", "Affiliations"), ("BARH", "Affiliations"),
                                                       ("Affiliations", "BARH"))
#: Topology name -> links added to Figure 1.
TOPOLOGIES: dict[str, tuple[tuple[str, str], ...]] = {
    "strict": (),
    "interleaved": INTERLEAVED_LINKS,
    "late_affiliations": INTERLEAVED_LINKS + LATE_AFFILIATION_LINKS,
}
