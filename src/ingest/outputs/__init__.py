"""What users read: the consistency report's data (`data`), rendered as Markdown (`markdown`)
and a self-contained HTML page (`html`), written to files (`files`)."""

from .data import collect, conflict_table
from .files import check_reports_dir, write_report_files, write_reports
from .findings import ReportData
from .markdown import render_markdown

__all__ = [
    "ReportData",
    "check_reports_dir",
    "collect",
    "conflict_table",
    "render_markdown",
    "write_report_files",
    "write_reports",
]
