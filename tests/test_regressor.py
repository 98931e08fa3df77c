"""LSSVMRegressor: KKT conditions (3.31)-(3.32), model (3.34), ridge equivalence;
the model without bias (3.62) (also for the classifier), several outputs."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Ridge

import lssvm._base
import lssvm.linalg.solvers
from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import sinc
from lssvm.kernels import RBF
from lssvm.linalg.factor import CholeskyFactor
from lssvm.linalg.kkt import kkt_residual, omega
from lssvm.linalg.solvers import NotPositiveDefiniteError, solve_bordered_kkt

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


# -- fit_intercept=False: the system without the border, (3.62) ------------------------


def _relative_residual(H, alpha, d):
    """||H alpha - d|| / (||H|| ||alpha|| + ||d||), column-wise maximum."""
    alpha, d = alpha.reshape(len(d), -1), d.reshape(len(d), -1)
    res = np.linalg.norm(H @ alpha - d, axis=0)
    scale = np.linalg.norm(H) * np.linalg.norm(alpha, axis=0)
    return float(np.max(res / (scale + np.linalg.norm(d, axis=0))))


@pytest.mark.parametrize("method", ["direct", "cg"])
@pytest.mark.parametrize("with_signs", [False, True])
def test_solver_without_border_solves_h_alpha_equals_d(rng, method, with_signs):
    n = 40
    X = rng.standard_normal((n, 2))
    K = RBF(1.5)(X)
    signs = np.where(rng.standard_normal(n) > 0, 1.0, -1.0) if with_signs else None
    Omega = omega(K, signs)  # S K S, or K
    H = Omega + np.eye(n) / 10.0
    D = rng.standard_normal((n, 3))
    sol = solve_bordered_kkt(K, 10.0, None, D, signs=signs, method=method)
    expected = np.linalg.solve(H, D)  # (3.62)
    rtol = RTOL_DIRECT if method == "direct" else RTOL_CG
    np.testing.assert_allclose(sol.alpha, expected, rtol=rtol, atol=rtol)
    np.testing.assert_array_equal(sol.b, np.zeros(3))
    one = solve_bordered_kkt(K, 10.0, None, D[:, 0], signs=signs, method=method)
    assert one.alpha.shape == (n,) and one.b == 0.0 and isinstance(one.b, float)
    assert (one.factor is not None) == (method == "direct")


@pytest.mark.parametrize("gamma", GAMMAS)
@pytest.mark.parametrize("kernel", KERNELS)
def test_no_intercept_solves_the_regularization_network(regression_data, kernel, gamma):
    X, y = regression_data
    params = dict(kernel=kernel, gamma=gamma, sigma2=2.0, degree=2)
    reg = LSSVMRegressor(fit_intercept=False, **params).fit(X, y)
    H = reg.kernel_(X) + np.eye(len(y)) / gamma
    assert reg.b_ == 0.0 and isinstance(reg.b_, float)
    assert _relative_residual(H, reg.alpha_, y) < RTOL_DIRECT  # (3.62), (3.50)
    np.testing.assert_allclose(reg.e_, reg.alpha_ / gamma, rtol=1e-15)
    np.testing.assert_allclose(reg.predict(X) + reg.e_, y, rtol=0, atol=ATOL_MODEL)
    # The bias is what (3.31)'s sum_k alpha_k = 0 pays for: without it, no constraint.
    assert abs(reg.alpha_.sum()) > 1e-6 * np.abs(reg.alpha_).sum()


def test_no_intercept_cg_agrees_with_direct(regression_data, rng):
    X, y = regression_data
    params = dict(gamma=2.0, sigma2=2.0, fit_intercept=False)
    direct = LSSVMRegressor(solver="direct", **params).fit(X, y)
    cg = LSSVMRegressor(solver="cg", **params).fit(X, y)
    scale = np.abs(direct.alpha_).max()
    np.testing.assert_allclose(
        cg.alpha_, direct.alpha_, rtol=RTOL_CG, atol=RTOL_CG * scale
    )
    assert cg.b_ == 0.0 and cg.n_iter_ > 0
    X_test = rng.standard_normal((30, X.shape[1]))
    np.testing.assert_allclose(
        cg.predict(X_test), direct.predict(X_test), rtol=RTOL_CG, atol=RTOL_CG
    )


def test_no_intercept_is_not_shift_invariant(regression_data):
    # Without b a constant offset of y must be fitted by the kernel expansion.
    X, y = regression_data
    reg = LSSVMRegressor(gamma=10.0, fit_intercept=False).fit(X, y)
    shifted = LSSVMRegressor(gamma=10.0, fit_intercept=False).fit(X, y + 5.0)
    assert np.abs(shifted.alpha_ - reg.alpha_).max() > 1.0


# -- linear kernel: scikit-learn's Ridge -----------------------------------------------


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("gamma", [0.01, 1.0, 100.0])
def test_linear_kernel_equals_sklearn_ridge(regression_data, rng, gamma, fit_intercept):
    # (3.29) times 2/gamma: ||y - X w - b||^2 + (1/gamma) ||w||^2, Ridge's objective
    # with alpha = 1/gamma and an unpenalised intercept.
    X, y = regression_data
    X = X + 2.0
    Y = np.c_[y, np.cos(X[:, 1]), -y]  # and several outputs at once
    reg = LSSVMRegressor(kernel="linear", gamma=gamma, fit_intercept=fit_intercept)
    ridge = Ridge(alpha=1.0 / gamma, fit_intercept=fit_intercept, solver="cholesky")
    X_test = rng.standard_normal((20, X.shape[1]))
    for target in (y, Y):
        reg.fit(X, target)
        ridge.fit(X, target)
        np.testing.assert_allclose(
            X.T @ reg.alpha_, ridge.coef_.T, rtol=0, atol=ATOL_RIDGE
        )  # w = X^T alpha
        np.testing.assert_allclose(reg.b_, ridge.intercept_, rtol=0, atol=ATOL_RIDGE)
        np.testing.assert_allclose(
            reg.predict(X_test), ridge.predict(X_test), rtol=0, atol=ATOL_RIDGE
        )


# -- fit_intercept=False for the classifier --------------------------------------------


@pytest.mark.parametrize("solver", ["direct", "cg"])
def test_classifier_without_bias(classification_data, solver):
    X, y = classification_data
    gamma = 3.0
    clf = LSSVMClassifier(gamma=gamma, sigma2=2.0, fit_intercept=False, solver=solver)
    clf.fit(X, y)
    y_pm = np.where(y == clf.classes_[1], 1.0, -1.0)
    assert clf.b_ == 0.0
    # (3.5) without its border: (Omega + I/gamma) alpha = 1_v, Omega = y y^T * K.
    H = omega(clf.kernel_(X), y_pm) + np.eye(len(y)) / gamma
    tol = RTOL_DIRECT if solver == "direct" else RTOL_CG
    assert _relative_residual(H, clf.alpha_, np.ones(len(y))) < tol
    np.testing.assert_allclose(
        clf.decision_function(X), clf.kernel_(X) @ (clf.alpha_ * y_pm), rtol=1e-12
    )


def test_classifier_without_bias_drops_every_bit(rng):
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] ** 2, [-0.3, 0.6])  # labels 0, 1, 2
    for coding in ("ovo", "ova", "moc"):
        clf = LSSVMClassifier(coding=coding, fit_intercept=False).fit(X, y)
        np.testing.assert_array_equal(clf.b_, np.zeros(clf.codebook_.shape[1]))
        with_b = LSSVMClassifier(coding=coding).fit(X, y)
        assert np.abs(with_b.b_).max() > 1e-3


# -- several outputs: one factorisation ------------------------------------------------


@pytest.fixture
def multi_output(regression_data):
    X, y = regression_data
    return X, np.c_[y, np.cos(2 * X[:, 0]), 3.0 * y + 1.0]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", ["direct", "cg"])
def test_multi_output_equals_separate_fits(multi_output, rng, solver, fit_intercept):
    X, Y = multi_output
    params = dict(gamma=5.0, sigma2=2.0, solver=solver, fit_intercept=fit_intercept)
    reg = LSSVMRegressor(**params).fit(X, Y)
    n, m = Y.shape
    assert reg.alpha_.shape == reg.dual_coef_.shape == reg.e_.shape == (n, m)
    assert reg.b_.shape == (m,)
    X_test = rng.standard_normal((15, X.shape[1]))
    assert reg.predict(X_test).shape == (15, m)
    rtol = RTOL_DIRECT if solver == "direct" else RTOL_CG
    for j in range(m):
        one = LSSVMRegressor(**params).fit(X, Y[:, j])
        scale = np.abs(one.alpha_).max()
        np.testing.assert_allclose(
            reg.alpha_[:, j], one.alpha_, rtol=rtol, atol=rtol * scale
        )
        assert reg.b_[j] == pytest.approx(one.b_, rel=rtol, abs=rtol)
        np.testing.assert_allclose(
            reg.predict(X_test)[:, j], one.predict(X_test), rtol=rtol, atol=rtol
        )
    if fit_intercept:
        ones = np.ones(n)
        assert kkt_residual(reg.kernel_(X), 5.0, ones, Y, reg.alpha_, reg.b_) < rtol


def test_multi_output_uses_one_factorization(multi_output, monkeypatch):
    X, Y = multi_output
    calls = []
    factorize = lssvm.linalg.factor._cholesky_upper  # the package's one Cholesky
    solve = lssvm.linalg.factor.CholeskyFactor.solve

    def counting_factorize(A, **kwargs):
        calls.append("factor")
        return factorize(A, **kwargs)

    def counting_solve(self, B):
        calls.append(np.shape(B))
        return solve(self, B)

    monkeypatch.setattr(lssvm.linalg.factor, "_cholesky_upper", counting_factorize)
    monkeypatch.setattr(lssvm.linalg.factor.CholeskyFactor, "solve", counting_solve)
    LSSVMRegressor().fit(X, Y)
    assert calls == ["factor", (len(Y), 1 + Y.shape[1])]  # one Cholesky, [1_v | Y]
    calls.clear()
    LSSVMRegressor(fit_intercept=False).fit(X, Y)
    assert calls == ["factor", Y.shape]  # [Y]: no border


def test_column_vector_target_gives_2d_attributes(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor().fit(X, y[:, None])
    assert reg.alpha_.shape == (len(y), 1) and reg.b_.shape == (1,)
    assert reg.predict(X).shape == (len(y), 1)
    flat = LSSVMRegressor().fit(X, y)
    np.testing.assert_allclose(reg.predict(X)[:, 0], flat.predict(X), rtol=1e-12)


def test_multi_output_score_is_mean_r2(multi_output):
    X, Y = multi_output
    reg = LSSVMRegressor(gamma=5.0, sigma2=2.0).fit(X, Y)
    scores = [
        LSSVMRegressor(gamma=5.0, sigma2=2.0).fit(X, Y[:, j]).score(X, Y[:, j])
        for j in range(Y.shape[1])
    ]
    assert reg.score(X, Y) == pytest.approx(np.mean(scores), rel=1e-10)


# -- predict(return_std=True): errors --------------------------------------------------


def test_return_std_after_cg_equals_direct(regression_data, monkeypatch):
    """The factor is computed on demand, so CG-fitted models get error bars too."""
    X, y = regression_data
    direct = LSSVMRegressor(solver="direct").fit(X, y)
    assert direct._cholesky_ is None  # no N x N matrix kept by fit
    mean_d, std_d = direct.predict(X, return_std=True)
    cg = LSSVMRegressor(solver="cg").fit(X, y)
    mean_c, std_c = cg.predict(X, return_std=True)
    np.testing.assert_allclose(std_c, std_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mean_c, mean_d, rtol=RTOL_CG, atol=RTOL_CG)
    monkeypatch.setattr(lssvm.linalg.solvers, "AUTO_DIRECT_MAX_N", 10)  # auto -> CG
    auto = LSSVMRegressor(solver="auto").fit(X, y)
    np.testing.assert_allclose(auto.predict(X, return_std=True)[1], std_d, rtol=1e-12)
    direct.fit(X, 2 * y)  # refitting drops the cached factor
    assert direct._cholesky_ is None


def test_error_bars_keep_the_factor_object_of_the_weighted_system(regression_data):
    """The cached factor is a CholeskyFactor of K + diag(1/gamma_k) on the rows kept,
    gamma_k = ``sample_gamma_``; the error bars are [S 3.60] with that matrix."""
    X, y = regression_data
    w = np.linspace(0.0, 2.0, len(y))  # the first row has weight 0: left out
    reg = LSSVMRegressor(gamma=5.0, sigma2=1.0).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(reg.sample_gamma_, 5.0 * w[1:])
    assert LSSVMRegressor(gamma=5.0).fit(X, y).sample_gamma_ == 5.0
    _, std = reg.predict(X[:5], return_std=True)
    factor = reg._cholesky_
    assert isinstance(factor, CholeskyFactor) and len(factor) == len(y) - 1
    K = RBF(1.0)(X[1:])
    H = K + np.diag(1.0 / reg.sample_gamma_)
    L = np.tril(factor.L)  # only the lower triangle is the factor
    np.testing.assert_allclose(L @ L.T, H, rtol=1e-12, atol=1e-12)
    Kx = RBF(1.0)(X[:5], X[1:])
    eta = np.linalg.solve(H, np.ones(len(H)))
    p = Kx @ eta
    var = 1.0 - np.einsum("ij,ji->i", Kx, np.linalg.solve(H, Kx.T))
    var += (1.0 - p) ** 2 / eta.sum()  # the flat prior on b
    expected = np.sqrt(np.maximum(var, 0.0) * reg.signal_variance_)
    np.testing.assert_allclose(std, expected, rtol=1e-8, atol=1e-10)


def test_return_std_before_fit_raises(regression_data):
    X, _ = regression_data
    with pytest.raises(NotFittedError):
        LSSVMRegressor().predict(X, return_std=True)


def test_return_std_checks_features(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features"):
        reg.predict(X[:, :2], return_std=True)


# -- issue 25 --------------------------------------------------------------------------


def test_string_targets_name_y(regression_data):
    X, _ = regression_data
    with pytest.raises(ValueError, match="LSSVMRegressor: y must be numeric.*<U1"):
        LSSVMRegressor().fit(X, np.array(["a", "b", "c"] * 20))


def test_overflow_at_predict_raises_instead_of_nan(regression_data):
    X, y = regression_data
    reg = LSSVMRegressor(kernel="poly").fit(X, y)
    with np.errstate(over="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match="LSSVMRegressor: the model's output is"):
            reg.predict(X[:2] * 1e120)
