"""`ingest export`: every table and view as Parquet or CSV files, nothing else touched."""

from __future__ import annotations

import duckdb
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
