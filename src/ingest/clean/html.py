"""HTML: a web page's article through trafilatura (`page`), else (and HTML fragments inside
Markdown always) through beautifulsoup4: block text with scripts, styles, frames and
navigation dropped."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bs4 import BeautifulSoup, CData, NavigableString, Tag
from bs4.builder._htmlparser import BeautifulSoupHTMLParser, HTMLParserTreeBuilder
from bs4.exceptions import ParserRejectedMarkup

from ..records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, Block
from .budget import CleaningBudget
from .normalize import CELL_MARK, strip_controls
from .page import read_article

FORMAT = "html"
# Every element starts with '<' (~60 µs each to parse), every character reference with '&'.
MARKUP = ("<", "&")
MARKUP_NAME = "HTML tags and character references ('<', '&')"

_DROP_TAGS = [
    "script",
    "style",
    "noscript",
    "iframe",
    "template",
    "object",
    "embed",
    "svg",
    "canvas",
    "nav",
    "footer",
    "head",
    "form",
    "button",
    "img",
    "picture",
    "video",
    "audio",
    "pre",
]
_BLOCK_TAGS = [
    "p",
    "div",
    "section",
    "article",
    "main",
    "aside",
    "header",
    "blockquote",
    "dl",
    "dt",
    "dd",
    "ul",
    "ol",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "caption",
    "figure",
    "figcaption",
    "center",
    "br",
    "hr",
    "address",
    "details",
    "summary",
]
_HEADING_TAGS = ["h1", "h2", "h3", "h4", "h5", "h6"]
# Control characters mark block kinds inside bs4's flattened text; the input has had
# every control character removed before parsing, so they cannot collide with content.
_MARK = {HEADING: "\x01", LIST_ITEM: "\x02", TABLE_ROW: "\x03"}
_KIND_BY_MARK = {mark: kind for kind, mark in _MARK.items()}
# The strings bs4's get_text keeps: not comments, doctypes, ruby annotations, scripts.
_TEXT_STRINGS = (NavigableString, CData)
_DROP, _BLOCKS, _HEADINGS = frozenset(_DROP_TAGS), frozenset(_BLOCK_TAGS), frozenset(_HEADING_TAGS)


class _Close(str):
    """Text emitted when the walk leaves an element."""


def _flatten(root: Tag, rows: bool = True, blocks: bool = True) -> list[str]:
    """The text of `root` with block newlines and kind marks, in document order.

    An explicit stack instead of recursion or tree edits: a 10,000-deep document
    costs linear time and no Python stack. Table rows become one marked line of
    cells each.
    """
    out: list[str] = []
    stack: list = list(reversed(root.contents))
    while stack:
        node = stack.pop()
        if type(node) is _Close:
            out.append(node)
            continue
        if isinstance(node, NavigableString):
            if type(node) in _TEXT_STRINGS:
                out.append(str(node))
            continue
        if not isinstance(node, Tag) or node.name in _DROP:
            continue
        if rows and node.name == "table":
            out.extend("\n" + _MARK[TABLE_ROW] + CELL_MARK.join(row) + "\n" for row in _grid(node))
            continue
        if rows and node.name == "tr":  # a row outside any table
            out.append("\n" + _MARK[TABLE_ROW] + CELL_MARK.join(text for text, _, _ in _cells(node)) + "\n")
            continue
        opener = closer = ""
        if node.name in _HEADINGS:
            opener, closer = "\n" + _MARK[HEADING], "\n"
        elif node.name == "li":
            opener, closer = "\n" + _MARK[LIST_ITEM], "\n"
        if blocks and node.name in _BLOCKS:
            opener, closer = "\n" + opener, closer + "\n"
        out.append(opener)
        stack.append(_Close(closer))
        stack.extend(reversed(node.contents))
    return out


def _cells(row: Tag) -> list[tuple[str, int, int]]:
    """(text, columns, rows) of each cell (td/th) of a table row, spaces collapsed: a table nested
    in a cell is text of that cell."""
    cells = []
    stack: list = list(reversed(row.contents))
    while stack:
        node = stack.pop()
        if not isinstance(node, Tag) or node.name in _DROP:
            continue
        if node.name in ("td", "th"):
            text = " ".join(" ".join(_flatten(node, rows=False, blocks=False)).split())
            cells.append((text, _span(node, "colspan"), _span(node, "rowspan")))
        else:
            stack.extend(reversed(node.contents))
    return cells


# A span beyond this is a mistake or an attack (colspan=1000000), not a layout.
_MAX_SPAN = 100


def _span(cell: Tag, attribute: str) -> int:
    value = str(cell.get(attribute) or "1").strip()
    return min(int(value), _MAX_SPAN) if value.isdecimal() and int(value) > 0 else 1


def _grid(table: Tag) -> list[list[str]]:
    """The rows of a table laid out on its grid, as trafilatura lays them out: a cell spanning
    columns or rows (colspan, rowspan) leaves empty cells where it continues, so that every
    cell keeps the column of its header. Rows of tables nested in cells are not this table's."""
    grid: list[list[str]] = []
    covered: dict[int, int] = {}  # column -> rows below still covered by a rowspan
    stack: list = list(reversed(table.contents))
    while stack:
        node = stack.pop()
        if not isinstance(node, Tag) or node.name in _DROP or node.name == "table":
            continue
        if node.name != "tr":
            stack.extend(reversed(node.contents))  # thead, tbody, tfoot
            continue
        row: list[str] = []
        for text, columns, rows in _cells(node):
            while len(row) in covered:
                row.append("")
            if rows > 1:
                covered.update((column, rows) for column in range(len(row), len(row) + columns))
            row.extend([text] + [""] * (columns - 1))
        row.extend("" for _ in range(len(row), max(covered, default=-1) + 1))
        covered = {column: left - 1 for column, left in covered.items() if left > 1}
        grid.append(row)
    return grid


