"""Language identification: langdetect, seeded, corrected by what the script makes certain.

langdetect alone is random unless seeded and calls kanji-only Japanese Chinese,
so the script decides wherever it can, by the facts in the language profiles
(`lang/<code>/language.yaml`, `script:`): kana means Japanese, Hangul Korean, Han
without either Chinese (simplified or traditional kept as the variant), unless the
document is Japanese and the sentence has no characters Japanese never writes.
langdetect speaks for text without CJK characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from langdetect import DetectorFactory, LangDetectException, detect_langs

from .lang import LanguageProfile, profiles
from .records import NO_LANGUAGE

DetectorFactory.seed = 0

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_CHINESE_MARKERS_MIN = 2
_SCRIPT_CONFIDENCE_MIN_CHARS = 20
# langdetect guesses wildly on a few Latin tokens ("H100" is Vietnamese to it); such
# fragments are product names and numbers, which read as English.
_MIN_WORDS_FOR_LANGDETECT = 4
_WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True)
class LanguageGuess:
    lang: str
    confidence: float
    variant: str | None = None


@dataclass(frozen=True)
class _ScriptRules:
    """The profiles' script facts, compiled once."""

    letters: tuple[tuple[LanguageProfile, re.Pattern], ...]  # languages with letters of their own
    han: LanguageProfile | None  # the language of Han-only text
    han_never: dict[str, frozenset[str]]  # lang -> Han characters it never writes
    variants: tuple[tuple[str, frozenset[str]], ...]  # variant of the Han language -> its characters


@lru_cache(maxsize=1)
def _script_rules() -> _ScriptRules:
    known = profiles().values()
    han = next((p for p in known if p.script.han), None)
    return _ScriptRules(
        letters=tuple((p, re.compile(f"[{p.script.letters}]")) for p in known if p.script.letters),
        han=han,
        han_never={p.code: frozenset(p.script.han_never) for p in known if p.script.han_never},
        variants=tuple((name, frozenset(chars)) for name, chars in (han.script.variants.items() if han else ())),
    )


def chinese_variant(text: str) -> str | None:
    """The variant of the Han language whose own characters `text` uses most (ties: the first)."""
    variants = _script_rules().variants
    if not variants:
        return None
    counts = [(sum(char in chars for char in text), -rank, name) for rank, (name, chars) in enumerate(variants)]
    return max(counts)[2]


# Segments repeat across a corpus and are worth caching; whole documents are not, and
# 4,096 cached multi-megabyte texts would hold gigabytes.
_CACHE_MAX_CHARS = 2000


def _langdetect(text: str) -> LanguageGuess:
    return _langdetect_cached(text) if len(text) <= _CACHE_MAX_CHARS else _langdetect_uncached(text)


def _langdetect_uncached(text: str) -> LanguageGuess:
    try:
        best = detect_langs(text)[0]
    except LangDetectException:
        return LanguageGuess("und", 0.0)
    lang = best.lang
    if lang.startswith("zh"):
        return LanguageGuess("zh", best.prob, "zh-Hant" if lang == "zh-tw" else "zh-Hans")
    return LanguageGuess(lang, round(best.prob, 4))


_langdetect_cached = lru_cache(maxsize=4096)(_langdetect_uncached)


def _script_confidence(decisive: int, total: int) -> float:
    """How sure the script rule is: decisive characters as a share, saturating on long text."""
    coverage = min(1.0, total / _SCRIPT_CONFIDENCE_MIN_CHARS)
    return round(min(1.0, 0.5 + 0.5 * coverage * min(1.0, decisive / max(total, 1) * 4)), 4)


# URLs, e-mail addresses and paths, and the tokens only code has: calls, assignments, operators,
# dotted or snake_case names, options. Text made of these is in no language.
_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S+|\S+@\S+\.\w+|(?:[\w.~-]+/)+[\w.~-]*", re.I)
_CODE_TOKEN = re.compile(r"[=(){}\[\];<>`$\\|]|::|->|[a-z]\.[a-z_]|[a-z0-9]_[a-z0-9]|^--?[a-z]", re.I)
_CODE_SHARE = 0.5
# A run without whitespace this long is no word of any language (a long URL, base64, names run
# together); it goes before _ADDRESS, whose cost grows with the square of a run's length, and with
# several "@" in it the cube (20,000 letters took 4 s, 20,000 characters of "a@" several minutes).
_LONG_RUN = re.compile(r"\S{100,}")


def _without_language(text: str) -> bool:
    """Code, URLs or numbers only: no word is left once addresses go, or most tokens are code."""
    if not _LATIN.search(text):
        # Removing addresses cannot add a letter, so the answer is known without _ADDRESS, whose cost
        # grows with the square of a run without whitespace (100,000 full-width digits: ~70 s).
        return True
    rest = _ADDRESS.sub(" ", _LONG_RUN.sub(" ", text))
    if not _LATIN.search(rest):
        return True
    tokens = rest.split()
    return len(tokens) >= 2 and sum(bool(_CODE_TOKEN.search(t)) for t in tokens) >= _CODE_SHARE * len(tokens)


def detect_language(text: str, context: str | None = None) -> LanguageGuess:
    """Language of `text`; `context` (the document's language) settles Han-only fragments."""
    rules = _script_rules()
    letters = sorted(((len(pattern.findall(text)), profile) for profile, pattern in rules.letters), key=lambda pair: -pair[0])
    han = len(_HAN.findall(text))
    cjk = han + sum(count for count, _ in letters)
    if cjk == 0:
        if _without_language(text):
            return LanguageGuess(NO_LANGUAGE, 1.0)
        if len(_WORD.findall(text)) < _MIN_WORDS_FOR_LANGDETECT:
            return LanguageGuess("en", 0.5)
        return _langdetect(_LONG_RUN.sub(" ", text))  # a long run's letters are no language's statistics
    for count, profile in letters:
        if count and count >= profile.script.min_share * (count + han):
            return LanguageGuess(profile.code, _script_confidence(count, cjk))
    never = rules.han_never.get(context or "")
    if context is not None and never is not None and sum(char in never for char in text) < _CHINESE_MARKERS_MIN:
        # Kanji-only fragments ("安定版", headings) inside a Japanese article are Japanese;
        # a sentence full of characters Japanese never writes (这, 們, 说) is quoted Chinese.
        return LanguageGuess(context, 0.6)
    if rules.han is None:
        return LanguageGuess(context or "und", 0.0)
    return LanguageGuess(rules.han.code, _script_confidence(han, cjk), chinese_variant(text))
