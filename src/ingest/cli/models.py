"""`ingest models ...`: install, list and remove offline translation packages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..errors import INSTALL_FROM_FILE, PackageError, install_command, install_hint
from ..translate import index, packages
from ..translate.packages import BrokenPackage, InstalledPackage
from .consoles import Exit, console, fail, say, visible, warn

models_app = typer.Typer(
    help="Manage offline translation packages (Argos Translate, xx->en).",
    no_args_is_help=True,
)


@models_app.command("install")
def install(
    langs: Annotated[
        list[str] | None,
        typer.Argument(help="Source languages to download from the Argos index, e.g. ja zh."),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from", help="Install this .argosmodel file instead (works offline)."),
    ] = None,
) -> None:
    """Install xx->en packages from the online index, or one package from a file."""
    if bool(langs) == (from_file is not None):
        fail(
            f"give either languages (`{install_command('ja zh')}`) or a file (`{INSTALL_FROM_FILE}`), not both or neither",
            Exit.USAGE,
        )
    try:
        installed = [packages.install_from_file(from_file)] if from_file is not None else index.install_from_index(langs or [])
    except PackageError as exc:
        fail(str(exc))
    for package in installed:
        say(f"installed {package.pair} {package.version} into {package.path}")


@models_app.command("list")
def list_packages() -> None:
    """Show the installed translation packages (and any broken package folder, with the reason)."""
    installed, broken = packages.scan()
    warn_broken(broken)
    if not installed:
        say(f"no translation packages installed in {packages.package_dir()}; {install_hint('ja')}")
        return
    console.print(_table(installed))


@models_app.command("remove")
def remove(
    target: Annotated[
        str, typer.Argument(help="The pair to uninstall (ja->en or ja_en), or a package folder's name as `models list` shows it.")
    ],
) -> None:
    """Uninstall the package(s) for one language pair, or one (broken) package folder."""
    try:
        removed = packages.remove(target)
    except PackageError as exc:
        fail(str(exc))
    for package in removed:
        what = f"{package.pair} {package.version}" if isinstance(package, InstalledPackage) else "broken package"
        say(f"removed {what} from {package.path}")


def warn_broken(broken: list[BrokenPackage]) -> None:
    """One warning line per unusable package folder (they are skipped, never fatal)."""
    for package in broken:
        warn(package.hint())


def _table(installed: list[InstalledPackage]) -> Table:
    table = Table(title="Translation packages")
    table.add_column("pair")
    table.add_column("version")
    table.add_column("size", justify="right")
    table.add_column("path", overflow="fold")
    for package in installed:
        table.add_row(
            *(Text(visible(cell)) for cell in (package.pair, package.version, _megabytes(package.size_bytes), str(package.path)))
        )
    return table


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"
