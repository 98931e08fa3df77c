r"""Matrix-free kernel operators and a Nystrom preconditioner for CG ([S §3.4.1]).

"For the implementation of the algorithm the matrix :math:`\mathcal{A}` is usually
not stored. The elements of the matrix are re-calculated every iteration step"
(Suykens et al. 2002, after [S 3.27]). :class:`KernelOperator` does that: it applies
:math:`K + sI` to a block of vectors by computing K in square tiles on or below the
diagonal, each tile used twice (K and its transpose), so one product costs about
:math:`N^2/2` kernel evaluations and :math:`O(b^2 + N k)` memory, never N x N.

"The basic CG algorithm shown here might be further improved by using
preconditioners" (ibid.). :class:`NystromPreconditioner` approximates K from r
landmark columns, :math:`K \approx C W^{+} C^T` [Williams01], and applies the exact
inverse of :math:`M = C W^{+} C^T + sI` by the Woodbury identity. With the shift s
equal to :math:`1/\gamma`, M is close to :math:`H = K + I/\gamma` of [S 3.24] when the
spectrum of K decays fast (RBF kernels with large :math:`\sigma^2`), and CG on
:math:`M^{-1} H` needs far fewer iterations than on H ([S 3.26-3.27] with a smaller
condition number).

Operators know kernels and inputs, not models: the signs of the classifier's
:math:`\Omega = D K D` [S 3.6] are applied by :func:`lssvm.linalg.solvers.solve_bordered_kkt`.

Sources: Suykens et al. (2002), ch. 3, [S 3.24-3.27]; [Williams01] C. Williams and
M. Seeger, Using the Nystrom method to speed up kernel machines, NIPS 13 (2001).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from joblib import effective_n_jobs
from numpy.typing import NDArray
from scipy.linalg import cho_factor, cho_solve

from .._validation import check_n_jobs
from ..kernels import RBF, Kernel, blas_controller
from .nystrom import nystrom_factor

__all__ = ["KernelOperator", "NystromPreconditioner"]

# Row blocks are dealt round-robin to this many lanes, each accumulating its own
# partial product; the lanes are summed in a fixed order, so the result does not
# depend on how many threads run them. It caps the threads at 8; chosen, not
# measured (the stored runs, benchmarks/README.md, used 2 cores).
N_LANES = 8


class KernelOperator:
    r"""The map V -> (K + shift I) V with K = kernel(X, X), never storing K.

    K is computed tile by tile: for each tile :math:`K_{IJ}` with J <= I (blocks of
    ``block_size`` rows), :math:`K_{IJ} V_J` is added to rows I of the output and,
    below the diagonal, :math:`K_{IJ}^T V_I` to rows J. This uses the symmetry of K:
    each kernel value is computed once per product, :math:`N^2/2` in all (a full
    row-block product would compute all :math:`N^2`, twice as many; the one
    comparison measured is in ``benchmarks/README.md``, "Measurements formerly
    quoted in docstrings").

    For RBF kernels a tile of exponents is one matrix product of augmented inputs,
    :math:`-\lVert x - z\rVert^2/w = [2x/w,\, -\lVert x\rVert^2/w,\, -1] \cdot
    [z,\, 1,\, \lVert z\rVert^2/w]`, followed by one ``exp``: two passes over the
    tile. Round-off can leave an exponent of about +1e-16 where x = z (no clamp;
    the kernel value is then 1 + 1e-16).

    Row blocks are dealt to :data:`N_LANES` lanes that ``n_jobs`` threads run in
    parallel (numpy releases the GIL in ``exp`` and BLAS, which runs one thread per
    call here); the lanes' partial products are summed in a fixed order, so the
    result is the same for any ``n_jobs``.

    Parameters
    ----------
    kernel : Kernel
        A :class:`lssvm.kernels.Kernel`; any kernel object ``kernel(X, Z)`` works,
        built-in ones are evaluated tile by tile into one reused buffer per lane.
    X : ndarray of shape (n_samples, n_features)
    shift : float, default=0.0
        Added to the diagonal: ``shift=1/gamma`` gives H = K + I/gamma of [S 3.24].
    block_size : int, default=256
        Tile edge b. Memory: one b x b tile (8 b^2 bytes, 512 KiB at the default) and
        one partial output per lane.
    n_jobs : int or None, default=None
        Threads (at most N_LANES). None means 1 unless in a
        ``joblib.parallel_config`` context, -1 all CPUs, as everywhere in lssvm
        (:func:`joblib.effective_n_jobs`); the result does not depend on it.

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.kernels import RBF
    >>> X = np.random.default_rng(0).standard_normal((300, 2))
    >>> H = KernelOperator(RBF(1.0), X, shift=0.1, block_size=64)
    >>> v = np.ones(300)
    >>> bool(np.allclose(H(v), (RBF(1.0)(X) + 0.1 * np.eye(300)) @ v))
    True
    """

    def __init__(
        self,
        kernel,
        X: NDArray,
        shift: float = 0.0,
        block_size: int = 256,
        n_jobs: int | None = None,
    ):
        if int(block_size) < 1:
            raise ValueError(
                f"block_size must be a positive integer; got block_size={block_size!r}."
            )
        check_n_jobs(n_jobs, owner=self)
        self.kernel = kernel
        self.X = X if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        self.shift = float(shift)
        self.block_size = int(block_size)
        # None = 1 (unless in a joblib.parallel_config), -1 = all CPUs: as everywhere
        self.n_jobs = max(1, min(effective_n_jobs(n_jobs), N_LANES))
        # Built-in kernels: prepared inputs and squared norms once, tiles by _block.
        self._tiled = isinstance(kernel, Kernel) and (
            type(kernel).__call__ is Kernel.__call__
        )
        self._augmented = None
        if self._tiled:
            self._Xp = kernel._prepare(self.X)
            self._sq = kernel._sq_norms(self._Xp)
            if isinstance(kernel, RBF) and not sp.issparse(self._Xp):
                w = kernel._width()
                ones = np.ones((len(self._Xp), 1))
                sq = self._sq[:, None] / w
                self._augmented = (
                    np.hstack([self._Xp * (2.0 / w), -sq, -ones]),
                    np.hstack([self._Xp, ones, sq]),
                )

    @property
    def shape(self) -> tuple[int, int]:
        n = self.X.shape[0]
        return (n, n)

    def diag(self) -> NDArray[np.float64]:
        """The diagonal K(x_i, x_i) + shift, without building K."""
        return self.kernel.diag(self.X) + self.shift

    def __call__(self, V: NDArray) -> NDArray[np.float64]:
        """(K + shift I) V for V of shape (n_samples,) or (n_samples, k)."""
        V = np.asarray(V, dtype=np.float64)
        V2 = V.reshape(V.shape[0], -1)
        if V2.shape[0] != self.shape[0]:
            raise ValueError(
                f"KernelOperator of shape {self.shape} cannot multiply an array with "
                f"{V.shape[0]} rows."
            )
        n, b = self.shape[0], self.block_size
        n_blocks = -(-n // b)
        lanes = [
            range(lane, n_blocks, N_LANES) for lane in range(min(N_LANES, n_blocks))
        ]

        def run(lane):
            partial = np.zeros_like(V2)
            buffer = np.empty((min(b, n), min(b, n)))
            for bi in lane:
                i0, i1 = bi * b, min(bi * b + b, n)
                for j0 in range(0, i1, b):
                    j1 = min(j0 + b, n)
                    tile = self._tile(i0, i1, j0, j1, buffer[: i1 - i0, : j1 - j0])
                    partial[i0:i1] += tile @ V2[j0:j1]  # K_IJ V_J
                    if j0 < i0:  # below the diagonal: K_JI V_I = K_IJ^T V_I
                        partial[j0:j1] += tile.T @ V2[i0:i1]
            return partial

        with blas_controller().limit(limits=1):  # thin products: one thread runs them best
            if self.n_jobs == 1 or len(lanes) == 1:
                partials = [run(lane) for lane in lanes]
            else:
                with ThreadPoolExecutor(max_workers=self.n_jobs) as pool:
                    partials = list(pool.map(run, lanes))
        out = self.shift * V2
        for partial in partials:  # fixed order: the same sum for any n_jobs
            out += partial
        return out.reshape(V.shape)

    def _tile(self, i0, i1, j0, j1, out):
        """K(X[i0:i1], X[j0:j1]), in ``out`` for built-in kernels."""
        if not self._tiled:
            return self.kernel(self.X[i0:i1], self.X[j0:j1])
        if self._augmented is not None:  # RBF: one product, one exp
            A, B = self._augmented
            np.matmul(A[i0:i1], B[j0:j1].T, out=out)
            return np.exp(out, out=out)
        Xp, sq = self._Xp, self._sq
        rows, cols = (None, None) if sq is None else (sq[i0:i1], sq[j0:j1])
        return self.kernel._block(Xp[i0:i1], Xp[j0:j1], rows, cols, out=out)

    def __repr__(self) -> str:
        return (
            f"KernelOperator({self.kernel!r}, n_samples={self.shape[0]}, "
            f"shift={self.shift!r}, block_size={self.block_size})"
        )


class NystromPreconditioner:
    r"""v -> M^{-1} v with M = K_nys + shift I, K_nys = C W^+ C^T from r landmarks.

    Landmarks: ``rank`` rows of X drawn uniformly without replacement (seeded).
    With :math:`C = K(X, X_L)` (n x r) and :math:`W = K(X_L, X_L) = U S U^T`,
    eigenvalues of W at most ``lssvm.linalg.nystrom.EIGVAL_RTOL`` times the largest are dropped
    and :math:`L = C U_+ S_+^{-1/2}` (n x r'), so :math:`K_{nys} = L L^T`. The
    Woodbury identity gives the exact inverse of M,

    .. math:: M^{-1} = \big(I - L (sI + L^T L)^{-1} L^T\big) / s,

    with one Cholesky factorisation of the r' x r' matrix :math:`sI + L^T L`
    (eigenvalues >= s, so it is well conditioned for s not too small). M is
    symmetric positive definite for any s > 0, as CG requires. Setup costs
    :math:`O(n r^2)`; one application :math:`O(n r k)` for k vectors.

    Parameters
    ----------
    kernel : Kernel or callable kernel(X, Z)
    X : ndarray of shape (n_samples, n_features)
    shift : float
        s > 0; ``1/gamma`` for H = K + I/gamma of [S 3.24].
    rank : int
        Number r of landmarks (at most n_samples).
    random_state : int, default=0
        Seed of the landmark draw.

    Attributes
    ----------
    landmarks : ndarray of shape (r,)
        Sorted row indices of the landmark points.
    L : ndarray of shape (n_samples, r')
        The factor with K_nys = L L^T (r' <= r columns kept).

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.kernels import RBF
    >>> X = np.random.default_rng(0).standard_normal((200, 2))
    >>> P = NystromPreconditioner(RBF(1.0), X, shift=0.1, rank=50)
    >>> M = P.L @ P.L.T + 0.1 * np.eye(200)
    >>> v = np.ones(200)
    >>> bool(np.allclose(P(M @ v), v))
    True
    """

    def __init__(self, kernel, X: NDArray, shift: float, rank: int, random_state=0):
        X = X if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        n = X.shape[0]
        if not (np.isfinite(shift) and shift > 0):
            raise ValueError(
                f"shift must be a positive float (1/gamma for [S 3.24]); got "
                f"shift={shift!r}."
            )
        if not (1 <= int(rank) <= n):
            raise ValueError(
                f"rank must be an integer in [1, n_samples={n}]; got rank={rank!r}."
            )
        self.shift = float(shift)
        rng = np.random.default_rng(random_state)
        self.landmarks = np.sort(rng.choice(n, size=int(rank), replace=False))
        C = kernel(X, X[self.landmarks])  # (n, r)
        self.L = nystrom_factor(C, self.landmarks)  # (n, r'), K_nys = L L^T
        G = self.L.T @ self.L  # (r', r')
        G.flat[:: G.shape[0] + 1] += self.shift  # s I + L^T L
        self._G_cho = cho_factor(G, lower=True) if G.size else None

    @property
    def shape(self) -> tuple[int, int]:
        n = self.L.shape[0]
        return (n, n)

    def __call__(self, V: NDArray) -> NDArray[np.float64]:
        """M^{-1} V for V of shape (n_samples,) or (n_samples, k), by Woodbury."""
        V = np.asarray(V, dtype=np.float64)
        if self._G_cho is None:  # nothing kept: M = s I
            return V / self.shift
        correction = self.L @ cho_solve(self._G_cho, self.L.T @ V)
        return (V - correction) / self.shift

    def __repr__(self) -> str:
        return (
            f"NystromPreconditioner(n_samples={self.shape[0]}, "
            f"rank={len(self.landmarks)}, kept={self.L.shape[1]}, shift={self.shift!r})"
        )
