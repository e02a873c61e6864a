"""The one reader of figures: every number, percentage, multiplier, fraction, version, date, sized
model and maturity label of a sentence, in any language, as a `Reading`.

Whatever the notation — ASCII or full-width digits, thousands separators, decimals, ranges
("1.69 to 2.65", "10-18%"), fractions ("1/13", "4分の1"), CJK numerals alone or mixed with
digits ("三百万", "3.4万", "1.3 万亿", "13億", "1兆"), Latin magnitudes ("28B", "1.7T", "400k",
"0.5 million", "1M+"), multiplier words ("twice", "翻倍", "两倍", "2x"), percentages — a
quantity reading carries one value (lo..hi for a range) and a tolerance: half a unit of its
last written digit, capped at 5 % (`notation.written_tolerance`), so "0.5 million" = "50万" and
"3.4万" = "34,000" while "30 million" != "三百万". Versions ("1.0.0rc1", "v0.*", "PyTorch 2.5"),
dates ("2024年10月17日" = "2024-10-17" = "October 17, 2024"; a month alone, "7月" = "July"),
sized model names ("BART-460M") and maturity labels ("[Beta]" = "测试版") keep their own
comparison; identifiers ("7B3A_A", "A100", "fp16"), URLs and figure/table numbers ("图5") are
marked as such so they are never read as quantities. The unit or counted noun after a quantity is
kept when the rules know it ("28B tokens"); a number needs none to be compared.

Entities (`entities`) are labelled readings; the mentions of the warehouse are the readings; the
fidelity check (`fidelity`) compares the readings of a sentence and of its English.

Why this module is long: it is the one place that reads figures, and the order in which a
sentence's spans are taken (URLs, references and dates before versions, versions before tokens,
tokens before numbers, numbers before words) is one piece of logic; the vocabulary and values it
reads with are in `notation`.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from ..lang import common_rules, profile
from .lexicon import word_concepts
from .notation import (
    DIGITS,
    DOTTED,
    LARGEST_FIGURE,
    VERSION_TOKEN,
    alternation,
    canonical,
    counter_follows,
    half_unit,
    hedged_bounds,
    longest_first,
    numerals,
    patterns,
    significant,
    version_norm,
    vocabulary,
    within_idiom,
    written_tolerance,
)
from .prefilter import Prefilter
from .rules import Rules, maturity_in, product_named, rules_for, versions_in

# Kinds of reading. Quantities compare by value; the others by their own rules or not at all.
NUMBER, PERCENT, MULTIPLIER, FRACTION = "number", "percent", "multiplier", "fraction"
VERSION, DATE, MODEL, LABEL = "version", "date", "model", "label"
IDENTIFIER, URL, REFERENCE = "id", "url", "ref"
QUANTITIES = frozenset({NUMBER, PERCENT, MULTIPLIER, FRACTION})
NOT_QUANTITIES = frozenset({IDENTIFIER, URL, REFERENCE})


@dataclass(frozen=True)
class Reading:
    kind: str
    text: str  # exactly the segment's text[start:end]
    start: int
    end: int
    value: float | None = None  # the value, or a range's low end
    value_max: float | None = None
    tol: float = 0.0  # half a unit of the last written digit, in the value's units
    norm: str = ""  # canonical form: a number, "1.0.0rc1", "2024-10-17", "bart@460000000"
    unit: str | None = None  # the unit or counted noun after it ("tokens", "GB", "x"), if known
    qualifier: str = "exact"  # exact | about | almost | over | under | up_to (`notation.hedged_bounds`)
    digits: str = ""  # the significant digits as written ("17" for 1.7B), for telling changes apart
    # a sized model's name ("bart" for BART-460M), a version's product ("pytorch"), a product's number's ("android")
    name: str | None = None
    counted: str | None = None  # without a known unit: the concept of the word after it ("download")

    @property
    def version(self) -> str | None:
        """A product version's number as written ("2.5" of "PyTorch 2.5")."""
        if self.kind != VERSION or not self.name:
            return None
        return self.norm[len(self.name) + 1 :]

    def bounds(self) -> tuple[float, float] | None:
        """The interval a quantity's value and hedge allow (`notation.hedged_bounds`)."""
        if self.value is None:
            return None
        return hedged_bounds(self.value, self.value_max, self.tol, self.qualifier)


# The `mentions` table holds the readings; its columns, in the record's field order.
_ROW_COLUMNS = {
    "kind": "kind",
    "text": "text",
    "start": "char_start",
    "end": "char_end",
    "value": "value_num",
    "value_max": "value_max",
    "tol": "value_tol",
    "norm": "norm",
    "unit": "unit",
    "qualifier": "qualifier",
    "digits": "digits",
    "name": "name",
    "counted": "counted",
}
assert list(_ROW_COLUMNS) == [f.name for f in fields(Reading)]


def reading_rows(doc_id: str, seg_idx: int, readings: Iterable[Reading]) -> Iterator[dict[str, Any]]:
    """The `mentions` table's rows of one segment."""
    for index, reading in enumerate(readings):
        yield {
            "doc_id": doc_id,
            "seg_idx": seg_idx,
            "mention_idx": index,
            **{column: getattr(reading, name) for name, column in _ROW_COLUMNS.items()},
        }


