r"""Factor-level linear algebra that several estimators reuse.

One home for what the fits, the probabilities, pruning and RLS-SVM do with a
Cholesky factor once they have it (before, each module had its own copy):

- :func:`inverse_diagonal`: diag(H^{-1}) from the upper factor U of H = U^T U, one
  triangular inversion (N^3/3 flops) and row norms read in blocks;
- :func:`loo_latent`: the exact leave-one-out latent outputs of a fitted LS-SVM from
  its factor, by the closed form of :mod:`lssvm.model_selection.closed_form`
  (Cawley & Talbot 2004): with :math:`C = H^{-1} - \eta\eta^T/s`,
  :math:`\eta = H^{-1}1_v`, :math:`s = 1_v^T\eta`,
  :math:`f^{(-k)}(x_k) = t_k - \beta_k / C_{kk}`; no refit;
- :func:`update_cholesky`: the ordered Cholesky up/downdate of [P §5.2-5.3] [Peng16]
  (keep the common prefix, rebuild the trailing block), used by RLS-SVM between its
  iterations and by pruning between its stages.

Arrays in, arrays out: this module imports no estimator.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import cholesky, lapack, solve_triangular

__all__ = ["inverse_diagonal", "loo_latent", "update_cholesky"]


def inverse_diagonal(factor, overwrite):
    """diag(H^{-1}) for H = U^T U: squared row norms of U^{-1} (upper triangle only).

    One in-place triangular inversion (LAPACK ``trtri``), then the row norms read
    in blocks of columns of U^{-1} (contiguous rows of the transposed array), so
    the unused lower triangle is never copied or cleared as a whole.
    """
    U = np.asarray(factor, dtype=np.float64)
    if not U.flags.f_contiguous:
        U, overwrite = np.asfortranarray(U), True
    Uinv, info = lapack.dtrtri(U, lower=0, overwrite_c=int(bool(overwrite)))
    if info:
        raise np.linalg.LinAlgError(f"Triangular inversion failed (info={info}).")
    UT = Uinv.T  # C-ordered; UT[j, i] = (U^{-1})_ij, valid for i <= j
    n, step = UT.shape[0], 256
    diag = np.zeros(n)
    for j0 in range(0, n, step):
        j1 = min(j0 + step, n)
        block = UT[j0:j1, :j1] ** 2  # columns j0..j1 of U^{-1}, rows i < j1
        block[:, j0:j1] = np.tril(block[:, j0:j1])  # keep i <= j
        diag[:j1] += block.sum(axis=0)
    return diag


def loo_latent(
    factor, t, beta, *, fit_intercept=True, overwrite=False
) -> NDArray[np.float64]:
    """Exact leave-one-out latent outputs f^(-k)(x_k) of a fitted LS-SVM, no refit.

    Parameters
    ----------
    factor : ndarray of shape (n, n)
        Upper Cholesky factor U of H = Omega + I/gamma (U^T U = H) in the upper
        triangle (the rest is not read), as :attr:`lssvm.linalg.solvers.KKTSolution.factor`.
    t : ndarray of shape (n,) or (n, m)
        Targets of the regression form: y for regression, the +-1 (or Fisher)
        targets for the classifier.
    beta : ndarray, shape of ``t``
        Dual coefficients of the fit on all n points (alpha y for the classifier).
    fit_intercept : bool
        With the bias, C = H^{-1} - eta eta^T / s; without, C = H^{-1} [S 3.62].
    overwrite : bool
        Invert the factor in place (it is destroyed; saves an N x N copy).

    Returns
    -------
    ndarray, shape of ``t``: t_k - beta_k / C_kk.
    """
    U = np.asarray(factor, dtype=np.float64)
    if fit_intercept:  # before the factor is overwritten
        eta, info = lapack.dpotrs(U, np.ones(U.shape[0]), lower=0)  # H eta = 1_v
    h_diag = inverse_diagonal(U, overwrite)  # diag(H^{-1})
    if fit_intercept:
        h_diag = h_diag - eta**2 / eta.sum()  # C_kk, C = H^{-1} - eta eta^T / s
    t, beta = np.asarray(t, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    scale = h_diag if t.ndim == 1 else h_diag[:, None]
    return t - beta / scale  # f^(-k)(x_k) = t_k - r_k, r_k = beta_k / C_kk


def update_cholesky(L, order, new_order, rows):
    """Lower Cholesky factor of A[new][:, new] from that of A[order][:, order].

    A variant of [P §5.2-5.3] of [Peng16]: only the points ``order[:p]`` of the
    longest common prefix of ``order`` and ``new_order`` keep their rows of L (the
    paper's row switches [P 63-64] keep the rows of every common point). For the
    trailing points T = ``new_order[p:]`` the rows L_TH on the kept block H come from L
    (points of ``order``) or from a triangular solve L_HH L_TH^T = A_HT (added
    points), and L_TT is the Cholesky factor [P 61] of the Schur complement
    A_TT - L_TH L_TH^T.

    Parameters
    ----------
    L : ndarray of shape (n_old, n_old)
        Lower Cholesky factor of A[order][:, order].
    order, new_order : ndarray of int
        Global indices of the old and new sets, in factor order.
    rows : callable
        ``rows(idx)`` returns A[idx][:, new_order] for an index array ``idx``.

    Returns
    -------
    L_new : ndarray of shape (n_new, n_new)

    >>> A = np.array([[4.0, 2, 0], [2, 5, 1], [0, 1, 3]])
    >>> L = np.linalg.cholesky(A[:2, :2])
    >>> new = np.array([0, 2])
    >>> L_new = update_cholesky(L, np.array([0, 1]), new, lambda i: A[i][:, new])
    >>> np.allclose(L_new, np.linalg.cholesky(A[np.ix_(new, new)]))
    True
    """
    order, new_order = np.asarray(order), np.asarray(new_order)
    n_common = min(len(order), len(new_order))
    differ = np.flatnonzero(order[:n_common] != new_order[:n_common])
    p = int(differ[0]) if len(differ) else n_common
    tail = new_order[p:]
    L_new = np.zeros((len(new_order), len(new_order)))
    L_new[:p, :p] = L[:p, :p]
    if len(tail) == 0:
        return L_new
    old_pos = np.full(int(max(order.max(initial=-1), tail.max())) + 1, -1)
    old_pos[order] = np.arange(len(order))
    pos = old_pos[tail]
    kept = pos >= 0
    A_T = rows(tail)  # A[T][:, new_order]
    L_TH = np.empty((len(tail), p))
    L_TH[kept] = L[pos[kept], :p]
    if p and (~kept).any():
        L_TH[~kept] = solve_triangular(
            L[:p, :p], A_T[~kept, :p].T, lower=True, check_finite=False
        ).T
    schur = A_T[:, p:] - L_TH @ L_TH.T  # Schur complement of the kept block H
    L_new[p:, :p] = L_TH
    L_new[p:, p:] = cholesky(schur, lower=True, check_finite=False)  # [P 61]
    return L_new
