"""What a reader of the Markdown report sees: the text a CommonMark viewer renders (tags removed, entities decoded)."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt


def markdown_text(markdown: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").enable("table").render(markdown)))
