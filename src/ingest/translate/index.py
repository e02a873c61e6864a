"""Installing `xx->en` packages from the online Argos index: index -> download -> install.

The index and the packages are fetched here, not by argostranslate: its downloads have no
timeout (a stalled server hangs the command forever), retry silently, keep a truncated file
for the next attempt, and its index parser raises on an entry with unexpected types. Here
every network call has a hard deadline, a download must arrive whole (its Content-Length)
and within a size limit, and what arrives is installed by `packages.install_from_file`,
which also checks that the package is the pair its index entry named.
"""

from __future__ import annotations

import functools
import http.client
import io
import json
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import INSTALL_FROM_FILE, PackageError
from .archive import COPY_CHUNK_BYTES
from .metadata import LANGUAGE_CODE_RE, TARGET_CODE, base_code
from .packages import InstalledPackage, argos_settings, install_from_file

OFFLINE_HINT = f"install from a file instead: `{INSTALL_FROM_FILE}`"


@dataclass(frozen=True)
class NetworkLimits:
    """How long the index and a download may take, and how big a download may be."""

    index_seconds: float = 5.0
    # A download that receives nothing for this long has stalled.
    stall_seconds: float = 30.0
    # ...and one that is still running after this long is given up (a slow drip never stalls).
    download_seconds: float = 1800.0
    max_index_bytes: int = 16 << 20
    max_download_bytes: int = 1 << 30


@dataclass(frozen=True)
class IndexEntry:
    """One package the Argos index offers."""

    from_code: str
    to_code: str
    links: tuple[str, ...]

    @property
    def pair(self) -> tuple[str, str]:
        return base_code(self.from_code), base_code(self.to_code)


def install_from_index(langs: Sequence[str], limits: NetworkLimits = NetworkLimits()) -> list[InstalledPackage]:
    """Download and install the `xx->en` package for each language from the Argos index.

    Every package is downloaded before any is installed, and each download is checked like a
    file (`install_from_file`) and against the pair its index entry names: a failed download,
    a truncated or stalled one, or a package that is not what the index said leaves the
    installed packages as they were.
    """
    available = {entry.pair: entry for entry in fetch_index(limits)}
    wanted = [(lang.lower(), TARGET_CODE) for lang in langs]
    missing = [f"{src}->{dst}" for src, dst in wanted if (src, dst) not in available]
    if missing:
        offered = ", ".join(sorted(f"{s}->{d}" for s, d in available if d == TARGET_CODE)) or "nothing"
        raise PackageError(f"the Argos index has no package for {', '.join(missing)}; it offers: {offered}")
    with tempfile.TemporaryDirectory(prefix="ingest-download-") as scratch:
        downloaded = [(pair, _download(available[pair], Path(scratch) / f"{pair[0]}.argosmodel", limits)) for pair in wanted]
        return [install_from_file(path, expected_pair=pair) for pair, path in downloaded]


def fetch_index(limits: NetworkLimits = NetworkLimits()) -> list[IndexEntry]:
    """The translation packages the Argos index (`argostranslate.settings.remote_package_index`)
    offers; entries argostranslate could not use either are left out."""
    url = argos_settings().remote_package_index
    body = io.BytesIO()
    try:
        _within(
            limits.index_seconds, lambda: _fetch(url, body, limits.index_seconds, limits.index_seconds, limits.max_index_bytes)
        )
    except PackageError as exc:
        raise PackageError(f"cannot reach the Argos package index at {url} ({exc}); {OFFLINE_HINT}") from exc
    try:
        index = json.loads(body.getvalue().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise PackageError(f"the Argos package index at {url} is not a JSON list of packages ({exc}); {OFFLINE_HINT}") from exc
    if not isinstance(index, list):
        raise PackageError(f"the Argos package index at {url} is not a JSON list of packages; {OFFLINE_HINT}")
    return [entry for entry in map(_index_entry, index) if entry is not None]


def _index_entry(item: object) -> IndexEntry | None:
    if not isinstance(item, dict) or item.get("type", "translate") != "translate":
        return None
    from_code, to_code, links = item.get("from_code"), item.get("to_code"), item.get("links")
    if not (
        isinstance(from_code, str)
        and LANGUAGE_CODE_RE.fullmatch(from_code)
        and isinstance(to_code, str)
        and LANGUAGE_CODE_RE.fullmatch(to_code)
    ) or not isinstance(links, list):
        return None
    usable = tuple(link for link in links if isinstance(link, str) and link.startswith(("http://", "https://")))
    return IndexEntry(from_code, to_code, usable) if usable else None


def _download(entry: IndexEntry, target: Path, limits: NetworkLimits) -> Path:
    """The entry's package, from the first of its links that delivers it whole."""
    failures = []
    for url in entry.links:
        try:
            with open(target, "wb") as sink:
                _within(
                    limits.download_seconds + limits.stall_seconds,
                    functools.partial(
                        _fetch, url, sink, limits.stall_seconds, limits.download_seconds, limits.max_download_bytes
                    ),
                )
        except PackageError as exc:
            failures.append(f"{url}: {exc}")
            continue
        return target
    raise PackageError(
        f"downloading {entry.from_code}->{entry.to_code} failed ({'; '.join(failures)}); nothing was installed; {OFFLINE_HINT}"
    )


def _fetch(url: str, sink: BinaryIO, stall_seconds: float, total_seconds: float, max_bytes: int) -> None:
    """Write the body at `url` to `sink`, whole: refused when the server stalls, answers too
    slowly, sends more than `max_bytes` or fewer bytes than its Content-Length."""
    deadline = time.monotonic() + total_seconds
    try:
        with urllib.request.urlopen(url, timeout=stall_seconds) as response:
            declared = response.headers.get("Content-Length")
            expected = int(declared) if declared and declared.isdigit() else None
            if expected is not None and expected > max_bytes:
                raise PackageError(f"the server announces {expected:,} bytes, over the {max_bytes:,}-byte limit")
            received = 0
            # read1: one receive per call, so the deadline is checked however slowly bytes drip in.
            while chunk := response.read1(COPY_CHUNK_BYTES):
                received += len(chunk)
                if received > max_bytes:
                    raise PackageError(f"the download exceeds the {max_bytes:,}-byte limit")
                if time.monotonic() > deadline:
                    raise PackageError(f"the download did not finish within {total_seconds:g} s")
                sink.write(chunk)
    except PackageError:
        raise
    except urllib.error.HTTPError as exc:
        raise PackageError(f"HTTP {exc.code} {exc.reason}") from exc
    except TimeoutError as exc:
        raise PackageError(f"the server sent nothing for {stall_seconds:g} s (stalled)") from exc
    except (OSError, ValueError, http.client.HTTPException) as exc:
        raise PackageError(f"{type(exc).__name__}: {exc}") from exc
    if expected is not None and received != expected:
        raise PackageError(f"truncated: received {received:,} of {expected:,} bytes")


def _within(seconds: float, fetch: Callable[[], None]) -> None:
    """`fetch()` in a daemon thread, given up after `seconds`: a socket timeout does not cover
    a hanging DNS lookup, so only a thread with a hard deadline bounds a network call."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            fetch()
            outcome["done"] = True
        except Exception as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="argos-fetch", daemon=True)
    worker.start()
    worker.join(seconds)
    if outcome.get("done"):
        return
    error = outcome.get("error")
    if isinstance(error, PackageError):
        raise error
    raise PackageError(str(error) if error else f"no answer within {seconds:g} s")
