"""Issue 25: the features of the two halves of the issue, used together.

The reliability half (n_jobs, memory checks, feature names, fold capping, the
degenerate-width warning) and the feature half (sample weights, probabilities,
kernel="precomputed", sparse X) touch the same fit paths; these tests pin down how
they combine. No test allocates a large matrix: they replace ``available_memory``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import lssvm.linalg.memory
from lssvm import (
    LSSVMClassifier,
    LSSVMClassifierCV,
    LSSVMRegressor,
    LSSVMRegressorCV,
    RLSSVMClassifier,
)
from lssvm.linalg.memory import InsufficientMemoryError
from lssvm.kernels import RBF
from lssvm.linalg import NumericalWarning

N = 40


@pytest.fixture
def data(rng):
    X = rng.standard_normal((N, 2))
    return X, np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1)


def _available(monkeypatch, n_bytes):
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: n_bytes)


def test_probability_after_cg_checks_memory(data, monkeypatch):
    """probability with solver="cg" factors K + I/gamma: checked like "direct"."""
    X, y = data
    _available(monkeypatch, 10_000)  # less than one 40 x 40 matrix (12800 bytes)
    LSSVMClassifier(solver="cg").fit(X, y)  # matrix-free: fine
    with pytest.raises(InsufficientMemoryError, match=r"LSSVMClassifier: probability"):
        LSSVMClassifier(solver="cg", probability=True).fit(X, y)


def test_precomputed_direct_checks_memory_and_keeps_input(data, monkeypatch):
    X, y = data
    K = RBF(1.0)(X)
    before = K.copy()
    _available(monkeypatch, 10_000)
    with pytest.raises(InsufficientMemoryError, match=r"N = 40"):
        LSSVMRegressor(kernel="precomputed").fit(K, y)
    np.testing.assert_array_equal(K, before)


def test_zero_weights_count_as_removed_rows_in_the_memory_check(data, monkeypatch):
    """The check sizes the system that is solved: rows of weight 0 are not in it."""
    X, y = data
    w = np.r_[np.ones(20), np.zeros(N - 20)]
    _available(monkeypatch, 8 * 30**2)  # a 30 x 30 matrix fits, 40 x 40 does not
    with pytest.raises(InsufficientMemoryError):
        LSSVMRegressor().fit(X, y)
    weighted = LSSVMRegressor().fit(X, y, sample_weight=w)
    monkeypatch.undo()
    removed = LSSVMRegressor().fit(X[:20], y[:20])
    np.testing.assert_allclose(weighted.predict(X), removed.predict(X), atol=1e-10)


@pytest.mark.parametrize("kind", ["weighted", "precomputed", "sparse"])
def test_cg_with_n_jobs_matches_direct(data, kind):
    """n_jobs threads of the matrix-free products with the new input kinds."""
    X, y = data
    y = y.astype(float)
    fit_kw, Xf = {}, X
    params = dict(gamma=5.0, sigma2=2.0)
    if kind == "weighted":
        fit_kw = dict(sample_weight=np.linspace(0.5, 2.0, N))
    elif kind == "precomputed":
        Xf, params = RBF(2.0)(X), dict(gamma=5.0, kernel="precomputed")
    else:
        Xf = sp.csr_matrix(X)
    direct = LSSVMRegressor(**params).fit(Xf, y, **fit_kw)
    cg = LSSVMRegressor(**params, solver="cg", tol=1e-12, n_jobs=2).fit(Xf, y, **fit_kw)
    np.testing.assert_allclose(cg.predict(Xf), direct.predict(Xf), atol=1e-7)


def test_probability_does_not_depend_on_n_jobs(data):
    X, y = data
    one = LSSVMClassifier(solver="cg", tol=1e-12, probability=True, n_jobs=1)
    two = LSSVMClassifier(solver="cg", tol=1e-12, probability=True, n_jobs=2)
    np.testing.assert_allclose(
        one.fit(X, y).predict_proba(X), two.fit(X, y).predict_proba(X), atol=1e-8
    )


def test_n_jobs_and_probability_are_both_validated(data):
    X, y = data
    with pytest.raises(ValueError, match=r"LSSVMClassifier: n_jobs must be"):
        LSSVMClassifier(n_jobs=0, probability=True).fit(X, y)
    with pytest.raises(ValueError, match=r"LSSVMClassifier: probability must be"):
        LSSVMClassifier(n_jobs=2, probability="yes").fit(X, y)


def test_degenerate_width_warning_is_rbf_only(data):
    """A precomputed Gram matrix has no sigma2: no width warning, whatever sigma2."""
    X, y = data
    with pytest.warns(NumericalWarning, match="numerically the identity"):
        LSSVMClassifier(sigma2=1e-6).fit(X * 100, y)
    with pytest.warns(NumericalWarning, match="numerically the identity"):
        LSSVMClassifier(sigma2=1e-6).fit(sp.csr_matrix(X * 100), y)  # sparse too
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        LSSVMClassifier(kernel="precomputed", sigma2=1e-6).fit(RBF(1.0)(X), y)


def test_cv_refit_keeps_feature_names_with_weights_and_probability(data):
    pd = pytest.importorskip("pandas")
    X, y = data
    df = pd.DataFrame(X, columns=["a", "b"])
    w = np.r_[np.zeros(4), np.ones(N - 4)]
    clf = LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[1.0], cv=3, probability=True)
    clf.fit(df, y, sample_weight=w)
    assert list(clf.best_estimator_.feature_names_in_) == ["a", "b"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # no false "without names"
        proba = clf.predict_proba(df)
    assert proba.shape == (N, 2)
    with pytest.raises(ValueError, match="feature names should match"):
        clf.predict_proba(df[["b", "a"]])
    reg = LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[1.0], cv=3)
    reg.fit(df, y.astype(float), sample_weight=w)
    assert list(reg.best_estimator_.feature_names_in_) == ["a", "b"]


def test_regressor_cv_multi_output_with_weights(data):
    X, y = data
    Y = np.column_stack([X[:, 0], np.sin(X[:, 1])])
    w = np.linspace(0.5, 2.0, N)
    reg = LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[1.0, 4.0], cv=4)
    reg.fit(X, Y, sample_weight=w)
    best = LSSVMRegressor(**reg.best_params_).fit(X, Y, sample_weight=w)
    np.testing.assert_allclose(reg.predict(X), best.predict(X))
    assert reg.predict(X).shape == (N, 2)


def test_fold_cap_counts_the_rows_of_positive_weight(data):
    """cv is capped at the smallest class among the rows the search uses."""
    X, y = data
    y = y.copy()
    y[:5] = 2  # a third class of 5 members; 2 of them weighted out
    w = np.ones(N)
    w[:2] = 0.0
    clf = LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=10, coding="ova")
    with pytest.warns(UserWarning, match="has only 3 members; using 3"):
        clf.fit(X, y, sample_weight=w)
    assert clf.n_splits_ == 3


def test_rls_svm_precomputed_sparse_and_weights_with_finite_output_check(data):
    X, y = data
    clf = RLSSVMClassifier(C=3.0, probability=True)
    dense = clf.fit(X, y).predict_proba(X)
    np.testing.assert_allclose(clf.fit(sp.csr_matrix(X), y).predict_proba(X), dense)
    K = RBF(1.0)(X)
    pre = RLSSVMClassifier(C=3.0, kernel="precomputed", probability=True).fit(K, y)
    np.testing.assert_allclose(pre.predict_proba(K), dense, atol=1e-10)
    poly = RLSSVMClassifier(kernel="poly", degree=9).fit(X, y)
    with pytest.raises(ValueError, match="NaN or inf"):
        poly.decision_function(sp.csr_matrix(X * 1e40))


@pytest.mark.parametrize("scoring", ["accuracy", "neg_mean_squared_error", "r2"])
def test_weighted_fold_scores_count_as_repeated_points(rng, scoring):
    """Integer weights in the search's scores equal repeating the held-out points."""
    from lssvm.model_selection.closed_form import score_latent

    y, f = rng.standard_normal(12), rng.standard_normal(12)
    w = rng.integers(0, 4, 12)
    w[0] = 1
    assert score_latent(scoring, y, f, w) == pytest.approx(
        score_latent(scoring, np.repeat(y, w), np.repeat(f, w))
    )


def test_explicit_splits_are_restricted_to_the_rows_searched(data):
    """A list of (train, test) over all rows, with rows weighted out and ovo bits."""
    X, y = data
    y = y.copy()
    y[::3] = 2
    folds = [(np.setdiff1d(np.arange(N), t), t) for t in np.array_split(np.arange(N), 4)]
    w = np.ones(N)
    w[:3] = 0.0
    clf = LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[1.0], cv=folds)
    clf.fit(X, y, sample_weight=w)  # per-bit rows and kept rows: no index error
    assert clf.n_splits_ == 4
    assert clf.predict(X).shape == (N,)
