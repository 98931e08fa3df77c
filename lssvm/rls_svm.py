r"""The L2-loss SVM solved in the primal by regularised least squares [Peng16].

Peng, Rafferty & Ferguson (2016) minimise, with an unregularised bias b, (6)-(7)

.. math:: J(w, b) = w^T w + C \sum_{k=1}^N \max(0, 1 - y_k f(x_k))^2,
   \qquad f(x) = w^T \varphi(x) + b,

with the errors :math:`e_k = 1 - y_k f(x_k)` (14). On the set S of support vectors
(the points with :math:`e_k > 0`, indicators (10)) the problem is a regularised least
squares problem whose solution only involves S (48):

.. math:: \theta = Y_S A^{-1} (y_S - b 1_S), \qquad
   b = \frac{1_S^T A^{-1} y_S}{1_S^T A^{-1} 1_S}, \qquad A = C^{-1} I_S + K_{SS},

computed from the two systems (58) :math:`A u = 1_S`, :math:`A v = y_S` as
:math:`\theta = Y_S (v - b u)`, :math:`b = 1_S^T v / 1_S^T u` (59). The model is (49)

.. math:: f(x) = \sum_{k \in S} \theta_k y_k K(x, x_k) + b,

so :math:`w = \sum_{k \in S} y_k \theta_k \varphi(x_k)` (52), and at the solution
:math:`\theta = C e_S > 0` (53)-(54), :math:`y_S^T \theta = 0` (51), and the objective
is :math:`J = \theta^T Y_S K_{SS} Y_S \theta + C \sum_k \max(0, e_k)^2` (55)
:math:`= 1_S^T \theta` (56).

The iteration of section 5 (Steps 1-5): start from S = all points (Step 1), solve (48)
on S (Step 3), recompute all errors, let S = {k: e_k > 0} (Step 4, (10)), and stop when
S no longer changes (Step 5). S is optimal exactly when the errors of (48) satisfy
:math:`e_S > 0` and :math:`e_0 \le 0`: the gradient of (6) then vanishes.

This first version refactors :math:`C^{-1} I_S + K_{SS}` by a fresh Cholesky
factorisation at every iteration and evaluates :math:`K(X, X_S)` anew; the reuse of the
factor across iterations by permutations (61)-(64) and the cap n_SVmax of section 5.3
are not implemented.

Notation: the paper writes the Gaussian kernel :math:`\exp(-\gamma \|x - z\|^2)`; here
the RBF kernel is :math:`\exp(-\|x - z\|^2 / \sigma^2)` (3.13), so
``sigma2 = 1 / gamma_paper``. ``C`` keeps the paper's name and meaning (the weight of
the loss in (6)); it is not the book's gamma, nor scikit-learn's C (for the linear
kernel scikit-learn's ``LinearSVC(loss="squared_hinge")`` with ``C = C / 2`` minimises
the same objective up to a factor 2, apart from its penalised intercept).
"""

from __future__ import annotations

import numbers
import warnings
from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_classes, check_positive
from .kernels import make_kernel

__all__ = ["RLSSVMClassifier", "solve_on_support", "Optimality"]


def solve_on_support(K_SS, y_S, C):
    """theta and b of (48) on the support set S, by (58)-(59) with one Cholesky factor.

    Parameters
    ----------
    K_SS : ndarray of shape (n_SV, n_SV)
        Kernel matrix <X_S, X_S> of the support vectors.
    y_S : ndarray of shape (n_SV,)
        Their labels, +1 or -1.
    C : float
        Regularisation constant of (6).

    Returns
    -------
    theta : ndarray of shape (n_SV,)
    b : float

    >>> theta, b = solve_on_support(np.array([[2.0, 0.0], [0.0, 0.0]]),
    ...                             np.array([1.0, -1.0]), 1e4)
    >>> np.round(theta, 4).tolist(), round(b, 4)
    ([0.9999, 0.9999], -0.9999)
    """
    A = np.array(K_SS, dtype=np.float64)
    A.flat[:: len(A) + 1] += 1.0 / C  # A = C^{-1} I_S + <X_S, X_S>, (58)
    factor = cho_factor(A, lower=True)
    u, v = cho_solve(factor, np.column_stack([np.ones(len(y_S)), y_S])).T  # (58)
    b = v.sum() / u.sum()  # (59)
    theta = y_S * (v - b * u)  # (59): theta = Y_S (v - b u)
    return theta, float(b)


