"""What the consistency report shows, as records: every format renders these (`data.collect`
reads them from the warehouse; `files` marks what is new since the previous report)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..check.truth import TRUST_EXPLAINED
from ..errors import INSTALL_FROM_FILE, command, install_command
from ..records import REPORT_SIGNATURE


@dataclass
class Evidence:
    doc_id: str
    title: str | None
    text: str
    text_en: str | None
    machine: bool  # text_en is a machine translation (shown beside the sentence, marked as such)


# Sentences shown per side or corroboration: at 1,000 documents one value can have hundreds; the
# report names every document and shows this many sentences (the rest are rows of `claims`).
EVIDENCE_SHOWN = 10


@dataclass
class Side:
    value: str
    documents: list[str]
    evidence: list[Evidence]
    supported: bool = False
    english: str | None = None  # the value in one notation for every language ("三百万" = 3,000,000)


@dataclass
class Finding:
    kind: str  # maturity_conflict | value_conflict | aligned_value_mismatch
    subject: str
    attribute: str
    release: str | None
    change: str | None  # for renderings: magnitude | digits | value | version | date | name | size | label
    confidence: float
    sides: list[Side]
    arbiter: str | None
    severity: str  # contradiction | possible, as the checks decided
    new: bool = False  # not in the previous report written to the same folder

    @property
    def likely(self) -> bool:
        return self.severity == "contradiction"

    def key(self) -> tuple:
        return (
            "finding",
            self.kind,
            self.subject,
            self.attribute,
            self.release,
            self.change,
            *sorted(s.value for s in self.sides),
        )


@dataclass
class Corroboration:
    subject: str
    attribute: str
    release: str | None
    value: str
    n_documents: int
    n_sources: int
    evidence: list[Evidence]
    outliers: list[str]
    new: bool = False

    def key(self) -> tuple:
        return ("corroboration", self.subject, self.attribute, self.release, self.value)


@dataclass
class Note:
    subject: str
    attribute: str
    release: str | None
    explanation: str
    evidence: list[Evidence]
    new: bool = False

    def key(self) -> tuple:
        return ("note", self.subject, self.attribute, self.release, self.explanation)


@dataclass
class Summary:
    documents: int
    languages: dict[str, int]
    sources: int
    likely: int
    possible: int
    corroborations: int
    notes: int
    fidelity_issues: int
    failures: int


@dataclass
class ReportData:
    generated_at: str
    summary: Summary
    contradictions: list[Finding]
    corroborations: list[Corroboration]
    notes: list[Note]
    sources: list[dict[str, Any]]
    documents: list[dict[str, Any]]
    release_notes: list[dict[str, Any]]
    translation: dict[str, int]
    translation_issues: list[dict[str, Any]]
    missing_pairs: list[str]
    stray_languages: dict[str, int] = field(default_factory=dict)  # untranslated segments of no document's language
    summary_line: str | None = None
    titles: dict[str, str] = field(default_factory=dict)
    previous_report: str | None = None  # when the previous report in the same folder was generated

    def findings(self) -> list[Finding | Corroboration | Note]:
        return [*self.contradictions, *self.corroborations, *self.notes]

    @property
    def new_findings(self) -> int:
        return sum(finding.new for finding in self.findings())

    def shown_sentences(self) -> set[tuple[str, str]]:
        """(doc_id, source sentence) of every piece of evidence the report shows: the sentences
        `--translate evidence` translates first."""
        evidence = [e for finding in self.contradictions for side in finding.sides for e in side.evidence]
        evidence += [e for corroboration in self.corroborations for e in corroboration.evidence]
        evidence += [e for note in self.notes for e in note.evidence]
        return {(e.doc_id, e.text) for e in evidence}


def template_globals() -> dict[str, Any]:
    """What every format of the report says besides its data: the signature that keeps the tool
    from ingesting its own report, the commands to paste, what trust is."""
    return {
        "report_signature": Markup(REPORT_SIGNATURE),
        "install_command": install_command,
        "install_from_file": INSTALL_FROM_FILE,
        "fill_command": command("translate"),
        "trust_explained": TRUST_EXPLAINED,
    }
