"""Benchmark: direct solver, dense CG and matrix-free CG against N (the CG chapter).

The stored run that ``book/conjugate_gradient.md`` quotes for the claims it argues
from: where matrix-free CG overtakes the direct solver, how the times grow with N,
and what a direct solve costs in CG iterations near ``AUTO_DIRECT_MAX_N``. The
chapter times the same three solvers live up to N = 8000; this script repeats them
with the same data and settings up to ``--sizes`` (default 500 ... 16,000) and stores
the machine in the provenance (``_common.stamp``: CPU model, cores, SIMD level, BLAS).

Data and settings are the chapter's: two Gaussian classes in 2-D
(``lssvm.datasets.gaussian_classes(N // 2, random_state=0)``), RBF kernel with
sigma2 = 1, gamma = 10, one thread (every BLAS pinned to 1 thread with threadpoolctl,
``n_jobs=1`` for the matrix-free products). The three solvers of the KKT system
[S 3.24] by :func:`lssvm.linalg.solvers.solve_bordered_kkt`:

- **direct**: build the lower triangle of K, factor K + I/gamma in place
  (Cholesky), solve;
- **dense CG**: build the same triangle, then CG with products by the stored matrix
  (BLAS ``symm``), Nystrom preconditioner of rank min(500, N // 2), relative
  residual 1e-10;
- **matrix-free CG**: the same CG with ``lssvm.linalg.operators.KernelOperator``: K
  recomputed in 256 x 256 tiles at every product, never stored.

For each N, with ``--repeats`` runs of each (interleaved: one run of each solver per
round), it records the seconds of every run and their median, the CG iterations of
both CG solvers, the largest difference of alpha from the direct solution (relative
to max |alpha|), and four measurements that explain the times:

- **build**: ``RBF.gram_lower`` (N^2 / 2 kernel values into fresh memory);
- **stored product**: one product of the stored lower triangle with an (N, 2) block
  (``dsymm``, as in dense CG): it computes nothing but reads N^2 / 2 values (4 N^2
  bytes);
- **matrix-free product**: one ``KernelOperator`` product with an (N, 2) block, as in
  one iteration of matrix-free CG;
- **exp floor**: ``np.exp`` over N^2 / 2 values, on 256 x 256 tiles of exponents
  -||x - z||^2 / sigma2 of the same data (the tiles a matrix-free product computes):
  the least a matrix-free product can cost on this machine;
- **Nystrom set-up**: building the preconditioner, once per CG solve.

Summary (also in the JSON): the crossover N where the ratio of the medians of
matrix-free CG and direct crosses 1 (interpolated linearly in log N), the verdict at
each N from the spread of the runs (``lssvm.reporting.ledger.compare_times``), the slopes of
log time against log N over the upper half of the sizes, and at each N the number of
CG iterations a direct solve costs: (direct - Nystrom set-up) / seconds per
matrix-free CG iteration, and direct / matrix-free product.

Usage::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_cg_crossover.py
        [--sizes 500 1000 2000 4000 8000 16000] [--repeats 3]
        [--out benchmarks/results/cg_crossover.json]

About 3 minutes and 4.5 GB of memory at the defaults (two 2 GB matrices at N = 16,000
in the direct and build measurements, one at a time plus the one kept for the stored
product). Run it on an otherwise idle machine: the times are the machine's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
from benchmarks._common import print_environment, save_json  # noqa: E402

import numpy as np  # noqa: E402
import scipy.linalg  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from lssvm.datasets import gaussian_classes  # noqa: E402
from lssvm.kernels import RBF  # noqa: E402
from lssvm.linalg.operators import KernelOperator, NystromPreconditioner  # noqa: E402
from lssvm.reporting.ledger import compare_times  # noqa: E402
from lssvm.linalg.solvers import AUTO_DIRECT_MAX_N, preconditioner_rank, solve_bordered_kkt  # noqa: E402

GAMMA, SIGMA2, TOL, TILE = 10.0, 1.0, 1e-10, 256
METHODS = ("direct", "dense CG", "matrix-free CG")
DEFAULT_SIZES = (500, 1000, 2000, 4000, 8000, 16000)
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "cg_crossover.json"


def solve(method, X, y, gamma=GAMMA, kernel=None):
    """One solve of the KKT system, as in the chapter's timing cell."""
    kernel = RBF(SIGMA2) if kernel is None else kernel
    n = len(y)
    if method == "direct":
        return solve_bordered_kkt(kernel.gram_lower(X), gamma, y, np.ones(n), signs=y,
                                  method="direct", overwrite=True)
    M_inv = NystromPreconditioner(kernel, X, shift=1 / gamma, rank=preconditioner_rank(n))
    if method == "dense CG":
        Omega_op = kernel.gram_lower(X)  # stored lower triangle
    else:
        Omega_op = KernelOperator(kernel, X, n_jobs=1)  # recomputed in tiles
    return solve_bordered_kkt(Omega_op, gamma, y, np.ones(n), signs=y, method="cg",
                              tol=TOL, preconditioner=M_inv)


