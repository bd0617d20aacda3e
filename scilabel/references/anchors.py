"""Citation anchors in the body text, their contexts, and links to the reference literals.

Following Bergmark, Phempoonpanich & Zhao ("Scraping the ACM Digital Library", SIGIR Forum 2001)
the anchor format is decided once per paper: every format's pattern is tried over the whole body
and the one with most plausible anchors wins; only anchors of that format are then taken. Formats:

``bracket-number`` [3], [1, 4], [1-4], [1–4], [1]–[4];  ``paren-number`` (3), (1–4);
``superscript`` numbers glued to a word (``cancer1–3.``);  ``author-year`` (Smith et al., 2001;
Jones 1999) and Smith et al. (2001);  ``author-year-bracket`` [Smith et al., 2001];
``alpha-bracket`` [Smi01], [BPZ01].

Ranges expand (``1–4`` is 1, 2, 3, 4). Implausible anchors are rejected: a superscript glued to a
word of two or fewer lower-case letters (``cm2``, ``Li2``), an alpha tag of two or fewer lower-case
letters (``[ab]``), numbers beyond the reference list. Damage as left by OCR is repaired inside
numeric brackets (``[l1]`` is 11, ``[O7]`` is 7) and a missing closing bracket is tolerated
(``(51 ``) unless the bracket closes later in the sentence. Superscripts are checked against the
zone's count of superscript characters when it is known (see :func:`candidates`). Names match as
whole words; author-year anchors link to the reference whose first author's family name is close
(rapidfuzz) and whose year is the same; numbers link by the entries' printed labels, else by position.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd
from rapidfuzz import fuzz

from ..lexicons import alternation, lexicon
from ..sentences import sentence_spans

FORMATS = (
    "bracket-number", "paren-number", "superscript", "author-year", "author-year-bracket", "alpha-bracket"
)

#: Weights of the per-paper format vote: "(3)" is also how equations and enumerations are numbered.
FORMAT_WEIGHTS = {"paren-number": 0.35}
_NUM = r"[\dlIOo]*\d[\dlIOo]*"  # digits with OCR look-alikes ("l1", "O7"), at least one real digit
_LIST = rf"(?:{_NUM})(?:\s*(?:[,;]|[-–—−]|and)\s*(?:{_NUM}))*"
_BRACKET_NUMBER = re.compile(
    rf"(?<![\w\[])\[\s*({_LIST})\s*(?:\]|(?=[\s.,;]))(?:\s*[-–—−]\s*\[\s*({_NUM})\s*\])?"  # "[1]–[4]" too
)
_PAREN_NUMBER = re.compile(rf"(?<![\w(])\(\s*({_LIST})\s*(?:\)|(?=[\s.,;]))")
#: A superscript: numbers after a word (or a closing parenthesis), glued or after one space.
_SUPERSCRIPT = re.compile(
    r"(?:(?<=[^\W\d_])[.,;:)’”]?|(?<=\))[.,;:]?)( ?)(\d{1,3}(?:\s?[,–—−-]\s?\d{1,3})*)(?=[\s.,;:)\]—]|$)"
)
_GLUED_TERM = re.compile(r"(?<![\w])[^\W\d_][\w-]*?[^\W\d_]\d{1,3}(?![\w])")
_YEAR = r"(?:1[5-9]|20)\d\d[a-z]?"
_YEAR_RE = re.compile(rf"(?<!\d){_YEAR}(?!\d)")
_NAME = rf"(?:{alternation('citation_particles')}\s+)*[A-ZÀ-Þ][\w'’-]+"
_AUTHOR_YEAR_GROUP = re.compile(rf"\(([^()]*?\b{_YEAR}\b[^()]*)\)")
_NARRATIVE = re.compile(
    rf"\b({_NAME})(?:\s+(?:et\s+al\.?|(?:and|&)\s+({_NAME})))?(?:'s|’s)?\s+\((\s*{_YEAR}(?:\s*[,;]\s*{_YEAR})*)\s*\)"
)
_AUTHOR_YEAR_BRACKET = re.compile(rf"\[([^\[\]]*?\b{_YEAR}\b[^\[\]]*)\]")
_ALPHA = re.compile(r"\[([A-Z][A-Za-z+]{0,5}\d{2}[a-z]?)\]")
_ITEM_NAME = re.compile(rf"({_NAME})(?:\s+(?:et\s+al\.?|(?:and|&)\s+({_NAME})))?")
#: Words of a citation group that are no author's name ("see", "e.g."): the lexicon ``citation_lead_words``.
_SKIP_WORDS = frozenset(lexicon("citation_lead_words"))
_OCR = str.maketrans("lIOo", "1100")
#: Smallest rapidfuzz ratio for a surname to match a family name.
NAME_SCORE = 85.0


@dataclass
class Anchor:
    """A citation anchor: where it is (zone row and character span), what it says, the keys it
    cites (numbers, ``(surname, second surname, year)`` or alpha tags) and the references it links
    to (indices into the reference list), with its sentence."""

    zone: object
    start: int
    end: int
    text: str
    format: str
    keys: list = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    context: str = ""


# --------------------------------------------------------------------------- candidates per format


def expand_numbers(text: str, limit: int | None = None) -> list[int]:
    """Numbers of a numeric anchor body with ranges expanded: ``1, 3–5`` -> 1, 3, 4, 5. OCR
    look-alikes are read as digits; a reversed, huge or beyond-``limit`` range yields nothing."""
    numbers: list[int] = []
    for part in re.split(r"\s*(?:[,;]|and)\s*", text.strip()):
        ends = [p for p in re.split(r"\s*[-–—−]\s*", part) if p]
        try:
            values = [int(e.translate(_OCR)) for e in ends]
        except ValueError:
            return []
        if len(values) == 2 and values[0] < values[1] <= values[0] + 50:
            numbers.extend(range(values[0], values[1] + 1))
        elif len(values) == 1:
            numbers.append(values[0])
        elif values:
            return []
    if not numbers or min(numbers) < 1 or (limit and max(numbers) > limit):
        return []
    return numbers


def _closes_later(text: str, opening: str, start: int) -> bool:
    """Whether the bracket opened before ``start`` closes before the next one opens or the sentence ends."""
    closing = {"(": ")", "[": "]"}[opening]
    rest = re.split(r"[.!?](?:\s|$)", text[start:], maxsplit=1)[0]
    close, reopen = rest.find(closing), rest.find(opening)
    return close >= 0 and (reopen < 0 or close < reopen)


def _numeric(text: str, pattern: re.Pattern, limit: int | None) -> list[tuple[int, int, str, list]]:
    out = []
    for m in pattern.finditer(text):
        if m.group()[-1] not in ")]" and _closes_later(text, m.group()[0], m.end()):
            continue  # "(2 mg/l)": a parenthesis, not an anchor that lost its closing bracket
        numbers = expand_numbers(m.group(1), limit)
        if numbers and m.lastindex == 2 and m.group(2):  # "[1]–[4]": a range across two brackets
            last = expand_numbers(m.group(2), limit)
            numbers = numbers[:-1] + expand_numbers(f"{numbers[-1]}–{last[0]}", limit) if last else []
        if numbers:
            out.append((m.start(), m.end(), m.group(), numbers))
    return out


def _plausible_host(word: str) -> bool:
    """A word a superscript number may be glued to: more than two lower-case letters ("cancer1",
    not "cm2", "Li2", "sp3", "CO2", which are units and formulae), or "et al."."""
    letters = re.sub(r"[^\w]", "", word)
    return letters == "al" or sum(ch.islower() for ch in letters) > 2


#: The word (or closing bracket) a superscript number follows, with its punctuation: "cancer", "insects.";
#: looked for in the characters just before the number only.
_HOST = re.compile(r"(?:[^\W\d_]+|\))[.,;:’”]?$")
_HOST_REACH = 64
#: Words after which a number is a quantity or a label, not a citation ("from 32", "Figure 1"): the
#: lexicon ``not_citation_hosts``.
_NOT_HOSTS = frozenset(lexicon("not_citation_hosts"))


def _superscripts(
    text: str, limit: int | None, terms: frozenset[str], budget: int | None
) -> list[tuple[int, int, str, list]]:
    """Superscript candidates of one zone. ``budget`` is the zone's count of superscript
    characters when known: the candidates must fit in it, best first (glued to a word, then after
    a space and before punctuation, then after a space before a word), except numbers glued after
    punctuation ("insects.31"), which need no budget. A number after a space ("system 7–11.",
    "HIE 10,14", as zones space out superscripts) is taken only where the zone has superscript
    characters, after a word of three letters or more that is not a function word."""
    scored = []
    for m in _SUPERSCRIPT.finditer(text):
        spaced = bool(m.group(1))
        if spaced and not budget:
            continue
        host = _HOST.search(text, max(0, m.start(1) - _HOST_REACH), m.start(1))
        if host is None or host.group().rstrip(".,;:’”").lower() in _NOT_HOSTS:
            continue
        free = not spaced and host.group()[-1] in ".,;:’”)"  # after punctuation: "insects.31", "nm).35"
        if spaced and len(re.sub(r"\W", "", host.group())) <= 2:
            continue  # "cm 2": a unit
        if not (free or spaced) and (not _plausible_host(host.group()) or host.group() + m.group(2) in terms):
            continue
        if host.group() == ")" and " " not in text[text.rfind("(", 0, host.start()) + 1 : host.start()]:
            continue  # "Su(var)3-9" is a name; "(Figure 2 and 3)8,9" cites
        numbers = expand_numbers(m.group(2), limit)
        if numbers:
            score = 3 if not spaced else 2 if text[m.end() : m.end() + 1] in ("", ".", ",", ";", ":", ")") else 1
            scored.append((-score, m.start(2), m.end(), m.group(2), numbers, free))
    if budget is None:
        return [(start, end, written, numbers) for _, start, end, written, numbers, _ in scored]
    kept, used = [], 0
    for _, start, end, written, numbers, free in sorted(scored):
        size = 0 if free else len(re.sub(r"\s", "", written))
        if used + size <= budget:
            kept.append((start, end, written, numbers))
            used += size
    return sorted(kept)


def _author_year_items(body: str) -> list[tuple[str, str | None, str]]:
    """``(surname, second surname, year)`` keys of one parenthetical group's items."""
    keys = []
    for item in re.split(r";", body):
        years = _YEAR_RE.findall(item)
        if not years:
            continue
        before = item[: item.find(years[0])]
        names = [m for m in _ITEM_NAME.finditer(before) if m.group(1).lower().strip(".") not in _SKIP_WORDS]
        if not names:
            continue
        first = names[0]
        if sum(ch.islower() for ch in first.group(1)) == 0 and len(first.group(1)) <= 2:
            continue
        keys.extend((first.group(1), first.group(2), year) for year in years)
    return keys


