"""Markdown through markdown-it (HTML fragments inside it through the HTML cleaner), with
YAML front matter reduced to safe scalars."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Iterator

import yaml
from markdown_it import MarkdownIt

from ..records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, Block
from .html import html_blocks
from .normalize import CELL_MARK, INVISIBLE, strip_controls

FORMAT = "markdown"
SUFFIXES = (".md", ".markdown")

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)
_FRONT_MATTER_MAX_ITEMS = 100
_FRONT_MATTER_MAX_CHARS = 2000


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")


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


def _markdown_blocks(text: str) -> Iterator[Block]:
    tokens = _markdown().parse(text)
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
            yield from html_blocks(token.content)


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
    safe = {}
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
    """YAML front matter (if any) and the rest of a Markdown document.

    Front matter that does not parse (bad YAML, impossible dates, absurd nesting) is left
    in the text; values are reduced to scalars and flat lists so no document can smuggle
    a huge or deeply nested structure into the metadata.
    """
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    try:
        data = yaml.safe_load(match.group(1))
    except Exception:  # noqa: BLE001 - yaml raises YAMLError, ValueError, RecursionError...
        return {}, text
    return (_safe_front_matter(data) if isinstance(data, dict) else {}), text[match.end():]


def blocks(text: str) -> tuple[list[Block], dict]:
    """The blocks and front matter of a Markdown document."""
    front_matter, body = split_front_matter(text)
    return list(_markdown_blocks(body)), front_matter
