"""Entrypoint of the `ingest` deployment: `flows/deployment.py:ingest` (see prefect.yaml).

The flow and its tasks live in `ingest.flow`, a module of the installed package, so Dask
workers can import the tasks by name (a file Prefect loads by path has no importable name).
This file is named so that Prefect, which loads it under its stem as module name, does not
shadow the `ingest` package.
"""

from __future__ import annotations

from ingest.flow import ingest, ingest_stages

__all__ = ["ingest", "ingest_stages"]

if __name__ == "__main__":
    ingest()
