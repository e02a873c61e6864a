"""Entities to normalised claims: subject, attribute, value, qualifier, baseline, conditions, release.

A claim's subject is the nearest candidate in its clause (`subjects`: glossary mentions first, then
names the glossary does not know, as slugs), else the subject of its section heading, else the
release's product (then the claim only corroborates). Its conditions (`conditions`: hardware, GPU
count, model size, precision, phase) and baseline ("vs FlashAttentionV2") are part of what it is
compared under.

The release a claim belongs to is the product version named by its section heading, else by its
sentence (for an article that names no release), else the document's (`document_release`);
`release_source` says which.

Some values are one of several a subject has (`set_valued`): the sizes of a model family, the Python
versions a release supports ("支援 Python 3.12"), values a relation phrase names in words ("CPUまたは
NVMeメモリにオフロード": `phrases`), dates. They corroborate, never contradict. A supported version
belongs to the release its sentence is about, maybe another release of the article's product.

Why this module is long: one ClaimBuilder carries a document's context (its release, the section's
subject and maturity, the sentence before) through every kind of fact a sentence states (values,
maturity, relations, scores, dates, counts); each kind reads and updates that context.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from functools import lru_cache

from ..lang import common_rules, profile
from ..records import HEADING, TABLE_ROW, Claim, cell_spans
from .clauses import clause_bounds, comma_part
from .conditions import conditions
from .entities import COUNT, DATE, DURATION, HARDWARE, MATURITY, MULTIPLIER, PERCENT, QUANTITY, VERSION, Entity, as_duration
from .glossary import FEATURE_MARK, SubjectMention, glossary
from .notation import alternation, counter_follows, hedged_bounds, model_size
from .phrases import (
    DROPPED,
    MENTIONED,
    MINIMUM,
    RECOMMENDED,
    attribute_near,
    baseline_near,
    change_near,
    changed_from,
    cued,
    dependency_versions,
    is_baseline,
    is_difference,
    is_former,
    measure_near,
    share_of_counted,
    support_ends_around,
    terms,
)
from .reader import DATE as DATE_READING
from .reader import LABEL, MODEL, NUMBER, Reading
from .releases import (
    is_earlier,
    is_former_status,
    named_as_earlier,
    names_release,
    product_of,
    releases_in,
    speaks_of_earlier,
)
from .rules import (
    CHANGES,
    DIRECTED_CHANGES,
    RELEASE_STATUSES,
    conjunctions,
    is_release_product,
    platforms_in,
    product_kind_ids,
    rules_for,
)
from .segments import SegmentInput
from .subjects import (
    announces_in,
    coordinated,
    head_mention,
    is_specific,
    models_named,
    names_inside_sentences,
    nearest,
    opens_pointing_back,
    points_back,
    possessive_between,
    relation_candidates,
    slug,
    status_topic,
    subject_mentions,
    tagged_feature,
)

_COUNT_ATTRIBUTES = {
    "contributors": "contributors",
    "commits": "commits",
    "models": "model_count",
    "gpus": "gpu_count",
    "nodes": "node_count",
}
_QUANTITY_ATTRIBUTES = {
    "tokens": "tokens",
    "parameters": "parameters",
    "GB": "memory",
    "MB": "memory",
    "TB": "storage",
    "GB/s": "bandwidth",
    "TB/s": "bandwidth",
    "Gbps": "network_bandwidth",
    "tokens/s": "generation_throughput",
    "TFLOPS": "compute",
    "PFLOPS": "compute",
}
_BYTES = {"MB", "GB", "TB"}  # amounts of bytes: memory or storage, as a word near says
_RELEASE_WIDE_COUNTS = {"contributors", "commits"}
# Counts of a setup, not of the release: "在由 8 个节点组成的集群模式下" (a benchmark's cluster), "1ノード
# あたり" (per node), "trained on 4,096 GPUs" (one run of several); they only corroborate.
_SETUP_COUNTS = {"gpu_count", "node_count"}
# The attribute of a figure no word names, by its kind (its unit keeps "2.5x" apart from "2.5%").
_UNNAMED_ATTRIBUTES = {PERCENT: "unnamed_percent", MULTIPLIER: "unnamed_factor", DURATION: "unnamed_duration"}
_LEAST = (f"{MINIMUM}_", f"{RECOMMENDED}_")  # the least versions of a dependency a release requires or recommends
# A benchmark's name has two capitals or digits ("MATH", "HumanEval", "GSM8K", "Arena-Hard"): "99.9 on
# Black Friday" or "2.5 on Fedora" scores nothing.
_BENCHMARK_NAME = re.compile(r"(?:[^A-Z0-9]*[A-Z0-9]){2}")
# a whole number in digits, in words, with a CJK magnitude ("1万2000", "4.2 万") or a scale word ("2
# billion"): not "72B", "1.31", "62.4"
_COUNT = re.compile(r"[\d,]+|\D+|[\d.,]+(?:\s?[^\x00-\x7f]+\d*)+|[\d.,]+\s(?:thousand|million|billion|trillion)")
# ...past this, a number with a CJK magnitude counts tokens, parameters or money, whose noun the
# words after it rarely name ("2200 亿去重过的 token", "10 亿代码相关的课文")
_MOST_COUNTED_WITH_A_MAGNITUDE = 1e8
_LEAST_UNNAMED_COUNT = 10  # (`_count_attribute`)
_SENTENCE_CASE = re.compile(r"[A-Z][^A-Z\d]*")  # a capital first, then no capital and no digit
_MODEL_CODE = re.compile(r"(?<![a-z])([a-z]{1,3})-?(\d{1,4})$")  # a model's code ending a subject: "x9", "a780"
_RELEASE_MATURITY_GAP = 12  # characters between a release's name and its maturity ("PostgreSQL 17 is now generally available")
_DATE_TOLERANCE_DAYS = 1.0  # time zones put one release on two dates
_MONTH = re.compile(r"\d{4}-\d\d")  # a date reading's month of a year
_PRE_RELEASES = {"alpha", "beta", "preview", "prototype", "experimental", "release_candidate"}
# Characters around a relation phrase where a negation denies it ("不再采用 Ray 作为默认后端",
# "Gloo ではなくなりました"); farther away it is another clause's ("しかないユーザでも…").
_NEGATION_WINDOW = 8


# ---- building -----------------------------------------------------------------------------


class ClaimBuilder:
    """Builds the claims of one document, segment by segment, carrying section context."""

    def __init__(
        self, doc_id: str, release: str | None, lang: str | None, release_source: str | None = None, title: str | None = None
    ) -> None:
        self.doc_id = doc_id
        self.title = title  # the document's title: the release it names was weighed against the body's
        self.doc_release, self.doc_release_source = release, release_source if release else None
        self.doc_product = product_of(release) if release else None  # "pytorch" of "pytorch 2.5"
        self.release, self.release_source = self.doc_release, self.doc_release_source
        self.lang = lang
        self.section_subject: SubjectMention | None = None
        # who the title says announces the article's product, and the product: "Orvane 发布全画幅微单 X9"
        self.maker: str | None = None
        self.product: SubjectMention | None = None
        self.title_subject: SubjectMention | None = None  # what the title is about
        self.section_joined = False  # the section's heading joins its subject to another topic
        self.previous_subject: SubjectMention | None = None  # the first sure subject of the sentence before
        self.section_maturity: str | None = None
        self.column_maturity: list[str | None] = []
        self.column_headers: list[str] | None = None  # the current table's first row, None for none yet
        self.known_names: frozenset[str] = frozenset()  # words the document's prose writes as names
        self.release_claimed: set[bool] = set()  # where the article's release is a claim: in the title, the body

    def build(self, segments: Sequence[SegmentInput]) -> list[Claim]:
        claims: list[Claim] = []
        self.known_names = names_inside_sentences(s.text for s in segments if s.kind not in (HEADING, TABLE_ROW))
        for segment in map(self._own_release_by_its_kind, segments):
            if segment.kind != TABLE_ROW:
                self.column_maturity, self.column_headers = [], None
            if segment.kind == HEADING:
                claims.extend(self._heading(segment))
            elif segment.kind == TABLE_ROW:
                claims.extend(self._table_row(segment))
            else:
                claims.extend(self._body(segment))
            claims.extend(self._relations(segment) + self._named_by_release(segment))
        return _codes_as_names(claims)

    def _own_release_by_its_kind(self, segment: SegmentInput) -> SegmentInput:
        """ "The SDK 7.0", "Download SDK 7.0" in an article about Pelican SDK 7.0 name its release by
        the word for its kind (`product_kinds`): they are the article's release, not an "sdk 7.0"."""
        if not self.doc_release:
            return segment
        version = self.doc_release.rpartition(" ")[2]
        entities = [
            replace(e, norm=self.doc_release, product=self.doc_product)
            if e.label == VERSION and e.product in product_kind_ids() and e.version == version
            else e
            for e in segment.entities
        ]
        return replace(segment, entities=entities)

    def _release_named(self, segment: SegmentInput) -> list[Claim]:
        """The article's release as a fact of its own where its title names it and where a sentence
        first does ("Vantra 4.2 Lands…" / 「Vantra 4.2」正式版公開 / "made Vantor Engine 3.0 generally
        available"): independent write-ups of the same release agree on it. One of the releases a
        product has: it corroborates, never contradicts."""
        in_title = segment.text == self.title
        if not self.doc_release or not self.doc_product or in_title in self.release_claimed:
            return []
        if segment.kind == HEADING and not in_title:
            return []
        named = next((e for e in segment.entities if e.label == VERSION and e.norm == self.doc_release), None)
        if named is None:
            return []
        self.release_claimed.add(in_title)
        subject = SubjectMention(self.doc_product, self.doc_release, 0, 0)
        version = self.doc_release.rpartition(" ")[2]
        return [
            self._claim(
                segment,
                subject,
                "release",
                version,
                named.start,
                named.end,
                set_valued=True,
                release=(self.doc_release, self.doc_release_source),
            )
        ]

    def _mentions(self, segment: SegmentInput) -> list[SubjectMention]:
        """The segment's candidate subjects, without the article's own product named bare or with the
        release's version: "Quuxly" or "PostgreSQL 17" in an article about that release is the release,
        as "PyTorch" is (a listed product's bare name is never a subject; a product no list names is
        known from the article's release)."""
        own = {self.doc_product, slug(self.doc_release or "")}
        return [m for m in subject_mentions(segment.text, segment.entities, self.known_names) if m.subject not in own]

    def _relations(self, segment: SegmentInput) -> list[Claim]:
        """ "CPUまたはNVMeメモリにオフロード", "默认服务器后端切换为 libuv": a value named in words
        (`relations` in lang/<code>/rules.yaml), one claim per term, of the nearest subject outside
        the value; none that a negation next to it denies (`negations`). A subject has several such values
        (offload targets), so they only corroborate; some hold whatever the release, like a model's
        size (`release_independent_relations`)."""
        claims = []
        rules = rules_for(segment.lang).for_text(segment.text)
        # every benchmark the sentence scores, once: none is the subject of a score
        benches = [m.span("bench") for _, p in rules.relations if "bench" in p.groupindex for m in p.finditer(segment.text)]
        for attribute, pattern in rules.relations:
            release = (None, None) if attribute in common_rules()["release_independent_relations"] else None
            for match in pattern.finditer(segment.text):
                start, end = match.span("value")
                low, high = clause_bounds(segment.text, start)
                near = max(low, match.start() - _NEGATION_WINDOW), min(high, match.end() + _NEGATION_WINDOW)
                if rules.negation.search(segment.text, *near):
                    continue  # "不再采用 Ray 作为默认后端", "does not offload to CPU": what it denies
                if "bench" in pattern.groupindex:
                    claims += self._score(segment, match, benches)
                    continue
                subject = self._relation_subject(segment, match.start(), start, end)
                if subject is None:
                    continue
                for term in terms(match["value"], start):
                    claims.append(
                        self._claim(
                            segment,
                            subject,
                            attribute,
                            re.sub(r"\s*\+\s*", "+", term.text).casefold(),  # "mkldnn + acl" = "mkldnn+acl"
                            term.start,
                            term.end,
                            set_valued=True,
                            release=release,
                        )
                    )
        return claims

    def _score(self, segment: SegmentInput, match: re.Match, benches: Sequence[tuple[int, int]]) -> list[Claim]:
        """A score on a benchmark ("83.1 on MATH", "MATHで81.3", "在 MATH 上得分 83.1"): of the model
        the sentence names, else of the release. Of the one model the sentence names with a number
        ("Qwen2.5-72B-Instruct": its size, its variant) it is one value under the sentence's
        conditions (shots, chain of thought, precision); else it only corroborates: a family's, the
        section's or the release's score may be a base model's, a quantised build's or a rival's,
        and of two models in a sentence no rule here tells which one a score is ("X beats Y,
        scoring 83.1 on MATH")."""
        named = self._relation_subject(segment, match.start(), *match.span(), benches)
        subject = named or self._article_subject(segment)
        low, high = match.span("bench")  # "2.5 on Linux", "on H100": a platform or hardware is no benchmark
        figure = match.start("value")  # ("FP8で4.5 PFLOPS": an amount of a unit is no score)
        if (
            subject is None
            or not _BENCHMARK_NAME.match(match["bench"])
            or any(platforms_in(match["bench"]))
            or any(e.label == HARDWARE and e.start < high and low < e.end for e in segment.entities)
            or any(e.label == QUANTITY and e.start <= figure < e.end for e in segment.entities)
        ):
            return []
        value, (start, end) = f"{float(match['value']):g}", match.span("value")
        named_with_number = [m for m in self._mentions(segment) if any(c.isdigit() for c in m.subject)]
        models = {m.subject for m in named_with_number if not any(b_low <= m.start < b_high for b_low, b_high in benches)}
        one_model = named is not None and named is not self.section_subject and models == {named.subject}
        claim = self._claim(segment, subject, f"score_{slug(match['bench'])}", value, start, end, set_valued=not one_model)
        return [replace(claim, conditions=conditions(segment.text, segment.entities))]

    def _relation_subject(
        self, segment: SegmentInput, phrase: int, start: int, end: int, benches: Sequence[tuple[int, int]] = ()
    ) -> SubjectMention | None:
        """The subject nearest to a relation's value among the names that may do it
        (`relation_candidates`), not a benchmark scored in the sentence: a sure one first, then a name
        the glossary does not know; else the section's."""
        clause = clause_bounds(segment.text, start)
        mentions = [m for m in self._mentions(segment) if not any(low <= m.start < high for low, high in benches)]
        outside = relation_candidates(mentions, segment.text, segment.lang, clause, phrase, (start, end))
        specific = [m for m in outside if is_specific(m, segment.entities)]
        return nearest(specific, start, end) or nearest(outside, start, end) or self.section_subject

    def _table_row(self, segment: SegmentInput) -> list[Claim]:
        """A header row of maturity labels ("Beta | Prototype | Performance") sets each column's
        maturity for the feature names in the rows below it."""
        cells = cell_spans(segment.text)
        header = [self._column_label(segment, start, end) for start, end in cells]
        if all(label is not None for label in header):
            self.column_maturity = [label or None for label in header]
            return []
        mentions = self._mentions(segment)
        headers = self.column_headers
        if headers is None:  # (the table's first row)
            self.column_headers = self._headers(segment, cells)
        if headers:
            # (whether the row's first cell names something: then the row is about it)
            row_named = any(
                m.start >= cells[0][0] for m in subject_mentions(segment.text[: cells[0][1]], segment.entities, self.known_names)
            )
            claims = [
                c for span, column in zip(cells, headers) for c in self._cell_claims(segment, span, cells[0], column, row_named)
            ]
        else:
            claims = [c for e in segment.entities if e.label != MATURITY for c in self._value_claim(segment, e, mentions)]
        for (start, end), maturity in zip(cells, self.column_maturity):
            in_cell = [m for m in mentions if start <= m.start and m.end <= end]
            subject = head_mention(in_cell, segment.lang)
            if maturity and subject:
                claims.append(self._claim(segment, subject, "maturity", maturity, subject.start, subject.end))
        return claims

    @staticmethod
    def _headers(segment: SegmentInput, cells: list[tuple[int, int]]) -> list[str]:
        """A table's first row as the labels of its columns, when no cell of it holds a figure ("| 項目 |
        Nova 8 | Nova 8 Pro |", "| Model | Cores | Price |"); [] for a first row of figures."""
        if any(e.label != MATURITY for e in segment.entities) or len(cells) < 2:
            return []
        labels = [segment.text[start:end].strip("* ") for start, end in cells]
        # (a label capitalised only as a header is, no name: "Price", "Boost clock", "Price (billed annually)")
        return [label.lower() if _SENTENCE_CASE.fullmatch(label) else label for label in labels]

    def _cell_claims(
        self, segment: SegmentInput, cell: tuple[int, int], row_header: tuple[int, int], column: str, row_named: bool
    ) -> list[Claim]:
        """The figures of a table cell, read as the sentence its headers make with it: the row's
        first cell, then its column's label, then the cell ("Vertex 9 990X, price $649"; "米国価格,
        Nova 8 Pro 1099ドル"). Where the row's first cell names something, the row is about it and
        the column's label says what the figure is (in lower case: "L3 cache" is no name there);
        else the column's label names the subject. The claims keep the row as evidence."""
        start, end = cell
        entities = [e for e in segment.entities if start <= e.start and e.end <= end and e.label != MATURITY]
        if not entities or cell == row_header:
            return []
        row = segment.text[row_header[0] : row_header[1]].strip("* ")
        prefix = f"{row}, {column.lower() if row_named else column} "
        shift = len(prefix) - start
        sentence = replace(
            segment,
            text=prefix + segment.text[start:end],
            entities=[replace(e, start=e.start + shift, end=e.end + shift) for e in entities],
            readings=[
                replace(r, start=r.start + shift, end=r.end + shift)
                for r in segment.readings
                if start <= r.start and r.end <= end
            ],
        )
        mentions = self._mentions(sentence)
        header = next((m for m in mentions if m.end <= len(prefix)), None)
        return [
            replace(c, evidence=segment.text, char_start=c.char_start - shift, char_end=c.char_end - shift)
            for e in sentence.entities
            for c in self._value_claim(sentence, e, mentions, header)
        ]

    def _column_label(self, segment: SegmentInput, start: int, end: int) -> str | None:
        """The maturity a header cell names, '' for another section name, None for an ordinary cell."""
        cell = segment.text[start:end].strip("* ")
        for entity in segment.entities:
            if entity.label == MATURITY and entity.start >= start and entity.end <= end and len(cell) <= len(entity.text) + 4:
                return entity.norm
        return "" if rules_for(self.lang).other_sections.search(cell) else None

    def _heading(self, segment: SegmentInput) -> list[Claim]:
        mentions = self._mentions(segment)
        self.section_subject = tagged_feature(segment.text, segment.entities) or head_mention(
            mentions, segment.lang, segment.text
        )
        # ("性能：VACUUM 与批量导出", "Auralis 发布 Dot 3 与 Dot 3 Max": the section speaks of more than its subject)
        self.section_joined = self.section_subject is not None and _joined(segment.text, self.section_subject)
        # (a heading may name another release of the article's product, listed or not: "vLLM 0.5 の変更点")
        named = releases_in(segment.entities, [self.doc_product] if self.doc_product else [])
        if segment.text == self.title and self.doc_release in named:
            self.section_subject = None  # a title naming the release is about it ("Alibaba、「Qwen2.5」公開")
        titled = self._release_named(segment)
        if segment.text == self.title:
            self.title_subject = self.section_subject
            makers = [m.subject for m in mentions if announces_in(segment.text, m.surface)]
            # (the product: what the title is about, else a model it names: "X9" is no name the reader takes)
            about = [self.section_subject, *models_named(segment.text, 0, 0)]
            products = [m for m in about if m is not None and m.subject not in makers]
            if makers and products:
                self.maker, self.product = makers[0], products[0]
        if named and segment.text != self.title:
            self.release, self.release_source = named[0], "heading"
        section_maturity = self._maturity_section(segment.text)
        if section_maturity:
            self.section_maturity = section_maturity
            return titled
        if rules_for(self.lang).other_sections.search(segment.text):
            self.section_maturity = None
        claims = titled + [c for e in segment.entities if e.label != MATURITY for c in self._value_claim(segment, e, mentions)]
        tags = [e for e in segment.entities if e.label == MATURITY]
        if self.section_subject and (tags or self.section_maturity):
            tag = tags[0] if tags else None
            value = tag.norm if tag else self.section_maturity
            assert value is not None  # without a tag, the section's maturity is set (the condition above)
            start, end = (tag.start, tag.end) if tag else (self.section_subject.start, self.section_subject.end)
            claims.append(self._claim(segment, self.section_subject, "maturity", value, start, end))
        return claims

    def _maturity_section(self, text: str) -> str | None:
        for value, pattern in rules_for(self.lang).maturity_sections:
            if pattern.search(text):
                return value
        return None

    def _body(self, segment: SegmentInput) -> list[Claim]:
        mentions = self._mentions(segment)
        claims = self._release_named(segment) + self._body_claims(segment, mentions) + self._read_figures(segment)
        # (a span of time is a reading, no entity: "five years", "5年間")
        claims += [c for m in segment.readings if (span := as_duration(m)) for c in self._value_claim(segment, span, mentions)]
        # What "this" in the next sentence refers to: what this one made a claim about, else the
        # sure subject it named last.
        specific = [m for m in mentions if is_specific(m, segment.entities)]
        stated = [m for m in specific if any(c.subject == m.subject for c in claims)]
        self.previous_subject = stated[-1] if stated else specific[-1] if specific else None
        return claims

    def _body_claims(self, segment: SegmentInput, mentions: list[SubjectMention]) -> list[Claim]:
        tagged = tagged_feature(segment.text, segment.entities) if segment.kind != "paragraph" else None
        claims = []
        for entity in segment.entities:
            if entity.label == MATURITY:
                claims += self._maturity(segment, entity, mentions, tagged)
            else:
                claims.extend(self._value_claim(segment, entity, mentions))
        # A status past maturity ("The legacy Lua scripting layer is now deprecated", "Lua 脚本层…被标记为
        # 弃用"): the feature deprecated and one still stable are often two, so it only corroborates.
        # (A platform or a version whose support ends is one the release drops: `_named_by_release`.)
        past = {value for value, _ in rules_for(segment.lang).lifecycle}
        statuses = [r for r in segment.readings if r.kind == LABEL and r.norm in past]
        dropped = set()
        if statuses:
            dropped = {p.text for p in platforms_in(segment.text)} | {e.text for e in segment.entities if e.label == VERSION}
        for status in statuses:
            word = Entity(MATURITY, status.text, status.start, status.end, status.norm)
            claims += [
                replace(c, set_valued=True)
                for c in self._maturity(segment, word, mentions, tagged, "lifecycle")
                if c.subject_text not in dropped
            ]
        return claims + self._dates_without_a_year(segment, mentions)

    def _dates_without_a_year(self, segment: SegmentInput, mentions: list[SubjectMention]) -> list[Claim]:
        """ "It ships on August 5", "8月5日に発売": a month and a day ('--08-05'), which the checks
        match with the same month and day, or with the whole date another document gives the key
        (10_claim_clusters.sql); and a month of a year ("in July 2025", "2025年7月": '2025-07'). They
        only corroborate: no year is guessed (an article's other dates may be of an earlier release,
        and one written in December may mean January), and a month holds many days."""
        dated = [
            Entity(DATE, m.text, m.start, m.end, m.norm)
            for m in segment.readings
            if m.kind == DATE_READING and m.norm and (m.norm.startswith("--") or _MONTH.fullmatch(m.norm))
        ]
        return [replace(c, set_valued=True) for entity in dated for c in self._value_claim(segment, entity, mentions)]

    def _maturity(
        self,
        segment: SegmentInput,
        entity: Entity,
        mentions: list[SubjectMention],
        tagged: SubjectMention | None,
        attribute: str = "maturity",
    ) -> list[Claim]:
        """A maturity in a sentence: of the document's release when it follows the release's name
        ("PostgreSQL 17 is now generally available", "「PostgreSQL 17」正式版", corroborating only);
        else of the tagged feature, the section's feature "this feature" names, the nearest name or
        the section's subject, and of each name a list joins to it ("ベータ版では Apple M1 チップと
        functorch のサポート"; read through a list it is less sure: it corroborates, never contradicts)."""
        if is_former_status(segment, entity):
            return []  # what it was in an earlier release: "experimental in the previous release"
        # (only a whole release's status: "Kubix 1.31 beta features" are betas of its features)
        release = self._release_subject() if entity.norm in RELEASE_STATUSES else None
        if release and any(
            e.label == VERSION and e.norm == self.doc_release and 0 <= entity.start - e.end <= _RELEASE_MATURITY_GAP
            for e in segment.entities
        ):
            return [self._claim(segment, release, "maturity", entity.norm, entity.start, entity.end, set_valued=True)]
        subject = tagged or self._pointed_back(segment, entity, mentions) or self._feature_named(segment, entity, mentions)
        subject = subject or nearest(mentions, entity.start, entity.end) or self.section_subject
        if subject is None:
            return []
        claims = [self._claim(segment, subject, attribute, entity.norm, entity.start, entity.end)]
        if self.release:
            claims += [
                self._claim(segment, each, attribute, entity.norm, entity.start, entity.end, set_valued=True)
                for each in coordinated(segment.text, mentions, subject)
            ]
        return claims

    def _read_figures(self, segment: SegmentInput) -> list[Claim]:
        """What the reader reads beyond the entities: "BLOOM-176B", "Megatron-Turing NLG 530Bモデル" (a
        named model's size, whatever the release: one family has many sizes), and "29 languages",
        "7 个尺寸" (a count of what the lexicon says the figure counts: the release's; in an article
        without a release, of the subject a figure there has, "Cantor-2 支持 99 种语言"). Both corroborate only."""
        claims, release = [], self._article_subject(segment)
        mentions: list[SubjectMention] | None = None  # (read once, for the first count that needs them)
        for m in segment.readings:
            if m.kind == MODEL and m.name and m.value:
                model, size = SubjectMention(slug(m.name), m.name, m.start, m.end), model_size(m.value)
                claims.append(
                    self._claim(segment, model, "parameters", size, m.start, m.end, subject_source="model", set_valued=True)
                )
            elif (
                m.kind == NUMBER
                and (attribute := _count_attribute(segment.text, m))
                # (not what a count was before: "支持语言从上一代的 57 种扩展至 104 种")
                and not changed_from(segment.text, segment.lang, segment.readings, m.start)
            ):
                subject = release
                if self.release is None:
                    mentions = self._mentions(segment) if mentions is None else mentions
                    count = Entity(COUNT, m.text, m.start, m.end, m.norm)
                    subject = self._value_subject(segment, count, mentions, attribute, None)
                if subject:
                    claims.append(self._claim(segment, subject, attribute, m.norm, m.start, m.end, set_valued=True))
        return claims

    def _named_by_release(self, segment: SegmentInput) -> list[Claim]:
        """What a sentence says of its release in names rather than figures, claimed of the release's
        product (a release has several of each: these only corroborate):
        - a version of another product it supports, drops or names ("包括支援 Python 3.12", "弃用CUDA
          10.2", "CUDA 11.7 には cuDNN 8.5.0 が付属"): `supports_<product>`, `drops_<product>`,
          `mentions_<product>`, and the least version it requires or recommends ("OpenSSL 1.1.0 or
          later"): `minimum_<product>`, `recommended_<product>`, one value each, whose conflicts are
          only possible (a minimum is often a part's or a platform's: "the CLI requires Node.js 18 or later");
        - the platforms and hardware it names ("Linux バイナリ", "Windows 上", "AWS Graviton 处理器"):
          `mentions_platform` (`drops_platform` where a word ending support is in its part of the
          sentence: "Support for the AIX operating system has been removed"), `mentions_hardware`."""
        release = self._sentence_release(segment)
        if release[0] is None:
            return []
        product = product_of(release[0])
        subject = SubjectMention(product, release[0], 0, 0)
        versions = [e for e in segment.entities if e.label == VERSION]
        spoken = self._releases_named(segment, product)
        named = [
            (
                f"{status}_{entity.product}",
                entity.version or "",
                entity.start,
                entity.end,
                self._part_release(segment, entity.start, release, spoken),
            )
            for entity, status in dependency_versions(segment.text, segment.lang, segment.entities)
            if entity.product != product and entity.version
        ]
        # A sentence naming another product's release ("Deno 2.0 already ships Windows arm64
        # builds") may name its platforms and hardware: they are not this release's.
        # ("macOS 12" is a version of macOS, no platform named)
        platforms = [p for p in platforms_in(segment.text) if not any(v.start <= p.start < v.end for v in versions)]
        if not any(v.product != product and is_release_product(v.product) for v in versions):
            named += [(f"{_platform_status(segment, p.start)}_platform", p.norm, p.start, p.end, release) for p in platforms]
            named += [
                ("mentions_hardware", e.norm, e.start, e.end, release) for e in segment.entities if e.label == HARDWARE and e.norm
            ]
        # (the least version of a product a release requires or recommends is one value, its
        # conflicts only possible: `thresholds.POSSIBLE_ONLY`; it holds on the platforms its sentence
        # names: "Linux worker nodes require containerd 1.7" / "Windowsワーカーノードはcontainerd 2.1以降")
        on = {p.norm for p in platforms}
        claims = []
        for attribute, value, start, end, of in named:
            least = attribute.startswith(_LEAST)
            claim = self._claim(segment, subject, attribute, value, start, end, set_valued=not least, release=of)
            if least:  # (none of a platform's own least version: "Windows 10 or later, or a recent Linux")
                dependency = attribute.partition("_")[2]
                claim = replace(claim, conditions=None if dependency in common_rules()["platforms"] else _on_platforms(on))
            claims.append(claim)
        return claims

    def _part_release(
        self, segment: SegmentInput, position: int, release: tuple[str | None, str | None], spoken: Sequence[Entity]
    ) -> tuple[str | None, str | None]:
        """The release the part of the sentence around `position` names (of the releases it speaks of,
        `spoken`), commas bounding it, where it names one other than the sentence's ("Foo 4.2 ran on Bar
        12 or later, but Foo 5.0 needs Bar 16 or later": 12 is 4.2's), else the sentence's."""
        low, high = comma_part(segment.text, position, position)
        named = {e.norm for e in spoken if low <= e.start < high}
        return (named.pop(), "sentence") if len(named) == 1 and release[0] not in named else release

    def _releases_named(self, segment: SegmentInput, product: str | None) -> list[Entity]:
        """The releases of `product` a sentence names as the ones it speaks of: not one it counts from
        ("since 2.4"), compares with ("than 2.4", "compared with 2.4") or turns from ("upgrading from
        2.4", "unlike 2.4"). One it looks ahead to is its own ("Windows 10 will be dropped in 4.0")."""
        return [
            e
            for e in segment.entities
            if e.label == VERSION
            and e.product == product
            and not is_earlier(segment, e)
            and not is_baseline(segment.text, segment.lang, e)
            and not is_former(segment.text, segment.lang, e)
        ]

    def _value_claim(
        self, segment: SegmentInput, entity: Entity, mentions: list[SubjectMention], header: SubjectMention | None = None
    ) -> list[Claim]:
        """The claim a figure makes, if any; `header`: the name a table cell's headers give it."""
        attribute = self._value_attribute(segment, entity)
        # A ratio or a span of time no word of its sentence names ("データ量は2.5倍に増えた", "一次完整运行
        # 大约需要 44 小时"): keyed by its kind alone, it corroborates the same figure another source
        # states of the subject, named or not (`check/sql`), and never contradicts one.
        unnamed = attribute is None and entity.label in _UNNAMED_ATTRIBUTES and not _unit_or_modifier(segment.text, entity)
        attribute = _UNNAMED_ATTRIBUTES.get(entity.label) if unnamed else attribute
        if attribute is None:
            return []
        if entity.label in (QUANTITY, COUNT, DURATION) and _no_figure(segment, entity):
            return []
        if entity.label == MULTIPLIER and any(m.start <= entity.start and entity.end <= m.end for m in mentions):
            return []  # (a model number read as a multiplier: "Vertex 9 990X")
        if entity.label != DATE and changed_from(segment.text, segment.lang, segment.readings, entity.start):
            return []  # what a value was before: "由 26 分钟缩短至 21 分钟" states 21 minutes
        baseline, baseline_span = (None, None)
        if entity.label in (PERCENT, MULTIPLIER):
            baseline, baseline_span = baseline_near(segment.text, segment.lang, entity.start, entity.end)
        subject = self._value_subject(segment, entity, mentions, attribute, baseline_span, header)
        # (what it is compared with is no figure of the subject: "smoother than the 60Hz screens"; but
        # of a name after it: "compared with 11 Gbps on the previous AX7")
        compared = entity.label == QUANTITY and is_baseline(segment.text, segment.lang, entity)
        if compared and (subject is None or subject.start < entity.end):
            return []
        # A figure whose sentence, section and context name nothing is the release's ("the models
        # support a context length of up to 128K tokens"): it corroborates what other sources say of
        # the release, never contradicts it (the sentence may speak of a part no name tells); but a
        # span of time is the release's outright ("It will receive security updates for five years":
        # its support period). A date compares by its day, a day either way (time zones put one
        # release on two dates).
        of_release = subject is None and entity.label != DATE and (subject := self._article_subject(segment)) is not None
        of_release = of_release and entity.label != DURATION
        # A change whose clause names what it measures ("Idle memory per worker process is down 18%",
        # "p95 延迟降低了 45%", "72 小时路径预报误差平均减少 51%") is keyed by it, so that two sources'
        # figures of one measure meet and two measures' never conflict; they may still be two parts'
        # (`thresholds.POSSIBLE_ONLY`). Of a subject the sentence names, only a measure in the figure's
        # part of the sentence: "Queries … with B-tree indexes are now faster, and the COPY command is
        # up to 2x faster" is no index speed-up of COPY's.
        low = _previous_ratio_end(segment, entity)
        if not of_release:
            low = max(low, comma_part(segment.text, entity.start, entity.end)[0])
        measure = (
            not unnamed
            and attribute in DIRECTED_CHANGES
            and measure_near(segment.text, segment.lang, entity.start, entity.end, low)
        )
        # (and a ratio of a measure its clause says the change of: "cuts p99 publish latency by 40%")
        of_measure = entity.label in (PERCENT, MULTIPLIER) and attribute not in CHANGES and not attribute.startswith("share_of_")
        change = of_release and of_measure and not unnamed and change_near(segment.text, segment.lang, entity.start, entity.end)
        if measure:
            attribute, of_release = f"{attribute}_{measure}", False
        elif change:
            attribute, of_release = f"{change}_{attribute}", False
        elif attribute == "improvement":
            return []  # (better in what, no word says: "up to 20% better")
        # A date whose sentence names the article's product, not its release ("Marlin向け「Tidewater」
        # の開発チームは2025年10月14日、…4.0を公開した", "Stratocirrus 宣布 Fluxlane 正式商用"): it
        # corroborates, never contradicts (the sentence may date another of the product's releases).
        of_product: SubjectMention | None = None
        if entity.label == DATE and subject is None:
            reach = _names_reach(segment, entity)
            subject = of_product = self._product_dated(segment, [m for m in mentions if m.start < reach], entity)
        if subject is None:
            return []
        if subject.subject == self.maker and self.product:
            # (in an article about one product, its maker's figures are the product's: "Orvane 称，…对焦速度
            # 较上代提升 30%" in an article headed "Orvane 发布全画幅微单 X9" is the X9's)
            subject = replace(self.product, start=subject.start, end=subject.end)
        if baseline and _names_predecessor(baseline, subject.subject):
            baseline = None  # ("50% faster than the X8" of the X9: its predecessor, as "较上代提升 30%")
        value = entity.norm + (entity.unit if entity.unit in ("%", "x") else "")
        day = _day_number(entity.norm) if entity.label == DATE else None
        # (of several dates in a sentence, which one the date word is about no rule here tells:
        # "On March 2, Forge said it ships on August 5" is no release on March 2; they corroborate)
        if sum(r.kind == DATE_READING for r in segment.readings) > 1:
            day = None
        claim = self._claim(
            segment,
            subject,
            attribute,
            value,
            entity.start,
            entity.end,
            entity,
            baseline,
            # (a price, a measure or a battery life is one value here, its conflicts only possible:
            # `thresholds.POSSIBLE_ONLY`)
            # (a product's date only corroborates, but for when a change takes effect, one date a
            # sentence about it gives: "The new pricing takes effect on June 1, 2026")
            set_valued=of_release
            or unnamed
            or (bool(of_product) and attribute != "effective_date")
            or (entity.label == DATE and day is None)
            or attribute in _SETUP_COUNTS
            or entity.unit in common_rules()["several_each"],
            # (a span of time is of the one other release its sentence names: "stay on Korvet 1.9,
            # which will receive bug fixes for 18 months" is 1.9's support, not the article's 2.0's)
            release=self._sentence_release(segment) if entity.label == DURATION else None,
        )
        return [replace(claim, value_num=day, value_tol=_DATE_TOLERANCE_DAYS) if day is not None else claim]

    def _value_attribute(self, segment: SegmentInput, entity: Entity) -> str | None:
        if entity.label == COUNT:
            return _COUNT_ATTRIBUTES.get(entity.unit or "")
        if entity.label == QUANTITY and entity.unit in common_rules()["currencies"]["units"]:
            return attribute_near(segment.text, segment.lang, entity.start, entity.end, of="money")
        if entity.label == QUANTITY and entity.unit in common_rules()["measures"]:
            return f"measure_{entity.unit}"
        if entity.label == QUANTITY and (entity.unit in _BYTES or entity.unit == "tokens"):
            # ("150GBの空き容量" is storage, "16GB 内存" and "8GB 显存" memory; "a context length of up to
            # 128K tokens" a context length, "trained on 18T tokens" training data)
            of = "tokens" if entity.unit == "tokens" else "bytes"
            found = attribute_near(segment.text, segment.lang, entity.start, entity.end, of=of)
            return found or _QUANTITY_ATTRIBUTES.get(entity.unit or "")
        if entity.label == QUANTITY:
            return _QUANTITY_ATTRIBUTES.get(entity.unit or "")
        if entity.label in (DATE, DURATION):
            of = "date" if entity.label == DATE else "duration"
            return attribute_near(segment.text, segment.lang, entity.start, entity.end, of=of)
        if entity.label == PERCENT and (share := share_of_counted(segment.text, segment.lang, entity, segment.entities)):
            return share
        if entity.label in (PERCENT, MULTIPLIER):
            # (a word saying only that something got better is the last resort: "续航提升 20%")
            attribute = attribute_near(segment.text, segment.lang, entity.start, entity.end) or attribute_near(
                segment.text, segment.lang, entity.start, entity.end, of="improvement"
            )
            # "性能提高了 2 倍" / "2x the performance": a performance multiplier is a speed-up; a fraction
            # something becomes, no word explaining it, is a reduction ("メモリ消費量は最大で20分の1になりました";
            # not "利用者の3分の1が移行した", a share).
            if entity.label == MULTIPLIER and attribute == "performance":
                return "speedup"
            becomes = rules_for(segment.lang).fraction_factor.match(segment.text, entity.end)
            return attribute or ("reduction" if entity.label == MULTIPLIER and (entity.value_num or 1) < 1 and becomes else None)
        return None

    def _value_subject(
        self,
        segment: SegmentInput,
        entity: Entity,
        mentions: list[SubjectMention],
        attribute: str,
        baseline_span: tuple[int, int] | None,
        header: SubjectMention | None = None,
    ) -> SubjectMention | None:
        if attribute in _RELEASE_WIDE_COUNTS:
            return self._release_subject()
        # (a figure's unit or a date is no name: "mAh", "On March 2")
        figures = [(e.start, e.end) for e in segment.entities if e.label in (QUANTITY, COUNT)]
        figures += [(r.start, r.end) for r in segment.readings if r.kind == DATE_READING]
        # (nor is a model named as the earlier one a ratio's subject: "1.6x the performance of the
        # previous-generation R70" is the R80's)
        compared = entity.label in (PERCENT, MULTIPLIER)
        # (nor, of a ratio, a name in a later part of the sentence, past a comma: "分组聚合比 2.x 快 3
        # 倍,CSV 文件的读取速度也有明显提升" is no speed-up of CSV's; of a date, `_names_reach`)
        part_start, part_end = comma_part(segment.text, entity.start, entity.end)
        reach = part_end if compared else _names_reach(segment, entity)
        usable = [
            m
            for m in mentions
            if m.start < reach
            and not (baseline_span and baseline_span[0] <= m.start < baseline_span[1])
            and not any(m.start < end and start < m.end for start, end in figures)
            and not (compared and named_as_earlier(segment, m.start))
        ]
        clause_start, clause_end = clause_bounds(segment.text, entity.start)
        in_clause = [m for m in usable if clause_start <= m.start and m.end <= clause_end]
        specific = [m for m in usable if is_specific(m, segment.entities)]
        if entity.label == DATE:
            return self._date_subject(segment, entity, specific, in_clause)
        if entity.label in (QUANTITY, COUNT, DURATION) and speaks_of_earlier(segment, part_start, part_end):
            # ("…up to 19 Gbps, compared with 11 Gbps on the previous AX7", "上一代 AX7 配备的是16GB显存":
            # an earlier model's figure is the one its part of the sentence names, never the
            # section's or the article's)
            return nearest([m for m in usable if part_start <= m.start and m.end <= part_end], entity.start, entity.end)
        # A subject the glossary knows (or a versioned product), in the clause; a model a quantity's
        # part of the sentence names ("The standard X7 has a 6.3-inch display" in an article headed
        # by the X7 Pro); a sure subject in the sentence; else the one a sentence opening with
        # "this"/"これ" refers back to; else the section's; only then a name the glossary does not
        # know (a name in the sentence may be a benchmark or a workload), but before the subject of
        # a heading that joins it to another topic ("性能：VACUUM 与批量导出": "使用 COPY 导出…时，
        # 速度最多可提升 2 倍" is COPY's).
        model = models_named(segment.text, entity.start, entity.end) if entity.label == QUANTITY else []
        subject = (
            nearest([m for m in specific if m in in_clause], entity.start, entity.end)
            or header
            or nearest(model, entity.start, entity.end)
            or nearest(specific, entity.start, entity.end)
            or nearest(self._variants_of_section(in_clause), entity.start, entity.end)
            or (self.previous_subject if opens_pointing_back(segment.text, segment.lang) else None)
            or (None if self.section_joined else self.section_subject)
            or nearest(in_clause, entity.start, entity.end)
            or self.section_subject
        )
        return subject or (self._release_subject() if entity.label == COUNT else None)

    def _variants_of_section(self, mentions: list[SubjectMention]) -> list[SubjectMention]:
        """The names of another model of the section's subject's line ("City 3 Plus" in an article about
        the City 3: `model_variants` in lang/common.yaml): its sentence's figures are that model's."""
        if self.section_subject is None:
            return []
        own = self.section_subject.subject.split("-")
        found = []
        for mention in mentions:
            *base, last = mention.subject.split("-")
            shared = min(len(base), len(own))  # ("voltra-city-3" and "city-3-plus": one line)
            if base and last in common_rules()["model_variants"] and base[-shared:] == own[-shared:]:
                found.append(mention)
        return found

    def _date_subject(
        self, segment: SegmentInput, entity: Entity, specific: list[SubjectMention], in_clause: list[SubjectMention]
    ) -> SubjectMention | None:
        """Whose date a date is: another release of the product the sentence names ("Kubix 1.28のサポート
        終了は…", keyed by its name), a numbered name ("PostgreSQL 12 will reach end of life on…") or a
        sure subject, else the article's release where the sentence names it. Not its maker's nor a
        section's; none in a sentence about a pre-release (a beta's date is not the release's)."""
        if _about_prerelease(segment):
            return None
        others = [
            e for e in segment.entities if e.label == VERSION and e.product == self.doc_product and e.norm != self.doc_release
        ]
        numbered = [SubjectMention(slug(e.norm), e.text, e.start, e.end) for e in others]
        numbered += [m for m in in_clause if m.surface[-1:].isdigit()]
        own = self.doc_release and names_release(segment.text, self.doc_release)
        return nearest(numbered or specific, entity.start, entity.end) or (self._release_subject() if own else None)

    def _product_dated(self, segment: SegmentInput, mentions: list[SubjectMention], date: Entity) -> SubjectMention | None:
        """The article's product, where a sentence dating it names it without its release: the
        release's product, else (an article without a release) the name its title gives nearest the
        date, not who the title says announces it ("Fieldkite、…「Vela」を7月発売": "Fieldkite は、…「Vela」
        を2026年7月1日に発売" dates Vela). None in a sentence about a pre-release or an earlier release
        ("first released in 2019"). A model's code the title names counts as its name ("The X9 goes on
        sale April 30" under "Orvane X9 first look"); a sentence naming nothing dates the product of a
        title that names its maker ("新机将于 2026年4月30日 上市" under "Orvane 发布全画幅微单 X9")."""
        if _about_prerelease(segment) or speaks_of_earlier(segment):
            return None
        if self.doc_product:
            named = subject_mentions(segment.text, segment.entities, self.known_names)  # (`mentions` leave the product out)
            return self._release_subject() if any(m.subject == self.doc_product for m in named) else None
        title = (self.title or "").lower()
        models = models_named(segment.text, date.start, date.end)
        titled = [m for m in [*mentions, *models] if len(m.surface) >= 2 and m.surface.lower() in title]
        if not titled:
            return (self.product or self.title_subject) if not mentions and not models else None
        return nearest([m for m in titled if not announces_in(self.title or "", m.surface)] or titled, date.start, date.end)

    def _pointed_back(self, segment: SegmentInput, entity: Entity, mentions: list[SubjectMention]) -> SubjectMention | None:
        """The section's subject for a maturity its clause says of "this feature" ("ただし、この機能は
        プレビュー バージョンにすぎず、Distributed…": the section's feature, not Distributed)."""
        low, _ = clause_bounds(segment.text, entity.start)
        if points_back(segment.text, segment.lang, low, entity.start, entity.end, mentions):
            return self.section_subject
        return None

    def _feature_named(self, segment: SegmentInput, entity: Entity, mentions: list[SubjectMention]) -> SubjectMention | None:
        """The feature common words name as what a status is said of ("The new pet mode is still in
        beta": not the product the article is about, whose status another source may give), where no
        name stands between the phrase's start and the status; a feature of the name a possessive
        joins to the phrase ("BarLib の比較機能", "Lumo's sleep timer"), else of the article's subject."""
        low, _ = comma_part(segment.text, entity.start, entity.end)
        topic = status_topic(segment.text, segment.lang, low, entity.start)
        if topic is None or any(m.start < entity.start and m.end > topic.start for m in mentions):
            return None
        owner = next((m for m in mentions if possessive_between(segment.text, m.end, topic.start)), None)
        owner = owner or self._article_subject(segment)
        return replace(topic, subject=owner.subject + topic.subject) if owner else None

    def _article_subject(self, segment: SegmentInput) -> SubjectMention | None:
        """What the article is about, for a figure its sentence names no subject of: the release, else
        (an article about a product without a version: a laptop, a car) the product its title names;
        none in a sentence about an earlier one ("its predecessor already supported 29 languages")."""
        if speaks_of_earlier(segment):
            return None
        return self._release_subject() or (None if self.release else self.product or self.title_subject)

    def _release_subject(self) -> SubjectMention | None:
        if not self.release:
            return None
        return SubjectMention(product_of(self.release), self.release, 0, 0)

    def _claim(
        self,
        segment: SegmentInput,
        subject: SubjectMention,
        attribute: str,
        value: str,
        start: int,
        end: int,
        entity: Entity | None = None,
        baseline: str | None = None,
        subject_source: str | None = None,
        set_valued: bool = False,
        release: tuple[str | None, str | None] | None = None,
    ) -> Claim:
        key = f"{self.doc_id}|{segment.seg_idx}|{subject.subject}|{attribute}|{start}"
        release_name, release_source = release or self._release_of(segment, subject_source)
        low, high = (
            hedged_bounds(entity.value_num, entity.value_max, entity.value_tol or 0.0, entity.qualifier)
            if entity and entity.value_num is not None
            else (None, None)
        )
        return Claim(
            claim_id=hashlib.sha1(key.encode()).hexdigest()[:16],
            doc_id=self.doc_id,
            seg_idx=segment.seg_idx,
            subject=subject.subject,
            subject_text=subject.surface,
            attribute=attribute,
            value=value,
            value_num=entity.value_num if entity else None,
            value_max=entity.value_max if entity else None,
            value_tol=entity.value_tol if entity else None,
            value_low=low,
            value_high=high,
            unit=entity.unit if entity else None,
            qualifier=entity.qualifier if entity else "exact",
            baseline=baseline.lower() if baseline else None,
            # (a date is the release's whatever sizes or hardware its sentence lists: "released Orin-3
            # on July 22, a family in three sizes: 8B, 32B and 70B")
            conditions=conditions(segment.text, segment.entities, entity) if entity and entity.label != DATE else None,
            release=release_name,
            release_source=release_source,
            subject_source=subject_source or self._subject_source(subject),
            char_start=start,
            char_end=end,
            evidence=segment.text,
            evidence_en=segment.text_en,
            set_valued=set_valued,
        )

    def _release_of(self, segment: SegmentInput, subject_source: str | None) -> tuple[str | None, str | None]:
        """The section's release (or the article's); for an article without one, the release the
        sentence names; none for a model's size."""
        if subject_source == "model":
            return None, None
        if self.release is None:
            named = releases_in(segment.entities)
            return (named[0], "sentence") if named else (None, None)
        return self.release, self.release_source

    def _sentence_release(self, segment: SegmentInput) -> tuple[str | None, str | None]:
        """The release a sentence is about: `_release_of`'s, unless the sentence names one other
        release of the same product, one it neither counts from ("since 2.4"), compares with ("than
        2.4") nor turns from ("upgrading from 2.4"), or none where it names several others ("Django
        4.2.15 and 4.1.13 keep support for Python 3.8"). Used only for what a sentence names of its
        release: "BetterTransformer, first released in 1.12, is stable" is still a fact of the
        article's release."""
        if self.release is None:
            return self._release_of(segment, None)
        named = {e.norm for e in self._releases_named(segment, product_of(self.release))}
        if len(named) == 1 and self.release not in named:
            return named.pop(), "sentence"
        if len(named) > 1 and self.release not in named:
            return None, None
        return self.release, self.release_source

    def _subject_source(self, subject: SubjectMention) -> str:
        if subject.end == 0:
            return "release"
        if subject is self.section_subject:
            return "heading"
        return "glossary" if subject.subject in glossary() else "name"


