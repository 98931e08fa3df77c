r"""SVM recursive feature elimination with the LS-SVM as base model, [C8 §8.4.5].

Guyon, Weston, Barnhill and Vapnik (2002) train an SVM on the inputs still in play,
rank them by how much the dual objective would change if one were removed, drop the
lowest and start again. With the LS-SVM classifier in its regression form,
:math:`[[0, 1^T], [1, K + I/\gamma]]\,[b; \beta] = [0; y]` with
:math:`\beta_k = \alpha_k y_k` (see :mod:`lssvm.classifier`), the part of the dual
objective that depends on the inputs is
:math:`W = \tfrac12 \beta^T K \beta = \tfrac12 \lVert w\rVert^2`, and the criteria are

- ``"weight"`` (linear kernel): :math:`c_i = w_i^2` with :math:`w = X^T \beta`;
- ``"dual"`` (any kernel): :math:`c_i = \tfrac12 \beta^T (K - K^{(-i)}) \beta`, with
  :math:`K^{(-i)}` the kernel matrix computed without input i and :math:`\beta`
  kept fixed (Guyon et al.'s :math:`DJ(i)`).

For the linear kernel :math:`\beta^T K^{(-i)}\beta = \lVert w\rVert^2 - w_i^2`, so the
second criterion is half the first. Several classes: one +-1 column per class
(one-versus-rest), all sharing one factorisation, and the criteria summed over the
columns.

The number of inputs is chosen without refitting: at every step the exact
leave-one-out outputs of the LS-SVM on the current inputs follow from the one
factorisation (:class:`lssvm.model_selection.closed_form.ClosedFormCV`), and the subset with the fewest
leave-one-out errors is kept (ties: the smaller subset).

Source: I. Guyon, J. Weston, S. Barnhill and V. Vapnik, Gene selection for cancer
classification using support vector machines, Machine Learning 46 (2002);
[C8 §8.4.5].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_array, check_consistent_length
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import KERNEL_CONSTRAINTS
from .._validation import (
    GAMMA_MEANING,
    Count,
    NoneValue,
    Options,
    Positive,
    check_classes,
    check_constraints,
    check_not_precomputed,
    positive_weight_rows,
    validate_params,
)
from ..kernels import Linear, make_kernel
from ..linalg.memory import check_dense_memory
from ..linalg.solvers import solve_bordered_kkt
from ..model_selection.closed_form import ClosedFormCV, make_folds
from .psvm import one_vs_rest_codes

__all__ = ["rfe", "RFEResult", "LSSVMRFE", "CRITERIA"]

CRITERIA = ("auto", "weight", "dual")
#: The parameters :func:`rfe` and :class:`LSSVMRFE` check (one wording for both).
RFE_CONSTRAINTS = {
    "gamma": [Positive(GAMMA_MEANING)],
    "criterion": [Options(CRITERIA)],
    "step": [Count(1, "inputs removed per step")],
    "n_features_to_select": [
        NoneValue("None: choose the subset by leave-one-out"), Count(1)
    ],
}


@dataclass(frozen=True)
class RFEResult:
    """Outcome of :func:`rfe`.

    Attributes
    ----------
    ranking : ndarray of shape (n_features,)
        1 for the input that survives longest, n_features for the first removed
        (scikit-learn's ``RFE(n_features_to_select=1).ranking_``).
    subsets : list of ndarray
        The inputs in play at each step, from all inputs down to one.
    loo_error : ndarray of shape (n_steps,)
        Leave-one-out error rate of the LS-SVM on each subset (closed form).
    criteria : list of ndarray
        The ranking criterion of each input of each subset (same order).
    selected : ndarray
        The subset with the smallest leave-one-out error (ties: the smaller), or the
        one of the requested size.
    """

    ranking: NDArray[np.int64]
    subsets: list
    loo_error: NDArray[np.float64]
    criteria: list
    selected: NDArray[np.int64]


def _criterion(kernel, X, beta, criterion):
    """Ranking criterion of every column of X for the fitted beta (N, m)."""
    if criterion == "weight":
        w = X.T @ beta  # (n, m): w = sum_k beta_k x_k
        return np.sum(w**2, axis=1)
    K = kernel(X)
    full = np.einsum("km,kl,lm->", beta, K, beta)
    out = np.empty(X.shape[1])
    for i in range(X.shape[1]):
        Ki = kernel(np.delete(X, i, axis=1))  # K^(-i): the kernel without input i
        out[i] = 0.5 * (full - np.einsum("km,kl,lm->", beta, Ki, beta))
    return out


def _loo_error(K, Y, y_index, gamma, sample_weight=None):
    """Leave-one-out error rate of the LS-SVM on K, exact, without refitting.

    With ``sample_weight`` the fit is the weighted LS-SVM (gamma w_k) and the rate is
    the weighted share of left-out rows misclassified; a weighted row is left out
    whole (a repeated row leaves out one copy, so the two differ here only).
    """
    folds = make_folds("loo", None, Y[:, 0], classifier=False)
    cv = ClosedFormCV(K, Y, folds, strategy="cholesky", sample_weight=sample_weight)
    latent = np.vstack(cv.latent(gamma))  # (N, m): f^(-k)(x_k)
    if Y.shape[1] == 1:
        wrong = (latent[:, 0] > 0) != (Y[:, 0] > 0)
    else:
        wrong = np.argmax(latent, axis=1) != y_index
    return float(np.average(wrong, weights=sample_weight))


def _check(gamma, criterion, step, n_features_to_select, n_features, kernel):
    for name, value in (
        ("gamma", gamma), ("criterion", criterion), ("step", step),
        ("n_features_to_select", n_features_to_select),
    ):  # fmt: skip
        check_constraints(value, name, RFE_CONSTRAINTS[name], owner="rfe")
    if criterion == "weight" and not isinstance(kernel, Linear):
        raise ValueError(
            "criterion='weight' (w_i^2) needs the linear kernel; got kernel "
            f"{kernel!r}. Use criterion='dual'."
        )
    if criterion == "auto":
        return "weight" if isinstance(kernel, Linear) else "dual"
    return criterion


def rfe(
    X, y, *, gamma=1.0, kernel="linear", sigma2=1.0, degree=3, tau=1.0,
    criterion="auto", step=1, n_features_to_select=None, sample_weight=None,
) -> RFEResult:  # fmt: skip
    """SVM-RFE [C8 §8.4.5] with the LS-SVM classifier, down to one input.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), class labels
    gamma, kernel, sigma2, degree, tau
        The LS-SVM's regularization constant and kernel, fixed for every subset.
    criterion : {"auto", "weight", "dual"}
        "weight": w_i^2 (linear kernel only); "dual": the change of the dual
        objective when input i is removed; "auto": "weight" for the linear kernel.
    step : int
        Inputs removed per step.
    n_features_to_select : int or None
        None: keep the subset with the fewest leave-one-out errors.
    sample_weight : ndarray of shape (n_samples,), optional
        Non-negative weights: the weighted LS-SVM, gamma w_k for sample k (weight 0
        leaves the row out). The fit and the ranking criteria equal those of
        repeated rows for integer weights; the leave-one-out error (which picks the
        subset when ``n_features_to_select`` is None) leaves a weighted row out
        whole and is the weighted share of errors.

    Returns
    -------
    RFEResult
    """
    try:  # the checks of LSSVMRFE.fit, for the function
        X = check_array(X, dtype=np.float64)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        check_consistent_length(X, y)
        check_classification_targets(y)
    except ValueError as exc:
        raise ValueError(f"rfe: {exc}") from None
    check_not_precomputed(kernel, owner="rfe")
    keep, w = positive_weight_rows(
        sample_weight, X, y, owner="rfe", classes=np.unique(y)
    )
    if keep is not None:
        X, y = X[keep], y[keep]
    classes, y_index = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(
            f"rfe: y must have at least 2 classes; got {len(classes)} class: "
            f"{classes.tolist()}."
        )
    Y = one_vs_rest_codes(y_index, len(classes))  # (N, m), +-1
    kern = make_kernel(kernel, sigma2=sigma2, degree=degree, tau=tau)
    if not isinstance(kern, Linear):  # the N x N kernel matrix and its factor
        check_dense_memory(
            X.shape[0], n_matrices=2, what="rfe with a nonlinear kernel",
            alternative="use kernel='linear' (criterion='weight')", owner="rfe",
        )  # fmt: skip
    n = X.shape[1]
    criterion = _check(gamma, criterion, step, n_features_to_select, n, kern)
    active = np.arange(n)
    removed: list[int] = []
    subsets, errors, criteria = [], [], []
    ones = np.ones(X.shape[0])
    while True:
        Xa = X[:, active]
        K = kern(Xa)
        # [S 3.5] in regression form: a = 1_v, d = +-1 codes, beta = alpha * y
        # weighted LS-SVM: gamma_k = gamma w_k (integer w: repeated rows)
        beta = solve_bordered_kkt(K, gamma if w is None else gamma * w, ones, Y).alpha
        beta = beta.reshape(len(ones), -1)
        subsets.append(active.copy())
        errors.append(_loo_error(K, Y, y_index, gamma, w))
        if len(active) == 1:
            criteria.append(np.full(1, np.nan))
            removed.append(int(active[0]))
            break
        c = _criterion(kern, Xa, beta, criterion)
        criteria.append(c)
        drop = np.argsort(c, kind="stable")[: min(step, len(active) - 1)]
        removed.extend(int(i) for i in active[drop][np.argsort(c[drop])])
        active = np.delete(active, drop)
    ranking = np.empty(n, dtype=np.int64)
    ranking[np.array(removed[::-1])] = np.arange(1, n + 1)
    errors = np.asarray(errors)
    if n_features_to_select is None:
        sizes = np.array([len(s) for s in subsets])
        best = np.flatnonzero(errors == errors.min())
        selected = subsets[best[np.argmin(sizes[best])]]
    else:
        fits = [s for s in subsets if len(s) <= n_features_to_select]
        selected = fits[0] if fits else subsets[-1]
    return RFEResult(ranking, subsets, errors, criteria, np.sort(selected))


class LSSVMRFE(SelectorMixin, BaseEstimator):
    """SVM-RFE with the LS-SVM [C8 §8.4.5]; a scikit-learn feature selector.

    See :func:`rfe` for the parameters. ``transform`` keeps the selected inputs; put
    it in a pipeline before any classifier.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features,)
        1 = kept longest.
    support_ : ndarray of bool, shape (n_features,)
    n_features_ : int
        Number of selected inputs.
    loo_error_ : ndarray of shape (n_steps,)
        Closed-form leave-one-out error of each subset, from all inputs to one.
    subsets_ : list of ndarray
    classes_ : ndarray
    """

    def __init__(
        self, *, gamma=1.0, kernel="linear", sigma2=1.0, degree=3, tau=1.0,
        criterion="auto", step=1, n_features_to_select=None,
    ):  # fmt: skip
        self.gamma = gamma
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.criterion = criterion
        self.step = step
        self.n_features_to_select = n_features_to_select

    _parameter_constraints = {
        "gamma": RFE_CONSTRAINTS["gamma"],
        **KERNEL_CONSTRAINTS,
        "criterion": RFE_CONSTRAINTS["criterion"],
        "step": RFE_CONSTRAINTS["step"],
        "n_features_to_select": RFE_CONSTRAINTS["n_features_to_select"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Rank the inputs and select the subset (leave-one-out or the given size).

        ``sample_weight``: the weighted LS-SVM, as in :func:`rfe`.
        """
        validate_params(self)  # the constraints table, once
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        check_not_precomputed(self.kernel, owner=self)
        self.classes_ = np.unique(y)
        check_classes(self.classes_.tolist(), owner=self)
        try:
            result = rfe(
                X, y, gamma=self.gamma, kernel=self.kernel, sigma2=self.sigma2,
                degree=self.degree, tau=self.tau, criterion=self.criterion,
                step=self.step, n_features_to_select=self.n_features_to_select,
                sample_weight=sample_weight,
            )  # fmt: skip
        except ValueError as exc:
            message = str(exc).removeprefix("rfe: ")
            raise ValueError(f"{type(self).__name__}: {message}") from None
        self.ranking_ = result.ranking
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[result.selected] = True
        self.n_features_ = int(self.support_.sum())
        self.loo_error_ = result.loo_error
        self.subsets_ = result.subsets
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
