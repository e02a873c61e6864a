"""Accuracy of entities and claims against the hand labels of tests/labels.

The labels (`tests/labels/`) were written by reading the articles, not from the
program's output: one YAML file of entities per document (label and exact text of
every occurrence) and `conflicts.yaml` with the contradictions, corroborations and
aligned-number mismatches a careful reader finds. Entities match by label and
text (each occurrence counted once); conflicts match by subject, attribute,
release and document pair, corroborations by subject, attribute, release and value.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import yaml

from ..extract.notation import version_number

_SPACES = re.compile(r"\s+")


@dataclass
class Score:
    true_positives: int = 0
    predicted: int = 0
    gold: int = 0
    misses: list = field(default_factory=list)
    extras: list = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.gold if self.gold else 1.0

    def add(self, gold: Counter, predicted: Counter, where: str = "") -> None:
        matched = gold & predicted
        self.true_positives += sum(matched.values())
        self.gold += sum(gold.values())
        self.predicted += sum(predicted.values())
        self.misses += [(where, item) for item in (gold - matched).elements()]
        self.extras += [(where, item) for item in (predicted - matched).elements()]


@dataclass
class Evaluation:
    entities: Score
    entities_by_label: dict[str, Score]
    contradictions: Score
    corroborations: Score
    aligned: Score


def _norm(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def _entity_counter(pairs: Iterable[Sequence[str]]) -> Counter:
    return Counter((label, _norm(text)) for label, text in pairs)


_VALUE_NUMBER = re.compile(r"^[0-9.,\-]+[%x]?")


def _value_key(value: str) -> str:
    """'475 contributors' and '475' compare equal, and versions in either notation ('8.5.0', '8.5');
    maturity words stay as they are."""
    match = _VALUE_NUMBER.match(str(value))
    return version_number(match.group()) if match else str(value)


def _conflict_key(subject: str | None, attribute: str, release: str | None, docs: Iterable[str]) -> tuple:
    return (subject, attribute, release, tuple(sorted(docs)))


def _score_entities(con, labels_dir: Path, evaluation: Evaluation) -> None:
    for file in sorted((labels_dir / "entities").glob("*.yaml")):
        gold_doc = yaml.safe_load(file.read_text("utf-8"))
        gold = _entity_counter(gold_doc["entities"] or [])
        predicted = _entity_counter(
            con.execute("SELECT label, text FROM entities WHERE doc_id = ?", [gold_doc["doc"]]).fetchall()
        )
        evaluation.entities.add(gold, predicted, gold_doc["doc"])
        for label in {lab for lab, _ in gold} | {lab for lab, _ in predicted}:
            evaluation.entities_by_label.setdefault(label, Score()).add(
                Counter({k: v for k, v in gold.items() if k[0] == label}),
                Counter({k: v for k, v in predicted.items() if k[0] == label}),
                gold_doc["doc"],
            )


def _score_conflicts(con, labels: dict, evaluation: Evaluation, documents: list[str]) -> None:
    """Contradictions and renderings' changed figures between `documents`, against the labels."""
    within = "doc_a IN (SELECT unnest(?::VARCHAR[])) AND doc_b IN (SELECT unnest(?::VARCHAR[]))"
    gold = Counter(
        _conflict_key(c["subject"], c["attribute"], c["release"], c["docs"]) for c in labels.get("contradictions") or []
    )
    # A contradiction between groups of documents stands for every pair across its sides: the
    # labelled pair may be any of them (more documents on a side change which one is first).
    labelled = set(documents)
    predicted = Counter(
        {
            _conflict_key(subject, attribute, release, (a, b))
            for subject, attribute, release, docs_a, docs_b in con.execute(
                "SELECT subject, attribute, release, docs_a, docs_b FROM conflicts "
                "WHERE severity = 'contradiction' AND kind <> 'aligned_value_mismatch'"
            ).fetchall()
            for a in docs_a
            if a in labelled
            for b in docs_b
            if b in labelled
        }
    )
    evaluation.contradictions.add(gold, predicted)
    gold_aligned = Counter(tuple(sorted(m["docs"])) for m in labels.get("aligned_number_mismatches") or [])
    predicted_aligned = Counter(
        tuple(sorted(row))
        for row in con.execute(f"SELECT DISTINCT doc_a, doc_b FROM mismatches WHERE {within}", [documents, documents]).fetchall()
    )
    evaluation.aligned.add(gold_aligned, predicted_aligned)
    gold_corroborations = Counter(
        (c["subject"], c["attribute"], c["release"], _value_key(c["value"])) for c in labels.get("corroborations") or []
    )
    predicted_corroborations = Counter(
        {
            (_as_labelled(s, gold_corroborations), _as_labelled_attribute(a, gold_corroborations), r, _value_key(v))
            for s, a, r, v in con.execute(
                "SELECT subject, attribute, release, value FROM corroborations "
                "WHERE len(list_filter(documents, lambda d: list_contains(?, d))) >= 2",
                [documents],
            ).fetchall()
        }
    )
    evaluation.corroborations.add(gold_corroborations, predicted_corroborations)


def _as_labelled(subject: str, gold: Counter) -> str:
    """A product and its part meet ("torchinductor" / "torchinductor-cpu-backend"): a corroboration
    found under the one counts for a label under the other."""
    for labelled, *_ in gold:
        if labelled and (labelled.startswith(subject + "-") or subject.startswith(labelled + "-")):
            return labelled
    return subject


def _as_labelled_attribute(attribute: str, gold: Counter) -> str:
    """A change keyed by what it measures ("reduction_size") is the change a label names unkeyed
    ("reduction")."""
    for _, labelled, *_ in gold:
        if labelled and attribute.startswith(labelled + "_"):
            return labelled
    return attribute


def score_claims(con: duckdb.DuckDBPyConnection, labels_dir: Path, documents: Sequence[str]) -> Evaluation:
    """Entities and claims of `documents` (doc ids) against tests/labels."""
    evaluation = Evaluation(Score(), {}, Score(), Score(), Score())
    _score_entities(con, labels_dir, evaluation)
    _score_conflicts(con, yaml.safe_load((labels_dir / "conflicts.yaml").read_text("utf-8")), evaluation, list(documents))
    return evaluation


def summary_rows(evaluation: Evaluation) -> list[tuple[str, int, int, int, float, float]]:
    """(what, gold, predicted, matched, precision, recall) rows for printing."""
    scores = [("entities (all)", evaluation.entities)]
    scores += [(f"  {label}", score) for label, score in sorted(evaluation.entities_by_label.items())]
    scores += [
        ("contradictions", evaluation.contradictions),
        ("aligned number mismatches", evaluation.aligned),
        ("corroborations", evaluation.corroborations),
    ]
    return [(name, s.gold, s.predicted, s.true_positives, round(s.precision, 3), round(s.recall, 3)) for name, s in scores]
