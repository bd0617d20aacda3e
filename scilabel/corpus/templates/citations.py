"""In-text citations and reference entries in the citation styles templates choose from."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from scilabel.corpus.jats import Article, Citation, Paragraph, PersonName, Reference, Run
from scilabel.corpus.templates.base import cite_attrs, esc, ref_links_attrs

#: How in-text citations look: as JATS wrote them, [1–3], superscript 1–3, (Smith et al., 2001).
CITE_STYLES = ("original", "numbered", "superscript", "author-year")


def compress_numbers(numbers: Sequence[int], sep: str = ", ") -> str:
    """``1, 2, 3, 5`` -> ``1–3, 5``; runs of two stay apart (``1, 2``)."""
    nums = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]}–{nums[j]}")
        else:
            parts.extend(str(n) for n in nums[i : j + 1])
        i = j + 1
    return sep.join(parts)


def author_year_label(ref: Reference, conj: str = "and") -> str | None:
    """``Smith et al., 2001`` from the reference fields, or None when they are missing."""
    names, year = ref.fields.authors, ref.fields.year
    if not names or not year or not names[0].family:
        return None
    if len(names) == 1 and not ref.fields.etal:
        who = names[0].family
    elif len(names) == 2 and not ref.fields.etal:
        who = f"{names[0].family} {conj} {names[1].family}"
    else:
        who = f"{names[0].family} et al."
    return f"{who}, {year}"


def _numeric_share(article: Article) -> float:
    """Share of the article's own citations written as numbers ("[3]", "4–6") rather than names."""
    texts = [
        c.text
        for _, sec in article.iter_sections()
        for b in sec.paragraphs
        if isinstance(b, Paragraph)
        for c in b.citations
    ]
    if not texts:
        return 1.0
    return sum(bool(re.match(r"^[\[(]?\s*\d", t)) and not re.search(r"[A-Za-z]{3}", t) for t in texts) / len(texts)


class Citer:
    """Renders paragraph runs, turning each citation into one annotated element.

    ``link`` is the family's anchor idiom, a format string with ``{href}``, ``{attrs}`` and
    ``{text}``; ``attrs`` carries the gold ``data-scilabel-cite`` attribute.
    """

    def __init__(
        self,
        article: Article,
        style: str,
        link: str = '<a href="#{href}"{attrs}>{text}</a>',
        conj: str = "and",
    ) -> None:
        self.number = {r.ref_id: i + 1 for i, r in enumerate(article.references)}
        labels = {r.ref_id: author_year_label(r, conj) for r in article.references}
        if style == "author-year" and sum(v is None for v in labels.values()) > 0.1 * max(1, len(labels)):
            style = "numbered"  # too few references carry names and years
        self.style = style
        self.labels = labels
        self.original_numeric = _numeric_share(article) >= 0.5
        self.link = link
        self.count = 0

    @property
    def numbered_references(self) -> bool:
        """Whether the reference list should show numbers that match the citations."""
        if self.style == "original":
            return self.original_numeric
        return self.style != "author-year"

    def runs(self, runs: Sequence[Run]) -> str:
        """Escaped HTML of paragraph runs, spacing restyled citations like their style wants."""
        out: list[str] = []
        prev = ""
        for run in runs:
            if isinstance(run, str):
                out.append(esc(run))
                prev = run
                continue
            if self.style == "superscript" and prev.endswith(" "):
                out[-1] = esc(prev.rstrip())
            elif (
                self.style in ("numbered", "author-year")
                and prev
                and not prev[-1].isspace()
                and prev[-1] not in "(["
            ):
                out.append(" ")
            out.append(self.cite(run))
            prev = run.text
        return "".join(out)

    def cite(self, cit: Citation) -> str:
        self.count += 1
        nums = [self.number[r] for r in cit.ref_ids]
        href = f"ref-{nums[0]}"
        if self.style == "superscript":
            inner = self.link.format(href=href, attrs="", text=esc(compress_numbers(nums, ",")))
            return f'<sup class="cite"{cite_attrs(cit.ref_ids)}>{inner}</sup>'
        if self.style == "numbered":
            text = f"[{compress_numbers(nums)}]"
        elif self.style == "author-year":
            text = "(" + "; ".join(self.labels[r] or str(self.number[r]) for r in cit.ref_ids) + ")"
        else:
            text = cit.text
        return self.link.format(href=href, attrs=cite_attrs(cit.ref_ids), text=esc(text))


# ---------------------------------------------------------------------------- references


def _initials(given: str, dots: bool) -> str:
    parts = [p for p in re.split(r"[\s.]+", re.sub(r"\.\s*-", "-", given)) if p]
    if len(parts) == 1 and parts[0].isupper() and len(parts[0]) <= 3:
        parts = list(parts[0])  # "JA" is already initials
    letters = []
    for p in parts:
        hyphened = [q[:1] for q in p.split("-") if q]
        letters.append("-".join(hyphened))
    return " ".join(f"{x}." for x in letters) if dots else "".join(letters).replace("-", "")


def _field(kind: str, html: str, fields: bool) -> str:
    """``html`` as one field of a reference marked up field by field, else as it is."""
    return f'<div class="cit-field cit-{kind}">{html}</div>' if fields and html else html


def _name(n: PersonName, style: str) -> str:
    if not n.given:
        return n.family
    if style == "vancouver":
        return f"{n.family} {_initials(n.given, False)}"
    return f"{n.family}, {_initials(n.given, True)}"


