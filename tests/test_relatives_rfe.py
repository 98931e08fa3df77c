"""SVM-RFE with the LS-SVM (lssvm.relatives.rfe) [C8 §8.4.5]."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier
from lssvm.kernels import Linear
from lssvm.relatives import LSSVMRFE, rfe
from lssvm.relatives.rfe import _criterion


# With n_features_to_select=None the subset is picked by the leave-one-out error, which
# leaves a weighted row out whole and one copy of a repeated row: the fit and the
# ranking are equivalent (test below), the picked subset may differ.
RFE_XFAIL = {
    f"check_sample_weight_equivalence_on_{kind}_data": "the leave-one-out error that "
    "picks the subset leaves a weighted row out whole, a repeated row one copy at a time"
    for kind in ("dense", "sparse")
}


@parametrize_with_checks([LSSVMRFE()], expected_failed_checks=lambda est: RFE_XFAIL)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture
def relevant_four(rng):
    """Ten inputs, the first four relevant with weights 4, 3, 2, 1.5."""
    X = rng.standard_normal((300, 10))
    w = np.r_[4.0, 3.0, 2.0, 1.5, np.zeros(6)]
    y = np.where(X @ w + 0.5 * rng.standard_normal(300) > 0, 1, -1)
    return X, y


def test_linear_ranking_agrees_with_sklearn_rfe_on_the_relevant_inputs(relevant_four):
    X, y = relevant_four
    ours = rfe(X, y, gamma=1e3)
    theirs = RFE(SVC(kernel="linear", C=1e3), n_features_to_select=1).fit(X, y)
    np.testing.assert_array_equal(ours.ranking[:4], [1, 2, 3, 4])
    np.testing.assert_array_equal(theirs.ranking_[:4], [1, 2, 3, 4])
    assert set(ours.selected) >= {0, 1, 2, 3}  # the LOO choice keeps them all


def test_dual_criterion_is_half_the_weight_criterion_for_the_linear_kernel(rng):
    X = rng.standard_normal((30, 5))
    beta = rng.standard_normal((30, 2))
    np.testing.assert_allclose(
        _criterion(Linear(), X, beta, "dual"),
        0.5 * _criterion(Linear(), X, beta, "weight"),
        rtol=1e-10,
    )


def test_loo_error_equals_refitting(relevant_four):
    X, y = relevant_four
    X, y = X[:60, :3], y[:60]
    result = rfe(X, y, gamma=10.0)
    errors = []
    for k in range(len(y)):
        keep = np.arange(len(y)) != k
        clf = LSSVMClassifier(kernel="linear", gamma=10.0).fit(X[keep], y[keep])
        errors.append(clf.predict(X[k : k + 1])[0] != y[k])
    assert result.loo_error[0] == pytest.approx(np.mean(errors))


def test_subsets_shrink_and_ranking_is_a_permutation(relevant_four):
    X, y = relevant_four
    result = rfe(X, y, gamma=10.0, kernel="rbf", sigma2=10.0, step=2)
    sizes = [len(s) for s in result.subsets]
    assert sizes == [10, 8, 6, 4, 2, 1]
    assert sorted(result.ranking) == list(range(1, 11))
    assert len(result.loo_error) == len(sizes)


def test_estimator_selects_and_transforms(relevant_four):
    X, y = relevant_four
    sel = LSSVMRFE(gamma=1e3).fit(X, y)
    assert sel.n_features_ == sel.transform(X).shape[1] == sel.support_.sum()
    sel4 = LSSVMRFE(gamma=1e3, n_features_to_select=4).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(sel4.support_), [0, 1, 2, 3])


def test_multiclass_ranking(rng):
    X = rng.standard_normal((150, 5))
    y = np.argmax(X[:, :3], axis=1)  # inputs 0-2 decide the class
    result = rfe(X, y, gamma=100.0)
    assert set(np.flatnonzero(result.ranking <= 3)) == {0, 1, 2}


@pytest.mark.parametrize(
    "params, match",
    [
        ({"criterion": "weight", "kernel": "rbf"}, "needs the linear kernel"),
        ({"criterion": "abs"}, "criterion must be one of"),
        ({"step": 0}, "step must be an integer >= 1"),
        ({"n_features_to_select": 0}, "n_features_to_select must be None"),
        ({"gamma": 0.0}, "gamma must be a positive float"),
    ],
)
def test_bad_parameters_raise(relevant_four, params, match):
    X, y = relevant_four
    with pytest.raises(ValueError, match=match):
        LSSVMRFE(**params).fit(X, y)


# -- issue #32 defects -------------------------------------------------------------------


def test_precomputed_is_refused_by_both():
    # D1: LSSVMRFE(kernel="precomputed") failed inside numpy
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match="^LSSVMRFE: kernel='precomputed' is not"):
        LSSVMRFE(kernel="precomputed").fit(X @ X.T, y)
    with pytest.raises(ValueError, match="^rfe: kernel='precomputed' is not"):
        rfe(X @ X.T, y, kernel="precomputed")


@pytest.mark.parametrize(
    "X, y, match",
    [
        (np.ones((5, 2)), np.ones(5), "at least 2 classes"),
        (np.ones((5, 2)), np.arange(4) % 2, "inconsistent numbers of samples"),
        (np.ones((5, 2)), np.linspace(0, 1, 5), "Unknown label type"),
        (np.array([[1.0, np.nan]] * 4), np.arange(4) % 2, "NaN"),
    ],
)
def test_function_validates_like_the_estimator(X, y, match):
    # D5: rfe() checks X and y as LSSVMRFE.fit does, with "rfe: " in front
    with pytest.raises(ValueError, match=match):
        rfe(X, y)
    with pytest.raises(ValueError, match=match):
        LSSVMRFE().fit(X, y)


def test_memory_guard_for_nonlinear_kernels(monkeypatch):
    # D9
    import lssvm.linalg.memory as memory

    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(ValueError, match="rfe with a nonlinear kernel"):
        LSSVMRFE(kernel="rbf").fit(X, y)


# -- sample weights: the weighted LS-SVM inside the elimination -------------------------


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_integer_weights_equal_repeated_rows_in_the_ranking(rng, kernel):
    X = rng.standard_normal((40, 5))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.standard_normal(40) > 0, 1, 0)
    w = rng.integers(0, 3, 40).astype(float)
    w[:2] = [1.0, 1.0]  # both classes keep a row
    rep = np.repeat(np.arange(40), w.astype(int))
    a = rfe(X, y, kernel=kernel, sample_weight=w, n_features_to_select=2)
    b = rfe(X[rep], y[rep], kernel=kernel, n_features_to_select=2)
    np.testing.assert_array_equal(a.ranking, b.ranking)
    for ca, cb in zip(a.criteria[:-1], b.criteria[:-1]):  # the last is NaN (1 input)
        np.testing.assert_allclose(ca, cb, rtol=1e-8, atol=1e-12)


def test_weights_reach_the_estimator_and_are_checked(rng):
    X = rng.standard_normal((30, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    w = np.ones(30)
    plain = LSSVMRFE().fit(X, y)
    weighted = LSSVMRFE().fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(plain.ranking_, weighted.ranking_)
    with pytest.raises(ValueError, match="LSSVMRFE: sample_weight"):
        LSSVMRFE().fit(X, y, sample_weight=-w)
    with pytest.raises(ValueError, match=r"rfe: sample_weight is 0 for every sample"):
        rfe(X, y, sample_weight=np.where(y == 1, 0.0, 1.0))
