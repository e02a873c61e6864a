"""`ingest sql`: read-only, every output format, a timeout that frees the warehouse for a run."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import subprocess
import sys
import time

import duckdb
import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from ingest.cli import app

runner = CliRunner()

VALUES = (
    "SELECT 1 AS n, 'a|b, \"c\"' AS text, DATE '2024-10-17' AS day, [1, 2] AS list, NULL AS nothing "
    "UNION ALL SELECT 2, 'two\nlines', DATE '2025-01-01', [], 'x'"
)


def _sql(seeded_warehouse, statement: str, *options: str):
    return runner.invoke(app, ["sql", statement, "--warehouse", str(seeded_warehouse), *options])


def test_json_is_the_default_when_piped_and_carries_the_values(seeded_warehouse):
    result = _sql(seeded_warehouse, VALUES + " ORDER BY n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {"n": 1, "text": 'a|b, "c"', "day": "2024-10-17", "list": [1, 2], "nothing": None},
        {"n": 2, "text": "two\nlines", "day": "2025-01-01", "list": [], "nothing": "x"},
    ]


def test_jsonl_csv_and_markdown_formats(seeded_warehouse):
    lines = _sql(seeded_warehouse, VALUES + " ORDER BY n", "--format", "jsonl").output.splitlines()
    assert [json.loads(line)["n"] for line in lines] == [1, 2]
    rows = list(csv.reader(io.StringIO(_sql(seeded_warehouse, VALUES + " ORDER BY n", "-f", "csv").output)))
    assert rows == [
        ["n", "text", "day", "list", "nothing"],
        ["1", 'a|b, "c"', "2024-10-17", "[1, 2]", ""],
        ["2", "two\nlines", "2025-01-01", "[]", "x"],
    ]
    markdown = _sql(seeded_warehouse, VALUES + " ORDER BY n", "-f", "markdown").output
    page = MarkdownIt("commonmark").enable("table").render(markdown)
    assert page.count("<tr>") == 3 and page.count("<td>") + page.count("<td></td>") >= 10
    assert "<td>a|b, &quot;c&quot;</td>" in page and "<td>two<br>lines</td>" in page


def test_table_format_on_request(seeded_warehouse):
    result = _sql(seeded_warehouse, "SELECT doc_id FROM documents ORDER BY 1", "--format", "table")
    assert result.exit_code == 0 and "4 row(s)" in result.output and "┃" in result.output


WIDE = "SELECT " + ", ".join(f"'value of column {i} 中文' AS column_{i}" for i in range(26))


def test_a_wide_result_shows_the_columns_that_fit_the_terminal(seeded_warehouse, monkeypatch):
    from rich.cells import cell_len
    from rich.console import Console

    from ingest.cli import query

    monkeypatch.setattr(query, "console", Console(force_terminal=True, width=160, markup=False, color_system=None))
    result = _sql(seeded_warehouse, WIDE)
    lines = result.output.splitlines()
    assert result.exit_code == 0 and max(cell_len(line) for line in lines) <= 160
    shown = int(re.search(r"1 row\(s\), 26 columns \((\d+) shown\)", result.output).group(1))
    assert 4 <= shown < 26 and "column_0" in lines[1] and "column_25" in lines[1] and "…" in lines[1]
    assert "value of column 0 中文" in result.output  # cells whole, not crushed to a few characters


def test_a_table_in_a_pipe_keeps_every_column_whole(seeded_warehouse):
    result = _sql(seeded_warehouse, WIDE, "--format", "table")
    assert result.exit_code == 0 and "columns (" not in result.output
    assert all(f"value of column {i} 中文" in result.output for i in range(26))


def test_cells_and_headers_are_cut_to_max_width():
    from ingest.cli.formats import as_table

    fitted = as_table(["h" * 100], [("v" * 100,)], max_width=20)
    assert fitted.shown == 1 and fitted.width == 1 + 20 + 3


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
    for statement in (
        "DELETE FROM documents",
        f"COPY documents TO '{tmp_path / 'x.csv'}'",
        "ATTACH ':memory:' AS other",
        "SET enable_external_access = true",
    ):
        result = _sql(seeded_warehouse, statement)
        assert result.exit_code == 1 and "SQL error" in result.output, statement
    assert not (tmp_path / "x.csv").exists()


def _sql_process(warehouse_path, statement: str, *options: str, **kwargs) -> subprocess.CompletedProcess:
    """`ingest sql` in its own process: a DuckDB abort (SIGABRT) would take the test process with it."""
    return subprocess.run(
        [sys.executable, "-m", "ingest", "sql", statement, "--warehouse", str(warehouse_path), *options],
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    "statement",
    [
        "CALL enable_logging(storage='file', storage_path='{dir}/log'); SELECT 1",
        "SET logging_storage = 'stdout'; SET enable_logging = true; SELECT 1",
        "PRAGMA enable_profiling = 'json'; PRAGMA profiling_output = '{dir}/profile.json'; SELECT 1",
    ],
)
def test_sql_settings_that_write_files_are_one_line_errors_not_an_abort(seeded_warehouse, tmp_path, statement):
    """DuckDB's log to a file used to fail when the connection closed, aborting the process (rc -6)."""
    result = _sql_process(seeded_warehouse, statement.format(dir=tmp_path))
    assert result.returncode == 1, (result.returncode, result.stderr[-500:])
    assert result.stderr.startswith("error: SQL error:") and result.stderr.count("\n") == 1, result.stderr
    assert "configuration has been locked" in result.stderr
    assert list(tmp_path.iterdir()) == [] and result.stdout == ""


