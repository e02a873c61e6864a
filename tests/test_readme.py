"""The README's example queries run on a real warehouse and return rows."""

from __future__ import annotations

import re

from seed_fixtures import ROOT


def readme_queries() -> list[str]:
    return re.findall(r"```sql\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.S)


def test_three_example_queries_work(seeded_con):
    queries = readme_queries()
    assert len(queries) >= 3
    for sql in queries:
        assert seeded_con.execute(sql).fetchall(), sql


def test_readme_names_the_two_commands():
    text = (ROOT / "README.md").read_text("utf-8")
    assert "make run" in text and "make test" in text


def readme_commands() -> list[str]:
    """The `uv run ingest …` lines of the README's command-line block."""
    text = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"## The command line\n+```sh\n(.*?)```", text, re.S).group(1)
    return [re.split(r"\s+# ", line)[0].strip() for line in block.splitlines() if line.startswith("uv run ingest")]


def test_every_command_in_the_readme_runs(seeded_warehouse, tmp_path, monkeypatch):
    import shlex
    import shutil

    from typer.testing import CliRunner

    from ingest.cli import app
    from ingest.errors import COMMAND

    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "labels").symlink_to(ROOT / "tests" / "labels")
    shutil.copy(seeded_warehouse, tmp_path / "w.duckdb")
    monkeypatch.chdir(tmp_path)
    env = {"INGEST_WAREHOUSE": str(tmp_path / "w.duckdb"), "INGEST_REPORTS": str(tmp_path / "reports")}
    commands = readme_commands()
    assert len(commands) >= 8
    for command in commands:
        assert command.startswith(COMMAND + " ")
        result = CliRunner().invoke(app, shlex.split(command.removeprefix(COMMAND + " ")), env=env)
        assert result.exit_code == 0, (command, result.output)
    assert (tmp_path / "exported" / "documents.parquet").exists() and (tmp_path / "reports" / "consistency.html").exists()


def test_the_readme_lists_every_table_and_view(seeded_con):
    from ingest.warehouse.export import relations

    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Tables", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    assert listed == set(relations(seeded_con))
