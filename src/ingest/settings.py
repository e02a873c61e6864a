"""The run parameters, defined once: the CLI's options, the flow's parameters and the
deployment's defaults are all read from `RunOptions`; and the per-article limits.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .errors import SettingsError

DEFAULT_INPUTS = ("seeds",)
DEFAULT_WAREHOUSE = "warehouse/ingest.duckdb"
DEFAULT_REPORTS = "reports"
DEFAULT_BATCH_SIZE = 50
# What a run translates: everything (as before), only the sentences the report shows (the rest
# waits for `ingest translate`), or nothing (everything with a package waits).
TRANSLATE_MODES = ("all", "evidence", "none")


def _help(text: str) -> dict[str, str]:
    return {"help": text}


@dataclass(frozen=True)
class RunOptions:
    """What one run ingests, where it writes, and how it schedules the per-document stages."""

    paths: tuple[str, ...] = field(default=DEFAULT_INPUTS, metadata=_help(
        "Files or folders to ingest (default: the project's seeds/)."))
    warehouse_path: str = field(default=DEFAULT_WAREHOUSE, metadata=_help("DuckDB file to fill."))
    reports_dir: str | None = field(default=DEFAULT_REPORTS, metadata=_help(
        "Directory for consistency.md and consistency.html (none: no report files)."))
    batch_size: int = field(default=DEFAULT_BATCH_SIZE, metadata=_help("Documents per stage task."))
    max_concurrency: int = field(default=4, metadata=_help(
        "Stage batches submitted and unfinished at any time."))
    dask: bool = field(default=False, metadata=_help(
        "Run the per-document stages on a local Dask cluster (127.0.0.1)."))
    dask_address: str | None = field(default=None, metadata=_help(
        "Run the per-document stages on this existing Dask cluster (tcp://HOST:PORT)."))
    dask_workers: int = field(default=2, metadata=_help("Worker processes of the local Dask cluster."))
    stage_cache: bool = field(default=True, metadata=_help(
        "Read and write the stage cache next to the warehouse (off: recompute every stage)."))
    follow_links: bool = field(default=False, metadata=_help(
        "Read file links that point outside the input folders (off: such a link is a failed document)."))
    translate: str = field(default="all", metadata=_help(
        "What to translate: all (every segment), evidence (only the sentences the report shows, first; "
        "the rest waits for `ingest translate`) or none (everything waits)."))

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", tuple(str(p) for p in (self.paths or DEFAULT_INPUTS)))
        object.__setattr__(self, "warehouse_path", str(self.warehouse_path))
        if self.reports_dir is not None:
            object.__setattr__(self, "reports_dir", str(self.reports_dir))
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
        return RunOptions(**{**self.as_dict(), "paths": tuple(absolute(p) for p in self.paths),
                             "warehouse_path": absolute(self.warehouse_path),
                             "reports_dir": absolute(self.reports_dir) if self.reports_dir else None})

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULTS = RunOptions()


def describe(name: str) -> str:
    """The help text of one run parameter."""
    return next(f.metadata["help"] for f in fields(RunOptions) if f.name == name)


def args_section(options: type[RunOptions]) -> str:
    """The parameters' help texts as a Google-style `Args:` section (what Prefect parses)."""
    return "Args:\n" + "".join(f"    {f.name}: {f.metadata['help']}\n" for f in fields(options))


# Limits for one article (environment variables raise them). The longest real article is
# ~25 KB; a bigger file is a dump or a mistake, and extracting 50 MB would take many minutes.
# What an article may cost to parse and process (ingest.clean.budget): characters that open
# markup (HTML '<'; Markdown line breaks, table '|', link '[' and '<'; a 200,000-character
# article has a few thousand), seconds of parsing, and segments (each is language-detected
# and extracted on its own: ~0.5 ms apiece); and seconds per document for each of the prepare
# and extract stages (ingest.budget: a real article takes well under a second).
@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 16 * 1024 * 1024
    max_text_chars: int = 200_000
    max_markup: int = 50_000
    max_clean_seconds: float = 10.0
    max_segments: int = 20_000
    max_stage_seconds: float = 20.0

    def mark(self) -> str:
        """What a failure caused by these limits records with its pipeline version: the same
        document is skipped while the limits stay, and tried again once they change."""
        values = ",".join(f"{getattr(self, f.name)!r}" for f in fields(self))
        return "~limits:" + hashlib.sha256(values.encode()).hexdigest()[:8]


LIMIT_VARIABLES = {f.name: "INGEST_" + f.name.upper() for f in fields(Limits)}


def limits() -> Limits:
    """The per-article limits, from the environment (read at each call: a changed variable counts at
    once, in a Dask worker too); `SettingsError` names a variable whose value cannot be used."""
    values: dict[str, Any] = {}
    for f in fields(Limits):
        raw = os.environ.get(LIMIT_VARIABLES[f.name])
        if raw is not None:
            values[f.name] = _positive(LIMIT_VARIABLES[f.name], raw, f.default)
    return Limits(**values)


def _positive(name: str, raw: str, example: int | float) -> int | float:
    whole = isinstance(example, int)
    kind = "a whole number" if whole else "a number of seconds"
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not {kind}; set it to {kind} above 0 "
                            f"(e.g. {name}={example!r}) or unset it") from None
    if not (0 < value < float("inf")):
        raise SettingsError(f"{name}={raw!r} must be above 0 and finite; set it to {kind} above 0 or unset it")
    return value

