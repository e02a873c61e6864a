"""spaCy pipelines per language, built from the config in each language profile
(`lang/<code>/language.yaml`, `spacy:`): blank ja (SudachiPy), zh (jieba's dictionary), en.

Each pipeline carries the `ingest_entities` component, which runs the language's
rules over the text and sets `doc.ents`; the exact rule
matches (with normalised values) are kept in `doc._.ingest_entities` because
token alignment may widen a span and stored offsets must point at the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import DummyTokenizer, get_words_and_spaces

from ..lang import profile
from .entities import Entity, find_entities


class SudachiSurfaceTokenizer(DummyTokenizer):
    """SudachiPy word segmentation without the tags, readings and inflections spaCy's own
    JapaneseTokenizer derives for every token (6x the cost of SudachiPy alone, unused here)."""

    def __init__(self, vocab, split_mode: str = "A") -> None:
        from sudachipy import Dictionary, SplitMode

        self.vocab = vocab
        self._tokenizer = Dictionary().tokenizer(mode=getattr(SplitMode, split_mode))

    def __call__(self, text: str) -> Doc:
        surfaces = [m.surface() for m in self._tokenizer.tokenize(text)] if text else []
        words, spaces = get_words_and_spaces([w for w in surfaces if not w.isspace()], text)
        return Doc(self.vocab, words=words, spaces=spaces)

    def dictionary_forms(self, text: str) -> list[str]:
        """The words of `text` as a dictionary lists them ("削減し" -> "削減する")."""
        return [m.dictionary_form() for m in self._tokenizer.tokenize(text) if not m.surface().isspace()] if text else []


@spacy.registry.tokenizers("ingest.SudachiSurfaceTokenizer.v1")
def create_sudachi_surface_tokenizer(split_mode: str = "A"):
    def make(nlp: Language) -> SudachiSurfaceTokenizer:
        return SudachiSurfaceTokenizer(nlp.vocab, split_mode)

    return make


class JiebaTokenizer(DummyTokenizer):
    """jieba's word segmentation (its dictionary, and its HMM for unknown words) by jieba-rs, in a
    fraction of the time of the Python jieba spaCy's own ChineseTokenizer calls, and with the same
    words: a Latin run jieba's dictionary does not know is split as jieba splits it
    ("torch.compile" -> "torch", ".", "compile"; "C++" stays), the rest is jieba-rs's own.
    `tests/test_extract.py` holds it to Python jieba's words on ../shared."""

    _LATIN_WORD = re.compile(r"([a-zA-Z0-9]+(?:\.\d+)?%?)")
    _LATIN_RUN = re.compile(r"[a-zA-Z0-9+#&._%\-]+")

    def __init__(self, vocab) -> None:
        import rjieba

        self.vocab = vocab
        self._jieba = rjieba

    def __call__(self, text: str) -> Doc:
        words, spaces = get_words_and_spaces(self.words(text), text)
        return Doc(self.vocab, words=words, spaces=spaces)

    def words(self, text: str) -> list[str]:
        """The words of `text`, whitespace left out."""
        found: list[str] = []
        for word in self._jieba.cut(text) if text else ():
            if word.isspace():
                continue
            if len(word) == 1 or any(ord(char) > 0x2E7F for char in word) or self._jieba.has_word(word):
                found.append(word)
                continue
            for piece in self._LATIN_WORD.split(word):
                if self._LATIN_RUN.fullmatch(piece):
                    found.append(piece)
                else:
                    found += piece  # (one word per character, as jieba cuts what is neither)
        return found


@spacy.registry.tokenizers("ingest.JiebaTokenizer.v1")
def create_jieba_tokenizer():
    def make(nlp: Language) -> JiebaTokenizer:
        return JiebaTokenizer(nlp.vocab)

    return make


if not Doc.has_extension("ingest_entities"):
    Doc.set_extension("ingest_entities", default=None)


class IngestEntities:
    """Sets doc.ents from the language's rule files."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, doc: Doc) -> Doc:
        entities: list[Entity] = find_entities(doc.text, self.lang)
        doc._.ingest_entities = entities
        spans, last_end = [], -1
        for entity in entities:
            span = doc.char_span(entity.start, entity.end, label=entity.label, alignment_mode="expand")
            if span is not None and span.start >= last_end:
                spans.append(span)
                last_end = span.end
        doc.ents = spans
        return doc


@Language.factory("ingest_entities", default_config={"lang": "en"})
def make_ingest_entities(nlp: Language, name: str, lang: str) -> IngestEntities:
    return IngestEntities(lang)


def words(text: str, lang: str) -> list[str]:
    """The words of `text` by the language's pipeline, in the form its dictionary looks them up."""
    tokenizer = get_nlp(lang).tokenizer
    if isinstance(tokenizer, SudachiSurfaceTokenizer):
        return tokenizer.dictionary_forms(text)
    if isinstance(tokenizer, JiebaTokenizer):
        return tokenizer.words(text)
    return [token.text for token in tokenizer(text) if not token.is_space]


def get_nlp(lang: str) -> Language:
    """The spaCy pipeline for documents in `lang`: its profile's, else English's; built once per process."""
    return _pipeline(profile(lang).code)


@lru_cache(maxsize=8)
def _pipeline(code: str) -> Language:
    language = profile(code)
    config = {"nlp": {"tokenizer": language.tokenizer}} if language.tokenizer else {}
    nlp = spacy.blank(language.spacy_lang, config=config)
    nlp.add_pipe("ingest_entities", config={"lang": code})
    return nlp
