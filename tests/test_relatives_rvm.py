"""Relevance vector machine (lssvm.relatives.rvm): its evidence and its solvers
[C8 §8.7.1-8.7.3]."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import ARDRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm.datasets import load_ripley, sinc
from lssvm.kernels import RBF
from lssvm.relatives import RVMClassifier, RVMRegressor
from lssvm.relatives.rvm import log_evidence


def _full_alpha(model, n_basis):
    """alpha over the whole design (inf for basis functions out of the model)."""
    alpha = np.full(n_basis, np.inf)
    kept = model.alpha_
    if model.fit_intercept and np.isfinite(model.intercept_alpha_):
        kept = np.r_[model.intercept_alpha_, kept]
    alpha[model.basis_] = kept
    return alpha


@pytest.fixture(scope="module")
def sinc_data():
    return sinc(100, noise=0.1, random_state=0)


@parametrize_with_checks([RVMRegressor(), RVMRegressor(solver="em", max_iter=200)])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("solver", ["fast", "em"])
def test_stored_evidence_is_the_n_by_n_formula(sinc_data, solver):
    X, y = sinc_data
    m = RVMRegressor(sigma2=4.0, solver=solver).fit(X, y)
    Phi = np.column_stack([np.ones(len(X)), RBF(4.0)(X)])
    direct = log_evidence(Phi, y, _full_alpha(m, Phi.shape[1]), m.noise_variance_)
    assert m.log_evidence_ == pytest.approx(direct, abs=1e-8)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_evidence_at_least_that_of_sklearn_ard(sinc_data, fit_intercept):
    # The same objective (the evidence of [C8 §8.7.1], hyperpriors of sklearn set to
    # ~flat 1e-6), a different optimiser (sklearn's MacKay updates on the design).
    X, y = sinc_data
    m = RVMRegressor(sigma2=4.0, fit_intercept=fit_intercept).fit(X, y)
    K = RBF(4.0)(X)
    Phi = np.column_stack([np.ones(len(X)), K]) if fit_intercept else K
    ard = ARDRegression(fit_intercept=False, max_iter=1000, tol=1e-6,
                        threshold_lambda=1e9).fit(Phi, y)  # fmt: skip
    keep = ard.lambda_ < ard.threshold_lambda
    alpha = np.where(keep, ard.lambda_, np.inf)
    ours = log_evidence(Phi, y, _full_alpha(m, Phi.shape[1]), m.noise_variance_)
    theirs = log_evidence(Phi, y, alpha, 1.0 / ard.alpha_)
    assert ours >= theirs - 1e-6
    assert m.n_relevance_ < keep.sum()


def test_fast_and_em_reach_the_same_evidence(sinc_data):
    X, y = sinc_data
    fast = RVMRegressor(sigma2=4.0, solver="fast").fit(X, y)
    em = RVMRegressor(sigma2=4.0, solver="em", tol=1e-8, max_iter=5000).fit(X, y)
    assert em.converged_ and fast.converged_
    assert fast.log_evidence_ == pytest.approx(em.log_evidence_, abs=0.2)
    assert abs(fast.n_relevance_ - em.n_relevance_) <= 2
    np.testing.assert_allclose(fast.predict(X), em.predict(X), atol=0.02)


def test_fast_evidence_increases(sinc_data):
    X, y = sinc_data
    m = RVMRegressor(sigma2=4.0, fit_noise=False, noise_variance=0.01).fit(X, y)
    # with the noise fixed every accepted action raises the evidence [C8 §8.7.3]
    assert np.all(np.diff(m.evidence_history_) > -1e-9)


def test_predictive_variance_is_the_direct_formula(sinc_data):
    X, y = sinc_data
    m = RVMRegressor(sigma2=4.0).fit(X, y)
    Xs = np.linspace(-12, 12, 7)[:, None]
    mean, std = m.predict(Xs, return_std=True)
    # GP view: f ~ N(0, Phi A^-1 Phi^T); condition on t, add the noise.
    kern = RBF(4.0)
    P = np.column_stack([np.ones(len(X)), kern(X, m.relevance_vectors_)])
    Ps = np.column_stack([np.ones(len(Xs)), kern(Xs, m.relevance_vectors_)])
    if not np.isfinite(m.intercept_alpha_):
        P, Ps = P[:, 1:], Ps[:, 1:]
        a_inv = 1.0 / m.alpha_
    else:
        a_inv = 1.0 / np.r_[m.intercept_alpha_, m.alpha_]
    C = m.noise_variance_ * np.eye(len(X)) + (P * a_inv) @ P.T
    k_star = (Ps * a_inv) @ P.T
    direct_mean = k_star @ np.linalg.solve(C, y)
    prior = np.einsum("ij,j,ij->i", Ps, a_inv, Ps)
    direct_var = m.noise_variance_ + prior - np.einsum(
        "ij,ji->i", k_star, np.linalg.solve(C, k_star.T))
    np.testing.assert_allclose(mean, direct_mean, atol=1e-8)
    np.testing.assert_allclose(std**2, direct_var, rtol=1e-6, atol=1e-10)


def test_sparse_on_sinc():
    X, y = sinc(200, noise=0.1, random_state=1)
    m = RVMRegressor(sigma2=4.0).fit(X, y)
    assert m.n_relevance_ <= 15
    Xt = np.linspace(-10, 10, 400)[:, None]
    rmse = np.sqrt(np.mean((m.predict(Xt) - np.sinc(Xt[:, 0] / np.pi)) ** 2))
    assert rmse < 0.05
    assert m.noise_variance_ == pytest.approx(0.01, rel=0.3)


def test_deterministic(sinc_data):
    X, y = sinc_data
    a = RVMRegressor(sigma2=4.0).fit(X, y)
    b = RVMRegressor(sigma2=4.0).fit(X, y)
    np.testing.assert_array_equal(a.relevance_indices_, b.relevance_indices_)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_linear_kernel_without_bias():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.05 * rng.standard_normal(60)
    m = RVMRegressor(kernel="linear", fit_intercept=False).fit(X, y)
    assert m.intercept_ == 0.0 and not np.isfinite(m.intercept_alpha_)
    assert np.sqrt(np.mean((m.predict(X) - y) ** 2)) < 0.1


@pytest.fixture(scope="module")
def ripley():
    return load_ripley("train"), load_ripley("test")


@pytest.mark.parametrize("solver", ["fast", "em"])
def test_classifier_ripley(ripley, solver):
    (X, y), (Xt, yt) = ripley
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        c = RVMClassifier(sigma2=0.25, solver=solver).fit(X, y)
    assert c.converged_ and c.irls_failures_ == 0
    assert c.n_relevance_ <= 10
    assert 1.0 - c.score(Xt, yt) < 0.12
    proba = c.predict_proba(Xt)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(c.predict(Xt), c.classes_[(proba[:, 1] > 0.5).astype(int)])


def test_classifier_irls_converges_on_separable_data():
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(-2, 0.5, (40, 2)), rng.normal(2, 0.5, (40, 2))]
    y = np.r_[np.zeros(40), np.ones(40)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        c = RVMClassifier(sigma2=2.0).fit(X, y)
    assert c.score(X, y) == 1.0
    assert c.irls_failures_ == 0


def test_classifier_warns_when_irls_or_outer_loop_stop_early(ripley):
    (X, y), _ = ripley
    with pytest.warns(ConvergenceWarning, match="irls_max_iter=1"):
        RVMClassifier(sigma2=0.25, irls_max_iter=1).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        RVMClassifier(sigma2=0.25, max_iter=2).fit(X, y)


def test_regressor_warns_when_max_iter_is_tiny(sinc_data):
    X, y = sinc_data
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        RVMRegressor(sigma2=4.0, max_iter=3).fit(X, y)


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(solver="newton"), "solver must be one of"),
        (dict(fit_intercept="yes"), "fit_intercept must be a bool"),
        (dict(max_iter=0), "max_iter"),
        (dict(tol=-1.0), "tol"),
        (dict(sigma2=-1.0), "sigma2"),
        (dict(kernel="precomputed"), "precomputed"),
        (dict(noise_variance=0.0), "noise_variance"),
    ],
)
def test_bad_parameters(sinc_data, params, match):
    X, y = sinc_data
    with pytest.raises(ValueError, match=match):
        RVMRegressor(**params).fit(X, y)


def test_classifier_bad_parameters(ripley):
    (X, y), _ = ripley
    with pytest.raises(ValueError, match="irls_max_iter"):
        RVMClassifier(irls_max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="two classes"):
        RVMClassifier().fit(np.r_[X, X[:3]], np.r_[y, [2, 2, 2]])


# -- issue #32 defects -------------------------------------------------------------------


@pytest.mark.parametrize("solver", ["fast", "em"])
@pytest.mark.parametrize("scale", [1e-10, 1e6])
def test_regressor_is_scale_equivariant(solver, scale):
    # D2: the floors are relative to the targets; y * 1e-10 collapsed before.
    X, y = sinc(80, noise=0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = RVMRegressor(sigma2=1.0, solver=solver).fit(X, y)
        b = RVMRegressor(sigma2=1.0, solver=solver).fit(X, scale * y)
    np.testing.assert_array_equal(a.relevance_indices_, b.relevance_indices_)
    np.testing.assert_allclose(b.predict(X), scale * a.predict(X), rtol=1e-6,
                               atol=1e-9 * scale)  # fmt: skip
    assert b.noise_variance_ == pytest.approx(scale**2 * a.noise_variance_, rel=1e-6)


def test_polynomial_overflow_raises_instead_of_nan():
    # D7: (x^T z + tau)^d overflows at huge inputs: a clear error, not NaN.
    X, y = sinc(30, noise=0.1, random_state=0)
    with pytest.raises(ValueError, match="NaN or inf"):
        RVMRegressor(kernel="poly", degree=3).fit(X * 1e120, y)
    reg = RVMRegressor(kernel="poly", degree=2).fit(X, y)
    with pytest.raises(ValueError, match="NaN or inf"):
        reg.predict(X * 1e200)


def test_memory_guard_before_the_design_matrix(monkeypatch):
    # D9: N x N design matrix checked against the available memory first.
    import lssvm.linalg.memory as memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    X, y = sinc(40, noise=0.1, random_state=0)
    with pytest.raises(MemoryError, match="RVMRegressor"):
        RVMRegressor().fit(X, y)
    with pytest.raises(MemoryError, match="RVMClassifier"):
        RVMClassifier().fit(X, y > 0)


def test_unfitted_classifier_raises_not_fitted_and_is_two_class():
    # D10, D14
    from sklearn.exceptions import NotFittedError

    X = np.zeros((3, 2))
    for method in ("predict", "decision_function", "predict_proba"):
        with pytest.raises(NotFittedError):
            getattr(RVMClassifier(), method)(X)
    assert RVMClassifier().__sklearn_tags__().classifier_tags.multi_class is False
