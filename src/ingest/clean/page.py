"""The article of a web page through trafilatura: its main text as blocks, and what the page
declares about itself (title, publication date, author).

trafilatura tells the article from the page's furniture (header, navigation, sidebars of
popular articles, related links, share bars, cookie banners, comments) and reads the page's
metadata (og:title, article:published_time, JSON-LD, <time>, bylines); its XML output keeps
the article's structure, which maps onto blocks: <head> headings, <p> paragraphs, <item>
list items, <row> table rows of <cell>s (merged cells are already laid out on the grid, with
empty cells where a span continues). Code blocks and images are not text, as elsewhere.

It runs on lxml and cannot be interrupted, so a page goes the budgeted beautifulsoup4 way
(`html.html_blocks`) instead when it has more markup than trafilatura reads within a small
part of the time budget, or when libxml2 gives up on it (nesting deeper than 255 levels:
lxml silently drops what is deeper and after, so trafilatura would lose text unnoticed).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import cast

import lxml.html
import trafilatura
from lxml import etree

from ..records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, Block
from .budget import CleaningBudget
from .normalize import CELL_MARK

# trafilatura takes ~0.6 s for 25,000 tags and character references in the costliest shapes
# measured (a flat run of paragraphs, of list items, of divs): a fifth of the time budget at most.
EXTRACTOR_MAX_MARKUP = 25_000
_MARKUP = ("<", "&")
# Elements of trafilatura's XML whose text is a block; the others hold blocks (list, table, quote)
# or are inline (formatting, links, line breaks).
_BLOCK_KINDS = {"head": HEADING, "p": PARAGRAPH, "item": LIST_ITEM}
_INLINE = {"hi", "ref", "del", "lb", "span", "sub", "sup"}
# Not text: code blocks and images.
_SKIPPED = {"code", "graphic"}
# Page elements that hold furniture, never the article (as trafilatura sees them too).
_FURNITURE = {"aside", "nav", "footer", "header", "form", "menu"}
# Characters a kept block shares with a list for the list to count as kept (in part) already.
_SAME_TEXT = 8
_NOT_TEXT = {"script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas"}

# trafilatura logs every page it finds no article in as a warning; the fallback reads it.
logging.getLogger("trafilatura").setLevel(logging.ERROR)


@dataclass
class Article:
    """The blocks of a page's main text (empty: trafilatura found none) and its declared metadata."""

    blocks: list[Block]
    declared: dict[str, str] = field(default_factory=dict)


def read_article(html: str, budget: CleaningBudget) -> Article | None:
    """The article of a web page, or None when the page is left to the budgeted bs4 cleaner."""
    if sum(html.count(marker) for marker in _MARKUP) > EXTRACTOR_MAX_MARKUP:
        return None
    tree = _tree(html)
    if tree is None:
        return None
    _drop_anchor_links(tree)
    budget.check()
    # A Document unless as_dict=True: trafilatura's annotation covers both (it has no overloads).
    document = cast(
        "trafilatura.settings.Document | None",
        trafilatura.bare_extraction(
            tree,
            with_metadata=True,
            include_comments=False,
            include_tables=True,
            include_images=False,
            include_formatting=False,
            include_links=False,
            favor_precision=True,
            # Dates from the page's markup (meta tags, JSON-LD, <time>, the URL), never guessed
            # from dates in its text: those are as often a teaser's or a comment's.
            date_extraction_params={"extensive_search": False, "original_date": True},
        ),
    )
    budget.check()
    if document is None:
        return Article([], _declared(trafilatura.extract_metadata(tree)))
    blocks: list[Block] = []
    _blocks(document.body, None, blocks)
    blocks = _with_lists_back(tree, blocks)
    declared = _declared(document)
    headline = declared.get("title")
    # trafilatura leaves the headline out of the text (it is the title); a reader sees it
    # above the article, and the claims read the first section's subject from it.
    if headline and blocks and blocks[0].text != headline and _is_headline(tree, headline):
        blocks.insert(0, Block(HEADING, headline))
    return Article(blocks, declared)


