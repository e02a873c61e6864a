"""Values a sentence states in words rather than figures, and the clause around a position.

- Dependency versions: a product's version next to a support word ("支援 Python 3.12",
  "Python 3.12対応", "support for Python 3.12"; `supports` in lang/<code>/rules.yaml) is supported,
  next to a word ending support ("サポートされなくなり", "弃用": `support_ended`) dropped, else mentioned.
- Relation terms: the Latin terms a relation phrase names ("CPUまたはNVMe" in
  "CPUまたはNVMeメモリにオフロード"; `relations` in rules.yaml, `relation_terms` in
  lang/common.yaml, joined by `conjunctions`), one per term.
- Around a value: the attribute word nearest to it ("速度", "throughput") and the baseline it is
  compared with ("vs FlashAttentionV2"); a release a sentence compares with ("比 PyTorch 2.4 快").
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..lang import profile
from .clauses import COMMA, clause_bounds, comma_part
from .entities import COUNT, QUANTITY, VERSION, Entity
from .notation import alternation, version_number
from .reader import MULTIPLIER, NUMBER, PERCENT, Reading
from .rules import CHANGES, DIRECTED_CHANGES, Rules, conjunctions, not_names, product_named, relation_joiners, rules_for
from .subjects import is_generic

_SUPPORT_WINDOW = 12  # characters between a dependency's version and the word saying it is supported
_ATTRIBUTE_WINDOW_AFTER = 14
_ATTRIBUTE_WINDOW_BEFORE = 24
# ...or, in spaced text, to the end of the third word after the figure, where characters would cut
# the noun off its modifiers ("up to 2x better write throughput"); a conjunction ends the figure's
# phrase ("lasts 20 hours and charges in 45 minutes": charging is the next figure's).
_WORDS_AFTER = 3


def baseline_near(text: str, lang: str, start: int, end: int) -> tuple[str | None, tuple[int, int] | None]:
    """The baseline a clause compares the value at [start, end) with ("vs FlashAttentionV2"), and its span;
    none where it names a kind of thing ("faster than the model…"), nothing ("than those built
    with…") or the earlier one ("than its predecessor", "than the previous generation": `earlier`),
    what a change is measured against when nothing is named ("前モデル比で約20%削減")."""
    rules = rules_for(lang)
    clause_start, clause_end = clause_bounds(text, start)
    for pattern in rules.baselines:
        for match in pattern.finditer(text, clause_start, clause_end):
            base = match["base"].strip()
            # (nor a word that names nothing: "than those built with the previous release")
            if not is_generic(base) and not rules.previous.search(base) and base.casefold() not in not_names():
                return base, match.span("base")
    return None, None


def attribute_near(text: str, lang: str, start: int, end: int, of: str = "figure") -> str | None:
    """The attribute keyword nearest to the value at [start, end) within its clause, close by (of a
    "figure": `attributes`; of "money": `money_attributes`, "priced at", "售价"; of a "duration",
    what it is the span of, `duration_attributes`, else anywhere in the clause: "the charge time
    drops from 26 to 21 minutes"; of "tokens", likewise: "pretrained on a dataset of up to 18T
    tokens"); or, of a "date", what it is the date of ("released on…", "将于…停止维护":
    `date_attributes`), anywhere in it. Money is priced in its part of the clause, commas bounding
    it ("costs $1,850 per seat, and … for teams with annual revenue under $200,000": no price)."""
    low, high = _money_part(text, start, end) if of == "money" else clause_bounds(text, start)
    keyed = rules_for(lang).attribute_words[of]
    if of == "date":
        return _nearest_keyword(keyed, text, start, end, low, high)
    words = _words_after().match(text, end)
    after = max(end + _ATTRIBUTE_WINDOW_AFTER, words.end() if words else end)
    close = max(low, start - _ATTRIBUTE_WINDOW_BEFORE), min(high, after)
    found = _nearest_keyword(keyed, text, start, end, *close)
    if found is None and words:  # (a keyword starting in the words after may end further on: "1.5x as many requests per second")
        found = _nearest_keyword(keyed, text, start, end, end, high, starts_before=words.end())
    if found is None and of == "figure" and rules_for(lang).change_by.search(text, low, start):
        found = _nearest_keyword(keyed, text, start, end, low, start)  # ("cut … by 18%": the verb, further back)
    if found is None and of in ("duration", "tokens"):
        found = _nearest_keyword(keyed, text, start, end, _clause_opened(text, lang, low, start), high)
    return found


@functools.lru_cache(maxsize=16)
def _clause_openers(lang: str) -> re.Pattern:
    words = alternation(profile(lang).rules.get("clause_openers") or [])
    return re.compile(rf"(?:{COMMA.pattern})\s*(?:{words})(?![A-Za-z])", re.I) if words else re.compile("(?!)")


def _clause_opened(text: str, lang: str, low: int, start: int) -> int:
    """Where the last part of text[low:start] that a comma and a clause opener begin starts ("…for
    training, and the company says … after 30 days": at ", and"), else `low` (`clause_openers`)."""
    return max((m.start() for m in _clause_openers(lang).finditer(text, low, start)), default=low)


_LEAD_IN_CHARS = 16  # a short part with no figure before a comma: what the clause is about ("价格方面,")


def _money_part(text: str, start: int, end: int) -> tuple[int, int]:
    """The comma-bounded part of the clause an amount of money is in, with the short part before it
    that names what the clause is about ("价格方面，团队版调整为每用户每月 39 美元"); not a part with a
    figure of its own ("costs $1,850 per seat, and … under $200,000")."""
    low, high = comma_part(text, start, end)
    if low > clause_bounds(text, start)[0] + 1:
        lead, _ = comma_part(text, low - 2, low - 2)
        if low - lead <= _LEAD_IN_CHARS and not any(char.isdigit() for char in text[lead:low]):
            return lead, high
    return low, high


# Spans of time that are measures a release can change ("up to 20% longer battery life").
_MEASURED_DURATIONS = frozenset({"battery_life", "charge_time"})


def measure_near(text: str, lang: str, start: int, end: int, low: int = 0) -> str | None:
    """What the change at [start, end) measures: the nearest word naming a measure in its clause
    (`measured_attributes`; the bytes words, memory and storage; a figure's own measures, latency
    and throughput; battery life and charge time), before it or in its part of the clause ("计算速度
    提高了约 15 倍,内存访问速度提高了约 2 倍": 15x is no memory's), not before `low`, where an earlier
    figure ends ("起動時間を30%短縮したほか、…ファイルを開く速度は最大4倍に向上": the startup word is the 30%'s);
    where none is named, the operation it speeds up ("索引构建速度提升 3 倍", "Opening large files is up to
    3x faster": `operation_attributes`); else None."""
    return _nearest_before_or_in_part(_measure_words(lang), text, start, end, low) or _nearest_before_or_in_part(
        rules_for(lang).attribute_words["operation"], text, start, end, low
    )


def change_near(text: str, lang: str, start: int, end: int) -> str | None:
    """Which way the figure at [start, end) of a measure changed ("cuts p99 publish latency by 40%":
    reduction): the nearest directed change word before it or in its part of the clause, else None."""
    return _nearest_before_or_in_part(_change_words(lang), text, start, end)


@functools.lru_cache(maxsize=16)
def _measure_words(lang: str) -> list[tuple[str, re.Pattern]]:
    words = rules_for(lang).attribute_words
    return (
        words["measured"]
        + words["bytes"]
        + [(attribute, pattern) for attribute, pattern in words["figure"] if attribute not in CHANGES]
        + [(attribute, pattern) for attribute, pattern in words["duration"] if attribute in _MEASURED_DURATIONS]
    )


@functools.lru_cache(maxsize=16)
def _change_words(lang: str) -> list[tuple[str, re.Pattern]]:
    words = rules_for(lang).attribute_words
    return [
        (attribute, pattern) for attribute, pattern in words["figure"] + words["improvement"] if attribute in DIRECTED_CHANGES
    ]


def _nearest_before_or_in_part(keyed: list[tuple[str, re.Pattern]], text: str, start: int, end: int, low: int = 0) -> str | None:
    """The nearest keyword to [start, end) in its clause (not before `low`), before it or in its part of the clause."""
    return _nearest_keyword(keyed, text, start, end, max(low, clause_bounds(text, start)[0]), comma_part(text, start, end)[1])


def _nearest_keyword(
    keyed: list[tuple[str, re.Pattern]], text: str, start: int, end: int, low: int, high: int, starts_before: int | None = None
) -> str | None:
    best: tuple[int, str] | None = None
    for attribute, pattern in keyed:
        for match in pattern.finditer(text, low, high):
            if starts_before is not None and match.start() >= starts_before:
                break
            gap = match.start() - end if match.start() >= end else start - match.end()
            if best is None or gap < best[0]:
                best = (gap, attribute)
    return best[1] if best else None


def share_of_counted(text: str, lang: str, entity: Entity, entities: Sequence[Entity]) -> str | None:
    """ "share_of_<noun>" when the percentage at `entity` is a share of a set its clause counts: the
    set before it, joined by a language's `shares.before` ("在 193 个模型中有 97.5%", "193 個のモデルの
    うち約97.5%"), or after it, by `shares.after` and a counted noun with or without its number
    ("97.5% of the 193 models", "97.5% 的模型"). So a share is keyed by what it is a share of,
    whatever else the sentence says of it ("…中有 97.5% 超过了 eager 模式")."""
    rules = rules_for(lang).for_text(text)
    low, high = clause_bounds(text, entity.start)
    counted = [e for e in entities if e.label in (COUNT, QUANTITY) and e.unit and low <= e.start and e.end <= entity.start]
    for count in sorted(counted, key=lambda e: -e.end):
        if any(link.fullmatch(text, count.end, entity.start) for link in rules.shares_before):
            return f"share_of_{count.unit}"
    for link in rules.shares_after:
        if joined := link.match(text, entity.end, high):
            number = _COUNT_NUMBER.match(text, joined.end(), high)
            after = number.end() if number else joined.end()
            unit = next((unit for unit, pattern in rules.units if pattern.match(text, after, high)), None)
            if unit:
                return f"share_of_{unit}"
    return None


_COUNT_NUMBER = re.compile(r"\s?\d[\d,]*\s?")


SUPPORTED, DROPPED, MENTIONED = "supports", "drops", "mentions"
# ...and the least version a release requires or recommends.
MINIMUM, RECOMMENDED = "minimum", "recommended"
_CHANGE_GAP = 16  # characters between a figure and the one it changed to, its unit and the word between
_FIGURE_KINDS = (NUMBER, PERCENT, MULTIPLIER)
_MINIMUM_BEFORE_WINDOW = 12  # characters before a version where a word making it the least one may end


def dependency_versions(text: str, lang: str, entities: Sequence[Entity]) -> list[tuple[Entity, str]]:
    """Each version of a named product in the text with what the text says of it: SUPPORTED when a
    support word ("支持", "対応", "support", "引入") points at it, DROPPED when a word ending support
    does ("弃用", "サポートされなくなり", "deprecates"), else MENTIONED. A word points at the version
    nearest to it in its clause, within a few characters ("CUDA 11是第一个支持C++17的": C++17, not
    CUDA 11), and at the versions a list joins to that one ("弃用CUDA 10.2和11.3": both); an ending
    word after a support word's list ends it ("Support for Python 3.8 has now been removed").
    A version the text makes the least one ("OpenSSL 1.1.0 or later", "至少 CUDA 11.8", "OpenSSL 的
    最低版本要求提升至 1.1.1": `minimum_versions` in rules.yaml) is MINIMUM, or RECOMMENDED where its
    clause recommends it ("4.37.0以降が推奨"), unless it is dropped or the one before ("up from LLVM
    3.9 or later previously")."""
    rules = rules_for(lang).for_text(text)
    versions = sorted((e for e in entities if e.label == VERSION and e.product), key=lambda e: e.start)
    least = _least_versions(text, rules, versions)
    versions = sorted([*versions, *(e for e in least if e not in versions)], key=lambda e: e.start)
    if not versions:
        return []
    status: dict[int, str] = {}
    words = [(SUPPORTED, m) for pattern in rules.supports for m in pattern.finditer(text)]
    words += [(DROPPED, m) for pattern in rules.support_ended for m in pattern.finditer(text)]
    for kind, word in sorted(words, key=lambda w: w[0] == DROPPED):  # an ending word has the last say
        low, high = clause_bounds(text, word.start())
        # A comma stops a word ("10.2 はサポートされなくなり、CUDA 11.6 への移行": not 11.6); lists go on past
        # it. So does a conjunction before the word ("supports Vulkan 1.4 and drops DirectX 11": not 1.4).
        near = [
            e
            for e in versions
            if low <= e.start
            and e.end <= high
            and _gap(e, *word.span()) <= _SUPPORT_WINDOW
            and not COMMA.search(text, min(e.end, word.end()), max(e.start, word.start()))
            and not (e.end <= word.start() and relation_joiners().search(text, e.end, word.start()))
        ]
        if not near:
            continue
        nearest = min(near, key=lambda e: _gap(e, *word.span()))
        listed = _listed_with(text, versions, nearest)
        # "Support for Python 3.8 has now been completely removed", "Python 3.8 support has been
        # removed": an ending word later in the part the commas bound, past the list and the support
        # word, before any conjunction, ends the support the word names.
        last = max(word.end(), *(e.end for e in listed))
        tail = text[last : comma_part(text, last, last)[1]]
        tail = tail[: joiner.start()] if (joiner := relation_joiners().search(tail)) else tail
        ended_later = any(pattern.search(tail) for pattern in rules.support_ended)
        for entity in listed:
            # "不再支持 CUDA 10.2", "Support for CUDA 11.6 ends": an ending word around a support word.
            # (not past a conjunction after the version: "supports Vulkan 1.4 and drops DirectX 11")
            end = min(high, max(word.end(), entity.end) + _SUPPORT_WINDOW)
            end = joiner.start() if (joiner := relation_joiners().search(text, max(word.end(), entity.end), end)) else end
            around = text[max(low, min(word.start(), entity.start) - _SUPPORT_WINDOW) : end]
            ended = kind == DROPPED or ended_later or any(pattern.search(around) for pattern in rules.support_ended)
            status[entity.start] = DROPPED if ended else kind
    for entity in least:
        if status.get(entity.start) != DROPPED:
            recommended = rules.recommends.search(text, *comma_part(text, entity.start, entity.end))
            status[entity.start] = RECOMMENDED if recommended else MINIMUM
    return [(e, status.get(e.start, MENTIONED)) for e in versions]


def support_ends_around(text: str, lang: str, position: int) -> bool:
    """Whether a word ending support is in the part of the sentence around `position`, commas
    bounding it ("Support for the AIX operating system has been removed", "AIXはサポート対象から外れた")."""
    low, high = comma_part(text, position, position)
    return any(pattern.search(text, low, high) for pattern in rules_for(lang).for_text(text).support_ended)


def _least_versions(text: str, rules: Rules, versions: list[Entity]) -> list[Entity]:
    """The versions the text makes the least one: a version with a minimum word after or right before
    it, and a product's minimum a phrase names apart from a version ("X 的最低版本要求提升至 1.1.1")."""
    least = []
    for e in versions:
        before = text[max(0, e.start - _MINIMUM_BEFORE_WINDOW) : e.start]
        after = rules.minimum_after.match(text, e.end)
        if (e.text.endswith("+") or after or rules.minimum_before.search(before)) and not _former(text, rules, e, after):
            least.append(e)
    for pattern in rules.minimum_stated:
        for match in pattern.finditer(text):
            named = next((e for e in versions if e.start <= match.start("ver") < e.end), None)
            if named is not None:
                least.append(named)
            elif (product := product_named(match["name"])) and not rules.former_after.match(text, match.end()):
                version = version_number(match["ver"])
                # (the version's own span: no list runs on from another version to the product's name)
                start, end = match.span("ver")
                least.append(Entity(VERSION, version, start, end, f"{product} {version}", product=product, version=version))
    return least


def is_former(text: str, lang: str, entity: Entity) -> bool:
    """The text turns from the version at `entity` ("upgrading from Jenkins 2.462", "unlike Django
    5.0", "从 2.4 升级到 2.5"): a release a sentence contrasts with, not the one it is about."""
    return _turned_from(text, rules_for(lang).for_text(text), entity, None)


def changed_from(text: str, lang: str, readings: Sequence[Reading], start: int) -> bool:
    """The figure at `start` is the one a sentence says a value changed from: a figure of the same
    kind and unit follows it, a word turning from it (`former_after`) between them ("由 26 分钟缩短至
    21 分钟", "990円から1190円に", "from 26 minutes to 21 minutes"), or comes shortly before it, a
    word turning from it right before it (`former_before`: "takes 21 minutes, down from 26 minutes").
    Not "cut by 30% to 2 hours" (another unit), nor "3万9800円から" (a price from which none follows)."""
    rules = rules_for(lang).for_text(text)
    figures = [r for r in readings if r.kind in _FIGURE_KINDS]  # (in text order, as `reader.read` gives them)
    for this, then in itertools.pairwise(figures):
        if (this.kind, this.unit) != (then.kind, then.unit):
            continue
        between = text[this.end : then.start + 1]  # (en's `former_after` ends at the next digit)
        if this.start == start and len(between) <= _CHANGE_GAP and rules.former_after.search(between):
            return True
        if then.start == start and then.start - this.end <= 2 * _CHANGE_GAP:
            return bool(rules.former_before.search(text, max(this.end, start - _MINIMUM_BEFORE_WINDOW), start))
    return False


def _turned_from(text: str, rules: Rules, entity: Entity, after: re.Match | None) -> bool:
    before = text[max(0, entity.start - _MINIMUM_BEFORE_WINDOW) : entity.start]
    return bool(
        rules.former_before.search(before)
        or rules.former_after.match(text, entity.end)
        or (after and rules.former_after.match(text, after.end()))
    )


def _former(text: str, rules: Rules, entity: Entity, after: re.Match | None) -> bool:
    """Whether the text makes a version the one before ("up from LLVM 3.9 or later previously",
    "これまでのLLVM 3.9以降から", "从 Python 3.8 提升到"): no least version of the release."""
    before = text[max(0, entity.start - _MINIMUM_BEFORE_WINDOW) : entity.start]
    return _turned_from(text, rules, entity, after) or bool(rules.previous.search(before))


@functools.cache
def _list_gap() -> re.Pattern:
    """What may stand between two items of a list: a comma (and a conjunction after it) or a conjunction."""
    return re.compile(rf"\s*,\s*(?:(?:and|or)\s+)?|{relation_joiners().pattern}")


def _listed_with(text: str, versions: list[Entity], entity: Entity) -> list[Entity]:
    """`entity` and the versions of the same product a list joins to it ("10.2 および 11.3",
    "CUDA 11.6和CUDA 11.7", "3.10, 3.11 and 3.12")."""
    index = versions.index(entity)
    listed = [entity]
    for step in (-1, 1):
        position = index
        while 0 <= position + step < len(versions):
            left, right = sorted((versions[position], versions[position + step]), key=lambda e: e.start)
            if right.product != left.product or not _list_gap().fullmatch(text[left.end : right.start]):
                break
            position += step
            listed.append(versions[position])
    return listed


@dataclass(frozen=True)
class Term:
    text: str
    start: int
    end: int


def terms(value: str, offset: int) -> list[Term]:
    """ "CPUまたはNVMe" -> CPU, NVMe, with their offsets in the segment (`value` starts at `offset`)."""
    found, position = [], 0
    for joiner in [*relation_joiners().finditer(value), None]:
        end = joiner.start() if joiner else len(value)
        found.append(Term(value[position:end], offset + position, offset + end))
        position = joiner.end() if joiner else end
    return [t for t in found if t.text]


def is_baseline(text: str, lang: str, entity: Entity) -> bool:
    """ "比 PyTorch 2.4 快", "than PyTorch 2.4", "smoother than the 60Hz screens": the entity is what the
    sentence compares with (an amount read where a name would be)."""
    if entity.label == QUANTITY:
        text = text[: entity.start] + "X" + text[entity.end :]
    return any(match.start("base") == entity.start for pattern in rules_for(lang).baselines for match in pattern.finditer(text))


def cued(text: str, entity: Entity, words: dict[str, list[str]]) -> bool:
    """A word of `words` ends right before the entity ("since 2.2", "per 1,000 tokens") or starts right
    after it ("2.2以来", "1GBあたり"): language data, `since`, `until`, `per`."""
    before = text[max(0, entity.start - 24) : entity.start].rstrip().casefold()
    after = text[entity.end : entity.end + 12].lstrip()
    return any(before.endswith(word.casefold()) for word in words.get("before", ())) or after.startswith(
        tuple(words.get("after", ()))
    )


def is_difference(text: str, lang: str, entity: Entity) -> bool:
    """The amount at `entity` is a difference, not a value: a word of `differences` (language data)
    ends right before it ("extended by two years", "延长了两年") or follows it, past its unit ("two
    hours longer than", "2 GB more memory", "2年長い")."""
    words = profile(lang).differences
    return cued(text, entity, words) or _difference_after(lang).match(text, entity.end) is not None


@functools.lru_cache(maxsize=16)
def _difference_after(lang: str) -> re.Pattern:
    words = alternation(profile(lang).differences.get("after") or ["(?!)"])
    # (past a unit: a Latin word, or up to three Han or katakana letters, not a particle: "7年に延長" is a value)
    return re.compile(rf"\s?(?:[A-Za-z]+\s|[\u30a0-\u30ff\u4e00-\u9fff]{{0,3}}?)?(?:{words})(?![A-Za-z])", re.I)


_VERSION_AT_END = re.compile(r"\s?[vV]?\d[\w.+-]*$")


def compares_with_release(text: str, lang: str, entity: Entity) -> bool:
    """ "Compared with Nesol 7.5", "Nesol 7.5と比べて", "与 Orvane OS 6.1 相比": the sentence compares with
    the release at `entity`, read as the last word of its product's name would be, in any case (the
    baseline patterns name one-word products, and the capture of a claim's baseline stays as it is:
    this only says which release an article is not about)."""
    number = _VERSION_AT_END.search(text, entity.start, entity.end)
    name = text[entity.start : number.start() if number is not None else entity.end].split()
    text = text[: entity.start] + (name[-1] if name else "") + text[entity.end :]
    return any(match.start("base") == entity.start for pattern in _any_case(lang) for match in pattern.finditer(text))


@functools.lru_cache(maxsize=1)
def _words_after() -> re.Pattern:
    joiners = alternation(conjunctions(latin=True))
    return re.compile(rf"(?:[\s-]+(?!(?:{joiners})\b)[A-Za-z][\w'-]*){{1,{_WORDS_AFTER}}}", re.I)


@functools.lru_cache(maxsize=16)
def _any_case(lang: str) -> tuple[re.Pattern, ...]:
    return tuple(re.compile(pattern.pattern, pattern.flags | re.IGNORECASE) for pattern in rules_for(lang).baselines)


def _gap(entity: Entity, start: int, end: int) -> int:
    """Characters between the entity and the span [start, end)."""
    return entity.start - end if entity.start >= end else start - entity.end
