"""Silver labels for real publisher pages: align the page's own metadata tags with its zones.

A publisher page declares its title, authors, institutions, abstract and sometimes references in
``citation_*`` / ``dc.*`` meta tags. Each value is matched to the visible zones by fuzzy string
alignment (rapidfuzz); matched zones take the field's label, everything else is ``other``. Labels
are only as complete as the meta tags and the alignment. Each declared field gets a match score in
[0, 1] and the page a confidence, the mean over its declared fields; a page's ``fields`` lists the
labels whose gold it holds, those declared *and found* (:data:`FOUND`), and evaluation on silver
pages scores only those: a field the alignment missed has unknown gold, not an empty one. Likewise,
after an abstract whose tag is cut short ("..."), the further parts of a structured abstract are
``unscored`` for the abstract.
"""
from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from rapidfuzz import fuzz
from tqdm import tqdm

from ..cache import cached_zones
from ..features.cues import PART_LINE, PART_MIN_WORDS
from ..lexicons import alternation, lexicon
from ..metadata import PageMeta, read_meta
from ..overlay import draw_overlay
from ..readers import ChromiumHTMLReader
from ..inputs import HTML_PATTERNS, directory_files
from ..readers.sources import load_source
from ..schema import LABELS
from .dataset import write_dataset

log = logging.getLogger(__name__)

#: An abstract's and a reference list's headings, normalised (the lexicons ``abstract_headings``,
#: ``references_headings``).
_HEADING_ABSTRACT = re.compile(rf"^{alternation('abstract_headings')}$")
_HEADING_REFERENCES = re.compile(rf"^{alternation('references_headings')}$")
_GLUED = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")
#: Smallest match score of a found field: half the field, and most declared references (each missed
#: one would leave an entry without gold).
FOUND_DEFAULT, FOUND = 0.5, {"references": 0.8}
#: Most zones a reference entry reaches on either side of its title; a bare entry number.
ENTRY_REACH = 40
#: Longest normalised zone a reference declared without title or text is looked for in.
ENTRY_CHARS = 600
_ENTRY_NUMBER = re.compile(r"^\d{1,3}$")
#: A zone holding only affiliation markers ("1", "1 2", "a"; "*", "†" normalise to nothing).
_MARKER_ONLY = re.compile(r"^(?:(?:\d{1,2}|[a-z])(?: (?:\d{1,2}|[a-z]))*)?$")
#: A year, which no byline line holds ("Cintas, J., Montes, J.M. et al. J Mater Sci (2005) 40: 3911",
#: "© Wan et al. 2016" are a citation and a copyright line).
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
#: Most zones between two author zones of one byline.
AUTHOR_GAP = 12
#: Most words after an author's full name in a byline line of that author alone (role, degrees, markers).
NAME_NOTE_WORDS = 6


def normalise(text: str) -> str:
    """Lower case, accents and punctuation removed, words a page or its metadata glued together split
    ("KielKiel", "1Department", "CintasEmail", "Smith1,2"), single spaces."""
    text = _GLUED.sub(" ", unicodedata.normalize("NFKD", text))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


#: Normalised words a byline line may hold beside the names: connectives, captions, titles, degrees
#: and generational suffixes (the lexicons ``degrees`` and ``name_suffixes``).
_CONNECTORS = {"and", "et", "al", "by", "the", "authors", "author", "email", "ma", "dr", "prof"}.union(
    *(normalise(word).split() for word in (*lexicon("degrees"), *lexicon("name_suffixes"))))


@dataclass
class SilverResult:
    """Labels for a page's zones and how well each metadata field was found."""

    labels: list[str]
    scores: dict[str, float] = field(default_factory=dict)  #: field -> match score in [0, 1]
    #: zone -> the label whose gold it cannot give (labelled ``other``, it may hold that field)
    unscored: dict[int, str] = field(default_factory=dict)

    @property
    def fields(self) -> list[str]:
        """Labels whose gold this page holds: declared by its metadata and found (:data:`FOUND`)."""
        return [name for name, score in self.scores.items() if score >= FOUND.get(name, FOUND_DEFAULT)]

    @property
    def confidence(self) -> float:
        return sum(self.scores.values()) / len(self.scores) if self.scores else 0.0


