"""The records the stages hand each other, from a file on disk to a document's warehouse rows.

Plain data only (no behaviour beyond derived properties and how a table row's text is
read back into cells), so every stage can import them and nothing here imports a stage.

    SourceFile --read--> Decoded --clean--> Cleaned --prepare--> PreparedDocument
    PreparedDocument --translate--> (text_en on its SegmentRecords)
    PreparedDocument --extract--> ExtractedDocument (DocumentRows) --load--> DocumentOutcome
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from functools import lru_cache
from typing import Any


class Status(StrEnum):
    """What became of a document; stored as text in `documents.status`."""

    OK = "ok"
    FAILED = "failed"
    DUPLICATE = "duplicate"
    # The file is gone since the run that loaded it: its rows stay (until `ingest prune`) but
    # leave every check, which reads `ok` documents only.
    MISSING = "missing"
    # An --exclude pattern or an ignore file (`.ingestignore`) names the file: it is not read,
    # and its row says which pattern (a document loaded before leaves the checks with it).
    EXCLUDED = "excluded"


# Block kinds of a cleaned document; segments keep their block's kind.
HEADING, PARAGRAPH, LIST_ITEM, TABLE_ROW = "heading", "paragraph", "list_item", "table_row"
# ISO 639-2 "no linguistic content": a segment of code, URLs or numbers only; nothing to translate.
NO_LANGUAGE = "zxx"
BLOCK_SEPARATOR = "\n\n"
# A table row's text is its cells joined by CELL_SEPARATOR, empty cells included, then stripped
# (a leading empty cell leaves "| x"); no cell holds a pipe with a space beside it (clean/normalize).
CELL_SEPARATOR = " | "
_CELL_BOUNDARY = re.compile(r"(?:^| )\|(?: |$)")


def cell_spans(row: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a table row's text, empty cells included, in column order."""
    spans, start = [], 0
    for boundary in _CELL_BOUNDARY.finditer(row):
        spans.append((start, boundary.start()))
        start = boundary.end()
    spans.append((start, len(row)))
    return spans


# Written near the top of both report files (an HTML comment in the Markdown, a generator meta tag
# in the HTML): discovery never takes a file carrying it for an article, wherever --reports put it.
REPORT_SIGNATURE = "generator: ingest-consistency-report"


@dataclass(frozen=True)
class SourceFile:
    """One input file as found on disk; `duplicate_of` names the doc_id with the same bytes,
    `root` the input folder it was found under (absolute; a file given alone: its folder),
    `excluded` the pattern that keeps it out of the run."""

    doc_id: str
    path: str
    fmt: str
    sha256: str | None
    size: int | None
    duplicate_of: str | None = None
    error: str | None = None
    root: str | None = None
    excluded: str | None = None


@dataclass(frozen=True)
class KnownSources:
    """What the warehouse holds from earlier runs, so that a document keeps its identity.

    `ids_by_path`: absolute path -> doc_id (a file keeps its id whichever root finds it);
    `labels_by_root`: input folder -> the first part of its documents' ids;
    `canonical_by_sha`: sha256 -> doc_id of the `ok` document with those bytes (a later
    copy is its duplicate, even across runs); `failed_sha`: the bytes of `failed` documents
    (a copy of bytes that failed is not a duplicate but fails on its own, and is then skipped
    like its original while nothing changes).
    """

    ids_by_path: dict[str, str] = field(default_factory=dict)
    labels_by_root: dict[str, str] = field(default_factory=dict)
    canonical_by_sha: dict[str, str] = field(default_factory=dict)
    failed_sha: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    # Set when the text was decoded despite damage (invalid UTF-8 bytes replaced).
    warning: str | None = None


@dataclass(frozen=True)
class Block:
    kind: str
    text: str


