"""Validating and unpacking a `.argosmodel` archive before anything of it is installed.

Checked before extraction: member count, names (no absolute paths, `..`, backslashes),
types (no links or devices), declared sizes and compression ratios (per member and over the
whole archive), one visible top folder, the package layout, its metadata (`metadata`) and
that the folder's name, if it names a pair, names the declared one. Extraction streams every
file and counts the real bytes, because headers may lie.
"""

from __future__ import annotations

import re
import stat
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..errors import PackageError
from .metadata import MAX_METADATA_BYTES, PackageMetadata, base_code, folder_pair, parse_metadata

VOCABULARY_FILES = (
    ("shared_vocabulary.txt",),
    ("shared_vocabulary.json",),
    ("source_vocabulary.txt", "target_vocabulary.txt"),
    ("source_vocabulary.json", "target_vocabulary.json"),
)
RATIO_CHECK_MIN_BYTES = 1 << 20
COPY_CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class ArchiveLimits:
    """Bounds an archive must respect before and while it is extracted."""

    # Published packages unpack to 100-300 MB.
    max_total_bytes: int = 1 << 30
    # Real packages compress a few-fold at most (vocabularies); zip bombs reach 1000:1.
    max_ratio: float = 200.0
    # Over the whole archive a real package compresses less than 2:1 (the int8 weights hardly
    # compress): many members each just under the per-member limit still add up to a bomb.
    max_total_ratio: float = 20.0
    max_members: int = 10_000


@dataclass(frozen=True)
class Manifest:
    """What validation learned about an archive: its folder and its files."""

    top: str
    files: tuple[zipfile.ZipInfo, ...]
    metadata: PackageMetadata


def open_zip(path: Path) -> zipfile.ZipFile:
    if not path.is_file():
        raise PackageError(f"{path} does not exist or is not a file; check the path")
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise PackageError(
            f"{path} is not a valid .argosmodel: not a zip archive, or truncated ({exc}); download the package again"
        ) from exc


def validate(archive: zipfile.ZipFile, limits: ArchiveLimits) -> Manifest:
    members = archive.infolist()
    _check_member_count(members, limits)
    for info in members:
        _check_member_name(info)
        _check_member_type(info)
    _check_sizes(members, limits)
    top = _single_top_folder(members)
    files = tuple(m for m in members if not m.is_dir())
    names = {PurePosixPath(m.filename).relative_to(top).as_posix() for m in files}
    _check_layout(names, top)
    metadata = _read_metadata(archive, f"{top}/metadata.json")
    _check_folder_name(top, metadata)
    return Manifest(top=top, files=files, metadata=metadata)


def refuse(archive_problem: str) -> PackageError:
    return PackageError(
        f"refusing to install: {archive_problem}; this is not a well-formed Argos package — "
        "use an official .argosmodel file or rebuild the package"
    )


def _check_member_count(members: Sequence[zipfile.ZipInfo], limits: ArchiveLimits) -> None:
    if not members:
        raise refuse("the archive is empty")
    if len(members) > limits.max_members:
        raise refuse(f"the archive has {len(members)} entries (limit {limits.max_members})")
    names = [m.filename for m in members]
    if len(set(names)) != len(names):
        raise refuse("the archive lists the same path twice")


def _check_member_name(info: zipfile.ZipInfo) -> None:
    name = info.filename
    if "\\" in name or "\x00" in name:
        raise refuse(f"entry {name!r} contains a backslash or NUL byte")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise refuse(f"entry {name!r} is an absolute path")
    if any(part in ("..", ".") for part in PurePosixPath(name).parts) or "//" in name:
        raise refuse(f"entry {name!r} contains '..', '.' or an empty path component")


def _check_member_type(info: zipfile.ZipInfo) -> None:
    # Some zip tools store permission bits without a file type; only a stated type counts.
    file_type = stat.S_IFMT(info.external_attr >> 16)
    if file_type == stat.S_IFLNK:
        raise refuse(f"entry {info.filename!r} is a symbolic link")
    if file_type not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise refuse(f"entry {info.filename!r} is not a regular file or folder")


