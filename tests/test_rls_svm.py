"""Tests of lssvm.relatives.rls_svm: the L2-loss SVM (6) by the RLS iteration of [Peng16]."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm.datasets import load_ripley
from lssvm.linalg.factor import update_cholesky
from lssvm.relatives.rls_svm import RLSSVMClassifier, solve_on_support


def _data(seed=0, n=80, noise=0.6):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + noise * rng.standard_normal(n) > 0, 7, 3)
    return X, y


def _primal_linear(X, y_pm, C):
    """Independent minimiser of (6) over (w, b), b unregularised: L-BFGS-B."""

    def fun(p):
        w, b = p[:-1], p[-1]
        e = np.maximum(0.0, 1.0 - y_pm * (X @ w + b))
        g = -2.0 * C * e * y_pm
        return w @ w + C * e @ e, np.append(2.0 * w + X.T @ g, g.sum())

    res = minimize(
        fun,
        np.zeros(X.shape[1] + 1),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000},
    )
    return res.x[:-1], res.x[-1], res.fun


def test_table1_toy_problem():
    # Section 6.1 and Table 1, RLSSVM column, C = 10000
    X = np.array([[1.1, 1.0], [1.0, 1.0], [0.0, 0.0], [-0.1, 0.0]])
    y = np.array([1, 1, -1, -1])
    clf = RLSSVMClassifier(C=1e4, kernel="linear").fit(X, y)
    assert clf.support_.tolist() == [1, 2]  # "SVs 2,3"
    np.testing.assert_allclose(np.round(clf.dual_coef_, 4), [0.9999, -0.9999])
    assert round(clf.b_, 4) == -0.9999
    w = clf.support_vectors_.T @ clf.dual_coef_
    assert round(float(w @ w), 4) == 1.9996
    l2_loss = float(np.sum(np.maximum(clf.e_, 0.0) ** 2))
    assert float(f"{l2_loss:.4e}") == 1.9996e-8
    printed = [-9.9890e-2, 9.9990e-5, 9.9990e-5, -9.9890e-2]
    assert [float(f"{e:.4e}") for e in clf.e_] == printed
    # (53): theta = C e_S; (51): sum y theta = 0
    np.testing.assert_allclose(clf.theta_, 1e4 * clf.e_[clf.support_])
    assert abs(clf.dual_coef_.sum()) < 1e-12


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_linear_matches_primal_lbfgs(C):
    X, y = _data()
    clf = RLSSVMClassifier(C=C, kernel="linear").fit(X, y)
    y_pm = np.where(y == clf.classes_[1], 1.0, -1.0)
    w_ref, b_ref, J_ref = _primal_linear(X, y_pm, C)
    w = clf.support_vectors_.T @ clf.dual_coef_  # (52)
    np.testing.assert_allclose(w, w_ref, atol=1e-6)
    np.testing.assert_allclose(clf.b_, b_ref, atol=1e-6)
    np.testing.assert_allclose(clf.objective_, J_ref, rtol=1e-10)
    np.testing.assert_allclose(clf.objective_, clf.theta_.sum(), rtol=1e-10)  # (56)


def test_linear_matches_sklearn_linear_svc():
    # sklearn: 1/2 w^T w + C_sk sum sq_hinge = (w^T w + 2 C_sk sum sq_hinge) / 2, so
    # C_sk = C / 2. LinearSVC penalises the intercept (as a feature of value
    # intercept_scaling): a large intercept_scaling makes that penalty negligible,
    # hence the loose tolerance of 1e-3.
    X, y = _data(seed=1)
    C = 2.0
    clf = RLSSVMClassifier(C=C, kernel="linear").fit(X, y)
    svc = LinearSVC(
        loss="squared_hinge",
        penalty="l2",
        dual=False,
        C=C / 2,
        intercept_scaling=1e3,
        tol=1e-10,
        max_iter=100000,
    ).fit(X, y)
    w = clf.support_vectors_.T @ clf.dual_coef_
    np.testing.assert_allclose(w, svc.coef_[0], atol=1e-3)
    np.testing.assert_allclose(clf.b_, svc.intercept_[0], atol=1e-3)


def test_rbf_matches_primal_in_kernel_expansion():
    # f = K a + b, objective a^T K a + C sum max(0, 1 - y f)^2. With K = U L U^T and
    # a = U L^{-1/2} c this is the linear problem (6) in the features Z = U L^{1/2}
    # (c^T c + C sum sq_hinge), which L-BFGS-B solves without K's ill-conditioning.
    X, y = _data(seed=2, n=60)
    C, sigma2 = 1.0, 2.0
    clf = RLSSVMClassifier(C=C, kernel="rbf", sigma2=sigma2).fit(X, y)
    y_pm = np.where(y == clf.classes_[1], 1.0, -1.0)
    K = clf.kernel_(X, X)
    lam, U = np.linalg.eigh(K)
    Z = U * np.sqrt(np.maximum(lam, 0.0))
    c, b_ref, J_ref = _primal_linear(Z, y_pm, C)
    np.testing.assert_allclose(clf.decision_function(X), Z @ c + b_ref, atol=1e-5)
    np.testing.assert_allclose(clf.b_, b_ref, atol=1e-5)
    np.testing.assert_allclose(clf.objective_, J_ref, rtol=1e-8)


@pytest.mark.parametrize(
    "params", [{"kernel": "linear"}, {"kernel": "rbf"}, {"kernel": "poly", "C": 0.1}]
)
def test_optimality_conditions_and_objective_decrease(params):
    X, y = _data(seed=3, n=120)
    clf = RLSSVMClassifier(**params).fit(X, y)
    assert clf.converged_
    opt = clf.optimality(X, y)
    assert opt.min_error_support > 0 and opt.max_error_outside <= 0
    assert opt.holds(tol=1e-8)
    np.testing.assert_allclose(clf.theta_, clf.C * clf.e_[clf.support_])  # (53)
    assert np.all(clf.theta_ > 0)  # (54)
    assert abs(clf.dual_coef_.sum()) < 1e-10  # (51)
    path = clf.objective_path_
    assert len(path) == clf.n_iter_
    assert np.all(np.diff(path) <= 1e-10 * path[0])


def test_solve_on_support_matches_inverse_formula():
    rng = np.random.default_rng(4)
    G = rng.standard_normal((6, 3))
    K, y_S, C = G @ G.T, np.array([1.0, -1, 1, 1, -1, -1]), 3.0
    A_inv = np.linalg.inv(K + np.eye(6) / C)
    b = (A_inv @ y_S).sum() / A_inv.sum()  # (48)
    theta = y_S * (A_inv @ (y_S - b))
    theta_got, b_got = solve_on_support(K, y_S, C)
    np.testing.assert_allclose(theta_got, theta, rtol=1e-10)
    np.testing.assert_allclose(b_got, b, rtol=1e-10)


def test_labels_any_two_values_and_predict():
    X, y = _data(seed=5)
    labels = np.array(["no", "yes"])[(y == 7).astype(int)]
    clf = RLSSVMClassifier(kernel="linear").fit(X, labels)
    assert clf.classes_.tolist() == ["no", "yes"]
    f = clf.decision_function(X)
    np.testing.assert_array_equal(clf.predict(X), np.where(f > 0, "yes", "no"))
    assert clf.score(X, labels) > 0.8


def test_max_iter_warns():
    X, y = _data(seed=6)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        clf = RLSSVMClassifier(max_iter=1).fit(X, y)
    assert not clf.converged_ and clf.n_iter_ == 1


@pytest.mark.parametrize("C", [0, -1.0, np.inf, "1", None])
def test_bad_regularisation_constant_raises(C):
    X, y = _data()
    with pytest.raises(ValueError, match=r"RLSSVMClassifier: C must be a positive"):
        RLSSVMClassifier(C=C).fit(X, y)


@pytest.mark.parametrize("max_iter", [0, 1.5, True])
def test_bad_max_iter_raises(max_iter):
    X, y = _data()
    with pytest.raises(ValueError, match="max_iter must be an integer >= 1"):
        RLSSVMClassifier(max_iter=max_iter).fit(X, y)


def test_more_than_two_classes_raises():
    X, _ = _data()
    with pytest.raises(
        ValueError, match="RLSSVMClassifier: Only binary classification is supported; got 3 classes"
    ):
        RLSSVMClassifier().fit(X, np.arange(len(X)) % 3)


def test_binary_tag():
    assert RLSSVMClassifier().__sklearn_tags__().classifier_tags.multi_class is False


def _spd(n, seed=7):
    rng = np.random.default_rng(seed)
    G = rng.standard_normal((n, 3))
    return np.exp(-((G[:, None] - G[None]) ** 2).sum(-1)) + np.eye(n) / 10.0


@pytest.mark.parametrize(
    "new_order",
    [
        [0, 1, 2, 4, 5, 7, 8, 9],  # removals only (3, 6)
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 10],  # additions only
        [0, 1, 3, 5, 6, 11, 7, 8, 9, 13],  # both, tail re-ordered
        [9, 0, 1, 2, 3, 4, 5, 6, 7, 8],  # no common prefix: full refactor
        [0, 1, 2, 3],  # truncation
    ],
)
def test_update_cholesky_equals_fresh_factor(new_order):
    A = _spd(14)
    order, new_order = np.arange(10), np.array(new_order)
    L = np.linalg.cholesky(A[np.ix_(order, order)])
    L_new = update_cholesky(L, order, new_order, lambda i: A[i][:, new_order])
    fresh = np.linalg.cholesky(A[np.ix_(new_order, new_order)])
    np.testing.assert_allclose(L_new, fresh, atol=1e-10, rtol=0)
    np.testing.assert_array_equal(L_new, np.tril(L_new))


def test_update_cholesky_chain_of_updates():
    A, rng = _spd(60, seed=8), np.random.default_rng(9)
    order = rng.permutation(60)[:40]
    L = np.linalg.cholesky(A[np.ix_(order, order)])
    for _ in range(5):
        keep = order[rng.random(len(order)) > 0.1]
        out = np.setdiff1d(np.arange(60), keep)
        new_order = np.concatenate([keep, rng.choice(out, 4, replace=False)])
        L = update_cholesky(L, order, new_order, lambda i: A[i][:, new_order])
        order = new_order
        fresh = np.linalg.cholesky(A[np.ix_(order, order)])
        np.testing.assert_allclose(L, fresh, atol=1e-10, rtol=0)


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "linear", "C": 1.0},
        {"kernel": "linear", "C": 100.0},
        {"kernel": "rbf", "C": 10.0},
        {"kernel": "rbf", "C": 1.0, "sigma2": 0.5},
        {"kernel": "poly", "C": 0.1},
    ],
)
@pytest.mark.parametrize("seed", [0, 3, 11])
def test_factor_reuse_matches_fresh_factor(params, seed):
    C_of = lambda p: p.get("C", 1.0)  # noqa: E731
    X, y = _data(seed=seed, n=300, noise=0.8)
    fresh = RLSSVMClassifier(reuse_factor=False, **params).fit(X, y)
    reuse = RLSSVMClassifier(reuse_factor=True, **params).fit(X, y)
    assert fresh.converged_ and reuse.converged_
    np.testing.assert_array_equal(reuse.support_, fresh.support_)
    # 1e-10 relative to the size of theta (= C e_S, up to ~C): with the linear kernel
    # and C = 100, A_S = I / C + K_SS has condition ~1e4 and theta ~1e2, so two exact
    # factorisations in different orders differ by ~1e-10 absolute.
    scale = max(1.0, np.abs(fresh.theta_).max())
    np.testing.assert_allclose(reuse.theta_, fresh.theta_, atol=1e-10 * scale, rtol=0)
    assert abs(reuse.b_ - fresh.b_) < 1e-10
    np.testing.assert_allclose(reuse.e_, fresh.e_, atol=1e-10 * scale / C_of(params))
    assert reuse.n_iter_ == fresh.n_iter_
    np.testing.assert_allclose(reuse.objective_path_, fresh.objective_path_, rtol=1e-10)


def test_n_sv_max_large_enough_gives_the_same_solution():
    X, y = _data(seed=4, n=300, noise=0.8)
    full = RLSSVMClassifier(C=10.0).fit(X, y)
    n_sv = len(full.support_)
    for reuse in (False, True):
        capped = RLSSVMClassifier(C=10.0, n_sv_max=n_sv + 20, reuse_factor=reuse)
        capped.fit(X, y)
        assert capped.converged_
        np.testing.assert_array_equal(capped.support_, full.support_)
        np.testing.assert_allclose(capped.theta_, full.theta_, atol=1e-8)
        assert capped.optimality(X, y).holds(tol=1e-7)


def test_n_sv_max_stratified_initial_set(monkeypatch):
    import lssvm.relatives.rls_svm as module

    X, y = _data(seed=5, n=200)
    drawn = []
    original = module._stratified_initial_set

    def spy(y_pm, n_sv_max, rng):
        drawn.append(original(y_pm, n_sv_max, rng))
        return drawn[-1]

    monkeypatch.setattr(module, "_stratified_initial_set", spy)
    clf = RLSSVMClassifier(C=1.0, n_sv_max=150).fit(X, y)
    y_pm = np.where(y == clf.classes_[1], 1, -1)
    (S0,) = drawn
    assert len(S0) == 150 and len(np.unique(S0)) == 150
    assert abs(np.sum(y_pm[S0] > 0) - 150 * np.mean(y_pm > 0)) <= 1  # proportional
    RLSSVMClassifier(C=1.0, n_sv_max=150).fit(X, y)
    np.testing.assert_array_equal(drawn[1], S0)  # random_state=0 by default
    RLSSVMClassifier(C=1.0, n_sv_max=150, random_state=1).fit(X, y)
    assert not np.array_equal(drawn[2], S0)


def test_n_sv_max_binding_warns():
    X, y = _data(seed=6, n=200, noise=1.0)
    n_sv = len(RLSSVMClassifier(C=10.0).fit(X, y).support_)
    with pytest.warns(ConvergenceWarning, match="n_sv_max"):
        clf = RLSSVMClassifier(C=10.0, n_sv_max=n_sv // 2, max_iter=300).fit(X, y)
    assert len(clf.support_) <= n_sv // 2


@pytest.mark.parametrize("n_sv_max", [0, 1, 2.5, True, "10"])
def test_bad_n_sv_max_raises(n_sv_max):
    X, y = _data()
    with pytest.raises(ValueError, match="n_sv_max must be None or an integer >= 2"):
        RLSSVMClassifier(n_sv_max=n_sv_max).fit(X, y)


def test_bad_reuse_factor_raises():
    X, y = _data()
    with pytest.raises(ValueError, match="reuse_factor must be a bool"):
        RLSSVMClassifier(reuse_factor="yes").fit(X, y)


@parametrize_with_checks([RLSSVMClassifier(), RLSSVMClassifier(reuse_factor=False)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


# -- issue 25: no raw scipy/numpy errors ---------------------------------------------


def test_indefinite_kernel_gives_a_named_error():
    from lssvm.linalg.solvers import NotPositiveDefiniteError

    X, y = _data(n=40)

    def sigmoid(A, B):  # tanh(a x.z + c): not positive semi-definite
        return np.tanh(2 * A @ B.T - 3)

    with pytest.raises(
        NotPositiveDefiniteError,
        match=r"RLSSVMClassifier: C\^\{-1\} I \+ K_SS \[P 58\] is not positive "
        r"definite.*C=100\.0.*decrease C",
    ) as info:
        RLSSVMClassifier(C=100.0, kernel=sigmoid).fit(X, y)
    # advice in RLS-SVM terms only: the factor's advice on gamma is not repeated
    assert "gamma" not in str(info.value)


@pytest.mark.parametrize("reuse_factor", [True, False])
def test_overflowing_kernel_gives_a_named_error(reuse_factor):
    X, y = _data(n=40)
    with np.errstate(over="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match=r"Polynomial\(degree=200.*overflow"):
            RLSSVMClassifier(kernel="poly", degree=200, reuse_factor=reuse_factor).fit(
                100 * X, y
            )


def test_overflow_at_predict_raises_instead_of_nan():
    X, y = _data(n=40)
    clf = RLSSVMClassifier(kernel="poly").fit(X, y)
    with np.errstate(over="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match="RLSSVMClassifier: the model's output"):
            clf.predict(X[:3] * 1e120)


def test_optimality_of_a_weighted_fit_uses_the_weights():
    """C_k = C w_k in [P 6]: a converged weighted fit meets its own conditions."""
    X, y = load_ripley("train")
    w = np.where(y == 1, 3.0, 1.0)
    w[:5] = 0.0  # rows of weight 0 take no part, in the fit and in the check
    clf = RLSSVMClassifier(C=1.0, kernel="rbf", sigma2=0.5).fit(X, y, sample_weight=w)
    opt = clf.optimality(X, y, sample_weight=w)
    assert opt.gradient_w_norm < 1e-8 and abs(opt.gradient_b) < 1e-8, opt
    assert opt.holds(tol=1e-7)
    # the conditions of another problem: the same rows, unweighted (support_
    # numbers the rows of the X of fit, so the check takes that X)
    unweighted = clf.optimality(X, y, sample_weight=(w > 0).astype(float))
    assert unweighted.gradient_w_norm > 1.0


def test_optimality_of_a_weighted_fit_needs_its_weights():
    """A converged weighted fit on Ripley (w = 3 for class 1) meets its conditions
    when given its weights, the documented way; without them it raises, rather than
    report the unweighted problem's gradient (78 on this fit, where the weights of
    the fit used to be found by a hash of X)."""
    X, y = load_ripley("train")
    w = np.where(y == 1, 3.0, 1.0)
    clf = RLSSVMClassifier(C=1.0, kernel="rbf", sigma2=0.5).fit(X, y, sample_weight=w)
    assert clf.converged_
    opt = clf.optimality(X, y, sample_weight=w)
    assert opt.gradient_w_norm < 1e-8 and abs(opt.gradient_b) < 1e-8, opt
    assert opt.holds(tol=1e-7)
    assert clf.optimality(X.copy(), list(y), sample_weight=list(w)) == opt
    with pytest.raises(
        ValueError,
        match=r"RLSSVMClassifier: sample_weight must be the weights of \[P 6\] .*"
        r"got sample_weight=None\. Pass the sample_weight given to fit",
    ):
        clf.optimality(X, y)
    # the weights are used as given: unit weights are the unweighted problem
    unit = clf.optimality(X, y, sample_weight=np.ones(len(y)))
    assert unit.gradient_w_norm > 10.0
    # an unweighted fit is checked without weights, or with unit weights alike
    unweighted = RLSSVMClassifier(C=1.0, kernel="rbf", sigma2=0.5).fit(X, y)
    assert unweighted.optimality(X, y).holds(tol=1e-7)
    assert unweighted.optimality(X, y, sample_weight=np.ones(len(y))) == (
        unweighted.optimality(X, y)
    )
    assert not unweighted.optimality(X, y, sample_weight=w).holds(tol=1e-7)


def test_optimality_needs_the_training_rows():
    X, y = _data(n=80)
    clf = RLSSVMClassifier(kernel="linear").fit(X, y)
    with pytest.raises(
        ValueError,
        match=r"RLSSVMClassifier: X must be the training input of fit \(support_ "
        r"numbers its rows\); got X with 79 rows for a fit on 80\.",
    ):
        clf.optimality(X[1:], y[1:])


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_optimality_of_a_precomputed_kernel(kernel):
    """optimality(K, y) of a precomputed fit reads K = K(X_train, X_train) as the
    Gram matrix: all its fields equal those of the same fit on X, also for weights
    of another problem, where the gradient in w is far from 0 and depends on K."""
    from lssvm.kernels import make_kernel

    X, y = _data(seed=3, n=120)
    K = make_kernel(kernel, sigma2=2.0)(X, X)
    clf = RLSSVMClassifier(kernel="precomputed").fit(K, y)
    ref_clf = RLSSVMClassifier(kernel=kernel, sigma2=2.0).fit(X, y)
    np.testing.assert_array_equal(clf.support_, ref_clf.support_)
    w = np.where(y == 7, 3.0, 1.0)
    w[:4] = 0.0  # rows of weight 0 left out: K loses their rows and columns
    for weights in (None, w):
        opt = clf.optimality(K, y, sample_weight=weights)
        ref = ref_clf.optimality(X, y, sample_weight=weights)
        for field in opt._fields:
            assert getattr(opt, field) == pytest.approx(
                getattr(ref, field), rel=1e-8, abs=1e-8
            ), (weights is None, field, opt, ref)
    assert clf.optimality(K, y).holds(tol=1e-8)
    assert opt.gradient_w_norm > 1.0  # the weighted check: K enters the gradient


@pytest.mark.parametrize("reuse_factor", [True, False])
def test_probability_reuses_the_last_factor_and_matches_a_fresh_one(reuse_factor):
    """The leave-one-out outputs on S come from the factor of the last solve of
    [P 48]; they equal those of a fresh LS-SVM fit on S with gamma_k = C_k."""
    from lssvm.linalg.solvers import solve_bordered_kkt

    X, y = load_ripley("train")
    clf = RLSSVMClassifier(
        C=1.0, sigma2=0.5, probability=True, reuse_factor=reuse_factor
    ).fit(X, y)
    S = clf.support_
    y_pm = np.where(y == clf.classes_[1], 1.0, -1.0)
    sol = solve_bordered_kkt(clf.kernel_(X[S], X[S]), 1.0, np.ones(len(S)), y_pm[S])
    fresh = sol.factor.loo_latent(y_pm[S], sol.alpha)
    np.testing.assert_allclose(clf.loo_decision_[S], fresh, atol=1e-10)
