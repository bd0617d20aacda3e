"""Sentence splitting on the hard cases of scholarly text and on real JATS abstracts."""
from __future__ import annotations

import pytest

from scilabel.corpus.jats import parse_jats
from scilabel.sentences import sentence_spans, split_sentences
from .conftest import SHARED_DATA

JATS = SHARED_DATA / "jats"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Smith et al. (2010) showed this. Jones et al. disagreed.",
         ["Smith et al. (2010) showed this.", "Jones et al. disagreed."]),
        ("As shown in Fig. 2, the rate rose. See Fig. 3b and Figs. 4 and 5.",
         ["As shown in Fig. 2, the rate rose.", "See Fig. 3b and Figs. 4 and 5."]),
        ("In contrast, Eq. 3 fails. See Sect. 2.1 and Refs. 3-5 for details.",
         ["In contrast, Eq. 3 fails.", "See Sect. 2.1 and Refs. 3-5 for details."]),
        ("Samples (e.g. blood, i.e. serum) were taken. Then we stopped.",
         ["Samples (e.g. blood, i.e. serum) were taken.", "Then we stopped."]),
        ("Values were 3.5 and 4.2 mm. The mean was 0.5 (P < .001). It held.",
         ["Values were 3.5 and 4.2 mm.", "The mean was 0.5 (P < .001).", "It held."]),
        ("We used E. coli K-12. Growth of S. aureus was slow.",
         ["We used E. coli K-12.", "Growth of S. aureus was slow."]),
        ("Densities of An. gambiae s. l. mosquitoes rose. Native Geocoris spp. predators fed.",
         ["Densities of An. gambiae s. l. mosquitoes rose.", "Native Geocoris spp. predators fed."]),
        ("This is known [12]. It was confirmed (Smith et al., 2010). We agree.",
         ["This is known [12].", "It was confirmed (Smith et al., 2010).", "We agree."]),
        ("This is known.12 It was confirmed.13,14 Next we tested it.",
         ["This is known.12", "It was confirmed.13,14", "Next we tested it."]),
        ("Data from Smith et al.12 were used. Others agreed.",
         ["Data from Smith et al.12 were used.", "Others agreed."]),
        ("The analysis revealed 1) a loss of mass and 2) a gain in length. Next.",
         ["The analysis revealed 1) a loss of mass and 2) a gain in length.", "Next."]),
        ("The protein (approx. 40 kDa) was purified by Dr. Smith. Cf. Table 1.",
         ["The protein (approx. 40 kDa) was purified by Dr. Smith.", "Cf. Table 1."]),
        ("Antibodies came from Abcam (Cambridge, UK). ART was started. However, it failed.",
         ["Antibodies came from Abcam (Cambridge, UK).", "ART was started.", "However, it failed."]),
        ("We thank Drs. A. D. Craig and C. T. Simons. They read it.",
         ["We thank Drs. A. D. Craig and C. T. Simons.", "They read it."]),
        ("(It was supported with full normal ones.) Next one.",
         ["(It was supported with full normal ones.)", "Next one."]),
        ("S.L. undertook the analysis, and P.R. and M.B. wrote the draft. All read it.",
         ["S.L. undertook the analysis, and P.R. and M.B. wrote the draft.", "All read it."]),
        ("A neuropsychologist (D.L.F.) ruled out reading disorders. Next came MRI.",
         ["A neuropsychologist (D.L.F.) ruled out reading disorders.", "Next came MRI."]),
        ("We might miss effects.32 FDR control was used. It was known.[4, 5] Energetically, it fits.",
         ["We might miss effects.32", "FDR control was used.", "It was known.[4, 5]", "Energetically, it fits."]),
        ("They asked (“How consistent is it?”) on a scale. Then (p < .05 was the bar. So it held) they left.",
         ["They asked (“How consistent is it?”) on a scale.", "Then (p < .05 was the bar. So it held) they left."]),
        ("Cells with 3 vol. % DIO grew. Others died.", ["Cells with 3 vol. % DIO grew.", "Others died."]),
        ("Shklover et al.4 has described it. Others did not.", ["Shklover et al.4 has described it.", "Others did not."]),
        ("The cells grew. hippo RNAi resulted in loss. 26.2% of them died.",
         ["The cells grew.", "hippo RNAi resulted in loss.", "26.2% of them died."]),
    ],
)
def test_hard_cases(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_spans_index_the_original_text() -> None:
    text = "  Über die Zellen.  Sie wachsen\u00a0schnell (vgl. Abb. 2).\nEnde. "
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans] == split_sentences(text)
    assert all(not text[a].isspace() and not text[b - 1].isspace() for a, b in spans)


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_text_has_no_sentences(text: str) -> None:
    assert split_sentences(text) == [] and sentence_spans(text) == []


def test_text_without_sentence_end_is_one_sentence() -> None:
    assert split_sentences("Results and discussion") == ["Results and discussion"]


@pytest.mark.parametrize(
    "path, abbreviation",
    [
        ("norma/anopheles/PMC4066281.xml", "An."),
        ("norma/anopheles/PMC4055171.xml", "An."),
        ("norma/anopheles/PMC4043680.xml", "An."),
        ("elife-tools/elife00007.xml", "spp."),
    ],
)
def test_real_abstracts_keep_species_names_whole(shared_data, path: str, abbreviation: str) -> None:
    """No sentence ends in the abbreviation before a lower-case word, no text is lost, and the
    paragraphs are still cut into sentences."""
    article = parse_jats(JATS / path)
    paragraphs = [p.text for part in article.abstract for p in part.paragraphs]
    assert any(abbreviation in text for text in paragraphs)
    pieces = 0
    for text in paragraphs:
        sentences = split_sentences(text)
        assert "".join("".join(sentences).split()) == "".join(text.split())
        for a, b in zip(sentences, sentences[1:]):
            assert not (a.endswith(abbreviation) and b[:1].islower()), (a[-40:], b[:40])
        pieces += len(sentences) - 1
    assert pieces >= len(paragraphs)