def _about_prerelease(segment: SegmentInput) -> bool:
    """Whether a sentence names a pre-release (a beta's date is not the release's)."""
    return any(e.label == MATURITY and e.norm in _PRE_RELEASES for e in segment.entities)


def _platform_status(segment: SegmentInput, position: int) -> str:
    return DROPPED if support_ends_around(segment.text, segment.lang, position) else MENTIONED


def _joined(text: str, mention: SubjectMention) -> bool:
    """Whether a conjunction of any language joins `mention` to the words next to it ("VACUUM 与批量导出";
    a word, not a mark: "、" is also a comma in Japanese)."""
    after, before = _joiners()
    return bool(after.match(text, mention.end) or before.search(text, 0, mention.start))


@lru_cache(maxsize=1)
def _joiners() -> tuple[re.Pattern, re.Pattern]:
    words = alternation([word for word in conjunctions() if word.isalpha()])
    return re.compile(rf"\s?(?:{words})(?![A-Za-z])", re.I), re.compile(rf"(?<![A-Za-z])(?:{words})\s?$", re.I)


def _names_predecessor(baseline: str, subject: str) -> bool:
    """The baseline is the model just before the subject in its line ("X8" of "orvane-x9")."""
    before, this = _MODEL_CODE.search(slug(baseline)), _MODEL_CODE.search(subject)
    return bool(before and this and before[1] == this[1] and int(before[2]) == int(this[2]) - 1)


