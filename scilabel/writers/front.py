"""What the article formats (JATS, TEI) say about the authors: which of the article's affiliations
each author is linked to."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..structure import Article


def _fold(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def author_affiliations(article: Article) -> list[list[int]]:
    """Per author of ``article``, the positions of its affiliations in ``article.affiliations``: all of
    them when there is one, else those the page declares for that author (its metadata's ``authors``,
    matched by name and by the declared address's words); an author left unlinked has none."""
    if len(article.affiliations) == 1:
        return [[0] for _ in article.authors]
    declared = {_fold(p["name"]): [_fold(a) for a in p.get("affiliations") or [] if _fold(a)]
                for p in (article.metadata or {}).get("authors") or [] if p.get("name")}
    folded = [_fold(aff) for aff in article.affiliations]
    return [[i for i, aff in enumerate(folded) if any(d in aff or aff in d for d in declared.get(_fold(name), []))]
            for name in article.authors]
