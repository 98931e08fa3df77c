"""Closed-form cross-validation (lssvm.model_selection.closed_form) against explicit refitting of every fold.

The held-out latent outputs of :class:`ClosedFormCV` must equal those of an
LSSVMClassifier / LSSVMRegressor trained on the complement of each fold, for both
strategies, every kind of fold, a wide range of gammas and every kernel.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import (
    accuracy_score,
    mean_absolute_error,
    mean_squared_error,
    r2_score,
)
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_score,
)

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.kernels import RBF, make_kernel
from lssvm.linalg.solvers import NotPositiveDefiniteError
from lssvm.model_selection.closed_form import EIGEN_MIN_GAMMAS, ClosedFormCV, make_folds, score_latent

ATOL_REFIT = 1e-8  # closed-form held-out outputs against refitting each fold
ATOL_STRATEGIES = 1e-9  # "eigen" against "cholesky"
ATOL_SKLEARN = 1e-12  # fold-mean accuracy against sklearn's cross_val_score

GAMMAS = [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]
STRATEGIES = ["eigen", "cholesky"]
KERNELS = {
    "rbf": dict(kernel="rbf", sigma2=2.0),
    "linear": dict(kernel="linear"),
    "poly": dict(kernel="poly", degree=3, tau=1.0),
}
CVS = {
    "int5": lambda: 5,
    "kfold-shuffle": lambda: KFold(5, shuffle=True, random_state=0),
    "stratified": lambda: StratifiedKFold(4, shuffle=True, random_state=1),
    "loo": lambda: "loo",
}


def _data(task, classification_data, regression_data):
    return classification_data if task == "classification" else regression_data


def _kernel_matrix(X, params):
    params = dict(params)
    return make_kernel(params.pop("kernel"), **params)(X)


def _refit_latent(X, y, folds, gamma, params, classification):
    """Latent outputs on each fold of a model trained on the complement of the fold."""
    n = len(y)
    out = []
    for V in folds:
        train = np.setdiff1d(np.arange(n), V)
        if classification:
            model = LSSVMClassifier(gamma=gamma, **params).fit(X[train], y[train])
            out.append(model.decision_function(X[V]))
        else:
            model = LSSVMRegressor(gamma=gamma, **params).fit(X[train], y[train])
            out.append(model.predict(X[V]))
    return out


# -- held-out outputs equal refitting --------------------------------------------------


# StratifiedKFold needs class labels: it is a classification-only splitter.
TASK_CVS = [
    (task, cv_name)
    for task in ["classification", "regression"]
    for cv_name in CVS
    if not (task == "regression" and cv_name == "stratified")
]


_REFITS = {}


@pytest.mark.parametrize("kernel_name", list(KERNELS))
@pytest.mark.parametrize("task, cv_name", TASK_CVS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_latent_equals_refitting(
    classification_data, regression_data, strategy, task, kernel_name, cv_name
):
    X, y = _data(task, classification_data, regression_data)
    classification = task == "classification"
    params = KERNELS[kernel_name]
    folds = make_folds(CVS[cv_name](), X, y, classifier=classification)
    Y = y.astype(float)  # +-1 codes for the classifier: the labels are -1, +1
    cv = ClosedFormCV(
        _kernel_matrix(X, params), Y, folds, strategy=strategy, n_gammas=len(GAMMAS)
    )
    assert cv.strategy == strategy
    for gamma in GAMMAS:
        latent = cv.latent(gamma)
        key = (task, kernel_name, cv_name, gamma)  # the fixtures are seeded
        if key not in _REFITS:  # both strategies compare with the same refits
            _REFITS[key] = _refit_latent(X, y, folds, gamma, params, classification)
        expected = _REFITS[key]
        assert len(latent) == len(folds)
        for V, f, ref in zip(folds, latent, expected):
            assert f.shape == (len(V),)
            np.testing.assert_allclose(f, ref, rtol=0, atol=ATOL_REFIT)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_leave_one_out_splitter_equals_loo_string(classification_data, strategy):
    """sklearn's LeaveOneOut gives the same folds and outputs as cv="loo"."""
    X, y = classification_data
    folds_str = make_folds("loo", X, y, classifier=True)
    folds_obj = make_folds(LeaveOneOut(), X, y, classifier=True)
    assert len(folds_str) == len(folds_obj) == len(y)
    for a, b in zip(folds_str, folds_obj):
        np.testing.assert_array_equal(a, b)
    K = RBF(2.0)(X)
    for gamma in [0.1, 10.0]:
        a = ClosedFormCV(K, y, folds_str, strategy=strategy).latent(gamma)
        b = ClosedFormCV(K, y, folds_obj, strategy=strategy).latent(gamma)
        np.testing.assert_allclose(np.concatenate(a), np.concatenate(b), atol=1e-12)


