"""How numbers are written, as data and patterns: the vocabulary merged from the language
profiles (number words, scales, multiplier words, counters, range joiners, vague words,
idioms, reference and version words) and the regular expressions `mentions` reads with."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from ..lang import profiles
from .numbers import CJK_NUMERAL_CHARS, MAGNITUDES, to_halfwidth

@dataclass(frozen=True)
class Vocabulary:
    words: dict[str, float]
    scales: dict[str, float]
    multipliers: dict[str, float]
    counters: tuple[str, ...]
    vague: tuple[str, ...]
    idioms: tuple[str, ...]
    range_words: tuple[str, ...]
    references: tuple[str, ...]
    version_words: tuple[str, ...]
    percent_prefixes: tuple[str, ...]


def _merged(key: str) -> list:
    items: list = []
    for profile in profiles().values():
        value = profile.numbers.get(key)
        if isinstance(value, dict):
            items.extend(value.items())
        elif value:
            items.extend(value)
    return items


@lru_cache(maxsize=1)
def number_vocabulary() -> Vocabulary:
    def longest_first(words: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(set(words), key=len, reverse=True))
    return Vocabulary(
        words={k.lower(): float(v) for k, v in _merged("words")},
        scales={k.lower(): float(v) for k, v in _merged("scales")},
        multipliers={k.lower(): float(v) for k, v in _merged("multipliers")},
        counters=longest_first(_merged("counters")), vague=longest_first(_merged("vague")),
        idioms=longest_first(_merged("idioms")), range_words=longest_first(_merged("range")),
        references=longest_first(_merged("references")), version_words=longest_first(_merged("versions")),
        percent_prefixes=longest_first(_merged("percent_prefix")))


def alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"


@dataclass(frozen=True)
class Patterns:
    url: re.Pattern
    date: re.Pattern
    token: re.Pattern         # an ASCII word holding a digit: identifiers, sized models, 28B, 12GB, v1.2
    number: re.Pattern        # digits with separators and decimals, and what may follow them
    cjk: re.Pattern           # a run of CJK numerals
    word_number: re.Pattern   # English number words ("two million", "twice")
    fraction: re.Pattern
    reference: re.Pattern
    multiplier_word: re.Pattern  # multiplier words without Latin letters (翻倍, 半減)


DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
MONTH_WORD = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
# Letters glued to digits that are a unit of the number, not part of a name ("12GB", "2x", "42K").
GLUED_UNITS = {"gb": "GB", "mb": "MB", "tb": "TB", "kb": "KB", "gib": "GB", "mib": "MB", "tib": "TB",
                "x": "x", "×": "x", "ms": "ms", "s": "s", "h": "h", "ghz": "GHz", "tflops": "TFLOPS",
                "gbps": "Gbps", "w": "W"}
LATIN_MAGNITUDE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
SIZED_MODEL = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_.]*(?:-[A-Za-z][A-Za-z0-9_.]*)*?(?:-\d+)?)"
                          r"-(?P<size>\d+(?:\.\d+)?)(?P<mag>[KMBT])$")
MAGNITUDE_NUMBER = re.compile(r"^(?P<num>\d+(?:\.\d+)?)(?P<mag>[kKMBT])(?P<plus>\+)?$")
GLUED_NUMBER = re.compile(r"^(?P<num>\d+(?:\.\d+)?)(?P<unit>[A-Za-z×]+)$")
# Three or more dotted numbers are a version ("0.14.5"), never a quantity.
DOTTED = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+){2,}(?!\.?\d|[A-Za-z])")
VERSION_TOKEN = re.compile(r"^[vV]?\d+(?:\.\d+){2,}(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?$"
                            r"|^[vV]\d+(?:\.(?:\d+|\*))*(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?$"
                            r"|^\d+(?:\.\d+)+(?:rc|a|b|alpha|beta|dev|post)\d*$")


@lru_cache(maxsize=1)
def number_patterns() -> Patterns:
    vocabulary = number_vocabulary()
    big = "".join(c for c, v in MAGNITUDES.items() if v >= 10_000 and not c.isascii())
    small = "".join(c for c, v in MAGNITUDES.items() if 100 <= v < 10_000 and not c.isascii())
    cjk_magnitude = rf"(?:[{small}]?[{big}]+)"
    scales = alternation(vocabulary.scales)
    words = alternation(vocabulary.words)
    return Patterns(
        url=re.compile(r"https?://[^\s)>\]\"'、。,，]+|www\.[^\s)>\]\"'、。,，]+"),
        date=re.compile(
            r"(?P<cjk>(?:19|20)\d{2}\s?年\s?\d{1,2}\s?月(?:\s?\d{1,2}\s?日)?)"
            r"|(?P<iso>(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2})(?![\d.])"
            rf"|(?P<en>{MONTH_WORD}\s\d{{1,2}}(?:st|nd|rd|th)?,?\s(?:19|20)\d{{2}}|\d{{1,2}}\s{MONTH_WORD}\s(?:19|20)\d{{2}})"),
        token=re.compile(r"(?<![A-Za-z0-9_.\-+])(?=[A-Za-z0-9_.\-+×]*\d)(?=[A-Za-z0-9_.\-+×]*[A-Za-z_×])"
                         r"[A-Za-z0-9_][A-Za-z0-9_.\-+×]*(?:\.\*|[A-Za-z0-9_+×])"),
        number=re.compile(
            rf"(?<![A-Za-z0-9_.,])(?P<num>{DIGITS})(?!\d|\.\d)"
            rf"(?:(?P<cjkmag>\s?{cjk_magnitude})|\s?(?P<scale>{scales})s?\b)?"
            r"(?P<plus>\+)?(?:\s?(?P<percent>%|パーセント|percent\b)|\s?(?P<times>[xX×倍](?![A-Za-z0-9])|times\b))?",
            re.I),
        cjk=re.compile(rf"[{CJK_NUMERAL_CHARS}]+(?:点[{CJK_NUMERAL_CHARS}]+)?"),
        word_number=re.compile(
            rf"\b(?:(?P<word>{words})(?:[\s-](?P<word2>{words}))?(?:\s(?P<scale>{scales}))?"
            rf"|(?P<mult>{alternation(w for w in vocabulary.multipliers if w.isascii())}))\b"
            rf"(?:\s?(?P<percent>percent\b)|\s(?P<times>times\b))?", re.I),
        fraction=re.compile(r"(?<![\d/.,])(?P<num>\d{1,3})\s?/\s?(?P<den>\d{1,3})(?![\d/])"
                            r"|(?P<den2>\d{1,3})\s?分の\s?(?P<num2>\d{1,3})"),
        reference=re.compile(rf"(?:{alternation(vocabulary.references)})\s?\d+(?:\.\d+)*"),
        multiplier_word=re.compile(alternation(w for w in vocabulary.multipliers if not w.isascii())),
    )



def half_unit(digits: str) -> float:
    digits = digits.replace(",", "")
    return 0.5 * (10.0 ** -len(digits.split(".", 1)[1]) if "." in digits else 1.0)
def significant(digits: str) -> str:
    """The written significant digits: '1.7' -> '17', '30' -> '3', '460' -> '46', '0.5' -> '5'."""
    return digits.replace(",", "").replace(".", "").strip("0") or "0"
def cjk_factor(magnitude: str) -> float:
    factor = 1.0
    for char in magnitude:
        factor *= MAGNITUDES[char]
    return factor
def cjk_half_unit(numeral: str) -> float:
    """Half the value of the last place a CJK numeral names: '三百万' -> 500,000, '二十' -> 5."""
    place = 1.0
    for char in reversed(numeral):
        if char not in MAGNITUDES:
            break
        place *= MAGNITUDES[char]
    return 0.5 * place
def within_idiom(text: str, start: int, end: int, idioms: Iterable[str]) -> bool:
    """The numeral run [start, end) lies inside an idiom of the text ("十分", "百度", "千万不要")."""
    for idiom in idioms:
        at = text.find(idiom, max(0, end - len(idiom)))
        while at != -1 and at <= start:
            if end <= at + len(idiom):
                return True
            at = text.find(idiom, at + 1)
    return False
def version_norm(text: str) -> str:
    return to_halfwidth(text).lower().lstrip("v")