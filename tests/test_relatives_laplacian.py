"""Laplacian RLS / LS-SVM, Laplacian SVM and graph regression [C8 §8.2.3, §8.2.5]."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_moons
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier
from lssvm.kernels import RBF
from lssvm.relatives import (
    LapRLSClassifier,
    LapSVMClassifier,
    graph_laplacian,
    graph_regression,
)

RTOL = 1e-8
SIGMA2 = 0.1


@pytest.fixture
def moons():
    X, y = make_moons(120, noise=0.05, random_state=0)
    rng = np.random.default_rng(0)
    y_semi = np.full(len(y), -1)
    for c in (0, 1):
        idx = rng.choice(np.flatnonzero(y == c), 3, replace=False)
        y_semi[idx] = c
    X_test, y_test = make_moons(60, noise=0.05, random_state=1)
    return X, y, y_semi, X_test, y_test


def test_zero_graph_weight_is_the_supervised_lssvm(moons):
    X, _, y_semi, X_test, _ = moons
    lab = y_semi != -1
    gamma_A = 0.05
    lap = LapRLSClassifier(gamma_A=gamma_A, gamma_I=0.0, sigma2=SIGMA2).fit(X, y_semi)
    ref = LSSVMClassifier(gamma=1 / (gamma_A * lab.sum()), sigma2=SIGMA2)
    ref.fit(X[lab], y_semi[lab])
    np.testing.assert_allclose(
        lap.decision_function(X_test), ref.decision_function(X_test), rtol=RTOL,
        atol=1e-10,
    )  # fmt: skip


def test_zero_graph_weight_is_svc(moons):
    X, _, y_semi, X_test, _ = moons
    lab = y_semi != -1
    gamma_A = 0.05
    lap = LapSVMClassifier(gamma_A=gamma_A, gamma_I=0.0, sigma2=SIGMA2, tol=1e-10)
    lap.fit(X, y_semi)
    ref = SVC(C=1 / (2 * gamma_A * lab.sum()), gamma=1 / SIGMA2, tol=1e-10)
    ref.fit(X[lab], y_semi[lab])
    np.testing.assert_allclose(
        lap.decision_function(X_test), ref.decision_function(X_test), rtol=1e-7,
        atol=1e-8,
    )  # fmt: skip


def _belkin_system(X, y_semi, gamma_A, gamma_I, sigma2, bias):
    """Belkin et al. (2006) LapRLS over all l + u points, optionally with a bias.

    No bias: alpha = (J K + gamma_A l I + gamma_I l / n^2 L K)^{-1} Y. With an
    unpenalised bias b: [J K + gamma_A l I + gamma_I l / n^2 L K, J 1; 1^T J K, l]
    [alpha; b] = [Y; 1^T Y] (the stationarity conditions in alpha and b).
    """
    L, _ = graph_laplacian(X, n_neighbors=6)
    n = len(X)
    lab = y_semi != -1
    l = lab.sum()
    classes = np.unique(y_semi[lab])
    Y = np.where(lab, np.where(y_semi == classes[1], 1.0, -1.0), 0.0)
    J = np.diag(lab.astype(float))
    K = RBF(sigma2)(X)
    A = J @ K + gamma_A * l * np.eye(n) + gamma_I * l / n**2 * L @ K
    if not bias:
        return np.linalg.solve(A, Y), 0.0, K
    top = np.column_stack([A, J @ np.ones(n)])
    bottom = np.append(np.ones(n) @ J @ K, l)
    sol = np.linalg.solve(np.vstack([top, bottom]), np.append(Y, Y.sum()))
    return sol[:n], sol[n], K


@pytest.mark.parametrize("bias", [False, True])
def test_deformed_kernel_equals_belkin_closed_form(moons, bias):
    X, _, y_semi, X_test, _ = moons
    gamma_A, gamma_I = 0.02, 50.0
    lap = LapRLSClassifier(
        gamma_A=gamma_A, gamma_I=gamma_I, sigma2=SIGMA2, fit_intercept=bias
    ).fit(X, y_semi)
    alpha, b, K = _belkin_system(X, y_semi, gamma_A, gamma_I, SIGMA2, bias)
    f_train = K @ alpha + b
    f_test = RBF(SIGMA2)(X_test, X) @ alpha + b
    np.testing.assert_allclose(lap.decision_function(X), f_train, rtol=RTOL, atol=1e-9)
    np.testing.assert_allclose(
        lap.decision_function(X_test), f_test, rtol=RTOL, atol=1e-9
    )


def test_graph_helps_on_two_moons(moons):
    X, y, y_semi, X_test, y_test = moons
    kw = dict(gamma_A=0.01, sigma2=SIGMA2, n_neighbors=6)
    for cls in (LapRLSClassifier, LapSVMClassifier):
        semi = cls(gamma_I=1e6, **kw).fit(X, y_semi)
        assert semi.score(X_test, y_test) == 1.0
        assert semi.predict(X_test).dtype == y.dtype


def test_heat_and_normalized_laplacian(moons):
    X, *_ = moons
    L, W = graph_laplacian(X, n_neighbors=5, weights="heat", graph_sigma2=0.1)
    np.testing.assert_allclose(W, W.T)
    np.testing.assert_allclose(L.sum(axis=1), 0.0, atol=1e-12)  # L 1 = 0
    assert np.all((W >= 0) & (W <= 1))
    Ln, Wn = graph_laplacian(X, n_neighbors=5, normalized=True)
    d = Wn.sum(axis=1)
    np.testing.assert_allclose(Ln @ np.sqrt(d), 0.0, atol=1e-12)  # D^{1/2} 1 in null
    assert np.all(np.linalg.eigvalsh(Ln) > -1e-10)


def test_graph_regression_harmonic_and_tikhonov(moons):
    X, y, y_semi, *_ = moons
    L, W = graph_laplacian(X, n_neighbors=6)
    lab = y_semi != -1
    t = np.where(y == 1, 1.0, -1.0)
    f = graph_regression(L, t, lab)
    np.testing.assert_array_equal(f[lab], t[lab])
    # harmonic: every unlabelled value is the weighted mean of its neighbours
    u = ~lab
    np.testing.assert_allclose(f[u], (W @ f)[u] / W.sum(axis=1)[u], rtol=1e-10)
    # Tikhonov on the graph: the gradient J (f - y) + mu L f vanishes
    mu = 0.3
    g = graph_regression(L, t, lab, mu=mu)
    np.testing.assert_allclose(lab * (g - t) + mu * L @ g, 0.0, atol=1e-10)
    # and it tends to the harmonic solution as mu -> 0
    np.testing.assert_allclose(graph_regression(L, t, lab, mu=1e-9), f, atol=1e-6)


def test_errors(moons):
    X, y, y_semi, *_ = moons
    with pytest.raises(ValueError, match="gamma_A must be a positive float"):
        LapRLSClassifier(gamma_A=0.0).fit(X, y_semi)
    with pytest.raises(ValueError, match="gamma_I must be a finite float >= 0"):
        LapRLSClassifier(gamma_I=-1.0).fit(X, y_semi)
    with pytest.raises(ValueError, match="weights must be one of"):
        LapSVMClassifier(weights="gauss").fit(X, y_semi)
    with pytest.raises(ValueError, match="n_neighbors must be an integer >= 1"):
        LapRLSClassifier(n_neighbors=0).fit(X, y_semi)
    with pytest.raises(ValueError, match="n_neighbors must be smaller"):
        LapRLSClassifier(n_neighbors=len(X)).fit(X, y_semi)
    with pytest.raises(ValueError, match="needs exactly 2 classes"):
        LapRLSClassifier().fit(X, np.where(y_semi == 1, -1, y_semi))
    with pytest.raises(ValueError, match="fit_intercept must be True"):
        LapSVMClassifier(fit_intercept=False).fit(X, y_semi)
    with pytest.raises(ValueError, match="precomputed"):
        LapRLSClassifier(kernel="precomputed").fit(X, y_semi)
    L, _ = graph_laplacian(X, n_neighbors=6)
    lab = np.zeros(len(X), bool)
    lab[np.flatnonzero(y == 0)[0]] = True  # one moon labelled, the other not
    with pytest.raises(ValueError, match="connected components"):
        graph_regression(L, y.astype(float), lab)


@pytest.mark.parametrize("cls", [LapRLSClassifier, LapSVMClassifier])
def test_basic_api(moons, cls):
    X, _, y_semi, X_test, _ = moons
    est = cls(gamma_I=10.0, sigma2=SIGMA2)
    with pytest.raises(ValueError, match="not fitted"):
        est.predict(X_test)
    est.fit(X, y_semi)
    np.testing.assert_array_equal(est.classes_, [0, 1])
    assert est.n_features_in_ == 2
    pred = est.predict(X_test)
    assert pred.shape == (len(X_test),) and set(pred) <= {0, 1}
    twin = clone(est).fit(X, y_semi)
    np.testing.assert_array_equal(twin.decision_function(X_test),
                                  est.decision_function(X_test))  # fmt: skip
    with pytest.raises(ValueError, match="features"):
        est.predict(X_test[:, :1])


def test_deformed_gram_is_k_times_inverse(moons):
    """On the graph points, K~ = K - K (I + M K)^{-1} M K = K (I + M K)^{-1}."""
    X, _, y_semi, *_ = moons
    gamma_A, gamma_I, p = 0.02, 50.0, 2
    lap = LapRLSClassifier(
        gamma_A=gamma_A, gamma_I=gamma_I, sigma2=SIGMA2, weights="heat",
        graph_sigma2=0.1, laplacian_power=p,
    ).fit(X, y_semi)  # fmt: skip
    n = len(X)
    M = gamma_I / (gamma_A * n**2) * np.linalg.matrix_power(lap.laplacian_, p)
    K = RBF(SIGMA2)(X)
    K_tilde = K @ np.linalg.inv(np.eye(n) + M @ K)
    np.testing.assert_allclose(lap.deformed_kernel(X), K_tilde[:, lap.labelled_],
                               rtol=1e-8, atol=1e-10)  # fmt: skip
    assert np.all(np.linalg.eigvalsh(0.5 * (K_tilde + K_tilde.T)) > -1e-10)


# -- issue #32 defects -------------------------------------------------------------------


@pytest.mark.parametrize("cls", [LapRLSClassifier, LapSVMClassifier])
def test_unfitted_raises_not_fitted_and_two_class_tag(cls):
    # D10, D14
    from sklearn.exceptions import NotFittedError

    X = np.zeros((3, 2))
    for method in ("predict", "decision_function", "deformed_kernel"):
        with pytest.raises(NotFittedError):
            getattr(cls(), method)(X)
    assert cls().__sklearn_tags__().classifier_tags.multi_class is False


def test_memory_guard_before_the_graph_matrices(monkeypatch):
    # D9
    import lssvm.linalg.memory as memory

    X, y = make_moons(60, noise=0.1, random_state=0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(MemoryError, match="LapRLSClassifier"):
        LapRLSClassifier().fit(X, y)


# -- scikit-learn's checks ---------------------------------------------------------------
# The label -1 marks an unlabelled point (semi-supervised learning, as scikit-learn's
# LabelSpreading): a check that uses -1 as a class label gives the estimator fewer
# labelled classes than it expects, which the fit refuses.
LAPLACIAN_XFAIL = {
    "check_classifiers_classes": "the check uses -1 as a class label; -1 marks an "
    "unlabelled point here",
}


@parametrize_with_checks(
    [LapRLSClassifier(), LapSVMClassifier()],
    expected_failed_checks=lambda est: LAPLACIAN_XFAIL,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
