"""`ingest sql`, `ingest export` and `ingest report`: read-only uses of the warehouse."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Optional

import typer

from .. import check, outputs, warehouse
from ..errors import IngestError, command
from .consoles import Exit, console, fail, say, visible
from .formats import FORMATS, WRITERS, as_table
from .run import reports_option, warehouse_option

# `ingest run` waits about 30 s for the warehouse's lock (warehouse._LOCK_RETRIES); a query stopped
# before that never makes a concurrent run fail.
DEFAULT_TIMEOUT_S = 25.0


def sql(statement: str = typer.Argument(..., help="A SQL query; the warehouse is opened read-only."),
        warehouse_path: Path = warehouse_option("The DuckDB warehouse to query."),
        fmt: Optional[str] = typer.Option(None, "--format", "-f", metavar="|".join(FORMATS),
                                          help="Output format. Default: table on a terminal, json otherwise."),
        timeout: float = typer.Option(DEFAULT_TIMEOUT_S, "--timeout", metavar="SECONDS",
                                      help="Stop the query after this long (0: never). A running query holds "
                                           "the warehouse's read lock, which keeps `ingest run` from writing."),
        max_width: int = typer.Option(60, help="Truncate table cells wider than this (table format only).")) -> None:
    """Run a read-only SQL query on the warehouse and print the result.

    Exit status: 0 done, 1 the query failed or timed out, 2 usage, 3 the warehouse is locked.
    """
    if not statement.strip():
        example = command("sql 'SELECT doc_id, status FROM documents'")
        fail(f"the query is empty; give one, e.g. `{example}`", Exit.USAGE)
    fmt = fmt or ("table" if console.is_terminal else "json")
    if fmt not in FORMATS:
        fail(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}", Exit.USAGE)
    columns, rows = _query(warehouse_path, statement, timeout)
    if fmt == "table":
        console.print(as_table(columns, rows, max_width))
        console.print(f"{len(rows)} row(s)")
        return
    text = WRITERS[fmt](columns, rows)
    sys.stdout.write(visible(text, keep_line_breaks=True) if console.is_terminal else text)


def _query(path: Path, statement: str, timeout: float) -> tuple[list[str], list[tuple]]:
    import duckdb

    con = _open_read_only(path)
    timer = threading.Timer(timeout, con.interrupt) if timeout > 0 else None
    try:
        if timer:
            timer.start()
        return warehouse.query(con, statement)
    except duckdb.InterruptException:
        fail(f"the query ran longer than --timeout {timeout:g} s and was stopped (while it runs it holds the "
             "warehouse's read lock, which keeps `ingest run` from writing); give it more time with --timeout "
             "SECONDS, or --timeout 0 for none")
    except duckdb.Error as error:
        fail(f"SQL error: {error}")
    finally:
        if timer:
            timer.cancel()
        con.close()


def export(folder: Path = typer.Argument(..., help="Folder to write one file per table and view into."),
           fmt: str = typer.Option("parquet", "--format", "-f", metavar="parquet|csv", help="File format."),
           warehouse_path: Path = warehouse_option("The DuckDB warehouse to export.")) -> None:
    """Write every table and view of the warehouse to FOLDER as Parquet or CSV files."""
    from ..warehouse.export import FORMATS as EXPORT_FORMATS, export as export_all

    if fmt not in EXPORT_FORMATS:
        fail(f"unknown --format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}", Exit.USAGE)
    con = _open_read_only(warehouse_path, file_access=True)
    try:
        written = export_all(con, folder, fmt)
    except IngestError as error:
        fail(str(error))
    finally:
        con.close()
    say(f"{len(written)} files written to {folder} ({fmt})")


def report(warehouse_path: Path = warehouse_option("The DuckDB warehouse to report on."),
           reports: Path = reports_option()) -> None:
    """Rewrite the consistency report from the warehouse as it is."""
    con = _open_read_only(warehouse_path)
    if not check.is_current(con):  # written by another version: bring its views and checks up to date once
        con.close()
        updating = _open_for_update(warehouse_path)
        try:
            check.update_checks(updating)
        finally:
            updating.close()
        con = _open_read_only(warehouse_path)
    try:
        paths = outputs.write_reports(con, reports)
    except IngestError as error:
        fail(str(error))
    finally:
        con.close()
    for path in paths:
        say(f"report: {path}")


def _open_read_only(path: Path, file_access: bool = False):
    return _open(path, read_only=True, file_access=file_access)


def _open_for_update(path: Path):
    return _open(path, read_only=False)


def _open(path: Path, **options):
    try:
        return warehouse.connect(path, **options)
    except FileNotFoundError as error:
        fail(str(error), Exit.USAGE)
    except warehouse.WarehouseLockedError as error:
        fail(str(error), Exit.LOCKED)
    except warehouse.WarehouseError as error:
        fail(str(error))
