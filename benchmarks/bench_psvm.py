"""Benchmark: the linear proximal SVM on a million points [C8 §8.4.4].

Fung and Mangasarian (2001) report that the linear PSVM classifies millions of
points in seconds: its fit is one pass over the data to form the (n+1) x (n+1)
matrix E^T E, E = [X, 1], and one small solve. This script times, on the same data
and with the same number of BLAS threads (``--threads``, default 1):

- ``PSVMClassifier(gamma=1)`` (``lssvm.relatives``), the primal closed form;
- the linear LS-SVM in its primal form (the bias not penalised): the centred normal
  equations (Xc^T Xc + I/gamma) w = Xc^T y, b = mean(y) - mean(x)^T w, which is
  what ``LSSVMClassifier(kernel="linear")`` solves through its N x N dual (checked
  on ``--check-size`` points; the dual itself would need 8 N^2 bytes, 8 TB at
  N = 10^6);
- scikit-learn's ``LinearSVC(C=1, dual=False)`` (liblinear, squared hinge loss,
  primal Newton method: scikit-learn's advice when n_samples > n_features).

Data: two Gaussian classes in ``--n-features`` dimensions
(``lssvm.datasets.gaussian_classes``: means +-0.3 (1, ..., 1), unit variance, seed
0 for training, seed 1 for ``--n-test`` test points); the Bayes accuracy is
Phi(0.3 sqrt(n)). For every N in ``--sizes`` each method is fitted ``--repeats``
times (interleaved) and the median fit time is kept, with the test accuracy.
Timings are comparable only within one run. Results (with the command, date,
commit, versions, thread counts and wall time) go to ``--out`` as JSON. Usage::

    .venv/bin/python benchmarks/bench_psvm.py          # N = 10^4, 10^5, 10^6
    .venv/bin/python benchmarks/bench_psvm.py --sizes 100000 --repeats 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import scipy
from scipy.stats import norm
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from benchmarks._common import (
    peak_rss_mb, print_environment, save_json, timed,
)

from lssvm import LSSVMClassifier
from lssvm.datasets import gaussian_classes
from lssvm.relatives import PSVMClassifier

ROOT = Path(__file__).resolve().parents[1]

MEAN = 0.3


def linear_lssvm_primal(X, y, gamma):
    """Linear LS-SVM classifier in the primal: ridge on +-1 labels, b not penalised.

    Returns (w, b). The bordered primal system, with b eliminated by centring.
    """
    t = np.where(y == 1, 1.0, -1.0)
    mean_x, mean_t = X.mean(axis=0), t.mean()
    G = X.T @ X - len(t) * np.outer(mean_x, mean_x)  # Xc^T Xc, one pass over X
    G.flat[:: G.shape[0] + 1] += 1.0 / gamma
    w = scipy.linalg.solve(G, X.T @ t - len(t) * mean_x * mean_t, assume_a="pos")
    return w, mean_t - mean_x @ w


def data(n_samples, n_features, seed):
    X, y = gaussian_classes(
        n_samples // 2, mean=MEAN, variance=1.0, n_features=n_features,
        random_state=seed,
    )  # fmt: skip
    return X, np.where(y == 1, 1, 0)


def accuracy(decision, y):
    return float(np.mean((decision > 0) == (y == 1)))


def check(n_check, n_features, gamma):
    """Primal LS-SVM = LSSVMClassifier's dual; PSVM primal = PSVM dual."""
    X, y = data(n_check, n_features, 0)
    w, b = linear_lssvm_primal(X, y, gamma)
    dual = LSSVMClassifier(kernel="linear", gamma=gamma).fit(X, y)
    psvm_p = PSVMClassifier(gamma=gamma, method="primal").fit(X, y)
    psvm_d = PSVMClassifier(gamma=gamma, method="dual").fit(X, y)
    return {
        "n": n_check,
        "lssvm_primal_vs_dual": float(
            np.max(np.abs(X @ w + b - dual.decision_function(X)))
        ),
        "psvm_primal_vs_dual": float(
            np.max(np.abs(psvm_p.decision_function(X) - psvm_d.decision_function(X)))
        ),
    }


def run_size(N, args, X_test, y_test):
    X, y = data(N, args.n_features, 0)
    methods = {
        "PSVM (primal)": lambda: PSVMClassifier(gamma=args.gamma).fit(X, y),
        "LS-SVM (linear, primal)": lambda: linear_lssvm_primal(X, y, args.gamma),
        "LinearSVC (liblinear)": lambda: LinearSVC(C=args.C, dual=False).fit(X, y),
    }
    times = {name: [] for name in methods}
    models = {}
    for _ in range(args.repeats):  # interleaved rounds
        for name, fit in methods.items():
            seconds, models[name] = timed(fit)
            times[name].append(seconds)
    w, b = models["LS-SVM (linear, primal)"]
    decisions = {
        "PSVM (primal)": models["PSVM (primal)"].decision_function(X_test),
        "LS-SVM (linear, primal)": X_test @ w + b,
        "LinearSVC (liblinear)": models["LinearSVC (liblinear)"].decision_function(
            X_test
        ),
    }
    rows = []
    for name in methods:
        rows.append({
            "N": N, "method": name, "fit_s_median": float(np.median(times[name])),
            "fit_s_all": [float(t) for t in times[name]],
            "test_accuracy": accuracy(decisions[name], y_test),
        })  # fmt: skip
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**4, 10**5, 10**6])
    parser.add_argument("--n-features", type=int, default=10)
    parser.add_argument("--n-test", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--check-size", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results"
                        / "psvm.json")  # fmt: skip
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with threadpool_limits(limits=args.threads):
        print_environment()
        X_test, y_test = data(args.n_test, args.n_features, 1)
        bayes = float(norm.cdf(MEAN * np.sqrt(args.n_features)))
        rows = []
        for N in args.sizes:
            rows += run_size(N, args, X_test, y_test)
            for r in rows[-3:]:
                print(f"N={N:>9,d}  {r['method']:<26s} fit {r['fit_s_median']:8.3f} s"
                      f"  test accuracy {r['test_accuracy']:.4f}", flush=True)
        checks = check(args.check_size, args.n_features, args.gamma)
        print(f"Bayes accuracy {bayes:.4f}; checks: {checks}")
    results = {
        "benchmark": "bench_psvm.py",  # command, date, commit, versions: stamp() below
        "threads": args.threads,
        "data": {"generator": "lssvm.datasets.gaussian_classes", "mean": MEAN,
                 "variance": 1.0, "n_features": args.n_features,
                 "n_test": args.n_test, "train_seed": 0, "test_seed": 1},
        "bayes_accuracy": bayes,
        "params": {"gamma": args.gamma, "C": args.C, "repeats": args.repeats},
        "rows": rows,
        "check": checks,
        "peak_rss_mb": peak_rss_mb(),
        "wall_s": time.perf_counter() - start,
    }  # fmt: skip
    save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"wrote {args.out} ({results['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
