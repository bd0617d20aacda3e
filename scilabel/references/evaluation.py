"""Scores for the reference pipeline: field F1 of the parser, splitting of reference zones into
literals, and anchor-to-reference links with Bergmark et al.'s Item and Reference accuracy.

Field values are compared as in GROBID's "soft" field-level evaluation: all the text of a field in
one reference joined, lower-cased, with everything but letters and digits removed; a predicted value
is right when it equals the gold value.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from lxml import etree

from ..corpus.headers import read_xml
from ..corpus.refstrings import LabelledReference
from .names import split_authors

#: Fields scored for the parser (the output fields of a parsed reference).
SCORED_FIELDS = ("author", "title", "container", "year", "volume", "issue", "pages", "doi", "pmid", "url")
#: Fields a corpus does not annotate are not scored on it; AnyStyle's ``volume`` holds the issue
#: too ("17(4)"), so there a predicted issue counts as part of the volume.
CORPUS_FIELDS = {
    "anystyle": ("author", "title", "container", "year", "volume", "pages", "doi", "url"),
    "parscit": ("author", "title", "container", "year", "volume", "pages"),
}
CORPUS_MERGES = {"anystyle": {"issue": "volume"}}
#: Labels that lead a value and are not part of it ("doi:", "pp.", "vol.", "no."), after normalising.
_PREFIXES = {
    "doi": re.compile(r"^(?:doi|https?(?:dx)?doiorg|dxdoiorg|doiorg)+"),
    "pages": re.compile(r"^(?:pages|page|pp|p)(?=\w*\d)"),
    "volume": re.compile(r"^(?:volume|vol|v)(?=\d)"),
    "issue": re.compile(r"^(?:issue|number|no|nr|n)(?=\d)"),
    "url": re.compile(r"^url"),
}
_NOT_ALNUM = re.compile(r"[\W_]+")
_PRF = ("precision", "recall", "f1")


def prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    """Precision, recall and F1 (0 when undefined) with the counts."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "tp": tp, "fp": fp, "fn": fn}


# --------------------------------------------------------------------------- fields


def normalise(name: str, text: str) -> str:
    """A field value for soft comparison: lower-cased letters and digits, leading label dropped."""
    value = _NOT_ALNUM.sub("", text.lower())
    prefix = _PREFIXES.get(name)
    return prefix.sub("", value) if prefix else value


def field_values(pairs: Iterable[tuple[str, str]], merges: dict[str, str] | None = None) -> dict[str, str]:
    """Soft-normalised value of each field of one reference from ``(text, field)`` pairs (a
    field's texts joined in order); ``merges`` renames fields first."""
    joined: dict[str, list[str]] = {}
    for text, name in pairs:
        name = (merges or {}).get(name, name)
        if name != "other" and text:
            joined.setdefault(name, []).append(text)
    values = {name: normalise(name, " ".join(parts)) for name, parts in joined.items()}
    return {name: v for name, v in values.items() if v}


def field_counts(
    gold: Iterable[tuple[str, str]],
    predicted: Iterable[tuple[str, str]],
    fields: Sequence[str] = SCORED_FIELDS,
    merges: dict[str, str] | None = None,
) -> Counter:
    """``(field, "tp"|"fp"|"fn")`` counts of one reference, from gold and predicted
    ``(text, field)`` pairs."""
    g, p = field_values(gold, merges), field_values(predicted, merges)
    counts: Counter = Counter()
    for name in fields:
        if name in g and p.get(name) == g[name]:
            counts[name, "tp"] += 1
            continue
        if name in p:
            counts[name, "fp"] += 1
        if name in g:
            counts[name, "fn"] += 1
    return counts


def field_scores(
    parser,
    references: Sequence[LabelledReference],
    fields: Sequence[str] = SCORED_FIELDS,
    merges: dict[str, str] | None = None,
) -> dict[str, dict[str, float]]:
    """Per-field and micro-averaged (``"micro"``) P/R/F1 of ``parser`` on labelled references:
    each predicted field is the text :meth:`ReferenceParser.field_texts` picks for it."""
    counts: Counter = Counter()
    for ref in references:
        predicted = [(text, name) for name, text in parser.field_texts(ref.text).items() if text]
        counts += field_counts(ref.segments, predicted, fields, merges)
    scores = {name: prf(counts[name, "tp"], counts[name, "fp"], counts[name, "fn"]) for name in fields}
    scores = {name: s for name, s in scores.items() if s["tp"] + s["fn"] + s["fp"]}
    total = [sum(counts[name, kind] for name in fields) for kind in ("tp", "fp", "fn")]
    scores["micro"] = prf(*total)
    scores["micro"]["n"] = len(references)
    return scores


