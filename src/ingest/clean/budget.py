"""What cleaning one document may cost: markup counted before parsing, time checked while parsing.

The limits on an article (bytes on disk, characters after cleaning) say nothing about the
parsers' work: 15 MB of `<p>x</p>` is 1.9 million elements for beautifulsoup4 (minutes)
before the character limit can refuse the text, 1 MB of `[` keeps markdown-it's link
parser busy for most of a minute, and 2 MB of one-letter lines are a million blocks to
normalise. So what the cleaners would build nodes or blocks from (tags, lines, cells,
brackets) is counted first, with `str.count` (milliseconds for 16 MB), and a document with
more than `limits.current().max_markup` is refused at once; the parsers then run under a time
budget (`max_clean_seconds`) that they check between chunks of input and parsing rules, so a
costly pattern nobody thought of fails in seconds too. Both refusals say why, and are limits
(`LimitError`: tried again when the limits change). The same checks also check the document's
stage budget (`ingest.budget`).
"""

from __future__ import annotations

import time

from .. import limits
from ..budget import checkpoint
from ..errors import LimitError


def check_markup(text: str, markers: tuple[str, ...], what: str) -> None:
    """Refuse a text holding more than `max_markup` of the characters its cleaner makes a node or a
    block of (`markers`), before it is parsed; `what` names them for the message."""
    count = sum(text.count(marker) for marker in markers)
    limit = limits.current().max_markup
    if count > limit:
        raise LimitError(
            f"{count:,} {what} are more than one article holds (the limit is {limit:,}; "
            "parsing them would take minutes); split it or remove it"
        )


class CleaningBudget:
    """The time one document's parsing may take, checked cooperatively by the parsers."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = limits.current().max_clean_seconds if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds

    def check(self) -> None:
        """Raise LimitError once the budget is spent (and BudgetExceeded once the stage's is)."""
        checkpoint()
        if time.monotonic() > self.deadline:
            raise LimitError(
                f"cleaning was stopped after {self.seconds:g} s: the markup is too costly to "
                "parse for one article (deep nesting, huge tables, unclosed brackets?); "
                "split it or simplify its markup"
            )
