"""Raw bytes to text, with the encoding detected by charset-normalizer.

A BOM decides outright, and so does clean UTF-8; UTF-16 without a BOM is
recognised by where its NUL bytes fall. Otherwise charset-normalizer weighs
every candidate codec on a prefix of the file. Binary content is refused with a
reason rather than decoded into noise.

Invalid UTF-8: a file that is UTF-8 except for a few bad bytes (a truncated
download, a stray Latin-1 byte) is decoded with U+FFFD in place of the bad
bytes and kept, with `Decoded.warning` saying how many bytes were replaced;
the pipeline stores the document as `ok` with that warning in its `error`
column. Bytes that are mostly not UTF-8 go to charset-normalizer, and if no
codec fits the file is refused (`ReadError`).
"""

from __future__ import annotations

import codecs
import os
import re
import stat
import unicodedata
from pathlib import Path
from typing import BinaryIO

from charset_normalizer import from_bytes

from .errors import ReadError
from .records import Decoded


class NotRegularFileError(ReadError):
    """What was opened is a FIFO, socket or device, not a file: reading it could block or never end."""


def open_regular(path: str | Path) -> BinaryIO:
    """`path` opened for reading, refused unless it is a regular file.

    It is opened without blocking (O_NONBLOCK: opening a FIFO for reading would wait for a writer)
    and checked with fstat on the open descriptor, so a file swapped for a FIFO, a device or a link
    to /dev/zero after an earlier look is refused rather than read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError("not a regular file (a FIFO, socket or device); remove it from the input")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path` (one more than allowed says it is too big)."""
    with open_regular(path) as handle:
        return handle.read(limit + 1)


_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BINARY_MAGIC = {
    b"\x89PNG": "a PNG image",
    b"%PDF": "a PDF document",
    b"PK\x03\x04": "a zip archive",
    b"\x1f\x8b": "gzip data",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"\x7fELF": "an executable",
    b"7z\xbc\xaf\x27\x1c": "a 7-zip archive",
    b"Rar!\x1a\x07": "a RAR archive",
    b"\xd0\xcf\x11\xe0": "an MS Office document",
    b"SQLite format 3\x00": "an SQLite database",
    b"\x00\x00\x01\x00": "an icon",
}
# charset-normalizer tries every codec on long inputs; a prefix decides as well and
# keeps a 50 MB file from costing minutes.
_DETECTION_SAMPLE = 256 * 1024
# Up to this share of the non-ASCII bytes may be invalid for a file to still count as
# (damaged) UTF-8; legacy CJK or Latin-1 text fails far more of them.
_UTF8_MAX_BAD_SHARE = 0.02
# Mess (charset-normalizer's chaos) accepted when no codec passed its own, stricter test.
_LENIENT_MAX_CHAOS = 0.35
# UTF-16 text without a BOM: decoded, this share of characters must be printable.
_UTF16_MIN_PRINTABLE = 0.95


