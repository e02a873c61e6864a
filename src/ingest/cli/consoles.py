"""The two consoles every command prints to: results on stdout, diagnostics on stderr."""

from __future__ import annotations

from rich.console import Console

console = Console()
err = Console(stderr=True)
