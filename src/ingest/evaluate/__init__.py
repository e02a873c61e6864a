"""Accuracy against hand labels, on one scratch warehouse of every labelled article.

- entities and claims of the seeds and ../shared/corpus against tests/labels (`claims`);
- changes and agreements between renderings of one article in ../shared/corpus2, corpus3 and
  corpus4 against tests/labels/<folder>/ (`renderings`), and which documents are renderings of
  one article at all (`pairs`: tests/labels/<folder>/PAIRS.yaml, corpus2's SOURCES.tsv groups);
- facts that different articles state, across all of them, against tests/labels/claims;
- the same on independent write-ups of releases in domains absent from ../shared (tests/newdomain,
  written and labelled here by a helper that never saw the program: tests/labels/newdomain).

Each key with a held-out part (`blind`) reports it apart from the part the rules were tuned on.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import warehouse
from ..run.runner import run_pipeline
from ..translate.engine import UntranslatedEngine
from . import pairs, renderings
from .claims import Evaluation, Score, score_claims, summary_rows
from .pairs import PairScore
from .renderings import PartScore

__all__ = ["Evaluation", "Report", "Score", "evaluate", "report_rows", "summary_rows"]
# The labelled folders of ../shared whose renderings have an answer key (tests/labels/<folder>).
RENDERING_FOLDERS = ("corpus2", "corpus3", "corpus4")

Row = tuple[str, int, int, int, float, float]


@dataclass
class Report:
    claims: Evaluation
    # The field names shadow the modules `renderings` and `pairs` in the class body: the types are imported by name.
    renderings: dict[str, dict[str, PartScore]]  # folder -> part -> score
    cross_articles: dict[str, PartScore]
    pairs: dict[str, PairScore]  # part -> score
    new_domains: dict[str, PartScore] | None = None  # part -> score, when the new-domain articles are given


def _inputs(seeds: Path, shared: Path | None, new_domains: Path | None) -> list[Path]:
    """The labelled articles: the seeds, ../shared/corpus, the articles of the renderings folders
    (not their README or answer key) and the new-domain write-ups."""
    inputs = [seeds, *(sorted(new_domains.glob("*.md")) if new_domains else [])]
    if shared and (shared / "corpus").is_dir():
        inputs.append(shared / "corpus")
    for folder in RENDERING_FOLDERS:
        if shared and (shared / folder).is_dir():
            inputs += sorted(p for p in (shared / folder).glob("*.md") if p.name[:1].isdigit())
    return inputs


def evaluate(
    labels_dir: Path,
    seeds: Path,
    shared: Path | None = None,
    warehouse_path: Path | None = None,
    new_domains: Path | None = None,
    flagged: Sequence[str] = ("contradiction",),
) -> Report:
    """Ingest the labelled articles into a scratch warehouse (no translation) and score every key;
    conflicts of a severity in `flagged` count as contradictions."""
    with tempfile.TemporaryDirectory() as scratch:
        db = warehouse_path or Path(scratch) / "eval.duckdb"
        run_pipeline(_inputs(seeds, shared, new_domains), db, None, engine=UntranslatedEngine())
        con = warehouse.connect(db, read_only=True)
        try:
            labelled = [
                doc for (doc,) in con.execute("SELECT doc_id FROM documents").fetchall() if doc.startswith(("seeds/", "corpus/"))
            ]
            findings = renderings.findings_from(con, flagged)
            across = renderings.across_articles(con, findings)
            keys = {
                folder: _score_key(labels_dir / folder, findings)
                for folder in RENDERING_FOLDERS
                if (labels_dir / folder).is_dir()
            }
            return Report(
                score_claims(con, labels_dir, labelled),
                keys,
                _score_key(labels_dir / "claims", across),
                pairs.score_pairs(con, labels_dir, shared, RENDERING_FOLDERS),
                _score_key(labels_dir / "newdomain", across) if new_domains else None,
            )
        finally:
            con.close()


def _score_key(root: Path, findings: Sequence[renderings.Finding]) -> dict[str, renderings.PartScore]:
    files = renderings.label_files(root)
    return renderings.score(renderings.load_labels(files), findings, renderings.labelled_documents(files))


def _part_rows(name: str, part: str, score: renderings.PartScore) -> list[Row]:
    rows = []
    found, gold = score.recall("must_flag")
    if gold or score.contradictions:
        rows.append(
            (
                f"{name}, {part}: contradictions",
                gold,
                score.contradictions,
                score.matched_flags,
                round(score.strict_precision, 3),
                round(found / gold, 3) if gold else 1.0,
            )
        )
    numeric = score.recall("must_flag", number_based_only=True)
    if numeric[1]:
        rows.append(
            (
                f"{name}, {part}: number-based must-flag",
                numeric[1],
                numeric[0],
                numeric[0],
                1.0,
                round(numeric[0] / numeric[1], 3),
            )
        )
    corroborated = score.recall("must_corroborate")
    if corroborated[1]:
        rows.append(
            (
                f"{name}, {part}: corroborations",
                corroborated[1],
                corroborated[0],
                corroborated[0],
                1.0,
                round(corroborated[0] / corroborated[1], 3),
            )
        )
    flagged, traps = score.recall("must_not_flag")
    rows.append((f"{name}, {part}: traps flagged (want 0)", traps, flagged, flagged, 1.0, 0.0))
    if score.unlabelled:
        rows.append((f"{name}, {part}: contradictions nobody labelled", 0, len(score.unlabelled), 0, 0.0, 1.0))
    return rows


def report_rows(report: Report, parts: Sequence[str] = renderings.PARTS) -> list[Row]:
    """(what, gold, predicted, matched, precision, recall) for every figure."""
    rows = summary_rows(report.claims)
    for part in parts:
        rows += pairs.rows(report.pairs[part], part)
    keys = [(f"renderings ({folder})", scores) for folder, scores in report.renderings.items()]
    if report.new_domains:
        keys.append(("new domains, across articles", report.new_domains))
    for name, scores in (*keys, ("across articles", report.cross_articles)):
        for part in parts:
            rows += _part_rows(name, part, scores[part])
    return rows
