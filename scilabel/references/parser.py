"""Reference field parsing: a linear-chain CRF over the tokens of one reference string.

:class:`ReferenceParser` is a scikit-learn style estimator around ``sklearn_crfsuite.CRF``: its
parameters are set in ``__init__`` only, ``fit`` takes labelled references and returns the
estimator, fitted attributes end in ``_``, and it saves with :func:`scilabel.references.save_parser`
(the CRF's native model travels inside the file).
"""
from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Iterable, Sequence

import sklearn
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted
from sklearn_crfsuite import CRF

from .. import __version__
from ..corpus.refstrings import LabelledReference
from .names import split_authors
from .split import TRAILING_FURNITURE, leading_label
from .tokens import Token, sequence_features, tokenize

#: Fields of a parsed reference, in output order (``authors`` is a list of name dicts).
OUTPUT_FIELDS = ("authors", "title", "container", "year", "volume", "issue", "pages", "publisher", "location", "doi",
                 "pmid", "url")
#: "et al." closing an author list: the list names its first authors only.
_ET_AL = re.compile(r"\bet\.?\s*al\b\.?", re.I)
_DOI = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
#: A publication year ("1999", "2001a").
YEAR = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d[a-z]?(?!\d)")
_VOLUME_ISSUE = re.compile(r"(\w+)\s*\((\w+)")
_EDGE = " \t.,;:()[]{}\"'“”‘’«»"
#: Field runs further apart than this many tokens are not merged into one value.
_MERGE_GAP = 2


def versions() -> dict[str, str]:
    """Versions of the packages a saved parser depends on."""
    return {
        "scilabel": __version__,
        "scikit-learn": sklearn.__version__,
        "sklearn-crfsuite": importlib.metadata.version("sklearn-crfsuite"),
        "python-crfsuite": importlib.metadata.version("python-crfsuite"),
    }


def token_labels(segments: Sequence[tuple[str, str]], tokens: Sequence[Token]) -> list[str]:
    """Field of each token from ``(text, field)`` segments; punctuation at the edge of a field
    becomes ``other``, so corpora that keep or drop ``"(2004):"`` brackets agree."""
    owner: list[str] = []
    for text, name in segments:
        owner.extend([name] * len(text))
    labels = [owner[t.start] if t.start < len(owner) else "other" for t in tokens]
    i = 0
    while i < len(labels):
        j = i
        while j + 1 < len(labels) and labels[j + 1] == labels[i]:
            j += 1
        if labels[i] != "other":
            lo, hi = i, j
            while lo <= hi and _is_punct(tokens[lo].text):
                labels[lo] = "other"
                lo += 1
            while hi >= lo and _is_punct(tokens[hi].text):
                labels[hi] = "other"
                hi -= 1
        i = j + 1
    return labels


def _is_punct(word: str) -> bool:
    return not any(ch.isalnum() for ch in word)


def strip_furniture(text: str) -> tuple[str, str | None]:
    """The reference without its printed label and trailing link furniture, and the label."""
    label, rest = leading_label(TRAILING_FURNITURE.sub("", text))
    return rest.strip(), label or None


