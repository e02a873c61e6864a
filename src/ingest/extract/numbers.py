"""Numbers as written in ja/zh/en technical prose, turned into comparable values.

Every mention keeps the precision it was written with (`tolerance`): half a
unit of its last written digit, capped at 5 % of the value so that a coarse
"2x" does not swallow "1.53x". "3万" is 30,000 ± 1,500 while "29.8k" is
29,800 ± 50, so the two agree and "2万" vs "20万" does not. Input is expected NFKC-normalised (the cleaner does that),
but full-width digits are normalised here too so the module stands alone.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from ..lang import profiles

# Latin magnitude letters, glued to digits in any language ("175B", "64k").
_LATIN_MAGNITUDES: dict[str, float] = {"k": 1_000, "K": 1_000, "M": 1_000_000, "B": 1_000_000_000,
                                       "T": 1_000_000_000_000}


def _merged(key: str) -> dict[str, float]:
    """One table of every language profile's CJK numerals or magnitudes."""
    return {char: value for profile in profiles().values() for char, value in getattr(profile, key).items()}


_CJK_DIGITS = _merged("numerals")
_CJK_MAGNITUDES = _merged("magnitudes")
# Below 10,000 a magnitude multiplies the digit before it (三千); from 10,000 (万, 億) it
# multiplies everything before it (一万二千 = (1) x 10,000 + 2,000).
_CJK_SMALL_UNITS = {char: value for char, value in _CJK_MAGNITUDES.items() if value < 10_000}
_CJK_BIG_UNITS = {char: value for char, value in _CJK_MAGNITUDES.items() if value >= 10_000}
MAGNITUDES: dict[str, float] = {**_CJK_MAGNITUDES, **_LATIN_MAGNITUDES}
CJK_NUMERAL_CHARS = "".join(_CJK_DIGITS) + "".join(_CJK_SMALL_UNITS) + "".join(_CJK_BIG_UNITS)

_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# Latin magnitude letters only count when glued to the digits and not starting a word
# ("175B", "64k"), so "7 billion" or "3 Mbps" are left to unit handling.
_LATIN_MAG = r"[kKMBT](?![A-Za-z])"
_HUNDREDS = "".join(char for char, value in _CJK_SMALL_UNITS.items() if value >= 100)
# A CJK magnitude after digits: 万, 億, or 千万 / 百万 (3千万 = 30,000,000).
_CJK_MAG = rf"[{''.join(_CJK_BIG_UNITS)}]|[{_HUNDREDS}][{''.join(_CJK_BIG_UNITS)}]"
# CJK characters count as \w in Python, so the left edge names Latin letters and digits
# explicitly: "量を3M" and "は10GB/秒" hold numbers, "A100" and "v1.12" do not.
NUMBER_RE = re.compile(
    rf"(?<![A-Za-z0-9_.])(?P<num>{_DIGITS})(?:(?P<cjkmag>\s?(?:{_CJK_MAG}))|(?P<latmag>{_LATIN_MAG}))?"
)
CJK_NUMBER_RE = re.compile(rf"[{CJK_NUMERAL_CHARS}]+")

RELATIVE_TOLERANCE_CAP = 0.05


def written_tolerance(value: float, half_unit: float) -> float:
    """Half a unit of the last written digit, at most 5 % of the value (never 0 for 0)."""
    return min(half_unit, RELATIVE_TOLERANCE_CAP * abs(value)) if value else half_unit


@dataclass(frozen=True)
class Number:
    """A parsed number: its value and half a unit of its last written digit."""

    value: float
    tolerance: float


def to_halfwidth(text: str) -> str:
    """Full-width digits and signs to ASCII, the rest unchanged."""
    return unicodedata.normalize("NFKC", text)


def _decimal_unit(digits: str) -> float:
    """The value of one unit in the last written digit: '29.8' -> 0.1, '30' -> 1."""
    if "." in digits:
        return 10.0 ** -len(digits.split(".", 1)[1])
    return 1.0


def _magnitude(suffix: str | None) -> float:
    if not suffix:
        return 1.0
    suffix = suffix.strip()
    factor = 1.0
    for char in suffix:
        factor *= MAGNITUDES[char]
    return factor


def parse_cjk_numeral(text: str) -> int | None:
    """Value of a Chinese/Japanese numeral such as '二十', '三千五百', '一万二千'; None if not one."""
    if not text or any(c not in CJK_NUMERAL_CHARS for c in text):
        return None
    total, section, digit = 0, 0, None
    for char in text:
        if char in _CJK_DIGITS:
            digit = _CJK_DIGITS[char]
        elif char in _CJK_SMALL_UNITS:
            section += (1 if digit is None else digit) * _CJK_SMALL_UNITS[char]
            digit = None
        else:
            section += digit or 0
            total = (total + section) * _CJK_BIG_UNITS[char]
            section, digit = 0, None
    return total + section + (digit or 0)


def parse_number(text: str) -> Number | None:
    """Parse one written number ('3万', '29.8k', '1,000', '1.5亿', '二十'); None if it is not one."""
    text = to_halfwidth(text).strip()
    match = NUMBER_RE.fullmatch(text)
    if match:
        digits = match.group("num").replace(",", "")
        factor = _magnitude(match.group("cjkmag") or match.group("latmag"))
        value = float(digits) * factor
        return Number(value, written_tolerance(value, _decimal_unit(digits) * factor / 2))
    cjk = parse_cjk_numeral(text)
    if cjk is not None:
        return Number(float(cjk), written_tolerance(float(cjk), 0.5))
    return None


def values_agree(a: Number, b: Number) -> bool:
    """True when two written numbers can be the same quantity at their written precision."""
    return abs(a.value - b.value) <= max(a.tolerance, b.tolerance) + 1e-9


def canonical(value: float) -> str:
    """A stable text form for a value: 30000.0 -> '30000', 97.5 -> '97.5'.

    Six significant digits at most, never an exponent (1e20 -> '100000000000000000000',
    1.5e-07 -> '0.00000015'), so `parse_number` reads every finite form back; an overflowed
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
