import numpy as np

from scilabel.constraints import (ABSTRACT_BOX_ZONES, CAPTION_BLOCK_ZONES, TITLE_RIVAL_WINDOW, abstract_boxes,
                                  above_larger_text, below_larger_text,
                                  byline_captions, caption_blocks, citation_lines, contribution_notes,
                                  correspondence_notes, dated,
                                  editor_credits, list_end_headings, measurements, related_sidebar, section_headings, sentences,
                                  site_controls, site_notices, table_row_cells)
from scilabel.schema import STATE_INDEX, STATES
from scilabel.rules.vetoes import DEFAULT_VETOES, apply_vetoes


def _texts(texts):
    return {"text": np.array(texts, dtype=object)}


def _barred(zones):
    """Which states the default vetoes bar for each zone."""
    log_emission = np.zeros((len(zones["text"]), len(STATES)))
    apply_vetoes(DEFAULT_VETOES, log_emission, zones)
    return np.isneginf(log_emission)


def test_byline_captions_are_captions_and_nothing_else():
    texts = ["Authors", "Authors and affiliations", "Corresponding Author", "Correspondence:", "Author information ▼",
             "AUTHORS", " Affiliation ", "Author(s)", "Addresses", "Affiliation(s):", "Email author", "E-mail",
             "Authors: Li Sun, Datao Wang", "and", "Authors’ contributions", "About the authors", "Authority",
             "Author information and affiliations details " * 2, None, "Addressee", "Author(s) Li Sun",
             "Email: li.sun@example.org"]
    assert byline_captions(_texts(texts)).tolist() == [True] * 12 + [False] * 10


def _sized(texts, sizes, links=None):
    return {"text": np.array(texts, dtype=object), "font_size": np.array(sizes, dtype=float),
            "link_chars": np.array(links or [0] * len(texts), dtype=float)}


def test_a_caption_block_is_what_follows_a_late_caption_up_to_a_larger_heading_or_the_next_caption():
    body = "The trial recruited 120 patients over two years and followed each of them."
    texts = [body] * 8 + ["Author information", "Xiaoping Ma", "1", "1.Institute of Metal Research, Shenyang",
                          "About this article", "Print ISSN", "Affiliations", "Dept. of Physics, Sevilla"]
    sizes = [12] * 8 + [18, 12, 12, 12, 18, 12, 18, 12]
    assert np.flatnonzero(caption_blocks(_sized(texts, sizes))).tolist() == [9, 10, 11, 15]
    # a caption in the page's first half (a byline's "Authors and affiliations" toggle) opens no block ...
    early = ["Authors and affiliations", "Xiaoping Ma", "Shenyang"] + [body] * 6
    assert not caption_blocks(_sized(early, [12] * 9)).any()
    # ... nor does a caption that is a link (a tab), and a block holds CAPTION_BLOCK_ZONES zones at most
    long = [body] * 20 + ["Affiliations"] + ["Department of Physics, Sevilla"] * (CAPTION_BLOCK_ZONES + 3)
    links = [0] * 20 + [len("Affiliations")] + [0] * (CAPTION_BLOCK_ZONES + 3)
    assert not caption_blocks(_sized(long, [12] * len(long), links)).any()
    assert caption_blocks(_sized(long, [12] * len(long))).sum() == CAPTION_BLOCK_ZONES


def _styled(texts, sizes, weights, links=None):
    return {**_sized(texts, sizes, links), "font_weight": np.array(weights, dtype=float)}


#: A page that opens with a sidebar of related articles (each a linked title and a byline), then the
#: article: its title in larger type, its byline, its abstract; then the body.
SIDEBAR = ["Related articles", "Seasonal shifts in nectar foraging", "Ada Lovelace and Li Sun",
           "Roots of arid soils", "Bo Chen", "A study of pollen loads in the wild", "Li Sun and Bo Chen",
           "Abstract", "Bees collect pollen " * 20] + ["The trial recruited 120 patients over two years."] * 10
SIDEBAR_SIZES = [16] * 5 + [32] + [16] * 13
SIDEBAR_WEIGHTS = [700] + [400] * 18