class ReferenceParser(BaseEstimator):
    """CRF reference-string parser: ``fit`` on labelled references, ``parse`` a string into fields.

    ``c1``/``c2`` are the L1/L2 penalties (L1 also prunes features, keeping the model small),
    ``min_freq`` drops features seen fewer times in training.
    """

    def __init__(
        self,
        c1: float = 0.2,
        c2: float = 0.01,
        max_iterations: int = 100,
        min_freq: int = 3,
        all_possible_transitions: bool = True,
    ) -> None:
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.min_freq = min_freq
        self.all_possible_transitions = all_possible_transitions

    def fit(self, references: Iterable[LabelledReference]) -> ReferenceParser:
        """Train on field-labelled reference strings."""
        X, y = [], []
        for ref in references:
            text = ref.text
            tokens = tokenize(text)
            if tokens:
                X.append(sequence_features(text, tokens))
                y.append(token_labels(ref.segments, tokens))
        if not X:
            raise ValueError("no labelled references with tokens to train on")
        crf = CRF(
            algorithm="lbfgs",
            c1=self.c1,
            c2=self.c2,
            max_iterations=self.max_iterations,
            min_freq=self.min_freq,
            all_possible_transitions=self.all_possible_transitions,
        )
        crf.fit(X, y)
        crf.training_log_ = None  # per-iteration log; not needed once trained
        self.crf_ = crf
        self.classes_ = sorted(crf.classes_)
        self.n_references_ = len(X)
        return self

    def predict(self, texts: Iterable[str]) -> list[list[str]]:
        """Field label of every token (see :func:`~scilabel.references.tokens.tokenize`) of each text."""
        check_is_fitted(self, "crf_")
        return [self._tag(text, tokenize(text)) for text in texts]

    def _tag(self, text: str, tokens: list) -> list[str]:
        return self.crf_.predict_single(sequence_features(text, tokens)) if tokens else []

    def field_texts(self, text: str) -> dict[str, str | None]:
        """The text of each field (``author`` for the whole author list) as written in ``text``:
        the main run of tokens labelled with it (see :func:`_field_text`), None when absent."""
        check_is_fitted(self, "crf_")
        tokens = tokenize(text)
        labels = self._tag(text, tokens)
        return {name: _field_text(text, tokens, labels, name) for name in self.classes_ if name != "other"}

    def parse(self, text: str) -> dict[str, object]:
        """Fields of one reference string: ``authors`` (``given``/``family`` dicts), ``et_al`` (whether
        the list ends in "et al."), ``title``, ``container``, ``year``, ``volume``, ``issue``, ``pages``,
        ``publisher``, ``location`` (its place), ``doi``, ``pmid``, ``url`` (None when absent), with the
        cleaned ``text`` and its printed ``label``."""
        clean, label = strip_furniture(text)
        found = self.field_texts(clean)
        value = {name: found.get(name) or "" for name in (*OUTPUT_FIELDS, "author")}
        doi = _DOI.search(value["doi"]) or _DOI.search(clean)
        year = YEAR.search(value["year"])
        glued = _VOLUME_ISSUE.fullmatch(value["volume"].strip(_EDGE))  # "56(7" tagged as one volume
        if glued and not value["issue"]:
            value["volume"], value["issue"] = glued.groups()
        return {
            "text": clean,
            "label": label,
            "authors": split_authors(value["author"]) if value["author"] else [],
            "et_al": _ends_et_al(clean, value["author"]),
            "title": _tidy(value["title"]),
            "container": _tidy(value["container"]),
            "year": year.group() if year else None,
            "volume": _tidy(value["volume"]),
            "issue": _tidy(value["issue"]),
            "pages": _pages(value["pages"]),
            "publisher": _tidy(value["publisher"]),
            "location": _tidy(value["location"]),
            "doi": doi.group().rstrip(".,;)") if doi else None,
            "pmid": re.sub(r"\D", "", value["pmid"]) or None,
            "url": value["url"].rstrip(".,;") or None,
        }


def unparsed_reference(text: str) -> dict[str, object]:
    """A reference whose fields were not parsed, in the shape of :meth:`ReferenceParser.parse`: its
    ``text``, every field null (``authors`` empty)."""
    return {"text": text, "label": None, "authors": [], "et_al": False,
            **{name: None for name in OUTPUT_FIELDS if name != "authors"}}


def _ends_et_al(text: str, authors: str) -> bool:
    """Whether the author list ``authors`` (as written in ``text``) ends in "et al." (inside it, or
    just after it)."""
    if not authors:
        return False
    end = text.find(authors) + len(authors)
    return bool(_ET_AL.search(authors) or _ET_AL.match(text[end:end + 12].lstrip(" ,")))


def _field_text(text: str, tokens: list[Token], labels: list[str], label: str) -> str | None:
    """The text of the main run of tokens labelled ``label`` (author runs a few tokens apart
    merge; for titles the longest run wins, for everything else the first)."""
    runs: list[list[int]] = []
    for i, lab in enumerate(labels):
        if lab != label:
            continue
        if runs and i - runs[-1][1] <= (_MERGE_GAP if label == "author" else 1):
            runs[-1][1] = i
        else:
            runs.append([i, i])
    if not runs:
        return None
    lo, hi = max(runs, key=lambda r: tokens[r[1]].end - tokens[r[0]].start) if label == "title" else runs[0]
    return text[tokens[lo].start:tokens[hi].end]


def _tidy(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip(_EDGE.replace("?", "").replace("!", ""))
    return value or None


def _pages(value: str | None) -> str | None:
    value = _tidy(value)
    if value is None:
        return None
    value = re.sub(r"^(?:pp?|pages?)\.?\s*", "", value, flags=re.I)
    return re.sub(r"\s*[-–—‐]+\s*", "–", value) or None
