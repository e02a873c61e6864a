"""What one article may be and cost, read from the environment (`INGEST_MAX_*` raise them).

The longest real article is ~25 KB; a bigger file is a dump or a mistake, and extracting 50 MB
would take many minutes. What an article may cost to parse and process (`ingest.clean.budget`):
characters that open markup (HTML '<'; Markdown line breaks, table '|', link '[' and '<'; a
200,000-character article has a few thousand), seconds of parsing, and segments (each is
language-detected and extracted on its own: ~0.5 ms apiece); and seconds per document for each
of the prepare and extract stages (`ingest.budget`: a real article takes well under a second).
A refusal over a limit records the limits' mark, so the document is tried again once they change;
the run parameters (`settings`) are not limits.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, fields
from typing import Any

from .errors import SettingsError


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


VARIABLES = {f.name: "INGEST_" + f.name.upper() for f in fields(Limits)}


def current() -> Limits:
    """The per-article limits, from the environment (read at each call: a changed variable counts at
    once, in a Dask worker too); `SettingsError` names a variable whose value cannot be used."""
    values: dict[str, Any] = {}
    for f in fields(Limits):
        raw = os.environ.get(VARIABLES[f.name])
        if raw is not None:
            assert isinstance(f.default, (int, float))  # every limit has a numeric default
            values[f.name] = _positive(VARIABLES[f.name], raw, f.default)
    return Limits(**values)


def _positive(name: str, raw: str, example: int | float) -> int | float:
    whole = isinstance(example, int)
    kind = "a whole number" if whole else "a number of seconds"
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        raise SettingsError(
            f"{name}={raw!r} is not {kind}; set it to {kind} above 0 (e.g. {name}={example!r}) or unset it"
        ) from None
    if not (0 < value < float("inf")):
        raise SettingsError(f"{name}={raw!r} must be above 0 and finite; set it to {kind} above 0 or unset it")
    if not whole and value > MAX_SECONDS:  # beyond what a timer can be set to; no document needs a day
        raise SettingsError(f"{name}={raw!r} is too long; set it to at most {MAX_SECONDS} seconds (a day) or unset it")
    return value


MAX_SECONDS = 86_400
