"""Installing, validating, listing and removing translation packages (`ingest models ...`)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import time
import urllib.request
import zipfile
import zlib
from pathlib import Path

import pytest
from argostranslate import settings as argos_settings
from typer.testing import CliRunner

from ingest.cli.models import models_app
from ingest.translate import packages
from ingest.translate.index import NetworkLimits, install_from_index
from ingest.translate.packages import ArchiveLimits, PackageError

pytest_plugins = ["translate_fixtures", "argos_index_fixtures"]

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


# ----------------------------------------------------------------------------- invalid packages never land


def renamed(entries: dict[str, bytes], top: str) -> dict[str, bytes]:
    """The same archive entries under another top-level folder name."""
    return {top + name[len(name.split("/")[0]) :]: data for name, data in entries.items()}


def with_metadata(entries: dict[str, bytes], **fields) -> dict[str, bytes]:
    top = next(iter(entries)).split("/")[0]
    current = json.loads(entries[f"{top}/metadata.json"])
    return {**entries, f"{top}/metadata.json": json.dumps({**current, **fields}).encode()}


def assert_tool_usable_with(expected: list[packages.InstalledPackage]) -> None:
    """The installed packages are exactly `expected`, and listing, the engine and the CLI all work."""
    from ingest.translate import make_engine

    assert packages.list_installed() == expected
    engine = make_engine()
    assert sorted((k.package_id, k.version) for k in engine.package_keys()) == sorted((p.package_id, p.version) for p in expected)
    listed = CliRunner().invoke(models_app, ["list"])
    assert listed.exit_code == 0 and all(p.pair in listed.output for p in expected), listed.output


INVALID_PACKAGES = {
    # metadata.json with the wrong types, under the installed package's own folder name
    "wrong_types_languages": lambda ja, zh: with_metadata(ja, languages=5),
    "wrong_types_source_languages": lambda ja, zh: with_metadata(ja, source_languages="xx"),
    "wrong_types_links": lambda ja, zh: with_metadata(ja, links=[1, 2]),
    "wrong_types_version": lambda ja, zh: with_metadata(ja, package_version=1.0),
    # a zh->en package in a folder named for ja->en
    "folder_names_another_pair": lambda ja, zh: renamed(zh, TOP),
    # pairs that are not xx->en
    "pair_ja_to_ja": lambda ja, zh: with_metadata(renamed(ja, "translate-ja_ja-1_0"), to_code="ja"),
    "pair_en_to_ja": lambda ja, zh: with_metadata(renamed(ja, "translate-en_ja-1_0"), from_code="en", to_code="ja"),
    "pair_en_to_en": lambda ja, zh: with_metadata(renamed(ja, "model"), from_code="en"),
    # a trailing newline or a control character that `$` let through: a lookalike ja->en package in a
    # folder named "translate-ja\n_en-1_0" beside the real one, left behind by `models remove ja->en`
    "newline_in_from_code": lambda ja, zh: with_metadata(ja, from_code="ja\n"),
    "newline_in_to_code": lambda ja, zh: with_metadata(ja, to_code="en\n"),
    "newline_in_version": lambda ja, zh: with_metadata(ja, package_version="1.0\n"),
    "control_in_target_prefix": lambda ja, zh: with_metadata(ja, target_prefix="\x1b[2J"),
    "bidi_in_from_name": lambda ja, zh: with_metadata(ja, from_name="Japanese\u202e"),
    # json nesting that makes the parser recurse until RecursionError
    "deeply_nested_metadata": lambda ja, zh: {
        **ja,
        METADATA: (
            b'{"from_code": "ja", "to_code": "en", "package_version": "1.0", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        ),
    },
}


@pytest.mark.parametrize("case", sorted(INVALID_PACKAGES))
def test_invalid_package_never_replaces_a_valid_one_and_never_leaves_the_tool_unusable(
    ja_installed, tiny_archives, tmp_path, case
):
    hostile = INVALID_PACKAGES[case](entries_of(tiny_archives.ja_10), entries_of(tiny_archives.zh_10))
    path = write_zip(tmp_path / f"{case}.argosmodel", hostile)
    before = sorted(p.name for p in ja_installed.path.parent.iterdir())

    with pytest.raises(PackageError, match="refusing to install"):
        packages.install_from_file(path)

    assert sorted(p.name for p in ja_installed.path.parent.iterdir()) == before  # nothing moved, nothing left
    assert (ja_installed.path / "metadata.json").read_bytes() == entries_of(tiny_archives.ja_10)[METADATA]
    assert_tool_usable_with([ja_installed])


@pytest.mark.parametrize("from_code, to_code", [("ja", "ja"), ("en", "ja"), ("en", "en")])
def test_only_xx_to_en_packages_with_xx_not_en_are_accepted(argos_dir, tiny_archives, tmp_path, from_code, to_code):
    entries = with_metadata(renamed(entries_of(tiny_archives.ja_10), "model"), from_code=from_code, to_code=to_code)

    assert_refused(
        write_zip(tmp_path / "pair.argosmodel", entries),
        argos_dir,
        f"declares {from_code}->{to_code}; only packages that translate another language into English",
    )


def test_package_folder_naming_another_pair_is_refused(ja_installed, tiny_archives, tmp_path):
    path = write_zip(tmp_path / "zh-as-ja.argosmodel", renamed(entries_of(tiny_archives.zh_10), TOP))

    with pytest.raises(PackageError, match=r"folder 'translate-ja_en-1_0' names ja->en but metadata.json declares zh->en"):
        packages.install_from_file(path)
    assert_tool_usable_with([ja_installed])


def test_package_is_installed_under_a_folder_named_from_its_declared_pair(argos_dir, tiny_archives, tmp_path):
    path = write_zip(tmp_path / "plain.argosmodel", renamed(entries_of(tiny_archives.zh_10), "model-folder"))

    installed = packages.install_from_file(path)

    assert installed.path == argos_dir / "translate-zh_en-1_0" and installed.pair == "zh->en"


def write_padded_zip(path: Path, entries: dict[str, bytes], top: str, members: int, size: int, monkeypatch) -> Path:
    """`entries` plus `members` entries of `size` zero bytes each, deflated once and the bytes reused
    (deflating 1,900 MiB takes ~10 s; the archive is the same)."""
    padding = bytes(size)
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    deflated = deflater.compress(padding) + deflater.flush()

    class Reused:
        def compress(self, data: bytes) -> bytes:
            return b""

        def flush(self) -> bytes:
            return deflated

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        with monkeypatch.context() as patch:
            patch.setattr(zipfile, "_get_compressor", lambda *args, **kwargs: Reused())
            for i in range(members):
                zf.writestr(f"{top}/padding/{i:04d}.bin", padding)
    return path


@pytest.mark.parametrize(
    "members, size, match",
    [
        (1900, 1 << 20, "unpack to 1,99.* bytes, more than the 1,073,741,824 byte limit"),  # 1.9 GB
        (900, 1 << 20, "expands 10..-fold \\(limit 200\\)"),  # at the per-member threshold: checked
        (900, (1 << 20) - 1, "entries expand [0-9]+-fold together \\(limit 20\\) .* zip bomb"),  # just under: overall ratio
    ],
)
def test_many_members_at_the_per_member_ratio_limit_are_refused_as_a_bomb(
    ja_installed, tiny_archives, tmp_path, monkeypatch, members, size, match
):
    """Members of 1 MiB of zeros sit at the per-member ratio check's threshold; together they are
    a bomb, refused from the central directory before anything is unpacked."""
    path = write_padded_zip(
        tmp_path / "many.argosmodel", entries_of(tiny_archives.ja_11), "translate-ja_en-1_1", members, size, monkeypatch
    )
    started = time.monotonic()

    with pytest.raises(PackageError, match=match):
        packages.install_from_file(path)

    assert time.monotonic() - started < 5
    assert_tool_usable_with([ja_installed])
    assert sorted(p.name for p in ja_installed.path.parent.iterdir()) == [TOP]


def test_broken_package_on_disk_is_reported_and_skipped_by_list_run_and_remove(ja_installed, tmp_path):
    """A package folder broken outside our control (copied by hand, damaged, or installed by an
    older version) is named with its reason and skipped; nothing crashes."""
    from ingest import run_pipeline
    from seed_fixtures import SEEDS

    broken = ja_installed.path.parent / "translate-zh_en-1_0"
    shutil.copytree(ja_installed.path, broken)
    (broken / "metadata.json").write_text(
        json.dumps({"from_code": "zh", "to_code": "en", "package_version": "1.0", "languages": 5})
    )
    runner = CliRunner()

    [found] = packages.broken_packages()
    assert found.path == broken and "'languages' must be a list" in found.reason
    assert_tool_usable_with([ja_installed])
    listed = runner.invoke(models_app, ["list"])
    assert "warning:" in listed.output and "translate-zh_en-1_0" in listed.output and "skipped" in listed.output
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SEEDS / "000_7df305071c9dd669.txt", inputs)
    summary = run_pipeline([inputs], tmp_path / "w.duckdb", None)  # the default engine: installed packages
    assert summary.failed == {} and len(summary.loaded) == 1
    removed = runner.invoke(models_app, ["remove", "translate-zh_en-1_0"])
    assert removed.exit_code == 0 and "removed broken package" in removed.output
    assert packages.broken_packages() == [] and packages.list_installed() == [ja_installed]
    assert runner.invoke(models_app, ["remove", "ja->en"]).exit_code == 0


# ----------------------------------------------------------------------------- online index


def test_index_install_fails_at_once_when_offline(argos_dir, monkeypatch):
    monkeypatch.setattr(argos_settings, "remote_package_index", "http://127.0.0.1:9/index.json")

    with pytest.raises(PackageError, match=r"cannot reach.*ingest models install --from PATH\.argosmodel"):
        install_from_index(["ja"])


def test_index_install_gives_up_on_a_hanging_network(argos_dir, monkeypatch):
    monkeypatch.setattr(urllib.request, "urlopen", lambda *args, **kwargs: time.sleep(30))
    started = time.monotonic()

    with pytest.raises(PackageError, match=r"no answer within 0\.3 s.*--from"):
        install_from_index(["ja"], NetworkLimits(index_seconds=0.3))
    assert time.monotonic() - started < 2


def test_online_install_from_a_local_index_installs_ja_and_zh(argos_dir, tiny_archives, local_index, index_at):
    """`ingest models install ja zh`: index -> download -> install, end to end over HTTP."""
    ja, zh = local_index.offer(tiny_archives.ja_11), local_index.offer(tiny_archives.zh_10)
    index_at(
        local_index.publish(
            "index-ok.json",
            [
                local_index.entry("ja", "en", "1.1", [local_index.url("ok", ja)]),
                local_index.entry("zh", "en", "1.0", [local_index.url("ok", zh)]),
                local_index.entry("en", "de", "1.0", [local_index.url("ok", "en_de.argosmodel")]),
                {"type": "translate", "from_code": 5, "links": "not a list"},  # an entry nobody can use is skipped
            ],
        )
    )

    result = CliRunner().invoke(models_app, ["install", "ja", "zh"])

    assert result.exit_code == 0, result.output
    assert "installed ja->en 1.1" in result.output and "installed zh->en 1.0" in result.output
    assert [(p.pair, p.version) for p in packages.list_installed()] == [("ja->en", "1.1"), ("zh->en", "1.0")]
    assert sorted(p.name for p in argos_dir.iterdir()) == ["translate-ja_en-1_1", "translate-zh_en-1_0"]


@pytest.mark.parametrize(
    "fault, link, match",
    [
        ("404", lambda index, name: index.url("ok", "no-such-package.argosmodel"), "HTTP 404"),
        ("truncated", lambda index, name: index.url("truncated", name), "truncated: received .* of .* bytes"),
        ("stalled", lambda index, name: index.url("stall", name), "sent nothing for 1 s \\(stalled\\)"),
        (
            "wrong_pair",
            lambda index, name: index.url("ok", "zh-offered-as-ja.argosmodel"),
            "fetched as the ja->en package but metadata.json declares zh->en",
        ),
    ],
)
def test_online_install_failure_leaves_the_installed_packages_as_they_were(
    ja_installed, tiny_archives, local_index, index_at, fault, link, match
):
    name = local_index.offer(tiny_archives.ja_11)
    local_index.offer(tiny_archives.zh_10, "zh-offered-as-ja.argosmodel")
    index_at(local_index.publish(f"index-{fault}.json", [local_index.entry("ja", "en", "1.1", [link(local_index, name)])]))
    before = sorted(p.name for p in ja_installed.path.parent.iterdir())
    started = time.monotonic()

    with pytest.raises(PackageError, match=match):
        install_from_index(["ja"], NetworkLimits(stall_seconds=1, download_seconds=10))

    assert time.monotonic() - started < 8  # a stalled server costs the stall timeout, not forever
    assert sorted(p.name for p in ja_installed.path.parent.iterdir()) == before
    assert_tool_usable_with([ja_installed])


def test_online_install_of_a_language_the_index_lacks_says_what_it_offers(argos_dir, local_index, index_at):
    index_at(
        local_index.publish(
            "index-zh-only.json", [local_index.entry("zh", "en", "1.0", [local_index.url("ok", "zh.argosmodel")])]
        )
    )

    with pytest.raises(PackageError, match="no package for ko->en; it offers: zh->en"):
        install_from_index(["ko"])
    assert list(argos_dir.iterdir()) == []


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
