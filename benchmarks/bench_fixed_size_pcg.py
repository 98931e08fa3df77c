"""Fixed-size LS-SVM by preconditioned CG (FALKON) against the normal equations and
the exact LS-SVM, on the chapter's data at N = 50,000.

Run from the repository root, one part at a time (each stays within a few minutes
on 2 cores)::

    python benchmarks/bench_fixed_size_pcg.py --parts exact
    python benchmarks/bench_fixed_size_pcg.py --parts m1000,m2000,select
    python benchmarks/bench_fixed_size_pcg.py --parts m4000,m4000n
    python benchmarks/bench_fixed_size_pcg.py --parts m8000 --seeds 0
    python benchmarks/bench_fixed_size_pcg.py --parts m8000 --seeds 1,2
    python benchmarks/bench_fixed_size_pcg.py --parts prototypes

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
- prototypes: the prototype choice, ``prototypes="random"``, ``"entropy"`` and
  ``"leverage"`` (approximate ridge leverage scores, a Nystrom sketch of at most
  ``LEVERAGE_SKETCH_MAX`` pool rows), at m = 1000 and 5000, seeds 0-2; at m = 5000
  also "leverage_full" (the sketch cap lifted to s = m). Each draw is timed alone
  (the estimator's own draw for random_state = seed), then
  ``FixedSizeLSSVMClassifier(prototypes=<those rows>, solver="pcg", tol=1e-8,
  n_jobs=2)`` is fitted: test accuracy (per-point correctness kept), selection and
  fit seconds, CG iterations; ``prototypes_summary`` has per (m, method) the mean
  accuracy with its SE over seeds and the paired difference to "random" by seed.
  With seed 0 also the draw alone of each method at m = 20,000 (the pool is then
  all 50,000 rows).

- store: seconds per PCG iteration (one product H V, a pass over the rows) with
  the N x m kernel blocks stored (``store_kernel=True``: computed in the first
  pass, 8 N m = 800 MB at m = 2000) and computed again in every pass
  (``store_kernel=False``), at N = 50,000, m = 2000 random prototypes, n_jobs = 2:
  per seed, the first pass (which fills the store) and the median of
  ``--store-products`` further products; the ratio of the medians; and the whole
  ``FixedSizeLSSVMClassifier(solver="pcg", prototypes="random")`` fit both ways
  (seconds, iterations, largest difference of ``dual_coef_``).
  ``python benchmarks/bench_fixed_size_pcg.py --parts store`` writes
  ``benchmarks/results/fixed_size_pcg_store.json``.

- holdout: ``solver="pcg"`` with ``gamma=[0.1, 1, 10, 100]``, ``cv=5`` (fold 0 held
  out, then the chosen gamma solved on every row) at m = 4000 random prototypes,
  against gamma = 1 with the same prototypes, seeds 0-2: chosen gamma, held-out
  errors, test accuracy (per-point correctness kept for paired differences,
  ``_common.pack_mask``), seconds.
- sklearn: at N = 200,000 (test: 50,000 points), m = 1000 and 2000 (seeds 0-2)
  and 4000 (seed 0: scikit-learn's feature matrix is 8 N m = 6.4 GB), the same
  random prototypes for both, each fit in a fresh process (``_common.in_child``) with
  two threads: ours ``FixedSizeLSSVMClassifier(solver="pcg", n_jobs=2)`` at tol 1e-3
  and 1e-8, against ``Nystroem(n_components=m).fit(Z)`` + ``RidgeClassifier(alpha=
  1/gamma)`` on the N x m features: fit seconds, peak memory (``VmHWM``), test
  accuracy; ``sklearn_summary`` has the time ratio and the paired accuracy
  difference with its standard error per (m, seed, tol).

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
from benchmarks._common import (  # noqa: E402
    in_child, pack_mask, peak_rss_mb, save_json, stamp, timed, unpack_mask)

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
    from lssvm.sparse.prototypes import draw_prototypes

    rows = []
    for seed in seeds:
        X, _ = data(N, seed)
        for m in m_grid:
            for method in ("entropy", "random"):
                rng = np.random.default_rng(seed)
                t0 = time.perf_counter()
                draw_prototypes(X, N, m, method, SIGMA2, rng, lambda i: X[i])
                rows.append(dict(seed=seed, m=m, method=method,
                                 seconds=time.perf_counter() - t0))
                print(rows[-1], flush=True)
    return rows


PROTOTYPE_M, PROTOTYPE_METHODS, PROTOTYPE_LARGE_M = (1000, 5000), (
    "random", "entropy", "leverage"), 20_000
#: the leverage sketch also at s = m (no cap) at this m, to see what the cap costs
PROTOTYPE_FULL_SKETCH_M = 5000


def draw(X, m, method, seed, sketch_max=None):
    """(seconds, (indices, rows)) of the estimator's own draw with random_state=seed
    (the same rng, take and arguments as ``FixedSizeLSSVMClassifier``'s fit)."""
    from lssvm.kernels import RBF
    from lssvm.sparse import prototypes

    cap = prototypes.LEVERAGE_SKETCH_MAX
    if sketch_max is not None:
        prototypes.LEVERAGE_SKETCH_MAX = sketch_max
    try:
        rng = np.random.default_rng(seed)
        return timed(lambda: prototypes.draw_prototypes(
            X, len(X), m, method, SIGMA2, rng, lambda i: X[i], kernel=RBF(SIGMA2),
            gamma=np.array([GAMMA])))
    finally:
        prototypes.LEVERAGE_SKETCH_MAX = cap


def part_prototypes(seeds=SEEDS):
    """Prototype choice: for each seed, m in PROTOTYPE_M and method, the draw of
    ``prototypes=method`` timed alone, then ``FixedSizeLSSVMClassifier(
    prototypes=<those rows>, solver="pcg", tol=TOL, n_jobs=2)`` fitted (the same
    model as prototypes=method, random_state=seed, without the draw): test accuracy
    (per-point correctness kept), selection and fit seconds, CG iterations. At
    PROTOTYPE_FULL_SKETCH_M also "leverage" with the sketch cap lifted to m
    (method "leverage_full"). On seed SEEDS[0] only: the draw alone of each method
    at PROTOTYPE_LARGE_M (run with seed SEEDS[0])."""
    from lssvm import FixedSizeLSSVMClassifier
    from lssvm.sparse.prototypes import LEVERAGE_SKETCH_MAX, POOL_FACTOR

    rows = []
    for seed in seeds:
        X, y = data(N, seed)
        X_test, y_test = data(N_TEST, 1000 + seed)
        for m in PROTOTYPE_M:
            cases = [(method, None) for method in PROTOTYPE_METHODS]
            if m == PROTOTYPE_FULL_SKETCH_M:
                cases.append(("leverage_full", m))
            for method, sketch_max in cases:
                select, (idx, Z) = draw(X, m, method.split("_")[0], seed, sketch_max)
                est = FixedSizeLSSVMClassifier(n_prototypes=m, gamma=GAMMA,
                                               sigma2=SIGMA2, prototypes=Z,
                                               solver="pcg", tol=TOL, n_jobs=2)
                fit, _ = timed(lambda: est.fit(X, y))
                pred = est.predict(X_test)
                sketch = (None if method == "random" or method == "entropy" else
                          min(POOL_FACTOR * m, N, m,
                              sketch_max or LEVERAGE_SKETCH_MAX))
                rows.append(dict(seed=seed, m=m, method=method, sketch=sketch,
                                 pool=None if method == "random" else
                                 min(POOL_FACTOR * m, N),
                                 accuracy=float(np.mean(pred == y_test)),
                                 select_seconds=select, fit_seconds=fit,
                                 n_iter=int(est.n_iter_),
                                 rank=int(est.feature_map_.n_components),
                                 correct=pack_mask(pred == y_test)))
                print({k: v for k, v in rows[-1].items() if k != "correct"},
                      flush=True)
        if seed == SEEDS[0]:
            for method in PROTOTYPE_METHODS:
                select, _ = draw(X, PROTOTYPE_LARGE_M, method, seed)
                rows.append(dict(seed=seed, m=PROTOTYPE_LARGE_M, method=method,
                                 select_seconds=select, select_only=True))
                print(rows[-1], flush=True)
    return rows


def prototypes_summary(rows):
    """Per (m, method): accuracy mean and standard error over the seeds; the paired
    difference method - random by seed (points) with its standard error over seeds;
    mean selection and fit seconds and CG iterations; the draw-only rows as they are."""
    fits = [r for r in rows if not r.get("select_only")]
    acc = {(r["m"], r["method"], r["seed"]): r["accuracy"] for r in fits}
    out = []
    for m, method in sorted({(r["m"], r["method"]) for r in fits},
                            key=lambda k: (k[0], PROTOTYPE_METHODS.index(
                                k[1].split("_")[0]), k[1])):
        group = [r for r in fits if r["m"] == m and r["method"] == method]
        seeds = [r["seed"] for r in group]
        a = np.array([r["accuracy"] for r in group])
        d = 100 * np.array([acc[(m, method, s)] - acc[(m, "random", s)]
                            for s in seeds if (m, "random", s) in acc])

        def se(v):
            return float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else None

        out.append(dict(m=m, method=method, n_seeds=len(group),
                        accuracy_mean=float(a.mean()), accuracy_se=se(a),
                        diff_vs_random_points=float(d.mean()) if len(d) else None,
                        diff_vs_random_se_points=se(d),
                        select_seconds=float(np.mean([r["select_seconds"]
                                                      for r in group])),
                        fit_seconds=float(np.mean([r["fit_seconds"] for r in group])),
                        n_iter=float(np.mean([r["n_iter"] for r in group]))))
    out += [dict(m=r["m"], method=r["method"], seed=r["seed"],
                 select_seconds=r["select_seconds"])
            for r in rows if r.get("select_only")]
    return out


HOLDOUT_M, HOLDOUT_GAMMAS, HOLDOUT_CV = 4000, (0.1, 1.0, 10.0, 100.0), 5


def part_holdout(seeds=SEEDS):
    """solver="pcg" choosing gamma on a held-out fold at m = HOLDOUT_M (random
    prototypes), against gamma = 1 on the same prototypes: the chosen gamma, the
    held-out errors, test accuracy, fit seconds."""
    from lssvm import FixedSizeLSSVMClassifier

    rows = []
    for seed in seeds:
        X, y = data(N, seed)
        X_test, y_test = data(N_TEST, 1000 + seed)
        for gamma in (HOLDOUT_GAMMAS, GAMMA):
            est = FixedSizeLSSVMClassifier(n_prototypes=HOLDOUT_M, gamma=list(gamma)
                                           if isinstance(gamma, tuple) else gamma,
                                           sigma2=SIGMA2, prototypes="random",
                                           random_state=seed, solver="pcg", tol=TOL,
                                           cv=HOLDOUT_CV, n_jobs=2)
            time.sleep(0.2)
            t0 = time.perf_counter()
            est.fit(X, y)
            sec = time.perf_counter() - t0
            pred = est.predict(X_test)
            rows.append(dict(seed=seed, m=HOLDOUT_M, tuned=isinstance(gamma, tuple),
                             gamma=est.gamma_, cv_errors=None if est.cv_errors_ is None
                             else [float(e) for e in est.cv_errors_],
                             accuracy=float(np.mean(pred == y_test)), seconds=sec,
                             correct=pack_mask(pred == y_test)))
            print({k: v for k, v in rows[-1].items() if k != "correct"}, flush=True)
    return rows


SKLEARN_N, SKLEARN_TOLS = 200_000, (1e-3, 1e-8)


def sklearn_case(which, m, seed):
    """One fit at N = SKLEARN_N in this (child) process: ours by PCG at each of
    SKLEARN_TOLS, or scikit-learn's Nystroem + RidgeClassifier, on the same random
    prototypes; two threads for both. Seconds, peak memory, test predictions."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import RidgeClassifier
    from threadpoolctl import threadpool_limits

    from lssvm import FixedSizeLSSVMClassifier

    X, y = data(SKLEARN_N, seed)
    X_test, y_test = data(N_TEST, 1000 + seed)
    Z = X[np.random.default_rng(seed).choice(SKLEARN_N, m, replace=False)]
    rows = []
    for tol in SKLEARN_TOLS if which == "ours" else (None,):
        base = peak_rss_mb()
        time.sleep(0.2)
        t0 = time.perf_counter()
        if which == "ours":
            est = FixedSizeLSSVMClassifier(n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2,
                                           prototypes=Z, solver="pcg", tol=tol,
                                           n_jobs=2).fit(X, y)
            extra = dict(n_iter=int(est.n_iter_))
        else:
            with threadpool_limits(2):
                est = Nystroem(kernel="rbf", gamma=1 / SIGMA2, n_components=m,
                               random_state=seed).fit(Z)
                ridge = RidgeClassifier(alpha=1 / GAMMA).fit(est.transform(X), y)
            extra = {}
        sec = time.perf_counter() - t0
        if which == "ours":
            pred = est.predict(X_test)
        else:
            with threadpool_limits(2):
                pred = ridge.predict(est.transform(X_test))
        rows.append(dict(which=which, m=m, seed=seed, tol=tol, fit_seconds=sec,
                         peak_rss_mb=peak_rss_mb(), base_rss_mb=base,
                         accuracy=float(np.mean(pred == y_test)),
                         correct=pack_mask(pred == y_test),
                         **extra))
        print({k: v for k, v in rows[-1].items() if k != "correct"}, flush=True)
    return rows


def part_sklearn(seeds=SEEDS, m_grid=(1000, 2000, 4000)):
    """Ours (PCG) against Nystroem + RidgeClassifier at N = 200,000, each m and seed
    (m = 4000 on the first seed only: 6 GB of features for scikit-learn)."""
    rows = []
    for seed in seeds:
        for m in m_grid:
            if m == m_grid[-1] and seed != seeds[0]:
                continue
            rows += in_child(sklearn_case, "ours", m, seed)
            rows += in_child(sklearn_case, "sklearn", m, seed)
    return rows


def sklearn_summary(rows):
    """Per (m, tol): the time ratio sklearn / ours per seed, and the accuracy
    difference ours - sklearn with its paired standard error per seed (points)."""
    theirs = {(r["m"], r["seed"]): r for r in rows if r["which"] == "sklearn"}
    out = []
    for r in rows:
        if r["which"] != "ours" or (r["m"], r["seed"]) not in theirs:
            continue
        t = theirs[(r["m"], r["seed"])]
        a = unpack_mask(r["correct"], N_TEST).astype(float)
        b = unpack_mask(t["correct"], N_TEST).astype(float)
        d = a - b
        out.append(dict(m=r["m"], seed=r["seed"], tol=r["tol"], n_iter=r["n_iter"],
                        ratio=t["fit_seconds"] / r["fit_seconds"],
                        ours_seconds=r["fit_seconds"], sklearn_seconds=t["fit_seconds"],
                        ours_peak_mb=r["peak_rss_mb"], sklearn_peak_mb=t["peak_rss_mb"],
                        gap_points=100 * float(d.mean()),
                        gap_se_points=100 * float(d.std(ddof=1) / np.sqrt(len(d)))))
    return out


STORE_M = 2000


def part_store(seeds=SEEDS, products=5):
    from lssvm import FixedSizeLSSVMClassifier
    from lssvm.kernels import RBF
    from lssvm.linalg.nystrom import NystromFeatureMap
    from lssvm.sparse.nystrom_pcg import NystromRidgePCG
    from lssvm.sparse.prototypes import draw_prototypes

    rows = []
    for seed in seeds:
        fits = {}
        X, y = data(N, seed)
        rng = np.random.default_rng(seed)
        _, Z = draw_prototypes(X, N, STORE_M, "random", SIGMA2, rng, lambda i: X[i])
        fmap = NystromFeatureMap(RBF(SIGMA2), Z)
        V = np.random.default_rng(seed).standard_normal((fmap.n_components + 1, 1))
        Y = np.where(y == y.max(), 1.0, -1.0)
        for store in (False, True):
            pcg = NystromRidgePCG(X, RBF(SIGMA2), fmap, GAMMA, n_jobs=2,
                                  store_blocks=store)
            time.sleep(0.2)
            t0 = time.perf_counter()
            pcg.rhs(Y)  # the first pass: fills the store when store=True
            first = time.perf_counter() - t0
            times = []
            for _ in range(products):
                t0 = time.perf_counter()
                pcg.matvec(V)
                times.append(time.perf_counter() - t0)
            del pcg
            est = FixedSizeLSSVMClassifier(n_prototypes=STORE_M, gamma=GAMMA,
                                           sigma2=SIGMA2, prototypes="random",
                                           random_state=seed, solver="pcg", tol=TOL,
                                           n_jobs=2, store_kernel=store)
            time.sleep(0.2)
            t0 = time.perf_counter()
            est.fit(X, y)
            fit_seconds = time.perf_counter() - t0
            fits[store] = est.dual_coef_
            rows.append(dict(seed=seed, m=STORE_M, store_kernel=store,
                             first_pass_seconds=first, product_seconds=times,
                             median_product_seconds=float(np.median(times)),
                             fit_seconds=fit_seconds, n_iter=int(est.n_iter_)))
            del est
            print(rows[-1], flush=True)
        rows[-1]["max_abs_dual_coef_difference"] = float(
            np.max(np.abs(fits[True] - fits[False])))
    return rows


def store_summary(rows):
    """Per seed, recomputed / stored median seconds per product; their median."""
    by = {(r["seed"], r["store_kernel"]): r["median_product_seconds"] for r in rows}
    seeds = sorted({r["seed"] for r in rows})
    ratios = [by[(s, False)] / by[(s, True)] for s in seeds
              if (s, False) in by and (s, True) in by]
    med = {k: float(np.median([by[(s, k)] for s in seeds if (s, k) in by]))
           for k in (False, True)}
    fit = {(r["seed"], r["store_kernel"]): r.get("fit_seconds") for r in rows}
    fit_ratios = [fit[(s, False)] / fit[(s, True)] for s in seeds
                  if fit.get((s, False)) and fit.get((s, True))]
    return dict(median_seconds_recomputed=med[False], median_seconds_stored=med[True],
                ratio_per_seed=ratios, median_ratio=float(np.median(ratios)),
                ratio_spread=[float(min(ratios)), float(max(ratios))],
                fit_ratio_per_seed=fit_ratios,
                median_fit_ratio=float(np.median(fit_ratios)) if fit_ratios else None)


PARTS = {
    "exact": part_exact,
    "store": part_store,
    "m1000": lambda s: fixed_size_rows(1000, [("normal", "entropy"),
                                              ("normal", "random"), ("pcg", "entropy"),
                                              ("pcg", "random")], s),
    "m2000": lambda s: fixed_size_rows(2000, [("normal", "entropy"), ("pcg", "entropy"),
                                              ("pcg", "random")], s),
    "m4000": lambda s: fixed_size_rows(4000, [("pcg", "random")], s),
    "m4000n": lambda s: fixed_size_rows(4000, [("normal", "random")], s),
    "m8000": lambda s: fixed_size_rows(8000, [("pcg", "random")], s),
    "select": part_select,
    "sklearn": part_sklearn,
    "holdout": part_holdout,
    "prototypes": part_prototypes,
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="m1000,m2000,select")
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)),
                        help="seeds to run; their rows replace those of the part")
    parser.add_argument("--out", default=None,
                        help="default: results/fixed_size_pcg.json, or "
                        "results/fixed_size_pcg_store.json for --parts store")
    parser.add_argument("--store-products", type=int, default=5,
                        help="products timed after the first pass (part store)")
    args = parser.parse_args(argv)
    name = "fixed_size_pcg_store" if args.parts == "store" else "fixed_size_pcg"
    out = Path(args.out or ROOT / f"benchmarks/results/{name}.json")
    results = json.loads(out.read_text()) if out.exists() else {}
    results["settings"] = dict(sigma2=SIGMA2, gamma=GAMMA, n_features=N_FEATURES,
                               n_samples=N, n_test=N_TEST, tol=TOL, seeds=SEEDS,
                               data="lssvm.datasets.xor_sine (Bayes accuracy 0.90)")
    for part in args.parts.split(","):
        seeds = [int(v) for v in args.seeds.split(",")]
        kept = [r for r in results.get(part, []) if r["seed"] not in seeds]
        new = (part_store(seeds, args.store_products) if part == "store"
               else PARTS[part](seeds))
        results[part] = sorted(kept + new, key=lambda r: r["seed"])
        if part == "store":
            results["store_summary"] = store_summary(results[part])
        if part == "sklearn":
            results["sklearn_summary"] = sklearn_summary(results[part])
        if part == "prototypes":
            results["prototypes_summary"] = prototypes_summary(results[part])
        stamp(results, [sys.argv[0], *argv])
        results["provenance"][-1]["parts"] = args.parts
        save_json(out, results, stamp_pass=False)
    print(f"-> {out}")


if __name__ == "__main__":
    main()
