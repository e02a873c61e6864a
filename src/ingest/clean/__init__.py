"""Raw document text to clean, typed blocks: one module per input format, chosen by a registry.

HTML goes through beautifulsoup4 (`html`), Markdown through markdown-it with any HTML
fragments handed to the HTML cleaner (`markdown`), plain text is taken line by line
(`text`). Every format ends as the same list of `Block`s: headings, paragraphs, list
items and table rows, each one line of NFKC-normalised text, with web chrome removed
(`normalize`). The cleaned document text is the blocks joined by blank lines, and block
offsets point into it. A new format is a module with FORMAT, SUFFIXES and `blocks()`
added to `_FORMAT_MODULES`.
"""

from __future__ import annotations

from types import ModuleType

from ..records import Cleaned
from . import html, markdown, text
from .normalize import finish, normalize_text, strip_controls

_FORMAT_MODULES: tuple[ModuleType, ...] = (text, markdown, html)
FORMATS: dict[str, ModuleType] = {module.FORMAT: module for module in _FORMAT_MODULES}
# File suffix (lower case) -> format name.
SUPPORTED_SUFFIXES: dict[str, str] = {suffix: module.FORMAT for module in _FORMAT_MODULES
                                      for suffix in module.SUFFIXES}

__all__ = ["FORMATS", "SUPPORTED_SUFFIXES", "clean", "normalize_text"]


def clean(raw: str, fmt: str) -> Cleaned:
    """Clean a decoded document of format 'text', 'markdown' or 'html' into blocks."""
    blocks, front_matter = FORMATS[fmt].blocks(strip_controls(raw.lstrip("\ufeff")))
    return Cleaned(finish(blocks), front_matter)