def silver_labels(texts: list[str], meta: PageMeta) -> SilverResult:
    """Label zones (given by their texts, in reading order) from the page's metadata."""
    norm = [normalise(t) for t in texts]
    labels = ["other"] * len(texts)
    result = SilverResult(labels)
    title_at = _align_title(norm, meta.title, result) if meta.title else None
    start = title_at if title_at is not None else 0
    if meta.authors:
        _align_authors(texts, norm, meta, start, result)
    if meta.institutions:
        _align_institutions(norm, meta.institutions, result)
    if len(meta.abstract) >= 100:
        _align_abstract(norm, meta.abstract, start, result)
    matchers = [(ref, match) for ref in meta.references if (match := _reference_matcher(ref)) is not None]
    if len(matchers) >= 3:
        _align_references(norm, matchers, start, result)
    return result


def _align_title(norm: list[str], title: str, result: SilverResult) -> int | None:
    target = normalise(title)
    best, best_at, best_len = 0.0, None, 1
    for i in range(len(norm)):
        for n in (1, 2, 3):
            if i + n > len(norm):
                break
            window = " ".join(norm[i:i + n])
            if len(window) > 1.5 * len(target) + 10:
                break
            score = fuzz.ratio(window, target)
            if score > best:
                best, best_at, best_len = score, i, n
    result.scores["title"] = best / 100 if best >= 90 else 0.0
    if best < 90 or best_at is None:
        return None
    for j in range(best_at, best_at + best_len):
        result.labels[j] = "title"
    return best_at


def _surname(name: str) -> str:
    """Last token of the family name, for "Family, Given" and "Given Family" forms alike."""
    parts = normalise(name.split(",")[0] if "," in name else name).split()
    return parts[-1] if parts else ""


def _marker_line(text: str, normalised: str) -> bool:
    """A line of affiliation markers only ("1", "1,2", "a", "*", "†"); not a pop-up's close glyph
    ("⨯", a symbol rather than punctuation, which also normalises to nothing)."""
    return bool(_MARKER_ONLY.match(normalised)) and all(
        c.isalnum() or c.isspace() or unicodedata.category(c).startswith("P") for c in text)


def _given_family(name: str) -> str:
    """A declared name normalised in reading order: "Wang, Shirley V" -> "shirley v wang"."""
    family, _, given = name.partition(",")
    return normalise(f"{given} {family}" if given.strip() else family)


def _opens_with_name(text: str, full_names: list[str], institution_words: set[str]) -> bool:
    """A byline line of one author and a few words about them, none from a declared institution:
    "Shirley V Wang, assistant professor, associate epidemiologist1" (but not "Os Keyes, University of
    Washington, School of Law", an author's affiliation)."""
    for name in full_names:
        if text.startswith(name + " "):
            note = text[len(name):].split()
            return len(note) <= NAME_NOTE_WORDS and not institution_words.intersection(note)
    return False


def _align_authors(texts: list[str], norm: list[str], meta: PageMeta, start: int, result: SilverResult) -> None:
    authors = meta.authors
    surnames = {s for s in map(_surname, authors) if s}
    name_tokens = {tok for a in authors for tok in normalise(a).split()}
    full_names = [n for n in map(_given_family, authors) if len(n.split()) >= 2]
    institution_words = {w for inst in meta.institutions for w in normalise(inst).split() if len(w) > 3}
    candidates = []
    for i in range(start, len(norm)):
        if result.labels[i] != "other":
            continue
        tokens = norm[i].split()
        if not tokens or len(tokens) > 12 * max(1, len(authors)) + 10:
            continue
        found = surnames & set(tokens)
        if not found or any(map(_YEAR.fullmatch, tokens)):  # a citation or copyright line, not a byline
            continue
        covered = sum(1 for t in tokens if t in name_tokens or t in _CONNECTORS or t.isdigit() or len(t) == 1)
        if covered / len(tokens) >= 0.7 and (len(found) >= min(2, len(surnames)) or len(tokens) <= 6) \
                or _opens_with_name(norm[i], full_names, institution_words):
            candidates.append((i, found))
    if not candidates:
        result.scores["authors"] = 0.0
        return
    # clusters of author zones (no more than AUTHOR_GAP zones apart: one author's block of name, links and
    # affiliation); the byline is the first that names at least half the authors (a page may list
    # them again further down), else the one naming most
    clusters: list[list[tuple[int, set[str]]]] = [[candidates[0]]]
    for i, found in candidates[1:]:
        if i - clusters[-1][-1][0] > AUTHOR_GAP:
            clusters.append([])
        clusters[-1].append((i, found))
    named = [len(set().union(*(f for _, f in c))) for c in clusters]
    best = next((c for c, n in zip(clusters, named) if 2 * n >= len(surnames)), clusters[named.index(max(named))])
    for i, _ in best:
        result.labels[i] = "authors"
    # bare affiliation markers on lines of their own belong to the names, as a name's <sup> does
    last = best[-1][0]
    while last + 1 < len(norm) and _marker_line(texts[last + 1], norm[last + 1]):
        last += 1
    for i in range(best[0][0], last + 1):
        if result.labels[i] == "other" and _marker_line(texts[i], norm[i]):
            result.labels[i] = "authors"
    result.scores["authors"] = len(set().union(*(f for _, f in best))) / len(surnames)


