"""Choosing what to ingest: `--exclude` patterns and `.ingestignore` files (gitignore syntax).

An excluded file is not read; it is a `documents` row with status `excluded` whose error names
the pattern, and the run line counts it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from ingest import warehouse
from ingest.cli import app
from ingest.discover import IGNORE_FILE, discover
from seed_fixtures import SEEDS

ARTICLE = SEEDS / "000_7df305071c9dd669.txt"


def write(path: Path, text: str = "本文です。\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def found(paths, **options) -> dict[str, str | None]:
    """doc_id -> the reason it is excluded (None: it is read)."""
    return {s.doc_id: s.excluded for s in discover(paths, **options)}


def test_exclude_patterns_match_at_any_depth_and_name_themselves(tmp_path):
    for name in ("a.md", "README.md", "LABELS.md", "sub/README.md", "sub/b.md"):
        write(tmp_path / "news" / name)
    result = found([tmp_path / "news"], exclude=["LABELS.md", "README.md"])
    assert {doc_id for doc_id, reason in result.items() if reason is None} == {"news/a.md", "news/sub/b.md"}
    assert result["news/sub/README.md"].startswith("excluded by --exclude 'README.md'")
    assert result["news/LABELS.md"].startswith("excluded by --exclude 'LABELS.md'")


def test_ignore_files_in_the_folder_and_below_with_negation(tmp_path):
    news = tmp_path / "news"
    for name in ("a.md", "drafts/x.md", "drafts/keep.md", "sub/b.md", "sub/c.md"):
        write(news / name)
    write(news / IGNORE_FILE, "# drafts are not articles\ndrafts/\n!drafts/keep.md\n")
    write(news / "sub" / IGNORE_FILE, "b.md\n")
    result = found([news])
    assert result["news/drafts/x.md"] == (
        "excluded by news/.ingestignore line 2: 'drafts/'; drop or negate ('!') that pattern to ingest it"
    )
    assert result["news/sub/b.md"].startswith("excluded by news/sub/.ingestignore line 1: 'b.md'")
    assert {doc_id for doc_id, reason in result.items() if reason is None} == {
        "news/a.md",
        "news/drafts/keep.md",
        "news/sub/c.md",
    }
    # --exclude comes last: it can take back what an ignore file keeps out, and the other way round
    again = found([news], exclude=["!sub/b.md", "a.md"])
    assert again["news/sub/b.md"] is None and again["news/a.md"].startswith("excluded by --exclude 'a.md'")


def test_a_file_named_on_its_own_obeys_exclude_but_not_its_folders_ignore_file(tmp_path):
    article = write(tmp_path / "news" / "a.md")
    write(tmp_path / "news" / IGNORE_FILE, "a.md\n")
    assert found([article]) == {"news/a.md": None}
    assert found([article], exclude=["*.md"])["news/a.md"].startswith("excluded by --exclude '*.md'")


def test_excluded_files_are_rows_that_say_why_and_an_earlier_load_leaves_the_checks(tmp_path):
    news = tmp_path / "news"
    shutil.copy(ARTICLE, write(news / "article.txt"))
    write(news / "README.md", "# About this folder\n\nPyTorch 2.5 の記事を集めたフォルダです。\n")
    args = ["run", "--no-prefect", str(news), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", str(tmp_path / "r")]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0 and "2 loaded" in " ".join(first.output.split()), first.output
    second = CliRunner().invoke(app, [*args, "--exclude", "README.md"])
    output = " ".join(second.output.split())
    assert second.exit_code == 0 and "1 excluded" in output, second.output
    assert "excluded news/README.md: excluded by --exclude 'README.md'" in output
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    try:
        rows = con.execute("SELECT doc_id, status, error FROM documents ORDER BY doc_id").fetchall()
        segments = con.execute("SELECT count(*) FROM segments WHERE doc_id = 'news/README.md'").fetchone()[0]
    finally:
        con.close()
    assert [(doc_id, status) for doc_id, status, _ in rows] == [("news/README.md", "excluded"), ("news/article.txt", "ok")]
    assert rows[0][2].startswith("excluded by --exclude 'README.md'") and segments == 0
