"""Every table and view of the warehouse as files: one Parquet or CSV file per relation.

DuckDB writes them (`COPY ... TO`), so nested columns keep their types in Parquet and are
written as DuckDB literals in CSV. Each file is written under a temporary name and renamed,
so a folder never holds half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from ..errors import IngestError

FORMATS = {"parquet": "(FORMAT parquet, COMPRESSION zstd)", "csv": "(FORMAT csv, HEADER true)"}


class ExportError(IngestError):
    """The export folder cannot be written or the format is unknown."""


def relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The names of the warehouse's tables and views, tables first."""
    return [name for (name,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() "
        "AND table_schema = 'main' ORDER BY table_type = 'VIEW', table_name").fetchall()]


def export(con: duckdb.DuckDBPyConnection, folder: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write every table and view to `folder`/<name>.<fmt>; returns the files written."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ExportError(f"cannot create the export folder {folder} ({error.strerror or error}); "
                          "choose another folder") from error
    written = []
    for name in relations(con):
        target = folder / f"{name}.{fmt}"
        temporary = folder / f".{name}.{fmt}.{os.getpid()}.tmp"
        try:
            con.execute(f"COPY (SELECT * FROM {_identifier(name)}) TO {_literal(str(temporary))} {FORMATS[fmt]}")
            os.replace(temporary, target)
        except (duckdb.IOException, OSError) as error:
            temporary.unlink(missing_ok=True)
            raise ExportError(f"cannot write {target} ({error}); choose another folder") from error
        written.append(target)
    return written


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
