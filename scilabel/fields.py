"""The article's fields read off its labelled zones (title, author names, affiliations, abstract), and
the record `scilabel label` gives for a page: the labelled zones plus those fields
(docs/output-schema.md: keep it stable, extend it, never rename it)."""
from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

from .constraints import BYLINE_CAPTION
from .labeler import PageLabels
from .lexicons import alternation
from .metadata import PROVENANCE_FIELDS, PageMeta, conflicts, merge_fields
from .references import PageReferences
from .references.names import PARTICLES

#: Characters of author and affiliation markers: digits, *, daggers, section signs, superscript digits.
_MARKER_CHARS = r"\d*\u2020\u2021\u00a7\u00b6#\u2016\u00b9\u00b2\u00b3\u2070-\u2079"
_MARKERS = re.compile(f"[{_MARKER_CHARS}]+")
#: Where two names were glued together without a separator: four small letters ending one name, a
#: capital and a small letter starting the next ("Anton CrombachPaulien"); not "DeLong", "McDonald", "MacArthur".
_GLUED_NAMES = re.compile(r"(?<=[a-z\u00df-\u00ff]{4})(?=[A-Z\u00c0-\u00de][a-z\u00df-\u00ff])")
_NAME_SPLIT = re.compile(r"\s*(?:,|;|\band\b|&|\u00b7|\|)\s*", re.I)
_AFFILIATION_MARKER = re.compile(rf"^\s*(?:[{_MARKER_CHARS}]+|[a-z](?=\s))[\s.,)]*")
#: A degree or a generational suffix alone (the lexicons ``degrees`` and ``name_suffixes``).
_DEGREES = re.compile(rf"^(?:{alternation('degrees')}|{alternation('name_suffixes')})$", re.I)
#: "By", "Written by", "Edited by" before a byline.
_BY = r"(?:(?:written|edited)\s+)?by"
#: What a byline's caption calls the people it lists ("Curator and contributors:", "Edited by"; the
#: lexicon ``byline_roles``).
_ROLE = rf"(?:{alternation('byline_roles')}|{_BY})"
#: A caption naming the field at the start of a field's text ("Title:", "Authors:", "By", "Abstract.").
_CAPTIONS = {
    "title": re.compile(r"^\s*(?:article\s+)?title\s*(?:[:\uff1a]\s*|$)", re.I),
    "authors": re.compile(rf"^\s*(?:{_ROLE}(?:\s*(?:,|\band\b|&)\s*{_ROLE})*\s*(?:[:\uff1a]|$)"
                          rf"|{_BY}\s+(?-i:(?=[A-Z])))\s*", re.I),
    "affiliations": re.compile(r"^\s*(?:(?:author\s+)?(?:affiliations?|addresses?)|(?:author\s+)?information)"
                               r"\s*(?:[:\uff1a]\s*|$)|^\s*affiliations?\s+(?-i:(?=[A-Z]))", re.I),
    "abstract": re.compile(rf"^\s*{alternation('abstract_headings')}\s*(?:[:\uff1a.\u2014-]\s*|$)", re.I),
}
#: E-mail addresses (also written "x [at] y") and web addresses, cut out of an author line so that the
#: name beside one stays ("Silvia Brem sbrem@kjpd.uzh.ch").
_ADDRESS = re.compile(r"[^\s,;]+@[^\s,;]+|[^\s,;]+\s*[\[(]at[\])]\s*[^\s,;]+|(?:https?://|www\.)[^\s,;]+", re.I)
#: A link about the authors, in capitals, set beside a name ("Istrate b Author Vitae", "Authors Info"):
#: cut off as a part of its own, which the word "author" then rules out.
_AUTHOR_LINK = re.compile(r"\s*\b(?=Authors?\s+(?:Vitae|Info(?:rmation)?|Page|Profile|Details)\b)")
#: Parts of an author line that are no person's name besides byline captions (:data:`BYLINE_CAPTION`):
#: the word "author", an ORCID, an institution (the lexicon ``institution_words``), or a correspondence
#: line ("Corresponding author: ...").
_NOT_A_NAME = re.compile(rf"\bcorrespond\w*|\bauthors?\b|orcid|\b{alternation('institution_words')}\b", re.I)
#: A correspondence line set among the affiliations ("*Corresponding author's e-mail address: ...").
_CORRESPONDENCE = re.compile(r"\W*correspond", re.I)
#: Text in parentheses in an author line.
_PARENTHESES = re.compile(r"\([^()]*\)")
#: A role written after a name ("Marian Goral, Evaluator", "Adam Skrzecz, Compiler", "Guest Editor"; the
#: lexicons ``roles`` and ``editor_titles``).
_ROLE_WORD = re.compile(rf"(?:{alternation('editor_titles')}\s+)?{alternation('roles')}s?", re.I)

#: Affiliation letters and marks after a name ("Juan Ren a", "Chiu a,b" once cut at the comma, "Zika✉").
_LETTER_MARKS = re.compile(r"(?:\s+[a-z]{1,4}|\s*[^\w\s.'\u2019-]+)+$")
#: Words that make a text with lower-case words a group author's name (the lexicon ``group_words``).
_GROUP = re.compile(rf"\b{alternation('group_words')}\b", re.I)


