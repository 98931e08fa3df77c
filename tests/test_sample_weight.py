"""sample_weight in every fit: the weighted LS-SVM, gamma w_k for sample k.

Integer weights give the model of repeated rows; a weight of 0 is an infinite
diagonal entry 1/(gamma w_k), handled exactly by leaving the row out.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris

from lssvm import (
    FixedSizeLSSVMRegressor,
    LSSVMClassifier,
    LSSVMClassifierCV,
    LSSVMRegressor,
    LSSVMRegressorCV,
    RLSSVMClassifier,
)
from lssvm._validation import check_sample_weight
from lssvm.kernels import RBF
from lssvm.model_selection.closed_form import ClosedFormCV, make_folds

ATOL = 1e-10


@pytest.fixture
def data(rng):
    X = rng.standard_normal((50, 2))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(50) > 0, 1, -1)
    w = rng.integers(0, 4, 50)
    return X, y, w, rng.standard_normal((20, 2))


def _output(model, X):
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict(X)


ESTIMATORS = [
    LSSVMClassifier(gamma=5.0, sigma2=2.0),
    LSSVMClassifier(gamma=5.0, kernel="linear", fit_intercept=False),
    LSSVMClassifier(gamma=5.0, solver="cg", tol=1e-13),
    LSSVMRegressor(gamma=5.0, sigma2=2.0),
    LSSVMRegressor(gamma=5.0, kernel="poly", degree=2, fit_intercept=False),
    RLSSVMClassifier(C=3.0),
    RLSSVMClassifier(C=3.0, reuse_factor=False),
]


@pytest.mark.parametrize("est", ESTIMATORS, ids=repr)
def test_integer_weights_equal_repeated_rows(est, data):
    X, y, w, X_test = data
    target = y if hasattr(est, "predict_proba") or "Classifier" in repr(est) else (
        X[:, 0] + np.sin(X[:, 1]))  # fmt: skip
    weighted = est.fit(X, target, sample_weight=w)
    out_w = _output(weighted, X_test)
    repeated = est.fit(np.repeat(X, w, axis=0), np.repeat(target, w))
    np.testing.assert_allclose(out_w, _output(repeated, X_test), atol=1e-8)


@pytest.mark.parametrize("est", ESTIMATORS, ids=repr)
def test_zero_weights_remove_the_rows(est, data):
    X, y, w, X_test = data
    w = np.where(w == 0, 0.0, w + 0.5)
    keep = w > 0
    if "Regressor" in repr(est):
        y = X[:, 0] + np.sin(X[:, 1])
    full = est.fit(X, y, sample_weight=w)
    out, sv = _output(full, X_test), full.support_vectors_.copy()
    sub = est.fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_allclose(out, _output(sub, X_test), atol=ATOL)
    np.testing.assert_array_equal(sv, sub.support_vectors_)


def test_multiclass_weights_equal_repeated_rows(rng):
    X, y = load_iris(return_X_y=True)
    w = rng.integers(0, 3, len(y))
    for coding in ("ovo", "moc"):
        clf = LSSVMClassifier(gamma=10.0, sigma2=2.0, coding=coding)
        out = clf.fit(X, y, sample_weight=w).bit_outputs(X)
        rep = clf.fit(np.repeat(X, w, axis=0), np.repeat(y, w)).bit_outputs(X)
        np.testing.assert_allclose(out, rep, atol=1e-8)


def test_weighted_errors_and_alpha(data):
    X, y, w, _ = data
    w = w + 0.5
    clf = LSSVMClassifier(gamma=5.0).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(clf.alpha_, 5.0 * w * clf.e_)  # alpha_k = gamma w_k e_k
    assert abs(clf.alpha_ @ y) < 1e-10  # [S 3.4]: sum alpha_k y_k = 0 still holds


def test_weighted_return_std_equals_repeated_rows(data):
    X, y, w, X_test = data
    t = np.sin(X[:, 0])
    reg = LSSVMRegressor(gamma=5.0).fit(X, t, sample_weight=w)
    rep = LSSVMRegressor(gamma=5.0).fit(np.repeat(X, w, axis=0), np.repeat(t, w))
    for a, b in zip(reg.predict(X_test, True), rep.predict(X_test, True)):
        np.testing.assert_allclose(a, b, atol=1e-8)


@pytest.mark.parametrize(
    "est", [LSSVMClassifier(), RLSSVMClassifier(), LSSVMClassifierCV(cv=3)], ids=repr
)
def test_zero_weights_leaving_one_class_is_a_clear_error(est, data):
    X, y, _, _ = data
    w = (y > 0).astype(float)
    with pytest.raises(ValueError, match=r"sample_weight .*class.*\[-1"):
        est.fit(X, y, sample_weight=w)


@pytest.mark.parametrize(
    "est", [LSSVMClassifier(), LSSVMRegressor(), RLSSVMClassifier()], ids=repr
)
def test_bad_weights_are_clear_errors(est, data):
    X, y, _, _ = data
    with pytest.raises(ValueError, match="sample_weight"):
        est.fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        est.fit(X, y, sample_weight=np.ones(3))
    all_zero = "sample_weight must have at least one positive entry; got 50 zero"
    with pytest.raises(ValueError, match=all_zero):
        est.fit(X, y, sample_weight=np.zeros(len(y)))


def test_weighted_closed_form_cv_equals_refitting_the_folds(data):
    X, y, w, _ = data
    w = w + 0.5
    folds = make_folds(5, X, y, classifier=True)
    cv = ClosedFormCV(RBF(2.0)(X), y.astype(float), folds, sample_weight=w)
    assert cv.strategy == "cholesky"
    for V, latent in zip(folds, cv.latent(3.0)):
        train = np.setdiff1d(np.arange(len(y)), V)
        clf = LSSVMClassifier(gamma=3.0, sigma2=2.0).fit(
            X[train], y[train], sample_weight=w[train]
        )
        np.testing.assert_allclose(latent, clf.decision_function(X[V]), atol=1e-9)


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_cv_estimators_refit_the_weighted_model(cls, data):
    X, y, w, X_test = data
    est = cls(gamma=[0.5, 5.0], sigma2=[1.0, 4.0], cv=5).fit(X, y, sample_weight=w)
    plain = est.best_estimator_.__class__(**est.best_estimator_.get_params())
    plain.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(est.predict(X_test), plain.predict(X_test), rtol=0)


# --- one checker: check_sample_weight, also for the fixed-size fits (Dask or not) ------

BAD_WEIGHTS = [
    (-np.ones(50), r"sample_weight must be finite and >= 0 .*sample_weight\[0\]=-1\.0"),
    (np.r_[np.ones(49), np.nan], r"sample_weight must be finite .*\[49\]=nan"),
    (-1.0, r"sample_weight must be finite and >= 0 .*sample_weight\[0\]=-1\.0"),
    (np.ones(3), r"sample_weight: .*\(3,\), expected \(50,\)"),
    (np.zeros(50), r"sample_weight must have at least one positive entry; got 50 zero"),
    ("a", r"sample_weight: could not convert string to float"),
]  # (weights, the message)
BAD_IDS = ["negative", "nan", "negative_scalar", "wrong_length", "all_zero", "string"]


@pytest.mark.parametrize("w, message", BAD_WEIGHTS, ids=BAD_IDS)
def test_check_sample_weight_takes_the_row_count(w, message):
    """X given by its number of rows (a Dask X): the messages of the data's check."""
    X = np.zeros((50, 2))
    for rows in (X, 50, np.int64(50)):
        with pytest.raises(ValueError, match=rf"^fit: {message}"):
            check_sample_weight(w, rows, owner="fit")


