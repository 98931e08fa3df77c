r"""Kernel partial least squares regression (KPLS), [C8 §8.2.4].

Rosipal and Trejo (2001) run the NIPALS algorithm of PLS in feature space. With
:math:`\Phi` the centred feature vectors as rows, only :math:`\Phi\Phi^T = K_c`
appears, the centred kernel matrix
:math:`K_c = (I - \tfrac1N 1_v 1_v^T) K (I - \tfrac1N 1_v 1_v^T)`. For each
component, from the centred (and deflated) targets Y:

1. iterate :math:`t = K_c u`, :math:`t \leftarrow t/\lVert t\rVert`,
   :math:`c = Y^T t`, :math:`u = Y c`, :math:`u \leftarrow u/\lVert u\rVert` until t
   no longer changes (one pass for a single target);
2. deflate :math:`K_c \leftarrow (I - t t^T) K_c (I - t t^T)` and
   :math:`Y \leftarrow Y - t t^T Y`.

With the score matrices :math:`T = [t_1, \dots]` and :math:`U = [u_1, \dots]`, the
dual coefficients are :math:`B = U (T^T K_c U)^{-1} T^T Y` (Y centred, K_c the
undeflated matrix), the prediction is :math:`\hat y(x) = k_c(x)^T B + \bar y`, and
the scores of new points are :math:`k_c(x)^T U (T^T K_c U)^{-1}`, where
:math:`k_c(x)` is the kernel vector centred with the training means.

The number of components is the only regularisation: there is no gamma. With the
linear kernel this is ordinary PLS; with as many components as the rank of K_c it
interpolates, kernel least squares.

Source: R. Rosipal and L. J. Trejo, Kernel partial least squares regression in
reproducing kernel Hilbert space, JMLR 2 (2001); [C8 §8.2.4].
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import KERNEL_CONSTRAINTS
from .._validation import (
    Count,
    Positive,
    check_finite_output,
    check_not_precomputed,
    validate_params,
)
from ..kernels import make_kernel
from ..linalg.memory import check_dense_memory

__all__ = ["KernelPLSRegression"]

# A component whose score t = K_c u is below this fraction of the first one's means
# that K_c (or Y) is exhausted: the rank is reached, the rest is round-off.
_RANK_RTOL = 1e-10


class KernelPLSRegression(TransformerMixin, RegressorMixin, BaseEstimator):
    """Kernel PLS by NIPALS in feature space [C8 §8.2.4] (Rosipal and Trejo 2001).

    Parameters
    ----------
    n_components : int, default=2
        Latent components to extract; fewer are kept if the centred kernel matrix
        or the targets are exhausted first (see ``n_components_``).
    kernel : {"rbf", "linear", "poly"}, Kernel or callable, default="rbf"
    sigma2 : float, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13].
    degree, tau : int, float
        Polynomial kernel (x^T z + tau)^degree.
    max_iter : int, default=500
        NIPALS iterations per component (several targets only).
    tol : float, default=1e-12
        Stop a component's iterations when ||t - t_previous|| <= tol.

    Attributes
    ----------
    x_scores_ : ndarray of shape (n_samples, ``n_components_``)
        T, unit columns, orthogonal.
    y_scores_ : ndarray of shape (n_samples, ``n_components_``)
        U, unit columns.
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        B = U (T^T K_c U)^{-1} T^T Y.
    n_components_ : int
    n_iter_ : int
        The most NIPALS iterations any component needed.
    """

    def __init__(
        self, n_components=2, *, kernel="rbf", sigma2=1.0, degree=3, tau=1.0,
        max_iter=500, tol=1e-12,
    ):  # fmt: skip
        self.n_components = n_components
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    _parameter_constraints = {
        "n_components": [Count(1, "latent components")],
        **KERNEL_CONSTRAINTS,
        "max_iter": [Count(1, "NIPALS iterations per component")],
        "tol": [Positive("NIPALS tolerance")],
    }

    def _check_params(self):
        """Validate the parameters (the constraints table), then build the kernel."""
        validate_params(self)
        check_not_precomputed(self.kernel, owner=self)
        return make_kernel(
            self.kernel, sigma2=self.sigma2, degree=self.degree, tau=self.tau
        )

    def fit(self, X, y):
        """Extract the components by kernel NIPALS and the dual coefficients B."""
        X, y = validate_data(
            self, X, y, y_numeric=True, multi_output=True, dtype=np.float64
        )
        kernel = self._check_params()
        if X.shape[0] < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least 2 samples (the kernel matrix "
                f"is centred); got n_samples={X.shape[0]}."
            )
        Y = y.reshape(len(y), -1)
        check_dense_memory(  # K, its centred copy and NIPALS products
            X.shape[0], n_matrices=2, what=f"{type(self).__name__} (the centred N x N "
            "kernel matrix)", alternative="fit on a subsample", owner=self,
        )  # fmt: skip
        K = check_finite_output(kernel(X), kernel, owner=self)
        self.k_mean_ = K.mean(axis=0)  # column means of K, for centring k(x)
        self.k_grand_mean_ = float(self.k_mean_.mean())
        Kc = K - self.k_mean_[:, None] - self.k_mean_[None, :] + self.k_grand_mean_
        self.y_mean_ = Y.mean(axis=0)
        T, U, n_iter = self._nipals(Kc, Y - self.y_mean_)
        # B = U (T^T K_c U)^{-1} T^T Y: the regression on the scores, in dual form
        R = U @ np.linalg.solve(T.T @ Kc @ U, np.eye(T.shape[1]))  # (N, p)
        B = R @ (T.T @ (Y - self.y_mean_))
        self.kernel_ = kernel
        self.X_fit_ = X
        self.x_scores_, self.y_scores_, self.n_iter_ = T, U, max(n_iter)
        self.x_rotations_ = R
        self.n_components_ = T.shape[1]
        self.dual_coef_ = B[:, 0] if y.ndim == 1 else B
        return self

    def _nipals(self, Kc, Y):
        """Scores T, U (unit columns) of up to n_components components."""
        N = Kc.shape[0]
        Kd, Yd = Kc.copy(), Y.copy()
        T, U, n_iter = [], [], []
        first = None
        for _ in range(min(self.n_components, N)):
            u = Yd[:, np.argmax(np.linalg.norm(Yd, axis=0))].copy()  # a start in Y
            if np.linalg.norm(u) == 0:
                break
            t_old = None
            for it in range(1, self.max_iter + 1):
                t = Kd @ u
                norm_t = np.linalg.norm(t)
                first = norm_t if first is None else first
                if norm_t <= _RANK_RTOL * first:
                    break
                t /= norm_t
                c = Yd.T @ t
                u = Yd @ c
                u /= np.linalg.norm(u)
                if Y.shape[1] == 1 or (
                    t_old is not None and np.linalg.norm(t - t_old) <= self.tol
                ):
                    break
                t_old = t
            else:
                warnings.warn(
                    f"KernelPLSRegression: NIPALS did not converge in {self.max_iter} "
                    f"iterations for component {len(T) + 1}; raise max_iter.",
                    ConvergenceWarning,
                    stacklevel=3,
                )
            if norm_t <= _RANK_RTOL * first:
                break  # K_c exhausted: its rank is reached
            Kt = Kd @ t  # deflation (I - t t^T) Kd (I - t t^T)
            Kd += np.outer(t, (t @ Kt) * t - Kt) - np.outer(Kt, t)
            Yd -= np.outer(t, t @ Yd)
            T.append(t)
            U.append(u)
            n_iter.append(it)
        if not T:
            raise ValueError(
                "KernelPLSRegression: no component could be extracted (constant "
                "targets or a constant kernel matrix)."
            )
        return np.column_stack(T), np.column_stack(U), n_iter

    def _centred_kernel(self, X):
        """k_c(x) for the rows of X: the kernel vectors centred with training means."""
        check_is_fitted(self, "dual_coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        Kt = check_finite_output(self.kernel_(X, self.X_fit_), self.kernel_, owner=self)
        return Kt - Kt.mean(axis=1)[:, None] - self.k_mean_ + self.k_grand_mean_

    def predict(self, X):
        """k_c(x)^T B + mean(y)."""
        return self._centred_kernel(X) @ self.dual_coef_ + (
            self.y_mean_[0] if self.dual_coef_.ndim == 1 else self.y_mean_
        )

    def transform(self, X):
        """Scores of new points, k_c(x)^T U (T^T K_c U)^{-1}: (n, ``n_components_``)."""
        return self._centred_kernel(X) @ self.x_rotations_
