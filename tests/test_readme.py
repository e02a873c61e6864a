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
