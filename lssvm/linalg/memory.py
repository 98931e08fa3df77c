"""Memory checks before dense N x N allocations.

The direct solver, the closed-form cross-validation, the RLS-SVM, the evidence
framework (:mod:`lssvm.bayes`, :mod:`lssvm.bayes.ard`) and pruning store N x N float64
matrices: 8 N^2 bytes each (298 GiB at N = 200,000). Before allocating, they compare
the bytes they need with the memory the operating system reports as available
(:func:`available_memory`) and raise :class:`InsufficientMemoryError`, which names N,
both sizes and the alternative, instead of numpy's raw "Unable to allocate".

The estimators' ``solver="auto"`` uses :func:`fits_in_memory` to choose the direct
solver only when its matrix takes at most :data:`AUTO_MEMORY_FRACTION` of the
available memory (see :func:`lssvm.linalg.solvers.choose_method`).

Tests never allocate to exercise this: they replace :func:`available_memory`
(``monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: 2**30)``).
"""

from __future__ import annotations

from .._validation import owner_prefix

__all__ = [
    "InsufficientMemoryError",
    "available_memory",
    "dense_bytes",
    "fits_in_memory",
    "check_memory",
    "check_dense_memory",
    "AUTO_MEMORY_FRACTION",
]

# solver="auto" takes the direct solver only if its N x N matrix needs at most this
# fraction of the available memory: the rest is left to the kernel build's blocks,
# the caller's data and other processes.
AUTO_MEMORY_FRACTION = 0.5

_MEMINFO = "/proc/meminfo"


class InsufficientMemoryError(MemoryError, ValueError):
    """A dense N x N computation needs more memory than is available.

    A subclass of both ``MemoryError`` (what it is) and ``ValueError`` (the problem
    size is a bad value for this method), raised before anything is allocated.
    """


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation, or None if unknown.

    Linux: ``MemAvailable`` of ``/proc/meminfo`` (free memory plus the reclaimable
    caches); elsewhere ``psutil.virtual_memory().available`` when psutil is
    installed. None (no check is made) when neither is readable.
    """
    try:
        with open(_MEMINFO) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024  # reported in kB
    except (OSError, ValueError, IndexError):
        pass
    try:
        import psutil  # optional: only if already installed
    except ImportError:
        return None
    return int(psutil.virtual_memory().available)


def dense_bytes(n_samples: int, n_matrices: float = 1.0) -> int:
    """Bytes of ``n_matrices`` float64 matrices of shape (n_samples, n_samples)."""
    return int(n_matrices * 8 * int(n_samples) ** 2)


def fits_in_memory(n_samples: int, n_matrices: float = 1.0, fraction=1.0) -> bool:
    """True if the matrices take at most ``fraction`` of the available memory.

    True when the available memory is unknown.
    """
    available = available_memory()
    return available is None or dense_bytes(n_samples, n_matrices) <= (
        fraction * available
    )


def _format_bytes(n_bytes: float) -> str:
    """A size for a message, in binary units with one decimal.

    >>> _format_bytes(12800), _format_bytes(320_000_000_000)
    ('12.5 KiB', '298.0 GiB')
    """
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes / 2**10:.1f} KiB"


def check_memory(needed: int, needs: str, *, detail: str = "", alternative: str,
                 owner=None) -> None:
    """Raise InsufficientMemoryError if ``needed`` bytes exceed the available memory.

    The one wording of the not-enough-memory error: what is needed, what is
    available, that nothing was allocated and what to do instead,

        "<Owner: ><needs><size> (<needed> bytes)<detail>, but only <size>
        (<available> bytes) of memory is available. Nothing was allocated;
        <alternative>."

    Nothing is checked when the available memory is unknown (None).

    Parameters
    ----------
    needed : int
        Bytes the computation holds at its peak.
    needs : str
        The message up to the size: what needs the memory, e.g. "the fit with
        m = 400 prototypes needs about ".
    detail : str
        Text after the size (what the bytes are), e.g. " at its peak (...)".
    alternative : str
        What the user can do instead.
    owner : object or str, optional
        The estimator (or function name) that asks, for the message.

    >>> check_memory(800, "the solver needs ", alternative="use less")  # fits
    """
    available = available_memory()
    if available is None or needed <= available:
        return
    raise InsufficientMemoryError(
        f"{owner_prefix(owner)}{needs}{_format_bytes(needed)} ({needed} bytes)"
        f"{detail}, but only {_format_bytes(available)} ({available} bytes) of "
        f"memory is available. Nothing was allocated; {alternative}."
    )


def check_dense_memory(
    n_samples: int,
    *,
    n_matrices: float = 1.0,
    what: str = "the direct solver",
    alternative: str = 'use solver="cg" (matrix-free, memory O(N))',
    owner=None,
) -> None:
    """Raise InsufficientMemoryError if the dense matrices do not fit in memory.

    Parameters
    ----------
    n_samples : int
        N, the side of the matrices.
    n_matrices : float
        How many N x N float64 matrices the computation holds at its peak.
    what : str
        The computation, for the message.
    alternative : str
        What the user can do instead, for the message.
    owner : object or str, optional
        The estimator (or function name) that asks, for the message.

    >>> import lssvm.linalg.memory as m
    >>> m.check_dense_memory(10)  # 800 bytes: fine
    """
    count = "an" if n_matrices == 1 else f"{n_matrices:g}"
    check_memory(
        dense_bytes(n_samples, n_matrices),
        f"{what} needs {count} N x N float64 matri"
        f"{'x' if n_matrices == 1 else 'ces'} for N = {int(n_samples)} samples: ",
        alternative=f"{alternative}, or use fewer samples",
        owner=owner,
    )
