"""References of an article page: split the references zones into literals, parse their fields
with a CRF, find the citation anchors in the body, link them, and keep each citing sentence.

    parser = load_parser()                      # the shipped model, models/scilabel-refs.joblib
    found = page_references(zones, parser)      # zones: one page's DataFrame with labels
    found.references[0]["authors"], found.references[0]["contexts"]

Loading a model file runs code from it (joblib pickle): load only trusted files.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import joblib
import pandas as pd

from .anchors import Anchor, attach_contexts, find_anchors
from .parser import ReferenceParser, versions
from .split import Literal, split_references

__all__ = [
    "Anchor", "Literal", "PageReferences", "ReferenceParser", "load_parser", "page_references", "split_references",
]

#: The shipped reference parser.
MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "scilabel-refs.joblib"


def load_parser(path: str | Path | None = None) -> ReferenceParser:
    """Load a trusted reference parser (default: the shipped one); warn when it was saved with
    other versions of scilabel or its CRF packages, raise ``ValueError`` when it is not a parser."""
    path = Path(path) if path is not None else MODEL_PATH
    if not path.is_file():
        raise ValueError(f"{path}: no such reference model file")
    parser = joblib.load(path)
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

    references: list[dict]
    literals: list[Literal]
    anchors: list[Anchor]
    format: str | None


def page_references(zones: pd.DataFrame, parser: ReferenceParser, label_column: str = "label") -> PageReferences:
    """Split, parse and link the references of one page's labelled zones."""
    literals = split_references(zones, label_column)
    references = []
    for lit in literals:
        ref = parser.parse(lit.text)
        ref["label"] = lit.label or ref["label"]
        references.append(ref)
    anchors = find_anchors(zones, references, label_column)
    attach_contexts(references, anchors)
    return PageReferences(references, literals, anchors, anchors[0].format if anchors else None)