def _previous_ratio_end(segment: SegmentInput, entity: Entity) -> int:
    """Where the last percentage or factor before `entity` in its segment ends (0 if none)."""
    return max((e.end for e in segment.entities if e.label in (PERCENT, MULTIPLIER) and e.end <= entity.start), default=0)


def _unit_or_modifier(text: str, entity: Entity) -> bool:
    """A span of one unit ("$899 a month", "1時間あたり": a rate's unit) or written as a modifier ("the
    72-hour track error": what it describes): no figure of its own where no word names it."""
    return entity.label == DURATION and (entity.norm.startswith("1 ") or "-" in text[entity.start : entity.end + 1])


def _count_attribute(text: str, number: Reading) -> str | None:
    """What a plain number counts, as an attribute: the first concept of its noun ("29 languages":
    count_languag); else, where a counter or its notation marks it as a count of something no
    dictionary names ("150 辆", "72基", "5 万", "1,450"), `unnamed_count` (never a bare "2412": a model's
    or a part's number as often; nor a small one: two sources' "3" coincide too often)."""
    value = number.value or 0
    if number.unit or not float(value).is_integer():
        return None
    if number.counted:
        # (unless a counter says what follows is what it counts: "20億個の三角形", "20亿 个三角形")
        most = math.inf if number.text.isascii() or counter_follows(text, number.end) else _MOST_COUNTED_WITH_A_MAGNITUDE
        return f"count_{number.counted.split()[0]}" if _COUNT.fullmatch(number.text) and 2 <= value <= most else None
    if not _LEAST_UNNAMED_COUNT <= value <= _MOST_COUNTED_WITH_A_MAGNITUDE:
        return None
    return "unnamed_count" if counter_follows(text, number.end) or not number.text.isdigit() else None


