"""The release an article describes: from its title, its original URL and its body.

The body wins over a title that names another release when it clearly describes that one
(the title is then noted on the document); releases the body counts from ("since 2.2",
"自2.2以来"), looks ahead to ("will be removed in 3.0", "将在3.0中移除": language data, `since` and
`until` in lang/<code>/language.yaml), compares with or turns from are no evidence of another; when
the title names a product, only that product's releases count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..lang import clause_mark_chars, every_language, profile, sentence_end_chars
from ..records import HEADING
from .clauses import comma_part
from .entities import MATURITY, MULTIPLIER, PERCENT, VERSION, Entity
from .notation import alternation, version_number, vocabulary
from .phrases import changed_from, compares_with_release, cued, is_former
from .rules import known_products, release_products, release_products_named, written_product
from .segments import SegmentInput
from .subjects import possessive_between


def product_of(release: str) -> str:
    """The product of a release: "pytorch" of "pytorch 2.5"."""
    return release.split(" ", 1)[0]


def releases_in(entities: Iterable[Entity], also: Collection[str] = ()) -> list[str]:
    """The releases `entities` name: versions of a release product of lang/common.yaml, or of `also`."""
    return [e.norm for e in entities if e.label == VERSION and (e.product in release_products() or e.product in also)]


def unlisted_products(entities: Iterable[Entity]) -> frozenset[str]:
    """Products named with a version that no list names ("Kubernetes 1.29"): in a title, the
    article is about one of their releases."""
    return frozenset(e.product for e in entities if e.label == VERSION and e.product and e.product not in known_products())


@dataclass(frozen=True)
class DocumentRelease:
    """The release an article describes, where that came from, and a note when its title disagrees."""

    release: str | None
    source: str | None = None  # title | url | body
    note: str | None = None


_URL_VERSION = re.compile(r"(\d+)[-_.](\d+)(?:[-_.](\d+))?")


def _url_release(source_url: str | None, title: str | None, unlisted: Collection[str] = ()) -> str | None:
    """'pytorch 2.4' from an original URL such as .../2024-07-24-pytorch2-4.md or .../pytorch-2-4-release/;
    the products looked for are the listed ones the URL or title names and the `unlisted` ones the
    title names with a version (".../kubernetes-v1-29-release/" under "Kubernetes v1.29: …")."""
    if not source_url:
        return None
    path = source_url.lower().rsplit("/", 2)
    tail = "/".join(path[-2:])
    products = {*release_products_named(source_url + " " + (title or "")), *unlisted}
    for product in sorted(products, key=len, reverse=True):
        match = re.search(rf"{written_product(product, '-_.')}[-_]?v?{_URL_VERSION.pattern}", tail)  # "nodejs", "node-js"
        if match:
            return f"{product} {version_number('.'.join(g for g in match.groups() if g))}"
    return None


def is_earlier(segment: SegmentInput, entity: Entity) -> bool:
    """ "since PyTorch 2.2", "自PyTorch 2.2以来": a release the article counts from, not its own."""
    return cued(segment.text, entity, profile(segment.lang).since)


def _elsewhere(segment: SegmentInput, entity: Entity, title_release: bool) -> bool:
    """The sentence names the release to count from ("since 2.2"), look ahead to ("will be removed in
    3.0", "3.0で削除される予定", "将在3.0中移除"), compare with ("Compared with 2.4", "2.4と比べて") or
    turn from ("upgrading from 2.4"): evidence of another release than the article's. (Not of
    another than the sentence's: "Windows 10 will be dropped in 4.0" is a fact of 4.0. And a roadmap
    looks ahead to its title's release: that one still counts, while "since 2.5" under a 2.5 title
    says the body is about a later one.)"""
    return (
        is_earlier(segment, entity)
        or (not title_release and cued(segment.text, entity, profile(segment.lang).until))
        or compares_with_release(segment.text, segment.lang, entity)
        or is_former(segment.text, segment.lang, entity)
    )


@lru_cache(maxsize=16)
def _earlier(lang: str | None) -> re.Pattern:
    return re.compile(rf"(?<![A-Za-z])(?:{alternation(profile(lang).earlier)})(?![A-Za-z])", re.I)


@lru_cache(maxsize=256)
def _release_name(release: str) -> re.Pattern:
    product, _, version = release.rpartition(" ")
    # "node-js 22" is "Node.js 22"
    return re.compile(rf"(?<![A-Za-z0-9]){written_product(product, '-. ')}\s?v?{re.escape(version)}(?!\d|\.\d)", re.I)


def names_release(text: str, release: str) -> bool:
    """`text` names `release` ("PostgreSQL 17", "Qwen2.5", "Node.js 22"), read as a version or not, or
    names its product and, apart, its version with a version word ("version 12 of its Vireo
    browser", "「Lumora Engine」の最新版となるバージョン5.3", "Vireo 浏览器第 12 版")."""
    if _release_name(release).search(text):
        return True
    product, version = _release_told_apart(release)
    return bool(product.search(text) and version.search(text))


@lru_cache(maxsize=256)
def _release_told_apart(release: str) -> tuple[re.Pattern, re.Pattern]:
    product, _, version = release.rpartition(" ")
    words = vocabulary()
    number = re.escape(version)
    return (
        re.compile(rf"(?<![A-Za-z0-9]){written_product(product, '-. ')}(?![A-Za-z0-9])", re.I),
        re.compile(
            rf"(?<![A-Za-z])(?:{alternation(words.version_words)})\s?{number}(?![\d.])"
            rf"|(?<![\d.]){number}\s?(?:{alternation(words.version_suffixes)})",
            re.I,
        ),
    )


def speaks_of_earlier(segment: SegmentInput, start: int = 0, end: int | None = None) -> bool:
    """The sentence (or its part [start, end)) is about an earlier release ("its predecessor already
    supported 29 languages", "上一代模型也提供 7 个尺寸": `earlier` in lang/<code>/language.yaml), not
    only compares with it ("a 13% reduction from the previous rate", "比上一代快 30%": `compared_earlier`)."""
    if not profile(segment.lang).earlier:
        return False
    stop = len(segment.text) if end is None else end
    before, after = _compared_earlier(segment.lang)
    return any(
        not before.search(segment.text, max(0, match.start() - _COMPARED_REACH), match.start())
        and not after.match(segment.text, match.end(), match.end() + _COMPARED_REACH)
        and not _dates_a_status(segment, match)
        and not _measured_against(segment, match)
        for match in _earlier(segment.lang).finditer(segment.text, start, stop)
    )


def _measured_against(segment: SegmentInput, earlier: re.Match) -> bool:
    """Right after the word for an earlier release (a possessive between) stands a ratio or the value
    the sentence changes from, or that value ends close before it: the sentence measures the new one
    against the earlier one ("従来の3倍高速", "上一代的 2 倍", "从此前的 10 天延长到 15 天", "down from 26
    minutes in the previous release")."""
    text, end = segment.text, earlier.end()
    figures = [*((e.start, e.end, e.label) for e in segment.entities), *((r.start, r.end, r.kind) for r in segment.readings)]
    return any(
        # (where it stands first: whether the sentence changes from it costs a pass over its figures)
        ((end <= start and _names_it(text, end, start)) or 0 <= earlier.start() - stop <= _STATUS_REACH)
        and (kind in (MULTIPLIER, PERCENT) or changed_from(text, segment.lang or "", segment.readings, start))
        for start, stop, kind in figures
    )


def is_former_status(segment: SegmentInput, status: Entity) -> bool:
    """A status the sentence says its subject had in an earlier release, not the one it has now
    ("experimental in the previous release", "前バージョンで実験的機能だった", "此前处于实验阶段的…")."""
    return any(_dates_a_status(segment, match, status) for match in _earlier(segment.lang).finditer(segment.text))


def _dates_a_status(segment: SegmentInput, earlier: re.Match, status: Entity | None = None) -> bool:
    """The word for an earlier release says when a status of the sentence held (the status close by,
    in its part of the sentence, before the word or after a word between: "experimental in the
    previous release", "前バージョンで実験的"); the rest of the sentence speaks of the new release. Not
    a status the word names the earlier release by ("the previous beta", "之前的测试版")."""
    low, high = comma_part(segment.text, earlier.start(), earlier.end())
    for entity in [status] if status else [e for e in segment.entities if e.label == MATURITY]:
        if not low <= entity.start < high:
            continue
        if 0 <= earlier.start() - entity.end <= _STATUS_REACH:
            return True
        gap = (earlier.end(), entity.start)
        if 0 < gap[1] - gap[0] <= _DATED_STATUS_REACH and not _names_it(segment.text, *gap):
            return True
    return False


_STATUS_REACH = 12  # characters from a status to the word for an earlier release after it ("… in the previous")
# ...and from that word to a status after it: a particle or a verb ("前バージョンで", "此前处于"), not a
# name ("従来のLuaスクリプトは非推奨": the legacy scripting is deprecated now)
_DATED_STATUS_REACH = 4


def _names_it(text: str, end: int, start: int) -> bool:
    """Only spaces or a possessive stand between a word for an earlier release ending at `end` and
    what it names at `start` ("the previous beta", "之前的测试版", "従来の3倍")."""
    return not text[end:start].strip() or possessive_between(text, end, start)


_COMPARED_REACH = 32  # characters around a word for an earlier one where a comparison word may stand


@lru_cache(maxsize=16)
def _compared_earlier(lang: str | None) -> tuple[re.Pattern, re.Pattern]:
    """Comparison words shortly before a word for an earlier one (a few words between: "than its",
    "than those built with the") and after it, a few letters of its noun between ("従来モデル比",
    "与上一代产品相比")."""
    words = profile(lang).compared_earlier
    before, after = alternation(words.get("before") or ["(?!)"]), alternation(words.get("after") or ["(?!)"])
    marks = re.escape(clause_mark_chars() + sentence_end_chars()) + r"\uff0c\uff1b\uff1a"  # (and full-width ，；：)
    return (
        re.compile(rf"(?<![A-Za-z])(?:{before})\s?(?:[A-Za-z]+\s){{0,4}}$", re.I),
        re.compile(rf"[^\s,.;:{marks}]{{0,8}}?(?:{after})", re.I),
    )


def named_as_earlier(segment: SegmentInput, start: int) -> bool:
    """Whether a word for an earlier one comes right before the name at `start` ("the previous-generation
    R70", "前世代のR70", "上一代 AX7"): an earlier model, which a figure is compared with."""
    earlier = _earlier_before(segment.lang)
    return earlier is not None and earlier.search(segment.text, max(0, start - _EARLIER_BEFORE), start) is not None


_EARLIER_BEFORE = 24  # characters before a name where a word for an earlier one may begin


@lru_cache(maxsize=16)
def _earlier_before(lang: str | None) -> re.Pattern | None:
    words = profile(lang).earlier
    if not words:
        return None
    possessives = alternation(every_language("possessives"))
    return re.compile(rf"(?<![A-Za-z])(?:{alternation(words)})(?:[-\s][A-Za-z]+)?\s?(?:{possessives})?\s?$", re.I)


# What the body says about the release it describes, beyond counting: the first release the body
# names (an article announces its release at the top: "We are excited to announce PyTorch 2.6")
# and the release the original's URL names (".../blog/pytorch2-6") weigh as much as two mentions.
LEAD_WEIGHT = 2
URL_WEIGHT = 2


def document_release(
    title: str | None, title_entities: Sequence[Entity], segments: Sequence[SegmentInput], source_url: str | None = None
) -> DocumentRelease:
    """The release a document describes: its body's when the body clearly describes another
    release than its title names (the title is then noted: a 2.6 article under a 2.5 header),
    else its title's, else the one in its original URL, else the one its body names most.
    Releases the body counts from ("since 2.2") do not count, and when the title names a product,
    only that product's releases do. The body's evidence is its mentions, its lead and the
    original's URL."""
    titled = unlisted_products(title_entities)  # "vLLM v0.6.0 released": a release no list names
    in_title = releases_in(title_entities, titled)
    products = release_products_named(title or "") | titled
    mentions = [
        e.norm
        for s in segments
        if not (s.kind == HEADING and s.text == title)
        for e in s.entities
        if e.label == VERSION
        and (e.product in release_products() or e.product in titled)
        and (not products or e.product in products)
        and not _elsewhere(s, e, title_release=e.norm in in_title)
    ]
    named = Counter(mentions)
    body = Counter(named)
    if mentions:
        body[mentions[0]] += LEAD_WEIGHT
    from_url = _url_release(source_url, title, titled)
    if from_url:
        body[from_url] += URL_WEIGHT
    body_top = body.most_common(1)[0][0] if body else None
    if in_title:
        release = in_title[0]
        # (more than one sentence of the body, or the original's URL: one sentence never outweighs a title)
        if (
            body_top
            and body_top != release
            and body[body_top] >= max(3, 2 * body[release])
            and (named[body_top] >= 2 or from_url == body_top)
        ):
            return DocumentRelease(
                body_top,
                "body",
                f"the title names {release} but the body describes {body_top} "
                f"(evidence {body[body_top]} against {body[release]}: "
                "mentions, the lead and the original's URL)",
            )
        return DocumentRelease(release, "title")
    if from_url:
        return DocumentRelease(from_url, "url")
    return DocumentRelease(body_top, "body" if body_top else None)
