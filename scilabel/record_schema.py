"""The JSON Schemas of what the page commands write, shipped in ``scilabel/schemas/``: a ``label``
record, a ``refs`` record, a ``structure`` record (one per page, or one a line for many pages) and the
``failure`` record of a page that failed in a run over many. ``docs/output-schema.md`` says what each
field means.

    validate_record(record, "label")     # raises jsonschema.ValidationError when it does not fit
"""
from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

#: The record kinds with a schema.
RECORD_KINDS = ("label", "refs", "structure", "failure")


@cache
def record_schema(kind: str) -> dict:
    """The JSON Schema (draft 2020-12) of a ``kind`` record (one of :data:`RECORD_KINDS`)."""
    if kind not in RECORD_KINDS:
        raise ValueError(f"unknown record kind {kind!r} (one of {', '.join(RECORD_KINDS)})")
    return json.loads(files("scilabel").joinpath("schemas", f"{kind}.schema.json").read_text(encoding="utf-8"))


def validate_record(record: dict, kind: str) -> None:
    """Check ``record`` against the schema of ``kind`` records (needs the ``jsonschema`` package).

    Raises
    ------
    jsonschema.ValidationError
        Where the record does not fit, with the path to the offending field.
    """
    import jsonschema

    jsonschema.validate(record, record_schema(kind), cls=jsonschema.Draft202012Validator)
