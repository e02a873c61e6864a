"""The consistency report: Markdown, self-contained escaped HTML."""

from __future__ import annotations

import re

from ingest import outputs
from ingest.outputs.html import render_html


def test_markdown_and_html_name_the_contradictions(seeded_con):
    data = outputs.collect(seeded_con)
    markdown = outputs.render_markdown(data)
    assert "## Contradictions (2)" in markdown
    assert "ベータ機能として" in markdown and "[Prototype] FlexAttention" in markdown
    page = render_html(data)
    assert "FlexAttention" in page and "<script" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page)


def test_html_escapes_document_text():
    row = {"subject": "flexattention", "release": "pytorch 2.5", "attribute": "maturity", "kind": "k",
           "explanation": "<b>x</b>", "doc_a": "a", "doc_b": "b", "value_a": "beta", "value_b": "prototype",
           "evidence_a": '<script>alert(1)</script>', "evidence_b": '"><img src=x onerror=alert(1)>',
           "evidence_en_a": None, "evidence_en_b": None}
    data = outputs.ReportData("now", [], [row], [], [], [], {}, [], [], None)
    page = render_html(data)
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;" in page
