"""prototypes="leverage": approximate ridge leverage scores, the draw, estimators."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from lssvm.datasets import xor_sine
from lssvm.kernels import RBF
from lssvm.sparse.prototypes import draw_prototypes, ridge_leverage_scores


@pytest.fixture
def data():
    return xor_sine(600, n_features=4, random_state=1)


def draw(X, m, seed, gamma=1.0):
    rng = np.random.default_rng(seed)
    return draw_prototypes(X, len(X), m, "leverage", 2.0, rng, lambda i: X[i],
                            kernel=RBF(2.0), gamma=gamma)


@pytest.mark.parametrize("lam", [0.05, 1.0, 20.0])
def test_scores_with_the_whole_pool_as_sketch_are_exact(lam):
    X = np.random.default_rng(0).standard_normal((80, 3))
    K = RBF(2.0)(X)
    exact = np.diag(K @ np.linalg.inv(K + lam * np.eye(len(X))))  # K (K + lam I)^-1
    approx = ridge_leverage_scores(X, RBF(2.0), lam, chunk_size=17)
    np.testing.assert_allclose(approx, exact, rtol=0, atol=1e-8)
    # a smaller sketch: every score stays positive (the weights of the draw)
    small = ridge_leverage_scores(X, RBF(2.0), lam, sketch_size=40, random_state=0)
    assert np.all(small > 0)


def test_scores_reject_a_non_positive_ridge():
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="lam must be > 0; got lam=0.0"):
        ridge_leverage_scores(X, RBF(1.0), 0.0)


def test_draw_is_deterministic_distinct_and_sorted(data):
    X, _ = data
    idx, Z = draw(X, 40, 3)
    idx2, Z2 = draw(X, 40, 3)
    np.testing.assert_array_equal(idx, idx2)
    np.testing.assert_array_equal(Z, Z2)
    assert len(idx) == 40 and len(np.unique(idx)) == 40
    assert np.all(np.diff(idx) > 0)
    np.testing.assert_array_equal(Z, X[idx])
    assert not np.array_equal(idx, draw(X, 40, 4)[0])


def test_draw_takes_the_largest_gamma_and_needs_one(data):
    X, _ = data
    np.testing.assert_array_equal(draw(X, 30, 0, gamma=[0.1, 10.0])[0],
                                  draw(X, 30, 0, gamma=10.0)[0])
    with pytest.raises(ValueError, match="needs gamma"):
        draw(X, 30, 0, gamma=None)


def test_draw_prefers_rows_of_high_leverage():
    """One isolated far cluster carries high ridge leverage: the draw finds it far
    more often than its share of the rows."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.standard_normal((990, 2)) * 0.3,
                   10.0 + rng.standard_normal((10, 2)) * 0.3])
    hits = [np.sum(draw(X, 20, seed, gamma=100.0)[0] >= 990) for seed in range(10)]
    assert np.mean(hits) > 1.0  # uniform: 20 * 10 / 1000 = 0.2 expected (1.8 here)


def test_every_pool_row_when_m_is_large(data):
    X, _ = data
    idx, _ = draw(X[:50], 50, 0)
    np.testing.assert_array_equal(idx, np.arange(50))


@pytest.mark.parametrize("Est", [FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor])
def test_estimators_fit_and_predict(Est, data):
    X, y = data
    est = Est(n_prototypes=40, sigma2=2.0, gamma=[1.0, 10.0], prototypes="leverage",
              random_state=0).fit(X, y)
    assert est.prototypes_.shape == (40, X.shape[1])
    np.testing.assert_array_equal(est.prototypes_, X[est.prototype_indices_])
    again = Est(n_prototypes=40, sigma2=2.0, gamma=[1.0, 10.0], prototypes="leverage",
                random_state=0).fit(X, y)
    np.testing.assert_array_equal(est.prototype_indices_, again.prototype_indices_)
    if Est is FixedSizeLSSVMClassifier:
        assert est.score(X, y) > 0.7
    else:
        assert np.all(np.isfinite(est.predict(X)))


def test_leverage_with_an_ard_kernel(data):
    """Unlike "entropy", "leverage" uses the estimator's own kernel: a vector sigma2
    is accepted."""
    X, y = data
    est = FixedSizeLSSVMClassifier(n_prototypes=30, kernel="rbf",
                                   sigma2=[1.0, 2.0, 3.0, 4.0], prototypes="leverage",
                                   random_state=0).fit(X, y)
    assert est.prototypes_.shape == (30, 4)


def test_dask_input_gives_the_same_prototypes(data):
    da = pytest.importorskip("dask.array")
    import dask

    X, y = data
    kw = dict(n_prototypes=40, sigma2=2.0, prototypes="leverage", random_state=0,
              solver="normal")
    ref = FixedSizeLSSVMClassifier(**kw).fit(X, y)
    with dask.config.set(scheduler="synchronous"):
        est = FixedSizeLSSVMClassifier(**kw).fit(da.from_array(X, chunks=(128, -1)),
                                                 da.from_array(y, chunks=128))
        pred = est.predict(da.from_array(X, chunks=(128, -1))).compute()
    np.testing.assert_array_equal(est.prototype_indices_, ref.prototype_indices_)
    np.testing.assert_array_equal(pred, ref.predict(X))


def test_bad_prototypes_value_is_named(data):
    X, y = data
    with pytest.raises(ValueError, match=r"prototypes must be one of \['entropy', "
                       r"'leverage', 'random'\].*got prototypes='levrage'"):
        FixedSizeLSSVMRegressor(prototypes="levrage").fit(X, y)
