r"""The L2-loss SVM solved in the primal by regularised least squares [Peng16].

Peng, Rafferty & Ferguson (2016) minimise, with an unregularised bias b, [P 6-7]

.. math:: J(w, b) = w^T w + C \sum_{k=1}^N \max(0, 1 - y_k f(x_k))^2,
   \qquad f(x) = w^T \varphi(x) + b,

with the errors :math:`e_k = 1 - y_k f(x_k)` [P 14]. On the set S of support vectors
(the points with :math:`e_k > 0`, indicators [P 10]) the problem is a regularised least
squares problem whose solution only involves S [P 48]:

.. math:: \theta = Y_S A^{-1} (y_S - b 1_S), \qquad
   b = \frac{1_S^T A^{-1} y_S}{1_S^T A^{-1} 1_S}, \qquad A = C^{-1} I_S + K_{SS},

computed from the two systems [P 58] :math:`A u = 1_S`, :math:`A v = y_S` as
:math:`\theta = Y_S (v - b u)`, :math:`b = 1_S^T v / 1_S^T u` [P 59]. The model is [P 49]

.. math:: f(x) = \sum_{k \in S} \theta_k y_k K(x, x_k) + b,

so :math:`w = \sum_{k \in S} y_k \theta_k \varphi(x_k)` [P 52], and at the solution
:math:`\theta = C e_S > 0` [P 53-54], :math:`y_S^T \theta = 0` [P 51], and the objective
is :math:`J = \theta^T Y_S K_{SS} Y_S \theta + C \sum_k \max(0, e_k)^2` [P 55]
:math:`= 1_S^T \theta` [P 56].

The iteration of [P §5] (Steps 1-5): start from S = all points (Step 1), solve [P 48]
on S (Step 3), recompute all errors, let S = {k: e_k > 0} (Step 4, [P 10]), and stop when
S no longer changes (Step 5). S is optimal exactly when the errors of [P 48] satisfy
:math:`e_S > 0` and :math:`e_0 \le 0`: the gradient of [P 6] then vanishes.

Reuse of the factor between iterations ([P §5.2-5.3]). With ``reuse_factor=True`` the
lower Cholesky factor L of :math:`A_S` (the paper's :math:`L D L^T`, computed by the
recursion [P 61], with :math:`D^{1/2}` folded into L) and the kernel columns
:math:`K(X, X_S)` are kept from one iteration to the next. What is reused differs from
the paper. The paper brings the q points common to the old and the new set to the
front of the old order by switches of neighbouring rows, each an O(n_SV) update of two
columns of the factor [P 63-64], so that the factor rows of all q common points are
kept and only the rows of new points are computed by [P 61]. Here only the longest
common *prefix* is kept: the points of the old order before the first removed point
(the set R) keep their factor rows unchanged. All points after it (the kept points
that follow the first removed one, and the added set P) form the trailing block T,
factorised afresh by [P 61] from the Schur complement
:math:`A_{TT} - L_{TH} L_{TH}^T`, at a cost of order :math:`|T|^3`; the rows
:math:`L_{TH}` of kept points are read off the old factor and those of added points
come from one triangular solve with the kept leading block. The factor is the same as
the paper's; the saving is smaller whenever a point early in the old order leaves S.
Only the columns :math:`K(X, X_P)` of added points are evaluated, as in the paper. The
trailing points are ordered by decreasing error, so that the points with small errors
(which may leave S at the next step) sit at the end of the factor. When
:math:`|R| + |P| > |S|/4` (and on the first solve) the factor is computed afresh by
[P 61] (the kernel columns of kept points are still reused). The results agree with the
fresh factorisation of every iteration (``reuse_factor=False``) to rounding.

The cap :math:`n_{SVMax}` of [P §5.3] (``n_sv_max``): when it is smaller than N the
initial S (Step 1) is a stratified sample of ``n_sv_max`` points, each class
contributing in proportion to its size (drawn with ``random_state``), and at Step 4 at
most ``n_sv_max`` points with positive errors are kept, those with the largest errors.
The solution of [P 6] is unaffected as long as the cap is not smaller than its number of
support vectors. If the cap binds at the end (points with positive error are left
out of S), the result is not the minimiser of [P 6] and a ConvergenceWarning is issued.

Notation: the paper writes the Gaussian kernel :math:`\exp(-\gamma \|x - z\|^2)`; here
the RBF kernel is :math:`\exp(-\|x - z\|^2 / \sigma^2)` [S 3.13], so
``sigma2 = 1 / gamma_paper``. ``C`` keeps the paper's name and meaning (the weight of
the loss in [P 6]); it is not the book's gamma, nor scikit-learn's C (for the linear
kernel scikit-learn's ``LinearSVC(loss="squared_hinge")`` with ``C = C / 2`` minimises
the same objective up to a factor 2, apart from its penalised intercept).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import probability as prob
from .._base import ACCEPT_SPARSE, KERNEL_CONSTRAINTS
from .._validation import (
    GAMMA_MEANING,
    Boolean,
    Count,
    NoneValue,
    Positive,
    RandomState,
    check_classes,
    check_finite_output,
    check_kernel,
    positive_weight_rows,
    validate_params,
)
from ..kernels import Precomputed, fit_view
from ..linalg.factor import CholeskyFactor, NotPositiveDefiniteError
from ..linalg.memory import check_dense_memory
from ..linalg.solvers import solve_bordered_kkt

__all__ = ["RLSSVMClassifier", "solve_on_support", "Optimality"]

# Above this fraction of |S| changed (|R| + |P|), the factor is computed afresh.
_MAX_CHANGE_FOR_REUSE = 0.25


def solve_on_support(K_SS, y_S, C):
    """theta and b of [P 48] on the support set S, by [P 58-59] with one Cholesky factor.

    Parameters
    ----------
    K_SS : ndarray of shape (n_SV, n_SV)
        Kernel matrix <X_S, X_S> of the support vectors.
    y_S : ndarray of shape (n_SV,)
        Their labels, +1 or -1.
    C : float or ndarray of shape (n_SV,)
        Regularisation constant of [P 6]; one per point for sample weights (C w_k).

    Returns
    -------
    theta : ndarray of shape (n_SV,)
    b : float

    >>> theta, b = solve_on_support(np.array([[2.0, 0.0], [0.0, 0.0]]),
    ...                             np.array([1.0, -1.0]), 1e4)
    >>> np.round(theta, 4).tolist(), round(b, 4)
    ([0.9999, 0.9999], -0.9999)
    """
    factor = CholeskyFactor.from_kernel(K_SS, C)  # A = C^{-1} I_S + <X_S, X_S> [P 58]
    return _solve_p48(factor, np.asarray(y_S, dtype=np.float64))


def _solve_p48(factor, y_S):
    """theta and b of [P 48] from the factor of A = C^{-1} I_S + K_SS (y_S in its order).

    [P 58-59] is the LS-SVM regression system [S 3.32] with gamma_k = C_k: A u = 1_S,
    A v = y_S [P 58], b = 1_S^T v / 1_S^T u, theta = Y_S (v - b u) [P 59], i.e. the
    elimination [S 3.25] with the border 1_S, whose alpha is Y_S theta: two
    triangular solves on the factor (:func:`lssvm.linalg.solvers.solve_bordered_kkt`
    with ``factor=``).
    """
    sol = solve_bordered_kkt(  # [P 58-59]
        None, None, np.ones(len(y_S)), y_S, factor=factor
    )
    return y_S * sol.alpha, float(sol.b)  # theta = Y_S (v - b u)


class Optimality(NamedTuple):
    """Optimality conditions of [P 6] at a fitted model, on its training data.

    The indicator set S is optimal when e_S > 0 and e_0 <= 0 ([P §5]) and the
    gradient of [P 6] vanishes: with w = sum_S y_k theta_k phi(x_k) [P 52],
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