def _split_institutions(institutions: list[str]) -> list[str]:
    parts = []
    for inst in institutions:
        parts += [p.strip() for p in inst.split(";") if len(p.strip()) > 10] if inst.count(";") >= 1 and len(inst) > 200 else [inst]
    return list(dict.fromkeys(parts))


def _align_institutions(norm: list[str], institutions: list[str], result: SilverResult) -> None:
    """Every zone that carries a declared institution (pages often repeat one under each author), and
    the lines right after it made only of that institution's words (an address broken over lines)."""
    insts = _split_institutions(institutions)
    found = 0
    for inst in insts:
        target = normalise(inst)
        words = set(target.split())
        hits = [i for i, text in enumerate(norm)
                if result.labels[i] in ("other", "affiliations")
                and max(2, len(words) / 2) <= len(text.split()) <= 2 * len(target.split()) + 6  # most of it
                and fuzz.token_set_ratio(text, target) >= 88]
        for i in hits:
            result.labels[i] = "affiliations"
            j = i + 1
            while j < len(norm) and result.labels[j] == "other" and norm[j] and set(norm[j].split()) <= words:
                result.labels[j] = "affiliations"
                j += 1
        found += bool(hits)
    result.scores["affiliations"] = found / len(insts)


def _align_abstract(norm: list[str], abstract: str, start: int, result: SilverResult) -> None:
    truncated = abstract.rstrip().endswith(("\u2026", "..."))  # description tags often cut the abstract
    target = normalise(abstract.rstrip().rstrip(".\u2026"))
    matches = []
    for i in range(start, len(norm)):
        text = norm[i]
        if result.labels[i] != "other" or len(text.split()) < 5:
            continue
        if len(text) >= len(target):  # the tag holds the zone's beginning: a cut abstract
            if fuzz.ratio(text[:len(target)], target) >= (90 if truncated else 95):
                matches.append(i)
        elif fuzz.partial_ratio(text, target) >= 90:
            matches.append(i)
    if not matches:
        result.scores["abstract"] = 0.0
        return
    # the run of matching zones (gaps of short zones such as "Methods:" allowed) covering most text
    runs: list[list[int]] = [[matches[0]]]
    for i in matches[1:]:
        gap = range(runs[-1][-1] + 1, i)
        if all(len(norm[j].split()) <= 3 for j in gap) and len(gap) <= 2:
            runs[-1] += list(gap) + [i]
        else:
            runs.append([i])
    best = max(runs, key=lambda run: sum(len(norm[j]) for j in run))
    for j in best:
        result.labels[j] = "abstract"
    covered = sum(len(norm[j]) for j in best)
    result.scores["abstract"] = min(1.0, covered / max(1, len(target)))
    # the heading, found back over at most three short section labels of a structured abstract
    between: list[int] = []
    j = best[0] - 1
    while j >= 0 and result.labels[j] == "other" and len(between) <= 3:
        if _HEADING_ABSTRACT.match(norm[j]):
            result.labels[j] = "abstract_heading"
            for k in between:
                result.labels[k] = "abstract"
            break
        if len(norm[j].split()) > 3:
            break
        between.append(j)
        j -= 1
    if truncated:
        _unscored_after_cut(norm, best[-1] + 1, result)


