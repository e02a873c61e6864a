"""The data behind the consistency report, read from the warehouse once for every format.

One `Finding` per subject, attribute and release (however many groups of documents disagree),
or per changed figure across the renderings of one article; each names the value of every
side, the documents that state it and their sentences (with the English rendering), the
arbiter's verdict and a confidence. Corroborations and notes keep their evidence too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import duckdb

from ..check.thresholds import ALIGNED_CONTRADICTION_CONFIDENCE
from ..extract.glossary import subject_label
from ..extract.reader import MODEL, MULTIPLIER, PERCENT, QUANTITIES
from ..records import utc_now
from ..translate.waiting import untranslated
from ..warehouse import dicts, scalar
from .findings import EVIDENCE_SHOWN, Corroboration, Evidence, Finding, Note, ReportData, Side, Summary


def generated_at() -> str:
    return utc_now().strftime("%Y-%m-%d %H:%M UTC")


def readable_subject(subject: str | None) -> str:
    return subject_label(subject) if subject else "the same sentence"


class _Reader:
    """What the report reads, with the documents' titles at hand."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.documents = dicts(
            con,
            "SELECT doc_id, path, lang, lang_variant, title, published_at, release, status, error FROM documents ORDER BY doc_id",
        )
        self.titles = {d["doc_id"]: d["title"] for d in self.documents}
        self._claims: dict[str, dict[str, Any]] = {}  # claim_id -> its sentence (`read_claims`)
        self._conflicts: list[dict[str, Any]] | None = None

    def conflicts(self) -> list[dict[str, Any]]:
        """The `conflicts` view, computed once for the findings and the notes (16 s at 10,000 documents)."""
        if self._conflicts is None:
            order = "subject, attribute, doc_a, doc_b, value_a, value_b"
            self._conflicts = dicts(self.con, f"SELECT * FROM conflicts ORDER BY {order}")
        return self._conflicts

    def evidence(self, doc_id: str, text: str | None, text_en: str | None, status: str | None = None) -> Evidence:
        return Evidence(
            doc_id,
            self.titles.get(doc_id),
            text or "",
            text_en if text_en != text else None,
            machine=status in (None, "translated", "cached"),
        )

    def read_claims(self, claim_ids: Iterable[str]) -> None:
        """Read the sentences of these claims in one query (a report shows tens of thousands: one
        query each scanned the claims that often)."""
        missing = sorted({i for i in claim_ids if i not in self._claims})
        if missing:
            rows = dicts(
                self.con,
                "SELECT c.claim_id, c.doc_id, c.seg_idx, c.evidence, c.evidence_en, s.translation_status FROM claims c "
                "LEFT JOIN segments s ON s.doc_id = c.doc_id AND s.seg_idx = c.seg_idx "
                "WHERE c.claim_id IN (SELECT unnest(?::VARCHAR[]))",
                [missing],
            )
            self._claims.update((r["claim_id"], r) for r in rows)

    def claim_evidence(self, claim_ids: Iterable[str]) -> list[Evidence]:
        """The sentence of every claim, one per document."""
        ids = list(claim_ids)
        self.read_claims(ids)
        rows = sorted((self._claims[i] for i in ids if i in self._claims), key=lambda r: (r["doc_id"], r["seg_idx"]))
        first = {r["doc_id"]: r for r in reversed(rows)}
        return [self.evidence(d, r["evidence"], r["evidence_en"], r["translation_status"]) for d, r in sorted(first.items())]


# The fidelity issues the report lists (all are in the `translation_issues` table).
SHOWN_ISSUES = 200