def corpus_scores(
    parser, references: Sequence[LabelledReference], detail: bool = False
) -> dict[str, dict[str, dict[str, float]]]:
    """:func:`field_scores` per corpus (see :func:`corpus_name`; with ``detail``, per file of a
    corpus too, e.g. ``anystyle/ugly``), each on the fields its corpus annotates."""
    groups: dict[str, list[LabelledReference]] = {}
    for ref in references:
        name = corpus_name(ref)
        groups.setdefault(f"{name}/{ref.split}" if detail and name != "jats" else name, []).append(ref)
    out = {}
    for key, refs in sorted(groups.items()):
        name = key.split("/")[0]
        out[key] = field_scores(parser, refs, CORPUS_FIELDS.get(name, SCORED_FIELDS), CORPUS_MERGES.get(name))
    return out


def corpus_name(ref: LabelledReference) -> str:
    """Which corpus a labelled reference comes from: ``grobid``, ``anystyle``, ``parscit`` or ``jats``."""
    parts = ref.source.split("/")
    if len(parts) > 1 and parts[0] == "references":
        return parts[1].lower()
    return "jats"


class _Counts:
    """Counts of one page or of many: ``add`` sums another's fields into this one's."""

    def add(self, other: _Counts) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


# --------------------------------------------------------------------------- splitting


@dataclass
class SplitCounts(_Counts):
    """Splitting counts summed over pages."""

    pages: int = 0
    exact_count: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    gold_entries: int = 0
    exact_entries: int = 0

    def scores(self) -> dict[str, float]:
        """Share of pages with the exact entry count, boundary P/R/F1, share of entries cut exactly."""
        return {
            "pages": self.pages,
            "count_exact": self.exact_count / self.pages if self.pages else 0.0,
            **{f"boundary_{k}": v for k, v in prf(self.tp, self.fp, self.fn).items() if k in _PRF},
            "entries": self.gold_entries,
            "entries_exact": self.exact_entries / self.gold_entries if self.gold_entries else 0.0,
        }


def gold_entries(zones: pd.DataFrame, ref_column: str = "ref_id") -> list[list]:
    """Gold entries of one page's reference zones: runs of rows sharing a reference id."""
    entries: list[list] = []
    last = None
    for row, ref in zones[ref_column].items():
        if ref is None or (isinstance(ref, float) and pd.isna(ref)) or ref == "":
            continue
        if ref != last:
            entries.append([])
            last = ref
        entries[-1].append(row)
    return entries


def split_counts(predicted_rows: Sequence[Sequence], gold: Sequence[Sequence]) -> SplitCounts:
    """Compare one page's predicted literals (their zone rows) with its gold entries: an entry
    boundary is the first zone of an entry; an entry is exact when its rows are the same."""
    pred_starts = Counter(rows[0] for rows in predicted_rows if rows)
    gold_starts = Counter(rows[0] for rows in gold if rows)
    tp = sum((pred_starts & gold_starts).values())
    pred_sets = Counter(tuple(rows) for rows in predicted_rows)
    exact = sum(1 for rows in gold if pred_sets[tuple(rows)] > 0)
    return SplitCounts(
        pages=1,
        exact_count=int(len(predicted_rows) == len(gold)),
        tp=tp,
        fp=sum(pred_starts.values()) - tp,
        fn=sum(gold_starts.values()) - tp,
        gold_entries=len(gold),
        exact_entries=exact,
    )


# --------------------------------------------------------------------------- anchors and links