def _unscored_after_cut(norm: list[str], j: int, result: SilverResult) -> None:
    """A cut tag shows where the abstract starts, not where it ends: from zone ``j``, the further parts
    of a structured abstract (a part's name on its own line, then its paragraph) have unknown gold."""
    while j < len(norm) and result.labels[j] == "other" and PART_LINE.match(norm[j]):
        result.unscored[j] = "abstract"
        j += 1
        if j < len(norm) and result.labels[j] == "other" and len(norm[j].split()) >= PART_MIN_WORDS:
            result.unscored[j] = "abstract"
            j += 1


def _reference_matcher(ref: dict[str, list[str]]) -> Callable[[str], bool] | None:
    """A test of whether a normalised zone holds a declared reference, by what its tag declares
    (None: too little to find it by):

    - a title (15+ characters): the zone holds it (fuzzy, at most about four times its length);
    - free text (30+ characters): the zone and the text are one string (fuzzy, lengths within 0.6-1.6x);
    - else a journal title, volume and year: the zone holds all three as whole words, and is no
      longer than an entry (:data:`ENTRY_CHARS`), as in "Lip GYH ... Chest 2010;137:263-72".
    """
    title = normalise(ref["title"][0]) if ref.get("title") else ""
    if len(title) >= 15:
        return lambda text: len(title) <= len(text) < 4 * len(title) + 200 and fuzz.partial_ratio(title, text) >= 92
    free = normalise(" ".join(ref.get("text", [])))
    if len(free) >= 30:
        return lambda text: (0.6 <= len(text) / len(free) <= 1.6) and fuzz.partial_ratio(free, text) >= 92
    parts = [normalise(ref[key][0]) for key in ("journal_title", "volume") if ref.get(key)]
    year = re.search(r"\b\d{4}\b", " ".join(ref.get("year", []) + ref.get("publication_date", [])))
    if len(parts) < 2 or year is None or not all(parts):
        return None
    words = [re.compile(rf"\b{re.escape(part)}\b") for part in (*parts, year.group(0))]
    return lambda text: len(text) <= ENTRY_CHARS and all(w.search(text) for w in words)


def _align_references(norm: list[str], matchers: list[tuple[dict, Callable[[str], bool]]], start: int,
                      result: SilverResult) -> None:
    """Each declared reference by its :func:`_reference_matcher` (given with it), then the whole
    entry: the zones around the matched one made only of that reference's own words (authors,
    journal, year, volume, pages ...; zones of bare punctuation between them) and a bare entry number
    just before it. Link lines ("Google Scholar", "CrossRef") stay ``other``."""
    # a zone is the match of one reference only: "Dabigatran versus warfarin in patients with atrial
    # fibrillation" would also match the declared "Apixaban versus warfarin in patients with ..."
    anchors: set[int] = set()
    first = None
    for ref, match in matchers:
        for i in range(start, len(norm)):
            if i in anchors or result.labels[i] not in ("other", "references") or not match(norm[i]):
                continue
            anchors.add(i)
            words = set(normalise(" ".join(v for values in ref.values() for v in values)).split())
            lo, hi = _entry_span(norm, i, words, result.labels)
            for j in range(lo, hi + 1):
                result.labels[j] = "references"
            first = lo if first is None else min(first, lo)
            break
    result.scores["references"] = len(anchors) / len(matchers) if matchers else 0.0
    if first is not None:
        for j in range(first - 1, max(-1, first - 4), -1):
            if result.labels[j] == "other" and _HEADING_REFERENCES.match(norm[j]):
                result.labels[j] = "references_heading"
                break


def _entry_span(norm: list[str], at: int, words: set[str], labels: list[str]) -> tuple[int, int]:
    """First and last zone of the reference entry whose title is zone ``at``."""
    def part(j: int) -> bool | None:  # True: the entry's words; None: bare punctuation; False: not the entry
        if labels[j] != "other":
            return False
        return None if not norm[j] else set(norm[j].split()) <= words

    bounds = []
    for step in (-1, 1):
        edge, j = at, at + step
        while 0 <= j < len(norm) and abs(j - at) <= ENTRY_REACH and part(j) is not False:
            if part(j):
                edge = j
            j += step
        bounds.append(edge)
    lo, hi = bounds
    if lo > 0 and labels[lo - 1] == "other" and _ENTRY_NUMBER.match(norm[lo - 1]):
        lo -= 1
    while hi + 1 < len(norm) and part(hi + 1) is None:  # the entry's closing punctuation
        hi += 1
    return lo, hi


