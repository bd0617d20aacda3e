"""A generated page in its article's languages: the abstract's heading in the article's own language,
and the title and abstract in each other language the JATS gives (:class:`~scilabel.corpus.jats.Translation`)
printed after the article's own, as a bilingual journal prints them (SciELO's Portuguese or Spanish
articles with their English title and abstract, an English one with its Portuguese).

A translation copies the markup its family gave the title and the abstract (the same look, as on a
real page) and carries no gold label: the gold, like the publishers' records, has the main language's
title and abstract only, so the labeller has to learn to take the first abstract and pass over its
translations. Each is marked with the component it translates (``data-scilabel-translation``), so that
the HMM learns its own states for translations (:attr:`scilabel.schema.Schema.translated`).
"""
from __future__ import annotations

import copy
import csv
from functools import lru_cache
from pathlib import Path

from lxml import html as lxml_html

from scilabel.corpus.jats import AbstractSection, Article
from scilabel.corpus.templates.base import esc
from scilabel.zones import TRANSLATION_ATTR

#: An abstract's heading in each language (``language``, ``heading``).
HEADINGS_FILE = Path(__file__).with_name("abstract_headings.tsv")
#: Tags the generated families set inline.
_INLINE = {"span", "a", "b", "strong", "em", "i", "font", "small", "sup", "sub", "label", "cite"}
_GOLD_ATTRIBUTES = ("data-scilabel", "data-scilabel-content", "data-scilabel-struct", "data-scilabel-cite")


@lru_cache(maxsize=1)
def abstract_headings() -> dict[str, str]:
    """Language code -> an abstract's heading in that language."""
    with HEADINGS_FILE.open(encoding="utf-8", newline="") as handle:
        return {row["language"]: row["heading"] for row in csv.DictReader(handle, delimiter="\t")}


def in_languages(html: str, article: Article) -> str:
    """``html`` (a generated page of ``article``) with its abstract heading in the article's language and
    its translations after the title and the abstract; unchanged for an English article without any."""
    foreign = article.language not in ("", "en")
    if not foreign and not article.translations:
        return html
    headings = abstract_headings()
    root = lxml_html.document_fromstring(html)
    title = _first(root, "title")
    heading = _first(root, "abstract_heading")
    drawn = "" if heading is None else heading.text_content()
    if heading is not None and foreign and article.language in headings:
        _set_html(heading, esc(_styled(headings[article.language], drawn)))
    block = _abstract_block(heading, _first(root, "abstract"))
    for translation in reversed(article.translations):
        if title is not None and translation.title:
            box = _box(title)
            twin = copy.deepcopy(box)
            for node in twin.iter():
                if node.get("data-scilabel") == "title":
                    _set_html(node, esc(translation.title))
                    node.set(TRANSLATION_ATTR, "title")
            _strip_gold(twin)
            box.addnext(twin)
        if block and translation.abstract:
            twins = [copy.deepcopy(node) for node in block]
            for twin in twins:
                for node in twin.iter():
                    if node.get("data-scilabel") == "abstract_heading":
                        _set_html(node, esc(_styled(headings.get(translation.language, "Abstract"), drawn)))
                        node.set(TRANSLATION_ATTR, "abstract_heading")
                texts = [node for node in twin.iter() if node.get("data-scilabel") == "abstract"]
                if texts:
                    _set_html(texts[0], _abstract_html(translation.abstract))
                    texts[0].set(TRANSLATION_ATTR, "abstract")
                for node in texts[1:]:
                    node.getparent().remove(node)
                _strip_gold(twin)
            for twin in reversed(twins):
                block[-1].addnext(twin)
    return lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>") + "\n"


def _first(root, label: str):
    found = root.xpath(f'//body//*[@data-scilabel="{label}"]')
    return found[0] if found else None


def _box(element):
    """The element to copy for a translated title: the outermost one holding ``element``'s text and
    nothing else (the heading around a title's span), or, when that is set inline ("Title: <span>"),
    the block around it, so that the copy after it is a line of its own."""
    text = element.text_content().strip()
    while element.getparent() is not None and element.getparent().tag not in ("body", "html") and (
            element.tag in _INLINE or element.getparent().text_content().strip() == text):
        element = element.getparent()
    return element


def _abstract_block(heading, abstract) -> list:
    """The elements to copy for a translated abstract: the lowest element holding the heading and the
    abstract when it holds nothing else labelled, else the two apart (the abstract alone without a heading)."""
    if abstract is None:
        return []
    if heading is None:
        return [abstract]
    shared = next((a for a in abstract.iterancestors() if any(n is heading for n in a.iter())), None)
    if shared is not None and shared.tag not in ("body", "html"):
        labelled = {n.get("data-scilabel") for n in shared.iter() if n.get("data-scilabel")}
        if labelled <= {"abstract", "abstract_heading", "other"}:
            return [shared]
    return [heading, abstract] if heading.getnext() is abstract else [abstract]


def _styled(heading: str, drawn: str) -> str:
    """``heading`` written as the page wrote its own: capitals, a closing colon."""
    drawn = drawn.strip()
    text = heading.upper() if drawn.isupper() else heading
    return text + ":" if drawn.endswith(":") else text


def _abstract_html(parts: list[AbstractSection]) -> str:
    out = []
    for part in parts:
        paragraphs = [esc(p.text) for p in part.paragraphs]
        if part.title and paragraphs:
            paragraphs[0] = f"<b>{esc(part.title)}</b> {paragraphs[0]}"
        out.extend(f"<p>{p}</p>" for p in paragraphs)
    return "".join(out)


def _set_html(element, inner: str) -> None:
    for child in list(element):
        element.remove(child)
    fragment = lxml_html.fragment_fromstring(inner or "", create_parent="div")
    element.text = fragment.text
    for child in fragment:
        element.append(child)


def _strip_gold(element) -> None:
    for node in element.iter():
        for name in (*_GOLD_ATTRIBUTES, "id"):
            node.attrib.pop(name, None)
