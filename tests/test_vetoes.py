"""The veto table: each default rule bars exactly its states where its predicate holds; the table's helpers."""
import pickle

import numpy as np
import pytest

from scilabel.features import ZoneArrays
from scilabel.schema import STATE_INDEX, STATES
from scilabel.rules.vetoes import DEFAULT_VETOES, Veto, apply_vetoes, fallbacks, without

BODY = "The trial recruited 120 patients over two years and followed each of them for a year."


def _page(texts, sizes=None, tops=None):
    zones = {"text": np.array(texts, dtype=object), "font_size": np.array(sizes or [12] * len(texts), dtype=float),
             "font_weight": np.full(len(texts), 400.0), "link_chars": np.zeros(len(texts))}
    return zones if tops is None else {**zones, "y": np.array(tops, dtype=float)}


BYLINE = ("Authors", "Affiliations")
NOTICE = ("Title", "Authors", "Affiliations", "References")
#: A toy page for every default veto, the zones its predicate holds for, and the states it bars there.
TOY_PAGES = {
    "byline_caption": (_page(["Authors and affiliations", "Li Sun"]), [True, False], BYLINE),
    "citation_line": (_page(["Sun L, Wang D (2019) Roots. J Bot 3: 1.", "Li Sun"]), [True, False],
                      (*BYLINE, "Abstract")),
    "measurement": (_page(["94.65 (7)", "Li Sun"]), [True, False], BYLINE),
    "editor_credit": (_page(["Associate Editor: James F. Cahill", "Li Sun"]), [True, False], BYLINE),
    "contribution_note": (_page(["†These authors contributed equally: Li Sun, Bo Chen", "Li Sun"]), [True, False],
                          BYLINE),
    "correspondence_note": (_page(["*Correspondence to: Li Sun, Department of Botany, Lund University", "Li Sun"]),
                            [True, False], BYLINE),
    "section_heading": (_page(["Results", BODY], [19, 14]), [True, False], ("Abstract",)),
    "heading_ends_references": (_page(["Cited by (64)", BODY], [19, 14]), [True, False],
                                ("References", "BR", "BRHR")),
    "below_larger_text": (_page(["Seasonal shifts in nectar foraging", "Ada Lovelace"], [30, 16]), [False, True],
                          ("Title",)),
    "above_larger_text": (_page(["Archives of Psychology", "The crisis of confidence in findings"], [16, 32]),
                          [True, False], ("Title",)),
    "related_sidebar": ({**_page(["Related articles", "Seasonal shifts in nectar foraging", "Ada Lovelace",
                                  "A study of roots", "Li Sun"], [16, 16, 16, 32, 16]),
                         "font_weight": np.array([700.0, 400, 400, 400, 400])},
                        [False, True, True, False, False], ("Title", "Authors", "Affiliations", "Abstract")),
    "dated": (_page(["Posted on 1 August 2017", "Li Sun"]), [True, False], ("Authors",)),
    "sentence": (_page(["From Beepedia, the peer-reviewed open encyclopedia", "Li Sun"]), [True, False],
                 ("Authors",)),
    "site_notice": (_page(["© 2016 Elsevier B.V. All rights reserved.", "Li Sun"]), [True, False], NOTICE),
    "site_control": (_page(["Share on Facebook", "Li Sun"]), [True, False], NOTICE),
    "table_row_cell": (_page(["57", "5.3", "–", "Smith J (2001) Title."], tops=[10, 10, 10, 40]),
                       [True, True, True, False], ("References",)),
    "end_matter_caption": (_page([BODY, BODY, "Authors and Affiliations", "1.Institute of Metal Research, Shenyang",
                                  "About this article"], [14, 14, 19, 14, 19]), [False, False, False, True, False], ()),
    "abstract_box": ({**_page(["Abstract", BODY, BODY, "Keywords", BODY]),
                      "node_path": np.array(["0/4/1", "0/4/2", "0/4/3", "0/5", "0/6/1"], dtype=object)},
                     [False, True, True, False, False], ()),
    "byline_caption_passed_over": (_page(["Li Sun", "Corresponding Author"]), [False, True], ()),
    "author_bio": (_page([BODY, "About the authors", "Li Sun is a professor of botany at the University of Lund",
                          "Lund University Library"]), [False, False, True, False], ()),
}


def test_every_default_veto_has_a_toy_page_and_a_unique_name():
    assert [veto.name for veto in DEFAULT_VETOES] == list(TOY_PAGES)


