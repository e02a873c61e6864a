"""`ingest sql`, `ingest export` and `ingest report`: read-only uses of the warehouse."""

from __future__ import annotations

import contextlib
import itertools
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import typer
from rich.console import Console

from .. import check, outputs, warehouse
from ..errors import IngestError, command, one_line
from .consoles import Exit, console, fail, say, visible, warn
from .formats import FORMATS, WRITERS, FittedTable, as_table
from .run import fail_on_warehouse_fault, reports_option, warehouse_option

# `ingest run` waits about 30 s for the warehouse's lock (warehouse._LOCK_RETRIES); a query stopped
# before that never makes a concurrent run fail.
DEFAULT_TIMEOUT_S = 25.0


def sql(
    statement: str = typer.Argument(..., help="A SQL query; the warehouse is opened read-only."),
    warehouse_path: Path = warehouse_option("The DuckDB warehouse to query."),
    fmt: str | None = typer.Option(
        None, "--format", "-f", metavar="|".join(FORMATS), help="Output format. Default: table on a terminal, json otherwise."
    ),
    timeout: float = typer.Option(
        DEFAULT_TIMEOUT_S,
        "--timeout",
        metavar="SECONDS",
        help="Stop the query after this long (0: never). A running query holds "
        "the warehouse's read lock, which keeps `ingest run` from writing.",
    ),
    max_width: int = typer.Option(60, help="Truncate table cells wider than this (table format only)."),
) -> None:
    """Run a read-only SQL query on the warehouse and print the result.

    The data formats stream rows as they are fetched (any number of rows); the table shows the
    first 10,000. Exit status: 0 done, 1 the query failed or timed out, 2 usage, 3 the warehouse is locked.
    """
    if not statement.strip():
        example = command("sql 'SELECT doc_id, status FROM documents'")
        fail(f"the query is empty; give one, e.g. `{example}`", Exit.USAGE)
    fmt = fmt or ("table" if console.is_terminal else "json")
    if fmt not in FORMATS:
        fail(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}", Exit.USAGE)
    with _query(warehouse_path, statement, timeout) as (columns, rows):
        if fmt == "table":
            shown = list(itertools.islice(rows, MAX_TABLE_ROWS + 1))
            fitted = _print_table(columns, shown[:MAX_TABLE_ROWS], max_width)
            hidden = f", {len(columns)} columns ({fitted.shown} shown)" if fitted.shown < len(columns) else ""
            if len(shown) > MAX_TABLE_ROWS:
                say(
                    f"more than {MAX_TABLE_ROWS:,} rows{hidden}: the first {MAX_TABLE_ROWS:,} are shown; `--format jsonl` "
                    "or `--format csv` write them all (they stream), or add a LIMIT"
                )
            else:
                console.print(f"{len(shown)} row(s){hidden}")
            return
        terminal = console.is_terminal
        for chunk in WRITERS[fmt](columns, rows):
            sys.stdout.write(visible(chunk, keep_line_breaks=True) if terminal else chunk)


# A terminal table of more rows is unreadable, and Rich lays the whole table out in memory.
MAX_TABLE_ROWS = 10_000
# Rows fetched from DuckDB at a time: the result streams, whatever its size.
FETCH_ROWS = 2_048


@contextlib.contextmanager
def _query(path: Path, statement: str, timeout: float) -> Iterator[tuple[list[str], Iterator[tuple]]]:
    """(columns, rows as they are fetched) of a read-only query, stopped after `timeout` seconds; every
    DuckDB fault (an error, the timeout, memory) ends the command with one line."""
    import duckdb

    con = _open_read_only(path)
    timer = threading.Timer(timeout, con.interrupt) if timeout > 0 else None
    try:
        if timer:
            timer.start()
        cursor = con.execute(statement)
        columns = [d[0] for d in cursor.description or []]
        yield columns, _fetched(cursor)
    except duckdb.InterruptException:
        fail(
            f"the query ran longer than --timeout {timeout:g} s and was stopped (while it runs it holds the "
            "warehouse's read lock, which keeps `ingest run` from writing); give it more time with --timeout "
            "SECONDS, or --timeout 0 for none"
        )
    except duckdb.Error as error:
        fail(f"SQL error: {one_line(error)}")
    except MemoryError:
        fail(
            "the result does not fit in memory; add a LIMIT, select fewer columns, or use --format jsonl or csv "
            "(they stream rows)"
        )
    finally:
        if timer:
            timer.cancel()
        con.close()


