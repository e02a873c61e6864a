"""Adding a language is adding a folder: a toy French profile, outside the package, changes what
the pipeline finds in a French article, with no Python change."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb

from ingest.lang import LANGUAGE_DIRS_ENV, profiles

FRENCH_ARTICLE = """# PyTorch 2.5 est disponible

Cette version comprend 3892 commits de 504 contributeurs depuis la version 2.4.

FlexAttention est une nouvelle API en bêta qui offre des performances élevées.

FlexAttention apporte une accélération de 75 % sur les GPU H100.
"""

LANGUAGE = """code: fr
name: French
spacy: {lang: fr}
extends: [en]
head_final: false
sentence_ends: ""
metadata_labels: {published: [publié, date de publication]}
"""

RULES = """maturity:
  beta: ['(?<![A-Za-z_.])bêta(?![A-Za-z_])']
units:
  contributors: ['contributeurs']
attributes:
  speedup: ['accélération', 'plus rapide']
"""


def _ingest(tmp_path: Path, name: str, languages: Path | None) -> duckdb.DuckDBPyConnection:
    env = {**os.environ}
    env.pop(LANGUAGE_DIRS_ENV, None)
    if languages:
        env[LANGUAGE_DIRS_ENV] = str(languages)
    db = tmp_path / f"{name}.duckdb"
    subprocess.run([sys.executable, "-m", "ingest", "run", "--no-prefect", str(tmp_path / "in"),
                    "--warehouse", str(db), "--reports", str(tmp_path / f"{name}-reports")],
                   check=True, env=env, capture_output=True, timeout=300)
    return duckdb.connect(str(db), read_only=True)


def test_a_profile_folder_teaches_the_pipeline_a_language(tmp_path):
    languages = tmp_path / "languages" / "fr"
    languages.mkdir(parents=True)
    (languages / "language.yaml").write_text(LANGUAGE, "utf-8")
    (languages / "rules.yaml").write_text(RULES, "utf-8")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "annonce.md").write_text(FRENCH_ARTICLE, "utf-8")
    assert "fr" not in profiles()  # the package itself knows no French

    with_profile = _ingest(tmp_path, "with", languages.parent)
    without = _ingest(tmp_path, "without", None)

    query = "SELECT subject, attribute, value FROM claims ORDER BY ALL"
    learned = set(with_profile.execute(query).fetchall()) - set(without.execute(query).fetchall())
    assert {("flexattention", "maturity", "beta"), ("flexattention", "speedup", "75%"),
            ("pytorch", "contributors", "504 contributors")} <= learned
    for con in (with_profile, without):
        assert con.execute("SELECT lang, status FROM documents").fetchall() == [("fr", "ok")]
    entities = "SELECT label, text FROM entities"
    french = {("COUNT", "504 contributeurs"), ("MATURITY", "bêta")}
    assert french <= set(with_profile.execute(entities).fetchall())
    assert not french & set(without.execute(entities).fetchall())
