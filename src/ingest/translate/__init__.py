"""Offline translation: the engine interface (`engine`), Argos Translate packages run on
CTranslate2 (`packages`, `argos`), the warehouse translation cache (`cache`), the one
writer of segments' English (`segments`) and the fidelity check (`fidelity`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cache import TranslationCache
from .engine import CachedEngine, TranslationEngine, UntranslatedEngine

if TYPE_CHECKING:
    from .argos import ArgosSettings

__all__ = ["make_engine"]


def make_engine(cache: TranslationCache | None = None, settings: ArgosSettings | None = None) -> TranslationEngine:
    """The engine of this machine: the installed `xx->en` Argos packages if there are any, else
    the engine that records why nothing is translated; behind `cache` when one is given.
    Broken package folders are skipped (`ingest models list` names them)."""
    engine: TranslationEngine = UntranslatedEngine()
    try:
        from .argos import ArgosEngine
        from .packages import list_installed
    except ImportError:  # CTranslate2 or SentencePiece missing: nothing can be translated
        pass
    else:
        installed = list_installed()
        if any(p.to_code == "en" for p in installed):
            engine = ArgosEngine(settings=settings, packages=installed)
    return CachedEngine(engine, cache) if cache is not None else engine