def _marked_lines(text: str) -> Iterator[Block]:
    for line in text.split("\n"):
        if not line.strip():
            continue
        kind = _KIND_BY_MARK.get(line.lstrip(" \t")[:1])
        yield Block(kind or PARAGRAPH, line.replace(line.lstrip(" \t")[:1], "", 1) if kind else line)


# Python's html.parser (3.11) rescans to the end of the input for every tag or comment
# left open: 10,000 of them cost minutes. Real pages have about as many '>' as '<'; when
# a page has far more '<', each '<' with no '>' before the next '<' is made text.
_UNCLOSED_MAX = 200
_UNCLOSED_LT = re.compile(r"<(?=[^<>]*(?:<|\Z))")


def _defuse_unclosed_tags(html: str) -> str:
    if html.count("<") - html.count(">") <= _UNCLOSED_MAX:
        return html
    return _UNCLOSED_LT.sub("&lt;", html)


# html.parser is fed this many characters at a time, the time budget checked in between
# (a chunk costs milliseconds; html.parser keeps an unfinished tag for the next chunk).
_FEED_CHARS = 64 * 1024


class _ChunkedParser(BeautifulSoupHTMLParser):
    budget: CleaningBudget

    def feed(self, data: str) -> None:
        for start in range(0, len(data), _FEED_CHARS):
            super().feed(data[start : start + _FEED_CHARS])
            self.budget.check()


class _BudgetedTreeBuilder(HTMLParserTreeBuilder):
    """beautifulsoup4's html.parser builder, feeding the parser in chunks under a time budget."""

    def __init__(self, budget: CleaningBudget) -> None:
        super().__init__()
        self.budget = budget

    # Narrower than bs4's feed: BeautifulSoup passes only the markup, which html.parser's builder
    # turns into a str first (bs4 asserts it), and `_parser_class` is bs4's hook for its own tests.
    def feed(self, markup: str) -> None:  # type: ignore[override]
        def parser(*args, **kwargs) -> _ChunkedParser:
            made = _ChunkedParser(*args, **kwargs)
            made.budget = self.budget
            return made

        # bs4 annotates a parser class but only calls it, `_parser_class(soup, *args, **kwargs)`: a factory serves.
        super().feed(markup, _parser_class=parser)  # type: ignore[arg-type]


def _soup(html: str, budget: CleaningBudget) -> BeautifulSoup:
    try:
        return BeautifulSoup(html, builder=_BudgetedTreeBuilder(budget))
    except ParserRejectedMarkup:
        pass
    # html.parser gives up on some malformed declarations ('<![0'): make those text, and
    # if it still refuses, every '<' (the page is then read as plain text).
    try:
        return BeautifulSoup(re.sub(r"<!(?!--)", "&lt;!", html), builder=_BudgetedTreeBuilder(budget))
    except ParserRejectedMarkup:
        return BeautifulSoup(html.replace("<", "&lt;"), builder=_BudgetedTreeBuilder(budget))


def html_blocks(html: str, budget: CleaningBudget) -> list[Block]:
    """Blocks of an HTML document or fragment; scripts, styles, frames and navigation dropped."""
    soup = _soup(_defuse_unclosed_tags(strip_controls(html)), budget)
    return list(_marked_lines("".join(_flatten(soup))))


def blocks(text: str, budget: CleaningBudget) -> tuple[list[Block], dict]:
    """The blocks of a web page's article and what the page declares (title, date, author); the
    whole page's text when trafilatura cannot read it or finds no article in it."""
    article = read_article(text, budget)
    if article is not None and article.blocks:
        return article.blocks, article.declared
    return html_blocks(text, budget), article.declared if article is not None else {}
