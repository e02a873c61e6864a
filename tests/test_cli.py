"""The `ingest` command line: run (direct and through the flow), report, sql, eval."""

from __future__ import annotations

import shutil

from typer.testing import CliRunner

from ingest.cli import app
from seed_fixtures import SEEDS, corpus_or_skip

runner = CliRunner()


def test_run_direct_then_sql_and_report(tmp_path):
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    result = runner.invoke(app, ["run", str(inputs), "--warehouse", str(db), "--reports", str(reports), "--no-prefect"])
    assert result.exit_code == 0, result.output
    assert "4 files: 4 loaded" in result.output
    assert "ingest models install" in result.output
    result = runner.invoke(app, ["sql", "SELECT doc_id, lang FROM documents ORDER BY 1", "--warehouse", str(db)])
    assert result.exit_code == 0 and "4 row(s)" in result.output
    result = runner.invoke(app, ["sql", "DROP TABLE documents", "--warehouse", str(db)])
    assert result.exit_code == 1 and "read-only" in result.output.lower()
    (reports / "consistency.md").unlink()
    assert runner.invoke(app, ["report", "--warehouse", str(db), "--reports", str(reports)]).exit_code == 0
    assert "FlexAttention" in (reports / "consistency.md").read_text("utf-8")


def test_run_through_the_prefect_flow(tmp_path):
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    db = tmp_path / "w.duckdb"
    result = runner.invoke(app, ["run", str(inputs), "--warehouse", str(db), "--reports", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "4 files: 4 loaded" in result.output
    assert (tmp_path / "r" / "consistency.html").exists()


def test_clear_errors(tmp_path):
    result = runner.invoke(app, ["run", str(tmp_path / "nope"), "--no-prefect"])
    assert result.exit_code == 2 and "not found" in result.output
    result = runner.invoke(app, ["sql", "SELECT 1", "--warehouse", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and "ingest run" in result.output


def test_eval_prints_precision_and_recall():
    corpus = corpus_or_skip()
    result = runner.invoke(app, ["eval", "--corpus", str(corpus)])
    assert result.exit_code == 0, result.output
    assert "contradictions" in result.output and "precision" in result.output
