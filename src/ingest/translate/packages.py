"""Argos Translate packages (`.argosmodel` files): validate, install, list, remove.

Packages live where argostranslate looks for them: `argostranslate.settings.package_data_dir`,
which argostranslate computes once, at import, from `ARGOS_PACKAGES_DIR` (environment or
`~/.config/argos-translate/settings.json`), else `$XDG_DATA_HOME/argos-translate/packages`,
else `~/.local/share/argos-translate/packages`. Set the variable before the first import.

Installing does not use `argostranslate.package.install_from_path`, which extracts any zip
as is: archives are checked first (`archive`: layout, metadata, paths, sizes), extracted into a hidden
staging folder inside the package directory and renamed into place, so a refused or failed
install leaves nothing behind and a half-extracted package is never visible.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import ctranslate2
import sentencepiece
from argostranslate import package as argos_package
from argostranslate import settings as argos_settings

from ..errors import INSTALL_FROM_FILE, PackageError, command
from . import archive as archive_file
from .archive import ArchiveLimits

# Hidden names so that neither we nor a human mistake them for packages.
STAGING_PREFIX = ".ingest-staging-"
TRASH_PREFIX = ".ingest-trash-"
# Hidden folders older than this were left by a killed install or removal, not a running one.
STALE_SECONDS = 24 * 3600

INDEX_TIMEOUT_SECONDS = 5.0
OFFLINE_HINT = f"install from a file instead: `{INSTALL_FROM_FILE}`"

PAIR_RE = re.compile(r"^\s*(?P<src>[A-Za-z-]+?)\s*(?:->|_|→)\s*(?P<dst>[A-Za-z-]+)\s*$")


@dataclass(frozen=True)
class InstalledPackage:
    """One installed translation package."""

    from_code: str
    to_code: str
    version: str
    path: Path
    size_bytes: int

    @property
    def pair(self) -> str:
        return f"{self.from_code}->{self.to_code}"

    @property
    def package_id(self) -> str:
        """The name argospm gives the package, stable across versions: `translate-ja_en`."""
        return f"translate-{self.from_code}_{self.to_code}"


# ----------------------------------------------------------------------------- locations


def package_dir() -> Path:
    """The directory argostranslate installs packages into (see module docstring)."""
    return Path(argos_settings.package_data_dir)


def _search_dirs() -> list[Path]:
    return [Path(directory) for directory in argos_settings.package_dirs]


# ----------------------------------------------------------------------------- listing


def list_installed() -> list[InstalledPackage]:
    """Every installed translation package, sorted by pair then version."""
    found = [
        _describe(directory)
        for root in _search_dirs()
        if root.is_dir()
        for directory in sorted(root.iterdir())
        if _looks_like_package(directory)
    ]
    return sorted((p for p in found if p is not None), key=lambda p: (p.pair, p.version))


def _looks_like_package(directory: Path) -> bool:
    # Hidden folders are our staging/trash areas; folders without metadata are not
    # packages (argostranslate's own listing crashes on them, so we do not use it).
    return (
        directory.is_dir()
        and not directory.name.startswith(".")
        and (directory / "metadata.json").is_file()
    )


def _describe(directory: Path) -> InstalledPackage | None:
    try:
        pkg = argos_package.Package(directory)
    except (OSError, ValueError, AttributeError):  # unreadable or non-object metadata.json
        return None
    if pkg.type != "translate" or not pkg.from_code or not pkg.to_code:
        return None
    return InstalledPackage(
        from_code=pkg.from_code,
        to_code=pkg.to_code,
        version=pkg.package_version or "",
        path=directory,
        size_bytes=_size_on_disk(directory),
    )


def _size_on_disk(directory: Path) -> int:
    return sum(f.stat().st_size for f in directory.rglob("*") if f.is_file())


def parse_pair(pair: str) -> tuple[str, str]:
    """'ja->en', 'ja_en' or 'ja → en' to ('ja', 'en')."""
    match = PAIR_RE.match(pair)
    if not match:
        raise PackageError(
            f"cannot read the language pair {pair!r}; write it as FROM->TO or FROM_TO, "
            f"e.g. `ja->en` or `ja_en` (see `{command('models list')}`)"
        )
    return match.group("src").lower(), match.group("dst").lower()


# ----------------------------------------------------------------------------- removing


def remove(pair: str) -> list[InstalledPackage]:
    """Uninstall every installed package for `pair`; returns what was removed."""
    from_code, to_code = parse_pair(pair)
    doomed = [p for p in list_installed() if (p.from_code, p.to_code) == (from_code, to_code)]
    if not doomed:
        installed = ", ".join(p.pair for p in list_installed()) or "none"
        raise PackageError(
            f"no package for {from_code}->{to_code} is installed (installed: {installed}); "
            f"see `{command('models list')}`"
        )
    for pkg in doomed:
        _delete_atomically(pkg.path)
    return doomed


def _delete_atomically(directory: Path) -> None:
    # Renaming first makes the package disappear at once; a crash during rmtree then
    # leaves only a hidden folder behind, never a half-deleted package.
    trash = Path(tempfile.mkdtemp(prefix=TRASH_PREFIX, dir=directory.parent))
    os.replace(directory, trash / directory.name)
    shutil.rmtree(trash, ignore_errors=True)


# ----------------------------------------------------------------------------- installing


def install_from_file(path: Path | str, limits: ArchiveLimits = ArchiveLimits()) -> InstalledPackage:
    """Validate and install a `.argosmodel` file, replacing any package of the same pair."""
    path = Path(path)
    destination_root = package_dir()
    destination_root.mkdir(parents=True, exist_ok=True)
    _sweep_stale(destination_root)
    with archive_file.open_zip(path) as archive:
        manifest = archive_file.validate(archive, limits)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=destination_root))
        try:
            archive_file.extract(archive, manifest, staging, limits)
            _check_loadable(staging / manifest.top)
            installed = _move_into_place(staging / manifest.top, destination_root / manifest.top)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    _remove_other_versions(installed)
    return installed


def _sweep_stale(root: Path) -> None:
    cutoff = time.time() - STALE_SECONDS
    for prefix in (STAGING_PREFIX, TRASH_PREFIX):
        for leftover in root.glob(f"{prefix}*"):
            if leftover.stat().st_mtime < cutoff:
                shutil.rmtree(leftover, ignore_errors=True)


def _check_loadable(package_root: Path) -> None:
    """Load tokenizer and model once so a package that cannot translate is never installed."""
    try:
        sentencepiece.SentencePieceProcessor(model_file=str(package_root / "sentencepiece.model"))
    except (OSError, RuntimeError) as exc:
        raise archive_file.refuse(f"sentencepiece.model does not load ({exc})") from exc
    try:
        ctranslate2.Translator(str(package_root / "model"), device="cpu")
    except (OSError, RuntimeError, ValueError) as exc:
        raise archive_file.refuse(f"model/ is not a loadable CTranslate2 model ({exc})") from exc


def _move_into_place(staged: Path, final: Path) -> InstalledPackage:
    # A directory cannot be os.replace'd onto a non-empty one, so a same-named package
    # is moved aside first and restored if the swap fails.
    aside = None
    if final.exists():
        aside = Path(tempfile.mkdtemp(prefix=TRASH_PREFIX, dir=final.parent)) / final.name
        os.replace(final, aside)
    try:
        os.replace(staged, final)
    except OSError as exc:
        if aside is not None:
            os.replace(aside, final)
        raise PackageError(f"could not move the package into {final} ({exc}); check permissions") from exc
    if aside is not None:
        shutil.rmtree(aside.parent, ignore_errors=True)
    described = _describe(final)
    assert described is not None, "validated metadata must describe a translate package"
    return described


def _remove_other_versions(installed: InstalledPackage) -> None:
    """Keep one package per pair, or which one translates would depend on folder order."""
    for other in list_installed():
        same_pair = (other.from_code, other.to_code) == (installed.from_code, installed.to_code)
        if same_pair and other.path != installed.path:
            _delete_atomically(other.path)


# ----------------------------------------------------------------------------- online index


def install_from_index(
    langs: Sequence[str], timeout: float = INDEX_TIMEOUT_SECONDS
) -> list[InstalledPackage]:
    """Download and install the `xx->en` package for each language from the Argos index."""
    _refresh_index(timeout)
    available = {
        (p.from_code, p.to_code): p
        for p in argos_package.get_available_packages()
        if p.type == "translate"
    }
    wanted = [(lang.lower(), "en") for lang in langs]
    missing = [f"{src}->{dst}" for src, dst in wanted if (src, dst) not in available]
    if missing:
        offered = ", ".join(sorted(f"{s}->{d}" for s, d in available if d == "en"))
        raise PackageError(
            f"the Argos index has no package for {', '.join(missing)}; it offers: {offered}"
        )
    return [_download_and_install(available[pair]) for pair in wanted]


def _refresh_index(timeout: float) -> None:
    """Fetch the package index, failing within `timeout` seconds when offline.

    argostranslate's own update_package_index has no timeout and swallows errors (its
    get_available_packages then recurses forever), and a socket timeout does not cover a
    hanging DNS lookup; so the fetch runs in a daemon thread with a hard deadline.
    """
    url = argos_settings.remote_package_index
    outcome: dict[str, object] = {}

    def fetch() -> None:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                outcome["data"] = response.read()
        except Exception as exc:  # noqa: BLE001 — reported to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=fetch, name="argos-index-fetch", daemon=True)
    worker.start()
    worker.join(timeout)
    data = outcome.get("data")
    if not isinstance(data, bytes):
        reason = outcome.get("error") or f"no answer within {timeout:g} s"
        raise PackageError(f"cannot reach the Argos package index at {url} ({reason}); {OFFLINE_HINT}")
    Path(argos_settings.local_package_index).write_bytes(data)


def _download_and_install(available: argos_package.AvailablePackage) -> InstalledPackage:
    try:
        downloaded = available.download()
    except Exception as exc:  # argostranslate raises bare Exception on failed downloads
        raise PackageError(
            f"downloading {available.from_code}->{available.to_code} failed ({exc}); {OFFLINE_HINT}"
        ) from exc
    try:
        return install_from_file(downloaded)
    finally:
        Path(downloaded).unlink(missing_ok=True)
