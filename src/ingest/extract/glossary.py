"""The multilingual subject glossary (`glossary.yaml`): canonical subjects and their aliases in
any language, found in text by plain substring search on case- and space-folded text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable

import yaml


@dataclass(frozen=True)
class Mention:
    subject: str
    surface: str
    start: int
    end: int




_LATIN_WORD_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_LATIN_WORD_AFTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True)
class _Alias:
    key: str            # casefolded, whitespace removed
    subject: str
    latin_start: bool   # must not continue a Latin word ("ACL" inside "mkldnn_acl", "ITT" in "torch.itt")
    latin_end: bool


def _fold(text: str) -> tuple[str, list[int]]:
    """`text` casefolded without whitespace, and the original index of every folded character."""
    chars, positions = [], []
    for index, char in enumerate(text):
        if not char.isspace():
            folded = char.casefold()
            chars.append(folded)
            positions.extend([index] * len(folded))
    return "".join(chars), positions


@lru_cache(maxsize=1)
def glossary() -> dict[str, dict]:
    text = resources.files(__package__).joinpath("glossary.yaml").read_text("utf-8")
    return yaml.safe_load(text)


@lru_cache(maxsize=1)
def _aliases() -> list[_Alias]:
    return [_Alias(_fold(alias)[0], subject, alias[:1].isascii() and alias[:1].isalnum(),
                   alias[-1:].isascii() and alias[-1:].isalnum())
            for subject, entry in glossary().items() for alias in entry["aliases"]]


def _occurrences(folded: str, key: str) -> Iterable[int]:
    start = folded.find(key)
    while start != -1:
        yield start
        start = folded.find(key, start + 1)


def glossary_mentions(text: str) -> list[Mention]:
    """Every glossary subject named in `text`, ignoring case and spacing; the longest alias wins.

    Plain substring search on the folded text: far cheaper than one regex with optional
    whitespace between every character of ~150 aliases.
    """
    folded, positions = _fold(text)
    candidates = []
    for alias in _aliases():
        for at in _occurrences(folded, alias.key):
            start, end = positions[at], positions[at + len(alias.key) - 1] + 1
            if alias.latin_start and start > 0 and text[start - 1] in _LATIN_WORD_BEFORE:
                continue
            if alias.latin_end and end < len(text) and text[end] in _LATIN_WORD_AFTER:
                continue
            candidates.append(Mention(alias.subject, text[start:end], start, end))
    mentions: list[Mention] = []
    for mention in sorted(candidates, key=lambda m: (m.start, -(m.end - m.start))):
        if not mentions or mention.start >= mentions[-1].end:
            mentions.append(mention)
    return mentions


def subject_label(subject: str) -> str:
    """A readable English name for a subject id."""
    entry = glossary().get(subject)
    if entry:
        return entry["label"]
    return subject.split(":", 1)[-1]
