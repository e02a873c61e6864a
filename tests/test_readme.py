"""README.md and docs/*.md: every command they show is run (here, or by the test named for it),
`make run` produces what the README says, every table and view is listed, the example queries
return rows, the links resolve, and the README stays short enough to read."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from seed_fixtures import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
MAKE = shutil.which("make")
README_MAX_BYTES = 20_000
# What the README's sample of `make run`'s output calls the checkout.
SAMPLE_CHECKOUT = "/home/you/ingest"

# Every command shown in README.md or docs/*.md that this file does not run itself (it runs the
# `uv run ingest …` lines with CliRunner): the file that runs it, and the text in that file that
# does. A command shown that is neither run here nor listed here fails
# `test_every_command_shown_is_run_by_a_test`; an entry no document shows any more fails it too.
RUN_ELSEWHERE: dict[str, list[tuple[str, str]]] = {
    "make run": [("tests/test_readme.py", '[MAKE, "run"')],
    # The suite itself: no test can run it; CI runs this recipe (each make target is dry-run here).
    "make test": [("Makefile", "$(UV) run pytest")],
    "make serve": [("tests/prefect_fixtures.py", '[MAKE, "serve"]')],
    "make stop": [("tests/prefect_fixtures.py", '[MAKE, "stop"]')],
    "make bench": [("tests/test_bench.py", '[sys.executable, "-m", "bench"')],
    "uv run python -m bench --against 872b70f": [("tests/test_bench.py", "bench_main.against([")],
    "uv run python -m bench.prefect_overhead --dask": [
        ("tests/test_prefect_bench.py", "prefect_overhead.main(["),
        ("tests/test_prefect_bench.py", '"--dask"])'),
    ],
    "uv run prefect deployment run ingest/ingest --watch": [
        ("tests/test_prefect_deployment.py", 'RUN = [UV, "run", "prefect", "deployment", "run", "ingest/ingest", "--watch"]')
    ],
    "uv run prefect deployment run ingest/ingest --watch -p warehouse_path=/tmp/ingest.duckdb -p reports_dir=/tmp/reports": [
        ("tests/test_prefect_deployment.py", '"-p", f"warehouse_path={db}",'),
        ("tests/test_prefect_deployment.py", '"-p", f"reports_dir={reports}"'),
    ],
    "uv run prefect deployment run ingest/ingest --watch -p translate=evidence": [
        ("tests/test_prefect_deployment.py", 'RUN = [UV, "run", "prefect", "deployment", "run", "ingest/ingest", "--watch"]'),
        ("tests/test_translate_modes.py", 'ingest_flow(**options, translate="evidence")'),
    ],
    "uv run prefect deployment run ingest/ingest --watch -p translate=all": [
        ("tests/test_prefect_deployment.py", 'RUN = [UV, "run", "prefect", "deployment", "run", "ingest/ingest", "--watch"]'),
        ("tests/test_translate_modes.py", 'ingest_flow(**options, translate="all")'),
    ],
    "uv run prefect deployment run ingest/ingest --watch -p dask=true": [
        ("tests/test_dask.py", '"deployment", "run", "ingest/ingest", "--watch"'),
        ("tests/test_dask.py", '"-p", "dask=true"'),
    ],
    # `uv run ingest …` lines that need a Prefect server, a Dask cluster or the network.
    "uv run ingest run --dask": [("tests/test_dask.py", '"--dask", "--batch-size"')],
    "uv run ingest run --dask-address tcp://HOST:PORT": [("tests/test_dask.py", '"--dask-address", address')],
    "uv run ingest models install ja zh": [("tests/test_models.py", '["install", "ja", "zh"]')],
    "uv run ingest models install --from FILE.argosmodel": [("tests/test_models.py", '["install", "--from", str(')],
    # The installable wheel (docs/architecture.md).
    "uv build --wheel": [("tests/test_wheel.py", '"build", "--wheel"')],
    "uv export --frozen --no-dev --no-emit-project --no-hashes -o requirements.txt": [
        ("tests/test_wheel.py", '"export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes", "-o"')
    ],
    "uv pip install -r requirements.txt": [("tests/test_wheel.py", '"pip", "install", "--python", python, "-r"')],
    "uv pip install --no-deps dist/ingest-*.whl": [
        ("tests/test_wheel.py", '"pip", "install", "--python", python, "--no-deps", wheel')
    ],
}


def _text(path: Path) -> str:
    return path.read_text("utf-8")


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def sh_commands(path: Path) -> list[str]:
    """The command lines of a file's ```sh blocks, without their comments."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", _text(path), re.S):
        for line in block.splitlines():
            command = re.split(r"\s+# ", line)[0].strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def shown_commands() -> dict[str, list[str]]:
    """Every command line shown in README.md and docs/*.md -> the files that show it."""
    shown: dict[str, list[str]] = {}
    for path in (README, *DOCS):
        for command in sh_commands(path):
            shown.setdefault(command, []).append(_relative(path))
    return shown


