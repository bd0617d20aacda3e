"""Where a batch run's records go: appended one JSON line at a time, so a crash loses at most the pages
in flight, and read back on ``--resume`` to skip the pages already labelled.

A Parquet output (``out.parquet``) is written through a JSON-lines journal beside it
(``out.parquet.jsonl``) and converted when the run ends; its columns are the records' keys, the
nested ones (zones, authors, references ...) as JSON text, named in the file's ``scilabel_json``
metadata.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from .atomic import atomic_path

#: Parquet schema metadata key naming the columns held as JSON text.
JSON_COLUMNS_KEY = b"scilabel_json"


class RecordLog:
    """An append-only JSON-lines file of records (one per line, each flushed as written).

    Opening it repairs a last line cut short by a crash (dropped: its page is labelled again).
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._file: IO[bytes] | None = None

    def sources(self) -> set[str]:
        """The ``source`` of every record already in the file (after repairing its end)."""
        if not self.path.exists():
            return set()
        _drop_torn_tail(self.path)
        with self.path.open("rb") as file:
            return {json.loads(line)["source"] for line in file if line.strip()}

    def append(self, record: dict) -> None:
        """Write ``record`` as one line and flush it to the operating system."""
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _drop_torn_tail(self.path)
            self._file = self.path.open("ab")
        self._file.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _drop_torn_tail(path: Path) -> None:
    """Cut a file back to its last newline (a line a crash left half written)."""
    if not path.exists():
        return
    with path.open("r+b") as file:
        size = file.seek(0, os.SEEK_END)
        if size == 0:
            return
        block, end = 1 << 16, size
        while end > 0:
            start = max(0, end - block)
            file.seek(start)
            chunk = file.read(end - start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                keep = start + cut + 1
                break
            end = start
        else:
            keep = 0
        if keep != size:
            file.truncate(keep)


class RecordOutput:
    """The output of a batch run: a JSON-lines file, or a Parquet file written through a journal.

    ``done()`` gives the sources already written (to skip on resume); ``append`` writes a record;
    ``close`` finishes the file (the Parquet conversion).
    """

    def __init__(self, path: Path, resume: bool = False):
        self.path = Path(path)
        self.parquet = self.path.suffix.lower() == ".parquet"
        self.log = RecordLog(self.path.with_name(self.path.name + ".jsonl") if self.parquet else self.path)
        if not resume:
            self.log.path.unlink(missing_ok=True)
        elif self.parquet and self.path.exists() and not self.log.path.exists():
            for record in read_parquet_records(self.path):  # go on from a finished Parquet file
                self.log.append(record)
        self.count = 0

    def done(self) -> set[str]:
        return self.log.sources()

    def append(self, record: dict) -> None:
        self.log.append(record)
        self.count += 1

    def close(self) -> None:
        self.log.close()
        if self.parquet:
            write_parquet(self.log.path, self.path)
            self.log.path.unlink()


def write_parquet(journal: Path, path: Path) -> None:
    """Convert a JSON-lines file of page records to Parquet (see the module docstring)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with journal.open("rb") as file:
        records = [json.loads(line) for line in file if line.strip()]
    keys = list(dict.fromkeys(key for record in records for key in record))
    nested = [k for k in keys if any(isinstance(r.get(k), (dict, list)) for r in records)]
    columns = {k: [json.dumps(r[k], ensure_ascii=False) if k in nested and k in r else r.get(k) for r in records]
               for k in keys}
    table = pa.table(columns) if keys else pa.table({"source": pa.array([], pa.string())})
    table = table.replace_schema_metadata({JSON_COLUMNS_KEY: json.dumps(nested).encode()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def read_parquet_records(path: Path) -> list[dict]:
    """The records of a Parquet file :func:`write_parquet` wrote, nested values decoded."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    nested = set(json.loads((table.schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]")))
    return [{k: json.loads(v) if k in nested and v is not None else v for k, v in row.items()}
            for row in table.to_pylist()]
