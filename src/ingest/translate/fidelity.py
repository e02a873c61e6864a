"""Does a translation keep the source's checkable facts: names, versions, numbers, percentages?

Machine translation is fluent where it is wrong: a dropped "75%" or an "H100" turned
into "H10" reads fine. This check extracts what can be compared mechanically from the
source segment and looks for an equal form in the English translation:

* product/hardware names — a token that starts with a Latin letter and contains a digit
  (H100, A100-80G, v5p-256, C++17, FP16, FlashAttentionV2), optionally after a product-line
  word (RTX A2000); compared case-insensitively and ignoring `-`, `_` and spaces;
* versions — dotted numbers with three or more parts (8.5.0), or two parts after a
  Latin word or `v` (PyTorch 2.5, CUDA 11.7); compared as written;
* percentages — compared by value, and must carry `%`/percent in the translation;
* numbers — with CJK and English magnitudes (100万 = 1 million = 1,000,000), English
  number words (2倍 = twice = 2x = 2 times), months (7月 = July), simple fractions
  (1/4 = a quarter = 4x less); compared by value at written precision (ingest.numbers).

Deliberately not checked: bare kanji numerals (一般, 一つ and 数百 are idioms more often
than quantities) and the number 1 without magnitude or decimals (English turns it into
"a"/"an"). Digits inside names and versions are not numbers. URLs and HTML tags are
ignored on both sides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..extract.numbers import NUMBER_RE, Number, parse_number, to_halfwidth, values_agree
from ..lang import profile

# --------------------------------------------------------------------------- data

NAME_PREFIXES = (
    "RTX", "GTX", "Quadro", "Tesla", "Radeon", "Instinct", "Xeon", "EPYC", "Ryzen", "Arc",
)
ENGLISH_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
ENGLISH_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12,
    "twice": 2, "double": 2, "doubled": 2, "triple": 3, "tripled": 3, "quadruple": 4,
    "quadrupled": 4,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}
MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)
# "1/N of" is as often rendered "N times less" as "a quarter of".
FRACTION_WORDS = {2: ("half", "halve", "halved"), 3: ("third",), 4: ("quarter", "fourth")}

# --------------------------------------------------------------------------- patterns

IGNORED_RE = re.compile(r"https?://\S+|<[^>\n]*>")
_PREFIX_ALT = "|".join(NAME_PREFIXES)
NAME_RE = re.compile(
    rf"(?<![A-Za-z0-9_.+\-])(?:(?P<prefix>{_PREFIX_ALT})\s)?"
    r"(?P<core>[A-Za-z](?:[A-Za-z0-9]|[\-_.+](?=[A-Za-z0-9+]))*)"
)
BARE_VERSION_RE = re.compile(r"^[vV]\d+(?:\.\d+)*$")
# ASCII-only boundaries: Python counts CJK characters as \w, and "バージョン8.5.0" is a version.
_LONG_VERSION = r"(?<![A-Za-z0-9_.])[vV]?(?P<long>\d+(?:\.\d+){2,})(?![A-Za-z0-9]|\.\d)"
LONG_VERSION_RE = re.compile(_LONG_VERSION)
# Two-part versions need a product word or "v" before them; "2.5倍" is a number.
VERSION_RE = re.compile(
    _LONG_VERSION + r"|(?P<lead>(?<![A-Za-z])[vV]|[A-Za-z][A-Za-z+]*\s?)(?P<short>\d+\.\d+)"
    r"(?![A-Za-z0-9%]|\.\d|\s?[万萬亿億倍])"
)
FRACTION_RE = re.compile(r"(?<![\d/.])(?P<num>\d{1,2})\s?/\s?(?P<den>\d{1,2})(?![\d/])")
PERCENT_AFTER_RE = re.compile(r"\s?(?:%|パーセント|percent(?:age)?|per\s?cent)", re.IGNORECASE)
SCALE_AFTER_RE = re.compile(rf"\s*-?\s*(?P<scale>{'|'.join(ENGLISH_SCALES)})s?\b", re.IGNORECASE)
NUMBER_WORD_RE = re.compile(rf"\b(?P<word>{'|'.join(ENGLISH_NUMBER_WORDS)})\b", re.IGNORECASE)


@dataclass(frozen=True)
class FidelityIssue:
    """One fact of the source that the translation does not carry."""

    kind: str  # "name" | "version" | "percent" | "number"
    expected: str  # as written in the source
    detail: str


@dataclass(frozen=True)
class _Quantity:
    """A number found in the translation."""

    number: Number
    is_percent: bool


def check_fidelity(source: str, translation: str, lang: str) -> list[FidelityIssue]:
    """The source's names, versions, percentages and numbers missing from `translation`."""
    src, dst = _prepare(source), _prepare(translation)
    issues = [_missing("name", name) for name in _names(src) if not _has_name(dst, name)]
    src, dst = NAME_RE.sub(_blank_if_name, src), NAME_RE.sub(_blank_if_name, dst)
    issues += [_missing("version", v) for v in _versions(src) if not _has_version(dst, v)]
    # In English, "by 2.5 times" looks like a short version, so only long ones are masked.
    src, dst = VERSION_RE.sub(" ", src), LONG_VERSION_RE.sub(" ", dst)
    quantities = list(_quantities(dst))
    issues += [
        _missing("number", match.group(0))
        for match in FRACTION_RE.finditer(src)
        if not _has_fraction(dst, quantities, int(match["num"]), int(match["den"]))
    ]
    src = FRACTION_RE.sub(" ", src)
    issues += list(_number_issues(src, dst, quantities, lang))
    return _unique(issues)


