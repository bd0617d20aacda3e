"""Article structure of rendered pages: a page written here with gold annotations, through
``structure_page`` with the shipped reference parser (and scored by the evaluation), and a real PMC
page labelled from its own meta tags (silver labels, so the test does not hang on a model file)."""
from __future__ import annotations

import copy

import numpy as np
import pytest
from lxml import etree

from scilabel.corpus.silver import silver_labels
from scilabel.labeler import PageLabels
from scilabel.references import load_parser
from scilabel.structure import Figure, Item, Paragraph, Sentence, article_structure, structure_page
from scilabel.structure.evaluation import boundary_errors, gold_kinds, page_counts, predicted_kinds, summary
from scilabel.writers import WRITERS

from .conftest import SHARED_DATA

PMC_PAGE = SHARED_DATA / "pages" / "metascraper" / "pmc.ncbi.nlm.nih.gov-articles-PMC3531190.html"

C = ' data-scilabel-content="1" data-scilabel-struct='
PARA = ("Cells were grown in standard medium for three days before the assay (Smith et al., 2001). "
        "Growth was measured at 600 nm, e.g. every 2 h, as in Fig. 2.")
PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body {{ font: 16px serif; width: 900px; margin: 20px 120px; }} h1 {{ font-size: 30px; }}
h2 {{ font-size: 24px; }} h3 {{ font-size: 19px; }} figcaption, .fn {{ font-size: 13px; }}
nav {{ position: absolute; left: 1100px; top: 20px; width: 150px; }}
</style></head><body>
<nav><a href="/a">Home</a><br><a href="/b">Browse the journal issues</a><br><a href="/c">Subscribe</a></nav>
<h1 data-scilabel="title">Growth of cells &amp; their “neighbours”</h1>
<p data-scilabel="authors">Jane Doe<sup>1</sup>, José Núñez<sup>2</sup></p>
<p data-scilabel="affiliations">1 Example University, Città</p>
<h2 data-scilabel="abstract_heading">Abstract</h2>
<p data-scilabel="abstract">We grew cells. They divided &lt;quickly&gt;.</p>
<section data-scilabel-struct="section" data-scilabel-level="1"><h2{C}"heading">1 Introduction</h2>
<p{C}"paragraph">{PARA}</p></section>
<section data-scilabel-struct="section" data-scilabel-level="1"><h2{C}"heading">2 Methods</h2>
<section data-scilabel-struct="section" data-scilabel-level="2"><h3{C}"heading">2.1 Samples</h3>
<p{C}"paragraph">{PARA} Samples came from E. coli K-12 cultures.</p>
<ul><li{C}"item">first we counted the cells in each dish,</li><li{C}"item">then we sorted them.</li></ul>
<figure><figcaption{C}"caption"><b>Figure 1.</b> Growth of the cells in three media.</figcaption></figure>
<p><a href="/dl">Download high-res image</a></p>
</section></section>
<section data-scilabel-struct="section" data-scilabel-level="1"><h2{C}"heading">3 Results</h2>
<p{C}"paragraph">{PARA}</p><p{C}"paragraph">The second paragraph ends here. It has two sentences.</p></section>
<h2 data-scilabel="references_heading">References</h2>
<ol><li data-scilabel="references">Smith J, Jones K (2001) A study of cells. Nature 1: 2–9.</li></ol>
<h3{C}"heading">Footnotes</h3><p class="fn"{C}"footnote">1 Present address: Department of Biology, Example University.</p>
</body></html>"""


class GoldLabeller:
    """Stands in for a zone labeller: returns the labels the page's annotations give."""

    def label_pages(self, zones):
        labels = zones["label"].tolist()
        return [PageLabels(labels, labels, np.ones(len(labels)))]


@pytest.fixture(scope="module")
def page(reader):
    return reader.read(PAGE).zones, structure_page(reader, GoldLabeller(), load_parser(), PAGE)


