"""The DuckDB warehouse: connection, schema, per-document atomic loads, checks.

Files are created with storage compatibility v1.5.0 so the `duckdb` CLI 1.5.x
shipped in the environment can open them. DuckDB lets one process hold a file
for writing; a writer that finds the file locked retries with backoff and then
fails naming the process that holds it.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

import duckdb
import pyarrow as pa

STORAGE_VERSION = "v1.5.0"
SQL_DIR = Path(os.environ.get("INGEST_SQL_DIR", Path(__file__).resolve().parents[2] / "warehouse"))
_LOCK_RETRIES = 6
_LOCK_BACKOFF_S = 0.5
_LOCK_HOLDER = re.compile(r"(?:held in (?P<program>.+?) )?\(?PID (?P<pid>\d+)\)?")
# Read-only connections (`ingest sql`, `ingest report`) may not touch any file but the
# warehouse: no COPY ... TO, ATTACH, reading local files or installing extensions.
_READ_ONLY_CONFIG = {"enable_external_access": False}
DOCUMENT_TABLES = ("segments", "entities", "claims", "translation_issues", "anchors")


class WarehouseError(RuntimeError):
    """The warehouse file cannot be opened (not a DuckDB file, unwritable folder...); says what to do."""


class WarehouseLockedError(WarehouseError):
    """Another process holds the warehouse file for writing."""


def _lock_message(path: Path, error: Exception) -> str:
    holder = _LOCK_HOLDER.search(str(error))
    who = "another process"
    if holder:
        who = f"process {holder['pid']}" + (f" ({holder['program']})" if holder["program"] else "")
    return (f"the warehouse {path} is locked by {who} (an open duckdb CLI, `ingest sql` or another run); "
            f"close it or wait for it to finish, then re-run. DuckDB said: {error}")


def _is_lock_error(error: Exception) -> bool:
    text = str(error).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


def connect(path: str | Path, read_only: bool = False, retries: int = _LOCK_RETRIES) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) the warehouse; retry while another process holds its lock."""
    path = Path(path)
    if read_only and not path.exists():
        raise FileNotFoundError(f"no warehouse at {path}; run `ingest run` (or `make run`) first")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WarehouseError(f"cannot create the warehouse folder {path.parent} ({error.strerror or error}); "
                             "choose another --warehouse path") from error
    config = dict(_READ_ONLY_CONFIG) if read_only else \
        {} if path.exists() else {"storage_compatibility_version": STORAGE_VERSION}
    for attempt in range(retries + 1):
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except duckdb.IOException as error:
            if not _is_lock_error(error):
                raise WarehouseError(f"cannot open the warehouse {path} ({error}); if it is not a DuckDB "
                                     "file, move it away or choose another --warehouse path") from error
            if attempt == retries:
                raise WarehouseLockedError(_lock_message(path, error)) from error
            time.sleep(_LOCK_BACKOFF_S * 2 ** attempt)
    if not read_only:
        apply_schema(con)
    return con


def sql_files() -> list[Path]:
    """The schema first, then the checks in name order."""
    return [SQL_DIR / "schema.sql", *sorted((SQL_DIR / "checks").glob("*.sql"))]


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    for file in sql_files():
        con.execute(file.read_text("utf-8"))


# ---- loading ------------------------------------------------------------------------------

@dataclass
class DocumentRows:
    """Everything one document contributes to the warehouse, loaded or replaced as a unit."""

    document: dict[str, Any]
    segments: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    claims: list[dict[str, Any]]
    translation_issues: list[dict[str, Any]]
    anchors: list[dict[str, Any]]


def _table_columns(con: duckdb.DuckDBPyConnection, *tables: str) -> dict[str, list[str]]:
    """Each table's columns in order, from one catalog query."""
    columns: dict[str, list[str]] = {table: [] for table in tables}
    for table, column in con.execute(
            "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = current_database() "
            "AND schema_name = current_schema() AND table_name IN "
            f"({', '.join('?' for _ in tables)}) ORDER BY table_name, column_index", list(tables)).fetchall():
        columns[table].append(column)
    return columns


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[dict[str, Any]],
            columns: Sequence[str] | None = None) -> None:
    """Bulk insert through Arrow; columns the rows lack are NULL."""
    if not rows:
        return
    columns = columns if columns is not None else _table_columns(con, table)[table]
    batch = pa.Table.from_pydict({c: [row.get(c) for row in rows] for c in columns})
    con.register("_ingest_batch", batch)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _ingest_batch")
    finally:
        try:
            con.unregister("_ingest_batch")
        except duckdb.TransactionException:
            pass  # the insert failed and aborted the transaction; keep its error, not this one


def load_document(con: duckdb.DuckDBPyConnection, rows: DocumentRows) -> None:
    """Replace one document's rows in a single transaction: all of it lands or none does."""
    load_documents(con, [rows])


def load_documents(con: duckdb.DuckDBPyConnection, documents: Sequence[DocumentRows]) -> None:
    """Replace several whole documents' rows in a single transaction: all of them land or none does.

    One DELETE and one Arrow insert per table for the whole batch, instead of one per
    document and table. A doc_id given twice is loaded once, with its last rows, as
    loading them one after the other would leave it.
    """
    latest = {rows.document["doc_id"]: rows for rows in documents}
    if not latest:
        return
    tables = (*DOCUMENT_TABLES, "documents")
    columns = _table_columns(con, *tables)
    con.execute("BEGIN TRANSACTION")
    try:
        con.register("_ingest_doc_ids", pa.table({"doc_id": pa.array(list(latest), pa.string())}))
        for table in tables:
            con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT doc_id FROM _ingest_doc_ids)")
        for table in DOCUMENT_TABLES:
            _insert(con, table, [row for rows in latest.values() for row in getattr(rows, table)], columns[table])
        _insert(con, "documents", [rows.document for rows in latest.values()], columns["documents"])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_ingest_doc_ids")


def stored_fingerprints(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str, str]]:
    """doc_id -> (sha256, pipeline_version, status) of what the warehouse holds."""
    return {doc_id: (sha, version, status) for doc_id, sha, version, status in con.execute(
        "SELECT doc_id, sha256, pipeline_version, status FROM documents").fetchall()}


def record_run(con: duckdb.DuckDBPyConnection, run: dict[str, Any]) -> None:
    con.execute("DELETE FROM runs WHERE run_id = ?", [run["run_id"]])
    _insert(con, "runs", [run])


def rows_of(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Dataclass records as plain dicts for loading (what `asdict` gives, without its deep copy)."""
    return [_row_of(r) if hasattr(r, "__dataclass_fields__") else dict(r) for r in records]


@lru_cache(maxsize=64)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _row_of(record: Any) -> dict[str, Any]:
    row = {name: getattr(record, name) for name in _field_names(type(record))}
    if any(isinstance(v, (list, tuple, dict)) or hasattr(v, "__dataclass_fields__") for v in row.values()):
        return asdict(record)  # nested values: keep asdict's recursive conversion
    return row


def table_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    tables = ("documents", *DOCUMENT_TABLES, "runs")
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


def query(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None) -> tuple[list[str], list[tuple]]:
    """Column names and rows of a query."""
    cursor = con.execute(sql, params or [])
    return [d[0] for d in cursor.description], cursor.fetchall()
