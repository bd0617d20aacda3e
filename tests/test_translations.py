"""Bilingual pages: the JATS's translated titles and abstracts, the generated pages that print them after
the article's own (marked, unlabelled), the HMM states they decode in, and the language that allows them."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pandas as pd
from lxml import html as lxml_html

from scilabel.corpus.jats import parse_jats
from scilabel.corpus.templates import FAMILIES
from scilabel.corpus.templates.base import PageContext
from scilabel.corpus.translations import in_languages
from scilabel.emission import NaiveBayesEmission
from scilabel.hmm import _allowed_transitions
from scilabel.labeler import ZoneLabeler
from scilabel.languages import translatable, zone_language
from scilabel.schema import ARTICLE_END_MATTER

BILINGUAL = """<?xml version="1.0" encoding="UTF-8"?>
<article article-type="research-article" xml:lang="pt">
<front><article-meta>
  <title-group><article-title>Crescimento de raízes em solo seco</article-title>
   <trans-title-group xml:lang="en"><trans-title>Root growth in dry soil</trans-title></trans-title-group></title-group>
  <contrib-group><contrib contrib-type="author"><name><surname>Silva</surname><given-names>Ana</given-names></name></contrib></contrib-group>
  <abstract xml:lang="pt"><p>Medimos o comprimento das raízes em amostras de campo e os resultados mostram que a seca limita o crescimento.</p></abstract>
  <trans-abstract xml:lang="en"><p>We measured root length in field samples and the results show that drought limits growth.</p></trans-abstract>
</article-meta></front>
<body><sec><title>Introdução</title><p>As raízes crescem em solo seco.</p></sec></body>
<sub-article article-type="translation" xml:lang="es"><front-stub>
  <title-group><article-title>Crecimiento de raíces en suelo seco</article-title></title-group>
  <abstract><p>Medimos la longitud de las raíces en muestras de campo.</p></abstract>