def _check_sizes(members: Sequence[zipfile.ZipInfo], limits: ArchiveLimits) -> None:
    total = sum(m.file_size for m in members)
    if total > limits.max_total_bytes:
        raise refuse(f"it would unpack to {total:,} bytes, more than the {limits.max_total_bytes:,} byte limit")
    for info in members:
        ratio = info.file_size / max(info.compress_size, 1)
        # Small files may legitimately compress very well; only large ones can bomb.
        if info.file_size >= RATIO_CHECK_MIN_BYTES and ratio > limits.max_ratio:
            raise refuse(
                f"entry {info.filename!r} expands {ratio:.0f}-fold (limit {limits.max_ratio:.0f}), the signature of a zip bomb"
            )
    total_ratio = total / max(sum(m.compress_size for m in members), 1)
    if total >= RATIO_CHECK_MIN_BYTES and total_ratio > limits.max_total_ratio:
        raise refuse(
            f"its {len(members):,} entries expand {total_ratio:.0f}-fold together (limit "
            f"{limits.max_total_ratio:.0f}) to {total:,} bytes, the signature of a zip bomb"
        )


def _single_top_folder(members: Sequence[zipfile.ZipInfo]) -> str:
    tops = {PurePosixPath(m.filename).parts[0] for m in members}
    if len(tops) != 1:
        shown = ", ".join(sorted(tops)[:5])
        raise refuse(f"expected exactly one top-level folder, found {len(tops)}: {shown}")
    top = tops.pop()
    top_is_a_file = any(m.filename == top for m in members)  # folders are listed as "top/"
    if top.startswith(".") or top_is_a_file:
        raise refuse(f"the top-level entry {top!r} must be a visible folder")
    return top


def _check_layout(names: set[str], top: str) -> None:
    required = {
        "metadata.json": "metadata.json",
        "model/model.bin": "model/model.bin (the CTranslate2 model)",
        "sentencepiece.model": "sentencepiece.model (the SentencePiece tokenizer)",
    }
    for name, what in required.items():
        if name not in names:
            raise refuse(f"{top}/ is missing {what}")
    if not any(all(f"model/{v}" in names for v in group) for group in VOCABULARY_FILES):
        raise refuse(f"{top}/model/ is missing its vocabulary (e.g. shared_vocabulary.txt)")


def _read_metadata(archive: zipfile.ZipFile, name: str) -> PackageMetadata:
    info = archive.getinfo(name)
    if info.file_size > MAX_METADATA_BYTES:
        raise refuse(f"{name} is {info.file_size:,} bytes, far too large for metadata")
    try:
        with archive.open(info) as handle:
            raw = handle.read(MAX_METADATA_BYTES + 1)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise refuse(f"{name} cannot be read ({exc})") from exc
    try:
        return parse_metadata(raw, name)
    except PackageError as exc:
        raise refuse(str(exc)) from exc


def _check_folder_name(top: str, metadata: PackageMetadata) -> None:
    """A folder named for one pair holding another pair's package is refused: argostranslate
    installs under the archive's folder name, so it would replace the other pair's package."""
    named = folder_pair(top)
    if named is not None and named != (base_code(metadata.from_code), base_code(metadata.to_code)):
        raise refuse(f"its folder {top!r} names {named[0]}->{named[1]} but metadata.json declares {metadata.pair}")


def extract(archive: zipfile.ZipFile, manifest: Manifest, staging: Path, limits: ArchiveLimits) -> None:
    """Stream every file out, counting real bytes: headers may lie about sizes."""
    written = 0
    for info in manifest.files:
        target = staging.joinpath(*PurePosixPath(info.filename).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        member_bytes = 0
        try:
            with archive.open(info) as source, open(target, "xb") as sink:
                while chunk := source.read(COPY_CHUNK_BYTES):
                    member_bytes += len(chunk)
                    written += len(chunk)
                    _check_running_size(info, member_bytes, written, limits)
                    sink.write(chunk)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
            raise PackageError(f"refusing to install: {info.filename!r} is corrupt ({exc}); download the package again") from exc


def _check_running_size(info: zipfile.ZipInfo, member_bytes: int, total_bytes: int, limits: ArchiveLimits) -> None:
    if member_bytes > info.file_size:
        raise refuse(f"{info.filename!r} unpacks to more bytes than its header declares")
    if total_bytes > limits.max_total_bytes:
        raise refuse(f"it unpacks to more than {limits.max_total_bytes:,} bytes")
