"""Zone labels and the 16 states of the article HMM (Zou, Le & Thoma 2007, Figure 1)."""
from __future__ import annotations

from collections.abc import Sequence

#: Labels a zone can carry, in the order they appear on a typical article page.
LABELS: tuple[str, ...] = (
    "title",
    "authors",
    "affiliations",
    "abstract_heading",
    "abstract",
    "references_heading",
    "references",
    "other",
)
#: Labels of article components (everything but ``other``).
MAJOR_LABELS: tuple[str, ...] = LABELS[:-1]

#: HMM states in left-to-right order.
STATES: tuple[str, ...] = (
    "PreTitle",
    "Title",
    "BTA",
    "Authors",
    "BAA",
    "Affiliations",
    "BAAH",
    "AbstractHeading",
    "BAHA",
    "Abstract",
    "BARH",
    "ReferenceHeading",
    "BRHR",
    "References",
    "BR",
    "AR",
)
STATE_INDEX: dict[str, int] = {s: i for i, s in enumerate(STATES)}

#: The label each state emits: named states are their component, minor states are ``other``.
STATE_LABEL: dict[str, str] = {
    "Title": "title",
    "Authors": "authors",
    "Affiliations": "affiliations",
    "AbstractHeading": "abstract_heading",
    "Abstract": "abstract",
    "ReferenceHeading": "references_heading",
    "References": "references",
}
STATE_LABEL.update({s: "other" for s in STATES if s not in STATE_LABEL})
LABEL_STATE: dict[str, str] = {lab: st for st, lab in STATE_LABEL.items() if lab != "other"}

#: The minor state that follows each component (the gap after it); None is the page start.
_GAP_AFTER: dict[str | None, str] = {
    None: "PreTitle",
    "title": "BTA",
    "authors": "BAA",
    "affiliations": "BAAH",
    "abstract_heading": "BAHA",
    "abstract": "BARH",
    "references_heading": "BRHR",
}


def labels_to_states(labels: Sequence[str]) -> list[str]:
    """Map a page's zone labels to HMM states, deterministically by position.

    A component label maps to its own state. An ``other`` zone maps to the gap after the
    last component seen before it (PreTitle at the start), except after affiliations that follow
    the abstract, where it is the gap after the abstract (BARH: the page is past its abstract);
    between two reference zones it is BR, after the last reference zone it is AR.
    """
    unknown = set(labels) - set(LABELS)
    if unknown:
        raise ValueError(f"unknown labels: {sorted(unknown)}")
    last_ref = max((i for i, lab in enumerate(labels) if lab == "references"), default=-1)
    states: list[str] = []
    previous: str | None = None
    seen_abstract = False
    for i, lab in enumerate(labels):
        if lab != "other":
            states.append(LABEL_STATE[lab])
            previous = lab
            seen_abstract |= lab == "abstract"
        elif previous == "references":
            states.append("BR" if i < last_ref else "AR")
        else:
            states.append(_GAP_AFTER["abstract" if previous == "affiliations" and seen_abstract else previous])
    return states


def states_to_labels(states: Sequence[str]) -> list[str]:
    """Map HMM states back to zone labels."""
    return [STATE_LABEL[s] for s in states]
