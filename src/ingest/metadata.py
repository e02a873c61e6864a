"""Document metadata from front matter and the labelled lines near the top of an article."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from .lang import profiles
from .records import HEADING, Cleaned, Metadata

_HEAD_BLOCKS = 12
_DATE = re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:年|[-/.])\s*(?P<m>\d{1,2})\s*(?:月|[-/.])\s*(?P<d>\d{1,2})\s*日?")
_LABEL = r"\s*[:：]\s*"
_TITLE_MAX = 160


@dataclass(frozen=True)
class _LabelledLines:
    published: re.Pattern
    source_url: re.Pattern
    translator: re.Pattern
    author: re.Pattern


@lru_cache(maxsize=1)
def _labelled_lines() -> _LabelledLines:
    """Patterns of the labelled metadata lines, with the labels of every language profile."""
    def labels(kind: str) -> str:
        words = sorted({w for p in profiles().values() for w in p.metadata_labels.get(kind, ())}, key=len, reverse=True)
        return "|".join(map(re.escape, words)) or "(?!)"
    return _LabelledLines(
        published=re.compile(rf"^(?:{labels('published')}){_LABEL}", re.I),
        source_url=re.compile(rf"^(?:{labels('source')}){_LABEL}<?(?P<url>https?://\S+?)>?$", re.I),
        translator=re.compile(rf"^(?:{labels('translator')}){_LABEL}(?P<who>.+)$", re.I),
        author=re.compile(rf"^(?:{labels('author')}){_LABEL}(?P<who>.+)$", re.I))


def parse_date(text: str) -> dt.date | None:
    """The first plausible calendar date in `text` ('2024年10月17日', '2025 年 2 月 1 日', '2024-07-24')."""
    for match in _DATE.finditer(text):
        try:
            return dt.date(int(match["y"]), int(match["m"]), int(match["d"]))
        except ValueError:
            continue
    return None


def _front_matter_date(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return parse_date(str(value)) if value else None


def _title(cleaned: Cleaned) -> str | None:
    if cleaned.declared.get("title"):
        return str(cleaned.declared["title"]).strip()
    for block in cleaned.blocks[:3]:
        if block.kind == HEADING and len(block.text) <= _TITLE_MAX:
            return block.text
    return None


def _first_match(pattern: re.Pattern, lines: list[str], group: str) -> str | None:
    for line in lines:
        match = pattern.match(line)
        if match:
            return match[group].strip()
    return None


def extract_metadata(cleaned: Cleaned) -> Metadata:
    """Title, publication date, original URL, translator and author where the article states them."""
    front, patterns = cleaned.declared, _labelled_lines()
    lines = [block.text for block in cleaned.blocks[:_HEAD_BLOCKS]]
    published = _front_matter_date(front.get("date"))
    if published is None:
        labelled = [line for line in lines if patterns.published.match(line)]
        published = next(filter(None, map(parse_date, labelled + lines)), None)
    return Metadata(
        title=_title(cleaned),
        published_at=published,
        source_url=_first_match(patterns.source_url, lines, "url"),
        translator=_first_match(patterns.translator, lines, "who"),
        author=str(front["author"]) if front.get("author") else _first_match(patterns.author, lines, "who"),
    )
