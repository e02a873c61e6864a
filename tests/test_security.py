"""Document content must not do harm: the report escapes it and loads nothing, `ingest sql`
cannot change the warehouse (or any other file), and no shell ever sees a document string."""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hostile_fixtures import GOOD, snapshot
from ingest.cli import app
from seed_fixtures import ROOT

HOSTILE_NAME = "<svg onload=alert(1)>.txt"
SCRIPT = "<script>alert(2)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'
HOSTILE_ARTICLE = f"""<script>alert("title")</script> PyTorch 2.5

PyTorch 2.5では、{SCRIPT}{ATTRIBUTE}プロトタイプ機能として、FlexAttention APIが導入された。

PyTorch 2.5 は H100 で cuDNN SDPA を最大 75% 高速化した<iframe src="http://evil.example/"></iframe>'><a href="javascript:alert(3)">x</a>![t](https://evil.example/t.png)。
"""
# What the page is built from; anything else came from a document.
ALLOWED_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "h1",
    "h2",
    "h3",
    "p",
    "div",
    "b",
    "i",
    "em",
    "strong",
    "ul",
    "ol",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "code",
    "span",
    "br",
    "section",
    "details",
    "summary",
    "mark",
    "nav",
    "label",
    "input",
    "select",
    "option",
    "a",  # same-page links only (test_html_report_loads_nothing_from_the_network)
    "script",  # ours only, allowed by its hash (the same test)
}
LOADING_ATTRIBUTES = {"src", "href", "srcset", "action", "formaction", "data", "poster", "background", "xlink:href"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []
        self.style: list[str] = []
        self.scripts: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        self._in = tag if tag in ("style", "script") else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        {"style": self.style, "script": self.scripts}.get(self._in or "", self.text).append(data)


# An independent article that contradicts the hostile one (FlexAttention is beta, not a
# prototype, in PyTorch 2.5): too short to be taken for a rendering of it, so the contradiction
# is reported with both sentences as evidence.
COUNTERPART = "# PyTorch 2.5 のリリース\n\nFlexAttention はベータ版として提供されます。\n"


@pytest.fixture
def hostile_reports(case):
    (case.inputs / GOOD).unlink()  # the Japanese seed renders the same release notes as the hostile article
    case.add("000_counterpart.md", COUNTERPART)
    case.add(HOSTILE_NAME, HOSTILE_ARTICLE)
    case.run()
    # The payloads reached the report: a title, a file name and a contradiction's evidence.
    evidence = case.query(
        "SELECT evidence_b FROM conflicts WHERE doc_b = ? AND severity = 'contradiction'", [case.doc_id(HOSTILE_NAME)]
    )
    assert evidence and SCRIPT in evidence[0][0] and ATTRIBUTE in evidence[0][0]
    return case.reports


def test_html_report_escapes_every_piece_of_document_text(hostile_reports):
    page = (hostile_reports / "consistency.html").read_text("utf-8")
    parsed = _Page()
    parsed.feed(page)

    assert {tag for tag, _ in parsed.tags} <= ALLOWED_TAGS
    for raw in (SCRIPT, ATTRIBUTE, HOSTILE_NAME, '<script>alert("title")</script>', "<iframe", '<a href="javascript'):
        assert raw not in page
    assert not re.search(r'<a href="(?!#)', page)  # the page's own links stay on the page
    assert re.search(r"&lt;script&gt;alert\(2\)&lt;/script&gt;(?:&quot;|&#34;)&gt;&lt;img src=x onerror=alert\(1\)&gt;", page)
    assert "&lt;svg onload=alert(1)&gt;.txt" in page
    text = "".join(parsed.text)  # as a browser shows it: the payloads are visible text
    assert SCRIPT + ATTRIBUTE in text and HOSTILE_NAME in text


def test_html_report_loads_nothing_from_the_network(hostile_reports):
    page = (hostile_reports / "consistency.html").read_text("utf-8")
    parsed = _Page()
    parsed.feed(page)

    for tag, attrs in parsed.tags:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name)
            same_page_link = tag == "a" and name == "href" and (value or "").startswith("#")
            assert name not in LOADING_ATTRIBUTES or same_page_link, (tag, name, value)
            assert "http" not in (value or "").lower() or (name == "content" and tag == "meta"), (tag, name, value)
    assert not any(tag in ("link", "img", "iframe", "object", "embed", "base") for tag, _ in parsed.tags)
    css = "".join(parsed.style).lower()
    assert "url(" not in css and "@import" not in css
    csp = [dict(attrs) for tag, attrs in parsed.tags if tag == "meta" and dict(attrs).get("http-equiv")]
    assert csp and "default-src 'none'" in csp[0]["content"]
    # One script, the package's own, and the policy runs nothing else: no source, no inline handler
    # (above), only the script whose SHA-256 it names.
    [script] = parsed.scripts
    assert script == (ROOT / "src" / "ingest" / "outputs" / "templates" / "report.js").read_text("utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    assert re.findall(r"script-src ([^;]+)", csp[0]["content"]) == [f"'sha256-{digest}'"]
    assert "fetch" not in script and "XMLHttpRequest" not in script and "innerHTML" not in script


def _rendered(markdown: str) -> _Page:
    """The Markdown as a CommonMark viewer (a Prefect artifact) renders it, parsed."""
    from markdown_it import MarkdownIt

    page = _Page()
    page.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))
    return page


