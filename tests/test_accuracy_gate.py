"""Accuracy gate: the shipped models must stay above pinned floors of token F1 per field.

Two page sets:

* real publisher pages with reviewed gold (``gold/*/*.json`` of the shared data), one page per
  publisher, scored exactly as ``tools/score_pages.py`` of the shared data scores them (its own
  functions are imported, not rewritten);
* pages of the three test families made on the fly by the corpus generator from articles of the
  test split, their gold read from the pages' ``data-scilabel`` attributes, scored the same way.

The generated pages are unseen in training. The real pages are unseen by the Naive Bayes model and in
the SVM's training (it learns from the gold pages too); the SVM reads them without its memory of their
layouts (``layout_memory=0``), so that a loss of what it learned still shows.

Each page is rendered once and labelled by both models. The floors sit 0.03 below the figures
measured when they were pinned (the suite prints the measured figures at its end): rendering is
deterministic, so the figures repeat exactly on one machine, and the margin only absorbs what another
Chromium or font set may shift; a field lost on one page breaks its floor.
"""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

from scilabel.corpus.generate import FAMILY_SPLITS, article_split, generate_corpus, split_key
from scilabel.corpus.gold import zone_records
from scilabel.corpus.jats import parse_jats
from scilabel.persistence import load_model, model_path

from .conftest import GATE_PROPERTY


pytestmark = [pytest.mark.gate, pytest.mark.slow]

#: One gold page for each of 16 publishers, from every source folder of gold/, chosen among the smaller
#: pages that show four or five of the fields (rendering is most of the gate's cost).
GOLD_PAGES = (
    "ACE/17913474_pond.json",
    "ACE/19199417.json",  # MIT Press
    "ACE/jneuro.json",  # Society for Neuroscience
    "ACE/17088334.json",  # PubMed Central
    "LimeSoup/101016jscriptamat201603014.json",  # Elsevier
    "LimeSoup/10114913493492.json",  # Electrochemical Society
    "LimeSoup/springer_101007s11041-016-0022-8.json",
    "LimeSoup/nature_101038nmat942.json",
    "LimeSoup/acs_101002zaac201400398.json",  # Wiley-VCH
    "metascraper/journals.plos.org-plosone-article-id-10.1371-journal.pone.0000001.json",
    "norma/hindawi_247835.json",
    "norma/cup_scholarly.json",
    "norma/bmj_bmj.i2607.json",
    "norma/sage_2325967116646534.json",
    "sandcrawler/first_monday_ojs3_fulltext.json",
    "sandcrawler/dlib_05vanhyning.json",
)
#: Articles of the test split (JATS files under ``jats/``), each rendered through every test family.
TEST_ARTICLES = (
    "allofplos/testdata/journal.pbio.2001413.xml",
    "pubchunks/copernicus_1.xml",
    "LimeSoup/acs/101021acsnano6b07666.xml",
)
TEST_FAMILIES = sorted(f for f, split in FAMILY_SPLITS.items() if split == "test")
MODELS = ("svm", "nb")
#: Token F1 (micro over the pages) per field that each model must reach on each page set.
#: Pinned 0.03 below the figures measured on 2026-11-28 (rounded down to the hundredth); measured:
#: svm gold      title .958  authors .807  affiliations .764  abstract  .965  references .978
#: svm generated title 1.000 authors .947  affiliations .958  abstract  .854  references 1.000
#: nb  gold      title .934  authors .723  affiliations .717  abstract  .179  references .970
#: nb  generated title .651  authors .802  affiliations .980  abstract  .315  references .999
#: Re-pinned when both were retrained with the SciELO samples' pages among the generated ones
#: (decisions.md, 2026-11-28): the SVM's gold authors came down from .854 (Cambridge's author-query
#: panel, surnames and initials under the title, read as a byline) and its abstract from 1.000 (First
#: Monday's, the page's first zone with no title or heading over it: the abstract for the model before
#: at a confidence of 0.14, now what comes before the title); the rest stayed or rose.
FLOORS: dict[tuple[str, str], dict[str, float]] = {
    ("svm", "gold"): {"title": 0.92, "authors": 0.77, "affiliations": 0.73, "abstract": 0.93, "references": 0.94},
    ("svm", "generated"): {"title": 0.97, "authors": 0.91, "affiliations": 0.92, "abstract": 0.82, "references": 0.97},
    ("nb", "gold"): {"title": 0.90, "authors": 0.69, "affiliations": 0.68, "abstract": 0.14, "references": 0.94},
    ("nb", "generated"): {"title": 0.62, "authors": 0.77, "affiliations": 0.95, "abstract": 0.28, "references": 0.96},
}