def reading_from_row(row: dict[str, Any]) -> Reading:
    """The reading a `mentions` row stores."""
    values = {name: row[column] for name, column in _ROW_COLUMNS.items()}
    return Reading(
        **{
            **values,
            "tol": values["tol"] or 0.0,
            "norm": values["norm"] or "",
            "qualifier": values["qualifier"] or "exact",
            "digits": values["digits"] or "",
        }
    )


# A figure of "models" this large is a model's size ("25B model"), not a number of models.
MODEL_SIZE_MIN = 1e6
# A product name right before a number, separated by a space ("Megatron-Turing NLG 530B").
_NAME_BEFORE = re.compile(r"(?P<name>[A-Z][A-Za-z0-9\-]*(?: [A-Z][A-Za-z0-9\-]*)*) $")
# ...and only its last word. Words before a figure are looked for in the few characters before it,
# not the whole text before it (every bare number and article asks).
_WORD_BEFORE = re.compile(r"(?<![A-Za-z0-9\-])(?P<name>[A-Z][A-Za-z0-9\-]*) $")
_WORD_WINDOW = 48


# ---- reading one segment -----------------------------------------------------------------------


def read(text: str, lang: str | None, context: str | None = None) -> list[Reading]:
    """Every figure in one segment written in `lang` (in a document in `context`), non-overlapping,
    in text order."""
    found = patterns()
    reader = _Reader(text, rules_for(lang, context) if context and context != lang else rules_for(lang))
    reader.protected(found.url, lambda m: Reading(URL, m.group(), m.start(), m.end(), norm=m.group().lower()))
    reader.protected(found.reference, lambda m: Reading(REFERENCE, m.group(), m.start(), m.end(), norm=m.group()))
    for pattern in found.dates:
        reader.protected(pattern, _date)
    for version in versions_in(text, reader.rules):  # "PyTorch 2.5", "CUDA 11.6 および 11.7"
        reader.add(
            reader.version_hedged(
                Reading(VERSION, version.text, version.start, version.end, norm=version.norm, name=version.product)
            )
        )
    reader.protected(DOTTED, lambda m: Reading(VERSION, m.group(), m.start(), m.end(), norm=version_norm(m.group())))
    for match in reader.scan(found.token):
        reader.token(match)
    for pattern in found.fractions:
        reader.protected(pattern, _fraction)
    for match in reader.scan(found.number):
        reader.add(reader.number(match))
    for match in reader.scan(found.word_number):
        reader.add(None if reader.vague_before(match.start()) else reader.word_number(match))
    for match in reader.scan(found.multiplier_word):
        reader.add(_multiplier_word(match))
    for match in reader.scan(found.numeral):
        reader.add(reader.numeral(match))
    for label in maturity_in(text, reader.rules, lifecycle=True):  # "[Beta]", "ベータ", "非推奨": compared by value
        reader.add(Reading(LABEL, label.text, label.start, label.end, norm=label.norm))
    return reader.finished()


@lru_cache(maxsize=1)
def _prefilter() -> Prefilter[re.Pattern, list[re.Pattern]]:
    found = patterns()
    every = [
        DOTTED,
        found.url,
        *found.dates,
        found.token,
        found.number,
        found.numeral,
        found.word_number,
        *found.fractions,
        found.reference,
        found.multiplier_word,
    ]
    return Prefilter({"notation": every}, lambda narrowed: narrowed["notation"])


