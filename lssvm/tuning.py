r"""Exact closed-form cross-validation and leave-one-out for LS-SVMs with a bias term.

With :math:`A = [[0, 1^T], [1, H]]`, :math:`H = K + I/\gamma`, the regression form of
the KKT system (3.32), and :math:`C` the lower-right block of :math:`A^{-1}`,

.. math:: C = H^{-1} - \eta\eta^T / s, \qquad \eta = H^{-1} 1_v,\ s = 1_v^T \eta,

the residuals of the points of a held-out set V under the model trained on all other
points are, without refitting (Cawley & Talbot 2004 for leave-one-out; An, Liu &
Venkatesh 2007 for k-fold),

.. math:: r_V = y_V - f^{(-V)}(x_V) = C_{VV}^{-1} \beta_V,

where :math:`\beta` are the dual coefficients of the model trained on all points.
The LS-SVM classifier is the regressor on +-1 targets with :math:`\beta_k = \alpha_k
y_k` (see the Classification chapter), so one formula serves both: the held-out
latent outputs are :math:`f^{(-V)}(x_V) = y_V - r_V`.

Two strategies give :math:`H^{-1}` for a grid of gammas at one kernel matrix:

- ``"eigen"``: one eigendecomposition :math:`K = U \Lambda U^T`; then
  :math:`H^{-1} = U \operatorname{diag}(1/(\lambda + 1/\gamma)) U^T` costs O(N^2) per
  gamma for the coefficients and N^3/k for the k diagonal blocks;
- ``"cholesky"``: :func:`lssvm.solvers.solve_bordered_kkt` per gamma, then the
  inverse from its Cholesky factor (LAPACK ``potri``).

``"auto"`` takes the eigendecomposition from :data:`EIGEN_MIN_GAMMAS` gammas on:
measured on 2 cores (N = 1000-2000), one ``eigh`` costs about 2.5-3 Cholesky
factorisations plus inversions, and each further gamma then costs about 1/6 of one.

Sources: Suykens et al. (2002), ch. 3, section 3.4.2 (tuning by 10-fold CV);
G. C. Cawley and N. L. C. Talbot, Neural Networks 17 (2004); S. An, W. Liu and
S. Venkatesh, Pattern Recognition 40 (2007).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import cho_solve, lapack, solve
from sklearn.model_selection import check_cv

from .solvers import NotPositiveDefiniteError, solve_bordered_kkt

__all__ = [
    "ClosedFormCV",
    "make_folds",
    "score_latent",
    "SCORINGS",
    "EIGEN_MIN_GAMMAS",
]

EIGEN_MIN_GAMMAS = 4
STRATEGIES = ("auto", "eigen", "cholesky")
SCORINGS = ("accuracy", "neg_mean_squared_error", "r2")


def make_folds(cv, X, y, *, classifier: bool) -> list[NDArray[np.intp]]:
    """Held-out index sets from ``cv`` (an int, "loo", or a scikit-learn splitter).

    An int k gives scikit-learn's default k-fold split, stratified for classifiers
    (:func:`sklearn.model_selection.check_cv`), without shuffling. The closed form
    needs every training set to be the complement of its test set.
    """
    n = len(y)
    if isinstance(cv, str) and cv == "loo":
        return [np.array([k]) for k in range(n)]
    splitter = check_cv(cv, y, classifier=classifier)
    folds = []
    for train, test in splitter.split(X, y):
        joined = np.sort(np.concatenate([train, test]))
        if not np.array_equal(joined, np.arange(n)):
            raise ValueError(
                "cv must split the data into a test set and its complement for the "
                "closed-form cross-validation; got a split with "
                f"{len(train)} training and {len(test)} test points out of {n}."
            )
        folds.append(np.sort(np.asarray(test)))
    return folds


@dataclass(frozen=True)
class _Coefficients:
    eta: NDArray  # H^{-1} 1, (n,)
    s: float  # 1^T eta
    beta: NDArray  # dual coefficients of the full fit, (n, n_targets)


class ClosedFormCV:
    """Held-out latent outputs of every fold, for any gamma, at one kernel matrix.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        The full (symmetric) kernel matrix of the training inputs.
    Y : ndarray of shape (n_samples,) or (n_samples, n_targets)
        Regression targets, or +-1 class codes for classification (several columns:
        several binary problems, e.g. the bits of an output code, at once).
    folds : list of index arrays
        The held-out sets (from :func:`make_folds`); the model for each is trained on
        all other points.
    strategy : {"auto", "eigen", "cholesky"}
    n_gammas : int
        How many gammas will be evaluated; "auto" uses it to choose the strategy.

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.kernels import RBF
    >>> X = np.random.default_rng(0).standard_normal((40, 2)); y = np.sign(X[:, 0])
    >>> cv = ClosedFormCV(RBF(1.0)(X), y, make_folds(5, X, y, classifier=True))
    >>> [f.shape for f in cv.latent(10.0)][:2]
    [(8,), (8,)]
    """

    def __init__(self, K, Y, folds, *, strategy="auto", n_gammas=1):
        if strategy not in STRATEGIES:
            raise ValueError(
                f"strategy must be one of {list(STRATEGIES)}; "
                f"got strategy={strategy!r}."
            )
        if strategy == "auto":
            strategy = "eigen" if n_gammas >= EIGEN_MIN_GAMMAS else "cholesky"
        self.strategy = strategy
        self.K = np.asarray(K, dtype=np.float64)
        Y = np.asarray(Y, dtype=np.float64)
        self._vector = Y.ndim == 1
        self.Y = Y.reshape(len(Y), -1)
        self.folds = [np.asarray(f) for f in folds]
        self._loo = all(len(f) == 1 for f in self.folds)
        if strategy == "eigen":
            self.eigvals, self.U = np.linalg.eigh(self.K)
            self._Ut_rhs = self.U.T @ np.column_stack([np.ones(len(Y)), self.Y])
            self._U2 = self.U**2 if self._loo else None

    def latent(self, gamma: float) -> list[NDArray[np.float64]]:
        """Held-out latent outputs f^(-V)(x_V), one array per fold."""
        if self.strategy == "eigen":
            d = 1.0 / (self.eigvals + 1.0 / gamma)  # eigenvalues of H^{-1}
            if np.any(d <= 0) or not np.all(np.isfinite(d)):
                raise NotPositiveDefiniteError(
                    "K + I/gamma is not positive definite: smallest eigenvalue "
                    f"{self.eigvals.min() + 1 / gamma:.1e} at gamma={gamma!r}."
                )
            coef = self._eigen_coefficients(d)
            U = self.U

            def inverse_block(V):  # (H^{-1})_VV = U_V diag(d) U_V^T
                return (U[V] * d) @ U[V].T

            def inverse_diag():
                return self._U2 @ d

        else:
            coef, Hinv = self._cholesky_coefficients(gamma)

            def inverse_block(V):
                return Hinv[np.ix_(V, V)]

            def inverse_diag():
                return np.diag(Hinv)

        if self._loo:  # r_k = beta_k / C_kk, with C = H^{-1} - eta eta^T / s
            C_diag = inverse_diag() - coef.eta**2 / coef.s
            latent = self.Y - coef.beta / C_diag[:, None]
            out = [latent[f] for f in self.folds]
        else:
            out = []
            for V in self.folds:
                C_VV = inverse_block(V) - np.outer(coef.eta[V], coef.eta[V]) / coef.s
                R_V = solve(C_VV, coef.beta[V], assume_a="pos", check_finite=False)
                out.append(self.Y[V] - R_V)  # f^(-V)(x_V) = y_V - r_V
        return [o[:, 0] for o in out] if self._vector else out

    def _eigen_coefficients(self, d):
        Z = self.U @ (d[:, None] * self._Ut_rhs)  # H^{-1} [1, Y]
        eta, nu = Z[:, 0], Z[:, 1:]
        s = eta.sum()
        b = eta @ self.Y / s  # (3.25) step 3
        return _Coefficients(eta, s, nu - np.outer(eta, b))

    def _cholesky_coefficients(self, gamma):
        n = len(self.Y)
        ones = np.ones(n)
        sol = solve_bordered_kkt(self.K, gamma, ones, self.Y)  # (3.32), one Cholesky
        factor = (sol.factor, False)
        eta = cho_solve(factor, ones, check_finite=False)
        Hinv, info = lapack.dpotri(sol.factor, lower=0)  # upper triangle of H^{-1}
        Hinv = np.triu(Hinv) + np.triu(Hinv, 1).T
        return _Coefficients(eta, eta.sum(), sol.alpha.reshape(n, -1)), Hinv


def score_latent(scoring, y_true, latent) -> float:
    """Score of latent outputs: greater is better, as in scikit-learn.

    ``"accuracy"``: fraction of sign(latent) equal to the +-1 codes ``y_true``
    (latent > 0 counts as +1, as in ``LSSVMClassifier.predict``);
    ``"neg_mean_squared_error"``; ``"r2"``; or a callable ``scoring(y_true, latent)``.
    Several columns (several binary problems) give the mean over columns.
    """
    y_true, latent = np.asarray(y_true), np.asarray(latent)
    if callable(scoring):
        return float(scoring(y_true, latent))
    if scoring == "accuracy":
        return float(np.mean(np.where(latent > 0, 1.0, -1.0) == y_true))
    if scoring == "neg_mean_squared_error":
        return float(-np.mean((y_true - latent) ** 2))
    if scoring == "r2":
        total = np.sum((y_true - y_true.mean(axis=0)) ** 2, axis=0)
        return float(np.mean(1.0 - np.sum((y_true - latent) ** 2, axis=0) / total))
    raise ValueError(
        f"scoring must be one of {list(SCORINGS)} or a callable "
        f"scoring(y_true, latent); got scoring={scoring!r}."
    )