def collect(con: duckdb.DuckDBPyConnection, summary_line: str | None = None) -> ReportData:
    """Read everything the report shows from the warehouse; the missing translation pairs are
    those of the stored segments that wait for a package. Besides the list of documents, only
    `ok` documents are read: a gone file's rows stay until `ingest prune`."""
    reader = _Reader(con)
    contradictions = _claim_findings(reader) + _rendering_findings(reader)
    contradictions.sort(key=lambda f: (not f.likely, f.subject, f.attribute, f.release or ""))
    corroborations = _corroborations(reader)
    notes = _notes(reader)
    sources = dicts(
        con, "SELECT source_id, documents, n_documents, trust, checked, agreeing FROM sources ORDER BY trust, source_id"
    )
    issues = dicts(
        con,
        "SELECT t.* FROM translation_issues t JOIN documents d USING (doc_id) "
        "WHERE d.status = 'ok' ORDER BY t.doc_id, t.seg_idx LIMIT ?",
        [SHOWN_ISSUES],
    )
    # A package is asked for only for a language documents are written in.
    written, stray = untranslated(con)
    missing = [f"{lang}->en" for lang in written]
    ok = [d for d in reader.documents if d["status"] == "ok"]
    languages: dict[str, int] = defaultdict(int)
    for document in ok:
        languages[document["lang_variant"] or document["lang"] or "und"] += 1
    summary = Summary(
        documents=len(reader.documents),
        languages=dict(sorted(languages.items())),
        sources=len(sources) or len(ok),
        likely=sum(f.likely for f in contradictions),
        possible=sum(not f.likely for f in contradictions),
        corroborations=len(corroborations),
        notes=len(notes),
        fidelity_issues=scalar(
            con, "SELECT count(*) FROM translation_issues t JOIN documents d USING (doc_id) WHERE d.status = 'ok'"
        ),
        failures=sum(d["status"] == "failed" for d in reader.documents),
    )
    return ReportData(
        generated_at=generated_at(),
        summary=summary,
        contradictions=contradictions,
        corroborations=corroborations,
        notes=notes,
        sources=sources,
        documents=reader.documents,
        release_notes=dicts(
            con, "SELECT doc_id, release_note FROM documents WHERE release_note IS NOT NULL AND status = 'ok' ORDER BY doc_id"
        ),
        translation=dict(
            con.execute(
                "SELECT s.translation_status, count(*) FROM segments s JOIN documents d "
                "USING (doc_id) WHERE d.status = 'ok' GROUP BY 1 ORDER BY 1"
            ).fetchall()
        ),
        translation_issues=issues,
        missing_pairs=missing,
        stray_languages=stray,
        summary_line=summary_line,
        titles=reader.titles,
    )


def _claim_findings(reader: _Reader) -> list[Finding]:
    """One finding per subject, attribute and scope that has disagreeing groups of documents.

    Its sides are every value stated for that key (under the same conditions and baseline), each
    with all the documents stating it: the counts the arbiter's verdict gives. A document that
    states two values is on both sides.
    """
    grouped: dict[tuple, list[dict]] = defaultdict(list)
    for row in reader.conflicts():
        if row["kind"] in ("maturity_conflict", "value_conflict"):
            grouped[(row["subject"], row["attribute"], row["scope"])].append(row)
    stated = _stated(reader, grouped)
    findings = []
    for (subject, attribute, scope), members in grouped.items():
        qualified = {(r["conditions"], r["baseline"]) for r in members}
        statements = _key_statements(reader, stated[(subject, attribute, scope)], qualified)
        arbiter = next((r["arbiter"] for r in members if r["arbiter"]), None)
        supported = next((r["supported"] for r in members if r["supported"]), None)
        findings.append(
            Finding(
                members[0]["kind"],
                readable_subject(subject),
                attribute,
                members[0]["release"],
                None,
                max(r["confidence"] or 0.0 for r in members),
                [
                    Side(value, documents, evidence, value == supported)
                    for value, (documents, evidence) in sorted(statements.items(), key=lambda kv: (-len(kv[1][0]), kv[0]))
                ],
                arbiter,
                "contradiction" if any(r["severity"] == "contradiction" for r in members) else "possible",
            )
        )
    return findings


