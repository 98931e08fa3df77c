"""LSSVMClassifierCV / LSSVMRegressorCV against scikit-learn's GridSearchCV, plus the
estimator contract (clone, params, unfitted errors, parametrize_with_checks)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    LeaveOneOut,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_score,
)
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier, LSSVMClassifierCV, LSSVMRegressor, LSSVMRegressorCV
from lssvm.model_selection.search import initial_sigma2_grid
from lssvm.model_selection.estimators import SEARCHES

RTOL_SCORE = 1e-9  # closed-form MSE / r2 scores against refitted ones
ATOL_PREDICT = 1e-12  # best_estimator_ against a fresh fit with best_params_

GAMMAS = [0.01, 0.1, 1.0, 10.0, 100.0]
SIGMA2S = [0.5, 2.0, 8.0, 50.0]
CLF_SPLITTER = StratifiedKFold(5, shuffle=True, random_state=0)
REG_SPLITTER = KFold(5, shuffle=True, random_state=0)
PARAMS = {
    "gamma",
    "sigma2",
    "kernel",
    "degree",
    "tau",
    "cv",
    "search",
    "scoring",
    "n_refinements",
    "n_iter",
    "random_state",
    "strategy",
    "verbose",
    # the parameters of LSSVMBase that reach the refit (and, fit_intercept, the CV)
    "solver",
    "tol",
    "fit_intercept",
    "n_jobs",
}


def _compare_cv_results(ours, theirs, n_splits, *, exact):
    assert len(ours["params"]) == len(theirs["params"])
    assert ours["params"] == list(theirs["params"])
    for name in ["param_gamma", "param_sigma2"]:
        if name in theirs:
            np.testing.assert_array_equal(ours[name], np.asarray(theirs[name], float))
    keys = [f"split{i}_test_score" for i in range(n_splits)]
    keys += ["mean_test_score", "std_test_score"]
    assert f"split{n_splits}_test_score" not in ours
    for key in keys:
        if exact and key != "std_test_score":
            np.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)
        else:
            np.testing.assert_allclose(
                ours[key], theirs[key], rtol=RTOL_SCORE, atol=1e-15, err_msg=key
            )
    np.testing.assert_array_equal(ours["rank_test_score"], theirs["rank_test_score"])


# -- equality with GridSearchCV --------------------------------------------------------


@pytest.mark.parametrize("cv", [CLF_SPLITTER, 5], ids=["stratified-shuffle", "int"])
def test_classifier_equals_grid_search_cv(classification_data, cv):
    X, y = classification_data
    ours = LSSVMClassifierCV(gamma=GAMMAS, sigma2=SIGMA2S, cv=cv).fit(X, y)
    ref = GridSearchCV(LSSVMClassifier(), {"gamma": GAMMAS, "sigma2": SIGMA2S}, cv=cv)
    ref.fit(X, y)
    # this grid has ties at the top (see test_search.py); both keep the first
    assert (ours.cv_results_["rank_test_score"] == 1).sum() >= 1
    assert ours.best_params_ == ref.best_params_
    assert ours.best_score_ == ref.best_score_
    assert ours.n_splits_ == ref.n_splits_ == 5
    _compare_cv_results(ours.cv_results_, ref.cv_results_, 5, exact=True)


@pytest.mark.parametrize("cv", [REG_SPLITTER, 5], ids=["kfold-shuffle", "int"])
@pytest.mark.parametrize("scoring", [None, "r2"], ids=["default-neg_mse", "r2"])
def test_regressor_equals_grid_search_cv(regression_data, scoring, cv):
    X, y = regression_data
    gammas, sigma2s = [0.1, 10.0, 1000.0], [0.5, 2.0, 8.0]
    ours = LSSVMRegressorCV(gamma=gammas, sigma2=sigma2s, cv=cv, scoring=scoring)
    ours.fit(X, y)
    ref = GridSearchCV(
        LSSVMRegressor(),
        {"gamma": gammas, "sigma2": sigma2s},
        cv=cv,
        scoring=scoring or "neg_mean_squared_error",
    ).fit(X, y)
    assert ours.best_params_ == ref.best_params_
    np.testing.assert_allclose(ours.best_score_, ref.best_score_, rtol=RTOL_SCORE)
    _compare_cv_results(ours.cv_results_, ref.cv_results_, 5, exact=False)


def test_linear_kernel_tunes_gamma_only(classification_data):
    X, y = classification_data
    gammas = [0.01, 1.0, 100.0]
    ours = LSSVMClassifierCV(
        gamma=gammas, sigma2=SIGMA2S, kernel="linear", cv=CLF_SPLITTER
    ).fit(X, y)
    ref = GridSearchCV(
        LSSVMClassifier(kernel="linear"), {"gamma": gammas}, cv=CLF_SPLITTER
    ).fit(X, y)
    assert ours.best_params_ == ref.best_params_  # no sigma2 key
    assert np.isnan(ours.cv_results_["param_sigma2"]).all()
    np.testing.assert_array_equal(
        ours.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"]
    )
    assert ours.best_estimator_.kernel == "linear"


def test_leave_one_out(classification_data):
    X, y = classification_data
    X, y = X[:30], y[:30]
    gammas, sigma2s = [0.1, 10.0], [0.5, 4.0]
    ours = LSSVMClassifierCV(gamma=gammas, sigma2=sigma2s, cv="loo").fit(X, y)
    ref = GridSearchCV(
        LSSVMClassifier(), {"gamma": gammas, "sigma2": sigma2s}, cv=LeaveOneOut()
    ).fit(X, y)
    assert ours.n_splits_ == 30
    assert ours.best_params_ == ref.best_params_
    assert ours.best_score_ == ref.best_score_
    _compare_cv_results(ours.cv_results_, ref.cv_results_, 30, exact=True)


def test_regressor_leave_one_out(regression_data):
    X, y = regression_data
    gammas, sigma2s = [1.0, 100.0], [1.0, 4.0]
    ours = LSSVMRegressorCV(gamma=gammas, sigma2=sigma2s, cv="loo").fit(X, y)
    ref = GridSearchCV(
        LSSVMRegressor(),
        {"gamma": gammas, "sigma2": sigma2s},
        cv=LeaveOneOut(),
        scoring="neg_mean_squared_error",
    ).fit(X, y)
    assert ours.best_params_ == ref.best_params_
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"],
        ref.cv_results_["mean_test_score"],
        rtol=RTOL_SCORE,
    )


# -- the refitted model ----------------------------------------------------------------


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_best_estimator_is_a_fresh_fit_with_best_params(
    classification_data, regression_data, rng, task
):
    if task == "classification":
        X, y = classification_data
        est = LSSVMClassifierCV(gamma=GAMMAS, sigma2=SIGMA2S, cv=CLF_SPLITTER)
        base = LSSVMClassifier
    else:
        X, y = regression_data
        est = LSSVMRegressorCV(gamma=GAMMAS, sigma2=SIGMA2S, cv=REG_SPLITTER)
        base = LSSVMRegressor
    est.fit(X, y)
    best = est.best_estimator_
    assert type(best) is base
    assert best.gamma == est.best_params_["gamma"]
    assert best.sigma2 == est.best_params_["sigma2"]
    assert hasattr(best, "alpha_") and best.support_vectors_.shape == X.shape
    fresh = base(**est.best_params_).fit(X, y)
    X_new = rng.standard_normal((25, X.shape[1]))
    np.testing.assert_allclose(best.alpha_, fresh.alpha_, rtol=0, atol=ATOL_PREDICT)
    if task == "classification":
        np.testing.assert_array_equal(est.predict(X_new), fresh.predict(X_new))
        np.testing.assert_allclose(
            est.decision_function(X_new),
            fresh.decision_function(X_new),
            rtol=0,
            atol=ATOL_PREDICT,
        )
        np.testing.assert_array_equal(est.classes_, fresh.classes_)
    else:
        np.testing.assert_allclose(
            est.predict(X_new), fresh.predict(X_new), rtol=0, atol=ATOL_PREDICT
        )
    assert est.score(X, y) == pytest.approx(fresh.score(X, y), abs=1e-12)


def test_string_labels(classification_data):
    X, y = classification_data
    labels = np.where(y > 0, "alpha", "beta")  # "alpha" (< "beta") is the +1 class
    ours = LSSVMClassifierCV(gamma=GAMMAS, sigma2=SIGMA2S, cv=CLF_SPLITTER)
    ours.fit(X, labels)
    ref = GridSearchCV(
        LSSVMClassifier(), {"gamma": GAMMAS, "sigma2": SIGMA2S}, cv=CLF_SPLITTER
    ).fit(X, labels)
    np.testing.assert_array_equal(ours.classes_, ["alpha", "beta"])
    assert ours.best_params_ == ref.best_params_
    _compare_cv_results(ours.cv_results_, ref.cv_results_, 5, exact=True)
    pred = ours.predict(X)
    assert pred.dtype.kind == "U" and set(pred) <= {"alpha", "beta"}
    np.testing.assert_array_equal(pred, ref.predict(X))
    # the same tuning as with the numeric labels
    numeric = LSSVMClassifierCV(gamma=GAMMAS, sigma2=SIGMA2S, cv=CLF_SPLITTER).fit(X, y)
    np.testing.assert_array_equal(
        ours.cv_results_["mean_test_score"], numeric.cv_results_["mean_test_score"]
    )


def test_default_grid_is_the_books(classification_data):
    X, y = classification_data
    est = LSSVMClassifierCV(cv=5).fit(X, y)
    res = est.cv_results_
    assert len(res["params"]) == 11 * 9
    assert set(res["param_gamma"]) == {
        0.01,
        0.05,
        0.1,
        0.5,
        1.0,
        5.0,
        10.0,
        50.0,
        100.0,
        500.0,
        1000.0,
    }
    np.testing.assert_allclose(
        np.unique(res["param_sigma2"]), sorted(initial_sigma2_grid(X.shape[1]))
    )


# -- every search ----------------------------------------------------------------------


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_every_search_runs(classification_data, regression_data, task, search):
    gammas, sigma2s = [0.1, 10.0, 1000.0], [0.5, 4.0]
    kw = dict(gamma=gammas, sigma2=sigma2s, cv=5, n_iter=10, n_refinements=1)
    if task == "classification":
        X, y = classification_data
        cls = LSSVMClassifierCV
    else:
        X, y = regression_data
        cls = LSSVMRegressorCV
    est = cls(search=search, **kw).fit(X, y)
    grid = cls(search="grid", **kw).fit(X, y)
    res = est.cv_results_
    means = res["mean_test_score"]
    assert est.best_score_ == means.max()
    first = int(np.flatnonzero(means == means.max())[0])
    assert est.best_params_ == res["params"][first]
    assert res["rank_test_score"][first] == 1
    assert est.best_estimator_.gamma == est.best_params_["gamma"]
    assert est.best_estimator_.sigma2 == est.best_params_["sigma2"]
    assert est.predict(X).shape == y.shape
    if search in ("grid", "shrinking", "simplex"):  # these evaluate the grid first
        assert est.best_score_ >= grid.best_score_
        n_grid = len(gammas) * len(sigma2s)
        np.testing.assert_array_equal(
            means[:n_grid], grid.cv_results_["mean_test_score"]
        )
    if search == "shrinking":
        assert (res["stage"] == 1).sum() == 5 * 5
    if search == "random":
        assert len(means) == 10
        assert res["param_gamma"].min() >= 0.1 and res["param_gamma"].max() <= 1000.0
        assert res["param_sigma2"].min() >= 0.5 and res["param_sigma2"].max() <= 4.0


def test_random_search_depends_on_random_state(classification_data):
    X, y = classification_data
    kw = dict(gamma=[0.1, 100.0], sigma2=[0.5, 8.0], cv=3, search="random", n_iter=8)
    a = LSSVMClassifierCV(random_state=1, **kw).fit(X, y).cv_results_
    b = LSSVMClassifierCV(random_state=1, **kw).fit(X, y).cv_results_
    c = LSSVMClassifierCV(random_state=2, **kw).fit(X, y).cv_results_
    assert a["params"] == b["params"]
    assert set(a["param_gamma"]).isdisjoint(c["param_gamma"])


def test_verbose(classification_data, capsys):
    X, y = classification_data
    LSSVMClassifierCV(gamma=[1.0], sigma2=[0.5, 2.0], cv=3, verbose=1).fit(X, y)
    out, err = capsys.readouterr()
    assert out == "" and err.count("[lssvm search]") == 2
    LSSVMClassifierCV(gamma=[1.0], sigma2=[0.5, 2.0], cv=3).fit(X, y)
    assert capsys.readouterr() == ("", "")


# -- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, match",
    [
        ({"search": "bayes"}, "search must be one of"),
        ({"gamma": []}, "gamma must be a positive float or a non-empty list"),
        ({"sigma2": []}, "sigma2 must be a positive float or a non-empty list"),
        ({"gamma": [1.0, -1.0]}, "gamma must be a positive float"),
        ({"gamma": [0.0]}, "gamma must be a positive float"),
        ({"gamma": -3.0}, "gamma must be a positive float"),
        ({"sigma2": [1.0, 0.0]}, "sigma2 must be a positive float"),
        ({"strategy": "lu"}, "strategy must be one of"),
        ({"scoring": "f1"}, "scoring must be one of"),
    ],
)
@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_bad_parameters_raise(classification_data, cls, params, match):
    X, y = classification_data
    with pytest.raises(ValueError, match=match):
        cls(**{"cv": 3, **params}).fit(X, y)


def test_error_messages_name_the_estimator(classification_data):
    X, y = classification_data
    with pytest.raises(ValueError, match=r"LSSVMRegressorCV: search must be one of"):
        LSSVMRegressorCV(search="bayes").fit(X, y)
    with pytest.raises(
        ValueError,
        match=r"LSSVMClassifierCV: gamma must be a positive float or a non-empty",
    ):
        LSSVMClassifierCV(gamma=[]).fit(X, y)


def test_one_class_message_matches_lssvm_classifier(classification_data):
    """The wording of LSSVMClassifier ("got 1 class"), which sklearn's checks expect."""
    X, _ = classification_data
    y1 = np.ones(len(X))
    with pytest.raises(ValueError, match="at least 2 classes; got 1 class"):
        LSSVMClassifier().fit(X, y1)
    with pytest.raises(ValueError, match="at least 2 classes; got 1 class"):
        LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=3).fit(X, y1)


