"""What one document's stage may cost in time: a deadline, checked cooperatively, and enforced
from outside in the main thread.

The per-article limits (bytes, characters, markup, segments) bound the input, not the work: some
texts under every limit still cost a stage minutes (runs of numbers such as "1-1-1-…" that every
number is read as the start of a range of; long runs without whitespace that a pattern scans again
from every position). So `prepare` and `extract` run each document under a `Budget` of
`limits.current().max_stage_seconds`; a document that outlasts it fails with one line saying so,
and the run goes on.

How the deadline is enforced:

- cooperatively, everywhere: the stages call `checkpoint()` between segments (and the cleaners
  between chunks of markup), which raises `BudgetExceeded` once the deadline has passed. This works
  in any thread (Prefect's task threads, Dask workers), but not inside one long call;
- from outside, in the main thread only (`ingest run` without Prefect, `run_pipeline`): a one-shot
  SIGALRM timer raises `BudgetExceeded` at the deadline wherever the document's code is, inside a
  regular expression too (CPython's `re` checks for signals while it matches). Signals reach the
  main thread alone, and the timer is armed only when no one else uses it (pytest-timeout, an outer
  budget).

`BudgetExceeded` derives from BaseException, like KeyboardInterrupt, so that an `except Exception`
inside a stage cannot swallow it; the code that opens a budget catches it and fails the document.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar, Token
from types import FrameType
from typing import Any

_current: ContextVar[Budget | None] = ContextVar("ingest_stage_budget", default=None)


class BudgetExceeded(BaseException):
    """A document's stage ran out of time; the message says so and what to do."""


class Budget:
    """The time one stage of one document may take: `with Budget("extraction", 20): ...`."""

    def __init__(self, what: str, seconds: float) -> None:
        self.what, self.seconds = what, seconds
        self.deadline = time.monotonic() + seconds
        self._token: Token[Budget | None] | None = None
        self._armed = False
        # What signal.signal returned: a handler, SIG_DFL/SIG_IGN, or None (a handler installed from C).
        self._previous_handler: Callable[[int, FrameType | None], Any] | int | signal.Handlers | None = None

    def message(self) -> str:
        return (
            f"{self.what} stopped after {self.seconds:g} s: the text is too costly to process as one article "
            "(long runs of numbers, symbols or characters without spaces?); split the file or report it "
            "(the limit is INGEST_MAX_STAGE_SECONDS)"
        )

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(self.message())

    def __enter__(self) -> Budget:
        self._token = _current.set(self)
        self._arm()
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            self._disarm()
        finally:
            assert self._token is not None  # set by __enter__
            _current.reset(self._token)

    def _arm(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0):
            return  # someone else's timer (pytest-timeout, an outer budget): do not replace it
        self._previous_handler = signal.signal(signal.SIGALRM, self._on_alarm)
        signal.setitimer(signal.ITIMER_REAL, max(self.deadline - time.monotonic(), 0.001))
        self._armed = True

    def _disarm(self) -> None:
        if self._armed:
            self._armed = False
            # Ignored while the timer is stopped: an alarm arriving now is dropped rather than raised
            # after the budget ended, or (the default action) ending the process.
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
            signal.setitimer(signal.ITIMER_REAL, 0)
            # None: a handler installed from C, which cannot be put back; the default is.
            signal.signal(signal.SIGALRM, self._previous_handler if self._previous_handler is not None else signal.SIG_DFL)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        self._disarm()  # put the previous handler back first, wherever this exception ends up
        raise BudgetExceeded(self.message())


def checkpoint() -> None:
    """Raise `BudgetExceeded` if the current document's stage is past its deadline (no budget: nothing)."""
    budget = _current.get()
    if budget is not None:
        budget.check()
