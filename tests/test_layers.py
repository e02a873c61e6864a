"""The package's structure: imports point one way, no cycles, modules of a readable size.

An AST walk of src/ingest (`ingest.identity.module_graph`, the walk that also tells what a stage
runs), imports under `if TYPE_CHECKING:` included.
Layers, from the bottom: records/errors/settings/limits/budget/escape/transaction <- the stages (discover, read,
clean, lang, metadata, language, segment, prepare, translate, extract, identity, stages) <- warehouse <- check <- outputs <- run
<- flow, prefect_server, scheduler, evaluate <- cli. A module may import its own layer or lower ones; only run/ and
outputs/ (and the layers above them) touch the warehouse.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ingest.identity import module_graph

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ingest"
LAYERS = [
    {
        "ingest.records",
        "ingest.errors",
        "ingest.settings",
        "ingest.limits",
        "ingest.deploy",
        "ingest.budget",
        "ingest.escape",
        "ingest.transaction",
    },
    {
        "ingest.lang",
        "ingest.discover",
        "ingest.read",
        "ingest.clean",
        "ingest.metadata",
        "ingest.language",
        "ingest.segment",
        "ingest.prepare",
        "ingest.translate",
        "ingest.extract",
        "ingest.identity",
        "ingest.stages",
    },
    {"ingest.warehouse"},
    {"ingest.check"},
    {"ingest.outputs"},
    {"ingest.run"},
    {"ingest.flow", "ingest.prefect_server", "ingest.evaluate", "ingest.scheduler"},
    {"ingest.cli", "ingest.__main__", "ingest"},
]
# In `ruff format`'s layout (one argument per line once a call overflows): the 400 lines of the
# earlier, denser layout came to 430-490 when the code was first formatted (outputs/data.py: 368 -> 483).
MAX_LINES = 500
LONG_MODULE_REASON = "Why this module is long:"


def _graph() -> dict[str, set[str]]:
    """Every module's imports of the package, those under `if TYPE_CHECKING:` included: a cycle
    there is a cycle in what a reader must understand, even if it never runs."""
    return {name: set(module.imports) for name, module in module_graph(type_checking=True).items()}


def _layer(module: str) -> int:
    for index, members in enumerate(LAYERS):
        if any(module == m or module.startswith(m + ".") for m in members if m != "ingest") or module in members:
            return index
    raise AssertionError(f"{module} is in no layer of tests/test_layers.py; add it")


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between the first-level parts of ingest (ingest.run, ingest.extract, ...)."""

    def top(module: str) -> str:
        return ".".join(module.split(".")[:2])

    folded: dict[str, set[str]] = {}
    for source, targets in graph.items():
        folded.setdefault(top(source), set()).update(top(t) for t in targets if top(t) != top(source))
    return folded


def test_no_module_imports_a_module_that_imports_it_back():
    graph = _graph()
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph) or [])}"


def test_no_two_parts_of_the_package_import_each_other():
    folded = _packages(_graph())
    folded.pop("ingest", None)  # the package's lazy public API names everything
    assert _cycle(folded) is None, f"package cycle: {' -> '.join(_cycle(folded) or [])}"


def test_imports_point_down_the_layers():
    upward = [
        f"{source} -> {target}" for source, targets in _graph().items() for target in targets if _layer(target) > _layer(source)
    ]
    assert not upward, "imports that point up a layer:\n" + "\n".join(sorted(upward))


def test_the_checker_sees_imports_and_cycles():
    # The walk must find relative imports and a cycle in a made-up graph, or the tests above prove nothing.
    assert "ingest.warehouse" in _graph()["ingest.run.runner"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _layer("ingest.run.runner") > _layer("ingest.warehouse.load") > _layer("ingest.extract.claims")


def test_long_modules_say_why():
    long = []
    for path in PACKAGE.rglob("*.py"):
        lines = path.read_text("utf-8").count("\n")
        docstring = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
        if lines > MAX_LINES and LONG_MODULE_REASON not in docstring:
            long.append(f"{path.relative_to(PACKAGE)} ({lines} lines)")
    assert not long, f"modules over {MAX_LINES} lines without '{LONG_MODULE_REASON}' in their docstring: {long}"


def test_ruff_finds_nothing():
    """The lint rules of pyproject.toml ([tool.ruff]) hold on the package, tests, benchmarks and scripts."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    assert ruff, "ruff is a dev dependency: run `uv sync` (make test does)"
    root = PACKAGE.parents[1]
    result = subprocess.run(
        [ruff, "check", "src", "tests", "bench", "flows", "scripts"], cwd=root, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_changes_nothing():
    """The code is laid out as `ruff format` lays it out (pyproject.toml's line length), so a diff shows changes, not layout."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    assert ruff, "ruff is a dev dependency: run `uv sync` (make test does)"
    root = PACKAGE.parents[1]
    result = subprocess.run(
        [ruff, "format", "--check", "src", "tests", "bench", "flows", "scripts"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, "run `uv run ruff format src tests bench flows scripts`:\n" + result.stdout + result.stderr


def test_mypy_finds_nothing():
    """The package type-checks under pyproject.toml's [tool.mypy] (the files, the libraries without types)."""
    assert importlib.util.find_spec("mypy"), "mypy is a dev dependency: run `uv sync` (make test does)"
    root = PACKAGE.parents[1]
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=root, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


# Kana, CJK ideographs, CJK punctuation and full-width forms: words of a language, which belong in
# lang/<code>/ as data, not in Python.
_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def test_no_module_holds_japanese_or_chinese_string_literals():
    """Docstrings and comments may quote examples; code reads language knowledge from lang/."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        found += [
            f"{path.relative_to(PACKAGE)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and _CJK.search(node.value)
        ]
    assert not found, f"Japanese or Chinese literals in code (move them to lang/<code>/): {found}"
