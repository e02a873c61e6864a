"""Which documents are renderings of one article: the warehouse's groups of renderings against the
labelled pairs (tests/labels/<folder>/PAIRS.yaml; corpus2's groups in its SOURCES.tsv).

A pair is counted once whatever copy of a document the warehouse holds (a byte-identical copy in
another folder is a duplicate of the first). A pair belongs to the blind part when one of its
documents is in a blind group of the renderings keys.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import duckdb
import yaml

from ..warehouse import dicts
from .renderings import PARTS, label_files, labelled_documents

Pair = frozenset[str]
_SOURCES_GROUPED = ("corpus2",)  # folders whose renderings are the groups of their SOURCES.tsv


@dataclass
class PairScore:
    gold: set[Pair] = field(default_factory=set)
    predicted: set[Pair] = field(default_factory=set)

    @property
    def matched(self) -> set[Pair]:
        return self.gold & self.predicted

    @property
    def recall(self) -> float:
        return len(self.matched) / len(self.gold) if self.gold else 1.0

    @property
    def precision(self) -> float:
        return len(self.matched) / len(self.predicted) if self.predicted else 1.0


def _gold(labels_dir: Path, shared: Path | None) -> set[Pair]:
    pairs: set[Pair] = set()
    for file in sorted(labels_dir.glob("*/PAIRS.yaml")):
        for entry in yaml.safe_load(file.read_text("utf-8")).get("renderings") or []:
            pairs.add(frozenset(entry["docs"]))
    for folder in _SOURCES_GROUPED:
        sources = shared / folder / "SOURCES.tsv" if shared else None
        if sources is None or not sources.is_file():
            continue
        groups: dict[str, list[str]] = {}
        for row in csv.DictReader(sources.read_text("utf-8").splitlines(), delimiter="\t"):
            groups.setdefault(row["group"], []).append(f"{folder}/{row['file']}")
        pairs |= {frozenset(pair) for docs in groups.values() for pair in combinations(docs, 2)}
    return pairs


def _blind_names(labels_dir: Path, folders: tuple[str, ...]) -> set[str]:
    """File names of the documents of a blind group of a renderings key (a key's cross-group file
    names documents of several groups: it decides nothing)."""
    return {
        name
        for folder in folders
        if (labels_dir / folder).is_dir()
        for name, part in labelled_documents(
            [(file, part) for file, part in label_files(labels_dir / folder) if file.stem != "cross"]
        ).items()
        if part == "blind"
    }


def score_pairs(
    con: duckdb.DuckDBPyConnection, labels_dir: Path, shared: Path | None, folders: tuple[str, ...]
) -> dict[str, PairScore]:
    """Per part: the labelled rendering pairs, and the pairs the warehouse groups as renderings."""
    documents = dicts(con, "SELECT doc_id, duplicate_of FROM documents")
    canonical = {row["doc_id"]: row["duplicate_of"] or row["doc_id"] for row in documents}
    groups: dict[str, list[str]] = {}
    for doc, group in con.execute("SELECT doc_id, group_id FROM renderings").fetchall():
        groups.setdefault(group, []).append(doc)
    predicted = {frozenset(pair) for docs in groups.values() for pair in combinations(sorted(docs), 2)}
    gold = {frozenset(canonical.get(doc, doc) for doc in pair) for pair in _gold(labels_dir, shared)}
    gold = {pair for pair in gold if len(pair) == 2 and pair <= canonical.keys()}
    blind = _blind_names(labels_dir, folders)
    scores = {part: PairScore() for part in PARTS}
    for pair in gold | predicted:
        part = "blind" if any(Path(doc).name in blind for doc in pair) else "tuned"
        if pair in gold:
            scores[part].gold.add(pair)
        if pair in predicted:
            scores[part].predicted.add(pair)
    return scores


def rows(score: PairScore, part: str) -> list[tuple[str, int, int, int, float, float]]:
    if not score.gold and not score.predicted:
        return []
    return [
        (
            f"rendering pairs, {part}",
            len(score.gold),
            len(score.predicted),
            len(score.matched),
            round(score.precision, 3),
            round(score.recall, 3),
        )
    ]
