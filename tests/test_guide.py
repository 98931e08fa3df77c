"""The practitioner guide's benchmark (benchmarks/bench_practitioner.py) and its results.

The guide (book/guide.md) reads benchmarks/results/practitioner.json; these checks
keep the file consistent with its protocol and the script's interval with the formula
the guide states, without running the benchmark.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks import bench_practitioner
from lssvm import LSSVMRegressor
from lssvm.datasets import sinc

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "practitioner.json"

RTOL = 1e-12


@pytest.fixture(scope="module")
def stored():
    return json.loads(RESULTS.read_text())


def test_every_method_has_one_value_per_split(stored):
    k = stored["protocol"]["n_splits"]
    assert k >= 5 and stored["protocol"]["split_seeds"] == list(range(k))
    for name, entry in stored["sets"].items():
        for method, rec in entry["methods"].items():
            for key in ("fit_seconds", "accuracy", "rmse", "r2", "coverage"):
                values = rec.get(key)
                if values:  # coverage only for the methods with error bars
                    assert len(values) == k, (name, method, key)


def test_every_set_of_the_script_is_stored(stored):
    expected = set(bench_practitioner.CLASSIFICATION_SETS + bench_practitioner.REGRESSION_SETS)
    assert set(stored["sets"]) == expected


def test_interval_is_mean_plus_minus_z_sqrt_std2_plus_noise():
    X, y = sinc(120, noise=0.1, random_state=0)
    model = bench_practitioner.make_pipeline(
        bench_practitioner.StandardScaler(), LSSVMRegressor(gamma=10.0, sigma2=0.5)
    ).fit(X, y)
    mean, half = bench_practitioner.interval(model, X[:20])
    reg = model[-1]
    m, std = model.predict(X[:20], return_std=True)
    np.testing.assert_allclose(mean, m, rtol=RTOL)
    expected = 1.959963984540054 * np.sqrt(std**2 + reg.noise_variance_)
    np.testing.assert_allclose(half, expected, rtol=RTOL)