def _authors(ref: Reference, style: str, fields: bool = False) -> str:
    names = ref.fields.authors

    def name(n: PersonName) -> str:
        return _field("name", esc(_name(n, style)), fields)

    if style == "vancouver":
        shown = [name(n) for n in names[:6]]
        return ", ".join(shown) + (", et al" if len(names) > 6 or ref.fields.etal else "")
    if style == "acs":
        return "; ".join(name(n) for n in names) + ("; et al" if ref.fields.etal else "")
    if style == "nature" and len(names) > 5:
        return f"{name(names[0])} et al"
    shown = [name(n) for n in names]
    conj = "&amp;" if style in ("apa", "nature") else "and"
    if ref.fields.etal:
        return ", ".join(shown) + ", et al"
    if len(shown) > 1:
        return ", ".join(shown[:-1]) + f"{',' if style == 'apa' else ''} {conj} {shown[-1]}"
    return "".join(shown)


def _end(text: str) -> str:
    """``text`` closed with a full stop unless it ends a sentence already (closing tags aside)."""
    return text if re.sub(r"(?:</\w+>)+$", "", text).endswith((".", "?", "!")) else text + "."


def reference_html(ref: Reference, style: str, layout: str = "run") -> str:
    """The reference as escaped HTML in ``style``, laid out as ``layout`` (:data:`REF_LAYOUTS`): JATS
    punctuated text when present and the layout is ``run``; with ``fields`` each name, year, title,
    journal, volume, issue and page range is an element of its own (:func:`_field`); with ``lines``
    what comes before the title, the title, and what follows it are lines of their own (not in the
    harvard style, whose quoted title is part of a longer piece: there the entry stays one run)."""
    if ref.text and (layout == "run" or not ref.fields.title):
        return esc(ref.text)
    fields = layout == "fields"
    f = ref.fields
    who = _authors(ref, style, fields)
    title = _field("title", esc(_end(f.title)), fields) if f.title else ""
    src = _field("source", f"<i>{esc(f.source)}</i>", fields) if f.source else ""
    vol = _field("volume", esc(f.volume), fields)
    iss = _field("issue", f"({esc(f.issue)})", fields) if f.issue else ""
    pages = _field("pages", esc(f.pages), fields)
    year = _field("year", esc(f.year), fields)
    doi = f" doi:{_field('doi', esc(f.doi), fields)}" if f.doi else ""
    if style == "apa":
        parts = [
            _end(who) if who else "",
            f"({year})." if f.year else "",
            title,
            (src + (f", <i>{vol}</i>{iss}" if vol else "") + (f", {pages}" if pages else "") + "." if src else ""),
            f"https://doi.org/{_field('doi', esc(f.doi), fields)}" if f.doi else "",
        ]
    elif style == "nature":
        tail = ", ".join(x for x in (f"<b>{vol}</b>" if vol else "", pages) if x)
        parts = [
            _end(who) if who else "",
            title,
            " ".join(x for x in (src, tail) if x),
            f"({year})." if f.year else "",
        ]
    elif style == "acs":
        parts = [
            _end(who) if who else "",
            title,
            ", ".join(
                x
                for x in (
                    src + (f" <b>{year}</b>" if f.year else ""),
                    f"<i>{vol}</i>" if vol else "",
                    pages,
                )
                if x
            )
            + ".",
        ]
    elif style == "harvard":
        parts = [
            who,
            f"({year})" if f.year else "",
            f"‘{_field('title', esc(f.title.rstrip('.')), fields)}’," if f.title else "",
            ", ".join(x for x in (src, vol + iss, f"pp. {pages}" if pages else "") if x) + ".",
        ]
    else:  # vancouver
        loc = year + (f";{vol}{iss}" if vol else "") + (f":{pages}" if pages else "")
        parts = [
            _end(who) if who else "",
            title,
            (_field("source", esc(_end(f.source)), fields) + " " if f.source else "") + (loc + "." if loc else ""),
            doi.strip(),
        ]
    parts = [p for p in parts if p and p != "."]
    if layout == "lines" and title in parts:
        at = parts.index(title)
        parts = [_line(" ".join(group)) for group in (parts[:at], [title], parts[at + 1:]) if group]
    return re.sub(r"\s+", " ", " ".join(parts)).strip()


def _line(html: str) -> str:
    """One line of a reference set out in lines: a block in any style sheet, inside a <p> too."""
    return f'<span class="cit-line" style="display: block">{html}</span>'


#: Words of the look-up links a reference list prints in a row of their own (:func:`reference_links`).
LINK_WORDS = ("Article", "PDF", "View Record in Scopus", "Citing articles", "CrossRef", "PubMed",
              "Google Scholar", "Full Text", "Web of Science", "Find it")


def reference_links(ref: Reference, sep: str = " ", stacked: bool = False) -> str:
    """``[PubMed] [CrossRef] Google Scholar`` style look-up links for one reference; ``stacked``:
    three to five links (drawn from the reference's id) and their ``|`` separators, each a block
    that the page's style sheet sets inline: a line of its own where the style sheet is missing, as
    the link rows of large publishers' pages read offline. Not for families that hold the links in a
    <p>, which the blocks would close."""
    if stacked:
        rng = random.Random(ref.ref_id)
        words = rng.sample(LINK_WORDS, rng.randint(3, 5))
        words = [f"PDF ({rng.randint(80, 9000)} K)" if w == "PDF" else w for w in words]
        return f'<div class="ref-link"{ref_links_attrs()}>|</div>'.join(
            f'<div class="ref-link"{ref_links_attrs()}><a href="#">{esc(w)}</a></div>' for w in words)
    links = []
    if ref.fields.pmid:
        links.append(f'<a href="https://pubmed.ncbi.nlm.nih.gov/{esc(ref.fields.pmid)}/">[PubMed]</a>')
    if ref.fields.doi:
        links.append(f'<a href="https://doi.org/{esc(ref.fields.doi)}">[CrossRef]</a>')
    links.append('<a href="#">Google Scholar</a>')
    return sep.join(links)
