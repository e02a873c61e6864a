"""How figures are written, as data: the value of a numeral, the precision a figure was written
at, and the words and patterns the reader (`reader`) reads with.

Every figure keeps the precision it was written with (`written_tolerance`): half a unit of its
last written digit, capped at 5 % of the value so that a coarse "2x" does not swallow "1.53x".
"3万" is 30,000 ± 1,500 while "29.8k" is 29,800 ± 50, so the two agree and "2万" vs "20万" do not.

The vocabulary — numerals and magnitudes, number words, scales, multiplier words, counters, range
joiners, vague words, idioms, reference and version words, percent and multiplier words, date
patterns and month names — is merged from every language profile (`lang/<code>/language.yaml`,
`numbers:`), because technical prose in one language quotes another; the signs every language
shares are in `lang/common.yaml`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from ..lang import common_rules, every_language, profiles

# Larger than any figure prose states (10^30): a run of magnitudes, not a number.
LARGEST_FIGURE = 1e30

RELATIVE_TOLERANCE_CAP = 0.05


# ---- values ------------------------------------------------------------------------------------


def written_tolerance(value: float, half_unit: float) -> float:
    """Half a unit of the last written digit, at most 5 % of the value (never 0 for 0)."""
    return min(half_unit, RELATIVE_TOLERANCE_CAP * abs(value)) if value else half_unit


# How far a hedge widens a value: "about 300" holds 270-330, "almost 300" 270-300, "over 300"
# 300-600 (a writer who means ten times more says so: "over 30 million" is not "over 3 million").
ABOUT_SHARE = 0.1
ALMOST_SHARE = 0.1
OVER_FACTOR = 2.0


def hedged_bounds(value: float, value_max: float | None, tol: float, qualifier: str) -> tuple[float, float]:
    """The interval a hedged value allows: exact (its written precision), about (±10 %), almost
    (up to 10 % under it), over (it to twice it), under and up_to (it or less). Two statements
    whose intervals overlap do not contradict each other: "almost 300" and "280+" both hold 290."""
    low, high = value - tol, (value if value_max is None else value_max) + tol
    if qualifier == "about":
        return low - ABOUT_SHARE * abs(value), high + ABOUT_SHARE * abs(high)
    if qualifier == "almost":
        return low - ALMOST_SHARE * abs(value), high
    if qualifier == "over":
        return low, max(high, OVER_FACTOR * high)
    if qualifier in ("under", "up_to"):
        return min(0.0, low), high
    return low, high


def half_unit(digits: str) -> float:
    """Half a unit of the last digit written: '29.8' -> 0.05, '1,000' -> 0.5."""
    digits = digits.replace(",", "")
    return 0.5 * (10.0 ** -len(digits.split(".", 1)[1]) if "." in digits else 1.0)


def significant(digits: str) -> str:
    """The written significant digits: '1.7' -> '17', '30' -> '3', '460' -> '46', '0.5' -> '5'."""
    return digits.replace(",", "").replace(".", "").strip("0") or "0"


def canonical(value: float) -> str:
    """A stable text form for a value: 30000.0 -> '30000', 97.5 -> '97.5'.

    Six significant digits at most, never an exponent (1e20 -> '100000000000000000000',
    1.5e-07 -> '0.00000015'), so the reader reads every finite form back; an overflowed
    value (a 400-digit number) is 'inf' rather than an error.
    """
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    short = f"{value:.6g}"
    if "e" in short:
        short = format(Decimal(short), "f")
    return short


def model_size(value: float) -> str:
    """A model's parameter count as model names write it: 530e9 -> '530B', 360e6 -> '360M'."""
    for suffix, factor in (("T", 1e12), ("B", 1e9), ("M", 1e6)):
        if value >= factor:
            return f"{canonical(value / factor)}{suffix}"
    return canonical(value)


def to_halfwidth(text: str) -> str:
    """Full-width digits and signs to ASCII, the rest unchanged."""
    return unicodedata.normalize("NFKC", text)


def version_norm(text: str) -> str:
    return version_number(to_halfwidth(text).lower().lstrip("v"))


