"""A batch's outcome between the stages and the loader: rows in memory, or as Parquet files.

Parquet staging (`<staging>/<label>/<table>.parquet`) is how batches run on Dask workers
hand their rows to the single process that writes DuckDB.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from ..records import DocumentOutcome, DocumentRows, Status
from ..warehouse.load import RowSource, arrow_sources


def default_staging_dir(warehouse_path: str | Path) -> Path:
    path = Path(warehouse_path)
    return path.with_name(path.stem + ".staging")


@dataclass
class StagedBatch:
    """A batch's outcome: per-document outcome, stage counts, and its rows (in memory or as Parquet)."""

    label: str
    outcomes: dict[str, DocumentOutcome]
    langs: list[str] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # stage -> documents computed
    cached: dict[str, int] = field(default_factory=dict)  # stage -> documents read from the cache
    rows: list[DocumentRows] | None = None
    files: dict[str, str] | None = None  # table -> Parquet file
    loaded: bool = False  # set once committed, so a retried load does not load it twice
    worker: str = ""  # where the stages ran: a Dask worker's address, or "pid N"
    refused: set[str] = field(default_factory=set)  # documents the warehouse would not take

    @classmethod
    def of(cls, label: str, rows: list[DocumentRows], **counts) -> StagedBatch:
        outcomes = {r.doc_id: r.outcome() for r in rows}
        langs = sorted({r.document["lang"] for r in rows if r.document["lang"] and r.document["status"] == Status.OK})
        return cls(label, outcomes, langs, rows=rows, **counts)

    @property
    def doc_ids(self) -> list[str]:
        return list(self.outcomes)

    def sources(self) -> dict[str, RowSource]:
        """Each table's rows, for the loader."""
        return arrow_sources(self.rows) if self.rows is not None else dict(self.files or {})

    def write(self, directory: Path) -> None:
        """Write the rows as one Parquet file per table and drop them from memory."""
        directory.mkdir(parents=True, exist_ok=True)
        files: dict[str, str] = {}
        for table, source in self.sources().items():
            path = directory / f"{table}.parquet"
            temporary = path.with_name(path.name + ".tmp")
            pq.write_table(source, temporary)
            os.replace(temporary, path)
            files[table] = str(path)
        self.files, self.rows = files, None

    def discard_files(self) -> None:
        if self.files:
            shutil.rmtree(Path(next(iter(self.files.values()))).parent, ignore_errors=True)