def test_non_complement_cv_raises(classification_data):
    X, y = classification_data
    cv = ShuffleSplit(3, train_size=0.5, test_size=0.3, random_state=0)
    with pytest.raises(ValueError, match="test set and its complement"):
        LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=cv).fit(X, y)


# -- estimator contract ----------------------------------------------------------------


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_not_fitted_error(classification_data, cls):
    X, y = classification_data
    est = cls()
    for method in ["predict", "score"] + (
        ["decision_function"] if cls is LSSVMClassifierCV else []
    ):
        with pytest.raises(NotFittedError):
            getattr(est, method)(*((X, y) if method == "score" else (X,)))


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_get_params_and_clone(classification_data, cls):
    X, y = classification_data
    est = cls()
    extra = (
        {"coding", "decoding", "targets", "per_bit", "probability"}
        if cls is LSSVMClassifierCV
        else set()
    )
    assert set(est.get_params()) == PARAMS | extra
    defaults = est.get_params()
    assert defaults["gamma"] is None and defaults["sigma2"] is None
    assert defaults["cv"] == 10 and defaults["search"] == "grid"
    est.set_params(
        gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3, search="shrinking", n_refinements=1
    )
    assert est.gamma == [1.0, 10.0] and est.search == "shrinking"
    est.fit(X, y)
    copy = clone(est)
    assert copy.get_params() == est.get_params()
    assert not hasattr(copy, "best_estimator_")
    with pytest.raises(NotFittedError):
        copy.predict(X)
    copy.fit(X, y)
    assert copy.best_params_ == est.best_params_
    np.testing.assert_array_equal(copy.predict(X), est.predict(X))


