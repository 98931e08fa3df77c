"""Kernel PLS (lssvm.relatives.kpls): linear kernel = PLS; all components = LS."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cross_decomposition import PLSRegression
from sklearn.linear_model import LinearRegression
from sklearn.preprocessing import PolynomialFeatures
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMRegressor
from lssvm.relatives import KernelPLSRegression


@parametrize_with_checks([KernelPLSRegression()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("n_components", [1, 2, 3])
def test_linear_kernel_equals_sklearn_pls(regression_data, rng, n_components):
    X, y = regression_data
    X_test = rng.standard_normal((25, 3))
    sk = PLSRegression(n_components=n_components, scale=False).fit(X, y)
    ours = KernelPLSRegression(n_components, kernel="linear").fit(X, y)
    norms = np.linalg.norm(sk.x_scores_, axis=0)  # ours has unit score vectors
    signs = np.sign(np.sum(sk.x_scores_ * ours.x_scores_, axis=0))
    np.testing.assert_allclose(ours.x_scores_, signs * sk.x_scores_ / norms, atol=1e-8)
    np.testing.assert_allclose(
        ours.transform(X_test), signs * sk.transform(X_test) / norms, atol=1e-8
    )
    np.testing.assert_allclose(ours.predict(X_test), sk.predict(X_test), atol=1e-8)


def test_linear_kernel_several_targets(regression_data, rng):
    X, y = regression_data
    Y = np.c_[y, X[:, 0] ** 2 + 0.1 * rng.standard_normal(len(y))]
    sk = PLSRegression(2, scale=False, tol=1e-14, max_iter=10000).fit(X, Y)
    ours = KernelPLSRegression(2, kernel="linear").fit(X, Y)
    assert ours.predict(X).shape == Y.shape
    np.testing.assert_allclose(ours.predict(X), sk.predict(X), atol=1e-6)


def test_scores_are_orthonormal(regression_data):
    X, y = regression_data
    T = KernelPLSRegression(4, sigma2=2.0).fit(X, y).x_scores_
    np.testing.assert_allclose(T.T @ T, np.eye(4), atol=1e-10)


def test_all_components_give_kernel_least_squares(rng):
    # poly kernel of degree 2 on 2 inputs: 6 features, centred rank 5
    X = rng.standard_normal((60, 2))
    y = X[:, 0] ** 2 - X[:, 0] * X[:, 1] + 0.1 * rng.standard_normal(60)
    X_test = rng.standard_normal((20, 2))
    kpls = KernelPLSRegression(10, kernel="poly", degree=2).fit(X, y)
    assert kpls.n_components_ == 5  # stops at the rank of K_c
    features = PolynomialFeatures(2).fit(X)
    ols = LinearRegression().fit(features.transform(X), y)
    np.testing.assert_allclose(
        kpls.predict(X_test), ols.predict(features.transform(X_test)), atol=1e-10
    )
    ls = LSSVMRegressor(kernel="poly", degree=2, gamma=1e8).fit(X, y)
    np.testing.assert_allclose(kpls.predict(X_test), ls.predict(X_test), atol=1e-5)


def test_rbf_training_residual_falls_with_components(regression_data):
    X, y = regression_data
    res = [
        np.mean((KernelPLSRegression(p, sigma2=2.0).fit(X, y).predict(X) - y) ** 2)
        for p in (1, 3, 10, 30)
    ]
    assert np.all(np.diff(res) < 0)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"n_components": 0}, "n_components must be an integer >= 1"),
        ({"n_components": 1.5}, "n_components must be an integer >= 1"),
        ({"max_iter": 0}, "max_iter must be an integer >= 1"),
        ({"tol": -1.0}, "tol must be a positive float"),
    ],
)
def test_bad_parameters_raise(regression_data, params, match):
    X, y = regression_data
    with pytest.raises(ValueError, match=match):
        KernelPLSRegression(**params).fit(X, y)


# -- issue #32 defects -------------------------------------------------------------------


def test_precomputed_polynomial_overflow_and_memory(monkeypatch):
    # D1, D7, D9
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    y = X[:, 0] + 0.1 * rng.standard_normal(30)
    with pytest.raises(ValueError, match="not supported by KernelPLSRegression"):
        KernelPLSRegression(kernel="precomputed").fit(X @ X.T, y)
    with pytest.raises(ValueError, match="NaN or inf"):
        KernelPLSRegression(kernel="poly", degree=3).fit(X * 1e120, y)
    model = KernelPLSRegression(kernel="poly", degree=2).fit(X, y)
    with pytest.raises(ValueError, match="NaN or inf"):
        model.predict(X * 1e200)
    import lssvm.linalg.memory as memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(MemoryError, match="KernelPLSRegression"):
        KernelPLSRegression().fit(X, y)
