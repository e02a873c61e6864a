"""What each stage's output depends on, and the ids and fingerprints made from it.

A stage's id is its declared version (`STAGE_VERSIONS`) plus a digest of what the stage runs,
read from the code rather than from a list: the modules its entry modules import, transitively
(`module_graph`: an AST walk of the package, so nothing is imported to compute it), each as its
syntax tree without docstrings (a comment, a docstring or a line break changes nothing; a change
of code does), the package data beside those modules (language profiles, the glossary, the
chrome list, SQL), the versions of the libraries they import, and, for translation, the engine's
fingerprint. The cross-document checks are identified the same way (`check_digest`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from importlib import metadata as importlib_metadata
from pathlib import Path

from .translate import TranslationEngine

STAGES = ("prepare", "translate", "extract")
# Bump a stage's version when its output for the same input changes in a way the code
# digest below cannot see (the digest already covers edits to what the stage runs).
STAGE_VERSIONS = {"prepare": "1", "translate": "1", "extract": "1"}
PIPELINE_VERSION = "1"
# Where each stage starts: what it runs is what these import, transitively.
STAGE_ENTRIES: dict[str, tuple[str, ...]] = {
    "prepare": ("ingest.prepare",),
    "translate": ("ingest.translate.segments", "ingest.translate.argos"),
    "extract": ("ingest.extract.document",),
}
# The alignment of renderings (a change re-aligns every stored pair) and every check.
ALIGN_ENTRIES = ("ingest.check.align",)
CHECK_ENTRIES = ("ingest.check",)

PACKAGE = "ingest"
_ROOT = Path(__file__).resolve().parent


@dataclass(frozen=True)
class ModuleSource:
    """One module of the package as its source says: where it is and what it imports."""

    name: str
    path: Path
    imports: frozenset[str]  # modules of the package it imports
    libraries: frozenset[str]  # top-level names of other packages it imports


def _module_name(path: Path) -> str:
    parts = path.relative_to(_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, name: str, modules: set[str], type_checking: bool) -> tuple[set[str], set[str]]:
    """The package's modules and the other top-level packages a file imports (relative imports
    resolved; for `from X import y`, X.y when that is a module, else X; imports under
    `if TYPE_CHECKING:` only when `type_checking`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    own: set[str] = set()
    libraries: set[str] = set()
    nodes: list[ast.AST] = list(ast.parse(path.read_text("utf-8")).body)
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
            nodes.extend(node.orelse)
            continue
        nodes.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))
        if isinstance(node, ast.Import):
            for alias in node.names:
                (own if alias.name.split(".")[0] == PACKAGE else libraries).add(
                    alias.name if alias.name.split(".")[0] == PACKAGE else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] != PACKAGE:
                libraries.add(base.split(".")[0])
                continue
            for alias in node.names:
                own.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {m for m in own if m in modules and m != name}, libraries - {"__future__"}


@functools.lru_cache(maxsize=2)
def module_graph(type_checking: bool = False) -> dict[str, ModuleSource]:
    """Every module of the package with what it imports at run time (and under TYPE_CHECKING too
    when `type_checking`), read from the source files."""
    paths = {_module_name(path): path for path in _ROOT.rglob("*.py")}
    graph = {}
    for name, path in paths.items():
        imports, libraries = _imports(path, name, set(paths), type_checking)
        graph[name] = ModuleSource(name, path, frozenset(imports), frozenset(libraries))
    return graph


def reached(entries: tuple[str, ...]) -> list[ModuleSource]:
    """The modules `entries` run: themselves, what they import transitively, and the packages
    those live in (a package's __init__ runs before its modules), sorted by name."""
    graph = module_graph()
    seen: set[str] = set()
    todo = [*entries]
    while todo:
        name = todo.pop()
        if name in seen or name not in graph:
            continue
        seen.add(name)
        todo.extend(graph[name].imports)
        todo.extend(".".join(name.split(".")[:depth]) for depth in range(1, name.count(".") + 1))
    return [graph[name] for name in sorted(seen)]


