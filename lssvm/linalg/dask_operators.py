r"""CG's matrix-free kernel operator on a ``dask.distributed`` cluster ([S §3.4.1]).

:class:`DaskKernelOperator` computes the same map as
:class:`lssvm.linalg.operators.KernelOperator`, :math:`V \mapsto (K + sI) V` with
:math:`K = K(X, X)` never stored, but the tiles of K are computed on the workers of a
``dask.distributed`` client, where the inputs are:

- X is cut into p row blocks :math:`X_0, \dots, X_{p-1}`, scattered once to the
  workers (round robin) and kept there for every product of the CG run.
- Each product scatters V to every worker (N x k numbers, small next to the
  :math:`N^2/2` kernel values) and submits p tasks. Task i computes the diagonal
  block :math:`K_{ii}` (its lower triangle, in tiles) and the off-diagonal blocks
  :math:`K_{ij}` for the next :math:`\lfloor (p-1)/2 \rfloor` blocks j after i
  (cyclically; for even p, tasks i < p/2 also take j = i + p/2), so every unordered
  pair of blocks is computed exactly once and every task does the same work. A
  block :math:`K_{ij}` adds :math:`K_{ij} V_j` to rows i and :math:`K_{ij}^T V_i`
  to rows j: as in the in-process operator, each kernel value is computed once per
  product (about :math:`N^2/2` in all), by the same tile code.
- The client gathers the tasks' row contributions and adds them in task order: the
  sum does not depend on which worker ran what.

The result equals the in-process operator's to round-off (the additions are
grouped differently), so CG meets the same iterates to round-off and, unless a
residual lands within round-off of the tolerance, stops at the same iteration.

Dask is imported when an operator is built (``pip install lssvm[dask]``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from ..kernels import blas_controller
from .operators import KernelOperator

__all__ = ["DaskKernelOperator", "cyclic_pairs"]


def cyclic_pairs(n_blocks: int) -> list[list[int]]:
    """For each block i, the blocks j whose K_ij task i computes (i itself first).

    Every unordered pair {i, j}, i != j, appears in exactly one list, and the lists
    differ in length by at most one: the balanced round-robin schedule.

    >>> cyclic_pairs(4)
    [[0, 1, 2], [1, 2, 3], [2, 3], [3, 0]]
    """
    p = int(n_blocks)
    half = (p - 1) // 2
    pairs = []
    for i in range(p):
        window = [i] + [(i + t) % p for t in range(1, half + 1)]
        if p % 2 == 0 and p > 1 and i < p // 2:
            window.append(i + p // 2)  # the opposite block, taken by one side only
        pairs.append(window)
    return pairs


def _window_product(kernel, block_size, V, offsets, window, *blocks):
    """Row contributions of task ``window[0]``: {block j: rows j of sum K_ij-terms}.

    ``blocks`` are X_j for j in ``window``; V is the full (N, k) array.
    """
    i = window[0]
    Xc = np.vstack(blocks)  # [X_i; X_j1; ...]: one operator's tile code for all
    op = KernelOperator(kernel, Xc, block_size=block_size, n_jobs=1)
    starts = np.concatenate([[0], np.cumsum([len(x) for x in blocks])])
    Vc = np.vstack([V[offsets[j]:offsets[j + 1]] for j in window])
    out = np.zeros_like(Vc)
    b, n_i = op.block_size, len(blocks[0])
    buffer = np.empty((b, b))
    with blas_controller().limit(limits=1):
        for r0 in range(0, n_i, b):  # rows of block i, in tiles
            r1 = min(r0 + b, n_i)
            for c0, c1 in _column_tiles(r0, r1, starts, b):
                tile = op._tile(r0, r1, c0, c1, buffer[: r1 - r0, : c1 - c0])
                out[r0:r1] += tile @ Vc[c0:c1]  # K_IJ V_J
                if c0 != r0:  # K_JI V_I = K_IJ^T V_I (not on the diagonal tile)
                    out[c0:c1] += tile.T @ Vc[r0:r1]
    return {j: out[starts[t]:starts[t + 1]] for t, j in enumerate(window)}


def _column_tiles(r0, r1, starts, b):
    """Column tiles met by row tile [r0, r1): the lower triangle of the diagonal
    block (columns before r1), then all columns of the other blocks."""
    for c0 in range(0, r1, b):
        yield c0, min(c0 + b, starts[1])
    for t in range(1, len(starts) - 1):
        for c0 in range(starts[t], starts[t + 1], b):
            yield c0, min(c0 + b, starts[t + 1])


class DaskKernelOperator:
    r"""V -> (K + shift I) V on a ``dask.distributed`` cluster; K never stored.

    Parameters
    ----------
    kernel : Kernel or callable kernel(X, Z)
    X : ndarray of shape (n_samples, n_features), or a Dask array
        Dense inputs; a Dask array is computed once and cut again into the
        operator's blocks.
    shift : float, default=0.0
        Added to the diagonal (``1/gamma`` gives H of [S 3.24]; the solver adds
        I/gamma itself when given ``shift=0``).
    block_size : int, default=256
        Tile edge inside each task, as for :class:`lssvm.linalg.operators.KernelOperator`.
    n_blocks : int, optional
        Row blocks p (and tasks per product). Default: four per worker thread, plus
        one to make it odd (equal tasks), at most one per ``block_size`` rows.
    client : distributed.Client, optional
        Default: the current client (``distributed.get_client()``); an error if
        there is none.

    Examples
    --------
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from lssvm.kernels import RBF
    >>> X = np.random.default_rng(0).standard_normal((300, 2))
    >>> with LocalCluster(n_workers=2, processes=False,
    ...                   dashboard_address=None) as cluster, Client(cluster):
    ...     H = DaskKernelOperator(RBF(1.0), X, shift=0.1, block_size=64)
    ...     v = np.ones(300)
    ...     bool(np.allclose(H(v), (RBF(1.0)(X) + 0.1 * np.eye(300)) @ v))
    True
    """

    def __init__(self, kernel, X, shift: float = 0.0, block_size: int = 256,
                 n_blocks: int | None = None, client=None):
        from distributed import get_client

        if int(block_size) < 1:
            raise ValueError(
                f"block_size must be a positive integer; got block_size={block_size!r}."
            )
        if sp.issparse(X):
            raise TypeError("DaskKernelOperator needs dense X; got a sparse matrix.")
        if hasattr(X, "dask") and hasattr(X, "compute"):
            X = X.compute()
        X = np.asarray(X, dtype=np.float64)
        if client is None:
            try:
                client = get_client()
            except ValueError:
                raise ValueError(
                    "DaskKernelOperator computes on a dask.distributed cluster and "
                    "found no client: start one first (distributed.Client(...) or "
                    "Client(LocalCluster())), or pass client=; got none."
                ) from None
        self.client = client
        self.kernel, self.shift, self.block_size = kernel, float(shift), int(block_size)
        n = X.shape[0]
        workers = self.client.nthreads()  # {address: threads}
        if not workers:
            raise ValueError("DaskKernelOperator: the client has no workers.")
        threads = sum(workers.values()) or 1
        if n_blocks is None:
            n_blocks = 4 * threads + 1
        elif isinstance(n_blocks, bool) or int(n_blocks) < 1:
            raise ValueError(
                f"n_blocks must be a positive integer; got n_blocks={n_blocks!r}."
            )
        p = max(1, min(int(n_blocks), -(-n // self.block_size)))
        self.n_blocks = p
        self.offsets = np.linspace(0, n, p + 1).round().astype(int)
        self._shape = (n, n)
        addresses = list(workers)
        self._blocks = [
            self.client.scatter(X[self.offsets[i]:self.offsets[i + 1]],
                                workers=[addresses[i % len(addresses)]])
            for i in range(p)
        ]  # each block lives on one worker, for the whole CG run
        self._windows = cyclic_pairs(p)
        self._diag = kernel.diag(X) if hasattr(kernel, "diag") else None

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    def diag(self) -> NDArray[np.float64]:
        """The diagonal K(x_i, x_i) + shift."""
        return self._diag + self.shift

    def __call__(self, V: NDArray) -> NDArray[np.float64]:
        """(K + shift I) V for V of shape (n_samples,) or (n_samples, k)."""
        V = np.asarray(V, dtype=np.float64)
        V2 = V.reshape(V.shape[0], -1)
        if V2.shape[0] != self._shape[0]:
            raise ValueError(
                f"DaskKernelOperator of shape {self._shape} cannot multiply an array "
                f"with {V.shape[0]} rows."
            )
        V_future = self.client.scatter(V2, broadcast=True)
        tasks = [
            self.client.submit(
                _window_product, self.kernel, self.block_size, V_future,
                self.offsets, window, *[self._blocks[j] for j in window], pure=False,
            )
            for window in self._windows
        ]  # fmt: skip
        out = self.shift * V2
        for parts in self.client.gather(tasks):  # task order: a fixed sum
            for j, rows in parts.items():
                out[self.offsets[j]:self.offsets[j + 1]] += rows
        del V_future, tasks
        return out.reshape(V.shape)

    def close(self) -> None:
        """Release the blocks on the workers (also done when the operator is freed)."""
        self._blocks = []

    def __repr__(self) -> str:
        return (
            f"DaskKernelOperator({self.kernel!r}, n_samples={self._shape[0]}, "
            f"shift={self.shift!r}, n_blocks={self.n_blocks}, "
            f"block_size={self.block_size})"
        )
