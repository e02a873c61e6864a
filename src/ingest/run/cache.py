"""The stage cache: each stage's output per document, keyed by what it depends on.

A folder next to the warehouse (`<warehouse>.stages/<stage>/<key[:2]>/<key>.json.z`); deleting
it is always safe (it is never pruned). Entries are data, never code: zlib-compressed JSON in
which dates, enums and the pipeline's own records are tagged and rebuilt only as the record
types listed here, with exactly their fields. A missing, torn, foreign or wrong-shaped entry is
a cache miss (the stage is recomputed), never an error — a replaced cache file cannot run
anything (the cache used to hold pickles, which can). So is an entry that is not a regular file
(a FIFO would block the read, a link to /dev/zero never end it: `read.read_regular`) or that is, or
decompresses to, more than any stage output.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import threading
import zlib
from pathlib import Path
from typing import Any

from ..outputs.findings import Corroboration, Evidence, Finding, Note, ReportData, Side, Summary
from ..read import read_regular
from ..records import Metadata, PreparedDocument, SegmentRecord, SourceFile, Status
from ..translate.engine import Translation

# The record types an entry may hold, by name; their enum fields by name.
_RECORDS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        PreparedDocument,
        SourceFile,
        Metadata,
        SegmentRecord,
        Translation,
        ReportData,
        Summary,
        Finding,
        Side,
        Evidence,
        Corroboration,
        Note,
    )
}
_ENUMS: dict[tuple[str, str], type] = {("PreparedDocument", "status"): Status}
_SUFFIX = ".json.z"
# Far above any entry (a 200,000-character article's rows are a few MB of JSON), far below memory.
_MAX_ENTRY_BYTES = 64 << 20
_MAX_JSON_BYTES = 512 << 20


class _Invalid(ValueError):
    """An entry that is not what this version of the cache writes."""


def default_cache_dir(warehouse_path: str | Path) -> Path:
    path = Path(warehouse_path)
    return path.with_name(path.stem + ".stages")


def usable_cache_dir(warehouse_path: str | Path) -> tuple[Path | None, str | None]:
    """The stage cache folder of a warehouse, or None and why when it cannot be used (the run goes on)."""
    folder = default_cache_dir(warehouse_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
    except OSError as error:
        return None, (
            f"the stage cache {folder} cannot be used ({error.strerror or error}); every stage is "
            "computed this run. Move that path away to get the cache back."
        )
    return folder, None


# Values stored as they are. Rows are mostly these, so dicts and lists test their items' exact type
# inline instead of calling encode/decode for each: the recursion was most of the cache's cost.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def encode(value: Any) -> Any:
    """A JSON-able form of `value`: records and dates tagged, everything else plain data."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is dict:
        return {str(k): v if type(v) in _LEAVES else encode(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _LEAVES else encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if name not in _RECORDS:
            raise TypeError(f"{name} is not a record the stage cache stores")
        return {"$record": name, **{f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"{type(value).__name__} cannot be stored in the stage cache")


def decode(data: Any) -> Any:
    """The value `encode` made, rebuilt; `_Invalid` for anything else."""
    if isinstance(data, list):
        return [v if type(v) in _LEAVES else decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "$datetime" in data:
        return dt.datetime.fromisoformat(data["$datetime"])
    if "$date" in data:
        return dt.date.fromisoformat(data["$date"])
    if "$record" not in data:
        return {k: v if type(v) in _LEAVES else decode(v) for k, v in data.items()}
    name = data["$record"]
    cls = _RECORDS.get(name)
    fields = {f.name for f in dataclasses.fields(cls)} if cls else set()
    if cls is None or set(data) - {"$record"} != fields:
        raise _Invalid(f"not a {name} of this version")
    values = {k: decode(v) for k, v in data.items() if k != "$record"}
    for (record, field), enum in _ENUMS.items():
        if record == name:
            values[field] = enum(values[field])
    return cls(**values)


def _inflate(compressed: bytes) -> bytes:
    """The entry's JSON; ValueError for an entry over the limits (a zip bomb among them)."""
    if len(compressed) > _MAX_ENTRY_BYTES:
        raise ValueError("stage cache entry too large")
    inflater = zlib.decompressobj()
    data = inflater.decompress(compressed, _MAX_JSON_BYTES)
    if inflater.unconsumed_tail:
        raise ValueError("stage cache entry inflates too much")
    if not inflater.eof:
        raise ValueError("stage cache entry is torn")
    return data


class StageCache:
    """Stage outputs in a folder; `root=None` is a cache that never hits and stores nothing."""

    def __init__(self, root: str | Path | None) -> None:
        self.root = Path(root) if root else None

    def _path(self, stage: str, key: str) -> Path:
        assert self.root is not None
        return self.root / stage / key[:2] / f"{key}{_SUFFIX}"

    def get(self, stage: str, key: str) -> Any | None:
        if self.root is None:
            return None
        try:
            return decode(json.loads(_inflate(read_regular(self._path(stage, key), _MAX_ENTRY_BYTES))))
        except (OSError, ValueError, TypeError, zlib.error, RecursionError):
            return None  # missing, torn, foreign, oversized, not a file or outdated: recompute it

    def put(self, stage: str, key: str, value: Any, keep_only: bool = False) -> None:
        """Store an entry; `keep_only` drops the stage's other entries (one report, not one per run)."""
        if self.root is None:
            return
        path = self._path(stage, key)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(zlib.compress(json.dumps(encode(value), ensure_ascii=False).encode("utf-8"), 1))
            os.replace(temporary, path)  # readers see the whole entry or none
        except OSError:
            temporary.unlink(missing_ok=True)
            return  # a full disk or a vanished folder costs a recomputation next run, not this run
        if keep_only:
            for other in (self.root / stage).glob(f"*/*{_SUFFIX}"):
                if other != path:
                    other.unlink(missing_ok=True)
