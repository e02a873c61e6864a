"""Raw document text to clean, typed blocks.

HTML goes through beautifulsoup4, Markdown through markdown-it (with any HTML
fragments inside it handed to beautifulsoup4), plain text is taken line by line.
Every format ends as the same list of `Block`s: headings, paragraphs, list
items and table rows, each one line of NFKC-normalised text, with web chrome
removed. The cleaned document text is the blocks joined by blank lines, and
block offsets point into it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Iterable, Iterator

import yaml
from bs4 import BeautifulSoup, Comment
from markdown_it import MarkdownIt

HEADING, PARAGRAPH, LIST_ITEM, TABLE_ROW = "heading", "paragraph", "list_item", "table_row"
BLOCK_SEPARATOR = "\n\n"
CELL_SEPARATOR = " | "

# Zero-width and bidi controls carry no text and can disguise it (Trojan-source style).
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]")
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
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL.sub("", _INVISIBLE.sub("", text))
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))


def _strip_controls(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


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

def _mark_structure(soup: BeautifulSoup) -> None:
    """Insert newlines and kind marks around block elements so get_text keeps the layout."""
    for tag in soup.find_all(_HEADING_TAGS):
        tag.insert(0, "\n" + _MARK[HEADING])
        tag.append("\n")
    for tag in soup.find_all("li"):
        tag.insert(0, "\n" + _MARK[LIST_ITEM])
        tag.append("\n")
    for row in soup.find_all("tr"):
        cells = [" ".join(cell.get_text(" ").split()) for cell in row.find_all(["td", "th"])]
        row.clear()
        row.append("\n" + _MARK[TABLE_ROW] + _CELL_MARK.join(cells) + "\n")
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_before("\n")
        tag.insert_after("\n")


def _marked_lines(text: str) -> Iterator[Block]:
    for line in text.split("\n"):
        if not line.strip():
            continue
        kind = _KIND_BY_MARK.get(line.lstrip(" \t")[:1])
        yield Block(kind or PARAGRAPH, line.replace(line.lstrip(" \t")[:1], "", 1) if kind else line)


def html_blocks(html: str) -> list[Block]:
    """Blocks of an HTML document or fragment; scripts, styles, frames and navigation dropped."""
    soup = BeautifulSoup(_strip_controls(html), "html.parser")
    for tag in soup.find_all(_DROP_TAGS):
        tag.decompose()
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    _mark_structure(soup)
    return list(_marked_lines(soup.get_text()))


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


def split_front_matter(text: str) -> tuple[dict, str]:
    """YAML front matter (if any) and the rest of a Markdown document."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}, text
    return (data if isinstance(data, dict) else {}), text[match.end():]


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
