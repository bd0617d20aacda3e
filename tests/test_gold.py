"""Real-page gold: the labelled dataset, publisher groups, the publisher-grouped folds, masked
training, and scores that agree with the shared data's page scorer."""
from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scilabel.corpus.gold import build_gold, canonical_publisher, read_gold, zone_indices
from scilabel.crossval import (CEILING, GoldCV, _page_result, ceiling_labels, field_zones, plot_publishers,
                               publisher_folds, veto_ablation)
from scilabel.emission import NaiveBayesEmission
from scilabel.hmm import ArticleHMM
from scilabel.labeler import ZoneLabeler
from scilabel.rules.vetoes import DEFAULT_VETOES
from scilabel.schema import LABELS, STATE_INDEX

from .test_labeler import synthetic_page

#: Two small gold pages: one whose byline zones also hold the addresses, one that does not show its
#: affiliations (so its zones outside the ranges are all plain ``other``).
SMALL_GOLD = ("sandcrawler/first_monday_ojs3_landingpage.json", "ACE/16085533.json")
SOURCE_FOLDERS = {"ACE", "LimeSoup", "norma", "sandcrawler", "metascraper"}


def test_zone_ranges():
    assert zone_indices("13") == [13]
    assert zone_indices("14-16") == [14, 15, 16]
    assert zone_indices("65, 72, 78") == [65, 72, 78]
    assert zone_indices("") == []


def _folds_frame() -> pd.DataFrame:
    rows = [{"document": f"{pub}-{i}", "split": "test", "group": pub} for pub in "ABCDEFGH" for i in range(1 + ord(pub) % 3)]
    rows += [{"document": f"{pub}-extra-{i}", "split": "train", "group": pub} for pub in "AAZ" for i in range(2)]
    return pd.DataFrame(rows)


def test_no_publisher_is_on_both_sides_of_a_fold():
    pages = _folds_frame()
    folds = publisher_folds(pages, n_folds=4)
    group = dict(zip(pages["document"], pages["group"]))
    scored = [doc for fold in folds for doc in fold.test]
    assert sorted(scored) == sorted(pages.loc[pages["split"] == "test", "document"])  # each headline page once
    for fold in folds:
        train, test = {group[d] for d in fold.train}, {group[d] for d in fold.test}
        assert train and test and not train & test
        assert set(fold.publishers) == test
        assert {d for d in fold.train if group[d] == "Z"} == {"Z-extra-0", "Z-extra-1"}  # training-only publisher
        assert "A-extra-0" in fold.train or "A" in test
    with pytest.raises(ValueError, match="publishers"):
        publisher_folds(pages, n_folds=9)


def test_the_real_gold_folds_keep_publishers_apart(shared_data: Path):
    golds = read_gold([shared_data / "gold", shared_data / "gold-extra"])
    pages = pd.DataFrame({"document": [g["page"] for g in golds], "group": [canonical_publisher(g) for g in golds],
                          "split": ["test" if g["gold_set"] == "gold" else "train" for g in golds]})
    assert not set(pages["group"]) & SOURCE_FOLDERS, "a page still counts under its source folder"
    assert pages.loc[pages["document"].str.startswith("pages/LimeSoup/aip/"), "group"].eq("AIP Publishing").all()
    for fold in publisher_folds(pages, n_folds=5):
        train = set(pages.loc[pages["document"].isin(fold.train), "group"])
        assert not train & set(pages.loc[pages["document"].isin(fold.test), "group"])


def test_hmm_counts_nothing_across_a_masked_zone():
    hmm = ArticleHMM(smoothing=0.0).fit([["Title", "Title", None, "Authors", "Authors"], [None, "Abstract"]])
    title, authors, abstract = STATE_INDEX["Title"], STATE_INDEX["Authors"], STATE_INDEX["Abstract"]
    assert hmm.transmat_[title, title] == 1.0 and hmm.transmat_[title, authors] == 0.0
    assert hmm.startprob_[title] == 1.0 and hmm.startprob_[abstract] == 0.0
    assert hmm.n_sequences_ == 2