def test_init_does_not_validate():
    est = LSSVMClassifierCV(gamma=[-1.0], search="nope", cv="x")
    assert est.gamma == [-1.0] and est.search == "nope" and est.cv == "x"


def test_inside_grid_search_cv(classification_data):
    X, y = classification_data
    inner = LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3)
    outer = GridSearchCV(inner, {"kernel": ["rbf", "linear"]}, cv=3).fit(X, y)
    assert isinstance(outer.best_estimator_, LSSVMClassifierCV)
    assert outer.best_params_["kernel"] in ("rbf", "linear")
    assert hasattr(outer.best_estimator_, "best_params_")
    assert outer.predict(X).shape == y.shape
    assert np.isfinite(outer.cv_results_["mean_test_score"]).all()


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_cross_val_score_equals_manual_loop(classification_data, regression_data, task):
    if task == "classification":
        X, y = classification_data
        est = LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3)
        splitter = StratifiedKFold(4, shuffle=True, random_state=0)
    else:
        X, y = regression_data
        est = LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3)
        splitter = KFold(4, shuffle=True, random_state=0)
    scores = cross_val_score(est, X, y, cv=splitter)
    manual = [
        clone(est).fit(X[train], y[train]).score(X[test], y[test])
        for train, test in splitter.split(X, y)
    ]
    np.testing.assert_allclose(scores, manual, rtol=0, atol=1e-12)


