"""Terminal output (issue 13, item 5): document text, file names and query results print as text.

Rich markup (`[/x]` used to crash `ingest sql`, `[bold]` styled the output), emoji codes (`root:x:0`
printed as `root❌0`) and control characters (escape sequences in a file name reached the terminal
raw) are all shown as the characters they are.
"""

from __future__ import annotations

import re
import shutil

import pytest
from typer.testing import CliRunner

from ingest.cli import app
from ingest.cli.consoles import visible
from seed_fixtures import SEEDS

runner = CliRunner()
HOSTILE = "a[/x]b root:x:0 [bold]B[/bold] :thumbs_up: \x1b[31mred\x1b]0;title\x07 \u202eevil"


def _assert_shown_as_text(output: str) -> None:
    assert "a[/x]b" in output and "root:x:0" in output and "[bold]B[/bold]" in output and ":thumbs_up:" in output
    assert re.search(r"\\(x1b|u001b)\[31mred", output) and re.search(r"\\(x07|u0007)", output) and "\\u202e" in output
    assert not any(char in output for char in "\x1b\x07\u202e❌👍")


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown"])
def test_terminal_output_sql_prints_markup_emoji_and_escapes_as_text(seeded_warehouse, fmt, monkeypatch):
    from ingest.cli import consoles

    monkeypatch.setattr(type(consoles.console), "is_terminal", property(lambda self: True))
    result = runner.invoke(
        app,
        [
            "sql",
            "SELECT ? AS t".replace("?", "'" + HOSTILE.replace("'", "''") + "'"),
            "--warehouse",
            str(seeded_warehouse),
            "--format",
            fmt,
            "--max-width",
            "500",
        ],
        env={"COLUMNS": "500"},
    )
    assert result.exit_code == 0, result.output
    _assert_shown_as_text(_as_read(result.output, fmt))


def _as_read(output: str, fmt: str) -> str:
    """What a reader sees: Markdown as a viewer renders it (its source escapes every punctuation mark)."""
    if fmt != "markdown":
        return output
    from html import unescape

    from markdown_it import MarkdownIt

    return unescape(re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").enable("table").render(output)))


def test_terminal_output_file_names_with_escape_sequences_are_shown_escaped(tmp_path):
    inputs = tmp_path / "in"
    shutil.copytree(SEEDS, inputs)
    (inputs / "bad\x1b[2J[x]root:x:0.txt").write_bytes(b"\x00\x01" * 50)
    result = runner.invoke(
        app, ["run", str(inputs), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", str(tmp_path / "r"), "--no-prefect"]
    )
    assert result.exit_code == 1
    assert "failed in/bad\\x1b[2J[x]root:x:0.txt" in result.output and "\x1b" not in result.output


def test_terminal_output_error_messages_quote_paths_as_text(tmp_path):
    folder = tmp_path / "[/x]:x:\x1b[1m"
    result = runner.invoke(app, ["sql", "SELECT 1", "--warehouse", str(folder / "w.duckdb")])
    assert result.exit_code == 2 and "[/x]:x:\\x1b[1m" in result.output and "\x1b" not in result.output


def test_visible_keeps_text_and_escapes_only_controls():
    assert visible("日本語 [b] :x: \\ é") == "日本語 [b] :x: \\ é"
    assert visible("a\tb\nc\r\x9b") == "a\\tb\\nc\\r\\x9b"
    assert visible("a\nb", keep_line_breaks=True) == "a\nb"
