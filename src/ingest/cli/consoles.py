"""Where every command prints, and how: results on stdout, diagnostics on stderr, untrusted text as text.

Document text, file names and query results come from the inputs, so nothing printed is read
as Rich markup (`[/x]` would crash, `[bold]` would style), emoji codes (`:x:`) or highlighting,
and control characters (escape sequences in a file name) are shown as visible escapes instead
of reaching the terminal (`ingest.escape`, shared with every output format). Each message is
one line: a line break inside a file name or a query error is shown as `\\n`, so text from the inputs
cannot start a line that looks like one of ours (`error: ...`). Lines are never wrapped, so a printed
command can be pasted.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ..escape import visible


class Exit(IntEnum):
    """The exit statuses of every command (README, "Exit status")."""

    OK = 0
    FAILED = 1  # some files failed (`ingest run`), a query or the command itself failed
    USAGE = 2  # wrong arguments or options, an input or warehouse that does not exist
    LOCKED = 3  # another process holds the warehouse


def _console(stderr: bool) -> Console:
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=True)


console = _console(stderr=False)
err = _console(stderr=True)


def say(message: str, to: Console = console) -> None:
    """Print one line of ours that may quote untrusted text."""
    to.print(visible(message))


def warn(message: str) -> None:
    err.print(Text("warning: ", style="yellow"), Text(visible(message)), sep="")


def fail(message: str, code: Exit = Exit.FAILED) -> NoReturn:
    """Print `error: message` on stderr, as one line, and end the command with `code`."""
    err.print(Text("error: ", style="red"), Text(visible(message)), sep="")
    raise typer.Exit(int(code))