def readme_queries() -> list[str]:
    return re.findall(r"```sql\n(.*?)```", _text(README), re.S)


def test_three_example_queries_work(seeded_con):
    queries = readme_queries()
    assert len(queries) >= 3
    for sql in queries:
        assert seeded_con.execute(sql).fetchall(), sql


def test_readme_names_the_two_commands():
    text = _text(README)
    assert "make run" in text and "make test" in text


def test_the_readme_is_short_enough_to_read():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size:,} bytes; move detail to docs/ (at most {README_MAX_BYTES:,})"


def readme_commands() -> list[str]:
    """The `uv run ingest …` lines of the README's command-line block."""
    block = re.search(r"## The command line\n+```sh\n(.*?)```", _text(README), re.S).group(1)
    return [re.split(r"\s+# ", line)[0].strip() for line in block.splitlines() if line.startswith("uv run ingest")]


def cli_commands() -> list[str]:
    """Every `uv run ingest …` line shown that this file runs: the README's command-line block
    first, then the others of the README and docs/, each once."""
    from ingest.errors import COMMAND

    ordered = readme_commands() + [c for c in shown_commands() if c.startswith(COMMAND + " ")]
    return [c for c in dict.fromkeys(ordered) if c not in RUN_ELSEWHERE]


def test_every_command_in_the_readme_runs(seeded_warehouse, tmp_path, monkeypatch):
    """Every `uv run ingest …` line of README.md and docs/*.md (but those RUN_ELSEWHERE lists) runs
    with exit 0, in order, in a folder holding the seeds and a copy of the seeded warehouse."""
    from typer.testing import CliRunner

    from ingest.cli import app
    from ingest.errors import COMMAND

    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "labels").symlink_to(ROOT / "tests" / "labels")
    shutil.copy(seeded_warehouse, tmp_path / "w.duckdb")
    monkeypatch.chdir(tmp_path)
    env = {"INGEST_WAREHOUSE": str(tmp_path / "w.duckdb"), "INGEST_REPORTS": str(tmp_path / "reports")}
    assert len(readme_commands()) >= 8
    for command in cli_commands():
        assert command.startswith(COMMAND + " ")
        result = CliRunner().invoke(app, shlex.split(command.removeprefix(COMMAND + " ")), env=env)
        assert result.exit_code == 0, (command, result.output)
    assert (tmp_path / "exported" / "documents.parquet").exists() and (tmp_path / "reports" / "consistency.html").exists()


def _squeezed(text: str) -> str:
    """The text without white space or a trailing comma before a closing bracket."""
    return re.sub(r",([)\]])", r"\1", re.sub(r"\s+", "", text))


def _make_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", _text(ROOT / "Makefile"), re.M))


