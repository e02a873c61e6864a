"""The package a user installs: the wheel `uv build` makes carries its SQL, rules and glossary,
installs into a fresh virtual environment (with the locked dependencies) and ingests from any
folder; test and benchmark tooling stays out of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import duckdb
import pytest

from seed_fixtures import ROOT, SEEDS

pytestmark = pytest.mark.integration


def _uv() -> str:
    uv = os.environ.get("UV") or shutil.which("uv") or str(Path.home() / ".local" / "bin" / "uv")
    if not Path(uv).is_file():
        pytest.skip("uv is not installed (make test installs it; run the suite with `make test`)")
    return uv


def _run(*args: str | Path, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    _run(_uv(), "build", "--wheel", "--out-dir", dist)
    [built] = dist.glob("ingest-*.whl")
    return built


def test_the_wheel_carries_its_data_and_no_test_tooling(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in (
        "ingest/warehouse/sql/schema.sql",
        "ingest/check/sql/30_conflicts.sql",
        "ingest/lang/common.yaml",
        "ingest/lang/ja/rules.yaml",
        "ingest/lang/zh/language.yaml",
        "ingest/extract/glossary.yaml",
        "ingest/clean/chrome.txt",
        "ingest/outputs/templates/report.js",
    ):
        assert data in names, f"{data} is not in the wheel"
    assert not [n for n in names if "builder" in n or n.startswith(("bench/", "tests/"))]


def test_the_installed_wheel_ingests_the_seeds_from_any_folder(wheel, tmp_path):
    uv, venv = _uv(), tmp_path / "venv"
    _run(uv, "venv", "--python", "3.11", venv)
    requirements = tmp_path / "requirements.txt"
    _run(uv, "export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes", "-o", requirements)
    python = venv / "bin" / "python"
    _run(uv, "pip", "install", "--python", python, "-r", requirements)
    _run(uv, "pip", "install", "--python", python, "--no-deps", wheel)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run(venv / "bin" / "ingest", "run", SEEDS, "--no-prefect", cwd=elsewhere)

    con = duckdb.connect(str(elsewhere / "warehouse" / "ingest.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT status, count(*) FROM documents GROUP BY ALL").fetchall() == [("ok", 4)]
        assert con.execute("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'").fetchone()[0] >= 2
    finally:
        con.close()
    assert "Contradictions" in (elsewhere / "reports" / "consistency.md").read_text("utf-8")
