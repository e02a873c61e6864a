"""Query results as a terminal table, JSON, JSON lines, CSV or a Markdown table.

The data formats carry the values exactly (dates as ISO 8601, nested values as JSON), so they
can be piped into other tools, except where a value would act when opened (`ingest.escape`):
JSON escapes every invisible character, a CSV text cell that a spreadsheet would run as a formula
gets a leading `'`, and Markdown cells are literal text (no link, image or HTML). When the output
is a terminal, control characters in any format are shown as visible escapes.

Rows are written as they are fetched (`write_rows`), so a result of any size streams through
without being held in memory.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import itertools
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from ..escape import json_text, markdown_cell, spreadsheet_cell, visible

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


def _json(value: Any) -> str:
    return json_text(plain(value))


def _text(value: Any) -> str:
    """One cell as text: strings as they are, nested values as JSON, NULL as empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(plain(value), ensure_ascii=False)
    return str(plain(value))


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)


def _csv_cell(value: Any) -> str:
    """A CSV cell: numbers as written (a negative number is no formula), any other text made inert
    for spreadsheets."""
    return _text(value) if _numeric(value) else spreadsheet_cell(_text(value))


def json_chunks(columns: Sequence[str], rows: Iterable[tuple]) -> Iterator[str]:
    opened = False
    for row in rows:
        yield ("[\n  " if not opened else ",\n  ") + _json(dict(zip(columns, row)))
        opened = True
    yield "\n]\n" if opened else "[]\n"


def jsonl_chunks(columns: Sequence[str], rows: Iterable[tuple]) -> Iterator[str]:
    for row in rows:
        yield _json(dict(zip(columns, row))) + "\n"


def _csv_line(cells: Sequence[str]) -> str:
    """One CSV record (RFC 4180 quoting, "\n" line ends). The csv module quotes only the characters of
    its line terminator, so a lone "\r" in a cell would split the record for every reader."""

    def field(text: str) -> str:
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text

    line = ",".join(field(c) for c in cells)
    return (line if line or len(cells) != 1 else '""') + "\n"  # one empty cell is not a blank line


def csv_chunks(columns: Sequence[str], rows: Iterable[tuple]) -> Iterator[str]:
    yield _csv_line([spreadsheet_cell(c) for c in columns])
    for row in rows:
        yield _csv_line([_csv_cell(v) for v in row])


def markdown_chunks(columns: Sequence[str], rows: Iterable[tuple]) -> Iterator[str]:
    """A GitHub-flavoured Markdown table of literal text; line breaks inside cells become `<br>`."""
    yield "| " + " | ".join(markdown_cell(c) for c in columns) + " |\n"
    yield "|" + "|".join("---" for _ in columns) + "|\n"
    for row in rows:
        yield "| " + " | ".join(markdown_cell(_text(v)) for v in row) + " |\n"


WRITERS: dict[str, Callable[[Sequence[str], Iterable[tuple]], Iterator[str]]] = {
    "json": json_chunks,
    "jsonl": jsonl_chunks,
    "csv": csv_chunks,
    "markdown": markdown_chunks,
}


# What a column costs on the terminal beyond its text: a space each side and its border.
_COLUMN_FRAME = 3
_HIDDEN = "…"


@dataclass(frozen=True)
class FittedTable:
    table: Table
    width: int  # the table's width in terminal cells
    shown: int  # how many of the result's columns it shows


def as_table(columns: Sequence[str], rows: Sequence[tuple], max_width: int, width: int | None = None) -> FittedTable:
    """A Rich table for the terminal: cells as text (never markup), cut to `max_width`, control
    characters visible. Given a terminal `width`, the columns that fit it, as the duckdb CLI shows
    them: the first and the last ones, alternately, around one "…" column for the rest."""
    heads = [_shorten(visible(column), max_width) for column in columns]
    cells = [[_shorten(visible(_text(v), keep_line_breaks=True), max_width) for v in row] for row in rows]
    widths = [
        max([cell_len(head), *(cell_len(line) for row in cells for line in row[i].splitlines() or [""])])
        for i, head in enumerate(heads)
    ]
    kept = _fitting(widths, width) if width else list(range(len(columns)))
    table = Table(show_lines=False)
    gap = next((k for k, (a, b) in enumerate(itertools.pairwise(kept)) if b != a + 1), None)
    order: list[int | None] = list(kept) if gap is None else [*kept[: gap + 1], None, *kept[gap + 1 :]]
    if len(kept) < len(columns) and gap is None:
        order.append(None)
    for index in order:
        table.add_column(Text(_HIDDEN if index is None else heads[index]), no_wrap=index is None)
    for row in cells:
        table.add_row(*(Text(_HIDDEN if index is None else row[index]) for index in order))
    total = 1 + sum((widths[i] if i is not None else len(_HIDDEN)) + _COLUMN_FRAME for i in order)
    return FittedTable(table, total, len(kept))


def _fitting(widths: Sequence[int], width: int) -> list[int]:
    """The columns whose full width fits the terminal: all of them, or the first, the last, the
    second, the one before the last… while they fit beside a "…" column (at least the first)."""
    if 1 + sum(w + _COLUMN_FRAME for w in widths) <= width:
        return list(range(len(widths)))
    budget = width - 1 - (len(_HIDDEN) + _COLUMN_FRAME)
    left: list[int] = []
    right: list[int] = []
    first, last = 0, len(widths) - 1
    while first <= last:
        index = first if len(left) <= len(right) else last
        if widths[index] + _COLUMN_FRAME > budget:
            break
        budget -= widths[index] + _COLUMN_FRAME
        if index == first:
            left.append(first)
            first += 1
        else:
            right.insert(0, last)
            last -= 1
    return (left or [0]) + right


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"
