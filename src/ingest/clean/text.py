"""Plain text: one block per line; short unpunctuated lines are headings, bullets list items."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ..lang import bullet_chars, clause_mark_chars, sentence_end_chars
from ..records import HEADING, LIST_ITEM, PARAGRAPH, Block
from .budget import CleaningBudget

FORMAT = "text"
# Every line is a block (~14 µs each to normalise); cleaning is one pass, nothing to time.
MARKUP = ("\n",)
MARKUP_NAME = "lines"

# A line ending in these (after NFKC: "！" is "!") ends a sentence or a clause: it is no heading.
_SENTENCE_END = tuple(".!?:;," + sentence_end_chars() + clause_mark_chars())
_HEADING_MAX_CHARS = 60
_BULLET_PREFIX = re.compile(rf"^(?:[-*•{re.escape(bullet_chars())}]|\d{{1,2}}[.)])\s+")
# Source code pasted into plain-text articles: short, unpunctuated, and not a heading.
_CODE_LINE = re.compile(r"^(?:import |from \S+ import |with |for |def |class |#|return )|[=({\[]\S*[)}\]]$|\w\(.*\)\s*:?$")
_NUMBERED = re.compile(r"^\d{1,2}[.)]")


def _looks_like_heading(line: str) -> bool:
    """Plain text has no markup: a short line that ends no sentence (and is no code) is a heading."""
    return (
        len(line) <= _HEADING_MAX_CHARS
        and not unicodedata.normalize("NFKC", line).endswith(_SENTENCE_END)
        and not any(char in sentence_end_chars() for char in line)
        and not _CODE_LINE.search(line)
    )


def _lines(text: str) -> Iterator[Block]:
    for line in (raw.strip() for raw in text.split("\n")):
        if not line:
            continue
        if _BULLET_PREFIX.match(line) and not (_NUMBERED.match(line) and _looks_like_heading(line)):
            yield Block(LIST_ITEM, _BULLET_PREFIX.sub("", line))
        else:
            yield Block(HEADING if _looks_like_heading(line) else PARAGRAPH, line)


def blocks(text: str, budget: CleaningBudget) -> tuple[list[Block], dict]:
    """The blocks of a plain-text document (it has no front matter; `budget` is not needed)."""
    return list(_lines(text)), {}
