r"""Graph regularisation: Laplacian RLS / LS-SVM and the Laplacian SVM [C8 §8.2.3, §8.2.5].

Belkin, Niyogi & Sindhwani (2006) add to the supervised cost a penalty on the
variation of f over a graph built from labelled *and* unlabelled points:

.. math:: \min_f\ \frac1l \sum_{i=1}^l V(x_i, y_i, f)
          + \gamma_A \|f\|_K^2 + \frac{\gamma_I}{(l+u)^2}\, \mathbf f^T L\, \mathbf f ,

with :math:`\mathbf f = [f(x_1), \dots, f(x_{l+u})]^T` and L the graph Laplacian.
Sindhwani, Niyogi & Belkin (2005) show that the two penalties together are the norm
of another reproducing-kernel Hilbert space, whose kernel is the *deformed kernel*

.. math:: \tilde k(x, z) = k(x, z) - k_x^T (I + M K)^{-1} M\, k_z, \qquad
          M = \frac{\gamma_I}{\gamma_A (l+u)^2} L^p ,

with :math:`k_x = [k(x, x_1), \dots, k(x, x_{l+u})]^T` and K the Gram matrix of
all l + u points. The semi-supervised problem is then a *supervised* problem on the
l labelled points with :math:`\tilde k` and the ambient penalty alone, so

- :class:`LapRLSClassifier` (squared loss, V = (y - f)^2) is the ordinary LS-SVM
  classifier (:class:`lssvm.LSSVMClassifier`, ``kernel="precomputed"``, solved by
  :func:`lssvm.linalg.solvers.solve_bordered_kkt`) with gamma = 1/(gamma_A l);
- :class:`LapSVMClassifier` (hinge loss) is scikit-learn's ``SVC`` on
  :math:`\tilde k` with C = 1/(2 gamma_A l).

The bias b is kept outside both penalties (as in the LS-SVM): the graph term acts on
the kernel part g of f = g + b. For the unnormalised Laplacian, L 1 = 0, so this is
the same as penalising f itself.

:func:`graph_regression` is the transductive relative [C8 §8.2.3]: a value per graph
node, either the harmonic solution of Zhu, Ghahramani & Lafferty (2003) or the
Laplacian-regularised least squares on the graph.

Sources: M. Belkin, P. Niyogi, V. Sindhwani, Manifold regularization, JMLR 7 (2006);
V. Sindhwani, P. Niyogi, M. Belkin, Beyond the point cloud, ICML 2005;
[C8 §8.2.3], [C8 §8.2.5].
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve
from scipy.sparse.csgraph import connected_components
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neighbors import kneighbors_graph
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import KERNEL_CONSTRAINTS
from .._validation import (
    Boolean,
    Count,
    NonNegative,
    Options,
    Positive,
    check_count,
    check_finite_output,
    check_positive,
    owner_prefix,
    validate_params,
)
from ..classifier import LSSVMClassifier
from ..kernels import make_kernel
from ..linalg.memory import check_dense_memory

__all__ = [
    "LapRLSClassifier",
    "LapSVMClassifier",
    "graph_laplacian",
    "deformed_kernel_factor",
    "graph_regression",
    "GRAPH_WEIGHTS",
]

GRAPH_WEIGHTS = ("connectivity", "heat")
UNLABELLED = -1


def graph_laplacian(
    X, *, n_neighbors=6, weights="connectivity", graph_sigma2=1.0, normalized=False,
    owner=None,
):  # fmt: skip
    r"""Laplacian of the symmetrised k-nearest-neighbour graph of the rows of X.

    W_ij > 0 when x_j is among the k nearest neighbours of x_i or x_i among those of
    x_j; the weight is 1 ("connectivity") or exp(-||x_i - x_j||^2 / graph_sigma2)
    ("heat"). L = D - W, or I - D^{-1/2} W D^{-1/2} with ``normalized=True``.

    Returns
    -------
    L, W : ndarrays of shape (n_samples, n_samples)
    """
    n = len(X)
    k = check_count(
        n_neighbors, "n_neighbors", minimum=1, meaning="neighbours of the kNN graph",
        owner=owner,
    )  # fmt: skip
    if k >= n:
        raise ValueError(
            f"{owner_prefix(owner)}n_neighbors "
            f"must be smaller than the number of points ({n}); got n_neighbors={k}."
        )
    if weights not in GRAPH_WEIGHTS:
        raise ValueError(
            f"{owner_prefix(owner)}weights must "
            f"be one of {list(GRAPH_WEIGHTS)}; got weights={weights!r}."
        )
    if weights == "heat":
        width = check_positive(
            graph_sigma2, "graph_sigma2", meaning="width of the heat weights",
            owner=owner,
        )  # fmt: skip
        D2 = kneighbors_graph(X, k, mode="distance").toarray() ** 2
        A = kneighbors_graph(X, k, mode="connectivity").toarray()
        W = np.where(A > 0, np.exp(-D2 / width), 0.0)  # a duplicate point: weight 1
    else:
        W = kneighbors_graph(X, k, mode="connectivity").toarray()
    W = np.maximum(W, W.T)  # symmetrise: an edge if either point picks the other
    deg = W.sum(axis=1)
    if normalized:
        s = 1.0 / np.sqrt(deg)
        L = np.eye(n) - s[:, None] * W * s[None, :]
    else:
        L = np.diag(deg) - W
    return L, W


def deformed_kernel_factor(K, M):
    r"""G = (I + M K)^{-1} M, so that k~(x, z) = k(x, z) - k_x^T G k_z.

    K : Gram matrix of the l + u graph points; M : the scaled Laplacian. G is
    symmetric (it equals (M^{-1} + K)^{-1} when M is invertible); it is
    symmetrised against round-off.
    """
    n = K.shape[0]
    G = solve(np.eye(n) + M @ K, M)  # (I + M K)^{-1} M  [Sindhwani et al. 2005]
    return 0.5 * (G + G.T)


class _LaplacianBase(ClassifierMixin, BaseEstimator):
    """Shared fit: the graph, the deformed kernel on the labelled points."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # two classes (and unlabelled -1)
        return tags

    def __init__(
        self, *, gamma_A=1e-2, gamma_I=1.0, kernel="rbf", sigma2=1.0, degree=3,
        tau=1.0, n_neighbors=6, weights="connectivity", graph_sigma2=1.0,
        normalized=False, laplacian_power=1, fit_intercept=True,
    ):  # fmt: skip
        self.gamma_A = gamma_A
        self.gamma_I = gamma_I
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.graph_sigma2 = graph_sigma2
        self.normalized = normalized
        self.laplacian_power = laplacian_power
        self.fit_intercept = fit_intercept

    _parameter_constraints = {
        "gamma_A": [Positive("weight of the ambient norm ||f||_K^2")],
        "gamma_I": [NonNegative("weight of the graph penalty f^T L f")],
        **KERNEL_CONSTRAINTS,
        "n_neighbors": [Count(1, "neighbours of the kNN graph")],
        "weights": [Options(GRAPH_WEIGHTS)],
        "graph_sigma2": [Positive("width of the heat weights")],
        "normalized": [Boolean("normalised Laplacian")],
        "laplacian_power": [Count(1, "power p of L^p")],
        "fit_intercept": [Boolean("fit the bias term b")],
    }

    def _deformed_gram(self, X, y):
        """The deformed kernel; the parameters are validated at the start of fit."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        gamma_A, gamma_I = float(self.gamma_A), float(self.gamma_I)
        p = int(self.laplacian_power)
        if self.kernel == "precomputed":
            raise ValueError(
                f"{type(self).__name__}: kernel='precomputed' is not supported (the "
                "graph needs the inputs); got kernel='precomputed'."
            )
        kernel = make_kernel(
            self.kernel, sigma2=self.sigma2, degree=self.degree, tau=self.tau
        )
        labelled = np.asarray(y != UNLABELLED) if y.dtype.kind in "iuf" else (
            np.ones(len(y), dtype=bool)
        )  # fmt: skip
        classes = np.unique(y[labelled])
        if len(classes) != 2:
            raise ValueError(
                f"{type(self).__name__} needs exactly 2 classes among the labelled "
                f"points (label -1 marks unlabelled points); got {len(classes)} "
                f"class{'' if len(classes) == 1 else 'es'}: {classes.tolist()}. Only "
                "binary classification is supported."
            )
        n, l = len(y), int(labelled.sum())
        L, _ = graph_laplacian(
            X, n_neighbors=self.n_neighbors, weights=self.weights,
            graph_sigma2=self.graph_sigma2, normalized=self.normalized, owner=self,
        )  # fmt: skip
        # M = gamma_I / (gamma_A (l + u)^2) L^p: the graph part of the deformed norm
        check_dense_memory(  # K, L^p, M and the factor G: about 4 n x n matrices
            n, n_matrices=4, what=f"{type(self).__name__} (the n x n kernel and "
            "graph matrices of all points)", alternative="use fewer unlabelled "
            "points", owner=self,
        )  # fmt: skip
        M = gamma_I / (gamma_A * n**2) * np.linalg.matrix_power(L, p)
        K = check_finite_output(kernel(X), kernel, owner=self)  # (n, n), all points
        G = deformed_kernel_factor(K, M)
        K_lab = K[:, labelled]  # k_z for the labelled z, (n, l)
        self.G_lab_ = G @ K_lab  # (n, l): k~(x, z_lab) = k(x, z_lab) - k_x^T G_lab
        K_tilde = K[labelled][:, labelled] - K_lab.T @ self.G_lab_
        self.kernel_ = kernel
        self.X_fit_ = X
        self.labelled_ = np.flatnonzero(labelled)
        self.classes_ = classes
        self.n_labelled_ = l
        self.laplacian_ = L
        return 0.5 * (K_tilde + K_tilde.T), y[labelled], gamma_A, l

    def deformed_kernel(self, X):
        """k~(x, x_i) between the rows of X and the labelled training points."""
        check_is_fitted(self, "G_lab_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        K_all = self.kernel_(X, self.X_fit_)  # (n_test, n)
        return K_all[:, self.labelled_] - K_all @ self.G_lab_

    def decision_function(self, X):
        """f(x) = sum_i beta_i k~(x, x_i) + b over the labelled x_i (> 0: classes_[1])."""
        check_is_fitted(self, "model_")
        return self.model_.decision_function(self.deformed_kernel(X))

    def predict(self, X):
        """The class of the sign of the decision value."""
        check_is_fitted(self, "model_")
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


class LapRLSClassifier(_LaplacianBase):
    r"""Laplacian regularised least squares / Laplacian LS-SVM classifier [C8 §8.2.3].

    Squared loss on the labelled points, ambient penalty gamma_A ||f||_K^2 and graph
    penalty gamma_I / (l+u)^2 f^T L^p f over all points (Belkin et al. 2006). Fitted
    as the LS-SVM classifier [S 3.5] on the deformed kernel, with
    gamma = 1 / (gamma_A l) (the LS-SVM cost 1/2 ||w||^2 + gamma/2 sum e^2 divided by
    gamma l / 2).

    Parameters
    ----------
    gamma_A : float, default=1e-2
        Ambient weight (> 0). The LS-SVM's gamma is 1 / (gamma_A l).
    gamma_I : float, default=1.0
        Intrinsic (graph) weight (>= 0); 0 gives the supervised LS-SVM on the
        labelled points.
    kernel, sigma2, degree, tau
        Base kernel, as in :class:`lssvm.LSSVMClassifier` (not "precomputed").
    n_neighbors : int, default=6
        k of the symmetrised kNN graph over labelled and unlabelled points.
    weights : {"connectivity", "heat"}, default="connectivity"
        Edge weights 1 or exp(-||x_i - x_j||^2 / graph_sigma2).
    graph_sigma2 : float, default=1.0
        Width of the heat weights.
    normalized : bool, default=False
        L = I - D^{-1/2} W D^{-1/2} instead of D - W.
    laplacian_power : int, default=1
        p in L^p.
    fit_intercept : bool, default=True
        False: no bias; the solution is then exactly Belkin et al.'s
        alpha = (J K + gamma_A l I + gamma_I l/(l+u)^2 L K)^{-1} Y.

    Fit with ``y`` in which -1 marks the unlabelled points (as scikit-learn's
    semi-supervised estimators): the labelled classes must be two labels other than -1.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels other than -1, sorted; ``classes_[1]`` is coded +1.
    labelled_ : ndarray of shape (n_labelled,)
        Row indices of the labelled points in the training X.
    n_labelled_ : int
    laplacian_ : ndarray of shape (n_samples, n_samples)
        The graph Laplacian L of all training points.
    kernel_ : Kernel
        The base kernel k.
    G_lab_ : ndarray of shape (n_samples, n_labelled)
        (I + M K)^{-1} M K[:, labelled], so that
        k~(x, z_lab) = k(x, z_lab) - k_x^T ``G_lab_``.
    model_ : LSSVMClassifier
        The LS-SVM fitted on the deformed Gram matrix of the labelled points
        (``kernel="precomputed"``).
    X_fit_ : ndarray of shape (n_samples, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.05, random_state=0)
    >>> y_semi = np.full(200, -1)
    >>> y_semi[[np.flatnonzero(y == 0)[0], np.flatnonzero(y == 1)[0]]] = [0, 1]
    >>> clf = LapRLSClassifier(gamma_A=0.01, gamma_I=1e6, sigma2=0.1).fit(X, y_semi)
    >>> float(clf.score(X, y))
    1.0
    """

    def fit(self, X, y):
        validate_params(self)  # the constraints table, once
        K_tilde, y_lab, gamma_A, l = self._deformed_gram(X, y)
        self.model_ = LSSVMClassifier(
            gamma=1.0 / (gamma_A * l), kernel="precomputed",
            fit_intercept=self.fit_intercept,
        ).fit(K_tilde, y_lab)  # [S 3.5] on the deformed kernel
        return self


class LapSVMClassifier(_LaplacianBase):
    r"""Laplacian support vector machine [C8 §8.2.5] (Belkin et al. 2006).

    Hinge loss on the labelled points with the ambient and graph penalties of
    :class:`LapRLSClassifier`; fitted as scikit-learn's ``SVC(kernel="precomputed")``
    on the deformed kernel with C = 1 / (2 gamma_A l) (SVC's cost
    1/2 ||w||^2 + C sum xi divided by C l). The bias is always fitted (LIBSVM's).

    Parameters
    ----------
    gamma_A, gamma_I, kernel, sigma2, degree, tau
        As in :class:`LapRLSClassifier`.
    n_neighbors, weights, graph_sigma2, normalized, laplacian_power
        As in :class:`LapRLSClassifier`.
    fit_intercept : bool, default=True
        Must stay True: LIBSVM always fits the bias.
    tol : float, default=1e-3
        LIBSVM's stopping tolerance.

    Notes
    -----
    The fitted attributes are those of :class:`LapRLSClassifier`, with ``model_``
    the fitted ``sklearn.svm.SVC``.
    """

    def __init__(
        self, *, gamma_A=1e-2, gamma_I=1.0, kernel="rbf", sigma2=1.0, degree=3,
        tau=1.0, n_neighbors=6, weights="connectivity", graph_sigma2=1.0,
        normalized=False, laplacian_power=1, fit_intercept=True, tol=1e-3,
    ):  # fmt: skip
        super().__init__(
            gamma_A=gamma_A, gamma_I=gamma_I, kernel=kernel, sigma2=sigma2,
            degree=degree, tau=tau, n_neighbors=n_neighbors, weights=weights,
            graph_sigma2=graph_sigma2, normalized=normalized,
            laplacian_power=laplacian_power, fit_intercept=fit_intercept,
        )  # fmt: skip
        self.tol = tol

    _parameter_constraints = {
        **_LaplacianBase._parameter_constraints,
        "fit_intercept": [Options((True,), "LIBSVM always fits the bias")],
        "tol": [Positive("LIBSVM tolerance")],
    }

    def fit(self, X, y):
        validate_params(self)  # the constraints table, once
        tol = float(self.tol)
        K_tilde, y_lab, gamma_A, l = self._deformed_gram(X, y)
        self.model_ = SVC(
            kernel="precomputed", C=1.0 / (2.0 * gamma_A * l), tol=tol
        ).fit(K_tilde, y_lab)  # hinge loss on the deformed kernel
        return self


def graph_regression(L, y, labelled, *, mu=None):
    r"""Values on the graph nodes from labels on some of them [C8 §8.2.3].

    ``mu=None``: the harmonic solution (Zhu, Ghahramani & Lafferty 2003): f equals y
    on the labelled nodes and (L f)_u = 0 on the others,
    f_u = -L_uu^{-1} L_ul y_l (each unlabelled value the weighted mean of its
    neighbours for L = D - W). ``mu > 0``: Laplacian-regularised least squares on
    the graph, min_f sum_{i labelled} (f_i - y_i)^2 + mu f^T L f, i.e.
    (J + mu L) f = J y with J the diagonal indicator of the labelled nodes; it tends
    to the harmonic solution as mu -> 0.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Graph Laplacian (:func:`graph_laplacian`).
    y : ndarray of shape (n,)
        Targets; only the labelled entries are read.
    labelled : ndarray of bool of shape (n,)
    mu : float or None

    Returns
    -------
    f : ndarray of shape (n,)
    """
    L = np.asarray(L, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    lab = np.asarray(labelled, dtype=bool)
    if L.shape != (len(y), len(y)) or lab.shape != y.shape:
        raise ValueError(
            f"graph_regression: L must be ({len(y)}, {len(y)}) and labelled of shape "
            f"({len(y)},); got L {L.shape}, labelled {lab.shape}."
        )
    n_comp, comp = connected_components(np.abs(L) > 0, directed=False)
    unlabelled_comps = np.setdiff1d(np.arange(n_comp), comp[lab])
    if len(unlabelled_comps):
        raise ValueError(
            f"graph_regression: {len(unlabelled_comps)} of the {n_comp} connected "
            "components of the graph hold no labelled node, so their values are not "
            "determined; label a node in each component or use more neighbours."
        )
    if mu is None:
        f = np.where(lab, y, 0.0)
        u = ~lab
        # (L f)_u = 0: L_uu f_u = -L_ul y_l
        f[u] = solve(L[np.ix_(u, u)], -L[np.ix_(u, lab)] @ y[lab], assume_a="pos")
        return f
    mu = check_positive(mu, "mu", meaning="weight of f^T L f", owner="graph_regression")
    J = np.diag(lab.astype(np.float64))
    return solve(J + mu * L, J @ y)  # (J + mu L) f = J y
