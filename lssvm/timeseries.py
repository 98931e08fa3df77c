r"""NARX time-series prediction with LS-SVMs: Suykens et al. (2002), [S §3.5].

A nonlinear autoregressive model :math:`\hat y_{k+1} = f(y_k, y_{k-1}, \dots,
y_{k-q})` is an ordinary regression problem once the series is cut into lag
windows: the inputs are the last ``n_lags`` values (most recent first), the target
is the next value. Any regressor fits it; with an LS-SVM [S 3.28-3.34] the size of
the linear system [S 3.32] is the number of windows, whatever ``n_lags`` (the book's
remark after [S 3.34]). [S Fig. 3.6] trains such a model with q = 50 on the first 1000
points of the Santa Fe chaotic laser series (:func:`lssvm.datasets.load_santafe`)
and predicts the next 100 points iteratively.

- :func:`lag_embed` builds the regression data (X, y) from a series.
- :func:`iterated_prediction` runs the fitted model freely (the "iterative
  prediction" of [S Fig. 3.6]): after the first step it sees only its own predictions.
- :func:`one_step_prediction` predicts each point from the true past values
  (teacher forcing), the easier task that a one-step CV score measures.

Examples
--------
>>> import numpy as np
>>> from lssvm.timeseries import lag_embed
>>> X, y = lag_embed(np.arange(6.0), 3)
>>> X
array([[2., 1., 0.],
       [3., 2., 1.],
       [4., 3., 2.]])
>>> y
array([3., 4., 5.])

A damped oscillation s_t = 1 + 0.99^t sin(0.3 t) is a noiseless AR(2) process
(s_t = a_1 s_{t-1} + a_2 s_{t-2} + c with a_1 = 1.98 cos 0.3, a_2 = -0.99^2); a
linear LS-SVM with a large gamma fitted on 100 points continues it:

>>> from lssvm import LSSVMRegressor
>>> from lssvm.timeseries import iterated_prediction
>>> t = np.arange(120)
>>> s = 1 + 0.99**t * np.sin(0.3 * t)
>>> X, y = lag_embed(s[:100], 2)
>>> model = LSSVMRegressor(kernel="linear", gamma=1e7).fit(X, y)
>>> bool(np.allclose(iterated_prediction(model, s[:100], 20), s[100:], atol=1e-6))
True

Sources: Suykens et al. (2002), [S §3.5] and [S Fig. 3.6]; Weigend & Gershenfeld
(1994), "Time Series Prediction: Forecasting the Future and Understanding the Past",
for the Santa Fe competition data.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import ArrayLike, NDArray
from sklearn.utils.validation import check_is_fitted

from ._validation import check_count

__all__ = ["lag_embed", "iterated_prediction", "one_step_prediction"]


def _check_series(series: ArrayLike, name: str, owner: str) -> NDArray[np.float64]:
    s = np.asarray(series, dtype=np.float64)
    if s.ndim != 1:
        raise ValueError(
            f"{owner}: {name} must be a 1-D array (one series); got {name}.shape="
            f"{s.shape}. Use {name}.ravel() for a single column."
        )
    if not np.all(np.isfinite(s)):
        n_bad = int(np.count_nonzero(~np.isfinite(s)))
        raise ValueError(
            f"{owner}: {name} must contain only finite values (no NaN or inf); got "
            f"{n_bad} non-finite value(s) in {name}."
        )
    return s


def _n_lags_of(model) -> int:
    check_is_fitted(model)
    n_lags = getattr(model, "n_features_in_", None)
    if n_lags is None:
        raise ValueError(
            f"{type(model).__name__} has no n_features_in_: fit it on lag_embed "
            "windows first."
        )
    return int(n_lags)


def _predict_one(model, window: NDArray[np.float64]) -> float:
    out = np.ravel(model.predict(window[None, :]))
    if out.size != 1:
        raise ValueError(
            f"{type(model).__name__}.predict must return one value per row for a "
            f"single-output NARX model; got {out.size} values for one row."
        )
    return float(out[0])


def lag_embed(
    series: ArrayLike, n_lags: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Lag windows and next values of a series: the NARX regression data.

    Row k of X is the window [s_t, s_{t-1}, ..., s_{t-n_lags+1}] (most recent value
    first) with t = k + n_lags - 1, and y[k] = s_{t+1}; every t with a full window
    and a next value is used, so there are len(series) - n_lags rows. The book's
    model y_{k+1} = f(y_k, ..., y_{k-q}) has n_lags = q + 1 inputs.

    Parameters
    ----------
    series : array-like of shape (n,)
        A single, finite series.
    n_lags : int
        Window length (number of inputs), at least 1 and less than n.

    Returns
    -------
    X : ndarray of shape (n - n_lags, n_lags)
        X[:, j] is the series delayed by j steps; X[:, -1] equals series[:-n_lags].
    y : ndarray of shape (n - n_lags,)
        series[n_lags:].
    """
    s = _check_series(series, "series", "lag_embed")
    n_lags = check_count(n_lags, "n_lags", minimum=1, owner="lag_embed")
    if len(s) <= n_lags:
        raise ValueError(
            f"series must be longer than n_lags to give one window and its next "
            f"value; got len(series)={len(s)} and n_lags={n_lags}."
        )
    X = np.ascontiguousarray(sliding_window_view(s[:-1], n_lags)[:, ::-1])
    return X, s[n_lags:].copy()


