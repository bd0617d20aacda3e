import numpy as np

from scilabel.constraints import byline_captions, constrain
from scilabel.labels import STATE_INDEX, STATES


def test_byline_captions_are_captions_and_nothing_else():
    texts = ["Authors", "Authors and affiliations", "Corresponding Author", "Correspondence:", "Author information ▼",
             "AUTHORS", " Affiliation ", "Author(s)", "Addresses", "Affiliation(s):",
             "Authors: Li Sun, Datao Wang", "and", "Authors’ contributions", "About the authors", "Authority",
             "Author information and affiliations details " * 2, None, "Addressee", "Author(s) Li Sun"]
    assert byline_captions(texts).tolist() == [True] * 10 + [False] * 9


def test_constrain_bars_names_and_addresses_for_captions_only():
    log_emission = np.zeros((3, len(STATES)))
    out = constrain(log_emission, ["Li Sun", "Authors", "Department of Biology"])
    assert out is log_emission
    barred = np.isneginf(out)
    assert barred[1, [STATE_INDEX["Authors"], STATE_INDEX["Affiliations"]]].all() and barred.sum() == 2
