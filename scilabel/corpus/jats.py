"""Read JATS/NLM full-text article XML into plain dataclasses for page generation.

Only the parts a labelled page needs are kept: front matter (title, authors, affiliations,
main abstract, keywords), the body as nested sections of paragraphs with their in-text
citations, figure/table captions, footnotes and the reference list.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from lxml import etree

from scilabel.lexicons import alternation

log = logging.getLogger(__name__)

JATS_SUFFIXES = (".xml", ".nxml", ".xml.gz", ".nxml.gz")

_WS = re.compile(r"\s+")
_C1 = re.compile("[\x80-\x9f]")
#: Text allowed between two adjacent bibliography xrefs of one citation group.
_CITE_GLUE = re.compile(r"^\s*[\])]?\s*(?:[,;–—−-]|and|&)?\s*[\[(]?\s*$")
_YEAR_ONLY = re.compile(r"^\s*\(?\d{4}[a-z]?\)?\s*$")
#: Family-name particles (the lexicon ``particles``).
_PARTICLE = alternation("particles")
_PARTICLES = re.compile(rf"^(?:{_PARTICLE} )+")
_NAME = rf"\b(?:{_PARTICLE} )*[^\W\d_][\w'’-]*"  # starts at a word: "by van Dam", not "b" + "y van Dam"
_NAMES_BEFORE_YEAR = re.compile(rf"({_NAME}(?: et al\.?| (?:and|&) {_NAME})?(?:, ?| \(|, \())$")
_RANGE_GLUE = re.compile(r"^\s*[\])]?\s*[–—−-]\s*[\[(]?\s*$")
#: Elements that become their own blocks (or are dropped) rather than paragraph text.
_FLOATS = {"fig", "table-wrap", "fig-group", "table-wrap-group"}
_SKIP_INLINE = {"supplementary-material", "media", "graphic", "inline-graphic", "boxed-text", "object-id"}
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: Abstract types that are never the main abstract (digests, teasers, table-of-contents blurbs).
_SECONDARY_ABSTRACTS = {
    "summary",
    "executive-summary",
    "toc",
    "teaser",
    "graphical",
    "editors-summary",
    "editor",
    "web-summary",
    "patient",
    "synopsis",
    "toc-graphic",
    "precis",
}
_EMAIL_ONLY = re.compile(r"^\S+@\S+$")
_AFF_SKIP = frozenset({"label", "institution-id", "xref", "ext-link", "uri"})
_CITATION_TAGS = ("mixed-citation", "citation", "element-citation", "nlm-citation")
_FOREIGN_ROOTS = {
    "full-text-retrieval-response": "Elsevier full-text API XML",
    "html": "publisher-native HTML/XML (e.g. IOP)",
}


# ---------------------------------------------------------------------------- data model


@dataclass(frozen=True)
class Citation:
    """An in-text citation: the text as written and the reference ids it points to."""

    text: str
    ref_ids: tuple[str, ...]


Run = Union[str, Citation]


@dataclass
class Paragraph:
    """A paragraph as inline runs: plain text or citations."""

    runs: list[Run]

    @property
    def text(self) -> str:
        return "".join(r if isinstance(r, str) else r.text for r in self.runs)

    @property
    def citations(self) -> list[Citation]:
        return [r for r in self.runs if isinstance(r, Citation)]


@dataclass
class ItemList:
    """A bulleted or numbered list; each item is a paragraph."""

    items: list[Paragraph]
    ordered: bool = False


#: At most this many rows and columns of a table are kept (pages stay a sensible size).
MAX_TABLE_ROWS = 30
MAX_TABLE_COLUMNS = 12


@dataclass
class Caption:
    """A figure or table caption; a table's cells come along as rows of cell texts."""

    kind: str  # "figure" | "table"
    label: str
    text: str
    float_id: str = ""
    rows: list[list[str]] = field(default_factory=list)


Block = Union[Paragraph, ItemList, Caption]


@dataclass
class Section:
    """A body section; ``paragraphs`` holds its blocks in document order."""

    title: str | None
    label: str | None = None
    paragraphs: list[Block] = field(default_factory=list)
    subsections: list[Section] = field(default_factory=list)


@dataclass
class AbstractSection:
    """One part of the main abstract; structured abstracts have titled parts."""

    title: str | None
    paragraphs: list[Paragraph]


@dataclass
class Translation:
    """The article's title and abstract in another language (``trans-title-group`` and
    ``trans-abstract``, or a translation sub-article's front stub), as a bilingual journal prints them
    after the article's own."""

    language: str
    title: str = ""
    abstract: list[AbstractSection] = field(default_factory=list)


