"""Every number in a segment as a mention: its value, the precision it was written at, and what it is.

Whatever the notation — ASCII or full-width digits, thousands separators, decimals, ranges
("1.69 to 2.65", "10-18%"), fractions ("1/13", "4分の1"), CJK numerals alone or mixed with
digits ("三百万", "3.4万", "1.3 万亿", "13億", "1兆"), Latin magnitudes ("28B", "1.7T", "400k",
"0.5 million", "1M+"), multiplier words ("twice", "翻倍", "两倍", "2x"), percentages — a
quantity mention carries one value (lo..hi for a range) and a tolerance: half a unit of its
last written digit, capped at 5 % (`numbers.written_tolerance`), so "0.5 million" = "50万" and
"3.4万" = "34,000" while "30 million" != "三百万". Versions ("1.0.0rc1", "v0.*", "PyTorch 2.5"),
dates ("2024年10月17日" = "2024-10-17"), sized model names ("BART-460M") and maturity labels
("[Beta]" = "测试版") are kept with their own comparison; identifiers ("7B3A_A", "A100", "fp16"), URLs, and figure/table numbers ("图5")
are marked as such so they are never read as quantities. The unit or counted noun after a
quantity is kept when the rules know it ("28B tokens"); a number needs none to be compared.

The words involved (number words, scales, multiplier words, counters, range joiners, vague
words, idioms) are language data (`lang/<code>/language.yaml`, `numbers:`), merged across the
profiles because technical prose in one language quotes another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Iterable, Iterator

from ..metadata import parse_date
from .notation import (DIGITS, DOTTED, GLUED_NUMBER, GLUED_UNITS, LATIN_MAGNITUDE, MAGNITUDE_NUMBER, MONTHS,
                       SIZED_MODEL, VERSION_TOKEN, alternation, cjk_factor, cjk_half_unit, half_unit, number_patterns,
                       significant, version_norm, number_vocabulary, within_idiom)
from .numbers import MAGNITUDES, canonical, parse_cjk_numeral, written_tolerance
from .prefilter import Prefilter
from .entities import maturity_entities, qualifier_near, version_entities
from .rules import rules_for

# Kinds of mention. Quantities compare by value; the others by their own rules or not at all.
NUMBER, PERCENT, MULTIPLIER, FRACTION = "number", "percent", "multiplier", "fraction"
VERSION, DATE, MODEL, LABEL = "version", "date", "model", "label"
IDENTIFIER, URL, REFERENCE = "id", "url", "ref"
QUANTITIES = frozenset({NUMBER, PERCENT, MULTIPLIER, FRACTION})
NOT_QUANTITIES = frozenset({IDENTIFIER, URL, REFERENCE})


@dataclass(frozen=True)
class Mention:
    kind: str
    text: str                     # exactly the segment's text[start:end]
    start: int
    end: int
    value: float | None = None    # the value, or a range's low end
    value_max: float | None = None
    tol: float = 0.0              # half a unit of the last written digit, in the value's units
    norm: str = ""                # canonical form: a number, "1.0.0rc1", "2024-10-17", "bart@460000000"
    unit: str | None = None       # the unit or counted noun after it ("tokens", "GB", "x"), if known
    qualifier: str = "exact"      # exact | up_to | about | over
    digits: str = ""              # the significant digits as written ("17" for 1.7B), for telling changes apart
    name: str | None = None       # the model name of a sized model ("bart" for BART-460M)


# A product name right before a number, separated by a space ("Megatron-Turing NLG 530B").
_NAME_BEFORE = re.compile(r"(?P<name>[A-Z][A-Za-z0-9\-]*(?: [A-Z][A-Za-z0-9\-]*)*) $")


# ---- reading one segment --------------------------------------------------------------------------------------

def find_mentions(text: str, lang: str) -> list[Mention]:
    """Every number-like mention in one segment, non-overlapping, in text order."""
    patterns, reader = number_patterns(), _Reader(text, lang)
    reader.protected(patterns.url, lambda m: Mention(URL, m.group(), m.start(), m.end(), norm=m.group().lower()))
    reader.protected(patterns.reference, lambda m: Mention(REFERENCE, m.group(), m.start(), m.end(), norm=m.group()))
    reader.protected(patterns.date, _date)
    for entity in version_entities(text, reader.rules):  # "PyTorch 2.5", "CUDA 11.6 および 11.7"
        reader.add(Mention(VERSION, entity.text, entity.start, entity.end, norm=entity.norm))
    reader.protected(DOTTED, lambda m: Mention(VERSION, m.group(), m.start(), m.end(), norm=version_norm(m.group())))
    for match in reader.scan(patterns.token):
        reader.token(match)
    for match in reader.scan(patterns.fraction):
        reader.add(_fraction(match))
    for match in reader.scan(patterns.number):
        reader.add(reader.number(match))
    for match in reader.scan(patterns.word_number):
        reader.add(None if reader.vague_before(match.start()) else _word_number(match))
    for match in reader.scan(patterns.multiplier_word):
        reader.add(_multiplier_word(match))
    for match in reader.scan(patterns.cjk):
        reader.add(reader.cjk(match))
    for entity in maturity_entities(text, reader.rules):  # "[Beta]", "ベータ": compared by their value
        reader.add(Mention(LABEL, entity.text, entity.start, entity.end, norm=entity.norm))
    return reader.finished()


@lru_cache(maxsize=1)
def _notation_prefilter() -> Prefilter[re.Pattern, list[re.Pattern]]:
    patterns = number_patterns()
    return Prefilter({"notation": [DOTTED, *(getattr(patterns, field.name) for field in fields(patterns))]},
                     lambda narrowed: narrowed["notation"])


class _Reader:
    """The mentions of one segment as they are found; a span taken is not read again."""

    def __init__(self, text: str, lang: str) -> None:
        self.text, self.lang = text, lang
        self.rules = rules_for(lang).for_text(text)
        self.scannable = _notation_prefilter().narrowed(text)
        self.taken = bytearray(len(text))
        self.mentions: list[Mention] = []

    def scan(self, pattern: re.Pattern) -> Iterator[re.Match]:
        """The pattern's matches in the text; none without a scan when it cannot match (`prefilter`)."""
        return pattern.finditer(self.text) if pattern in self.scannable else iter(())

    def free(self, start: int, end: int) -> bool:
        return not any(self.taken[start:end])

    def add(self, mention: Mention | None) -> None:
        if mention is None or mention.start >= mention.end or not self.free(mention.start, mention.end):
            return
        self.taken[mention.start:mention.end] = b"\x01" * (mention.end - mention.start)
        self.mentions.append(mention)

    def protected(self, pattern: re.Pattern, make) -> None:
        for match in self.scan(pattern):
            self.add(make(match))

    def token(self, match: re.Match) -> None:
        """An ASCII word holding digits: a sized model, a version, a number with a glued unit or
        magnitude (left for the number reader), or an identifier."""
        token, start, end = match.group(), match.start(), match.end()
        if MAGNITUDE_NUMBER.match(token) or (GLUED_NUMBER.match(token) and
                                             GLUED_NUMBER.match(token)["unit"].lower() in GLUED_UNITS):
            return  # a quantity: the number reader takes it
        model = SIZED_MODEL.match(token)
        if model:
            size = float(model["size"]) * LATIN_MAGNITUDE[model["mag"]]
            name = model["name"].lower()
            self.add(Mention(MODEL, token, start, end, size, size, written_tolerance(size, half_unit(model["size"])
                                                                                   * LATIN_MAGNITUDE[model["mag"]]),
                             f"{name}@{canonical(size)}", digits=significant(model["size"]), name=name))
            return
        if VERSION_TOKEN.match(token):
            self.add(Mention(VERSION, token, start, end, norm=version_norm(token)))
            return
        self.add(Mention(IDENTIFIER, token, start, end, norm=token))

    def number(self, match: re.Match) -> Mention | None:
        """Digits, with what follows them: a magnitude, a scale word, %, a multiplier sign, a range end."""
        vocabulary = number_vocabulary()
        written = match["num"]
        digits = written.replace(",", "")
        factor = 1.0
        glued = self.text[match.end("num"):match.end("num") + 1]
        end = match.end()
        if match["cjkmag"]:
            factor = cjk_factor(match["cjkmag"].strip())
        elif match["scale"]:
            factor = vocabulary.scales[match["scale"].lower()]
        elif glued in LATIN_MAGNITUDE and not re.match(r"[A-Za-z0-9]", self.text[match.end("num") + 1:match.end("num") + 2]):
            factor = LATIN_MAGNITUDE[glued]
            end = max(end, match.end("num") + 1)
            if self.text[end:end + 1] == "+":
                end += 1
        version_end = self._version_range_end(match)
        if version_end is not None or self._before_is_version_word(match.start()):
            end = version_end or match.end("num")
            return Mention(VERSION, self.text[match.start():end], match.start(), end,
                           norm=version_norm(self.text[match.start():end]))
        if self.vague_before(match.start()):
            return None
        value = float(digits) * factor
        tol = written_tolerance(value, half_unit(digits) * factor)
        kind, unit = NUMBER, None
        if match["percent"]:
            kind, unit = PERCENT, "%"
        elif match["times"]:
            kind, unit = MULTIPLIER, "x"
        else:
            unit_match = GLUED_NUMBER.match(self.text[match.start():self._token_end(match.start())])
            if unit_match and unit_match["unit"].lower() in GLUED_UNITS:
                unit = GLUED_UNITS[unit_match["unit"].lower()]
                end = match.start() + len(unit_match.group())
                if unit == "x":
                    kind = MULTIPLIER
        mention = Mention(kind, self.text[match.start():end], match.start(), end, value, value, tol,
                          canonical(value), unit, digits=significant(digits))
        return self._sized_model(self._ranged(self._qualified(self._with_unit(mention))))

    def _sized_model(self, mention: Mention) -> Mention:
        """"Megatron-Turing NLG 530Bモデル", "GenSLMs 25B model": a size between a name and the word
        model is that model's size."""
        if mention.kind != NUMBER or mention.unit != "models" or (mention.value or 0) < 1e6:
            return mention
        name = _NAME_BEFORE.search(self.text, 0, mention.start)
        if not name:
            return mention
        return _replace(mention, kind=MODEL, name=name["name"].lower(),
                        norm=f"{name['name'].lower()}@{canonical(mention.value or 0)}")

    def cjk(self, match: re.Match) -> Mention | None:
        """A run of CJK numerals: a figure when it has a magnitude or a counter after it, is not an
        idiom and is not an estimate ("数百")."""
        vocabulary = number_vocabulary()
        run, start, end = match.group(), match.start(), match.end()
        if start > 0 and self.text[start - 1].isdigit():
            return None
        whole, _, decimals = run.partition("点")
        value = parse_cjk_numeral(whole)
        if value is None or value < 2:
            return None
        if within_idiom(self.text, start, end, vocabulary.idioms) or self.vague_before(start):
            return None
        after = self.text[end:end + 4]
        percent_prefix = next((p for p in vocabulary.percent_prefixes if self.text.endswith(p, 0, start)), None)
        if not (any(c in MAGNITUDES for c in whole) or after.startswith(vocabulary.counters) or percent_prefix):
            return None
        number = float(value)
        if decimals:
            number += float("0." + "".join(str(parse_cjk_numeral(d) or 0) for d in decimals))
        kind, unit = NUMBER, None
        if percent_prefix:
            kind, unit, start = PERCENT, "%", start - len(percent_prefix)
        elif after.startswith("倍"):
            kind, unit, end = MULTIPLIER, "x", end + 1
        mention = Mention(kind, self.text[start:end], start, end, number, number,
                          written_tolerance(number, cjk_half_unit(whole)), canonical(number), unit,
                          digits=significant(canonical(number)))
        return self._qualified(self._with_unit(mention))

    # -- context ---------------------------------------------------------------------------------------------

    def _token_end(self, start: int) -> int:
        end = start
        while end < len(self.text) and (self.text[end].isascii() and (self.text[end].isalnum() or self.text[end] in ".,")
                                        or self.text[end] == "×"):
            end += 1
        return end

    def _before_is_version_word(self, start: int) -> bool:
        """"version 2.3", "版本 2.3", "v 2": a number after a version word is a version."""
        before = self.text[max(0, start - 12):start].rstrip().lower()
        return before.endswith(_lowered(number_vocabulary().version_words))

    def _version_range_end(self, match: re.Match) -> int | None:
        """"3.8-3.10": a range whose ends are not in order is a range of versions; where it ends."""
        after = re.match(r"\s?[-–~]\s?(\d+\.\d+)(?!\.?\d)", self.text[match.end("num"):])
        if after and "." in match["num"] and float(after[1]) < float(match["num"].replace(",", "")):
            return match.end("num") + after.end()
        return None

    def vague_before(self, start: int) -> bool:
        before = self.text[max(0, start - 12):start].rstrip().lower()
        return before.endswith(_lowered(number_vocabulary().vague))

    def _with_unit(self, mention: Mention) -> Mention:
        if mention.unit:
            return mention
        for unit, pattern in self.rules.units_after:
            found = pattern.match(self.text, mention.end)
            if found:
                return _replace(mention, unit=unit)
        return mention

    def _qualified(self, mention: Mention) -> Mention:
        qualifier = qualifier_near(self.text, mention.start, mention.end, self.rules)
        if mention.text.endswith("+"):
            qualifier = "over"
        return mention if qualifier == "exact" else _replace(mention, qualifier=qualifier)

    def _ranged(self, low: Mention) -> Mention:
        """"1.69 to 2.65", "10-18%", "3万至5万": the low end's mention with the range's high end."""
        joiners = alternation([*number_vocabulary().range_words, "-", "–"])
        after = re.match(rf"\s?(?:{joiners})\s?(?P<num>{DIGITS})", self.text[low.end:], re.I)
        if not after:
            return low
        hi_match = number_patterns().number.match(self.text, low.end + after.start("num"))
        if not hi_match or hi_match.start() != low.end + after.start("num"):
            return low
        high = self.number(hi_match)
        if high is None or (low.kind != NUMBER and high.kind != low.kind) or high.kind not in QUANTITIES:
            return low
        kind = high.kind if low.kind == NUMBER else low.kind
        # "3 to 5 million", "3至5万": a bare low end takes the high end's magnitude.
        bare_low = re.fullmatch(r"[\d,.]+", low.text) is not None
        factor = (high.value or 0) / float(hi_match["num"].replace(",", "")) if bare_low else 1.0
        value = (low.value or 0) * factor
        if value >= (high.value or 0):
            return low
        return Mention(kind, self.text[low.start:high.end], low.start, high.end, value, high.value,
                       max(low.tol * factor, high.tol), f"{canonical(value)}-{canonical(high.value or 0)}",
                       high.unit or low.unit, low.qualifier, low.digits)

    def finished(self) -> list[Mention]:
        return sorted(self.mentions, key=lambda m: m.start)


