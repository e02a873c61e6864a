"""The DuckDB warehouse: atomic per-document loads, re-runs, the duckdb CLI, locks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ingest import run_pipeline, warehouse
from ingest.records import DocumentRows
from ingest.warehouse.load import load_document
from seed_fixtures import SEEDS


def test_duckdb_cli_opens_the_warehouse(seeded_warehouse, tmp_path):
    copy = tmp_path / "copy.duckdb"
    shutil.copy(seeded_warehouse, copy)
    cli = Path(sys.executable).with_name("duckdb")
    result = subprocess.run(
        [str(cli), str(copy), "-csv", "-c", "SELECT count(*) FROM documents"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "4"


def test_a_failed_load_leaves_no_half_document(tmp_path):
    con = warehouse.connect(tmp_path / "w.duckdb")
    rows = DocumentRows(
        document={"doc_id": "d", "path": "d", "status": "ok"},
        segments=[{"doc_id": "d", "seg_idx": 0, "text": "a"}],
        entities=[],
        claims=[],
        translation_issues=[],
        anchors=[],
    )
    load_document(con, rows)
    broken = DocumentRows(
        document={"doc_id": "d", "path": "d", "status": None},  # violates NOT NULL: the load must fail
        segments=[{"doc_id": "d", "seg_idx": 0, "text": "b"}, {"doc_id": "d", "seg_idx": 1, "text": "c"}],
        entities=[],
        claims=[],
        translation_issues=[],
        anchors=[],
    )
    with pytest.raises(duckdb.ConstraintException):
        load_document(con, broken)
    assert con.execute("SELECT text FROM segments").fetchall() == [("a",)]
    assert con.execute("SELECT status FROM documents").fetchall() == [("ok",)]


def test_a_changed_document_replaces_its_rows(tmp_path):
    inputs = tmp_path / "in"
    shutil.copytree(SEEDS, inputs)
    db = tmp_path / "w.duckdb"
    run_pipeline([inputs], db, None)
    target = inputs / "000_7df305071c9dd669.txt"
    target.write_text(target.read_text("utf-8").split("\n\n")[0] + "\n", "utf-8")
    summary = run_pipeline([inputs], db, None)
    assert summary.loaded == ["in/000_7df305071c9dd669.txt"] and len(summary.skipped) == 3
    con = warehouse.connect(db, read_only=True)
    assert con.execute("SELECT count(*) FROM segments WHERE doc_id = 'in/000_7df305071c9dd669.txt'").fetchone()[0] <= 3
    duplicates = "SELECT count(*) FROM (SELECT doc_id, seg_idx FROM segments GROUP BY ALL HAVING count(*) > 1)"
    assert con.execute(duplicates).fetchone()[0] == 0


def test_read_only_connection_refuses_writes(seeded_warehouse):
    import duckdb

    con = warehouse.connect(seeded_warehouse, read_only=True)
    with pytest.raises(duckdb.Error):
        con.execute("DELETE FROM documents")
    con.close()


def test_missing_warehouse_says_what_to_run(tmp_path):
    with pytest.raises(FileNotFoundError, match="ingest run"):
        warehouse.connect(tmp_path / "none.duckdb", read_only=True)


def test_a_transaction_lands_whole_or_not_at_all(tmp_path):
    from ingest.warehouse import transaction

    con = duckdb.connect(str(tmp_path / "t.duckdb"))
    con.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    with transaction(con):
        con.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(duckdb.ConstraintException), transaction(con):
        con.execute("INSERT INTO t VALUES (2)")
        con.execute("INSERT INTO t VALUES (1)")  # fails: the 2 goes too
    with pytest.raises(KeyboardInterrupt), transaction(con):
        con.execute("INSERT INTO t VALUES (3)")
        raise KeyboardInterrupt
    assert con.execute("SELECT x FROM t").fetchall() == [(1,)]
    with transaction(con):  # the connection is usable after each
        con.execute("INSERT INTO t VALUES (4)")
    assert con.execute("SELECT x FROM t ORDER BY x").fetchall() == [(1,), (4,)]
    # A transaction DuckDB already ended (as a failed COMMIT ends it): the error raised is the
    # block's own, not the ROLLBACK's "no transaction is active".
    with pytest.raises(OSError, match="disk full"), transaction(con):
        con.execute("INSERT INTO t VALUES (5)")
        con.execute("COMMIT")
        raise OSError("disk full")
    con.close()


def test_filling_what_waits_uses_the_one_transaction():
    """translate/waiting.py writes one batch through `ingest.transaction`, the warehouse's own, and
    no module begins a transaction by hand (a bare ROLLBACK there would hide the first error)."""
    import inspect

    from ingest.translate import waiting

    assert waiting.transaction is warehouse.transaction
    package = Path(inspect.getfile(warehouse)).parents[1]
    by_hand = [
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if "BEGIN TRANSACTION" in path.read_text("utf-8") and path.name != "transaction.py"
    ]
    assert by_hand == []
