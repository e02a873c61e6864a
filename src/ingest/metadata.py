"""Document metadata from front matter and the labelled lines near the top of an article."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from .clean import HEADING, Cleaned

_HEAD_BLOCKS = 12
_DATE = re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:年|[-/.])\s*(?P<m>\d{1,2})\s*(?:月|[-/.])\s*(?P<d>\d{1,2})\s*日?")
_LABEL = r"\s*[:：]\s*"
_PUBLISHED = re.compile(rf"^(?:发布|發布|公開|公开|投稿|published|date|日期|公開日|更新){_LABEL}", re.I)
_URL_LINE = re.compile(rf"^(?:原文|元記事|original|source|出典){_LABEL}<?(?P<url>https?://\S+?)>?$", re.I)
_TRANSLATOR = re.compile(rf"^(?:译者|譯者|翻訳|翻译者|translator){_LABEL}(?P<who>.+)$", re.I)
_AUTHOR = re.compile(rf"^(?:作者|著者|author|by){_LABEL}(?P<who>.+)$", re.I)
_TITLE_MAX = 160


@dataclass(frozen=True)
class Metadata:
    title: str | None = None
    published_at: dt.date | None = None
    source_url: str | None = None
    translator: str | None = None
    author: str | None = None


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
    if cleaned.front_matter.get("title"):
        return str(cleaned.front_matter["title"]).strip()
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
    front = cleaned.front_matter
    lines = [block.text for block in cleaned.blocks[:_HEAD_BLOCKS]]
    published = _front_matter_date(front.get("date"))
    if published is None:
        labelled = [line for line in lines if _PUBLISHED.match(line)]
        published = next(filter(None, map(parse_date, labelled + lines)), None)
    return Metadata(
        title=_title(cleaned),
        published_at=published,
        source_url=_first_match(_URL_LINE, lines, "url"),
        translator=_first_match(_TRANSLATOR, lines, "who"),
        author=str(front["author"]) if front.get("author") else _first_match(_AUTHOR, lines, "who"),
    )
