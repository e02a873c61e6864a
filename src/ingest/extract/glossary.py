"""The multilingual subject glossary (`glossary.yaml`): canonical subjects and their aliases in
any language, found in text by exact key lookup on case- and space-folded text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml


@dataclass(frozen=True)
class SubjectMention:
    """A candidate subject named in a segment: its id, as written, where."""

    subject: str
    surface: str
    start: int
    end: int


_LATIN_WORD_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_LATIN_WORD_AFTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True)
class _Alias:
    key: str  # casefolded, whitespace removed
    subject: str
    latin_start: bool  # must not continue a Latin word ("ACL" inside "mkldnn_acl", "ITT" in "torch.itt")
    latin_end: bool


_WHITESPACE = re.compile(r"\s+")  # `\s` is str.isspace(): the characters folding drops


def _fold(text: str) -> tuple[str, Sequence[int]]:
    """`text` casefolded without whitespace, and the original index of every folded character."""
    folded = text.casefold()
    if len(folded) == len(text):  # every character folds to one (nearly always): whole-string calls suffice
        if not _WHITESPACE.search(text):
            return folded, range(len(text))
        return _WHITESPACE.sub("", folded), [i for i, char in enumerate(text) if not char.isspace()]
    chars, positions = [], []  # a character folds to several ("ß" -> "ss"): each maps to its source
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
    return [
        _Alias(
            _fold(alias)[0], subject, alias[:1].isascii() and alias[:1].isalnum(), alias[-1:].isascii() and alias[-1:].isalnum()
        )
        for subject, entry in glossary().items()
        for alias in entry["aliases"]
    ]


def _trie_pattern(keys: Iterable[str]) -> str:
    """An alternation of `keys` with shared prefixes factored out ("ab|ac" -> "a(?:b|c)"), so that at
    each position `re` follows one branch per character instead of testing ~120 keys one by one.
    Greedy, so it matches the longest key that starts at a position."""
    trie: dict = {}
    for key in keys:
        node = trie
        for char in key:
            node = node.setdefault(char, {})
        node[""] = {}  # a key ends here

    def pattern(node: dict) -> str:
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        ends_here = "" in node
        if len(branches) == 1 and not ends_here:
            return branches[0]
        return "(?:" + "|".join(branches) + ")" + ("?" if ends_here else "")

    return pattern(trie)


@dataclass(frozen=True)
class _AliasIndex:
    longest: re.Pattern  # captures the longest alias key starting at a position
    prefixes: dict[str, list[list[_Alias]]]  # per key: the aliases of it and of every key it starts with


@lru_cache(maxsize=1)
def _alias_index() -> _AliasIndex:
    by_key: dict[str, list[_Alias]] = {}
    for alias in _aliases():
        by_key.setdefault(alias.key, []).append(alias)  # glossary order: the first of equal matches wins
    prefixes = {key: [by_key[key[:n]] for n in range(len(key), 0, -1) if key[:n] in by_key] for key in by_key}
    return _AliasIndex(re.compile(f"(?=({_trie_pattern(by_key)}))"), prefixes)


def _occurrences(folded: str) -> Iterable[tuple[int, _Alias]]:
    """(position in `folded`, alias) of every alias occurrence, overlapping ones included: one regex
    scan finds the longest key at each position where one starts; the shorter ones there are its prefixes."""
    index = _alias_index()
    for match in index.longest.finditer(folded):
        at = match.start()
        for aliases in index.prefixes[match[1]]:
            for alias in aliases:
                yield at, alias


def glossary_mentions(text: str) -> list[SubjectMention]:
    """Every glossary subject named in `text`, ignoring case and spacing; the longest alias wins.

    Search on the folded text: far cheaper than one regex with optional whitespace between
    every character of ~150 aliases.
    """
    folded, positions = _fold(text)
    candidates = []
    for at, alias in _occurrences(folded):
        start, end = positions[at], positions[at + len(alias.key) - 1] + 1
        if alias.latin_start and start > 0 and text[start - 1] in _LATIN_WORD_BEFORE:
            continue
        if alias.latin_end and end < len(text) and text[end] in _LATIN_WORD_AFTER:
            continue
        candidates.append(SubjectMention(alias.subject, text[start:end], start, end))
    mentions: list[SubjectMention] = []
    for mention in sorted(candidates, key=lambda m: (m.start, -(m.end - m.start))):
        if not mentions or mention.start >= mentions[-1].end:
            mentions.append(mention)
    return mentions


FEATURE_MARK = "~"  # joins a feature's owner and the concepts of its words (`subjects.status_topic`)


def subject_label(subject: str) -> str:
    """A readable English name for a subject id ("r9~pet~mode": "r9 pet mode")."""
    entry = glossary().get(subject)
    if entry:
        return entry["label"]
    owner, *words = subject.split(FEATURE_MARK)
    return " ".join([owner.split(":", 1)[-1], *(word.split("|")[0] for word in words)])
