"""What every input format shares: text normalisation and the final pass over blocks.

Each block ends as one line of NFKC-normalised text, every decimal digit written in ASCII,
without invisible or control characters; empty blocks, bare bullets and web chrome
(`clean/chrome.txt`) are dropped. A table row keeps every cell, empty ones too, so that the n-th
cell of every row stands under the n-th header cell (`extract/claims.py` reads column headers
that way).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

from ..lang import bullet_chars
from ..records import CELL_SEPARATOR, Block

# Zero-width and bidi controls carry no text and can disguise it (Trojan-source style);
# Unicode tag characters can smuggle invisible ASCII.
INVISIBLE = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u061c\u180e\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_LINE_SEPARATORS = re.compile("\r\n|[\r\u2028\u2029]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
# Decimal digits of other scripts (Arabic-Indic ٢, Devanagari २ ...): NFKC folds full-width and
# mathematical digits to ASCII but not these, and every number reader expects 0-9.
_OTHER_DIGITS = re.compile(r"[^\D0-9]")
_BULLET_ONLY = re.compile(rf"^[-*•+{re.escape(bullet_chars())}]$")
_CJK_CHAR = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
_SOFTBREAK_CJK = re.compile(rf"(?<={_CJK_CHAR})\n(?={_CJK_CHAR})")
# Marks table cells inside a block's text until `finish` joins them with CELL_SEPARATOR.
CELL_MARK = "\x04"
# A pipe inside a cell ("`a \\| b`" in Markdown) loses its spaces, so that a row's text splits
# back into its columns (records.cell_spans).
_PIPE_IN_CELL = re.compile(r" *\| *")


@lru_cache(maxsize=1)
def chrome_lines() -> frozenset[str]:
    data = resources.files("ingest.clean").joinpath("chrome.txt").read_text("utf-8")
    return frozenset(line.strip().casefold() for line in data.splitlines() if line.strip() and not line.startswith("#"))


def normalize_text(text: str) -> str:
    """NFKC, digits in ASCII, invisible and control characters removed, runs of spaces collapsed,
    lines stripped."""
    text = unicodedata.normalize("NFKC", _LINE_SEPARATORS.sub("\n", text))
    text = _OTHER_DIGITS.sub(lambda m: str(unicodedata.decimal(m.group())), text)
    text = _CONTROL.sub("", INVISIBLE.sub("", text))
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))


def strip_controls(text: str) -> str:
    """Line separators unified to \\n and control characters removed (before parsing)."""
    return _CONTROL.sub("", _LINE_SEPARATORS.sub("\n", text))


def finish(blocks: Iterable[Block]) -> list[Block]:
    """Normalise each block to one clean line and drop empties and chrome."""
    finished = []
    chrome = chrome_lines()
    for block in blocks:
        cells = _SOFTBREAK_CJK.sub("", block.text).split(CELL_MARK)
        cells = [normalize_text(cell).replace("\n", " ").strip() for cell in cells]
        if len(cells) > 1:
            cells = [_PIPE_IN_CELL.sub("|", cell) for cell in cells]
        text = CELL_SEPARATOR.join(cells).strip()
        if not any(cells) or text.casefold() in chrome or _BULLET_ONLY.match(text):
            continue
        finished.append(Block(block.kind, text))
    return finished
