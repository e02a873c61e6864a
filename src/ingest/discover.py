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
import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pathspec import GitIgnoreSpec

from .clean import SUPPORTED_SUFFIXES
from .read import NotRegularFileError, open_regular
from .records import REPORT_SIGNATURE, KnownSources, SourceFile


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's raw bytes, read in chunks so large files cost no memory (refused with
    NotRegularFileError if what is opened is no regular file)."""
    return _fingerprint(path)[0]


def _fingerprint(path: Path) -> tuple[str, int, bytes]:
    """(sha256, size, first bytes) of the regular file `path`, read once, in chunks."""
    digest, size, head = hashlib.sha256(), 0, b""
    with open_regular(path) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            head = head or chunk[:_HEAD_BYTES]
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size, head


# The report files carry REPORT_SIGNATURE in their first few hundred bytes.
_HEAD_BYTES = 1024


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
    """Readable, stable doc ids: `<folder label>/<path inside the folder>`, never one for two files."""

    def __init__(self, known: KnownSources) -> None:
        self.known = known
        self.paths_by_id = {doc_id: path for path, doc_id in known.ids_by_path.items()}
        self.labels = dict(known.labels_by_root)

    def label(self, folder: str) -> str:
        """The folder's label: as stored, else its name, else (name taken by another folder) name~hash."""
        if folder not in self.labels:
            taken = {label for other, label in self.labels.items() if other != folder}
            # A folder may itself be named like another's hashed label ("news~1a2b3c"): that candidate
            # is taken then, and the next one is used, so no two folders share a label.
            self.labels[folder] = next(label for label in _labels(folder) if label not in taken)
        return self.labels[folder]

    def doc_id(self, folder: str, path: str) -> str:
        if path in self.known.ids_by_path:
            return self.known.ids_by_path[path]
        inside = Path(path).relative_to(folder).as_posix()
        # An id an older warehouse gave another file is taken: the next label candidate is used.
        labels = itertools.chain([self.label(folder)], _labels(folder))
        doc_id = next(
            candidate for candidate in (f"{label}/{inside}" for label in labels) if self.paths_by_id.get(candidate, path) == path
        )
        self.paths_by_id[doc_id] = path
        return doc_id


def _labels(folder: str) -> Iterator[str]:
    """A folder's label candidates: its name, then its name and ever longer digests of its path."""
    name = Path(folder).name or "root"
    digest = hashlib.sha256(folder.encode("utf-8", "surrogateescape")).hexdigest()
    yield name
    for length in range(6, len(digest) + 1, 2):
        yield f"{name}~{digest[:length]}"
    yield from (f"{name}~{digest}~{n}" for n in itertools.count(2))


