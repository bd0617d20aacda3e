"""The article model: zone labels, the 16 states of the article HMM (Zou, Le & Thoma 2007, Figure 1)
and the named topologies. Every other module reads these names from here.

The model is one table, :data:`ARTICLE`: the article's components in left-to-right order, each with the
HMM state that emits its label and the minor state (the gap, emitting ``other``) that follows it.
Labels, states, their order and every map between them are derived from that table, so adding a label
(keywords, a DOI line) is one row there, plus the data that teaches it.

:data:`ARTICLE_END_MATTER` is the same table with an end-matter block (:class:`EndMatter`): states that
emit a component's label again after the reference list, as Springer, Nature and BMC print the
authors' affiliations. Its first states are :data:`ARTICLE`'s, which the emission models score
(:attr:`Schema.emission_states`); an end-matter state reads the emissions of its component's state.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
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
class EndMatter:
    """Components a page prints again after its reference list: Springer's "Authors and Affiliations",
    Nature's "Author information", an "About the authors" box.

    Each gets an HMM state of its own, which emits its component's label and reads that component's
    emissions, so that the way into, through and out of the end matter is counted from end matter
    alone: the byline's states keep their own links, and the path cannot go back to them.

    Parameters
    ----------
    states
        ``(label, state)`` pairs: a component label and the end-matter state that emits it.
    loop
        The state of ``other`` zones between two end-matter zones.
    after
        The component the end matter follows; the page goes on in the gap after it once the end matter
        is over.
    repeats
        Component labels the end matter prints again without counting them: the byline's names beside
        their addresses, which the gold counts once, in the byline, so that they are ``other`` here. The
        loop state reads the higher of its own emission and these components' (a name costs it what a
        name costs the byline).
    """

    states: tuple[tuple[str, str], ...]
    loop: str
    after: str = "references"
    repeats: tuple[str, ...] = ()


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
    end_matter
        Components printed again after ``end_matter.after``, each with a state of its own, or None.
    translated
        ``(component, state, after)``: a state for a component printed again in another language after
        the component ``after`` (a bilingual page's translated title after its title, the translated
        abstract's heading and text after its abstract). It reads the component's emissions and emits
        ``other``: the gold, as publishers' records, has the main language's title and abstract only.
    """

    components: tuple[Component, ...]
    start: str = "PreTitle"
    other: str = "other"
    late: tuple[tuple[str, str], ...] = ()
    end_matter: EndMatter | None = None
    translated: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self) -> None:
        for kind, names in (("label", self.labels), ("state", self.states)):
            repeated = sorted({n for n in names if names.count(n) > 1})
            if repeated:
                raise ValueError(f"each {kind} must be named once, repeated: {repeated}")
        unknown = sorted({lab for pair in self.late for lab in pair} - set(self.major_labels))
        if unknown:
            raise ValueError(f"late pairs must name component labels, unknown: {unknown}")
        if self.end_matter is not None:
            named = {lab for lab, _ in self.end_matter.states} | {self.end_matter.after, *self.end_matter.repeats}
            unknown = sorted(named - set(self.major_labels))
            if unknown:
                raise ValueError(f"the end matter must name component labels, unknown: {unknown}")
        unknown = sorted({lab for lab, _, after in self.translated for lab in (lab, after)} - set(self.major_labels))
        if unknown:
            raise ValueError(f"translations must name component labels, unknown: {unknown}")

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
    def emission_states(self) -> tuple[str, ...]:
        """The states the emission models score, in left-to-right order: the start, then each component,
        its loop state and its gap."""
        states = [self.start]
        for c in self.components:
            states += [c.state, *([c.loop] if c.loop else []), c.gap]
        return tuple(states)

    @cached_property
    def end_states(self) -> tuple[str, ...]:
        """The end matter's states: one per component printed again, then its loop state (none without
        end matter)."""
        if self.end_matter is None:
            return ()
        return (*(state for _, state in self.end_matter.states), self.end_matter.loop)

    @cached_property
    def translation_states(self) -> tuple[str, ...]:
        """The states of components printed again in another language (none without ``translated``)."""
        return tuple(state for _, state, _ in self.translated)

    @cached_property
    def states(self) -> tuple[str, ...]:
        """The HMM's states: :attr:`emission_states`, then :attr:`end_states` and :attr:`translation_states`."""
        return (*self.emission_states, *self.end_states, *self.translation_states)

    @cached_property
    def emission_state(self) -> dict[str, str]:
        """State -> the emission state whose emissions it reads: itself, or for an end-matter state its
        component's state (the loop: the gap after the component the end matter follows)."""
        read = {state: state for state in self.emission_states}
        if self.end_matter is not None:
            read |= {state: self.label_state[lab] for lab, state in self.end_matter.states}
            read[self.end_matter.loop] = self.gap_after[self.end_matter.after]
        read |= {state: self.label_state[lab] for lab, state, _ in self.translated}
        return read

    @cached_property
    def emission_columns(self) -> tuple[tuple[int, ...], ...]:
        """Per state, the columns it reads in an (n_zones, len(emission_states)) matrix, the highest of
        which counts: its emission state's, and for the end matter's loop state those of the components
        it repeats."""
        column = {s: i for i, s in enumerate(self.emission_states)}
        columns = {s: (column[self.emission_state[s]],) for s in self.states}
        if self.end_matter is not None:
            loop = self.end_matter.loop
            columns[loop] += tuple(column[self.label_state[lab]] for lab in self.end_matter.repeats)
        return tuple(columns[s] for s in self.states)

    @cached_property
    def state_index(self) -> dict[str, int]:
        """State name -> its column in every (n_zones, n_states) matrix."""
        return {s: i for i, s in enumerate(self.states)}

    @cached_property
    def state_label(self) -> dict[str, str]:
        """The label each state emits: a component's (or end-matter) state its label, a minor state ``other``."""
        named = {c.state: c.label for c in self.components}
        if self.end_matter is not None:
            named |= {state: lab for lab, state in self.end_matter.states}
        return {s: named.get(s, self.other) for s in self.states}

    @cached_property
    def label_position(self) -> tuple[int, ...]:
        """Per state, the position of its label in :attr:`labels`."""
        return tuple(self.labels.index(self.state_label[s]) for s in self.states)

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
        """States that emit ``other`` between and around the components, the end matter's loop state
        included (a component's loop state, BR between references, is not a gap)."""
        return (self.start, *self.gap.values(), *([self.end_matter.loop] if self.end_matter else []))

    @cached_property
    def collection_states(self) -> dict[str, str]:
        """Field label -> the state whose word model that field's collection feeds."""
        return {label: self.label_state[label] for label in self.field_labels}

    def labels_to_states(self, labels: Sequence[str], translated: Sequence[str | None] | None = None) -> list[str]:
        """Map a page's zone labels to HMM states, deterministically by position.

        A component label maps to its own state. An ``other`` zone maps to the gap after the last
        component seen before it (the start state before any), with two exceptions: between two zones
        of a component with a loop state it is that loop state (BR between references; after the last
        reference it is the gap, AR), and after a late component (affiliations that follow the
        abstract) it is the gap after the component it came late to (BARH: the page is past its abstract).

        With end matter, a label it prints again maps to its end-matter state once the page has shown
        a zone of ``end_matter.after``; an ``other`` zone after an end-matter zone is the end matter's
        loop state when the next component zone is end matter too, else the gap after
        ``end_matter.after`` (AR: the end matter is over).

        ``translated`` names, per zone, the component an ``other`` zone prints in another language (or
        None); such a zone maps to that translation's state (:attr:`translated`) once the page has shown
        the component it follows.
        """
        unknown = set(labels) - set(self.labels)
        if unknown:
            raise ValueError(f"unknown labels: {sorted(unknown)}")
        loops = {c.label: c.loop for c in self.components if c.loop}
        last = {lab: i for i, lab in enumerate(labels)}
        late = dict(self.late)
        end = dict(self.end_matter.states) if self.end_matter else {}
        following: list[str | None] = [None] * len(labels)  # the next component label after each zone
        for i in range(len(labels) - 1, 0, -1):
            following[i - 1] = labels[i] if labels[i] != self.other else following[i]
        states: list[str] = []
        previous: str | None = None
        seen: set[str] = set()
        in_end = False  # the last component zone was end matter
        translation = {lab: (state, after) for lab, state, after in self.translated}
        for i, lab in enumerate(labels):
            of = translated[i] if translated is not None and lab == self.other else None
            if of in translation and translation[of][1] in seen:
                states.append(translation[of][0])
            elif lab in end and self.end_matter.after in seen:
                states.append(end[lab])
                in_end = True
            elif lab != self.other:
                states.append(self.label_state[lab])
                previous = lab
                seen.add(lab)
                in_end = False
            elif in_end:
                states.append(self.end_matter.loop if following[i] in end else self.gap_after[self.end_matter.after])
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
@dataclass(frozen=True)
class Topology:
    """The HMM's states and links: a schema's (Figure 1 of the paper, plus its end matter's links), and
    ``links`` added to them (state-name pairs)."""

    links: tuple[tuple[str, str], ...] = ()
    schema: Schema = ARTICLE

    def __post_init__(self) -> None:
        unknown = sorted({s for link in self.links for s in link} - set(self.schema.states))
        if unknown:
            raise ValueError(f"topology links must name states of its schema, unknown: {unknown}")