@pytest.mark.parametrize("cv", [5, "loo"], ids=["kfold", "loo"])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_multi_column_equals_single_columns(regression_data, rng, strategy, cv):
    X, y = regression_data
    codes = np.where(rng.standard_normal(len(y)) > 0, 1.0, -1.0)
    Y = np.column_stack([y, y**2, codes])
    folds = make_folds(cv, X, y, classifier=False)
    K = RBF(2.0)(X)
    multi = ClosedFormCV(K, Y, folds, strategy=strategy, n_gammas=3)
    singles = [
        ClosedFormCV(K, Y[:, j], folds, strategy=strategy, n_gammas=3) for j in range(3)
    ]
    for gamma in [0.1, 10.0, 1000.0]:
        latent = multi.latent(gamma)
        columns = [s.latent(gamma) for s in singles]
        for i, V in enumerate(folds):
            assert latent[i].shape == (len(V), 3)
            for j in range(3):
                np.testing.assert_allclose(
                    latent[i][:, j], columns[j][i], rtol=0, atol=ATOL_REFIT
                )


def test_single_column_matrix_keeps_its_column(regression_data):
    X, y = regression_data
    folds = make_folds(5, X, y, classifier=False)
    K = RBF(2.0)(X)
    vector = ClosedFormCV(K, y, folds).latent(10.0)
    matrix = ClosedFormCV(K, y[:, None], folds).latent(10.0)
    for v, m in zip(vector, matrix):
        assert v.ndim == 1 and m.shape == (len(v), 1)
        np.testing.assert_allclose(m[:, 0], v, rtol=0, atol=1e-13)


@pytest.mark.parametrize("cv", [4, "loo"], ids=["kfold", "loo"])
@pytest.mark.parametrize("kernel_name", list(KERNELS))
def test_eigen_and_cholesky_agree(regression_data, kernel_name, cv):
    X, y = regression_data
    folds = make_folds(cv, X, y, classifier=False)
    K = _kernel_matrix(X, KERNELS[kernel_name])
    eig = ClosedFormCV(K, y, folds, strategy="eigen")
    cho = ClosedFormCV(K, y, folds, strategy="cholesky")
    for gamma in GAMMAS:
        np.testing.assert_allclose(
            np.concatenate(eig.latent(gamma)),
            np.concatenate(cho.latent(gamma)),
            rtol=0,
            atol=ATOL_STRATEGIES,
        )


def test_latent_does_not_modify_inputs(regression_data):
    X, y = regression_data
    folds = make_folds(5, X, y, classifier=False)
    K = RBF(2.0)(X)
    K0, y0 = K.copy(), y.copy()
    for strategy in STRATEGIES:
        ClosedFormCV(K, y, folds, strategy=strategy).latent(10.0)
    np.testing.assert_array_equal(K, K0)
    np.testing.assert_array_equal(y, y0)


# -- scores ----------------------------------------------------------------------------


def _neg_mae(y_true, latent):
    return -np.mean(np.abs(y_true - latent))