def iterated_prediction(model, history: ArrayLike, n_steps: int) -> NDArray[np.float64]:
    """Free-run prediction: feed the model's own predictions back as inputs.

    The first window is the last n_lags values of ``history`` (n_lags is the
    model's ``n_features_in_``), most recent first as in :func:`lag_embed`. The
    prediction of the next value is pushed into the window (the oldest value drops
    out) and the model is applied again, ``n_steps`` times: from the (n_lags + 1)-th
    step on, the model sees only its own predictions. This is the iterative
    prediction of [S Fig. 3.6].

    Parameters
    ----------
    model : fitted scikit-learn regressor
        Trained on :func:`lag_embed` windows (any regressor with ``predict`` and
        ``n_features_in_``).
    history : array-like of shape (n,)
        The observed series, n >= n_lags; only its last n_lags values are used.
    n_steps : int
        Number of future values, at least 1.

    Returns
    -------
    predictions : ndarray of shape (n_steps,)
        Predictions of the values that follow ``history``.
    """
    n_lags = _n_lags_of(model)
    s = _check_series(history, "history", "iterated_prediction")
    n_steps = check_count(n_steps, "n_steps", minimum=1)
    if len(s) < n_lags:
        raise ValueError(
            f"history must hold at least n_lags={n_lags} values (the model's "
            f"n_features_in_); got len(history)={len(s)}."
        )
    window = s[len(s) - n_lags :][::-1].copy()
    predictions = np.empty(n_steps)
    for step in range(n_steps):
        predictions[step] = _predict_one(model, window)
        window[1:] = window[:-1].copy()
        window[0] = predictions[step]
    return predictions


def one_step_prediction(
    model, series: ArrayLike, start: int, n_steps: int
) -> NDArray[np.float64]:
    """One-step-ahead predictions from the true past values (teacher forcing).

    Predicts series[t] for t = start, ..., start + n_steps - 1, each from the true
    window [series[t-1], ..., series[t-n_lags]]; errors do not accumulate, unlike
    :func:`iterated_prediction`. The first step of both is the same prediction:
    ``one_step_prediction(model, s, start, 1)`` equals
    ``iterated_prediction(model, s[:start], 1)``.

    Parameters
    ----------
    model : fitted scikit-learn regressor
        As in :func:`iterated_prediction`.
    series : array-like of shape (n,)
        The true series.
    start : int
        Index of the first predicted value; at least n_lags.
    n_steps : int
        Number of predictions, at least 1; start + n_steps - 1 <= n (the last
        prediction may be of the value just after the series).

    Returns
    -------
    predictions : ndarray of shape (n_steps,)
        predictions[i] estimates series[start + i].
    """
    n_lags = _n_lags_of(model)
    s = _check_series(series, "series", "one_step_prediction")
    start = check_count(
        start, "start", minimum=n_lags, meaning="n_lags, the model's inputs"
    )
    n_steps = check_count(n_steps, "n_steps", minimum=1)
    stop = start + n_steps - 1  # the windows use series[start - n_lags : stop]
    if stop > len(s):
        raise ValueError(
            f"start + n_steps - 1 must be at most len(series)={len(s)} (every window "
            f"must be observed); got start={start}, n_steps={n_steps}."
        )
    windows = sliding_window_view(s[start - n_lags : stop], n_lags)[:, ::-1]
    out = np.ravel(model.predict(np.ascontiguousarray(windows)))
    if out.size != n_steps:
        raise ValueError(
            f"{type(model).__name__}.predict must return one value per row for a "
            f"single-output NARX model; got {out.size} values for {n_steps} rows."
        )
    return out.astype(np.float64, copy=False)
