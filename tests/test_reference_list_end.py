"""Where the reference list ends on a page that lists citing articles under a heading after it."""
from __future__ import annotations

import pytest

from scilabel.persistence import load_model, model_path
from scilabel.rules.vetoes import without
from scilabel.zones import collect_zones, zones_frame

ENTRIES = [
    ("Okafor B, Silva A", "Root growth in dry soil.", "J Plant Ecol. 2001;12:33-41."),
    ("Chen L, Dahl C", "Water uptake by fine roots.", "New Phytol. 2005;168:101-109."),
    ("Ekholm P", "Drought and root hairs.", "Plant Soil. 2010;331:15-24."),
    ("Nakamura K, Lee J", "Soil cores revisited.", "Ecology. 2012;93:770-781."),
    ("Varga T", "Roots under stress.", "Oecologia. 2014;176:1-12."),
]
CITING = [
    ("Deep roots in a dry year", "2023, Journal of Arid Environments", "Mina Park, …, Jun Kim"),
    ("Root traits across a rainfall gradient", "2022, Functional Ecology", "Sara Holm, Ole Berg"),
    ("A meta-analysis of root depth", "2021, Global Change Biology", "Li Wei, …, Tom Hart"),
]


def lines(*texts: str) -> str:
    return "".join(f"<div>{t}</div>" for t in texts)


PAGE = f"""<!DOCTYPE html><html><head><style>body {{ font: 16px serif; width: 900px; }}
h1 {{ font-size: 30px; }} h2 {{ font-size: 24px; }} .refs li {{ margin-bottom: 8px; }}</style></head><body>
<h1>Seasonal growth of roots in dry soil</h1><p>Ana Silva, Ben Okafor</p>
<p>Department of Biology, Lund University, Lund, Sweden</p>
<h2>Abstract</h2><p>{"We measured the roots of grasses in dry soil over two seasons and found them deeper. " * 4}</p>
<h2>Introduction</h2><p>{"Roots respond to water in the soil, and their depth follows the rain of the season. " * 8}</p>
<h2>References</h2><ol class="refs">{"".join(f"<li>{lines(*e)}</li>" for e in ENTRIES)}</ol>
<h2>Cited by (3)</h2><ul class="refs">{"".join(f"<li>{lines(*c)}</li>" for c in CITING)}</ul>
<p>© 2024 Example Press. All rights reserved.</p></body></html>"""


@pytest.fixture(scope="module")
def page(renderer):
    rendered = renderer.render(PAGE)
    return zones_frame(collect_zones(rendered), rendered).assign(document="roots")


def test_a_heading_after_the_references_ends_them(page):
    labeler = load_model(model_path("svm"))
    cited_by = page.index[page["text"] == "Cited by (3)"][0]
    entries = page["text"].isin([t for e in ENTRIES for t in e])
    labels = labeler.predict(page)
    # a short title line may be BR, and the last entry's lines end matter: the path must leave the list
    # by the heading, and leaves it where the emission holds the lines least like references
    assert (labels[entries.to_numpy()] == "references").mean() >= 0.8
    assert (labels[cited_by:] != "references").all()
    # without the rule the References/BR loop reads the citing articles as more references
    loose = labeler.set_params(vetoes=without(labeler.vetoes, "heading_ends_references")).predict(page)
    assert (loose[cited_by + 1:] == "references").any()