def _tree(html: str) -> lxml.html.HtmlElement | None:
    """The page parsed by libxml2, or None if it is empty or libxml2 stopped reading it."""
    parser = lxml.html.HTMLParser(
        collect_ids=False, default_doctype=False, encoding="utf-8", remove_comments=True, remove_pis=True
    )
    try:
        tree = lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=parser)
    except (etree.ParserError, ValueError):  # nothing to parse
        return None
    if any(error.level == etree.ErrorLevels.FATAL for error in parser.error_log):
        return None
    return tree


def _drop_anchor_links(tree: lxml.html.HtmlElement) -> None:
    """Remove links with no text or only a symbol ('¶', '#', '§'): anchors and permalinks beside
    headings, which are no text of the heading (and make trafilatura take it for navigation)."""
    for link in list(tree.iter("a")):
        text = link.text_content().strip()
        if len(text) <= 1 and not text.isalnum() and not len(link):
            link.drop_tree()


def _is_headline(tree: lxml.html.HtmlElement, title: str) -> bool:
    """Whether the page shows `title` as a top-level heading (not only in <title> or meta tags)."""
    wanted = " ".join(title.split())
    return any(" ".join(h1.text_content().split()) == wanted for h1 in tree.iter("h1"))


def _with_lists_back(tree: lxml.html.HtmlElement, blocks: list[Block]) -> list[Block]:
    """`blocks` with the lists trafilatura dropped although they follow a block it kept.

    Outside an <article> or <main>, trafilatura keeps paragraphs and tables but no lists (its
    "wild text" recovery leaves them out). A list right after a kept paragraph or heading, outside
    the page's furniture containers and not mostly links (teasers, related articles), is the
    article's: its items go back after that block.
    """
    kept = {" ".join(block.text.split()): index for index, block in enumerate(blocks)}
    inserts: dict[int, list[Block]] = {}
    for listing in tree.iter("ul", "ol"):
        before = listing.getprevious()
        while before is not None and (before.tag in _NOT_TEXT or not before.text_content().strip()):
            before = before.getprevious()
        after = kept.get(" ".join(before.text_content().split())) if before is not None else None
        items = [" ".join(item.text_content().split()) for item in listing if item.tag == "li"]
        whole = " ".join(items)
        if (
            after is None
            or not any(items)
            or any(text in whole for text in kept if len(text) >= _SAME_TEXT)
            or any(parent.tag in _FURNITURE for parent in listing.iterancestors())
        ):
            continue  # not after kept text, kept already (whole or in part), or in the page's furniture
        links = sum(len(" ".join(link.text_content().split())) for link in listing.iter("a"))
        if links * 2 <= sum(map(len, items)):
            inserts.setdefault(after, []).extend(Block(LIST_ITEM, item) for item in items if item)
    return [b for index, block in enumerate(blocks) for b in (block, *inserts.get(index, ()))]


def _declared(document: trafilatura.settings.Document | None) -> dict[str, str]:
    """What the page says about itself, under the keys `metadata` reads (title, date, author)."""
    if document is None:
        return {}
    found = {"title": document.title, "date": document.date, "author": document.author}
    return {key: value for key, value in found.items() if value}


def _text(element: etree._Element) -> str:
    """The text of an element and everything inside it; line breaks (<lb/>) as newlines."""
    parts = [element.text or ""]
    for child in element:
        parts.append("\n" if child.tag == "lb" else _text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _blocks(element: etree._Element, kind: str | None, out: list[Block]) -> None:
    """Append the blocks of trafilatura's XML `element` to `out`, in document order: its text and
    inline children as one block of `kind` (a container's loose text: a paragraph), each
    block-level child in turn (a list inside an item, a table, a quote's paragraphs).

    Recursive: the tree libxml2 built is at most 255 levels deep (deeper pages never get here).
    """
    run = [element.text or ""]

    def flush() -> None:
        if "".join(run).strip():
            out.append(Block(kind or PARAGRAPH, "".join(run)))
        run.clear()

    for child in element:
        if child.tag in _INLINE or (child.tag == "code" and kind):  # inline code is part of its sentence
            run.append("\n" if child.tag == "lb" else _text(child))
        else:
            flush()
            if child.tag == "row":
                out.append(Block(TABLE_ROW, CELL_MARK.join(" ".join(_text(cell).split()) for cell in child)))
            elif child.tag not in _SKIPPED:
                _blocks(child, _BLOCK_KINDS.get(child.tag), out)
        run.append(child.tail or "")
    flush()