def _bom_encoding(raw: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return encoding
    return None


def _printable_share(text: str) -> float:
    if not text:
        return 0.0
    bad = sum(1 for char in text if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") and char not in "\n\r\t")
    return 1 - bad / len(text)


def _utf16_without_bom(raw: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when the bytes decode to printable UTF-16 text; else None.

    ASCII characters put their NUL byte high, so the side with more NULs gives the byte order.
    """
    sample = raw[:_DETECTION_SAMPLE]
    sample = sample[: len(sample) - len(sample) % 2]
    encoding = "utf-16-le" if sample[1::2].count(0) >= sample[0::2].count(0) else "utf-16-be"
    try:
        text = sample.decode(encoding)
    except UnicodeDecodeError as exc:
        # A surrogate pair cut by the end of the sample is no evidence against UTF-16.
        if len(sample) == len(raw) or exc.start < len(sample) - 4:
            return None
        text = sample[: exc.start].decode(encoding)
    if "\x00" in text or _printable_share(text) < _UTF16_MIN_PRINTABLE:
        return None
    return encoding


def _refuse_binary(raw: bytes) -> None:
    for magic, kind in _BINARY_MAGIC.items():
        if raw.startswith(magic):
            raise ReadError(f"binary file ({kind}), not text; convert it to .txt/.md/.html or remove it")
    if b"\x00" in raw[:_DETECTION_SAMPLE]:
        raise ReadError("binary file (contains NUL bytes and is neither UTF-16 nor UTF-32 text); not a text document")


def _damaged_utf8(raw: bytes) -> Decoded | None:
    """UTF-8 with a few invalid bytes, decoded with U+FFFD for them; None if it is not UTF-8 at all."""
    non_ascii = len(raw) - len(raw.translate(None, bytes(range(0x80, 0x100))))
    if not non_ascii:
        return None
    text = raw.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - raw.count("\ufffd".encode())
    if bad <= 0 or bad / non_ascii > _UTF8_MAX_BAD_SHARE:
        return None
    return Decoded(
        text,
        "utf-8",
        f"warning: {bad} invalid UTF-8 byte sequence(s) replaced with U+FFFD; "
        "the rest of the text is kept. Re-save the file as UTF-8 to fix it",
    )


def _detection_sample(raw: bytes) -> bytes:
    """The detection prefix, cut after a line end so no multibyte character is split."""
    if len(raw) <= _DETECTION_SAMPLE:
        return raw
    sample = raw[:_DETECTION_SAMPLE]
    newline = sample.rfind(b"\n")
    return sample[: newline + 1] if newline > _DETECTION_SAMPLE // 2 else sample


def _detect(raw: bytes) -> str:
    sample = _detection_sample(raw)
    best = from_bytes(sample).best()
    if best is None:
        # charset-normalizer drops a codec when any one chunk looks messy (a URL-heavy
        # byline in Shift_JIS is enough); judged on the whole sample, real text stays far
        # below the mess of noise (~0.9).
        lenient = from_bytes(sample, threshold=1.0).best()
        best = lenient if lenient is not None and lenient.chaos <= _LENIENT_MAX_CHAOS else None
    if best is None:
        raise ReadError("could not detect a text encoding (the bytes decode as no known charset); re-save the file as UTF-8")
    return best.encoding


# ISO-2022 designations (ESC $ B, ESC ( J, ...): a lone ESC in ASCII text ("0\x1b") is not one.
_ISO2022_ESCAPE = re.compile(rb"\x1b(?:\$[@AB]|\$\([A-Z@]|\([BJI])")


def _legacy_7bit(raw: bytes) -> bool:
    """ASCII bytes that are really ISO-2022-JP (escape sequences) or HZ (~{ ... ~})."""
    return bool(_ISO2022_ESCAPE.search(raw)) or (b"~{" in raw and b"~}" in raw)


def decode(raw: bytes) -> Decoded:
    """Decode a document's bytes; raise ReadError for empty, binary or undecodable input."""
    if not raw:
        raise ReadError("empty file (no text); nothing to ingest")
    if not raw.strip():
        raise ReadError("whitespace-only file (no text); nothing to ingest")
    encoding = _bom_encoding(raw)
    if encoding is None and b"\x00" in raw[:_DETECTION_SAMPLE]:
        encoding = _utf16_without_bom(raw)
    if encoding is None:
        _refuse_binary(raw)
        if not (raw.isascii() and _legacy_7bit(raw)):
            try:
                return _checked(raw.decode("utf-8"), "ascii" if raw.isascii() else "utf-8")
            except UnicodeDecodeError:
                pass
        damaged = _damaged_utf8(raw)
        if damaged is not None:
            return _checked(damaged.text, damaged.encoding, damaged.warning)
        encoding = _detect(raw)
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ReadError(
            f"bytes are not valid {encoding} ({exc.reason if hasattr(exc, 'reason') else exc}); re-save the file as UTF-8"
        ) from exc
    return _checked(text, codecs.lookup(encoding).name)


def _checked(text: str, encoding: str, warning: str | None = None) -> Decoded:
    if not text.strip():
        raise ReadError("whitespace-only file (no text); nothing to ingest")
    return Decoded(text, encoding, warning)
