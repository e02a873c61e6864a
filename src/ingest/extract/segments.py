"""A segment as the extract stage sees it once its figures are read: what claims, releases and
phrases are computed from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entities import Entity
from .reader import Reading


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
    readings: Sequence[Reading] = ()  # in text order (`reader.read`)
