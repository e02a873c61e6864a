"""The report files: consistency.md and consistency.html, rendered from the same data."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import duckdb

from ..errors import ReportsError, command
from .data import collect
from .findings import ReportData
from .html import render_html
from .markdown import render_markdown

REPORT_FILES = ("consistency.md", "consistency.html")


def check_reports_dir(reports_dir: str | Path) -> Path:
    """Create the reports folder if needed and prove it writable; `ReportsError` says what is in the way."""
    directory = Path(reports_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".write-test-"):
            pass
    except OSError as error:
        what = (
            "is a file, not a folder"
            if directory.exists() and not directory.is_dir()
            else f"cannot be written ({error.strerror or error})"
        )
        raise ReportsError(f"the reports folder {directory} {what}; choose another with --reports (or INGEST_REPORTS)") from error
    return directory


# What the last report written to a folder found, to mark what is new in the next one (hidden, and
# JSON, which no run ingests).
FINDINGS_FILE = ".consistency-findings.json"


def write_report_files(data: ReportData, reports_dir: str | Path) -> tuple[list[Path], str]:
    """consistency.md and consistency.html from collected data, each finding marked new when the
    previous report written to the folder did not have it; their paths and the Markdown."""
    directory = check_reports_dir(reports_dir)
    _mark_new(data, directory / FINDINGS_FILE)
    markdown = render_markdown(data)
    paths = [directory / name for name in REPORT_FILES]
    for path, text in zip(paths, (markdown, render_html(data))):
        _write_whole(path, text)
    keys = [list(finding.key()) for finding in data.findings()]
    _write_whole(directory / FINDINGS_FILE, json.dumps({"generated_at": data.generated_at, "findings": keys}, ensure_ascii=False))
    return paths, markdown


def _mark_new(data: ReportData, previous_file: Path) -> None:
    """Mark what the previous report did not find (nothing on a first report, or when its record
    is unreadable: a report cannot tell new from unknown)."""
    try:
        previous = json.loads(previous_file.read_text("utf-8"))
        before = {json.dumps(key, ensure_ascii=False) for key in previous["findings"]}
        data.previous_report = str(previous["generated_at"])
    except (OSError, ValueError, KeyError, TypeError):
        before, data.previous_report = None, None
    for finding in data.findings():
        finding.new = before is not None and json.dumps(list(finding.key()), ensure_ascii=False) not in before


def _write_whole(path: Path, text: str) -> None:
    """Readers (a browser reloading the page) see the previous report or the new one, never half."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, "utf-8")
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ReportsError(
            f"cannot write {path} ({error.strerror or error}); choose another --reports folder and run `{command('report')}`"
        ) from error


def write_reports(con: duckdb.DuckDBPyConnection, reports_dir: str | Path) -> list[Path]:
    """Write consistency.md and consistency.html from the warehouse as it is; return their paths."""
    return write_report_files(collect(con), reports_dir)[0]
