"""The consistency report: a summary first, one entry per contradiction with its sides, the same
data in Markdown and HTML, every piece of document text escaped."""

from __future__ import annotations

import re

import pytest

from ingest import outputs
from ingest.outputs.findings import Evidence, Finding, ReportData, Side, Summary
from ingest.outputs.html import render_html
from report_text import markdown_text as _text


def test_markdown_and_html_name_the_contradictions(seeded_con):
    data = outputs.collect(seeded_con)
    assert data.summary.likely == 2 and data.summary.documents == 4
    shown = _text(outputs.render_markdown(data))
    assert "ベータ機能として" in shown and "[Prototype] FlexAttention" in shown
    page = render_html(data)
    assert "FlexAttention" in page and page.count("<script") == 1  # the report's own (test_security.py checks it)
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page)


def test_one_entry_per_subject_attribute_and_release_with_every_side(seeded_con):
    data = outputs.collect(seeded_con)
    flex = [f for f in data.contradictions if f.subject == "FlexAttention"]
    assert len(flex) == 1
    assert {side.value for side in flex[0].sides} == {"beta", "prototype"}
    assert all(side.evidence and side.evidence[0].text for side in flex[0].sides)
    assert flex[0].arbiter.startswith("undecided")


def test_summary_comes_first_and_both_formats_hold_the_same_sections(seeded_con):
    data = outputs.collect(seeded_con)
    markdown, page = outputs.render_markdown(data), render_html(data)
    sections = ["Summary", "Contradictions", "Corroborations", "Notes", "Sources", "Translation", "Fidelity issues", "Documents"]
    assert [markdown.index(f"## {name}" if name != "Fidelity issues" else "### Fidelity") for name in sections] == sorted(
        markdown.index(f"## {name}" if name != "Fidelity issues" else "### Fidelity") for name in sections
    )
    for name in sections:
        assert name in page


def _finding(text: str) -> ReportData:
    evidence = [Evidence("a", "<b>title</b>", text, None, False)]
    finding = Finding(
        "maturity_conflict",
        "flexattention",
        "maturity",
        "pytorch 2.5",
        None,
        1.0,
        [Side("beta", ["a"], evidence), Side("<i>prototype</i>", ["b"], [])],
        "undecided",
        "contradiction",
    )
    summary = Summary(2, {"ja": 2}, 2, 1, 0, 0, 0, 0, 0)
    return ReportData("now", summary, [finding], [], [], [], [], [], {}, [], [])


def test_html_escapes_document_text():
    page = render_html(_finding('<script>alert(1)</script>"><img src=x onerror=alert(1)>'))
    assert "<script>alert" not in page and "<img src=x" not in page and "<i>prototype" not in page
    assert "&lt;script&gt;" in page and "&lt;b&gt;title&lt;/b&gt;" in page


def test_a_machine_translation_is_shown_beside_its_sentence_not_folded_away():
    data = _finding("FlexAttentionはベータ機能です。")
    data.contradictions[0].sides[0].evidence[0] = Evidence(
        "a", None, "FlexAttentionはベータ機能です。", "FlexAttention is a beta feature.", True
    )
    page = render_html(data)
    sentence = page[page.index("FlexAttentionはベータ機能です。") :]
    shown = sentence[: sentence.index("</div>")]
    assert "FlexAttention is a beta feature." in shown and "(machine translation)" in shown and "<details>" not in shown


def test_the_install_hint_is_two_separate_commands_in_html():
    data = _finding("x")
    data.missing_pairs = ["ja->en"]
    page = render_html(data)
    assert "<code>uv run ingest models install ja</code>" in page
    assert "<code>uv run ingest models install --from PATH.argosmodel</code>" in page


