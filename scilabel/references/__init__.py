"""References of an article page: split the references zones into literals, parse their fields
with a CRF, find the citation anchors in the body, link them, and keep each citing sentence.

    parser = load_parser()                      # the shipped model, models/scilabel-refs.npz
    found = page_references(zones, parser)      # zones: one page's DataFrame with labels
    found.references[0]["authors"], found.references[0]["contexts"]

Parsers are saved in the format of :mod:`scilabel.modelfile`, which runs no code on load; a joblib
pickle of an older scilabel loads only with ``trust=True`` (see :mod:`scilabel.persistence`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .. import modelfile
from ..modelfile import MODELS_DIR
from .anchors import Anchor, attach_contexts, find_anchors
from .split import Literal, split_references

if TYPE_CHECKING:
    from .parser import ReferenceParser

__all__ = [
    "UNPARSED", "Anchor", "Literal", "PageReferences", "ReferenceParser", "load_parser", "page_references", "save_parser",
    "split_references",
]


def __getattr__(name: str):
    """``ReferenceParser`` without importing scikit-learn with the package (the CLI starts without it)."""
    if name == "ReferenceParser":
        from .parser import ReferenceParser

        return ReferenceParser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The shipped reference parser.
MODEL_PATH = MODELS_DIR / "scilabel-refs.npz"


def save_parser(parser: ReferenceParser, path: str | Path) -> Path:
    """Write a fitted parser atomically in the safe format."""
    return modelfile.dump(parser, path)


def load_parser(path: str | Path | None = None, trust: bool = False) -> ReferenceParser:
    """Load a reference parser (default: the shipped one); a joblib pickle only with ``trust``. Warn
    when it was saved with other versions of scilabel or its CRF packages; raise
    :class:`~scilabel.persistence.ModelError` (a ``ValueError``) when it is not a parser."""
    from ..persistence import read_model_file
    from .parser import ReferenceParser, versions

    path = Path(path) if path is not None else MODEL_PATH
    parser = read_model_file(path, trust, what="reference model")
    if not isinstance(parser, ReferenceParser) or not hasattr(parser, "crf_"):
        raise ValueError(f"{path}: not a fitted scilabel ReferenceParser (found {type(parser).__name__})")
    saved = getattr(parser, "model_card_", {}).get("versions", {})
    if saved != versions():
        warnings.warn(f"{path} was saved with {saved} and is loaded with {versions()}; parses may differ", stacklevel=2)
    return parser


@dataclass
class PageReferences:
    """What one page yields: parsed references (with ``contexts``), the literals they came from
    (same order, with their zone rows), the anchors found, and the anchor format decided."""

    references: list[dict] | None  #: None when the references were not asked for (:data:`UNPARSED`)
    literals: list[Literal]
    anchors: list[Anchor]
    format: str | None


#: A page's references when the run leaves them out (``scilabel label --no-references``).
UNPARSED = PageReferences(None, [], [], None)


def page_references(zones: pd.DataFrame, parser: ReferenceParser, label_column: str = "label") -> PageReferences:
    """Split, parse and link the references of one page's labelled zones."""
    from .parser import YEAR

    literals = split_references(zones, label_column)
    references = []
    for lit in literals:
        ref = parser.parse(lit.text)
        ref["label"] = lit.label or ref["label"]
        key_year = None if ref["year"] else YEAR.search(ref["label"] or "")
        if key_year:  # an author-year key printed as the entry's label ("Aaron et al. 1990") names its year
            ref["year"] = key_year.group()
        references.append(ref)
    anchors = find_anchors(zones, references, label_column)
    attach_contexts(references, anchors)
    return PageReferences(references, literals, anchors, anchors[0].format if anchors else None)
