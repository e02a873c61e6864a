"""Renderings of one article as a group: who is the original, which renderings are one source,
and which side of a changed figure the others support (the arbiter).

A group is a connected set of document pairs that render one article. An English rendering
among translations is taken as the original they were made from (the corpus is translations
of English technical posts; a group with no or several English renderings has none). Two
renderings in the same language whose aligned sentences are mostly word for word the same
(a draft and its proofread version) are one source: they do not outvote a third.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..thresholds import SAME_SOURCE_SHARE


@dataclass(frozen=True)
class Rendering:
    doc_id: str
    lang: str
    title: str | None = None


def groups(pairs: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Connected components of the document pairs, each sorted, in order of their first document."""
    parent: dict[str, str] = {}

    def root(doc: str) -> str:
        while parent.setdefault(doc, doc) != doc:
            parent[doc] = parent[parent[doc]]
            doc = parent[doc]
        return doc

    for a, b in pairs:
        parent[root(a)] = root(b)
    members: dict[str, list[str]] = defaultdict(list)
    for doc in list(parent):
        members[root(doc)].append(doc)
    return sorted((sorted(m) for m in members.values()), key=lambda m: m[0])


def original(group: Sequence[str], renderings: Mapping[str, Rendering]) -> str | None:
    """The English rendering of a group of translations, if there is exactly one."""
    english = [doc for doc in group if renderings[doc].lang == "en"]
    others = [doc for doc in group if renderings[doc].lang != "en"]
    return english[0] if len(english) == 1 and others else None


def _folded(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).casefold()


def identical_share(texts: Sequence[tuple[str, str]]) -> float:
    """The share of aligned sentence pairs whose two texts are the same (spacing and width aside)."""
    if not texts:
        return 0.0
    return sum(_folded(a) == _folded(b) for a, b in texts) / len(texts)


def sources(group: Sequence[str], renderings: Mapping[str, Rendering], shared: Mapping[tuple[str, str], float]) -> dict[str, str]:
    """doc -> its independent source (the first document of its same-source set)."""
    parent = {doc: doc for doc in group}

    def root(doc: str) -> str:
        while parent[doc] != doc:
            doc = parent[doc]
        return doc

    for (a, b), share in shared.items():
        if a in parent and b in parent and renderings[a].lang == renderings[b].lang and share >= SAME_SOURCE_SHARE:
            first, second = sorted((root(a), root(b)))
            parent[second] = first
    return {doc: root(doc) for doc in group}


@dataclass(frozen=True)
class Verdict:
    """Which value of a changed figure the group supports (its words: the macro `arbiter_text`)."""

    supported: str | None  # "a", "b", or None when the evidence is symmetric
    original: str | None  # the English original, when it states the figure: it decides
    docs_a: list[str]  # the renderings that state the figure as doc_a does...
    docs_b: list[str]  # ...and as doc_b does
    sources_a: int  # independent sources among them
    sources_b: int


def arbiter(side_of: Mapping[str, str], group_original: str | None, source_of: Mapping[str, str]) -> Verdict:
    """`side_of`: every rendering of the group that states the figure -> 'a' or 'b' (which value it
    agrees with), the two disagreeing documents included."""
    backers = {side: sorted(doc for doc, s in side_of.items() if s == side) for side in ("a", "b")}
    count_a, count_b = (len({source_of.get(doc, doc) for doc in backers[side]}) for side in ("a", "b"))
    if group_original is not None and group_original in side_of:
        supported: str | None = side_of[group_original]
    else:
        supported = None if count_a == count_b else "a" if count_a > count_b else "b"
    return Verdict(supported, group_original if group_original in side_of else None, backers["a"], backers["b"], count_a, count_b)
