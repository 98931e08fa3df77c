r"""Fisher discriminant analysis, linear and in feature space (Suykens 2002, 3.3).

Linear FDA projects x onto z = w^T x + b and maximises the Rayleigh quotient [S 3.16]

.. math:: J_{FD}(w) = \frac{[w^T(\mu^{(1)} - \mu^{(2)})]^2}{w^T \Sigma_W w},
   \qquad \Sigma_W = S_{W_1} + S_{W_2},

with the sample means [S 3.19] and covariances [S 3.20]; the maximiser is
:math:`w_{FD} \propto \Sigma_W^{-1}(\mu^{(1)} - \mu^{(2)})` [S 3.17], and a point is
classified by the side of the midpoint of the projected means.
:func:`rayleigh_quotient` evaluates [S 3.16] from projected values, so it serves any
direction, in input or feature space.

In feature space, the kernel Fisher discriminant of Mika et al. (1999) writes
w = sum_k a_k phi(x_k); with K the kernel matrix,
:math:`w^T(\mu^{(1)} - \mu^{(2)}) = a^T (m_1 - m_2)`, :math:`m_j = K 1_j / N_j`, and the
pooled within-class scatter is :math:`a^T N a`,
:math:`N = K (I - L) K` with L the block matrix of 1/N_j within each class. The
quotient is maximised, after regularisation, by

.. math:: a \propto (N + \mu P)^{-1} (m_1 - m_2),

P = I (``penalty="identity"``, Mika et al.'s choice) or P = K (``penalty="norm"``:
the penalty mu ||w||^2 in feature space). With ``penalty="norm"`` and mu = 1/gamma
this is, up to scale, the direction of the LS-SVM with targets +-1 or LS-SVM_F's
+N/N_1, -N/N_2 [S 3.23]: see the Fisher chapter for the derivation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import cho_factor, cho_solve, solve
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import NonNegative, check_constraints, validate_params

__all__ = [
    "class_statistics",
    "rayleigh_quotient",
    "fisher_direction",
    "FisherDiscriminant",
    "kernel_fisher_discriminant",
]


def _two_class_masks(y):
    """Masks of class 1 (coded +1: the larger label) and class 2, and the labels."""
    y = np.asarray(y)
    labels = np.unique(y)
    if len(labels) != 2:
        noun = "class" if len(labels) == 1 else "classes"
        raise ValueError(
            f"Fisher discriminant analysis needs exactly 2 classes; got "
            f"{len(labels)} {noun}: {labels.tolist()}. Only binary classification "
            "is supported."
        )
    return y == labels[1], y == labels[0], labels


def _check_reg(reg, owner=None):
    check_constraints(reg, "reg", FisherDiscriminant._parameter_constraints["reg"],
                      owner=owner)  # fmt: skip
    return float(reg)


def class_statistics(X, y):
    """Sample means [S 3.19] and covariances [S 3.20] of class 1 and class 2.

    Class 1 is the larger label (coded +1 by the LS-SVM), class 2 the smaller.

    Returns
    -------
    means : ndarray of shape (2, n_features)
    covariances : ndarray of shape (2, n_features, n_features)
        Normalised by N_j - 1, as [S 3.20].
    counts : ndarray of shape (2,)
    """
    X = np.asarray(X, dtype=np.float64)
    one, two, _ = _two_class_masks(y)
    if min(one.sum(), two.sum()) < 2:
        raise ValueError(
            "Each class needs at least 2 points for its sample covariance [S 3.20]; "
            f"got {one.sum()} and {two.sum()}."
        )
    means = np.array([X[one].mean(axis=0), X[two].mean(axis=0)])
    covariances = np.array(
        [np.atleast_2d(np.cov(X[m], rowvar=False, ddof=1)) for m in (one, two)]
    )
    return means, covariances, np.array([one.sum(), two.sum()])


def rayleigh_quotient(z, y) -> float:
    """J_FD of [S 3.16] for projected values z_k = w^T x_k + b (or w^T phi(x_k) + b).

    (difference of the class means of z)^2 / (sum of the class variances of z), the
    variances normalised by N_j - 1 as in [S 3.20]; independent of b and of the scale
    of w.
    """
    z = np.asarray(z, dtype=np.float64).ravel()
    if len(z) != len(y):
        raise ValueError(
            f"z and y must have the same length; got {len(z)} and {len(y)}."
        )
    one, two, _ = _two_class_masks(y)
    between = (z[one].mean() - z[two].mean()) ** 2
    within = z[one].var(ddof=1) + z[two].var(ddof=1)
    return float(between / within)


def fisher_direction(X, y, *, reg=0.0) -> NDArray[np.float64]:
    """Unit vector along (Sigma_W + reg I)^{-1} (mu_1 - mu_2), [S 3.17].

    Sigma_W = S_W1 + S_W2 [S 3.20]. ``reg`` > 0 regularises a singular Sigma_W.
    """
    reg = _check_reg(reg)
    means, covariances, _ = class_statistics(X, y)
    d = means[0] - means[1]
    if not np.any(d):
        raise ValueError("The two class means are equal: [S 3.17] has no direction.")
    Sigma_W = covariances[0] + covariances[1] + reg * np.eye(means.shape[1])
    try:
        w = solve(Sigma_W, d, assume_a="pos")  # [S 3.17]
    except np.linalg.LinAlgError:
        raise ValueError(
            "Sigma_W = S_W1 + S_W2 is singular (e.g. more features than points); "
            "set reg > 0."
        ) from None
    return w / np.linalg.norm(w)


class FisherDiscriminant(ClassifierMixin, BaseEstimator):
    """Linear Fisher discriminant: direction [S 3.17], midpoint rule.

    Parameters
    ----------
    reg : float, default=0.0
        Added to the diagonal of Sigma_W (needed when it is singular, e.g. n > N).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is class 1 (positive side of the line).
    coef_ : ndarray of shape (n_features,)
        Unit direction w_FD.
    intercept_ : float
        b = -w^T (mu_1 + mu_2) / 2: the midpoint of the projected means is at 0.
    means_, covariances_ : the statistics [S 3.19-3.20], class 1 first.

    Examples
    --------
    >>> from lssvm.datasets import gaussian_classes
    >>> X, y = gaussian_classes(random_state=0)
    >>> fda = FisherDiscriminant().fit(X, y)
    >>> round(float(fda.score(X, y)), 2)
    0.94
    """

    _parameter_constraints = {"reg": [NonNegative("ridge added to Sigma_W")]}

    def __init__(self, *, reg=0.0):
        self.reg = reg

    def fit(self, X, y):
        validate_params(self)  # the constraints table, once
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        self.means_, self.covariances_, _ = class_statistics(X, y)
        self.coef_ = fisher_direction(X, y, reg=self.reg)
        self.intercept_ = float(-self.coef_ @ (self.means_[0] + self.means_[1]) / 2)
        return self

    def decision_function(self, X):
        """z = w^T x + b [S 3.15]; > 0 on the side of class 1 (``classes_[1]``)."""
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_ + self.intercept_

    def predict(self, X):
        """Class by the side of the midpoint: ``classes_[1]`` where z > 0."""
        check_is_fitted(self, "coef_")
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def kernel_fisher_discriminant(K, y, *, mu=1e-3, penalty="identity"):
    """Regularised kernel Fisher discriminant (Mika et al. 1999) from the kernel matrix.

    Maximises a^T M a / a^T (N + mu P) a, M = (m_1 - m_2)(m_1 - m_2)^T: the
    generalised eigenproblem M a = lambda (N + mu P) a, whose only nonzero
    eigenvalue has a = (N + mu P)^{-1} (m_1 - m_2) (M has rank one).

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    y : array of shape (n_samples,), two labels; the larger is class 1.
    mu : float
        Regularisation constant, > 0.
    penalty : {"identity", "norm"}
        P = I (Mika et al.) or P = K (mu ||w||^2 in feature space).

    Returns
    -------
    a : ndarray of shape (n_samples,)
        Expansion coefficients of w = sum_k a_k phi(x_k), scaled so that the
        projected class means differ by 1 (class 1 above).
    b : float
        Midpoint rule: the projection sum_k a_k K(x, x_k) + b is 0 halfway between
        the projected class means.
    """
    K = np.asarray(K, dtype=np.float64)
    one, two, _ = _two_class_masks(y)
    if not (np.isfinite(mu) and mu > 0):
        raise ValueError(f"mu must be a positive float; got mu={mu!r}.")
    if penalty not in ("identity", "norm"):
        raise ValueError(
            f"penalty must be 'identity' or 'norm'; got penalty={penalty!r}."
        )
    m1, m2 = K[:, one].mean(axis=1), K[:, two].mean(axis=1)
    Kc = K.copy()  # K (I - L): subtract each class's mean column within the class
    Kc[:, one] -= m1[:, None]
    Kc[:, two] -= m2[:, None]
    if penalty == "identity":
        N = Kc @ Kc.T  # = K (I - L) K, since (I - L) is a symmetric projection
        N.flat[:: len(K) + 1] += mu
        a = cho_solve(cho_factor(N), m1 - m2)
    else:
        # N + mu K = K ((I - L) K + mu I) and m1 - m2 = K v, v = 1_1/N_1 - 1_2/N_2:
        # solving the right factor avoids the (often near-singular) product with K
        v = one / one.sum() - two / two.sum()
        a = solve(Kc.T + mu * np.eye(len(K)), v)  # Kc.T = (I - L) K
    scale = a @ (m1 - m2)  # projected mean difference
    a = a / scale
    b = -0.5 * (a @ m1 + a @ m2)
    return a, float(b)
