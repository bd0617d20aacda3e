"""Gold on a platform's own rendered page, and the page made self-contained.

A platform family renders the article through the platform's templates, then finds the platform's own
elements for each component (title, authors, affiliations, abstract, references ...), checks their text
against the parsed :class:`~scilabel.corpus.jats.Article` and marks them with the attributes the
hand-written families write (spelled once, in :mod:`scilabel.corpus.templates.base`). A component the
page shows that cannot be found, or whose text does not match, raises :class:`PageDropped`: the page
is left out rather than given wrong gold.

Texts are compared as multisets of words (NFKC, case-folded ``\\w+`` runs): an element must hold
every word of the article's text (or all but ``lost`` of them), and at most ``slack`` words more
(markers, ORCID links, labels); a word the platform runs into its neighbour still counts as shown.
"""
from __future__ import annotations

import copy
import html
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from scilabel.corpus.jats import Article, Author, Paragraph, Reference
from scilabel.corpus.templates.base import CONTINUES, cite_attrs, content, lab, ref_attrs, ref_links_attrs, section_attrs

_WORD = re.compile(r"\w+")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
#: DOIs and URLs in a reference's text: platforms show them as links of their own, or not at all (and
#: the page scorer leaves them out of references).
_LINKS = re.compile(r"\b(?:doi:?\s*)?10\.\d{4,9}/\S+|\bhttps?://\S+|\bdoi:", re.I)
_CSS_URL = re.compile(r"url\(\s*(?![\"']?data:)[^)]*\)", re.I)
#: Elements whose text a reader never sees.
_UNSEEN = ("script", "style", "template", "noscript", "title")


class PageDropped(ValueError):
    """A page whose gold cannot be set exactly; the generator leaves it out and logs the reason."""


# ---------------------------------------------------------------------------- platform output


def load_jats(path: str | Path) -> etree._ElementTree:
    """The raw JATS article, for the platform's own stylesheets (no DTD, no network; parsed as leniently
    as :func:`~scilabel.corpus.jats.parse_jats` does); of a ``pmc-articleset``, its first article.
    NLM 2.x ``citation`` elements get their JATS name, ``mixed-citation``, which the stylesheets know."""
    parser = etree.XMLParser(recover=True, load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)
    tree = etree.parse(str(path), parser)
    if tree.getroot().tag == "pmc-articleset":
        tree = etree.ElementTree(copy.deepcopy(tree.getroot().find("article")))
    for el in tree.iter("citation"):
        el.tag = "mixed-citation"
    return tree


@lru_cache(maxsize=None)
def _compiled(path: Path) -> etree.XSLT:
    return etree.XSLT(etree.parse(str(path)))


def transform(path: Path, doc: etree._ElementTree, **params: str) -> etree._XSLTResultTree:
    """``doc`` through the XSLT 1.0 stylesheet at ``path`` (compiled once per process); a stylesheet
    that fails on the article drops the page."""
    try:
        return _compiled(path)(doc, **params)
    except etree.XSLTApplyError as exc:
        raise PageDropped(f"{path.name} failed on the article: {exc}") from exc


def parse_html(text: str) -> etree._Element:
    """A platform's HTML output as an lxml document."""
    return lxml_html.document_fromstring(text)


# ---------------------------------------------------------------------------- text checks