class _Boundary:
    """The input folders (and files given alone): where a file link may point (each resolved)."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = roots

    def refusal(self, path: Path) -> str | None:
        """Why `path` may not be read (it resolves outside the inputs), or None."""
        target = Path(os.path.realpath(path))
        if target == path or any(target == root or target.is_relative_to(root) for root in self.roots):
            return None
        return (
            f"symbolic link to {_displayable(str(target))}, outside the input folders: refused, so that a "
            "link cannot pull other files into the warehouse; copy the file into an input folder, or allow "
            "such links with --follow-links (RunOptions.follow_links)"
        )


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
            layers.append(
                _Patterns(
                    root, GitIgnoreSpec.from_lines(self.exclude), tuple(f"--exclude {pattern!r}" for pattern in self.exclude)
                )
            )
        reason = None
        for patterns in layers:  # the last matching pattern decides, as in git
            match = patterns.spec.check_file(path.relative_to(patterns.folder).as_posix())
            if match.include is not None:
                assert match.index is not None  # the pattern that decided
                reason = (
                    (f"excluded by {patterns.origins[match.index]}; drop or negate ('!') that pattern to ingest it")
                    if match.include
                    else None
                )
        return reason

    def _ignore_file(self, root: Path, folder: Path) -> _Patterns | None:
        if folder not in self.ignore_files:
            self.ignore_files[folder] = None
            ignore_file = folder / IGNORE_FILE
            if ignore_file.is_file():
                lines = ignore_file.read_text("utf-8", errors="replace").splitlines()
                where = ignore_file.relative_to(root.parent).as_posix()
                self.ignore_files[folder] = _Patterns(
                    folder,
                    GitIgnoreSpec.from_lines(lines),
                    tuple(f"{where} line {number}: {line.strip()!r}" for number, line in enumerate(lines, 1)),
                )
        return self.ignore_files[folder]


def _identify(doc_id: str, folder: str, path: Path, refusal: str | None, excluded: str | None) -> SourceFile | None:
    """The source file at `path`, with its hash, or with the reason it cannot be read or why it is
    excluded; None for a report this tool wrote (an output, never an input)."""
    fmt = SUPPORTED_SUFFIXES[path.suffix.lower()]
    try:
        doc_id.encode("utf-8")
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return SourceFile(
            _displayable(doc_id),
            _displayable(str(path)),
            fmt,
            None,
            None,
            root=_displayable(folder),
            error="file name is not valid UTF-8; rename the file (UTF-8 name) and re-run",
        )
    if excluded:  # not read at all, not even hashed
        return SourceFile(doc_id, str(path), fmt, None, None, root=folder, excluded=excluded)
    if refusal:
        return SourceFile(doc_id, str(path), fmt, None, None, error=refusal, root=folder)
    try:
        sha256, size, head = _fingerprint(path)
    except NotRegularFileError as exc:  # a FIFO or device named *.txt would block or never end when read
        return SourceFile(doc_id, str(path), fmt, None, None, root=folder, error=str(exc))
    except OSError as exc:
        return SourceFile(
            doc_id,
            str(path),
            fmt,
            None,
            None,
            root=folder,
            error=f"cannot read file at discovery ({exc.strerror or exc}); "
            "check that it exists and is readable (a symlink loop or broken link "
            "also ends here), then re-run",
        )
    if REPORT_SIGNATURE.encode() in head:
        return None
    return SourceFile(doc_id, str(path), fmt, sha256, size, root=folder)


def _files(root: Path) -> tuple[Path, list[Path], bool]:
    """(the folder documents are named from, the supported files, whether `root` is a folder): a
    folder and what is under it, or a file given alone and its folder."""
    if root.is_dir():
        return root, [p for p in _walk(root) if p.suffix.lower() in SUPPORTED_SUFFIXES], True
    return root.parent, [root] if root.suffix.lower() in SUPPORTED_SUFFIXES else [], False


def discover(
    paths: Iterable[str | Path],
    *,
    follow_links: bool = False,
    known: KnownSources | None = None,
    extra: Iterable[tuple[str, str]] = (),
    exclude: Sequence[str] = (),
) -> list[SourceFile]:
    """All supported files under `paths` (recursively), each once, copies of content marked.

    `known` is what the warehouse holds (ids, folder labels, ok documents' hashes); `extra`
    are (folder, path) pairs of single files to look at again besides (see `run.plan`);
    `exclude` are gitignore patterns of files to leave out, besides the ignore files' (the
    `excluded` rows say which pattern; a file named on its own obeys `exclude` only).
    """
    roots = [Path(p) for p in paths]
    missing = [str(r) for r in roots if not r.exists()]
    if missing:
        raise FileNotFoundError(f"input path(s) not found: {', '.join(missing)}; pass existing files or folders")
    known = known or KnownSources()
    listed = [_files(Path(os.path.realpath(root))) for root in roots]
    boundary = _Boundary([Path(os.path.realpath(root)) for root in roots] + [Path(folder) for folder, _ in extra])
    namer, exclusion = _Namer(known), _Exclusion(exclude)
    found: dict[str, SourceFile | None] = {}  # by path: a file under two given folders is found once

    def identify(folder: Path, path: Path, excluded: str | None = None) -> SourceFile | None:
        refusal = None if follow_links else boundary.refusal(path)
        return _identify(namer.doc_id(str(folder), str(path)), str(folder), path, refusal, excluded)

    for folder, files, is_folder in listed:
        for path in files:
            if str(path) not in found:
                found[str(path)] = identify(folder, path, exclusion.reason(folder, path, ignore_files=is_folder))
    for stored_folder, stored_path in extra:  # stored copies looked at again: not inputs, so nothing excludes them
        if str(Path(stored_path)) not in found:
            found[str(Path(stored_path))] = identify(Path(stored_folder), Path(stored_path))
    return _mark_duplicates(filter(None, found.values()), known)


def _mark_duplicates(sources: Iterable[SourceFile], known: KnownSources) -> list[SourceFile]:
    """Every copy of some bytes points at the first: the `ok` document the warehouse holds with
    them (unless that very document is here with other bytes now), else the first by doc_id.
    Bytes the warehouse holds as failed are no one's copy: each file of them is its own document."""
    ordered = sorted(sources, key=lambda s: s.doc_id)
    here = {s.doc_id: s.sha256 for s in ordered}
    first_by_hash = {sha: doc_id for sha, doc_id in known.canonical_by_sha.items() if here.get(doc_id, sha) == sha}
    marked = []
    for source in ordered:
        if source.sha256 is not None and source.sha256 not in known.failed_sha:
            original = first_by_hash.setdefault(source.sha256, source.doc_id)
            if original != source.doc_id:
                source = replace(source, duplicate_of=original)
        marked.append(source)
    return marked