# A release's patch zeros: "3.10.0" is "3.10" written in full, one version in either notation.
_PATCH_ZEROS = re.compile(r"^(\d+\.\d+)(?:\.0)+$")


def version_number(version: str) -> str:
    """A version number in the notation every source compares in: zeros after the minor number
    dropped ("Python 3.10.0" and "Python 3.10", "cuDNN 8.5.0" and "8.5" are one version), the major
    and minor kept ("2.0" is not "2": a series is not its first release), tags kept ("1.0.0rc1")."""
    return _PATCH_ZEROS.sub(r"\1", version)


# ---- numerals ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Numerals:
    """The numerals of every profile (三 = 3) and its magnitudes (万 = 10,000), with the rules of
    their combination: below 10,000 a magnitude multiplies the digit before it (三千); from 10,000
    (万, 億) it multiplies everything before it (一万二千 = (1) x 10,000 + 2,000)."""

    digits: dict[str, int]
    magnitudes: dict[str, float]

    @property
    def small(self) -> dict[str, float]:
        return {char: value for char, value in self.magnitudes.items() if value < 10_000}

    @property
    def big(self) -> dict[str, float]:
        return {char: value for char, value in self.magnitudes.items() if value >= 10_000}

    @property
    def chars(self) -> str:
        return "".join(self.digits) + "".join(self.magnitudes)

    def value(self, text: str) -> int | None:
        """Value of a numeral such as '二十', '三千五百', '一万二千'; None if it is not one."""
        if not text or any(c not in self.digits and c not in self.magnitudes for c in text):
            return None
        small, total, section, digit = self.small, 0, 0, None
        for char in text:
            if char in self.digits:
                digit = self.digits[char]
            elif char in small:
                section += (1 if digit is None else digit) * int(small[char])
                digit = None
            else:
                section += digit or 0
                total = (total + section) * int(self.magnitudes[char])
                if total > LARGEST_FIGURE:  # "九亿亿亿…": a run of magnitudes, not a number
                    return None
                section, digit = 0, None
        return total + section + (digit or 0)

    def factor(self, magnitude: str) -> float:
        """The factor of a run of magnitudes after digits: '万' -> 1e4, '千万' -> 1e7."""
        factor = 1.0
        for char in magnitude:
            factor *= self.magnitudes[char]
        return factor

    def half_unit(self, numeral: str) -> float:
        """Half the value of the last place a numeral names: '三百万' -> 500,000, '二十' -> 5."""
        place = 1.0
        for char in reversed(numeral):
            if char not in self.magnitudes:
                break
            place *= self.magnitudes[char]
        return 0.5 * place


@lru_cache(maxsize=1)
def numerals() -> Numerals:
    return Numerals(
        {char: value for p in profiles().values() for char, value in p.numerals.items()},
        {char: value for p in profiles().values() for char, value in p.magnitudes.items()},
    )