def _author_year(text: str, bracket: bool) -> list[tuple[int, int, str, list]]:
    out = []
    pattern = _AUTHOR_YEAR_BRACKET if bracket else _AUTHOR_YEAR_GROUP
    for m in pattern.finditer(text):
        keys = _author_year_items(m.group(1))
        if keys:
            out.append((m.start(), m.end(), m.group(), keys))
    if not bracket:
        for m in _NARRATIVE.finditer(text):
            years = _YEAR_RE.findall(m.group(3))
            out.append((m.start(), m.end(), m.group(), [(m.group(1), m.group(2), y) for y in years]))
    return sorted(out)


def _alpha(text: str) -> list[tuple[int, int, str, list]]:
    out = []
    for m in _ALPHA.finditer(text):
        tag = m.group(1)
        letters = re.sub(r"[^A-Za-z]", "", tag)
        if letters.islower() and len(letters) <= 2:
            continue
        out.append((m.start(), m.end(), m.group(), [tag]))
    return out


def glued_terms(texts: Sequence[str], min_count: int = 3) -> frozenset[str]:
    """Words with a number glued on that recur through a paper ("PRC2", "HIV1"): names, not
    superscript citations, which rarely repeat word and number together."""
    counts = Counter(m.group() for text in texts for m in _GLUED_TERM.finditer(text))
    return frozenset(term for term, n in counts.items() if n >= min_count)