def test_a_related_sidebar_runs_from_its_heading_in_the_pages_first_half_to_the_articles_title():
    assert np.flatnonzero(related_sidebar(_styled(SIDEBAR, SIDEBAR_SIZES, SIDEBAR_WEIGHTS))).tolist() == [1, 2, 3, 4]
    # without a larger title it ends at the first prose (or an abstract heading)
    flat = [16] * len(SIDEBAR)
    assert np.flatnonzero(related_sidebar(_styled(SIDEBAR, flat, SIDEBAR_WEIGHTS))).tolist() == [1, 2, 3, 4, 5, 6]
    # a related heading that is not set as a heading, or is a link (a tab), opens none
    assert not related_sidebar(_styled(SIDEBAR, SIDEBAR_SIZES, [400] * len(SIDEBAR))).any()
    links = [len(SIDEBAR[0])] + [0] * (len(SIDEBAR) - 1)
    assert not related_sidebar(_styled(SIDEBAR, SIDEBAR_SIZES, SIDEBAR_WEIGHTS, links)).any()
    # nor does one in the page's second half (a list of citing articles after the references)
    late = ["The trial recruited 120 patients over two years."] * 20 + SIDEBAR[:5]
    assert not related_sidebar(_styled(late, [16] * 25, [400] * 20 + SIDEBAR_WEIGHTS[:5])).any()


def test_the_default_vetoes_bar_the_fields_in_a_related_sidebar():
    barred = _barred(_styled(SIDEBAR, SIDEBAR_SIZES, SIDEBAR_WEIGHTS))
    fields = [STATE_INDEX[state] for state in ("Title", "Authors", "Affiliations", "Abstract")]
    assert barred[1:5][:, fields].all()
    # the article's own head after it is free: its title may be Title, its byline Authors
    assert not barred[5, STATE_INDEX["Title"]] and not barred[6, STATE_INDEX["Authors"]]


def _boxed(texts, paths, links=None):
    return {"text": np.array(texts, dtype=object), "node_path": np.array(paths, dtype=object),
            "link_chars": np.array(links or [0] * len(texts), dtype=float)}


def test_an_abstract_box_is_the_paragraphs_in_the_box_of_an_abstract_heading():
    body = "The trial recruited 120 patients over two years and followed each of them for a year."
    texts = ["Highlights", body, "Abstract", body, "Fig. 1 shows it", body, "Keywords", body]
    paths = ["0/3/0", "0/3/1", "0/4/0", "0/4/1", "0/4/2/7", "0/4/3", "0/5/0", "0/6/1"]
    # the heading's box: paragraphs of twelve words or more, up to the first zone out of it
    assert np.flatnonzero(abstract_boxes(_boxed(texts, paths))).tolist() == [3, 5]
    # a box that holds more than an abstract (the heading's parent is the article) marks nothing ...
    long = ["Abstract"] + [body] * ABSTRACT_BOX_ZONES
    assert not abstract_boxes(_boxed(long, ["0/4/0"] + [f"0/4/{k}" for k in range(1, len(long))])).any()
    # ... nor does a heading that is a link (a tab), nor a page without DOM paths (a PDF)
    assert not abstract_boxes(_boxed(texts, paths, [0, 0, 8, 0, 0, 0, 0, 0])).any()
    assert not abstract_boxes(_texts(texts)).any()


def test_citation_lines_open_with_names_then_the_year():
    texts = ["Yang CY, Liu HM, Chen SK (2016) Reproducibility of brain morphometry. PLoS ONE 11: e0146913.",
             "Babich, A., Li, S., & Burkhardt, J. K. (2012). F-actin polymerization.",
             "van der Berg, K. & de la Cruz, M. (2001a) Roots.",
             "Wiseman R, Watt C, ten Brinke L, et al. (2012) The eyes don't have it.",  # reference particles
             "Chung-Yi Yang1, Hon-Man Liu2 and Shan-Kai Chen",          # a byline: no year
             "Yang CY (2016) Roots.",                                     # one name: no comma
             "Thus, as shown by Smith (2001), roots grow.",               # prose: lower-case words
             "Received: 4 May 2014, accepted 2015. Published",            # no comma among names
             "Cintas, J., Montes, J.M. et al. J Mater Sci (2005) 40: 3911",  # journal first: not caught
             "Zhao Y, Lin J, Xu B, 2014, Data from: MicroRNA",            # year without parentheses
             "© Wan et al. 2016", ""]
    assert citation_lines(_texts(texts)).tolist() == [True] * 4 + [False] * 8


