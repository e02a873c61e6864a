"""The `metadata.json` of a translation package, checked field by field.

One parser serves the archive being installed and the folders already installed, so a
package that would be refused at install time is also recognised (and skipped, with the
reason) when it is found on disk. Every field argostranslate reads is checked for its type:
a package whose metadata has `"languages": 5` makes argostranslate's own loader raise, and
the folder name we install a package under is derived from the pair and version checked here.
Codes and versions follow a strict grammar matched over the whole value (`fullmatch`: a `$`
would also match before a trailing newline, so "ja\n" passed and installed a lookalike package
in a folder whose name held a newline), and no text field may hold a control character.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..errors import PackageError

MAX_METADATA_BYTES = 1 << 20
# Both are matched with `fullmatch`.
LANGUAGE_CODE_RE = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})?")
# Versions become part of a folder name: letters, digits, dots, dashes, underscores only.
VERSION_RE = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,31}")
# Control characters and the invisible ones that reorder or hide text (bidi, zero-width).
_CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
# The only direction this pipeline translates.
TARGET_CODE = "en"
# A folder name that names a pair: "translate-ja_en-1_0", "ja_en".
FOLDER_PAIR_RE = re.compile(r"(?:^|[-_.])([a-z]{2,3})_([a-z]{2,3})(?=$|[-_.])")

_OPTIONAL_TEXT = ("code", "argos_version", "from_name", "to_name", "target_prefix")
_OPTIONAL_TEXT_LISTS = ("links", "from_codes", "to_codes")
_OPTIONAL_LANGUAGE_LISTS = ("languages", "source_languages", "target_languages")


@dataclass(frozen=True)
class PackageMetadata:
    """What a valid package declares."""

    from_code: str
    to_code: str
    version: str
    target_prefix: str = ""

    @property
    def pair(self) -> str:
        return f"{self.from_code}->{self.to_code}"

    @property
    def folder_name(self) -> str:
        """The folder the package is installed under, derived from what it declares (never from
        the archive's own folder name, which could name another pair)."""
        return f"translate-{self.from_code}_{self.to_code}-{self.version.replace('.', '_')}"


def base_code(code: str) -> str:
    """'zh-TW', 'zh_cn', 'ZH' -> 'zh'."""
    return re.split(r"[-_]", code.strip(), maxsplit=1)[0].lower()


def parse_metadata(raw: bytes, where: str) -> PackageMetadata:
    """Parse and check a package's metadata.json bytes; PackageError says what is wrong."""
    if len(raw) > MAX_METADATA_BYTES:
        raise PackageError(f"{where} is {len(raw):,} bytes, far too large for metadata")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PackageError(f"{where} is not valid UTF-8 JSON ({exc})") from exc
    except RecursionError as exc:  # json's scanner recurses once per nesting level
        raise PackageError(f"{where} is nested too deeply to be package metadata") from exc
    if not isinstance(data, dict):
        raise PackageError(f"{where} is not a JSON object")
    return _checked(data, where)


def _checked(data: dict[str, Any], where: str) -> PackageMetadata:
    for key in ("from_code", "to_code"):
        value = data.get(key)
        if not isinstance(value, str) or not LANGUAGE_CODE_RE.fullmatch(value):
            raise PackageError(f"{where} has no valid {key!r} (got {_shown(value)})")
    version = data.get("package_version")
    if not isinstance(version, str) or not version.strip():
        raise PackageError(f"{where} has no 'package_version'")
    if not VERSION_RE.fullmatch(version):
        raise PackageError(f"{where} has a 'package_version' that cannot name a folder ({_shown(version)})")
    kind = data.get("type", "translate")
    if kind != "translate":
        raise PackageError(f"{where} declares type {_shown(kind)}, not a translation package")
    _check_optional_types(data, where)
    from_code, to_code = data["from_code"], data["to_code"]
    if base_code(to_code) != TARGET_CODE or base_code(from_code) == TARGET_CODE:
        raise PackageError(
            f"{where} declares {from_code}->{to_code}; only packages that translate another "
            f"language into English (xx->{TARGET_CODE}) are used here"
        )
    return PackageMetadata(from_code, to_code, version, data.get("target_prefix") or "")


def _check_optional_types(data: dict[str, Any], where: str) -> None:
    """The fields argostranslate reads besides the pair and version must have its types."""
    for key in _OPTIONAL_TEXT:
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise PackageError(f"{where} field {key!r} must be text (got {_shown(data[key])})")
        if isinstance(data.get(key), str) and _CONTROL_RE.search(data[key]):
            raise PackageError(f"{where} field {key!r} holds a control character (got {_shown(data[key])})")
    for key in _OPTIONAL_TEXT_LISTS:
        if key in data and not _list_of(data[key], str):
            raise PackageError(f"{where} field {key!r} must be a list of text (got {_shown(data[key])})")
    for key in _OPTIONAL_LANGUAGE_LISTS:
        if key in data and not (
            _list_of(data[key], dict)
            and all(all(isinstance(item.get(k, ""), str) for k in ("code", "name")) for item in data[key])
        ):
            raise PackageError(f"{where} field {key!r} must be a list of {{code, name}} objects (got {_shown(data[key])})")
    if "dependencies" in data and not isinstance(data["dependencies"], list):
        raise PackageError(f"{where} field 'dependencies' must be a list (got {_shown(data['dependencies'])})")


def _list_of(value: Any, kind: type) -> bool:
    return isinstance(value, list) and all(isinstance(item, kind) for item in value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def folder_pair(name: str) -> tuple[str, str] | None:
    """The pair a package folder's name states ("translate-ja_en-1_0" -> ('ja', 'en')), if any."""
    match = FOLDER_PAIR_RE.search(name)
    return (match.group(1), match.group(2)) if match else None
