"""RunOptions is the only list of run parameters: the flow's parameters (and so the deployment's)
and the options of `ingest run` are made from it, and both drivers call the same steps."""

from __future__ import annotations

import dataclasses
import inspect

from typer.testing import CliRunner

from ingest.cli import app
from ingest.settings import RunOptions, describe


def test_the_flow_takes_exactly_the_run_options():
    from ingest.flow import ingest

    schema = ingest.parameters.model_dump()["properties"]
    assert list(schema) == [f.name for f in dataclasses.fields(RunOptions)]
    for option in dataclasses.fields(RunOptions):
        assert schema[option.name]["description"] == describe(option.name)
        default = option.default
        assert schema[option.name].get("default") == (list(default) if isinstance(default, tuple) else default)
    assert schema["translate"]["enum"] == ["all", "evidence", "none"]  # refused at submission, not 40 s later


def test_ingest_run_offers_every_run_option_with_its_help():
    help_text = " ".join(CliRunner().invoke(app, ["run", "-h"], terminal_width=400).output.split())
    for option in dataclasses.fields(RunOptions):
        flags = option.metadata["flags"] or ("--" + option.name.replace("_", "-"),)
        if option.name != "paths":
            assert flags[0].split("/")[0] in help_text, option.name
        assert " ".join(describe(option.name).split()) in help_text, option.name


def test_ingest_run_refuses_an_unknown_translate_mode_before_any_work(tmp_path):
    result = CliRunner().invoke(
        app, ["run", "--no-prefect", "--translate", "bogus", "--warehouse", str(tmp_path / "w.duckdb"), str(tmp_path)]
    )
    assert result.exit_code == 2 and "bogus" in result.output
    assert not (tmp_path / "w.duckdb").exists()


def test_the_flow_and_the_direct_run_call_the_same_steps():
    from ingest import flow
    from ingest.run.runner import Run

    steps = {"pending": flow.plan_task, "load_staged": flow.load_task, "finish": flow.report_task}
    for method, task in steps.items():
        assert f"run.{method}(" in inspect.getsource(task.fn), (method, task.name)
        assert hasattr(Run, method)


def test_reports_none_writes_no_report_files(tmp_path, monkeypatch):
    """As the help says: `--reports none` writes no report files; a folder named so is given by its path."""
    monkeypatch.chdir(tmp_path)
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "a.txt").write_text("PyTorch 2.5 was released in October 2024.", "utf-8")
    for value, folder in (("none", None), (str(tmp_path / "none"), tmp_path / "none")):
        result = CliRunner().invoke(
            app, ["run", str(inputs), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", value, "--no-prefect"]
        )
        assert result.exit_code == 0, result.output
        if folder is None:
            assert "report:" not in result.output and not (tmp_path / "none").exists(), result.output
        else:
            assert (folder / "consistency.html").exists()
    assert RunOptions(reports_dir="none").reports_dir is None