def test_rendered_page_tree(page) -> None:
    _, article = page
    assert article.title == "Growth of cells & their “neighbours”"
    assert article.authors == ["Jane Doe", "José Núñez"]
    assert [s.text for s in article.abstract[0].blocks[0].sentences] == ["We grew cells.", "They divided <quickly>."]
    assert [(s.number, s.title, s.level) for s in article.walk()] == [
        ("1", "Introduction", 1), ("2", "Methods", 1), ("2.1", "Samples", 2), ("3", "Results", 1),
        (None, "References", 1), (None, "Footnotes", 2)]  # back-matter titles are sections, set in h2 and h3
    samples = article.sections[1].sections[0]
    kinds = [type(b).__name__ for b in samples.blocks]
    assert kinds == ["Paragraph", "Item", "Item", "Figure"]
    assert [s.text for s in samples.blocks[0].sentences] == [
        "Cells were grown in standard medium for three days before the assay (Smith et al., 2001).",
        "Growth was measured at 600 nm, e.g. every 2 h, as in Fig. 2.",
        "Samples came from E. coli K-12 cultures."]
    figure = samples.blocks[3]
    assert isinstance(figure, Figure) and (figure.label, figure.caption) == ("Figure 1", "Growth of the cells in three media.")
    assert [i.text for i in samples.blocks if isinstance(i, Item)] == ["first we counted the cells in each dish,",
                                                                        "then we sorted them."]
    assert [(f.marker, f.text) for f in article.footnotes] == [("1", "Present address: Department of Biology, Example University.")]
    ref = article.references[0]
    assert (ref["id"], ref["year"], ref["authors"][0]["family"]) == ("r1", "2001", "Smith")
    cites = [s.cites for sec in article.walk() for b in sec.blocks for s in getattr(b, "sentences", [])]
    assert ["r1"] in cites
    for fmt in ("xml", "jats"):
        etree.fromstring(WRITERS[fmt].structure(article).encode("utf-8"))


def test_evaluation_scores_the_rendered_page(page) -> None:
    zones, article = page
    gold = gold_kinds(zones)
    pred, levels = predicted_kinds(article, len(zones))
    assert list(pred) == list(gold)
    perfect = summary(page_counts(zones, article, PAGE))
    assert perfect["heading_f1"] == perfect["boundary_f1"] == perfect["sentence_f1"] == 1.0
    assert perfect["level_accuracy"] == perfect["caption_f1"] == perfect["footnote_f1"] == 1.0
    # a tree that lost its subsection heading and merged two paragraphs scores below 1
    article = copy.deepcopy(article)  # the fixture's tree is shared
    methods = article.sections[1]
    methods.blocks, methods.sections = methods.sections[0].blocks, []
    results = article.sections[2]
    first, second = results.blocks
    first.sentences += second.sentences
    first.rows += second.rows
    results.blocks = [first]
    worse = summary(page_counts(zones, article, PAGE))
    assert worse["heading_f1"] < 1 and worse["boundary_f1"] < 1 and worse["sentence_f1"] == 1.0
    assert np.isclose(worse["heading_f1"], 2 * 5 / (2 * 5 + 1))  # 5 of 6 headings (References, Footnotes among them)
    assert worse["text_boundary_f1"] < 1 and worse["text_sentence_f1"] == 1.0
    assert boundary_errors(zones, page[1], PAGE).empty
    errors = boundary_errors(zones, article, PAGE)  # the merged paragraph's second start, zone by zone
    expected = [[second.rows[0], "fn", "paragraph", "paragraph"]]
    assert errors[["row", "error", "gold", "pred"]].values.tolist() == expected
    # a furniture line kept as a paragraph is a false boundary and false sentence end, but not in the
    # running-text scores: it is a content error, counted there
    noisy = copy.deepcopy(page[1])
    furniture = next(i for i, t in enumerate(zones["text"]) if "Download high-res image" in str(t))
    noisy.sections[1].sections[0].blocks.append(Paragraph([Sentence("Download high-res image")], [furniture]))
    scores = summary(page_counts(zones, noisy, PAGE))
    assert scores["boundary_f1"] < 1 and scores["sentence_f1"] < 1 and scores["content_precision"] < 1
    assert scores["text_boundary_f1"] == scores["text_sentence_f1"] == 1.0
    assert boundary_errors(zones, noisy, PAGE)[["row", "error", "gold"]].values.tolist() == [[furniture, "fp", "noise"]]


def test_real_pmc_page(shared_data, reader) -> None:
    document = reader.read(PMC_PAGE)
    zones = document.zones
    labels = silver_labels(zones["text"].tolist(), document.metadata).labels
    article = article_structure(zones, labels)
    assert article.title == "GenBank" and article.abstract
    outline = {s.title: s.level for s in article.walk()}
    assert outline["INTRODUCTION"] == 1 and outline["Submission portal"] == 2
    assert outline["Submission using BankIt"] == 3
    recent = next(s for s in article.sections if s.title == "RECENT DEVELOPMENTS")
    assert [s.title for s in recent.sections][:2] == ["Submission portal", "New submission wizards"]
    assert not {"SYN", "PHG", "TOTAL"} & set(outline)  # table cells
    figures = [b for s in article.walk() for b in s.blocks if isinstance(b, Figure)]
    assert any(f.label == "Table 1" and f.caption.startswith("Growth of GenBank divisions") for f in figures)
    root = etree.fromstring(WRITERS["xml"].structure(article).encode("utf-8"))
    assert root.find("section/title").text == "INTRODUCTION" and len(root.findall(".//sentence")) > 100
