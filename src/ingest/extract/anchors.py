"""Language-independent anchors of a segment: numbers, Latin-script names, URLs and concepts.

Two renderings of one article (a translation, a second translation, a
re-edit) share these whatever their language, so they let the warehouse pair
documents (the `document_pairs` view) and align their sentences without a translation
model. Numbers are the values of the segment's quantity readings, so "39 million" and
"3900 万" are one anchor; concepts are the English stems of the segment's words through the
bilingual lexicons (`lexicon`), so "上下文长度", "コンテキスト長" and "context length" share theirs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .meaning import concepts
from .notation import canonical
from .reader import QUANTITIES, Reading
from .reader import URL as URL_READING

NUMBER, NAME, URL, CONCEPT = "number", "name", "url", "concept"
_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_+\-]*[A-Za-z0-9+](?![A-Za-z0-9_])")
# Function words and generic tokens that would make any two English-flavoured texts look alike.
_STOP_NAMES = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "this",
        "that",
        "are",
        "was",
        "were",
        "has",
        "have",
        "not",
        "but",
        "you",
        "your",
        "our",
        "its",
        "into",
        "than",
        "then",
        "also",
        "can",
        "will",
        "all",
        "any",
        "more",
        "most",
        "such",
        "via",
        "per",
        "new",
        "api",
        "gpu",
        "cpu",
        "tpu",
        "llm",
    ]
)


def segment_anchors(text: str, lang: str, readings: Sequence[Reading]) -> Iterator[tuple[str, str]]:
    """(kind, anchor) pairs of one segment; names lowercased, numbers canonical, each concept once."""
    without_urls = text
    for reading in readings:
        if reading.kind == URL_READING:
            yield URL, reading.norm.rstrip("/")
            without_urls = without_urls.replace(reading.text, " ")
    for match in _NAME.finditer(without_urls):
        name = match.group().lower()
        if len(name) >= 3 and name not in _STOP_NAMES:
            yield NAME, name
    for reading in readings:
        if reading.kind in QUANTITIES and reading.value is not None:
            yield NUMBER, canonical(reading.value)
    for concept in dict.fromkeys(concepts(text, lang)):
        yield CONCEPT, concept
