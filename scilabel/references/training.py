"""Training the reference parser and building its data.

Training data: the field-labelled reference strings (GROBID, AnyStyle, ParsCit) less the held-out
ones (:func:`is_held_out`), and the reference lists of the JATS articles of the training split.
JATS ``mixed-citation`` entries are punctuated text with tagged parts: their segments come straight
from the markup, with the text the generated pages show. ``element-citation`` entries carry tagged
parts only, so they are written out in one of a few common citation styles (picked by a stable hash
of the reference), producing the segments as they are written.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from lxml import etree

from ..corpus.generate import article_split, split_key
from ..corpus.jats import PersonName, ReferenceFields, iter_articles
from ..corpus.refstrings import LabelledReference, iter_labelled_references, make_segments
from . import save_parser
from .evaluation import corpus_name, corpus_scores
from .parser import ReferenceParser, versions

log = logging.getLogger(__name__)

#: JATS citation child -> reference field; unlisted children are ``other``.
JATS_FIELDS: dict[str, str] = {
    "person-group": "author", "name": "author", "string-name": "author", "collab": "author", "etal": "author",
    "article-title": "title", "chapter-title": "title", "data-title": "title", "part-title": "title",
    "source": "container", "conf-name": "container", "year": "year", "month": "year", "day": "year",
    "volume": "volume", "issue": "issue", "fpage": "pages", "lpage": "pages", "page-range": "pages",
    "elocation-id": "pages", "publisher-name": "publisher", "publisher-loc": "location",
    "conf-loc": "location", "ext-link": "url", "uri": "url", "edition": "note", "comment": "note",
    "object-id": "note", "issn": "note", "isbn": "note", "series": "note", "supplement": "note",
}
_PUB_IDS = {"doi": "doi", "pmid": "pmid"}
_DOI_LINK = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/)?10\.\d{4,9}/")
#: Glue between two segments of one field that joins them (", " in author lists, "–" in pages).
_GLUE = {"author": re.compile(r"\s*(?:[,;]\s*)?(?:and\s+|&\s*)?"), "pages": re.compile(r"\s*[-–—]\s*"),
         "year": re.compile(r"[\s,]*")}
_CITES = ("mixed-citation", "element-citation", "citation", "nlm-citation")


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _text(el: etree._Element) -> str:
    """Text of an element; a ``name`` made only of child elements gets spaces between them."""
    if _local(el) == "name" and not "".join(el.xpath("text()")).strip():
        return " ".join(t for t in ("".join(c.itertext()).strip() for c in el if isinstance(c.tag, str)) if t)
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str):
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _field(el: etree._Element, has_title: bool) -> str:
    tag = _local(el)
    if tag == "pub-id":
        return _PUB_IDS.get(el.get("pub-id-type", ""), "note")
    if tag == "ext-link" and (el.get("ext-link-type") == "doi" or _DOI_LINK.match(_text(el).strip())):
        return "doi"
    if tag == "person-group" and el.get("person-group-type") not in (None, "author", "allauthors"):
        return "editor"
    if tag == "source" and not has_title:
        return "title"  # a whole book: its source is its title
    return JATS_FIELDS.get(tag, "other")


def _pieces(cite: etree._Element, has_title: bool) -> Iterator[tuple[str, str]]:
    """``(text, field)`` pieces of a punctuated citation, spaced like the page text."""
    yield cite.text or "", "other"
    written = cite.text or ""
    for child in cite:
        if isinstance(child.tag, str) and _local(child) != "label":
            if _local(child) == "comment" and len(child):  # "doi: <ext-link>..</ext-link>"
                parts = list(_pieces(child, has_title))
            else:
                parts = [(_text(child), _field(child, has_title))]
            first = next((t for t, _ in parts if t), "")
            if re.search(r"[\w.,;:]$", written) and re.match(r"[\w(]", first):
                yield " ", "other"
            for part in parts:
                yield part
                written += part[0]
        yield child.tail or "", "other"
        written += child.tail or ""


def merge_glued(segments: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Join segments of one field separated only by its glue: names of an author list, first and
    last page, the parts of a date."""
    out: list[tuple[str, str]] = []
    for seg in segments:
        glue = _GLUE.get(seg[1])
        if (
            glue is not None
            and len(out) >= 2
            and out[-1][1] == "other"
            and out[-2][1] == seg[1]
            and glue.fullmatch(out[-1][0])
        ):
            between = out.pop()[0]
            out[-1] = (out[-1][0] + between + seg[0], seg[1])
        else:
            out.append(seg)
    return out


