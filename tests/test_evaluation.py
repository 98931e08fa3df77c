"""The benchmark protocol of Tables 3.3-3.4 (section 3.4.3): randomized stratified
2/3-1/3 splits and the test accuracy on each."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifier
from lssvm.model_selection.protocol import randomized_splits, randomized_test_accuracy


@pytest.fixture
def unbalanced_labels(rng):
    """100 labels, classes of 50, 30 and 20 points, shuffled."""
    return rng.permutation(np.repeat(["a", "b", "c"], [50, 30, 20]))


@pytest.mark.parametrize("n", [100, 101, 102])
def test_splits_sizes_and_partition(n, rng):
    y = rng.integers(0, 3, n)
    splits = randomized_splits(y, 5, random_state=0)
    assert len(splits) == 5
    for train, test in splits:
        assert len(test) == math.ceil(n / 3)
        assert len(np.intersect1d(train, test)) == 0
        np.testing.assert_array_equal(
            np.sort(np.concatenate([train, test])), np.arange(n)
        )


def test_splits_are_stratified(unbalanced_labels):
    y = unbalanced_labels
    n_test = math.ceil(len(y) / 3)  # 34
    classes, counts = np.unique(y, return_counts=True)
    expected = counts * n_test / len(y)  # 17, 10.2, 6.8
    for _, test in randomized_splits(y, 10, random_state=3):
        got = np.array([np.sum(y[test] == c) for c in classes])
        assert np.all(np.abs(got - expected) <= 1), got


def test_splits_are_seeded(unbalanced_labels):
    y = unbalanced_labels
    a = randomized_splits(y, 4, random_state=7)
    b = randomized_splits(y, 4, random_state=7)
    for (tr_a, te_a), (tr_b, te_b) in zip(a, b):
        np.testing.assert_array_equal(tr_a, tr_b)
        np.testing.assert_array_equal(te_a, te_b)
    c = randomized_splits(y, 4, random_state=8)
    assert any(not np.array_equal(np.sort(s[1]), np.sort(t[1])) for s, t in zip(a, c))
    # the splits of one call differ from each other
    tests = {tuple(np.sort(te)) for _, te in a}
    assert len(tests) == 4


@pytest.mark.parametrize("standardize", [True, False])
def test_accuracy_equals_a_hand_written_loop(standardize, capsys):
    X, y = load_iris(return_X_y=True)  # N = 150, 3 classes
    clf = LSSVMClassifier(gamma=10.0, sigma2=2.0)
    acc = randomized_test_accuracy(
        clf, X, y, n_rand=3, random_state=1, standardize=standardize, verbose=1
    )
    assert acc.shape == (3,)
    assert np.all((acc >= 0) & (acc <= 1))
    expected = []
    for train, test in randomized_splits(y, 3, random_state=1):
        X_train, X_test = X[train], X[test]
        if standardize:
            scaler = StandardScaler().fit(X_train)
            X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
        model = LSSVMClassifier(gamma=10.0, sigma2=2.0).fit(X_train, y[train])
        expected.append(np.mean(model.predict(X_test) == y[test]))
    np.testing.assert_array_equal(acc, expected)
    assert np.all(acc > 0.8)  # iris is easy: a real classifier, not chance (1/3)
    assert not hasattr(clf, "alpha_")  # the estimator given is cloned, not fitted
    err = capsys.readouterr().err
    assert err.count("[lssvm evaluation] split") == 3


def test_accuracy_is_seeded():
    X, y = load_iris(return_X_y=True)
    clf = LSSVMClassifier(gamma=1.0, sigma2=0.5, coding="ova")
    a = randomized_test_accuracy(clf, X, y, n_rand=2, random_state=0)
    b = randomized_test_accuracy(clf, X, y, n_rand=2, random_state=0)
    np.testing.assert_array_equal(a, b)


def test_corrected_resampled_se_is_nadeau_bengio():
    from lssvm.model_selection.protocol import corrected_resampled_se

    rng = np.random.default_rng(0)
    d = rng.standard_normal(10)
    s = d.std(ddof=1)
    # k = 10 splits with 1/3 of the data for testing: ratio 1/2
    assert corrected_resampled_se(s, 10, 0.5) == pytest.approx(
        np.sqrt((1 / 10 + 0.5) * d.var(ddof=1)), rel=1e-14)
    # no overlap correction: the naive standard error of the mean
    assert corrected_resampled_se(s, 10, 0.0) == pytest.approx(s / np.sqrt(10))
    with pytest.raises(ValueError, match="n_splits must be >= 2; got n_splits=1"):
        corrected_resampled_se(s, 1, 0.5)
    with pytest.raises(ValueError, match="test_train_ratio must be >= 0"):
        corrected_resampled_se(s, 10, -0.1)