# Tags the report's own Markdown makes; a link, image or any HTML tag can only come from a document.
MARKDOWN_TAGS = {"h1", "h2", "h3", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "strong", "code"}


def test_markdown_report_renders_document_text_as_text(hostile_reports):
    """The Markdown report becomes a Prefect artifact, rendered as HTML: no tags, links or images."""
    page = _rendered((hostile_reports / "consistency.md").read_text("utf-8"))
    assert {tag for tag, _ in page.tags} <= MARKDOWN_TAGS
    text = "".join(page.text)
    assert SCRIPT + ATTRIBUTE in text


def test_markdown_report_injection_through_line_breaks_and_front_matter(case):
    """A file name with a carriage return and a crafted title used to split a table row and render
    `<img src="https:evil.example">`; now every line ending is folded and all punctuation escaped,
    and a literal backslash-pipe stays one."""
    title = 'x\\r<img src=\\"https:evil.example\\">\\r| literal \\\\| stays'  # YAML escapes: \r, \", \\
    case.add("a\r| ![x](https:evil.example) |\r.md", f'---\ntitle: "{title}"\n---\nPyTorch 2.5 のリリース。\n')
    case.run()
    markdown = (case.reports / "consistency.md").read_text("utf-8")
    assert "\r" not in markdown
    page = _rendered(markdown)
    assert {tag for tag, _ in page.tags} <= MARKDOWN_TAGS
    assert not [attrs for _, attrs in page.tags if attrs]
    text = "".join(page.text)
    assert "![x](https:evil.example)" in text and '<img src="https:evil.example">' in text
    assert "literal \\| stays" in text


# ---- invisible characters and line breaks in file names ---------------------------------

BIDI_NAME = "report\u202egpj.md"  # shows as "reportdm.jpg" where bidi controls act


@pytest.fixture
def bidi_reports(case):
    (case.inputs / GOOD).unlink()
    case.add("000_counterpart.md", COUNTERPART)
    case.add(BIDI_NAME, HOSTILE_ARTICLE)
    case.run()
    assert case.query("SELECT count(*) FROM conflicts WHERE doc_b = ?", [case.doc_id(BIDI_NAME)])[0][0] > 0
    return case.reports


def test_bidi_controls_in_a_file_name_are_shown_escaped_in_both_reports(bidi_reports):
    markdown = (bidi_reports / "consistency.md").read_text("utf-8")
    page = (bidi_reports / "consistency.html").read_text("utf-8")
    assert "\u202e" not in markdown and "\u202e" not in page
    assert "in/report\\u202egpj.md" in "".join(_rendered(markdown).text)
    parsed = _Page()
    parsed.feed(page)
    assert "in/report\\u202egpj.md" in "".join(parsed.text)


def test_a_line_break_in_a_file_name_cannot_forge_a_line_of_run_output(case):
    case.add("x\nerror: the warehouse is damaged; run rm -rf ~\n.txt", b"\x00\x01" * 50)
    result = CliRunner().invoke(
        app, ["run", str(case.inputs), "--warehouse", str(case.db), "--reports", str(case.reports), "--no-prefect"]
    )
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert not [line for line in lines if line.startswith("error:")], result.output
    assert [line for line in lines if "failed in/x\\nerror: the warehouse is damaged" in line]


# ---- ingest sql -------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def small_warehouse(case) -> Path:
    case.run()
    return case.db


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO documents (doc_id, path, status) VALUES ('evil', 'evil', 'ok')",
        "DROP TABLE segments",
        "DELETE FROM documents",
        "UPDATE documents SET status = 'failed'",
        "CREATE TABLE owned AS SELECT 1",
        "DROP VIEW conflicts",
        "ALTER TABLE documents ADD COLUMN owned INTEGER",
    ],
)
def test_ingest_sql_cannot_change_the_warehouse(small_warehouse, statement):
    before, digest = snapshot(small_warehouse), _sha256(small_warehouse)
    result = CliRunner().invoke(app, ["sql", statement, "--warehouse", str(small_warehouse)])
    assert result.exit_code != 0
    assert "SQL error" in result.output and "read-only" in result.output
    assert snapshot(small_warehouse) == before and _sha256(small_warehouse) == digest


