"""Query results as a terminal table, JSON, JSON lines, CSV or a Markdown table.

The data formats carry the values exactly (dates as ISO 8601, nested values as JSON), so they
can be piped into other tools; JSON additionally escapes every control character. When the
output is a terminal, control characters in any format are shown as visible escapes.
"""

from __future__ import annotations

import base64
import csv
import datetime as dt
import decimal
import io
import json
import re
import uuid
from typing import Any, Callable, Sequence

from rich.table import Table
from rich.text import Text

from .consoles import visible

FORMATS = ("table", "json", "jsonl", "csv", "markdown")


def plain(value: Any) -> Any:
    """A JSON-able form of one DuckDB value."""
    if isinstance(value, (dt.date, dt.time, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


# json.dumps escapes C0 controls only; DEL, the C1 controls (CSI is \x9b) and the bidi overrides too.
_UNESCAPED_CONTROLS = re.compile(r"[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _json(value: Any) -> str:
    text = json.dumps(plain(value), ensure_ascii=False)
    return _UNESCAPED_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _text(value: Any) -> str:
    """One cell as text: strings as they are, nested values as JSON, NULL as empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(plain(value), ensure_ascii=False)
    return str(plain(value))


def as_json(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    if not rows:
        return "[]\n"
    return "[\n" + ",\n".join("  " + _json(dict(zip(columns, row))) for row in rows) + "\n]\n"


def as_jsonl(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    return "".join(_json(dict(zip(columns, row))) + "\n" for row in rows)


def as_csv(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([_text(v) for v in row] for row in rows)
    return buffer.getvalue()


def as_markdown(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    """A GitHub-flavoured Markdown table; pipes and line breaks inside cells are escaped."""
    def cell(value: Any) -> str:
        return re.sub(r"\r\n|\r|\n", "<br>", _text(value).replace("\\", "\\\\").replace("|", "\\|"))

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


WRITERS: dict[str, Callable[[Sequence[str], Sequence[tuple]], str]] = {
    "json": as_json, "jsonl": as_jsonl, "csv": as_csv, "markdown": as_markdown}


def as_table(columns: Sequence[str], rows: Sequence[tuple], max_width: int) -> Table:
    """A Rich table for the terminal: cells as text (never markup), control characters visible."""
    table = Table(show_lines=False)
    for column in columns:
        table.add_column(Text(visible(column)))
    for row in rows:
        table.add_row(*(Text(_shorten(visible(_text(v), keep_line_breaks=True), max_width)) for v in row))
    return table


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"