class _Reader:
    """The readings of one segment as they are found; a span taken is not read again."""

    def __init__(self, text: str, rules: Rules) -> None:
        self.text = text
        self.rules = rules.for_text(text)
        self.scannable = _prefilter().narrowed(text)
        self.taken = bytearray(len(text))
        self.readings: list[Reading] = []

    def scan(self, pattern: re.Pattern) -> Iterator[re.Match]:
        """The pattern's matches in the text; none without a scan when it cannot match (`prefilter`)."""
        return pattern.finditer(self.text) if pattern in self.scannable else iter(())

    def free(self, start: int, end: int) -> bool:
        return not any(self.taken[start:end])

    def add(self, reading: Reading | None) -> None:
        if reading is None or reading.start >= reading.end or not self.free(reading.start, reading.end):
            return
        if reading.value is not None and not abs(reading.value) <= LARGEST_FIGURE:  # "3亿亿亿…", inf, NaN
            return
        self.taken[reading.start : reading.end] = b"\x01" * (reading.end - reading.start)
        self.readings.append(reading)

    def protected(self, pattern: re.Pattern, make: Callable[[re.Match], Reading | None]) -> None:
        for match in self.scan(pattern):
            self.add(make(match))

    def token(self, match: re.Match) -> None:
        """An ASCII word holding digits: a sized model, a version, a number with a glued unit or
        magnitude (left for the number reader), or an identifier."""
        token, start, end = match.group(), match.start(), match.end()
        found, words = patterns(), vocabulary()
        glued = found.glued_number.match(token)
        compound = found.compound_number.match(token)
        if (
            found.magnitude_number.match(token)
            or (glued and glued["unit"].lower() in words.glued_units)
            or (compound and (compound["word"].islower() or compound["word"].lower() in words.glued_units))
        ):
            return  # a quantity: the number reader takes it ("12GB", "42K", "a 14.2-inch display")
        model = found.sized_model.match(token)
        if model:
            factor = words.latin_magnitudes[model["mag"]]
            size = float(model["size"]) * factor
            name = model["name"].lower()
            self.add(
                Reading(
                    MODEL,
                    token,
                    start,
                    end,
                    size,
                    size,
                    written_tolerance(size, half_unit(model["size"]) * factor),
                    f"{name}@{canonical(size)}",
                    digits=significant(model["size"]),
                    name=name,
                )
            )
            return
        if VERSION_TOKEN.match(token):
            self.add(Reading(VERSION, token, start, end, norm=version_norm(token)))
            return
        embedded = _EMBEDDED_VERSION.search(token)  # "gpu-release-1.0.0rc1", "accelerate==1.0.0rc0"
        if embedded:
            self.add(
                Reading(IDENTIFIER, token[: embedded.start()], start, start + embedded.start(), norm=token[: embedded.start()])
            )
            self.add(Reading(VERSION, embedded.group(), start + embedded.start(), end, norm=version_norm(embedded.group())))
            return
        self.add(Reading(IDENTIFIER, token, start, end, norm=token))

    def version_hedged(self, reading: Reading) -> Reading:
        """A version with "or later" after it ("CUDA 11.6+", "CUDA 11.6以上") is hedged 'over'."""
        spaced = reading.end + (1 if self.text[reading.end : reading.end + 1].isspace() else 0)
        hedge = self._hedge_at(spaced)
        if reading.text.endswith("+") or (hedge is not None and hedge[0] == "over"):
            return replace(reading, qualifier="over")
        return reading

    def number(self, match: re.Match, range_end: bool = False) -> Reading | None:
        """Digits, with what follows them: a magnitude, a scale word, %, a multiplier sign, a range end
        (unless this is one: "1-2-3-…" is read in one pass, not again from every number)."""
        words = vocabulary()
        written = match["num"]
        digits = written.replace(",", "")
        factor = 1.0
        glued = self.text[match.end("num") : match.end("num") + 1]
        end = match.end()
        if match["tenths"]:
            factor = 10.0  # "3割" is 30 %
        elif match["cjkmag"]:
            factor = numerals().factor(match["cjkmag"].strip())
        elif match["scale"]:
            factor = words.scales[match["scale"].lower()]
        elif glued in words.latin_magnitudes and not re.match(
            r"[A-Za-z0-9]", self.text[match.end("num") + 1 : match.end("num") + 2]
        ):
            factor = words.latin_magnitudes[glued]
            end = max(end, match.end("num") + 1)
            if self.text[end : end + 1] == "+":
                end += 1
        version_end = self._version_range_end(match)
        if version_end is not None or after_version_word(self.text, match.start()):
            end = version_end or match.end("num")
            return Reading(
                VERSION, self.text[match.start() : end], match.start(), end, norm=version_norm(self.text[match.start() : end])
            )
        if self.vague_before(match.start()) or self._ordinal(match.start(), end):
            return None
        value = float(digits) * factor
        # (tenths are a rounding by themselves: "3割" is 25-35 %, "28%" among them)
        tol = half_unit(digits) * factor if match["tenths"] else written_tolerance(value, half_unit(digits) * factor)
        places = self._places_below(match, factor)
        if places is not None:  # "2万8000" is 28,000, "1兆8200億" 1.82 trillion: written to the last place
            below, below_tol, end = places
            value, tol = value + below, below_tol
            digits = canonical(value)
        kind, unit = NUMBER, None
        if match["percent"] or match["tenths"]:
            kind, unit = PERCENT, "%"
        elif match["times"]:
            kind, unit = MULTIPLIER, "x"
        else:
            unit_match = patterns().glued_number.match(self.text[match.start() : self._token_end(match.start())])
            # A unit that goes on past the word ("3.25GB/秒", "3.25GB/s") is read whole after the digits.
            longer = unit_match and self._unit_at(match.start() + len(unit_match["num"]))[1] > match.start() + len(
                unit_match.group()
            )
            if unit_match and unit_match["unit"].lower() in words.glued_units and not longer:
                unit = words.glued_units[unit_match["unit"].lower()]
                end = match.start() + len(unit_match.group())
                if unit == "x":
                    kind = MULTIPLIER
        reading = Reading(
            kind,
            self.text[match.start() : end],
            match.start(),
            end,
            value,
            value,
            tol,
            canonical(value),
            unit,
            digits=significant(digits),
        )
        reading = self._qualified(self._with_unit(reading))
        return reading if range_end else self._product_number(self._sized_model(self._ranged(reading)))

    def _places_below(self, match: re.Match, factor: float) -> tuple[float, float, int] | None:
        """The digits right after a CJK magnitude that fill the places below it ("8000" of "2万8000",
        "8200億" of "1兆8200億"): their value, tolerance and end; None when nothing fills them."""
        if not match["cjkmag"] or factor < 1e4 or match["percent"] or match["times"] or match["plus"]:
            return None
        below = patterns().number.match(self.text, match.end())
        if below is None or below["scale"] or below["percent"] or below["times"]:
            return None
        end = below.end()
        below_factor = numerals().factor(below["cjkmag"].strip()) if below["cjkmag"] else 1.0
        if not below["cjkmag"] and self.text[end : end + 1] in numerals().small:  # "3万5千"
            below_factor, end = numerals().small[self.text[end]], end + 1
        written = below["num"].replace(",", "")
        value = float(written) * below_factor
        if not 0 < value < factor:
            return None
        return value, written_tolerance(value, half_unit(written) * below_factor), end

    def _sized_model(self, reading: Reading) -> Reading:
        """ "Megatron-Turing NLG 530Bモデル", "GenSLMs 25B model": a size between a name and the word
        model is that model's size."""
        if reading.kind != NUMBER or reading.unit != "models" or (reading.value or 0) < MODEL_SIZE_MIN:
            return reading
        name = _NAME_BEFORE.search(self.text, 0, reading.start)
        if not name:
            return reading
        return replace(
            reading, kind=MODEL, name=name["name"].lower(), norm=f"{name['name'].lower()}@{canonical(reading.value or 0)}"
        )

    def _product_number(self, reading: Reading) -> Reading:
        """ "Android 15", "Firefox 129": a bare whole number right after a name, counting nothing, is
        that product's number (a version no release cue makes one, a model's number): it carries
        the name, so that only the same product's number is taken for it in another rendering."""
        if reading.kind != NUMBER or reading.unit or reading.counted or not reading.text.isdigit():
            return reading
        name = _WORD_BEFORE.search(self.text, max(0, reading.start - _WORD_WINDOW), reading.start)
        product = product_named(name["name"]) if name else None
        return replace(reading, name=product) if product else reading

    def numeral(self, match: re.Match) -> Reading | None:
        """A run of CJK numerals: a figure when it has a magnitude or a counter after it, is not an
        idiom and is not an estimate ("数百")."""
        words, numbers = vocabulary(), numerals()
        run, start, end = match.group(), match.start(), match.end()
        if start > 0 and self.text[start - 1].isdigit():
            return None
        whole, decimals = _split_decimals(run, words.decimal_points)
        value = numbers.value(whole)
        after = self.text[end : end + 4]
        # One is a figure only with a counter that is not an article's ("一天", not "一个简单框架").
        if (
            value is None
            or value < 1
            or (value < 2 and (decimals or not after.startswith(words.counters) or after.startswith(words.article_counters)))
        ):
            return None
        if within_idiom(self.text, start, end, words.idioms) or self.vague_before(start) or self._ordinal(start, end):
            return None
        percent_prefix = next((p for p in words.percent_prefixes if self.text.endswith(p, 0, start)), None)
        percent_word = patterns().percent_word.match(self.text, end)  # "三十パーセント", "삼십 퍼센트"
        suffix = next((s for s in words.multiplier_suffixes if not s.isascii() and after.startswith(s)), None)
        if not (
            any(c in numbers.magnitudes for c in whole) or after.startswith(words.counters) or percent_prefix or percent_word
        ):
            return None
        number = float(value)
        if decimals:
            number += float("0." + "".join(str(numbers.value(d) or 0) for d in decimals))
        kind, unit = NUMBER, None
        if percent_prefix:
            kind, unit, start = PERCENT, "%", start - len(percent_prefix)
        elif percent_word:
            kind, unit, end = PERCENT, "%", percent_word.end()
        elif suffix:
            kind, unit, end = MULTIPLIER, "x", end + len(suffix)
        reading = Reading(
            kind,
            self.text[start:end],
            start,
            end,
            number,
            number,
            written_tolerance(number, numbers.half_unit(whole)),
            canonical(number),
            unit,
            digits=significant(canonical(number)),
        )
        return self._qualified(self._with_unit(reading))

    def word_number(self, match: re.Match) -> Reading | None:
        """English number words ("three hundred", "twice"); "one" only with its unit ("one day"), an
        article alone only with a unit of time ("nearly a year")."""
        words = vocabulary()
        article = bool(match["word"]) and match["word"].lower() in words.articles
        if article and not (match["word2"] or match["scale"]):
            before = self.text[max(0, match.start() - _WORD_WINDOW) : match.start()].rstrip().lower()
            if before.endswith((*words.rate_before, *words.durations)):  # "three times a week", "five hours a day"
                return None
            after = self._with_unit(_word_number(match))
            return self._qualified(after) if after.unit in words.durations else None
        reading = self._qualified(self._with_unit(_word_number(match)))
        if reading.kind == NUMBER and not match["scale"] and (reading.value or 0) < 2 and not reading.unit:
            return None
        return reading

    # -- context ---------------------------------------------------------------------------------

    def _token_end(self, start: int) -> int:
        """Where the ASCII word that starts at `start` ends ("12GB", "2×"; "100Gbps×4" ends before "×4")."""
        end, text = start, self.text
        while end < len(text) and (
            (text[end].isascii() and (text[end].isalnum() or text[end] in ".,"))
            or (text[end] == "×" and not text[end + 1 : end + 2].isdigit())
        ):
            end += 1
        return end

    def _version_range_end(self, match: re.Match) -> int | None:
        """ "3.8-3.10": a range whose ends are not in order is a range of versions; where it ends."""
        after = re.match(r"\s?[-–~]\s?(\d+\.\d+)(?!\.?\d)", self.text[match.end("num") :])
        if after and "." in match["num"] and float(after[1]) < float(match["num"].replace(",", "")):
            return match.end("num") + after.end()
        return None

    def _ordinal(self, start: int, end: int) -> bool:
        """ "第一组", "二つ目", "2番目": a rank, not a quantity (a reference word before it, or an
        ordinal suffix after its counter)."""
        words = vocabulary()
        if self.text[:start].rstrip().endswith(tuple(r for r in words.references if not r.isascii())):
            return True
        gap = self.text[end : end + 6]
        after = end + len(gap) - len(gap.lstrip())
        return self.text.startswith(words.ordinal_suffixes, after + len(self._counter_at(after)))

    def vague_before(self, start: int) -> bool:
        before = self.text[max(0, start - 12) : start].rstrip().lower()
        if not before.endswith(_lowered(vocabulary().vague)):
            return False
        # ("パラメーター数15億": "数" after a noun says "the number of", not "several")
        return self._count_suffixed(before) is None

    def _count_suffixed(self, before: str) -> str | None:
        """The noun `before` (the text before a figure) ends with, a word for "the number of" after it
        ("パラメーター数", "言語数": `count_suffixes`), where the noun ends."""
        lang = self.rules.langs[0]
        suffix = next((w for w in profile(lang).numbers.get("count_suffixes") or () if before.endswith(w)), None)
        if suffix is None:
            return None
        noun = before[: -len(suffix)]
        grammar = profile(lang).script.grammar
        letter = noun[-1:]
        return noun if letter.isalpha() and not (grammar and re.fullmatch(f"[{grammar}]", letter)) else None

    def _with_unit(self, reading: Reading) -> Reading:
        """The unit after a figure (past a counter: "1 个 epoch"), a half after it ("三年半" is 3.5
        years), else the concept of the word it counts."""
        if reading.unit:
            return replace(reading, unit=speed_unit(self.text, reading.start, reading.unit, reading.end))
        if currency := self._currency_before(reading.start):
            return replace(reading, unit=currency)
        unit, unit_end = self._unit_at(reading.end)
        if unit is None and (labelled := self._unit_named_before(reading.start)):
            return replace(reading, unit=labelled)
        if unit is None:
            if _AFTER_A_NAME.search(self.text, 0, reading.start):  # then it counts nothing
                return reading
            if _YEAR.fullmatch(reading.text) and self._past(reading.end) <= reading.end + 1:
                return reading  # a year naming what follows counts nothing ("2024 云栖大会", "the 2026 Olympics")
            counted = self._counted(reading.end) or self._counted_before(reading.start, reading.end)
            return replace(reading, counted=counted)
        reading = replace(reading, unit=speed_unit(self.text, reading.start, unit, unit_end))
        minus = self._minus_before(reading.start) if unit in common_rules()["signed_units"] else 0
        if minus and reading.value == reading.value_max:
            value, start = -(reading.value or 0.0), reading.start - minus  # "-25°C", "零下25℃": below zero
            return replace(
                reading, text=self.text[start : reading.end], start=start, value=value, value_max=value, norm=canonical(value)
            )
        half = next((h for h in vocabulary().halves if self.text.startswith(h, unit_end)), None)
        if half and reading.value is not None and reading.value == reading.value_max and reading.kind == NUMBER:
            value = reading.value + 0.5
            end = unit_end + len(half)
            reading = replace(
                reading,
                text=self.text[reading.start : end],
                end=end,
                value=value,
                value_max=value,
                tol=written_tolerance(value, 0.05),
                norm=canonical(value),
                digits=significant(canonical(value)),
            )
        return reading

    def _minus_before(self, start: int) -> int:
        """How long the minus right before a figure is (0: none): a sign after no Latin letter or digit
        ("-25°C", "外気温−25℃"; not "10-25°C"), or a word for below zero ("零下 25°C", "minus 25°C")."""
        before = self.text[max(0, start - 2) : start - 1]
        if start > 0 and self.text[start - 1] in _MINUS_SIGNS and not (before.isascii() and before.isalnum()):
            return 1
        head = self.text[max(0, start - 8) : start]
        word = next((w for w in common_rules()["below_zero"] if head.rstrip().endswith(w)), None)
        if word is None or re.search(r"[A-Za-z]$", head.rstrip()[: -len(word)]):
            return 0  # (a Latin word's ending is no word: "the terminus 25°C")
        return len(head) - len(head.rstrip()) + len(word)

    def _currency_before(self, start: int) -> str | None:
        """The currency of a sign written right before a figure ("$1,199", "US$5"; not "NT$": another dollar)."""
        for sign, currency in vocabulary().currency_signs.items():
            if self.text.endswith(sign, 0, start):
                return None if self.text[: start - len(sign)][-1:].isalpha() else currency
        return None

    def _past(self, position: int) -> int:
        """Past what may stand between a figure and its unit or noun: a space, a hedge ("三百多个",
        "300 or more GPUs") and a counter ("1 个 epoch")."""
        position += 1 if self.text[position : position + 1].isspace() else 0
        if self.text[position : position + 1] == "-" and self.text[position + 1 : position + 2].isalpha():
            position += 1  # a compound adjective: "a 2-GB card", "a 20-hour battery"
        hedge = self._hedge_at(position)
        if hedge:
            position = hedge[1]
            position += 1 if self.text[position : position + 1].isspace() else 0
        return position + len(self._counter_at(position))

    def _counter_at(self, position: int) -> str:
        """The counter written at `position`, of the segment's language's (where it lists its own: "項"
        counts in Chinese, where "23項目" is 23 items in Japanese), else of any."""
        counters = profile(self.rules.langs[0]).numbers.get("counters") or vocabulary().counters
        return next((c for c in longest_first(counters) if self.text.startswith(c, position)), "")

    def _hedge_at(self, position: int) -> tuple[str, int] | None:
        """The hedge written at `position` ("以上", "多", "or more") and where it ends."""
        for qualifier, pattern in self.rules.qualifiers_after:
            found = pattern.match(self.text, position)
            if found:
                return qualifier, found.end()
        return None

    def _unit_named_before(self, start: int) -> str | None:
        """The unit a list item's label names before a colon ("Contributors to the release: 312", "GPUs:
        64"), or a noun a word for "the number of" follows right before the figure ("パラメーター数15億")."""
        # (a colon first, full-width or not: the label's pattern scans the text, and most figures have none before them)
        colon = unicodedata.normalize("NFKC", self.text[:start].rstrip()[-1:]) == ":"
        if colon and (label := _LABEL_BEFORE.search(self.text, 0, start)):
            return self._unit_at(label.start("label"))[0]
        noun = self._count_suffixed(self.text[max(0, start - 12) : start].rstrip())
        if noun is None:
            return None
        end = len(noun) + max(0, start - 12)  # (where the noun ends in the text)
        for position in range(max(0, end - 10), end):
            for unit, pattern in self.rules.units:
                found = pattern.match(self.text, position)
                if found and found.end() == end:
                    return unit
        return None

    def _unit_at(self, position: int) -> tuple[str | None, int]:
        """The unit written at `position`, directly or past a hedge and a counter, and where it ends."""
        for start in dict.fromkeys((position, self._past(position))):
            for unit, pattern in self.rules.units:
                found = pattern.match(self.text, start)
                if found:
                    return unit, found.end()
        return None, position

    def _counted(self, position: int) -> str | None:
        """What a figure without a known unit counts: the concepts of the word after it (past a
        hedge and a counter), through the lexicon ("300,000 downloads", "三十万次下载")."""
        start = self._past(position)
        if hedge := self._hedge_at(start):  # "29 种以上语言": a hedge after the counter, then the noun
            start = hedge[1] + (1 if self.text[hedge[1] : hedge[1] + 1].isspace() else 0)
        numbers = profile(self.rules.langs[0]).numbers
        if counter_follows(self.text, position):
            start += len(next((p for p in numbers.get("counted_particles") or () if self.text.startswith(p, start)), ""))
        rest = self.text[start : start + _COUNTED_WINDOW]
        latin = _LATIN_WORD_AFTER.match(rest)
        if latin and latin[1][0].isupper() and latin[1].lower() in common_rules()["model_variants"]:
            return None  # a model's name ("The 17 Pro has…"), not a count
        if latin:
            return " ".join(word_concepts(latin[1], "en")) or None
        # (a run of letters only the language writes that are no grammar is one word: "9つのプラットフォーム"
        # counts platforms, not its first four letters' "プラ", plastic)
        run = _loanword(self.rules.langs[0]).match(rest)
        words = [*([run.group()] if run else []), *(rest[:length] for length in range(min(4, len(rest)), 0, -1))]
        verb = tuple(numbers.get("verb_endings") or ())
        return self._noun_concepts(w for w in words if not (verb and rest[len(w) :].startswith(verb)))

    def _counted_before(self, start: int, end: int) -> str | None:
        """What a figure with no noun after it counts, where the noun is the topic before it
        ("モデルのサイズは全7種類で": sizes; `topic_markers` and `total_prefixes` of the numbers), or,
        where the language writes it so, right before a figure with a counter ("風車72基":
        `noun_before_counter`): the concepts of the longest word of up to four letters ending at the
        mark, past a word for "the number of" ("対応言語数は212": languages; `count_suffixes`)."""
        words = vocabulary()
        before = self.text[max(0, start - _COUNTED_WINDOW) : start].rstrip()
        before = before.removesuffix(next((p for p in words.total_prefixes if before.endswith(p)), ""))
        marker = next((m for m in words.topic_markers if before.endswith(m)), None)
        if marker is None:
            counter_noun = profile(self.rules.langs[0]).numbers.get("noun_before_counter") and counter_follows(self.text, end)
            return self._noun_concepts(before[-length:] for length in range(min(4, len(before)), 0, -1)) if counter_noun else None
        noun = before[: -len(marker)]
        noun = noun.removesuffix(next((s for s in words.count_suffixes if noun.endswith(s) and len(noun) > len(s)), ""))
        return self._noun_concepts(noun[-length:] for length in range(min(4, len(noun)), 0, -1))

    def _noun_concepts(self, candidates: Iterable[str]) -> str | None:
        """The concepts of the first candidate word the lexicon knows, in the segment's language."""
        lang = self.rules.langs[0]
        grammar = profile(lang).script.grammar
        for word in candidates:
            if word.isascii() or not word.isalpha() or (grammar and re.fullmatch(f"[{grammar}]+", word)):
                continue  # (letters of grammar are no noun: "100以上にのぼる")
            if concepts := word_concepts(word, lang):
                return " ".join(concepts[:_COUNTED_CONCEPTS])
        return None

    def _qualified(self, reading: Reading) -> Reading:
        """The hedge written right before the figure, else right after it and its unit."""
        qualifier = qualifier_near(self.text, reading.start, reading.end, self.rules)
        if qualifier == "exact":
            qualifier = self._qualifier_after(reading)
        return reading if qualifier == "exact" else replace(reading, qualifier=qualifier)

    def _qualifier_after(self, reading: Reading) -> str:
        """ "280+", "三百多个", "300 or more", "100GB以上", "300人以上": a hedge after the figure, right
        after it or past its unit or counter."""
        if reading.text.endswith("+"):
            return "over"
        spaced = reading.end + (1 if self.text[reading.end : reading.end + 1].isspace() else 0)
        hedge = self._hedge_at(spaced)
        if hedge is None:
            _, position = self._unit_at(reading.end)
            if position == reading.end:
                position = self._past(reading.end)
            hedge = self._hedge_at(position + (1 if self.text[position : position + 1].isspace() else 0))
        return hedge[0] if hedge else "exact"

    def _ranged(self, low: Reading) -> Reading:
        """ "1.69 to 2.65", "10-18%", "3万至5万": the low end's reading with the range's high end."""
        after = _range_joiner().match(self.text, low.end)
        if not after:
            return low
        hi_match = patterns().number.match(self.text, after.start("num"))
        if not hi_match or hi_match.start() != after.start("num"):
            return low
        high = self.number(hi_match, range_end=True)
        if high is None or (low.kind != NUMBER and high.kind != low.kind) or high.kind not in QUANTITIES:
            return low
        kind = high.kind if low.kind == NUMBER else low.kind
        written_high = float(hi_match["num"].replace(",", ""))
        if not written_high:  # "won 2-0", "0570-00-2486": a score or a number, no range up to nothing
            return low
        # "3 to 5 million", "3至5万": a bare low end takes the high end's magnitude.
        bare_low = re.fullmatch(r"[\d,.]+", low.text) is not None
        factor = (high.value or 0) / written_high if bare_low else 1.0
        value = (low.value or 0) * factor
        if value >= (high.value or 0):
            return low
        return Reading(
            kind,
            self.text[low.start : high.end],
            low.start,
            high.end,
            value,
            high.value,
            max(low.tol * factor, high.tol),
            f"{canonical(value)}-{canonical(high.value or 0)}",
            high.unit or low.unit,
            low.qualifier,
            low.digits,
        )

    def finished(self) -> list[Reading]:
        """The readings in text order, without a figure restated in another notation in parentheses
        right after it ("1.35 亿(135M)"): one figure, written twice; nor a number word inside the unit
        of the figure before it ("82 千瓦时" is 82 kWh, not also a thousand roof tiles)."""
        readings: list[Reading] = []
        for reading in sorted(self.readings, key=lambda r: r.start):
            previous = readings[-1] if readings else None
            if previous is not None and previous.unit and reading.start < self._unit_at(previous.end)[1]:
                continue
            if (
                previous is not None
                and reading.kind in QUANTITIES
                and previous.kind in QUANTITIES
                and self.text[previous.end : reading.start].strip() == "("
                and values_agree(previous, reading)
            ):
                continue
            readings.append(reading)
        return readings


