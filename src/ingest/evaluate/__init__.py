"""Accuracy against hand labels, on one scratch warehouse of every labelled article.

- entities and claims of the seeds and ../shared/corpus against tests/labels (`claims`);
- changes between renderings of one article in ../shared/corpus2 against tests/labels/corpus2
  (`renderings`);
- facts that different articles state, across all three, against tests/labels/claims.

Each key with a held-out part (`blind`) reports it apart from the part the rules were tuned on.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .. import warehouse
from ..run.runner import run_pipeline
from ..translate.engine import UntranslatedEngine
from . import renderings
from .claims import Evaluation, Score, score_claims, summary_rows

__all__ = ["Evaluation", "Report", "Score", "evaluate", "report_rows", "summary_rows"]

Row = tuple[str, int, int, int, float, float]


@dataclass
class Report:
    claims: Evaluation
    renderings: dict[str, renderings.PartScore]
    cross_articles: dict[str, renderings.PartScore]


def _inputs(seeds: Path, corpus: Path | None, corpus2: Path | None) -> list[Path]:
    """The labelled articles: folders of seeds and corpus, and corpus2's articles (not its README or key)."""
    inputs = [seeds] + ([corpus] if corpus and corpus.is_dir() else [])
    if corpus2 and corpus2.is_dir():
        inputs += sorted(p for p in corpus2.glob("*.md") if p.name[:1].isdigit())
    return inputs


def evaluate(labels_dir: Path, seeds: Path, corpus: Path | None = None, corpus2: Path | None = None,
             warehouse_path: Path | None = None) -> Report:
    """Ingest the labelled articles into a scratch warehouse (no translation) and score every key."""
    with tempfile.TemporaryDirectory() as scratch:
        db = warehouse_path or Path(scratch) / "eval.duckdb"
        run_pipeline(_inputs(seeds, corpus, corpus2), db, None, engine=UntranslatedEngine())
        con = warehouse.connect(db, read_only=True)
        try:
            labelled = [doc for doc, in con.execute("SELECT doc_id FROM documents").fetchall()
                        if doc.startswith(("seeds/", "corpus/"))]
            findings = renderings.findings_from(con)
            return Report(score_claims(con, labels_dir, labelled), _score_key(labels_dir / "corpus2", findings),
                          _score_key(labels_dir / "claims", renderings.across_articles(con, findings)))
        finally:
            con.close()


def _score_key(root: Path, findings: Sequence[renderings.Finding]) -> dict[str, renderings.PartScore]:
    files = renderings.label_files(root)
    return renderings.score(renderings.load_labels(files), findings, renderings.labelled_documents(files))


def _part_rows(name: str, part: str, score: renderings.PartScore) -> list[Row]:
    rows = []
    found, gold = score.recall("must_flag")
    if gold or score.contradictions:
        rows.append((f"{name}, {part}: contradictions", gold, score.contradictions, score.matched_flags,
                     round(score.strict_precision, 3), round(found / gold, 3) if gold else 1.0))
    numeric = score.recall("must_flag", number_based_only=True)
    if numeric[1]:
        rows.append((f"{name}, {part}: number-based must-flag", numeric[1], numeric[0], numeric[0], 1.0,
                     round(numeric[0] / numeric[1], 3)))
    corroborated = score.recall("must_corroborate")
    if corroborated[1]:
        rows.append((f"{name}, {part}: corroborations", corroborated[1], corroborated[0], corroborated[0], 1.0,
                     round(corroborated[0] / corroborated[1], 3)))
    flagged, traps = score.recall("must_not_flag")
    rows.append((f"{name}, {part}: traps flagged (want 0)", traps, flagged, flagged, 1.0, 0.0))
    if score.unlabelled:
        rows.append((f"{name}, {part}: contradictions nobody labelled", 0, len(score.unlabelled), 0, 0.0, 1.0))
    return rows


def report_rows(report: Report, parts: Sequence[str] = renderings.PARTS) -> list[Row]:
    """(what, gold, predicted, matched, precision, recall) for every figure."""
    rows = summary_rows(report.claims)
    for name, scores in (("renderings (corpus2)", report.renderings), ("across articles", report.cross_articles)):
        for part in parts:
            rows += _part_rows(name, part, scores[part])
    return rows
