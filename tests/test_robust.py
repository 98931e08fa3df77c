"""Robust weighted LS-SVM (lssvm.robust)."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm import LSSVMRegressor
from lssvm.datasets import sinc
from lssvm.robust import robust_fit, robust_weights


def test_weights_follow_the_scheme():
    e = np.array([0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 6.0, 10.0])
    s = 1.483 * np.median(np.abs(e - np.median(e)))  # 1.483 MAD
    r = np.abs(e / s)
    v = robust_weights(e)
    inner, middle, outer = r <= 2.5, (r > 2.5) & (r <= 3.0), r > 3.0
    assert inner.sum() == 7 and middle.sum() == 1 and outer.sum() == 1
    np.testing.assert_allclose(v[inner], 1.0)
    np.testing.assert_allclose(v[middle], (3.0 - r[middle]) / 0.5)
    np.testing.assert_allclose(v[outer], 1e-4)
    with pytest.raises(
        ValueError, match="robust_weights: c1 and c2 must be floats with 0 < c1 < c2"
    ):
        robust_weights(e, c1=3.0, c2=2.0)


def test_robust_fit_downweights_outliers_and_is_closer_to_the_truth():
    X, y = sinc(200, noise=0.1, random_state=0)
    y_out = y.copy()
    y_out[::20] += 3.0  # 10 gross outliers
    est = LSSVMRegressor(gamma=10.0, sigma2=1.0)
    plain = est.fit(X, y_out).predict(X)
    robust = robust_fit(est, X, y_out)
    assert np.all(robust.sample_weight_[::20] < 0.01)
    clean = LSSVMRegressor(gamma=10.0, sigma2=1.0).fit(X, y).predict(X)
    assert np.abs(robust.predict(X) - clean).max() < 0.5 * np.abs(plain - clean).max()
    manual = LSSVMRegressor(gamma=10.0, sigma2=1.0).fit(
        X, y_out, sample_weight=robust.sample_weight_
    )
    np.testing.assert_allclose(robust.predict(X), manual.predict(X), rtol=0)
