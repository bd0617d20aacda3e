"""JSON: a page record, the references of a page, or the article tree, indented."""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .base import Writer
from .jsonl import json_lines

if TYPE_CHECKING:
    from ..structure import Article, Figure, Footnote, Paragraph, Section


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def _sentences_json(block: Paragraph) -> list[dict]:
    return [{"text": s.text, "cites": list(s.cites)} for s in block.sentences]


def _block_json(block: Paragraph | Figure | Footnote) -> dict:
    from ..structure import Figure, Footnote, Item  # the structure package loads the labeller: only when used

    if isinstance(block, Figure):
        return {"type": "figure", "kind": block.kind, "label": block.label, "caption": block.caption}
    if isinstance(block, Footnote):
        return {"type": "footnote", "marker": block.marker, "text": block.text}
    if isinstance(block, Item):
        return {"type": "item", "marker": block.marker, "sentences": _sentences_json(block)}
    return {"type": "paragraph", "sentences": _sentences_json(block)}


def _section_json(sec: Section) -> dict:
    return {"number": sec.number, "title": sec.title, "level": sec.level,
            "content": [_block_json(b) for b in sec.blocks], "sections": [_section_json(s) for s in sec.sections]}


def article_json(article: Article) -> dict:
    """The article as a JSON-ready dict (front matter, sections, footnotes, references)."""
    return {
        "source": article.source,
        "title": article.title,
        "authors": list(article.authors),
        "affiliations": list(article.affiliations),
        "abstract": [_section_json(s) for s in article.abstract],
        "sections": [_section_json(s) for s in article.sections],
        "footnotes": [_block_json(f) for f in article.footnotes],
        "references": [dict(r) for r in article.references],
        "metadata": article.metadata,
    }


class JsonWriter(Writer):
    """Indented JSON; page records of a batch run as JSON lines, one compact record per page."""

    name = "json"

    def label(self, records: Sequence[dict], batch: bool = False) -> str:
        return json_lines(records) if batch else "".join(_dumps(record) + "\n" for record in records)

    def references(self, references: Sequence[dict], record: dict | None = None) -> str:
        return _dumps(list(references) if record is None else record)

    def structure(self, article: Article) -> str:
        return _dumps(article_json(article)) + "\n"