class Optimality(NamedTuple):
    """Optimality conditions of (6) at a fitted model, on its training data.

    The indicator set S is optimal when e_S > 0 and e_0 <= 0 (section 5) and the
    gradient of (6) vanishes: with w = sum_S y_k theta_k phi(x_k) (52),
    dJ/dw = 2 w - 2 C sum_k max(0, e_k) y_k phi(x_k) (its feature-space norm, through
    the kernel) and dJ/db = -2 C sum_k max(0, e_k) y_k.
    """

    min_error_support: float  # min over S of e_k; must be > 0
    max_error_outside: float  # max outside S of e_k; must be <= 0 (-inf if none)
    gradient_w_norm: float  # ||dJ/dw|| in feature space
    gradient_b: float  # dJ/db

    def holds(self, tol=1e-8) -> bool:
        """True when e_S > 0, e_0 <= tol and both gradients are below tol."""
        return bool(
            self.min_error_support > 0
            and self.max_error_outside <= tol
            and self.gradient_w_norm <= tol
            and abs(self.gradient_b) <= tol
        )


def _check_max_iter(value, owner):
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not (ok and value >= 1):
        raise ValueError(
            f"{type(owner).__name__}: max_iter must be a positive integer; "
            f"got max_iter={value!r}."
        )


class RLSSVMClassifier(ClassifierMixin, BaseEstimator):
    """L2-loss SVM (6)-(7) solved by the RLS iteration of [Peng16], section 5.

    Binary only. ``classes_[1]`` is coded y = +1, ``classes_[0]`` y = -1.

    Parameters
    ----------
    C : float, default=1.0
        Regularisation constant of (6): the weight of the squared violations.
    kernel : {"rbf", "linear", "poly"}, Kernel or callable, default="rbf"
        See :func:`lssvm.kernels.make_kernel`.
    sigma2 : float, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) (3.13); the paper's Gaussian
        width is gamma = 1 / sigma2.
    degree, tau : int, float
        Polynomial kernel (x^T z + tau)^degree.
    max_iter : int, default=100
        Maximum number of solves of (48) (Steps 2-5). If S still changes, or a set
        of indicators repeats (a cycle), a ConvergenceWarning is issued.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    support_ : ndarray of int
        Indices of the support vectors S (points with e_k > 0), in increasing order.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    theta_ : ndarray of shape (n_SV,)
        The paper's coefficients (48): f(x) = sum_S theta_k y_k K(x, x_k) + b (49);
        ``theta_ = C e_S > 0`` at the solution (53)-(54).
    dual_coef_ : ndarray of shape (n_SV,)
        y_k theta_k, the coefficients of the expansion (49).
    b_ : float
        Unregularised bias of (48).
    e_ : ndarray of shape (n_samples,)
        Training errors e_k = 1 - y_k f(x_k) (14).
    objective_ : float
        Value of (6) at the solution by (55); equal to ``sum(theta_)`` (56) once
        converged.
    objective_path_ : ndarray of shape (``n_iter_``,)
        (55) after each solve of (48).
    n_iter_ : int
        Number of solves of (48).
    converged_ : bool
        Whether S stopped changing within ``max_iter`` solves.
    kernel_ : lssvm.kernels.Kernel

    Examples
    --------
    The four points of the paper's section 6.1 (Table 1), C = 10000:

    >>> X = np.array([[1.1, 1.0], [1.0, 1.0], [0.0, 0.0], [-0.1, 0.0]])
    >>> clf = RLSSVMClassifier(C=1e4, kernel="linear").fit(X, [1, 1, -1, -1])
    >>> clf.support_.tolist(), round(clf.b_, 4)
    ([1, 2], -0.9999)
    """

    def __init__(
        self, *, C=1.0, kernel="rbf", sigma2=1.0, degree=3, tau=1.0, max_iter=100
    ):
        self.C = C
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.max_iter = max_iter

    def fit(self, X, y):
        """Iterate Steps 1-5 of section 5 until the support set S stops changing."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        C = check_positive(
            self.C, "C", meaning="regularisation constant of (6)", owner=self
        )
        _check_max_iter(self.max_iter, self)
        self.classes_ = np.unique(y)
        check_classes(self.classes_.tolist(), owner=self)
        if len(self.classes_) > 2:
            raise ValueError(
                f"{type(self).__name__}: Only binary classification is supported; "
                f"got {len(self.classes_)} classes: {self.classes_.tolist()}."
            )
        self.kernel_ = make_kernel(
            self.kernel, sigma2=self.sigma2, degree=self.degree, tau=self.tau
        )
        y_pm = np.where(y == self.classes_[1], 1.0, -1.0)
        self._iterate(X, y_pm, C)
        return self

    def _iterate(self, X, y_pm, C):
        support = np.arange(len(y_pm))  # Step 1: s_k = 1 for all k
        seen = {support.tobytes()}
        path = []
        self.converged_ = False
        for n_iter in range(1, self.max_iter + 1):
            solved = support
            K_XS = self.kernel_(X, X[support])  # <X, X_S>
            theta, b = solve_on_support(K_XS[support], y_pm[support], C)  # Step 3
            e = 1.0 - y_pm * (K_XS @ (y_pm[support] * theta) + b)  # (57), (14)
            e[support] = theta / C  # (53): exact on S
            path.append(_objective(K_XS[support], y_pm[support], theta, e, C))
            new = np.flatnonzero(e > 0)  # Step 4, (10)
            if np.array_equal(new, support):  # Step 5
                self.converged_ = True
                break
            if new.tobytes() in seen or len(new) == 0:
                warnings.warn(
                    f"{type(self).__name__}: the support set cycles (or is empty) "
                    f"after {n_iter} iterations; the result is not optimal. Try "
                    "another C or kernel.",
                    ConvergenceWarning,
                    stacklevel=3,
                )
                break
            seen.add(new.tobytes())
            support = new
        else:
            warnings.warn(
                f"{type(self).__name__}: the support set still changes after "
                f"max_iter={self.max_iter} iterations; increase max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.support_ = solved  # the set theta_ belongs to
        self.support_vectors_ = X[solved].copy()
        self.theta_, self.b_, self.e_ = theta, b, e
        self.dual_coef_ = y_pm[solved] * theta
        self.objective_ = path[-1]
        self.objective_path_ = np.array(path)
        self.n_iter_ = n_iter

    def decision_function(self, X):
        """f(x) = <x, X_S> Y_S theta + b (49); > 0 for ``classes_[1]``."""
        check_is_fitted(self, "theta_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.kernel_(X, self.support_vectors_) @ self.dual_coef_ + self.b_

    def predict(self, X):
        """Class by the sign of f (5): ``classes_[1]`` where f(x) > 0."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]

    def optimality(self, X, y) -> Optimality:
        """The optimality conditions of (6) on the training data (X, y)."""
        check_is_fitted(self, "theta_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        y_pm = np.where(np.asarray(y) == self.classes_[1], 1.0, -1.0)
        e = 1.0 - y_pm * self.decision_function(X)
        in_S = np.zeros(len(y_pm), dtype=bool)
        in_S[self.support_] = True
        # dJ/dw = 2 sum_k c_k phi(x_k), c = [y theta on S] - C max(0, e) y
        c = -float(self.C) * np.maximum(e, 0.0) * y_pm
        c[self.support_] += self.dual_coef_
        gradient_w_sq = 4.0 * c @ self.kernel_(X, X) @ c
        return Optimality(
            min_error_support=float(e[in_S].min()),
            max_error_outside=float(e[~in_S].max()) if (~in_S).any() else -np.inf,
            gradient_w_norm=float(np.sqrt(max(gradient_w_sq, 0.0))),
            gradient_b=float(-2.0 * float(self.C) * np.sum(np.maximum(e, 0.0) * y_pm)),
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def _objective(K_SS, y_S, theta, e, C) -> float:
    """(55): theta^T Y_S K_SS Y_S theta + C e^T S(e) e."""
    coef = y_S * theta
    return float(coef @ K_SS @ coef + C * np.sum(np.maximum(e, 0.0) ** 2))