# Repeated rows fall into different CV folds than one weighted row, so the tuned
# (gamma, sigma2) may differ (as for GridSearchCV); the refit itself is exact
# (test_sample_weight_refit_is_the_weighted_lssvm).
CV_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data": "CV folds of repeated rows "
    "differ from those of weighted rows",
    "check_sample_weight_equivalence_on_sparse_data": "CV folds of repeated rows "
    "differ from those of weighted rows",
}


@parametrize_with_checks(
    [
        LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3),
        LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[0.5, 2.0], cv=3),
    ],
    expected_failed_checks=lambda est: CV_XFAIL,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# -- issue 25: reliability ----------------------------------------------------------


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_refit_keeps_the_feature_name_contract(cls, rng):
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame(rng.standard_normal((40, 2)), columns=["a", "b"])
    y = (X["a"] > 0).astype(int) if cls is LSSVMClassifierCV else X["a"] - X["b"]
    est = cls(gamma=[1.0], sigma2=[1.0], cv=3).fit(X, y)
    assert list(est.feature_names_in_) == ["a", "b"]
    assert list(est.best_estimator_.feature_names_in_) == ["a", "b"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false "fitted without feature names"
        est.predict(X)
    with pytest.raises(ValueError, match="feature names should match"):
        est.predict(X[["b", "a"]])


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(search="random", n_iter=0), "n_iter must be an integer >= 1"),
        (dict(search="simplex", n_iter=2.5), "n_iter must be an integer >= 1"),
        (dict(search="shrinking", n_refinements=-1), "n_refinements must be an int"),
        (dict(search="shrinking", n_refinements="3"), "n_refinements must be an int"),
    ],
)
@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_n_iter_and_n_refinements_are_checked(cls, params, match, rng):
    X = rng.standard_normal((40, 2))
    y = (X[:, 0] > 0).astype(int) if cls is LSSVMClassifierCV else X[:, 0]
    with pytest.raises(ValueError, match=rf"{cls.__name__}: {match}.*got"):
        cls(**params).fit(X, y)