@dataclass
class Author:
    name: str
    given: str = ""
    surname: str = ""
    is_collab: bool = False
    aff_ids: list[str] = field(default_factory=list)
    corresponding: bool = False
    email: str = ""


@dataclass
class Affiliation:
    aff_id: str
    label: str
    text: str


@dataclass
class PersonName:
    given: str
    family: str


@dataclass
class ReferenceFields:
    """Tagged parts of a reference, for templates that format their own citation style."""

    authors: list[PersonName] = field(default_factory=list)
    etal: bool = False
    title: str = ""
    source: str = ""
    year: str = ""
    volume: str = ""
    issue: str = ""
    pages: str = ""
    doi: str = ""
    pmid: str = ""
    publication_type: str = ""


@dataclass
class Reference:
    """A reference entry; ``text`` is empty when JATS gives only tagged fields."""

    ref_id: str
    label: str
    text: str
    fields: ReferenceFields


@dataclass
class Article:
    article_id: str
    source: str
    title: str
    authors: list[Author]
    affiliations: list[Affiliation]
    abstract: list[AbstractSection]
    keywords: list[str]
    article_type: str
    journal: str
    year: str
    doi: str
    sections: list[Section]
    figures: list[Caption]
    tables: list[Caption]
    footnotes: list[str]
    references: list[Reference]
    volume: str = ""
    issue: str = ""
    pages: str = ""
    author_notes: list[str] = field(default_factory=list)
    correspondence: list[str] = field(default_factory=list)
    #: the article's language (its ``xml:lang``; "" when the JATS does not say)
    language: str = ""
    translations: list[Translation] = field(default_factory=list)
    #: the reference list's title as printed ("References", "Referências"; "" when the JATS gives none)
    references_title: str = ""
    #: acknowledgements without a title (an ``ack`` without one): article text that is no section, which
    #: the hand-written families leave out and the platforms print after the body
    untitled_back: list[Block] = field(default_factory=list)

    @property
    def abstract_text(self) -> str:
        """The main abstract as one text: part titles and paragraphs."""
        return " ".join(t for part in self.abstract for t in (part.title or "", *(p.text for p in part.paragraphs)) if t)

    def iter_sections(self) -> Iterator[tuple[int, Section]]:
        """All sections depth first, with their 1-based depth."""
        stack = [(1, s) for s in reversed(self.sections)]
        while stack:
            depth, sec = stack.pop()
            yield depth, sec
            stack.extend((depth + 1, s) for s in reversed(sec.subsections))


# ---------------------------------------------------------------------------- text helpers


def norm(text: str | None) -> str:
    """Collapse whitespace runs to one space and strip; repair stray cp1252 characters."""
    text = text or ""
    if _C1.search(text):
        text = _C1.sub(lambda m: m.group().encode("latin-1").decode("cp1252", "ignore"), text)
    return _WS.sub(" ", text).strip()


def _local(el: etree._Element) -> str:
    """Tag name without namespace, also for prefixes the file never declared (``oasis:table``)."""
    return el.tag.rpartition("}")[2].rpartition(":")[2] if isinstance(el.tag, str) else ""


def _text(el: etree._Element | None, skip: frozenset[str] = frozenset({"xref"})) -> str:
    """Normalised text of ``el`` without the subtrees named in ``skip``."""
    if el is None:
        return ""
    return norm("".join(_raw_text(el, skip)))


def _raw_text(el: etree._Element, skip: frozenset[str]) -> Iterator[str]:
    tag = _local(el)
    if tag == "tex-math":
        yield _tex_text(el.text or "")
        return
    if tag == "name":
        yield _name_text(el)
        return
    if el.text:
        yield el.text
    for child in el:
        if isinstance(child.tag, str) and _local(child) not in skip:
            yield from _raw_text(child, skip)
        if child.tail:
            yield child.tail


def _tex_text(tex: str) -> str:
    body = re.search(r"\\begin\{document\}(.*)\\end\{document\}", tex, re.S)
    return (body.group(1) if body else tex).replace("$", " ")


def _name_text(name: etree._Element) -> str:
    """A ``name`` element as text, adding the spaces element-only markup leaves out."""
    if name.find("x") is not None or norm("".join(name.xpath("text()"))):
        return "".join(name.itertext())
    return " ".join(t for t in (_text(c) for c in name if isinstance(c.tag, str)) if t)