def _stratified_initial_set(y_pm, n_sv_max, rng):
    """Step 1 with a cap ([P §5.3]): a uniform fraction of each class."""
    classes = [np.flatnonzero(y_pm < 0), np.flatnonzero(y_pm > 0)]
    sizes = np.array([len(c) for c in classes])
    k_pos = int(round(n_sv_max * sizes[1] / len(y_pm)))
    k_pos = min(max(k_pos, 1), n_sv_max - 1, sizes[1])
    k_neg = min(n_sv_max - k_pos, sizes[0])
    picked = [rng.choice(c, k, replace=False) for c, k in zip(classes, (k_neg, k_pos))]
    return np.sort(np.concatenate(picked))


def _select_support(e, n_sv_max):
    """Step 4, [P 10]: S = {k: e_k > 0}, at most n_sv_max of the largest errors ([P §5.3])."""
    candidates = np.flatnonzero(e > 0)
    if n_sv_max is not None and len(candidates) > n_sv_max:
        largest = np.argsort(-e[candidates], kind="stable")[:n_sv_max]
        candidates = np.sort(candidates[largest])
    return candidates


class RLSSVMClassifier(ClassifierMixin, BaseEstimator):
    """L2-loss SVM [P 6-7] solved by the RLS iteration of [Peng16], [P §5].

    Binary only. ``classes_[1]`` is coded y = +1, ``classes_[0]`` y = -1.

    Parameters
    ----------
    C : float, default=1.0
        Regularisation constant of [P 6]: the weight of the squared violations.
    kernel : {"rbf", "linear", "poly", "precomputed"}, Kernel or callable, \
default="rbf"
        See :func:`lssvm.kernels.make_kernel`.
    sigma2 : float, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13]; the paper's Gaussian
        width is gamma = 1 / sigma2.
    degree, tau : int, float
        Polynomial kernel (x^T z + tau)^degree.
    max_iter : int, default=100
        Maximum number of solves of [P 48] (Steps 2-5). If S still changes, or a set
        of indicators repeats (a cycle), a ConvergenceWarning is issued.
    n_sv_max : int >= 2 or None, default=None
        The cap n_SVMax of [P §5.3]: at most this many support vectors (those of
        largest error) are kept at each Step 4, and when smaller than the number of
        samples the initial S is a stratified sample of this size (each class in
        proportion to its size). Without effect on the solution when not smaller than
        its number of support vectors; if it binds at the end (positive errors left
        out of S) the result is not optimal for [P 6] and a ConvergenceWarning is issued.
    random_state : int, RandomState instance or None, default=0
        Seeds the stratified initial sample (only used when ``n_sv_max`` < N).
    reuse_factor : bool, default=True
        Update the Cholesky factor of C^{-1} I + K_SS and the kernel columns from one
        iteration to the next ([P §5.2-5.3], see
        :meth:`lssvm.linalg.factor.CholeskyFactor.update`) rather
        than recomputing both at every iteration. Same result to rounding.
    probability : bool, default=False
        Enable ``predict_proba`` / ``predict_log_proba``: Platt's sigmoid
        (:func:`lssvm.probability.platt_fit`) fitted to leave-one-out outputs. A
        point outside S leaves the solution unchanged, so its output is already
        held out; for the points of S the closed form of the LS-SVM on S
        (:meth:`lssvm.linalg.factor.CholeskyFactor.loo_latent` on the factor of the
        last solve: [P 48] is the LS-SVM regression
        system on S with gamma = C) gives them exactly as long as removing the point
        does not change S (the usual approximation for the L2-SVM).

    Notes
    -----
    ``fit(X, y, sample_weight=w)`` weights the squared violations, C w_k instead of
    C in [P 6]; rows of weight 0 are left out. ``kernel="precomputed"``: X is
    K(X_train, X_train) at fit and K(X_test, X_train) at predict
    (``support_vectors_`` are then the indices of S, a column); sparse CSR/CSC X
    works with the linear, polynomial and RBF kernels.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    support_ : ndarray of int
        Indices of the support vectors S (points with e_k > 0), in increasing order:
        row numbers of the X passed to ``fit`` (rows of weight 0 counted), so
        ``support_vectors_`` is ``X[support_]``, as in scikit-learn's ``SVC``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    theta_ : ndarray of shape (n_SV,)
        The paper's coefficients [P 48]: f(x) = sum_S theta_k y_k K(x, x_k) + b [P 49];
        ``theta_ = C e_S > 0`` at the solution [P 53-54].
    dual_coef_ : ndarray of shape (n_SV,)
        y_k theta_k, the coefficients of the expansion [P 49].
    b_ : float
        Unregularised bias of [P 48].
    e_ : ndarray of shape (n_samples,)
        Training errors e_k = 1 - y_k f(x_k) [P 14] of the rows of positive weight
        (all rows without ``sample_weight``), in the order of X.
    objective_ : float
        Value of [P 6] at the solution by [P 55]; equal to ``sum(theta_)`` [P 56] once
        converged.
    objective_path_ : ndarray of shape (``n_iter_``,)
        [P 55] after each solve of [P 48].
    n_iter_ : int
        Number of solves of [P 48].
    converged_ : bool
        Whether S stopped changing within ``max_iter`` solves.
    kernel_ : lssvm.kernels.Kernel

    Examples
    --------
    The four points of the paper's [P §6.1] ([P Table 1]), C = 10000:

    >>> X = np.array([[1.1, 1.0], [1.0, 1.0], [0.0, 0.0], [-0.1, 0.0]])
    >>> clf = RLSSVMClassifier(C=1e4, kernel="linear").fit(X, [1, 1, -1, -1])
    >>> clf.support_.tolist(), round(clf.b_, 4)
    ([1, 2], -0.9999)
    """

    #: Checked once at the start of fit (lssvm._validation.validate_params). C is the
    #: regularisation constant, the LS-SVM's gamma under the paper's name.
    _parameter_constraints = {
        "C": [Positive(f"{GAMMA_MEANING}, named C in [P 6]")],
        **KERNEL_CONSTRAINTS,
        "max_iter": [Count(1, "most solves of [P 48]")],
        "n_sv_max": [NoneValue(), Count(2, "the cap n_SVMax of [P §5.3]")],
        "random_state": [NoneValue(), RandomState()],
        "reuse_factor": [Boolean("reuse the factor between iterations, [P §5.2]")],
        "probability": [Boolean("Platt's sigmoid on leave-one-out outputs")],
    }

    def __init__(
        self,
        *,
        C=1.0,
        kernel="rbf",
        sigma2=1.0,
        degree=3,
        tau=1.0,
        max_iter=100,
        n_sv_max=None,
        random_state=0,
        reuse_factor=True,
        probability=False,
    ):
        self.C = C
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.max_iter = max_iter
        self.n_sv_max = n_sv_max
        self.random_state = random_state
        self.reuse_factor = reuse_factor
        self.probability = probability

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = True
        tags.input_tags.pairwise = isinstance(self.kernel, str) and (
            self.kernel == "precomputed"
        )
        return tags

    def fit(self, X, y, sample_weight=None):
        """Iterate Steps 1-5 of [P §5] until the support set S stops changing."""
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=ACCEPT_SPARSE)
        check_classification_targets(y)
        validate_params(self)
        C = float(self.C)
        rng = check_random_state(self.random_state)
        self.classes_ = np.unique(y)
        check_classes(self.classes_.tolist(), owner=self)
        if len(self.classes_) > 2:  # capitalised: the wording scikit-learn's checks expect
            raise ValueError(
                f"{type(self).__name__}: Only binary classification is supported; "
                f"got {len(self.classes_)} classes: {self.classes_.tolist()}."
            )
        kernel = check_kernel(
            self.kernel, sigma2=self.sigma2, degree=self.degree, tau=self.tau,
            owner=self,
        )  # fmt: skip
        X, self.kernel_ = fit_view(kernel, X)  # precomputed: indices and K
        keep, w = positive_weight_rows(  # weight 0: no part in [P 6]
            sample_weight, X, y, owner=self, classes=self.classes_
        )
        # what optimality() checks against: the rows of the training X, and whether
        # [P 6] was weighted (C_k = C w_k) or not (C_k = C)
        self._n_fit_rows, self._fit_weighted = X.shape[0], w is not None
        if keep is not None:
            X, y = X[keep], y[keep]
        C = np.full(X.shape[0], C) if w is None else C * w  # C_k = C w_k in [P 6]
        y_pm = np.where(y == self.classes_[1], 1.0, -1.0)
        if self.n_sv_max is not None and self.n_sv_max < len(y_pm):
            support = _stratified_initial_set(y_pm, self.n_sv_max, rng)
        else:
            support = np.arange(len(y_pm))  # Step 1: s_k = 1 for all k
        # K(X, X_S) (N x |S|), A_S and its factor (|S| x |S| each), before allocating
        n = len(y_pm)
        check_dense_memory(
            n, n_matrices=len(support) * (n + 2 * len(support)) / n**2,
            what="the RLS iteration", owner=self,
            alternative="cap the support set with n_sv_max ([P §5.3])",
        )  # fmt: skip
        try:
            solved = self._iterate(X, y_pm, C, support)
        except NotPositiveDefiniteError:
            # the factor's own message advises on gamma; here 1/C_k is the diagonal
            raise NotPositiveDefiniteError(
                f"{type(self).__name__}: C^{{-1}} I + K_SS [P 58] is not positive "
                "definite (its Cholesky factorisation failed or gave a non-finite "
                "solution). The kernel "
                f"{kernel!r} may not be positive semi-definite, or C={self.C!r} "
                "leaves too little (1/C_k, C_k = C w_k with sample_weight) on the "
                "diagonal: decrease C, check that the kernel is positive "
                "semi-definite, or scale the inputs."
            ) from None
        if keep is not None:  # positions among the kept rows -> rows of X given
            self.support_ = keep[self.support_]
        if self.probability:
            self._fit_platt(y_pm, w, *solved)
        if isinstance(kernel, Precomputed):
            self.kernel_ = kernel  # predict takes K(X_test, X_train)
        return self

    def _columns(self, X, X_S):
        """K(X, X_S), checked finite: an overflowing kernel is named, not passed on."""
        K = self.kernel_(X, X_S)
        if not np.all(np.isfinite(K)):
            raise ValueError(
                f"{type(self).__name__}: the kernel {self.kernel_!r} gives NaN or "
                "inf values on the training inputs (overflow); scale the inputs or "
                "use a bounded kernel (rbf)."
            )
        return K

    def _fit_platt(self, y_pm, w, factor, order, theta):
        """Platt's sigmoid on leave-one-out outputs (class docstring).

        ``factor``, ``order`` and ``theta`` are those of the last solve of [P 48]
        (factor order): no new factorisation.
        """
        f = y_pm * (1.0 - self.e_)  # e_k = 1 - y_k f(x_k) [P 14]: held out off S
        # [P 48] on S is the LS-SVM regression system [S 3.32] with gamma_k = C_k,
        # whose dual coefficients are alpha = Y_S theta: its exact leave-one-out
        y_S = y_pm[order]
        f[order] = factor.loo_latent(y_S, y_S * theta, overwrite=True)
        self.loo_decision_ = f
        self.probA_, self.probB_ = prob.platt_fit(f, y_pm > 0, w)

    @available_if(lambda self: bool(self.probability))
    def predict_proba(self, X):
        """P(classes_[0]), P(classes_[1]) from Platt's sigmoid; see ``probability``."""
        p1 = prob.platt_predict(self.decision_function(X), self.probA_, self.probB_)
        return np.column_stack([1.0 - p1, p1])

    @available_if(lambda self: bool(self.probability))
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def _iterate(self, X, y_pm, C, support):
        seen = {support.tobytes()}
        path = []
        self.converged_ = False
        state = None  # (factor of A_S, K(X, X_order)) kept between iterations
        e = None
        for n_iter in range(1, self.max_iter + 1):
            if self.reuse_factor:
                state = self._factor(X, y_pm, C, support, e, state)
                factor, K_XS = state
                order = factor.order
            else:  # [P 61] afresh on S in increasing order
                order = support
                K_XS = self._columns(X, X[support])  # <X, X_S>
                factor = CholeskyFactor.from_kernel(K_XS[support], C[support])
            y_S = y_pm[order]
            theta, b = _solve_p48(factor, y_S)  # Step 3: [P 48] by [P 58-59]
            e = 1.0 - y_pm * (K_XS @ (y_S * theta) + b)  # [P 57], [P 14]
            e[order] = theta / C[order]  # [P 53]: exact on S
            path.append(_objective(K_XS[order], y_S, theta, e, C))
            solved, solved_theta, solved_factor = order, theta, factor
            new = _select_support(e, self.n_sv_max)  # Step 4, [P 10], 5.3
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
        if len(np.flatnonzero(e > 0)) > len(solved) >= (self.n_sv_max or np.inf):
            warnings.warn(
                f"{type(self).__name__}: the cap n_sv_max={self.n_sv_max} binds: "
                f"{len(np.flatnonzero(e > 0)) - len(solved)} points with positive "
                "error are outside S; the result is not optimal. Increase n_sv_max.",
                ConvergenceWarning,
                stacklevel=3,
            )
        rank = np.argsort(solved)
        last = (solved_factor, solved, solved_theta)  # the last solve, factor order
        solved, theta = solved[rank], solved_theta[rank]
        self.support_ = solved  # the set theta_ belongs to, increasing
        self.support_vectors_ = X[solved].copy()
        self.theta_, self.b_, self.e_ = theta, b, e
        self.dual_coef_ = y_pm[solved] * theta
        self.objective_ = path[-1]
        self.objective_path_ = np.array(path)
        self.n_iter_ = n_iter
        return last

    def _factor(self, X, y_pm, C, support, e, state):
        """Factor of A_S (gamma_k = C_k) and K(X, X_order) for the set ``support``.

        Fresh [P 61] on the first solve or when |R| + |P| > |S_old| / 4; otherwise the
        kept prefix of the old order keeps its factor rows and the rest is updated
        (:meth:`lssvm.linalg.factor.CholeskyFactor.update`). Points after the kept
        prefix are ordered by decreasing error e (of the previous solve).
        """
        if state is None:
            K_XS = self._columns(X, X[support])
            factor = CholeskyFactor.from_block(_column_block(K_XS, support), C, support)
            return factor, K_XS
        factor, K_old = state
        old = factor.order
        in_new = np.zeros(len(y_pm), dtype=bool)
        in_new[support] = True
        in_old = np.zeros(len(y_pm), dtype=bool)
        in_old[old] = True
        added = support[~in_old[support]]
        fresh = (~in_new[old]).sum() + len(added) > _MAX_CHANGE_FOR_REUSE * len(old)
        order = factor.ordered(support, e, keep_prefix=not fresh)
        # kernel columns: kept ones copied, only those of added points evaluated
        col = np.full(len(y_pm), -1)
        col[old] = np.arange(len(old))
        K_XS = np.empty((len(y_pm), len(order)))
        from_old = in_old[order]
        K_XS[:, from_old] = K_old[:, col[order[from_old]]]
        if (~from_old).any():
            K_XS[:, ~from_old] = self._columns(X, X[order[~from_old]])
        factor.reorder(
            order, keep_prefix=not fresh, kernel_block=_column_block(K_XS, order)
        )
        return factor, K_XS

    def decision_function(self, X):
        """f(x) = <x, X_S> Y_S theta + b [P 49]; > 0 for ``classes_[1]``."""
        check_is_fitted(self, "theta_")
        X = validate_data(
            self, X, reset=False, dtype=np.float64, accept_sparse=ACCEPT_SPARSE
        )
        f = self.kernel_(X, self.support_vectors_) @ self.dual_coef_ + self.b_
        return check_finite_output(f, self.kernel_, owner=self)

    def predict(self, X):
        """Class by the sign of f [P 5]: ``classes_[1]`` where f(x) > 0."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]

    def optimality(self, X, y, sample_weight=None) -> Optimality:
        """The optimality conditions of [P 6] at this model, on its training data.

        ``X`` and ``y`` must be those given to ``fit`` (``support_`` numbers the rows
        of X). ``sample_weight`` gives the weights of [P 6] and is used as given:
        C_k = C w_k, and rows of weight 0 take no part (as in the fit); None is the
        unweighted problem, C_k = C. A model fitted with ``sample_weight`` is the
        solution of its own weighted problem, so its check needs those weights: pass
        the ``sample_weight`` given to ``fit`` (None raises a ValueError rather than
        report the conditions of the unweighted problem, which a weighted fit does
        not meet). Other weights give the conditions of another problem at this
        model. With ``kernel="precomputed"``, X is the Gram matrix K(X_train,
        X_train) given to ``fit``.

        >>> X = np.array([[1.1, 1.0], [1.0, 1.0], [0.0, 0.0], [-0.1, 0.0]])
        >>> y, w = [1, 1, -1, -1], [1.0, 2.0, 2.0, 1.0]
        >>> clf = RLSSVMClassifier(C=10.0, kernel="linear").fit(X, y, sample_weight=w)
        >>> clf.optimality(X, y, sample_weight=w).holds()
        True
        """
        check_is_fitted(self, "theta_")
        X, y = validate_data(self, X, y, reset=False, dtype=np.float64)
        if X.shape[0] != self._n_fit_rows:
            raise ValueError(
                f"{type(self).__name__}: X must be the training input of fit "
                f"(support_ numbers its rows); got X with {X.shape[0]} rows for a "
                f"fit on {self._n_fit_rows}."
            )
        if sample_weight is None and self._fit_weighted:
            raise ValueError(
                f"{type(self).__name__}: sample_weight must be the weights of [P 6] "
                "(C_k = C w_k) for a model fitted with sample_weight; got "
                "sample_weight=None. Pass the sample_weight given to fit."
            )
        keep, w = positive_weight_rows(sample_weight, X, owner=self)
        in_S = np.zeros(X.shape[0], dtype=bool)  # support_: rows of the X of fit
        in_S[self.support_] = True
        y_theta = np.zeros(X.shape[0])  # y_k theta_k on S, 0 elsewhere
        y_theta[self.support_] = self.dual_coef_
        if keep is not None:
            X, y, in_S, y_theta = X[keep], y[keep], in_S[keep], y_theta[keep]
        C = float(self.C) * (np.ones(len(y)) if w is None else w)  # C_k of [P 6]
        y_pm = np.where(y == self.classes_[1], 1.0, -1.0)
        e = 1.0 - y_pm * self.decision_function(X)
        # dJ/dw = 2 sum_k c_k phi(x_k), c = [y theta on S] - C_k max(0, e) y
        c = y_theta - C * np.maximum(e, 0.0) * y_pm
        if isinstance(self.kernel_, Precomputed):  # X is K(X_train, X_train) itself
            K = X if keep is None else X[:, keep]
        else:
            K = self.kernel_(X, X)
        gradient_w_sq = 4.0 * c @ K @ c  # ||dJ/dw||^2 = 4 c^T K c
        return Optimality(
            min_error_support=float(e[in_S].min()),
            max_error_outside=float(e[~in_S].max()) if (~in_S).any() else -np.inf,
            gradient_w_norm=float(np.sqrt(max(gradient_w_sq, 0.0))),
            gradient_b=float(-2.0 * np.sum(C * np.maximum(e, 0.0) * y_pm)),
        )


def _column_block(K_XS, order):
    """kernel_block(idx, cols) = K[np.ix_(idx, cols)] from the columns K(X, X_order)."""
    col = np.full(K_XS.shape[0], -1)
    col[order] = np.arange(len(order))
    return lambda idx, cols: K_XS[np.ix_(idx, col[cols])]


def _objective(K_SS, y_S, theta, e, C) -> float:
    """[P 55]: theta^T Y_S K_SS Y_S theta + C e^T S(e) e (C_k per point if weighted)."""
    coef = y_S * theta
    return float(coef @ K_SS @ coef + np.sum(C * np.maximum(e, 0.0) ** 2))