def strip_caption(field: str, text: str) -> str:
    """``text`` without a leading caption that names ``field`` ("Title:", "Authors:", "By", "Abstract:")."""
    return _CAPTIONS[field].sub("", text, count=1)


def field_text(field: str, texts: list[str], sep: str = " ") -> str | None:
    """The text of a one-piece field (title, abstract) from its zones: captions stripped, joined by
    ``sep``; None when nothing is left."""
    kept = [t for t in (strip_caption(field, text).strip() for text in texts) if t]
    return sep.join(kept) or None


def split_author_names(texts: list[str]) -> list[str]:
    """Person and group names from author-zone texts. Left out: captions, markers (also affiliation
    letters, "Ren a,b"), degrees, roles ("Compiler"), separators, e-mail and web addresses, names in
    another script and institutions in parentheses, links about the authors ("Author Vitae"),
    institutions and lines that are no name ("Show author details"). Entities the page shows as text
    are read ("SARAH&nbsp;THOMSON"); order is kept, each name once. A marker separates names, as does
    the start of a name glued to the end of the last ("Swart1John R. Bracht", "CrombachPaulien")."""
    names: list[str] = []
    for text in texts:
        text = _ADDRESS.sub(", ", _AUTHOR_LINK.sub(", ", html.unescape(strip_caption("authors", text))))
        text = _PARENTHESES.sub(_beside_name, text)
        text = _GLUED_NAMES.sub(", ", _MARKERS.sub(", ", text))
        for part in _NAME_SPLIT.split(text):
            name = _LETTER_MARKS.sub("", " ".join(part.split())).strip(" .:-\u2013\u2014")
            if len(name) > 2 and not _DEGREES.match(name) and any(c.isalpha() for c in name) \
                    and not BYLINE_CAPTION.fullmatch(name) and not _NOT_A_NAME.search(name) \
                    and not _ROLE_WORD.fullmatch(name) and _written_as_name(name):
                names.append(name)
    return list(dict.fromkeys(names))


def _beside_name(match: re.Match) -> str:
    """A parenthesis in an author line, dropped when it holds the name in another script ("Peng-Fei Xu
    (徐鹏飞)") or an institution or address, kept otherwise (a group's acronym: "(IeDEA)")."""
    inside = match.group()
    return " " if not re.search("[A-Za-z]", inside) or _NOT_A_NAME.search(inside) or _ADDRESS.search(inside) else inside


def _written_as_name(text: str) -> bool:
    """Whether ``text`` is written as a name: no word in lower case but name particles ("van", "de"),
    or a group's name ("the EMAS Study Group", "on behalf of the ... Consortium")."""
    lower = [w for w in text.split() if w.islower() and w not in PARTICLES]
    return not lower or bool(_GROUP.search(text))


def affiliation_texts(texts: list[str]) -> list[str]:
    """Affiliations from affiliation-zone texts: a leading caption ("Affiliations:", "Affiliation
    Dept ...") and marker ("1", "a", "*") removed, empty texts and correspondence lines dropped, order
    kept, each affiliation once (pages that list every author with their affiliations repeat them)."""
    out = []
    for text in texts:
        text = " ".join(_AFFILIATION_MARKER.sub("", strip_caption("affiliations", text)).split())
        if any(c.isalpha() for c in text) and not _CORRESPONDENCE.match(text):
            out.append(text)
    return list(dict.fromkeys(out))


def page_record(source: str, model: str, zones: pd.DataFrame, labels: PageLabels, references: PageReferences,
                metadata: PageMeta | None = None) -> dict:
    """The JSON-ready record of one labelled page; ``references`` come from
    :func:`scilabel.references.page_references` on the predicted labels. With ``metadata`` (what the
    page declares, :func:`scilabel.metadata.read_meta`), the record also holds it (``metadata``), where
    the visible title or authors disagree with it (``metadata_conflicts``), and where each of title,
    authors, affiliations and abstract came from (``provenance``: :func:`~scilabel.metadata.merge_fields`;
    a field the page does not show is filled from the declaration)."""
    texts = zones["text"].tolist()

    def of(label: str) -> list[str]:
        return [t for t, lab in zip(texts, labels.labels) if lab == label]

    record = {
        "source": source,
        "model": model,
        "zones": [
            {"label": lab, "state": state, "text": text, "bbox": bbox, "page": page, "confidence": conf}
            for lab, state, text, bbox, page, conf in zip(
                labels.labels, labels.states, texts, np.round(zones[["x", "y", "w", "h"]].to_numpy(float), 1).tolist(),
                zones["page"].astype(int).tolist(), np.round(np.asarray(labels.confidence, float), 4).tolist()
            )
        ],
        "title": field_text("title", of("title")),
        "authors": split_author_names(of("authors")),
        "affiliations": affiliation_texts(of("affiliations")),
        "abstract": field_text("abstract", of("abstract"), sep="\n"),
        "references": references.references,
        "anchor_format": references.format,
    }
    if metadata is not None:
        record["metadata"] = metadata.record()
        record["metadata_conflicts"] = conflicts(metadata, record["title"], record["authors"])
        merged, record["provenance"] = merge_fields(metadata, {name: record[name] for name in PROVENANCE_FIELDS})
        record.update(merged)
    return record