def _zones(texts, sizes, pages=None):
    return {"text": np.array(texts, dtype=object), "font_size": np.array(sizes, dtype=float),
            "font_weight": np.full(len(texts), 400.0), **({"document": np.array(pages, dtype=object)} if pages else {})}


def test_below_larger_text_is_below_a_sentence_in_larger_type_on_its_page():
    texts = ["Journal of Bees", "Seasonal shifts in nectar foraging", "From Beepedia, the open encyclopedia",
             "Ada Lovelace", "Seasonal shifts in nectar", "A next page starts afresh here", "Small print"]
    sizes = [40, 30, 16, 24, 16, 12, 9]  # 40: three words, no rival; 24: not 1.3 times smaller than 30
    expected = [False, False, True, False, True, False, True]
    assert below_larger_text(_zones(texts, sizes, ["a"] * 5 + ["b"] * 2)).tolist() == expected
    # one page: the rivals carry on
    assert below_larger_text(_zones(texts, sizes)).tolist() == [False, False, True, False, True, True, True]
    assert below_larger_text(_zones([], [])).tolist() == []
    # a zone whose type size is unknown (0 or missing) is never below
    assert below_larger_text(_zones(texts[1:4], [30, 0, float("nan")])).tolist() == [False] * 3


def test_above_larger_text_is_a_few_lines_above_a_sentence_in_larger_type_on_its_page():
    texts = ["Archives of Psychology", "Ada Byron, Editor", "The crisis of confidence in findings", "Ada Lovelace",
             "Seasonal shifts in nectar", "Results", "Small print"]
    sizes = [16, 16, 32, 16, 24, 12, 9]  # 24: not 1.3 times larger than 32; "Results": one word, no rival
    assert above_larger_text(_zones(texts, sizes)).tolist() == [True, True, False, True, False, False, False]
    # a rival on the next page, or further down than the window, does not count
    assert above_larger_text(_zones(texts[:2] + texts[2:], sizes, ["a"] * 2 + ["b"] * 5)).tolist()[:2] == [False] * 2
    far = ["Journal of Bees"] + ["line"] * TITLE_RIVAL_WINDOW + ["Seasonal shifts in nectar foraging"]
    assert above_larger_text(_zones(far, [16] * (len(far) - 1) + [32])).tolist()[:2] == [False, True]
    assert above_larger_text(_zones([], [])).tolist() == []
    assert above_larger_text(_zones(texts[:3], [0, float("nan"), 32])).tolist() == [False] * 3


def test_the_default_vetoes_bar_the_title_around_a_sentence_in_larger_type():
    texts = ["Archives of Psychology", "The crisis of confidence in findings", "From Beepedia, the open encyclopedia"]
    barred = _barred(_zones(texts, [16, 32, 16]))
    assert barred[:, STATE_INDEX["Title"]].tolist() == [True, False, True]


def test_the_default_vetoes_bar_names_and_addresses_for_captions_and_citation_lines_and_the_abstract_for_citations():
    texts = ["Li Sun", "Authors", "Department of Biology", "Sun L, Wang D (2019) Roots. J Bot 3: 1."]
    barred = _barred(_zones(texts, [12] * 4))
    not_byline = [STATE_INDEX["Authors"], STATE_INDEX["Affiliations"]]
    # a citation line is no abstract either; a caption may be anything else
    assert barred[1, not_byline].all() and barred[3, [*not_byline, STATE_INDEX["Abstract"]]].all()
    assert barred.sum() == 5


