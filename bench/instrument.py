"""Per-stage timing of one real `run_pipeline` call, by wrapping the functions it calls.

Nothing in the pipeline is changed or re-implemented: the module-level functions the
stages call (decode, clean, detect_language, segment, ...) and the `Run` steps are replaced,
for the duration of the run, by wrappers that add their wall time
to a stage. Times are *exclusive*: a wrapped call made inside another wrapped call is
subtracted from the outer one, so the stages partition the run and
`total - sum(stages)` is the time spent outside every wrapped function ("other").
Generator functions are timed on each `next()`.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# (stage, module, attribute): what is wrapped. Classes are patched on the class object,
# so `Run.extract` etc. are timed however the run is driven.
TARGETS: tuple[tuple[str, str, str], ...] = (
    ("discover", "ingest.run.plan", "discover"),
    ("discover", "ingest.run.runner", "Run.pending"),
    ("read", "ingest.prepare", "read_bytes"),
    ("read", "ingest.prepare", "decode"),
    ("clean", "ingest.prepare", "clean"),
    ("metadata", "ingest.prepare", "extract_metadata"),
    ("detect", "ingest.prepare", "detect_language"),
    ("segment", "ingest.prepare", "segment"),
    ("prepare:other", "ingest.prepare", "prepare_document"),
    ("translate", "ingest.translate.segments", "translate_documents"),
    # extract_document's own time: the per-segment loop and rows (before issue 14, spaCy's pipe too).
    ("extract:document", "ingest.extract.document", "extract_document"),
    ("extract:rules", "ingest.extract.document", "entities_of"),
    ("extract:readings", "ingest.extract.document", "read"),
    ("extract:anchors", "ingest.extract.document", "segment_anchors"),
    ("extract:claims", "ingest.extract.document", "build_claims"),
    ("extract:claims", "ingest.extract.document", "document_release"),
    ("extract:rows", "ingest.extract.document", "as_rows"),
    ("load", "ingest.run.runner", "Run.load_staged"),
    ("cache", "ingest.run.cache", "StageCache.get"),
    ("cache", "ingest.run.cache", "StageCache.put"),
    ("cache", "ingest.run.staging", "StagedBatch.write"),
    ("batching", "ingest.run.runner", "process_batch"),
    ("check", "ingest.run.runner", "Run.finish"),
)
# The stages, and which measured parts make each one.
STAGES = {
    "discover": ("discover",),
    "read": ("read",),
    "clean": ("clean", "metadata"),
    "detect": ("detect",),
    "segment": ("segment", "prepare:other"),
    "translate": ("translate",),
    "extract": ("extract:document", "extract:rules", "extract:readings", "extract:anchors", "extract:claims", "extract:rows"),
    "load": ("load",),
    "cache": ("cache", "batching"),
    "check": ("check",),
}


class StageClock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu_seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list[float]] = []  # per active call: [cpu at start, child seconds, child cpu]

    def _enter(self) -> None:
        self._stack.append([time.process_time(), 0.0, 0.0])

    def _exit(self, stage: str, elapsed: float) -> None:
        cpu_start, children, children_cpu = self._stack.pop()
        cpu = time.process_time() - cpu_start
        self.seconds[stage] += elapsed - children
        self.cpu_seconds[stage] += cpu - children_cpu
        self.calls[stage] += 1
        if self._stack:
            self._stack[-1][1] += elapsed
            self._stack[-1][2] += cpu

    def wrap(self, stage: str, fn: Callable) -> Callable:
        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def timed_gen(*args: Any, **kwargs: Any) -> Iterator:
                iterator = fn(*args, **kwargs)
                while True:
                    self._enter()
                    start = time.perf_counter()
                    try:
                        item = next(iterator)
                    except StopIteration:
                        self._exit(stage, time.perf_counter() - start)
                        return
                    except BaseException:
                        self._exit(stage, time.perf_counter() - start)
                        raise
                    self._exit(stage, time.perf_counter() - start)
                    yield item

            return timed_gen

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._enter()
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._exit(stage, time.perf_counter() - start)

        return timed

    def stages(self, cpu: bool = False) -> dict[str, float]:
        """The issue's stages (sums of their measured parts), in pipeline order; wall or CPU seconds."""
        source = self.cpu_seconds if cpu else self.seconds
        return {name: sum(source.get(p, 0.0) for p in parts) for name, parts in STAGES.items()}


class MissingTarget(LookupError):
    """A function the benchmark wraps no longer exists: its figures would silently read zero."""


@contextmanager
def instrumented(clock: StageClock, strict: bool = True) -> Iterator[None]:
    """Wrap every target for the duration of the block; raise `MissingTarget` if one is gone, unless
    not `strict` (older code, run side by side: what it lacks is timed as "other")."""
    import importlib

    restore: list[tuple[Any, str, Any]] = []
    try:
        for stage, module_name, attribute in TARGETS:
            *path, name = attribute.split(".")
            try:
                owner: Any = importlib.import_module(module_name)
                for part in path:
                    owner = getattr(owner, part)
                original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
            except (ImportError, AttributeError, KeyError) as error:
                if not strict:
                    continue
                raise MissingTarget(
                    f"bench/instrument.py wraps {module_name}.{attribute}, which no longer "
                    "exists; update TARGETS to where the pipeline calls it now"
                ) from error
            restore.append((owner, name, original))
            setattr(owner, name, clock.wrap(stage, original))
        yield
    finally:
        for owner, name, original in reversed(restore):
            setattr(owner, name, original)
