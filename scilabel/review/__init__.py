"""Reviewing a labelled page in the browser, and keeping what the reviewer says as gold.

``scilabel review PAGE|DIR`` reads the pages (:mod:`.pages`), serves the review app on 127.0.0.1
(:mod:`.server`, its script and style in ``static/``), and writes each saved page's gold
(:mod:`.gold`) in the format of the shared data's reviewed gold, which ``scilabel train --gold`` and
``scilabel evaluate --gold`` read.
"""
from __future__ import annotations

import logging
from pathlib import Path

from ..inputs import HTML_PATTERNS, directory_files
from .gold import gold_path, gold_record, write_gold
from .pages import ORDERS, Review, ReviewPage
from .server import ReviewServer

__all__ = ["ORDERS", "Review", "ReviewPage", "ReviewServer", "gold_path", "gold_record", "review_sources",
           "write_gold"]
log = logging.getLogger(__name__)


def review_sources(target: Path) -> list[Path]:
    """The pages to review: ``target`` itself, or the HTML files under a directory (sorted)."""
    target = Path(target)
    if target.is_dir():
        pages = directory_files(target, HTML_PATTERNS)
        if not pages:
            raise FileNotFoundError(f"{target}: no HTML pages to review")
        return pages
    if not target.is_file():
        raise FileNotFoundError(f"{target}: no such page or directory")
    return [target]
