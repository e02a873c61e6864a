"""The clause around a position of a sentence, and the part of it that commas bound: where a word
next to a value may speak of it (text is NFKC-normalised: "；" is ";", "，" is ",")."""

from __future__ import annotations

import re

from ..lang import clause_mark_chars, sentence_end_chars

# A clause ends where a sentence does, or at a semicolon.
CLAUSE_END = re.compile(f"[!?;{re.escape(sentence_end_chars())}]")
COMMA = re.compile(f"[,{re.escape(clause_mark_chars())}]")


def clause_bounds(text: str, position: int) -> tuple[int, int]:
    """(start, end) of the clause of `text` that holds `position`."""
    start = max((m.end() for m in CLAUSE_END.finditer(text, 0, position)), default=0)
    end_match = CLAUSE_END.search(text, position)
    return start, end_match.start() if end_match else len(text)


def comma_part(text: str, start: int, end: int) -> tuple[int, int]:
    """The part of the clause around [start, end) that commas bound ("1.1 以降が必要で、3.0 以降が推奨":
    the second part only)."""
    low, high = clause_bounds(text, start)
    before = [m.end() for m in COMMA.finditer(text, low, start)]
    after = COMMA.search(text, end, high)
    return (before[-1] if before else low), (after.start() if after else high)
