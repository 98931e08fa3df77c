r"""The primal ridge problem of the fixed-size LS-SVM by its normal equations.

With the Nystrom features :math:`\hat\varphi(x)` of m prototypes (r kept
eigen-directions, :mod:`lssvm.sparse.fixed_size`) the fixed-size LS-SVM solves the
ridge problem with the bias

.. math:: \min_{w, b}\ \tfrac12 w^T w
   + \tfrac{\gamma}{2} \sum_{k=1}^N (y_k - w^T \hat\varphi(x_k) - b)^2 ,

whose normal equations need only :math:`\Phi^T \Phi` and :math:`\Phi^T y`
((r+1) x (r+1) and (r+1) x q with the bias column). Both are sums over rows, so they
are accumulated over chunks of rows, in feature space (:func:`accumulate`,
:func:`accumulate_dask`): :math:`A_c^T A_c` with
:math:`A_c = [K(X_c, Z)\, U \operatorname{diag}(s)^{-1/2}, 1]`, one product with the
m x r map and one symmetric rank-k update per chunk: memory O(m^2 + chunk m), one
pass over the data. (Accumulating :math:`B^T B`, :math:`B = [K(X_c, Z), 1]`, and
mapping once at the end saves the per-chunk product, about half the flops, but the
final scaling by :math:`s^{-1/2}` amplifies the round-off of the large directions
into the small ones by up to s_max / s_min: relative errors of 1e-7 to 1e-6 in the
fit where the feature-space sums give 1e-11.) Chunk results
are added by a pairwise tree whose shape depends only on the number of chunks
(``pairwise_sum``, in ``lssvm/sparse/_blocks.py`` with the other row-block helpers),
so the in-process sum and the Dask tree reduction add the same numbers in the same
order. :func:`solve_ridge` factors the summed system.

Several candidates of gamma: the fold sums of the accumulated matrices give the
k-fold cross-validated squared error of every candidate in closed form, without
another pass over the data (:func:`cv_errors`); the exact leave-one-out squared
error of every candidate comes from one more pass (:class:`LeaveOneOut`,
:func:`loo_errors`: e_k / (1 - h_kk) with the hat-matrix diagonal h_kk of the
primal ridge problem), again without refitting.
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs
from scipy.linalg import cho_factor, cho_solve

from .._base import is_dask
from .._validation import check_n_jobs
from ..kernels import blas_controller
from ..linalg.factor import NumericalWarning
from ._blocks import as_2d, block_starts, check_block, pairwise_sum, weight_blocks

__all__ = [
    "accumulate", "accumulate_dask", "solve_ridge", "cv_errors", "LeaveOneOut",
    "loo_errors",
]  # fmt: skip


# --- accumulation ----------------------------------------------------------------------


def _add_stats(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _chunk_stats(Xc, Yc, start, kernel, Z, n_folds, T=None, Wc=None):
    """Per-fold A^T A, A^T Y, Y^T Y (diagonal), row counts for A = [K(Xc, Z) T, 1].

    T: the m x r feature map U diag(s)^{-1/2} (A = [Phi, 1]); None: B = [K(Xc, Z), 1]
    (kernel space). Row i (global index start + i) is in fold (start + i) mod n_folds.
    Wc: sample weights v_k of the rows, or None (all 1). The weighted normal
    equations A^T V A, A^T V Y (V = diag(v)) are those of the rows scaled by
    sqrt(v_k), and the counts are sums of weights (an integer weight is a repeated row).
    """
    q = Yc.shape[1]
    r = Z.shape[0] if T is None else T.shape[1]
    S = np.zeros((n_folds, r + 1, r + 1))
    C = np.zeros((n_folds, r + 1, q))
    yy = np.zeros((n_folds, q))
    counts = np.zeros(n_folds)
    with blas_controller().limit(limits=1):  # one thread per chunk: the same sums everywhere
        B = np.empty((Xc.shape[0], r + 1))
        Kc = kernel(Xc, Z)
        B[:, :r] = Kc if T is None else Kc @ T  # Phi(X_c) = K(X_c, Z) U diag(s)^-1/2
        B[:, r] = 1.0
        if Wc is not None:  # V^{1/2} A and V^{1/2} Y
            root = np.sqrt(Wc)[:, None]
            B *= root
            Yc = Yc * root
        folds = (start + np.arange(Xc.shape[0])) % n_folds
        for f in range(n_folds):
            rows = slice(None) if n_folds == 1 else folds == f
            Bf, Yf = B[rows], Yc[rows]
            S[f] = Bf.T @ Bf  # symmetric rank-k update
            C[f] = Bf.T @ Yf
            yy[f] = np.einsum("ij,ij->j", Yf, Yf)
            counts[f] = Bf.shape[0] if Wc is None else Wc[rows].sum()
    return S, C, yy, counts


def _block_stats(Xb, Yb, start, kernel, Z, n_folds, chunk_size, T=None, Wb=None):
    """_chunk_stats over the chunks of one block, summed by ``pairwise_sum``."""
    Xb, Yb = np.asarray(Xb, dtype=np.float64), as_2d(np.asarray(Yb, dtype=np.float64))
    Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
    check_block(Xb, Yb, Wb, start)
    bounds = range(0, Xb.shape[0], chunk_size)
    return pairwise_sum(
        (_chunk_stats(Xb[i:i + chunk_size], Yb[i:i + chunk_size], start + i, kernel, Z,
                      n_folds, T, None if Wb is None else Wb[i:i + chunk_size])
         for i in bounds), _add_stats)


def accumulate(X, Y, kernel, Z, *, n_folds=1, chunk_size=4096, n_jobs=None,
               T=None, W=None):
    """Fold sums of A^T V A, A^T V Y, Y^T V Y and weights over row chunks of in-memory X.

    A = [K(X, Z) T, 1] (feature space) or, with T None, [K(X, Z), 1]; V = diag(W)
    (W None: V = I, and the counts are row counts).

    Chunks run on ``n_jobs`` threads (numpy releases the GIL), at most 2 n_jobs
    chunks in flight, and are added in chunk order by ``pairwise_sum``.
    ``n_jobs`` as everywhere in lssvm (:func:`joblib.effective_n_jobs`): None is 1
    unless in a joblib context, -1 all CPUs.
    """
    check_n_jobs(n_jobs, owner="accumulate")
    n_jobs = effective_n_jobs(n_jobs)
    Y = as_2d(np.asarray(Y, dtype=np.float64))
    starts = list(range(0, X.shape[0], chunk_size))

    def one(i):
        return _chunk_stats(X[i:i + chunk_size], Y[i:i + chunk_size], i, kernel, Z,
                            n_folds, T, None if W is None else W[i:i + chunk_size])

    if n_jobs == 1 or len(starts) == 1:
        return pairwise_sum(map(one, starts), _add_stats)

    def stream(pool):
        window = 2 * n_jobs
        for w in range(0, len(starts), window):
            yield from pool.map(one, starts[w:w + window])

    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return pairwise_sum(stream(pool), _add_stats)


def accumulate_dask(X, Y, kernel, Z, *, n_folds=1, chunk_size=4096, T=None, W=None):
    """As :func:`accumulate` for Dask arrays: one task per block, a pairwise tree.

    W: None or a Dask vector of weights with the row chunks of X. Each task checks
    its blocks (finite X, y and weights, weights >= 0) before it computes.
    """
    import dask

    starts = block_starts(X)
    kernel_d, Z_d, T_d = dask.delayed(kernel), dask.delayed(Z), dask.delayed(T)
    block = dask.delayed(_block_stats, pure=True)
    x_blocks = X.to_delayed().ravel()
    blocks = [
        block(xb, yb, int(s), kernel_d, Z_d, n_folds, chunk_size, T_d, wb)
        for xb, yb, s, wb in zip(x_blocks, Y.to_delayed().ravel(), starts,
                                 weight_blocks(W, len(x_blocks)))
    ]
    total = pairwise_sum(blocks, dask.delayed(_add_stats, pure=True))
    return dask.compute(total)[0]


# --- the ridge problem -----------------------------------------------------------------


def solve_ridge(G, c, gamma):
    """[w; b] from (G + diag(1, ..., 1, 0)/gamma) [w; b] = c: the normal equations.

    G = A^T A with A = [Phi, 1]; the bias (last coordinate) is not penalised.
    """
    H = G.copy()
    idx = np.arange(H.shape[0] - 1)
    H[idx, idx] += 1.0 / gamma
    try:
        return cho_solve(cho_factor(H, lower=True), c)
    except np.linalg.LinAlgError:  # H is positive definite in exact arithmetic
        warnings.warn(
            "solve_ridge: the regularised normal equations are not numerically "
            "positive definite (Cholesky failed); the least-norm solution is used. "
            "A larger gamma^-1 (smaller gamma) or fewer prototypes avoid it.",
            NumericalWarning, stacklevel=2)
        return np.linalg.lstsq(H, c, rcond=None)[0]


def cv_errors(G, c, yy, counts, gammas):
    """k-fold cross-validated mean squared error of each gamma, from fold sums alone.

    For fold f, [w; b] is fitted on the other folds' sums and its held-out squared
    error is yy_f - 2 theta^T c_f + theta^T G_f theta, summed over outputs.
    """
    G_all, c_all = G.sum(axis=0), c.sum(axis=0)
    errors = np.zeros(len(gammas))
    for g, gamma in enumerate(gammas):
        for f in range(G.shape[0]):
            theta = solve_ridge(G_all - G[f], c_all - c[f], gamma)
            sse = yy[f].sum() - 2 * np.sum(theta * c[f]) + np.sum(theta * (G[f] @ theta))
            errors[g] += sse
    return errors / counts.sum()


class LeaveOneOut:
    r"""Closed-form leave-one-out errors of the primal ridge problem for many gamma.

    With the bias unpenalised, the ridge solution is that of the centred problem:
    :math:`\bar\varphi = \frac1N \sum_k \hat\varphi(x_k)`,
    :math:`G_c = \sum_k (\hat\varphi_k - \bar\varphi)(\hat\varphi_k - \bar\varphi)^T
    = Q \operatorname{diag}(\lambda) Q^T` (from the accumulated sums),
    :math:`w = Q \operatorname{diag}(d) Q^T \Phi_c^T y` with
    :math:`d_j = 1/(\lambda_j + 1/\gamma)` and :math:`b = \bar y - \bar\varphi^T w`.
    The hat matrix is :math:`\frac1N 1 1^T + \Phi_c Q \operatorname{diag}(d)
    Q^T \Phi_c^T`, so with :math:`u_k = Q^T(\hat\varphi_k - \bar\varphi)`

    .. math:: h_{kk} = \tfrac1N + \textstyle\sum_j d_j u_{kj}^2, \qquad
       y_k - f^{(-k)}(x_k) = \frac{y_k - f(x_k)}{1 - h_{kk}},

    the leave-one-out residual of a linear smoother. One eigendecomposition of the
    r x r matrix :math:`G_c` serves every gamma; one more pass over the rows computes
    :math:`u_k` (one product with the m x r matrix ``T`` per chunk) and every
    gamma's residuals: no refit, memory O(m r + chunk r).
    """

    def __init__(self, G, c, fmap, gammas):
        r = G.shape[0] - 1
        n = G[r, r]
        self.inv_n = 1.0 / n
        phibar, self.ybar = G[:r, r] / n, c[r] / n  # (r,), (q,)
        Gc = G[:r, :r] - n * np.outer(phibar, phibar)  # sum (phi - phibar)(...)^T
        cc = c[:r] - n * np.outer(phibar, self.ybar)  # Phi_c^T y_c, (r, q)
        lam, Q = np.linalg.eigh((Gc + Gc.T) / 2)
        lam = np.maximum(lam, 0.0)  # PSD up to round-off
        self.shrink = 1.0 / (lam[None, :] + 1.0 / np.asarray(gammas)[:, None])  # d
        self.QTc = Q.T @ cc  # (r, q)
        self.T = fmap.projection @ Q  # k_Z(x)^T T = phi(x)^T Q
        self.u0 = phibar @ Q

    def chunk(self, Xc, Yc, kernel, Z, Wc=None):
        r"""Sum over the rows of a chunk of the squared LOO residuals, per gamma.

        With sample weights v_k (the sums G, c accumulated with them, N their sum,
        the means weighted) the hat matrix is :math:`h_{kl} = v_l (\frac1N +
        u_k^T \operatorname{diag}(d) u_l)`, leaving out row k (all of its weight)
        gives :math:`e_k / (1 - h_{kk})`, and the sum is weighted by v_k.
        """
        with blas_controller().limit(limits=1):
            U = kernel(Xc, Z) @ self.T - self.u0  # u_k, (n_c, r)
            H = self.inv_n + (U * U) @ self.shrink.T  # h_kk, (n_c, n_gammas)
            if Wc is not None:
                H *= Wc[:, None]  # h_kk = v_k (1/N + sum_j d_j u_kj^2)
            sse = np.zeros(self.shrink.shape[0])
            for g, d in enumerate(self.shrink):
                E = Yc - (self.ybar + U @ (d[:, None] * self.QTc))  # y_k - f(x_k)
                with np.errstate(divide="ignore", invalid="ignore"):
                    R2 = (E / (1.0 - H[:, g:g + 1])) ** 2
                    if Wc is not None:
                        R2 = np.where(Wc[:, None] > 0, R2, 0.0) * Wc[:, None]
                    sse[g] = np.sum(R2)
        return sse

    def block(self, Xb, Yb, kernel, Z, chunk_size, Wb=None):
        Xb = np.asarray(Xb, dtype=np.float64)
        Yb = as_2d(np.asarray(Yb, dtype=np.float64))
        Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
        return pairwise_sum(
            (self.chunk(Xb[i:i + chunk_size], Yb[i:i + chunk_size], kernel, Z,
                        None if Wb is None else Wb[i:i + chunk_size])
             for i in range(0, Xb.shape[0], chunk_size)), np.add)


def _loo_block(loo, Xb, Yb, kernel, Z, chunk_size, Wb=None):
    return loo.block(Xb, Yb, kernel, Z, chunk_size, Wb)


def loo_errors(X, Y, kernel, fmap, G, c, gammas, *, chunk_size=4096, n_jobs=None,
               W=None):
    """Mean squared leave-one-out error of each gamma (:class:`LeaveOneOut`).

    A second pass over the rows of X (in memory, or a Dask array: one task per
    block, added by ``pairwise_sum``). W: sample weights (the mean is weighted).
    ``n_jobs`` threads as in :func:`accumulate` (None: 1 unless in a joblib
    context, -1: all CPUs).
    """
    check_n_jobs(n_jobs, owner="loo_errors")
    n_jobs = effective_n_jobs(n_jobs)
    loo = LeaveOneOut(G, c, fmap, gammas)
    Z = fmap.Z
    if is_dask(X):
        import dask

        block = dask.delayed(_loo_block, pure=True)
        loo_d, Z_d, kernel_d = dask.delayed(loo), dask.delayed(Z), dask.delayed(kernel)
        x_blocks = X.to_delayed().ravel()
        parts = [block(loo_d, xb, yb, kernel_d, Z_d, chunk_size, wb)
                 for xb, yb, wb in zip(x_blocks, Y.to_delayed().ravel(),
                                       weight_blocks(W, len(x_blocks)))]
        total = dask.compute(pairwise_sum(parts, dask.delayed(np.add, pure=True)))[0]
    else:
        Y = as_2d(np.asarray(Y, dtype=np.float64))
        starts = list(range(0, X.shape[0], chunk_size))

        def one(i):
            return loo.chunk(X[i:i + chunk_size], Y[i:i + chunk_size], kernel, Z,
                             None if W is None else W[i:i + chunk_size])

        if n_jobs == 1 or len(starts) == 1:
            total = pairwise_sum(map(one, starts), np.add)
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                total = pairwise_sum(pool.map(one, starts), np.add)
    return total * loo.inv_n
