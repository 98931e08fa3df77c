"""Benchmark: matrix-free CG on harder spectra than bench_large_scale.py's.

``bench_large_scale.py`` trains on 2-D Gaussian classes with sigma2 = 1, gamma = 10:
a kernel matrix of numerically low rank, for which the Nystrom preconditioner of
rank min(500, N/2) captures nearly the whole spectrum and CG needs about ten
iterations at any N. This script repeats the fit on the same data (N points, seed 0;
test set of 10,000 points, seed 1) with a narrow kernel (sigma2 = 0.05, many
eigenvalues of K above 1/gamma) with a large gamma (gamma = 1000, sigma2 = 1), and with both (on 5000 points only:
it needs hundreds of iterations),
and records for each case the CG iterations, the wall time of ``fit``, the relative
KKT residual ||A x - r||_2 / ||r||_2 of the classifier's bordered system [S 3.24]
(x = [b; alpha], r = [0; 1_v]), computed matrix-free as in bench_large_scale.py, the
test accuracy and the Bayes accuracy.

Usage::

    .venv/bin/python benchmarks/cg_hard_spectrum.py [--n 20000] [--threads 2]
        [--out benchmarks/results/cg_hard_spectrum.json]
"""

from __future__ import annotations

import argparse
import datetime
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import sklearn
from scipy.stats import norm
from threadpoolctl import threadpool_limits

from benchmarks._common import save_json
from lssvm import LSSVMClassifier
from lssvm.datasets import gaussian_classes
from lssvm.kernels import RBF
from lssvm.linalg.operators import KernelOperator

CASES = [  # (label, N, gamma, sigma2); N = None: --n
    ("reference", None, 10.0, 1.0),
    ("narrow kernel", None, 10.0, 0.05),
    ("large gamma", None, 1000.0, 1.0),
    ("narrow kernel, large gamma", 5000, 1000.0, 0.05),
]
DEFAULT_OUT = Path(__file__).parent / "results" / "cg_hard_spectrum.json"


def kkt_relative_residual(X, y, gamma, sigma2, alpha, b) -> float:
    """||A x - r|| / ||r|| of [S 3.24] with Omega = D K D, matrix-free."""
    op = KernelOperator(RBF(sigma2), X)
    Ha = y * op((alpha * y)[:, None])[:, 0] + alpha / gamma  # (Omega + I/gamma) alpha
    top = y @ alpha  # first row: y^T alpha - 0
    rest = Ha + y * b - 1.0  # second block: y b + H alpha - 1_v
    return float(np.sqrt(top**2 + rest @ rest) / np.sqrt(len(y)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    X_test, y_test = gaussian_classes(5000, random_state=1)
    cases = []
    with threadpool_limits(args.threads):
        for label, n, gamma, sigma2 in CASES:
            n = args.n if n is None else n
            X, y = gaussian_classes(n // 2, random_state=0)
            model = LSSVMClassifier(solver="cg", gamma=gamma, sigma2=sigma2)
            start = time.perf_counter()
            model.fit(X, y)
            seconds = time.perf_counter() - start
            yy = np.where(y == model.classes_[1], 1.0, -1.0)
            case = {
                "label": label, "n_samples": n, "gamma": gamma, "sigma2": sigma2,
                "n_iter": int(model.n_iter_), "fit_seconds": seconds,
                "kkt_residual": kkt_relative_residual(X, yy, gamma, sigma2,
                                                      model.alpha_, model.b_),
                "test_accuracy": float(model.score(X_test, y_test)),
                "bayes_accuracy": float(norm.cdf(2 * np.sqrt(2) * 0.5)),
            }
            print(case, flush=True)
            cases.append(case)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True,
                            text=True, cwd=Path(__file__).parent).stdout.strip()
    result = {
        "benchmark": "cg_hard_spectrum.py",
        "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "environment": {"python": platform.python_version(), "numpy": np.__version__,
                        "scipy": scipy.__version__, "scikit-learn": sklearn.__version__,
                        "blas_threads": args.threads},
        "kkt_residual_measure": "||A x - r||_2 / ||r||_2 of [S 3.24], matrix-free",
        "cases": cases,
    }
    save_json(args.out, result, [sys.argv[0], *(argv or sys.argv[1:])])


if __name__ == "__main__":
    main()