def test_string_targets_for_regression_name_y(rng):
    X = rng.standard_normal((40, 2))
    with pytest.raises(ValueError, match="LSSVMRegressorCV: y must be numeric"):
        LSSVMRegressorCV(gamma=[1.0], sigma2=[1.0]).fit(X, np.array(["a", "b"] * 20))


def test_default_cv_is_capped_at_the_smallest_class(rng):
    X = rng.standard_normal((30, 2))
    y = np.array([0] * 24 + [1] * 6)
    with pytest.warns(UserWarning, match=r"cv=10, but class 1 has only 6 .*6 strat"):
        clf = LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0]).fit(X, y)
    assert clf.n_splits_ == 6
    explicit = LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=6).fit(X, y)
    assert clf.best_score_ == explicit.best_score_


def test_default_cv_is_capped_per_bit(rng):
    X = rng.standard_normal((33, 2))
    y = np.array([0] * 15 + [1] * 15 + [2] * 3)
    with pytest.warns(UserWarning, match="class 2 has only 3"):
        clf = LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0]).fit(X, y)
    assert clf.n_splits_ == 10  # the bit 0 vs 1 keeps 10 folds


def test_class_with_one_member_raises(rng):
    X = rng.standard_normal((21, 2))
    y = np.array([0] * 10 + [1] * 10 + [2])
    with pytest.raises(ValueError, match="at least 2 members in every class; class 2"):
        LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0]).fit(X, y)


