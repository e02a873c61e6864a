"""The DuckDB warehouse: connection, schema and checks (package data in `sql/`), queries.

Files are created with storage compatibility v1.5.0 so the `duckdb` CLI 1.5.x
shipped in the environment can open them. DuckDB lets one process hold a file
for writing; a writer that finds the file locked retries with backoff and then
fails naming the process that holds it. Loading is in `load`, the conversion of
rows to Arrow in `rows`.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import time
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import duckdb

from ..errors import WarehouseCorruptError, WarehouseError, WarehouseLockedError, command
from ..records import DOCUMENT_TABLES
from ..transaction import transaction

__all__ = [
    "DOCUMENT_TABLES",
    "WarehouseCorruptError",
    "WarehouseError",
    "WarehouseLockedError",
    "applied_digest",
    "confine",
    "connect",
    "damage_error",
    "dicts",
    "is_damage",
    "is_storage_fault",
    "known_fault",
    "mark_missing",
    "query",
    "quoted",
    "record_applied",
    "scalar",
    "schema_digest",
    "schema_is_current",
    "storage_error",
    "stored_documents",
    "table_columns",
    "table_counts",
    "transaction",
]

STORAGE_VERSION = "v1.5.0"
_log = logging.getLogger(__name__)
_LOCK_RETRIES = 6
_LOCK_BACKOFF_S = 0.5
_LOCK_HOLDER = re.compile(r"(?:held in (?P<program>.+?) )?\(?PID (?P<pid>\d+)\)?")
# Read-only connections (`ingest sql`, `ingest report`) may not touch any file but the
# warehouse: no COPY ... TO, ATTACH, reading local files or installing extensions; and their
# settings are locked, so a query cannot undo that or send DuckDB's log or profile to a file
# (which it would then fail to write when the connection closes, aborting the process).
_READ_ONLY_CONFIG = {"enable_external_access": False}
# DuckDB's own memory (buffers, hash tables) before it spills to `<warehouse>.tmp/`: by default it
# takes up to 80 % of the machine, and the report of 10,000 documents held 1.1 GB more than under a
# limit; with this one (and renderings aligned in batches) the whole run there took 6 % longer
# (docs/benchmarks.md, "Renderings at scale").
MEMORY_LIMIT = "500MB"


def _lock_holder(error: Exception) -> str:
    holder = _LOCK_HOLDER.search(str(error))
    if not holder:
        return "another process"
    return f"process {holder['pid']}" + (f" ({holder['program']})" if holder["program"] else "")


def _lock_message(path: Path, error: Exception) -> str:
    return (
        f"the warehouse {path} is locked by {_lock_holder(error)} (an open duckdb CLI, `ingest sql` or another run); "
        f"close it or wait for it to finish, then re-run. DuckDB said: {error}"
    )


def _is_lock_error(error: Exception) -> bool:
    text = str(error).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


def connect(
    path: str | Path, read_only: bool = False, retries: int = _LOCK_RETRIES, file_access: bool = False
) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) the warehouse; retry while another process holds its lock.

    A read-only connection runs users' SQL, so it cannot touch other files unless `file_access`
    (for the export, which then confines it to one folder: `confine`).
    """
    path = Path(path)
    if read_only and not path.exists():
        raise FileNotFoundError(f"no warehouse at {path}; run `{command('run')}` (or `make run`) first")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WarehouseError(
            f"cannot create the warehouse folder {path.parent} ({error.strerror or error}); choose another --warehouse path"
        ) from error
    config: dict[str, str | bool | int | float | list[str]] = {"memory_limit": MEMORY_LIMIT}
    if read_only:
        config |= {} if file_access else _READ_ONLY_CONFIG
    elif not path.exists():
        config["storage_compatibility_version"] = STORAGE_VERSION
    for attempt in range(retries + 1):
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except duckdb.Error as error:
            if not _is_lock_error(error):
                raise WarehouseError(f"cannot open the warehouse {path} ({error}); {_RECOVERY.format(path=path)}") from error
            if attempt == retries:
                raise WarehouseLockedError(_lock_message(path, error)) from error
            if attempt == 0:  # said at once: a silent wait of half a minute looks like a hang
                _log.warning(
                    "the warehouse %s is locked by %s; waiting up to %.0f s for it to be free",
                    path,
                    _lock_holder(error),
                    _LOCK_BACKOFF_S * (2**retries - 1),
                )
            time.sleep(_LOCK_BACKOFF_S * 2**attempt)
    try:
        # DuckDB draws a progress bar on stdout for a query that runs over 2 s: in the middle of the
        # rows `ingest sql` writes there (JSON piped into another tool).
        con.execute("SET enable_progress_bar = false")
        if read_only and not file_access:
            con.execute("SET lock_configuration = true")
        _check_whole(con, path)
        if not read_only:
            apply_schema(con)
    except BaseException:
        con.close()
        raise
    return con


