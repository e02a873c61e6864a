"""The `ingest` command line: run, report, the exit statuses, --version/-h, environment variables,
and hints that work when pasted."""

from __future__ import annotations

import re
import shlex
import shutil

from typer.testing import CliRunner

from ingest.cli import app
from ingest.errors import COMMAND
from seed_fixtures import SEEDS, corpus_or_skip

runner = CliRunner()


def _seeds(tmp_path):
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    return inputs


def test_run_then_sql_and_report(tmp_path):
    inputs = _seeds(tmp_path)
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    result = runner.invoke(app, ["run", str(inputs), "--warehouse", str(db), "--reports", str(reports), "--no-prefect"])
    assert result.exit_code == 0, result.output
    assert "4 files: 4 loaded" in result.output
    assert f"{COMMAND} models install" in result.output
    result = runner.invoke(
        app, ["sql", "SELECT doc_id, lang FROM documents ORDER BY 1", "--warehouse", str(db), "--format", "table"]
    )
    assert result.exit_code == 0 and "4 row(s)" in result.output
    result = runner.invoke(app, ["sql", "DROP TABLE documents", "--warehouse", str(db)])
    assert result.exit_code == 1 and "read-only" in result.output.lower()
    (reports / "consistency.md").unlink()
    assert runner.invoke(app, ["report", "--warehouse", str(db), "--reports", str(reports)]).exit_code == 0
    assert "FlexAttention" in (reports / "consistency.md").read_text("utf-8")


def test_environment_variables_name_the_warehouse_and_the_reports(tmp_path):
    inputs = _seeds(tmp_path)
    env = {"INGEST_WAREHOUSE": str(tmp_path / "env.duckdb"), "INGEST_REPORTS": str(tmp_path / "env-reports")}
    result = runner.invoke(app, ["run", str(inputs), "--no-prefect"], env=env)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "env.duckdb").exists() and (tmp_path / "env-reports" / "consistency.html").exists()
    result = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM documents", "-f", "csv"], env=env)
    assert result.output == "n\n4\n"


def test_exit_status_is_1_when_a_file_failed_unless_failures_are_allowed(tmp_path):
    inputs = _seeds(tmp_path)
    (inputs / "broken.txt").write_bytes(b"\x00\x01\x02" * 100)
    for warehouse_name, extra, status in (("a.duckdb", [], 1), ("b.duckdb", ["--allow-failures"], 0)):
        result = runner.invoke(
            app,
            [
                "run",
                str(inputs),
                "--warehouse",
                str(tmp_path / warehouse_name),
                "--reports",
                str(tmp_path / "r"),
                "--no-prefect",
                *extra,
            ],
        )
        assert result.exit_code == status, result.output
        assert "4 loaded" in result.output and "1 failed" in result.output and "failed seeds/broken.txt" in result.output


def test_usage_errors_exit_2(tmp_path):
    result = runner.invoke(app, ["run", str(tmp_path / "nope"), "--no-prefect"])
    assert result.exit_code == 2 and "not found" in result.output
    result = runner.invoke(app, ["sql", "SELECT 1", "--warehouse", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and f"{COMMAND} run" in result.output
    assert runner.invoke(app, ["run", "--no-such-option"]).exit_code == 2
    assert runner.invoke(app, ["sql", "SELECT 1", "--format", "yaml"]).exit_code == 2


def test_version_and_short_help():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and re.fullmatch(r"ingest \d+\.\d+\.\d+\n", result.output)
    for arguments in (["-h"], ["run", "-h"], ["sql", "-h"], ["export", "-h"], ["models", "-h"]):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 0 and "Usage:" in result.output, arguments
    assert "Exit status" in runner.invoke(app, ["-h"]).output


def test_hints_are_whole_commands_that_paste(tmp_path):
    """On a narrow terminal every hint stays on one line and is a command the CLI accepts."""
    inputs = _seeds(tmp_path)
    result = runner.invoke(
        app,
        ["run", str(inputs), "--warehouse", str(tmp_path / "w.duckdb"), "--no-prefect", "--reports", str(tmp_path / "r")],
        env={"COLUMNS": "40"},
    )
    hints = re.findall(r"`([^`\n]+)`", result.output)
    assert hints and len(re.findall(r"`", result.output)) == 2 * len(hints)  # no hint broken across lines
    for hint in set(hints):
        assert hint.startswith(COMMAND + " "), hint
        arguments = shlex.split(hint.removeprefix(COMMAND + " ").replace("PATH.argosmodel", "x.argosmodel"))
        assert runner.invoke(app, [*arguments, "--help"]).exit_code == 0, hint


def test_eval_prints_precision_and_recall():
    corpus = corpus_or_skip()
    result = runner.invoke(app, ["eval", "--shared", str(corpus.parent), "--part", "tuned"])
    assert result.exit_code == 0, result.output
    assert "contradictions" in result.output and "precision" in result.output


def test_report_show_prints_the_findings_on_the_terminal(seeded_warehouse, tmp_path):
    result = CliRunner().invoke(app, ["report", "--warehouse", str(seeded_warehouse), "--reports", str(tmp_path / "r"), "--show"])
    assert result.exit_code == 0, result.output
    assert "2 contradictions, 0 possible" in result.output
    rows = [line for line in result.output.splitlines() if "FlexAttention" in line or "TorchInductor" in line]
    assert any("beta ×1 vs prototype ×1" in row for row in rows) and any("97.5%" in row for row in rows)
