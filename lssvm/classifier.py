r"""Binary LS-SVM classifier, Suykens et al. (2002), (3.1)-(3.7).

Primal (3.1): minimise :math:`\tfrac12 w^T w + \gamma \tfrac12 \sum_k e_k^2` subject to
:math:`y_k [w^T\varphi(x_k) + b] = 1 - e_k`. Dual (3.5): the bordered KKT system with
:math:`\Omega_{kl} = y_k y_l K(x_k, x_l)` (3.6). Model (3.7):
:math:`y(x) = \mathrm{sign}[\sum_k \alpha_k y_k K(x, x_k) + b]`.

The fit never forms Omega: with :math:`D = \mathrm{diag}(y)`,
:math:`\Omega + I/\gamma = D (K + I/\gamma) D`, so the solver factors
:math:`K + I/\gamma` (built in place, lower triangle only) and applies the signs to
the right-hand sides.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._base import LSSVMBase
from ._validation import check_two_classes

__all__ = ["LSSVMClassifier"]


class LSSVMClassifier(ClassifierMixin, LSSVMBase):
    """LS-SVM classifier for two classes: dual system (3.5), model (3.7).

    Parameters
    ----------
    gamma, kernel, sigma2, degree, tau, solver
        See :class:`lssvm._base.LSSVMBase`: regularization constant of (3.1), kernel
        (RBF width ``sigma2`` as in (3.13)), and the KKT solver.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[0]`` is coded y = -1, ``classes_[1]`` y = +1.
    alpha_ : ndarray of shape (n_samples,)
        Support values alpha_k of (3.5), in the book's convention: the model is
        sum_k alpha_k y_k K(x, x_k) + b (3.7).
    b_ : float
        Bias term.
    e_ : ndarray of shape (n_samples,)
        Errors e_k = alpha_k / gamma (3.4).
    dual_coef_ : ndarray of shape (n_samples,)
        alpha_k y_k, the coefficients of K(x, x_k) in the model.
    support_vectors_ : ndarray of shape (n_samples, n_features)
        The training inputs: every point is a support vector (no sparseness).
    kernel_ : Kernel
        The kernel object built from ``kernel``, ``sigma2``, ``degree``, ``tau``.
    n_iter_ : int
        CG iterations (0 for the direct solver).
    n_features_in_ : int

    Examples
    --------
    >>> from lssvm import LSSVMClassifier
    >>> from lssvm.datasets import two_spirals
    >>> X, y = two_spirals(random_state=0)
    >>> clf = LSSVMClassifier(gamma=10.0, sigma2=1.0).fit(X, y)
    >>> float(clf.score(X, y))
    1.0
    """

    def fit(self, X, y):
        """Solve the KKT system (3.5) for the training data (X, y)."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        check_two_classes(self.classes_.tolist(), owner=self)
        y_pm = 2.0 * y_index - 1.0  # classes_[0] -> -1, classes_[1] -> +1
        # (3.5): a = y, d = 1_v, Omega = D K D with D = diag(y) (3.6).
        self._fit_kkt(X, a=y_pm, d=np.ones_like(y_pm), signs=y_pm)
        self.dual_coef_ = self.alpha_ * y_pm  # alpha_k y_k of (3.7)
        return self

    def decision_function(self, X):
        """Latent output sum_k alpha_k y_k K(x, x_k) + b of (3.7); > 0: classes_[1]."""
        return self._latent(X)

    def predict(self, X):
        """Class labels by the sign of the decision function (3.7)."""
        latent = self.decision_function(X)  # checks that the model is fitted
        return self.classes_[(latent > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
