"""Language profiles: everything language-specific, as data, one folder per language.

A profile folder `<code>/` holds `language.yaml` (facts: the spaCy pipeline, how the
script is recognised, numerals and magnitudes, how else numbers are written (`numbers`:
number words, scales, multiplier words, counters, range joiners, reference and version
words), sentence ends, the month suffix, metadata labels and byline
patterns, whether headings name their subject last) and optionally `rules.yaml` (entity
rules: maturity words, counters, attribute words, section headings). `common.yaml` holds
the rules every language shares (products, hardware, units...).

Adding a language is adding a folder: here, or in a folder named by the environment
variable INGEST_LANGUAGE_DIRS (os.pathsep-separated), which is read when the profiles are
first loaded. A language without a profile is read with the English rules. A folder named
there that does not exist, or a profile that cannot be read (bad YAML, no `code`, a field of
the wrong type) is a `SettingsError` naming the file, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from ..errors import SettingsError

LANGUAGE_DIRS_ENV = "INGEST_LANGUAGE_DIRS"
FALLBACK = "en"


@dataclass(frozen=True)
class Script:
    """How language identification recognises a language from its characters."""

    letters: str = ""  # a regex character class of letters only this language writes
    min_share: float = 0.0  # ...as a share of those letters plus Han characters
    han: bool = False  # Han text without another language's letters is this language
    han_never: str = ""  # Han characters this language never writes (they mark quoted Chinese)
    variants: dict[str, str] = field(default_factory=dict)  # variant -> characters only it writes
    grammar: str = ""  # a character class of letters that write grammar (particles, endings), never a noun


@dataclass(frozen=True)
class LanguageProfile:
    code: str
    name: str
    spacy_lang: str
    tokenizer: dict[str, Any] | None
    head_final: bool
    sentence_ends: str
    clause_marks: str  # marks that end a clause, not a sentence ("、")
    bullets: str  # signs that open a list item in plain text ("・")
    quotes: tuple[str, ...]  # quotation mark pairs that set off a name ("「」")
    stopwords: tuple[str, ...]  # words that carry no concept (function words, particles): `extract.lexicon`
    lexicon: dict[str, str] | None  # the bilingual dictionary of the language's words (`extract.lexicon`)
    senses: dict[str, list[str]]  # ...and the English of words whose first senses it lists are not the meant ones
    numerals: dict[str, int]
    magnitudes: dict[str, float]
    month_suffix: str | None
    metadata_labels: dict[str, list[str]]
    bylines: dict[str, list[str]]  # regexes of unlabelled lines naming a date (group 'date') or a person ('who')
    script: Script
    numbers: dict[str, Any]  # number words, scales, multipliers, counters, range joiners... (extract/notation)
    since: dict[str, list[str]]  # words before/after a release that make it an earlier one ("since 2.2")
    until: dict[str, list[str]]  # ...or a later one ("will be removed in 3.0")
    anaphora: tuple[str, ...]  # words a sentence opens with to point back to the previous one
    feature_anaphora: tuple[str, ...]  # phrases naming the feature a section is about ("この機能", "this feature")
    earlier: tuple[str, ...]  # words that put a sentence about an earlier release ("predecessor", "上一代")
    compared_earlier: dict[str, list[str]]  # ...unless they make it what a figure is compared with ("than its")
    per: dict[str, list[str]]  # words before/after an amount that make it the unit of a rate ("1GBあたり")
    differences: dict[str, list[str]]  # ...or a difference ("two hours longer", "延长了两年")
    extends: tuple[str, ...]
    rules: dict[str, Any]


def _yaml(node: Traversable) -> dict[str, Any]:
    return yaml.safe_load(node.read_text("utf-8")) or {}


def _profile(folder: Traversable) -> LanguageProfile:
    """The profile in `folder`; SettingsError if it cannot be read."""
    try:
        return _read_profile(folder)
    except SettingsError:
        raise
    except (OSError, UnicodeDecodeError, yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError) as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SettingsError(
            f"the language profile {folder} cannot be read ({type(error).__name__}: {detail}); fix "
            f"its language.yaml/rules.yaml or remove the folder from {LANGUAGE_DIRS_ENV}"
        ) from error


def _read_profile(folder: Traversable) -> LanguageProfile:
    facts_file, rules_file = folder / "language.yaml", folder / "rules.yaml"
    facts = _yaml(facts_file)
    rules = _yaml(rules_file) if rules_file.is_file() else {}
    if not isinstance(facts, dict) or not isinstance(rules, dict):
        raise SettingsError(
            f"the language profile {folder} is not a YAML mapping (key: value lines); fix it or "
            f"remove the folder from {LANGUAGE_DIRS_ENV}"
        )
    code = facts.get("code")
    if not isinstance(code, str) or not code.strip():
        raise SettingsError(
            f"the language profile {folder / 'language.yaml'} has no `code` (e.g. `code: ko`); add "
            f"it or remove the folder from {LANGUAGE_DIRS_ENV}"
        )
    spacy = facts.get("spacy") or {}
    return LanguageProfile(
        code=code,
        name=facts.get("name", code),
        spacy_lang=spacy.get("lang", FALLBACK),
        tokenizer=spacy.get("tokenizer"),
        head_final=bool(facts.get("head_final")),
        sentence_ends=facts.get("sentence_ends", ""),
        clause_marks=facts.get("clause_marks", ""),
        bullets=facts.get("bullets", ""),
        quotes=tuple(facts.get("quotes") or ()),
        stopwords=tuple(str(w) for w in facts.get("stopwords") or ()),
        lexicon=facts.get("lexicon"),
        senses={word: list(glosses) for word, glosses in (facts.get("senses") or {}).items()},
        numerals=dict(facts.get("numerals") or {}),
        magnitudes={k: float(v) for k, v in (facts.get("magnitudes") or {}).items()},
        month_suffix=facts.get("month_suffix"),
        metadata_labels=dict(facts.get("metadata_labels") or {}),
        bylines={k: list(v or []) for k, v in (facts.get("bylines") or {}).items()},
        script=Script(**(facts.get("script") or {})),
        numbers=dict(facts.get("numbers") or {}),
        since={k: list(v or []) for k, v in (facts.get("since") or {}).items()},
        until={k: list(v or []) for k, v in (facts.get("until") or {}).items()},
        anaphora=tuple(w.casefold() for w in facts.get("anaphora") or ()),
        feature_anaphora=tuple(w.casefold() for w in facts.get("feature_anaphora") or ()),
        earlier=tuple(w.casefold() for w in facts.get("earlier") or ()),
        compared_earlier={k: list(v or []) for k, v in (facts.get("compared_earlier") or {}).items()},
        per={k: list(v or []) for k, v in (facts.get("per") or {}).items()},
        differences={k: list(v or []) for k, v in (facts.get("differences") or {}).items()},
        extends=tuple(facts.get("extends") or ()),
        rules=rules,
    )


def _folders() -> Iterator[Traversable]:
    yield from (node for node in resources.files(__name__).iterdir() if (node / "language.yaml").is_file())
    yield from _extra_folders()


def _extra_folders() -> Iterator[Path]:
    """Profile folders in the folders INGEST_LANGUAGE_DIRS names."""
    for extra in filter(None, os.environ.get(LANGUAGE_DIRS_ENV, "").split(os.pathsep)):
        if not Path(extra).is_dir():
            raise SettingsError(
                f"{LANGUAGE_DIRS_ENV} names {extra}, which is not a folder; name folders holding "
                "language profiles (<code>/language.yaml), or unset it"
            )
        yield from (folder for folder in sorted(Path(extra).iterdir()) if (folder / "language.yaml").is_file())


@lru_cache(maxsize=1)
def profiles() -> dict[str, LanguageProfile]:
    """Every language profile by code; a profile in INGEST_LANGUAGE_DIRS replaces a built-in one."""
    return {profile.code: profile for profile in map(_profile, sorted(_folders(), key=lambda f: f.name))}


def profile(code: str | None) -> LanguageProfile:
    """The profile of `code`, else English's (the rules for text in a language without a profile)."""
    known = profiles()
    return known.get(code or FALLBACK) or known[FALLBACK]


