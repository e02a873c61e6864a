"""Raw document text to clean, typed blocks: one module per input format, chosen by a registry.

A web page's article is read by trafilatura, with beautifulsoup4 as the fallback (`html`,
`page`), Markdown goes through markdown-it with any HTML fragments handed to the
beautifulsoup4 cleaner (`markdown`), plain text is taken line by line (`text`). Every
format ends as the same list of `Block`s: headings, paragraphs, list items and table rows,
each one line of NFKC-normalised text, with web chrome removed (`normalize`). The cleaned
document text is the blocks joined by blank lines, and block offsets point into it. A new
format is a module with FORMAT, SUFFIXES, MARKUP (the characters its parser builds nodes
from, counted before parsing: `budget`) and `blocks()` added to `_FORMAT_MODULES`.
"""

from __future__ import annotations

from types import ModuleType

from ..records import Cleaned
from . import html, markdown, text
from .budget import CleaningBudget, check_markup
from .normalize import finish, normalize_text, strip_controls

_FORMAT_MODULES: tuple[ModuleType, ...] = (text, markdown, html)
FORMATS: dict[str, ModuleType] = {module.FORMAT: module for module in _FORMAT_MODULES}
# File suffix (lower case) -> format name.
SUPPORTED_SUFFIXES: dict[str, str] = {suffix: module.FORMAT for module in _FORMAT_MODULES for suffix in module.SUFFIXES}

__all__ = ["FORMATS", "SUPPORTED_SUFFIXES", "clean", "normalize_text"]


def clean(raw: str, fmt: str, budget: CleaningBudget | None = None) -> Cleaned:
    """Clean a decoded document of format 'text', 'markdown' or 'html' into blocks.

    Raises ReadError for a document with more markup than an article has, or whose parsing
    outlasts the time budget (a fresh `CleaningBudget` unless one is given).
    """
    module = FORMATS[fmt]
    check_markup(raw, module.MARKUP, module.MARKUP_NAME)
    blocks, declared = module.blocks(strip_controls(raw.lstrip("\ufeff")), budget or CleaningBudget())
    return Cleaned(finish(blocks), declared)
