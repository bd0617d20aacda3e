"""Baselines scored beside scilabel on the same pages: two seed systems rebuilt from their papers
(case-based tag sequences, sentence-count main block) and real peers (trafilatura, the page's meta
tags, readability-lxml). ``BASELINES`` maps each name to a factory giving a fresh instance."""
from __future__ import annotations

from collections.abc import Callable

from .base import Baseline, BaselineInputError, BaselineResult, record
from .cbr import CaseBase, CBRBaseline
from .peers import MetaTagsBaseline, ReadabilityBaseline, TrafilaturaBaseline
from .sentences import SentenceBaseline

BASELINES: dict[str, Callable[[], Baseline]] = {
    "cbr": CBRBaseline,
    "cbr-labelled": lambda: CBRBaseline(labelled=True),
    "sentences": SentenceBaseline,
    "sentences-split": lambda: SentenceBaseline(splitter="split"),
    "trafilatura": TrafilaturaBaseline,
    "metatags": MetaTagsBaseline,
    "readability": ReadabilityBaseline,
}


def get_baseline(name: str) -> Baseline:
    """A fresh baseline by registry name; ``ValueError`` naming the known ones otherwise."""
    try:
        return BASELINES[name]()
    except KeyError:
        raise ValueError(f"unknown baseline {name!r} (known: {', '.join(BASELINES)})") from None


__all__ = ["BASELINES", "Baseline", "BaselineInputError", "BaselineResult", "CBRBaseline", "CaseBase",
           "MetaTagsBaseline", "ReadabilityBaseline", "SentenceBaseline", "TrafilaturaBaseline",
           "get_baseline", "record"]