def _citation_text(cite: etree._Element) -> str:
    """Text of a punctuated citation, with a space where two parts touch (``M.Nature``)."""
    pieces: list[str] = [cite.text or ""]
    for child in cite:
        if isinstance(child.tag, str) and _local(child) != "label":
            part = "".join(_raw_text(child, frozenset()))
            if re.search(r"[\w.,;:]$", "".join(pieces)) and re.match(r"[\w(]", part):
                pieces.append(" ")
            pieces.append(part)
        pieces.append(child.tail or "")
    return norm("".join(pieces))


def _block_text(el: etree._Element) -> str:
    """Text of an element made of blocks (``title``, ``label``, ``p``), one space between them."""
    blocks = [c for c in el if _local(c) in ("label", "title", "p")]
    if not blocks:
        return _text(el)
    return norm(" ".join(_text(c, frozenset()) for c in blocks))


def _joined(el: etree._Element, skip: frozenset[str]) -> str:
    """Text of an element whose children may carry no separating punctuation (aff)."""
    pieces: list[str] = [el.text or ""]
    for child in el:
        if not isinstance(child.tag, str) or _local(child) in skip:
            pieces.append(child.tail or "")
            continue
        before = "".join(pieces).rstrip()
        if before and not re.search(r"[,;(\-–]$", before):
            pieces.append(", ")
        pieces.append(_text(child, skip))
        pieces.append(child.tail or "")
    return norm("".join(pieces)).replace(" ,", ",").strip(" ,;")


# ---------------------------------------------------------------------------- paragraphs


class _Runs:
    """Collects inline runs, merging adjacent citation xrefs into one citation group."""

    def __init__(self, ref_order: dict[str, int], ref_ids: list[str]) -> None:
        self.ref_order = ref_order
        self.ref_ids = ref_ids
        self.tokens: list[Run] = []

    def text(self, s: str | None) -> None:
        if s:
            self.tokens.append(s)

    def cite(self, text: str, rids: list[str]) -> None:
        known = tuple(r for r in rids if r in self.ref_order)
        if not known:
            self.text(text)
            return
        text = text or str(self.ref_order[known[0]] + 1)
        if _YEAR_ONLY.match(text) and self.tokens and isinstance(self.tokens[-1], str):
            # "Li et al., <xref>1993</xref>": the names belong to the citation
            names = _NAMES_BEFORE_YEAR.search(self.tokens[-1])
            if names and _PARTICLES.sub("", names.group(1))[:1].isupper():
                self.tokens[-1] = self.tokens[-1][: names.start(1)]
                text = names.group(1) + text
        self.tokens.append(Citation(text, known))

    def runs(self) -> list[Run]:
        merged: list[Run] = []
        for tok in _merge_adjacent_text(self.tokens):
            if (
                isinstance(tok, Citation)
                and len(merged) >= 2
                and isinstance(merged[-2], Citation)
                and isinstance(merged[-1], str)
                and _CITE_GLUE.match(merged[-1])
            ):
                glue = merged.pop()
                first = merged.pop()
                merged.append(self._join(first, glue, tok))
            elif isinstance(tok, Citation) and merged and isinstance(merged[-1], Citation):
                merged.append(self._join(merged.pop(), "", tok))
            else:
                merged.append(tok)
        return _normalise_runs(_absorb_brackets(merged))

    def _join(self, a: Citation, glue: str, b: Citation) -> Citation:
        ids = list(a.ref_ids)
        if _RANGE_GLUE.match(glue) and len(b.ref_ids) == 1:
            lo, hi = self.ref_order[a.ref_ids[-1]], self.ref_order[b.ref_ids[0]]
            ids.extend(self.ref_ids[lo + 1 : hi])
        ids.extend(r for r in b.ref_ids if r not in ids)
        return Citation(a.text + glue + b.text, tuple(dict.fromkeys(ids)))


def _merge_adjacent_text(tokens: list[Run]) -> list[Run]:
    out: list[Run] = []
    for tok in tokens:
        if isinstance(tok, str) and out and isinstance(out[-1], str):
            out[-1] += tok
        else:
            out.append(tok)
    return out


def _absorb_brackets(runs: list[Run]) -> list[Run]:
    """Move the brackets around a citation into it: ``[<xref>1</xref>]`` reads as ``[1]``."""
    out = list(runs)
    for i, run in enumerate(out):
        if not isinstance(run, Citation) or i + 1 >= len(out) or not isinstance(out[i + 1], str):
            continue
        before = out[i - 1] if i and isinstance(out[i - 1], str) else ""
        text, after = run.text, out[i + 1]
        for opener, closer in (("[", "]"), ("(", ")")):
            if text.count(opener) > text.count(closer) and after.startswith(closer):
                text, after = text + closer, after[1:]
            elif text.count(opener) == text.count(closer) and before.endswith(opener) and after.startswith(closer):
                text, after, before = opener + text + closer, after[1:], before[:-1]
                out[i - 1] = before
        out[i], out[i + 1] = Citation(text, run.ref_ids), after
    return out


