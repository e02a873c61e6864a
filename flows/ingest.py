"""Entrypoint of the `ingest` deployment: `flows/ingest.py:ingest` (see prefect.yaml).

The flow and its tasks live in `ingest.flow`, a module of the installed package, so Dask
workers can import the tasks by name (a file Prefect loads by path has no importable name).

Prefect loads an entrypoint file under its stem as module name, here "ingest", which is
also the name of the package this file imports; when the package was not imported yet
the file would shadow it. So, when loaded that way (or run as a script), put the package
back in `sys.modules` first, found on sys.path minus this folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ in ("ingest", "__main__"):
    import importlib.machinery
    import importlib.util

    _here = Path(__file__).resolve().parent
    _spec = importlib.machinery.PathFinder.find_spec(
        "ingest", [p for p in sys.path if Path(p or ".").resolve() != _here])
    if _spec is None or _spec.loader is None:
        raise ImportError("the `ingest` package is not installed in this environment; run `uv sync` "
                          "in the project and start the worker with `uv run` (or `make serve`)")
    _package = importlib.util.module_from_spec(_spec)
    sys.modules["ingest"] = _package
    _spec.loader.exec_module(_package)

from ingest.flow import ingest, ingest_stages  # noqa: E402

__all__ = ["ingest", "ingest_stages"]

if __name__ == "__main__":
    ingest()