def test_check_sample_weight_scalar_and_none():
    np.testing.assert_array_equal(check_sample_weight(2, 4, owner="fit"), np.full(4, 2.0))
    assert check_sample_weight(None, 4, owner="fit") is None
    w = np.array([0.0, 1.0, 2.5])
    np.testing.assert_array_equal(check_sample_weight(list(w), 3, owner="fit"), w)


@pytest.mark.parametrize("w, message", BAD_WEIGHTS, ids=BAD_IDS)
def test_fixed_size_weights_are_checked_by_the_one_checker(w, message, data):
    X, y, _, _ = data
    est = FixedSizeLSSVMRegressor(n_prototypes=5)
    with pytest.raises(ValueError, match=rf"^FixedSizeLSSVMRegressor: {message}"):
        est.fit(X, X[:, 0], sample_weight=w)


@pytest.mark.parametrize("w, message", BAD_WEIGHTS, ids=BAD_IDS)
def test_fixed_size_dask_weights_are_checked_by_the_one_checker(w, message, data):
    da = pytest.importorskip("dask.array")
    X, y, _, _ = data
    Xd, yd = da.from_array(X, chunks=(20, -1)), da.from_array(X[:, 0], chunks=20)
    est = FixedSizeLSSVMRegressor(n_prototypes=5)
    with pytest.raises(ValueError, match=rf"^FixedSizeLSSVMRegressor: {message}"):
        est.fit(Xd, yd, sample_weight=w)
    if np.ndim(w) == 1 and len(w) == len(y):  # the weights as a Dask array too
        with pytest.raises(ValueError, match=rf"^FixedSizeLSSVMRegressor: {message}"):
            est.fit(Xd, yd, sample_weight=da.from_array(w, chunks=20))