#: The article with an end-matter block after the references: affiliations printed there
#: (EndAffiliations), with BEM for the ``other`` zones between them, which reads the authors' emissions
#: too: the byline's names beside their addresses (Nature's "Author information"), counted once by the
#: gold, in the byline. The names are not an end-matter component of their own: labelled ``authors``
#: there (a page without a byline), they were read as authors on pages whose byline the gold already counts.
#: And a bilingual page's translations: its title in another language after its title (TransTitle), its
#: abstract's heading and text after its abstract (TransAbstractHeading, TransAbstract), labelled ``other``.
ARTICLE_END_MATTER = replace(ARTICLE, end_matter=EndMatter(
    states=(("affiliations", "EndAffiliations"),), loop="BEM", repeats=("authors",)),
    translated=(("title", "TransTitle", "title"), ("abstract_heading", "TransAbstractHeading", "abstract"),
                ("abstract", "TransAbstract", "abstract")))

#: Topology name -> its states and links.
TOPOLOGIES: dict[str, Topology] = {
    "strict": Topology(),
    "interleaved": Topology(INTERLEAVED_LINKS),
    "late_affiliations": Topology(INTERLEAVED_LINKS + LATE_AFFILIATION_LINKS),
    "end_matter": Topology(INTERLEAVED_LINKS + LATE_AFFILIATION_LINKS, ARTICLE_END_MATTER),
}
#: The topology the labeller, training and the command line use unless told otherwise.
DEFAULT_TOPOLOGY = "end_matter"
