"""Installing, validating, listing and removing translation packages (`ingest models ...`)."""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from argostranslate import settings as argos_settings
from typer.testing import CliRunner

from ingest.cli.models import models_app
from ingest.translate import packages
from ingest.translate.packages import ArchiveLimits, PackageError

pytest_plugins = ["translate_fixtures"]

TOP = "translate-ja_en-1_0"
METADATA = f"{TOP}/metadata.json"


def entries_of(archive: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(archive) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def write_zip(path: Path, entries: dict[str, bytes], extra: list[tuple[zipfile.ZipInfo, bytes]] = ()) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for info, data in extra:
            zf.writestr(info, data)
    return path


def metadata(**fields: str) -> bytes:
    return json.dumps(fields).encode()


def assert_refused(path: Path, argos_dir: Path, match: str, limits: ArchiveLimits | None = None) -> None:
    with pytest.raises(PackageError, match=match):
        packages.install_from_file(path, limits or ArchiveLimits())
    # Nothing at all is left behind, not even a hidden staging folder.
    assert list(argos_dir.iterdir()) == []


# ----------------------------------------------------------------------------- happy paths


def test_install_list_remove(argos_dir, tiny_archives):
    installed = packages.install_from_file(tiny_archives.ja_10)

    assert (installed.pair, installed.version) == ("ja->en", "1.0")
    assert installed.path == argos_dir / TOP
    assert (installed.path / "model" / "model.bin").is_file()
    [listed] = packages.list_installed()
    assert listed == installed and listed.size_bytes > 0

    assert packages.remove("ja->en") == [installed]
    assert packages.list_installed() == [] and list(argos_dir.iterdir()) == []


def test_upgrade_replaces_the_older_version_of_the_same_pair_only(argos_dir, tiny_archives):
    packages.install_from_file(tiny_archives.ja_10)
    packages.install_from_file(tiny_archives.zh_10)
    packages.install_from_file(tiny_archives.ja_11)

    assert [(p.pair, p.version) for p in packages.list_installed()] == [("ja->en", "1.1"), ("zh->en", "1.0")]


def test_reinstalling_the_same_version_keeps_one_copy(argos_dir, tiny_archives):
    packages.install_from_file(tiny_archives.ja_10)
    packages.install_from_file(tiny_archives.ja_10)

    assert [p.pair for p in packages.list_installed()] == ["ja->en"]
    assert sorted(p.name for p in argos_dir.iterdir()) == [TOP]


@pytest.mark.parametrize("pair", ["ja->en", "ja_en", "JA → EN"])
def test_remove_accepts_pair_spellings(ja_installed, pair):
    assert [p.pair for p in packages.remove(pair)] == ["ja->en"]


def test_remove_unknown_pair_says_what_is_installed(ja_installed):
    with pytest.raises(PackageError, match=r"no package for ko->en.*installed: ja->en.*ingest models list"):
        packages.remove("ko_en")
    with pytest.raises(PackageError, match="FROM->TO"):
        packages.remove("japanese")


def test_list_ignores_hidden_and_foreign_folders(ja_installed, argos_dir):
    (argos_dir / ".ingest-staging-crashed" / TOP).mkdir(parents=True)
    (argos_dir / "not-a-package").mkdir()

    assert [p.pair for p in packages.list_installed()] == ["ja->en"]


def test_package_dir_follows_argos_environment_variables(tmp_path):
    env = {
        **os.environ,
        "ARGOS_PACKAGES_DIR": str(tmp_path / "pkgs"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    code = "from ingest.translate.packages import package_dir; print(package_dir())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)

    assert Path(out.stdout.strip()) == tmp_path / "pkgs"


# ----------------------------------------------------------------------------- hostile archives


@pytest.mark.parametrize(
    "name, match",
    [
        ("../evil.txt", "one top-level folder|'\\.\\.'"),
        (f"{TOP}/../../evil.txt", "'\\.\\.'"),
        ("/tmp/evil.txt", "absolute path"),
        ("C:/evil.txt", "absolute path"),
        (f"{TOP}\\..\\evil.txt", "backslash"),
    ],
)
def test_refuses_paths_escaping_the_package(argos_dir, tiny_archives, tmp_path, name, match):
    entries = {**entries_of(tiny_archives.ja_10), name: b"owned"}
    path = write_zip(tmp_path / "hostile.argosmodel", entries)

    assert_refused(path, argos_dir, match)
    assert not (tmp_path / "evil.txt").exists() and not Path("/tmp/evil.txt").exists()


def test_refuses_symlink_members(argos_dir, tiny_archives, tmp_path):
    link = zipfile.ZipInfo(f"{TOP}/model/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    path = write_zip(tmp_path / "link.argosmodel", entries_of(tiny_archives.ja_10), [(link, b"/etc/passwd")])

    assert_refused(path, argos_dir, "symbolic link")


def test_refuses_zip_bombs_by_ratio(argos_dir, tiny_archives, tmp_path):
    entries = {**entries_of(tiny_archives.ja_10), f"{TOP}/padding.bin": bytes(8 << 20)}
    path = write_zip(tmp_path / "bomb.argosmodel", entries)

    assert_refused(path, argos_dir, "zip bomb")


def test_refuses_archives_over_the_size_cap(argos_dir, tiny_archives):
    assert_refused(tiny_archives.ja_10, argos_dir, "byte limit", ArchiveLimits(max_total_bytes=10_000))


def central_directory_offset(archive: zipfile.ZipFile, name: str) -> int:
    """Where `name`'s central directory record starts (records are variable-length)."""
    offset = archive.start_dir
    for info in archive.infolist():
        if info.filename == name:
            return offset
        offset += 46 + len(info.orig_filename.encode()) + len(info.extra) + len(info.comment)
    raise KeyError(name)


def test_refuses_sizes_that_lie_in_the_headers(argos_dir, tiny_archives, tmp_path):
    """Headers declaring less than the real data must not get past the extraction checks."""
    path = tmp_path / "liar.argosmodel"
    with zipfile.ZipFile(path, "w") as zf:  # stored, so sizes sit at fixed offsets
        for name, data in entries_of(tiny_archives.ja_10).items():
            zf.writestr(name, data)
        zf.writestr(f"{TOP}/blob", b"A" * 4096)
    with zipfile.ZipFile(path) as zf:
        local = zf.getinfo(f"{TOP}/blob").header_offset
        central = central_directory_offset(zf, f"{TOP}/blob")
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, local + 22, 16)  # local header: uncompressed size
    struct.pack_into("<I", data, central + 24, 16)  # central directory: uncompressed size
    path.write_bytes(bytes(data))

    assert_refused(path, argos_dir, "corrupt|more bytes")


def test_refuses_truncated_archives(argos_dir, tiny_archives, tmp_path):
    data = tiny_archives.ja_10.read_bytes()
    path = tmp_path / "truncated.argosmodel"
    path.write_bytes(data[: len(data) // 2])

    assert_refused(path, argos_dir, "not a zip archive, or truncated")


def test_refuses_corrupt_member_data(argos_dir, tiny_archives, tmp_path):
    data = bytearray(tiny_archives.ja_10.read_bytes())
    model = zipfile.ZipFile(tiny_archives.ja_10).getinfo(f"{TOP}/model/model.bin")
    start = model.header_offset + 30 + len(model.filename) + 1000
    data[start : start + 64] = bytes(64)
    path = tmp_path / "corrupt.argosmodel"
    path.write_bytes(bytes(data))

    assert_refused(path, argos_dir, "corrupt")


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda e: e.pop(METADATA), "missing metadata.json"),
        (lambda e: e.pop(f"{TOP}/sentencepiece.model"), "SentencePiece"),
        (lambda e: e.pop(f"{TOP}/model/model.bin"), "CTranslate2 model"),
        (lambda e: e.pop(f"{TOP}/model/shared_vocabulary.txt"), "missing its vocabulary"),
        (lambda e: e.update({METADATA: b"{not json"}), "not valid UTF-8 JSON"),
        (lambda e: e.update({METADATA: metadata(to_code="en", package_version="1")}), "from_code"),
        (lambda e: e.update({METADATA: metadata(from_code="ja", to_code="en")}), "package_version"),
        (lambda e: e.update({"other/metadata.json": b"{}"}), "exactly one top-level folder"),
        (lambda e: e.update({"README.md": b"hi"}), "exactly one top-level folder"),
        (lambda e: e.update({f"{TOP}/model/model.bin": b"garbage"}), "not a loadable CTranslate2 model"),
    ],
)
def test_refuses_malformed_packages(argos_dir, tiny_archives, tmp_path, change, match):
    entries = entries_of(tiny_archives.ja_10)
    change(entries)
    path = write_zip(tmp_path / "malformed.argosmodel", entries)

    assert_refused(path, argos_dir, match)


def test_refuses_files_that_are_not_zips(argos_dir, tmp_path):
    path = tmp_path / "notes.argosmodel"
    path.write_text("hello")

    assert_refused(path, argos_dir, "not a zip archive")
    with pytest.raises(PackageError, match="does not exist"):
        packages.install_from_file(tmp_path / "missing.argosmodel")


def test_a_refused_install_keeps_the_installed_package(ja_installed, tiny_archives, tmp_path):
    entries = {**entries_of(tiny_archives.ja_11), "../evil.txt": b"x"}
    with pytest.raises(PackageError):
        packages.install_from_file(write_zip(tmp_path / "bad.argosmodel", entries))

    assert packages.list_installed() == [ja_installed]


# ----------------------------------------------------------------------------- online index


def test_index_install_fails_at_once_when_offline(argos_dir, monkeypatch):
    monkeypatch.setattr(argos_settings, "remote_package_index", "http://127.0.0.1:9/index.json")

    with pytest.raises(PackageError, match=r"cannot reach.*ingest models install --from PATH\.argosmodel"):
        packages.install_from_index(["ja"])


def test_index_install_gives_up_on_a_hanging_network(argos_dir, monkeypatch):
    monkeypatch.setattr(urllib.request, "urlopen", lambda *args, **kwargs: time.sleep(30))
    started = time.monotonic()

    with pytest.raises(PackageError, match=r"no answer within 0\.3 s.*--from"):
        packages.install_from_index(["ja"], timeout=0.3)
    assert time.monotonic() - started < 2


# ----------------------------------------------------------------------------- CLI


def test_cli_install_list_remove(argos_dir, tiny_archives):
    runner = CliRunner()

    installed = runner.invoke(models_app, ["install", "--from", str(tiny_archives.ja_10)])
    listed = runner.invoke(models_app, ["list"])
    removed = runner.invoke(models_app, ["remove", "ja_en"])
    empty = runner.invoke(models_app, ["list"])

    assert installed.exit_code == 0 and "installed ja->en 1.0" in installed.output
    assert listed.exit_code == 0 and "ja->en" in listed.output and "MB" in listed.output
    assert removed.exit_code == 0 and "removed ja->en 1.0" in removed.output
    assert "no translation packages installed" in empty.output


def test_cli_errors_exit_non_zero(argos_dir, tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.argosmodel"
    bad.write_text("nope")

    assert runner.invoke(models_app, ["install"]).exit_code == 2
    assert runner.invoke(models_app, ["install", "ja", "--from", str(bad)]).exit_code == 2
    refused = runner.invoke(models_app, ["install", "--from", str(bad)])
    assert refused.exit_code == 1 and "not a zip archive" in refused.output
    assert runner.invoke(models_app, ["remove", "ja->en"]).exit_code == 1
