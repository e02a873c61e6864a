"""`ingest export`: every table and view as Parquet or CSV files, nothing else touched: the same
sandbox as `ingest sql` (no other file read), file names that stay in the folder, inert CSV cells."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from ingest import warehouse
from ingest.cli import app
from ingest.warehouse.export import relations

runner = CliRunner()


def test_export_writes_every_table_and_view_as_parquet_and_csv(seeded_warehouse, tmp_path):
    con = warehouse.connect(seeded_warehouse, read_only=True)
    names = relations(con)
    counts = {name: con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}
    con.close()
    assert {"documents", "segments", "claims", "conflicts", "mismatches"} <= set(names)
    for fmt in ("parquet", "csv"):
        folder = tmp_path / fmt
        result = runner.invoke(app, ["export", str(folder), "--format", fmt, "--warehouse", str(seeded_warehouse)])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in folder.iterdir()) == sorted(f"{name}.{fmt}" for name in names)
        reader = "read_parquet" if fmt == "parquet" else "read_csv_auto"
        for name, count in counts.items():
            assert duckdb.execute(f"SELECT count(*) FROM {reader}('{folder / (name + '.' + fmt)}')").fetchone()[0] == count


def test_export_keeps_nested_types_in_parquet(seeded_warehouse, tmp_path):
    runner.invoke(app, ["export", str(tmp_path), "--warehouse", str(seeded_warehouse)])
    con = warehouse.connect(seeded_warehouse, read_only=True)
    stored = con.execute("DESCRIBE documents").fetchall()
    con.close()
    exported = duckdb.execute(f"DESCRIBE SELECT * FROM read_parquet('{tmp_path / 'documents.parquet'}')").fetchall()
    assert [(c[0], c[1]) for c in exported] == [(c[0], c[1]) for c in stored]


def test_export_to_an_unwritable_place_is_a_clear_error(seeded_warehouse, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = runner.invoke(app, ["export", str(blocker / "sub"), "--warehouse", str(seeded_warehouse)])
    assert result.exit_code == 1 and "cannot create the export folder" in result.output
    assert runner.invoke(app, ["export", str(tmp_path), "-f", "xlsx", "--warehouse", str(seeded_warehouse)]).exit_code == 2


@pytest.fixture
def hostile_warehouse(seeded_warehouse, tmp_path) -> Path:
    """A copy of the seeds' warehouse with a user's relations: a view named to climb out of the export
    folder, a view over a file outside the warehouse, a table named "notes.2024" and formula cells."""
    db = tmp_path / "hostile" / "w.duckdb"
    db.parent.mkdir()
    shutil.copy(seeded_warehouse, db)
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    con = duckdb.connect(str(db))
    con.execute('CREATE VIEW "x/../../escaped" AS SELECT 1 AS a')
    con.execute('CREATE VIEW ".hidden" AS SELECT 1 AS a')
    con.execute(f"CREATE VIEW stolen AS SELECT content FROM read_text('{secret}')")
    con.execute('CREATE TABLE "notes.2024" AS SELECT 1 AS a')
    con.execute(
        "CREATE TABLE cells AS SELECT '=HYPERLINK(\"http://evil.example\",\"x\")' AS t, '@SUM(A1)' AS u, -1.5 AS n, ['=1'] AS l"
    )
    con.close()
    return db


def _files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_export_writes_only_into_its_folder_and_reads_only_the_warehouse(hostile_warehouse, tmp_path, fmt):
    before = _files_under(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", str(out), "--format", fmt, "--warehouse", str(hostile_warehouse)])

    assert result.exit_code == 1
    assert "'stolen' was not exported: it reads files outside the warehouse" in result.output
    assert result.output.strip().splitlines()[-1].startswith("error: 1 table(s) or view(s) were not exported")
    written = _files_under(tmp_path) - before
    assert written and all(p.parent == out for p in written)  # nothing outside, no staging left
    names = {p.name for p in written}
    assert f"notes.2024.{fmt}" in names and f"documents.{fmt}" in names and f"stolen.{fmt}" not in names
    escaped = [n for n in names if n.startswith("x_.._.._escaped~")]
    hidden = [n for n in names if n.startswith("hidden~")]
    assert len(escaped) == 1 and len(hidden) == 1 and not any(n.startswith(".") for n in names)
    assert not any(b"top secret" in p.read_bytes() for p in written)


def test_export_csv_cells_never_start_a_spreadsheet_formula(hostile_warehouse, tmp_path):
    runner.invoke(app, ["export", str(tmp_path / "out"), "--format", "csv", "--warehouse", str(hostile_warehouse)])
    rows = list(csv.reader(io.StringIO((tmp_path / "out" / "cells.csv").read_text("utf-8"))))
    assert rows == [["t", "u", "n", "l"], ['\'=HYPERLINK("http://evil.example","x")', "'@SUM(A1)", "-1.5", "['=1']"]]


def test_export_of_a_warehouse_with_a_dotted_table_name_opens_it(hostile_warehouse):
    """A user table named "notes.2024" used to stop every command at open: the truncation check looked
    it up unquoted ("schema notes does not exist")."""
    result = runner.invoke(app, ["sql", 'SELECT a FROM "notes.2024"', "--warehouse", str(hostile_warehouse)])
    assert result.exit_code == 0 and json.loads(result.output) == [{"a": 1}]
