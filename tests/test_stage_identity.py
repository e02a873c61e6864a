"""What invalidates the stage cache: what a stage runs, read from the code (`identity.py`).

Each test edits a copy of the package, so the digests are computed over real files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ingest import identity

PACKAGE = Path(identity.__file__).resolve().parent


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A copy of the package that the identity functions read instead of the real one."""
    copy = tmp_path / "ingest"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(identity, "_ROOT", copy)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    identity.module_graph.cache_clear()
    identity.entries_digest.cache_clear()
    yield copy
    identity.module_graph.cache_clear()
    identity.entries_digest.cache_clear()


def _digests() -> dict[str, str]:
    identity.module_graph.cache_clear()
    identity.entries_digest.cache_clear()
    return {**{stage: identity.code_digest(stage) for stage in identity.STAGES}, "checks": identity.check_digest()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_docstrings_comments_and_layout_change_no_stage(package):
    before = _digests()
    claims = package / "extract" / "claims.py"
    _edit(claims, '"""Entities to normalised claims', '"""Entities (now with more words) to normalised claims')
    _edit(claims, "class ClaimBuilder:", "# a comment nobody runs\nclass ClaimBuilder:")
    _edit(claims, "        claims: list[Claim] = []", "        claims: list[Claim]  =  []  # spaced out")
    assert _digests() == before


def test_a_code_edit_changes_only_the_stages_that_run_it(package):
    before = _digests()
    _edit(package / "extract" / "claims.py", "_RELEASE_WIDE_COUNTS = {", "_RELEASE_WIDE_COUNTS = {'nodes', ")
    after = _digests()
    assert after["extract"] != before["extract"]
    assert (after["prepare"], after["translate"]) == (before["prepare"], before["translate"])

    _edit(package / "clean" / "html.py", "_UNCLOSED_MAX = 200", "_UNCLOSED_MAX = 201")
    again = _digests()
    assert again["prepare"] != after["prepare"] and again["extract"] == after["extract"]


def test_language_data_is_part_of_every_stage_that_reads_it(package):
    before = _digests()
    with (package / "lang" / "ja" / "rules.yaml").open("a", encoding="utf-8") as rules:
        rules.write("# one more comment line changes the file\n")
    after = _digests()
    assert after["extract"] != before["extract"] and after["prepare"] != before["prepare"]
    assert after["translate"] == before["translate"]


def test_a_module_a_stage_starts_to_import_joins_its_identity(package):
    (package / "extract" / "novelty.py").write_text("FACTOR = 2\n", "utf-8")
    before = _digests()
    _edit(package / "extract" / "novelty.py", "FACTOR = 2", "FACTOR = 3")
    assert _digests() == before  # nobody imports it yet
    _edit(package / "extract" / "claims.py", "import hashlib\n", "import hashlib\n\nfrom . import novelty\n")
    with_import = _digests()
    _edit(package / "extract" / "novelty.py", "FACTOR = 3", "FACTOR = 4")
    assert _digests()["extract"] != with_import["extract"]


def test_a_run_imports_neither_spacy_nor_the_flow():
    script = (
        "import sys; from ingest.run.runner import run; from ingest.identity import stage_ids;"
        "from ingest.translate import make_engine; stage_ids(make_engine());"
        "print(sorted(m for m in ('spacy', 'prefect', 'ingest.extract.nlp') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_stage_entries_exist_and_reach_their_modules():
    graph = identity.module_graph()
    for entries in (*identity.STAGE_ENTRIES.values(), identity.ALIGN_ENTRIES, identity.CHECK_ENTRIES):
        assert all(entry in graph for entry in entries), entries
    extract = {module.name for module in identity.reached(identity.STAGE_ENTRIES["extract"])}
    assert {"ingest.extract.reader", "ingest.extract.claims", "ingest.lang"} <= extract
    assert "ingest.clean.html" not in extract


def test_digests_are_cached_until_a_file_changes(package, tmp_path):
    first = _digests()
    assert (tmp_path / "cache" / "ingest" / "stage-digests.json").is_file()
    identity.module_graph.cache_clear()
    identity.entries_digest.cache_clear()
    assert _digests() == first  # from the cache
    _edit(package / "extract" / "claims.py", "_RELEASE_WIDE_COUNTS = {", "_RELEASE_WIDE_COUNTS = {'gpus', ")
    assert _digests()["extract"] != first["extract"]