#: The bracket every anchor of a format holds (a text without it has none of that format's anchors).
_OPENING = {"bracket-number": "[", "paren-number": "(", "author-year": "(", "author-year-bracket": "[",
            "alpha-bracket": "["}


def candidates(
    text: str,
    fmt: str,
    limit: int | None = None,
    terms: frozenset[str] = frozenset(),
    sup_chars: int | None = None,
) -> list[tuple[int, int, str, list]]:
    """``(start, end, text, keys)`` of every plausible anchor of format ``fmt`` in ``text``
    (``terms``: see :func:`glued_terms`; ``sup_chars``: the zone's superscript characters, when
    known)."""
    if _OPENING.get(fmt, "") not in text:
        return []
    if fmt == "bracket-number":
        return _numeric(text, _BRACKET_NUMBER, limit)
    if fmt == "paren-number":
        return _numeric(text, _PAREN_NUMBER, limit)
    if fmt == "superscript":
        return _superscripts(text, limit, terms, sup_chars)
    if fmt == "author-year":
        return _author_year(text, bracket=False)
    if fmt == "author-year-bracket":
        return _author_year(text, bracket=True)
    if fmt == "alpha-bracket":
        return _alpha(text)
    raise ValueError(f"unknown anchor format {fmt!r}")


def detect_format(
    texts: Sequence[str], n_refs: int | None = None, sup_chars: Sequence[int] | None = None,
    terms: frozenset[str] | None = None,
) -> str | None:
    """The paper's anchor format: the one with most plausible anchors over all its body texts
    (weighted by :data:`FORMAT_WEIGHTS`; ``sup_chars``: superscript characters per text, when
    known; ``terms``: :func:`glued_terms` of the texts, when already known). None when nothing matches."""
    terms = glued_terms(texts) if terms is None else terms
    return _vote(_candidates_by_format(texts, FORMATS, n_refs or None, sup_chars, terms))