def _day_number(norm: str) -> int | None:
    """The day a whole date names, counted from year 1 ("2026-10-14"); None for a month or a year alone."""
    try:
        return date.fromisoformat(norm).toordinal()
    except ValueError:
        return None


def _on_platforms(platforms: set[str]) -> str | None:
    return ";".join(f"platform={name}" for name in sorted(platforms)) or None


def _names_reach(segment: SegmentInput, entity: Entity) -> int:
    """Where the names a date may belong to end: the end of its comma part where that part holds the
    word saying what the date is of ("新价格将于 2026 年 7 月 1 日起正式生效,原有的…整合为免费、Pro…"
    dates no Pro); else the sentence's ("Lattice Mobileは2026年6月9日、…「Orchid OS 15」を発表した")."""
    if entity.label != DATE:
        return len(segment.text)
    start, end = comma_part(segment.text, entity.start, entity.end)
    part = segment.text[start:end]
    said = attribute_near(part, segment.lang, entity.start - start, entity.end - start, of="date")
    return end if said else len(segment.text)


def _no_figure(segment: SegmentInput, entity: Entity) -> bool:
    """An amount that is the unit a rate is given per ("1GBあたり月額0.020ドル", "per 1,000 tokens") or a
    difference ("two hours longer than the Nova 7", "比上一代延长了两年"): no figure of a subject."""
    return cued(segment.text, entity, profile(segment.lang).per) or is_difference(segment.text, segment.lang, entity)


