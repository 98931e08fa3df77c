"""scikit-learn's own KernelRidge tests, run in place against LSSVMRegressor.

KernelRidge(alpha) minimises sum_k w_k (y_k - f(x_k))^2 + alpha ||f||^2: the LS-SVM
regressor without bias, [S 3.62], at gamma = 1/alpha. The adapter below maps
KernelRidge's parameters onto ``LSSVMRegressor(fit_intercept=False)``; the test
imports the ``sklearn/tests/test_kernel_ridge.py`` installed with scikit-learn,
replaces the module's ``KernelRidge`` name by the adapter (pytest's monkeypatch) and
calls every test function of that file, with its own parameters. No code of that
file is copied here.

Parameter map (scikit-learn's kernel ``gamma`` is a width, not our gamma):

- rbf: exp(-g ||x - z||^2) is our RBF with sigma2 = 1/g [S 3.13];
- poly: (g x^T z + c)^d = g^d (x^T z + c/g)^d, our polynomial kernel with
  tau = c/g times g^d, which the regularisation absorbs: gamma = g^d / alpha;
- linear and precomputed map by name; other metrics ("cosine", ...) become a
  callable kernel through ``sklearn.metrics.pairwise.pairwise_kernels``.

Deliberate difference: alpha = 0 (gamma = infinity, the interpolation limit) is
refused with a clear error (gamma must be a positive float) instead of
KernelRidge's least-squares fallback, so ``test_kernel_ridge_singular_kernel`` is
skipped with that reason and the error is tested here instead.
"""

from __future__ import annotations

import importlib
import itertools
import os

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.metrics.pairwise import pairwise_kernels

from lssvm import LSSVMRegressor

SKLEARN_TESTS = os.path.join(os.path.dirname(sklearn.__file__), "tests")
MODULE = "sklearn.tests.test_kernel_ridge"
DIFFERENCES = {
    "test_kernel_ridge_singular_kernel": (
        "alpha=0 is gamma=infinity (interpolation): LSSVMRegressor raises a clear "
        "error (gamma must be a positive float) instead of KernelRidge's "
        "least-squares fallback"
    ),
}


class KernelRidgeAdapter(RegressorMixin, BaseEstimator):
    """KernelRidge's parameters on top of ``LSSVMRegressor(fit_intercept=False)``."""

    def __init__(
        self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1,
        kernel_params=None,
    ):  # fmt: skip
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params

    def _lssvm(self, n_features):
        g = 1.0 / n_features if self.gamma is None else self.gamma  # sklearn's width
        alpha = float(self.alpha)
        reg = np.inf if alpha == 0 else 1.0 / alpha  # gamma = 1/alpha
        if self.kernel in ("linear", "precomputed"):
            return LSSVMRegressor(fit_intercept=False, gamma=reg, kernel=self.kernel)
        if self.kernel == "rbf":
            return LSSVMRegressor(fit_intercept=False, gamma=reg, sigma2=1.0 / g)
        if self.kernel == "poly":
            return LSSVMRegressor(
                fit_intercept=False, gamma=reg * g**self.degree, kernel="poly",
                degree=self.degree, tau=self.coef0 / g,
            )  # fmt: skip
        metric, params = self.kernel, dict(self.kernel_params or {})

        def kernel(A, B):
            return pairwise_kernels(A, B, metric=metric, filter_params=True, **params)

        return LSSVMRegressor(fit_intercept=False, gamma=reg, kernel=kernel)

    def fit(self, X, y, sample_weight=None):
        self.model_ = self._lssvm(np.shape(X)[1])
        self.model_.fit(X, y, sample_weight=sample_weight)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _cases():
    """(name, params) of every test function of scikit-learn's file."""
    module = importlib.import_module(MODULE)
    cases = []
    for name in sorted(dir(module)):
        fn = getattr(module, name)
        if not (name.startswith("test_") and callable(fn)):
            continue
        grids = [
            m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"
        ]
        combos = [{}]
        for mark in grids:
            argnames, values = mark.args[0], mark.args[1]
            names = [a.strip() for a in argnames.split(",")] if isinstance(
                argnames, str) else list(argnames)  # fmt: skip
            rows = [v if len(names) > 1 else (v,) for v in values]
            combos = [
                {**c, **dict(zip(names, row))}
                for c, row in itertools.product(combos, rows)
            ]
        for params in combos:
            label = "-".join(
                getattr(v, "__name__", str(v)) for v in params.values()
            )
            cases.append(pytest.param(name, params, id=f"{name}[{label}]" if label
                                      else name))  # fmt: skip
    return cases


def test_the_file_is_installed():
    assert os.path.exists(os.path.join(SKLEARN_TESTS, "test_kernel_ridge.py"))
    assert len(_cases()) >= 7


@pytest.mark.parametrize("name, params", _cases())
def test_sklearn_kernel_ridge_tests(name, params, monkeypatch):
    if name in DIFFERENCES:
        pytest.skip(DIFFERENCES[name])
    module = importlib.import_module(MODULE)
    monkeypatch.setattr(module, "KernelRidge", KernelRidgeAdapter)
    getattr(module, name)(**params)


def test_alpha_zero_is_a_clear_error():
    X = np.random.default_rng(0).standard_normal((10, 3))
    with pytest.raises(ValueError, match=r"gamma must be a positive float.*inf"):
        KernelRidgeAdapter(alpha=0.0).fit(X, X[:, 0])
