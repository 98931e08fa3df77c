"""Fixed-size LS-SVM by preconditioned CG (FALKON) against the normal equations and
the exact LS-SVM, on the chapter's data at N = 50,000.

Run from the repository root, one part at a time (each stays within a few minutes
on 2 cores)::

    python benchmarks/bench_fixed_size_pcg.py --parts exact
    python benchmarks/bench_fixed_size_pcg.py --parts m1000,m2000,select
    python benchmarks/bench_fixed_size_pcg.py --parts m4000,m4000n
    python benchmarks/bench_fixed_size_pcg.py --parts m8000 --seeds 0
    python benchmarks/bench_fixed_size_pcg.py --parts m8000 --seeds 1,2

Data and settings as ``bench_fixed_size.py`` (``lssvm.datasets.xor_sine``, 10 inputs,
RBF sigma2 = 10, gamma = 1; training seed = prototype seed s, test seed 1000 + s,
50,000 test points), seeds 0-2:

- exact: ``LSSVMClassifier(solver="cg", tol=1e-8)`` (matrix-free CG with the
  Nystrom preconditioner): test accuracy, fit seconds, iterations.
- m<M>: ``FixedSizeLSSVMClassifier(n_prototypes=M, solver="pcg", tol=1e-8,
  n_jobs=2)``: m1000 and m2000 with entropy and random prototypes, m4000 and m8000
  random only (fewer iterations, better accuracy at m = 1000 and 2000); m1000 also
  ``solver="normal"`` with both, m2000 normal with entropy prototypes, m4000n
  normal with random ones (the crossover of ``solver="auto"``): accuracy, fit
  seconds, CG iterations and the iterations at which the relative residual first
  fell below 1e-4 and 1e-6 (from the residual history). ``--seeds 0,1`` runs some
  seeds of a part (their rows replace the stored ones), to keep each run short.
- select: seconds of the prototype choice alone (entropy swaps against a uniform
  draw) at m = 1000 and 5000 (m = 20,000 is left out: its entropy search proposes
  200,000 swaps, O(m d) each).

Results: ``benchmarks/results/fixed_size_pcg.json`` (parts merged; every pass
stamped with its machine by ``_common.stamp``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import stamp  # noqa: E402

SIGMA2, GAMMA, N_FEATURES, N, N_TEST, TOL = 10.0, 1.0, 10, 50_000, 50_000, 1e-8
SEEDS = [0, 1, 2]


def data(n, seed):
    from lssvm.datasets import xor_sine

    return xor_sine(n, n_features=N_FEATURES, random_state=seed)


def part_exact(seeds=SEEDS):
    from lssvm import LSSVMClassifier

    rows = []
    for seed in seeds:
        X, y = data(N, seed)
        X_test, y_test = data(N_TEST, 1000 + seed)
        time.sleep(0.2)
        t0 = time.perf_counter()
        clf = LSSVMClassifier(gamma=GAMMA, sigma2=SIGMA2, solver="cg", tol=TOL)
        clf.fit(X, y)
        sec = time.perf_counter() - t0
        rows.append(dict(seed=seed, method="exact", solver="cg", m=N,
                         accuracy=float(clf.score(X_test, y_test)), seconds=sec,
                         n_iter=int(clf.n_iter_)))
        print(rows[-1], flush=True)
    return rows


def fixed_size_rows(m, cases, seeds=SEEDS):
    from lssvm import FixedSizeLSSVMClassifier

    rows = []
    for seed in seeds:
        X, y = data(N, seed)
        X_test, y_test = data(N_TEST, 1000 + seed)
        for solver, prototypes in cases:
            est = FixedSizeLSSVMClassifier(n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2,
                                           prototypes=prototypes, random_state=seed,
                                           solver=solver, tol=TOL, n_jobs=2)
            time.sleep(0.2)
            t0 = time.perf_counter()
            est.fit(X, y)
            sec = time.perf_counter() - t0
            row = dict(seed=seed, method=prototypes, solver=solver, m=m,
                       accuracy=float(est.score(X_test, y_test)), seconds=sec,
                       n_iter=int(est.n_iter_), rank=int(est.feature_map_.n_components))
            if solver == "pcg":
                res = est.cg_residuals_.max(axis=1)
                row.update(n_iter_1e4=int(np.argmax(res <= 1e-4)),
                           n_iter_1e6=int(np.argmax(res <= 1e-6)),
                           residuals=res.tolist())
            rows.append(row)
            print({k: v for k, v in row.items() if k != "residuals"}, flush=True)
    return rows


def part_select(m_grid=(1000, 5000), seeds=SEEDS):
    from lssvm.sparse.fixed_size import _draw_prototypes

    rows = []
    for seed in seeds:
        X, _ = data(N, seed)
        for m in m_grid:
            for method in ("entropy", "random"):
                rng = np.random.default_rng(seed)
                t0 = time.perf_counter()
                _draw_prototypes(X, N, m, method, SIGMA2, rng, lambda i: X[i])
                rows.append(dict(seed=seed, m=m, method=method,
                                 seconds=time.perf_counter() - t0))
                print(rows[-1], flush=True)
    return rows


PARTS = {
    "exact": part_exact,
    "m1000": lambda s: fixed_size_rows(1000, [("normal", "entropy"),
                                              ("normal", "random"), ("pcg", "entropy"),
                                              ("pcg", "random")], s),
    "m2000": lambda s: fixed_size_rows(2000, [("normal", "entropy"), ("pcg", "entropy"),
                                              ("pcg", "random")], s),
    "m4000": lambda s: fixed_size_rows(4000, [("pcg", "random")], s),
    "m4000n": lambda s: fixed_size_rows(4000, [("normal", "random")], s),
    "m8000": lambda s: fixed_size_rows(8000, [("pcg", "random")], s),
    "select": part_select,
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="m1000,m2000,select")
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)),
                        help="seeds to run; their rows replace those of the part")
    parser.add_argument("--out",
                        default=str(ROOT / "benchmarks/results/fixed_size_pcg.json"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    results = json.loads(out.read_text()) if out.exists() else {}
    results["settings"] = dict(sigma2=SIGMA2, gamma=GAMMA, n_features=N_FEATURES,
                               n_samples=N, n_test=N_TEST, tol=TOL, seeds=SEEDS,
                               data="lssvm.datasets.xor_sine (Bayes accuracy 0.90)")
    for part in args.parts.split(","):
        seeds = [int(v) for v in args.seeds.split(",")]
        kept = [r for r in results.get(part, []) if r["seed"] not in seeds]
        results[part] = sorted(kept + PARTS[part](seeds), key=lambda r: r["seed"])
        stamp(results, [sys.argv[0], *argv])
        results["provenance"][-1]["parts"] = args.parts
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