def test_section_headings_are_short_lines_in_large_type():
    texts = ["Results", "Materials and methods", "Background", "Conclusions", "Results of the trial were mixed",
             "The trial recruited 120 patients over two years and followed each of them for a year."]
    sizes = [19, 19, 14, 12, 19, 14]  # body size 14: the size carrying most characters
    assert section_headings(_zones(texts, sizes)).tolist() == [True, True, False, False, False, False]
    barred = _barred(_zones(texts, sizes))
    assert barred[:, STATE_INDEX["Abstract"]].tolist() == [True, True, False, False, False, False]


def test_the_default_vetoes_bar_authors_for_a_zone_holding_a_year():
    texts = ["Posted on 1 August 2017 · 5 min read", "Wan et al. 2016", "Li Sun 1,2, Bo Chen 3",
             "ISBN 978-0-12345-678-9", "Ward 12019 staff"]
    assert dated(_texts(texts)).tolist() == [True, True, False, False, False]
    barred = _barred(_zones(texts, [12] * 5))
    assert barred[:, STATE_INDEX["Authors"]].tolist() == [True, True, False, False, False] and barred.sum() == 2


def test_measurements_hold_a_decimal_number_and_few_letters():
    texts = [".001 a", "94.65 (7)", "6.28 .015 e,f", "p = 0.05", "O1 i–Cd2–N8 iii", "Li Sun 1,2", "1.2.3",
             "Room 3.14, Department of Physics, Leeds", "Figure 3.2 shows the roots", ""]
    assert measurements({"text": np.array(texts, dtype=object)}).tolist() == [True] * 4 + [False] * 6


def test_the_default_vetoes_bar_names_and_addresses_for_a_measurement():
    barred = _barred(_zones(["Li Sun", "94.65 (7)"], [12] * 2))
    assert not barred[0].any()
    byline = sorted([STATE_INDEX["Authors"], STATE_INDEX["Affiliations"]])
    assert np.flatnonzero(barred[1]).tolist() == byline


def test_site_controls_are_whole_share_links_and_search_controls():
    texts = ["Digg", "Google+", "Share on Facebook", "CiteULike", "E-mail", "Skip to main page content",
             "Search for Keyword: GO", "Advanced Search", "Log in", "Search:",
             "Diggle, S. P.", "Search and rescue robots", "Print ISSN 1931-7557", "Facebook friendships and trust",
             "x", "Citeulike: A researcher's social bookmarking service."]
    assert site_controls({"text": np.array(texts, dtype=object)}).tolist() == [True] * 10 + [False] * 6


def test_the_default_vetoes_bar_components_but_the_abstract_for_a_site_control():
    barred = _barred(_zones(["Delicious"], [12]))[0]
    assert sorted(np.flatnonzero(barred)) == sorted(STATE_INDEX[s] for s in ("Title", "Authors", "Affiliations",
                                                                            "References"))


def test_site_notices_are_notices_not_the_words():
    texts = ["© 2013 Author(s).", "Copyright 2016 Elsevier B.V.", "COPYRIGHT © The Authors", "All rights reserved.",
             "We use cookies to improve your experience with our site. Accept and close", "Accept all cookies",
             "This website utilizes technologies such as cookies to enable essential site functionality",
             "To access subscriptions and personalised features please log in or register", "Sign in or register",
             "Copyright information", "Copyright and the Internet. Harv Law Rev 12: 3-9.", "Li Sun", "",
             "Cookies and privacy: how web sites track their visitors", "We baked cookies. Then we ate them",
             "A register of cattle herds in Scotland", "Log in"]
    assert site_notices(_zones(texts, [12] * 17)).tolist() == [True] * 9 + [False] * 8
    # the subscriber's institution in an access notice is no author's address
    access = ["Not logged in Massachusetts Institute of Technology (MIT) (1600010533) - MIT Libraries",
              "Access Provided by University of Texas at Austin", "Logged in as: jsmith",
              "Access provided by UNIV OF COLORADO",
              "Access to clean water in rural Kenya", "Patients who logged in to the portal",
              "Department of Biology, University of Texas at Austin"]
    assert site_notices(_zones(access, [12] * 7)).tolist() == [True] * 4 + [False] * 3


