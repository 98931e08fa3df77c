r"""Factor-level linear algebra that several estimators reuse.

One home for the Cholesky factor of :math:`H = K + \operatorname{diag}(1/\gamma_k)`
[S 3.24] and for what the fits, the probabilities, the error bars, pruning, RLS-SVM
and the closed-form cross-validation do with it once they have it:

- :class:`CholeskyFactor`: the lower factor L of H on an ordered set of points, with
  the solves (:meth:`~CholeskyFactor.solve`; the bordered system [S 3.24] by the
  elimination [S 3.25] is :func:`lssvm.linalg.solvers.solve_bordered_kkt` with
  ``factor=``), the inverse and its diagonal, the closed-form leave-one-out outputs
  and the ordered up/downdate between point sets (:meth:`~CholeskyFactor.update`),
  used by pruning between its stages and by RLS-SVM between its iterations. The
  direct solver returns its factor in this form
  (:attr:`lssvm.linalg.solvers.KKTSolution.factor`), the estimators keep it in this
  form, and :func:`lssvm.gp.predictive_variance` takes it;
- the array-level operations behind its methods (private: the methods are the one
  public way), on the upper factor U = L^T (:attr:`CholeskyFactor.upper`):
  ``_inverse_diagonal``: diag(H^{-1}) from U (H = U^T U), one triangular
  inversion (N^3/3 flops) and row norms read in blocks;
  ``_loo_latent``: the exact leave-one-out latent outputs of a fitted LS-SVM from
  U (Cawley & Talbot 2004), through :func:`loo_from_diagonal`, the formula itself:
  with :math:`C = H^{-1} - \eta\eta^T/s`, :math:`\eta = H^{-1}1_v`,
  :math:`s = 1_v^T\eta`, :math:`f^{(-k)}(x_k) = t_k - \beta_k / C_{kk}`; no refit
  (the eigendecomposition path of :mod:`lssvm.model_selection.closed_form` gets
  diag(H^{-1}) otherwise and calls it too);
  :func:`update_cholesky`: the ordered Cholesky up/downdate of [P §5.2-5.3] [Peng16]
  (keep the common prefix, rebuild the trailing block).

It also holds the one Cholesky factorisation of H in the package
(:meth:`CholeskyFactor.factorize` for a matrix at hand, and the trailing block of :func:`update_cholesky`, both through
``_cholesky_upper``: one LAPACK ``potrf`` call site, one :class:`NotPositiveDefiniteError`
with its advice, one conditioning check that warns with :class:`NumericalWarning`, once
per factor object), so the
direct solver, the error bars, the probabilities, pruning and RLS-SVM fail and warn alike.

This module imports no estimator and no solver (:mod:`lssvm.linalg.solvers` imports
it to factor and to return its factor).
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import lapack, solve_triangular

__all__ = [
    "CholeskyFactor",
    "NotPositiveDefiniteError",
    "NumericalWarning",
    "loo_from_diagonal",
    "update_cholesky",
]

# What helps when H = Omega + I/gamma is not positive definite: 1/gamma is what
# keeps H positive definite, so a smaller gamma helps and a larger one never does.
PD_ADVICE = (
    "The kernel may not be positive semi-definite, or gamma leaves too little "
    "(1/gamma) on the diagonal: decrease gamma, check that the kernel is positive "
    "semi-definite, or scale the inputs."
)


class NotPositiveDefiniteError(np.linalg.LinAlgError, ValueError):
    """H = Omega + I/gamma is not positive definite (Cholesky failed, or CG met
    p^T H p <= 0). Public as ``lssvm.linalg.NotPositiveDefiniteError``."""


class NumericalWarning(UserWarning):
    """A result lost accuracy to round-off (e.g. an ill-conditioned H), or was
    repaired (e.g. a variance clipped to 0). Public as ``lssvm.linalg.NumericalWarning``."""


def _cholesky_upper(A, *, clean, what="Omega + I/gamma"):
    """U with U^T U = A, in place: the package's one Cholesky factorisation.

    ``A`` is F-ordered with its upper triangle valid (the transpose of a C-ordered
    array whose lower triangle holds the matrix: no copy). ``clean`` zeroes the
    strict lower triangle of U (else it keeps A's entries, never read). Raises
    :class:`NotPositiveDefiniteError` with :data:`PD_ADVICE` when a leading minor is
    not positive; ``what`` names the matrix in that message.
    """
    U, info = lapack.dpotrf(A, lower=0, clean=int(bool(clean)), overwrite_a=1)
    if info > 0:
        raise NotPositiveDefiniteError(
            f"Cholesky of {what} failed: matrix not positive definite "
            f"(leading minor {info} of {A.shape[0]}). {PD_ADVICE}"
        )
    if info < 0:
        raise np.linalg.LinAlgError(f"dpotrf failed (info={info}).")
    return U


def _outside_stacklevel():
    """The ``stacklevel`` of the first frame outside the package, counted from the
    caller of this function's caller (the function that calls ``warnings.warn``)."""
    level, frame = 2, sys._getframe(2)  # stacklevel 2: the caller of that function
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _warn_ill_conditioned(U):
    """NumericalWarning when cond(H) >= (max u_ii / min u_ii)^2 > 1/(n eps), H = U^T U.

    The ratio of the factor's diagonal is a cheap (O(N)) lower bound on the condition
    number. Beyond 1/(n eps), H is singular to working precision: the solution still
    satisfies the KKT system to round-off and predictions are sound, but the split
    of alpha between (nearly) identical rows is arbitrary.
    """
    diag = np.abs(np.diagonal(U))
    n = len(diag)
    if n < 2 or diag.min() <= 0:
        return False
    cond_bound = (diag.max() / diag.min()) ** 2
    if cond_bound * n * np.finfo(np.float64).eps > 1.0:
        warnings.warn(
            f"Omega + I/gamma is ill-conditioned (condition number at least "
            f"{cond_bound:.1e} for N = {n}): the KKT system is still solved to "
            "round-off and predictions are sound, but the support values alpha_k "
            "of (nearly) identical rows are not determined individually. Decrease "
            "the regularization constant (gamma; C in RLS-SVM) for well-determined "
            "alpha_k.",
            NumericalWarning,
            stacklevel=_outside_stacklevel(),
        )
        return True
    return False

# Columns of U^{-1} per block in _inverse_diagonal: each block is a temporary of at
# most 256 N floats (2 KiB per point, about 20 MB at N = 10^4) instead of the N^2 of
# the whole triangle. The result depends on it only through the order of the sums.
_INVERSE_BLOCK = 256


def _inverse_diagonal(factor, overwrite):
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
    n, step = UT.shape[0], _INVERSE_BLOCK
    diag = np.zeros(n)
    for j0 in range(0, n, step):
        j1 = min(j0 + step, n)
        block = UT[j0:j1, :j1] ** 2  # columns j0..j1 of U^{-1}, rows i < j1
        block[:, j0:j1] = np.tril(block[:, j0:j1])  # keep i <= j
        diag[:j1] += block.sum(axis=0)
    return diag


def _loo_latent(
    factor, t, beta, *, fit_intercept=True, overwrite=False, eta=None
) -> NDArray[np.float64]:
    """Exact leave-one-out latent outputs f^(-k)(x_k) of a fitted LS-SVM, no refit.

    Parameters
    ----------
    factor : ndarray of shape (n, n)
        Upper Cholesky factor U of H = Omega + I/gamma (U^T U = H) in the upper
        triangle (the rest is not read): :attr:`CholeskyFactor.upper`
        (:meth:`CholeskyFactor.loo_latent` calls this).
    t : ndarray of shape (n,) or (n, m)
        Targets of the regression form: y for regression, the +-1 (or Fisher)
        targets for the classifier.
    beta : ndarray, shape of ``t``
        Dual coefficients of the fit on all n points (alpha y for the classifier).
    fit_intercept : bool
        With the bias, C = H^{-1} - eta eta^T / s; without, C = H^{-1} [S 3.62].
    overwrite : bool
        Invert the factor in place (it is destroyed; saves an N x N copy).
    eta : ndarray of shape (n,), optional
        H^{-1} 1_v if known (with ``fit_intercept``); solved for otherwise.

    Returns
    -------
    ndarray, shape of ``t``: t_k - beta_k / C_kk (:func:`loo_from_diagonal`).
    """
    U = np.asarray(factor, dtype=np.float64)
    if not fit_intercept:
        eta = None
    elif eta is None:  # before the factor is overwritten
        eta, info = lapack.dpotrs(U, np.ones(U.shape[0]), lower=0)  # H eta = 1_v
        if info:
            raise np.linalg.LinAlgError(f"dpotrs failed (info={info}).")
    h_diag = _inverse_diagonal(U, overwrite)  # diag(H^{-1})
    return loo_from_diagonal(t, beta, h_diag, eta)


def loo_from_diagonal(t, beta, h_diag, eta=None) -> NDArray[np.float64]:
    r"""f^(-k)(x_k) = t_k - beta_k / C_kk from diag(H^{-1}) (Cawley & Talbot 2004).

    The leave-one-out formula itself, whichever way diag(H^{-1}) was computed:
    :meth:`CholeskyFactor.loo_latent` from the Cholesky factor, the closed-form
    cross-validation's eigen strategy from one eigendecomposition of K for many gammas.

    Parameters
    ----------
    t, beta : ndarray of shape (n,) or (n, m)
        Targets and dual coefficients of the fit on all n points (see
        :meth:`CholeskyFactor.loo_latent`).
    h_diag : ndarray of shape (n,)
        diag(H^{-1}).
    eta : ndarray of shape (n,) or None
        H^{-1} 1_v for the model with the bias: C = H^{-1} - eta eta^T / s,
        s = 1_v^T eta; None for the model without it, C = H^{-1} [S 3.62].

    >>> H = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> Hinv = np.linalg.inv(H)
    >>> loo_from_diagonal(np.array([1.0, -1.0]), np.array([0.5, -0.5]), np.diag(Hinv))
    array([ 0.25, -0.25])
    """
    if eta is not None:
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
        ``rows(idx)`` returns A[idx][:, new_order] for an index array ``idx``, as a
        new array (it may be factored in place).

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
    if p == 0:  # nothing kept: [P 61] on A[new][:, new], factored in place
        return _lower_cholesky(rows(new_order)) if len(tail) else np.zeros((0, 0))
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
    L_new[p:, p:] = _lower_cholesky(schur)  # [P 61]
    return L_new


def _lower_cholesky(A):
    """Lower factor of the symmetric A (C-ordered, destroyed): A^T is F-ordered, so
    LAPACK factors it in place as U^T U without a copy, and L = U^T is C-ordered
    (its strict upper triangle zero)."""
    A = np.ascontiguousarray(A, dtype=np.float64)
    if A.shape[0] == 0:
        return A
    return _cholesky_upper(A.T, clean=True, what="K + diag(1/gamma_k)").T


class CholeskyFactor:
    r"""The lower Cholesky factor of H = K + diag(1/gamma_k) on an ordered point set.

    One object for the factor that an LS-SVM fit computes [S 3.24] (the direct
    solver's :attr:`lssvm.linalg.solvers.KKTSolution.factor`) and that the
    estimators keep and reuse: the regressor's Gaussian-process error bars
    (:func:`lssvm.gp.predictive_variance`), the classifier's leave-one-out and
    moderated probabilities, pruning (between its stages), RLS-SVM (between its
    iterations, [P 58], where gamma_k = C_k) and the closed-form cross-validation.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Lower factor of H[order][:, order] = L L^T (C-ordered; only its lower
        triangle is read).
    order : ndarray of int of shape (n,)
        The points of the factor's rows, in factor order, as indices into the
        kernel and into ``gamma`` ("global" indices).
    gamma : float or ndarray
        The regularisation constant: one for all points, or one per point indexed
        by the global index (the weighted LS-SVM's gamma w_k, RLS-SVM's C w_k).
    kernel_block : callable, optional
        ``kernel_block(idx, cols)`` returns K[np.ix_(idx, cols)] (copied) for
        arrays of global indices. Needed only by :meth:`reorder` and :meth:`update`:
        a full kernel matrix (:meth:`from_kernel`, pruning) or columns evaluated on
        demand (RLS-SVM) both fit it.

    Attributes
    ----------
    L, order, gamma, kernel_block : as above; ``L`` and ``order`` change with
        :meth:`reorder` and :meth:`update`.

    Notes
    -----
    Rows of right-hand sides, targets and coefficients follow ``order`` unless a
    method says otherwise (:meth:`positions` maps other row orders). ``upper`` is
    U = L^T, an F-ordered view (no copy), the form of LAPACK's ``lower=0`` routines.
    Two ways to make one, one factorisation behind both: :meth:`factorize` for a
    matrix at hand (the direct solver of
    :func:`lssvm.linalg.solvers.solve_bordered_kkt`, the error bars, the
    probabilities: in place, L = U^T without a copy, ``order`` 0, ..., n - 1, no
    ``kernel_block``, so it solves, inverts and gives leave-one-out outputs but is
    not updated), and :meth:`from_kernel` / :meth:`from_block` for a factor that
    :meth:`update` will change (pruning, RLS-SVM). ``solve_bordered_kkt(None, None,
    a, d, factor=F)`` solves the bordered system [S 3.24] on the points of F by the
    elimination [S 3.25], two triangular solves; :meth:`half_solve` is one of them.

    Examples
    --------
    >>> K = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
    >>> F = CholeskyFactor.from_kernel(K, gamma=1.0)
    >>> H = K + np.eye(3)
    >>> np.allclose(F.solve(np.eye(3)), np.linalg.inv(H))
    True
    >>> np.allclose(F.inverse_diagonal(), np.diag(np.linalg.inv(H)))
    True
    >>> F.update([2, 0], priority=np.array([0.0, 0.0, 5.0])).order.tolist()
    [0, 2]
    >>> np.allclose(F.L @ F.L.T, H[np.ix_([0, 2], [0, 2])])
    True
    """

    def __init__(self, L, order, gamma, kernel_block=None):
        self._ones_half = None  # (L, L^{-1} 1, s) cached by half_solve_ones
        self._warned = False  # the conditioning warning is given once per factor
        self._destroyed = False  # set by a method called with overwrite=True
        self.L = np.asarray(L, dtype=np.float64)
        self.order = np.asarray(order, dtype=np.intp)
        if self.L.shape != (len(self.order),) * 2:
            raise ValueError(
                f"CholeskyFactor: L must have shape {(len(self.order),) * 2} (an order "
                f"of {len(self.order)} points); got L.shape={self.L.shape}."
            )
        self.gamma = gamma
        self.kernel_block = kernel_block

    @classmethod
    def factorize(cls, Omega, gamma, *, overwrite=False):
        """Factor H = Omega + diag(1/gamma_k) [S 3.24] of a matrix at hand, in one
        in-place Cholesky (the direct solver's, the error bars', the probabilities').

        Only the lower triangle of ``Omega`` (n x n) is read, so
        :meth:`lssvm.kernels.Kernel.gram_lower` can be passed directly;
        ``overwrite=True`` factors it in place (no N x N copy when it is C-ordered
        float64; it is destroyed). The factor's order is 0, ..., n - 1 and it has no
        ``kernel_block`` (it solves, inverts and gives leave-one-out outputs, but
        :meth:`update` needs :meth:`from_kernel`). Raises
        :class:`NotPositiveDefiniteError` when H is not positive definite; warns
        (:class:`NumericalWarning`) when it is singular to working precision.
        """
        if overwrite:  # in place when Omega is C-ordered float64, else one copy
            H = np.asarray(Omega, dtype=np.float64, order="C")
        else:
            H = np.array(Omega, dtype=np.float64, order="C")
        n = H.shape[0]
        inv_gamma = 1.0 / np.asarray(gamma, dtype=np.float64)
        H.flat[:: n + 1] += inv_gamma  # H = Omega + diag(1/gamma_k), [S 3.24]
        # The lower triangle of a C-ordered H is the upper triangle of its F-ordered
        # transpose: LAPACK factors it in place, H = U^T U (U's lower part not read).
        U = _cholesky_upper(H.T, clean=False)
        factor = cls(U.T, np.arange(n), gamma)
        factor._warned = _warn_ill_conditioned(U)
        return factor

    @classmethod
    def from_kernel(cls, K, gamma, order=None):
        """Factor H[order][:, order] for the full kernel matrix K of the points.

        ``order`` defaults to all points in their order; an empty ``order`` gives
        an empty factor that a later :meth:`reorder` or :meth:`update` fills.
        The returned factor keeps K (not a copy) for its later updates.
        """
        K = np.asarray(K, dtype=np.float64)
        order = np.arange(K.shape[0]) if order is None else order
        return cls.from_block(lambda idx, cols: K[np.ix_(idx, cols)], gamma, order)

    @classmethod
    def from_block(cls, kernel_block, gamma, order):
        """Factor H[order][:, order] by [P 61], K read through ``kernel_block``."""
        empty = cls(np.zeros((0, 0)), np.zeros(0, dtype=np.intp), gamma, kernel_block)
        return empty.reorder(order)

    @property
    def upper(self):
        """U = L^T (U^T U = H), an F-ordered view: LAPACK's ``lower=0`` form."""
        if self._destroyed:
            raise ValueError(
                "CholeskyFactor: the factor must be intact; got one destroyed by an "
                "earlier call with overwrite=True (inverse, inverse_diagonal or "
                "loo_latent). Factor again, or call those without overwrite."
            )
        return self.L.T

    def _overwritten(self, overwrite):
        """Record that a method destroyed the factor (``overwrite``)."""
        if overwrite:
            self._destroyed, self._ones_half = True, None

    def __len__(self):
        return len(self.order)

    def entries(self, idx, cols):
        """H[np.ix_(idx, cols)] = K + diag(1/gamma_k) on global indices [S 3.24]."""
        idx, cols = np.asarray(idx), np.asarray(cols)
        A = np.array(self.kernel_block(idx, cols), dtype=np.float64)
        where = np.full(int(max(idx.max(initial=-1), cols.max(initial=-1))) + 1, -1)
        where[cols] = np.arange(len(cols))
        on = np.flatnonzero(where[idx] >= 0)  # rows whose point is also a column
        inv_gamma = 1.0 / np.asarray(self.gamma, dtype=np.float64)
        shift = inv_gamma if inv_gamma.ndim == 0 else inv_gamma[idx[on]]
        A[on, where[idx[on]]] += shift  # the diagonal 1/gamma_k
        return A

    def solve(self, B):
        """H^{-1} B by two triangular solves (B of shape (n,) or (n, m))."""
        B = np.asarray(B, dtype=np.float64)
        Z, info = lapack.dpotrs(self.upper, B, lower=0)  # L L^T Z = B
        if info:
            raise np.linalg.LinAlgError(f"dpotrs failed (info={info}).")
        return Z

    def half_solve(self, B):
        """L^{-1} B = U^{-T} B, one triangular solve: ||L^{-1} b||^2 = b^T H^{-1} b.

        The half of :meth:`solve` that quadratic forms need (the Gaussian-process
        variance [S 3.60] of :func:`lssvm.gp.predictive_variance`).
        """
        return solve_triangular(
            self.upper, np.asarray(B, dtype=np.float64), trans=1, lower=False,
            check_finite=False,
        )  # fmt: skip

    def half_solve_ones(self):
        """(w, s) with w = L^{-1} 1_v and s = w^T w = 1_v^T H^{-1} 1_v (the s of
        [S 3.25]); computed once per factor and kept until the factor changes."""
        cached = self._ones_half
        if cached is None or cached[0] is not self.L:
            w = self.half_solve(np.ones(len(self)))
            cached = self._ones_half = (self.L, w, float(w @ w))
        return cached[1], cached[2]

    def positions(self, index):
        """pos with ``index[pos] == order``, or None when ``index`` is the factor order.

        ``index`` lists the points of the factor (global indices) in the order of
        some arrays' rows; ``v[pos]`` puts such an array in factor order and
        ``out[pos] = w`` puts a factor-ordered result back (pruning: the rows of a
        stage's fit follow the kept points, the factor's the order of its updates).
        """
        if index is None:
            return None
        index = np.asarray(index)
        if np.array_equal(index, self.order):
            return None
        top = max(index.max(initial=-1), self.order.max(initial=-1))
        where = np.full(int(top) + 1, -1)
        where[index] = np.arange(len(index))
        pos = where[self.order]
        if len(index) != len(self.order) or (pos < 0).any():
            raise ValueError(
                "CholeskyFactor.positions: index must list the points of the factor "
                f"(any order); got {len(index)} indices for a factor of "
                f"{len(self.order)} points."
            )
        return pos

    def inverse(self, overwrite=False):
        """H^{-1} by LAPACK ``potri``: an F-ordered array whose upper triangle is
        valid (the lower one is not). ``overwrite`` destroys the factor."""
        Hinv, info = lapack.dpotri(self.upper, lower=0, overwrite_c=int(bool(overwrite)))
        self._overwritten(overwrite)
        if info:
            raise np.linalg.LinAlgError(f"dpotri failed (info={info}).")
        return Hinv

    def inverse_diagonal(self, overwrite=False):
        """diag(H^{-1}) of H = U^T U; overwrite destroys the factor."""
        diag = _inverse_diagonal(self.upper, overwrite)
        self._overwritten(overwrite)
        return diag

    def loo_latent(self, t, beta, *, fit_intercept=True, overwrite=False, eta=None):
        """Exact leave-one-out outputs t_k - beta_k / C_kk (:func:`loo_from_diagonal`).

        ``t`` and ``beta`` (shape (n,) or (n, m)) follow the factor order;
        ``overwrite`` destroys the factor. ``eta``: H^{-1} 1_v when the caller has it
        (:attr:`lssvm.linalg.solvers.KKTSolution.eta` of a regression-form solve),
        else it is solved for here (with ``fit_intercept`` only).
        """
        loo = _loo_latent(
            self.upper, t, beta, fit_intercept=fit_intercept, overwrite=overwrite,
            eta=eta,
        )  # fmt: skip
        self._overwritten(overwrite)
        return loo

    def ordered(self, members, priority, *, keep_prefix=True):
        """The factor order :meth:`update` gives the set ``members``.

        The leading points of the current order, up to the first one that is not in
        ``members``, stay in front (none with ``keep_prefix=False``); the other
        members follow by decreasing ``priority`` (indexed by global index), ties in
        increasing index.
        """
        members = np.asarray(members, dtype=np.intp)
        p = 0
        if keep_prefix:
            stays = np.isin(self.order, members)
            p = len(self.order) if stays.all() else int(np.argmin(stays))
        head = self.order[:p]
        rest = np.setdiff1d(members, head)
        rest = rest[np.argsort(-np.asarray(priority)[rest], kind="stable")]
        return np.concatenate([head, rest]).astype(np.intp)

    def reorder(self, new_order, *, keep_prefix=True, kernel_block=None):
        """Refactor for the points ``new_order`` (any set) by :func:`update_cholesky`.

        The common prefix with the current order keeps its factor rows and the rest
        is rebuilt from its Schur complement [P 61]; ``keep_prefix=False`` factors
        afresh. ``kernel_block`` replaces the stored one (RLS-SVM: the kernel
        columns of the new set). Returns self.
        """
        if kernel_block is not None:
            self.kernel_block = kernel_block
        if self.kernel_block is None:
            raise ValueError(
                "CholeskyFactor.reorder: kernel_block must be a function "
                "kernel_block(idx, cols) that reads K (here or stored in the factor); "
                "got kernel_block=None."
            )
        new_order = np.asarray(new_order, dtype=np.intp)
        if keep_prefix and len(self.order):
            L, order = self.upper.T, self.order  # upper raises if destroyed
        else:
            L, order = np.zeros((0, 0)), np.zeros(0, dtype=np.intp)
        self.L = update_cholesky(
            L, order, new_order, lambda idx: self.entries(idx, new_order)
        )
        self.order = new_order
        self._destroyed = False  # a new factor
        if not self._warned:  # as factorize does; once per factor (pruning's stages)
            self._warned = _warn_ill_conditioned(self.upper)
        return self

    def update(self, members, priority, *, keep_prefix=True, kernel_block=None):
        """The ordered up/downdate to the set ``members`` (points may leave and join).

        The new order is :meth:`ordered`'s; the factor rows of the kept prefix are
        reused (:meth:`reorder`), or none with ``keep_prefix=False`` (a fresh
        factor, e.g. when the current order says nothing about ``priority``).
        Returns self.
        """
        new_order = self.ordered(members, priority, keep_prefix=keep_prefix)
        return self.reorder(
            new_order, keep_prefix=keep_prefix, kernel_block=kernel_block
        )
