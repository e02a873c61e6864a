"""What each stage's output depends on, and the ids and fingerprints made from it.

A stage's id is its declared version (`STAGE_VERSIONS`) plus a digest of the code and
data it runs — the modules listed in `STAGE_MODULES` (module objects, so a move or a
rename cannot silently drop one), the data files, the versions of the libraries — and,
for translation, the engine's fingerprint. `tests/test_stage_identity.py` checks that every
module of the package is listed here or in `OUTPUT_NEUTRAL`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from importlib import metadata as importlib_metadata
from importlib import resources
from types import ModuleType

from .. import align, clean, discover, language, lang, metadata, prepare, read, records, segment
from ..align import compare as align_compare, groups as align_groups, sentences as align_sentences
from ..clean import budget as clean_budget, html as clean_html, markdown as clean_markdown, normalize as clean_normalize
from ..clean import text as clean_text
from ..extract import (anchors, claims, conditions, document, entities, glossary, mentions, nlp, notation, numbers,
                       phrases, prefilter, releases, rules, subjects)
from ..translate import TranslationEngine, argos, engine, fidelity
from ..translate import metadata as translate_metadata
from ..translate import segments as translate_segments

STAGES = ("prepare", "translate", "extract")
# Bump a stage's version when its output for the same input changes in a way the code
# digest below cannot see (the digest already covers edits to the stage's own modules).
STAGE_VERSIONS = {"prepare": "1", "translate": "1", "extract": "1"}
PIPELINE_VERSION = "1"

STAGE_MODULES: dict[str, tuple[ModuleType, ...]] = {
    "prepare": (records, read, clean, clean_budget, clean_normalize, clean_text, clean_html, clean_markdown, metadata,
                language, segment, prepare, lang),
    "translate": (engine, argos, translate_metadata, translate_segments),
    "extract": (rules, prefilter, entities, numbers, notation, mentions, subjects, conditions, releases, nlp, anchors,
                glossary, phrases, claims, document, fidelity, lang),
}
# The cross-document comparison of renderings: a change to these re-aligns every stored pair
# (ingest.run.renderings keys the stored alignments on their digest and the documents' versions).
CHECK_MODULES: tuple[ModuleType, ...] = (align, align_sentences, align_compare, align_groups)
# ...and the modules that compute the cross-document tables from them (named: run/ imports identity).
CHECK_RUNNERS = ("ingest.run.checks", "ingest.run.renderings", "ingest.run.truth")

# Modules that decide how and where a run happens, or what is done with its rows, but never
# what a stage outputs for a document.
OUTPUT_NEUTRAL = {"ingest", discover.__name__} | {f"ingest.{name}" for name in (
    "__main__", "budget", "errors", "escape", "stages", "settings", "deploy", "flow", "prefect_server", "evaluate",
    "evaluate.claims", "evaluate.renderings", "translate", "translate.cache", "translate.packages", "translate.archive", "translate.index",
    "translate.waiting", "extract",
    "warehouse", "warehouse.load", "warehouse.rows", "warehouse.export",
    "run", "run.identity", "run.cache", "run.batches", "run.staging", "run.loading", "run.runner", "run.faults",
    "run.plan", "run.report_cache", "run.fill", "outputs", "outputs.data", "outputs.markdown", "outputs.html", "outputs.files",
    "cli", "cli.consoles", "cli.formats", "cli.run", "cli.query", "cli.models", "cli.evaluate", "cli.translate")}


def _stage_data(stage: str) -> list[tuple[str, bytes]]:
    """(name, content) of the data files a stage reads: language profiles, chrome list, glossary."""
    files = list(lang.data_files())
    if stage == "prepare":
        files.append(("clean/chrome.txt", (resources.files(clean.__name__) / "chrome.txt").read_bytes()))
    if stage == "extract":
        files.append(("extract/glossary.yaml", (resources.files(glossary.__package__) / "glossary.yaml").read_bytes()))
    return files if stage != "translate" else []


_LIBRARIES = {
    "prepare": ("charset-normalizer", "beautifulsoup4", "markdown-it-py", "langdetect"),
    "translate": ("ctranslate2", "sentencepiece"),
    "extract": ("spacy", "sudachipy", "sudachidict-core", "jieba"),
}


def sha(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def _modules_digest(modules: list[ModuleType]) -> str:
    return sha(*(part for module in modules for part in (module.__name__, _source(module))))[:16]


@functools.lru_cache(maxsize=1)
def align_digest() -> str:
    """Digest of the code that aligns and compares renderings: new code re-aligns every pair."""
    return _modules_digest(list(CHECK_MODULES))


@functools.lru_cache(maxsize=1)
def check_digest() -> str:
    """Digest of all the cross-document check code: new code recomputes the checks."""
    return _modules_digest([*CHECK_MODULES, *(importlib.import_module(name) for name in CHECK_RUNNERS)])


@functools.lru_cache(maxsize=None)
def code_digest(stage: str) -> str:
    """Digest of the modules, data files and library versions a stage runs."""
    parts: list[object] = []
    for module in STAGE_MODULES[stage]:
        parts += [module.__name__, _source(module)]
    for name, content in _stage_data(stage):
        parts += [name, content]
    for package in _LIBRARIES[stage]:
        try:
            parts += [package, importlib_metadata.version(package)]
        except importlib_metadata.PackageNotFoundError:
            parts += [package, "-"]
    return sha(*parts)[:16]


def _source(module: ModuleType) -> bytes:
    with open(module.__file__ or "", "rb") as handle:
        return handle.read()


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