def seconds(fn, repeats):
    """Wall seconds of ``repeats`` calls of ``fn`` (a list); the last result."""
    runs, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        runs.append(time.perf_counter() - start)
    return runs, out


def exp_floor_runs(X, n, repeats, sigma2=SIGMA2):
    """Seconds of np.exp over n^2 / 2 values, on TILE x TILE tiles of the data's exponents.

    The tile holds -||x - z||^2 / sigma2 for two blocks of points of X (the values a
    matrix-free product exponentiates); it is exponentiated in place of the output
    as many times as n^2 / 2 values need (the last call on part of a tile).
    """
    a, b = X[:TILE], X[TILE:2 * TILE] if len(X) >= 2 * TILE else X[:TILE]
    D = -((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2) / sigma2
    out = np.empty_like(D)
    flat_D, flat_out = D.ravel(), out.ravel()
    total = n * n // 2
    full, rest = divmod(total, D.size)

    def run():
        for _ in range(full):
            np.exp(D, out=out)
        if rest:
            np.exp(flat_D[:rest], out=flat_out[:rest])

    return seconds(run, repeats)[0]


def crossover(sizes, t_direct, t_free):
    """N where median(matrix-free CG) / median(direct) crosses 1; None if it never does.

    The first size from which matrix-free CG is faster at every larger size, and the
    size before it; the crossing is interpolated linearly in log N on the log ratio.
    """
    log_ratio = np.log(np.asarray(t_direct) / np.asarray(t_free))
    faster = log_ratio > 0
    from_k = next((k for k in range(len(sizes)) if faster[k:].all()), None)
    if from_k is None or from_k == 0:
        return None, from_k
    lo, hi = np.log(sizes[from_k - 1]), np.log(sizes[from_k])
    frac = -log_ratio[from_k - 1] / (log_ratio[from_k] - log_ratio[from_k - 1])
    return float(np.exp(lo + frac * (hi - lo))), from_k


def slope(sizes, values):
    """Least-squares slope of log(values) against log(sizes)."""
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args(argv)
    print_environment()

    rows = []
    with threadpool_limits(limits=1):
        solve("matrix-free CG", *_data(500))  # warm-up: imports, first allocations
        for n in args.sizes:
            X, y = _data(n)
            runs = {m: [] for m in METHODS}
            solutions = {}
            for _ in range(args.repeats):  # interleaved rounds
                for m in METHODS:
                    t, solutions[m] = seconds(lambda: solve(m, X, y), 1)
                    runs[m] += t
            ref = solutions["direct"].alpha
            gaps = {m: float(np.max(np.abs(solutions[m].alpha - ref)) / np.max(np.abs(ref)))
                    for m in METHODS[1:]}
            V = np.ones((n, 2))  # one product with two columns, as in step (1)
            build, K = seconds(lambda: RBF(SIGMA2).gram_lower(X), args.repeats)
            stored, _ = seconds(lambda: scipy.linalg.blas.dsymm(
                1.0, K.T, V, side=0, lower=0), args.repeats)
            del K
            operator = KernelOperator(RBF(SIGMA2), X, n_jobs=1)
            free, _ = seconds(lambda: operator(V), args.repeats)
            exp_runs = exp_floor_runs(X, n, args.repeats)
            nystrom, _ = seconds(lambda: NystromPreconditioner(
                RBF(SIGMA2), X, shift=1 / GAMMA, rank=preconditioner_rank(n)), args.repeats)
            med = {m: float(np.median(r)) for m, r in runs.items()}
            n_iter = int(solutions["matrix-free CG"].n_iter)
            per_iteration = (med["matrix-free CG"] - float(np.median(nystrom))) / n_iter
            row = dict(
                n_samples=n,
                seconds={m: [float(t) for t in r] for m, r in runs.items()},
                median_seconds=med,
                n_iter={"dense CG": int(solutions["dense CG"].n_iter),
                        "matrix-free CG": n_iter},
                alpha_gap=gaps,
                build_seconds=build,
                stored_product_seconds=stored,
                free_product_seconds=free,
                exp_seconds=exp_runs,
                nystrom_seconds=nystrom,
                seconds_per_cg_iteration=per_iteration,
                direct_in_cg_iterations=(med["direct"] - float(np.median(nystrom)))
                / per_iteration,
                direct_in_free_products=med["direct"] / float(np.median(free)),
                verdict=compare_times(runs["matrix-free CG"], runs["direct"],
                                      "matrix-free CG", "direct").verdict,
            )
            rows.append(row)
            print(f"N={n:>6}: " + ", ".join(f"{m} {med[m]:.3f} s" for m in METHODS)
                  + f"; {n_iter} iterations; products: stored "
                  f"{np.median(stored):.4f} s, matrix-free {np.median(free):.4f} s, "
                  f"exp floor {np.median(exp_runs):.4f} s; direct = "
                  f"{row['direct_in_cg_iterations']:.0f} CG iterations", flush=True)

    sizes = [r["n_samples"] for r in rows]
    med = {m: [r["median_seconds"][m] for r in rows] for m in METHODS}
    cross, from_k = crossover(sizes, med["direct"], med["matrix-free CG"])
    half = len(sizes) // 2
    upper = sizes[half:]
    summary = dict(
        crossover_n=cross,
        free_faster_from=None if from_k is None else sizes[from_k],
        verdicts={str(r["n_samples"]): r["verdict"] for r in rows},
        slopes_upper_half={
            **{m: slope(upper, med[m][half:]) for m in METHODS},
            "stored product": slope(upper, [np.median(r["stored_product_seconds"])
                                            for r in rows[half:]]),
            "matrix-free product": slope(upper, [np.median(r["free_product_seconds"])
                                                 for r in rows[half:]]),
        },
        slope_sizes=upper,
        speedup_largest=med["direct"][-1] / med["matrix-free CG"][-1],
        auto_direct_max_n=AUTO_DIRECT_MAX_N,
    )
    result = dict(
        benchmark="direct solver, dense CG and matrix-free CG against N "
        "(book/conjugate_gradient.md)",
        data="lssvm.datasets.gaussian_classes(N // 2, random_state=0): two Gaussian "
        "classes in 2-D",
        settings=dict(gamma=GAMMA, sigma2=SIGMA2, tol=TOL,
                      preconditioner="Nystrom, rank min(500, N // 2)", threads=1,
                      tile=TILE, repeats=args.repeats, order="interleaved rounds"),
        sizes=sizes, cases=rows, summary=summary,
    )
    print(f"crossover N = {cross if cross is None else round(cross)}; slopes (upper "
          f"half {upper}): " + ", ".join(
              f"{k} {v:.2f}" for k, v in summary["slopes_upper_half"].items()))
    out = Path(args.out)
    save_json(out, result, [sys.argv[0], *argv])
    print(f"-> {out}")


def _data(n):
    X, label = gaussian_classes(n // 2, random_state=0)
    return X, label.astype(float)


if __name__ == "__main__":
    main()
