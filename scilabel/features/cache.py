"""A cache of values derived from a fitted estimator's attributes (a vocabulary's index, a transposed
table): built on first use, kept while the estimator lives, never pickled."""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

_Source = TypeVar("_Source")
_Derived = TypeVar("_Derived")
#: owner -> (source, value) of :func:`derived`; entries go with their owner.
_DERIVED: weakref.WeakKeyDictionary[object, tuple[object, object]] = weakref.WeakKeyDictionary()


def derived(owner: object, source: _Source, build: Callable[[_Source], _Derived]) -> _Derived:
    """``build(source)``, where ``source`` is a fitted attribute of ``owner`` (or a tuple of fitted
    attributes): built on first use, then kept while ``owner`` lives and ``source`` is not replaced (a
    refit). Never pickled: saved models need nothing new. One derived value per owner."""
    cached = _DERIVED.get(owner)
    if cached is None or not _same(cached[0], source):
        cached = _DERIVED[owner] = (source, build(source))
    return cached[1]


def _same(kept: object, source: object) -> bool:
    """Whether ``source`` is ``kept``, or a tuple of the same objects."""
    if isinstance(kept, tuple) and isinstance(source, tuple):
        return len(kept) == len(source) and all(a is b for a, b in zip(kept, source))
    return kept is source
