"""Markdown through markdown-it (HTML fragments inside it through the HTML cleaner), with
YAML (---) or TOML (+++) front matter reduced to safe scalars.

markdown-it stops at nesting depth 20 (its guard against recursion) and silently skips
whatever is nested deeper, so a 3,000-level list would keep 10 items. Here that raises
instead, and the document is parsed again with its block quotes and list markers flattened
(the blocks this cleaner makes do not depend on depth), so no text is lost. A document
indented deeper than 20 levels can use is flattened before parsing (markdown-it scans
indentation a character at a time: 9 MB of it take seconds). Every parsing rule checks the
document's time budget (`budget`).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Callable, Iterator
from functools import lru_cache

import yaml
from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.ruler import Ruler
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..errors import ReadError
from ..records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, Block
from .budget import CleaningBudget
from .html import html_blocks
from .normalize import CELL_MARK, INVISIBLE, strip_controls

FORMAT = "markdown"
# markdown-it makes a block of every line, a cell of every '|', tries a link at every '['
# and a tag at every '<' (~50 µs each), an entity, emphasis, code span or escape at '&', '*',
# '_', '`', '\\' (5-20 µs each).
MARKUP = ("\n", "|", "[", "<", "&", "*", "_", "`", "\\")
MARKUP_NAME = (
    "Markdown lines, table cells, links, tags, entities, emphasis and escapes "
    "(line breaks, '|', '[', '<', '&', '*', '_', '`', '\\')"
)

# (fence, its parser): Jekyll and Hugo's YAML, Hugo's TOML.
_FRONT_MATTERS = (
    (re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S), yaml.safe_load),
    (re.compile(r"\A\+\+\+[ \t]*\n(.*?\n)\+\+\+[ \t]*(?:\n|\Z)", re.S), tomllib.loads),
)
_FRONT_MATTER_MAX_ITEMS = 100
_FRONT_MATTER_MAX_CHARS = 2000


class NestingTooDeep(ReadError):
    """Markdown nested deeper than markdown-it parses."""


class _GuardedBlockParser(ParserBlock):
    """markdown-it's block parser, raising where the stock one skips content nested too deep;
    it is called again for every block quote and list item, and checks the budget each time."""

    def tokenize(self, state: StateBlock, start_line: int, end_line: int) -> None:
        state.env["budget"].check()
        limit = state.md.options.maxNesting
        if state.level >= limit and state.skipEmptyLines(start_line) < end_line:
            raise NestingTooDeep(
                f"Markdown nested more than {limit} levels deep (block quotes or lists inside "
                "each other) even with its quotes and lists flattened; flatten the document"
            )
        super().tokenize(state, start_line, end_line)


def _with_budget(ruler: Ruler) -> None:
    """Make every rule of `ruler` check the document's time budget before it runs."""
    for rule in list(ruler.__rules__):
        ruler.at(rule.name, _checked(rule.fn), {"alt": rule.alt})


def _checked(fn: Callable[..., bool]) -> Callable[..., bool]:
    def rule(state: StateBlock | StateInline, *args: int | bool) -> bool:
        state.env["budget"].check()
        return fn(state, *args)

    return rule


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True})
    md.block = _GuardedBlockParser()
    md.configure("commonmark", {"html": True}).enable("table")  # the preset's rules on the new parser
    _with_budget(md.block.ruler)
    _with_budget(md.inline.ruler)
    return md


# Indentation no document nested at most 20 levels deep needs (a list item's content is
# indented by at most 14 columns per level: an ordered marker of 9 digits plus spaces).
_DEEPER_THAN_PARSED = re.compile(r"^[ \t]{280}", re.M)
# A line's container markers: block quotes ('>') and list bullets or numbers, with their spaces
# (possessive: 15 MB of indentation must not be backtracked through).
_CONTAINERS = re.compile(r"^[ \t]*+(?:(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]*+)+")
_LIST_MARKER = re.compile(r"[-+*]|\d[.)]")