_QUALIFIER_WINDOW = 16


@lru_cache(maxsize=1)
def _range_joiner() -> re.Pattern:
    """What joins a range's two ends ("1.69 to 2.65", "10-18%", "3万至5万"), up to the high end's digits."""
    joiners = alternation([*vocabulary().range_words, "-", "–"])
    return re.compile(rf"\s?(?:{joiners})\s?(?P<num>{DIGITS})", re.I)


# A version at the end of an identifier, after a separator ("gpu-release-1.0.0rc1", "pkg==2.1").
_EMBEDDED_VERSION = re.compile(r"(?<=[-_:=/])[vV]?\d+(?:\.\d+){1,3}(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?$")
_YEAR = re.compile(r"(?:19|20)\d\d")  # a bare number that reads as a year
_MINUS_SIGNS = "-\u2212"  # a hyphen-minus and the minus sign (NFKC makes a full-width minus a hyphen-minus)


@lru_cache(maxsize=16)
def _loanword(lang: str) -> re.Pattern:
    """A run of two or more letters only `lang` writes that write no grammar (katakana), else nothing."""
    script = profile(lang).script
    if not (script.letters and script.grammar):
        return re.compile("(?!)")
    return re.compile(f"(?:(?![{script.grammar}])[{script.letters}]){{2,}}")