def _normalise_runs(runs: list[Run]) -> list[Run]:
    """Collapse whitespace across run boundaries, keeping single spaces between runs."""
    out: list[Run] = []
    for run in runs:
        if isinstance(run, Citation):
            out.append(Citation(norm(run.text), run.ref_ids))
        elif run:
            out.append(_WS.sub(" ", run))
    if out and isinstance(out[0], str):
        out[0] = out[0].lstrip()
    if out and isinstance(out[-1], str):
        out[-1] = out[-1].rstrip()
    return [r for r in out if not (isinstance(r, str) and not r)]


class _Reader:
    """Walks one JATS ``article`` element."""

    def __init__(self, refs: list[Reference]) -> None:
        self.ref_ids = [r.ref_id for r in refs]
        self.ref_order = {rid: i for i, rid in enumerate(self.ref_ids)}
        self.figures: list[Caption] = []
        self.tables: list[Caption] = []
        self.footnotes: list[str] = []
        self.untitled_back: list[Block] = []

    # -- inline ------------------------------------------------------------------------

    def paragraph(self, el: etree._Element, spill: list[Block]) -> Paragraph:
        """Runs of ``el``; lists and floats inside it are appended to ``spill``."""
        runs = _Runs(self.ref_order, self.ref_ids)
        self._inline(el, runs, spill, top=True)
        return Paragraph(runs.runs())

    def _inline(self, el: etree._Element, runs: _Runs, spill: list[Block], top: bool = False) -> None:
        tag = _local(el)
        if not top:
            if tag == "xref" and el.get("ref-type") == "bibr":
                runs.cite("".join(el.itertext()), (el.get("rid") or "").split())
                runs.text(el.tail)
                return
            if tag in _FLOATS or tag in ("list", "def-list", "disp-quote", "fn"):
                spill.extend(self.blocks([el]))
                runs.text(el.tail)
                return
            if tag in _SKIP_INLINE:
                runs.text(el.tail)
                return
            if tag == "tex-math":
                runs.text(_tex_text(el.text or ""))
                runs.text(el.tail)
                return
            if tag == "alternatives":
                kept = _preferred_alternative(el)
                if kept is not None:
                    self._inline(kept, runs, spill)
                runs.text(el.tail)
                return
        runs.text(el.text)
        for child in el:
            if isinstance(child.tag, str):
                self._inline(child, runs, spill)
            else:
                runs.text(child.tail)
        if not top:
            runs.text(el.tail)

    # -- blocks ------------------------------------------------------------------------

    def blocks(self, elements: list[etree._Element]) -> list[Block]:
        """Blocks of a run of sibling elements; unknown containers are read through."""
        out: list[Block] = []
        for el in elements:
            tag = _local(el)
            if tag == "p":
                spill: list[Block] = []
                para = self.paragraph(el, spill)
                if para.runs:
                    out.append(para)
                out.extend(spill)
            elif tag in ("list", "def-list"):
                items = self._list_items(el)
                if items:
                    out.append(ItemList(items, ordered=el.get("list-type") in _ORDERED))
            elif tag in ("fig", "table-wrap"):
                out.append(self.caption(el))
            elif tag in ("fn", "fn-group"):
                self.footnotes.extend(t for t in (_block_text(f) for f in el.iter("fn")) if t)
            elif tag not in _DROP_BLOCKS:
                out.extend(self.blocks([c for c in el if isinstance(c.tag, str)]))
        return out

    def _list_items(self, el: etree._Element) -> list[Paragraph]:
        items: list[Paragraph] = []
        for item in el:
            spill: list[Block] = []
            if _local(item) == "list-item":
                para = self.paragraph(item, spill)
            elif _local(item) == "def-item":  # term and definition, a space between them
                parts = [self.paragraph(part, spill).runs for part in item if _local(part) in ("term", "def")]
                para = Paragraph([run for k, runs in enumerate(parts) for run in ([" "] if k else []) + runs])
            else:
                continue
            if para.runs:
                items.append(para)
        return items

    def caption(self, el: etree._Element) -> Caption:
        cap = el.find("caption")
        parts = [] if cap is None else [_text(c, frozenset()) for c in cap if _local(c) in ("title", "p")]
        kind = "table" if _local(el) == "table-wrap" else "figure"
        caption = Caption(kind, _text(el.find("label")), norm(" ".join(p for p in parts if p)), el.get("id") or "",
                          _table_rows(el) if kind == "table" else [])
        (self.tables if kind == "table" else self.figures).append(caption)
        return caption

    def section(self, el: etree._Element) -> Section:
        children = [c for c in el if isinstance(c.tag, str)]
        sec = Section(_text(el.find("title")) or None, _text(el.find("label")) or None)
        sec.paragraphs = self.blocks([c for c in children if _local(c) not in ("sec",)])
        sec.subsections = [self.section(c) for c in children if _local(c) == "sec"]
        return sec

    def body_sections(self, body: etree._Element | None, back: etree._Element | None) -> list[Section]:
        sections: list[Section] = []
        loose: list[etree._Element] = []
        for child in body if body is not None else []:
            if not isinstance(child.tag, str):
                continue
            if _local(child) == "sec":
                if loose:  # paragraphs before or between sections form an untitled section
                    sections.append(Section(None, paragraphs=self.blocks(loose)))
                    loose = []
                sections.append(self.section(child))
            elif _local(child) not in _DROP_BLOCKS:
                loose.append(child)
        if loose:
            sections.append(Section(None, paragraphs=self.blocks(loose)))
        if back is not None:
            for child in back:
                tag = _local(child)
                if tag in ("ack", "notes", "sec") and _text(child.find("title")):
                    sections.append(self.section(child))
                elif tag == "ack":
                    self.untitled_back.extend(self.blocks([c for c in child if isinstance(c.tag, str)]))
                elif tag == "app-group":
                    sections.extend(self.section(a) for a in child if _local(a) in ("app", "sec"))
                elif tag == "fn-group":
                    self.footnotes.extend(t for t in (_block_text(f) for f in child.iter("fn")) if t)
        return [s for s in sections if s.paragraphs or s.subsections]