# ---- words -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    words: dict[str, float]  # number words ("two", "dozen")
    articles: tuple[str, ...]  # articles that count one ("a year", "a hundred")
    rate_before: tuple[str, ...]  # words after which an article is "per" ("three times a week")
    topic_markers: tuple[str, ...]  # marks after the noun a figure with no noun after it counts ("サイズは7種類")
    total_prefixes: tuple[str, ...]  # ...and words between that mark and the figure ("全7種類")
    count_suffixes: tuple[str, ...]  # ...and a word for "the number of" ending the noun ("言語数は212")
    durations: dict[str, float]  # units of time in seconds ("years"): an article before one counts one
    scales: dict[str, float]  # "million"
    multipliers: dict[str, float]  # words that are a factor by themselves ("twice", "翻倍", "half")
    fraction_words: dict[str, int]  # words naming 1/N ("quarter" -> 4)
    counters: tuple[str, ...]  # classifiers that make a bare CJK numeral a figure (三个)
    article_counters: tuple[str, ...]  # ...except after 一, where they make an article ("一个" = "a")
    halves: tuple[str, ...]  # a half after a number's counter ("三年半" = 3.5 years)
    ordinal_suffixes: tuple[str, ...]  # after a number and its counter, a rank ("二つ目", "2番目")
    vague: tuple[str, ...]  # words that make a number after them an estimate ("数百", "several")
    idioms: tuple[str, ...]  # numerals inside words ("十分", "一般")
    range_words: tuple[str, ...]  # joiners of a range's two ends ("to", "至")
    references: tuple[str, ...]  # words before a figure or table number ("Figure", "图")
    version_words: tuple[str, ...]  # words before a version ("version", "版本")
    version_suffixes: tuple[str, ...]  # ...and after one ("第 12 版")
    percent_prefixes: tuple[str, ...]  # words before a numeral that make it a percentage (百分之)
    percent_words: tuple[str, ...]  # words after a number that make it a percentage ("percent")
    multiplier_suffixes: tuple[str, ...]  # words after a number that make it a factor ("倍", "times")
    decimal_points: tuple[str, ...]  # the decimal point of numerals (三点五)
    months: dict[str, int]  # month names as written in dates ("July" -> 7)
    glued_units: dict[str, str]  # letters glued to digits that are a unit ("gb" -> "GB")
    unit_scales: dict[str, tuple[str, float]]  # a unit's measure and size in its base ("MB" -> ("bytes", 1e6))
    latin_magnitudes: dict[str, float]  # letters glued to digits that are a magnitude ("B" -> 1e9)
    percent_signs: tuple[str, ...]
    multiplier_signs: tuple[str, ...]
    currency_signs: dict[str, str]  # signs before an amount, longest first ("US$" -> "USD")


def counter_follows(text: str, position: int) -> bool:
    """A counter follows the figure ending at `position`, past a space ("72基", "5 万辆")."""
    at = position + (1 if text[position : position + 1].isspace() else 0)
    return text.startswith(vocabulary().counters, at)


