"""Real peers wrapped as baselines: trafilatura, the page's own meta tags, readability-lxml.

Each is given the page's tree with the gold ``data-scilabel*`` attributes already removed.
"""
from __future__ import annotations

import trafilatura
from readability import Document
from readability.readability import Unparseable

from ..metadata import read_meta
from .base import FIELD_LABELS, Baseline, BaselineInputError, BaselineResult, element_text, gold_free_tree, page_blocks, parse_html


def meta_fields(html: str) -> dict[str, str]:
    """Title, authors, affiliations, abstract and references a page declares in its meta tags."""
    meta = read_meta(html)
    fields = {
        "title": meta.title,
        "authors": "\n".join(meta.authors),
        "affiliations": "\n".join(meta.institutions),
        "abstract": meta.abstract,
        "references": "\n".join(" ".join(v for vals in ref.values() for v in vals) for ref in meta.references),
    }
    return {label: text for label, text in fields.items() if text}


class MetaTagsBaseline(Baseline):
    """The page's own ``citation_*`` / ``dc.*`` meta tags, as Zotero's Embedded Metadata translator reads them."""

    name = "metatags"
    produces = frozenset(FIELD_LABELS)

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Read the HEAD's metadata (``read_meta`` never looks at gold attributes)."""
        gold_free_tree(html, url)  # validates the input like every other baseline
        fields = meta_fields(html)
        return BaselineResult(model=self.name, fields=fields, blocks=list(fields.values()),
                              labels=list(fields))


class TrafilaturaBaseline(Baseline):
    """trafilatura's main text, title and author."""

    name = "trafilatura"
    produces = frozenset({"title", "authors"})
    extracts_content = True

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Run ``trafilatura.bare_extraction`` with metadata, without comments."""
        doc = trafilatura.bare_extraction(gold_free_tree(html, url), url=url, with_metadata=True,
                                          include_comments=False)
        if doc is None:
            return BaselineResult(model=self.name)
        text = doc.text or ""
        authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()]
        fields = {"title": doc.title or "", "authors": "\n".join(authors)}
        blocks = [line.strip() for line in text.splitlines() if line.strip()]
        return BaselineResult(model=self.name, fields={k: v for k, v in fields.items() if v}, main_content=text,
                              blocks=blocks, labels=["other"] * len(blocks))


class ReadabilityBaseline(Baseline):
    """readability-lxml's article summary, short title and author."""

    name = "readability"
    produces = frozenset({"title", "authors"})
    extracts_content = True

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Run ``readability.Document`` on the page and read the text of its summary."""
        doc = Document(gold_free_tree(html, url), url=url)
        try:
            summary = doc.summary(html_partial=True)
        except Unparseable as exc:
            raise BaselineInputError(f"{url or '<html string>'}: readability cannot parse the page ({exc})") from None
        root = parse_html(summary, url) if summary.strip() else None
        blocks = [b.text for b in page_blocks(root, classes=False)] if root is not None else []
        author = doc.author()
        fields = {"title": doc.short_title(), "authors": "" if author == "[no-author]" else author}
        return BaselineResult(model=self.name, fields={k: v for k, v in fields.items() if v},
                              main_content=element_text(root) if root is not None else "",
                              blocks=blocks, labels=["other"] * len(blocks))