def words(text: str) -> list[str]:
    """NFKC, case-folded ``\\w+`` runs."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def shown_text(el: etree._Element) -> str:
    """Text of ``el`` a reader can see: scripts, styles and ``hidden`` elements left out."""
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        if not isinstance(node.tag, str) or node.tag in _UNSEEN or node.get("hidden") is not None:
            return
        parts.append(node.text or "")
        for child in node:
            walk(child)
            parts.append(child.tail or "")

    walk(el)
    return " ".join("".join(parts).split())


def _diff(shown: str, expected: str) -> tuple[Counter, Counter]:
    """The words of ``expected`` that ``shown`` lacks (a word inside a longer one counts as shown) and
    the words ``shown`` has beyond it."""
    got, want = Counter(words(shown)), Counter(words(expected))
    squashed = "".join(words(shown))
    extra = got - want
    if extra and want:  # a shown word made of expected ones run together is no extra word
        fused = re.compile("(?:" + "|".join(sorted(map(re.escape, want), key=len, reverse=True)) + ")+")
        extra = Counter({w: n for w, n in extra.items() if not fused.fullmatch(w)})
    return Counter({w: n for w, n in (want - got).items() if w not in squashed}), extra


def mismatch(shown: str, expected: str, slack: int = 0, lost: int = 0) -> str | None:
    """Why ``shown`` is not ``expected``, or None: more than ``lost`` of its words missing, or more than
    ``slack`` words extra. A word may be part of a longer one: platforms run adjacent elements together
    ("1Rotman Research", "Bruchusaffinis", "J BanchereauR. M Steinman1998Dendritic")."""
    missing, extra = _diff(shown, expected)
    if sum(missing.values()) > lost:
        return f"missing {' '.join(sorted(missing.elements())[:8])!r}"
    if sum(extra.values()) > slack:
        return f"{sum(extra.values())} extra words ({' '.join(sorted(extra.elements())[:8])!r} ...)"
    return None


def check(what: str, el: etree._Element | None, expected: str, slack: int = 0, lost: int = 0) -> etree._Element:
    """``el`` when it shows ``expected`` (:func:`mismatch`); else raise :class:`PageDropped`."""
    if el is None:
        raise PageDropped(f"{what}: not found on the page")
    why = mismatch(shown_text(el), expected, slack, lost)
    if why:
        raise PageDropped(f"{what}: text mismatch, {why}")
    return el


def shows(el: etree._Element, text: str) -> bool:
    """Whether ``el`` shows ``text``'s words in a row (to tell a component the platform leaves out from
    one it shows where it was not looked for)."""
    return f" {' '.join(words(text))} " in f" {' '.join(words(shown_text(el)))} "


def reference_text(ref: Reference) -> str:
    """What every rendering of ``ref`` shows: its punctuated text, else its title, source, year and
    author family names (volume and pages are formatted too differently to compare)."""
    if ref.text:
        return ref.text
    f = ref.fields
    year = f.year if f.year[:1].isdigit() else ""  # "In Press" is read as the year "nress"
    return " ".join([f.title, f.source, year, *(n.family for n in f.authors)])


# ---------------------------------------------------------------------------- marking


def _set(el: etree._Element, attrs: str) -> None:
    for name, value in _ATTR.findall(attrs):
        el.set(name, html.unescape(value))


def mark(el: etree._Element, label: str) -> None:
    """Mark ``el`` (and what it holds) as one zone label."""
    _set(el, lab(label))


def mark_content(el: etree._Element, struct: str | None = None) -> None:
    """Mark ``el`` as article content with its structure role."""
    _set(el, content(struct))


#: The order :func:`mark_blocks` marks a section's blocks in: a block inside one marked before it is
#: part of that one (a caption's paragraphs, a list item's paragraph, a table's notes).
BLOCK_ORDER = ("caption", "footnote", "item", "paragraph", "heading")


def mark_blocks(sec: etree._Element, **xpaths: str) -> None:
    """Mark the blocks of section ``sec`` found by one XPath a structure role (``caption=...,
    item=...``), in :data:`BLOCK_ORDER`; an element inside one already marked content is left as part
    of it."""
    for struct in BLOCK_ORDER:
        if struct not in xpaths:
            continue
        for el in sec.xpath(xpaths[struct]):
            if not any(a.get("data-scilabel-content") for a in el.iterancestors()):
                mark_content(el, struct)


#: Leading words that identify one of the article's paragraphs on the page (:func:`mark_loose_text`).
LEAD_WORDS = 8
#: Words a platform may print before an article's note (its type as a title).
NOTE_TITLE_WORDS = 3
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def mark_loose_text(root: etree._Element, article: Article) -> None:
    """Mark the article text a platform prints outside the section elements its family marks: body
    paragraphs set straight in the body (a body without sections, or text before the first), titled
    back-matter sections (acknowledgements, notes, appendices) printed as a bare heading and block,
    acknowledgements without a title, and the article's notes (``fn-group``: competing interests,
    contributions), which the hand-written families print as footnotes. Each is found by its text among
    elements no mark covers: a paragraph whose first :data:`LEAD_WORDS` words are those of one of the
    article's paragraphs (or of the acknowledgements without a title), a note showing
    one of its notes' words and at most :data:`NOTE_TITLE_WORDS` more (a title the platform sets before
    it: "Competing interests:"), a heading reading as one of its section titles (at that
    section's depth), a bare heading right before the acknowledgements without a title (the
    platform's own title for them, at depth 1). Last, paragraph text cut off its paragraph by a block
    inside it (:func:`mark_paragraph_tails`)."""
    leads, titles, blocks = set(), {}, list(article.untitled_back)
    for depth, sec in article.iter_sections():
        if sec.title:
            titles.setdefault(tuple(words(sec.title)), depth)
        blocks.extend(sec.paragraphs)
    for block in blocks:
        if isinstance(block, Paragraph) and len(words(block.text)) >= LEAD_WORDS:
            leads.add(tuple(words(block.text)[:LEAD_WORDS]))
    back_leads = {tuple(words(b.text)[:LEAD_WORDS]) for b in article.untitled_back if isinstance(b, Paragraph)}
    notes = [(" ".join(words(note)[:LEAD_WORDS]), note) for note in article.footnotes if len(words(note)) >= 3]
    for el in root.iter("p", *_HEADINGS, *(("li", "div") if notes else ())):  # blocks other than p hold only notes
        if not _unmarked(el):
            continue
        text = shown_text(el)
        shown = words(text)
        line = " ".join(shown[:LEAD_WORDS + NOTE_TITLE_WORDS])
        opening = tuple(shown[:LEAD_WORDS])
        if any(lead in line and mismatch(text, note, slack=NOTE_TITLE_WORDS) is None for lead, note in notes):
            mark_content(el, "footnote")
        elif el.tag == "p" and opening in leads:
            mark_content(el, "paragraph")
            if opening in back_leads:
                _mark_back_title(el)
        elif el.tag in _HEADINGS and shown:
            depth = titles.get(tuple(shown)) or titles.get(tuple(shown[1:]))  # a label before the title
            if depth:
                mark_content(el, "heading")
                mark_level(el, depth)
    mark_paragraph_tails(root)


def _unmarked(el: etree._Element) -> bool:
    """Whether ``el`` is shown and neither it nor an element around it carries a mark."""
    return not any(a.get("data-scilabel") or a.get("data-scilabel-content") or a.tag in _UNSEEN
                   or a.get("hidden") is not None for a in (el, *el.iterancestors()))


def _mark_back_title(paragraph: etree._Element) -> None:
    """Mark the bare heading printed right before ``paragraph`` (or before the block holding it as its
    first element), a paragraph of the acknowledgements without a title, as their title."""
    el = paragraph
    while el.getprevious() is None and el.getparent() is not None and not el.getparent().get("data-scilabel-struct"):
        el = el.getparent()
    heading = el.getprevious()
    if heading is not None and heading.tag in _HEADINGS and words(shown_text(heading)) and _unmarked(heading):
        mark_content(heading, "heading")
        mark_level(heading, 1)


#: Elements that end an HTML paragraph when they open inside one (a display formula's ``div``).
_BREAKS_P = ("div", "table", "ul", "ol", "dl", "figure", "pre", "blockquote", "p", "section", "hr",
             *_HEADINGS)


def mark_paragraph_tails(root: etree._Element) -> None:
    """Mark the text of a paragraph that HTML parsing cut off it: a block inside a ``p`` (a display
    formula printed as a ``div``, or as a ``p`` of its own) closes the paragraph, and its text after
    the block lies bare beside it. That text (with the inline elements around it) is wrapped in a
    ``span`` marked as the same paragraph (:data:`~scilabel.corpus.templates.base.CONTINUES`), which
    changes nothing shown. A block with nothing after it (the first of two display formulas in a row)
    is passed over to the next. Text after a paragraph of the gold's own is left: nothing says whose it is."""
    for p in list(root.xpath('.//p[@data-scilabel-struct="paragraph"]')):
        block = p.getnext()
        while (block is not None and block.tag in _BREAKS_P
               and not (block.tag == "p" and block.get("data-scilabel-struct"))):
            if not (block.tail or "").strip():
                block = block.getnext()
                continue
            run = _inline_run(block)
            span = etree.Element("span")
            span.text, block.tail = block.tail, None
            for el in run:
                span.append(el)  # moves it, with its tail
            block.addnext(span)
            mark_content(span, "paragraph")
            span.set(CONTINUES, "1")
            block = span.getnext()


def _inline_run(block: etree._Element) -> list[etree._Element]:
    """The inline elements following ``block`` up to the next block."""
    run, el = [], block.getnext()
    while el is not None and isinstance(el.tag, str) and el.tag not in _BREAKS_P:
        run.append(el)
        el = el.getnext()
    return run


def mark_section(el: etree._Element, level: int) -> None:
    """Mark ``el`` as a body section at depth ``level``."""
    _set(el, section_attrs(level))


def mark_level(heading: etree._Element, level: int) -> None:
    """Give a section title its own depth, where the platform prints a subsection's title inside the
    section's element (the gold of heading levels; :func:`mark_section`'s cap of 3)."""
    heading.set("data-scilabel-level", str(min(level, 3)))


def mark_reference(el: etree._Element, ref: Reference) -> None:
    """Mark ``el`` as the entry of ``ref``."""
    _set(el, ref_attrs(ref))


def mark_ref_links(el: etree._Element) -> None:
    """Mark a reference's look-up links on a line of their own inside its entry: no part of it."""
    _set(el, ref_links_attrs())


def mark_cite(el: etree._Element, ref_ids: Sequence[str]) -> None:
    """Mark ``el`` as an in-text citation of the references ``ref_ids``."""
    _set(el, cite_attrs(ref_ids))


def mark_citations(root: etree._Element, article: Article) -> None:
    """Mark every link to a reference (``#`` and its id) as an in-text citation of that reference."""
    targets = {f"#{r.ref_id}": r.ref_id for r in article.references}
    for a in root.iter("a"):
        ref_id = targets.get(a.get("href", ""))
        if ref_id is not None and a.get("data-scilabel-ref") is None:
            mark_cite(a, [ref_id])


def mark_references(pairs: Iterable[tuple[etree._Element, Reference]], article: Article, slack: int) -> None:
    """Mark each reference entry after checking its text; every reference of the article must be among
    them exactly once. An entry, found by the reference's id, may show the reference with a word in ten
    left out ("(eds)"), its DOIs and URLs elsewhere, and, without punctuated text, all its fields
    (:func:`reference_text`)."""
    seen: set[str] = set()
    for el, ref in pairs:
        if ref.ref_id in seen:
            raise PageDropped(f"reference {ref.ref_id}: two entries")
        if el is None:
            raise PageDropped(f"reference {ref.ref_id}: not found on the page")
        expected = _LINKS.sub(" ", reference_text(ref))
        n = len(words(expected))
        extra = slack + (n // 2 if ref.text else 4 * n + 10)
        why = mismatch(_LINKS.sub(" ", shown_text(el)), expected, extra, lost=n // 10)
        if why:
            raise PageDropped(f"reference {ref.ref_id}: text mismatch, {why}")
        mark_reference(el, ref)
        seen.add(ref.ref_id)
    absent = [r.ref_id for r in article.references if r.ref_id not in seen]
    if absent:
        raise PageDropped(f"{len(absent)} references not shown as entries ({', '.join(absent[:4])} ...)")


def mark_authors(
    entries: Sequence[etree._Element], authors: Sequence[Author], scope: etree._Element, slack: int = 12
) -> list[etree._Element]:
    """Mark, in order, the entry that shows each of ``authors``' names among ``entries`` (the platform's
    contributor entries, in page order; entries of other contributors are skipped and stay unmarked).
    An author whose name the platform leaves out (``scope`` shows it nowhere) is skipped. Returns the
    marked entries."""
    marked = []
    start = 0
    for author in authors:
        for i in range(start, len(entries)):
            if mismatch(shown_text(entries[i]), author.name, slack) is None:
                mark(entries[i], "authors")
                marked.append(entries[i])
                start = i + 1
                break
        else:
            if shows(scope, author.name):
                raise PageDropped(f"author {author.name!r}: shown outside the contributor entries")
    return marked


def mark_run(
    elements: Sequence[etree._Element], expected: str, label: str, slack: int = 0, lost: int = 0
) -> list[etree._Element]:
    """Mark the first run of consecutive ``elements`` that together show ``expected`` (:func:`mismatch`)
    as ``label`` (an abstract whose container also holds its heading or the keywords); returns the run,
    empty when there is none."""
    texts = [shown_text(el) for el in elements]
    for i in range(len(elements)):
        for j in range(i + 1, len(elements) + 1):
            missing, extra = _diff(" ".join(texts[i:j]), expected)
            if sum(extra.values()) > slack:
                break
            if sum(missing.values()) <= lost:
                for el in elements[i:j]:
                    mark(el, label)
                return list(elements[i:j])
    return []


def by_id(root: etree._Element, ident: str) -> etree._Element | None:
    """The element with id ``ident``."""
    found = root.xpath("//*[@id=$i]", i=ident)
    return found[0] if found else None


def has_class(cls: str) -> str:
    """XPath predicate: the element carries class ``cls``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {cls} ')"


# ---------------------------------------------------------------------------- the document


@lru_cache(maxsize=None)
def style_sheet(path: Path) -> str:
    """A platform's style sheet without comments and runs of white space (the same rules, a smaller
    page), read once per process."""
    css = path.read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).strip()


def finish(root: etree._Element, css: str, variant: str, lang: str = "en") -> str:
    """The marked page as a self-contained document: the platform's style sheet (``css`` and any
    ``<style>`` blocks of its own) inlined as one style block, nothing fetched from outside (scripts,
    linked style sheets, images and CSS ``url()`` resources go: rendering is offline), no comments."""
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    for comment in list(root.iter(etree.Comment)):  # never shown; some hold conditional <style> blocks
        _drop(comment)
    own = []
    for el in list(root.iter("script", "noscript", "link", "style", "iframe")):
        if el.tag == "style":
            own.append(el.text or "")
        if el.tag != "link" or el.get("rel", "").lower() in ("stylesheet", "preload", "icon", "shortcut icon",
                                                              "apple-touch-icon", "prefetch", "manifest"):
            _drop(el)
    for el in root.iter("img", "source", "video", "audio", "input", "embed"):
        for attr in ("src", "srcset", "poster"):
            el.attrib.pop(attr, None)
    for el in root.xpath("//*[@style]"):
        el.set("style", _CSS_URL.sub("none", el.get("style")))
    for el in root.xpath("//meta[@charset or @http-equiv]"):
        _drop(el)
    charset = etree.SubElement(head, "meta", charset="utf-8")
    head.insert(0, charset)
    style = etree.SubElement(head, "style")
    style.text = "\n" + _CSS_URL.sub("none", "\n".join([css, *own]).strip()) + "\n"
    style.tail = "\n"
    root.set("lang", root.get("lang") or lang)
    root.set("data-scilabel-variant", variant)
    return lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>") + "\n"


def _drop(el: etree._Element) -> None:
    """Remove ``el`` but keep its tail text."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)
