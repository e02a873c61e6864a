"""Every table and view of the warehouse as files: one Parquet or CSV file per relation.

DuckDB writes them (`COPY ... TO`), so nested columns keep their types in Parquet and are
written as DuckDB literals in CSV. The export runs in the same sandbox as `ingest sql`: the
connection may write only into a private staging folder inside the export folder and read no
file but the warehouse, so a view over `read_text('/etc/passwd')` is refused (and named) rather
than copied out. A relation's name becomes a file name only through `file_name` (letters, digits,
`.`, `_`, `-`; never hidden, never a path), so a view named "x/../../escaped" cannot write outside
the folder. CSV text cells are made inert for spreadsheets (`ingest.escape.spreadsheet_sql`).
Each file is written in the staging folder and renamed into place, so a folder never holds half
a file.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ..errors import IngestError
from ..escape import spreadsheet_sql
from . import confine, quoted

FORMATS = {"parquet": "(FORMAT parquet, COMPRESSION zstd)", "csv": "(FORMAT csv, HEADER true)"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# Column types DuckDB writes into a CSV cell as the text itself, which a spreadsheet may run;
# numbers, dates and nested values (written from `[` or `{`) cannot start a formula.
_TEXT_TYPES = re.compile(r"VARCHAR|JSON|BLOB|ENUM\(.*\)")


class ExportError(IngestError):
    """The export folder cannot be written or the format is unknown."""


@dataclass
class Exported:
    """What an export wrote, and the relations it could not export (name -> why)."""

    written: list[Path] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)


def relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The names of the warehouse's tables and views, tables first."""
    return [
        name
        for (name,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() "
            "AND table_schema = 'main' ORDER BY table_type = 'VIEW', table_name"
        ).fetchall()
    ]


def file_name(name: str, taken: set[str]) -> str:
    """A file name for relation `name`: itself when it is safe, else its safe characters and a
    digest of the name (distinct names never share a file)."""
    safe = _UNSAFE.sub("_", name).lstrip(".")
    if safe == name and safe.lower() not in taken:
        return safe
    return f"{safe or 'relation'}~{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def export(con: duckdb.DuckDBPyConnection, folder: str | Path, fmt: str = "parquet") -> Exported:
    """Write every table and view to `folder`/<file name>.<fmt>. `con` must be a read-only
    connection opened with `file_access`; it is confined to a staging folder here, for good."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".export-", dir=folder))
    except OSError as error:
        raise ExportError(
            f"cannot create the export folder {folder} ({error.strerror or error}); choose another folder"
        ) from error
    try:
        confine(con, staging)
        return _export_all(con, folder, staging, fmt)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _export_all(con: duckdb.DuckDBPyConnection, folder: Path, staging: Path, fmt: str) -> Exported:
    exported = Exported()
    taken: set[str] = set()
    for name in relations(con):
        stem = file_name(name, taken)
        taken.add(stem.lower())
        target, temporary = folder / f"{stem}.{fmt}", staging / f"{stem}.{fmt}"
        select = _select(con, name, fmt)
        try:
            con.execute(f"COPY ({select}) TO {_literal(str(temporary))} {FORMATS[fmt]}")
        except duckdb.PermissionException as error:
            exported.refused[name] = (
                f"it reads files outside the warehouse ({str(error).splitlines()[0]}); "
                "`ingest export` writes what the warehouse holds"
            )
            continue
        except duckdb.Error as error:
            if isinstance(error, duckdb.IOException):
                raise ExportError(f"cannot write {target} ({error}); choose another folder") from error
            exported.refused[name] = f"DuckDB cannot read it ({str(error).splitlines()[0]})"
            continue
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise ExportError(f"cannot write {target} ({error.strerror or error}); choose another folder") from error
        exported.written.append(target)
    return exported


def _select(con: duckdb.DuckDBPyConnection, name: str, fmt: str) -> str:
    """The query that exports relation `name`: as it is, or with CSV text cells made inert."""
    if fmt != "csv":
        return f"SELECT * FROM {quoted(name)}"
    columns = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = "
        "current_database() AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [name],
    ).fetchall()
    parts = []
    for column, data_type in columns:
        parts.append(
            f"{spreadsheet_sql(_as_text(column, data_type))} AS {quoted(column)}"
            if _TEXT_TYPES.fullmatch(data_type.upper())
            else quoted(column)
        )
    return f"SELECT {', '.join(parts)} FROM {quoted(name)}"


def _as_text(column: str, data_type: str) -> str:
    return quoted(column) if data_type.upper() == "VARCHAR" else f"CAST({quoted(column)} AS VARCHAR)"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
