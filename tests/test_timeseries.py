"""NARX time-series helpers of lssvm.timeseries and the Santa Fe laser loader."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from lssvm import LSSVMRegressor
from lssvm.datasets import load_santafe
from lssvm.timeseries import iterated_prediction, lag_embed, one_step_prediction


def _damped_ar2(n, r=0.99, omega=0.3):
    """s_t = 1 + r^t sin(omega t): a noiseless AR(2) with intercept, and its law."""
    t = np.arange(n)
    a = np.array([2 * r * np.cos(omega), -(r**2)])
    return 1 + r**t * np.sin(omega * t), a, 1 - a.sum()


def _noisy_ar2(n, a=(1.5, -0.75), noise=0.1, mean=2.0, seed=0):
    rng = np.random.default_rng(seed)
    burn = 200
    e = noise * rng.standard_normal(n + burn)
    x = np.zeros(n + burn)
    for t in range(2, n + burn):
        x[t] = a[0] * x[t - 1] + a[1] * x[t - 2] + e[t]
    return x[burn:] + mean


# --------------------------------------------------------------------------------------
# lag_embed
# --------------------------------------------------------------------------------------


def test_lag_embed_values_exact():
    X, y = lag_embed(np.arange(7), 3)
    expected = np.array([[2, 1, 0], [3, 2, 1], [4, 3, 2], [5, 4, 3]], dtype=float)
    np.testing.assert_array_equal(X, expected)
    np.testing.assert_array_equal(y, [3.0, 4.0, 5.0, 6.0])
    assert X.dtype == y.dtype == np.float64
    assert X.flags.c_contiguous


@pytest.mark.parametrize("n, n_lags", [(10, 1), (10, 9), (57, 5), (1000, 50)])
def test_lag_embed_shapes(n, n_lags):
    X, y = lag_embed(np.arange(n, dtype=float), n_lags)
    assert X.shape == (n - n_lags, n_lags)
    assert y.shape == (n - n_lags,)


def test_lag_embed_round_trip():
    s = np.random.default_rng(0).standard_normal(40)
    X, y = lag_embed(s, 6)
    np.testing.assert_array_equal(X[:, -1], s[:-6])  # oldest lag: the series itself
    np.testing.assert_array_equal(y, s[6:])
    for j in range(6):  # column j is the series delayed by j steps
        np.testing.assert_array_equal(X[:, j], s[5 - j : len(s) - 1 - j])
    np.testing.assert_array_equal(X[1:, 1:], X[:-1, :-1])  # windows shift by one
    np.testing.assert_array_equal(X[1:, 0], y[:-1])  # the next value enters first
    np.testing.assert_array_equal(np.concatenate([X[0, ::-1], y]), s)


def test_lag_embed_does_not_alias_the_series():
    s = np.arange(10.0)
    X, y = lag_embed(s, 3)
    X[:] = -1.0
    y[:] = -1.0
    np.testing.assert_array_equal(s, np.arange(10.0))


@pytest.mark.parametrize(
    "series, n_lags, match",
    [
        (np.arange(5.0), 5, "longer than n_lags"),
        (np.arange(5.0), 0, "n_lags must be an integer >= 1"),
        (np.arange(5.0), 2.0, "n_lags must be an integer"),
        (np.arange(5.0), True, "n_lags must be an integer"),
        (np.arange(10.0).reshape(5, 2), 2, "1-D array"),
        (np.arange(10.0).reshape(10, 1), 2, "1-D array"),
        (np.array([0.0, 1.0, np.nan, 3.0]), 1, "finite"),
    ],
)
def test_lag_embed_errors(series, n_lags, match):
    with pytest.raises(ValueError, match=match):
        lag_embed(series, n_lags)


# --------------------------------------------------------------------------------------
# iterated_prediction and one_step_prediction
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rbf_model():
    s = np.sin(0.2 * np.arange(120)) + 0.1 * np.cos(0.7 * np.arange(120))
    X, y = lag_embed(s[:100], 4)
    return LSSVMRegressor(gamma=50.0, sigma2=2.0).fit(X, y), s


def test_iterated_prediction_equals_manual_recursion(rbf_model):
    model, s = rbf_model
    history = s[:100]
    predictions = iterated_prediction(model, history, 15)
    buffer = list(history)
    for _ in range(15):
        window = np.array(buffer[-4:][::-1])
        buffer.append(model.predict(window[None, :])[0])
    np.testing.assert_allclose(predictions, buffer[100:], rtol=0, atol=1e-12)
    assert predictions.shape == (15,) and predictions.dtype == np.float64


def test_iterated_prediction_uses_only_the_last_n_lags(rbf_model):
    model, s = rbf_model
    a = iterated_prediction(model, s[:100], 5)
    b = iterated_prediction(model, s[96:100], 5)
    np.testing.assert_array_equal(a, b)
    iterated_prediction(model, list(s[:100]), 2)  # any array-like


def test_first_iterated_step_is_the_one_step_prediction(rbf_model):
    model, s = rbf_model
    for start in (4, 50, 100, 120):
        first = iterated_prediction(model, s[:start], 1)
        np.testing.assert_allclose(
            one_step_prediction(model, s, start, 1), first, rtol=0, atol=1e-12
        )


def test_one_step_prediction_matches_lag_embed(rbf_model):
    model, s = rbf_model
    X, _ = lag_embed(s, 4)
    # lag_embed row k predicts s[k + 4]; start=10 is row 6.
    np.testing.assert_allclose(
        one_step_prediction(model, s, 10, 30), model.predict(X[6:36]), atol=1e-12
    )


def test_noiseless_ar2_iterated_matches_the_true_continuation():
    s, a, c = _damped_ar2(120)
    X, y = lag_embed(s[:100], 2)
    model = LSSVMRegressor(kernel="linear", gamma=1e7).fit(X, y)
    np.testing.assert_allclose(model.alpha_ @ X, a, atol=1e-6)  # w of (3.34)
    assert model.b_ == pytest.approx(c, abs=1e-6)
    np.testing.assert_allclose(
        iterated_prediction(model, s[:100], 20), s[100:], rtol=0, atol=1e-6
    )


def test_noisy_ar2_recovers_coefficients_and_iterated_is_worse_than_one_step():
    x = _noisy_ar2(1800)
    X, y = lag_embed(x[:1500], 2)
    model = LSSVMRegressor(kernel="linear", gamma=1e6).fit(X, y)
    np.testing.assert_allclose(model.alpha_ @ X, [1.5, -0.75], atol=0.05)
    truth = x[1500:1800]
    one_step = one_step_prediction(model, x, 1500, 300)
    iterated = iterated_prediction(model, x[:1500], 300)
    rmse_one = np.sqrt(np.mean((one_step - truth) ** 2))
    rmse_it = np.sqrt(np.mean((iterated - truth) ** 2))
    assert rmse_one == pytest.approx(0.1, rel=0.2)  # the innovation noise
    assert rmse_it > 2 * rmse_one  # errors accumulate in free run
    assert rmse_it < 1.5 * x.std()  # ... towards the process's own spread


def test_works_with_any_sklearn_regressor():
    s, a, c = _damped_ar2(120)
    X, y = lag_embed(s[:100], 2)
    model = LinearRegression().fit(X, y)
    np.testing.assert_allclose(
        iterated_prediction(model, s[:100], 20), s[100:], rtol=0, atol=1e-8
    )
    np.testing.assert_allclose(
        one_step_prediction(model, s, 100, 20), s[100:], rtol=0, atol=1e-8
    )


def test_iterated_prediction_errors(rbf_model):
    model, s = rbf_model
    with pytest.raises(ValueError, match=r"at least n_lags=4 .* len\(history\)=3"):
        iterated_prediction(model, s[:3], 5)
    with pytest.raises(ValueError, match="n_steps must be an integer >= 1"):
        iterated_prediction(model, s, 0)
    with pytest.raises(ValueError, match="1-D array"):
        iterated_prediction(model, s.reshape(-1, 1), 5)
    with pytest.raises(ValueError, match="finite"):
        iterated_prediction(model, np.r_[s, np.inf], 5)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        iterated_prediction(LSSVMRegressor(), s, 5)


def test_one_step_prediction_errors(rbf_model):
    model, s = rbf_model
    with pytest.raises(ValueError, match=r"start must be an integer >= 4 \(n_lags"):
        one_step_prediction(model, s, 3, 5)
    with pytest.raises(ValueError, match="at most len"):
        one_step_prediction(model, s, 100, 22)
    with pytest.raises(ValueError, match="n_steps must be an integer >= 1"):
        one_step_prediction(model, s, 10, 0)
    with pytest.raises(ValueError, match="1-D array"):
        one_step_prediction(model, s.reshape(-1, 1), 10, 5)
    one_step_prediction(model, s, 100, 21)  # the last one predicts past the end


# --------------------------------------------------------------------------------------
# load_santafe
# --------------------------------------------------------------------------------------

needs_reservoirpy = pytest.mark.skipif(
    importlib.util.find_spec("reservoirpy") is None,
    reason="reservoirpy (ships the Santa Fe laser data) is not installed: "
    "pip install 'lssvm[data]'",
)


@needs_reservoirpy
def test_load_santafe_shape_values_and_determinism():
    s = load_santafe()
    assert s.shape == (10093,) and s.dtype == np.float64
    assert np.all(np.isfinite(s))
    # Competition set A starts 86 141 95 41 22 21 32 72 138 111; integers 0..255.
    np.testing.assert_array_equal(s[:10], [86, 141, 95, 41, 22, 21, 32, 72, 138, 111])
    np.testing.assert_array_equal(s, np.round(s))
    assert s.min() == 0 and s.max() == 255
    assert s[:1000].mean() == pytest.approx(59.894)
    np.testing.assert_array_equal(load_santafe(), s)


@needs_reservoirpy
def test_load_santafe_has_the_collapse_after_set_a():
    s = load_santafe()
    # The intensity builds up to its full-scale peak at t = 1057, then collapses:
    # the next pulses stay below 10% of that until t = 1072.
    assert s[1057] == 255 and np.argmax(s[1000:1100]) == 57
    assert s[1060:1072].max() <= 20
