"""A reviewed page's gold file: the format of the shared data's reviewed gold, plus every zone's label.

One JSON file per page, ``<gold dir>/<source>/<name>.json`` (``source`` the folder holding the page,
``name`` its file name without the extension), as in ``../shared/data/gold`` (its README): ``page``
(the page's path relative to the gold folder's parent, the data root, when it lies under it, else its
absolute path), the field texts (``title``; ``authors``, the byline's names; ``affiliations``, each
once; ``abstract`` without its heading; ``references``, the entries' zone texts as displayed),
``fields_scored`` (the fields the page shows: those with a zone labelled so) and ``zones`` (each
field's zone ranges). Added for zone-level training and for opening the page again: ``zone_labels``
(the label of every zone, headings included), ``n_zones`` and ``zone_digest`` (a hash of the zones'
texts: when the zone collector cuts the page otherwise, the labels are not reused as they are).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from ..atomic import write_text
from ..corpus.gold import RANGE_KEYS, zone_digest
from ..fields import affiliation_texts, field_text, split_author_names
from ..schema import FIELD_LABELS, LABELS

#: What a reviewed gold file says it comes from.
GOLD_SOURCE = "scilabel review: zone labels of the rendered page"


def gold_path(gold_dir: Path, page: Path) -> Path:
    """Where the gold of ``page`` is kept: ``<gold_dir>/<page's folder name>/<page's stem>.json``."""
    page = Path(page)
    return Path(gold_dir) / page.resolve().parent.name / f"{page.stem}.json"


def page_key(gold_dir: Path, page: Path) -> str:
    """The gold's ``page``: the page's path relative to the gold folder's parent, else its absolute path."""
    page, root = Path(page).resolve(), Path(gold_dir).resolve().parent
    return page.relative_to(root).as_posix() if page.is_relative_to(root) else str(page)


def index_ranges(rows: Sequence[int]) -> str:
    """Zone indices as gold ranges ("13", "14-15", "65, 72, 78"; "" for none)."""
    parts, start = [], None
    for i, row in enumerate(rows):
        if start is None:
            start = row
        if i + 1 == len(rows) or rows[i + 1] != row + 1:
            parts.append(str(start) if start == row else f"{start}-{row}")
            start = None
    return ", ".join(parts)


def gold_record(texts: Sequence[str], labels: Sequence[str], page: str, previous: dict | None = None) -> dict:
    """The gold of a page whose zones (``texts``, in reading order) carry ``labels``; what a reviewer
    wrote before that the review does not set (``publisher``, ``kind``, ``confidence``, ``notes``) is
    kept from ``previous``."""
    labels = [str(label) for label in labels]
    unknown = sorted(set(labels) - set(LABELS))
    if unknown:
        raise ValueError(f"{page}: labels not in the schema: {', '.join(unknown)}")
    if len(labels) != len(texts):
        raise ValueError(f"{page}: {len(labels)} labels for {len(texts)} zones")
    of = {field: [t for t, lab in zip(texts, labels) if lab == field] for field in FIELD_LABELS}
    rows = {field: [i for i, lab in enumerate(labels) if lab == field] for field in FIELD_LABELS}
    kept = {key: previous[key] for key in ("publisher", "kind", "confidence", "notes") if previous and key in previous}
    record = {
        "page": page,
        "publisher": "",
        **kept,
        "gold_source": GOLD_SOURCE,
        "title": field_text("title", of["title"]) or "",
        "authors": split_author_names(of["authors"]),
        "affiliations": affiliation_texts(of["affiliations"]),
        "abstract": field_text("abstract", of["abstract"], sep="\n") or "",
        "references": [t for t in of["references"] if t.strip()],
        "zones": {RANGE_KEYS[field]: index_ranges(rows[field]) for field in FIELD_LABELS},
        "fields_scored": [field for field in FIELD_LABELS if rows[field]],
        "zone_labels": labels,
        "n_zones": len(labels),
        "zone_digest": zone_digest(texts),
        "scilabel": __version__,
    }
    return record


def write_gold(path: Path, record: dict) -> Path:
    """Write a gold record as indented UTF-8 JSON, atomically."""
    write_text(path, json.dumps(record, indent=1, ensure_ascii=False))
    return Path(path)


def read_gold_file(path: Path) -> dict | None:
    """A gold file's record, None when there is none; a file that is not a gold record is an error
    naming it."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable gold file ({exc})") from None
    if not isinstance(record, dict) or "fields_scored" not in record:
        raise ValueError(f"{path}: not a gold file (no fields_scored)")
    return record