_ORDERED = {"order", "arabic", "roman-lower", "roman-upper", "alpha-lower", "alpha-upper"}
#: Children of body/sec that carry nothing for a page.
_DROP_BLOCKS = {
    "supplementary-material",
    "media",
    "graphic",
    "disp-formula",
    "sig-block",
    "ref-list",
    "glossary",
    "preformat",
    "code",
    "object-id",
    "title",
    "label",
    "table",
    "array",
    "chem-struct-wrap",
    "related-article",
    "related-object",
}


def _table_rows(wrap: etree._Element) -> list[list[str]]:
    """Cell texts of a table-wrap's first table (XHTML or OASIS), row by row (header rows first), cut
    to :data:`MAX_TABLE_ROWS` x :data:`MAX_TABLE_COLUMNS`; empty when the table is only an image."""
    table = next((t for t in wrap.iter() if _local(t) == "table"), None)
    if table is None:
        return []
    rows = []
    for tr in (r for r in table.iter() if _local(r) in ("tr", "row")):
        cells = [_text(c, frozenset()) for c in tr if _local(c) in ("td", "th", "entry")]
        if any(cells):
            rows.append(cells[:MAX_TABLE_COLUMNS])
        if len(rows) == MAX_TABLE_ROWS:
            break
    return rows


def _preferred_alternative(alt: etree._Element) -> etree._Element | None:
    children = [c for c in alt if isinstance(c.tag, str)]
    for wanted in ("math", "tex-math"):
        for c in children:
            if _local(c) == wanted:
                return c
    return children[0] if children else None


def _place_floats(sections: list[Section], floats: list[Caption], article: etree._Element) -> None:
    """Put captions from ``floats-group`` after the first paragraph that refers to them."""
    for cap in floats:
        target = None
        for xref in article.iter("xref"):
            if cap.float_id and cap.float_id in (xref.get("rid") or "").split():
                target = _text(xref.getparent())
                break
        if not _insert_after(sections, cap, target) and sections:
            sections[-1].paragraphs.append(cap)


def _insert_after(sections: list[Section], cap: Caption, target: str | None) -> bool:
    if not target:
        return False
    for sec in sections:
        for i, block in enumerate(sec.paragraphs):
            if isinstance(block, Paragraph) and norm(block.text)[:80] == target[:80]:
                sec.paragraphs.insert(i + 1, cap)
                return True
        if _insert_after(sec.subsections, cap, target):
            return True
    return False


# ---------------------------------------------------------------------------- references


def _reference(ref: etree._Element, index: int) -> Reference | None:
    cites = [c for t in _CITATION_TAGS for c in ref.iter(t)]
    if not cites:
        text = _text(ref, frozenset({"label"}))
        return (
            Reference(ref.get("id") or f"ref{index + 1}", _ref_label(ref), text, ReferenceFields())
            if text
            else None
        )
    mixed = [
        c
        for c in cites
        if _local(c) == "mixed-citation" or _local(c) in ("citation", "nlm-citation") and _is_punctuated(c)
    ]
    text = norm(" ".join(_citation_text(c) for c in mixed))
    return Reference(ref.get("id") or f"ref{index + 1}", _ref_label(ref), text, _fields(cites[0]))


