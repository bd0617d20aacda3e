"""The block model's page features that read a zone's markup and its line."""
from __future__ import annotations

import random

import numpy as np
import pandas as pd

from scilabel.structure.features import page_features
from scilabel.structure.model import HEADING_ONLY, BlockModel
from scilabel.structure.training import fit_rows, page_rows

TEXT = ("Cells were grown in standard medium for three days before they were counted, and the counts were "
        "compared across the four conditions.")
#: Words of made-up section titles.
WORDS = ("growth", "counts", "staining", "limits", "assay", "controls", "yield", "samples", "imaging", "tissue",
         "survival", "markers", "dose", "timing", "cultures", "variance", "cohort", "outcome")


def _page(body: list[tuple[str, str]]) -> pd.DataFrame:
    """A title, then ``body``'s (text, container step) zones, all in body type."""
    rows = [("Growth of cells in standard medium", "title", "h1.article-title")]
    rows += [(text, "other", step) for text, step in body]
    return pd.DataFrame([{"text": text, "label": label, "font_size": 16.0, "font_weight": 400, "x": 200.0,
                          "y": 60.0 * i, "w": 700.0, "h": 40.0, "link_chars": 0, "italic_chars": 0, "sup_chars": 0,
                          "tag_path": "html/body/div/div", "class_path": f"html/body/div.main/{step}#sec-{i}"}
                         for i, (text, label, step) in enumerate(rows)])


def test_a_zone_knows_the_zones_its_template_sets_alike() -> None:
    frame, _, _ = page_features(_page([("Methods", "div.heading-text"), (TEXT, "p.para"), (TEXT, "p.para"),
                                       ("Results", "div.heading-text"), (TEXT, "p.para"),
                                       ("Comment", "div.heading-text")]), ["title"] + ["other"] * 6)
    peers, lines = frame["markup_peers"].to_numpy(), frame["markup_lines"].to_numpy()
    assert np.allclose(peers, np.log1p([2, 2, 2, 2, 2, 2]))  # ids differ, the element's name does not
    assert np.allclose(lines[[0, 3, 5]], 1.0) and np.allclose(lines[[1, 2, 4]], 0.0)


def test_a_zone_alone_in_its_element_has_no_peers() -> None:
    frame, _, _ = page_features(_page([("Methods", "div.heading-text"), (TEXT, "p.para")]), ["title", "other", "other"])
    assert (frame["markup_peers"] == 0).all() and frame["markup_lines"].isna().all()


def test_on_a_page_without_markup_zones_set_in_one_type_are_peers() -> None:
    page = _page([("Methods", ""), (TEXT, ""), ("Results", ""), (TEXT, ""), ("Comment", "")]).assign(class_path="")
    page.loc[[1, 3, 5], ["font_size", "font_weight"]] = [20.0, 700]  # the titles, in a type of their own
    frame, _, _ = page_features(page, ["title"] + ["other"] * 5)
    assert np.allclose(frame["markup_peers"], np.log1p([2, 1, 2, 1, 2]))
    assert np.allclose(frame["markup_lines"], [1.0, 0.0, 1.0, 0.0, 1.0])


def test_a_zone_knows_when_it_shares_its_line() -> None:
    page = _page([("Methods", "h2"), ("Dose", "td"), ("Ten milligrams a day", "td"), (TEXT, "p")])
    page.loc[3, ["x", "y", "w"]] = [920.0, page.loc[2, "y"], 300.0]  # the row's second cell, right of the first
    page.loc[2, "w"] = 300.0
    frame, _, _ = page_features(page, ["title"] + ["other"] * 4)
    assert frame["side_by_side"].tolist() == [0.0, 1.0, 1.0, 0.0]


def _annotated_page(rng: random.Random, markup: bool) -> pd.DataFrame:
    """A page whose section titles are set in body type, as are the one-line paragraphs of its sections,
    told apart only by the element each sits in (``markup``; the same words make both, between
    paragraphs both): four sections of a title and paragraphs, one of them a line."""
    def line() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))).capitalize()

    body = []
    for _ in range(4):
        body += [(line(), "div.heading-text", "heading"), *[(TEXT, "p.para", "paragraph")] * rng.randint(1, 2),
                 (line(), "p.para", "paragraph"), *[(TEXT, "p.para", "paragraph")] * rng.randint(1, 2)]
    page = _page([(text, step) for text, step, _ in body])
    page["struct"] = [None] + [struct for _, _, struct in body]
    page["content"] = page["struct"].notna()
    return page if markup else page.assign(class_path="")


def test_the_heading_ensembles_learn_titles_in_body_type_from_their_markup() -> None:
    rng = random.Random(0)
    pages = [page_rows(_annotated_page(rng, markup=True)).assign(page=k) for k in range(30)]
    rows = pd.concat(pages, ignore_index=True)
    model = fit_rows(BlockModel(max_iter=30, real_expert=False), rows)
    assert not set(HEADING_ONLY) & set(model.kind_.feature_names_in_)  # the kind ensemble does not read them
    for markup in (True, False):  # without markup a title cannot be told from a one-line paragraph
        new = page_rows(_annotated_page(random.Random(1), markup))
        found = model.predict(new.drop(columns=["row", "kind", "known", "level"])) == "heading"
        assert found.tolist() == ((new["kind"] == "heading") & markup).tolist()