</front-stub></sub-article>
</article>
"""


def test_the_jats_translations_are_read_in_their_order(tmp_path):
    path = tmp_path / "bilingual.xml"
    path.write_text(BILINGUAL, encoding="utf-8")
    article = parse_jats(path)
    assert article.language == "pt"
    assert [(t.language, t.title) for t in article.translations] == [
        ("en", "Root growth in dry soil"), ("es", "Crecimiento de raíces en suelo seco")]
    assert article.translations[0].abstract[0].paragraphs[0].text.startswith("We measured root length")


def test_a_generated_page_prints_the_translations_after_its_own_unlabelled_and_marked(tmp_path):
    path = tmp_path / "bilingual.xml"
    path.write_text(BILINGUAL, encoding="utf-8")
    article = parse_jats(path)
    html = in_languages(FAMILIES["semantic_html5"].render(article, random.Random(1), PageContext()), article)
    root = lxml_html.document_fromstring(html)
    body = " ".join(root.body.text_content().split())
    own, english, spanish = (body.index(t) for t in (
        "Crescimento de raízes", "Root growth in dry soil", "Crecimiento de raíces"))
    assert own < english < spanish < body.index("Medimos o comprimento") < body.index("We measured")
    assert [n.text_content() for n in root.xpath('//*[@data-scilabel="abstract_heading"]')] == ["Resumo"]
    assert [n.text_content() for n in root.xpath('//*[@data-scilabel="title"]')] == [article.title]
    marked = {n.get("data-scilabel-translation") for n in root.xpath("//*[@data-scilabel-translation]")}
    assert marked == {"title", "abstract_heading", "abstract"}
    assert not root.xpath('//*[@data-scilabel-translation][@data-scilabel]')  # translations carry no gold


def test_an_english_page_without_translations_is_left_as_it_is():
    page = "<html><body><h1 data-scilabel='title'>T</h1></body></html>"

    class English:
        language, translations = "en", []

    assert in_languages(page, English()) == page


def test_translation_states_read_their_component_and_follow_it():
    schema = ARTICLE_END_MATTER
    labels = ["title", "other", "authors", "abstract_heading", "abstract", "other", "other", "other", "references"]
    marks = [None, "title", None, None, None, "abstract_heading", "abstract", None, None]
    assert schema.labels_to_states(labels, marks) == [
        "Title", "TransTitle", "Authors", "AbstractHeading", "Abstract", "TransAbstractHeading", "TransAbstract",
        "BARH", "References"]
    # a mark before its component was seen is a plain gap zone
    assert schema.labels_to_states(["other", "title"], ["abstract", None]) == ["PreTitle", "Title"]
    assert {schema.emission_state[s] for s in ("TransTitle", "TransAbstract")} == {"Title", "Abstract"}
    assert {schema.state_label[s] for s in schema.translation_states} == {"other"}
    allowed = _allowed_transitions("end_matter")
    index = schema.state_index
    assert allowed[index["Abstract"], index["TransAbstractHeading"]] and allowed[index["BARH"], index["TransAbstract"]]
    assert not allowed[index["Title"], index["TransAbstract"]] and not allowed[index["TransAbstract"], index["Abstract"]]


def test_language_decides_which_zones_may_be_translations():
    assert zone_language("Medimos o comprimento das raízes em amostras de campo e os resultados") == "pt"
    assert zone_language("We measured the length of the roots in the samples of the field") == "en"
    assert zone_language("Resumo") is None
    portuguese = "Medimos o comprimento das raízes em amostras de campo e os resultados mostram que a seca " * 2
    english = "We measured the length of the roots in the samples and the results show that the drought limits it"
    page = ["Crescimento de raízes em solo seco", "Resumo", portuguese, "Abstract", english, portuguese]
    # undecided zones (a short title, a heading) may be translations on a bilingual page; the own language not
    assert translatable(page).tolist() == [True, True, False, True, True, False]
    assert not translatable([english, "Abstract", english]).any()  # a page in one language has none


def _rows(page: str, labelled: list[tuple[str, str, str | None]]) -> list[dict]:
    return [{"document": page, "text": text, "label": label, "translation": mark, "x": 40.0, "y": 40.0 * k,
             "w": 600.0, "h": 19.0, "font_size": 16.0, "font_weight": 400, "link_chars": 0, "sup_chars": 0,
             "italic_chars": 0} for k, (text, label, mark) in enumerate(labelled)]


PT = "Medimos o comprimento das raízes em amostras de campo e os resultados mostram que a seca limita o crescimento"
EN = "We measured the length of the roots in the samples of the field and the results show that the drought limits it"


def test_a_second_abstract_in_another_language_decodes_as_its_translation():
    pages = []
    for k in range(12):
        page = [("Revista de Teste", "other", None), (f"Crescimento de raízes em solo seco {k}", "title", None),
                ("Ana Silva", "authors", None), ("Resumo", "abstract_heading", None), (PT, "abstract", None)]
        if k % 2:
            page += [("Abstract", "other", "abstract_heading"), (EN, "other", "abstract")]
        page += [(PT.replace("Medimos", "Vimos"), "other", None)] * 3
        pages += _rows(f"p{k}", page)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labeler = ZoneLabeler(emission=NaiveBayesEmission(layout=("n_words",), n_bins=3),
                              topology="end_matter").fit(pd.DataFrame(pages))
    test = pd.DataFrame(_rows("t", [("Crescimento de raízes em solo seco", "other", None), ("Ana Silva", "other", None),
                                    ("Resumo", "other", None), (PT, "other", None), ("Abstract", "other", None),
                                    (EN, "other", None), (PT.replace("Medimos", "Vimos"), "other", None)]))
    decoded = labeler.label_pages(test)[0]
    assert decoded.labels[3] == "abstract" and decoded.labels[5] == "other"
    assert decoded.states[5] == "TransAbstract"
    np.testing.assert_allclose(labeler.predict_proba(test).sum(axis=1), 1.0)


def test_the_zones_carry_the_translation_mark(reader):
    page = """<html><body><h1 data-scilabel="title">Crescimento de raízes</h1>
    <h1 data-scilabel-translation="title">Root growth</h1>
    <p data-scilabel="abstract">Medimos o comprimento das raízes.</p>
    <div data-scilabel-translation="abstract"><p>We measured root length.</p></div></body></html>"""
    zones = reader.read(page).zones
    assert dict(zip(zones["text"], zones["translation"].fillna(""))) == {
        "Crescimento de raízes": "", "Root growth": "title",
        "Medimos o comprimento das raízes.": "", "We measured root length.": "abstract"}
