"""Proximal SVM (lssvm.relatives.psvm): its identities with the LS-SVM [C8 §8.4.4]."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier
from lssvm.kernels import RBF
from lssvm.relatives import PSVMClassifier


@parametrize_with_checks([PSVMClassifier(), PSVMClassifier(kernel="rbf")])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_kernel_psvm_is_the_lssvm_without_border_on_k_plus_one(classification_data):
    X, y = classification_data
    psvm = PSVMClassifier(kernel="rbf", sigma2=0.7, gamma=5.0).fit(X, y)
    shifted = lambda A, B: RBF(0.7)(A, B) + 1.0  # noqa: E731
    ls = LSSVMClassifier(kernel=shifted, gamma=5.0, fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(psvm.dual_coef_, ls.dual_coef_, rtol=0, atol=1e-10)
    np.testing.assert_allclose(
        psvm.decision_function(X), ls.decision_function(X), rtol=0, atol=1e-10
    )
    # b = sum_k alpha_k y_k, alpha_k = gamma e_k
    assert psvm.intercept_ == pytest.approx(psvm.dual_coef_.sum(), abs=1e-12)
    np.testing.assert_allclose(psvm.alpha_, ls.alpha_, atol=1e-10)


def test_primal_closed_form_equals_dual_with_linear_kernel(classification_data):
    X, y = classification_data
    primal = PSVMClassifier(gamma=3.0, method="primal").fit(X, y)
    dual = PSVMClassifier(gamma=3.0, method="dual").fit(X, y)
    assert primal.method_ == "primal" and dual.method_ == "dual"
    np.testing.assert_allclose(primal.coef_, dual.coef_, atol=1e-10)
    assert primal.intercept_ == pytest.approx(dual.intercept_, abs=1e-10)
    assert PSVMClassifier().fit(X, y).method_ == "primal"  # auto: n < N


def test_primal_solves_the_regularised_least_squares_problem(rng):
    X = rng.standard_normal((50, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    gamma = 2.0
    clf = PSVMClassifier(gamma=gamma).fit(X, y)
    E = np.c_[X, np.ones(50)]
    theta = np.linalg.solve(E.T @ E + np.eye(4) / gamma, E.T @ y)
    np.testing.assert_allclose(np.r_[clf.coef_, clf.intercept_], theta, atol=1e-12)


def test_one_vs_rest_shares_one_factorisation_and_equals_separate_fits():
    X, y = load_iris(return_X_y=True)
    clf = PSVMClassifier(kernel="rbf", sigma2=2.0, gamma=10.0).fit(X, y)
    assert clf.n_factorizations_ == 1 and clf.dual_coef_.shape == (150, 3)
    for k in range(3):
        one = PSVMClassifier(kernel="rbf", sigma2=2.0, gamma=10.0)
        one.fit(X, (y == k).astype(int))
        np.testing.assert_allclose(one.dual_coef_, clf.dual_coef_[:, k], atol=1e-12)
    scores = clf.decision_function(X)
    np.testing.assert_array_equal(clf.predict(X), np.argmax(scores, axis=1))
    assert clf.score(X, y) > 0.95
    linear = PSVMClassifier(gamma=10.0).fit(X, y)
    assert linear.coef_.shape == (3, 4) and linear.intercept_.shape == (3,)


def test_every_point_is_a_support_vector(classification_data):
    X, y = classification_data
    clf = PSVMClassifier(kernel="rbf", gamma=5.0).fit(X, y)
    assert np.all(np.abs(clf.alpha_) > 0)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"gamma": -1.0}, "gamma must be a positive float"),
        ({"method": "qr"}, "method must be one of"),
        ({"method": "primal", "kernel": "rbf"}, "needs the linear kernel"),
        ({"kernel": "sigmoid"}, "kernel must be one of"),
    ],
)
def test_bad_parameters_raise(classification_data, params, match):
    X, y = classification_data
    with pytest.raises(ValueError, match=match):
        PSVMClassifier(**params).fit(X, y)


def test_one_class_raises(classification_data):
    X, _ = classification_data
    with pytest.raises(ValueError, match="at least 2 classes"):
        PSVMClassifier().fit(X, np.ones(len(X)))


# -- issue #32 defects -------------------------------------------------------------------


def test_precomputed_kernel_is_refused():
    # D1: kernel="precomputed" gave wrong answers; now a clear error.
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="kernel='precomputed' is not supported by PSVM"):
        PSVMClassifier(kernel="precomputed").fit(RBF(1.0)(X), y)


def test_polynomial_overflow_raises_instead_of_nan():
    # D7
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="NaN or inf"):
        PSVMClassifier(kernel="poly", degree=3, method="dual").fit(X * 1e120, y)
    clf = PSVMClassifier(kernel="poly", degree=2, method="dual").fit(X, y)
    with pytest.raises(ValueError, match="NaN or inf"):
        clf.decision_function(X * 1e200)


def test_memory_guard_before_the_kernel_matrix(monkeypatch):
    # D9
    import lssvm.linalg.memory as memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    X, y = load_iris(return_X_y=True)
    with pytest.raises(MemoryError, match="PSVMClassifier"):
        PSVMClassifier(kernel="rbf").fit(X, y)
    PSVMClassifier(kernel="linear", method="primal").fit(X, y)  # no N x N matrix


@pytest.mark.parametrize("params", [
    dict(kernel="linear", method="primal"),
    dict(kernel="linear", method="dual"),
    dict(kernel="rbf", sigma2=2.0),
])  # fmt: skip
def test_sample_weight_equals_repeated_rows(params):
    # D17: weighted least squares; integer weights = repeated rows, 0 = left out
    X, y = load_iris(return_X_y=True)
    w = np.random.default_rng(0).integers(0, 3, len(y))
    weighted = PSVMClassifier(**params).fit(X, y, sample_weight=w)
    repeated = PSVMClassifier(**params).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(
        weighted.decision_function(X), repeated.decision_function(X), atol=1e-9
    )
    with pytest.raises(ValueError, match="PSVMClassifier: sample_weight is 0 for every"):
        PSVMClassifier(**params).fit(X, y, sample_weight=(y != 0).astype(float))


def test_the_readme_lists_exactly_the_estimators_that_refuse_sample_weight():
    # D17: the README's two lists (with and without sample_weight) are exact
    import inspect
    import re
    from pathlib import Path

    import lssvm
    import lssvm.relatives as relatives
    from lssvm.relatives import (
        FisherDiscriminant,
        KernelPLSRegression,
        LapRLSClassifier,
        LapSVMClassifier,
        RVMClassifier,
        RVMRegressor,
    )

    X, y = load_iris(return_X_y=True)
    refusing = (RVMRegressor, RVMClassifier, KernelPLSRegression, LapRLSClassifier,
                LapSVMClassifier, FisherDiscriminant)  # fmt: skip
    for cls in refusing:
        with pytest.raises(TypeError, match=rf"{cls.__name__}\.fit\(\) got an unexpected"):
            cls().fit(X, y, sample_weight=np.ones(len(y)))
    estimators = {
        name: obj for module in (lssvm, relatives) for name in module.__all__
        if inspect.isclass(obj := getattr(module, name)) and hasattr(obj, "fit")
    }
    weighted = {n for n, c in estimators.items()
                if "sample_weight" in inspect.signature(c.fit).parameters}
    assert weighted.isdisjoint(c.__name__ for c in refusing)
    assert weighted | {c.__name__ for c in refusing} == set(estimators)
    assert weighted == {
        "LSSVMClassifier", "LSSVMRegressor", "LSSVMClassifierCV", "LSSVMRegressorCV",
        "RLSSVMClassifier", "FixedSizeLSSVMClassifier", "FixedSizeLSSVMRegressor",
        "PSVMClassifier", "LSSVMRFE",
    }  # fmt: skip
    readme = Path(__file__).resolve().parents[1].joinpath("README.md").read_text()
    block = readme[readme.index("# Sample weights in the fit of"):]
    block = " ".join(block[: block.index("import numpy as np")].replace("#", " ").split())
    takes, refuses = block.split("take no sample_weight")[0].split("The RVMs")
    for token in ("LSSVMClassifier", "LSSVMRegressor", "their CV versions",
                  "RLSSVMClassifier", "the fixed-size estimators", "PSVMClassifier",
                  "LSSVMRFE"):  # fmt: skip
        assert token in takes, token
    for token in ("KernelPLSRegression", "LapRLS/LapSVM", "FisherDiscriminant"):
        assert token in refuses, token
    assert re.search(r"RVM", "The RVMs" + refuses)