def test_masked_fields_are_not_learned_as_other():
    """Most training pages' gold does not cover affiliations: their address zones are labelled other
    but unscored for affiliations. Masked, the labeller still learns affiliations from the few pages
    that show them; taken as other, it learns addresses as other."""
    pages = []
    for i in range(30):
        page = pd.DataFrame(synthetic_page(i))
        if i >= 4:  # no affiliations gold on this page
            page["label"] = page["label"].replace("affiliations", "other")
            page["unscored"] = np.where(page["label"] == "other", "affiliations", None)
        pages.append(page)
    train = pd.concat(pages, ignore_index=True)
    fresh = pd.DataFrame(synthetic_page(99))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        masked = ZoneLabeler(emission=NaiveBayesEmission(n_bins=3)).fit(train)
        as_other = ZoneLabeler(emission=NaiveBayesEmission(n_bins=3)).fit(train.drop(columns="unscored"))
    address = fresh.index[fresh["label"] == "affiliations"]
    assert masked.training_summary_["masked_zones"] == int(train["unscored"].notna().sum())
    assert as_other.training_summary_["masked_zones"] == 0
    assert (masked.predict(fresh)[address] == "affiliations").all()
    assert (as_other.predict(fresh)[address] == "other").all()
    assert (masked.predict(fresh) == fresh["label"]).mean() > 0.9


@pytest.fixture(scope="module")
def small_gold(shared_data: Path, scorer, tmp_path_factory) -> tuple[Path, Path, pd.DataFrame]:
    """The gold dataset of :data:`SMALL_GOLD` (its gold folder, dataset folder and manifest)."""
    gold = tmp_path_factory.mktemp("gold") / "gold"
    for name in SMALL_GOLD:
        (gold / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared_data / "gold" / name, gold / name)
    out = tmp_path_factory.mktemp("gold-dataset")
    manifest = build_gold([gold], out, data_root=shared_data, scorer=scorer, workers=1)
    return gold, out, manifest


@pytest.mark.slow
def test_gold_dataset_labels_the_ranged_zones(small_gold, shared_data: Path):
    _, out, manifest = small_gold
    zones = pd.read_parquet(out / "zones.parquet")
    assert manifest["render_error"].isna().all() and set(manifest["split"]) == {"test"}
    assert set(manifest["group"]) == {"First Monday", "PubMed Central"}
    for name in SMALL_GOLD:
        gold = json.loads((shared_data / "gold" / name).read_text(encoding="utf-8"))
        page = zones[zones["document"] == gold["page"]].reset_index(drop=True)
        assert page.loc[zone_indices(gold["zones"]["title"]), "label"].eq("title").all()
        assert " ".join(page.loc[page["label"] == "title", "text"]).split() == gold["title"].split()
        assert "unscored" not in page  # reviewed gold is complete: nothing is masked
        assert set(page["label"]) <= {"other", *gold["fields_scored"]}
    pmc = manifest.set_index("group").loc["PubMed Central"]
    assert pmc["check_title"] == 1.0 and pmc["check_references"] == 1.0 and "affiliations" not in pmc["fields"]


@pytest.mark.slow
def test_project_scores_agree_with_score_pages(small_gold, shared_data: Path, scorer, tmp_path: Path):
    """Labels scored through the project (crossval's per-page results and summary) give what the
    scorer's own command gives on the same records written as JSON lines."""
    gold_dir, out, manifest = small_gold
    zones = pd.read_parquet(out / "zones.parquet")
    rng = np.random.default_rng(0)
    results, lines = [], []
    for row in manifest.itertuples():
        page = zones[zones["document"] == row.document]
        labels = page["label"].to_numpy(dtype=object).copy()
        flip = rng.random(len(labels)) < 0.3  # a labeller that is right most of the time
        labels[flip] = rng.choice(["other", "authors", "references", "abstract"], flip.sum())
        predicted = [{"label": lab, "text": text} for lab, text in zip(labels, page["text"])]
        gold = json.loads(Path(row.gold_file).read_text(encoding="utf-8"))
        results.append(_page_result(scorer, gold, row.group, predicted))
        lines.append(json.dumps({"source": str(shared_data / row.document), "zones": predicted}))
    (tmp_path / "labels.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    scorer.main(["--records", str(tmp_path / "labels.jsonl"), "--gold", str(gold_dir), "--root", str(shared_data),
                 "--json", str(tmp_path / "scores.json")])
    expected = json.loads((tmp_path / "scores.json").read_text(encoding="utf-8"))
    ours = GoldCV({"x": results}, folds=[], settings={}).summary(scorer)["x"]
    assert ours == expected["summary"]
    assert any(s["F1_micro"] < 1 for s in ours.values())  # the flips show


