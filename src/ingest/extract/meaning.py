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