def _candidates_by_format(
    texts: Sequence[str], formats: Sequence[str], limit: int | None, sup_chars: Sequence[int] | None,
    terms: frozenset[str],
) -> dict[str, list[list[tuple[int, int, str, list]]]]:
    """Each format's :func:`candidates` in each text."""
    budgets = [None] * len(texts) if sup_chars is None else [int(n) for n in sup_chars]
    return {fmt: [candidates(text, fmt, limit, terms, budget) for text, budget in zip(texts, budgets)]
            for fmt in formats}


def _vote(found: dict[str, list[list]]) -> str | None:
    """The format with most candidates (weighted by :data:`FORMAT_WEIGHTS`), None when none has any."""
    counts = {fmt: sum(map(len, per_text)) * FORMAT_WEIGHTS.get(fmt, 1.0) for fmt, per_text in found.items()}
    best = max(found, key=lambda f: counts[f])
    return best if counts[best] else None


# --------------------------------------------------------------------------- linking


def _fold(text: str) -> str:
    """Lower-case ASCII letters of ``text`` (accents dropped)."""
    norm = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z]", "", norm.encode("ascii", "ignore").decode().lower())


@dataclass
class _RefKey:
    families: list[str]
    year: str
    text: str


def _ref_keys(references: Sequence[dict]) -> list[_RefKey]:
    """Family names (folded) and year of each reference, with the letter after the year in the
    text ("2001a") when there is one."""
    keys = []
    for ref in references:
        families = [_fold(a.get("family", "")) for a in ref.get("authors") or []]
        text = ref.get("text") or ""
        if not families:  # the parser found no authors: take the first word of the entry
            first = re.search(_NAME, text)
            families = [_fold(first.group())] if first else []
        years = _YEAR_RE.findall(text)
        year = ref.get("year") or (years[0] if years else "")
        suffix = None
        if year and year[-1].isdigit():
            suffix = re.search(rf"(?<!\d){re.escape(year)}([a-z])(?![a-z])", text)
        keys.append(_RefKey([f for f in families if f], year + (suffix.group(1) if suffix else ""), text))
    return keys


def _match_author_year(key: tuple, refs: list[_RefKey]) -> int | None:
    """The reference of the same year whose first family name is closest to the surname (a named
    second author must match too to win)."""
    surname, second, year = key
    name, other = _fold(surname), _fold(second or "")
    best, best_score = None, 0.0
    for i, ref in enumerate(refs):
        if ref.year != year:
            continue
        score = fuzz.ratio(name, ref.families[0]) if ref.families else 0.0
        if score < NAME_SCORE and re.search(rf"\b{re.escape(surname)}\b", ref.text[:80]):
            score = NAME_SCORE  # whole-word surname near the start of the entry
        if score < NAME_SCORE:
            continue
        if other:
            score += 10 if len(ref.families) > 1 and fuzz.ratio(other, ref.families[1]) >= NAME_SCORE else -5
        if score > best_score:
            best, best_score = i, score
    return best


def _match_alpha(tag: str, refs: list[_RefKey]) -> int | None:
    """The first reference of the tag's year whose first family name starts with the tag's letters
    ("Smi99") or whose authors' initials are the letters ("BPZ01")."""
    letters, yy = re.sub(r"[^A-Za-z]", "", tag).lower(), re.sub(r"\D", "", tag)[:2]
    for i, ref in enumerate(refs):
        if ref.year[2:4] != yy or not ref.families:
            continue
        initials = "".join(f[0] for f in ref.families[:4])
        if ref.families[0].startswith(letters) or initials == letters:
            return i
    return None