def _ref_label(ref: etree._Element) -> str:
    return _text(ref.find("label")).strip("[]().").strip()


def _is_punctuated(cite: etree._Element) -> bool:
    if cite.find("x") is not None:
        return True
    loose = [cite.text or ""] + [c.tail or "" for c in cite]
    return sum(bool(re.search(r"[^\s]", s)) for s in loose) >= 2


def _fields(cite: etree._Element) -> ReferenceFields:
    f = ReferenceFields(publication_type=cite.get("publication-type") or cite.get("citation-type") or "")
    groups = [g for g in cite.iter("person-group") if g.get("person-group-type") in (None, "author", "allauthors")]
    holders = groups[:1] or [cite]
    for holder in holders:
        for el in holder:
            tag = _local(el)
            if tag == "name":
                f.authors.append(PersonName(_text(el.find("given-names")), _text(el.find("surname"))))
            elif tag == "string-name":
                surname = _text(el.find("surname"))
                f.authors.append(PersonName(_text(el.find("given-names")), surname or _text(el)))
            elif tag == "collab":
                f.authors.append(PersonName("", _text(el)))
            elif tag == "etal":
                f.etal = True
    f.title = _text(_first(cite, "article-title", "chapter-title", "data-title", "part-title"))
    f.source = _text(_first(cite, "source"))
    f.year = re.sub(r"[^0-9a-z]", "", _text(_first(cite, "year")))[:6]
    f.volume = _text(_first(cite, "volume"))
    f.issue = _text(_first(cite, "issue"))
    fpage, lpage = _text(_first(cite, "fpage")), _text(_first(cite, "lpage"))
    f.pages = f"{fpage}–{lpage}" if fpage and lpage else fpage or _text(_first(cite, "elocation-id"))
    for pid in cite.iter("pub-id"):
        kind = pid.get("pub-id-type")
        if kind == "doi" and not f.doi:
            f.doi = _text(pid)
        elif kind == "pmid" and not f.pmid:
            f.pmid = _text(pid)
    return f


def _references_title(back: etree._Element | None) -> str:
    """The first reference list's title that has text, "" when none has."""
    titles = () if back is None else (_text(title) for title in back.iterfind(".//ref-list/title"))
    return next((title for title in titles if title), "")


def _first(el: etree._Element, *tags: str) -> etree._Element | None:
    for tag in tags:
        found = next(el.iter(tag), None)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------- front matter


def _authors(meta: etree._Element) -> tuple[list[Author], list[Affiliation]]:
    authors: list[Author] = []
    inline: list[Affiliation] = []
    other_aff_ids: set[str] = set()
    for contrib in meta.iterfind("contrib-group/contrib"):
        ctype = contrib.get("contrib-type")
        rids = [
            r for x in contrib.iterfind("xref") if x.get("ref-type") == "aff" for r in (x.get("rid") or "").split()
        ]
        if ctype not in (None, "author"):
            other_aff_ids.update(rids)
            continue
        author = _author(contrib)
        if author is None:
            continue
        author.aff_ids = rids
        for aff in contrib.iterfind("aff"):
            text = _joined(aff, _AFF_SKIP)
            if text and not _EMAIL_ONLY.match(text):
                aff_id = aff.get("id") or f"contrib-aff-{len(inline) + 1}"
                inline.append(Affiliation(aff_id, "", text))
                author.aff_ids.append(aff_id)
        authors.append(author)
    cited = {r for a in authors for r in a.aff_ids}
    affs: list[Affiliation] = []
    for aff in meta.xpath(".//aff[not(ancestor::aff-alternatives)] | .//aff-alternatives/aff[1]"):
        if aff.getparent() is not None and _local(aff.getparent()) == "contrib":
            continue
        aff_id = aff.get("id") or f"aff-{len(affs) + 1}"
        if aff_id not in cited and (cited or aff_id in other_aff_ids):
            continue
        label = _text(aff.find("label"))
        skip = _AFF_SKIP
        if not label and len(aff) and _local(aff[0]) == "sup" and not norm(aff.text):
            label, skip = _text(aff[0]), skip | {"sup"}
        text = _joined(aff, skip)
        if text and not _EMAIL_ONLY.match(text):
            affs.append(Affiliation(aff_id, label, text))
    return authors, affs + [a for a in inline if a.aff_id not in {b.aff_id for b in affs}]


