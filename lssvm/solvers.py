r"""Solvers for the bordered LS-SVM KKT system (3.24), and conjugate gradient.

One solver serves every LS-SVM in the package: the classifier (3.5), regression
(3.32), other targets (Fisher, output codes) and several right-hand sides at once.
It uses the elimination of (3.25): with :math:`H = \Omega + I/\gamma`,

1. solve :math:`H\eta = a` and :math:`H\nu = d` (one factorisation, both at once),
2. :math:`s = a^T \eta > 0`,
3. :math:`b = \eta^T d / s` and :math:`\alpha = \nu - \eta b`.

Solvers know matrices, not models: they never import an estimator.

Sources: Suykens et al. (2002), ch. 3, (3.24)-(3.27).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import blas, lapack
from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "KKTSolution",
    "CGResult",
    "NotPositiveDefiniteError",
    "solve_bordered_kkt",
    "conjugate_gradient",
    "SOLVER_METHODS",
]

SOLVER_METHODS = ("direct", "cg")


class NotPositiveDefiniteError(np.linalg.LinAlgError, ValueError):
    """H = Omega + I/gamma is not positive definite (Cholesky failed)."""


@dataclass(frozen=True)
class KKTSolution:
    """Solution of the bordered system (3.24).

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,) or (n_samples, n_rhs)
        Support values; one column per column of ``d``.
    b : float or ndarray of shape (n_rhs,)
        Bias term(s).
    n_iter : int
        CG iterations (0 for the direct solver).
    converged : bool
        False only when CG stopped at ``max_iter`` before reaching ``tol``.
    factor : ndarray or None
        Direct solver: the upper Cholesky factor U (U^T U = K + I/gamma, with K the
        matrix passed, before the ``signs`` scaling) in the upper triangle of an
        F-ordered array, usable with ``scipy.linalg.cho_solve((factor, False), .)``.
        None for CG.
    """

    alpha: NDArray[np.float64]
    b: float | NDArray[np.float64]
    n_iter: int
    converged: bool
    factor: NDArray[np.float64] | None = None


@dataclass(frozen=True)
class CGResult:
    """Result of :func:`conjugate_gradient`: solution, iterations, residual history."""

    x: NDArray[np.float64]
    n_iter: int
    converged: bool
    residuals: NDArray[np.float64]


def solve_bordered_kkt(
    Omega: NDArray,
    gamma,
    a: NDArray,
    d: NDArray,
    *,
    signs: NDArray | None = None,
    method: str = "direct",
    tol: float = 1e-10,
    max_iter: int | None = None,
    overwrite: bool = False,
) -> KKTSolution:
    r"""Solve [[0, a^T], [a, Omega + I/gamma]] [b; alpha] = [0; d], eq. (3.24).

    Parameters
    ----------
    Omega : ndarray of shape (n_samples, n_samples)
        Symmetric positive semi-definite. Only its lower triangle is read, so the
        output of :meth:`lssvm.kernels.Kernel.gram_lower` can be passed directly.
    gamma : float or ndarray of shape (n_samples,)
        Regularization constant of (3.1); an array weights each sample's error.
    a : ndarray of shape (n_samples,)
        Border vector: y for the classifier (3.5), ones for regression (3.32).
    d : ndarray of shape (n_samples,) or (n_samples, n_rhs)
        Right-hand side(s): ones for the classifier, y for regression; columns share
        one factorisation.
    signs : ndarray of shape (n_samples,) with entries +-1, optional
        If given, the matrix of the system is S Omega S with S = diag(signs). The
        classifier passes the kernel matrix K and ``signs=y`` instead of forming
        Omega = y y^T * K (3.6): H^{-1} v = S (K + I/gamma)^{-1} S v.
    method : {"direct", "cg"}
        "direct": one in-place Cholesky factorisation of H. "cg": conjugate gradient
        on H eta = a and H nu = d together (3.25), stopping at relative residual tol.
    tol, max_iter : float, int
        CG stopping rule (ignored by "direct").
    overwrite : bool
        Let the direct solver factor ``Omega`` in place (no N x N copy). Omega is
        destroyed; it must be C-contiguous float64 for this to avoid a copy.

    Returns
    -------
    KKTSolution

    Raises
    ------
    NotPositiveDefiniteError
        If the Cholesky factorisation of H fails.
    """
    if method not in SOLVER_METHODS:
        raise ValueError(
            f"method must be one of {list(SOLVER_METHODS)}; got method={method!r}."
        )
    a = np.asarray(a, dtype=np.float64)
    d = np.asarray(d, dtype=np.float64)
    rhs = np.column_stack([a, d.reshape(d.shape[0], -1)])  # [a | d], (n, 1 + n_rhs)
    if signs is not None:
        rhs *= np.asarray(signs, dtype=np.float64)[:, None]
    inv_gamma = 1.0 / np.asarray(gamma, dtype=np.float64)

    if method == "direct":
        Z, factor = _cholesky_solve(Omega, inv_gamma, rhs, overwrite)
        n_iter, converged = 0, True
    else:
        Z, n_iter, converged = _cg_solve(Omega, inv_gamma, rhs, tol, max_iter)
        factor = None
    if signs is not None:
        Z *= np.asarray(signs, dtype=np.float64)[:, None]

    eta, nu = Z[:, 0], Z[:, 1:]  # (3.25) step 1: H eta = a, H nu = d
    s = a @ eta  # (3.25) step 2
    b = (eta @ d.reshape(d.shape[0], -1)) / s  # (3.25) step 3, one b per column of d
    alpha = nu - np.outer(eta, b)  # (3.25) step 3
    if not np.all(np.isfinite(alpha)):
        raise NotPositiveDefiniteError(
            "The KKT solution contains NaN or inf: Omega + I/gamma is singular or "
            "Omega is not finite."
        )
    if d.ndim == 1:
        alpha, b = alpha[:, 0], float(b[0])
    return KKTSolution(alpha, b, n_iter, converged, factor)


def _cholesky_solve(Omega, inv_gamma, rhs, overwrite):
    """Solve (Omega + I/gamma) Z = rhs: one in-place Cholesky of the lower triangle."""
    H = np.array(Omega, dtype=np.float64, order="C", copy=not overwrite)
    n = H.shape[0]
    H.flat[:: n + 1] += inv_gamma  # H = Omega + I/gamma, (3.24)
    # The lower triangle of a C-ordered H is the upper triangle of its F-ordered
    # transpose: LAPACK factors it in place, H = U^T U.
    U, info = lapack.dpotrf(H.T, lower=0, clean=0, overwrite_a=1)
    if info > 0:
        raise NotPositiveDefiniteError(
            f"Cholesky of Omega + I/gamma failed: matrix not positive definite "
            f"(leading minor {info} of {n}). Check the kernel parameters or increase "
            f"gamma."
        )
    Z, info = lapack.dpotrs(U, rhs, lower=0)
    return Z, U


def _cg_solve(Omega, inv_gamma, rhs, tol, max_iter):
    K = np.asarray(Omega, dtype=np.float64)

    shift = inv_gamma if np.ndim(inv_gamma) == 0 else inv_gamma[:, None]

    def matvec(V):  # (Omega + I/gamma) V, reading the lower triangle of Omega only
        return blas.dsymm(1.0, K.T, V, side=0, lower=0) + shift * V

    result = conjugate_gradient(matvec, rhs, tol=tol, max_iter=max_iter)
    return result.x, result.n_iter, result.converged


def conjugate_gradient(
    matvec: Callable[[NDArray], NDArray],
    rhs: NDArray,
    *,
    tol: float = 1e-10,
    max_iter: int | None = None,
    preconditioner: Callable[[NDArray], NDArray] | None = None,
) -> CGResult:
    r"""Hestenes-Stiefel conjugate gradient for A X = rhs with A = A^T > 0, (3.25).

    The columns of ``rhs`` are independent systems that share each product
    ``matvec(P)`` (one call per iteration for all columns). Each column stops
    updating once its relative residual :math:`\|r\|/\|rhs\|` is at most ``tol``.

    Parameters
    ----------
    matvec : callable
        V -> A V for V of shape (n, n_rhs).
    rhs : ndarray of shape (n,) or (n, n_rhs)
    tol : float
        Relative residual at which a column has converged.
    max_iter : int, optional
        Defaults to 10 n. A :class:`~sklearn.exceptions.ConvergenceWarning` is issued
        when it is reached before ``tol``.
    preconditioner : callable, optional
        V -> M^{-1} V for a symmetric positive definite M close to A.

    Returns
    -------
    CGResult
        ``residuals`` has shape (n_iter + 1, n_rhs): the relative residual history.
    """
    B = np.asarray(rhs, dtype=np.float64)
    vector = B.ndim == 1
    B = B.reshape(B.shape[0], -1)
    n = B.shape[0]
    max_iter = 10 * n if max_iter is None else max_iter
    apply_m = (lambda R: R) if preconditioner is None else preconditioner
    norm_b = np.linalg.norm(B, axis=0)
    norm_b[norm_b == 0] = 1.0

    X = np.zeros_like(B)  # x_0 = 0, r_0 = B
    R = B.copy()
    Zr = apply_m(R)
    P = Zr.copy()
    rz = np.einsum("ij,ij->j", R, Zr)
    history = [np.linalg.norm(R, axis=0) / norm_b]
    active = ~(history[-1] <= tol)
    it = 0
    while np.any(active) and it < max_iter:
        it += 1
        AP = matvec(P)
        pAp = np.einsum("ij,ij->j", P, AP)
        if np.any(active & ~(pAp > 0)):  # also catches NaN
            raise NotPositiveDefiniteError(
                f"CG met a direction with p^T A p = {pAp[active].min():.1e} <= 0 at "
                f"iteration {it}: matrix not positive definite."
            )
        step = np.where(active, rz / np.where(pAp > 0, pAp, 1.0), 0.0)  # lambda_i
        X += step * P
        R -= step * AP
        Zr = apply_m(R)
        rz_new = np.einsum("ij,ij->j", R, Zr)
        beta = np.where(active, rz_new / np.where(rz > 0, rz, 1.0), 0.0)  # beta_i
        P = Zr + beta * P
        rz = rz_new
        history.append(np.linalg.norm(R, axis=0) / norm_b)
        active = active & ~(history[-1] <= tol)  # a NaN residual stays active
    converged = not np.any(active)
    if not converged:
        warnings.warn(
            f"CG stopped after {it} iterations, relative residual "
            f"{history[-1].max():.1e} > tol {tol:.0e}; raise max_iter, loosen tol, "
            f'or use solver="direct".',
            ConvergenceWarning,
            stacklevel=2,
        )
    return CGResult(X[:, 0] if vector else X, it, converged, np.array(history))