@lru_cache(maxsize=1)
def _speed_words() -> tuple[re.Pattern, re.Pattern]:
    speeds = common_rules()["speeds"]
    return re.compile(f"(?:{'|'.join(speeds['after'])})", re.I), re.compile(f"(?:{'|'.join(speeds['before'])})\\s*$")


def speed_unit(text: str, start: int, unit: str, unit_end: int) -> str:
    """The unit of a figure at `start` whose unit ends at `unit_end`: a speed where words around a
    distance make it one per hour ("時速25km", "25 km/h": `speeds` in lang/common.yaml)."""
    speeds = common_rules()["speeds"]["units"]
    if unit not in speeds:
        return unit
    after, before = _speed_words()
    return speeds[unit] if after.match(text, unit_end) or before.search(text, max(0, start - 8), start) else unit


_COUNTED_WINDOW = 16
# A label opening a line, a list item or a table cell, then a colon (or a full-width one) right before the figure
_LABEL_BEFORE = re.compile(r"(?:^|[\n|•·])\s*(?:[-*+]\s+)?(?P<label>[^:\uff1a\n|•·]{2,40}?)\s?[:\uff1a]\s*$")
# "PyTorch 2 系列": a number after a name is its version (a Latin name: "XRを合わせて9つ" counts)
_AFTER_A_NAME = re.compile(r"[A-Z][A-Za-z0-9_.+-]*\s?$")
_COUNTED_CONCEPTS = 3
_LATIN_WORD_AFTER = re.compile(r"\s?(?:-\s?)?([A-Za-z][A-Za-z-]{2,})")