def _author(contrib: etree._Element) -> Author | None:
    name = contrib.find("name")
    if name is None:
        name = contrib.find("name-alternatives/name")
    if name is not None:
        given, surname = _text(name.find("given-names")), _text(name.find("surname"))
        suffix = _text(name.find("suffix"))
        display = " ".join(p for p in (given, surname, suffix) if p)
        author = Author(display, given, surname)
    elif contrib.find("string-name") is not None:
        sn = contrib.find("string-name")
        author = Author(_text(sn), _text(sn.find("given-names")), _text(sn.find("surname")))
    elif contrib.find("collab") is not None:
        collab = contrib.find("collab")
        author = Author(_text(collab, frozenset({"xref", "contrib-group", "fn"})), is_collab=True)
    else:
        return None
    if not author.name:
        return None
    author.corresponding = contrib.get("corresp") == "yes" or any(
        x.get("ref-type") == "corresp" for x in contrib.iterfind("xref")
    )
    author.email = _text(contrib.find("email")) or _text(contrib.find("address/email"))
    return author


def _main_abstract(meta: etree._Element, reader: _Reader) -> list[AbstractSection]:
    abstracts = list(meta.iterfind("abstract"))
    main = next((a for a in abstracts if a.get("abstract-type") is None), None)
    if main is None:  # some publishers type their only abstract ("short", "abstract")
        main = next((a for a in abstracts if a.get("abstract-type") not in _SECONDARY_ABSTRACTS), None)
    return [] if main is None else _abstract_parts(main, reader)


def _translations(article: etree._Element, meta: etree._Element, language: str, reader: _Reader) -> list[Translation]:
    """The article's title and abstract in each other language, in the order the JATS gives them."""
    found: dict[str, Translation] = {}

    def add(lang: str | None, title: str = "", abstract: list[AbstractSection] | None = None) -> None:
        if not lang or lang == language:
            return
        got = found.setdefault(lang, Translation(lang))
        got.title = got.title or title
        got.abstract = got.abstract or (abstract or [])

    for group in meta.iterfind("title-group/trans-title-group"):
        add(group.get(_XML_LANG), title=_text(group.find("trans-title")))
    for abstract in meta.iterfind("trans-abstract"):
        add(abstract.get(_XML_LANG), abstract=_abstract_parts(abstract, reader))
    for sub in article.iterfind("sub-article[@article-type='translation']"):
        stub = sub.find("front-stub")
        if stub is not None:
            main = stub.find("abstract")
            add(sub.get(_XML_LANG), title=_text(stub.find("title-group/article-title")),
                abstract=[] if main is None else _abstract_parts(main, reader))
    return [t for t in found.values() if t.title or t.abstract]


def _abstract_parts(main: etree._Element, reader: _Reader) -> list[AbstractSection]:
    parts: list[AbstractSection] = []
    loose = [c for c in main if _local(c) not in ("sec", "title", "label")]
    if loose:
        parts.append(AbstractSection(None, _paragraphs(reader.blocks(loose))))
    for sec in main.iterfind("sec"):
        parts.append(AbstractSection(_text(sec.find("title")) or None, _paragraphs(reader.blocks(list(sec)))))
    return [p for p in parts if p.paragraphs]


def _paragraphs(blocks: list[Block]) -> list[Paragraph]:
    out: list[Paragraph] = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.append(block)
        elif isinstance(block, ItemList):
            out.extend(block.items)
    return out


def _year(meta: etree._Element) -> str:
    for date in meta.iterfind("pub-date"):
        year = _text(date.find("year"))
        if year:
            return year
    return ""


def _article_type(article: etree._Element, meta: etree._Element) -> str:
    heading = meta.find("article-categories/subj-group[@subj-group-type='heading']/subject")
    if heading is None:
        heading = meta.find("article-categories/subj-group[@subj-group-type='type-of-article']/subject")
    if heading is not None and _text(heading):
        return _text(heading)
    return (article.get("article-type") or "").replace("-", " ").strip().capitalize()


def _keywords(meta: etree._Element) -> list[str]:
    for group in meta.iterfind("kwd-group"):
        if group.get("kwd-group-type") in (None, "author", "author-keywords", "author-generated"):
            words = [_text(k) for k in group.iterfind("kwd")]
            if any(words):
                return [w for w in words if w]
    return []


# ---------------------------------------------------------------------------- entry points