def _prepare(text: str) -> str:
    return IGNORED_RE.sub(" ", to_halfwidth(text))


def _missing(kind: str, expected: str) -> FidelityIssue:
    return FidelityIssue(kind, expected, f"{kind} {expected!r} of the source is missing from the translation")


def _unique(issues: Iterable[FidelityIssue]) -> list[FidelityIssue]:
    return list(dict.fromkeys(issues))


# --------------------------------------------------------------------------- names


def _is_name(core: str) -> bool:
    return any(c.isdigit() for c in core) and not BARE_VERSION_RE.match(core)


def _names(text: str) -> list[str]:
    return [
        " ".join(filter(None, (m["prefix"], m["core"])))
        for m in NAME_RE.finditer(text)
        if _is_name(m["core"])
    ]


def _blank_if_name(match: re.Match) -> str:
    return " " if _is_name(match["core"]) else match.group(0)


def _has_name(text: str, name: str) -> bool:
    # Separators are optional between every character: "A100-80G" = "A100 80G" = "a10080g".
    chars = [re.escape(c) for c in re.sub(r"[\s\-_]", "", name)]
    pattern = r"(?<![A-Za-z0-9])" + r"[\s\-_]?".join(chars) + r"s?(?![A-Za-z0-9])"
    return re.search(pattern, text, re.IGNORECASE) is not None


# --------------------------------------------------------------------------- versions


def _versions(text: str) -> list[str]:
    return [m["long"] or m["short"] for m in VERSION_RE.finditer(text)]


def _has_version(text: str, version: str) -> bool:
    pattern = rf"(?<![\d.])[vV]?{re.escape(version)}(?!\d|\.\d)"
    return re.search(pattern, text) is not None


# --------------------------------------------------------------------------- numbers


def _quantities(text: str) -> Iterator[_Quantity]:
    """Every number in English text, with `million`-style scales and number words."""
    for match in NUMBER_RE.finditer(text):
        number = parse_number(match.group(0))
        if number is not None:
            yield _scaled(number, text, match.end())
    for match in NUMBER_WORD_RE.finditer(text):
        value = float(ENGLISH_NUMBER_WORDS[match["word"].lower()])
        yield _scaled(Number(value, 0.5), text, match.end())


def _scaled(number: Number, text: str, end: int) -> _Quantity:
    scale = SCALE_AFTER_RE.match(text, end)
    factor = ENGLISH_SCALES[scale["scale"].lower()] if scale else 1.0
    after = scale.end() if scale else end
    return _Quantity(
        Number(number.value * factor, number.tolerance * factor),
        is_percent=PERCENT_AFTER_RE.match(text, after) is not None,
    )


def _number_issues(
    src: str, dst: str, quantities: list[_Quantity], lang: str
) -> Iterator[FidelityIssue]:
    for match in NUMBER_RE.finditer(src):
        written = match.group(0)
        number = parse_number(written)
        if number is None or _is_plain_one(written, number):
            continue
        is_percent = PERCENT_AFTER_RE.match(src, match.end()) is not None
        if is_percent:
            if not _has_quantity(quantities, number, percent=True):
                yield _missing("percent", f"{written}%")
        elif _is_month(src, match, number, lang):
            if not (_has_quantity(quantities, number) or _has_month_name(dst, number)):
                yield _missing("number", written + (profile(lang).month_suffix or ""))
        elif not _has_quantity(quantities, number):
            yield _missing("number", written)


def _is_plain_one(written: str, number: Number) -> bool:
    return number.value == 1 and written.strip() == "1"


def _is_month(src: str, match: re.Match, number: Number, lang: str) -> bool:
    suffix = profile(lang).month_suffix  # 月 in Japanese and Chinese; none in English
    is_month_number = number.value.is_integer() and 1 <= number.value <= 12
    return bool(suffix) and is_month_number and src.startswith(suffix, match.end())


def _has_month_name(text: str, number: Number) -> bool:
    name = MONTH_NAMES[int(number.value) - 1]
    return re.search(rf"\b(?:{name}|{name[:3]}\.?)\b", text, re.IGNORECASE) is not None


def _has_quantity(quantities: list[_Quantity], number: Number, percent: bool = False) -> bool:
    return any(values_agree(number, q.number) and (q.is_percent or not percent) for q in quantities)


def _has_fraction(text: str, quantities: list[_Quantity], num: int, den: int) -> bool:
    if re.search(rf"(?<!\d){num}\s?/\s?{den}(?!\d)", text):
        return True
    if _has_quantity(quantities, Number(100 * num / den, 0.5), percent=True):
        return True
    if num != 1:
        return False
    words = FRACTION_WORDS.get(den, ())
    has_word = any(re.search(rf"\b{w}\b", text, re.IGNORECASE) for w in words)
    return has_word or _has_quantity(quantities, Number(float(den), 0.5))
