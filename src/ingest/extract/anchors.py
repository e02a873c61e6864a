"""Language-independent anchors of a segment: numbers, Latin-script names and URLs.

Two renderings of one article (a translation, a second translation, a
re-edit) share these whatever their language, so they let the warehouse pair
documents (the `document_pairs` view) and align their sentences without a translation
model. Numbers are the values of the segment's quantity mentions, so "39 million" and
"3900 万" are one anchor.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from .mentions import QUANTITIES, Mention
from .numbers import canonical

NUMBER, NAME, URL = "number", "name", "url"
_URL = re.compile(r"https?://[^\s)>\]\"'、。,，]+")
_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_+\-]*[A-Za-z0-9+](?![A-Za-z0-9_])")
# Function words and generic tokens that would make any two English-flavoured texts look alike.
_STOP_NAMES = frozenset("""the and for with from this that are was were has have not but you your our its
into than then also can will all any more most such via per new api gpu cpu tpu llm""".split())


def segment_anchors(text: str, mentions: Sequence[Mention]) -> Iterator[tuple[str, str]]:
    """(kind, anchor) pairs of one segment; names lowercased, numbers canonical."""
    without_urls = text
    for match in _URL.finditer(text):
        yield URL, match.group().rstrip("/").lower()
        without_urls = without_urls.replace(match.group(), " ")
    for match in _NAME.finditer(without_urls):
        name = match.group().lower()
        if len(name) >= 3 and name not in _STOP_NAMES:
            yield NAME, name
    for mention in mentions:
        if mention.kind in QUANTITIES and mention.value is not None:
            yield NUMBER, canonical(mention.value)
