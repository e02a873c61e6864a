"""Raw bytes to text, with the encoding detected by charset-normalizer.

A BOM decides outright; otherwise charset-normalizer weighs every candidate
codec. Binary content is refused with a reason rather than decoded into noise.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from charset_normalizer import from_bytes

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"),
         (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_BINARY_MAGIC = {b"\x89PNG": "a PNG image", b"%PDF": "a PDF document", b"PK\x03\x04": "a zip archive",
                 b"\x1f\x8b": "gzip data", b"GIF8": "a GIF image", b"\xff\xd8\xff": "a JPEG image"}
# charset-normalizer tries every codec on long inputs; a prefix decides as well and
# keeps a 50 MB file from costing minutes.
_DETECTION_SAMPLE = 256 * 1024


class ReadError(ValueError):
    """The bytes are not a text document we can decode; the message says why and what to do."""


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str


def _bom_encoding(raw: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return encoding
    return None


def _refuse_binary(raw: bytes) -> None:
    for magic, kind in _BINARY_MAGIC.items():
        if raw.startswith(magic):
            raise ReadError(f"binary file ({kind}), not text; convert it to .txt/.md/.html or remove it")
    if b"\x00" in raw[:_DETECTION_SAMPLE]:
        raise ReadError("binary file (contains NUL bytes and no UTF-16/32 byte-order mark); "
                        "not a text document")


def _detect(raw: bytes) -> str:
    sample = raw[:_DETECTION_SAMPLE]
    best = from_bytes(sample).best()
    if best is None:
        raise ReadError("could not detect a text encoding (the bytes decode as no known charset); "
                        "re-save the file as UTF-8")
    return best.encoding


def decode(raw: bytes) -> Decoded:
    """Decode a document's bytes; raise ReadError for empty, binary or undecodable input."""
    if not raw.strip():
        raise ReadError("empty file (no text); nothing to ingest")
    encoding = _bom_encoding(raw)
    if encoding is None:
        _refuse_binary(raw)
        encoding = _detect(raw)
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ReadError(f"bytes are not valid {encoding} ({exc.reason if hasattr(exc, 'reason') else exc}); "
                        "re-save the file as UTF-8") from exc
    if not text.strip():
        raise ReadError("whitespace-only file (no text); nothing to ingest")
    return Decoded(text, codecs.lookup(encoding).name)