def confine(con: duckdb.DuckDBPyConnection, directory: str | Path) -> None:
    """Let a connection opened with `file_access` touch no file but those in `directory` (and the
    warehouse), for good: the views it reads (a user's `read_text('/etc/passwd')`) are refused
    like any query of `ingest sql`."""
    folder = str(Path(directory).resolve()) + "/"
    con.execute("SET allowed_directories = ?", [[folder]])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


# What to do with a warehouse that cannot be read: every document is ingested again from its file.
_RECOVERY = (
    "if it is not a DuckDB file or is damaged, move it away (e.g. `mv {path} {path}.damaged`) and run "
    "again: every input is ingested anew, and the stage cache next to it makes that quick"
)
_HEADER_BYTES = 3 * 4096  # DuckDB's main header and its two database headers


def _check_whole(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a truncated file (a full disk, an interrupted copy): DuckDB opens one and fails later,
    when a query reaches a missing block. The file must reach past the last block a table uses."""
    block_size = scalar(con, "SELECT block_size FROM pragma_database_size()")
    last_block = -1
    for schema, table in con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()"
    ).fetchall():
        # Quoted: a user's table may be named "notes.2024".
        used = scalar(
            con, "SELECT max(block_id) FROM pragma_storage_info(?) WHERE persistent", [f"{quoted(schema)}.{quoted(table)}"]
        )
        last_block = max(last_block, used if used is not None else -1)
    expected = _HEADER_BYTES + (last_block + 1) * block_size
    size = path.stat().st_size
    if size < expected:
        raise WarehouseCorruptError(
            f"the warehouse {path} is truncated ({size:,} bytes; its tables need at least "
            f"{expected:,}); " + _RECOVERY.format(path=path)
        )


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None) -> Any:
    """The first value of a query that always returns a row (count(*), max(), a pragma)."""
    row = con.execute(sql, params or []).fetchone()
    assert row is not None, sql
    return row[0]


def quoted(name: str) -> str:
    """`name` as a SQL identifier, whatever characters it holds."""
    return '"' + name.replace('"', '""') + '"'


def is_damage(error: BaseException) -> bool:
    """Whether a DuckDB error means the file is damaged (rather than a query or lock problem)."""
    text = str(error)
    return isinstance(error, duckdb.Error) and any(
        sign in text for sign in ("Corrupt database file", "Could not read enough bytes", "checksum")
    )


def damage_error(path: str | Path, error: BaseException) -> WarehouseCorruptError:
    """The error to raise for a DuckDB error that `is_damage`."""
    return WarehouseCorruptError(
        f"the warehouse {path} is damaged ({str(error).splitlines()[0][:200]}); " + _RECOVERY.format(path=path)
    )


def _schema_file() -> Traversable:
    return resources.files(__name__) / "sql" / "schema.sql"


def schema_digest() -> str:
    """The digest of every table definition this version writes."""
    return hashlib.sha256(_schema_file().read_bytes()).hexdigest()


def applied_digest(con: duckdb.DuckDBPyConnection, part: str) -> str | None:
    """The digest of the definitions of `part` ('tables'; the checks' 'views') last applied to this file."""
    if _state_columns(con) != ["part", "digest", "applied_at"]:
        return None  # none yet, or one an older version wrote (without parts): apply again
    applied = con.execute("SELECT digest FROM schema_state WHERE part = ?", [part]).fetchone()
    return applied[0] if applied else None


def record_applied(con: duckdb.DuckDBPyConnection, part: str, digest: str) -> None:
    """Note that the definitions of `part` with this digest are applied (inside the caller's transaction)."""
    if _state_columns(con) not in ([], ["part", "digest", "applied_at"]):
        con.execute("DROP TABLE schema_state")  # an older version's, without parts
    con.execute("CREATE TABLE IF NOT EXISTS schema_state (part VARCHAR PRIMARY KEY, digest VARCHAR, applied_at TIMESTAMP)")
    con.execute("INSERT OR REPLACE INTO schema_state VALUES (?, ?, now())", [part, digest])


def _state_columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The columns of schema_state, read from the catalog (a failed query would abort a transaction)."""
    return [
        name
        for (name,) in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = 'schema_state' "
            "AND database_name = current_database() AND schema_name = current_schema() ORDER BY column_index"
        ).fetchall()
    ]


def schema_is_current(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the warehouse's tables are this version's (else open it for writing once)."""
    return applied_digest(con, "tables") == schema_digest()


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create or update the tables, only when their definitions changed (the checks' views are
    applied by `ingest.check`).

    An unchanged warehouse is opened without a write, so a full disk does not stop a run
    that has nothing to load and a reader never waits for a rewrite of the tables. A warehouse
    made by an older version first gets the columns its tables lack (`_add_missing_columns`);
    one that cannot be brought up to date is a `WarehouseError` saying so.
    """
    digest = schema_digest()
    if applied_digest(con, "tables") == digest:
        return
    try:
        with transaction(con):
            _add_missing_columns(con)
            con.execute(_schema_file().read_text("utf-8"))
            record_applied(con, "tables", digest)
    except duckdb.Error as error:
        raise known_fault(_path_of(con), error) or _other_version(con, str(error).splitlines()[0]) from error


def _path_of(con: duckdb.DuckDBPyConnection) -> str:
    row = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    return row[0] if row else "the warehouse"


# Errors of the disk or the database file, not of a query: a full disk, an unwritable WAL. A failed
# COMMIT (the WAL could not be written) comes as a TransactionException.
_STORAGE_FAULTS = (duckdb.IOException, duckdb.FatalException)
_STORAGE_SIGNS = ("Could not write file", "No space left", "Failed to commit")


def is_storage_fault(error: BaseException) -> bool:
    """Whether a DuckDB error means the warehouse's storage failed (a full disk ...), not a statement."""
    return isinstance(error, _STORAGE_FAULTS) or (
        isinstance(error, duckdb.Error) and any(sign in str(error) for sign in _STORAGE_SIGNS)
    )


def storage_error(path: str | Path, error: BaseException) -> WarehouseError:
    """The one-line error for a storage fault while writing the warehouse at `path`."""
    return WarehouseError(
        f"cannot write {path} ({str(error).splitlines()[0][:300]}); nothing of the failed step "
        "was written. Free disk space or fix the storage, then run again: what was loaded is kept"
    )


def known_fault(path: str | Path, error: BaseException) -> WarehouseError | None:
    """A DuckDB error that means a damaged file or failed storage as the one-line error saying what to do;
    None for any other error. The errors it was raised while handling count too: a ROLLBACK after a
    COMMIT that failed on a full disk raises "no transaction is active", which hides the full disk."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if is_damage(cause):
            return damage_error(path, cause)
        if is_storage_fault(cause):
            return storage_error(path, cause)
        cause = cause.__cause__ or cause.__context__
    return None


def _other_version(con: duckdb.DuckDBPyConnection, detail: str) -> WarehouseError:
    path = _path_of(con)
    return WarehouseError(
        f"the warehouse {path} is from another version of ingest and cannot be brought up to "
        f"date ({detail}); move it away (e.g. `mv {path} {path}.old`) and run again: every input "
        "is ingested anew, and the stage cache next to it makes that quick"
    )


@functools.lru_cache(maxsize=1)
def _defined_columns() -> dict[str, list[tuple[str, str]]]:
    """table -> [(column, type)] as this version's schema.sql defines them (made in memory)."""
    scratch = duckdb.connect(":memory:")
    try:
        scratch.execute(_schema_file().read_text("utf-8"))
        columns: dict[str, list[tuple[str, str]]] = {}
        for table, column, data_type in scratch.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() "
            "WHERE database_name = current_database() ORDER BY table_name, column_index"
        ).fetchall():
            columns.setdefault(table, []).append((column, data_type))
        return columns
    finally:
        scratch.close()


def _add_missing_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Give every table the warehouse already has the columns this version defines and it lacks (NULL in
    its rows); a column of another type cannot be converted, and one this version does not write but
    that may not be NULL would refuse every row: both are refused here, with the table and column."""
    present: dict[str, dict[str, str]] = {}
    required: set[tuple[str, str]] = set()  # NOT NULL without a default: every insert must give it
    for table, column, data_type, nullable, default in con.execute(
        "SELECT table_name, column_name, data_type, is_nullable, column_default FROM duckdb_columns() "
        "WHERE database_name = current_database() AND schema_name = current_schema()"
    ).fetchall():
        present.setdefault(table, {})[column] = data_type
        if not nullable and default is None:
            required.add((table, column))
    for table, columns in _defined_columns().items():
        if table not in present:
            continue  # created by schema.sql
        for column, data_type in columns:
            held = present[table].get(column)
            if held is None:
                con.execute(f"ALTER TABLE {quoted(table)} ADD COLUMN {quoted(column)} {data_type}")
            elif held != data_type:
                raise _other_version(con, f"column {table}.{column} is {held}, this version needs {data_type}")
        unknown = sorted(c for c in present[table] if c not in dict(columns) and (table, c) in required)
        if unknown:
            raise _other_version(con, f"column {table}.{unknown[0]} may not be NULL and this version does not write it")


def dicts(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """The rows of a query as dicts by column name."""
    columns, rows = query(con, sql, params)
    return [dict(zip(columns, row)) for row in rows]


def query(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None) -> tuple[list[str], list[tuple]]:
    """Column names and rows of a query."""
    cursor = con.execute(sql, params or [])
    return [d[0] for d in cursor.description], cursor.fetchall()


def table_columns(con: duckdb.DuckDBPyConnection, *tables: str) -> dict[str, list[str]]:
    """Each table's columns in order, from one catalog query."""
    columns: dict[str, list[str]] = {table: [] for table in tables}
    for table, column in con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = current_database() "
        "AND schema_name = current_schema() AND table_name IN "
        f"({', '.join('?' for _ in tables)}) ORDER BY table_name, column_index",
        list(tables),
    ).fetchall():
        columns[table].append(column)
    return columns