def publisher_key(meta: PageMeta, page: Path) -> str:
    """The publisher a page belongs to, for publisher-disjoint splits: DOI prefix, else declared publisher,
    else the page's folder."""
    match = re.search(r"\b10\.\d{4,9}", meta.doi)
    if match:
        return f"doi:{match.group(0)}"
    if meta.publisher:
        return f"publisher:{normalise(meta.publisher)[:40]}"
    return f"folder:{page.parent.name}"


def publisher_split(key: str, test_share: float = 0.5) -> str:
    """Deterministic train/test assignment of a publisher (never both)."""
    bucket = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if bucket < test_share else "train"


def build_silver(
    pages_dir: Path, out_dir: Path, workers: int = 1, overlays: int = 12, timeout: float = 10.0
) -> pd.DataFrame:
    """Render every page under ``pages_dir``, label its zones from its meta tags, and write
    ``zones.parquet`` (all zones with ``document``, ``split``, ``group``, ``label`` and ``unscored``, the
    label whose gold a zone cannot give), ``manifest.csv``
    (one row per page) and label overlays for a sample of pages. Returns the manifest."""
    pages_dir, out_dir = Path(pages_dir), Path(out_dir)
    paths = directory_files(Path(pages_dir), HTML_PATTERNS)
    if not paths:
        raise ValueError(f"{pages_dir}: no HTML pages found")
    frames, rows = [], []
    for cached in cached_zones(paths, out_dir / "cache", workers=workers, timeout=timeout):
        page_id = str(cached.path.relative_to(pages_dir))
        if cached.zones is None:
            rows.append({"document": page_id, "html_path": str(cached.path), "error": cached.error})
            continue
        meta = read_meta(load_source(cached.path).html)
        frame = cached.zones
        result = silver_labels(frame["text"].tolist(), meta)
        group = publisher_key(meta, cached.path)
        split = publisher_split(group)
        unscored = [result.unscored.get(i) for i in range(len(frame))]
        frame = frame.assign(document=page_id, split=split, group=group, label=result.labels, unscored=unscored)
        frames.append(frame)
        counts = frame["label"].value_counts()
        rows.append({
            "document": page_id, "html_path": str(cached.path), "group": group, "split": split, "zones": len(frame),
            "fields": " ".join(result.fields), "confidence": round(result.confidence, 3),
            **{f"score_{k}": round(v, 3) for k, v in result.scores.items()},
            **{f"zones_{label}": int(counts.get(label, 0)) for label in LABELS},
            "zones_unscored": len(result.unscored),
            "error": None,
        })
    manifest = pd.DataFrame(rows)
    write_dataset(out_dir, pd.concat(frames, ignore_index=True), manifest)
    if overlays:
        _draw_sample(pages_dir, out_dir / "overlays", manifest, overlays, timeout)
    return manifest


def _draw_sample(pages_dir: Path, folder: Path, manifest: pd.DataFrame, n: int, timeout: float) -> None:
    """Overlays for ``n`` pages spread over the sources, among pages with at least one silver field.

    Each page is rendered again for its screenshot and labelled afresh from that render, so the
    boxes match the picture even where a page's scripts make renders differ.
    """
    labelled = manifest[manifest["fields"].fillna("") != ""].sort_values("document")
    step = max(1, len(labelled) // n)
    sample = labelled["document"].tolist()[::step][:n]
    with ChromiumHTMLReader(timeout=timeout) as reader:
        for page_id in tqdm(sample, desc="overlays"):
            shot = folder / (re.sub(r"[^A-Za-z0-9._-]", "_", page_id) + ".png")
            document = reader.read(pages_dir / page_id, screenshot=shot)
            zones = document.zones
            result = silver_labels(zones["text"].tolist(), document.metadata)
            draw_overlay(shot, [((r.x, r.y, r.w, r.h), label) for r, label in zip(zones.itertuples(), result.labels)], shot)
