"""Benchmark: matrix-free CG training of the LS-SVM classifier, N = 20,000-200,000.

``LSSVMClassifier(solver="cg", gamma=10, sigma2=1)`` runs the large-scale algorithm
of section 3.4.1: conjugate gradient on (3.25) with the kernel matrix recomputed in
tiles at every product (``lssvm.linalg.operators.KernelOperator``, never stored),
preconditioned by a Nystrom approximation of rank min(500, N // 2). For each size N
in ``--sizes`` (two Gaussian classes in 2-D, ``lssvm.datasets.gaussian_classes``:
means +-0.5 (1, 1), variance 0.25, seed 0) and for one 20-D case of
``--d20-size`` points, the script reports:

- **fit s**: wall time of ``fit`` alone (the estimators' default ``tol=1e-10``);
- **peak MB**: peak resident set size of the process (``_common.peak_rss_mb``:
  ``VmHWM`` on Linux, ``ru_maxrss`` elsewhere), read after the fit and the residual
  product, before anything else. Every case runs in a fresh child process
  (``_common.in_child``, multiprocessing "spawn"), so the number covers that case
  only, plus the interpreter and the imported libraries (the "base" column, the
  peak right after the imports). The JSON also has the peak at the end of the case
  (``peak_rss_total_mb``, with the exp block and the prediction);
- **iter**: CG iterations (``n_iter_``);
- **KKT res**: relative residual ||A x - r|| / ||r|| of the classifier's full
  bordered system (3.5) = (3.24), x = [b; alpha], r = [0; 1_v], computed
  matrix-free: (Omega + I/gamma) alpha = y * ((K + I/gamma)(alpha * y)) with one
  ``KernelOperator`` product, never the matrix;
- **test acc**: accuracy on a fresh test set (``--n-test`` points, seed 1); the
  Bayes accuracy of the two Gaussians is printed for reference;
- **product s / exp s / ratio**: the time of that one matrix-free product (two
  columns, as in the CG iteration, and N^2/2 + O(N b) kernel entries) against the
  time ``np.exp`` takes for the same number of entries on a precomputed
  2048 x 2048 block of -||x - z||^2 / sigma2 from the same data (the
  exp-throughput limit of a kernel that is recomputed at every product). A ratio
  of 1 would mean the product costs no more than its exponentials.

The 20-D case keeps the problem comparable: sigma2 = d / 2 = 10 (so that
||x - z||^2 / sigma2 has the same typical size as in 2-D with sigma2 = 1) and class
means +-0.5 sqrt(2 / d) (1, ..., 1), which gives the same Bayes accuracy.

**Check**: on ``--check-size`` points (default 20,000, the 2-D data of seed 0), the
CG model and the direct solver (``solver="direct"``: an N x N Gram matrix, 3.2 GB at
20,000, and one Cholesky factorisation) are fitted on the same points; their test
accuracies must be equal. The number of test points they classify differently and
the largest difference of their decision values are printed too.

**Targets** (from the issue), for N = 200,000: fit under 5 minutes, peak memory
under 2 GB (2000 MB of peak resident memory), KKT residual below 1e-8. The script prints
PASS/MISS (or "not run" when 200,000 is not among the sizes) and always exits 0.
It is not run in CI.

BLAS threads are pinned with threadpoolctl (``--threads``, default 2) for every
BLAS loaded, and the estimators get ``n_jobs=--threads``: the matrix-free product
runs its row blocks on that many threads (``KernelOperator`` limits BLAS to 1 thread
per call and ``np.exp`` is single-threaded); the BLAS threads serve the Nystrom
setup and the prediction. Results go to ``--out`` as JSON. Usage::

    .venv/bin/python benchmarks/bench_large_scale.py          # N = 20k, 50k, 200k
    .venv/bin/python benchmarks/bench_large_scale.py --sizes 20000 --d20-size 5000
        [--check-size 20000] [--n-test 10000] [--threads 2]
        [--out benchmarks/results/large_scale.json]

With the defaults expect about 10-20 minutes and 3.5 GB of memory (the direct
solver of the check); ``--check-size 0`` skips the check.
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import sklearn
from scipy.stats import norm
from threadpoolctl import threadpool_info, threadpool_limits

from lssvm import LSSVMClassifier
from lssvm.datasets import gaussian_classes
from lssvm.kernels import RBF
from lssvm.linalg.operators import KernelOperator

from benchmarks._common import (
    in_child, peak_rss_mb, print_environment, progress, save_json,
)

GAMMA = 10.0
SIGMA2_2D = 1.0
MEAN_2D, VARIANCE = 0.5, 0.25
TRAIN_SEED, TEST_SEED = 0, 1
EXP_BLOCK = 2048
TARGET_N = 200_000
TARGET_SECONDS = 300.0
TARGET_PEAK_MB = 2000.0
TARGET_KKT = 1e-8
DEFAULT_OUT = Path(__file__).parent / "results" / "large_scale.json"


def problem(n_features: int):
    """(sigma2, class mean): ||x - z||^2 / sigma2 and the Bayes rate as in 2-D."""
    sigma2 = SIGMA2_2D * n_features / 2
    mean = MEAN_2D * np.sqrt(2 / n_features)
    return sigma2, mean


def bayes_accuracy(n_features: int) -> float:
    """Two Gaussians +-m (1, ..., 1), covariance v I: Phi(m sqrt(d) / sqrt(v))."""
    _, mean = problem(n_features)
    return float(norm.cdf(mean * np.sqrt(n_features) / np.sqrt(VARIANCE)))


def data(n: int, n_features: int, seed: int):
    _, mean = problem(n_features)
    X, y = gaussian_classes(n // 2, mean=mean, variance=VARIANCE,
                            n_features=n_features, random_state=seed)
    return X, y


def operator_entries(n: int, block: int) -> int:
    """Kernel entries computed by one KernelOperator product (tiles with J <= I)."""
    sizes = np.diff(np.r_[np.arange(0, n, block), n]).astype(np.int64)
    return int((np.sum(sizes) ** 2 + np.sum(sizes**2)) // 2)


def exp_seconds_per_entry(X, sigma2: float, repeats: int = 5) -> float:
    """Best time of np.exp per entry on a precomputed block of -||x - z||^2 / sigma2."""
    Xb = X[:EXP_BLOCK]
    sq = np.einsum("ij,ij->i", Xb, Xb)
    D = -np.maximum(sq[:, None] + sq[None, :] - 2 * Xb @ Xb.T, 0.0) / sigma2
    out = np.empty_like(D)
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        np.exp(D, out=out)
        best = min(best, time.perf_counter() - start)
    return best / D.size


def kkt_residual_matrix_free(clf, X, y, operator):
    """||A x - r|| / ||r|| of (3.5), x = [b; alpha], r = [0; 1_v]; and the product time.

    With beta = alpha * y (``dual_coef_``) and y_k^2 = 1, the rows of (3.5) read
    y_k (b + [(K + I/gamma) beta]_k - y_k) and the first row sum_k beta_k.
    """
    beta, b = clf.dual_coef_, clf.b_
    V = np.column_stack([beta, np.ones_like(beta)])  # two columns, as in CG
    start = time.perf_counter()
    KV = operator(V)  # (K + I/gamma) V, K never stored
    seconds = time.perf_counter() - start
    rows = b + KV[:, 0] - y  # times y_k, which does not change the norm
    residual = np.sqrt(beta.sum() ** 2 + rows @ rows) / np.sqrt(len(y))
    return float(residual), seconds


def run_case(n: int, n_features: int, n_test: int, threads: int) -> dict:
    """One size in a fresh process: fit, residual, product vs exp, test accuracy."""
    base_mb = peak_rss_mb()
    with threadpool_limits(limits=threads, user_api="blas"):
        sigma2, _ = problem(n_features)
        X, y = data(n, n_features, TRAIN_SEED)
        clf = LSSVMClassifier(
            solver="cg", gamma=GAMMA, sigma2=sigma2, n_jobs=threads
        )  # the operator's threads as in the recorded runs (one per CPU)
        start = time.perf_counter()
        clf.fit(X, y)
        fit_seconds = time.perf_counter() - start
        operator = KernelOperator(RBF(sigma2), X, shift=1.0 / GAMMA)
        residual, product_seconds = kkt_residual_matrix_free(clf, X, y, operator)
        fit_peak_mb = peak_rss_mb()  # before the exp block and the prediction
        entries = operator_entries(n, operator.block_size)
        exp_seconds = entries * exp_seconds_per_entry(X, sigma2)
        X_test, y_test = data(n_test, n_features, TEST_SEED)
        start = time.perf_counter()
        accuracy = float(clf.score(X_test, y_test))
        predict_seconds = time.perf_counter() - start
    return {
        "n_samples": n, "n_features": n_features, "sigma2": sigma2, "gamma": GAMMA,
        "fit_seconds": fit_seconds, "peak_rss_mb": fit_peak_mb,
        "peak_rss_total_mb": peak_rss_mb(), "base_rss_mb": base_mb,
        "n_iter": int(clf.n_iter_),
        "kkt_residual": residual, "test_accuracy": accuracy,
        "bayes_accuracy": bayes_accuracy(n_features), "n_test": n_test,
        "predict_seconds": predict_seconds, "product_seconds": product_seconds,
        "product_entries": entries, "exp_seconds": exp_seconds,
        "product_over_exp": product_seconds / exp_seconds,
        "entries_per_second": entries / product_seconds,
    }  # fmt: skip


def run_check(n: int, n_test: int, threads: int) -> dict:
    """CG and direct solver fitted on the same n points: same test accuracy?"""
    with threadpool_limits(limits=threads, user_api="blas"):
        X, y = data(n, 2, TRAIN_SEED)
        X_test, y_test = data(n_test, 2, TEST_SEED)
        out = {"n_samples": n, "n_test": n_test}
        decisions = {}
        for solver in ["cg", "direct"]:
            clf = LSSVMClassifier(
                solver=solver, gamma=GAMMA, sigma2=SIGMA2_2D, n_jobs=threads
            )
            start = time.perf_counter()
            clf.fit(X, y)
            out[f"{solver}_fit_seconds"] = time.perf_counter() - start
            decisions[solver] = clf.decision_function(X_test)
            accuracy = np.mean(clf.predict(X_test) == y_test)
            out[f"{solver}_test_accuracy"] = float(accuracy)
    out["n_predictions_differ"] = int(
        np.sum(np.sign(decisions["cg"]) != np.sign(decisions["direct"]))
    )
    out["max_decision_difference"] = float(
        np.max(np.abs(decisions["cg"] - decisions["direct"]))
    )
    out["accuracies_equal"] = out["cg_test_accuracy"] == out["direct_test_accuracy"]
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def verdicts(cases: list[dict]) -> dict:
    """PASS/MISS of the issue's targets at N = 200,000 in 2-D (None if not run)."""
    big = [c for c in cases if c["n_samples"] == TARGET_N and c["n_features"] == 2]
    if not big:
        return {"fit_seconds": None, "peak_rss_mb": None, "kkt_residual": None}
    case = big[0]
    return {
        "fit_seconds": case["fit_seconds"] < TARGET_SECONDS,
        "peak_rss_mb": case["peak_rss_mb"] < TARGET_PEAK_MB,
        "kkt_residual": case["kkt_residual"] < TARGET_KKT,
    }


