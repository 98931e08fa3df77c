"""lssvm.ard: the ARD algorithm of [VanGestel01] section 4."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm import bayes
from lssvm.ard import ard


@pytest.fixture
def noisy_inputs(rng):
    """Labels from inputs 0 and 1; input 2 a noisy copy of 0; input 3 pure noise."""
    N = 150
    X = rng.standard_normal((N, 4))
    X[:, 2] = X[:, 0] + 0.5 * rng.standard_normal(N)
    X[:, 1] *= 3.0  # a different scale: standardisation must handle it
    score = np.sin(2 * X[:, 0]) + X[:, 1] / 3 + 0.3 * rng.standard_normal(N)
    return X, np.where(score > 0, 1, -1)


def test_ard_removes_the_pure_noise_input(noisy_inputs):
    X, y = noisy_inputs
    res = ard(X, y)
    assert 3 not in res.selected and 3 in res.removed
    assert {0, 1} <= set(res.selected.tolist())
    assert set(res.ranking[:2].tolist()) == {0, 1}
    assert sorted(res.ranking.tolist()) == [0, 1, 2, 3]
    first = res.stages[0]
    assert first.weights[3] < 0.05 * first.weights.max()  # a low weight in stage 1
    assert first.log_evidence >= res.isotropic.log_evidence  # ARD adds evidence


def test_weights_path_records_every_stage(noisy_inputs):
    X, y = noisy_inputs
    res = ard(X, y)
    path, stage = res.weights_path, res.path_stage
    assert path.shape[1] == 4 and len(stage) == len(path)
    assert len(res.stages) == stage.max() + 1
    first_rows = path[stage == 0]
    np.testing.assert_allclose(first_rows[0], 1 / res.sigma2)  # step 3: u = 1/sigma^2
    np.testing.assert_allclose(first_rows[-1], res.stages[0].weights)
    for j, removed in enumerate(res.removed):  # NaN once an input is removed
        assert np.all(np.isnan(path[stage > j, removed]))
    assert not np.any(np.isnan(path[:, res.selected]))


def test_stages_agree_with_level2_at_their_weights(noisy_inputs):
    X, y = noisy_inputs
    res = ard(X, y, max_stages=1)
    assert len(res.stages) == 1 and len(res.removed) == 0
    st = res.stages[0]
    Z = (X - res.mean) / res.scale
    direct = bayes.level2(Z[:, st.features], y, sigma2=1 / st.weights)
    assert direct.log_evidence == pytest.approx(st.log_evidence, rel=1e-10)
    assert direct.mu == pytest.approx(st.level2.mu, rel=1e-10)
    assert res.transform(X).shape == (len(y), 4)


def test_all_at_once_and_min_features(noisy_inputs):
    X, y = noisy_inputs
    res = ard(X, y, one_at_a_time=False, threshold=0.5, min_features=3)
    assert len(res.selected) == 3
    assert res.ranking[-1] == res.removed[-1]


def test_regression_task(rng):
    X = rng.standard_normal((100, 3))
    t = np.sin(2 * X[:, 1]) + 0.1 * rng.standard_normal(100)
    res = ard(X, t, task="regression")
    assert res.ranking[0] == 1
    assert res.selected.tolist() == [1]


def test_ard_validation(noisy_inputs):
    X, y = noisy_inputs
    with pytest.raises(ValueError, match="threshold must be"):
        ard(X, y, threshold=1.5)
    with pytest.raises(ValueError, match="min_features must be"):
        ard(X, y, min_features=5)
    with pytest.raises(ValueError, match="constant"):
        ard(np.c_[X, np.ones(len(y))], y)
