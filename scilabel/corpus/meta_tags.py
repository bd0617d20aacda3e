"""The meta tags of generated pages: Highwire ``citation_*`` tags with the faults real pages have.

Real pages often declare nothing, one author, no affiliations, a truncated abstract or a few
references; rarely, another article's record. :data:`DECLARATION_RATES` (measured on the reviewed gold
pages, ``metadata_faults.tsv`` beside this module) says how often; :func:`meta_tags` draws one page's
tags from those rates, so that a model learns how far to trust what a page declares.
"""
from __future__ import annotations

import csv
import random
import re
from pathlib import Path

from scilabel.corpus.jats import Article
from scilabel.corpus.templates.base import esc

_RATES_FILE = Path(__file__).with_name("metadata_faults.tsv")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _read_rates(path: Path) -> dict[str, dict[str, float]]:
    rows = csv.reader((line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")),
                      delimiter="\t")
    rates: dict[str, dict[str, float]] = {}
    for field, declaration, rate, _ in rows:
        rates.setdefault(field, {})[declaration] = float(rate)
    return rates


#: Field -> kind of declaration -> share of real pages (``metadata_faults.tsv``).
DECLARATION_RATES = _read_rates(_RATES_FILE)


def _draw(rng: random.Random, field: str) -> str:
    """A kind of declaration for ``field``, drawn with the measured rates (shares, not a declaration kind,
    are left out)."""
    kinds = {k: v for k, v in DECLARATION_RATES[field].items() if not k.endswith("_share")}
    return rng.choices(list(kinds), weights=list(kinds.values()))[0]


def _meta(name: str, value: str) -> str:
    return f'<meta name="{name}" content="{esc(value)}">\n'


def _reference_tag(ref) -> str:
    f = ref.fields
    parts = [f"citation_author={a.family}, {a.given}" for a in f.authors]
    parts += [f"citation_{key}={value}" for key, value in (("title", f.title), ("journal_title", f.source),
              ("publication_date", f.year), ("volume", f.volume), ("doi", f.doi)) if value]
    return _meta("citation_reference", "; ".join(parts) if parts else ref.text)


def meta_tags(article: Article, rng: random.Random, other: Article | None = None) -> str:
    """The ``<meta>`` tags one generated page declares (possibly none), drawn with
    :data:`DECLARATION_RATES`; ``other`` is the article whose record a page with stale tags declares."""
    page = _draw(rng, "page")
    if page == "none":
        return ""
    if page == "other_article" and other is not None:
        article = other
    tags = [_meta("citation_title", article.title)] if _draw(rng, "title") != "absent" else []
    authors = {"absent": [], "first_only": article.authors[:1], "full": article.authors}[_draw(rng, "authors")]
    with_affiliations = _draw(rng, "affiliations") != "absent"
    affiliation = {a.aff_id: a.text for a in article.affiliations}
    for author in authors:
        tags.append(_meta("citation_author", author.name))
        if with_affiliations:
            tags.extend(_meta("citation_author_institution", affiliation[i]) for i in author.aff_ids if i in affiliation)
    abstract = {"absent": "", "full": article.abstract_text, "other_article": other.abstract_text if other else "",
                "truncated": " ".join(_SENTENCE_END.split(article.abstract_text)[:rng.randint(1, 2)])}[
        _draw(rng, "abstract")]
    if abstract:
        tags.append(_meta("citation_abstract" if rng.random() < 0.5 else "description", abstract))
    if article.references and _draw(rng, "references") == "partial":
        kept = max(1, round(len(article.references) * DECLARATION_RATES["references"]["kept_share"]))
        tags.extend(_reference_tag(ref) for ref in article.references[:kept])
    return "".join(tags)


def declare(html: str, tags: str) -> str:
    """``html`` with ``tags`` added at the end of its head."""
    if not tags:
        return html
    at = html.find("</head>")
    if at < 0:
        raise ValueError("page has no </head>")
    return html[:at] + tags + html[at:]
