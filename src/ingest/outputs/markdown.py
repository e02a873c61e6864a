"""The consistency report as Markdown (also the Prefect artifact).

Document text in Markdown must not become markup where the report is rendered (Prefect
artifacts): no HTML tags, no inline links or images (which would load from the network).
"""

from __future__ import annotations

from typing import Any

from ..errors import install_hint
from .data import ReportData, subject_title

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
        out.append(f"- **{_md_cell(subject_title(row))}**, {_md_cell(row['attribute'])}: {_md_cell(row['kind'])} — "
                   f"{_md_cell(row['explanation'])}")
        out += _md_evidence(row, "a") + _md_evidence(row, "b")
    if not data.contradictions:
        out.append("None found.")
    out += ["", f"## Notes: same value, different qualifier or baseline ({len(data.notes)})", ""]
    out += [f"- {_md_cell(subject_title(r))}, {_md_cell(r['attribute'])} {_md_cell(r['value_a'])}: "
            f"{_md_cell(r['explanation'])}" for r in data.notes]
    out += ["", f"## Corroborations ({len(data.corroborations)})", ""]
    for row in data.corroborations:
        outliers = f"; outlier(s): {_md_cell(', '.join(row['outliers']))}" if row["outliers"] else ""
        out.append(f"- {_md_cell(subject_title(row))}, {_md_cell(row['attribute'])} = {_md_cell(row['value'])}: "
                   f"{_md_cell(', '.join(row['documents']))}{outliers}")
    if data.release_notes:
        out += ["", "## Header and body name different releases", ""]
        out += [f"- {_md_cell(r['doc_id'])}: {_md_cell(r['release_note'])}" for r in data.release_notes]
    out += ["", "## Translation", "", ", ".join(f"{k}: {v}" for k, v in sorted(data.translation.items(), key=str))]
    for pair in data.missing_pairs:
        lang = pair.split("->")[0]
        out.append(f"- no package for {pair}: {install_hint(lang)}")
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
