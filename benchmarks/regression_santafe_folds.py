"""Santa Fe laser, [S Fig. 3.6]: contiguous against shuffled 10-fold cross-validation.

The regression chapter tunes its NARX LS-SVM (51 lagged inputs, the first 1000
points, standardised) by ``LSSVMRegressorCV(search="shrinking", cv=10)``. An int
``cv`` is scikit-learn's ``KFold`` without shuffling: the lag windows are in time
order, so each validation fold is one contiguous block of windows. This script
reruns the same search with ``KFold(10, shuffle=True, random_state=seed)`` for
several seeds, the split in which every validation window has training windows on
both sides that share most of its inputs, and records for each split the chosen
(gamma, sigma2), the cross-validation error at the choice and the root mean
squared error of the 100-step iterated forecast against the true continuation.

    python benchmarks/regression_santafe_folds.py [--seeds 0 1 2 3 4]

writes ``benchmarks/results/regression_santafe_folds.json`` (with provenance).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from benchmarks._common import print_environment, save_json  # first: the pass's wall time

import numpy as np
from sklearn.model_selection import KFold
from threadpoolctl import threadpool_limits

from lssvm import LSSVMRegressorCV
from lssvm.datasets import load_santafe
from lssvm.timeseries import iterated_prediction, lag_embed

OUT = Path(__file__).resolve().parent / "results" / "regression_santafe_folds.json"
N_LAGS, HORIZON, N_TRAIN = 51, 100, 1000  # y_k, ..., y_{k-50}: q = 50 in [S §3.5]


def run_split(cv, name):
    """Tune on the 1000 training points with ``cv``; forecast 100 steps."""
    laser = load_santafe()
    train, truth = laser[:N_TRAIN], laser[N_TRAIN:N_TRAIN + HORIZON]
    mu, sd = train.mean(), train.std()
    X, y = lag_embed((train - mu) / sd, N_LAGS)
    start = time.perf_counter()
    model = LSSVMRegressorCV(search="shrinking", cv=cv).fit(X, y)
    seconds = time.perf_counter() - start
    forecast = mu + sd * iterated_prediction(model, (train - mu) / sd, HORIZON)
    rmse = float(np.sqrt(np.mean((forecast - truth) ** 2)))
    record = {"split": name, "gamma": float(model.best_params_["gamma"]),
              "sigma2": float(model.best_params_["sigma2"]),
              "cv_mse": float(-model.best_score_),  # neg_mean_squared_error, standardised
              "forecast_rmse": rmse, "tune_seconds": seconds}
    print(record, flush=True)
    return record


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4],
                        help="random_state of the shuffled KFold splits")
    args = parser.parse_args(argv)
    with threadpool_limits(limits=1, user_api="blas"):
        print_environment()
        rows = [run_split(10, "contiguous")]
        for seed in args.seeds:
            rows.append({**run_split(KFold(10, shuffle=True, random_state=seed),
                                     f"shuffled, seed {seed}"), "seed": seed})
    results = {"settings": {"n_lags": N_LAGS, "horizon": HORIZON, "n_train": N_TRAIN,
                            "search": "shrinking", "folds": 10,
                            "standardised": "mean and sd of the training points"},
               "runs": rows}
    save_json(OUT, results)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
