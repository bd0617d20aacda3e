"""CollectComponentZones on pages written in the tests, rendered by real Chromium."""
from __future__ import annotations

import os

from scilabel.zones import collect_zones, zones_frame


def texts(zones):
    return [z.text for z in zones]


def test_title_split_across_inline_elements_is_one_zone(zones_of):
    zones = zones_of('<h1>Effects of <a href="#">caffeine</a> on <i>Drosophila</i> sleep<sup>1</sup></h1><p>Next</p>')
    assert texts(zones) == ["Effects of caffeine on Drosophila sleep 1", "Next"]
    assert zones[0].font_weight == 700 and zones[0].font_size == 32
    assert zones[0].link_chars == len("caffeine") and zones[0].sup_chars == 1
    assert zones[0].italic_chars == len("Drosophila")


def test_a_run_in_title_is_measured_as_the_zone_s_lead(zones_of):
    zones = zones_of("<p><strong>Statistical analysis.</strong> Data were pooled.</p>"
                     "<p><em>Subjects.</em> Twelve adults took part.</p>"
                     "<p>Plain text with <b>bold</b> inside.</p><p><b>All bold.</b></p>")
    assert [z.lead_chars for z in zones] == [len("Statistical analysis."), len("Subjects."), 0, 0]


def test_block_inside_inline_content_breaks_the_zone(zones_of):
    zones = zones_of("<p>before <span>inside <div>block</div> after</span> end</p>")
    assert texts(zones) == ["before inside", "block", "after end"]


def test_computed_display_overrides_tag_defaults(zones_of):
    zones = zones_of(
        '<p>one <span style="display:block">two</span> three</p>'
        '<div>four <div style="display:inline">five</div> six</div>'
    )
    assert texts(zones) == ["one", "two", "three", "four five six"]


def test_inline_formula_stays_in_its_sentence_and_a_display_formula_is_one_zone(zones_of):
    zones = zones_of('<p>Lasers at <math display="inline"><mrow><mn>1.3</mn><mtext>\u2002</mtext><mi>\u03bc</mi>'
                     '<mtext>m</mtext></mrow></math> and more</p><math display="block"><mi>E</mi><mo>=</mo>'
                     '<mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math><p>After</p>')
    # every MathML token computes to display "block math"; only the formula's own display counts
    assert texts(zones) == ["Lasers at 1.3 \u03bcm and more", "E = mc2", "After"]


def test_flex_items_are_blockified(zones_of):
    zones = zones_of('<div style="display:flex"><span>left</span><span>right</span></div>')
    assert texts(zones) == ["left", "right"]


def test_br_splits_lines(zones_of):
    zones = zones_of("<p>Jane Doe<br>Dept. of Physics<br/><br>Example University</p>")
    assert texts(zones) == ["Jane Doe", "Dept. of Physics", "Example University"]


def test_hidden_content_yields_nothing(zones_of):
    zones = zones_of(
        "<style>.sr{position:absolute;width:1px;height:1px;overflow:hidden;}</style>"
        "<p>shown</p>"
        '<p style="display:none">nodisplay</p>'
        '<p style="visibility:hidden">invisible</p>'
        '<p class="sr">screenreader</p>'
        '<p style="position:absolute;left:-9999px">offpage</p>'
        '<p style="opacity:0">transparent</p>'
        '<div style="visibility:hidden">hidden <span style="visibility:visible">revived</span></div>'
        "<p>   \n\t  </p><p>&nbsp;</p>"
    )
    assert texts(zones) == ["shown", "revived"]


def test_nested_tables_and_lists(zones_of):
    zones = zones_of(
        "<table><tr><td>outer a</td><td><table><tr><td>inner <b>b</b></td><td>inner c</td></tr></table></td></tr></table>"
        "<ul><li>item one<ul><li>sub <i>one</i></li><li>sub two</li></ul></li><li>item two</li></ul>"
    )
    assert texts(zones) == ["outer a", "inner b", "inner c", "item one", "sub one", "sub two", "item two"]
    assert zones[1].tag_path.endswith("table/tbody/tr/td/table/tbody/tr/td")
    # node_path names the same elements by DOM index: "sub one" and "sub two" share their inner list,
    # "item one" and "item two" only the outer one
    paths = [z.node_path.split("/") for z in zones]
    assert all(len(p) == len(z.tag_path.split("/")) for p, z in zip(paths, zones))
    shared = [len(os.path.commonprefix([a, b])) for a, b in zip(paths, paths[1:])]
    assert shared[4] > shared[3] and shared[4] > shared[5]  # (sub one, sub two) against their neighbours
    assert len(os.path.commonprefix([paths[3], paths[6]])) == len(paths[6]) - 1  # the two items: same list


def test_visual_gap_between_inline_boxes_separates_words(zones_of):
    zones = zones_of(
        '<nav><a href="#">Home</a><a href="#" style="margin-left:12px">Archive</a></nav><p>H<sub>2</sub>O</p>'
        "<p>Ana Naeije<sup>a,</sup><sup>b</sup>, Bo Li<sup>*</sup> and Cy Ode<sup>1,2</sup></p>"
    )
    assert texts(zones) == ["Home Archive", "H2O", "Ana Naeije a,b, Bo Li* and Cy Ode 1,2"]


def test_geometry_and_order(zones_of):
    zones = zones_of('<h1>Title</h1><p style="font-size:12px">small text</p><p style="margin-left:100px">indented</p>')
    title, small, indented = zones
    assert title.bbox[1] < small.bbox[1] < indented.bbox[1]
    assert small.font_size == 12
    assert indented.bbox[0] >= 100
    assert all(w > 0 and h > 0 for _, _, w, h in (z.bbox for z in zones))
    assert [z.dom_index for z in zones] == sorted(z.dom_index for z in zones)


