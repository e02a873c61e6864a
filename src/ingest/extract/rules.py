"""The rules of a text's languages, compiled from their profiles (`lang/<code>/rules.yaml`) and the
rules every language shares (`lang/common.yaml`), and the lexical matches they make: product
versions, hardware and maturity words."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from ..lang import FALLBACK, LanguageProfile, common_rules, every_language, profile, profiles, quotation_pairs
from .notation import alternation, version_number, vocabulary
from .prefilter import Prefilter

# The maturity values of a thing released for use: they agree with one another ("now stable" /
# "正式版となった", "generally available" / "LTS"); only a pre-release status contradicts them.
RELEASE_STATUSES = frozenset({"generally_available", "stable", "long_term_support"})

_EDGE_BEFORE = r"(?<![A-Za-z0-9.])"
_EDGE_AFTER = r"(?![A-Za-z0-9])"


@dataclass(frozen=True)
class Rules:
    langs: tuple[str, ...]
    versions: list[tuple[str, re.Pattern]]
    version_list: re.Pattern
    hardware: list[tuple[str, re.Pattern]]
    maturity: list[tuple[str, re.Pattern]]
    lifecycle: list[tuple[str, re.Pattern]]  # status past maturity ("deprecated", "非推奨"): renderings only
    maturity_sections: list[tuple[str, re.Pattern]]
    other_sections: re.Pattern
    attribute_words: dict[str, list[tuple[str, re.Pattern]]]  # by a value's kind (`_ATTRIBUTE_FAMILIES`)
    change_by: re.Pattern  # right before a figure: the amount of a change its clause's verb names ("cut X by 18%")
    qualifiers: list[tuple[str, re.Pattern]]  # words right before a value that hedge it ("nearly")
    qualifiers_after: list[tuple[str, re.Pattern]]  # ...and right after it, past its unit ("以上", "+")
    baselines: list[re.Pattern]
    supports: list[re.Pattern]  # words saying a release supports a dependency's version
    support_ended: list[re.Pattern]  # ...and words saying that support ends ("no longer")
    minimum_after: re.Pattern  # right after a version: it is the least one ("or later", "以降", "及以上")
    minimum_before: re.Pattern  # ...and right before it, at the end of the text before ("at least", "至少")
    minimum_stated: list[re.Pattern]  # a product's minimum named apart (groups `name`, `ver`: "X 的最低版本要求提升至 1.1.1")
    recommends: re.Pattern  # a clause recommending a minimum rather than requiring it ("recommend", "推奨")
    former_before: re.Pattern  # ...and words making a version the one turned from, right before it ("from", "unlike", "从")
    previous: re.Pattern  # ...or the previous one ("これまでの", "此前的": `earlier`): no minimum now, still a release spoken of
    former_after: re.Pattern  # ...or right after it or its minimum word ("から", "提升到", "previously")
    relations: list[tuple[str, re.Pattern]]  # attribute -> a phrase naming its value in words (group `value`)
    units: list[tuple[str, re.Pattern]]  # the unit or counted noun right after a number
    shares_before: list[re.Pattern]  # what joins a counted set to a share of it after it ("193 个模型中有 97.5%")
    shares_after: list[re.Pattern]  # ...and a share to the set after it ("97.5% of the 193 models")
    fraction_factor: re.Pattern  # words after a fraction that make it a factor ("1/4に")
    negation: re.Pattern  # words that deny a relation phrase next to them ("不再", "no longer"): none is read there
    instrument_before: re.Pattern  # words right before a name that make it a tool ("using DeepNVMe", "借助 X")
    instrument_after: re.Pattern  # ...and right after it ("DeepNVMe を使用して")
    prefilter: Prefilter | None = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.prefilter is None:  # built once per language; narrowed copies share it
            lists = {name: getattr(self, name) for name in _PATTERN_LISTS}
            # cast: each narrowed list goes back to its own field, which one dict type cannot say.
            object.__setattr__(
                self,
                "prefilter",
                Prefilter(lists, lambda narrowed: dataclasses.replace(self, **cast("dict[str, Any]", narrowed))),
            )

    def for_text(self, text: str) -> Rules:
        """These rules without the patterns that cannot match `text` (see `prefilter`): the same
        matches in `text` and in any part of it, for a fraction of the scans."""
        assert self.prefilter is not None
        return self.prefilter.narrowed(text)


_PATTERN_LISTS = tuple(f.name for f in dataclasses.fields(Rules) if str(f.type).startswith("list["))


def _alternation(patterns: list[str]) -> str:
    return "|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True))


def _listed(rule_sets: list[dict], key: str, part: str | None = None) -> str:
    """The patterns the rule files list under `key` (or its `part`), as one alternation (one that never matches: none)."""
    listed = [p for rules in rule_sets for p in ((rules.get(key) or {}).get(part, []) if part else rules.get(key, []))]
    return _alternation(listed or ["(?!)"])


def conjunctions(latin: bool | None = None) -> list[str]:
    """The conjunctions of every language (all, or only the Latin or only the other ones)."""
    words = [str(w) for w in every_language("conjunctions")]
    return [w for w in words if latin is None or w.isascii() == latin]


def _version_patterns(common: dict) -> list[tuple[str, re.Pattern]]:
    infix = common["version_infix"].replace("{version_words}", alternation(vocabulary().version_words))
    compiled = []
    for product in common["products"]:
        number = r"\d+(?:\.\d+){1,3}\+?" + (r"|\d+(?![.\d])" if product.get("major_only") else "")
        glue = "(?P<paren>(?!))?" if product.get("glued") else infix
        # "Python (3.12)" keeps its closing bracket; "Python 3.8-3.11" is a range, not a version.
        name = rf"{_EDGE_BEFORE}(?P<name>{_alternation(product['names'])}){glue}(?P<ver>{number})"
        compiled.append((product["id"], re.compile(rf"{name}(?(paren)\)){_EDGE_AFTER}(?![-–~]\d)")))
    return compiled


# A value's kind -> its rules.yaml family of words saying what it is (`phrases.attribute_near`), by prefix.
_FAMILIES = ("date", "money", "duration", "bytes", "tokens", "measured", "operation", "improvement")
_ATTRIBUTE_FAMILIES = {"figure": ""} | {of: f"{of}_" for of in _FAMILIES}
# Attributes of a figure saying how something changed, not what ("down 18%"); the directed ones say which way.
CHANGES = frozenset({"reduction", "speedup", "slowdown", "performance", "improvement"})
DIRECTED_CHANGES = ("reduction", "speedup", "improvement")


def _keyed(mapping: dict | None, wrap: str = "{}", flags: int = 0) -> list[tuple[str, re.Pattern]]:
    return [(key, re.compile(wrap.replace("{}", _alternation(patterns)), flags)) for key, patterns in (mapping or {}).items()]


def _merged(rule_sets: list[dict[str, Any]], family: str) -> dict[str, list[str]]:
    """One mapping key -> patterns of a family of keyed rules across rule sets (a key's patterns joined)."""
    merged: dict[str, list[str]] = {}
    for rules in rule_sets:
        for key, patterns in (rules.get(family) or {}).items():
            merged.setdefault(key, []).extend(p for p in patterns if p not in merged.get(key, []))
    return merged


def _chain(codes: tuple[str, ...]) -> list[LanguageProfile]:
    """The profiles whose rules apply to text of `codes`: each language (English's rules if it has
    none of its own), then the languages it extends (English, for text that quotes it)."""
    chain: list[LanguageProfile] = []
    for code in codes:
        own = profile(code)
        for member in (own if own.rules else profile(FALLBACK), *(profile(c) for c in own.extends)):
            if member.code not in {p.code for p in chain}:
                chain.append(member)
    return chain


@lru_cache(maxsize=16)
def rules_for(*codes: str | None) -> Rules:
    """The compiled rules for text in the languages `codes` (a segment's and its document's): the
    shared ones and those of each language and the languages it extends."""
    common = common_rules()
    chain = _chain(tuple(c or FALLBACK for c in codes))
    rule_sets = [p.rules for p in chain]
    every_profile = [p.rules for p in profiles().values()]
    devices = alternation(str(d) for d in every_language("devices"))
    joiners = alternation([*conjunctions(), *common["version_list_signs"]])
    return Rules(
        langs=tuple(c or FALLBACK for c in codes),
        versions=_version_patterns(common),
        version_list=re.compile(rf"(?P<join>\s*(?:{joiners})\s*)(?P<ver>\d+(?:\.\d+){{1,3}}){_EDGE_AFTER}"),
        hardware=[
            (
                hw["id"],
                re.compile(
                    rf"{_EDGE_BEFORE}(?:{hw['pattern'].replace('{device}', devices)})"
                    # (not an identifier in code: "Arc<T>", "Arc::new")
                    rf"(?=TM(?![A-Za-z0-9])|{_EDGE_AFTER})(?!<|::)"
                ),
            )
            for hw in common["hardware"]
        ],
        maturity=_keyed(_merged(rule_sets, "maturity"), flags=re.I),
        lifecycle=_keyed(_merged(rule_sets, "lifecycle"), flags=re.I),
        maturity_sections=_keyed(_merged(rule_sets, "maturity_sections"), flags=re.I),
        other_sections=re.compile(_listed(rule_sets, "other_sections"), re.I),
        attribute_words={of: _keyed(_merged(rule_sets, f"{p}attributes"), flags=re.I) for of, p in _ATTRIBUTE_FAMILIES.items()},
        change_by=re.compile(f"(?:{_listed(rule_sets, 'change_by')})$", re.I),
        # What is written next to a figure, like the figures themselves, is read in every language:
        # prose in one quotes another ("最多13倍" in an English review).
        qualifiers=_keyed(_merged([*every_profile, common], "qualifiers"), flags=re.I),
        qualifiers_after=_keyed(_merged([*every_profile, common], "qualifiers_after"), flags=re.I),
        baselines=[re.compile(p) for rules in rule_sets for p in rules.get("baselines", [])],
        supports=[re.compile(p, re.I) for rules in rule_sets for p in rules.get("supports", [])],
        support_ended=[re.compile(p, re.I) for rules in rule_sets for p in rules.get("support_ended", [])],
        minimum_after=re.compile(_listed(rule_sets, "minimum_versions", "after"), re.I),
        minimum_before=re.compile(rf"(?:{_listed(rule_sets, 'minimum_versions', 'before')})$", re.I),
        minimum_stated=[
            re.compile(p.replace("{name}", product_name_pattern()).replace("{version}", _STATED_VERSION), re.I)
            for rules in rule_sets
            for p in (rules.get("minimum_versions") or {}).get("stated", [])
        ],
        recommends=re.compile(_listed(rule_sets, "minimum_versions", "recommended"), re.I),
        former_before=re.compile(rf"(?:{_listed(rule_sets, 'minimum_versions', 'former_before')})$", re.I),
        former_after=re.compile(_listed(rule_sets, "minimum_versions", "former_after"), re.I),
        # the words that put a sentence about an earlier release (`earlier` in language.yaml), right
        # before a version, and a particle after them ("従来の", "此前的", "previous ")
        previous=re.compile(rf"(?<![A-Za-z])(?:{alternation([w for p in chain for w in p.earlier] or ['(?!)'])})\S?\s?$", re.I),
        # One pattern per phrase: the group `value` may appear once per pattern only.
        relations=[
            (attribute, re.compile(_relation_pattern(p), re.I))
            for rules in rule_sets
            for attribute, phrases in rules.get("relations", {}).items()
            for p in phrases
        ],
        # A unit ending in a Latin letter ends a word ("GB", not "GBit"); others may be followed by anything ("台のA100").
        units=_keyed(
            _merged([common, *every_profile], "units"), wrap=r"\s?(?:{})(?:(?<=[A-Za-z])(?![A-Za-z])|(?<![A-Za-z]))", flags=re.I
        ),
        shares_before=[re.compile(p, re.I) for rules in rule_sets for p in (rules.get("shares") or {}).get("before", [])],
        shares_after=[re.compile(p, re.I) for rules in rule_sets for p in (rules.get("shares") or {}).get("after", [])],
        fraction_factor=re.compile(
            rf"\s?(?:{alternation(w for rules in rule_sets for w in rules.get('fraction_factor_words', []))})"
        ),
        negation=re.compile(_listed(rule_sets, "negations"), re.I),
        instrument_before=re.compile(rf"(?:{_listed(rule_sets, 'instruments', 'before')})\s?$", re.I),
        instrument_after=re.compile(rf"^\s?(?:{_listed(rule_sets, 'instruments', 'after')})", re.I),
    )


# (a phrase naming a minimum makes a bare major one a version: "…is now LLVM 10")
_STATED_VERSION = rf"(?P<ver>\d+(?:\.\d+){{0,3}}){_EDGE_AFTER}"


def product_name_pattern() -> str:
    """A product's name in a phrase: one lang/common.yaml lists or one shaped like a name (`open_versions`),
    as the group `name` (written as it is: only the words around it ignore case)."""
    listed = _alternation([name for p in common_rules()["products"] for name in p["names"]])
    return rf"{_EDGE_BEFORE}(?P<name>(?-i:{listed}|{common_rules()['open_versions']['name']}))"


def product_named(name: str) -> str | None:
    """The product id of a name: a listed product's ("CUDA" -> cuda), else the name's slug ("Node.js" ->
    node-js); None for a word that names nothing ("The")."""
    for product in common_rules()["products"]:
        if any(re.fullmatch(pattern, name) for pattern in product["names"]):
            return str(product["id"])
    return None if name.casefold() in not_names() else _slug(name)


def _relation_pattern(phrase: str) -> str:
    """A relation phrase of rules.yaml with its placeholders filled: {terms}, {bench}, {score} (a
    number), {whole_score} (a number, whole or not)."""
    common = common_rules()
    return (
        phrase.replace("{terms}", relation_terms())
        .replace("{bench}", common["benchmark"])
        .replace("{score}", common["benchmark_score"])
        .replace("{whole_score}", common["benchmark_whole_score"])
    )


@lru_cache(maxsize=1)
def relation_terms() -> str:
    """The pattern of the Latin terms a relation names, joined by any language's conjunctions."""
    common = common_rules()
    joiner = alternation([*conjunctions(latin=False), *common["relation_term_signs"]])
    return (
        common["relation_terms"]
        .replace("{term}", common["relation_term"])
        .replace("{joiner}", joiner)
        .replace("{latin_joiner}", alternation(conjunctions(latin=True)))
    )


@lru_cache(maxsize=1)
def relation_joiners() -> re.Pattern:
    """What joins the terms of a relation ("CPUまたはNVMe", "CPU or NVMe")."""
    common = common_rules()
    return re.compile(
        rf"\s?(?:{alternation([*conjunctions(latin=False), *common['relation_term_signs']])})\s?"
        rf"|\s(?:{alternation(conjunctions(latin=True))})\s"
    )


@lru_cache(maxsize=1)
def coordination() -> re.Pattern:
    """What stands between two names a sentence joins as one list ("Apple M1 チップと functorch",
    "M1芯片和functorch", "FSDP2 and TorchRec"): a device word at most, then a conjunction of any
    language (an English one between spaces)."""
    devices = alternation(str(d) for d in every_language("devices"))
    glued, latin = alternation(conjunctions(latin=False)), alternation(conjunctions(latin=True))
    return re.compile(rf"\s?(?:(?:{devices})\s?)?(?:{glued}|\s(?:{latin})\s)\s?", re.I)


# ---- lexical matches ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Lexical:
    """A rule's match in a text: a product's version, a piece of hardware, a maturity word."""

    text: str
    start: int
    end: int
    norm: str
    product: str | None = None
    version: str | None = None


def versions_in(text: str, rules: Rules) -> Iterator[Lexical]:
    """Product versions ("PyTorch 2.5") and the lists that continue them ("CUDA 11.6 および 11.7"),
    then versions of products no list names ("Kubernetes 1.29": `open_versions` in lang/common.yaml;
    where the two overlap, the first read wins)."""
    for product, pattern in rules.versions:
        for match in pattern.finditer(text):
            version = version_number(match["ver"].rstrip("+"))
            yield Lexical(match.group(), match.start(), match.end(), f"{product} {version}", product, version)
            yield from _listed_after(text, rules, match.end(), product, listed=True)
    for match in (*_open_version().finditer(text), *_open_major_version().finditer(text)):
        name, version, start = match["name"], match["ver"], match.start()
        if match["kind"] and (name.casefold() in not_names() or _slug(name) in known_products() or name in _platforms()[1]):
            # "Download SDK 7.0", "Python SDK 1.2", "iOS SDK 11.0" (not iOS 11.0): the kind is all the name there is
            name, start = match["kind"].lstrip(" \t_-"), match.end("kind") - len(match["kind"].lstrip(" \t_-"))
        product = _slug(name)
        # (a listed product its own pattern did not take has no version here, "Python 3.8-3.11", unless in lower case: a package)
        # ("PostgreSQL 16.3 Released", "Next.js 14.2 or later": a release or minimum cue makes a
        # score-shaped number a version, as it makes a bare major one)
        scored = _reads_as_a_score(version) and not _version_cue().match(text, match.end())
        # ("L9", "A780发布": a model's name, not a version glued to a name of one letter or ending in a digit)
        model_number = match.start("ver") == match.end("name") and (len(name) == 1 or name[-1].isdigit())
        if name.casefold() in not_names() or (product in known_products() and not name.islower()) or scored or model_number:
            continue
        version = version_number(version)
        yield Lexical(text[start : match.end()], start, match.end(), f"{product} {version}", product, version)
        yield from _listed_after(text, rules, match.end(), product, listed=False)


def _listed_after(text: str, rules: Rules, position: int, product: str, listed: bool) -> Iterator[Lexical]:
    """The versions a list continues a product's version with ("CUDA 11.6 および 11.7", "OpenSSL 1.0.1 and 1.0.2")."""
    while (follow := rules.version_list.match(text, position)) is not None and _reads_as_a_version(text, rules, follow, listed):
        version = version_number(follow["ver"])
        yield Lexical(version, follow.start("ver"), follow.end("ver"), f"{product} {version}", product, version)
        position = follow.end()


# What follows a list's number that makes it no version of the list's product: a range or a date going
# on ("-3", "/02"), or a capitalised word ("34.0.0 Build Tools": another product's).
_NOT_A_LIST_VERSION = re.compile(r"\s?[-–~/.]\s?\d|\s[A-Z]")


def _reads_as_a_version(text: str, rules: Rules, follow: re.Match, listed: bool) -> bool:
    """A list's next number is a version of its product unless it reads as a figure ("Valkey 8.0, 1.2
    million", "Bun 1.1、12.5%高速"), a date ("2024.10.02"), or, for a product no list names, a score
    ("Llama 3.1, 88.6 on MMLU": its versions are told from scores by their shape) or another
    product's version (a listed product's list runs on into a heading's words: "CUDA 10.2 and 11.3
    CI/CD Deprecation")."""
    version, end = follow["ver"], follow.end("ver")
    return not (
        (not listed and (_reads_as_a_score(version) or _NOT_A_LIST_VERSION.match(text, end)))
        or int(version.split(".")[0]) >= 1000
        or _figure_word().match(text, end)
        or any(unit.match(text, end) for _, unit in rules.units)
    )


@lru_cache(maxsize=1)
def _figure_word() -> re.Pattern:
    """A scale, percent or multiplier word or sign right after a number ("1.2 million", "12.5%", "1.5x";
    not "x86": a Latin word ends there)."""
    words = vocabulary()
    signs = [*words.scales, *words.percent_signs, *words.percent_words, *words.multiplier_signs, *words.multiplier_suffixes]
    return re.compile(rf"\s?(?:{alternation(signs)})(?![A-Za-z0-9])", re.I)


@lru_cache(maxsize=1)
def _open_version() -> re.Pattern:
    shapes = common_rules()["open_versions"]
    kinds = alternation(every_language("dependency_kinds"))  # ("Linux kernel 5.15 or later": Linux's)
    lower = rf"(?!(?:{kinds})\b){shapes['lower_name']}(?=\s?v?(?:\d+\.\d+\.\d|\d+\.\d+{_version_cue().pattern}))"
    return re.compile(
        # ASCII edges: a CJK character next to the name or the version is no part of either ("在Llama 3.1上")
        # ("Quuxly® 3.5": a registered mark between name and version)
        rf"(?<![A-Za-z0-9_.\-/@#])(?P<name>{shapes['name']}|{lower}){_kind_word()}®?\s?(?:v(?=\d))?(?P<ver>{shapes['version']})"
        r"(?![A-Za-z0-9_%×]|\.\d|\s?[-–~]\s?\d)"  # not a range ("Foo 3.8-3.11")
    )


@lru_cache(maxsize=1)
def _open_major_version() -> re.Pattern:
    """A bare major version of a product no list names, where a cue follows it (`_version_cue`)."""
    shapes = common_rules()["open_versions"]
    return re.compile(
        # (the name as written: only the cues ignore case)
        rf"(?<![A-Za-z0-9_.\-/@#])(?P<name>(?-i:{shapes['name']})){_kind_word()}®?\s?(?:v(?=\d))?(?P<ver>{shapes['major']})"
        rf"(?![A-Za-z0-9_%×.,])(?={_version_cue().pattern})",
        re.I,
    )


@lru_cache(maxsize=1)
def _version_cue() -> re.Pattern:
    """A release or minimum cue of any language after a version (`major_version_cues`), past a closing
    quote or a kind of product ("「Frobnix 17」正式版", "LLVM 10以降", "Kiln 19.1 toolchain lands")."""
    cues = _alternation([str(cue) for cue in every_language("major_version_cues")])
    kinds = alternation([*every_language("product_kinds"), *every_language("dependency_kinds")])
    closers = re.escape("".join(pair[1] for pair in quotation_pairs()) + "\"”'’")
    return re.compile(rf"[{closers}]?\s?(?:(?:{kinds})\s?)?(?:{cues})", re.I)


@lru_cache(maxsize=1)
def _kind_word() -> str:
    """A word for the kind of product between a name and its version, as the group `kind` (optional):
    "Ember Engine 6.0", "Ember 引擎 6.0" and "Emberエンジン6.0" are releases of "ember"
    (`product_kinds` in lang/<code>/rules.yaml)."""
    return rf"(?P<kind>[\s_-]?(?i:{alternation(every_language('product_kinds'))})(?![A-Za-z]))?"


def model_variant_pattern() -> str:
    """A regular expression of what starts another model of a line after its name's slug ("pro",
    "max-2": `model_variants` in lang/common.yaml; "5" in "qwen2-5": another version). Not a size:
    "sable-2-34b" speaks for "sable-2"."""
    return rf"^(?:{alternation(common_rules()['model_variants'])}|[0-9.]+)(?:-|$)"


@lru_cache(maxsize=1)
def product_kind_ids() -> frozenset[str]:
    """The product ids of the words for a kind of product ("sdk", "engine"): a release named by one alone."""
    return frozenset(_slug(word) for word in every_language("product_kinds"))


def written_product(product: str, separators: str) -> str:
    """A pattern of how a product id is written: each hyphen as one of `separators` or none ("node-js"
    is "Node.js", "nodejs"), then maybe a word for its kind ("ember" is "Ember Engine")."""
    return re.escape(product).replace(r"\-", f"[{re.escape(separators)}]?") + _kind_word()


@lru_cache(maxsize=1)
def not_names() -> frozenset[str]:
    """Capitalised words that name nothing ("The", "Figure", "Since"), of every language, case-folded."""
    return frozenset(str(word).casefold() for word in every_language("not_names"))


def _reads_as_a_score(version: str) -> bool:
    """ "45.2" (MMLU 45.2), "0.85" (F1 0.85): two parts that read as a measured value, not a version."""
    parts = version.split(".")
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    major, minor = parts
    return (int(major) >= 10 and len(minor) == 1) or (major == "0" and len(minor) >= 2)


@lru_cache(maxsize=1)
def known_products() -> frozenset[str]:
    """Every product lang/common.yaml names (releases and dependencies)."""
    return frozenset(p["id"] for p in common_rules()["products"])


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def hardware_in(text: str, rules: Rules) -> Iterator[Lexical]:
    for template, pattern in rules.hardware:
        for match in pattern.finditer(text):
            groups = [_slug(g) for g in match.groups() if g][:1]
            yield Lexical(match.group(), match.start(), match.end(), template.format(*groups))


@lru_cache(maxsize=1)
def _platforms() -> tuple[re.Pattern, dict[str, str]]:
    """One pattern of every spelling, and each spelling's canonical name (one scan per text)."""
    names = {spelling: name for name, spellings in common_rules()["platforms"].items() for spelling in spellings}
    return re.compile(rf"{_EDGE_BEFORE}(?:{alternation(names)}){_EDGE_AFTER}"), names


def platforms_in(text: str) -> Iterator[Lexical]:
    """Operating systems and processor architectures ("Linux", "aarch64") with their canonical name
    (`platforms` in lang/common.yaml)."""
    pattern, names = _platforms()
    for match in pattern.finditer(text):
        yield Lexical(match.group(), match.start(), match.end(), names[match.group()])


def maturity_in(text: str, rules: Rules, lifecycle: bool = False) -> Iterator[Lexical]:
    """Maturity labels ("[Beta]", "ベータ", "正式にサポート") with their canonical value, and with
    `lifecycle` the status words past it ("deprecated", "已移除")."""
    for value, pattern in (*rules.maturity, *(rules.lifecycle if lifecycle else ())):
        for match in pattern.finditer(text):
            yield Lexical(match.group(), match.start(), match.end(), value)


@lru_cache(maxsize=1)
def release_products() -> frozenset[str]:
    """Products whose versions are releases an article can be about (not dependencies)."""
    return frozenset(p["id"] for p in common_rules()["products"] if p.get("release"))


def is_release_product(product: str | None) -> bool:
    """A product whose versions are releases: a listed release product, or one no list names
    ("Kubernetes 1.29"); not a listed dependency (Python, CUDA)."""
    return bool(product) and (product in release_products() or product not in known_products())


@lru_cache(maxsize=1)
def _release_product_names() -> Prefilter[tuple[str, re.Pattern], list[tuple[str, re.Pattern]]]:
    names = [
        (p["id"], re.compile(rf"{_EDGE_BEFORE}(?:{_alternation(p['names'])}){_EDGE_AFTER}"))
        for p in common_rules()["products"]
        if p.get("release")
    ]
    return Prefilter({"names": names}, lambda narrowed: narrowed["names"])


def release_products_named(text: str) -> set[str]:
    """The release products a text names, with or without a version ("DeepSpeed on Windows")."""
    return {product for product, pattern in _release_product_names().narrowed(text) if pattern.search(text)}
