"""The consistency report: Markdown, a self-contained HTML page, and the data behind both.

Every piece of document text in the HTML page goes through html.escape, and the
page loads nothing from the network (inline CSS, no scripts, no images).
"""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from .claims import subject_label

if TYPE_CHECKING:
    from .pipeline import RunSummary

_INSTALL_HINT = "ingest models install {lang}` (online) or `ingest models install --from PATH.argosmodel"


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


def _dicts(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def collect(con: duckdb.DuckDBPyConnection, summary: RunSummary | None = None) -> ReportData:
    """Read everything the report shows from the warehouse."""
    conflicts = _dicts(con, "SELECT * FROM conflicts ORDER BY severity, subject, attribute, doc_a, doc_b")
    missing = summary.missing_pairs if summary else sorted(
        {f"{r['lang']}->en" for r in _dicts(con, "SELECT DISTINCT lang FROM segments WHERE translation_status = 'untranslated'")})
    return ReportData(
        generated_at=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        documents=_dicts(con, "SELECT doc_id, lang, lang_variant, title, published_at, release, status, error "
                              "FROM documents ORDER BY doc_id"),
        contradictions=[c for c in conflicts if c["severity"] == "contradiction"],
        notes=[c for c in conflicts if c["severity"] != "contradiction"],
        corroborations=_dicts(con, "SELECT * FROM corroborations ORDER BY n_documents DESC, subject, attribute"),
        release_notes=_dicts(con, "SELECT doc_id, release_note FROM documents WHERE release_note IS NOT NULL"),
        translation=dict(con.execute("SELECT translation_status, count(*) FROM segments GROUP BY 1").fetchall()),
        translation_issues=_dicts(con, "SELECT * FROM translation_issues ORDER BY doc_id, seg_idx LIMIT 200"),
        missing_pairs=missing,
        summary_line=summary.line() if summary else None,
    )


def _subject(row: dict[str, Any]) -> str:
    subject = subject_label(row["subject"]) if row["subject"] else "aligned sentences"
    return f"{subject} ({row['release'] or 'no release'})"


def conflict_table(data: ReportData) -> list[dict[str, str]]:
    """Contradictions and notes as flat rows for a table artifact."""
    columns = ("kind", "severity", "subject", "attribute", "release", "doc_a", "value_a", "doc_b", "value_b",
               "explanation")
    rows = [{c: str(row[c]) for c in columns} for row in data.contradictions + data.notes]
    return rows or [{"result": "no conflicts"}]


# ---- Markdown -----------------------------------------------------------------------------

# Document text in Markdown must not become markup where the report is rendered (Prefect
# artifacts): no HTML tags, no inline links or images (which would load from the network).
_MD_ESCAPES = str.maketrans({"<": "&lt;", ">": "&gt;", "|": "\\|", "\n": " "})


def _md_cell(value: Any) -> str:
    return str(value if value is not None else "").translate(_MD_ESCAPES).replace("](", "]\\(")


def _md_evidence(row: dict[str, Any], side: str) -> list[str]:
    lines = [f"  - {_md_cell(row['doc_' + side])}: {_md_cell(row['evidence_' + side])}"]
    if row.get("evidence_en_" + side):
        lines.append(f"    - en: {_md_cell(row['evidence_en_' + side])}")
    return lines


def render_markdown(data: ReportData) -> str:
    out = ["# Consistency report", "", f"Generated {data.generated_at}."]
    if data.summary_line:
        out += ["", f"Last run: {data.summary_line}."]
    out += ["", f"## Contradictions ({len(data.contradictions)})", ""]
    for row in data.contradictions:
        out.append(f"- **{_md_cell(_subject(row))}**, {_md_cell(row['attribute'])}: {_md_cell(row['kind'])} — "
                   f"{_md_cell(row['explanation'])}")
        out += _md_evidence(row, "a") + _md_evidence(row, "b")
    if not data.contradictions:
        out.append("None found.")
    out += ["", f"## Notes: same value, different qualifier or baseline ({len(data.notes)})", ""]
    out += [f"- {_md_cell(_subject(r))}, {_md_cell(r['attribute'])} {_md_cell(r['value_a'])}: "
            f"{_md_cell(r['explanation'])}" for r in data.notes]
    out += ["", f"## Corroborations ({len(data.corroborations)})", ""]
    for row in data.corroborations:
        outliers = f"; outlier(s): {_md_cell(', '.join(row['outliers']))}" if row["outliers"] else ""
        out.append(f"- {_md_cell(_subject(row))}, {_md_cell(row['attribute'])} = {_md_cell(row['value'])}: "
                   f"{_md_cell(', '.join(row['documents']))}{outliers}")
    if data.release_notes:
        out += ["", "## Header and body name different releases", ""]
        out += [f"- {_md_cell(r['doc_id'])}: {_md_cell(r['release_note'])}" for r in data.release_notes]
    out += ["", "## Translation", "", ", ".join(f"{k}: {v}" for k, v in sorted(data.translation.items(), key=str))]
    for pair in data.missing_pairs:
        lang = pair.split("->")[0]
        out.append(f"- no package for {pair}: install with `{_INSTALL_HINT.format(lang=lang)}`")
    if data.translation_issues:
        out += ["", f"### Fidelity issues ({len(data.translation_issues)})", ""]
        out += [f"- {_md_cell(r['doc_id'])}#{r['seg_idx']} {_md_cell(r['kind'])}: expected {_md_cell(r['expected'])} "
                f"({_md_cell(r['detail'])})" for r in data.translation_issues]
    out += ["", "## Documents", "", "| doc | lang | title | published | release | status | error |",
            "|---|---|---|---|---|---|---|"]
    for d in data.documents:
        lang = d["lang_variant"] or d["lang"]
        out.append("| " + " | ".join(_md_cell(v) for v in (d["doc_id"], lang, d["title"], d["published_at"],
                                                          d["release"], d["status"], d["error"])) + " |")
    return "\n".join(out) + "\n"


# ---- HTML ---------------------------------------------------------------------------------

_CSS = """body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left}
.contradiction{border-left:4px solid #c0392b;padding-left:.8rem;margin:1rem 0}.ev{color:#444;font-size:.92rem}
.en{color:#666;font-style:italic}code{background:#f4f4f4;padding:0 .2rem}"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _html_evidence(row: dict[str, Any], side: str) -> str:
    english = row.get("evidence_en_" + side)
    en = f'<div class="en">en: {_e(english)}</div>' if english else ""
    return f'<div class="ev"><b>{_e(row["doc_" + side])}</b>: {_e(row["evidence_" + side])}{en}</div>'


def render_html(data: ReportData) -> str:
    parts = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
             '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
             f"<title>Consistency report</title><style>{_CSS}</style></head><body>",
             f"<h1>Consistency report</h1><p>Generated {_e(data.generated_at)}.</p>"]
    if data.summary_line:
        parts.append(f"<p>Last run: {_e(data.summary_line)}.</p>")
    parts.append(f"<h2>Contradictions ({len(data.contradictions)})</h2>")
    for row in data.contradictions:
        parts.append(f'<div class="contradiction"><p><b>{_e(_subject(row))}</b>, {_e(row["attribute"])}: '
                     f'{_e(row["kind"])} — {_e(row["explanation"])}</p>'
                     f'{_html_evidence(row, "a")}{_html_evidence(row, "b")}</div>')
    parts.append(f"<h2>Notes ({len(data.notes)})</h2><ul>")
    parts += [f"<li>{_e(_subject(r))}, {_e(r['attribute'])} {_e(r['value_a'])}: {_e(r['explanation'])}</li>"
              for r in data.notes]
    parts.append(f"</ul><h2>Corroborations ({len(data.corroborations)})</h2><ul>")
    parts += [f"<li>{_e(_subject(r))}, {_e(r['attribute'])} = {_e(r['value'])}: {_e(', '.join(r['documents']))}"
              + (f"; outlier(s): {_e(', '.join(r['outliers']))}" if r["outliers"] else "") + "</li>"
              for r in data.corroborations]
    parts.append("</ul><h2>Translation</h2><ul>")
    parts += [f"<li>{_e(k)}: {_e(v)}</li>" for k, v in sorted(data.translation.items(), key=str)]
    parts += [f"<li>no package for {_e(p)}: install with <code>{_e(_INSTALL_HINT.format(lang=p.split('->')[0]))}</code></li>"
              for p in data.missing_pairs]
    parts.append("</ul><h2>Documents</h2><table><tr><th>doc</th><th>lang</th><th>title</th><th>published</th>"
                 "<th>release</th><th>status</th><th>error</th></tr>")
    for d in data.documents:
        cells = (d["doc_id"], d["lang_variant"] or d["lang"], d["title"], d["published_at"], d["release"],
                 d["status"], d["error"])
        parts.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    parts.append("</table></body></html>")
    return "\n".join(parts)


def write_report_files(data: ReportData, reports_dir: str | Path) -> tuple[list[Path], str]:
    """consistency.md and consistency.html from collected data; their paths and the Markdown."""
    directory = Path(reports_dir)
    directory.mkdir(parents=True, exist_ok=True)
    markdown_path, page = directory / "consistency.md", directory / "consistency.html"
    markdown = render_markdown(data)
    markdown_path.write_text(markdown, "utf-8")
    page.write_text(render_html(data), "utf-8")
    return [markdown_path, page], markdown


def write_reports(con: duckdb.DuckDBPyConnection, reports_dir: str | Path,
                  summary: RunSummary | None = None) -> list[Path]:
    """Write consistency.md and consistency.html from the warehouse; return their paths."""
    return write_report_files(collect(con, summary), reports_dir)[0]