def test_the_default_vetoes_bar_components_but_the_abstract_for_a_copyright_notice():
    barred = _barred(_zones(["© 2016 Elsevier B.V. All rights reserved."], [12]))
    assert {STATES[j] for j in np.flatnonzero(barred[0])} == {"Title", "Authors", "Affiliations", "References"}


def test_the_default_vetoes_bar_the_title_below_a_larger_sentence():
    texts = ["Seasonal shifts in nectar foraging", "From Beepedia, the open encyclopedia", "Ada Lovelace"]
    barred = _barred(_zones(texts, [30, 16, 14]))
    assert barred[:, STATE_INDEX["Title"]].tolist() == [False, True, True]
    assert barred.sum() == 4  # and Authors for the two sentences


def test_sentences_are_mostly_lower_case_words_with_a_short_one():
    texts = ["From OpenKnowledge Wiki, the peer-reviewed open encyclopedia",
             "Search for more papers by this author",
             "The advent of nanopores as a single-molecule platform has advanced studies of " + "many things " * 20,
             "for all the people",
             "Curator and contributors: Diego Gazzolo, Francesca Pluchinotta",  # names outnumber the words
             "Shirley V Wang, assistant professor, associate epidemiologist1,",  # no short lower-case word
             "eLife staff group",                        # a word with a capital inside is not lower case
             "Jan van der Berg and Piet de Vries",
             "on behalf of the United Nations Inter-agency Group for Child Mortality Estimation",
             "samantha [at] zooniverse.org",  # three words: an address, no sentence
             "the of in", "", "Ada Lovelace " * 20 + "and the rest of the team were here"]  # only 160 read
    assert sentences(_zones(texts, [12] * len(texts))).tolist() == [True] * 4 + [False] * 9


def test_the_default_vetoes_bar_authors_for_a_sentence_only():
    texts = ["From Beepedia, the peer-reviewed open encyclopedia", "Ada Lovelace and Charles Babbage"]
    barred = _barred(_zones(texts, [12, 12]))
    assert [STATES[j] for j in np.flatnonzero(barred[0])] == ["Authors"] and not barred[1].any()


def test_table_row_cells_are_three_or_more_zones_side_by_side_on_one_page():
    zones = {"text": np.array(["1", "−22", "–", "Smith J (2001) Title.", "a", "b", "c"], dtype=object),
             "y": np.array([100.0, 100.2, 99.8, 130.0, 100.0, 100.0, np.nan]),
             "document": np.array(["p", "p", "p", "p", "q", "q", "q"], dtype=object)}
    # the same top to the pixel on one page; page q's two cells at that top are no row of three
    assert table_row_cells(zones).tolist() == [True, True, True, False, False, False, False]
    assert table_row_cells({"text": np.array(["x"], dtype=object)}).tolist() == [False]  # no tops


def test_the_default_vetoes_bar_references_for_a_table_cell_only():
    zones = {"text": np.array(["57", "5.3", "–", "Smith J (2001) Title. J Biol 3: 1–9."], dtype=object),
             "y": np.array([10.0, 10.0, 10.0, 40.0]), "font_size": np.full(4, 12.0), "font_weight": np.full(4, 400.0)}
    barred = _barred(zones)
    assert barred[:, STATE_INDEX["References"]].tolist() == [True, True, True, False]
    assert barred[:, STATE_INDEX["BR"]].sum() == 0


def test_editor_credits_open_with_an_editor_or_reviewer():
    texts = ["Associate Editor: James F. Cahill", "Edited by: Diana R. Nemergut, University of Colorado",
             "Reviewed by Richard Smith", "Editors: A. Smith and B. Jones",
             "Editor's note on Li Sun",  # an editor's line is no byline either
             "Editorial", "Li Sun, editor of the series", "Accepted by the editors", "Ada Lovelace"]
    assert editor_credits(_zones(texts, [12] * len(texts))).tolist() == [True] * 5 + [False] * 4
    barred = _barred(_zones(texts, [12] * len(texts)))
    assert barred[0, STATE_INDEX["Authors"]] and barred[0, STATE_INDEX["Affiliations"]]


