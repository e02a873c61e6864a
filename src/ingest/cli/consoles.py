"""Where every command prints, and how: results on stdout, diagnostics on stderr, untrusted text as text.

Document text, file names and query results come from the inputs, so nothing printed is read
as Rich markup (`[/x]` would crash, `[bold]` would style), emoji codes (`:x:`) or highlighting,
and control characters (escape sequences in a file name) are shown as visible escapes instead
of reaching the terminal. Lines are never wrapped, so a printed command can be pasted.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NoReturn

import typer
from rich.console import Console
from rich.text import Text


class Exit(IntEnum):
    """The exit statuses of every command (README, "Exit status")."""

    OK = 0
    FAILED = 1    # some files failed (`ingest run`), a query or the command itself failed
    USAGE = 2     # wrong arguments or options, an input or warehouse that does not exist
    LOCKED = 3    # another process holds the warehouse


def _console(stderr: bool) -> Console:
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=True)


console = _console(stderr=False)
err = _console(stderr=True)

# C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a terminal shows.
_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAKS = re.compile(r"[\n\t]")


def visible(text: str, keep_line_breaks: bool = False) -> str:
    """`text` with every control character written as an escape (`\\x1b`, `\\r`, `\\u202e`)."""
    def escape(match: re.Match[str]) -> str:
        return match.group().encode("unicode_escape").decode("ascii")

    text = _INVISIBLE.sub(escape, str(text))
    return text if keep_line_breaks else _LINE_BREAKS.sub(escape, text)


def say(message: str, to: Console = console) -> None:
    """Print one message of ours that may quote untrusted text."""
    to.print(visible(message, keep_line_breaks=True))


def warn(message: str) -> None:
    err.print(Text("warning: ", style="yellow"), Text(visible(message, keep_line_breaks=True)), sep="")


def fail(message: str, code: Exit = Exit.FAILED) -> NoReturn:
    """Print `error: message` on stderr and end the command with `code`."""
    err.print(Text("error: ", style="red"), Text(visible(message, keep_line_breaks=True)), sep="")
    raise typer.Exit(int(code))
