"""The concepts of a sentence in any language: its words, as the language's spaCy pipeline finds
them, through the bilingual lexicon (`lexicon`)."""

from __future__ import annotations

from ..lang import FALLBACK, profile
from .lexicon import english_concepts, word_concepts


def concepts(text: str, lang: str | None) -> list[str]:
    """The concepts of a text, in order (a word's several stems together): English words stemmed,
    the words of a language with a dictionary (SudachiPy dictionary forms for Japanese, jieba's
    words for Chinese) looked up in it."""
    code = profile(lang).code if lang else FALLBACK
    if not profile(code).lexicon or not any(ord(char) > 0x2E7F for char in text):
        return english_concepts(text)
    # spaCy is imported with the first text that needs a word segmenter, not with the run: an
    # unchanged re-run never pays for it.
    from .nlp import words

    found: list[str] = []
    for word in words(text, code):
        found += word_concepts(word, code)
    return found


_LONGEST_PART = 4  # characters of the longest dictionary word a word unknown as a whole is cut into


def word_senses(text: str, lang: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """The words of a short phrase with the concepts of each, in order; a CJK word the dictionary
    does not know whole is read as its longest known parts, left to right ("地图功能": 地图 / 功能)."""
    code = profile(lang).code if lang else FALLBACK
    if not profile(code).lexicon or not any(ord(char) > 0x2E7F for char in text):
        return [(word, word_concepts(word, "en")) for word in text.split()]
    from .nlp import words

    senses = []
    for word in words(text, code):
        found = word_concepts(word, code)
        if found or len(word) <= 1 or ord(word[0]) <= 0x2E7F:
            senses.append((word, found))
            continue
        at = 0
        while at < len(word):
            longest = range(min(len(word), at + _LONGEST_PART), at + 1, -1)
            part = next((word[at:end] for end in longest if word_concepts(word[at:end], code)), word[at])
            senses.append((part, word_concepts(part, code)))
            at += len(part)
    return senses