# ---- the pieces -------------------------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _lowered(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words in lower case, as one tuple: `str.endswith` tries them all in one call."""
    return tuple(word.lower() for word in words)


def _replace(mention: Mention, **changes) -> Mention:
    return Mention(**{**mention.__dict__, **changes})












def _multiplier_word(match: re.Match) -> Mention:
    value = number_vocabulary().multipliers[match.group().lower()]
    return Mention(MULTIPLIER, match.group(), match.start(), match.end(), value, value, 0.0, canonical(value), "x",
                   digits=significant(canonical(value)))




def _fraction(match: re.Match) -> Mention | None:
    num = match["num"] or match["num2"]
    den = match["den"] or match["den2"]
    if not den or int(den) == 0 or int(num) >= int(den):
        return None
    value = int(num) / int(den)
    return Mention(FRACTION, match.group(), match.start(), match.end(), value, value, 0.0,
                   f"{num}/{den}", "x", digits=f"{num}/{den}")


def _word_number(match: re.Match) -> Mention | None:
    vocabulary = number_vocabulary()
    if match["mult"]:
        value = vocabulary.multipliers[match["mult"].lower()]
        return Mention(MULTIPLIER, match.group(), match.start(), match.end(), value, value, 0.0, canonical(value), "x",
                       digits=significant(canonical(value)))
    value = vocabulary.words[match["word"].lower()]
    if match["word2"]:
        second = vocabulary.words[match["word2"].lower()]
        value = value * second if second >= 100 else value + second
    if match["scale"]:
        value *= vocabulary.scales[match["scale"].lower()]
    kind, unit = (PERCENT, "%") if match["percent"] else (MULTIPLIER, "x") if match["times"] else (NUMBER, None)
    if kind == NUMBER and not match["scale"] and value < 2:
        return None
    return Mention(kind, match.group(), match.start(), match.end(), value, value, 0.0, canonical(value), unit,
                   digits=significant(canonical(value)))


