"""Entities to normalised claims: subject, attribute, value, qualifier, baseline, release.

Subjects come from the multilingual glossary (`extract/glossary.yaml`): the
nearest glossary mention in the sentence, else the one in the section heading.
A subject the glossary does not know falls back to the nearest Latin-script
product name in the sentence, as `name:<lowercased name>`, so the same unknown
name still groups with itself across sources; with no name at all, claims about
counts fall back to the release's product and other values are dropped rather
than guessed.

The release a claim belongs to is the product version named by the section
heading, else by the document title, else the one the body names most.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from ..lang import common_rules, profile
from ..records import CELL_SEPARATOR, HEADING, TABLE_ROW
from .entities import COUNT, MATURITY, MULTIPLIER, PERCENT, QUANTITY, VERSION, Entity
from .glossary import Mention, glossary_mentions
from .rules import rules_for

_CLAUSE_END = re.compile(r"[。!?！？;；]")
# A capitalised Latin word or run of them ("Zorblax", "TorchInductor", "ZeRO++", "Flight Recorder").
_LATIN_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Z][A-Za-z0-9]+(?:\+\+)?(?:[ -][A-Z][A-Za-z0-9+]+)*")
_ATTRIBUTE_WINDOW_AFTER = 14
_ATTRIBUTE_WINDOW_BEFORE = 24
_COUNT_ATTRIBUTES = {"contributors": "contributors", "commits": "commits",
                     "models": "model_count", "gpus": "gpu_count", "nodes": "node_count"}
_QUANTITY_ATTRIBUTES = {"tokens": "tokens", "parameters": "parameters", "GB": "memory",
                        "MB": "memory", "TB": "storage", "GB/s": "bandwidth", "Gbps": "network_bandwidth",
                        "tokens/s": "generation_throughput", "TFLOPS": "compute"}
_RELEASE_WIDE_COUNTS = {"contributors", "commits"}


@dataclass(frozen=True)
class SegmentInput:
    """What claim building needs to know about one segment."""

    seg_idx: int
    kind: str
    lang: str
    text: str
    text_en: str | None
    section: str | None
    entities: Sequence[Entity]


@dataclass(frozen=True)
class Claim:
    claim_id: str
    doc_id: str
    seg_idx: int
    subject: str
    subject_text: str
    attribute: str
    value: str
    value_num: float | None
    value_max: float | None
    value_tol: float | None
    unit: str | None
    qualifier: str
    baseline: str | None
    context: str | None
    release: str | None
    char_start: int
    char_end: int
    evidence: str
    evidence_en: str | None


# ---- context ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def release_products() -> frozenset[str]:
    return frozenset(p["id"] for p in common_rules()["products"] if p.get("release"))


def releases_in(entities: Iterable[Entity]) -> list[str]:
    return [e.norm for e in entities if e.label == VERSION and e.extra.get("product") in release_products()]


def document_release(title_entities: Sequence[Entity], segments: Sequence[SegmentInput]) -> tuple[str | None, str | None]:
    """The release a document is about and, when its body is mostly about another one, a note."""
    in_title = releases_in(title_entities)
    body = Counter(r for s in segments if s.kind != HEADING for r in releases_in(s.entities))
    body_top = body.most_common(1)[0][0] if body else None
    if not in_title:
        return body_top, None
    release = in_title[0]
    if body_top and body_top != release and body[body_top] >= 2 * max(body[release], 1):
        return release, (f"the title names {release} but the body mostly names {body_top} "
                         f"({body[body_top]} mentions vs {body[release]})")
    return release, None


def _clause_bounds(text: str, position: int) -> tuple[int, int]:
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, position)), default=0)
    end_match = _CLAUSE_END.search(text, position)
    return start, end_match.start() if end_match else len(text)


def _nearest(mentions: Sequence[Mention], start: int, end: int) -> Mention | None:
    """The mention closest to [start, end), preferring one before it over one after at equal distance."""
    def distance(m: Mention) -> tuple[int, int]:
        return (start - m.end, 0) if m.end <= start else (m.start - end, 1)
    outside = [m for m in mentions if m.end <= start or m.start >= end]
    return min(outside, key=distance, default=None)


def _baseline(text: str, lang: str, start: int, end: int) -> tuple[str | None, tuple[int, int] | None]:
    clause_start, clause_end = _clause_bounds(text, start)
    for pattern in rules_for(lang).baselines:
        for match in pattern.finditer(text, clause_start, clause_end):
            return match["base"].strip(), match.span("base")
    return None, None


def _attribute(text: str, lang: str, start: int, end: int) -> str | None:
    """The attribute keyword nearest to the value within its clause."""
    clause_start, clause_end = _clause_bounds(text, start)
    low, high = max(clause_start, start - _ATTRIBUTE_WINDOW_BEFORE), min(clause_end, end + _ATTRIBUTE_WINDOW_AFTER)
    best: tuple[int, str] | None = None
    for attribute, pattern in rules_for(lang).attributes:
        for match in pattern.finditer(text, low, high):
            gap = match.start() - end if match.start() >= end else start - match.end()
            if best is None or gap < best[0]:
                best = (gap, attribute)
    return best[1] if best else None


def _fallback_mentions(text: str, entities: Sequence[Entity]) -> list[Mention]:
    """Latin-script product names ("TorchInductor", "ZeRO++") not already part of an entity."""
    covered = [(e.start, e.end) for e in entities]
    return [Mention(f"name:{m.group().lower()}", m.group(), m.start(), m.end())
            for m in _LATIN_NAME.finditer(text)
            if not any(s <= m.start() < e for s, e in covered)]


def _cells(text: str) -> Iterable[tuple[int, int]]:
    """(start, end) of each cell of a table-row segment."""
    start = 0
    for part in text.split(CELL_SEPARATOR):
        yield start, start + len(part)
        start += len(part) + len(CELL_SEPARATOR)


def _shifted(mentions: Sequence[Mention], offset: int) -> list[Mention]:
    return [Mention(m.subject, m.surface, m.start + offset, m.end + offset) for m in mentions]


def _head_mention(mentions: Sequence[Mention], lang: str) -> Mention | None:
    """The subject a heading is about: head-final languages (Chinese, Japanese: see their
    profiles) put the head noun last ("TorchInductor 中的 BF16 符号形状优化"), English first
    ("FlexAttention in TorchInductor")."""
    if not mentions:
        return None
    return mentions[-1] if profile(lang).head_final else mentions[0]


# ---- building -----------------------------------------------------------------------------

class ClaimBuilder:
    """Builds the claims of one document, segment by segment, carrying section context."""

    def __init__(self, doc_id: str, release: str | None, lang: str) -> None:
        self.doc_id = doc_id
        self.doc_release = release
        self.release = release
        self.lang = lang
        self.section_subject: Mention | None = None
        self.section_maturity: str | None = None
        self.column_maturity: list[str | None] = []

    def build(self, segments: Sequence[SegmentInput]) -> list[Claim]:
        claims: list[Claim] = []
        for segment in segments:
            if segment.kind != TABLE_ROW:
                self.column_maturity = []
            if segment.kind == HEADING:
                claims.extend(self._heading(segment))
            elif segment.kind == TABLE_ROW:
                claims.extend(self._table_row(segment))
            else:
                claims.extend(self._body(segment))
        return claims

    def _table_row(self, segment: SegmentInput) -> list[Claim]:
        """A header row of maturity labels ("Beta | Prototype | Performance") sets each column's
        maturity for the feature names in the rows below it."""
        cells = list(_cells(segment.text))
        header = [self._column_label(segment, start, end) for start, end in cells]
        if all(label is not None for label in header):
            self.column_maturity = [label or None for label in header]
            return []
        claims = [c for e in segment.entities if e.label != MATURITY
                  for c in self._value_claim(segment, e, glossary_mentions(segment.text))]
        for (start, end), maturity in zip(cells, self.column_maturity):
            subject = _head_mention(_shifted(glossary_mentions(segment.text[start:end]), start), segment.lang)
            if maturity and subject:
                claims.append(self._claim(segment, subject, "maturity", maturity, subject.start, subject.end))
        return claims

    def _column_label(self, segment: SegmentInput, start: int, end: int) -> str | None:
        """The maturity a header cell names, '' for another section name, None for an ordinary cell."""
        cell = segment.text[start:end].strip("* ")
        for entity in segment.entities:
            if entity.label == MATURITY and entity.start >= start and entity.end <= end \
                    and len(cell) <= len(entity.text) + 4:
                return entity.norm
        return "" if rules_for(self.lang).other_sections.search(cell) else None

    def _heading(self, segment: SegmentInput) -> list[Claim]:
        mentions = glossary_mentions(segment.text)
        self.section_subject = _head_mention(mentions, segment.lang)
        self.release = (releases_in(segment.entities) or [self.release or self.doc_release])[0]
        section_maturity = self._maturity_section(segment.text)
        if section_maturity:
            self.section_maturity = section_maturity
            return []
        if rules_for(self.lang).other_sections.search(segment.text):
            self.section_maturity = None
        claims = [c for e in segment.entities if e.label != MATURITY for c in self._value_claim(segment, e, mentions)]
        tags = [e for e in segment.entities if e.label == MATURITY]
        if self.section_subject and (tags or self.section_maturity):
            tag = tags[0] if tags else None
            value = tag.norm if tag else self.section_maturity
            start, end = (tag.start, tag.end) if tag else (self.section_subject.start, self.section_subject.end)
            claims.append(self._claim(segment, self.section_subject, "maturity", value, start, end))
        return claims

    def _maturity_section(self, text: str) -> str | None:
        for value, pattern in rules_for(self.lang).maturity_sections:
            if pattern.search(text):
                return value
        return None

    def _body(self, segment: SegmentInput) -> list[Claim]:
        mentions = glossary_mentions(segment.text)
        claims = []
        for entity in segment.entities:
            if entity.label == MATURITY:
                subject = _nearest(mentions, entity.start, entity.end) or self.section_subject
                if subject:
                    claims.append(self._claim(segment, subject, "maturity", entity.norm, entity.start, entity.end))
            else:
                claims.extend(self._value_claim(segment, entity, mentions))
        return claims

    def _value_claim(self, segment: SegmentInput, entity: Entity, mentions: list[Mention]) -> list[Claim]:
        attribute = self._value_attribute(segment, entity)
        if attribute is None:
            return []
        baseline, baseline_span = (None, None)
        if entity.label in (PERCENT, MULTIPLIER):
            baseline, baseline_span = _baseline(segment.text, segment.lang, entity.start, entity.end)
        subject = self._value_subject(segment, entity, mentions, attribute, baseline_span)
        if subject is None:
            return []
        return [self._claim(segment, subject, attribute, entity.norm + (entity.unit if entity.unit in ("%", "x") else ""),
                            entity.start, entity.end, entity, baseline)]

    def _value_attribute(self, segment: SegmentInput, entity: Entity) -> str | None:
        if entity.label == COUNT:
            return _COUNT_ATTRIBUTES.get(entity.unit or "")
        if entity.label == QUANTITY:
            return _QUANTITY_ATTRIBUTES.get(entity.unit or "")
        if entity.label in (PERCENT, MULTIPLIER):
            attribute = _attribute(segment.text, segment.lang, entity.start, entity.end)
            # "性能提高了 2 倍" / "2x the performance": a performance multiplier is a speed-up.
            return "speedup" if entity.label == MULTIPLIER and attribute == "performance" else attribute
        return None

    def _value_subject(self, segment: SegmentInput, entity: Entity, mentions: list[Mention],
                       attribute: str, baseline_span: tuple[int, int] | None) -> Mention | None:
        if attribute in _RELEASE_WIDE_COUNTS:
            return self._release_subject()
        usable = [m for m in mentions if not baseline_span or not (baseline_span[0] <= m.start < baseline_span[1])]
        clause_start, clause_end = _clause_bounds(segment.text, entity.start)
        in_clause = [m for m in usable if clause_start <= m.start and m.end <= clause_end]
        subject = _nearest(in_clause, entity.start, entity.end) or _nearest(usable, entity.start, entity.end)
        if subject or self.section_subject:
            return subject or self.section_subject
        fallback = [m for m in _fallback_mentions(segment.text, segment.entities)
                    if not baseline_span or not (baseline_span[0] <= m.start < baseline_span[1])]
        return _nearest(fallback, entity.start, entity.end) or (
            self._release_subject() if entity.label == COUNT else None)

    def _release_subject(self) -> Mention | None:
        release = self.release or self.doc_release
        if not release:
            return None
        product = release.split(" ", 1)[0]
        return Mention(product, release, 0, 0)

    def _claim(self, segment: SegmentInput, subject: Mention, attribute: str, value: str,
               start: int, end: int, entity: Entity | None = None, baseline: str | None = None) -> Claim:
        key = f"{self.doc_id}|{segment.seg_idx}|{subject.subject}|{attribute}|{start}"
        context = ",".join(sorted({e.norm for e in segment.entities if e.label == "HARDWARE"})) or None
        return Claim(
            claim_id=hashlib.sha1(key.encode()).hexdigest()[:16], doc_id=self.doc_id,
            seg_idx=segment.seg_idx, subject=subject.subject, subject_text=subject.surface,
            attribute=attribute, value=value,
            value_num=entity.value_num if entity else None, value_max=entity.value_max if entity else None,
            value_tol=entity.value_tol if entity else None, unit=entity.unit if entity else None,
            qualifier=entity.qualifier if entity else "exact",
            baseline=baseline.lower() if baseline else None, context=context,
            release=self.release or self.doc_release, char_start=start, char_end=end,
            evidence=segment.text, evidence_en=segment.text_en,
        )


def build_claims(doc_id: str, lang: str, release: str | None, segments: Sequence[SegmentInput]) -> list[Claim]:
    """All claims of one document, deduplicated by claim id."""
    claims = ClaimBuilder(doc_id, release, lang).build(segments)
    return list({claim.claim_id: claim for claim in claims}.values())
