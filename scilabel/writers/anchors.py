"""Where a sentence cites its references, for the XML formats' citation links (JATS ``xref``, TEI
``ref``): the anchors :mod:`scilabel.references.anchors` finds in the sentence, in whichever of its
formats names most of the references the sentence is known to cite."""
from __future__ import annotations

from collections.abc import Sequence

from ..references.anchors import FORMATS, Linker


class CitationSpans:
    """The citation anchors of one article's sentences. ``references`` is the article's reference
    list (dicts with ``id``, ``label``, ``authors``, ``year``, ``text``), in order; it is indexed once."""

    def __init__(self, references: Sequence[dict]) -> None:
        self.linker = Linker(references)
        self.ids = [ref.get("id") for ref in references]

    def __call__(self, text: str, cites: Sequence[str]) -> list[tuple[int, int, list[str]]]:
        """``(start, end, ids)`` of each anchor of the sentence ``text`` linked to some of the reference
        ids ``cites``, in order."""
        if not cites:
            return []
        best: list[tuple[int, int, list[str]]] = []
        for fmt in FORMATS:
            spans = []
            for anchor in self.linker.anchors(text, fmt):
                named = [self.ids[t] for t in anchor.targets if self.ids[t] in cites]
                if named:
                    spans.append((anchor.start, anchor.end, list(dict.fromkeys(named))))
            if len({i for *_, named in spans for i in named}) > len({i for *_, named in best for i in named}):
                best = spans
        return best
