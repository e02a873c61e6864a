"""The run parameters, defined once: `RunOptions`. The flow's parameters (and so the deployment's)
and the options of `ingest run` are made from its fields (`keyword_parameters`; `cli/run.py`),
with each field's help text, and its command-line spelling where it differs from the name.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args, get_type_hints

DEFAULT_INPUTS = ("seeds",)
DEFAULT_WAREHOUSE = "warehouse/ingest.duckdb"
DEFAULT_REPORTS = "reports"
NO_REPORTS = "none"  # the reports folder that means no report files
DEFAULT_BATCH_SIZE = 50
# What a run translates: everything (as before), only the sentences the report shows (the rest
# waits for `ingest translate`), or nothing (everything with a package waits).
TranslateMode = Literal["all", "evidence", "none"]
TRANSLATE_MODES: tuple[str, ...] = get_args(TranslateMode)


def _help(text: str, *flags: str, env: str | None = None, metavar: str | None = None) -> dict[str, Any]:
    """A field's help text, and how the command line spells it when not `--the-name` (`flags`), the
    environment variable that sets it for every command (`env`), the placeholder in `-h` (`metavar`)."""
    return {"help": text, "flags": flags, "env": env, "metavar": metavar}


@dataclass(frozen=True)
class RunOptions:
    """What one run ingests, where it writes, and how it schedules the per-document stages."""

    paths: tuple[str, ...] = field(
        default=DEFAULT_INPUTS, metadata=_help("Files or folders to ingest (default: the project's seeds/).")
    )
    warehouse_path: str = field(
        default=DEFAULT_WAREHOUSE, metadata=_help("DuckDB file to fill.", "--warehouse", env="INGEST_WAREHOUSE")
    )
    reports_dir: str | None = field(
        default=DEFAULT_REPORTS,
        metadata=_help(
            "Directory for consistency.md and consistency.html (none: no report files).", "--reports", env="INGEST_REPORTS"
        ),
    )
    batch_size: int = field(default=DEFAULT_BATCH_SIZE, metadata=_help("Documents per stage task."))
    max_concurrency: int = field(default=4, metadata=_help("Stage batches submitted and unfinished at any time."))
    dask: bool = field(default=False, metadata=_help("Run the per-document stages on a local Dask cluster (127.0.0.1)."))
    dask_address: str | None = field(
        default=None,
        metadata=_help("Run the per-document stages on this existing Dask cluster (tcp://HOST:PORT).", metavar="tcp://HOST:PORT"),
    )
    dask_workers: int = field(default=2, metadata=_help("Worker processes of the local Dask cluster."))
    stage_cache: bool = field(
        default=True,
        metadata=_help(
            "Read and write the stage cache next to the warehouse (off: recompute every stage).", "--stage-cache/--no-stage-cache"
        ),
    )
    follow_links: bool = field(
        default=False,
        metadata=_help("Read file links that point outside the input folders (off: such a link is a failed document)."),
    )
    exclude: tuple[str, ...] = field(
        default=(),
        metadata=_help(
            "Gitignore patterns of files to leave out, matched inside each input folder ('LABELS.md', 'drafts/'), "
            "besides the folders' .ingestignore files; such files are documents with status 'excluded'.",
            metavar="GLOB",
        ),
    )
    translate: TranslateMode = field(
        default="all",
        metadata=_help(
            "What to translate: all (every segment), evidence (only the sentences the report shows, first; "
            "the rest waits for `ingest translate`) or none (everything waits)."
        ),
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", tuple(str(p) for p in (self.paths or DEFAULT_INPUTS)))
        object.__setattr__(self, "exclude", tuple(str(p) for p in self.exclude or ()))
        object.__setattr__(self, "warehouse_path", str(self.warehouse_path))
        if self.reports_dir is not None:  # a folder named like NO_REPORTS: its absolute path
            object.__setattr__(self, "reports_dir", None if str(self.reports_dir) == NO_REPORTS else str(self.reports_dir))
        object.__setattr__(self, "batch_size", max(1, int(self.batch_size)))
        if self.translate not in TRANSLATE_MODES:
            raise ValueError(f"translate must be one of {', '.join(TRANSLATE_MODES)}, not {self.translate!r}")

    @property
    def uses_dask(self) -> bool:
        return bool(self.dask or self.dask_address)

    def resolved(self, root: Path) -> RunOptions:
        """The same options with relative paths taken from `root`."""

        def absolute(path: str) -> str:
            candidate = Path(path).expanduser()
            return str(candidate if candidate.is_absolute() else root / candidate)

        return RunOptions(
            **{
                **self.as_dict(),
                "paths": tuple(absolute(p) for p in self.paths),
                "warehouse_path": absolute(self.warehouse_path),
                "reports_dir": absolute(self.reports_dir) if self.reports_dir else None,
            }
        )

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULTS = RunOptions()


def describe(name: str) -> str:
    """The help text of one run parameter."""
    return str(next(f.metadata["help"] for f in fields(RunOptions) if f.name == name))


def args_section(options: type[RunOptions]) -> str:
    """The parameters' help texts as a Google-style `Args:` section (what Prefect parses)."""
    return "Args:\n" + "".join(f"    {f.name}: {f.metadata['help']}\n" for f in fields(options))


def keyword_parameters() -> list[inspect.Parameter]:
    """The run parameters as keyword-only parameters of a function, with their types and defaults
    (the signature of the `ingest` flow, which Prefect turns into the deployment's parameters)."""
    hints = get_type_hints(RunOptions)
    return [
        inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=hints[f.name])
        for f in fields(RunOptions)
    ]
