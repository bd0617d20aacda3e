"""Property test: on generated HTML the collector never crashes, keeps DOM order, and every
visible word lands in exactly one zone (each word is a unique token, so the check is exact)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scilabel.zones import collect_zones

CONTAINERS = ["div", "span", "section", "em", "b", "sup", "li-list", "table"]
DISPLAYS = [None, None, None, "block", "inline", "inline-block", "flex", "contents", "none"]
VISIBILITY = [None, None, None, None, "hidden", "visible"]


@dataclass
class El:
    tag: str
    display: str | None
    visibility: str | None
    children: list = field(default_factory=list)  # El | str (a word) | "<br>"


def trees(max_leaves: int = 25):
    leaf = st.one_of(st.just("WORD"), st.just("WORD"), st.just("<br>"))

    def extend(children):
        return st.builds(
            lambda tag, disp, vis, kids: El(tag, disp, vis, kids),
            st.sampled_from(CONTAINERS), st.sampled_from(DISPLAYS), st.sampled_from(VISIBILITY),
            st.lists(children, min_size=1, max_size=4),
        )

    return st.lists(st.recursive(leaf, extend, max_leaves=max_leaves), min_size=1, max_size=5)


def to_html(nodes, counter, visible_words, hidden: bool = False, visibility: str = "visible") -> str:
    parts = []
    for node in nodes:
        if node == "WORD":
            word = f"w{next(counter)}"
            if not hidden and visibility == "visible":
                visible_words.append(word)
            parts.append(f" {word} ")
        elif node == "<br>":
            parts.append("<br>")
        else:
            style = ""
            if node.display:
                style += f"display:{node.display};"
            if node.visibility:
                style += f"visibility:{node.visibility};"
            attr = f' style="{style}"' if style else ""
            now_hidden = hidden or node.display == "none"
            now_vis = node.visibility or visibility
            inner = to_html(node.children, counter, visible_words, now_hidden, now_vis)
            if node.tag == "li-list":
                parts.append(f"<ul{attr}><li>{inner}</li></ul>")
            elif node.tag == "table":
                parts.append(f"<table{attr}><tbody><tr><td>{inner}</td></tr></tbody></table>")
            else:
                parts.append(f"<{node.tag}{attr}>{inner}</{node.tag}>")
    return "".join(parts)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(trees())
def test_every_visible_word_in_exactly_one_zone_in_dom_order(renderer, forest):
    visible: list[str] = []
    html = "<html><body>" + to_html(forest, itertools.count(), visible) + "</body></html>"
    zones = collect_zones(renderer.render(html))
    words = [w for z in zones for w in z.text.split()]
    assert words == visible, html
    assert all(z.text and z.text == z.text.strip() for z in zones)
    indices = [z.dom_index for z in zones]
    assert indices == sorted(indices) and len(set(indices)) == len(indices)
