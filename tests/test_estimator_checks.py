"""Estimator contract: scikit-learn's checks, clone/refit/params, validation."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import check_is_fitted

from lssvm import (
    LSSVMClassifier,
    LSSVMClassifierCV,
    LSSVMRegressor,
    LSSVMRegressorCV,
    RLSSVMClassifier,
)
from lssvm.relatives.fisher import FisherDiscriminant

ESTIMATORS = [LSSVMClassifier, LSSVMRegressor]
PARAMS = {
    "gamma",
    "kernel",
    "sigma2",
    "degree",
    "tau",
    "solver",
    "tol",
    "fit_intercept",
    "n_jobs",
}
FITTED = [
    "alpha_",
    "b_",
    "e_",
    "dual_coef_",
    "support_vectors_",
    "n_features_in_",
    "kernel_",
    "n_iter_",
]


# Every estimator with its default parameters (the tuned ones with the default cv=10,
# which the small data sets of the checks cannot split without the cap on folds).
@parametrize_with_checks(
    [
        LSSVMClassifier(),
        LSSVMRegressor(),
        LSSVMClassifierCV(),
        LSSVMRegressorCV(),
        RLSSVMClassifier(),
        FisherDiscriminant(),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture
def data(rng):
    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(40) > 0, 1, -1)
    return X, y


@pytest.fixture(params=ESTIMATORS, ids=lambda cls: cls.__name__)
def estimator_cls(request):
    return request.param


CLASSIFIER_ONLY = dict(
    coding="ovo", decoding="hamming", targets="pm1", bit_params=None, random_state=0,
    probability=False,
)


def test_get_params_and_defaults(estimator_cls):
    est = estimator_cls()
    extra = CLASSIFIER_ONLY if estimator_cls is LSSVMClassifier else {}
    assert set(est.get_params()) == PARAMS | set(extra)
    assert est.get_params() == dict(
        gamma=1.0, kernel="rbf", sigma2=1.0, degree=3, tau=1.0, solver="direct",
        tol=1e-10, fit_intercept=True, n_jobs=None, **extra,
    )  # fmt: skip
    est.set_params(gamma=3.0, kernel="poly")
    assert est.gamma == 3.0 and est.kernel == "poly"


def test_init_stores_parameters_as_given(estimator_cls):
    est = estimator_cls(gamma=-1, sigma2="x", solver="nope")  # checked at fit, not here
    assert est.gamma == -1 and est.sigma2 == "x" and est.solver == "nope"


def test_fitted_attributes_exist(estimator_cls, data):
    X, y = data
    est = estimator_cls()
    for name in FITTED:
        assert not hasattr(est, name)
    est.fit(X, y)
    for name in FITTED:
        assert hasattr(est, name), name
    if estimator_cls is LSSVMClassifier:
        np.testing.assert_array_equal(est.classes_, [-1, 1])


def test_clone_is_unfitted_with_same_params(estimator_cls, data):
    X, y = data
    est = estimator_cls(gamma=7.0, sigma2=0.5).fit(X, y)
    copy = clone(est)
    assert copy.get_params() == est.get_params()
    assert not hasattr(copy, "alpha_")
    with pytest.raises(NotFittedError):
        check_is_fitted(copy)
    copy.fit(X, y)
    np.testing.assert_array_equal(copy.alpha_, est.alpha_)
    assert copy.b_ == est.b_


def test_refit_replaces_the_model(estimator_cls, data):
    X, y = data
    est = estimator_cls().fit(X, y)
    first = est.predict(X)
    est.fit(X[:30, ::-1], y[:30])
    assert est.alpha_.shape == (30,) and est.support_vectors_.shape == (30, 2)
    np.testing.assert_array_equal(est.support_vectors_, X[:30, ::-1])
    est.fit(X, y)  # and back: the same model as the first fit
    np.testing.assert_array_equal(est.predict(X), first)


def test_works_in_pipeline_and_grid_search(estimator_cls, data):
    X, y = data
    pipe = make_pipeline(StandardScaler(), estimator_cls())
    search = GridSearchCV(
        pipe, {estimator_cls.__name__.lower() + "__gamma": [0.1, 10.0]}, cv=3
    )
    search.fit(X, y)
    assert search.best_estimator_[-1].gamma in (0.1, 10.0)
    assert search.predict(X).shape == (40,)


# -- validation messages: owner, parameter, what is allowed, what was received -----------


@pytest.mark.parametrize(
    "params, match",
    [
        ({"gamma": 0.0}, "gamma must be"),
        ({"gamma": -1.0}, "gamma must be"),
        ({"gamma": np.nan}, "gamma must be"),
        ({"gamma": np.inf}, "gamma must be"),
        ({"gamma": True}, "gamma must be"),
        ({"gamma": "1"}, "gamma must be"),
        ({"sigma2": 0.0}, "sigma2 must be"),
        ({"sigma2": -2.0}, "sigma2 must be"),
        ({"sigma2": [1.0, -1.0]}, "sigma2 must be"),
        ({"kernel": "sigmoid"}, "kernel must be one of"),
        ({"solver": "lu"}, "solver must be one of"),
        ({"solver": None}, "solver must be one of"),
        ({"fit_intercept": "yes"}, "fit_intercept must be a bool"),
        ({"fit_intercept": None}, "fit_intercept must be a bool"),
    ],
)
def test_bad_parameters_raise(estimator_cls, data, params, match):
    X, y = data
    with pytest.raises(ValueError, match=match):
        estimator_cls(**params).fit(X, y)


def test_gamma_message_is_complete(estimator_cls, data):
    X, y = data
    name = estimator_cls.__name__
    with pytest.raises(
        ValueError,
        match=rf"{name}: gamma must be a positive float.*" r"got gamma=-1\.0",
    ):
        estimator_cls(gamma=-1.0).fit(X, y)


@pytest.mark.parametrize("gamma", [np.float32(2.0), np.int64(3), 5])
def test_numpy_and_int_gamma_accepted(estimator_cls, data, gamma):
    X, y = data
    est = estimator_cls(gamma=gamma).fit(X, y)
    np.testing.assert_allclose(est.e_, est.alpha_ / float(gamma), rtol=1e-7)


@pytest.mark.parametrize("bad, match", [(np.nan, "contains NaN"), (np.inf, "infinity")])
def test_non_finite_x_raises(estimator_cls, data, bad, match):
    X, y = data
    X = X.copy()
    X[3, 1] = bad
    with pytest.raises(ValueError, match=match):
        estimator_cls().fit(X, y)
    fitted = estimator_cls().fit(data[0], y)
    with pytest.raises(ValueError, match=match):
        fitted.predict(X)


@pytest.mark.parametrize("bad, match", [(np.nan, "contains NaN"), (np.inf, "infinity")])
def test_non_finite_y_raises(estimator_cls, data, bad, match):
    X, y = data
    y = y.astype(float)
    y[5] = bad
    with pytest.raises(ValueError, match=match):
        estimator_cls().fit(X, y)


def test_inconsistent_lengths_raise(estimator_cls, data):
    X, y = data
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        estimator_cls().fit(X, y[:-1])


def test_wrong_number_of_features_at_predict(estimator_cls, data):
    X, y = data
    est = estimator_cls().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        est.predict(np.c_[X, X[:, 0]])


def test_unfitted_raises_not_fitted_error(estimator_cls, data):
    X, y = data
    est = estimator_cls()
    with pytest.raises(NotFittedError):
        est.predict(X)
    with pytest.raises(NotFittedError):
        est.score(X, y)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"sigma2": 0.0}, "sigma2 must be"),
        ({"kernel": "sigmoid"}, "kernel must be one of"),
        ({"kernel": "poly", "degree": 0}, "degree must be"),
        ({"kernel": "poly", "tau": -1.0}, "tau must be"),
    ],
)
def test_kernel_messages_name_the_estimator(estimator_cls, data, params, match):
    X, y = data
    with pytest.raises(ValueError, match=rf"^{estimator_cls.__name__}: {match}"):
        estimator_cls(**params).fit(X, y)
