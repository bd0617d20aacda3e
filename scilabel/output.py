"""The record `scilabel label` writes for a page: labelled zones plus the article's fields
(schema in the design notes: keep it stable, extend it, never rename it)."""
from __future__ import annotations

import re

import pandas as pd

from .labeler import PageLabels
from .references import PageReferences

#: Characters of author and affiliation markers: digits, *, daggers, section signs, superscript digits.
_MARKER_CHARS = r"\d*\u2020\u2021\u00a7\u00b6#\u2016\u00b9\u00b2\u00b3\u2070-\u2079"
_MARKERS = re.compile(f"[{_MARKER_CHARS}]+")
_NAME_SPLIT = re.compile(r"\s*(?:,|;|\band\b|&|\u00b7|\|)\s*", re.I)
_AFFILIATION_MARKER = re.compile(rf"^\s*(?:[{_MARKER_CHARS}]+|[a-z](?=\s))[\s.,)]*")
_DEGREES = re.compile(r"^(?:MD|PhD|Ph\.D\.|MSc|MS|BA|BS|BSc|MPH|RN|DPhil|MBBS|FRCP|Jr\.?|Sr\.?)$", re.I)


def split_author_names(texts: list[str]) -> list[str]:
    """Person names from author-zone texts: markers, degrees and separators removed, order kept."""
    names: list[str] = []
    for text in texts:
        for part in _NAME_SPLIT.split(_MARKERS.sub(" ", text)):
            name = " ".join(part.split()).strip(" .:")
            if len(name) > 2 and not _DEGREES.match(name) and any(c.isalpha() for c in name):
                names.append(name)
    return list(dict.fromkeys(names))


def affiliation_texts(texts: list[str]) -> list[str]:
    """Affiliations from affiliation-zone texts: the leading marker ("1", "a", "*") removed, empty
    texts dropped, order kept."""
    out = []
    for text in texts:
        text = " ".join(_AFFILIATION_MARKER.sub("", text).split())
        if any(c.isalpha() for c in text):
            out.append(text)
    return out


def page_record(source: str, model: str, zones: pd.DataFrame, labels: PageLabels, references: PageReferences) -> dict:
    """The JSON-ready record of one labelled page; ``references`` come from
    :func:`scilabel.references.page_references` on the predicted labels."""
    texts = zones["text"].tolist()

    def of(label: str) -> list[str]:
        return [t for t, lab in zip(texts, labels.labels) if lab == label]

    return {
        "source": source,
        "model": model,
        "zones": [
            {"label": lab, "state": state, "text": text, "bbox": [round(float(v), 1) for v in bbox], "confidence": round(float(conf), 4)}
            for lab, state, text, bbox, conf in zip(
                labels.labels, labels.states, texts, zones[["x", "y", "w", "h"]].itertuples(index=False), labels.confidence
            )
        ],
        "title": " ".join(of("title")) or None,
        "authors": split_author_names(of("authors")),
        "affiliations": affiliation_texts(of("affiliations")),
        "abstract": "\n".join(of("abstract")) or None,
        "references": references.references,
        "anchor_format": references.format,
    }


def page_tsv(record: dict) -> str:
    """One line per zone: label, state, confidence, x, y, w, h, text."""
    lines = ["label\tstate\tconfidence\tx\ty\tw\th\ttext"]
    for z in record["zones"]:
        text = z["text"].replace("\t", " ").replace("\n", " ")
        lines.append("\t".join([z["label"], z["state"], f"{z['confidence']:.4f}", *map(str, z["bbox"]), text]))
    return "\n".join(lines) + "\n"
