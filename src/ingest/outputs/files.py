"""The report files: consistency.md and consistency.html, rendered from the same data."""

from __future__ import annotations

from pathlib import Path

import duckdb

from .data import ReportData, collect
from .html import render_html
from .markdown import render_markdown


def write_report_files(data: ReportData, reports_dir: str | Path) -> tuple[list[Path], str]:
    """consistency.md and consistency.html from collected data; their paths and the Markdown."""
    directory = Path(reports_dir)
    directory.mkdir(parents=True, exist_ok=True)
    markdown_path, page = directory / "consistency.md", directory / "consistency.html"
    markdown = render_markdown(data)
    markdown_path.write_text(markdown, "utf-8")
    page.write_text(render_html(data), "utf-8")
    return [markdown_path, page], markdown


def write_reports(con: duckdb.DuckDBPyConnection, reports_dir: str | Path) -> list[Path]:
    """Write consistency.md and consistency.html from the warehouse as it is; return their paths."""
    return write_report_files(collect(con), reports_dir)[0]