def test_every_command_shown_is_run_by_a_test():
    from ingest.errors import COMMAND

    shown = shown_commands()
    unrun = {
        command: where
        for command, where in shown.items()
        if command not in RUN_ELSEWHERE and not command.startswith(COMMAND + " ")
    }
    assert not unrun, (
        "commands shown in the docs that no test runs; run them in a test and list them in "
        f"RUN_ELSEWHERE of tests/test_readme.py, or stop showing them: {unrun}"
    )
    stale = [command for command in RUN_ELSEWHERE if command not in shown]
    assert not stale, f"RUN_ELSEWHERE lists commands no document shows any more: {stale}"
    for command, runners in RUN_ELSEWHERE.items():
        for file, text in runners:
            assert (ROOT / file).is_file(), (command, file)
            # whatever the layout (`ruff format` puts a long call's arguments one per line)
            assert _squeezed(text) in _squeezed(_text(ROOT / file)), f"{file} no longer runs `{command}` (it lacks {text!r})"
        if command.startswith("make "):
            assert command.split()[1] in _make_targets(), f"the Makefile has no target for `{command}`"


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_every_make_target_shown_is_a_recipe_make_can_run():
    """`make -n` (print the recipe, run nothing) for every `make …` command shown."""
    targets = sorted({command.split()[1] for command in shown_commands() if command.startswith("make ")})
    assert {"run", "test"} <= set(targets)
    for target in targets:
        dry = subprocess.run([MAKE, "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert dry.returncode == 0, (target, dry.stdout + dry.stderr)
    assert "run pytest" in subprocess.run([MAKE, "-n", "test"], cwd=ROOT, capture_output=True, text=True, timeout=120).stdout


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_uv_run_after_make_sync_is_quiet_and_the_path_line_is_shown_when_uv_is_not_on_path(tmp_path):
    """`uv run` once compiled every file again and said "Bytecode compiled 9220 files" on stderr (~0.5 s);
    `make` installs uv into ~/.local/bin and says how to put it on PATH when the shell cannot find it."""
    from prefect_fixtures import UV

    quiet = subprocess.run([UV, "run", "--frozen", "python", "-c", "pass"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and "Bytecode compiled" not in quiet.stderr, quiet.stderr
    no_uv_on_path = {**os.environ, "PATH": "/usr/bin:/bin"}
    if shutil.which("uv", path=no_uv_on_path["PATH"]):
        pytest.skip("uv is installed system-wide here (/usr/bin or /bin): make has no PATH line to print")
    said = subprocess.run(
        [MAKE, "--no-print-directory", "uv", f"UV={UV}"], cwd=ROOT, capture_output=True, text=True, timeout=120, env=no_uv_on_path
    )
    assert said.returncode == 0 and 'export PATH="$HOME/.local/bin:$PATH"' in said.stdout, said.stdout + said.stderr


def _sample_of_make_run() -> list[str]:
    section = _text(README).split("## What `make run` produces", 1)[1]
    return re.search(r"```text\n(.*?)```", section, re.S).group(1).splitlines()


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_make_run_produces_what_the_readme_says(tmp_path):
    """`make run` on the seeds without a translation package: the output the README shows, both
    report files, and every Japanese and Chinese segment left without English."""
    from ingest import warehouse

    env = {
        **os.environ,
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
        "ARGOS_PACKAGES_DIR": str(tmp_path / "no-packages"),
    }  # no package, whatever this machine holds
    env.pop("PREFECT_API_URL", None)  # never a developer's `make serve`: a direct run
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    result = subprocess.run(
        [MAKE, "run", f"WAREHOUSE={db}", f"REPORTS={reports}"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    printed = (result.stdout + result.stderr).replace(str(tmp_path), SAMPLE_CHECKOUT).splitlines()
    missing = [line for line in _sample_of_make_run() if line not in printed]
    assert not missing, f"the README's sample of `make run` is not what it prints: {missing}\n{printed}"
    assert (reports / "consistency.md").exists() and (reports / "consistency.html").exists()
    markdown = (reports / "consistency.md").read_text("utf-8")
    assert "FlexAttention" in markdown and "ベータ機能" in markdown  # the evidence, in Japanese
    con = warehouse.connect(db, read_only=True)
    try:
        translated, untranslated = con.execute(
            "SELECT count(*) FILTER (WHERE text_en IS NOT NULL), count(*) FILTER (WHERE translation_status = "
            "'untranslated') FROM segments WHERE lang IN ('ja', 'zh')"
        ).fetchone()
    finally:
        con.close()
    assert translated == 0 and untranslated > 0


def test_the_readme_lists_every_table_and_view(seeded_con):
    from ingest.warehouse.export import relations

    text = _text(README)
    section = text.split("## Tables", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    assert listed == set(relations(seeded_con))


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_links_every_doc_and_every_link_resolves():
    readme = _text(README)
    assert DOCS, "docs/*.md are missing"
    for doc in DOCS:
        assert f"]({_relative(doc)})" in readme, f"README.md does not link {_relative(doc)}"
    assert "](CHANGELOG.md)" in readme and (ROOT / "CHANGELOG.md").is_file()
    for path in (README, *DOCS):
        prose = re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", _text(path), flags=re.S))
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"\w+://", target):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            assert linked.is_file(), f"{_relative(path)} links {target}, which does not exist"
            if anchor and linked.suffix == ".md":
                anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", _text(linked), re.M)}
                assert anchor in anchors, f"{_relative(path)} links {target}: no such heading"


def test_every_test_the_docs_name_exists():
    defined = set()
    for test_file in (ROOT / "tests").glob("*.py"):
        defined |= set(re.findall(r"^\s*def (test_\w+)", _text(test_file), re.M))
    for path in (README, *DOCS):
        named = set(re.findall(r"(?<![\w/.])(test_\w+)(?![\w.])", _text(path)))
        assert named <= defined, f"{_relative(path)} names tests that do not exist: {sorted(named - defined)}"


def test_the_prefect_doc_lists_every_run_parameter():
    from ingest.settings import RunOptions

    text = _text(ROOT / "docs" / "prefect.md")
    section = text.split("## Parameters", 1)[1].split("\n## ", 1)[0]
    assert not [f.name for f in fields(RunOptions) if f"`{f.name}:" not in section]


def test_the_benchmark_section_is_what_make_bench_writes(tmp_path):
    """`make bench` rewrites the section of docs/benchmarks.md between its markers; what is there is
    what it makes of bench/results/latest.json (so nothing in it was edited by hand)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import bench.__main__ as bench_main
    from bench.report import END, START, evaluate, render_markdown, update_readme

    doc = ROOT / "docs" / "benchmarks.md"
    assert doc == bench_main.BENCHMARKS_DOC
    assert START not in _text(README) and START in _text(doc) and END in _text(doc)
    results = json.loads((ROOT / "bench" / "results" / "latest.json").read_text("utf-8"))
    results["goals"] = evaluate(results)
    rendered = tmp_path / "benchmarks.md"
    shutil.copy(doc, rendered)
    update_readme(rendered, results, render_markdown(results))
    assert _text(rendered) == _text(doc), (
        "the bench section was edited by hand: uv run python -m bench --render bench/results/latest.json"
    )
