"""What invalidates the stage cache: every module of the package is either part of a stage's
identity (`STAGE_MODULES`, as module objects) or declared output-neutral."""

from __future__ import annotations

import importlib
import pkgutil

import ingest
from ingest.run import identity


def _all_modules() -> set[str]:
    found = {"ingest"}
    for info in pkgutil.walk_packages(ingest.__path__, "ingest."):
        found.add(info.name)
    return found


def test_every_module_is_assigned_to_a_stage_or_declared_output_neutral():
    staged = {module.__name__ for modules in identity.STAGE_MODULES.values() for module in modules}
    staged |= {module.__name__ for module in identity.CHECK_MODULES} | set(identity.CHECK_RUNNERS)
    unassigned = _all_modules() - staged - identity.OUTPUT_NEUTRAL
    assert not unassigned, f"assign these to a stage in run/identity.py or declare them output-neutral: {unassigned}"
    assert not staged & identity.OUTPUT_NEUTRAL, "a module cannot both shape a stage's output and not"
    assert not identity.OUTPUT_NEUTRAL - _all_modules(), "OUTPUT_NEUTRAL names modules that do not exist"


def test_an_edit_to_a_stage_module_changes_only_the_stages_that_run_it(monkeypatch):
    before = {stage: identity.code_digest(stage) for stage in identity.STAGES}
    claims = importlib.import_module("ingest.extract.claims")
    real_source = identity._source
    monkeypatch.setattr(identity, "_source", lambda module: real_source(module) + (b"#" if module is claims else b""))
    identity.code_digest.cache_clear()
    try:
        after = {stage: identity.code_digest(stage) for stage in identity.STAGES}
    finally:
        identity.code_digest.cache_clear()
    assert after["extract"] != before["extract"]
    assert after["prepare"] == before["prepare"] and after["translate"] == before["translate"]