# `ingest sql` that writes its peak resident memory (VmHWM: this program's own, unlike ru_maxrss, which
# keeps the size of the forked test process) to stderr when it exits.
_MEASURED_SQL = """
import atexit, re, sys
atexit.register(lambda: sys.stderr.write(re.search(r"VmHWM:.*", open("/proc/self/status").read()).group() + "\\n"))
from ingest.cli import app
app(["sql", *sys.argv[1:]])
"""


@pytest.mark.timeout(120)
def test_sql_streams_a_large_result_in_bounded_memory(seeded_warehouse, tmp_path):
    """1,000,000 rows: held as Python tuples they took ~550 MB (a 60M-row result ended in MemoryError);
    streamed, the process stays near its size at start (~110 MB)."""
    statement = "SELECT i, repeat('x', 100) AS s FROM range(1000000) t(i)"
    out = tmp_path / "out.jsonl"
    with out.open("wb") as stdout:
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                _MEASURED_SQL,
                statement,
                "--warehouse",
                str(seeded_warehouse),
                "--format",
                "jsonl",
                "--timeout",
                "0",
            ],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=100,
        )
    assert result.returncode == 0, result.stderr[-500:]
    data = out.read_bytes()
    assert data.count(b"\n") == 1_000_000 and data.endswith(b'"s": "' + b"x" * 100 + b'"}\n')
    peak_kb = int(re.search(r"VmHWM:\s*(\d+) kB", result.stderr)[1])
    assert peak_kb / 1024 < 250, result.stderr


def test_sql_table_shows_the_first_rows_of_a_large_result_and_says_how_to_get_all(seeded_warehouse):
    result = _sql(seeded_warehouse, "SELECT i FROM range(20000) t(i)", "--format", "table")
    assert result.exit_code == 0
    assert "more than 10,000 rows: the first 10,000 are shown" in result.output and "--format jsonl" in result.output


FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


def test_sql_csv_cells_never_start_a_spreadsheet_formula(seeded_warehouse):
    selects = ", ".join(f"{_literal(text)} AS c{i}" for i, text in enumerate(FORMULAS))
    result = _sql(seeded_warehouse, f"SELECT {selects}, -1.5 AS n, 'plain' AS p", "--format", "csv")
    assert result.exit_code == 0, result.output
    _header, row = list(csv.reader(io.StringIO(result.output)))
    assert row == ["'" + text for text in FORMULAS] + ["-1.5", "plain"]


def test_sql_markdown_shows_document_markup_as_text(seeded_warehouse):
    payload = (
        '<img src=x onerror=alert(1)> <a href="http://evil.example">a</a> [x](http://evil.example) '
        "![i](http://evil.example/i.png) **b** | cell"
    )
    markdown = _sql(seeded_warehouse, f"SELECT {_literal(payload)} AS t", "--format", "markdown").output
    page = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    assert set(re.findall(r"<(\w+)", page)) == {"table", "thead", "tr", "th", "tbody", "td"}
    assert not re.search(r"<\w+ ", page)  # no tag has an attribute
    assert page.count("<td>") == 1
    assert html.unescape(re.sub(r"<[^>]+>", "", page)).strip().endswith(payload)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