@pytest.fixture(scope="module")
def models() -> dict:
    return {name: load_model(model_path(name)) for name in MODELS}


@pytest.fixture(scope="module")
def gold_pages(shared_data: Path, reader) -> list[tuple[dict, pd.DataFrame]]:
    """(gold record, zones) of every page in :data:`GOLD_PAGES`."""
    pages = []
    for name in GOLD_PAGES:
        gold = json.loads((shared_data / "gold" / name).read_text(encoding="utf-8"))
        pages.append((gold, reader.read(shared_data / gold["page"]).zones))
    return pages


@pytest.fixture(scope="module")
def generated_pages(shared_data: Path, reader, scorer, tmp_path_factory) -> list[tuple[dict, pd.DataFrame]]:
    """(gold record, zones) of the test-family pages generated from :data:`TEST_ARTICLES`; the gold
    record holds each field's text as the pages' gold labels give it, as a gold file would."""
    jats = tmp_path_factory.mktemp("jats")
    for rel in TEST_ARTICLES:
        (jats / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared_data / "jats" / rel, jats / rel)
    out = tmp_path_factory.mktemp("generated")
    manifest = generate_corpus(jats, out, families=TEST_FAMILIES)
    assert sorted(set(manifest["family"])) == TEST_FAMILIES
    assert len(manifest) == len(TEST_ARTICLES) * len(TEST_FAMILIES)
    pages = []
    for rel in manifest["path"]:
        zones = reader.read(out / rel).zones
        fields = [f for f in scorer.SCORED if (zones["label"] == f).any()]
        gold = {f: " ".join(zones.loc[zones["label"] == f, "text"]) for f in fields}
        pages.append(({**gold, "fields_scored": fields}, zones))
    return pages


def test_the_test_articles_belong_to_the_test_split(shared_data: Path):
    splits = {rel: article_split(split_key(parse_jats(shared_data / "jats" / rel, rel))) for rel in TEST_ARTICLES}
    assert set(splits.values()) == {"test"}, splits


def field_f1(scorer: ModuleType, pages: list[tuple[dict, pd.DataFrame]], labeler) -> dict[str, float]:
    """Token F1 (micro over the pages) per field of ``labeler``'s labels, as score_pages.py scores."""
    scored = []
    for gold, zones in pages:
        labels = labeler.label_pages(zones)[0].labels
        scored.append({"labels": scorer.score_page(gold, zone_records(zones["text"], labels))[0]})
    return {field: s["F1_micro"] for field, s in scorer.aggregate(scored).items()}


@pytest.mark.parametrize("page_set", ["gold", "generated"])
@pytest.mark.parametrize("model", MODELS)
def test_shipped_model_stays_above_its_floors(request, record_property, scorer, models, model, page_set):
    pages = request.getfixturevalue(f"{page_set}_pages")
    # the shipped SVM remembers the gold pages' layouts (it trains on their gold): the gate measures the
    # labeller as it reads a layout it does not remember
    measured = field_f1(scorer, pages, copy.copy(models[model]).set_params(layout_memory=0.0))
    record_property(GATE_PROPERTY, f"{model} on {len(pages)} {page_set} pages, token F1: "
                    + "  ".join(f"{field} {f1:.3f}" for field, f1 in measured.items()))
    floors = FLOORS[model, page_set]
    assert set(floors) == set(measured)
    below = {field: (measured[field], floor) for field, floor in floors.items() if measured[field] < floor}
    assert not below, f"{model} on the {page_set} pages fell below its floors (measured, floor): {below}"
