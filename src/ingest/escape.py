"""How text from the inputs is written into everything people open: one module for every format.

Document text, file names, titles and query results come from the inputs, so wherever they are
shown they must stay text:

- invisible characters (C0/C1 controls, DEL, zero-width and bidirectional marks, embeddings,
  overrides and isolates, line and paragraph separators) are written as visible escapes
  (`\\x1b`, `\\u202e`): a U+202E in a file name cannot reorder what a terminal, a Markdown
  viewer or a browser shows (`visible`);
- a message is one line: a line break inside a file name is shown as `\\n`, so it cannot start a
  line of its own (a forged `error:` line) (`visible` without `keep_line_breaks`);
- Markdown: every ASCII punctuation character is backslash-escaped (CommonMark lets any of them
  be), so no link, image, HTML, emphasis or table cell can come from a document (`markdown_text`);
- HTML: markupsafe escapes `<>&"'` (Jinja2's autoescaping), after `visible` (`html_text`);
- CSV: a cell that starts with `= + - @`, a tab or a carriage return is a formula to a spreadsheet
  (OWASP "CSV injection"); it gets a leading `'`, which spreadsheets show as text
  (`spreadsheet_cell`, and `spreadsheet_sql` for the files DuckDB writes);
- JSON: `json.dumps` escapes C0 controls only; the other invisible characters are escaped too
  (`json_text`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

# C0 controls but tab and line feed (handled apart), DEL and C1 controls, the Arabic letter mark,
# zero-width space/joiners and the left-to-right/right-to-left marks, line and paragraph
# separators, bidi embeddings and overrides, word joiner and invisible operators, bidi isolates,
# and the byte order mark.
_INVISIBLE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]")
_INVISIBLE_OR_BREAK_RE = re.compile(f"[{_INVISIBLE}\n\t]")
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\u2028\u2029\x0b\x0c\x85]")
# What can start or close Markdown markup wherever it stands (CommonMark and GitHub's extensions:
# emphasis, code, links and images, HTML and entities, table cells, strikethrough, e-mail and URL
# autolinks); `_` only at a word's edge (inside a word it never emphasises: share_of_models).
_MARKDOWN_MARKUP = re.compile(r"([\\`*\[\]<>&|~@!])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|:(?=//)|(?<=www)\.")
# What starts a block at the beginning of a line: a heading, a quote, a list item, a setext underline.
_MARKDOWN_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d{1,9}(?=[.)](?:\s|$)))")
# What makes a spreadsheet read a cell as a formula (OWASP CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def visible(text: Any, keep_line_breaks: bool = False) -> str:
    """`text` with every invisible character written as an escape (`\\x1b`, `\\r`, `\\u202e`); line
    feeds and tabs too unless `keep_line_breaks` (multi-line text of our own, a table cell)."""
    pattern = _INVISIBLE_RE if keep_line_breaks else _INVISIBLE_OR_BREAK_RE
    return pattern.sub(_escape, str(text))


def markdown_text(value: Any) -> str:
    """`value` as literal Markdown text on one line: line breaks folded to spaces, invisible
    characters visible, and a backslash before each character that could act as markup there
    (the rest stays as written, so the Markdown file reads as plain text: "13:28, 4 files: 2.5")."""
    text = visible(_LINE_BREAKS.sub(" ", "" if value is None else str(value)))
    text = _MARKDOWN_MARKUP.sub(lambda m: "\\" + m.group(), text)
    return _MARKDOWN_BLOCK_START.sub(
        lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit() else m.group(1) + m.group(2) + "\\", text, count=1
    )


def markdown_cell(value: Any) -> str:
    """`value` as the text of a Markdown table cell: as `markdown_text`, line breaks kept as `<br>`
    (the only markup, and ours)."""
    text = "" if value is None else str(value)
    return "<br>".join(markdown_text(line) for line in _LINE_BREAKS.split(text))


def html_text(value: Any) -> Markup:
    """`value` as HTML text: invisible characters visible, then HTML-escaped; Markup passes as it is."""
    if isinstance(value, Markup):
        return value
    return escape(visible(value, keep_line_breaks=True))


def spreadsheet_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading `'` when it would start a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def spreadsheet_sql(column: str) -> str:
    """The SQL expression of `spreadsheet_cell` over a text column (`column`: a quoted identifier)."""
    starts = ", ".join(f"chr({ord(c)})" for c in FORMULA_STARTS)
    return f"CASE WHEN left({column}, 1) IN ({starts}) THEN '''' || {column} ELSE {column} END"


def json_text(value: Any) -> str:
    """`json.dumps(value)` with every invisible character escaped, not only C0 controls."""
    return _INVISIBLE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))