def test_fixed_size_dask_weights_equal_in_memory_weights(data):
    da = pytest.importorskip("dask.array")
    X, y, w, X_test = data
    Xd, yd = da.from_array(X, chunks=(20, -1)), da.from_array(X[:, 0], chunks=20)
    est = FixedSizeLSSVMRegressor(n_prototypes=10, solver="normal")
    ref = est.fit(X, X[:, 0], sample_weight=w + 0.5).predict(X_test)
    for weights in (w + 0.5, da.from_array(w + 0.5, chunks=20)):
        got = est.fit(Xd, yd, sample_weight=weights).predict(X_test)
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
    scalar = est.fit(Xd, yd, sample_weight=2.0).predict(X_test)  # one weight for all
    np.testing.assert_allclose(
        scalar, est.fit(X, X[:, 0], sample_weight=np.full(50, 2.0)).predict(X_test),
        rtol=1e-10, atol=1e-12)


def test_all_zero_weights_of_the_wrong_length_are_a_length_error():
    from lssvm._validation import check_sample_weight

    with pytest.raises(ValueError, match=r"\(3,\), expected \(5,\)"):
        check_sample_weight(np.zeros(3), 5, owner="fit")


@pytest.mark.parametrize(
    "weights, match",
    [(-np.ones(4), "finite and >= 0"), (np.ones(3), "expected"),
     (np.zeros(4), "at least one positive")],
)  # fmt: skip
def test_score_latent_checks_its_weights(weights, match):
    from lssvm.model_selection import score_latent

    y, f = np.array([1.0, -1, 1, -1]), np.array([0.5, -0.2, -0.1, -1.0])
    with pytest.raises(ValueError, match=f"score_latent: sample_weight.*{match}|{match}"):
        score_latent("accuracy", y, f, sample_weight=weights)
    assert score_latent("accuracy", y, f, sample_weight=np.ones(4)) == 0.75


def test_a_one_element_zero_weight_array_for_many_rows_is_a_length_error():
    from lssvm._validation import check_sample_weight

    with pytest.raises(ValueError, match=r"\(1,\), expected \(5,\)"):
        check_sample_weight(np.zeros(1), 5, owner="fit")
    with pytest.raises(ValueError, match="got 5 zero weights"):
        check_sample_weight(0.0, 5, owner="fit")  # one number for every row