@lru_cache(maxsize=1)
def common_rules() -> dict[str, Any]:
    """The rules every language shares (`common.yaml`)."""
    return _yaml(resources.files(__name__) / "common.yaml")


def extra_data_files() -> list[tuple[str, bytes]]:
    """(name, content) of the files of the profiles INGEST_LANGUAGE_DIRS adds: what runs read
    besides the package's own data."""
    return [
        (f"{folder}/{name}", (folder / name).read_bytes())
        for folder in _extra_folders()
        for name in ("language.yaml", "rules.yaml")
        if (folder / name).is_file()
    ]


def sentence_end_chars() -> str:
    """The hard sentence ends of every language (。！？ ...), besides . ! ?"""
    return _chars("sentence_ends")


def clause_mark_chars() -> str:
    """The marks of every language that end a clause but not a sentence (、)."""
    return _chars("clause_marks")


def bullet_chars() -> str:
    """The list bullets of every language's plain text (・), besides - * •."""
    return _chars("bullets")


def quotation_pairs() -> list[str]:
    """The quotation mark pairs of every language that set off a name ("「」", "《》")."""
    return sorted({pair for p in profiles().values() for pair in p.quotes if len(pair) == 2})


def _chars(field: str) -> str:
    return "".join(sorted({char for p in profiles().values() for char in getattr(p, field)}))


def every_language(key: str, section: str = "rules") -> list[Any]:
    """The values of `key` in every profile's rules (or `numbers`), merged: a list's items, a mapping's
    (key, value) pairs. For words that apply to text in any language (technical prose in one
    language quotes another): conditions, device words, conjunctions, number words."""
    items: list[Any] = []
    for profile in profiles().values():
        value = (profile.rules if section == "rules" else profile.numbers).get(key)
        if isinstance(value, dict):
            items.extend(value.items())
        elif value:
            items.extend(value)
    return items
