"""Language-independent anchors of a segment: numbers, Latin-script names and URLs.

Two renderings of one article (a translation, a second translation, a
re-edit) share these whatever their language, so they let the warehouse align
documents and sentences without a translation model (see warehouse/checks/30_aligned.sql).
"""

from __future__ import annotations

import re
from typing import Iterator

from .numbers import NUMBER_RE, canonical, parse_number

NUMBER, NAME, URL = "number", "name", "url"
_URL = re.compile(r"https?://[^\s)>\]\"'、。,，]+")
_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_+\-]*[A-Za-z0-9+](?![A-Za-z0-9_])")
# Function words and generic tokens that would make any two English-flavoured texts look alike.
_STOP_NAMES = frozenset("""the and for with from this that are was were has have not but you your our its
into than then also can will all any more most such via per new api gpu cpu tpu llm""".split())


def segment_anchors(text: str) -> Iterator[tuple[str, str]]:
    """(kind, anchor) pairs of one segment; names lowercased, numbers canonical."""
    without_urls = text
    for match in _URL.finditer(text):
        yield URL, match.group().rstrip("/").lower()
        without_urls = without_urls.replace(match.group(), " ")
    for match in _NAME.finditer(without_urls):
        name = match.group().lower()
        if len(name) >= 3 and name not in _STOP_NAMES:
            yield NAME, name
    for match in NUMBER_RE.finditer(without_urls):
        number = parse_number(match.group())
        if number is not None:
            yield NUMBER, canonical(number.value)
