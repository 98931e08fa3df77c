"""The one progress printer of the package (``verbose=1`` anywhere).

Every long-running routine (the searches and CV estimators, ``prune``, ``ard``,
the randomized-split protocol) reports through :class:`Progress`: one line per
step on standard error, ``[lssvm <topic>] <message>, <elapsed> s``, flushed at
once, nothing at all when ``verbose`` is 0. The elapsed time is for the reader
watching the run; nothing computes with it.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


class Progress:
    """Progress lines for one run of a routine.

    >>> log = Progress("demo", verbose=0)
    >>> log("nothing is printed when verbose is 0")
    >>> log.verbose
    0
    """

    def __init__(self, topic: str, verbose) -> None:
        self.topic = topic
        self.verbose = verbose
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.start

    def __call__(self, message: str, *, timed: bool = True) -> None:
        """Print ``[lssvm topic] message, 1.2 s`` to standard error when verbose."""
        if not self.verbose:
            return
        suffix = f", {self.elapsed:.1f} s" if timed else ""
        print(f"[lssvm {self.topic}] {message}{suffix}", file=sys.stderr, flush=True)
