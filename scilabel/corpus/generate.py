"""Generate labelled article pages from JATS articles through the template families.

Splits keep test pages unseen in two ways at once: every family belongs to exactly one split
(:data:`FAMILY_SPLITS`), every article is assigned to one split by a stable hash, and an article
is rendered only through the families of its own split. So no test page shares a family or an
article with a training page. Every page declares meta tags drawn with the faults real pages have
(:mod:`scilabel.corpus.meta_tags`); a real platform's page declares what its templates do. Output is byte-identical for the same inputs and seed.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from collections import Counter
from pathlib import Path

import pandas as pd
from lxml import html as lxml_html
from tqdm import tqdm

from scilabel.atomic import write_bytes
from scilabel.corpus.jats import Article, iter_articles, iter_jats_files
from scilabel.corpus.meta_tags import declare, meta_tags
from scilabel.corpus.platforms import PLATFORMS, PageDropped
from scilabel.corpus.templates import FAMILIES, Family, PageContext, RelatedItem
from scilabel.corpus.templates.base import short_authors
from scilabel.corpus.translations import in_languages
from scilabel.schema import MAJOR_LABELS

log = logging.getLogger(__name__)

#: Fixed family -> split map (9 train / 3 dev / 3 test, and the real platforms train). The dev and
#: test families are different idioms from training and from each other: framework cards,
#: word-processor export and repository record (dev); blog editorial with authors after the body and
#: footnote references, wiki engine, and div/span-only single-page app (test).
FAMILY_SPLITS: dict[str, str] = {
    "semantic_html5": "train",
    "div_soup": "train",
    "table_layout": "train",
    "br_runs": "train",
    "definition_list": "train",
    "portal_tabs": "train",
    "preprint_landing": "train",
    "pmc_classic": "train",
    "magazine_grid": "train",
    "bootstrap_cards": "dev",
    "word_export": "dev",
    "repository_record": "dev",
    "commentary_notes": "test",
    "wiki_markup": "test",
    "spa_flat": "test",
    **{name: "train" for name in PLATFORMS},
}
#: Every family by name: the hand-written templates and the real platforms.
ALL_FAMILIES: dict[str, Family] = {**FAMILIES, **PLATFORMS}
#: Share of articles per split (cumulative order matters for the hash thresholds).
ARTICLE_SPLITS: tuple[tuple[str, float], ...] = (("train", 0.70), ("dev", 0.15), ("test", 0.15))
#: How many other articles a page may show as "related" furniture.
N_RELATED = 8
#: Share of pages whose style sheet is a separate file. Publisher pages link theirs, and rendering
#: offline blocks it, so real pages are laid out unstyled; these pages are too.
EXTERNAL_STYLES = 0.5
_STYLE_BLOCK = re.compile(r"<style>\n(.*?)\n</style>\n", re.S)
#: Share of pages shown as a reader or print view: nothing of the site before the title, so the page
#: opens with it (print views, reader modes, word-processor exports, plain HTML articles).
READER_VIEW = 0.1

#: A labelled element, but a reference's look-up links (of the list, of no entry: an empty id).
_LABEL_RE = re.compile(r'data-scilabel="([a-z_]+)"(?! data-scilabel-ref="")')
_CITE_RE = re.compile(r"data-scilabel-cite=")
_VARIANT_RE = re.compile(r'data-scilabel-variant="([a-z_-]+)"')


def split_key(article: Article) -> str:
    """What decides an article's split: its DOI (so duplicate copies stay together), else its id."""
    return article.doi.lower() if article.doi else article.article_id


def article_split(key: str, seed: int = 0) -> str:
    """train/dev/test for an article key, from a stable hash of the key and seed."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    u = int.from_bytes(digest[:8], "big") / 2**64
    cumulative = 0.0
    for split, share in ARTICLE_SPLITS:
        cumulative += share
        if u < cumulative:
            return split
    return ARTICLE_SPLITS[-1][0]


def page_rng(seed: int, family: str, article_id: str, purpose: str = "page") -> random.Random:
    """The random generator for one page; str seeds hash with SHA-512, so runs are reproducible."""
    return random.Random(f"{seed}|{purpose}|{family}|{article_id}")


def page_context(article: Article, pool: list[Article], rng: random.Random) -> PageContext:
    """Up to :data:`N_RELATED` other articles of the same split, as furniture."""
    others = [a for a in pool if split_key(a) != split_key(article)]
    chosen = rng.sample(others, min(N_RELATED, len(others)))
    return PageContext(tuple(RelatedItem(a.title, short_authors(a), a.journal, a.year) for a in chosen))


def externalise_styles(html: str, stylesheet: str) -> tuple[str, str]:
    """Move a page's style block into a style sheet linked as ``stylesheet``: (page, style sheet)."""
    match = _STYLE_BLOCK.search(html)
    if match is None:
        raise ValueError("page has no style block")
    link = f'<link rel="stylesheet" href="{stylesheet}">\n'
    return html[:match.start()] + link + html[match.end():], match.group(1) + "\n"


def reader_view(html: str) -> str | None:
    """The page without what precedes its title in document order, so that the title opens it; None
    when something before the title carries gold other than ``other``."""
    root = lxml_html.document_fromstring(html)
    titles = root.xpath('//body//*[@data-scilabel="title"]')
    if not titles:
        return None
    # the title and its ancestors inside <body>: everything before them goes
    chain = [titles[0], *(a for a in titles[0].iterancestors() if a.tag not in ("body", "html"))]
    before = [sib for node in chain for sib in node.itersiblings(preceding=True)]
    gold = 'descendant-or-self::*[@data-scilabel-content or @data-scilabel-struct or @data-scilabel-cite' \
           ' or (@data-scilabel and @data-scilabel!="other")]'
    if any(node.xpath(gold) for node in before):
        return None
    for node in chain:
        node.getparent().text = None
    for node in before:
        node.getparent().remove(node)
    return lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>") + "\n"


