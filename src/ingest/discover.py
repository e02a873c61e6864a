"""Find the source files of a run and give each a stable identity.

A document's id is its path relative to the input root it was found under, so a
file edited in place keeps its id (and its old rows are replaced), while its
sha256 says whether anything changed.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Iterable, Iterator

from .clean import SUPPORTED_SUFFIXES
from .records import SourceFile


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's raw bytes, read in chunks so large files cost no memory."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(root: Path) -> Iterator[Path]:
    """Files under `root`, sorted, following no symlinked directories (a link loop cannot trap us)."""
    if root.is_file():
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            yield Path(dirpath) / name


def _doc_id(root: Path, path: Path, root_count: int) -> str:
    if root.is_file():
        return path.name
    relative = path.relative_to(root).as_posix()
    return f"{root.name}/{relative}" if root_count > 1 else relative


def _displayable(text: str) -> str:
    """A file name that is not valid UTF-8 (bytes kept as surrogates) with the bad bytes escaped."""
    return os.fsencode(text).decode("utf-8", "backslashreplace")


def _identify(root: Path, path: Path, root_count: int) -> SourceFile:
    doc_id = _doc_id(root, path, root_count)
    fmt = SUPPORTED_SUFFIXES[path.suffix.lower()]
    try:
        doc_id.encode("utf-8")
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return SourceFile(_displayable(doc_id), _displayable(str(path)), fmt, None, None,
                          error="file name is not valid UTF-8; rename the file (UTF-8 name) and re-run")
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            # A FIFO or device named *.txt would block or never end when read.
            return SourceFile(doc_id, str(path), fmt, None, None,
                              error="not a regular file (a FIFO, socket or device); remove it from the input")
        return SourceFile(doc_id, str(path), fmt, file_sha256(path), info.st_size)
    except OSError as exc:
        return SourceFile(doc_id, str(path), fmt, None, None,
                          error=f"cannot read file at discovery ({exc.strerror or exc}); "
                                "check that it exists and is readable (a symlink loop or broken link "
                                "also ends here), then re-run")


def discover(paths: Iterable[str | Path]) -> list[SourceFile]:
    """All supported files under `paths` (recursively), each once, duplicates of content marked."""
    roots = [Path(p) for p in paths]
    missing = [str(r) for r in roots if not r.exists()]
    if missing:
        raise FileNotFoundError(f"input path(s) not found: {', '.join(missing)}; "
                                "pass existing files or folders")
    found: dict[str, SourceFile] = {}
    for root in roots:
        for path in _walk(root):
            if path.suffix.lower() not in SUPPORTED_SUFFIXES:
                continue
            source = _identify(root, path, len(roots))
            found.setdefault(source.doc_id, source)
    return _mark_duplicates(found.values())


def _mark_duplicates(sources: Iterable[SourceFile]) -> list[SourceFile]:
    """Keep the first file (by doc_id) of each content hash; the others point at it."""
    first_by_hash: dict[str, str] = {}
    marked = []
    for source in sorted(sources, key=lambda s: s.doc_id):
        if source.sha256 is None:
            marked.append(source)
            continue
        original = first_by_hash.setdefault(source.sha256, source.doc_id)
        if original != source.doc_id:
            source = SourceFile(source.doc_id, source.path, source.fmt, source.sha256,
                                source.size, duplicate_of=original)
        marked.append(source)
    return marked
