"""Document metadata from what a document declares (front matter, a web page's meta tags) and
the labelled lines and bylines near the top of an article; labels and byline patterns are every
language profile's data (lang/<code>/language.yaml; dates are read by the one reader of figures,
with each language's date patterns), the front matter keys common data (lang/common.yaml)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from .extract.reader import first_date
from .lang import common_rules, profiles
from .records import HEADING, Cleaned, Metadata

_HEAD_BLOCKS = 12
_LABEL = r"\s*:\s*"  # blocks are NFKC-normalised: a full-width colon is ":" here
_TITLE_MAX = 160


@dataclass(frozen=True)
class _LabelledLines:
    published: re.Pattern
    source_url: re.Pattern
    translator: re.Pattern
    author: re.Pattern
    published_byline: re.Pattern  # group 'date'
    author_byline: re.Pattern  # group 'who'


@lru_cache(maxsize=1)
def _labelled_lines() -> _LabelledLines:
    """Patterns of the labelled metadata lines, with the labels of every language profile."""

    def labels(kind: str) -> str:
        words = sorted({w for p in profiles().values() for w in p.metadata_labels.get(kind, ())}, key=len, reverse=True)
        return "|".join(map(re.escape, words)) or "(?!)"

    def bylines(kind: str) -> str:
        patterns = [p for profile in profiles().values() for p in profile.bylines.get(kind, ())]
        return "|".join(f"(?:{pattern})" for pattern in patterns) or "(?!)"

    return _LabelledLines(
        published=re.compile(rf"^(?:{labels('published')}){_LABEL}", re.I),
        source_url=re.compile(rf"^(?:{labels('source')}){_LABEL}<?(?P<url>https?://\S+?)>?$", re.I),
        translator=re.compile(rf"^(?:{labels('translator')}){_LABEL}(?P<who>.+)$", re.I),
        author=re.compile(rf"^(?:{labels('author')}){_LABEL}(?P<who>.+)$", re.I),
        published_byline=re.compile(_numbered_groups(bylines("published"), "date"), re.I),
        author_byline=re.compile(_numbered_groups(bylines("author"), "who"), re.I),
    )


def _numbered_groups(pattern: str, name: str) -> str:
    """`pattern` (alternatives joined) with its groups `name` renamed name0, name1...: a regex may
    not repeat a group name, and each language's alternative has its own."""
    count = iter(range(pattern.count(f"(?P<{name}>")))
    return re.sub(rf"\(\?P<{name}>", lambda _: f"(?P<{name}{next(count)}>", pattern)


def _group(match: re.Match, name: str) -> str | None:
    return next((value for key, value in match.groupdict().items() if key.startswith(name) and value), None)


def parse_date(text: str) -> dt.date | None:
    """The first whole calendar date in `text` ('2024年10月17日', '2025 年 2 月 1 日', '2024-07-24',
    'March 4, 2025'), as the reader of figures reads it."""
    found = first_date(text)
    return dt.date.fromisoformat(found) if found else None


def _front_matter_date(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return parse_date(str(value)) if value else None


def _declared(cleaned: Cleaned, kind: str) -> object:
    """The first value the document declares under one of the front matter keys of `kind`."""
    for key in common_rules()["front_matter_keys"][kind]:
        value = cleaned.declared.get(key)
        if isinstance(value, list):  # authors: [a, b]
            value = ", ".join(map(str, value))
        if value not in (None, ""):
            return value
    return None


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
    """Title, publication date, original URL, translator and author where the article states them:
    what it declares first, then its labelled lines ("发布: 2024年10月17日"), then its bylines
    ("※この投稿は米国時間 2025 年 2 月 1 日に…"), then (a date) any date near its top."""
    patterns = _labelled_lines()
    lines = [block.text for block in cleaned.blocks[:_HEAD_BLOCKS]]
    published = _front_matter_date(_declared(cleaned, "published"))
    if published is None:
        labelled = [line for line in lines if patterns.published.match(line)]
        bylines = [date for line in lines if (match := patterns.published_byline.match(line)) and (date := _group(match, "date"))]
        published = next(filter(None, map(parse_date, labelled + bylines + lines)), None)
    byline_author = next(
        (who.strip() for line in lines if (match := patterns.author_byline.match(line)) and (who := _group(match, "who"))), None
    )
    source, translator, author = (_declared(cleaned, kind) for kind in ("source", "translator", "author"))
    return Metadata(
        title=_title(cleaned),
        published_at=published,
        source_url=str(source) if source else _first_match(patterns.source_url, lines, "url"),
        translator=str(translator) if translator else _first_match(patterns.translator, lines, "who"),
        author=str(author) if author else _first_match(patterns.author, lines, "who") or byline_author,
    )
