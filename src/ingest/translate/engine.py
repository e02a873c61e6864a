"""The translation engine interface shared by every engine and the pipeline.

Segments, not documents, are the unit of translation: the pipeline hands an
engine every segment of a run for one source language at once so that real
engines can batch across documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

TRANSLATED = "translated"
CACHED = "cached"
UNTRANSLATED = "untranslated"
NOT_NEEDED = "not_needed"


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

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        """Translate `texts` (all in `lang`) to English, one result per input, same order."""
        ...

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        """The `xx->en` pairs among `langs` this engine cannot translate."""
        ...


class UntranslatedEngine:
    """The engine used when no translation package is installed: records why, translates nothing."""

    name = "none"

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason or (
            "no translation package installed for {pair}; install one with "
            "`ingest models install {lang}` (online) or "
            "`ingest models install --from PATH.argosmodel`"
        )

    def translate(self, lang: str, texts: Sequence[str]) -> list[Translation]:
        if lang == "en":
            return [Translation(text, NOT_NEEDED) for text in texts]
        reason = self.reason.format(pair=f"{lang}->en", lang=lang)
        return [Translation(None, UNTRANSLATED, None, reason) for _ in texts]

    def missing_pairs(self, langs: Sequence[str]) -> list[str]:
        return sorted({f"{lang}->en" for lang in langs if lang != "en"})