def _flattened(text: str) -> str:
    """Every line's block quotes and list markers cut to at most one list marker, and its
    indentation removed: nothing is nested any more, and every line keeps its text and kind."""
    lines = []
    for line in text.split("\n"):
        match = _CONTAINERS.match(line)
        if match is None:
            lines.append(line.lstrip(" \t"))
        else:
            rest = line[match.end() :]
            lines.append(f"- {rest}" if _LIST_MARKER.search(match.group(0)) else rest)
    return "\n".join(lines)


def _tokens(text: str, budget: CleaningBudget) -> list[Token]:
    """markdown-it's tokens of `text`, or of `text` flattened when it is nested deeper than
    markdown-it parses: deep indentation is seen before parsing, deep markers when the guarded
    parser raises (at depth 20, so that attempt costs little)."""
    env = {"budget": budget}
    if _DEEPER_THAN_PARSED.search(text) is None:
        try:
            return _markdown().parse(text, env)
        except NestingTooDeep:
            pass
    return _markdown().parse(_flattened(text), env)


def _inline_text(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type == "text":
            # "SmolLM**-**360M": emphasis marks markdown-it could not pair are left in the text
            # as literal `**`; they are markup residue, not content.
            parts.append(child.content.replace("**", ""))
        elif child.type == "code_inline":
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append("\n")
        elif child.type == "hardbreak":
            parts.append(" ")
        elif child.type == "html_inline" and not child.content.startswith("<"):
            parts.append(child.content)
    return "".join(parts)


def _markdown_blocks(text: str, budget: CleaningBudget) -> Iterator[Block]:
    tokens = _tokens(text, budget)
    kind_stack: list[str] = []
    row: list[str] | None = None
    for token in tokens:
        if token.type == "heading_open":
            kind_stack.append(HEADING)
        elif token.type == "list_item_open":
            kind_stack.append(LIST_ITEM)
        elif token.type in ("heading_close", "list_item_close"):
            kind_stack.pop()
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            yield Block(TABLE_ROW, CELL_MARK.join(row))
            row = None
        elif token.type == "inline" and row is not None:
            row.append(_inline_text(token))
        elif token.type == "inline":
            yield Block(kind_stack[-1] if kind_stack else PARAGRAPH, _inline_text(token))
        elif token.type == "html_block":
            yield from html_blocks(token.content, budget)


def _front_matter_scalar(value: object) -> object:
    """A front-matter value made safe to store: short text without controls, or a plain scalar."""
    if isinstance(value, str):
        text = INVISIBLE.sub("", strip_controls(value)).encode("utf-8", "replace").decode("utf-8")
        return text[:_FRONT_MATTER_MAX_CHARS]
    if isinstance(value, (bool, int, float, dt.date)) or value is None:
        return value
    return None


def _safe_front_matter(data: dict) -> dict:
    """Top-level scalars and flat lists of scalars; nested structures (and alias bombs) dropped."""
    safe: dict[str, object] = {}
    for key, value in list(data.items())[:_FRONT_MATTER_MAX_ITEMS]:
        if not isinstance(key, str):
            continue
        if isinstance(value, list):
            items = [_front_matter_scalar(v) for v in value[:_FRONT_MATTER_MAX_ITEMS]]
            if all(v is not None for v in items):
                safe[key] = items
        elif (scalar := _front_matter_scalar(value)) is not None:
            safe[key] = scalar
    return safe


def split_front_matter(text: str) -> tuple[dict, str]:
    """YAML or TOML front matter (if any) and the rest of a Markdown document.

    Front matter that does not parse (bad YAML or TOML, impossible dates, absurd nesting) is
    left in the text; values are reduced to scalars and flat lists so no document can smuggle
    a huge or deeply nested structure into the metadata.
    """
    for fence, parse in _FRONT_MATTERS:
        match = fence.match(text)
        if match:
            try:
                data = parse(match.group(1))
            except Exception:
                return {}, text
            return (_safe_front_matter(data) if isinstance(data, dict) else {}), text[match.end() :]
    return {}, text


def blocks(text: str, budget: CleaningBudget) -> tuple[list[Block], dict]:
    """The blocks and front matter of a Markdown document."""
    front_matter, body = split_front_matter(text)
    return list(_markdown_blocks(body, budget)), front_matter
