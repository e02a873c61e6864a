"""Raw document text to clean, typed blocks: one module per input format, chosen by a registry.

A web page's article is read by trafilatura, with beautifulsoup4 as the fallback (`html`,
`page`), Markdown goes through markdown-it with any HTML fragments handed to the
beautifulsoup4 cleaner (`markdown`), plain text is taken line by line (`text`). Every
format ends as the same list of `Block`s: headings, paragraphs, list items and table rows,
each one line of NFKC-normalised text, with web chrome removed (`normalize`). The cleaned
document text is the blocks joined by blank lines, and block offsets point into it. A new
format is a module with FORMAT, MARKUP (the characters its parser builds nodes from, counted
before parsing: `budget`) and `blocks()`, listed in `_format_module`, its file suffixes in
`SUPPORTED_SUFFIXES`.
"""

from __future__ import annotations

from types import ModuleType

from ..records import Cleaned
from .budget import CleaningBudget, check_markup
from .normalize import finish, normalize_text, strip_controls

# File suffix (lower case) -> format name.
SUPPORTED_SUFFIXES: dict[str, str] = {
    ".txt": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}

__all__ = ["SUPPORTED_SUFFIXES", "clean", "normalize_text"]


def _format_module(fmt: str) -> ModuleType:
    """The cleaner of a format. Imported when a document is first cleaned: their parsers
    (trafilatura, beautifulsoup4, markdown-it: ~0.25 s to import) are of no use to a command or a
    run with nothing to read (`ingest sql`, an unchanged re-run)."""
    from . import html, markdown, text

    return {module.FORMAT: module for module in (text, markdown, html)}[fmt]


def clean(raw: str, fmt: str, budget: CleaningBudget | None = None) -> Cleaned:
    """Clean a decoded document of format 'text', 'markdown' or 'html' into blocks.

    Raises ReadError for a document with more markup than an article has, or whose parsing
    outlasts the time budget (a fresh `CleaningBudget` unless one is given).
    """
    module = _format_module(fmt)
    check_markup(raw, module.MARKUP, module.MARKUP_NAME)
    blocks, declared = module.blocks(strip_controls(raw.lstrip("\ufeff")), budget or CleaningBudget())
    return Cleaned(finish(blocks), declared)
