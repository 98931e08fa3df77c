"""Pruning path at N = 2000: downdating the Cholesky factor vs refitting each stage.

Prunes an LS-SVM regressor on a noisy sinc (N = 2000, RBF sigma2 = 4, gamma = 100)
and an LS-SVM classifier on two Gaussian classes (1000 per class, means +-[0.5, 0.5],
covariance 0.25 I, sigma2 = 9, gamma = 10), 5% of the current set per stage, down to
``--min-support`` points, twice in the same run: ``update="downdate"`` (the factor's
leading rows reused, the trailing block rebuilt, see :mod:`lssvm.sparse.pruning`) and
``update="refit"`` (a fresh ``fit`` per stage). Prints both times, their ratio and
the largest difference between the two paths' alpha and b. Run with::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/bench_pruning.py
"""

from __future__ import annotations

import argparse

import numpy as np

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import gaussian_classes, sinc
from lssvm.sparse.pruning import prune

from benchmarks._common import print_environment, timed


def problems(n):
    X_r, y_r = sinc(n, noise=0.1, random_state=0)
    X_c, y_c = gaussian_classes(n // 2, mean=0.5, random_state=0)
    return {
        "regression (sinc)": (LSSVMRegressor(gamma=100.0, sigma2=4.0), X_r, y_r),
        "classification (Gaussians)": (
            LSSVMClassifier(gamma=10.0, sigma2=9.0), X_c, y_c,
        ),
    }  # fmt: skip


def largest_gap(path_a, path_b):
    gaps = []
    for a, b in zip(path_a.estimators, path_b.estimators, strict=True):
        gaps.append(np.max(np.abs(a.alpha_ - b.alpha_)))
        gaps.append(abs(a.b_ - b.b_))
    return max(gaps)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--min-support", type=int, default=200)
    args = parser.parse_args(argv)
    print_environment()
    for name, (est, X, y) in problems(args.n).items():
        options = dict(min_support=args.min_support)
        t_down, down = timed(lambda: prune(est, X, y, update="downdate", **options))
        t_refit, refit = timed(lambda: prune(est, X, y, update="refit", **options))
        assert np.array_equal(down.n_support, refit.n_support)
        print(
            f"{name}: N={args.n} -> {down.n_support[-1]} in {len(down.n_support) - 1} "
            f"stages; downdate {t_down:.2f} s, refit {t_refit:.2f} s, saving "
            f"{t_refit / t_down:.1f}x; max |difference| of alpha, b "
            f"{largest_gap(down, refit):.1e}",
            flush=True,
        )


if __name__ == "__main__":
    main()