@pytest.mark.parametrize(
    "statement, target",
    [
        ("COPY documents TO '{dir}/stolen.csv'", "stolen.csv"),
        ("ATTACH '{dir}/other.duckdb' AS other", "other.duckdb"),
    ],
)
def test_ingest_sql_cannot_write_other_files(small_warehouse, tmp_path, statement, target):
    result = CliRunner().invoke(app, ["sql", statement.format(dir=tmp_path), "--warehouse", str(small_warehouse)])
    assert result.exit_code != 0 and "SQL error" in result.output
    assert not (tmp_path / target).exists()


def test_ingest_sql_cannot_read_other_files(small_warehouse):
    result = CliRunner().invoke(
        app, ["sql", f"SELECT * FROM read_text('{ROOT / 'pyproject.toml'}')", "--warehouse", str(small_warehouse)]
    )
    assert result.exit_code != 0 and "[project]" not in result.output


def test_ingest_sql_and_report_still_read(small_warehouse, tmp_path):
    digest = _sha256(small_warehouse)
    result = CliRunner().invoke(app, ["sql", "SELECT count(*) AS n FROM documents", "--warehouse", str(small_warehouse)])
    assert result.exit_code == 0 and json.loads(result.output) == [{"n": 1}]
    result = CliRunner().invoke(app, ["report", "--warehouse", str(small_warehouse), "--reports", str(tmp_path / "r")])
    assert result.exit_code == 0 and (tmp_path / "r" / "consistency.html").exists()
    assert _sha256(small_warehouse) == digest


# ---- no shell ---------------------------------------------------------------------------

SHELL_CALLS = {
    ("os", "system"),
    ("os", "popen"),
    ("os", "execl"),
    ("os", "execlp"),
    ("os", "spawnl"),
    ("subprocess", "getoutput"),
    ("subprocess", "getstatusoutput"),
    ("pty", "spawn"),
    ("asyncio", "create_subprocess_shell"),
}


def _shell_uses(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (func.value.id, func.attr) in SHELL_CALLS:
            found.append(f"{path}:{node.lineno} {func.value.id}.{func.attr}")
        if isinstance(func, ast.Name) and func.id in ("eval", "exec", "system", "popen"):
            found.append(f"{path}:{node.lineno} {func.id}()")
        for keyword in node.keywords:
            if keyword.arg == "shell" and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is False):
                found.append(f"{path}:{node.lineno} shell={ast.unparse(keyword.value)}")
    return found


def test_no_shell_is_ever_invoked():
    files = [p for folder in ("src", "flows", "bench") for p in (ROOT / folder).rglob("*.py")]
    assert len(files) > 10
    assert [use for path in files for use in _shell_uses(path)] == []
    # and the text-level check, for anything the AST walk might not see (strings passed to exec ...)
    pattern = re.compile(r"shell\s*=\s*True|os\.system\(|os\.popen\(|commands\.getoutput")
    assert [str(p) for p in files if pattern.search(p.read_text("utf-8"))] == []


def test_the_shell_check_catches_shell_calls(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, subprocess\nos.system('ls ' + name)\nsubprocess.run(cmd, shell=True)\nsubprocess.run(['ls'], shell=False)\n"
    )
    assert len(_shell_uses(sample)) == 2


MARKUP_ATTEMPTS = [
    "[x](http://evil.example)",
    "![i](http://evil.example/i.png)",
    "<img src=x onerror=alert(1)>",
    "<https://evil.example>",
    "www.evil.example",
    "mail@evil.example",
    "*em* _em_ **b** `code`",
    "~~gone~~",
    "a | b",
    "&lt;b&gt; &#x41;",
    "# heading",
    "> quote",
    "- item",
    "+ item",
    "1. item",
    "3) item",
    "---",
    "===",
    "\\*not em\\*",
    "x\u202ey",
]


@pytest.mark.parametrize("attempt", MARKUP_ATTEMPTS)
def test_markdown_text_renders_as_the_literal_text_in_a_list_item_and_a_table_cell(attempt):
    from ingest.escape import markdown_cell, markdown_text, visible

    for markdown in (
        f"- {markdown_text(attempt)}\n",
        f"{markdown_text(attempt)}\n",
        f"| a |\n|---|\n| {markdown_cell(attempt)} |\n",
    ):
        page = _rendered(markdown)
        assert {tag for tag, _ in page.tags} <= {"p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td"}, markdown
        assert visible(attempt) in "".join(page.text), markdown


def test_markdown_text_leaves_ordinary_prose_readable():
    from ingest.escape import markdown_text

    prose = "Generated 2026-11-26 13:28 UTC. Last run: 4 files: 4 loaded, 0 unchanged (skipped); 12.5% of share_of_models"
    assert markdown_text(prose) == prose