def link(anchor: Anchor, numbers: dict[int, int], refs: list[_RefKey]) -> list[int]:
    """Reference indices an anchor's keys point to."""
    targets: list[int] = []
    for key in anchor.keys:
        if isinstance(key, int):
            target = numbers.get(key)
        elif isinstance(key, tuple):
            target = _match_author_year(key, refs)
        else:
            target = _match_alpha(key, refs)
        if target is not None and target not in targets:
            targets.append(target)
    return targets


def _number_index(references: Sequence[dict]) -> dict[int, int]:
    """Entry number -> index: the printed labels when the list has them, else positions from 1."""
    labelled = {}
    for i, ref in enumerate(references):
        m = re.match(r"\d+$", str(ref.get("label") or ""))
        if m:
            labelled.setdefault(int(m.group()), i)
    if len(labelled) >= 0.5 * len(references):
        return labelled
    return {i + 1: i for i in range(len(references))}


# --------------------------------------------------------------------------- entry point

def find_anchors(
    zones: pd.DataFrame,
    references: Sequence[dict],
    label_column: str = "label",
    body_labels: Sequence[str] = ("other", "abstract"),
    fmt: str | None = None,
) -> list[Anchor]:
    """Anchors of one page's body zones (``label_column`` in ``body_labels``) linked to
    ``references`` (parsed references in list order, with ``text``, ``label``, ``authors``,
    ``year``), each with its sentence. ``fmt`` forces a format instead of deciding it."""
    body = zones[zones[label_column].isin(body_labels)]
    body = body[body["text"].astype(str).str.contains(r"\d", regex=True)]  # every format's anchors hold a digit
    texts = [str(t) for t in body["text"]]
    sup = list(body["sup_chars"]) if "sup_chars" in body else None
    linker = Linker(references)
    found = _candidates_by_format(texts, [fmt] if fmt else FORMATS, linker.limit, sup, glued_terms(texts))
    fmt = fmt or _vote(found)
    if fmt is None:
        return []
    anchors: list[Anchor] = []
    for row, text, spots in zip(body.index, texts, found[fmt]):
        if not spots:
            continue
        sentences = sentence_spans(text)
        for anchor in linker.linked(spots, fmt, row):
            anchor.context = next((text[a:b] for a, b in sentences if a <= anchor.start < b), text)
            anchors.append(anchor)
    return anchors


class Linker:
    """Anchors linked to one reference list (``text``, ``label``, ``authors``, ``year`` of each, in list
    order), its printed numbers, first authors and years indexed once for every text it links."""

    def __init__(self, references: Sequence[dict]) -> None:
        self.limit = _limit(references)
        self.numbers = _number_index(references)
        self.keys = _ref_keys(references)

    def anchors(self, text: str, fmt: str, terms: frozenset[str] = frozenset(), sup_chars: int | None = None,
                zone: object = None) -> list[Anchor]:
        """The anchors of format ``fmt`` in ``text`` (see :func:`candidates`), each with its targets."""
        return self.linked(candidates(text, fmt, self.limit, terms, sup_chars), fmt, zone)

    def linked(self, spots: Sequence[tuple[int, int, str, list]], fmt: str, zone: object = None) -> list[Anchor]:
        """Anchors of format ``fmt`` from ``spots`` (:func:`candidates` of one text), each with its targets."""
        anchors = []
        for start, end, written, keys in spots:
            anchor = Anchor(zone, start, end, written, fmt, list(keys))
            anchor.targets = link(anchor, self.numbers, self.keys)
            anchors.append(anchor)
        return anchors


def _limit(references: Sequence[dict]) -> int | None:
    numbers = [int(r["label"]) for r in references if re.fullmatch(r"\d+", str(r.get("label") or ""))]
    return max([len(references), *numbers]) if references else None


def attach_contexts(references: Sequence[dict], anchors: Sequence[Anchor]) -> None:
    """Add ``contexts`` (the distinct sentences citing it, in page order) to each reference."""
    for ref in references:
        ref["contexts"] = []
    for anchor in anchors:
        for target in anchor.targets:
            contexts = references[target]["contexts"]
            if anchor.context not in contexts:
                contexts.append(anchor.context)
