"""Row blocks of the fixed-size passes: shared by the modules of :mod:`lssvm.sparse`.

The accumulated normal equations (:mod:`lssvm.sparse.primal_ridge`), the PCG passes
(:mod:`lssvm.sparse.nystrom_pcg`) and the fixed-size estimators
(:mod:`lssvm.sparse.fixed_size`) cut X into row chunks (in memory) or row blocks (a
Dask array) and add the chunks' results. These helpers serve those three modules
only: a private module (no user needs them), whose names carry no underscore so
that the sibling modules may import them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pairwise_sum", "check_block", "as_2d", "block_starts", "weight_blocks"]


def pairwise_sum(items, add):
    """Sum an iterable by a binary-counter tree: equal-size partial sums are merged.

    The tree depends only on the number of items, so two callers with the same items
    (numpy arrays, or Dask delayed objects with ``add`` delayed) get the same sums in
    the same order. Memory: O(log n) partial sums.
    """
    stack = []  # (level, partial sum)
    for item in items:
        level, value = 0, item
        while stack and stack[-1][0] == level:
            value = add(stack.pop()[1], value)
            level += 1
        stack.append((level, value))
    if not stack:
        raise ValueError("pairwise_sum needs at least one item.")
    value = stack.pop()[1]
    while stack:
        value = add(stack.pop()[1], value)
    return value


def check_block(Xb, Yb=None, Wb=None, start=0):
    """Raise a ValueError naming the input if a row block of a Dask input is not finite.

    The in-memory path checks X and y when ``fit``/``predict`` is called; a Dask
    array is checked block by block when its task runs (O(n_b d) per block).
    """
    for name, block in (("X", Xb), ("y", Yb), ("sample_weight", Wb)):
        if block is not None and not np.all(np.isfinite(block)):
            raise ValueError(
                f"Input {name} contains NaN or infinity (in the row block of the Dask "
                f"array that starts at row {start}); {name} must be finite."
            )
    if Wb is not None and np.any(Wb < 0):
        raise ValueError(
            f"sample_weight must be non-negative; got a negative weight in the row "
            f"block of the Dask array that starts at row {start}."
        )


def as_2d(Y):
    """Y as a matrix of columns: a vector (n,) becomes (n, 1), a matrix stays."""
    return Y[:, None] if Y.ndim == 1 else Y


def block_starts(X):
    """First row of each row block of a Dask array."""
    return np.concatenate([[0], np.cumsum(X.chunks[0])[:-1]]).astype(int)


def weight_blocks(W, n_blocks):
    """Delayed row blocks of a Dask weight vector, or Nones."""
    return [None] * n_blocks if W is None else list(W.to_delayed().ravel())