@pytest.mark.parametrize(
    "task, scoring, metric",
    [
        ("classification", "accuracy", None),
        (
            "regression",
            "neg_mean_squared_error",
            lambda t, p: -mean_squared_error(t, p),
        ),
        ("regression", "r2", r2_score),
        ("regression", _neg_mae, lambda t, p: -mean_absolute_error(t, p)),
    ],
    ids=["accuracy", "neg_mse", "r2", "callable"],
)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_scores_equal_refitted_scores(
    classification_data, regression_data, strategy, task, scoring, metric
):
    X, y = _data(task, classification_data, regression_data)
    classification = task == "classification"
    folds = make_folds(
        KFold(5, shuffle=True, random_state=0), X, y, classifier=classification
    )
    params = KERNELS["rbf"]
    cv = ClosedFormCV(
        _kernel_matrix(X, params), y.astype(float), folds, strategy=strategy
    )
    for gamma in [0.1, 10.0, 1000.0]:
        for V, f in zip(folds, cv.latent(gamma)):
            train = np.setdiff1d(np.arange(len(y)), V)
            if classification:
                model = LSSVMClassifier(gamma=gamma, **params).fit(X[train], y[train])
                expected = accuracy_score(y[V], model.predict(X[V]))
                assert score_latent(scoring, y[V], f) == expected
            else:
                model = LSSVMRegressor(gamma=gamma, **params).fit(X[train], y[train])
                expected = metric(y[V], model.predict(X[V]))
                got = score_latent(scoring, y[V], f)
                np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "splitter",
    [
        5,
        KFold(5, shuffle=True, random_state=0),
        StratifiedKFold(5, shuffle=True, random_state=0),
    ],
    ids=["int", "kfold-shuffle", "stratified-shuffle"],
)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_fold_mean_accuracy_equals_cross_val_score(
    classification_data, strategy, splitter
):
    X, y = classification_data
    folds = make_folds(splitter, X, y, classifier=True)
    for sigma2 in [0.5, 4.0]:
        cv = ClosedFormCV(RBF(sigma2)(X), y, folds, strategy=strategy)
        for gamma in [0.01, 1.0, 100.0]:
            ours = np.mean(
                [
                    score_latent("accuracy", y[V], f)
                    for V, f in zip(folds, cv.latent(gamma))
                ]
            )
            ref = cross_val_score(
                LSSVMClassifier(gamma=gamma, sigma2=sigma2), X, y, cv=splitter
            )
            assert len(ref) == len(folds)
            assert abs(ours - ref.mean()) <= ATOL_SKLEARN


def test_score_latent_accuracy_counts_zero_as_minus_one():
    """latent > 0 is +1; 0 and below are -1, as in LSSVMClassifier.predict."""
    y = np.array([1.0, -1.0, -1.0, 1.0])
    latent = np.array([0.5, 0.0, -2.0, -1e-9])
    assert score_latent("accuracy", y, latent) == 0.75


def test_score_latent_multi_column_is_mean_over_columns(rng):
    Y = rng.standard_normal((20, 2))
    F = Y + 0.3 * rng.standard_normal((20, 2))
    np.testing.assert_allclose(
        score_latent("r2", Y, F),
        np.mean([r2_score(Y[:, j], F[:, j]) for j in range(2)]),
    )
    np.testing.assert_allclose(
        score_latent("neg_mean_squared_error", Y, F), -mean_squared_error(Y, F)
    )


@pytest.mark.parametrize("bad", ["f1", "mse", "", None])
def test_invalid_scoring_raises(bad):
    with pytest.raises(ValueError, match="score_latent: scoring must be one of"):
        score_latent(bad, np.ones(3), np.ones(3))


# -- make_folds ------------------------------------------------------------------------


def test_make_folds_int_uses_sklearn_default_split(classification_data):
    X, y = classification_data
    folds = make_folds(5, X, y, classifier=True)
    expected = [test for _, test in StratifiedKFold(5).split(X, y)]
    assert len(folds) == 5
    for f, e in zip(folds, expected):
        np.testing.assert_array_equal(f, np.sort(e))
    folds = make_folds(5, X, y, classifier=False)
    expected = [test for _, test in KFold(5).split(X, y)]
    for f, e in zip(folds, expected):
        np.testing.assert_array_equal(f, np.sort(e))


@pytest.mark.parametrize("cv_name", list(CVS))
def test_make_folds_partition_the_data(classification_data, cv_name):
    X, y = classification_data
    folds = make_folds(CVS[cv_name](), X, y, classifier=True)
    joined = np.concatenate(folds)
    np.testing.assert_array_equal(np.sort(joined), np.arange(len(y)))
    for f in folds:
        np.testing.assert_array_equal(f, np.sort(f))