def print_case(c: dict) -> None:
    print(f"{c['n_samples']:>7} {c['n_features']:>3} {c['fit_seconds']:>8.1f} "
          f"{c['peak_rss_mb']:>8.0f} {c['base_rss_mb']:>5.0f} {c['n_iter']:>5} "
          f"{c['kkt_residual']:>9.1e} {c['test_accuracy']:>8.4f} "
          f"{c['product_seconds']:>9.2f} {c['exp_seconds']:>6.2f} "
          f"{c['product_over_exp']:>6.2f} {c['entries_per_second'] / 1e9:>8.2f}",
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20000, 50000, 200000],
                        help="numbers of training points N in 2-D")
    parser.add_argument("--d20-size", type=int, default=20000,
                        help="training points of the 20-D case (0 skips it)")
    parser.add_argument("--check-size", type=int, default=20000,
                        help="points of the CG-versus-direct check (0 skips it)")
    parser.add_argument("--n-test", type=int, default=10000, help="test points")
    parser.add_argument("--threads", type=int, default=2,
                        help="BLAS threads (numpy's and scipy's OpenBLAS)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="JSON file for the results")
    args = parser.parse_args(argv)

    with threadpool_limits(limits=args.threads, user_api="blas"):
        print_environment()
    print(f"LSSVMClassifier(solver='cg', gamma={GAMMA}, sigma2=d/2), tol=1e-10; "
          f"test set {args.n_test} points; Bayes accuracy {bayes_accuracy(2):.4f}")
    print("peak MB: VmHWM of a fresh process per case (base: after imports); "
          "KKT res: ||Ax - r|| / ||r|| of (3.5), matrix-free")
    header = (f"{'N':>7} {'d':>3} {'fit s':>8} {'peak MB':>8} {'base':>5} {'iter':>5} "
              f"{'KKT res':>9} {'test acc':>8} {'product s':>9} {'exp s':>6} "
              f"{'ratio':>6} {'Gent/s':>8}")
    print(header)
    print("-" * len(header))
    runs = [(n, 2) for n in args.sizes]
    if args.d20_size:
        runs.append((args.d20_size, 20))
    cases = []
    for n, d in progress(runs, "sizes"):
        cases.append(in_child(run_case, n, d, args.n_test, args.threads))
        print_case(cases[-1])

    check = None
    if args.check_size:
        check = in_child(run_check, args.check_size, args.n_test, args.threads)
        print(f"\ncheck, N={check['n_samples']} (2-D): test accuracy CG "
              f"{check['cg_test_accuracy']:.4f} ({check['cg_fit_seconds']:.1f} s), "
              f"direct {check['direct_test_accuracy']:.4f} "
              f"({check['direct_fit_seconds']:.1f} s); "
              f"{'equal' if check['accuracies_equal'] else 'DIFFERENT'}; "
              f"{check['n_predictions_differ']} of {check['n_test']} predictions "
              f"differ, max |decision difference| "
              f"{check['max_decision_difference']:.1e}; "
              f"peak {check['peak_rss_mb']:.0f} MB")

    verdict = verdicts(cases)
    print(f"\ntargets at N={TARGET_N} (2-D):")
    for key, limit in [("fit_seconds", f"fit < {TARGET_SECONDS:.0f} s"),
                       ("peak_rss_mb", f"peak < {TARGET_PEAK_MB:.0f} MB"),
                       ("kkt_residual", f"KKT residual < {TARGET_KKT:.0e}")]:
        status = {None: "not run", True: "PASS", False: "MISS"}[verdict[key]]
        print(f"  {limit:<22} {status}")

    results = {
        "benchmark": "bench_large_scale.py",
        "date": time.strftime("%Y-%m-%d"),
        "argv": sys.argv[1:] if argv is None else list(argv),
        "environment": {
            "python": platform.python_version(), "numpy": np.__version__,
            "scipy": scipy.__version__, "scikit-learn": sklearn.__version__,
            "cpu_count": multiprocessing.cpu_count(), "blas_threads": args.threads,
            "blas": [f"{lib['internal_api']} {lib['version']}"
                     for lib in threadpool_info() if lib["user_api"] == "blas"],
        },
        "memory_measure": "VmHWM (peak RSS) of a fresh spawned process per case, MB",
        "kkt_residual_measure": "||A x - r||_2 / ||r||_2 of (3.5), matrix-free",
        "cases": cases,
        "check": check,
        "targets": {"n_samples": TARGET_N, "fit_seconds": TARGET_SECONDS,
                    "peak_rss_mb": TARGET_PEAK_MB, "kkt_residual": TARGET_KKT,
                    "pass": verdict},
    }  # fmt: skip
    save_json(args.out, results, None if argv is None else [sys.argv[0], *argv])
    print(f"\nresults written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
