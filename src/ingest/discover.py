"""Find the source files of a run, keep them inside the input folders, and give each a stable identity.

**Identity.** A document is a file: its absolute path (input folder resolved, then the path
inside it). Its id is readable: the input folder's name and the path inside it
(`seeds/000_….txt`; a file given on its own counts as found in its folder), the same
whichever other folders a run names. A path the warehouse already holds keeps the id it was
given (`KnownSources.ids_by_path`), so `ingest run news` and then `ingest run news/sub` or
`ingest run news other` name one file alike; two different folders with the same name get
`name~<hash of the folder>` for the one that came second. Its sha256 says whether it
changed, and whether it is a copy: the same bytes under another name, in this run or held
`ok` from an earlier one, are a `duplicate` of the first.

**Boundary.** Folder links are never followed (a loop cannot trap the walk), and a file link
is read only if it resolves, through every link and `..` on the way (`os.path.realpath`),
to a file inside an input folder: a link to /etc/passwd becomes a `failed` row saying why,
and nothing of the target is read, not even to hash it (`follow_links` allows such links).
What is read later is checked against the hash taken here, so a file swapped for a link
after discovery is refused too (`prepare.read_bytes`).

**Exclusion.** `exclude` patterns (`--exclude`) and the lines of an ignore file (`.ingestignore`,
in an input folder or any folder under it) are gitignore patterns, matched against the path
inside the folder they belong to (`--exclude`: the input folder). As in git the last pattern
that matches decides (`!` takes a file back), deeper ignore files after shallower ones and
`--exclude` last. An excluded file is not read, not even hashed: it is a row with status
`excluded` whose reason names the pattern.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from pathspec import GitIgnoreSpec

from .clean import SUPPORTED_SUFFIXES
from .records import KnownSources, SourceFile


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's raw bytes, read in chunks so large files cost no memory."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(folder: Path) -> Iterator[Path]:
    """Files under `folder`, sorted, following no symlinked directories (a link loop cannot trap us)."""
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            yield Path(dirpath) / name


def _displayable(text: str) -> str:
    """A file name that is not valid UTF-8 (bytes kept as surrogates) with the bad bytes escaped."""
    return os.fsencode(text).decode("utf-8", "backslashreplace")


class _Namer:
    """Readable, stable doc ids: `<folder label>/<path inside the folder>`."""

    def __init__(self, known: KnownSources) -> None:
        self.known = known
        self.paths_by_id = {doc_id: path for path, doc_id in known.ids_by_path.items()}
        self.labels = dict(known.labels_by_root)

    def label(self, folder: str) -> str:
        """The folder's label: as stored, else its name, else (name taken by another folder) name~hash."""
        if folder not in self.labels:
            taken = {label for other, label in self.labels.items() if other != folder}
            name = Path(folder).name or "root"
            self.labels[folder] = name if name not in taken else _hashed(name, folder)
        return self.labels[folder]

    def doc_id(self, folder: str, path: str) -> str:
        if path in self.known.ids_by_path:
            return self.known.ids_by_path[path]
        inside = Path(path).relative_to(folder).as_posix()
        doc_id = f"{self.label(folder)}/{inside}"
        if self.paths_by_id.get(doc_id, path) != path:  # an id an older warehouse gave another file
            doc_id = f"{_hashed(Path(folder).name or 'root', folder)}/{inside}"
        self.paths_by_id[doc_id] = path
        return doc_id


def _hashed(name: str, folder: str) -> str:
    return f"{name}~{hashlib.sha256(folder.encode('utf-8', 'surrogateescape')).hexdigest()[:6]}"


class _Boundary:
    """The input folders (and files given alone): where a file link may point (each resolved)."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = roots

    def refusal(self, path: Path) -> str | None:
        """Why `path` may not be read (it resolves outside the inputs), or None."""
        target = Path(os.path.realpath(path))
        if target == path or any(target == root or target.is_relative_to(root) for root in self.roots):
            return None
        return (f"symbolic link to {_displayable(str(target))}, outside the input folders: refused, so that a "
                "link cannot pull other files into the warehouse; copy the file into an input folder, or allow "
                "such links with --follow-links (RunOptions.follow_links)")


IGNORE_FILE = ".ingestignore"


@dataclass(frozen=True)
class _Patterns:
    """Gitignore patterns that apply under `folder`; `origins[i]` says where pattern i was written."""

    folder: Path
    spec: GitIgnoreSpec
    origins: tuple[str, ...]


class _Exclusion:
    """Which files the --exclude patterns and the input folders' ignore files keep out of a run."""

    def __init__(self, exclude: Sequence[str]) -> None:
        self.exclude = [pattern for pattern in exclude if pattern.strip()]
        self.ignore_files: dict[Path, _Patterns | None] = {}

    def reason(self, root: Path, path: Path, ignore_files: bool) -> str | None:
        """Why `path` (under input folder `root`) is excluded, or None; `ignore_files`: whether the
        ignore files of `root` and the folders down to `path` apply (not to a file given alone)."""
        layers = []
        if ignore_files:
            inside = path.relative_to(root).parts
            folders = [root.joinpath(*inside[:depth]) for depth in range(len(inside))]
            layers = [patterns for folder in folders if (patterns := self._ignore_file(root, folder))]
        if self.exclude:
            layers.append(_Patterns(root, GitIgnoreSpec.from_lines(self.exclude),
                                    tuple(f"--exclude {pattern!r}" for pattern in self.exclude)))
        reason = None
        for patterns in layers:  # the last matching pattern decides, as in git
            match = patterns.spec.check_file(path.relative_to(patterns.folder).as_posix())
            if match.include is not None:
                reason = (f"excluded by {patterns.origins[match.index]}; drop or negate ('!') that pattern "
                          "to ingest it") if match.include else None
        return reason

    def _ignore_file(self, root: Path, folder: Path) -> _Patterns | None:
        if folder not in self.ignore_files:
            self.ignore_files[folder] = None
            ignore_file = folder / IGNORE_FILE
            if ignore_file.is_file():
                lines = ignore_file.read_text("utf-8", errors="replace").splitlines()
                where = ignore_file.relative_to(root.parent).as_posix()
                self.ignore_files[folder] = _Patterns(folder, GitIgnoreSpec.from_lines(lines), tuple(
                    f"{where} line {number}: {line.strip()!r}" for number, line in enumerate(lines, 1)))
        return self.ignore_files[folder]


