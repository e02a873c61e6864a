"""Scoring the main text and metadata read from a web page against its labels.

Main text is compared as a bag of tokens, CJK text by character and Latin text by word
(punctuation and spacing do not count), so a reading that keeps the article and drops the
page's furniture scores 1.0 whatever its block boundaries. Titles are compared after NFKC,
whitespace and case normalisation; dates exactly (None for a page that states no date is
right only when nothing is found).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import trafilatura

from ingest.clean import clean
from ingest.metadata import extract_metadata

_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[0-9a-z\u00c0-\u024f]+")


def normalized(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def tokens(text: str) -> Counter:
    return Counter(_TOKEN.findall(normalized(text)))


def f1(expected: str, found: str) -> float:
    want, got = tokens(expected), tokens(found)
    overlap = sum((want & got).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(got.values()), overlap / sum(want.values())
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True)
class Reading:
    """What one extractor read from a page."""

    text: str
    blocks: tuple[str, ...]
    title: str | None
    date: dt.date | None


@dataclass(frozen=True)
class Score:
    f1: float
    title: bool
    date: bool


def ours(html: str) -> Reading:
    """The pipeline's reading: the cleaned blocks, and the metadata the documents table gets."""
    cleaned = clean(html, "html")
    metadata = extract_metadata(cleaned)
    return Reading(cleaned.text, tuple(b.text for b in cleaned.blocks), metadata.title, metadata.published_at)


def trafilatura_alone(html: str) -> Reading:
    """trafilatura's default extraction (text, title and date), as a user of it would call it."""
    document = trafilatura.bare_extraction(html, with_metadata=True)
    if document is None:
        return Reading("", (), None, None)
    date = dt.date.fromisoformat(document.date[:10]) if document.date else None
    text = document.text or ""
    return Reading(text, tuple(text.splitlines()), document.title, date)


def score(reading: Reading, text: str, title: str | None, date: dt.date | None) -> Score:
    same_title = (reading.title is None and title is None) or (
        reading.title is not None and title is not None and normalized(reading.title) == normalized(title)
    )
    return Score(f1(text, reading.text), same_title, reading.date == date)


def leaks(reading: Reading, furniture: Iterable[str]) -> list[str]:
    """The furniture texts that ended up in a block of `reading`."""
    blocks = [normalized(block) for block in reading.blocks]
    return [text for text in furniture if any(normalized(text) in block for block in blocks)]