def stored_documents(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """What the warehouse holds of every document to plan a run: its identity (doc_id, path,
    source_root), its bytes, text and pipeline version, its status and what it is a duplicate of."""
    return dicts(
        con,
        "SELECT doc_id, path, source_root, sha256, text_sha256, pipeline_version, status, duplicate_of "
        "FROM documents ORDER BY doc_id",
    )


def mark_missing(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str], reason: str) -> None:
    """Mark documents whose file is gone `missing`: their rows stay, every check leaves them out."""
    if doc_ids:
        con.execute(
            "UPDATE documents SET status = 'missing', error = ? WHERE doc_id IN (SELECT unnest(?::VARCHAR[]))",
            [reason, list(doc_ids)],
        )


def documents_digest(con: duckdb.DuckDBPyConnection) -> str:
    """What the cross-document checks depend on: every document's bytes, pipeline version and status."""
    digest = hashlib.sha256()
    for row in con.execute("SELECT doc_id, sha256, pipeline_version, status, error FROM documents ORDER BY doc_id").fetchall():
        digest.update(repr(row).encode("utf-8"))
    return digest.hexdigest()


def table_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    tables = ("documents", *DOCUMENT_TABLES, "runs")
    return {t: scalar(con, f"SELECT count(*) FROM {t}") for t in tables}
