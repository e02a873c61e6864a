"""The consistency report as a self-contained HTML page.

Every piece of document text goes through html.escape, and the page loads nothing from
the network (inline CSS, no scripts, no images; CSP default-src 'none').
"""

from __future__ import annotations

import html
from typing import Any

from ..errors import INSTALL_FROM_FILE, install_command
from .data import ReportData, subject_title

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
        parts.append(f'<div class="contradiction"><p><b>{_e(subject_title(row))}</b>, {_e(row["attribute"])}: '
                     f'{_e(row["kind"])} — {_e(row["explanation"])}</p>'
                     f'{_html_evidence(row, "a")}{_html_evidence(row, "b")}</div>')
    parts.append(f"<h2>Notes ({len(data.notes)})</h2><ul>")
    parts += [f"<li>{_e(subject_title(r))}, {_e(r['attribute'])} {_e(r['value_a'])}: {_e(r['explanation'])}</li>"
              for r in data.notes]
    parts.append(f"</ul><h2>Corroborations ({len(data.corroborations)})</h2><ul>")
    parts += [f"<li>{_e(subject_title(r))}, {_e(r['attribute'])} = {_e(r['value'])}: {_e(', '.join(r['documents']))}"
              + (f"; outlier(s): {_e(', '.join(r['outliers']))}" if r["outliers"] else "") + "</li>"
              for r in data.corroborations]
    parts.append("</ul><h2>Translation</h2><ul>")
    parts += [f"<li>{_e(k)}: {_e(v)}</li>" for k, v in sorted(data.translation.items(), key=str)]
    parts += [f"<li>no package for {_e(p)}: install one with <code>{_e(install_command(p.split('->')[0]))}</code> "
              f"(online) or <code>{_e(INSTALL_FROM_FILE)}</code></li>" for p in data.missing_pairs]
    parts.append("</ul><h2>Documents</h2><table><tr><th>doc</th><th>lang</th><th>title</th><th>published</th>"
                 "<th>release</th><th>status</th><th>error</th></tr>")
    for d in data.documents:
        cells = (d["doc_id"], d["lang_variant"] or d["lang"], d["title"], d["published_at"], d["release"],
                 d["status"], d["error"])
        parts.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    parts.append("</table></body></html>")
    return "\n".join(parts)