def _date(match: re.Match) -> Mention | None:
    text = match.group()
    if match["en"]:
        parts = re.findall(r"[A-Za-z]+|\d+", text)
        month = next((i + 1 for i, name in enumerate(MONTHS) if name.startswith(parts[0 if parts[0].isalpha() else 1]
                                                                                    .lower()[:3])), None)
        numbers = [int(p) for p in parts if p.isdigit()]
        day, year = (numbers[0], numbers[1]) if len(numbers) == 2 else (None, None)
        if month is None or year is None:
            return None
        norm = f"{year:04d}-{month:02d}-{day:02d}"
    else:
        date = parse_date(text)
        if date is not None:
            norm = date.isoformat()
        else:
            year_month = re.match(r"((?:19|20)\d{2})\s?年\s?(\d{1,2})\s?月", text)
            if not year_month:
                return None
            norm = f"{int(year_month[1]):04d}-{int(year_month[2]):02d}"
    return Mention(DATE, text, match.start(), match.end(), norm=norm)


def mention_rows(doc_id: str, seg_idx: int, mentions: Iterable[Mention]) -> Iterator[dict]:
    """The `mentions` table's rows of one segment."""
    for index, m in enumerate(mentions):
        yield {"doc_id": doc_id, "seg_idx": seg_idx, "mention_idx": index, "kind": m.kind, "text": m.text,
               "value_num": m.value, "value_max": m.value_max, "value_tol": m.tol, "norm": m.norm, "unit": m.unit,
               "qualifier": m.qualifier, "digits": m.digits, "name": m.name, "char_start": m.start,
               "char_end": m.end}
