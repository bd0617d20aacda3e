"""Scores for labelled zones: every figure `evaluate.py` reports comes from here.

- Zone level (as Zou, Le & Thoma): precision, recall and F-measure per label over zones.
- Token level (fair across zone collectors and systems that return text, not zones): per label,
  the multiset overlap of normalised word tokens between predicted and gold text, micro-averaged
  over pages; also per page.

A ``scored`` mask per zone restricts scoring of a label to pages whose gold covers it (silver pages
know only the fields their meta tags declared).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .schema import LABELS, MAJOR_LABELS

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Normalised word tokens for token-level scoring."""
    return _WORD.findall(text.lower())


def _prf(tp: float, n_pred: float, n_gold: float) -> tuple[float, float, float]:
    """Precision, recall, F; all NaN when the label is absent from both gold and prediction
    (nothing to score: neither a success nor a failure)."""
    if not n_pred and not n_gold:
        return float("nan"), float("nan"), float("nan")
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def zone_scores(gold: Iterable[str], pred: Iterable[str], labels: Iterable[str] = MAJOR_LABELS) -> pd.DataFrame:
    """Zone-level precision, recall, F and support per label."""
    gold, pred = np.asarray(list(gold), dtype=object), np.asarray(list(pred), dtype=object)
    rows = []
    for lab in labels:
        tp = float(np.sum((gold == lab) & (pred == lab)))
        p, r, f = _prf(tp, float(np.sum(pred == lab)), float(np.sum(gold == lab)))
        rows.append({"label": lab, "precision": p, "recall": r, "f": f, "support": int(np.sum(gold == lab))})
    return pd.DataFrame(rows).set_index("label")


def token_counts(gold_text: str, pred_text: str) -> tuple[int, int, int]:
    """(overlap, predicted tokens, gold tokens) of two texts as token multisets."""
    g, p = Counter(words(gold_text)), Counter(words(pred_text))
    return sum((g & p).values()), sum(p.values()), sum(g.values())


def token_scores(pages: Iterable[tuple[str, dict[str, str], dict[str, str], set[str]]],
                 labels: Iterable[str] = MAJOR_LABELS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Token-level scores from ``(page, gold_text_by_label, pred_text_by_label, scored_labels)``.

    Returns (micro-averaged scores per label, per-page scores with columns document, label, p, r, f).
    """
    labels = list(labels)
    totals = {lab: [0, 0, 0] for lab in labels}
    per_page = []
    for page, gold, pred, scored in pages:
        for lab in labels:
            if lab not in scored:
                continue
            tp, n_pred, n_gold = token_counts(gold.get(lab, ""), pred.get(lab, ""))
            for i, v in enumerate((tp, n_pred, n_gold)):
                totals[lab][i] += v
            p, r, f = _prf(tp, n_pred, n_gold)
            per_page.append({"document": page, "label": lab, "precision": p, "recall": r, "f": f, "gold_tokens": n_gold})
    rows = []
    for lab in labels:
        tp, n_pred, n_gold = totals[lab]
        p, r, f = _prf(tp, n_pred, n_gold)
        rows.append({"label": lab, "precision": p, "recall": r, "f": f, "support": n_gold})
    return pd.DataFrame(rows).set_index("label"), pd.DataFrame(per_page)


def texts_by_label(texts: Iterable[str], labels: Iterable[str]) -> dict[str, str]:
    """Concatenated text of each label's zones."""
    out: dict[str, list[str]] = {}
    for text, lab in zip(texts, labels):
        out.setdefault(lab, []).append(text)
    return {lab: " ".join(parts) for lab, parts in out.items()}


def confusion(gold: Iterable[str], pred: Iterable[str], labels: Iterable[str] = LABELS) -> pd.DataFrame:
    """Confusion counts, gold labels as rows and predictions as columns."""
    labels = list(labels)
    frame = pd.crosstab(pd.Series(list(gold), name="gold"), pd.Series(list(pred), name="predicted"))
    return frame.reindex(index=labels, columns=labels, fill_value=0)