@pytest.mark.parametrize("veto", DEFAULT_VETOES, ids=lambda veto: veto.name)
def test_a_veto_bars_exactly_its_states_where_its_predicate_holds(veto):
    zones, holds, bars = TOY_PAGES[veto.name]
    assert veto.bars == bars
    log_emission = np.zeros((len(holds), len(STATES)))
    over = apply_vetoes([veto], log_emission, zones)
    if veto.fallback:  # decided on a first decoding: found here, applied by the labeller
        assert (log_emission == 0).all() and not over.any()
        (rule,) = fallbacks([veto], zones)
        assert rule.where.tolist() == holds and rule.states == tuple(STATE_INDEX[s] for s in veto.favours)
        return
    expected = np.zeros_like(log_emission, dtype=bool)
    expected[np.ix_(np.flatnonzero(holds), [STATE_INDEX[s] for s in bars])] = True
    np.testing.assert_array_equal(np.isneginf(log_emission), expected)
    # the favouring kind raises its states there by its nats, and nothing else
    favoured = np.zeros_like(log_emission)
    favoured[np.ix_(np.flatnonzero(holds), [STATE_INDEX[s] for s in veto.favours])] = veto.by
    np.testing.assert_array_equal(np.where(expected, 0.0, log_emission), favoured)
    # the pass-over kind leaves the log-emissions to the other rules and marks its zones
    assert over.tolist() == (holds if veto.pass_over else [False] * len(holds))


def test_only_byline_captions_are_passed_over_by_default():
    assert [veto.name for veto in DEFAULT_VETOES if veto.pass_over] == ["byline_caption_passed_over"]


def test_only_the_end_matter_caption_and_the_abstract_box_favour_a_state_by_default_and_bios_as_a_fallback():
    assert [(veto.name, veto.favours, veto.fallback) for veto in DEFAULT_VETOES if veto.favours] == [
        ("end_matter_caption", ("Affiliations",), False), ("abstract_box", ("Abstract",), False),
        ("author_bio", ("Affiliations",), True)]


def test_no_vetoes_leave_the_log_emissions_alone():
    zones, holds, _ = TOY_PAGES["site_notice"]
    log_emission = np.zeros((len(holds), len(STATES)))
    assert apply_vetoes((), log_emission, zones).tolist() == [False, False] and (log_emission == 0).all()


calls = []


def counted_captions(zones):
    calls.append(1)
    return np.array([t == "Authors" for t in ZoneArrays.of(zones).texts])


def test_a_predicate_shared_by_two_vetoes_runs_once():
    vetoes = (Veto("caption", counted_captions, bars=("Authors",)),
              Veto("caption_over", counted_captions, pass_over=True))
    log_emission = np.zeros((2, len(STATES)))
    calls.clear()
    assert apply_vetoes(vetoes, log_emission, _page(["Authors", "Li Sun"])).tolist() == [True, False]
    assert len(calls) == 1 and np.isneginf(log_emission).sum() == 1


def test_a_veto_names_known_states_and_does_something():
    with pytest.raises(ValueError, match="unknown states"):
        Veto("typo", counted_captions, bars=("Titel",))
    with pytest.raises(ValueError, match="neither bars"):
        Veto("idle", counted_captions)
    with pytest.raises(ValueError, match="positive 'by'"):
        Veto("unweighed", counted_captions, favours=("Affiliations",))
    with pytest.raises(ValueError, match="positive 'by'"):
        Veto("weight alone", counted_captions, bars=("Title",), by=2.0)
    with pytest.raises(ValueError, match="unknown states"):
        Veto("typo", counted_captions, favours=("Affilations",), by=2.0)
    with pytest.raises(TypeError, match="predicate"):
        Veto("not callable", "Authors", bars=("Authors",))
    assert Veto("listed", counted_captions, bars=["Title"]).bars == ("Title",)  # stored as a tuple
    assert repr(DEFAULT_VETOES[0]) == ("Veto('byline_caption', scilabel.constraints.byline_captions, "
                                       "bars=('Authors', 'Affiliations'))")


def test_without_leaves_out_the_named_vetoes_in_order():
    fewer = without(DEFAULT_VETOES, "sentence", "dated")
    assert [veto.name for veto in fewer] == [veto.name for veto in DEFAULT_VETOES
                                             if veto.name not in ("sentence", "dated")]
    assert without(DEFAULT_VETOES) == DEFAULT_VETOES
    with pytest.raises(ValueError, match="no veto called \\['sentences'\\]"):
        without(DEFAULT_VETOES, "sentences")


def test_the_table_pickles():
    assert pickle.loads(pickle.dumps(DEFAULT_VETOES)) == DEFAULT_VETOES
