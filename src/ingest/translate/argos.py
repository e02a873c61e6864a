"""Offline translation with installed Argos Translate packages, run directly on CTranslate2.

argostranslate.translate is not used: it imports stanza for sentence splitting (not
installed here) and translates one paragraph at a time. The pipeline has already cut the
text into segments, so this engine hands all segments of one language to
`Translator.translate_batch` at once, reproducing the call argostranslate makes for its
packages (`apply_packaged_translation` in argostranslate/translate.py, 1.11): SentencePiece
pieces in, optional `target_prefix` from metadata.json, `replace_unknowns=True`,
`length_penalty=0.2`, beam 4, one hypothesis, decoded with `decode_pieces`, `▁` turned
into spaces, the prefix and one leading space removed. One difference on purpose:
argostranslate also turns every `_` into a space, which breaks identifiers such as
`torch_dtype`; this engine keeps underscores.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import ctranslate2
import packaging.version
import sentencepiece

from .cache import PackageKey, engine_label
from .engine import NOT_NEEDED, TARGET_LANGUAGE, TRANSLATED, Translation, UntranslatedEngine, needs_translation
from .packages import InstalledPackage, list_installed


def usable_cpus() -> int:
    """The cores this process may run on (its affinity mask, which containers and taskset narrow)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def translation_threads(cpus: int | None = None) -> tuple[int, int]:
    """(inter_threads, intra_threads) for `cpus` cores, chosen for throughput, not latency.

    The engine hands CTranslate2 thousands of segments per call, cut into token-budgeted
    sub-batches; `inter_threads` translators (sharing one copy of the weights) decode
    sub-batches in parallel, each using `intra_threads` threads for its matrix products.
    Whole sub-batches in parallel scale better than one sub-batch's small products split
    across threads, so: one translator per core up to 4, then more threads per translator;
    their product never exceeds the cores (more threads than cores only adds switching).
    On 2 cores: 2 x 1.
    """
    cores = max(1, cpus or usable_cpus())
    inter = min(cores, 4)
    return inter, max(1, cores // inter)


@dataclass(frozen=True)
class ArgosSettings:
    """How models are loaded and decoded. Defaults follow argostranslate except as noted."""

    device: str = "cpu"
    compute_type: str = "int8"  # argostranslate says "auto"; int8 is what CPUs run fastest
    inter_threads: int = field(default_factory=lambda: translation_threads()[0])
    intra_threads: int = field(default_factory=lambda: translation_threads()[1])
    # Sub-batches of at most this many source tokens (argostranslate: 32 segments, whatever
    # their length): short segments travel in large batches, long ones in small ones, and a
    # call of a few thousand tokens still makes enough sub-batches for every translator.
    max_batch_size: int = 1024
    batch_type: str = "tokens"
    beam_size: int = 4
    length_penalty: float = 0.2
    max_decoding_length: int = 256
    min_decoding_length: int = 1
    # Segments per translate_batch call: a CTranslate2 call cannot be interrupted, so
    # Ctrl-C is only honoured between calls.
    call_size: int = 1024

    def decoding_options(self) -> dict:
        """Keyword arguments for `Translator.translate_batch`."""
        return {
            "max_batch_size": self.max_batch_size,
            "batch_type": self.batch_type,
            "beam_size": self.beam_size,
            "num_hypotheses": 1,
            "length_penalty": self.length_penalty,
            "replace_unknowns": True,
            "max_decoding_length": self.max_decoding_length,
            "min_decoding_length": self.min_decoding_length,
        }


class PairModel:
    """One package's tokenizer and CTranslate2 translator, loaded once per process."""

    def __init__(self, package_path: Path, target_prefix: str, settings: ArgosSettings) -> None:
        self.settings = settings
        self.tokenizer = sentencepiece.SentencePieceProcessor(model_file=str(package_path / "sentencepiece.model"))
        self.translator = open_translator(package_path / "model", settings)
        self.target_prefix = target_prefix

    def tokenize(self, texts: Sequence[str]) -> list[list[str]]:
        return self.tokenizer.encode(list(texts), out_type=str)

    def translate(self, texts: Sequence[str]) -> list[str]:
        """English for each of `texts`, same order."""
        settings = self.settings
        tokens = self.tokenize(texts)
        # Length-sorted input gives batches of similar length, hence little padding.
        order = sorted(range(len(tokens)), key=lambda i: len(tokens[i]))
        english: list[str] = [""] * len(tokens)
        for start in range(0, len(order), settings.call_size):
            positions = order[start : start + settings.call_size]
            results = self.translator.translate_batch(
                [tokens[i] for i in positions],
                target_prefix=self._target_prefix(len(positions)),
                **settings.decoding_options(),
            )
            for position, result in zip(positions, results, strict=True):
                english[position] = self.detokenize(result.hypotheses[0])
        return english

    def _target_prefix(self, count: int) -> list[list[str]] | None:
        return [[self.target_prefix]] * count if self.target_prefix else None

    def detokenize(self, pieces: Sequence[str]) -> str:
        pieces = list(pieces)
        # argostranslate strips the prefix from the decoded string; dropping the token is
        # the same when the prefix is a vocabulary piece, and safe when it is not.
        if self.target_prefix and pieces[:1] == [self.target_prefix]:
            pieces = pieces[1:]
        text = self.tokenizer.decode_pieces(pieces).replace("▁", " ")
        return text[1:] if text.startswith(" ") else text


def open_translator(model_dir: Path, settings: ArgosSettings) -> ctranslate2.Translator:
    """The CTranslate2 translator for a package's model folder."""
    return ctranslate2.Translator(
        str(model_dir),
        device=settings.device,
        compute_type=settings.compute_type,
        inter_threads=settings.inter_threads,
        intra_threads=settings.intra_threads,
    )


@functools.cache
def load_pair_model(package_path: Path, version: str, target_prefix: str, settings: ArgosSettings) -> PairModel:
    """Load a package once per process; a new version or new settings load it afresh."""
    return PairModel(package_path, target_prefix, settings)


class ArgosEngine:
    """Translates segments to English with the installed `xx->en` Argos packages."""

    name = "argos"

    def __init__(self, settings: ArgosSettings | None = None, packages: Sequence[InstalledPackage] | None = None) -> None:
        self.settings = settings or ArgosSettings()
        found = list_installed() if packages is None else packages
        self.packages = _newest_to_english(found)
        self._no_package = UntranslatedEngine()

    @property
    def fingerprint(self) -> str:
        """What decides the output — packages and decoding settings; it changes when they do."""
        models = ",".join(sorted(f"{p.package_id}@{p.version}" for p in self.packages.values()))
        s = self.settings
        return (
            f"argos[{models}] beam={s.beam_size} length_penalty={s.length_penalty} "
            f"length={s.min_decoding_length}..{s.max_decoding_length}"
        )

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        sources = {base_language(lang) for lang in langs if needs_translation(lang)} - {TARGET_LANGUAGE}
        return sorted(f"{src}->{TARGET_LANGUAGE}" for src in sources - self.packages.keys())

    def package_key(self, lang: str) -> PackageKey | None:
        package = self.packages.get(base_language(lang))
        return PackageKey(package.package_id, package.version) if package else None

    def package_keys(self) -> list[PackageKey]:
        return [PackageKey(p.package_id, p.version) for p in self.packages.values()]

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        source = base_language(lang)
        if not needs_translation(source):
            return [Translation(text, NOT_NEEDED) for text in texts]
        package = self.packages.get(source)
        if package is None:
            return self._no_package.translate(source, texts)
        label = engine_label(self.name, PackageKey(package.package_id, package.version))
        # Each distinct segment is translated once per call; blank ones need nothing.
        distinct = list(dict.fromkeys(text for text in texts if text.strip()))
        english = dict(zip(distinct, self._model(package).translate(distinct), strict=True)) if distinct else {}
        return [
            Translation(english[text], TRANSLATED, label) if text in english else Translation(text, NOT_NEEDED) for text in texts
        ]

    def _model(self, package: InstalledPackage) -> PairModel:
        return load_pair_model(package.path, package.version, package.target_prefix, self.settings)


def base_language(lang: str) -> str:
    """'zh-TW', 'zh_cn', 'ZH' -> 'zh': packages are per language, not per region."""
    return re.split(r"[-_]", lang.strip(), maxsplit=1)[0].lower()


def _newest_to_english(packages: Sequence[InstalledPackage]) -> dict[str, InstalledPackage]:
    newest: dict[str, InstalledPackage] = {}
    for package in sorted(packages, key=lambda p: _version_order(p.version)):
        if package.to_code == TARGET_LANGUAGE:
            newest[package.from_code] = package
    return newest


def _version_order(version: str) -> packaging.version.Version:
    try:
        return packaging.version.Version(version)
    except packaging.version.InvalidVersion:
        return packaging.version.Version("0")