def test_publisher_chart_draws_every_system(scorer, shared_data: Path, tmp_path: Path):
    gold = json.loads((shared_data / "gold" / SMALL_GOLD[0]).read_text(encoding="utf-8"))
    right = [{"label": "title", "text": gold["title"]}]
    wrong = [{"label": "title", "text": "Something else entirely"}]
    pages = {name: [{"page": gold["page"], "publisher": "P", "labels": scorer.score_page(gold, zones)[0]}]
             for name, zones in (("cv", right), ("shipped", wrong))}
    path = tmp_path / "chart.png"
    plot_publishers(GoldCV(pages, [], {}), scorer, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_the_zone_ceiling_labels_what_raises_each_field(scorer):
    gold = {"fields_scored": ["title", "authors", "references"], "title": "Cells in culture",
            "authors": ["Jane Doe", "John Roe"], "references": ["Doe J, Roe J. Cells. Nature 2001."]}
    texts = ["Cells in culture", "Jane Doe, MD and John Roe, PhD", "Doe J, Roe J. Cells. Nature 2001.",
             "Jane Doe", "Share this article"]
    labels = ceiling_labels(texts, gold, scorer)
    # the byline with its degrees scores more than the bare name, which then adds only words the gold
    # counts once; the entry, though it holds the names, goes to the references
    assert labels == ["title", "authors", "references", "other", "other"]
    zones = [{"label": label, "text": text} for label, text in zip(labels, texts)]
    scores = scorer.score_page(gold, zones)[0]
    assert scores["title"]["F1"] == scores["references"]["F1"] == 1.0
    assert 0.5 < scores["authors"]["F1"] < 1.0


def test_veto_ablation_leaves_each_rule_out_once():
    variants = veto_ablation(DEFAULT_VETOES)
    assert variants["cv, no vetoes"] == {"vetoes": ()}
    assert len(variants) == len(DEFAULT_VETOES) + 1
    for veto in DEFAULT_VETOES:
        kept = variants[f"cv without {veto.name}"]["vetoes"]
        assert veto not in kept and len(kept) == len(DEFAULT_VETOES) - 1


def test_a_peer_is_scored_from_the_fields_it_fills():
    from scilabel.baselines import BaselineResult

    result = BaselineResult(blocks=["Menu", "A title"], fields={"title": "A title", "authors": "Ann Lee\nBo Chen",
                                                              "abstract": ""}, model="peer")
    assert field_zones(result) == [{"label": "title", "text": "A title"},
                                   {"label": "authors", "text": "Ann Lee\nBo Chen"}]


@pytest.mark.slow
def test_gold_cross_validation_scores_every_page_out_of_fold(small_gold, scorer):
    """Two publishers, two folds: each page is scored once by a model that did not see it, with the
    zone labels kept for looking at its errors."""
    from scilabel.crossval import cross_validate_gold

    _, out, manifest = small_gold
    result = cross_validate_gold(out, [out], scorer, ZoneLabeler(emission="nb"), n_folds=2, peers=())
    assert [len(f.test) for f in result.folds] == [1, 1] and all(len(f.train) == 1 for f in result.folds)
    pages = result.pages["cv"]
    assert sorted(p["page"] for p in pages) == sorted(manifest["document"])
    zones = pd.read_parquet(out / "zones.parquet")
    for page in pages:
        assert len(page["zone_labels"]) == (zones["document"] == page["page"]).sum()
        assert set(page["zone_labels"]) <= set(LABELS)
    summary = result.summary(scorer)
    assert set(summary["cv"]) >= {"title", "references"}
    assert all(summary[CEILING][f]["F1_micro"] >= summary["cv"][f]["F1_micro"] for f in summary["cv"])


@pytest.mark.slow
def test_evaluate_scores_section_headings_against_the_reviewed_heading_gold(small_gold, shared_data, tmp_path, capsys):
    from scilabel.cli import main

    _, out, manifest = small_gold
    main(["evaluate", "--model", "svm", "--data", str(out), "--structure-gold", str(shared_data / "gold-structure"),
          "--out", str(tmp_path)])
    table = pd.read_csv(tmp_path / "structure_headings.csv")
    assert "section headings" in capsys.readouterr().out
    row = table.iloc[0]
    assert row["system"] == "scilabel-svm" and 1 <= row["pages"] <= len(manifest) and row["gold"] > 0
    assert 0 < row["f1"] <= 1 and 0 <= row["level_accuracy"] <= 1
