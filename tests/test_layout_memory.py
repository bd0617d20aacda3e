"""The layout memory: remembered pages' labels as evidence for pages of their template, and nothing
for other layouts."""
from __future__ import annotations

import copy
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone

from scilabel.emission import NaiveBayesEmission
from scilabel.labeler import ZoneLabeler
from scilabel.layout_memory import KEY_STEPS, LayoutMemory, layout_keys
from scilabel.schema import LABELS

AUTHORS = LABELS.index("authors")
OTHER = LABELS.index("other")
BYLINE = "html/body.article/div.wrap/header.head/ul.names/li.name"
BODY = "html/body.article/div.wrap/main.text/p"
NOTE = "html/body.article/div.wrap/aside.notes/p"


def test_keys_are_the_last_steps_of_the_class_path():
    assert layout_keys([BYLINE, "", None, "html/body"]) == ["div.wrap/header.head/ul.names/li.name", "", "", "html/body"]
    assert layout_keys([BYLINE], 2) == ["ul.names/li.name"]
    assert all(len(k.split("/")) <= KEY_STEPS[0] for k in layout_keys([BYLINE, BODY]))


def remembered(n_pages: int = 3) -> LayoutMemory:
    keys, labels, docs = [], [], []
    for page in range(n_pages):
        for path, label, repeat in ((BYLINE, "authors", 3), (BODY, "other", 10), (NOTE, "other", 2)):
            keys += [path] * repeat
            labels += [label] * repeat
            docs += [f"r{page}"] * repeat
    return LayoutMemory().fit(keys, labels, docs)


def test_a_page_of_the_template_gets_the_remembered_labels():
    memory = remembered()
    evidence = memory.log_ratio([BYLINE, BODY, "html/body.article/div.wrap/footer.new/p"])
    assert evidence[0, AUTHORS] > 1 and evidence[0, OTHER] < -1
    assert evidence[1, OTHER] > 0 and evidence[1, AUTHORS] < -1
    assert not evidence[2].any()  # a key the template never showed says nothing
    assert np.abs(evidence).max() <= -np.log(memory.floor) + 1e-9


def test_another_layout_gets_nothing():
    memory = remembered()
    other_site = ["html/body/div.page/div.byline/span.author", "html/body/div.page/div.content/p", BODY]
    # one telling key of three is shared: under min_shared, no remembered page speaks for this page
    assert not memory.log_ratio(other_site).any()
    assert memory.set_params(min_shared=0.3).log_ratio(other_site)[2].any()


def test_nothing_remembered_gives_no_evidence():
    memory = LayoutMemory().fit([], [], [])
    assert memory.n_pages_ == 0 and not memory.log_ratio([BYLINE]).any()


def test_an_unseen_key_backs_off_to_its_last_two_steps():
    """The byline's list item under a wrapper that gained an id on this page still reads as authors."""
    memory = remembered()
    moved = BYLINE.replace("header.head", "header.head#top")
    evidence = memory.log_ratio([moved, BODY, NOTE])
    assert evidence[0, AUTHORS] > 1
    np.testing.assert_allclose(evidence[0], memory.log_ratio([BYLINE, BODY, NOTE])[0])


def zone(text, label, y, path):
    return {"text": text, "label": label, "x": 40.0, "y": float(y), "w": 600.0, "h": 19.0, "font_size": 16.0,
            "font_weight": 400, "link_chars": 0, "sup_chars": 0, "italic_chars": 0, "class_path": path}


def page(doc: str, names: str) -> list[dict]:
    rows = [zone("Effects of drought on root growth", "title", 0, "html/body.article/div.wrap/header.head/h1"),
            zone(names, "authors", 40, BYLINE),
            *(zone("we measured the samples and analysed them with the method", "other", 80 + 40 * k, BODY)
              for k in range(4))]
    return [dict(r, document=doc) for r in rows]


def test_the_labeler_reads_a_remembered_template_and_can_forget_it():
    """Zone by zone, a byline of words never seen reads as authors far more surely when the labeller
    remembers pages of the template; with ``layout_memory=0`` it reads as if it remembered nothing."""
    frame = pd.DataFrame([*page("r0", "Ana Silva and Bo Chen"), *page("r1", "Carl Dahl and Dora Eng")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = ZoneLabeler(emission=NaiveBayesEmission(n_bins=3), sequence=False).fit(frame)
        remembering = clone(plain).fit(frame, remembered=["r0", "r1"])
    new = pd.DataFrame(page("n0", "Qwe Rty"))
    assert plain.training_summary_["remembered_pages"] == 0 and remembering.training_summary_["remembered_pages"] == 2
    gain = remembering.predict_proba(new)[1, AUTHORS] - plain.predict_proba(new)[1, AUTHORS]
    assert gain > 0.3
    forgetting = copy.copy(remembering).set_params(layout_memory=0.0)
    np.testing.assert_allclose(forgetting.predict_proba(new), plain.predict_proba(new))
