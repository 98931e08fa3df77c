r"""LS-SVM function estimation, Suykens et al. (2002), (3.28)-(3.34).

Primal (3.29): minimise :math:`\tfrac12 w^T w + \gamma \tfrac12 \sum_k e_k^2` subject to
:math:`y_k = w^T\varphi(x_k) + b + e_k`. Dual (3.32): the bordered KKT system with
border :math:`1_v` and :math:`\Omega = K` (3.33). Model (3.34):
:math:`y(x) = \sum_k \alpha_k K(x, x_k) + b`. This is kernel ridge regression with
an unpenalised intercept.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.utils.validation import validate_data

from ._base import LSSVMBase

__all__ = ["LSSVMRegressor"]


class LSSVMRegressor(RegressorMixin, LSSVMBase):
    """LS-SVM regression: dual system (3.32), model (3.34).

    Parameters
    ----------
    gamma, kernel, sigma2, degree, tau, solver, tol
        See :class:`lssvm._base.LSSVMBase` (``solver``: "direct", "cg" for
        matrix-free preconditioned CG, or "auto"; ``tol``: the CG tolerance).

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        Support values of (3.32); the model is sum_k alpha_k K(x, x_k) + b (3.34).
    b_ : float
        Bias term.
    e_ : ndarray of shape (n_samples,)
        Errors e_k = alpha_k / gamma (3.31): y_k = y(x_k) + e_k.
    dual_coef_ : ndarray of shape (n_samples,)
        The coefficients of K(x, x_k) in the model; for regression equal to alpha_.
    support_vectors_ : ndarray of shape (n_samples, n_features)
    kernel_ : Kernel
    n_iter_ : int
        CG iterations (0 for the direct solver).
    n_features_in_ : int

    Examples
    --------
    >>> from lssvm import LSSVMRegressor
    >>> from lssvm.datasets import sinc
    >>> X, y = sinc(100, noise=0.1, random_state=0)
    >>> reg = LSSVMRegressor(gamma=10.0, sigma2=1.0).fit(X, y)
    >>> bool(reg.score(X, y) > 0.8)
    True
    """

    def fit(self, X, y):
        """Solve the KKT system (3.32) for the training data (X, y)."""
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        # (3.32): a = 1_v, d = y, Omega = K (3.33).
        self._fit_kkt(X, a=np.ones_like(y), d=y)
        self.dual_coef_ = self.alpha_
        return self

    def predict(self, X):
        """Model (3.34): sum_k alpha_k K(x, x_k) + b."""
        return self._latent(X)