def _codes_as_names(claims: list[Claim]) -> list[Claim]:
    """A model code an article also writes within one longer name is that name: "X9" in an article
    that names the "Arclight X9" (one finding, not two, where another source says otherwise); not a
    code its sentence writes as the head of a part number ("入门型号 C5-9160": one model of the C5 line)."""
    owners = [claim.subject.split(FEATURE_MARK)[0] for claim in claims]  # (a feature's owner: "r9" of "r9~pet~mode")
    subjects = set(owners)
    codes = {code for code in subjects if "-" not in code and any(char.isdigit() for char in code)}
    codes -= {c.subject for c in claims if c.subject in codes and re.search(rf"{re.escape(c.subject_text)}-\d", c.evidence)}
    longer = {code: names[0] for code in codes if len(names := [name for name in subjects if name.endswith(f"-{code}")]) == 1}
    # (and a feature of the code is one of the name: "r9~pet~mode" of "robovac-r9")
    return [
        replace(claim, subject=longer[owner] + claim.subject[len(owner) :]) if owner in longer else claim
        for claim, owner in zip(claims, owners, strict=True)
    ]


def build_claims(
    doc_id: str,
    lang: str | None,
    release: str | None,
    segments: Sequence[SegmentInput],
    release_source: str | None = None,
    title: str | None = None,
) -> list[Claim]:
    """All claims of one document, deduplicated by claim id."""
    claims = ClaimBuilder(doc_id, release, lang, release_source, title).build(segments)
    return list({claim.claim_id: claim for claim in claims}.values())