def test_a_credit_set_alone_as_a_caption_credits_the_zone_under_it_only():
    texts = ["Edited by", "Prathiba Natesan, University of North Texas, USA", "Reviewed by:",
             "Clintin P. Davis-Stober, University of Missouri, USA", "Copyright", "Zoltan Dienes"]
    assert editor_credits(_zones(texts, [12] * len(texts))).tolist() == [True] * 4 + [False] * 2
    # a longer credit names its people itself and says nothing of the zone under it
    texts = ["Edited by: Diana R. Nemergut, University of Colorado", "Ada Lovelace, University of London"]
    assert editor_credits(_zones(texts, [12, 12])).tolist() == [True, False]
    # nor does a caption closing one page credit the first zone of the next
    texts = ["Ada Lovelace", "Edited by", "Li Sun, Peking University"]
    assert editor_credits(_zones(texts, [12] * 3, pages=["a", "a", "b"])).tolist() == [False, True, False]


def test_contribution_notes_open_with_a_note_of_equal_contribution():
    texts = ["These authors contributed equally: John Jumper, Richard Evans",
             "Contributed equally to this work with: Yang Li, Tuanjie Wang", "† Equal contribution",
             "*The first two authors contributed equally to this work.", "Contributed equally with",
             "Yang Li, Tuanjie Wang†", "Yang Li† and Tuanjie Wang contributed equally",
             "Authors contributions: all authors wrote the paper"]
    assert contribution_notes(_zones(texts, [12] * len(texts))).tolist() == [True] * 5 + [False] * 3
    barred = _barred(_zones(texts, [12] * len(texts)))
    assert barred[1, STATE_INDEX["Authors"]] and barred[1, STATE_INDEX["Affiliations"]]
    assert not barred[5, STATE_INDEX["Authors"]]


def test_correspondence_notes_open_with_a_note_of_correspondence():
    """The note's address is the address list again (the gold counts it once): an opening note is
    matched, an address or a byline naming the corresponding author later is not."""
    texts = ["Correspondence to: L. E. Muresan, Babes-Bolyai University, Cluj-Napoca, Romania",
             "*Corresponding author at: Department of Psychiatry, Ruhr-University Bochum, Germany",
             "Address correspondence to Scott Frey, Department of Psychology, University of Oregon",
             "Reprint requests should be sent to Jean Decety, Department of Psychology",
             "*To whom correspondence should be addressed. E-mail: sbrem@example.org",
             "Department of Psychology, University of Oregon, Eugene, OR",
             "Jean Decety (corresponding author), Carol Seger",
             "Correspondent banking in the nineteenth century"]
    assert correspondence_notes(_zones(texts, [12] * len(texts))).tolist() == [True] * 5 + [False] * 3
    barred = _barred(_zones(texts, [12] * len(texts)))
    assert barred[0, STATE_INDEX["Affiliations"]] and barred[0, STATE_INDEX["Authors"]]
    assert not barred[5, STATE_INDEX["Affiliations"]]


def test_list_end_headings_stand_alone_in_their_style():
    """A short line a little larger than the body ends a list when no neighbour shares its size and
    weight (Wiley's "Citing Literature" at 1.17 times the body); the bold journal name of every entry
    at that size (ScienceDirect's) recurs and ends nothing; a section heading always counts."""
    plain = ["Smith J, Roe R. Roots in dry soil. J Plant Ecol. 2001;12:33-41."] * 4
    texts = ["Smith J, Roe R. Roots in dry soil.", "Trends Ecol. Evol.", "2001;12:33-41."] * 3 + [
        *plain, "Citing Literature", "Lee K. Deep roots.", "References"]
    sizes = [16, 18.72, 16] * 3 + [16] * 4 + [18.72, 16, 24]
    weights = [400, 700, 400] * 3 + [400] * 4 + [700, 400, 700]
    zones = {**_zones(texts, sizes, ["sd"] * 9 + ["wiley"] * 7), "font_weight": np.array(weights, dtype=float)}
    assert list_end_headings(zones).tolist() == [False] * 13 + [True, False, True]
    assert not section_headings(zones)[13]  # under the section heading's size
