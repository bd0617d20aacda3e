"""scilabel's page scores agree with the shared data's reference scorer on every page of its gold."""
from __future__ import annotations

import json

import pytest

from scilabel import page_scores
from scilabel.corpus.gold import read_gold


def _predictions(gold: dict) -> dict[str, list[dict]]:
    """Zone predictions of several kinds built from a page's gold texts: right, crossed, noisy, none."""
    text = {label: page_scores.gold_text(gold, label) for label in page_scores.SCORED}
    right = [{"label": label, "text": value} for label, value in text.items()]
    crossed = [{"label": "authors", "text": text["affiliations"] + " " + text["authors"]},
               {"label": "affiliations", "text": text["title"]},
               {"label": "title", "text": text["title"][: len(text["title"]) // 2]},
               {"label": "references", "text": text["abstract"]},
               {"label": "abstract_heading", "text": "Abstract"}]
    noisy = [{"label": "title", "text": text["title"]},
             {"label": "references", "text": "https://doi.org/10.1000/x1 CrossRef Google Scholar 1, 2a Bé"},
             {"label": "authors", "text": "Keskin1,2 and ÉMILE b Ünal"}, {"label": "unknown", "text": "x"},
             {"label": "title", "text": None}, "not a zone"]
    return {"right": right, "crossed": crossed, "noisy": noisy, "none": []}


def test_same_scores_as_the_reference_on_the_shared_gold(shared_data, scorer):
    golds = read_gold([shared_data / "gold"])
    assert len(golds) >= 80
    results: dict[str, tuple[list, list]] = {}
    for gold in golds:
        for kind, zones in _predictions(gold).items():
            ours, theirs = page_scores.score_page(gold, zones), scorer.score_page(gold, zones)
            assert json.dumps(ours, sort_keys=True) == json.dumps(theirs, sort_keys=True), (gold["page"], kind)
            mine, ref = results.setdefault(kind, ([], []))
            mine.append({"labels": ours[0]})
            ref.append({"labels": theirs[0]})
    for kind, (mine, ref) in results.items():
        assert page_scores.aggregate(mine) == scorer.aggregate(ref), kind
    assert page_scores.aggregate(results["right"][0])["authors"]["F1_micro"] == 1.0


@pytest.mark.parametrize("label, text, expected", [
    ("authors", "Keskin1,2 Jane E. Ladner a", ["keskin", "jane", "e", "ladner"]),
    ("references", "Smith J. Nature. doi:10.1038/x12 PubMed Google Scholar", ["smith", "j", "nature"]),
    ("title", "Ǆemal’s ﬁrst", ["džemal", "s", "first"]),
])
def test_tokens(label, text, expected, scorer):
    assert page_scores.tokens(text, label) == expected == scorer.tokens(text, label)