def _identify(doc_id: str, folder: str, path: Path, refusal: str | None, excluded: str | None) -> SourceFile:
    fmt = SUPPORTED_SUFFIXES[path.suffix.lower()]
    try:
        doc_id.encode("utf-8")
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return SourceFile(_displayable(doc_id), _displayable(str(path)), fmt, None, None, root=_displayable(folder),
                          error="file name is not valid UTF-8; rename the file (UTF-8 name) and re-run")
    if excluded:  # not read at all, not even hashed
        return SourceFile(doc_id, str(path), fmt, None, None, root=folder, excluded=excluded)
    if refusal:
        return SourceFile(doc_id, str(path), fmt, None, None, error=refusal, root=folder)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            # A FIFO or device named *.txt would block or never end when read.
            return SourceFile(doc_id, str(path), fmt, None, None, root=folder,
                              error="not a regular file (a FIFO, socket or device); remove it from the input")
        return SourceFile(doc_id, str(path), fmt, file_sha256(path), info.st_size, root=folder)
    except OSError as exc:
        return SourceFile(doc_id, str(path), fmt, None, None, root=folder,
                          error=f"cannot read file at discovery ({exc.strerror or exc}); "
                                "check that it exists and is readable (a symlink loop or broken link "
                                "also ends here), then re-run")


def _files(root: Path) -> tuple[Path, list[Path], bool]:
    """(the folder documents are named from, the supported files, whether `root` is a folder): a
    folder and what is under it, or a file given alone and its folder."""
    if root.is_dir():
        return root, [p for p in _walk(root) if p.suffix.lower() in SUPPORTED_SUFFIXES], True
    return root.parent, [root] if root.suffix.lower() in SUPPORTED_SUFFIXES else [], False


def discover(paths: Iterable[str | Path], *, follow_links: bool = False, known: KnownSources | None = None,
             extra: Iterable[tuple[str, str]] = (), exclude: Sequence[str] = ()) -> list[SourceFile]:
    """All supported files under `paths` (recursively), each once, copies of content marked.

    `known` is what the warehouse holds (ids, folder labels, ok documents' hashes); `extra`
    are (folder, path) pairs of single files to look at again besides (see `run.plan`);
    `exclude` are gitignore patterns of files to leave out, besides the ignore files' (the
    `excluded` rows say which pattern; a file named on its own obeys `exclude` only).
    """
    roots = [Path(p) for p in paths]
    missing = [str(r) for r in roots if not r.exists()]
    if missing:
        raise FileNotFoundError(f"input path(s) not found: {', '.join(missing)}; "
                                "pass existing files or folders")
    known = known or KnownSources()
    listed = [_files(Path(os.path.realpath(root))) for root in roots]
    boundary = _Boundary([Path(os.path.realpath(root)) for root in roots] + [Path(folder) for folder, _ in extra])
    namer, exclusion = _Namer(known), _Exclusion(exclude)
    found: dict[str, SourceFile] = {}  # by path: a file under two given folders is found once

    def identify(folder: Path, path: Path, excluded: str | None = None) -> SourceFile:
        refusal = None if follow_links else boundary.refusal(path)
        return _identify(namer.doc_id(str(folder), str(path)), str(folder), path, refusal, excluded)

    for folder, files, is_folder in listed:
        for path in files:
            if str(path) not in found:
                found[str(path)] = identify(folder, path, exclusion.reason(folder, path, ignore_files=is_folder))
    for folder, path in extra:  # stored copies looked at again: not inputs, so nothing excludes them
        if str(Path(path)) not in found:
            found[str(Path(path))] = identify(Path(folder), Path(path))
    return _mark_duplicates(found.values(), known)


def _mark_duplicates(sources: Iterable[SourceFile], known: KnownSources) -> list[SourceFile]:
    """Every copy of some bytes points at the first: the `ok` document the warehouse holds with
    them (unless that very document is here with other bytes now), else the first by doc_id."""
    ordered = sorted(sources, key=lambda s: s.doc_id)
    here = {s.doc_id: s.sha256 for s in ordered}
    first_by_hash = {sha: doc_id for sha, doc_id in known.canonical_by_sha.items() if here.get(doc_id, sha) == sha}
    marked = []
    for source in ordered:
        if source.sha256 is not None:
            original = first_by_hash.setdefault(source.sha256, source.doc_id)
            if original != source.doc_id:
                source = replace(source, duplicate_of=original)
        marked.append(source)
    return marked
