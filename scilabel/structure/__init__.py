"""Article structure of a labelled page: sections, paragraphs, list items, figure and table
captions, footnotes and sentences, with the front matter and references (written as XML, JATS or
JSON by :mod:`scilabel.writers`).

    article = article_structure(zones, labels, references)   # one page's zones frame, its labels

``references`` are parsed reference dicts (``scilabel.references.page_references(...).references``);
their ``contexts`` mark the sentences that cite them.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..labeler import ZoneLabeler
from ..pipeline import ReadPage, read_page
from ..readers import Reader
from ..references import ReferenceParser
from .blocks import group_blocks
from .classify import classify_zones
from .model import BlockModel
from ..sentences import split_sentences
from .tree import Article, Figure, Footnote, Item, Paragraph, Section, Sentence, build_article, references_section

__all__ = [
    "Article", "Figure", "Footnote", "Item", "Paragraph", "Section", "Sentence",
    "article_structure", "classify_zones", "group_blocks", "main_content", "page_article", "references_section", "split_sentences",
    "structure_page",
]


def article_structure(zones: pd.DataFrame, labels: list[str] | np.ndarray,
                      references: list[dict] | None = None, model: BlockModel | None = None) -> Article:
    """The article tree of one page: its zones frame (reading order), a label per zone and,
    optionally, its parsed references and a block model (default: the shipped one)."""
    return build_article(zones, labels, references, model)


def main_content(zones: pd.DataFrame, labels: list[str] | np.ndarray) -> str:
    """The article's main content as a labeller sees it, for comparison with content extractors:
    the abstract zones and the body zones :func:`classify_zones` keeps (headings, paragraphs,
    items, captions, footnotes), in reading order."""
    kinds = classify_zones(zones, labels)
    texts = zones["text"].astype(str).tolist()
    keep = [lab == "abstract" or kind not in (None, "noise") for lab, kind in zip(labels, kinds)]
    return " ".join(t for t, k in zip(texts, keep) if k)


def structure_page(reader: Reader, labeler: ZoneLabeler, parser: ReferenceParser, source: str | Path,
                   model: BlockModel | None = None) -> Article:
    """Read (with ``reader``), label and structure one source, its references parsed with ``parser``
    (``scilabel.references.load_parser()``) and linked to the sentences citing them, its body zones
    classified by ``model`` (default: the shipped block model)."""
    return page_article(read_page(reader, labeler, parser, source), labeler, model)


def page_article(read: ReadPage, labeler: ZoneLabeler, model: BlockModel | None = None) -> Article:
    """The article tree of a page read and labelled (:func:`scilabel.pipeline.read_page`), with its
    source and, unless the labeller is set to ``page_metadata=False``, its declared metadata."""
    article = build_article(read.document.zones, read.labels.labels, read.references.references, model)
    article.source = str(read.document.source)
    if getattr(labeler, "page_metadata", True) and read.document.metadata is not None:
        article.metadata = read.document.metadata.record()
    return article