@dataclass
class Cleaned:
    blocks: list[Block]
    # What the document declares about itself: Markdown front matter, or a web page's metadata
    # (og:title, article:published_time, JSON-LD...) under the keys front matter uses (title, date, author).
    declared: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return BLOCK_SEPARATOR.join(block.text for block in self.blocks)

    def block_offsets(self) -> Iterator[tuple[int, Block]]:
        """Each block with its start offset in `text`."""
        offset = 0
        for block in self.blocks:
            yield offset, block
            offset += len(block.text) + len(BLOCK_SEPARATOR)


@dataclass(frozen=True)
class Metadata:
    title: str | None = None
    published_at: dt.date | None = None
    source_url: str | None = None
    translator: str | None = None
    author: str | None = None


@dataclass
class SegmentRecord:
    doc_id: str
    seg_idx: int
    block_idx: int
    kind: str
    section: str | None
    lang: str
    lang_confidence: float
    char_start: int
    char_end: int
    text: str
    text_en: str | None = None
    translation_status: str | None = None
    translation_engine: str | None = None
    translation_reason: str | None = None


@dataclass
class PreparedDocument:
    source: SourceFile
    status: Status
    error: str | None = None
    encoding: str | None = None
    lang: str | None = None
    lang_variant: str | None = None
    lang_confidence: float | None = None
    metadata: Metadata = field(default_factory=Metadata)
    text: str | None = None
    segments: list[SegmentRecord] = field(default_factory=list)
    # Failed over a per-article limit (size, characters, markup, segments, time): tried again when
    # the limits change (`limits.Limits.mark`).
    limited: bool = False


@dataclass(frozen=True)
class Claim:
    """A normalised fact of one sentence (`extract.claims`): a row of table `claims`."""

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
    value_low: float | None  # the interval its hedge allows (`notation.hedged_bounds`)
    value_high: float | None
    unit: str | None
    qualifier: str
    baseline: str | None
    conditions: str | None  # "gpus=64;hw=nvidia-a100": what the value holds under
    release: str | None
    release_source: str | None  # heading | sentence | title | body: where the release comes from
    subject_source: str  # glossary | name | heading | release | model (a sized model's name)
    char_start: int
    char_end: int
    evidence: str
    evidence_en: str | None
    set_valued: bool = False  # one of several values the subject has: corroborates, never contradicts


# The tables a document's rows go to besides `documents`, in load order.
DOCUMENT_TABLES = ("segments", "entities", "mentions", "claims", "translation_issues", "anchors")


@dataclass
class DocumentRows:
    """Everything one document contributes to the warehouse, loaded or replaced as a unit."""

    document: dict[str, Any]
    segments: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    translation_issues: list[dict[str, Any]] = field(default_factory=list)
    anchors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def doc_id(self) -> str:
        return str(self.document["doc_id"])

    def outcome(self) -> DocumentOutcome:
        return DocumentOutcome(
            self.doc_id, Status(self.document["status"]), self.document.get("error"), self.document.get("duplicate_of")
        )

    def table(self, name: str) -> list[dict[str, Any]]:
        """The rows this document gives table `name` (`documents` included)."""
        return [self.document] if name == "documents" else getattr(self, name)


@dataclass
class ExtractedDocument:
    prepared: PreparedDocument
    rows: DocumentRows


@dataclass(frozen=True)
class DocumentOutcome:
    """How one document ended a run."""

    doc_id: str
    status: Status
    error: str | None = None
    duplicate_of: str | None = None


def utc_now() -> dt.datetime:
    """Now, in UTC without a time zone: how the warehouse stores timestamps."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def as_rows(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Dataclass records as plain dicts for loading (what `asdict` gives, without its deep copy)."""
    return [_as_row(r) if hasattr(r, "__dataclass_fields__") else dict(r) for r in records]


@lru_cache(maxsize=64)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _as_row(record: Any) -> dict[str, Any]:
    record_type: type = type(record)
    row = {name: getattr(record, name) for name in _field_names(record_type)}
    if any(isinstance(v, (list, tuple, dict)) or hasattr(v, "__dataclass_fields__") for v in row.values()):
        return asdict(record)  # nested values: keep asdict's recursive conversion
    return row