def page_counts(html: str) -> dict[str, object]:
    """Manifest counts read back from a rendered page's gold attributes."""
    labels = Counter(_LABEL_RE.findall(html))
    variant = _VARIANT_RE.search(html)
    return {
        **{f"n_{lab}": labels.get(lab, 0) for lab in MAJOR_LABELS},
        "n_citations": len(_CITE_RE.findall(html)),
        "variant": variant.group(1) if variant else "standard",
    }


def generate_corpus(
    jats_dir: Path, out_dir: Path, seed: int = 0, families: list[str] | None = None
) -> pd.DataFrame:
    """Render every usable article through every family of its split (``families``: these only; by
    default every family of :data:`FAMILY_SPLITS`, the hand-written ones and the real platforms').

    Writes ``out_dir/pages/<family>/<article_id>.html`` and ``out_dir/manifest.csv`` and
    returns the manifest (one row per page, sorted by path). A platform family that cannot run here
    (:meth:`~scilabel.corpus.platforms.PlatformFamily.missing`) is left out with a warning, or is an
    error when asked for by name; its pages whose gold cannot be set exactly are left out and listed
    with the reason in ``out_dir/dropped.csv``.
    """
    jats_dir, out_dir = Path(jats_dir), Path(out_dir)
    wanted = list(FAMILY_SPLITS) if families is None else list(families)
    unknown = [f for f in wanted if f not in ALL_FAMILIES or f not in FAMILY_SPLITS]
    if unknown:
        raise ValueError(f"unknown families: {unknown}")
    missing = {f: PLATFORMS[f].missing() for f in wanted if f in PLATFORMS}
    missing = {f: why for f, why in missing.items() if why is not None}
    if missing and families is not None:
        raise ValueError("; ".join(f"family {f} cannot run: {why}" for f, why in missing.items()))
    for family, why in missing.items():
        log.warning("left out family %s: %s", family, why)
    wanted = [f for f in wanted if f not in missing]
    articles = list(iter_articles(jats_dir))
    log.info(
        "%d usable articles of %d JATS files under %s", len(articles), len(iter_jats_files(jats_dir)), jats_dir
    )
    pools: dict[str, list[Article]] = {}
    for _, art in articles:
        pools.setdefault(article_split(split_key(art), seed), []).append(art)
    rows, dropped = [], []
    for path, art in tqdm(articles, desc="generating pages", unit="article"):
        split = article_split(split_key(art), seed)
        for family in (f for f in wanted if FAMILY_SPLITS[f] == split):
            context = page_context(art, pools[split], page_rng(seed, family, art.article_id, "context"))
            try:
                html = ALL_FAMILIES[family].render(art, page_rng(seed, family, art.article_id), context)
                if family in FAMILIES:  # a platform prints the article's translations as its templates do
                    html = in_languages(html, art)
            except PageDropped as exc:
                log.info("dropped %s/%s: %s", family, art.article_id, exc)
                dropped.append({"family": family, "article_id": art.article_id, "reason": str(exc)})
                continue
            reader = None
            if page_rng(seed, family, art.article_id, "view").random() < READER_VIEW:
                reader = reader_view(html)
                html = reader or html
            if family in FAMILIES:  # a platform's page declares what its own templates declare
                meta_rng = page_rng(seed, family, art.article_id, "meta")
                others = [a for a in pools[split] if a is not art]
                html = declare(html, meta_tags(art, meta_rng, meta_rng.choice(others) if others else None))
            rel = Path("pages") / family / f"{art.article_id}.html"
            external = page_rng(seed, family, art.article_id, "styles").random() < EXTERNAL_STYLES
            if external:
                html, css = externalise_styles(html, f"{art.article_id}.css")
                write_bytes(out_dir / rel.with_suffix(".css"), css.encode("utf-8"))
            write_bytes(out_dir / rel, html.encode("utf-8"))
            rows.append(
                {
                    "path": rel.as_posix(),
                    "family": family,
                    "split": split,
                    "article_id": art.article_id,
                    "source": path.relative_to(jats_dir).as_posix(),
                    "styles": "external" if external else "inline",
                    "view": "full" if reader is None else "reader",
                    **page_counts(html),
                    "n_refs": len(art.references),
                }
            )
    manifest = pd.DataFrame(rows, columns=_COLUMNS)
    manifest = manifest.sort_values("path", kind="stable").reset_index(drop=True)
    write_bytes(out_dir / "manifest.csv", manifest.to_csv(index=False, lineterminator="\n").encode("utf-8"))
    dropped = pd.DataFrame(dropped, columns=["family", "article_id", "reason"])
    write_bytes(out_dir / "dropped.csv", dropped.to_csv(index=False, lineterminator="\n").encode("utf-8"))
    if len(dropped):
        log.warning(
            "dropped %d pages whose gold could not be set exactly (%s); reasons in %s",
            len(dropped),
            ", ".join(f"{k} {v}" for k, v in dropped["family"].value_counts().sort_index().items()),
            out_dir / "dropped.csv",
        )
    log.info(
        "wrote %d pages (%s) to %s",
        len(manifest),
        ", ".join(f"{k} {v}" for k, v in manifest["split"].value_counts().sort_index().items()),
        out_dir,
    )
    return manifest


_COLUMNS = [
    "path",
    "family",
    "split",
    "article_id",
    "source",
    "styles",
    "view",
    *(f"n_{lab}" for lab in MAJOR_LABELS),
    "n_refs",
    "n_citations",
    "variant",
]