def test_verbose_reports_bits_and_total_time(rng, capsys):
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0], [-0.4, 0.4])
    LSSVMClassifierCV(gamma=[1.0, 10.0], sigma2=[1.0], cv=3, verbose=1).fit(X, y)
    err = capsys.readouterr().err
    for bit in ("bit 1 of 3", "bit 2 of 3", "bit 3 of 3"):
        assert bit in err
    assert "refit on all the data" in err and "done in" in err
    LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=3).fit(X, y)
    assert capsys.readouterr().err == ""  # silent by default


def test_memory_is_checked_before_the_closed_form(rng, monkeypatch):
    import lssvm.linalg.memory

    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: 10_000)
    X = rng.standard_normal((40, 2))
    with pytest.raises(MemoryError, match=r"LSSVMRegressorCV: .*N = 40.*51200 bytes"):
        LSSVMRegressorCV(gamma=[1.0], sigma2=[1.0]).fit(X, X[:, 0])


def test_regressor_cv_accepts_several_outputs(rng):
    X = rng.standard_normal((50, 2))
    Y = np.column_stack([np.sin(X[:, 0]), X[:, 1] ** 2])
    reg = LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[1.0, 4.0], cv=5).fit(X, Y)
    assert reg.predict(X).shape == (50, 2)
    best = LSSVMRegressor(**reg.best_params_).fit(X, Y)
    np.testing.assert_allclose(reg.predict(X), best.predict(X), atol=ATOL_PREDICT)


def test_verbose_names_each_bit_of_a_shared_group(rng, capsys):
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0], [-0.4, 0.4])
    LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=3, coding="ova", search="random",
                      n_iter=2, verbose=1).fit(X, y)  # fmt: skip
    err = capsys.readouterr().err
    assert "bits 1, 2, 3 of 3" in err
    for j in (1, 2, 3):
        assert f"bit {j} of 3: search 'random'" in err


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_shared_parameters_reach_the_refit(cls):
    """solver, tol, fit_intercept and n_jobs are passed to best_estimator_ as given."""
    from lssvm.datasets import load_ripley

    X, y = load_ripley("train")
    shared = dict(solver="cg", tol=1e-8, fit_intercept=False, n_jobs=1)
    est = cls(gamma=[1.0, 10.0], sigma2=[0.5], cv=5, **shared).fit(X, y.astype(float))
    params = est.best_estimator_.get_params()
    assert {k: params[k] for k in shared} == shared
    assert est.best_estimator_.b_ == 0.0  # no bias in the refit


def test_closed_form_cv_without_bias_equals_refitting():
    """fit_intercept=False: the held-out outputs of [S 3.62] equal those of refits."""
    from lssvm import LSSVMRegressor
    from lssvm.kernels import RBF
    from lssvm.model_selection.closed_form import ClosedFormCV, make_folds

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=40)
    folds = make_folds(5, X, y, classifier=False)
    for strategy in ("eigen", "cholesky"):
        cv = ClosedFormCV(RBF(1.0)(X), y, folds, strategy=strategy, fit_intercept=False)
        for V, held_out in zip(folds, cv.latent(10.0)):
            train = np.setdiff1d(np.arange(40), V)
            ref = LSSVMRegressor(gamma=10.0, sigma2=1.0, fit_intercept=False)
            ref.fit(X[train], y[train])
            np.testing.assert_allclose(held_out, ref.predict(X[V]), rtol=1e-8, atol=1e-10)


# -- issue #32: error bars, scorers, public parameters, messages -----------------------


def test_regressor_cv_forwards_return_std(regression_data):
    X, y = regression_data
    reg = LSSVMRegressorCV(gamma=[1.0, 10.0], sigma2=[1.0, 4.0], cv=5).fit(X, y)
    mean, std = reg.predict(X, return_std=True)
    want = reg.best_estimator_.predict(X, return_std=True)
    np.testing.assert_array_equal(mean, want[0])
    np.testing.assert_array_equal(std, want[1])
    np.testing.assert_array_equal(reg.predict(X), mean)


