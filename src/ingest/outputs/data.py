"""The data behind the consistency report, read from the warehouse once for every format."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb

from ..extract.glossary import subject_label
from ..records import utc_now
from ..warehouse import dicts


@dataclass
class ReportData:
    generated_at: str
    documents: list[dict[str, Any]]
    contradictions: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    corroborations: list[dict[str, Any]]
    release_notes: list[dict[str, Any]]
    translation: dict[str, int]
    translation_issues: list[dict[str, Any]]
    missing_pairs: list[str]
    summary_line: str | None


def generated_at() -> str:
    return utc_now().strftime("%Y-%m-%d %H:%M UTC")


def collect(con: duckdb.DuckDBPyConnection, missing_pairs: list[str] | None = None,
            summary_line: str | None = None) -> ReportData:
    """Read everything the report shows from the warehouse; the missing translation pairs
    are the run's when given, else those the stored segments show. Besides the list of
    documents, only `ok` documents are read: a gone file's rows stay until `ingest prune`."""
    conflicts = dicts(con, "SELECT * FROM conflicts ORDER BY severity, subject, attribute, doc_a, doc_b")
    missing = missing_pairs if missing_pairs is not None else sorted(
        {f"{r['lang']}->en" for r in dicts(con, "SELECT DISTINCT s.lang FROM segments s JOIN documents d USING "
                                                "(doc_id) WHERE d.status = 'ok' AND s.translation_status = 'untranslated'")})
    return ReportData(
        generated_at=generated_at(),
        documents=dicts(con, "SELECT doc_id, lang, lang_variant, title, published_at, release, status, error "
                             "FROM documents ORDER BY doc_id"),
        contradictions=[c for c in conflicts if c["severity"] == "contradiction"],
        notes=[c for c in conflicts if c["severity"] != "contradiction"],
        corroborations=dicts(con, "SELECT * FROM corroborations ORDER BY n_documents DESC, subject, attribute"),
        release_notes=dicts(con, "SELECT doc_id, release_note FROM documents WHERE release_note IS NOT NULL "
                                 "AND status = 'ok'"),
        translation=dict(con.execute("SELECT s.translation_status, count(*) FROM segments s JOIN documents d "
                                     "USING (doc_id) WHERE d.status = 'ok' GROUP BY 1").fetchall()),
        translation_issues=dicts(con, "SELECT t.* FROM translation_issues t JOIN documents d USING (doc_id) "
                                      "WHERE d.status = 'ok' ORDER BY t.doc_id, t.seg_idx LIMIT 200"),
        missing_pairs=missing,
        summary_line=summary_line,
    )


def subject_title(row: dict[str, Any]) -> str:
    """'FlexAttention (pytorch 2.5)': a conflict's subject, readable, with its release."""
    subject = subject_label(row["subject"]) if row["subject"] else "aligned sentences"
    return f"{subject} ({row['release'] or 'no release'})"


def conflict_table(data: ReportData) -> list[dict[str, str]]:
    """Contradictions and notes as flat rows for a table artifact."""
    columns = ("kind", "severity", "subject", "attribute", "release", "doc_a", "value_a", "doc_b", "value_b",
               "explanation")
    rows = [{c: str(row[c]) for c in columns} for row in data.contradictions + data.notes]
    return rows or [{"result": "no conflicts"}]
