"""Raw document text to clean, typed blocks.

HTML goes through beautifulsoup4, Markdown through markdown-it (with any HTML
fragments inside it handed to beautifulsoup4), plain text is taken line by line.
Every format ends as the same list of `Block`s: headings, paragraphs, list
items and table rows, each one line of NFKC-normalised text, with web chrome
removed. The cleaned document text is the blocks joined by blank lines, and
block offsets point into it.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Iterable, Iterator

import yaml
from bs4 import BeautifulSoup, CData, NavigableString, Tag
from bs4.exceptions import ParserRejectedMarkup
from markdown_it import MarkdownIt

HEADING, PARAGRAPH, LIST_ITEM, TABLE_ROW = "heading", "paragraph", "list_item", "table_row"
BLOCK_SEPARATOR = "\n\n"
CELL_SEPARATOR = " | "

# Zero-width and bidi controls carry no text and can disguise it (Trojan-source style);
# Unicode tag characters can smuggle invisible ASCII.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad"
                        "\u061c\u180e\ufff9-\ufffb\U000e0000-\U000e007f]")
_LINE_SEPARATORS = re.compile("\r\n|[\r\u2028\u2029]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)
_BULLET_ONLY = re.compile(r"^[-*•・+]$")
_BULLET_PREFIX = re.compile(r"^(?:[-*•・]|\d{1,2}[.)])\s+")
_CJK_CHAR = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
_SOFTBREAK_CJK = re.compile(rf"(?<={_CJK_CHAR})\n(?={_CJK_CHAR})")

_DROP_TAGS = ["script", "style", "noscript", "iframe", "template", "object", "embed",
              "svg", "canvas", "nav", "footer", "head", "form", "button", "img", "picture",
              "video", "audio", "pre"]
_BLOCK_TAGS = ["p", "div", "section", "article", "main", "aside", "header", "blockquote",
               "dl", "dt", "dd", "ul", "ol", "table", "thead", "tbody", "tfoot", "caption",
               "figure", "figcaption", "center", "br", "hr", "address", "details", "summary"]
_HEADING_TAGS = ["h1", "h2", "h3", "h4", "h5", "h6"]
# Control characters mark block kinds inside bs4's flattened text; the input has had
# every control character removed before parsing, so they cannot collide with content.
_MARK = {HEADING: "\x01", LIST_ITEM: "\x02", TABLE_ROW: "\x03"}
_CELL_MARK = "\x04"
_KIND_BY_MARK = {mark: kind for kind, mark in _MARK.items()}


@dataclass(frozen=True)
class Block:
    kind: str
    text: str


@dataclass
class Cleaned:
    blocks: list[Block]
    front_matter: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return BLOCK_SEPARATOR.join(block.text for block in self.blocks)

    def block_offsets(self) -> Iterator[tuple[int, Block]]:
        """Each block with its start offset in `text`."""
        offset = 0
        for block in self.blocks:
            yield offset, block
            offset += len(block.text) + len(BLOCK_SEPARATOR)


@lru_cache(maxsize=1)
def chrome_lines() -> frozenset[str]:
    data = resources.files("ingest.data").joinpath("chrome.txt").read_text("utf-8")
    return frozenset(line.strip().casefold() for line in data.splitlines()
                     if line.strip() and not line.startswith("#"))


def normalize_text(text: str) -> str:
    """NFKC, invisible and control characters removed, runs of spaces collapsed, lines stripped."""
    text = unicodedata.normalize("NFKC", _LINE_SEPARATORS.sub("\n", text))
    text = _CONTROL.sub("", _INVISIBLE.sub("", text))
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))


def _strip_controls(text: str) -> str:
    return _CONTROL.sub("", _LINE_SEPARATORS.sub("\n", text))


def _finish(blocks: Iterable[Block]) -> list[Block]:
    """Normalise each block to one clean line and drop empties and chrome."""
    finished = []
    chrome = chrome_lines()
    for block in blocks:
        cells = _SOFTBREAK_CJK.sub("", block.text).split(_CELL_MARK)
        cells = [normalize_text(cell).replace("\n", " ").strip() for cell in cells]
        text = CELL_SEPARATOR.join(cell for cell in cells if cell)
        if not text or text.casefold() in chrome or _BULLET_ONLY.match(text):
            continue
        finished.append(Block(block.kind, text))
    return finished


# ---- plain text -------------------------------------------------------------------------

_SENTENCE_END = tuple("。.!?！？:：;；,，、")
_HEADING_MAX_CHARS = 60


# Source code pasted into plain-text articles: short, unpunctuated, and not a heading.
_CODE_LINE = re.compile(r"^(?:import |from \S+ import |with |for |def |class |#|return )|[=({\[]\S*[)}\]]$|\w\(.*\)\s*:?$")
_NUMBERED = re.compile(r"^\d{1,2}[.)]")


def _looks_like_heading(line: str) -> bool:
    """Plain text has no markup: a short line that ends no sentence (and is no code) is a heading."""
    return (len(line) <= _HEADING_MAX_CHARS and not line.endswith(_SENTENCE_END) and "。" not in line
            and not _CODE_LINE.search(line))


def _text_blocks(text: str) -> Iterator[Block]:
    for line in (raw.strip() for raw in text.split("\n")):
        if not line:
            continue
        if _BULLET_PREFIX.match(line) and not (_NUMBERED.match(line) and _looks_like_heading(line)):
            yield Block(LIST_ITEM, _BULLET_PREFIX.sub("", line))
        else:
            yield Block(HEADING if _looks_like_heading(line) else PARAGRAPH, line)


# ---- HTML -------------------------------------------------------------------------------

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
        if rows and node.name == "tr":
            out.append("\n" + _MARK[TABLE_ROW] + _CELL_MARK.join(_cells(node)) + "\n")
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


def _cells(row: Tag) -> list[str]:
    """The text of each cell (td/th, nested ones included) of a table row, spaces collapsed."""
    cells = []
    stack: list = list(reversed(row.contents))
    while stack:
        node = stack.pop()
        if not isinstance(node, Tag) or node.name in _DROP:
            continue
        if node.name in ("td", "th"):
            cells.append(" ".join(" ".join(_flatten(node, rows=False, blocks=False)).split()))
        stack.extend(reversed(node.contents))
    return cells


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


def _soup(html: str) -> BeautifulSoup:
    try:
        return BeautifulSoup(html, "html.parser")
    except ParserRejectedMarkup:
        pass
    # html.parser gives up on some malformed declarations ('<![0'): make those text, and
    # if it still refuses, every '<' (the page is then read as plain text).
    try:
        return BeautifulSoup(re.sub(r"<!(?!--)", "&lt;!", html), "html.parser")
    except ParserRejectedMarkup:
        return BeautifulSoup(html.replace("<", "&lt;"), "html.parser")


def html_blocks(html: str) -> list[Block]:
    """Blocks of an HTML document or fragment; scripts, styles, frames and navigation dropped."""
    soup = _soup(_defuse_unclosed_tags(_strip_controls(html)))
    return list(_marked_lines("".join(_flatten(soup))))


# ---- Markdown ---------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def _inline_text(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
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
            yield Block(TABLE_ROW, _CELL_MARK.join(row))
            row = None
        elif token.type == "inline" and row is not None:
            row.append(_inline_text(token))
        elif token.type == "inline":
            yield Block(kind_stack[-1] if kind_stack else PARAGRAPH, _inline_text(token))
        elif token.type == "html_block":
            yield from html_blocks(token.content)


_FRONT_MATTER_MAX_ITEMS = 100
_FRONT_MATTER_MAX_CHARS = 2000


def _front_matter_scalar(value: object) -> object:
    """A front-matter value made safe to store: short text without controls, or a plain scalar."""
    if isinstance(value, str):
        text = _INVISIBLE.sub("", _strip_controls(value)).encode("utf-8", "replace").decode("utf-8")
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


# ---- entry point ------------------------------------------------------------------------

def clean(text: str, fmt: str) -> Cleaned:
    """Clean a decoded document of format 'text', 'markdown' or 'html' into blocks."""
    text = _strip_controls(text.lstrip("\ufeff"))
    if fmt == "html":
        return Cleaned(_finish(html_blocks(text)))
    if fmt == "markdown":
        front_matter, body = split_front_matter(text)
        return Cleaned(_finish(_markdown_blocks(body)), front_matter)
    return Cleaned(_finish(_text_blocks(text)))
