"""Where a sentence cites its references, for the XML formats' citation links (JATS ``xref``, TEI
``ref``): the anchors :mod:`scilabel.references.anchors` finds in the sentence, in whichever of its
formats names most of the references the sentence is known to cite."""
from __future__ import annotations

from collections.abc import Sequence

from ..references.anchors import FORMATS, anchors_in


def citation_spans(text: str, cites: Sequence[str], references: Sequence[dict]) -> list[tuple[int, int, list[str]]]:
    """The anchors of a sentence ``text`` citing the reference ids ``cites``: ``(start, end, ids)`` for
    each anchor linked to some of them, in order. ``references`` is the article's reference list (dicts
    with ``id``, ``label``, ``authors``, ``year``, ``text``), in order."""
    if not cites:
        return []
    ids = [ref.get("id") for ref in references]
    best: list[tuple[int, int, list[str]]] = []
    for fmt in FORMATS:
        spans = []
        for anchor in anchors_in(text, references, fmt):
            named = [ids[t] for t in anchor.targets if ids[t] in cites]
            if named:
                spans.append((anchor.start, anchor.end, list(dict.fromkeys(named))))
        if len({i for *_, named in spans for i in named}) > len({i for *_, named in best for i in named}):
            best = spans
    return best
