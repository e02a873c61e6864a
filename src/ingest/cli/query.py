"""`ingest sql` and `ingest report`: read-only views of the warehouse."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from .. import outputs, warehouse
from ..settings import DEFAULTS
from .consoles import console, err


def report(warehouse_path: Path = typer.Option(DEFAULTS.warehouse_path, "--warehouse"),
           reports: Path = typer.Option(DEFAULTS.reports_dir, "--reports")) -> None:
    """Rewrite the consistency report from the warehouse as it is."""
    con = _open_read_only(warehouse_path)
    try:
        for path in outputs.write_reports(con, reports):
            console.print(f"report: {path}")
    finally:
        con.close()


def sql(statement: str = typer.Argument(..., help="A SQL query; the warehouse is opened read-only."),
        warehouse_path: Path = typer.Option(DEFAULTS.warehouse_path, "--warehouse"),
        max_width: int = typer.Option(60, help="Truncate cells wider than this.")) -> None:
    """Run a read-only SQL query on the warehouse and print the result as a table."""
    import duckdb

    con = _open_read_only(warehouse_path)
    try:
        columns, rows = warehouse.query(con, statement)
    except duckdb.Error as error:
        err.print(f"[red]SQL error:[/red] {error}")
        raise typer.Exit(1)
    finally:
        con.close()
    table = Table(*columns, show_lines=False)
    for row in rows:
        table.add_row(*(_cell(v, max_width) for v in row))
    console.print(table)
    console.print(f"{len(rows)} row(s)")


def _cell(value: object, width: int) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _open_read_only(path: Path):
    try:
        return warehouse.connect(path, read_only=True)
    except FileNotFoundError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2)
    except warehouse.WarehouseError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(3)
