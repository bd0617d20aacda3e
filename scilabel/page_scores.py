"""Token scores of a page's fields against reviewed gold: the measure of the shared data's page scorer.

The project's yardstick for real pages is ``tools/score_pages.py`` beside the shared data (the
reference). This module computes the same figures inside the package, so that ``scilabel evaluate
--gold DIR`` scores reviewed pages of a user's own (``scilabel review``) where that tool is absent;
``tests/test_page_scores.py`` checks that both give the same numbers on every page of the shared gold.
It has the reference's interface (:func:`tokens`, :func:`score_page`, :func:`aggregate`), so either
can be passed wherever a page scorer is taken (:mod:`scilabel.crossval`, :mod:`scilabel.evaluation`).

The measure, per field (title, authors, affiliations, abstract, references) a page's gold scores
(``fields_scored``): precision, recall and F1 of the multiset of predicted tokens (the text of every
zone with that label) against the gold text's. Tokens are ``\\w+`` runs of the NFKC-normalised text,
case-folded; author and affiliation text is cut further into letter runs and digit runs, and runs of
digits or a single lower-case ASCII letter (markers) are dropped; reference text loses URLs, DOIs and
the link words publishers print beside entries. Micro figures sum over pages, macro ones average the
per-page figures (rounded to four places, as the reference rounds them).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from rapidfuzz.distance import Levenshtein

from .schema import ARTICLE, FIELD_LABELS

#: The fields scored, in order (the schema's field labels).
SCORED = FIELD_LABELS
#: Labels a predicted zone may carry; a zone with another label (or no text) is counted as invalid.
VALID_LABELS = frozenset(ARTICLE.labels)
#: Normalised edit similarity at or above which a predicted title counts as matched.
SOFT_TITLE = 0.9
#: Look-up link phrases and words beside reference entries (the reference scorer's lists).
REFERENCE_LINK_PHRASES = ("view article", "publisher full text", "free full text", "pubmed abstract", "pmc free article",
                          "web of science", "google scholar", "in text citation", "search via refindit",
                          "open in a separate window", "find this article online", "article pubmed")
REFERENCE_LINK_WORDS = frozenset({"pubmed", "crossref", "google", "scholar", "cas", "pmc", "medline", "refindit", "isi",
                                  "pmid", "pmcid", "doaj", "scopus", "wos", "doi"})
_PHRASES = re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, REFERENCE_LINK_PHRASES)), re.IGNORECASE)
_IDENTIFIERS = re.compile(r"(?:https?://|www\.)\S+|\b10\.\d{4,9}/\S+", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_LETTERS_OR_DIGITS = re.compile(r"[^\W\d_]+|\d+")
_NAME_FIELDS = ("authors", "affiliations")


def _is_marker(token: str) -> bool:
    """A footnote or affiliation marker: digits, or one lower-case ASCII letter."""
    return token.isdigit() or (len(token) == 1 and token.isascii() and token.islower())


def tokens(text: str | None, label: str) -> list[str]:
    """The normalised tokens of ``text`` as a value of field ``label``."""
    text = unicodedata.normalize("NFKC", text or "")
    if label == "references":
        text = _PHRASES.sub(" ", _IDENTIFIERS.sub(" ", text))
    if label in _NAME_FIELDS:
        return [t.casefold() for t in _LETTERS_OR_DIGITS.findall(text) if not _is_marker(t)]
    words = (t.casefold() for t in _WORD.findall(text))
    if label == "references":
        return [w for w in words if w not in REFERENCE_LINK_WORDS]
    return list(words)


def title_similarity(predicted: str, gold: str) -> float:
    """1 - edit distance / longer length of the two titles' normalised word sequences."""
    a, b = (" ".join(_WORD.findall(unicodedata.normalize("NFKC", t or "").casefold())) for t in (predicted, gold))
    if not (a or b):
        return 1.0
    if not (a and b):
        return 0.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))


def gold_text(gold: dict, label: str) -> str:
    """A gold field's text (a list of names or entries joined by spaces)."""
    value = gold.get(label) or ""
    return " ".join(value) if isinstance(value, list) else value


def _prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score_page(gold: dict, zones: Iterable[dict] | None) -> tuple[dict[str, dict], float | None, int]:
    """Scores of one page's predicted zones (``{"label", "text"}``) against its gold.

    Returns (per scored field: tp, pred, gold token counts and P, R, F1; the title's similarity, None
    when the title is not scored; the number of zones with no valid label or text).
    """
    texts: dict[str, list[str]] = {}
    invalid = 0
    for zone in zones or ():
        label = zone.get("label") if isinstance(zone, dict) else None
        text = zone.get("text") if isinstance(zone, dict) else None
        if label not in VALID_LABELS or not isinstance(text, str):
            invalid += 1
        else:
            texts.setdefault(label, []).append(text)
    scores = {}
    for label in SCORED:
        if label not in gold["fields_scored"]:
            continue
        predicted = Counter(tokens(" ".join(texts.get(label, ())), label))
        truth = Counter(tokens(gold_text(gold, label), label))
        tp, n_pred, n_gold = sum((predicted & truth).values()), sum(predicted.values()), sum(truth.values())
        p, r, f = _prf(tp, n_pred, n_gold)
        scores[label] = {"tp": tp, "pred": n_pred, "gold": n_gold, "P": round(p, 4), "R": round(r, 4), "F1": round(f, 4)}
    similarity = None
    if "title" in gold["fields_scored"]:
        similarity = round(title_similarity(" ".join(texts.get("title", ())), gold["title"]), 4)
    return scores, similarity, invalid


def aggregate(pages: list[dict], labels: Iterable[str] = SCORED) -> dict[str, dict]:
    """Micro and macro P, R, F1 per field over page results (each with ``labels``: :func:`score_page`'s
    first value), over the pages that score the field."""
    out = {}
    for label in labels:
        rows = [page["labels"][label] for page in pages if label in page["labels"]]
        if not rows:
            continue
        p, r, f = _prf(sum(x["tp"] for x in rows), sum(x["pred"] for x in rows), sum(x["gold"] for x in rows))
        out[label] = {"P_micro": round(p, 4), "R_micro": round(r, 4), "F1_micro": round(f, 4),
                      **{f"{k}_macro": round(sum(x[k] for x in rows) / len(rows), 4) for k in ("P", "R", "F1")},
                      "n_pages": len(rows)}
    return out
