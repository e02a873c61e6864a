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
    subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "run",
            "--no-prefect",
            str(tmp_path / "in"),
            "--warehouse",
            str(db),
            "--reports",
            str(tmp_path / f"{name}-reports"),
        ],
        check=True,
        env=env,
        capture_output=True,
        timeout=300,
    )
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
    assert {
        ("flexattention", "maturity", "beta"),
        ("flexattention", "speedup", "75%"),
        ("pytorch", "contributors", "504 contributors"),
    } <= learned
    for con in (with_profile, without):
        assert con.execute("SELECT lang, status FROM documents").fetchall() == [("fr", "ok")]
    entities = "SELECT label, text FROM entities"
    french = {("COUNT", "504 contributeurs"), ("MATURITY", "bêta")}
    assert french <= set(with_profile.execute(entities).fetchall())
    assert not french & set(without.execute(entities).fetchall())


KOREAN_ARTICLE = """# PyTorch 2.5 출시

이번 릴리스에는 504명의 기여자가 참여했습니다.

FlexAttention은 새로운 베타 API입니다.

H100 GPU에서 FlexAttention의 속도가 삼십 퍼센트 향상되었습니다.

Regional Compilation은 프로토타입 기능으로 제공됩니다.
"""

# A profile written from scratch in a folder of its own: Sino-Korean numerals and magnitudes, the
# word that makes a number a percentage, two maturity words, a counted noun and a speed word.
KOREAN_LANGUAGE = """code: ko
name: Korean
extends: [en]
head_final: true
script: {letters: "\\uac00-\\ud7af\\u1100-\\u11ff\\u3130-\\u318f", min_share: 0.3334}
numerals: {일: 1, 이: 2, 삼: 3, 사: 4, 오: 5, 육: 6, 칠: 7, 팔: 8, 구: 9}
magnitudes: {십: 10, 백: 100, 천: 1000, 만: 10000, 억: 100000000}
numbers:
  counters: [개, 명, 대]
  percent_words: [퍼센트]
"""

KOREAN_RULES = """maturity:
  beta: ['베타']
  prototype: ['프로토타입']
units:
  contributors: ['명의 기여자']
attributes:
  speedup: ['속도']
"""


def test_a_korean_profile_from_a_folder_reads_numerals_percentages_and_maturity(tmp_path):
    languages = tmp_path / "languages" / "ko"
    languages.mkdir(parents=True)
    (languages / "language.yaml").write_text(KOREAN_LANGUAGE, "utf-8")
    (languages / "rules.yaml").write_text(KOREAN_RULES, "utf-8")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "출시.md").write_text(KOREAN_ARTICLE, "utf-8")

    con = _ingest(tmp_path, "korean", languages.parent)

    assert con.execute("SELECT lang FROM documents").fetchall() == [("ko",)]
    entities = set(con.execute("SELECT label, text, norm FROM entities").fetchall())
    assert {
        ("PERCENT", "삼십 퍼센트", "30"),
        ("COUNT", "504명의 기여자", "504 contributors"),
        ("MATURITY", "베타", "beta"),
        ("MATURITY", "프로토타입", "prototype"),
    } <= entities
    claims = set(con.execute("SELECT subject, attribute, value FROM claims").fetchall())
    assert {
        ("flexattention", "maturity", "beta"),
        ("flexattention", "speedup", "30%"),
        ("pytorch", "contributors", "504 contributors"),
    } <= claims
    without = _ingest(tmp_path, "built-in", None)
    assert not {label for label, *_ in without.execute("SELECT label, text, norm FROM entities").fetchall()} & {
        "PERCENT",
        "MATURITY",
    }