@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss"])
def test_cv_accepts_roc_auc_and_log_loss(classification_data, scoring):
    from sklearn.metrics import log_loss, roc_auc_score
    from sklearn.model_selection import StratifiedKFold

    from lssvm.probability import platt_fit

    X, y = classification_data
    clf = LSSVMClassifierCV(
        gamma=[0.1, 1.0, 10.0], sigma2=[1.0, 4.0], cv=5, scoring=scoring
    ).fit(X, y)
    # the best score is the mean over folds of the score of refitted models
    g, s2 = clf.best_params_["gamma"], clf.best_params_["sigma2"]
    scores = []
    for train, test in StratifiedKFold(5).split(X, y):
        f = LSSVMClassifier(gamma=g, sigma2=s2).fit(X[train], y[train]).decision_function(
            X[test]
        )
        pos = y[test] > 0
        if scoring == "roc_auc":
            scores.append(roc_auc_score(pos, f))
        else:
            A, B = platt_fit(f, pos)
            scores.append(-log_loss(pos, 1 / (1 + np.exp(A * f + B)), labels=[0, 1]))
    assert clf.best_score_ == pytest.approx(np.mean(scores), rel=1e-6)


def test_roc_auc_with_one_class_folds_is_refused(classification_data):
    X, y = classification_data
    with pytest.raises(ValueError, match="needs both classes in every held-out set"):
        LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv="loo", scoring="roc_auc").fit(X, y)


@pytest.mark.parametrize(
    "cls", [LSSVMClassifier, LSSVMRegressor, LSSVMClassifierCV, LSSVMRegressorCV]
)
def test_unknown_keyword_names_the_public_class(cls):
    with pytest.raises(TypeError, match=rf"^{cls.__name__}: .*got alpha=1\."):
        cls(alpha=1)
    with pytest.raises(TypeError, match=rf"^{cls.__name__}: parameters must be passed"):
        cls(1.0)


@pytest.mark.parametrize("cls", [LSSVMClassifierCV, LSSVMRegressorCV])
def test_cv_public_parameters_section(cls):
    from lssvm._docs import parameter_entries

    documented = parameter_entries(cls.__doc__)
    for name in ("gamma", "sigma2", "kernel", "degree", "tau", "cv", "scoring",
                 "verbose", "solver", "tol", "fit_intercept", "n_jobs"):  # fmt: skip
        assert name in documented, name


def test_cv_n_features_error_names_the_cv_class(classification_data):
    X, y = classification_data
    for est in (LSSVMClassifierCV(gamma=[1.0], sigma2=[1.0], cv=3),
                LSSVMRegressorCV(gamma=[1.0], sigma2=[1.0], cv=3)):  # fmt: skip
        est.fit(X, y)
        with pytest.raises(ValueError, match=type(est).__name__ + " is expecting 3"):
            est.predict(X[:, :2])


@pytest.mark.parametrize("verbose", [-1, 1.5, "yes", None])
def test_cv_verbose_is_checked(classification_data, verbose):
    X, y = classification_data
    with pytest.raises(ValueError, match=r"LSSVMRegressorCV: verbose must be an integer"):
        LSSVMRegressorCV(gamma=[1.0], sigma2=[1.0], cv=3, verbose=verbose).fit(X, y)


def test_per_bit_grid_search_gets_every_search_option(monkeypatch):
    # fit_intercept (and the other shared options) reach the per-bit grid as they
    # reach the other strategies: one list of options for every search
    from sklearn.datasets import load_iris

    from lssvm.model_selection import search as _search

    seen = []
    original = _search.per_bit_grid_search

    def spy(*args, **kwargs):
        seen.append(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(_search, "per_bit_grid_search", spy)
    X, y = load_iris(return_X_y=True)
    LSSVMClassifierCV(search="grid", cv=3, fit_intercept=False,
                      gamma=[1.0, 10.0], sigma2=[1.0, 10.0]).fit(X, y)  # fmt: skip
    assert seen and all(kw["fit_intercept"] is False for kw in seen)
    assert all(kw["owner"].__class__ is LSSVMClassifierCV for kw in seen)