def _fetched(cursor) -> Iterator[tuple]:
    while True:
        batch = cursor.fetchmany(FETCH_ROWS)
        if not batch:
            return
        yield from batch


def export(
    folder: Path = typer.Argument(..., help="Folder to write one file per table and view into."),
    fmt: str = typer.Option("parquet", "--format", "-f", metavar="parquet|csv", help="File format."),
    warehouse_path: Path = warehouse_option("The DuckDB warehouse to export."),
) -> None:
    """Write every table and view of the warehouse to FOLDER as Parquet or CSV files.

    It reads no file but the warehouse (a view over another file is not exported, and named) and
    writes only into FOLDER. Exit status: 0 done, 1 some relation could not be exported.
    """
    import duckdb

    from ..warehouse.export import FORMATS as EXPORT_FORMATS
    from ..warehouse.export import export as export_all

    if fmt not in EXPORT_FORMATS:
        fail(f"unknown --format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}", Exit.USAGE)
    con = _open_read_only(warehouse_path, file_access=True)
    try:
        exported = export_all(con, folder, fmt)
    except IngestError as error:
        fail(str(error))
    except duckdb.Error as error:
        fail(f"the export failed ({one_line(error)}); check the warehouse with `{command('sql')} 'SELECT 1'`")
    finally:
        con.close()
    for name, reason in exported.refused.items():
        warn(f"{name!r} was not exported: {reason}")
    say(f"{len(exported.written)} files written to {folder} ({fmt})")
    if exported.refused:
        fail(f"{len(exported.refused)} table(s) or view(s) were not exported (see the warnings above); the others were written")


def report(
    warehouse_path: Path = warehouse_option("The DuckDB warehouse to report on."),
    reports: Path = reports_option("Directory to write consistency.md and consistency.html to."),
    show: bool = typer.Option(False, "--show", help="Also print the contradictions and corroborations here."),
) -> None:
    """Rewrite the consistency report from the warehouse as it is (`--show`: and print its findings)."""
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
        findings = outputs.collect(con) if show else None
    except IngestError as error:
        fail(str(error))
    except Exception as error:
        fail_on_warehouse_fault(warehouse_path, error)
    finally:
        con.close()
    if findings is not None:
        _show(findings)
    for path in paths:
        say(f"report: {path}")


def _counted(n: int, noun: str) -> str:
    """ "1 note", "2 notes" (as the checks' SQL macro `counted` writes them)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _show(data: outputs.ReportData) -> None:
    """The report's findings as terminal tables, fitted to its width like `ingest sql`'s."""
    summary = data.summary
    say(
        f"{_counted(summary.likely, 'contradiction')}, {summary.possible} possible, "
        f"{_counted(summary.corroborations, 'corroboration')}, {_counted(summary.notes, 'note')} across "
        f"{_counted(summary.sources, 'independent source')} of {_counted(summary.documents, 'document')}"
    )
    contradictions = [
        (
            f.severity,
            f.subject,
            f.attribute,
            f.release or "",
            " vs ".join(
                f"{side.value}" + (f" (= {side.english})" if side.english else "") + f" ×{len(side.documents)}"
                for side in f.sides
            ),
            f.arbiter or "",
        )
        for f in data.contradictions
    ]
    if contradictions:
        _print_table(["severity", "subject", "attribute", "release", "values", "verdict"], contradictions, 60)
    corroborations = [(c.subject, c.attribute, c.release or "", c.value, c.n_sources) for c in data.corroborations]
    if corroborations:
        _print_table(["subject", "attribute", "release", "value", "sources"], corroborations, 60)


def _print_table(columns: Sequence[str], rows: Sequence[tuple], max_width: int) -> FittedTable:
    """Print rows as a table: on a terminal the columns that fit its width, in a pipe the whole
    table however wide (Rich would squeeze it into 80 cells)."""
    fitted = as_table(columns, rows, max_width, console.width if console.is_terminal else None)
    (console if console.is_terminal else Console(width=fitted.width, markup=False, highlight=False)).print(fitted.table)
    return fitted


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
