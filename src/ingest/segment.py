"""Blocks to sentence segments with offsets into the cleaned document text.

Headings, list items and table rows are segments of their own; paragraphs are
split after 。！？ (and after . ! ? when a new sentence visibly starts), with
closing brackets and quotes kept on the sentence they close. Overlong
"sentences" (tables flattened into prose, text with no punctuation) are cut at
a soft delimiter so that no segment exceeds what a translation model takes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from .lang import clause_mark_chars, sentence_end_chars
from .records import HEADING, PARAGRAPH, Cleaned

MAX_SEGMENT_CHARS = 400
# Closing brackets and quotation marks of every script (Unicode categories Pe and Pf), '"' and '>'.
_CLOSERS = "".join(chr(code) for code in range(0x10000) if unicodedata.category(chr(code)) in ("Pe", "Pf")) + '">'
# A sentence ends at ! ? and every language's own sentence ends (。！？), with the brackets it closes.
_HARD_END = re.compile(rf"[!?{re.escape(sentence_end_chars())}]+[{re.escape(_CLOSERS)}]*")
# A full stop ends a sentence only before whitespace and a capital or CJK character, and not after
# an initial ("J. Smith", "U.S. Army"), so "torch.compile", "2.5" and "e.g. this" stay whole and
# "83.1 on MATH. The base model…", "Qwen2.5-72B. It…" do not.
_LATIN_END = re.compile(
    r"(?<!\b[A-Z])(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bFig)(?<!\bNo)\."
    r"(?=\s+[A-Z\u3040-\u30ff\u4e00-\u9fff])"
)
# Where an overlong sentence may be cut: after a clause mark of any language or a comma, semicolon
# or colon (the text is NFKC-normalised: "，" is ","), else at a space.
_SOFT_BREAK = re.compile(rf"[,;:{re.escape(clause_mark_chars())}]\s*|\s+")


@dataclass(frozen=True)
class Segment:
    seg_idx: int
    block_idx: int
    kind: str
    text: str
    char_start: int
    char_end: int
    section: str | None


def _sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence in a block, whitespace trimmed."""
    ends = sorted({m.end() for m in _HARD_END.finditer(text)} | {m.end() for m in _LATIN_END.finditer(text)})
    start = 0
    for end in ends + [len(text)]:
        yield from _trimmed(text, start, end)
        start = end


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        yield from _capped(text, start, end)


def _capped(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Cut a span longer than MAX_SEGMENT_CHARS at the last soft delimiter before the cap."""
    while end - start > MAX_SEGMENT_CHARS:
        window = text[start : start + MAX_SEGMENT_CHARS]
        cuts = [m.end() for m in _SOFT_BREAK.finditer(window) if m.end() > MAX_SEGMENT_CHARS // 2]
        cut = start + (cuts[-1] if cuts else MAX_SEGMENT_CHARS)
        yield start, cut
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        yield start, end


def segment(cleaned: Cleaned) -> list[Segment]:
    """Sentence segments of a cleaned document, in order, each tagged with its section heading."""
    segments: list[Segment] = []
    section: str | None = None
    for block_idx, (offset, block) in enumerate(cleaned.block_offsets()):
        if block.kind == HEADING:
            section = block.text
        spans = [(0, len(block.text))] if block.kind != PARAGRAPH else _sentence_spans(block.text)
        for start, end in spans:
            segments.append(
                Segment(len(segments), block_idx, block.kind, block.text[start:end], offset + start, offset + end, section)
            )
    return segments