def _load(path: Path) -> etree._Element:
    parser = etree.XMLParser(
        recover=True,
        no_network=True,
        resolve_entities=False,
        load_dtd=False,
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        tree = etree.parse(str(path), parser)
    except (OSError, etree.XMLSyntaxError) as exc:
        raise ValueError(f"{path}: not parseable XML ({exc})") from exc
    root = tree.getroot()
    if root is None:
        raise ValueError(f"{path}: empty or unparseable XML")
    return root


def _main_article(root: etree._Element, path: Path) -> etree._Element:
    tag = _local(root)
    if tag == "pmc-articleset":
        articles = root.findall("article")
        if not articles:
            raise ValueError(f"{path}: pmc-articleset without an article")
        return articles[0]
    if tag != "article":
        kind = _FOREIGN_ROOTS.get(tag, "unknown format")
        raise ValueError(f"{path}: not a JATS/NLM article (root <{tag}>, {kind})")
    return root


def parse_jats(path: str | Path, article_id: str | None = None) -> Article:
    """Parse one JATS/NLM article; raise ``ValueError`` naming the file if it is unusable."""
    path = Path(path)
    article = _main_article(_load(path), path)
    meta = article.find("front/article-meta")
    if meta is None:
        raise ValueError(f"{path}: JATS article without front/article-meta")
    title = _text(meta.find("title-group/article-title"), frozenset({"xref", "fn"}))
    subtitle = _text(meta.find("title-group/subtitle"))
    if not title:
        raise ValueError(f"{path}: JATS article without a title")
    if subtitle:
        title = f"{title}: {subtitle}"
    back = article.find("back")
    ref_els = [] if back is None else back.xpath(".//ref-list//ref")
    refs = [r for r in (_reference(el, i) for i, el in enumerate(ref_els)) if r is not None]
    unique: dict[str, Reference] = {}
    for ref in refs:
        unique.setdefault(ref.ref_id, ref)
    refs = list(unique.values())
    reader = _Reader(refs)
    authors, affs = _authors(meta)
    abstract = _main_abstract(meta, reader)
    language = (article.get(_XML_LANG) or "").lower()
    sections = reader.body_sections(article.find("body"), back)
    floats = article.find("floats-group")
    if floats is not None:
        _place_floats(sections, [reader.caption(f) for f in floats.iter("fig", "table-wrap")], article)
    if not (authors or abstract or sections or refs):
        raise ValueError(f"{path}: JATS article with a title only (no authors, abstract, body or references)")
    fpage, lpage = _text(meta.find("fpage")), _text(meta.find("lpage"))
    return Article(
        article_id=article_id or _slug(path.name),
        source=str(path),
        title=title,
        authors=authors,
        affiliations=affs,
        abstract=abstract,
        keywords=_keywords(meta),
        article_type=_article_type(article, meta),
        journal=_text(article.find("front/journal-meta//journal-title")),
        year=_year(meta),
        doi=_text(meta.find("article-id[@pub-id-type='doi']")),
        sections=sections,
        figures=reader.figures,
        tables=reader.tables,
        footnotes=list(dict.fromkeys(reader.footnotes)),
        references=refs,
        volume=_text(meta.find("volume")),
        issue=_text(meta.find("issue")),
        pages=f"{fpage}–{lpage}" if fpage and lpage else fpage or _text(meta.find("elocation-id")),
        author_notes=[t for t in (_block_text(fn) for fn in meta.iterfind("author-notes/fn")) if t],
        correspondence=[
            t for t in (_text(c, frozenset({"label"})) for c in meta.iterfind("author-notes/corresp")) if t
        ],
        language=language,
        translations=_translations(article, meta, language, reader),
        references_title=_references_title(back),
        untitled_back=reader.untitled_back,
    )


def _slug(name: str) -> str:
    for suffix in sorted(JATS_SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def article_id_for(path: Path, jats_dir: Path) -> str:
    """Stable id from the path relative to the corpus folder, e.g. ``norma-zika10-PMC320490``."""
    rel = path.relative_to(jats_dir)
    return "-".join([*(_slug(p) for p in rel.parts[:-1]), _slug(rel.name)])


def iter_jats_files(jats_dir: Path) -> list[Path]:
    """JATS files under ``jats_dir`` (recursive), sorted for a stable order."""
    return sorted(p for p in Path(jats_dir).rglob("*") if p.is_file() and p.name.lower().endswith(JATS_SUFFIXES))


def iter_articles(jats_dir: str | Path) -> Iterator[tuple[Path, Article]]:
    """Yield ``(path, Article)`` for every usable article; log and skip the others."""
    jats_dir = Path(jats_dir)
    for path in iter_jats_files(jats_dir):
        try:
            yield path, parse_jats(path, article_id_for(path, jats_dir))
        except ValueError as exc:
            log.info("skipping %s", exc)
