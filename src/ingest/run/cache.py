"""The stage cache: each stage's output per document, keyed by what it depends on.

A folder next to the warehouse (`<warehouse>.stages/<stage>/<key[:2]>/<key>.pickle`,
zlib-compressed pickles); a missing, unreadable or stale entry is a miss, and deleting
the folder is always safe (it is never pruned).
"""

from __future__ import annotations

import os
import pickle
import threading
import zlib
from pathlib import Path
from typing import Any


def default_cache_dir(warehouse_path: str | Path) -> Path:
    path = Path(warehouse_path)
    return path.with_name(path.stem + ".stages")


class StageCache:
    """Stage outputs in a folder; `root=None` is a cache that never hits and stores nothing."""

    def __init__(self, root: str | Path | None) -> None:
        self.root = Path(root) if root else None

    def _path(self, stage: str, key: str) -> Path:
        assert self.root is not None
        return self.root / stage / key[:2] / f"{key}.pickle"

    def get(self, stage: str, key: str) -> Any | None:
        if self.root is None:
            return None
        try:
            return pickle.loads(zlib.decompress(self._path(stage, key).read_bytes()))
        except FileNotFoundError:
            return None
        except Exception:  # a torn or outdated entry: recompute it
            return None

    def put(self, stage: str, key: str, value: Any, keep_only: bool = False) -> None:
        """Store an entry; `keep_only` drops the stage's other entries (one report, not one per run)."""
        if self.root is None:
            return
        path = self._path(stage, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        temporary.write_bytes(zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1))
        os.replace(temporary, path)  # readers see the whole entry or none
        if keep_only:
            for other in (self.root / stage).glob("*/*.pickle"):
                if other != path:
                    other.unlink(missing_ok=True)
