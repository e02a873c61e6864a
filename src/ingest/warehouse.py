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
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import duckdb
import pyarrow as pa

STORAGE_VERSION = "v1.5.0"
SQL_DIR = Path(os.environ.get("INGEST_SQL_DIR", Path(__file__).resolve().parents[2] / "warehouse"))
_LOCK_RETRIES = 6
_LOCK_BACKOFF_S = 0.5
_LOCK_HOLDER = re.compile(r"PID (\d+)")
DOCUMENT_TABLES = ("segments", "entities", "claims", "translation_issues", "anchors")


class WarehouseLockedError(RuntimeError):
    """Another process holds the warehouse file for writing."""


def _lock_message(path: Path, error: Exception) -> str:
    holder = _LOCK_HOLDER.search(str(error))
    who = f"process {holder.group(1)}" if holder else "another process"
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
    path.parent.mkdir(parents=True, exist_ok=True)
    config = {} if read_only or path.exists() else {"storage_compatibility_version": STORAGE_VERSION}
    for attempt in range(retries + 1):
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except duckdb.IOException as error:
            if not _is_lock_error(error):
                raise
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


def _table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [row[0] for row in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
        [table]).fetchall()]


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Bulk insert through Arrow; columns the rows lack are NULL."""
    if not rows:
        return
    columns = _table_columns(con, table)
    batch = pa.Table.from_pydict({c: [row.get(c) for row in rows] for c in columns})
    con.register("_ingest_batch", batch)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _ingest_batch")
    finally:
        con.unregister("_ingest_batch")


def load_document(con: duckdb.DuckDBPyConnection, rows: DocumentRows) -> None:
    """Replace one document's rows in a single transaction: all of it lands or none does."""
    doc_id = rows.document["doc_id"]
    con.execute("BEGIN TRANSACTION")
    try:
        for table in (*DOCUMENT_TABLES, "documents"):
            con.execute(f"DELETE FROM {table} WHERE doc_id = ?", [doc_id])
        _insert(con, "segments", rows.segments)
        _insert(con, "entities", rows.entities)
        _insert(con, "claims", rows.claims)
        _insert(con, "translation_issues", rows.translation_issues)
        _insert(con, "anchors", rows.anchors)
        _insert(con, "documents", [rows.document])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def stored_fingerprints(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str, str]]:
    """doc_id -> (sha256, pipeline_version, status) of what the warehouse holds."""
    return {doc_id: (sha, version, status) for doc_id, sha, version, status in con.execute(
        "SELECT doc_id, sha256, pipeline_version, status FROM documents").fetchall()}


def record_run(con: duckdb.DuckDBPyConnection, run: dict[str, Any]) -> None:
    con.execute("DELETE FROM runs WHERE run_id = ?", [run["run_id"]])
    _insert(con, "runs", [run])


def rows_of(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Dataclass records as plain dicts for loading."""
    return [asdict(r) if hasattr(r, "__dataclass_fields__") else dict(r) for r in records]


def table_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    tables = ("documents", *DOCUMENT_TABLES, "runs")
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


def query(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None) -> tuple[list[str], list[tuple]]:
    """Column names and rows of a query."""
    cursor = con.execute(sql, params or [])
    return [d[0] for d in cursor.description], cursor.fetchall()
