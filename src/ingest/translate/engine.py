"""The translation engine interface, the engine used without packages, and the cache wrapper.

Segments, not documents, are the unit of translation: the pipeline hands an engine
every segment of a run for one source language at once so that real engines can batch
across documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import command, install_hint
from ..records import NO_LANGUAGE
from .cache import PackageKey, TranslationCache, engine_label

TRANSLATED = "translated"
CACHED = "cached"
UNTRANSLATED = "untranslated"
NOT_NEEDED = "not_needed"
# A package is installed but the run left the segment for later (`--translate evidence|none`):
# `ingest translate` fills it.
WAITING = "waiting"
WAITING_REASON = f"not translated by this run (--translate evidence or none); `{command('translate')}` translates it"
TARGET_LANGUAGE = "en"


@dataclass(frozen=True)
class Translation:
    """The outcome for one segment; `text_en` is None unless translated or cached."""

    text_en: str | None
    status: str
    engine: str | None = None
    reason: str | None = None


class TranslationEngine(Protocol):
    """Anything that turns source-language segments into English."""

    name: str

    @property
    def fingerprint(self) -> str:
        """What decides the output (models, versions, decoding settings): it changes when they do."""
        ...

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        """Translate `texts` (all in `lang`) to English, one result per input, same order."""
        ...

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        """The `xx->en` pairs among `langs` this engine cannot translate."""
        ...

    def package_key(self, lang: str) -> PackageKey | None:
        """The model that translates `lang`, as the translation cache names it; None if none does."""
        ...

    def package_keys(self) -> list[PackageKey]:
        """Every model this engine uses."""
        ...


def needs_translation(lang: str) -> bool:
    """English needs no translation, nor do code, URLs and numbers (`zxx`)."""
    return lang not in (TARGET_LANGUAGE, NO_LANGUAGE)


class UntranslatedEngine:
    """The engine used when no translation package is installed: records why, translates nothing."""

    name = "none"
    fingerprint = "none"

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason or "no translation package installed for {pair}; {hint}"

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        if not needs_translation(lang):
            return [Translation(text, NOT_NEEDED) for text in texts]
        reason = self.reason.format(pair=f"{lang}->{TARGET_LANGUAGE}", lang=lang, hint=install_hint(lang))
        return [Translation(None, UNTRANSLATED, None, reason) for _ in texts]

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        return sorted({f"{lang}->{TARGET_LANGUAGE}" for lang in langs if needs_translation(lang)})

    def package_key(self, lang: str) -> PackageKey | None:
        return None

    def package_keys(self) -> list[PackageKey]:
        return []


class CachedEngine:
    """An engine behind a translation cache: cached segments are answered from it, the rest
    are translated by the engine and stored."""

    def __init__(self, engine: TranslationEngine, cache: TranslationCache) -> None:
        self.engine, self.cache = engine, cache
        self.name = engine.name

    @property
    def fingerprint(self) -> str:
        return self.engine.fingerprint

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        return self.engine.missing_pairs(langs)

    def package_key(self, lang: str) -> PackageKey | None:
        return self.engine.package_key(lang)

    def package_keys(self) -> list[PackageKey]:
        return self.engine.package_keys()

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        key = self.package_key(lang)
        if key is None:
            return self.engine.translate(lang, texts)
        cached = self.cache.lookup(key, list(dict.fromkeys(texts)))
        todo = list(dict.fromkeys(text for text in texts if text not in cached))
        fresh = dict(zip(todo, self.engine.translate(lang, todo), strict=True))
        stored = [
            (text, result.text_en) for text, result in fresh.items() if result.status == TRANSLATED and result.text_en is not None
        ]
        if stored:
            self.cache.store(key, stored)
        label = engine_label(self.name, key)
        return [Translation(cached[text], CACHED, label) if text in cached else fresh[text] for text in texts]


class WaitingEngine:
    """An engine that defers: segments its engine has a package for are marked `waiting` instead
    of translated (they are filled later, from the warehouse); the others get what the engine
    says without translating (untranslated, not needed)."""

    def __init__(self, engine: TranslationEngine) -> None:
        self.engine = engine
        self.name = engine.name

    @property
    def fingerprint(self) -> str:
        return self.engine.fingerprint

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        return self.engine.missing_pairs(langs)

    def package_key(self, lang: str) -> PackageKey | None:
        return self.engine.package_key(lang)

    def package_keys(self) -> list[PackageKey]:
        return self.engine.package_keys()

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        if not needs_translation(lang) or self.package_key(lang) is None:
            return self.engine.translate(lang, texts)  # no model call: not needed, or no package
        return [
            Translation(None, WAITING, None, WAITING_REASON) if text.strip() else Translation(text, NOT_NEEDED) for text in texts
        ]