@dataclass
class LinkCounts(_Counts):
    """Anchor-to-reference link counts and Bergmark et al.'s accuracies, summed over pages."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    references: int = 0
    items_right: int = 0
    references_right: int = 0

    def scores(self) -> dict[str, float]:
        """Link P/R/F1, Item accuracy and Reference accuracy."""
        n = self.references or 1
        return {
            **{f"link_{k}": v for k, v in prf(self.tp, self.fp, self.fn).items() if k in _PRF},
            "item_accuracy": self.items_right / n,
            "reference_accuracy": self.references_right / n,
            "references": self.references,
        }


def _ids(value: object) -> list[str]:
    return str(value).split() if isinstance(value, str) else []


def link_counts(
    zones: pd.DataFrame,
    literal_rows: Sequence[Sequence],
    anchors: Iterable,
    ref_column: str = "ref_id",
    cites_column: str = "cites",
) -> LinkCounts:
    """Score one page's anchor links against the gold: a link is a (body zone, reference id) pair,
    gold from the zones' ``cites``, predicted from each anchor's zone and the gold id of the
    literal it links to (the id most of the literal's zones carry).

    Item accuracy (our reading of Bergmark et al.): the share of gold reference entries extracted
    as exactly one literal with exactly their zones. Reference accuracy: the share of gold entries
    that are right as items and whose citing zones are exactly found (all, and no others).
    """
    literal_ids = []
    for rows in literal_rows:
        ids = Counter(r for r in zones.loc[list(rows), ref_column] if isinstance(r, str) and r)
        literal_ids.append(ids.most_common(1)[0][0] if ids else None)
    predicted = {(a.zone, literal_ids[t]) for a in anchors for t in a.targets if literal_ids[t] is not None}
    gold = {(row, rid) for row, value in zones[cites_column].items() for rid in _ids(value)}
    tp = len(predicted & gold)
    gold_sets = {}
    for row, rid in gold:
        gold_sets.setdefault(rid, set()).add(row)
    pred_sets = {}
    for row, rid in predicted:
        pred_sets.setdefault(rid, set()).add(row)
    exact = {tuple(rows) for rows in literal_rows}
    entries = gold_entries(zones[zones[ref_column].map(lambda r: isinstance(r, str) and r != "")], ref_column)
    items = refs_right = 0
    for rows in entries:
        rid = zones.at[rows[0], ref_column]
        if tuple(rows) in exact:
            items += 1
            refs_right += gold_sets.get(rid, set()) == pred_sets.get(rid, set())
    return LinkCounts(tp, len(predicted) - tp, len(gold) - tp, len(entries), items, refs_right)


# --------------------------------------------------------------------------- author names


def name_scores(folder: Path) -> dict[str, float]:
    """Family-name P/R/F1 of :func:`~scilabel.references.names.split_authors` on GROBID's
    name-citation data (every ``<author>`` string with ``surname``/``lastname`` elements, in all
    TEI files under ``folder``): a name is right when its family name matches a gold one."""
    tp = fp = fn = 0
    for path in sorted(Path(folder).rglob("*.xml")):
        for author in read_xml(path).iter("{*}author"):
            gold = Counter(
                normalise("author", "".join(e.itertext()))
                for e in author.iter()
                if isinstance(e.tag, str) and etree.QName(e).localname in ("surname", "lastname")
            )
            if not gold:
                continue
            text = re.sub(r"\s+", " ", "".join(author.itertext()))
            predicted = Counter(normalise("author", n["family"]) for n in split_authors(text))
            hit = sum((gold & predicted).values())
            tp, fp, fn = tp + hit, fp + sum(predicted.values()) - hit, fn + sum(gold.values()) - hit
    return prf(tp, fp, fn)


# --------------------------------------------------------------------------- real bibliographies


def _bibl_lines(bibl: etree._Element) -> list[str]:
    """The printed lines of one ``<bibl>``: its text cut at ``<lb/>``."""
    parts = [bibl.text or ""]
    for el in bibl.iterdescendants():
        parts.append("\n" if isinstance(el.tag, str) and etree.QName(el).localname == "lb" else el.text or "")
        parts.append(el.tail or "")
    return [line for line in (re.sub(r"\s+", " ", x).strip() for x in "".join(parts).split("\n")) if line]


def segmenter_pages(folder: Path, line_height: float = 20.0) -> Iterator[pd.DataFrame]:
    """GROBID reference-segmenter bibliographies as zone frames of a page that has no list
    structure: one references zone per printed line (like a ``<p>`` with a ``<br>`` per line), all
    at the same x, with the entry each line belongs to as ``ref_id``."""
    for path in sorted(p for p in Path(folder).rglob("*") if p.name.endswith((".xml", ".xml.missing"))):
        rows = []
        for i, bibl in enumerate(read_xml(path).iter("{*}bibl")):
            rows += [{"text": line, "ref_id": f"b{i}"} for line in _bibl_lines(bibl)]
        if rows:
            frame = pd.DataFrame(rows)
            frame["x"], frame["y"], frame["h"] = 0.0, [k * line_height for k in range(len(rows))], line_height
            frame["font_size"], frame["label"] = 16.0, "references"
            yield frame
