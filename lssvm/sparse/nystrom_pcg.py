r"""The primal ridge problem of the fixed-size LS-SVM by preconditioned CG (FALKON).

``solver="pcg"`` of :mod:`lssvm.sparse.fixed_size` solves the same (r+1) x (r+1)
system as :func:`lssvm.sparse.primal_ridge.solve_ridge` by conjugate gradients
preconditioned from K(Z, Z) alone, after FALKON (:class:`NystromRidgePCG`): O(N m)
kernel values and flops per iteration instead of the O(N m^2) accumulation; the
N x m kernel blocks are kept from the first pass when they fit in memory
(``store_kernel``), else computed again in each pass, a tile of rows at a time
(``TILE_BYTES``, :class:`_KernelTiles`). Several candidates of gamma are compared on
one held-out fold (:func:`holdout_errors`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs

from .._base import is_dask
from ..kernels import ARDRBF, RBF, blas_controller, rbf_exponent_factors
from ..linalg.solvers import conjugate_gradient
from ._blocks import as_2d, block_starts, check_block, pairwise_sum, weight_blocks

__all__ = ["NystromRidgePCG", "holdout_errors"]


#: Bytes of kernel values per tile: a pass computes K(X_c, Z) a tile of rows at a
#: time and takes both of its products from each tile while the tile is in cache.
#: ``benchmarks/bench_fixed_size_million.py`` (part floor) times tiles of 16 to 1024
#: rows on one thread: at m = 1000 the 2 MiB tile (262 rows) was as fast as the
#: fastest, at m = 10,000 (26 rows) about 10% slower than 128 rows (10 MiB); the
#: smaller tile is kept so that the tiles of 16 threads (32 MiB) fit in a shared L3.
TILE_BYTES = 2**21


def _tile_rows(m: int, chunk_size: int) -> int:
    """Rows per tile: TILE_BYTES of float64 kernel values, at least 8 rows."""
    return max(8, min(int(chunk_size), TILE_BYTES // (8 * max(int(m), 1))))


class _KernelTiles:
    r"""K(X_c, Z) of a row chunk, tile by tile, for :class:`NystromRidgePCG`.

    The RBF kernel (and :class:`~lssvm.kernels.ARDRBF`, through its input scaling)
    takes one matrix product per tile, with the scalings and both squared norms
    folded in,

    .. math:: -\|x - z\|^2/\sigma^2
       = [\tfrac{2}{\sigma^2} x^T,\ -\|x\|^2/\sigma^2,\ -1]\,[z;\ 1;\ \|z\|^2/\sigma^2],

    then ``exp`` in place: two passes over the tile. The entries agree with
    ``kernel(X_c, Z)`` to round-off; unlike it they are not clipped at 1 (an entry
    with x = z can exceed 1 by about 1e-16 :math:`\|x\|^2/\sigma^2`). Other kernels:
    ``kernel(X_c, Z)`` for the whole chunk, then tiles of it.
    """

    def __init__(self, kernel, Z, chunk_size):
        self.kernel = kernel
        self.m = Z.shape[0]
        self.rows = _tile_rows(self.m, chunk_size)
        # RBF and ARDRBF only: a subclass may change the formula
        self.rbf = type(kernel) in (RBF, ARDRBF)
        if self.rbf:  # [z; 1; ||z||^2 / sigma2] as the columns of a (d + 2) x m matrix
            self.ZaT = rbf_exponent_factors(kernel, None, Z)[1]
        else:
            self.Z = Z

    def _augment(self, Xc):
        """[2 x / sigma2, -||x||^2 / sigma2, -1] for the rows x of the chunk."""
        return rbf_exponent_factors(self.kernel, Xc, None)[0]

    def tiles(self, Xc, keep=None):
        """(rows, K(X_c[rows], Z)) per tile; with ``keep`` (n_c x m) the tiles are
        written into it (the stored block), else into one tile-sized buffer."""
        n, t = Xc.shape[0], self.rows
        if not self.rbf:
            K = self.kernel(Xc, self.Z)
            if keep is not None:
                keep[...] = K
            for i in range(0, n, t):
                yield slice(i, i + t), K[i:i + t]
            return
        Xa = self._augment(Xc)
        buf = keep if keep is not None else np.empty((min(t, n), self.m))
        for i in range(0, n, t):
            D = buf[i:i + t] if keep is not None else buf[:min(t, n - i)]
            np.matmul(Xa[i:i + t], self.ZaT, out=D)  # -||x - z||^2 / sigma2
            yield slice(i, i + t), np.exp(D, out=D)  # K(x, z)


def _tile_products(K, Yt, Wt, alpha, b, out):
    """out += [K^T V F; 1^T V F] for one tile, F = K alpha + 1 b (or F = Yt)."""
    F = K @ alpha + b if Yt is None else Yt
    if Wt is not None:
        F = F * Wt[:, None]  # V F
    out[:-1] += K.T @ F  # K(X_t, Z)^T V f
    out[-1] += F.sum(axis=0)  # 1^T V f


def _chunk_products(tiler, Xc, Yc, Wc, alpha, b, Kc=None, keep=None):
    """[K_c^T V_c F; 1^T V_c F], F = K_c alpha + 1 b (or F = Yc): one chunk's share.

    Both products of a tile are taken while it is in cache: one pass over K(X_c, Z)
    per chunk, read from ``Kc`` (a stored block) or computed tile by tile (into
    ``keep`` when the block is to be stored). The tiles are added in row order.
    """
    if Yc is not None:
        Yc = as_2d(np.asarray(Yc, dtype=np.float64))
    q = Yc.shape[1] if Yc is not None else alpha.shape[1]
    out = np.zeros((tiler.m + 1, q))
    if Kc is not None:
        t = tiler.rows
        tiles = ((slice(i, i + t), Kc[i:i + t]) for i in range(0, Kc.shape[0], t))
    else:
        tiles = tiler.tiles(Xc, keep)
    for rows, K in tiles:
        _tile_products(K, None if Yc is None else Yc[rows],
                       None if Wc is None else Wc[rows], alpha, b, out)
    return out


def _pcg_block(Xb, Yb, Wb, coef, kernel, Z, chunk_size, start):
    """One Dask task of a PCG pass: the chunks of one row block, pairwise summed."""
    Xb = np.asarray(Xb, dtype=np.float64)
    Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
    check_block(Xb, None if Yb is None else np.asarray(Yb), Wb, start)
    alpha, b = (None, None) if coef is None else coef
    tiler = _KernelTiles(kernel, Z, chunk_size)

    def one(i):
        rows = slice(i, i + chunk_size)
        return _chunk_products(tiler, Xb[rows], None if Yb is None else Yb[rows],
                               None if Wb is None else Wb[rows], alpha, b)

    with blas_controller().limit(limits=1):
        return pairwise_sum(map(one, range(0, Xb.shape[0], chunk_size)), np.add)


class NystromRidgePCG:
    r"""The primal ridge problem with its bias by CG, preconditioned from K_mm alone.

    The system is the one :func:`~lssvm.sparse.primal_ridge.solve_ridge` factors, in
    the same coordinates (the r kept eigen-directions of :math:`W = K_{mm} = U S U^T`,
    :math:`\Phi = K_{nm} T`, :math:`T = U S^{-1/2}`, the bias last):

    .. math:: H \theta = A^T Y, \quad A = [\Phi, 1], \quad
       H = A^T A + \operatorname{diag}(I_r/\gamma, 0),

    but H is never formed: a product :math:`H V` is one pass over row blocks,
    :math:`f = K(X_c, Z) (T V_w) + 1 v_b`, accumulating :math:`K(X_c, Z)^T f` and
    :math:`1^T f` (4 n_c m q flops and n_c m kernel values per block; the N x m
    kernel matrix is not stored unless ``store_blocks``: memory O(N d + m^2 + chunk
    m), or 8 N m bytes more with the blocks kept from the first pass). Within a
    chunk the kernel values come a tile of rows at a time (``TILE_BYTES``), and
    both products of a tile are taken while it is in cache, stored or computed:
    the pass reads each kernel value once. With sample
    weights v the pass accumulates :math:`K(X_c, Z)^T V f` and :math:`1^T V f`. A
    Dask X runs each pass as one task per row block (persisted for the run); the
    client gets the (m+1) x q sums. Blocks are added by a pairwise tree
    (``pairwise_sum``) in block order, one BLAS thread each: the result does not
    depend on ``n_jobs``.

    Preconditioner (Rudi, Carratino & Rosasco 2017, FALKON; Meanti et al. 2020),
    derived for the bordered problem. FALKON replaces the data term by its
    Nystrom estimate on the centres, :math:`K_{nm}^T K_{nm} \approx
    \frac{N}{m} K_{mm}^2`, i.e. it pretends that the N rows are N/m copies of the
    m centres. Doing the same with the border column (:math:`1_N^T 1_N = N =
    \frac{N}{m} 1_m^T 1_m`) gives, with :math:`A_Z = [K_{mm} T, 1_m] = [U S^{1/2},
    1_m]`,

    .. math:: M = \tfrac{N}{m} A_Z^T A_Z + \operatorname{diag}(I_r/\gamma, 0)
       = \begin{bmatrix} D & c \\ c^T & N \end{bmatrix},

    .. math:: D = \tfrac{N}{m} S + I/\gamma, \quad c = \tfrac{N}{m} S^{1/2} U^T 1_m .

    In kernel coordinates (:math:`f = K_{nm}\alpha`, penalty
    :math:`\alpha^T K_{mm} \alpha / \gamma`) FALKON's preconditioner of the
    unbordered problem is :math:`\frac{N}{m}K_{mm}^2 + K_{mm}/\gamma
    = R^T (\frac{N}{m} R R^T + I/\gamma) R` with two Cholesky factorisations,
    :math:`K_{mm} = R^T R` and :math:`\frac{N}{m} R R^T + I/\gamma = Q^T Q`, so that
    :math:`M^{-1} = R^{-1} Q^{-1} Q^{-T} R^{-T}`. Taking for R the square root
    from the eigendecomposition the feature map already holds
    (:math:`R = S^{1/2} U^T`, :math:`R R^T = S`), the second factor is diagonal,
    :math:`Q^T Q = D`, and in the feature coordinates w (:math:`\alpha = T w`,
    :math:`R\alpha = w`) the
    preconditioner of the unbordered problem is D itself. The bias adds one row
    and column: M is an arrow matrix, positive definite (for :math:`[w; b] \ne 0`,
    :math:`[w; b]^T M [w; b] \ge \|w\|^2/\gamma > 0` unless w = 0, and then it is
    :math:`N b^2`), solved by its Schur complement

    .. math:: \sigma = N - c^T D^{-1} c = \tfrac{N}{m}\Big(\|1_m - U U^T 1_m\|^2
       + \textstyle\sum_j \frac{(U^T 1_m)_j^2}{\gamma D_j}\Big) > 0,

    written as a sum of non-negative terms (no cancellation):
    :math:`b = (v_b - c^T D^{-1} v_w)/\sigma`, :math:`w = D^{-1}(v_w - c\, b)`,
    O(r q) per application. CG then runs on H with this M
    (:func:`lssvm.linalg.solvers.conjugate_gradient`: the same stopping rule and
    histories as the exact LS-SVM's CG), all output columns sharing each product.
    """

    def __init__(self, X, kernel, fmap, gamma, *, chunk_size=4096, n_jobs=1,
                 sample_weight=None, store_blocks=False):
        self.dask = is_dask(X)
        if self.dask:  # kept on the workers (or in memory) for every pass of CG
            X = X.persist()
        self.X, self.kernel, self.Z = X, kernel, fmap.Z
        self.T = fmap.projection  # (m, r)
        self.chunk_size, self.n_jobs = int(chunk_size), effective_n_jobs(n_jobs)
        self.starts = list(range(0, X.shape[0], self.chunk_size))
        # store_blocks: keep the K(X_c, Z) of the first pass (8 N m bytes) and reuse
        # them in every product; in-memory X only
        self.store_blocks = bool(store_blocks) and not self.dask
        self._blocks = {}
        self._tiler = _KernelTiles(kernel, self.Z, self.chunk_size)
        m = self.Z.shape[0]
        root = np.sqrt(fmap.eigvals)  # U = T S^{1/2}: U is not kept
        self._m, self._s = m, fmap.eigvals
        self._u = root * (self.T.T @ np.ones(m))  # U^T 1_m = S^{1/2} T^T 1_m
        # ||1 - U U^T 1||^2
        self._outside = float(np.sum((1.0 - self.T @ (root * self._u)) ** 2))
        self.set_weights(sample_weight, gamma)
        self.n_matvec = 0

    def set_weights(self, sample_weight, gamma):
        """Use other row weights v_k (None: all 1) and gamma; stored blocks stay."""
        if self.dask and sample_weight is not None:
            sample_weight = sample_weight.persist()
        self.W = sample_weight  # v_k: H = A^T V A + ..., right-hand side A^T V Y
        if sample_weight is None:
            n = self.X.shape[0]
        else:  # the weighted row count sum_k v_k takes the place of N
            total = sample_weight.sum()
            n = float(total.compute() if self.dask else total)
        self._scale = n / self._m
        self.set_gamma(gamma)

    def set_gamma(self, gamma):
        """Use another gamma: only the O(r) parts of M change (stored blocks stay)."""
        self.gamma = float(gamma)
        scale, s, u = self._scale, self._s, self._u
        self.D = scale * s + 1.0 / self.gamma  # N/m S + I/gamma
        self.c = scale * np.sqrt(s) * u  # N/m S^{1/2} U^T 1_m
        self.sigma = scale * (self._outside + float(np.sum(u**2 / (self.gamma * self.D))))

    # one pass over the rows ------------------------------------------------------
    def _chunk(self, i, alpha, b, Y):
        rows = slice(i, i + self.chunk_size)
        W = None if self.W is None else self.W[rows]
        Yc = None if Y is None else Y[rows]
        Kc = self._blocks.get(i)
        if Kc is not None:  # stored block: both products per tile, one read of it
            return _chunk_products(self._tiler, None, Yc, W, alpha, b, Kc=Kc)
        Xc = self.X[rows]
        keep = np.empty((Xc.shape[0], self.Z.shape[0])) if self.store_blocks else None
        out = _chunk_products(self._tiler, Xc, Yc, W, alpha, b, keep=keep)
        if keep is not None:
            self._blocks[i] = keep
        return out

    def _pass(self, alpha=None, b=None, Y=None):
        """[K_nm^T V F; 1^T V F] with F = K_nm alpha + 1 b (or F = Y), by row blocks."""
        if self.dask:
            return self._pass_dask(alpha, b, Y)

        def one(i):
            return self._chunk(i, alpha, b, Y)

        with blas_controller().limit(limits=1):  # one BLAS thread per chunk
            if self.n_jobs == 1 or len(self.starts) == 1:
                return pairwise_sum(map(one, self.starts), np.add)
            with ThreadPoolExecutor(max_workers=self.n_jobs) as pool:
                return pairwise_sum(pool.map(one, self.starts), np.add)

    def _pass_dask(self, alpha, b, Y):
        """The pass as one task per row block of the Dask X, added by a pairwise tree
        (its shape depends only on the number of blocks); the client gets (m+1) x q."""
        import dask

        x_blocks = self.X.to_delayed().ravel()
        p = len(x_blocks)
        y_blocks = [None] * p if Y is None else list(Y.to_delayed().ravel())
        coef = dask.delayed((alpha, b)) if Y is None else None
        kernel_d, Z_d = dask.delayed(self.kernel), dask.delayed(self.Z)
        task = dask.delayed(_pcg_block, pure=True)
        parts = [task(xb, yb, wb, coef, kernel_d, Z_d, self.chunk_size, int(start))
                 for xb, yb, wb, start in zip(x_blocks, y_blocks,
                                              weight_blocks(self.W, p),
                                              block_starts(self.X))]
        return dask.compute(pairwise_sum(parts, dask.delayed(np.add, pure=True)))[0]

    def _to_features(self, G):
        with blas_controller().limit(limits=1):
            return np.vstack([self.T.T @ G[:-1], G[-1:]])

    def rhs(self, Y):
        """A^T V Y = [T^T K_nm^T V Y; 1^T V Y] (Y: (N, q), in memory or Dask)."""
        if not is_dask(Y):
            Y = as_2d(np.asarray(Y, dtype=np.float64))
        return self._to_features(self._pass(Y=Y))

    def matvec(self, V):
        """H V = A^T V A V + [V_w / gamma; 0]: one pass over the rows."""
        self.n_matvec += 1
        with blas_controller().limit(limits=1):
            alpha = self.T @ V[:-1]  # kernel-space coefficients T w
        out = self._to_features(self._pass(alpha=alpha, b=V[-1]))
        out[:-1] += V[:-1] / self.gamma
        return out

    def precondition(self, V):
        """M^{-1} V for the arrow matrix M (class docstring), O(r q)."""
        Vw, vb = V[:-1], V[-1]
        b = (vb - self.c @ (Vw / self.D[:, None])) / self.sigma
        out = np.empty_like(V)
        out[:-1] = (Vw - self.c[:, None] * b) / self.D[:, None]
        out[-1] = b
        return out

    def solve(self, Y, *, tol=1e-8, max_iter=None):
        """theta = [w; b], shape (r + 1, q), and the :class:`CGResult`."""
        res = conjugate_gradient(self.matvec, self.rhs(Y), tol=tol, max_iter=max_iter,
                                 preconditioner=self.precondition)
        return res.x, res


def _heldout_sse(Xh, Yh, Wh, coef, kernel, Z, chunk_size):
    """sum_k v_k ||y_k - f(x_k)||^2 over the rows of one block, f = K(x, Z) beta + b."""
    beta, b = coef
    Xh = np.asarray(Xh, dtype=np.float64)
    Yh = as_2d(np.asarray(Yh, dtype=np.float64))
    total = 0.0
    with blas_controller().limit(limits=1):
        for i in range(0, Xh.shape[0], chunk_size):
            rows = slice(i, i + chunk_size)
            r = np.sum((Yh[rows] - (kernel(Xh[rows], Z) @ beta + b)) ** 2, axis=1)
            total += float(r @ Wh[rows]) if Wh is not None else float(r.sum())
    return total


def holdout_errors(pcg, X, Y, W, weights, held, gammas, fmap, *, tol):
    r"""Held-out mean squared error of each gamma for :class:`NystromRidgePCG`.

    ``pcg`` was built with the weights of the training part (the held-out rows
    weighted 0, so that every pass reads the same row blocks, in memory or on Dask);
    for each gamma it is re-preconditioned (:meth:`NystromRidgePCG.set_gamma`) and
    solved, and the held-out rows ``held`` (a boolean mask) are predicted (``W``: the
    weights as the passes take them, numpy or Dask; ``weights``: the same in memory,
    or None for all 1). Error:
    :math:`\sum_{k \in h} v_k \|y_k - f(x_k)\|^2 / \sum_{k \in h} v_k`, the criterion
    of :func:`~lssvm.sparse.primal_ridge.cv_errors` on one fold.
    """
    Xh, Yh = pcg.X[held], Y[held]  # pcg.X: a Dask X as persisted for the passes
    Wh = None if W is None else W[held]
    errors = np.empty(len(gammas))
    for g, gamma in enumerate(gammas):
        pcg.set_gamma(gamma)
        theta, _ = pcg.solve(Y, tol=tol)
        coef = (fmap.projection @ theta[:-1], theta[-1])  # beta, b
        if is_dask(Xh):
            import dask

            parts = [dask.delayed(_heldout_sse, pure=True)(xb, yb, wb, coef, pcg.kernel,
                                                           fmap.Z, pcg.chunk_size)
                     for xb, yb, wb in zip(Xh.to_delayed().ravel(),
                                           Yh.to_delayed().ravel(),
                                           weight_blocks(Wh, Xh.numblocks[0]))]
            sse = float(dask.compute(sum(parts))[0])
        else:
            sse = _heldout_sse(Xh, Yh, Wh, coef, pcg.kernel, fmap.Z, pcg.chunk_size)
        errors[g] = sse
    total = float(held.sum()) if weights is None else float(weights[held].sum())
    return errors / total
