"""lssvm.bayes.ard: the ARD algorithm of [VanGestel01] section 4."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm import bayes
from lssvm.bayes.ard import ard


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


# -- issue 25: validation, feature names, progress ------------------------------------


def test_complex_and_nan_inputs_are_refused(rng):
    X, y = _small(rng)
    with pytest.raises(ValueError, match="ard: X must be real-valued"):
        ard(X + 1j, y)
    target = X[:, 0].copy()
    target[3] = np.nan
    with pytest.raises(ValueError, match="y contains NaN"):
        ard(X, target, task="regression")
    with pytest.raises(ValueError, match="ard: y must be numeric"):
        ard(X, np.array(["a", "b"] * 20), task="regression")


def _small(rng, n_features=3):
    X = rng.standard_normal((40, n_features))
    return X, np.where(X[:, 0] + 0.5 * rng.standard_normal(40) > 0, 1, -1)


def test_transform_keeps_the_feature_name_contract(rng):
    pd = pytest.importorskip("pandas")
    X, y = _small(rng, 4)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    res = ard(frame, y, max_stages=1, max_iter=5)
    assert list(res.feature_names_in_) == ["a", "b", "c", "d"]
    names = np.array(["a", "b", "c", "d"], dtype=object)
    np.testing.assert_array_equal(res.selected_feature_names, names[res.selected])
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        np.testing.assert_array_equal(res.transform(frame), res.transform(X))
    with pytest.raises(ValueError, match="feature names should match"):
        res.transform(frame[["b", "a", "c", "d"]])
    with pytest.warns(UserWarning, match="X has feature names, but ard was fitted"):
        ard(X, y, max_stages=1, max_iter=5).transform(frame)


@pytest.mark.filterwarnings("ignore:level 2:RuntimeWarning")
def test_verbose_reports_stages_and_total(rng, capsys):
    X, y = _small(rng)
    ard(X, y, max_stages=2, max_iter=5, verbose=1)
    err = capsys.readouterr().err
    assert "[lssvm ard] step 2" in err and "stage 1 of at most 2" in err
    assert "done:" in err
