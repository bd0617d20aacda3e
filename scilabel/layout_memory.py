"""What reviewed pages teach about their own layout: the labels of their zones, remembered by the
place each zone has in the page's template.

A publisher's pages are built from one template: the byline's names sit in the same classed elements
on every article (``ul.c-article-author-list/li.c-article-author-list__item``), whatever the words.
The emission model reads words and layout and generalises across sites; it cannot learn, from five
reviewed pages among thousands, that on this site that element holds authors. The memory can: it
keeps each remembered page's :func:`layout_keys` with the labels seen there, and for a new page that
shares most of its keys with some remembered pages (the same template) it gives each zone the log
ratio of its key's label distribution on those pages to the labels' overall shares, a factor of the
emission as the page's declared metadata is (:class:`~scilabel.metadata_evidence.MetadataEvidence`).
A key those pages never showed backs off to a shorter one (:data:`KEY_STEPS`): a box whose wrapper
gained an id on some pages is still the byline's list item.
Pages of layouts never remembered share few keys with any remembered page and are labelled as
without it.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator

from .schema import LABELS

#: Steps of a zone's class path (its container and the container's ancestors) that make its keys,
#: longest first: the first is what pages are matched by, the others what an unseen key backs off to.
KEY_STEPS = (4, 2)


def layout_keys(class_paths: Sequence[object], steps: int = KEY_STEPS[0]) -> list[str]:
    """The key of each zone: the last ``steps`` steps of its ``class_path``; "" where it has none (a
    PDF's zones, frames read before class paths were)."""
    return ["/".join(p.rsplit("/", steps)[-steps:]) if isinstance(p, str) and p else "" for p in class_paths]


def _all_keys(class_paths: Sequence[object]) -> list[list[str]]:
    """Each zone's keys of every length of :data:`KEY_STEPS`, marked with their length (``2:ul/li``)."""
    return [[f"{steps}:{k}" if k else "" for k in layout_keys(class_paths, steps)] for steps in KEY_STEPS]


def _telling(key: str) -> bool:
    """Whether a key names a class or an id somewhere: a template's own (``div/p/a`` is every page's)."""
    return "." in key or "#" in key


class LayoutMemory(BaseEstimator):
    """Zone labels of remembered pages, by layout key, as evidence for pages of the same template.

    Parameters
    ----------
    min_shared : a remembered page speaks for a page holding at least this share of the page's
        distinct telling keys (keys that name a class or an id)
    smoothing : pseudo-count of a key's label distribution, spread by the labels' overall shares
    floor : the evidence is bounded to ``[log(floor), -log(floor)]`` nats
    """

    def __init__(self, min_shared: float = 0.5, smoothing: float = 1.0, floor: float = 0.02):
        self.min_shared = min_shared
        self.smoothing = smoothing
        self.floor = floor

    def fit(self, class_paths: Sequence[object], labels: Sequence[str], documents: Sequence[str]) -> LayoutMemory:
        """Remember the labels of the zones of each document by their keys (:func:`layout_keys`); zones
        without a class path are left out."""
        keys = _all_keys(class_paths)
        labels = np.asarray(labels, dtype=object)
        documents = np.asarray(documents, dtype=object)
        label_index = {label: i for i, label in enumerate(LABELS)}
        pages: dict[object, int] = {}
        entries: dict[tuple[int, str], np.ndarray] = {}
        shares = np.ones(len(LABELS))
        for i in np.flatnonzero(np.fromiter(map(bool, keys[0]), dtype=bool, count=len(labels))).tolist():
            page = pages.setdefault(documents[i], len(pages))
            column = label_index[labels[i]]
            for length in keys:
                entries.setdefault((page, length[i]), np.zeros(len(LABELS)))[column] += 1
            shares[column] += 1
        vocabulary = sorted({key for _, key in entries})
        self.vocabulary_ = {key: i for i, key in enumerate(vocabulary)}
        order = sorted(entries, key=lambda e: (self.vocabulary_[e[1]], e[0]))
        key_ids = np.fromiter((self.vocabulary_[key] for _, key in order), dtype=np.intp, count=len(order))
        self.key_start_ = np.searchsorted(key_ids, np.arange(len(vocabulary) + 1))
        self.entry_page_ = np.fromiter((page for page, _ in order), dtype=np.intp, count=len(order))
        self.entry_counts_ = np.array([entries[e] for e in order]).reshape(len(order), len(LABELS))
        self.label_share_ = shares / shares.sum()
        self.n_pages_ = len(pages)
        return self

    def log_ratio(self, class_paths: Sequence[object]) -> np.ndarray:
        """(n, len(LABELS)) evidence for one page's zones of these class paths: from each zone's longest
        key the matching remembered pages showed; zero for a zone none of whose keys they showed, and
        everywhere when no remembered page shares the page's template (its longest keys)."""
        keys = _all_keys(class_paths)
        out = np.zeros((len(class_paths), len(LABELS)))
        telling = [k for k in set(keys[0]) if k and _telling(k)]
        if not self.n_pages_ or not telling:
            return out
        shared = np.zeros(self.n_pages_)
        for key in telling:
            i = self.vocabulary_.get(key)
            if i is not None:
                np.add.at(shared, self.entry_page_[self.key_start_[i]:self.key_start_[i + 1]], 1)
        matched = shared >= self.min_shared * len(telling)
        if not matched.any():
            return out
        bound = -np.log(self.floor)
        done = np.zeros(len(class_paths), dtype=bool)
        for length in keys:
            ids = np.fromiter((self.vocabulary_.get(k, -1) for k in length), dtype=np.intp, count=len(length))
            ids[done] = -1
            for i in np.unique(ids[ids >= 0]).tolist():
                span = slice(self.key_start_[i], self.key_start_[i + 1])
                counts = self.entry_counts_[span][matched[self.entry_page_[span]]].sum(axis=0)
                if counts.sum():
                    p = (counts + self.smoothing * self.label_share_) / (counts.sum() + self.smoothing)
                    hit = ids == i
                    out[hit] = np.clip(np.log(p / self.label_share_), -bound, bound)
                    done[hit] = True
        return out
