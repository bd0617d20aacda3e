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

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path

from .. import __version__, page_scores
from ..atomic import write_text
from ..corpus.dataset import ZONES_FILE
from ..corpus.gold import RANGE_KEYS, build_gold, zone_digest
from ..fields import affiliation_texts, field_text, split_author_names
from ..schema import FIELD_LABELS, LABELS

log = logging.getLogger(__name__)
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


def dataset_cache(folder: Path) -> Path:
    """Where the labelled dataset of a gold folder is built: under ``$XDG_CACHE_HOME/scilabel/gold`` (else
    ``~/.cache``), one folder per gold folder (its name and a hash of its resolved path), so that the gold
    folder itself (perhaps read-only shared data) is never written."""
    folder = Path(folder).resolve()
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "scilabel" / "gold"
    return root / f"{folder.name}-{hashlib.sha256(str(folder).encode()).hexdigest()[:12]}"


def gold_dataset(folder: Path, workers: int = 2, timeout: float = 10.0) -> Path:
    """The labelled dataset of gold pages: ``folder`` itself when it is one (``scilabel corpus gold``),
    else one built from its gold files (``<source>/<name>.json``, pages relative to the folder's parent)
    in :func:`dataset_cache`, the pages rendered through the render cache and each zone labelled by its
    saved ``zone_labels`` or its field ranges."""
    folder = Path(folder)
    if (folder / ZONES_FILE).exists():
        return folder
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such gold folder")
    out = dataset_cache(folder)
    manifest = build_gold([folder], out, data_root=folder.resolve().parent, scorer=page_scores, workers=workers,
                          timeout=timeout)
    failed = manifest[manifest["render_error"].notna()]
    for row in failed.itertuples():
        log.warning("%s: not read, left out (%s)", row.document, row.render_error)
    if len(failed) == len(manifest):
        raise ValueError(f"{folder}: none of its gold pages could be read")
    return out