# --------------------------------------------------------------------------- element citations


def _initials(given: str, dots: bool) -> str:
    parts = [p for p in re.split(r"[\s.]+", given) if p]
    if len(parts) == 1 and parts[0].isupper() and len(parts[0]) <= 3:
        parts = list(parts[0])
    letters = [p[0] for p in parts if p[0].isalpha()]
    return " ".join(f"{c}." for c in letters) if dots else "".join(letters)


def _author_list(names: list[PersonName], etal: bool, style: str) -> str:
    if style in ("vancouver", "plos"):
        shown = [f"{n.family} {_initials(n.given, False)}".strip() for n in names]
        return ", ".join(shown) + (", et al." if etal else "")
    if style == "ieee":
        shown = [f"{_initials(n.given, True)} {n.family}".strip() for n in names]
    else:
        shown = [f"{n.family}, {_initials(n.given, True)}" if n.given else n.family for n in names]
    if etal:
        return ", ".join(shown) + ", et al."
    conj = " and " if style == "ieee" else " & "
    if len(shown) > 2 and style == "apa":
        return ", ".join(shown[:-1]) + "," + conj + shown[-1]
    return ", ".join(shown[:-1]) + conj + shown[-1] if len(shown) > 1 else "".join(shown)


#: How each style writes a reference: ``(field, before, after)`` parts, written only when the field
#: has a value; a ``None`` field is literal text.
STYLE_PARTS: dict[str, list[tuple[str | None, str, str]]] = {
    "vancouver": [("author", "", ". "), ("title", "", ". "), ("container", "", ". "), ("year", "", ""),
                  ("volume", ";", ""), ("issue", "(", ")"), ("pages", ":", ""), (None, ".", ""),
                  ("doi", " doi: ", ""), ("pmid", " PMID: ", "")],
    "plos": [("author", "", ""), ("year", " (", ") "), ("title", "", ". "), ("container", "", ""),
             ("volume", " ", ""), ("pages", ": ", ""), (None, ".", ""), ("doi", " doi: ", ""), ("pmid", " ", "")],
    "apa": [("author", "", ""), ("year", " (", "). "), ("title", "", ". "), ("container", "", ""),
            ("volume", ", ", ""), ("issue", "(", ")"), ("pages", ", ", ""), (None, ".", ""),
            ("doi", " https://doi.org/", "")],
    "nature": [("author", "", " "), ("title", "", ". "), ("container", "", ""), ("volume", " ", ""),
               ("pages", ", ", ""), ("year", " (", ")"), (None, ".", "")],
    "ieee": [("author", "", ", "), ("title", "“", ",” "), ("container", "", ""), ("volume", ", vol. ", ""),
             ("issue", ", no. ", ""), ("pages", ", pp. ", ""), ("year", ", ", ""), (None, ".", "")],
}


def render_fields(f: ReferenceFields, style: str) -> list[tuple[str, str]]:
    """``(text, field)`` pieces of a reference written from its tagged fields in ``style``."""
    title, source = f.title.rstrip(". "), f.source.rstrip(". ")
    if not title and source and f.publication_type == "book":
        title, source = source, ""
    values = {
        "author": _author_list(f.authors, f.etal, style) if f.authors else "",
        "title": title, "container": source, "year": f.year, "volume": f.volume, "issue": f.issue,
        "pages": f.pages, "doi": f.doi, "pmid": f.pmid,
    }
    pieces: list[tuple[str, str]] = []
    for name, before, after in STYLE_PARTS[style]:
        if name is None:
            pieces.append((before, "other"))
        elif values[name]:
            pieces += [(before, "other"), (values[name], name), (after, "other")]
    return pieces


def _style(key: str) -> str:
    styles = sorted(STYLE_PARTS)
    return styles[hashlib.sha256(key.encode()).digest()[0] % len(styles)]


# --------------------------------------------------------------------------- entry point


