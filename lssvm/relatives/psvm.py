r"""Proximal support vector machine (PSVM), [C8 §8.4.4] and [C8 §8.5.3].

Fung and Mangasarian (2001) write the LS-SVM classifier's primal with the bias inside
the regulariser:

.. math:: \min_{w, b, e}\ \tfrac12 (w^T w + b^2) + \gamma\, \tfrac12 \sum_k e_k^2
          \quad\text{s.t.}\quad y_k\,(w^T\varphi(x_k) + b) = 1 - e_k .

Since :math:`y_k^2 = 1`, :math:`e_k^2 = (y_k - w^T\varphi(x_k) - b)^2`: it is ridge
regression on the :math:`\pm 1` labels with the input augmented by a constant 1 and
every coefficient penalised. Two closed forms follow.

- Primal (linear kernel): with :math:`E = [X, 1_v]` (N x (n+1)),
  :math:`(E^T E + I/\gamma)\,[w; b] = E^T y`, an (n+1) x (n+1) system whose matrix
  is accumulated in one pass over the data, O(N n^2) [C8 8.4.49].
- Dual (any kernel): the stationarity conditions give :math:`w = \sum_k \beta_k
  \varphi(x_k)`, :math:`b = \sum_k \beta_k` with :math:`\beta_k = \alpha_k y_k` and

  .. math:: (K + 1_v 1_v^T + I/\gamma)\,\beta = y ,

  the LS-SVM system without its border on the kernel :math:`K(x, z) + 1`
  ([S 3.62] form), [C8 8.4.52]. The Sherman-Morrison-Woodbury identity
  :math:`(I/\gamma + E^T E)^{-1} E^T = E^T (I/\gamma + E E^T)^{-1}` makes the two
  forms equal for the linear kernel, where :math:`E E^T = X X^T + 1_v 1_v^T`.

The matrix does not depend on the labels, so the k problems of one-versus-rest
[C8 §8.5.3] are k right-hand sides of one factorisation. Both forms are solved by
:func:`lssvm.linalg.solvers.solve_bordered_kkt` without border (``a=None``).

Source: G. Fung and O. L. Mangasarian, Proximal support vector machine classifiers,
KDD 2001; [C8 §8.4.4], [C8 §8.5.3].
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import KERNEL_CONSTRAINTS
from .._validation import (
    GAMMA_MEANING,
    Options,
    Positive,
    check_classes,
    check_finite_output,
    check_not_precomputed,
    positive_weight_rows,
    validate_params,
)
from ..kernels import Linear, make_kernel
from ..linalg.memory import check_dense_memory
from ..linalg.solvers import solve_bordered_kkt

__all__ = ["PSVMClassifier", "METHODS"]

METHODS = ("auto", "primal", "dual")


def one_vs_rest_codes(y_index, n_classes):
    """+-1 targets: one column (classes_[1] = +1) for two classes, else one each."""
    if n_classes == 2:
        return np.where(y_index == 1, 1.0, -1.0)[:, None]
    Y = -np.ones((len(y_index), n_classes))
    Y[np.arange(len(y_index)), y_index] = 1.0
    return Y


class PSVMClassifier(ClassifierMixin, BaseEstimator):
    """Proximal SVM classifier [C8 §8.4.4]; one-versus-rest [C8 §8.5.3] for k > 2.

    Parameters
    ----------
    gamma : float, default=1.0
        Weight of the squared errors (Fung and Mangasarian's nu), as in the LS-SVM.
    kernel : {"linear", "rbf", "poly"}, Kernel or callable, default="linear"
    sigma2 : float, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13].
    degree, tau : int, float
        Polynomial kernel (x^T z + tau)^degree.
    method : {"auto", "primal", "dual"}, default="auto"
        "primal": the (n+1) x (n+1) system for [w; b], linear kernel only, O(N n^2)
        time and O(n^2) memory besides X; "dual": the N x N system
        (K + 1 1^T + I/gamma) beta = y; "auto": "primal" for the linear kernel when
        n_features < n_samples, else "dual". Both give the same model.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        w of the linear model (linear kernel only).
    intercept_ : float or ndarray of shape (n_classes,)
        The regularised bias b (= sum_k beta_k in the dual form).
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_classes)
        beta_k = alpha_k y_k of the dual form (None after a primal fit).
    alpha_ : ndarray, shape of ``dual_coef_``
        Lagrange multipliers alpha_k = gamma e_k (None after a primal fit).
    support_vectors_ : ndarray of shape (n_samples, n_features)
        The training inputs (dual form): every point is a support vector.
    kernel_ : Kernel
    method_ : {"primal", "dual"}
    n_factorizations_ : int
        Always 1: every one-versus-rest problem shares the factorisation.

    Examples
    --------
    >>> from lssvm.datasets import load_ripley
    >>> X, y = load_ripley("train")
    >>> clf = PSVMClassifier(gamma=10.0).fit(X, y)
    >>> clf.method_, clf.coef_.shape
    ('primal', (2,))
    """

    def __init__(
        self, *, gamma=1.0, kernel="linear", sigma2=1.0, degree=3, tau=1.0,
        method="auto",
    ):  # fmt: skip
        self.gamma = gamma
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.method = method

    _parameter_constraints = {
        "gamma": [Positive(GAMMA_MEANING)],
        **KERNEL_CONSTRAINTS,
        "method": [Options(METHODS)],
    }

    def _check_params(self, n_samples, n_features):
        """The kernel and the method (the parameters are validated by fit)."""
        check_not_precomputed(self.kernel, owner=self)
        kernel = make_kernel(
            self.kernel, sigma2=self.sigma2, degree=self.degree, tau=self.tau
        )
        linear = isinstance(kernel, Linear)
        if self.method == "primal" and not linear:
            raise ValueError(
                f"{type(self).__name__}: method='primal' needs the linear kernel; "
                f"got kernel={self.kernel!r}. Use method='dual'."
            )
        method = self.method
        if method == "auto":
            method = "primal" if linear and n_features < n_samples else "dual"
        return kernel, method

    def fit(self, X, y, sample_weight=None):
        """Solve the primal or the dual system for every one-versus-rest column.

        ``sample_weight`` w: weighted least squares, the cost gamma/2 sum_k w_k e_k^2
        (primal: E^T W E + I/gamma; dual: 1/(gamma w_k) on the diagonal). Integer
        weights give the model of repeated rows; rows of weight 0 are left out, and
        every class needs a row of positive weight.
        """
        validate_params(self)  # the constraints table, once
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        check_classes(self.classes_.tolist(), owner=self)
        keep, w = positive_weight_rows(
            sample_weight, X, y, owner=self, classes=self.classes_
        )
        if keep is not None:
            X, y_index = X[keep], y_index[keep]
        kernel, method = self._check_params(*X.shape)
        Y = one_vs_rest_codes(y_index, len(self.classes_))  # (N, m), m = 1 or k
        gamma = float(self.gamma)
        if method == "primal":
            N, n = X.shape
            root = np.ones(N) if w is None else np.sqrt(w)  # W^{1/2} E = [r X, r]
            Xr = X * root[:, None]
            G = np.empty((n + 1, n + 1))  # E^T W E with E = [X, 1]: one pass, O(N n^2)
            G[:n, :n] = Xr.T @ Xr
            G[n, :n] = G[:n, n] = Xr.T @ root
            G[n, n] = root @ root
            Yr = Y * root[:, None]
            rhs = np.vstack([Xr.T @ Yr, root @ Yr])  # E^T W y
            # (E^T E + I/gamma) [w; b] = E^T y  [C8 8.4.49]: no border
            theta = solve_bordered_kkt(G, gamma, None, rhs, overwrite=True).alpha
            coef, intercept = theta[:n].T, theta[n]
            beta = None
        else:
            check_dense_memory(  # K + 1 1^T, factored in place
                X.shape[0], what=f"{type(self).__name__} (dual: the N x N kernel "
                "matrix)", alternative="use kernel='linear' with method='primal'",
                owner=self,
            )  # fmt: skip
            K = check_finite_output(kernel(X), kernel, owner=self)
            K += 1.0  # the kernel K(x, z) + 1: the bias is penalised with w
            # (K + 1 1^T + I/gamma) beta = y  [C8 8.4.52]: the LS-SVM without border
            gamma_k = gamma if w is None else gamma * w  # 1/(gamma w_k) on the diagonal
            beta = solve_bordered_kkt(K, gamma_k, None, Y, overwrite=True).alpha
            intercept = beta.sum(axis=0)  # b = sum_k alpha_k y_k
            coef = (X.T @ beta).T if isinstance(kernel, Linear) else None
        binary = Y.shape[1] == 1
        squeeze = (lambda A: A[..., 0]) if binary else (lambda A: A)
        self.kernel_ = kernel
        self.method_ = method
        self.n_factorizations_ = 1
        self.intercept_ = float(intercept[0]) if binary else intercept
        self.coef_ = None if coef is None else (coef[0] if binary else coef)
        if beta is None:
            self.dual_coef_ = self.alpha_ = self.support_vectors_ = None
        else:
            self.dual_coef_ = squeeze(beta)
            self.alpha_ = squeeze(beta * Y)  # alpha_k = beta_k y_k = gamma w_k e_k
            self.support_vectors_ = X.copy()
        return self

    def decision_function(self, X):
        """w^T phi(x) + b: shape (n_samples,) for two classes (> 0: classes_[1]),
        else (n_samples, n_classes), one column per one-versus-rest problem."""
        check_is_fitted(self, "intercept_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if self.coef_ is not None:
            out = X @ self.coef_.T + self.intercept_
        else:
            out = self.kernel_(X, self.support_vectors_) @ self.dual_coef_
            out = out + self.intercept_
        return check_finite_output(out, self.kernel_, owner=self)

    def predict(self, X):
        """Sign of the decision value; more classes: the largest one (one-vs-rest)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
