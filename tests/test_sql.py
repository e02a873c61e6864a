"""`ingest sql`: read-only, every output format, a timeout that frees the warehouse for a run."""

from __future__ import annotations

import csv
import io
import json
import time

import duckdb
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from ingest.cli import app

runner = CliRunner()

VALUES = ("SELECT 1 AS n, 'a|b, \"c\"' AS text, DATE '2024-10-17' AS day, [1, 2] AS list, NULL AS nothing "
          "UNION ALL SELECT 2, 'two\nlines', DATE '2025-01-01', [], 'x'")


def _sql(seeded_warehouse, statement: str, *options: str):
    return runner.invoke(app, ["sql", statement, "--warehouse", str(seeded_warehouse), *options])


def test_json_is_the_default_when_piped_and_carries_the_values(seeded_warehouse):
    result = _sql(seeded_warehouse, VALUES + " ORDER BY n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {"n": 1, "text": 'a|b, "c"', "day": "2024-10-17", "list": [1, 2], "nothing": None},
        {"n": 2, "text": "two\nlines", "day": "2025-01-01", "list": [], "nothing": "x"}]


def test_jsonl_csv_and_markdown_formats(seeded_warehouse):
    lines = _sql(seeded_warehouse, VALUES + " ORDER BY n", "--format", "jsonl").output.splitlines()
    assert [json.loads(line)["n"] for line in lines] == [1, 2]
    rows = list(csv.reader(io.StringIO(_sql(seeded_warehouse, VALUES + " ORDER BY n", "-f", "csv").output)))
    assert rows == [["n", "text", "day", "list", "nothing"], ["1", 'a|b, "c"', "2024-10-17", "[1, 2]", ""],
                    ["2", "two\nlines", "2025-01-01", "[]", "x"]]
    markdown = _sql(seeded_warehouse, VALUES + " ORDER BY n", "-f", "markdown").output
    page = MarkdownIt("commonmark").enable("table").render(markdown)
    assert page.count("<tr>") == 3 and page.count("<td>") + page.count("<td></td>") >= 10
    assert "<td>a|b, &quot;c&quot;</td>" in page and "<td>two<br>lines</td>" in page


def test_table_format_on_request(seeded_warehouse):
    result = _sql(seeded_warehouse, "SELECT doc_id FROM documents ORDER BY 1", "--format", "table")
    assert result.exit_code == 0 and "4 row(s)" in result.output and "┃" in result.output


def test_an_empty_query_is_a_usage_error(seeded_warehouse):
    for statement in ("", "   "):
        result = _sql(seeded_warehouse, statement)
        assert result.exit_code == 2 and "query is empty" in result.output


def test_sql_timeout_stops_a_query_and_frees_the_warehouse_for_a_writer(seeded_warehouse, tmp_path):
    started = time.monotonic()
    result = _sql(seeded_warehouse, "SELECT count(*) FROM range(100000000000) a", "--timeout", "0.5")
    assert result.exit_code == 1 and "--timeout" in result.output
    assert time.monotonic() - started < 20
    duckdb.connect(str(seeded_warehouse)).close()  # the read lock is gone: a writer can open it


def test_writes_stay_impossible(seeded_warehouse, tmp_path):
    for statement in ("DELETE FROM documents", f"COPY documents TO '{tmp_path / 'x.csv'}'",
                      "ATTACH ':memory:' AS other", "SET enable_external_access = true"):
        result = _sql(seeded_warehouse, statement)
        assert result.exit_code == 1 and "SQL error" in result.output, statement
    assert not (tmp_path / "x.csv").exists()
