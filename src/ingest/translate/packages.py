"""Argos Translate packages (`.argosmodel` files): validate, install, list, remove.

Packages live where argostranslate looks for them: `argostranslate.settings.package_data_dir`,
which argostranslate computes once, at import, from `ARGOS_PACKAGES_DIR` (environment or
`~/.config/argos-translate/settings.json`), else `$XDG_DATA_HOME/argos-translate/packages`,
else `~/.local/share/argos-translate/packages`. Set the variable before the first import.
That import creates those folders (and the config and cache ones), so it happens in one place,
`argos_settings()`, which turns a folder that cannot be made (ARGOS_PACKAGES_DIR=/dev/null,
XDG_DATA_HOME naming a file) into one line saying which variables to fix.

Installing does not use `argostranslate.package.install_from_path`, which extracts any zip
as is: archives are checked first (`archive`: layout, metadata, paths, sizes), extracted into a hidden
staging folder inside the package directory, checked again there and renamed into place under a
folder named from the declared pair and version, so a refused or failed install leaves nothing
behind, a half-extracted package is never visible and no package can replace another pair's.
A package folder that is broken anyway (copied by hand, damaged) is reported and skipped by
`scan`, never a crash. Installing from the online index is in `index`.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import ctranslate2
import sentencepiece

from ..errors import PackageError, SettingsError, command
from . import archive as archive_file
from .archive import ArchiveLimits
from .metadata import MAX_METADATA_BYTES, PackageMetadata, base_code, parse_metadata

# Hidden names so that neither we nor a human mistake them for packages.
STAGING_PREFIX = ".ingest-staging-"
TRASH_PREFIX = ".ingest-trash-"
# Hidden folders older than this were left by a killed install or removal, not a running one.
STALE_SECONDS = 24 * 3600

PAIR_RE = re.compile(r"^\s*(?P<src>[A-Za-z-]+?)\s*(?:->|_|→)\s*(?P<dst>[A-Za-z-]+)\s*$")


@dataclass(frozen=True)
class InstalledPackage:
    """One installed translation package."""

    from_code: str
    to_code: str
    version: str
    path: Path
    size_bytes: int
    target_prefix: str = ""

    @property
    def pair(self) -> str:
        return f"{self.from_code}->{self.to_code}"

    @property
    def package_id(self) -> str:
        """The name argospm gives the package, stable across versions: `translate-ja_en`."""
        return f"translate-{self.from_code}_{self.to_code}"


# ----------------------------------------------------------------------------- locations


def argos_settings() -> ModuleType:
    """argostranslate's settings module, imported (and its folders made) on first use; SettingsError
    if a folder cannot be made."""
    try:
        from argostranslate import settings
    except OSError as error:
        raise SettingsError(
            f"argostranslate cannot make its folder {error.filename} ({error.strerror}); point "
            "ARGOS_PACKAGES_DIR, XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME at folders "
            "(or unset them)"
        ) from error
    return settings


def package_dir() -> Path:
    """The directory argostranslate installs packages into (see module docstring)."""
    return Path(argos_settings().package_data_dir)


def _search_dirs() -> list[Path]:
    return [Path(directory) for directory in argos_settings().package_dirs]


# ----------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class BrokenPackage:
    """A folder in the package directory that looks like a package but cannot be used."""

    path: Path
    reason: str

    def hint(self) -> str:
        return (
            f"{self.path} is not a usable package ({self.reason}); it is skipped. Remove it with "
            f"`ingest models remove {self.path.name}` and install the package again"
        )


def scan() -> tuple[list[InstalledPackage], list[BrokenPackage]]:
    """Every usable package (sorted by pair, then version) and every broken one, with its reason."""
    usable: list[InstalledPackage] = []
    broken: list[BrokenPackage] = []
    for directory in _package_folders():
        try:
            usable.append(describe(directory))
        except PackageError as exc:
            broken.append(BrokenPackage(directory, str(exc)))
    return sorted(usable, key=lambda p: (p.pair, p.version)), broken


def list_installed() -> list[InstalledPackage]:
    """Every usable installed translation package, sorted by pair then version; broken ones are skipped."""
    return scan()[0]


def broken_packages() -> list[BrokenPackage]:
    """The package folders that cannot be used, each with the reason."""
    return scan()[1]


def _package_folders() -> list[Path]:
    return [
        directory
        for root in _search_dirs()
        if root.is_dir()
        for directory in sorted(root.iterdir())
        if _looks_like_package(directory)
    ]


def _looks_like_package(directory: Path) -> bool:
    # Hidden folders are our staging/trash areas; folders without metadata are not packages.
    return directory.is_dir() and not directory.name.startswith(".") and (directory / "metadata.json").is_file()


def describe(directory: Path) -> InstalledPackage:
    """The package in `directory`, from its checked metadata and layout; PackageError if unusable."""
    try:
        with open(directory / "metadata.json", "rb") as handle:
            raw = handle.read(MAX_METADATA_BYTES + 1)
    except OSError as exc:
        raise PackageError(f"metadata.json cannot be read ({exc.strerror or exc})") from exc
    metadata = parse_metadata(raw, "metadata.json")
    for required in ("model/model.bin", "sentencepiece.model"):
        if not (directory / required).is_file():
            raise PackageError(f"{required} is missing")
    return InstalledPackage(
        from_code=metadata.from_code,
        to_code=metadata.to_code,
        version=metadata.version,
        path=directory,
        size_bytes=_size_on_disk(directory),
        target_prefix=metadata.target_prefix,
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


def remove(target: str) -> list[InstalledPackage | BrokenPackage]:
    """Uninstall every installed package for a pair (`ja->en`), or one package folder by name
    (what `ingest models list` shows for a broken package); returns what was removed."""
    folder = _named_folder(target)
    if folder is not None:
        try:
            removed: InstalledPackage | BrokenPackage = describe(folder)
        except PackageError as exc:
            removed = BrokenPackage(folder, str(exc))
        _delete_atomically(folder)
        return [removed]
    from_code, to_code = parse_pair(target)
    installed = list_installed()
    doomed: list[InstalledPackage | BrokenPackage] = [p for p in installed if (p.from_code, p.to_code) == (from_code, to_code)]
    if not doomed:
        names = ", ".join(p.pair for p in installed) or "none"
        raise PackageError(
            f"no package for {from_code}->{to_code} is installed (installed: {names}); see `{command('models list')}`"
        )
    for package in doomed:
        _delete_atomically(package.path)
    return doomed


def _named_folder(name: str) -> Path | None:
    """The package folder called exactly `name`, usable or broken, if there is one."""
    return next((folder for folder in _package_folders() if folder.name == name), None)


def _delete_atomically(directory: Path) -> None:
    # Renaming first makes the package disappear at once; a crash during rmtree then
    # leaves only a hidden folder behind, never a half-deleted package.
    trash = Path(tempfile.mkdtemp(prefix=TRASH_PREFIX, dir=directory.parent))
    os.replace(directory, trash / directory.name)
    shutil.rmtree(trash, ignore_errors=True)


# ----------------------------------------------------------------------------- installing


def install_from_file(
    path: Path | str, limits: ArchiveLimits = ArchiveLimits(), expected_pair: tuple[str, str] | None = None
) -> InstalledPackage:
    """Validate and install a `.argosmodel` file, replacing any package of the same pair.

    Everything is checked before anything is moved into the package directory: the archive
    (`archive.validate`), then the unpacked folder in a hidden staging folder (metadata and
    layout as `describe` reads them, the model and tokenizer loaded once). The package is
    installed under a folder named from its declared pair and version, so it can replace
    only an older copy of itself. `expected_pair` (from, to) is what the caller asked for
    (the index entry it downloaded); a package declaring another pair is refused.
    """
    path = Path(path)
    destination_root = package_dir()
    destination_root.mkdir(parents=True, exist_ok=True)
    _sweep_stale(destination_root)
    with archive_file.open_zip(path) as archive:
        manifest = archive_file.validate(archive, limits)
        _check_expected_pair(manifest.metadata, expected_pair)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=destination_root))
        try:
            archive_file.extract(archive, manifest, staging, limits)
            staged = staging / manifest.top
            try:
                describe(staged)
            except PackageError as exc:
                raise archive_file.refuse(str(exc)) from exc
            _check_loadable(staged)
            final = _move_into_place(staged, destination_root / manifest.metadata.folder_name)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    installed = describe(final)
    _remove_other_versions(installed)
    return installed


def _check_expected_pair(metadata: PackageMetadata, expected: tuple[str, str] | None) -> None:
    if expected is not None and (base_code(metadata.from_code), base_code(metadata.to_code)) != expected:
        raise archive_file.refuse(
            f"it was fetched as the {expected[0]}->{expected[1]} package but metadata.json declares {metadata.pair}"
        )


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


def _move_into_place(staged: Path, final: Path) -> Path:
    # A directory cannot be os.replace'd onto a non-empty one, so a same-named package
    # (the same pair and version, validated before) is moved aside first and restored if
    # the swap fails.
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
    return final


def _remove_other_versions(installed: InstalledPackage) -> None:
    """Keep one package per pair, or which one translates would depend on folder order."""
    for other in list_installed():
        same_pair = (other.from_code, other.to_code) == (installed.from_code, installed.to_code)
        if same_pair and other.path != installed.path:
            _delete_atomically(other.path)