def jats_references(jats_dir: Path, splits: tuple[str, ...] = ("train",), seed: int = 0) -> list[LabelledReference]:
    """Labelled references of the JATS articles whose split (as page generation decides it,
    :func:`scilabel.corpus.generate.article_split`) is in ``splits``. ``LabelledReference.split``
    holds the article's split and ``source`` the article id."""
    jats_dir = Path(jats_dir)
    out: list[LabelledReference] = []
    parser = etree.XMLParser(recover=True, no_network=True, resolve_entities=False, huge_tree=True)
    for path, article in iter_articles(jats_dir):
        split = article_split(split_key(article), seed)
        if split not in splits:
            continue
        fields = {r.ref_id: r.fields for r in article.references}
        try:
            root = etree.parse(str(path), parser).getroot()
        except (OSError, etree.XMLSyntaxError) as exc:
            log.warning("%s: skipped, %s", path, exc)
            continue
        for index, ref in enumerate(root.iter("{*}ref")):
            cite = next((c for c in ref.iter() if _local(c) in _CITES), None)
            if cite is None:
                continue
            has_title = any(_local(c) in ("article-title", "chapter-title", "data-title") for c in cite.iter())
            ref_id = ref.get("id") or f"ref{index + 1}"
            if _local(cite) == "element-citation" and ref_id in fields:
                pieces = render_fields(fields[ref_id], _style(f"{article.article_id}|{ref_id}"))
            elif _local(cite) != "element-citation":
                pieces = list(_pieces(cite, has_title))
            else:
                continue
            segments = merge_glued(make_segments(pieces))
            if any(name != "other" for _, name in segments):
                out.append(LabelledReference(segments, article.article_id, split, index))
    return out


# --------------------------------------------------------------------------- held-out split and training

#: Share of every labelled corpus other than GROBID's own evaluation files that is held out.
HELD_OUT_SHARE = 0.10


def is_held_out(ref: LabelledReference) -> bool:
    """GROBID ``evaluation`` references and a stable ~10% of every other labelled corpus."""
    if ref.source.startswith("references/grobid/") and ref.split == "evaluation":
        return True
    digest = hashlib.sha256(f"{ref.source}#{ref.index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < HELD_OUT_SHARE


def training_data(data_dir: Path) -> tuple[list[LabelledReference], list[LabelledReference]]:
    """``(train, held_out)`` references under ``data_dir`` (the folder holding ``references/`` and
    ``jats/``). Held out: see :func:`is_held_out`, plus the JATS references of dev/test articles."""
    data_dir = Path(data_dir)
    train: list[LabelledReference] = []
    held: list[LabelledReference] = []
    for ref in iter_labelled_references(data_dir / "references"):
        (held if is_held_out(ref) else train).append(ref)
    for ref in jats_references(data_dir / "jats", ("train", "dev", "test")):
        (train if ref.split == "train" else held).append(ref)
    return train, held


def scores_by_corpus(
    parser: ReferenceParser, references: list[LabelledReference], detail: bool = False
) -> dict[str, dict]:
    """Micro field P/R/F1 (with per-field F1) of ``parser`` on each corpus of ``references``
    (``detail``: on each file of a corpus too)."""
    return {
        name: {**scores["micro"], "fields": {f: round(s["f1"], 4) for f, s in scores.items() if f != "micro"}}
        for name, scores in corpus_scores(parser, references, detail).items()
    }


def train_reference_parser(data_dir: str | Path, out_path: str | Path, **params: object) -> ReferenceParser:
    """Fit a :class:`ReferenceParser` (``params`` go to its constructor) on the training references
    under ``data_dir``, score it on the held-out ones, and save it in the safe format (:func:`~scilabel.references.save_parser`), carrying
    a model card (``model_card_``: training counts, held-out F1 per corpus, versions)."""
    started = time.perf_counter()
    train, held = training_data(Path(data_dir))
    log.info("training the reference parser on %d strings (%d held out)", len(train), len(held))
    parser = ReferenceParser(**params).fit(train)
    fitted = time.perf_counter() - started
    parser.model_card_ = {
        "model": "scilabel-refs",
        "trained": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "params": parser.get_params(),
        "training_references": dict(Counter(corpus_name(r) for r in train)),
        "held_out_references": dict(Counter(corpus_name(r) for r in held)),
        "held_out_field_scores": scores_by_corpus(parser, held),
        "training_seconds": round(fitted, 1),
        "versions": versions(),
    }
    save_parser(parser, out_path)
    log.info("saved %s (%.1f MB)", out_path, Path(out_path).stat().st_size / 2**20)
    return parser