def _stated(reader: _Reader, keys: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """What every document states for each (subject, attribute, scope) key, read in one query (one
    per key made the report of 10,000 documents wait minutes on the claim clusters)."""
    wanted = set(keys)
    rows = dicts(
        reader.con,
        "SELECT key_subject, attribute, scope, value, doc_id, conditions, baseline, arg_min(claim_id, seg_idx) AS claim_id "
        "FROM claim_clusters WHERE key_subject IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL ORDER BY doc_id",
        [sorted({subject for subject, _, _ in wanted})],
    )
    stated: dict[tuple[str, str, str], list[dict[str, Any]]] = {key: [] for key in wanted}
    for row in rows:
        key = (row["key_subject"], row["attribute"], row["scope"])
        if key in wanted:
            stated[key].append(row)
    reader.read_claims(row["claim_id"] for rows in stated.values() for row in rows)
    return stated


def _key_statements(
    reader: _Reader, rows: list[dict[str, Any]], qualified: set[tuple[str | None, str | None]]
) -> dict[str, tuple[list[str], list[Evidence]]]:
    """value -> (every document that states it for the key (`rows`, from `_stated`) under the given
    (conditions, baseline) pairs, the sentences of the first EVIDENCE_SHOWN of them)."""
    by_value: dict[str, dict[str, str]] = defaultdict(dict)
    for row in rows:
        if (row["conditions"], row["baseline"]) in qualified:
            by_value[row["value"]].setdefault(row["doc_id"], row["claim_id"])
    return {
        value: (list(claims), reader.claim_evidence(list(claims.values())[:EVIDENCE_SHOWN])) for value, claims in by_value.items()
    }


def _rendering_findings(reader: _Reader) -> list[Finding]:
    """One finding per changed figure: the mentions that pairs of renderings match, joined."""
    rows = dicts(
        reader.con,
        "SELECT m.*, sa.translation_status AS status_a, sb.translation_status AS status_b "
        "FROM mismatches m "
        "JOIN segments sa ON sa.doc_id = m.doc_a AND sa.seg_idx = m.seg_a "
        "JOIN segments sb ON sb.doc_id = m.doc_b AND sb.seg_idx = m.seg_b "
        "ORDER BY m.doc_a, m.seg_a, m.doc_b",
    )
    originals = {
        r["doc_id"]: r["original"]
        for r in dicts(
            reader.con,
            "SELECT r.doc_id, o.doc_id AS original FROM renderings r JOIN renderings o ON o.group_id = r.group_id AND o.original",
        )
    }
    parent: dict[tuple, tuple] = {}

    def root(node: tuple) -> tuple:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for row in rows:
        a, b = (row["doc_a"], row["seg_a"], row["mention_a"]), (row["doc_b"], row["seg_b"], row["mention_b"])
        parent[root(a)] = root(b)
    figures: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        figures[root((row["doc_a"], row["seg_a"], row["mention_a"]))].append(row)
    findings = []
    for members in figures.values():
        sides: dict[str, dict[str, Evidence]] = defaultdict(dict)
        for row in members:
            for side in ("a", "b"):
                sides[row["text_" + side]][row["doc_" + side]] = reader.evidence(
                    row["doc_" + side], row["evidence_" + side], row["evidence_en_" + side], row["status_" + side]
                )
        best = max(members, key=lambda r: r["confidence"] or 0.0)
        supported = {best["text_a"]: best["supported"] == "a", best["text_b"]: best["supported"] == "b"}
        english = {
            row["text_" + side]: english_value(row["kind"], row["text_" + side], row["norm_" + side])
            for row in members
            for side in ("a", "b")
        }
        findings.append(
            Finding(
                "aligned_value_mismatch",
                _article(reader, originals, [doc for row in members for doc in (row["doc_a"], row["doc_b"])]),
                best["unit_a"] or best["unit_b"] or best["kind"],
                None,
                best["change"],
                best["confidence"] or 0.0,
                [
                    Side(
                        value,
                        sorted(evidence),
                        [evidence[d] for d in sorted(evidence)],
                        supported.get(value, False),
                        english.get(value),
                    )
                    for value, evidence in sides.items()
                ],
                best["arbiter"],
                "contradiction" if (best["confidence"] or 0.0) >= ALIGNED_CONTRADICTION_CONFIDENCE else "possible",
            )
        )
    return findings


def _article(reader: _Reader, originals: dict[str, str], documents: Sequence[str]) -> str:
    """What a finding between renderings is about: the article, by the title of its group's
    original (`originals`: document -> its group's original), else of its first document."""
    named = sorted({originals[d] for d in documents if d in originals}) + sorted(set(documents))
    title = next((reader.titles[d] for d in named if reader.titles.get(d)), None)
    return f"renderings of “{title}”" if title else "renderings of one article"


def english_value(kind: str | None, text: str | None, norm: str | None) -> str | None:
    """A figure in one notation whatever the language it was written in ("三百万" -> "3,000,000",
    "2024年10月17日" -> "2024-10-17", "BART-460M" -> "bart, 460,000,000"); None when that is how it is
    written. The counted noun is the finding's attribute, not repeated here."""
    if not norm:
        return None
    if kind == MODEL and "@" in norm:
        name, _, size = norm.partition("@")
        english = f"{name}, {_grouped(size)}"
    elif kind in QUANTITIES:
        english = "–".join(_grouped(part) for part in norm.split("-")) if not norm.startswith("-") else _grouped(norm)
        english += {PERCENT: " %", MULTIPLIER: "x"}.get(kind, "")
    else:
        english = norm
    written = "".join((text or "").split()).casefold().replace(",", "")
    return None if "".join(english.split()).casefold().replace(",", "") == written else english


def _grouped(number: str) -> str:
    """A canonical number with thousands separators ("30000000" -> "30,000,000", "2.5" stays)."""
    try:
        value = float(number)
    except ValueError:
        return number
    return f"{int(value):,}" if value.is_integer() and abs(value) < 1e21 else f"{value:,}"


def _corroborations(reader: _Reader) -> list[Corroboration]:
    rows = dicts(
        reader.con,
        "SELECT * FROM corroborations ORDER BY n_sources DESC, n_documents DESC, subject, attribute, release, scope, value",
    )
    reader.read_claims(i for r in rows for i in r["claim_ids"][:EVIDENCE_SHOWN])
    return [
        Corroboration(
            readable_subject(r["subject"]),
            r["attribute"],
            r["release"],
            r["value"],
            r["n_documents"],
            r["n_sources"],
            reader.claim_evidence(r["claim_ids"][:EVIDENCE_SHOWN]),
            list(r["outliers"] or []),
        )
        for r in rows
    ]


def _notes(reader: _Reader) -> list[Note]:
    rows = [r for r in reader.conflicts() if r["severity"] == "note"]
    return [
        Note(
            readable_subject(r["subject"]),
            r["attribute"],
            r["release"],
            r["explanation"],
            [
                reader.evidence(r["doc_a"], r["evidence_a"], r["evidence_en_a"]),
                reader.evidence(r["doc_b"], r["evidence_b"], r["evidence_en_b"]),
            ],
        )
        for r in rows
    ]


def conflict_table(data: ReportData) -> list[dict[str, str]]:
    """The contradictions and notes as rows of a table artifact, each row one pair: what side A
    says, in which document and sentence, against side B.

    A contradiction's first side (the most documents) is paired with each other side, so every
    value it names appears; a side shows its first document's sentence (with its English when it
    was translated) and how many documents state it. A note is the pair of sentences it compares.
    """
    rows = []
    for finding in data.contradictions:
        first, *others = finding.sides
        for other in others:
            rows.append(
                {
                    "severity": f"{'likely' if finding.likely else 'possible'} contradiction",
                    "subject": finding.subject,
                    "attribute": finding.attribute,
                    "release": finding.release or "",
                    **_table_side("a", first.value, first.documents, first.evidence),
                    **_table_side("b", other.value, other.documents, other.evidence),
                    "confidence": f"{finding.confidence:.2f}",
                    "explanation": finding.arbiter or "",
                }
            )
    for note in data.notes:
        sides = [_table_side(name, "", [e.doc_id], [e]) for name, e in zip("ab", note.evidence)]
        rows.append(
            {
                "severity": "note",
                "subject": note.subject,
                "attribute": note.attribute,
                "release": note.release or "",
                **{k: v for side in sides for k, v in side.items()},
                "confidence": "",
                "explanation": note.explanation,
            }
        )
    return rows or [{"result": "no contradictions and no notes"}]


def _table_side(name: str, value: str, documents: list[str], evidence: list[Evidence]) -> dict[str, str]:
    shown = evidence[0] if evidence else None
    return {
        f"value_{name}": value,
        f"documents_{name}": str(len(documents)),
        f"doc_{name}": shown.doc_id if shown else (documents[0] if documents else ""),
        f"evidence_{name}": shown.text if shown else "",
        f"evidence_en_{name}": (shown.text_en or "") if shown else "",
    }