def test_gold_labels_come_from_nearest_annotated_ancestor(zones_of):
    zones = zones_of(
        '<div data-scilabel="references"><p data-scilabel-ref="r1">Ref one</p>'
        '<p data-scilabel="other">[PubMed]</p><p data-scilabel-ref="r2">Ref two</p></div>'
        '<p data-scilabel-content="1">See <a data-scilabel-cite="r1 r2">[1, 2]</a>.</p><p>plain</p>'
    )
    assert [(z.text, z.label) for z in zones] == [
        ("Ref one", "references"), ("[PubMed]", "other"), ("Ref two", "references"),
        ("See [1, 2].", "other"), ("plain", "other"),
    ]
    assert zones[0].ref_id == "r1" and zones[2].ref_id == "r2"
    assert zones[3].cites == ("r1", "r2") and zones[3].content and not zones[4].content
    assert all("scilabel" not in z.text for z in zones)


def test_unannotated_page_has_no_gold(zones_of):
    assert [z.label for z in zones_of("<h1>A</h1><p>B</p>")] == [None, None]


def test_zones_frame_has_one_row_per_zone(renderer):
    page = renderer.render("<h1>T</h1><p>one</p><p>two</p>")
    zones = collect_zones(page)
    frame = zones_frame(zones, page)
    assert list(frame["text"]) == ["T", "one", "two"]
    assert {"x", "y", "w", "h", "font_size", "tag_path", "label", "page_width"} <= set(frame.columns)
    assert frame.loc[1, "y"] == zones[1].bbox[1]


def test_empty_page_has_no_zones(zones_of):
    assert zones_of("") == []
    assert zones_of("<html><body>  </body></html>") == []


def test_object_fallback_content_is_read(zones_of):
    # a self-closed <object/> is not void in HTML: what follows becomes its fallback content,
    # which the browser shows because the object's own resource is blocked
    zones = zones_of('<div><object data="x.svg" type="image/svg+xml"/><p>Article title</p><p>Body</p></div>')
    assert [z.text for z in zones] == ["Article title", "Body"]


def test_conventional_hiding_classes_hide_without_the_page_style_sheets(zones_of):
    # the page's CSS is blocked offline; the renderer's fallback rules hide what a reader never sees
    html = """<html><body><h1 class="hidden">Extra navigation</h1><span class="sr-only">Skip to content</span>
    <div class="author-popup hide">Dept. of Hidden Things</div><p class="u-visually-hidden">Screen reader</p>
    <h1 class="c-article-title">Shown title</h1><p class="hidden-xs unhide">Shown too</p></body></html>"""
    assert [z.text for z in zones_of(html)] == ["Shown title", "Shown too"]


def test_page_rules_for_hiding_classes_win_over_the_fallback(zones_of):
    html = """<html><head><style>.hidden { display: block; color: gray }</style></head>
    <body><p class="hidden">Shown by the page's own rule</p><p class="sr-only">Hidden</p></body></html>"""
    assert [z.text for z in zones_of(html)] == ["Shown by the page's own rule"]


def test_fallback_rules_apply_under_a_strict_content_security_policy(zones_of):
    html = """<html><head><meta http-equiv="Content-Security-Policy" content="style-src 'none'; script-src 'none'">
    </head><body><h2 class="visually-hidden">Hidden heading</h2><p>Visible</p></body></html>"""
    assert [z.text for z in zones_of(html)] == ["Visible"]


def test_tag_and_node_paths_name_the_same_boxes(renderer):
    """Each zone's node_path indexes the rendered nodes from the root to its container, whose tags are its
    tag_path; zones in one list item share the item's path, and the items differ only below the list."""
    page = renderer.render("<main><ol><li><b>Aaron 1990</b><div>P. Aaron. A title.</div></li>"
                           "<li><b>Bell 1991</b><div>Q. Bell. Another.</div></li></ol><p>after</p></main>")
    zones = collect_zones(page)
    for zone in zones:
        indices = [int(i) for i in zone.node_path.split("/")]
        assert indices[0] == 0 and [page.nodes[i].tag for i in indices] == zone.tag_path.split("/")
        assert all(page.nodes[b].parent == a for a, b in zip(indices, indices[1:]))
    items = [z.node_path.split("/") for z in zones[:4]]
    assert items[0][:-1] == items[1][:-1] and items[2][:-1] == items[3][:-1] and items[0][:-2] == items[2][:-2]
    assert items[0][-2] != items[2][-2] and zones[4].tag_path.endswith("main/p")


def test_class_path_names_each_box_by_tag_classes_and_id_with_numbers_blanked(renderer):
    """class_path has one step per tag_path step: the tag, its first three classes and its id,
    lower-cased, each run of digits in them written 0, so that numbered items of one template read
    alike; the tag keeps its digits."""
    page = renderer.render('<h2 class="H2">Methods</h2><main id="Main"><ol class="c-list refs x y extra"><li id="ref-12" class="Item">'
                           'P. Aaron. A title.</li><li id="ref-3" class="Item">Q. Bell. Another.</li></ol></main>')
    zones = collect_zones(page)
    assert len(zones) == 3
    for zone in zones:
        assert len(zone.class_path.split("/")) == len(zone.tag_path.split("/"))
    assert zones[0].class_path.endswith("/h2.h0")
    assert zones[1].class_path.endswith("/main#main/ol.c-list.refs.x/li.item#ref-0")
    assert zones[1].class_path == zones[2].class_path