def longest_first(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(words), key=lambda w: (-len(w), w)))


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    def merged(key: str) -> list:
        return every_language(key, section="numbers")

    common = common_rules()
    return Vocabulary(
        words={k.lower(): float(v) for k, v in merged("words")},
        articles=longest_first(w.lower() for w in merged("articles")),
        rate_before=longest_first(w.lower() for w in merged("rate_before")),
        topic_markers=longest_first(merged("topic_markers")),
        total_prefixes=longest_first(merged("total_prefixes")),
        count_suffixes=longest_first(merged("count_suffixes")),
        durations={str(unit): float(seconds) for unit, seconds in common["durations"].items()},
        scales={k.lower(): float(v) for k, v in merged("scales")},
        multipliers={k.lower(): float(v) for k, v in merged("multipliers")},
        fraction_words={k.lower(): int(v) for k, v in merged("fraction_words")},
        counters=longest_first(merged("counters")),
        article_counters=longest_first(merged("article_counters")),
        halves=longest_first(merged("halves")),
        ordinal_suffixes=longest_first(merged("ordinal_suffixes")),
        vague=longest_first(merged("vague")),
        idioms=longest_first(merged("idioms")),
        range_words=longest_first(merged("range")),
        references=longest_first(merged("references")),
        version_words=longest_first(merged("versions")),
        version_suffixes=longest_first(merged("version_suffixes")),
        percent_prefixes=longest_first(merged("percent_prefix")),
        percent_words=longest_first(merged("percent_words")),
        multiplier_suffixes=longest_first(merged("multiplier_suffixes")),
        decimal_points=longest_first(merged("decimal_points")),
        months={k: int(v) for k, v in merged("months")},
        glued_units={str(k): str(v) for k, v in common["glued_units"].items()},
        unit_scales={str(unit): (str(base), float(size)) for unit, (base, size) in common["unit_scales"].items()},
        latin_magnitudes={str(k): float(v) for k, v in common["latin_magnitudes"].items()},
        percent_signs=tuple(common["percent_signs"]),
        multiplier_signs=tuple(common["multiplier_signs"]),
        currency_signs={sign: common["currencies"]["signs"][sign] for sign in longest_first(common["currencies"]["signs"])},
    )


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of literal words, longest first (so the longest matches); never matches if empty."""
    return "|".join(re.escape(w) for w in longest_first(words)) or "(?!)"


def word_alternation(words: Iterable[str]) -> str:
    """`alternation`, where a word ending in a Latin letter must end a word ("times", not "timestamp")."""
    return (
        "|".join(
            re.escape(w) + (r"\b" if w[-1:].isascii() and w[-1:].isalpha() else r"(?![A-Za-z0-9])") for w in longest_first(words)
        )
        or "(?!)"
    )


# ---- patterns ----------------------------------------------------------------------------------

DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# Three or more dotted numbers are a version ("0.14.5"), never a quantity.
DOTTED = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+){2,}(?!\.?\d|[A-Za-z])")
VERSION_TOKEN = re.compile(
    r"^[vV]?\d+(?:\.\d+){2,}(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?$"
    r"|^[vV]\d+(?:\.(?:\d+|\*))*(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?$"
    r"|^\d+(?:\.\d+)+(?:rc|a|b|alpha|beta|dev|post)\d*$"
)
# A URL ends at whitespace, at a character no URL holds unescaped, or at the first non-ASCII
# character (a URL in CJK prose runs into the sentence's punctuation otherwise).
URL = re.compile("(?:https?://|www\\.)[^\\s\"'<>)\\],\u0080-\U0010ffff]+(?<![.;:!?])")
ISO_DATE = r"(?P<y>(?:19|20)\d{2})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?![\d.])"


@dataclass(frozen=True)
class Patterns:
    url: re.Pattern
    dates: tuple[re.Pattern, ...]  # groups y, m, d (optional) or month (a month name)
    token: re.Pattern  # an ASCII word holding a digit: identifiers, sized models, 28B, 12GB, v1.2
    number: re.Pattern  # digits with separators and decimals, and what may follow them
    numeral: re.Pattern  # a run of CJK numerals, with a decimal part
    word_number: re.Pattern  # English number words ("two million", "twice")
    fractions: tuple[re.Pattern, ...]  # groups num, den
    reference: re.Pattern
    multiplier_word: re.Pattern  # multiplier words without Latin letters (翻倍, 半減)
    sized_model: re.Pattern  # "BART-460M": a name and a size
    magnitude_number: re.Pattern  # "28B", "400k+", "7B-parameter"
    glued_number: re.Pattern  # "12GB", "2x"
    compound_number: re.Pattern  # "14.2-inch", "20-hour", "2-GB": a number and what it counts, one adjective
    percent_word: re.Pattern  # a word after a number that makes it a percentage ("パーセント")


@lru_cache(maxsize=1)
def patterns() -> Patterns:
    words, numbers = vocabulary(), numerals()
    big = "".join(c for c, v in numbers.magnitudes.items() if v >= 10_000)
    small = "".join(c for c, v in numbers.magnitudes.items() if 100 <= v < 10_000)
    magnitude = rf"(?:[{small}]?[{big}]+)"
    latin = "".join(words.latin_magnitudes)
    month = rf"(?P<month>{alternation(words.months)})"
    point = alternation(words.decimal_points)
    signs = "".join(re.escape(sign) for sign in words.multiplier_signs)
    counted_by_article = "|".join(
        [
            alternation((*words.words, *words.scales)),
            *(
                pattern
                for unit, patterns_ in every_language("units")
                if unit in words.durations
                for pattern in patterns_
                if pattern.isascii()
            ),
        ]
    )
    return Patterns(
        url=URL,
        dates=tuple(
            re.compile(p)
            for p in dict.fromkeys((ISO_DATE, *(d.replace("{month}", month) for d in every_language("dates", section="numbers"))))
        ),
        # (a "×" before a digit multiplies two figures: "100Gbps×4" is 100Gbps and 4, not one name)
        token=re.compile(
            r"(?<![A-Za-z0-9_.\-+])(?=(?:[A-Za-z0-9_.\-+]|×(?!\d))*\d)(?=(?:[A-Za-z0-9_.\-+]|×(?!\d))*(?:[A-Za-z_]|×(?!\d)))"
            r"[A-Za-z0-9_](?:[A-Za-z0-9_.\-+]|×(?!\d))*(?:\.\*|[A-Za-z0-9_+]|×(?!\d))"
        ),
        number=re.compile(
            # not inside a word, a version or a number with separators ("1,0000"); "中,97.5%" is a number
            rf"(?<![A-Za-z0-9_.])(?<!\d,)(?P<num>{DIGITS})(?!\d|\.\d)"
            rf"(?:(?P<cjkmag>\s?{magnitude})|\s?(?P<scale>{alternation(words.scales)})s?\b)?"
            rf"(?P<plus>\+)?(?:\s?(?P<percent>{alternation(words.percent_signs)}|{word_alternation(words.percent_words)})"
            rf"|\s?(?P<times>[{signs}](?![A-Za-z0-9])|{word_alternation(words.multiplier_suffixes)})"
            rf"|(?P<tenths>{'|'.join(every_language('percent_tenths', section='numbers')) or '(?!)'}))?",
            re.I,
        ),
        numeral=re.compile(rf"[{numbers.chars}]+(?:(?:{point})[{numbers.chars}]+)?"),
        # (an article counts only before a number word, a scale or a unit of time: "a model" is no figure)
        word_number=re.compile(
            rf"\b(?:(?P<word>{alternation(words.words)}|(?:{alternation(words.articles)})(?=\s(?:{counted_by_article})\b))"
            rf"(?:[\s-](?P<word2>{alternation(words.words)}))?"
            rf"(?:\s(?P<scale>{alternation(words.scales)}))?"
            rf"|(?P<mult>{alternation(w for w in words.multipliers if w.isascii())}))\b"
            rf"(?:\s?(?P<percent>{word_alternation(words.percent_words)})"
            rf"|\s(?P<times>{word_alternation(w for w in words.multiplier_suffixes if w.isascii())}))?",
            re.I,
        ),
        fractions=tuple(
            re.compile(p)
            for p in dict.fromkeys(
                (r"(?<![\d/.,])(?P<num>\d{1,3})\s?/\s?(?P<den>\d{1,3})(?![\d/])", *every_language("fractions", section="numbers"))
            )
        ),
        reference=re.compile(rf"(?:{alternation(words.references)})\s?\d+(?:\.\d+)*"),
        multiplier_word=re.compile(alternation(w for w in words.multipliers if not w.isascii())),
        # (a model's size takes a capital: "BART-460M", "Llama-2-7B"; "dpo-mix-7k" names a data set)
        sized_model=re.compile(
            rf"^(?P<name>[A-Za-z][A-Za-z0-9_.]*(?:-[A-Za-z][A-Za-z0-9_.]*)*?(?:-\d+)?)"
            rf"-(?P<size>\d+(?:\.\d+)?)(?P<mag>[{''.join(c for c in latin if c.isupper())}])$"
        ),
        magnitude_number=re.compile(rf"^(?P<num>\d+(?:\.\d+)?)(?P<mag>[{latin}])(?P<plus>\+)?(?:-[a-z]+)?$"),
        glued_number=re.compile(r"^(?P<num>\d+(?:\.\d+)?)(?P<unit>[A-Za-z×]+)$"),
        compound_number=re.compile(r"^(?P<num>\d+(?:\.\d+)?)-(?P<word>[A-Za-z]+)(?:-[a-z]+)*$"),
        percent_word=re.compile(rf"\s?(?:{word_alternation(words.percent_words)})", re.I),
    )


def within_idiom(text: str, start: int, end: int, idioms: Iterable[str]) -> bool:
    """The numeral run [start, end) lies inside an idiom of the text ("十分", "百度", "千万不要")."""
    for idiom in idioms:
        at = text.find(idiom, max(0, end - len(idiom)))
        while at != -1 and at <= start:
            if end <= at + len(idiom):
                return True
            at = text.find(idiom, at + 1)
    return False