@pytest.mark.slow
def test_the_report_stays_readable_at_1000_documents(bench_1000):
    """Bench corpus: bounded page sizes and line lengths, one entry per subject/attribute/release,
    at most EVIDENCE_SHOWN sentences per side while every document is still named."""
    from ingest import warehouse
    from ingest.outputs.findings import EVIDENCE_SHOWN

    markdown = (bench_1000.reports / "consistency.md").read_text("utf-8")
    page = (bench_1000.reports / "consistency.html").read_text("utf-8")
    assert len(page) < 3_000_000 and len(markdown) < 1_500_000
    assert max(map(len, markdown.splitlines())) < 1_000
    con = warehouse.connect(bench_1000.db, read_only=True)
    data = outputs.collect(con)
    con.close()
    keys = [(f.subject, f.attribute, f.release, f.change) for f in data.contradictions if f.kind != "aligned_value_mismatch"]
    assert len(keys) == len(set(keys)) and len(keys) > 20
    for finding in data.contradictions:
        assert len(finding.sides) >= 2
        for side in finding.sides:
            assert 1 <= len(side.evidence) <= EVIDENCE_SHOWN and len(side.documents) >= len(side.evidence)
    assert page.count('class="card ') == len(data.contradictions)


def test_translation_section_asks_for_packages_of_document_languages_and_says_what_it_caps(
    seeded_warehouse, tmp_path, monkeypatch
):
    """A segment detected as Catalan in a Japanese article (a name, a short heading) asks for no
    ca->en package; a capped list of fidelity issues says how many it shows."""
    import shutil

    from ingest import warehouse
    from ingest.outputs import data as report_data

    db = tmp_path / "w.duckdb"
    shutil.copy(seeded_warehouse, db)
    con = warehouse.connect(db)
    doc = con.execute("SELECT doc_id FROM documents WHERE lang = 'ja' ORDER BY 1 LIMIT 1").fetchone()[0]
    con.execute(
        "UPDATE segments SET lang = 'ca', translation_status = 'untranslated' "
        "WHERE doc_id = ? AND seg_idx = (SELECT min(seg_idx) FROM segments WHERE doc_id = ?)",
        [doc, doc],
    )
    con.execute("INSERT INTO translation_issues SELECT ?, i, 'number', '3', 'dropped' FROM range(3) t(i)", [doc])
    monkeypatch.setattr(report_data, "SHOWN_ISSUES", 2)
    data = outputs.collect(con)
    con.close()
    stray = data.stray_languages.get("ca")
    assert "ca->en" not in data.missing_pairs and "ja->en" in data.missing_pairs and list(data.stray_languages) == ["ca"]
    for shown in (_text(outputs.render_markdown(data)), render_html(data)):
        assert "no package for ca" not in shown and f"detected as ca ({stray})" in shown
        assert "Fidelity issues (2 of 3 shown" in shown


@pytest.mark.parametrize(
    ("kind", "written", "norm", "english"),
    [
        ("number", "三百万", "3000000", "3,000,000"),
        ("number", "30 million", "30000000", "30,000,000"),
        ("number", "20 亿", "2000000000", "2,000,000,000"),
        ("date", "2024年10月17日", "2024-10-17", "2024-10-17"),
        ("model", "BART-460M", "bart@460000000", "bart, 460,000,000"),
        ("number", "101~200", "101-200", "101–200"),
        ("multiplier", "twice", "2", "2x"),
        ("number", "1,000", "1000", None),
        ("percent", "75%", "75", None),
        ("version", "1.0.0rc1", "1.0.0rc1", None),
    ],
)
def test_a_figure_is_shown_in_one_notation_beside_how_it_is_written(kind, written, norm, english):
    from ingest.outputs.data import english_value

    assert english_value(kind, written, norm) == english


