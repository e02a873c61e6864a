"""Which rule patterns can match a text at all, decided without running them.

Every match of a pattern contains certain characters: "GB/s" a "G", a number a digit, "Xeon"
an "X", "百分之…" a "百". `required_sets` reads them off the parsed pattern, conservatively
(what it cannot prove, such as non-ASCII letters under IGNORECASE, is left out), and a
`Prefilter` drops the patterns whose required characters are missing from a text. Most
segments hold no digit and no unit, so most of the ~60 rule scans per segment need not run;
the scans that do run are the same as before, so what is extracted does not change.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # typeshed knows re's parser by its old, deprecated names only
    import sre_constants as sre
    import sre_parse
else:
    from re import _constants as sre  # the parser's opcodes: the pattern language, stable within 3.11
    from re import _parser as sre_parse

Chars = frozenset[str]
_SELECTIVE_SETS = 2  # more required sets per pattern cost more checks than they save
_SCANNED_RANGE = 5000  # a wider character range is not worth listing (it gates nothing anyway)


@lru_cache(maxsize=1)
def _digits() -> Chars:
    """What `\\d` matches in a str pattern: the Unicode decimal digits."""
    return frozenset(c for c in map(chr, range(sys.maxunicode + 1)) if c.isdecimal())


def _caseless(char: str) -> bool:
    """IGNORECASE cannot make this character match another (digits, CJK, punctuation)."""
    return char.lower() == char == char.upper()


@lru_cache(maxsize=1)
def _ascii_letter_cases() -> dict[str, Chars]:
    """Every character each ASCII letter matches under IGNORECASE, asked of `re` itself: its two
    cases and the few others Unicode folds to it (KELVIN SIGN, LONG S, dotted and dotless I)."""
    others = re.findall(f"[{string.ascii_letters}]", "".join(map(chr, range(128, sys.maxunicode + 1))), re.I)
    return {
        letter: frozenset(c for c in (letter.lower(), letter.upper(), *others) if re.fullmatch(letter, c, re.I))
        for letter in string.ascii_letters
    }


def _under_ignorecase(chars: set[str]) -> Chars | None:
    """What a class of `chars` matches under IGNORECASE; None if a letter beyond ASCII is in it."""
    matched: set[str] = set()
    for char in chars:
        if _caseless(char):
            matched.add(char)
        elif char in _ascii_letter_cases():
            matched |= _ascii_letter_cases()[char]
        else:
            return None
    return frozenset(matched)


def _class_chars(items: list, ignore_case: bool) -> Chars | None:
    """The characters a `[...]` class (or a lone literal) matches; None when not listable."""
    chars: set[str] = set()
    for op, av in items:
        if op is sre.LITERAL:
            chars.add(chr(av))
        elif op is sre.RANGE and av[1] - av[0] < _SCANNED_RANGE:
            chars.update(map(chr, range(av[0], av[1] + 1)))
        elif op is sre.CATEGORY and av is sre.CATEGORY_DIGIT:
            chars.update(_digits())
        else:
            return None  # negated classes, other categories, wide ranges
    return _under_ignorecase(chars) if ignore_case else frozenset(chars)


def _selectivity(chars: Chars) -> tuple[int, list[str]]:
    """Fewer characters gate more texts out; ties go by the characters, the same in every process."""
    return len(chars), sorted(chars)


def _sequence_sets(items: Iterable, flags: int) -> list[Chars]:
    """Character sets each of which every match of this sequence of parsed items hits."""
    found: list[Chars] = []
    for op, av in items:
        found.extend(_item_sets(op, av, flags))
    return found


def _item_sets(op, av, flags: int) -> list[Chars]:
    ignore_case = bool(flags & re.IGNORECASE)
    if op is sre.LITERAL or op is sre.IN:
        chars = _class_chars([(op, av)] if op is sre.LITERAL else av, ignore_case)
        return [chars] if chars else []
    if op is sre.SUBPATTERN:
        _, add_flags, del_flags, body = av
        return _sequence_sets(body, (flags | add_flags) & ~del_flags)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and av[0] >= 1:
        return _sequence_sets(av[2], flags)
    if op is sre.ATOMIC_GROUP:
        return _sequence_sets(av, flags)
    if op is sre.ASSERT:  # a lookaround that must succeed: its characters are in the text too
        return _sequence_sets(av[1], flags)
    if op is sre.BRANCH:  # each alternative must hit one of its sets: the union of their best sets
        union: set[str] = set()
        for branch in av[1]:
            sets = _sequence_sets(branch, flags)
            if not sets:
                return []
            best = min(sets, key=_selectivity)
            union |= best
        return [frozenset(union)]
    return []  # negative lookarounds, anchors, back-references, conditionals, "."


def required_sets(pattern: re.Pattern) -> tuple[Chars, ...]:
    """The most selective character sets that every match of `pattern` hits (none: no gate)."""
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    # iter(): a SubPattern iterates by __getitem__, which typeshed's Iterable does not cover.
    sets = sorted(set(_sequence_sets(iter(parsed), parsed.state.flags)), key=_selectivity)
    return tuple(sets[:_SELECTIVE_SETS])


Rule = TypeVar("Rule", bound="re.Pattern | tuple")  # a pattern, or a tuple whose last item is one
Narrowed = TypeVar("Narrowed")
_NARROWED_CACHE = 4096  # distinct combinations of present sets kept; texts share few of them


class Prefilter(Generic[Rule, Narrowed]):
    """Named lists of rules (patterns, or tuples whose last item is the pattern), with the required
    sets of their patterns as bits: one pass over the characters of a text that matter gives its
    `present` bits, and what `build` makes of the lists narrowed to the rules that can match is the
    same for every text with the same bits (kept for the next such text)."""

    def __init__(self, lists: Mapping[str, Sequence[Rule]], build: Callable[[dict[str, list[Rule]]], Narrowed]) -> None:
        self._build = build
        bits: dict[Chars, int] = {}
        self._lists: dict[str, list[tuple[Rule, int]]] = {}
        for name, rules in lists.items():
            self._lists[name] = []
            for rule in rules:
                needs = 0
                for chars in required_sets(rule[-1] if isinstance(rule, tuple) else rule):
                    needs |= bits.setdefault(chars, 1 << len(bits))
                self._lists[name].append((rule, needs))
        self._by_char: dict[str, int] = {}
        for chars, bit in bits.items():
            for char in chars:
                self._by_char[char] = self._by_char.get(char, 0) | bit
        self._chars = frozenset(self._by_char)
        self._narrowed: dict[int, Narrowed] = {}

    def present(self, text: str) -> int:
        """The bits of the required sets `text` hits."""
        found, by_char = 0, self._by_char
        for char in self._chars.intersection(text):
            found |= by_char[char]
        return found

    def narrowed(self, text: str) -> Narrowed:
        """`build` of the lists without the rules that cannot match `text` (nor any part of it)."""
        present = self.present(text)
        narrowed = self._narrowed.get(present)
        if narrowed is None:
            if len(self._narrowed) >= _NARROWED_CACHE:
                self._narrowed.clear()
            missing = ~present
            narrowed = self._narrowed[present] = self._build(
                {name: [rule for rule, needs in rules if not needs & missing] for name, rules in self._lists.items()}
            )
        return narrowed
