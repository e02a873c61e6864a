"""The errors the library raises, each saying what happened and what to do, and the hint texts.

Every error the pipeline means a user to read derives from `IngestError`, so a caller can
catch them all; the subclasses say which part failed.
"""

from __future__ import annotations


class IngestError(Exception):
    """Base of the errors this package raises on purpose; the message says what to do."""


class ReadError(IngestError, ValueError):
    """The bytes are not a text document we can decode; the message says why and what to do."""


class LimitError(ReadError):
    """A document is over one of the per-article limits (`limits.current()`): it is tried again
    when the limits change."""


class SettingsError(IngestError):
    """An environment variable or setting holds a value that cannot be used; says which and what to do."""


class SchedulerError(IngestError):
    """No Dask scheduler answers at the address given (nothing listens, or something else does)."""


class SchedulerAddressError(SchedulerError, ValueError):
    """The Dask scheduler address is not one (not tcp://HOST:PORT)."""


class WarehouseError(IngestError, RuntimeError):
    """The warehouse file cannot be opened (not a DuckDB file, unwritable folder...); says what to do."""


class WarehouseLockedError(WarehouseError):
    """Another process holds the warehouse file for writing."""


class WarehouseCorruptError(WarehouseError):
    """The warehouse file is truncated or damaged; the message says how to recover."""


class ReportsError(IngestError):
    """The reports folder cannot be written (a file in the way, no permission)."""


class PackageError(IngestError):
    """Any failure to validate, install, find or remove a translation package."""


# Hints name commands as they are typed in the project (`uv run` finds the project's environment),
# so a hint pasted into a shell works.
COMMAND = "uv run ingest"


def command(arguments: str) -> str:
    """`arguments` as a command line to paste, e.g. command("sql 'SELECT 1'")."""
    return f"{COMMAND} {arguments}"


INSTALL_FROM_FILE = command("models install --from PATH.argosmodel")


def install_command(lang: str) -> str:
    """The command that installs the `lang`->en translation package from the online index."""
    return command(f"models install {lang}")


def install_hint(lang: str) -> str:
    """How to get a translation package for `lang`, online or from a file, as one sentence."""
    return f"install one with `{install_command(lang)}` (online) or `{INSTALL_FROM_FILE}`"


def one_line(text: object) -> str:
    """A library's multi-line message (DuckDB's "LINE 1: ..." context) folded into one line."""
    return " ".join(line.strip() for line in str(text).splitlines() if line.strip())