def test_findings_between_renderings_name_the_article_and_show_values_in_one_notation(tmp_path):
    """A changed figure between two renderings is titled by the article and shows '三百万 (= 3,000,000)'."""
    from ingest import run_pipeline

    folder = tmp_path / "in"
    folder.mkdir()
    english = (
        "# SmolLM release\n\nThe corpus holds 30 million textbooks, made by Mixtral for SmolLM and the "
        "SmolLM-Corpus. It was trained on 600B tokens with 64 H100 GPUs in 1 day, at "
        "https://huggingface.co/blog/smollm and https://github.com/huggingface/smollm.\n\n"
        "SmolLM comes in 135M, 360M and 1.7B sizes.\n\nSmolLM is released under the Apache 2.0 license.\n"
    )
    chinese = (
        "# SmolLM 发布\n\n该语料库包含三百万本教科书, 由 Mixtral 为 SmolLM 和 SmolLM-Corpus 生成。它在 64 个 H100 GPU 上"
        "用 1 天训练了 600B tokens, 见 https://huggingface.co/blog/smollm 和 https://github.com/huggingface/smollm。\n\n"
        "SmolLM 有 135M、360M 和 1.7B 三种规模。\n\nSmolLM 以 Apache 2.0 许可证发布。\n"
    )
    (folder / "en.md").write_text(english, "utf-8")
    (folder / "zh.md").write_text(chinese, "utf-8")
    run_pipeline([folder], tmp_path / "w.duckdb", tmp_path / "reports")
    markdown = (tmp_path / "reports" / "consistency.md").read_text("utf-8")
    page = (tmp_path / "reports" / "consistency.html").read_text("utf-8")
    assert "renderings of “SmolLM release”" in markdown and "**三百万** (= 3,000,000)" in markdown
    assert "= 3,000,000</span>" in page and "= 30,000,000</span>" in page


def test_a_finding_says_what_its_certainty_is_about_and_trust_is_explained(seeded_con):
    """'confidence 1.00' beside 'undecided' read as a sure verdict: the certainty is that both sides
    state one fact, the verdict which side the sources support; trust gets one sentence."""
    from ingest.check.truth import TRUST_EXPLAINED

    data = outputs.collect(seeded_con)
    markdown, page = _text(outputs.render_markdown(data)), render_html(data)
    assert "state one fact (subject, attribute, release): 1.00" in markdown and "The sources' verdict: undecided" in markdown
    assert "one fact, certainty 1.00" in page and "The sources' verdict: undecided" in page
    assert "confidence 1.00" not in markdown + page
    assert TRUST_EXPLAINED in markdown.replace("\\", "") and TRUST_EXPLAINED.replace("'", "&#39;") in page


def test_what_the_previous_report_in_the_folder_did_not_have_is_marked_new(tmp_path):
    from ingest.outputs.files import FINDINGS_FILE, write_report_files
    from ingest.outputs.findings import Corroboration

    def corroboration(value: str) -> Corroboration:
        return Corroboration("flexattention", "speedup", "pytorch 2.5", value, 2, 2, [], [])

    first = _finding("x")
    write_report_files(first, tmp_path)
    assert first.previous_report is None and first.new_findings == 0  # nothing to compare with
    markdown = (tmp_path / "consistency.md").read_text("utf-8")
    assert "(new)" not in markdown and "New since" not in markdown

    second = _finding("x")
    second.generated_at = "later"
    second.corroborations = [corroboration("2x")]
    write_report_files(second, tmp_path)
    assert second.previous_report == "now" and second.new_findings == 1 and second.corroborations[0].new
    assert not second.contradictions[0].new
    markdown, page = ((tmp_path / name).read_text("utf-8") for name in ("consistency.md", "consistency.html"))
    assert "New since the report of now: 1" in markdown and "(new) flexattention, speedup" in markdown
    assert page.count('class="new"') == 1 and '<option value="new">' in page

    third = _finding("x")
    third.corroborations = [corroboration("2x")]
    write_report_files(third, tmp_path)
    assert third.previous_report == "later" and third.new_findings == 0

    (tmp_path / FINDINGS_FILE).write_text("{not json", "utf-8")  # unreadable: nothing is called new
    fourth = _finding("x")
    write_report_files(fourth, tmp_path)
    assert fourth.previous_report is None and fourth.new_findings == 0