def after_version_word(text: str, start: int) -> bool:
    """ "version 2.3", "版本 2.3", "v 2": a number after a version word is a version."""
    before = text[max(0, start - 12) : start].rstrip().lower()
    return before.endswith(_lowered(vocabulary().version_words))


def qualifier_near(text: str, start: int, end: int, rules: Rules) -> str:
    """The hedge written right before a value ("nearly", "约", "ほぼ": `qualifiers` in the
    language's rules), else 'exact'."""
    before = text[max(0, start - _QUALIFIER_WINDOW) : start]
    for qualifier, pattern in rules.qualifiers:
        if any(m.end() >= len(before) - 1 for m in pattern.finditer(before)):
            return qualifier
    return "exact"


# ---- the pieces --------------------------------------------------------------------------------


def _split_decimals(run: str, points: tuple[str, ...]) -> tuple[str, str]:
    """'三点五' -> ('三', '五'): a numeral's whole part and its decimals."""
    for point in points:
        whole, found, decimals = run.partition(point)
        if found:
            return whole, decimals
    return run, ""


@lru_cache(maxsize=8)
def _lowered(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words in lower case, as one tuple: `str.endswith` tries them all in one call."""
    return tuple(word.lower() for word in words)


def _multiplier_word(match: re.Match) -> Reading:
    value = vocabulary().multipliers[match.group().lower()]
    return Reading(
        MULTIPLIER,
        match.group(),
        match.start(),
        match.end(),
        value,
        value,
        0.0,
        canonical(value),
        "x",
        digits=significant(canonical(value)),
    )


def _fraction(match: re.Match) -> Reading | None:
    """ "1/13", "4分の1", "三分之一", "two thirds of" (numerator and denominator in digits, numerals or words)."""
    num, den = _whole_number(match["num"]), _whole_number(match["den"])
    if not num or not den or num >= den:
        return None
    value = num / den
    return Reading(
        FRACTION, match.group(), match.start(), match.end(), value, value, 0.0, f"{num}/{den}", "x", digits=f"{num}/{den}"
    )


def _whole_number(written: str) -> int | None:
    """A fraction's part: digits, a numeral ("三"), a number word ("two"), an article ("a") or a
    fraction word naming its denominator ("thirds")."""
    if written.isdigit():
        return int(written)
    words, lowered = vocabulary(), written.lower()
    if lowered in _lowered(words.articles):
        return 1
    word = words.words.get(lowered) or words.fraction_words.get(lowered.removesuffix("s"))
    return int(word) if word else numerals().value(written)


def _word_number(match: re.Match) -> Reading:
    words = vocabulary()
    if match["mult"]:
        value = words.multipliers[match["mult"].lower()]
        return Reading(
            MULTIPLIER,
            match.group(),
            match.start(),
            match.end(),
            value,
            value,
            0.0,
            canonical(value),
            "x",
            digits=significant(canonical(value)),
        )
    first = match["word"].lower()
    value = 1.0 if first in words.articles else words.words[first]
    if match["word2"]:
        second = words.words[match["word2"].lower()]
        value = second if first in words.articles else value * second if second >= 100 else value + second
    if match["scale"]:
        value *= words.scales[match["scale"].lower()]
    kind, unit = (PERCENT, "%") if match["percent"] else (MULTIPLIER, "x") if match["times"] else (NUMBER, None)
    return Reading(
        kind,
        match.group(),
        match.start(),
        match.end(),
        value,
        value,
        0.0,
        canonical(value),
        unit,
        digits=significant(canonical(value)),
    )


def _date(match: re.Match) -> Reading | None:
    """A date as ISO 8601 writes it, with what is written: '2024-10-17', '2025-02' (no day),
    '--07-24' (no year), '--07' (a month alone: "7月", "July")."""
    groups = match.groupdict()
    month = vocabulary().months.get(groups["month"]) if groups.get("month") else int(groups["m"])
    year = int(groups["y"]) if groups.get("y") else None
    day = int(groups["d"]) if groups.get("d") else None
    if not month or not 1 <= month <= 12 or (day is not None and not 1 <= day <= _days_in(year, month)):
        return None
    norm = (f"{year:04d}" if year else "-") + f"-{month:02d}" + (f"-{day:02d}" if day is not None else "")
    return Reading(DATE, match.group(), match.start(), match.end(), norm=norm)


def _days_in(year: int | None, month: int) -> int:
    return calendar.monthrange(year or 2000, month)[1]  # a leap year when the year is not written


# ---- one figure --------------------------------------------------------------------------------


def read_number(text: str) -> Reading | None:
    """The quantity `text` is, read whole ("3万", "29.8k", "1,000", "1.5亿", "二十"); None if it is
    not exactly one figure."""
    text = text.strip()
    readings = [r for r in read(text, None) if r.kind in QUANTITIES]
    if len(readings) == 1 and (readings[0].start, readings[0].end) == (0, len(text)):
        return readings[0]
    numeral = numerals().value(text)
    if numeral is not None:  # a bare numeral has no counter to make it a figure in a sentence
        return Reading(
            NUMBER,
            text,
            0,
            len(text),
            float(numeral),
            float(numeral),
            written_tolerance(float(numeral), 0.5),
            canonical(float(numeral)),
        )
    return None


def values_agree(a: Reading, b: Reading) -> bool:
    """True when two figures can be the same quantity at their written precision."""
    if a.value is None or b.value is None:
        return False
    return abs(a.value - b.value) <= max(a.tol, b.tol) + 1e-9


def first_date(text: str) -> str | None:
    """The first whole calendar date in `text`, ISO ('2024年10月17日', '2025 年 2 月 1 日', '2024-07-24')."""
    return next((r.norm for r in read(text, None) if r.kind == DATE and len(r.norm) == 10), None)
