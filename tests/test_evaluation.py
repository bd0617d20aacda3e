"""Scores (metrics.py) and side-by-side evaluation (evaluation.py) on hand-made data."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scilabel.evaluation import evaluate
from scilabel.metrics import confusion, token_counts, token_scores, zone_scores


def test_zone_scores_by_hand():
    gold = ["title", "authors", "authors", "other", "references"]
    pred = ["title", "authors", "other", "authors", "references"]
    s = zone_scores(gold, pred, ["title", "authors", "abstract"])
    assert s.loc["title", "f"] == 1.0
    assert s.loc["authors", "precision"] == 0.5 and s.loc["authors", "recall"] == 0.5
    assert np.isnan(s.loc["abstract", "f"]) and s.loc["abstract", "support"] == 0  # absent both sides: undefined
    assert confusion(gold, pred).loc["authors", "other"] == 1


def test_token_scores_are_multisets_micro_averaged():
    assert token_counts("The cat, the HAT", "the the cat dog") == (3, 4, 4)
    pages = [("p1", {"title": "a b c"}, {"title": "a b"}, {"title"}),
             ("p2", {"title": "d e"}, {"title": "d e f g"}, {"title"}),
             ("p3", {"title": "x"}, {"title": ""}, set())]  # p3 does not cover title: not scored
    table, per_page = token_scores(pages, ["title"])
    assert table.loc["title", "precision"] == pytest.approx(4 / 6)
    assert table.loc["title", "recall"] == pytest.approx(4 / 5)
    assert list(per_page["document"]) == ["p1", "p2"]


@pytest.fixture()
def dataset(tmp_path):
    rows = []
    for page in ("a", "b"):
        for k, label in enumerate(["other", "title", "authors", "abstract", "other", "references"]):
            rows.append({"document": page, "split": "test", "group": f"fam-{page}", "label": label,
                         "text": f"{label} words {page} {k}", "content": False})
    pd.DataFrame(rows).to_parquet(tmp_path / "zones.parquet")
    pd.DataFrame({"document": ["a", "b"], "fields": ["title authors abstract references", "title"]}).to_csv(
        tmp_path / "manifest.csv", index=False)
    return tmp_path


def test_evaluate_perfect_null_and_silver_masks(dataset):
    systems = {"perfect": lambda f: list(f["label"]), "null": lambda f: ["other"] * len(f)}
    result = evaluate(systems, [dataset])
    zone = result.summary.set_index(["system", "level"])
    assert zone.loc[("perfect", "zone"), ["title", "authors", "abstract", "references"]].tolist() == [100.0] * 4
    assert zone.loc[("null", "zone"), "title"] == 0.0
    details = result.details
    # page b only covers title: its authors zone is not counted
    authors = details[(details.system == "perfect") & (details.level == "zone") & (details.label == "authors")
                      & (details.group == "all")]
    assert authors["support"].tolist() == [1]
    assert set(result.by_group["group"]) == {"fam-a", "fam-b"}
    assert result.confusions["null"].loc["title", "other"] == 2
    assert np.isfinite(result.summary["ms_per_page"]).all()
    # real pages mark no main content: it is not scored rather than scored as missed
    assert result.summary.get("content", pd.Series(dtype=float)).isna().all()


def test_unscored_zones_count_for_no_label(tmp_path):
    rows = [{"document": "a", "split": "test", "group": "g", "label": label, "text": f"zone {k}", "unscored": unscored}
            for k, (label, unscored) in enumerate([("abstract", None), ("other", "abstract"), ("other", None)])]
    pd.DataFrame(rows).to_parquet(tmp_path / "zones.parquet")
    pd.DataFrame({"document": ["a"], "fields": ["abstract"]}).to_csv(tmp_path / "manifest.csv", index=False)
    systems = {"runs_on": lambda f: ["abstract", "abstract", "other"],  # the zone of unknown gold: not a miss
               "runs_past": lambda f: ["abstract", "abstract", "abstract"]}
    zone = evaluate(systems, [tmp_path]).summary.set_index(["system", "level"])
    assert zone.loc[("runs_on", "zone"), "abstract"] == 100.0
    assert zone.loc[("runs_on", "token"), "abstract"] == 100.0
    assert zone.loc[("runs_past", "zone"), "abstract"] == round(100 * 2 / 3, 1)  # one false of two predicted
