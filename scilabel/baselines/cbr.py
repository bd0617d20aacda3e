"""Case-based reasoning over tag sequences (Prasath & Öztürk), with labelled cases as an extension.

Every block of text on a page is described by its tag sequence: the tags from ``<html>`` down to
the block, a tag's level being its depth (a tag may carry its first class name, so that a
publisher's template is recognisable). A page is solved pattern by pattern:

1. Retrieve: a sequence close enough to a case takes the case's solution (article content or
   noise; in the labelled variant also a zone label).
2. Reuse, and candidate identification for sequences the case base does not know: the count
   assumption takes the sequence occurring most often in the page as the content pattern; the
   level assumption accepts sequences similar to it (or to retrieved content cases), similarity
   being ordered matching that weighs matches at deeper levels more.
3. Revise: a pattern whose blocks are mostly link text is noise.
4. Retain: every new pattern is stored with its solution, so the next page of a layout already
   seen is answered from the case base. The case base is persisted with joblib.

Blocks of content patterns are the extracted article content; title, authors ... come from the
HEAD's meta tags, or in the labelled variant (``cbr-labelled``) from cases labelled on training
pages (:meth:`CBRBaseline.fit`) or by feedback (:meth:`CBRBaseline.learn`).
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import joblib

from ..atomic import atomic_path
from ..metrics import words
from .base import FIELD_LABELS, Baseline, BaselineResult, Block, TagSequence, page_blocks, parse_html
from .peers import meta_fields

log = logging.getLogger(__name__)

#: A pattern whose blocks have at least this share of characters in links is noise.
MAX_LINK_SHARE = 0.5
_FORMAT = "scilabel-cbr-casebase"
_FORMAT_VERSION = 1


def similarity(a: TagSequence, b: TagSequence) -> float:
    """Ordered (subsequence) matching of two tag sequences; a match at level l weighs l.

    ``2 * best matched weight / (weight of a + weight of b)``: 1 for equal sequences.
    """
    n, m = len(a), len(b)
    prev = [0.0] * (m + 1)
    for i in range(1, n + 1):
        cur = [0.0] * (m + 1)
        tag = a[i - 1]
        for j in range(1, m + 1):
            cur[j] = prev[j - 1] + (i + j) / 2 if tag == b[j - 1] else max(prev[j], cur[j - 1])
        prev = cur
    total = (n * (n + 1) + m * (m + 1)) / 2
    return 2 * prev[m] / total if total else 1.0


@dataclass
class Case:
    """The solution stored for a tag sequence."""

    content: bool
    labels: Counter = field(default_factory=Counter)  #: zone labels seen on this pattern's blocks

    @property
    def label(self) -> str | None:
        """The zone label this case assigns, if it was ever labelled."""
        return self.labels.most_common(1)[0][0] if self.labels else None


class CaseBase:
    """Cases indexed by tag sequence; similar sequences (``similarity >= threshold``) are retrieved too."""

    def __init__(self, threshold: float = 0.9):
        self.threshold = threshold
        self.cases: dict[TagSequence, Case] = {}
        self._by_leaf: dict[str, list[TagSequence]] = {}

    def __len__(self) -> int:
        return len(self.cases)

    def retrieve(self, seq: TagSequence) -> Case | None:
        """The case of ``seq``, else of the most similar stored sequence ending in the same tag."""
        case = self.cases.get(seq)
        if case is not None or not seq:
            return case
        best, best_sim = None, self.threshold
        for other in self._by_leaf.get(seq[-1], ()):
            if abs(len(other) - len(seq)) <= 2:
                sim = similarity(seq, other)
                if sim >= best_sim:
                    best, best_sim = other, sim
        return self.cases[best] if best is not None else None

    def retain(self, seq: TagSequence, case: Case) -> None:
        """Store a new case (an existing one for ``seq`` is replaced)."""
        if seq not in self.cases and seq:
            self._by_leaf.setdefault(seq[-1], []).append(seq)
        self.cases[seq] = case

    def save(self, path: str | Path) -> Path:
        """Write the case base with joblib, atomically."""
        data = {seq: (case.content, dict(case.labels)) for seq, case in self.cases.items()}
        with atomic_path(path) as tmp:
            joblib.dump({"format": _FORMAT, "version": _FORMAT_VERSION, "threshold": self.threshold,
                         "cases": data}, tmp, compress=3)
        return Path(path)

    @classmethod
    def load(cls, path: str | Path) -> CaseBase:
        """Read a case base written by :meth:`save` (a trusted file: unpickling runs code)."""
        try:
            data = joblib.load(path)
        except FileNotFoundError:
            raise ValueError(f"{path}: no such case base") from None
        except Exception as exc:  # any unpickling failure means "not a case base"
            raise ValueError(f"{path}: not a CBR case base ({type(exc).__name__})") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("version") != _FORMAT_VERSION:
            raise ValueError(f"{path}: not a CBR case base (format {_FORMAT} v{_FORMAT_VERSION})")
        base = cls(threshold=data["threshold"])
        for seq, (content, labels) in data["cases"].items():
            base.retain(seq, Case(content, Counter(labels)))
        return base


def align_labels(texts: list[str], gold: dict[str, str]) -> list[str]:
    """Label blocks from gold text per label: a block takes the label whose (not yet used) gold tokens
    cover most of its tokens, if more than half; else ``other``."""
    pools = {lab: Counter(words(text)) for lab, text in gold.items() if lab != "other" and text}
    out = []
    for text in texts:
        tokens = Counter(words(text))
        n = sum(tokens.values())
        best, best_share = "other", 0.5
        for lab, pool in pools.items():
            share = sum((tokens & pool).values()) / n if n else 0.0
            if share > best_share:
                best, best_share = lab, share
        if best != "other":
            pools[best] -= tokens
        out.append(best)
    return out


class CBRBaseline(Baseline):
    """Tag-sequence CBR content extraction; ``labelled=True`` is the zone-labelling extension.

    ``level_threshold`` and class names in tag sequences were chosen on the train and dev splits of
    the generated corpus. ``anchor="text"`` is an ablation, not the paper: the content pattern is
    the one holding the most text instead of the most frequent one (on article pages usually the
    reference list).
    """

    extracts_content = True
    produces = frozenset(FIELD_LABELS)

    def __init__(self, case_base: CaseBase | None = None, *, labelled: bool = False, classes: bool = True,
                 level_threshold: float = 0.5, anchor: str = "count"):
        if anchor not in ("count", "text"):
            raise ValueError(f"unknown anchor rule {anchor!r} (count or text)")
        self.case_base = case_base if case_base is not None else CaseBase()
        self.labelled = self.supervised = labelled
        self.classes = classes
        self.level_threshold = level_threshold
        self.anchor = anchor
        self.name = ("cbr-labelled" if labelled else "cbr") + ("[anchor=text]" if anchor == "text" else "")

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Solve the page's patterns from the case base and the two assumptions; retain new cases."""
        blocks = page_blocks(parse_html(html, url), self.classes)
        start = time.perf_counter()
        solutions, retrieved = self._solve(blocks)
        solve_ms = 1000 * (time.perf_counter() - start)
        labels = [self._label(solutions[b.sequence]) for b in blocks]
        content = [i for i, b in enumerate(blocks) if solutions[b.sequence].content]
        keep = sorted(set(content) | {i for i, lab in enumerate(labels) if lab != "other"})
        content_patterns = {s for s, case in solutions.items() if case.content}
        return BaselineResult(
            model=self.name,
            fields=self._fields(blocks, labels) if self.labelled else meta_fields(html),
            main_content="\n".join(blocks[i].text for i in content),
            blocks=[blocks[i].text for i in keep],
            labels=[labels[i] for i in keep],
            extras={
                "document_blocks": [b.text for b in blocks],
                "sequences": [b.sequence for b in blocks],
                "content_index": content,
                "patterns": len(solutions),
                "retrieved": len(retrieved),
                "hit": bool(content_patterns) and content_patterns <= retrieved,
                "solve_ms": solve_ms,
                "cases": len(self.case_base),
            },
        )

    def learn(self, result: BaselineResult, gold: dict[str, str]) -> None:
        """Revise a page's cases with its gold text per label, and retain the labels."""
        seqs = result.extras["sequences"]
        for seq, label in zip(seqs, align_labels(result.extras["document_blocks"], gold)):
            self.case_base.cases[seq].labels[label] += 1

    def fit(self, pages: Iterable[tuple[str, dict[str, str]]]) -> CBRBaseline:
        """Build labelled cases from training pages given as ``(html, gold text per label)``."""
        for html, gold in pages:
            self.learn(self.extract(html), gold)
        log.info("%s: %d cases after training", self.name, len(self.case_base))
        return self

    def _solve(self, blocks: list[Block]) -> tuple[dict[TagSequence, Case], set[TagSequence]]:
        counts: Counter = Counter(b.sequence for b in blocks)
        chars: Counter = Counter()
        links: Counter = Counter()
        for b in blocks:
            chars[b.sequence] += len(b.text)
            links[b.sequence] += b.link_chars
        solutions = {}
        for seq in counts:
            case = self.case_base.retrieve(seq)
            if case is not None:
                solutions[seq] = case
                self.case_base.retain(seq, case)  # a similar case now also answers this sequence exactly
        retrieved = set(solutions)
        new = [s for s in counts if s not in solutions]
        anchors = [s for s, case in solutions.items() if case.content]
        if not anchors:  # count assumption: the most frequent pattern that is not a link list
            first, then = (chars, counts) if self.anchor == "text" else (counts, chars)
            ranked = sorted(new, key=lambda s: (-first[s], -then[s]))
            anchors = [s for s in ranked if links[s] < MAX_LINK_SHARE * chars[s]][:1]
        for seq in new:
            is_content = links[seq] < MAX_LINK_SHARE * chars[seq] and any(
                similarity(seq, a) >= self.level_threshold for a in anchors)
            solutions[seq] = Case(is_content)
            self.case_base.retain(seq, solutions[seq])
        return solutions, retrieved

    def _label(self, case: Case) -> str:
        return (case.label or "other") if self.labelled else "other"

    @staticmethod
    def _fields(blocks: list[Block], labels: list[str]) -> dict[str, str]:
        fields: dict[str, list[str]] = {}
        for block, label in zip(blocks, labels):
            if label in FIELD_LABELS:
                fields.setdefault(label, []).append(block.text)
        return {label: "\n".join(texts) for label, texts in fields.items()}

