"""The prepare stage of one document: read -> clean -> metadata -> language -> segment.

It never raises: a file that cannot be ingested becomes a `failed` document with a
reason that says what to do. A document over one of the per-article limits
(`limits.current()`, including the time the stage may take: `ingest.budget`) is marked
`limited`, so that it is tried again once the limits change.
"""

from __future__ import annotations

import hashlib

from .budget import Budget, BudgetExceeded, checkpoint
from .clean import clean
from .errors import LimitError, ReadError
from .language import detect_language
from .limits import Limits
from .limits import current as current_limits
from .metadata import extract_metadata
from .read import decode, read_regular
from .records import Decoded, PreparedDocument, SegmentRecord, SourceFile, Status
from .segment import segment


def _failed(source: SourceFile, reason: str, limited: bool = False) -> PreparedDocument:
    return PreparedDocument(source, Status.FAILED, reason, limited=limited)


def read_bytes(source: SourceFile) -> bytes:
    """The file's bytes, refusing (without reading it all) a file over the size limit."""
    limit = current_limits().max_file_bytes
    raw = read_regular(source.path, limit)
    if len(raw) > limit:
        size = max(source.size or 0, len(raw))
        raise LimitError(f"file is {_size(size)}, over the {_size(limit)} limit for one article; split it or remove it")
    if source.sha256 and hashlib.sha256(raw).hexdigest() != source.sha256:
        raise ReadError("file changed between discovery and reading (it is being written?); re-run once it is complete")
    return raw


def prepare_document(source: SourceFile) -> PreparedDocument:
    """Read, clean, describe, identify the language of and segment one source file."""
    if source.excluded:
        return PreparedDocument(source, Status.EXCLUDED, source.excluded)
    if source.error:
        return _failed(source, source.error)
    if source.duplicate_of:
        return PreparedDocument(source, Status.DUPLICATE, f"same content as {source.duplicate_of}; ingested once there")
    limits = current_limits()
    try:
        with Budget("preparing (reading, cleaning, language detection, segmentation)", limits.max_stage_seconds):
            return _prepare(source, limits)
    except BudgetExceeded as error:
        return _failed(source, str(error), limited=True)


def _prepare(source: SourceFile, limits: Limits) -> PreparedDocument:
    try:
        decoded = decode(read_bytes(source))
    except LimitError as error:
        return _failed(source, str(error), limited=True)
    except ReadError as error:
        return _failed(source, str(error))
    except OSError as error:
        return _failed(source, f"cannot read file ({error.strerror or error}); check it exists and is readable")
    try:
        return _prepare_text(source, decoded, limits)
    except LimitError as error:  # too much markup, or cleaning ran out of time: the reason says so
        return _failed(source, str(error), limited=True)
    except ReadError as error:
        return _failed(source, str(error))
    except Exception as error:
        return _failed(
            source,
            f"internal error while preparing the document ({type(error).__name__}: "
            f"{str(error)[:200]}); please report it with the file",
        )


def _prepare_text(source: SourceFile, decoded: Decoded, limits: Limits) -> PreparedDocument:
    cleaned = clean(decoded.text, source.fmt)
    if not cleaned.blocks:
        return _failed(source, "no text left after cleaning (markup, code or chrome only); nothing to ingest")
    text = cleaned.text
    if len(text) > limits.max_text_chars:
        return _failed(
            source,
            f"article text is {len(text):,} characters after cleaning, over the "
            f"{limits.max_text_chars:,}-character limit for one article; split it or remove it",
            limited=True,
        )
    checkpoint()
    segments = segment(cleaned)
    if len(segments) > limits.max_segments:
        return _failed(
            source,
            f"article has {len(segments):,} segments (sentences, list items, table rows), over the "
            f"{limits.max_segments:,}-segment limit for one article; split it or remove it",
            limited=True,
        )
    checkpoint()
    guess = detect_language(text)
    prepared = PreparedDocument(
        source,
        Status.OK,
        error=decoded.warning,
        encoding=decoded.encoding,
        lang=guess.lang,
        lang_variant=guess.variant,
        lang_confidence=guess.confidence,
        metadata=extract_metadata(cleaned),
        text=text,
    )
    for seg in segments:
        checkpoint()
        seg_lang = detect_language(seg.text, context=guess.lang)
        prepared.segments.append(
            SegmentRecord(
                source.doc_id,
                seg.seg_idx,
                seg.block_idx,
                seg.kind,
                seg.section,
                seg_lang.lang,
                seg_lang.confidence,
                seg.char_start,
                seg.char_end,
                seg.text,
            )
        )
    return prepared


def _size(n_bytes: int) -> str:
    """ "48 MiB", or "2,505 bytes" under a MiB (where MiB would read "0 MiB")."""
    return f"{n_bytes / 2**20:.0f} MiB" if n_bytes >= 2**20 else f"{n_bytes:,} bytes"