def test_make_folds_rejects_non_complement_splitter(classification_data):
    X, y = classification_data
    with pytest.raises(ValueError, match="test set and its complement"):
        make_folds(
            ShuffleSplit(3, train_size=0.5, test_size=0.3, random_state=0),
            X,
            y,
            classifier=True,
        )


def test_make_folds_rejects_overlapping_train_and_test(classification_data):
    X, y = classification_data
    n = len(y)
    split = [(np.arange(0, 40), np.arange(30, n))]  # 10 points in both
    with pytest.raises(ValueError, match="test set and its complement"):
        make_folds(split, X, y, classifier=True)


def test_make_folds_rejects_train_with_duplicates(classification_data):
    """Sizes that add up to n are not enough: a training set with a repeated point
    (and one point missing) is not the complement of the test set."""
    X, y = classification_data
    n = len(y)
    test = np.arange(50, n)
    train = np.r_[0, np.arange(0, 49)]  # point 0 twice, point 49 nowhere
    assert len(train) + len(test) == n and not np.intersect1d(train, test).size
    with pytest.raises(ValueError, match="test set and its complement"):
        make_folds([(train, test)], X, y, classifier=True)


# -- strategy --------------------------------------------------------------------------


def test_auto_strategy_threshold(classification_data):
    X, y = classification_data
    folds = make_folds(5, X, y, classifier=True)
    K = RBF(1.0)(X)
    for n_gammas, expected in [
        (1, "cholesky"),
        (EIGEN_MIN_GAMMAS - 1, "cholesky"),
        (EIGEN_MIN_GAMMAS, "eigen"),
        (EIGEN_MIN_GAMMAS + 10, "eigen"),
    ]:
        assert (
            ClosedFormCV(K, y, folds, strategy="auto", n_gammas=n_gammas).strategy
            == expected
        )
    assert ClosedFormCV(K, y, folds).strategy == "cholesky"  # default n_gammas=1


@pytest.mark.parametrize("bad", ["lu", "EIGEN", "", None])
def test_invalid_strategy_raises(classification_data, bad):
    X, y = classification_data
    folds = make_folds(5, X, y, classifier=True)
    with pytest.raises(ValueError, match="ClosedFormCV: strategy must be one of"):
        ClosedFormCV(RBF(1.0)(X), y, folds, strategy=bad)


@pytest.mark.parametrize("cv", [5, "loo"], ids=["kfold", "loo"])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_non_positive_definite_kernel_raises(rng, strategy, cv):
    n = 30
    A = rng.standard_normal((n, n))
    K = (A + A.T) / 2  # symmetric, eigenvalues down to about -sqrt(2n)
    assert np.linalg.eigvalsh(K).min() < -1.0
    y = rng.standard_normal(n)
    folds = make_folds(cv, np.zeros((n, 1)), y, classifier=False)
    cv_ = ClosedFormCV(K, y, folds, strategy=strategy)
    with pytest.raises(NotPositiveDefiniteError):
        cv_.latent(10.0)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_indefinite_kernel_with_positive_definite_h_is_accepted(
    regression_data, strategy
):
    """Only H = K + I/gamma must be positive definite, not K."""
    X, y = regression_data
    K = RBF(2.0)(X) - 0.5 * np.eye(len(y))  # smallest eigenvalue about -0.5
    folds = make_folds(5, X, y, classifier=False)
    latent = ClosedFormCV(K, y, folds, strategy=strategy).latent(1.0)  # H >= 0.5 I
    ref = ClosedFormCV(K + 0.0, y, folds, strategy="cholesky").latent(1.0)
    for a, b in zip(latent, ref):
        np.testing.assert_allclose(a, b, rtol=0, atol=ATOL_STRATEGIES)
    with pytest.raises(NotPositiveDefiniteError):
        ClosedFormCV(K, y, folds, strategy=strategy).latent(10.0)  # 1/gamma < 0.5
