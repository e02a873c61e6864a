"""Where the project lives on the machine running a flow: the `ingest` deployment's pull step.

By default `prefect deploy` records the directory it was run from as the deployment's
working directory, so moving or re-cloning the checkout breaks every run. prefect.yaml
uses `set_project_directory` as its pull step instead: the worker runs the flow from the
checkout its own Python environment belongs to (this project is installed editable, so
the `ingest` package's location names it), or from `$INGEST_PROJECT_ROOT` when that is set.
Nothing about the deploying machine's paths ends up in the deployment.

No heavy imports here: the step runs before the flow is loaded.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT_ENV = "INGEST_PROJECT_ROOT"
ENTRYPOINT = Path("flows") / "deployment.py"


def project_root() -> Path:
    """$INGEST_PROJECT_ROOT, else the checkout holding this package (editable install), else the cwd."""
    configured = os.environ.get(PROJECT_ROOT_ENV)
    if configured:
        return Path(configured).expanduser().resolve()
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / ENTRYPOINT).is_file():
        return checkout
    return Path.cwd().resolve()


def set_project_directory(directory: str | None = None) -> dict[str, str]:
    """Prefect pull step: chdir to the project root (see the module docstring); returns {"directory": ...}."""
    from prefect.deployments.steps import set_working_directory

    root = Path(directory).expanduser().resolve() if directory else project_root()
    if not (root / ENTRYPOINT).is_file():
        raise FileNotFoundError(
            f"{root / ENTRYPOINT} does not exist: the worker cannot find this project's checkout. "
            f"Start the worker from the project's environment (`make serve`, or `uv run prefect worker "
            f"start --pool local` in the checkout) or set {PROJECT_ROOT_ENV} to the checkout's path."
        )
    return set_working_directory(str(root))