def _code(path: Path) -> str:
    """A module's syntax tree without docstrings: what it does, not how it is written or explained."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def _data_files(modules: list[ModuleSource]) -> list[Path]:
    """The package data beside the modules: files that are not Python in their folders, and in the
    folders below that are not packages (lang/ja/)."""
    found: set[Path] = set()
    for folder in {module.path.parent for module in modules}:
        for path in folder.rglob("*"):
            inside = path.relative_to(folder).parts[:-1]
            packaged = any((folder.joinpath(*inside[: depth + 1]) / "__init__.py").exists() for depth in range(len(inside)))
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts and not packaged:
                found.add(path)
    return sorted(found)


def _library_versions(modules: list[ModuleSource]) -> list[str]:
    """'name==version' of the installed distributions that provide what the modules import."""
    distributions = importlib_metadata.packages_distributions()
    names = sorted(
        {
            dist
            for module in modules
            for library in module.libraries
            if library not in sys.stdlib_module_names
            for dist in distributions.get(library, [library])
        }
    )
    versions = []
    for name in names:
        try:
            versions.append(f"{name}=={importlib_metadata.version(name)}")
        except importlib_metadata.PackageNotFoundError:
            versions.append(f"{name}==-")
    return versions


def sha(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def _extra_language_files(modules: list[ModuleSource]) -> list[tuple[str, bytes]]:
    """Language profiles from INGEST_LANGUAGE_DIRS, when the modules read profiles at all."""
    if "ingest.lang" not in {module.name for module in modules}:
        return []
    return _extra_language_files_listed()


@functools.cache
def entries_digest(entries: tuple[str, ...]) -> str:
    """Digest of the code, package data and library versions that `entries` run: read from the
    digest cache when no file of the package and no installed distribution changed since it was
    computed (parsing every module and mapping imports to distributions takes most of a second,
    and every run needs it at start)."""
    state = _installation_state()
    cache = _digest_cache()
    stored = cache.get(state, {}).get(" ".join(entries))
    if stored:
        return stored
    digest = _computed_digest(entries)
    cache.setdefault(state, {})[" ".join(entries)] = digest
    _store_digest_cache({state: cache[state]})  # one installation at a time: older states are dropped
    return digest


def _installation_state() -> str:
    """What the digests depend on, cheaply: every file of the package (path, size, modification
    time), the language folders named by INGEST_LANGUAGE_DIRS, and the installed distributions."""
    parts: list[object] = [_ROOT]
    for path in sorted(_ROOT.rglob("*")):
        if "__pycache__" not in path.parts and path.is_file():
            info = path.stat()
            parts += [path.relative_to(_ROOT).as_posix(), info.st_size, info.st_mtime_ns]
    for name, content in _extra_language_files_listed():
        parts += [name, content]
    for entry in sys.path:
        if entry.endswith("site-packages") and Path(entry).is_dir():
            parts += sorted(name for name in os.listdir(entry) if name.endswith(".dist-info"))
    return sha(*parts)[:32]


def _extra_language_files_listed() -> list[tuple[str, bytes]]:
    from . import lang

    return lang.extra_data_files()


def _cache_path() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ingest" / "stage-digests.json"


def _digest_cache() -> dict[str, dict[str, str]]:
    try:
        data = json.loads(_cache_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()) else {}


def _store_digest_cache(data: dict[str, dict[str, str]]) -> None:
    path = _cache_path()
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(data), "utf-8")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)  # an unwritable cache costs the computation next time, nothing else


def _computed_digest(entries: tuple[str, ...]) -> str:
    modules = reached(entries)
    parts: list[object] = []
    for module in modules:
        parts += [module.name, _code(module.path)]
    for path in _data_files(modules):
        parts += [path.relative_to(_ROOT).as_posix(), path.read_bytes()]
    for name, content in _extra_language_files(modules):
        parts += [name, content]
    parts += _library_versions(modules)
    return sha(*parts)[:16]


def code_digest(stage: str) -> str:
    """Digest of what a stage runs."""
    return entries_digest(STAGE_ENTRIES[stage])


def align_digest() -> str:
    """Digest of the code that aligns and compares renderings: new code re-aligns every pair."""
    return entries_digest(ALIGN_ENTRIES)


def check_digest() -> str:
    """Digest of all the cross-document check code: new code recomputes the checks."""
    return entries_digest(CHECK_ENTRIES)


def stage_ids(engine: TranslationEngine) -> dict[str, str]:
    """stage -> id: the pipeline version, the stage's declared version and its code digest
    (and, for translation, the engine's fingerprint)."""
    ids = {stage: f"{PIPELINE_VERSION}.{STAGE_VERSIONS[stage]}.{code_digest(stage)}" for stage in STAGES}
    ids["translate"] += "." + sha(engine.fingerprint)[:16]
    return ids


def run_fingerprint(engine: TranslationEngine) -> str:
    """documents.pipeline_version: equal across runs only if no stage would produce anything new."""
    engine_part = hashlib.sha1(engine.fingerprint.encode()).hexdigest()[:8]
    return f"{PIPELINE_VERSION}:{engine_part}:{sha(*sorted(stage_ids(engine).items()))[:8]}"
