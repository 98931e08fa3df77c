"""LSSVMRegressor: KKT conditions (3.31)-(3.32), model (3.34), ridge equivalence."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import lssvm._base
from lssvm import LSSVMRegressor
from lssvm.datasets import sinc
from lssvm.kkt import kkt_residual
from lssvm.solvers import NotPositiveDefiniteError

RTOL_DIRECT = 1e-10  # backward error of the Cholesky solve; equalities of (3.31)
RTOL_CG = 1e-6  # solver="cg" (tol 1e-10 on the residual) against solver="direct"
ATOL_MODEL = 1e-8  # model outputs recomputed from alpha_, b_ on training points
ATOL_RIDGE = 1e-8  # dual LS-SVM against the primal ridge solution

KERNELS = ["rbf", "linear", "poly"]
GAMMAS = [0.1, 100.0]


@pytest.mark.parametrize("gamma", GAMMAS)
@pytest.mark.parametrize("kernel", KERNELS)
def test_kkt_conditions(regression_data, kernel, gamma):
    X, y = regression_data
    reg = LSSVMRegressor(kernel=kernel, gamma=gamma, sigma2=2.0, degree=2).fit(X, y)
    alpha, b, e = reg.alpha_, reg.b_, reg.e_
    K = reg.kernel_(X)
    ones = np.ones(len(y))
    assert kkt_residual(K, gamma, ones, y, alpha, b) < RTOL_DIRECT  # (3.32)
    assert abs(alpha.sum()) <= RTOL_DIRECT * np.abs(alpha).sum()  # (3.31)
    np.testing.assert_allclose(e, alpha / gamma, rtol=1e-15)  # (3.31)
    # (3.29): y_k = w^T phi(x_k) + b + e_k, with the model (3.34).
    np.testing.assert_allclose(reg.predict(X) + e, y, rtol=0, atol=ATOL_MODEL)
    np.testing.assert_array_equal(reg.dual_coef_, alpha)


def _primal_ridge(X, y, gamma):
    """min 1/2 w^T w + gamma/2 sum_k (y_k - w^T x_k - b)^2 with b unpenalised."""
    n, p = X.shape
    # Normal equations: [X^T X + I/gamma, X^T 1; 1^T X, n] [w; b] = [X^T y; 1^T y].
    A = np.zeros((p + 1, p + 1))
    A[:p, :p] = X.T @ X + np.eye(p) / gamma
    A[:p, p] = A[p, :p] = X.sum(axis=0)
    A[p, p] = n
    sol = np.linalg.solve(A, np.r_[X.T @ y, y.sum()])
    return sol[:p], sol[p]


@pytest.mark.parametrize("gamma", [0.01, 1.0, 100.0])
@pytest.mark.parametrize(
    "kernel", ["linear", lambda A, B: A @ B.T], ids=["linear", "callable-linear"]
)
def test_linear_kernel_equals_primal_ridge(regression_data, rng, kernel, gamma):
    X, y = regression_data
    X = X + 2.0  # an offset that a penalised intercept would get wrong
    w, b = _primal_ridge(X, y, gamma)
    reg = LSSVMRegressor(kernel=kernel, gamma=gamma).fit(X, y)
    np.testing.assert_allclose(
        X.T @ reg.alpha_, w, rtol=0, atol=ATOL_RIDGE
    )  # w = X^T alpha
    assert reg.b_ == pytest.approx(b, abs=ATOL_RIDGE)
    X_test = rng.standard_normal((20, X.shape[1]))
    np.testing.assert_allclose(
        reg.predict(X_test), X_test @ w + b, rtol=0, atol=ATOL_RIDGE
    )
    # The intercept is free: centring y shifts b only.
    shifted = LSSVMRegressor(kernel=kernel, gamma=gamma).fit(X, y + 5.0)
    np.testing.assert_allclose(shifted.alpha_, reg.alpha_, rtol=0, atol=ATOL_RIDGE)
    assert shifted.b_ == pytest.approx(reg.b_ + 5.0, abs=ATOL_RIDGE)


@pytest.mark.parametrize("kernel", KERNELS)
def test_cg_agrees_with_direct(regression_data, rng, kernel):
    X, y = regression_data
    params = dict(kernel=kernel, gamma=2.0, sigma2=2.0, degree=2)
    direct = LSSVMRegressor(solver="direct", **params).fit(X, y)
    cg = LSSVMRegressor(solver="cg", **params).fit(X, y)
    scale = np.abs(direct.alpha_).max()
    np.testing.assert_allclose(
        cg.alpha_, direct.alpha_, rtol=RTOL_CG, atol=RTOL_CG * scale
    )
    assert cg.b_ == pytest.approx(direct.b_, rel=RTOL_CG, abs=RTOL_CG)
    X_test = rng.standard_normal((30, X.shape[1]))
    np.testing.assert_allclose(
        cg.predict(X_test), direct.predict(X_test), rtol=RTOL_CG, atol=RTOL_CG
    )
    assert direct.n_iter_ == 0 and cg.n_iter_ > 0


def test_tiny_gamma_predicts_the_mean(regression_data):
    # gamma -> 0: alpha = gamma (y - b) + O(gamma^2), so b -> mean(y), f -> mean(y).
    X, y = regression_data
    reg = LSSVMRegressor(gamma=1e-8).fit(X, y)
    np.testing.assert_allclose(reg.predict(X), y.mean(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(reg.alpha_, 1e-8 * (y - y.mean()), rtol=1e-5, atol=1e-14)


def test_large_gamma_interpolates(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor(gamma=1e8, sigma2=1.0).fit(X, y)
    np.testing.assert_allclose(reg.predict(X), y, rtol=0, atol=1e-5)


def test_sinc_fit():
    # Fig. 3.6: an RBF LS-SVM recovers sinc(x) from noisy samples.
    X, y = sinc(100, noise=0.1, random_state=0)
    # The error to the true curve must be well below the noise (std 0.1): a model
    # that interpolated the samples would be off by about 0.1.
    reg = LSSVMRegressor(gamma=10.0, sigma2=2.0).fit(X, y)
    x_test = np.linspace(-9.5, 9.5, 56)[:, None]  # even count: avoids x = 0
    truth = np.sin(x_test[:, 0]) / x_test[:, 0]
    assert np.sqrt(np.mean((reg.predict(x_test) - truth) ** 2)) < 0.07
    assert reg.score(X, y) > 0.8


def test_fitted_attributes(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor(gamma=2.0, sigma2=[1.0, 2.0, 3.0]).fit(X, y)
    n, p = X.shape
    assert reg.alpha_.shape == reg.e_.shape == reg.dual_coef_.shape == (n,)
    assert isinstance(reg.b_, float)
    np.testing.assert_array_equal(reg.support_vectors_, X)
    assert reg.n_features_in_ == p and reg.n_iter_ == 0
    np.testing.assert_array_equal(reg.kernel_.sigma2, [1.0, 2.0, 3.0])
    assert not hasattr(reg, "classes_")


def test_ard_with_equal_widths_equals_rbf(regression_data):
    X, y = regression_data
    rbf = LSSVMRegressor(sigma2=2.0).fit(X, y)
    ard = LSSVMRegressor(sigma2=[2.0, 2.0, 2.0]).fit(X, y)
    np.testing.assert_allclose(ard.alpha_, rbf.alpha_, rtol=1e-10)
    assert ard.b_ == pytest.approx(rbf.b_, rel=1e-10)


def test_ard_wrong_number_of_widths_raises(regression_data):
    X, y = regression_data
    with pytest.raises(ValueError, match="one sigma2 per input"):
        LSSVMRegressor(sigma2=[1.0, 2.0]).fit(X, y)


def test_prediction_in_blocks(regression_data, rng, monkeypatch):
    X, y = regression_data
    reg = LSSVMRegressor().fit(X, y)
    X_test = rng.standard_normal((25, X.shape[1]))
    expected = reg.kernel_(X_test, X) @ reg.alpha_ + reg.b_  # (3.34), unblocked
    monkeypatch.setattr(lssvm._base, "_PREDICT_BLOCK_ENTRIES", 7 * len(X))  # 7 rows
    np.testing.assert_allclose(reg.predict(X_test), expected, rtol=1e-12)


def test_fit_does_not_modify_inputs(regression_data):
    X, y = regression_data
    X0, y0 = X.copy(), y.copy()
    LSSVMRegressor().fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_predict_before_fit_raises(regression_data):
    X, _ = regression_data
    with pytest.raises(NotFittedError):
        LSSVMRegressor().predict(X)


def test_negative_definite_kernel_raises(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor(kernel=lambda A, B: -((1.0 + A @ B.T) ** 2))
    with pytest.raises(NotPositiveDefiniteError, match="not positive definite"):
        reg.fit(X, y)
