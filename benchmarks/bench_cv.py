"""Benchmark: closed-form cross-validation (lssvm.model_selection.closed_form.ClosedFormCV) against refits.

Data: N points in 2-D from ``np.random.default_rng(0)``, x ~ N(0, I), labels
sign(x1 x2 + 0.3 noise) coded +-1.

1. 10-fold CV over the book's full initial grid, 11 gammas (``lssvm.model_selection.search.GAMMA_0``)
   x 9 sigma2 (``lssvm.model_selection.search.initial_sigma2_grid(2)``), on one fixed split
   (``StratifiedKFold(10)``, no shuffling) shared by all methods, for each ``--sizes``:

   (a) naive: for every (gamma, sigma2) and every fold, ``LSSVMClassifier.fit`` on the
       training part, ``decision_function`` on the held-out part, accuracy (990 fits);
   (b) ``lssvm.model_selection.search.grid_search(X, y, folds, ..., strategy=S)`` for S in "auto",
       "eigen", "cholesky" (one kernel matrix per sigma2; "auto" takes "eigen" for
       11 gammas).

   Checks: max |difference| of the 990 per-fold accuracies and of the 99 mean CV
   errors between (a) and each (b) (must be <= 1e-8: the closed form is exact); max
   |difference| of the held-out latent outputs between ``ClosedFormCV.latent`` and the
   refits of (a), for all 11 gammas at the first, middle and last sigma2 of the grid.
   Target (from the issue): "auto" >= 6x faster than (a) at N = 1000; PASS/MISS is
   printed, the exit status is 0 either way.

2. Leave-one-out at ``--loo-size`` (default 2000) for one sigma2 and ``--loo-gammas``:
   ``ClosedFormCV`` with ``make_folds("loo", ...)`` (kernel build included), each
   strategy, against refitting estimated from ``--loo-sample`` (default 100) random
   held-out points per gamma, extrapolated by N / sample. The sampled held-out outputs
   must agree to 1e-8.

3. Strategy crossover: at one sigma2, for n_gammas in 1, 2, 3, 4, 6, 11 (spread over
   GAMMA_0), ``ClosedFormCV(..., strategy=S)`` plus ``latent`` for each gamma (10-fold;
   eigendecomposition or factorisations included, kernel matrix built beforehand),
   S = "eigen" and "cholesky"; prints which is faster, the crossover from a fit
   t_eigen = a + b n, t_chol = c n, and whether "auto" (which switches to "eigen" at
   ``lssvm.model_selection.closed_form.EIGEN_MIN_GAMMAS`` gammas) picks the faster one at every n_gammas.

Each closed-form time is the minimum over ``--repeats`` interleaved rounds (each timed
call after a 0.2 s idle gap). The naive timings are long (about 12 s at N = 1000 and
65 s at N = 2000 on one core) and are taken in the first ``--naive-repeats`` rounds
only (default 1). BLAS threads are pinned with threadpoolctl (``--threads``,
default 1). With ``--out FILE`` the sections run are also written to FILE (merged into
it when it exists: section 1 by N), every single timed run kept, with the pass's
provenance and machine (``_common.stamp``; each record's ``pass`` is the index of its
entry in the file's ``provenance`` list); ``make reproduce`` writes
``benchmarks/results/bench_cv.json`` so (section 1 at N = 1000, three rounds of each
method). Usage::

    .venv/bin/python benchmarks/bench_cv.py [--sizes 1000 2000] [--repeats 2]
        [--naive-repeats 1] [--threads 1] [--loo-size 2000] [--loo-sample 100]
        [--loo-gammas 0.1 10 1000] [--sections cv loo crossover] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from benchmarks._common import print_environment, save_json, stamp, timed
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from lssvm import LSSVMClassifier
from lssvm.kernels import RBF
from lssvm.model_selection.search import GAMMA_0, grid_search, initial_sigma2_grid
from lssvm.model_selection.closed_form import EIGEN_MIN_GAMMAS, ClosedFormCV, make_folds

N_FOLDS = 10
STRATEGIES = ("auto", "eigen", "cholesky")
TARGET = 6.0  # naive / closed form ("auto"), at N = TARGET_N
TARGET_N = 1000
TOL = 1e-8
CHECK_SIGMA2_INDEX = (0, 4, 8)  # sigma2s whose held-out latent outputs are compared
LOO_SIGMA2 = 0.5
CROSS_SIGMA2 = 0.5
CROSS_N_GAMMAS = (1, 2, 3, 4, 6, 11)


def make_data(n: int):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def make_split(X, y):
    """Held-out index sets of StratifiedKFold(10) (no shuffling), sorted."""
    return [np.sort(test) for _, test in StratifiedKFold(N_FOLDS).split(X, y)]


def spread(values, k):
    """k values of ``values`` spread from its first to its last."""
    return [values[i] for i in np.linspace(0, len(values) - 1, k).round().astype(int)]


# -- 1. 10-fold CV over the grid ------------------------------------------------------
def naive_cv(X, y, folds, gammas, sigma2s):
    """Refit every fold: accuracies (n_gammas, n_sigma2s, n_folds) and the held-out
    latent outputs (n_gammas, n_sigma2s, n), each point from the model without it."""
    n = len(y)
    acc = np.empty((len(gammas), len(sigma2s), len(folds)))
    latent = np.empty((len(gammas), len(sigma2s), n))
    train = [np.setdiff1d(np.arange(n), V) for V in folds]
    for i, gamma in enumerate(gammas):
        for j, sigma2 in enumerate(sigma2s):
            for f, (T, V) in enumerate(zip(train, folds)):
                clf = LSSVMClassifier(gamma=gamma, sigma2=sigma2).fit(X[T], y[T])
                out = clf.decision_function(X[V])
                latent[i, j, V] = out
                acc[i, j, f] = np.mean(np.where(out > 0, 1, -1) == y[V])
    return acc, latent


def closed_cv(X, y, folds, gammas, sigma2s, strategy):
    """grid_search's per-fold accuracies as (n_gammas, n_sigma2s, n_folds)."""
    result = grid_search(X, y.astype(np.float64), folds, gammas=gammas,
                         sigma2s=sigma2s, strategy=strategy)
    # records are in ParameterGrid order: gamma outer, sigma2 inner
    return np.array([r[3] for r in result.records]).reshape(
        len(gammas), len(sigma2s), len(folds))


def latent_check(X, y, folds, gammas, sigma2s, naive_latent, strategy):
    """max |closed form - refit| of the held-out latent outputs at the check points."""
    worst, where = 0.0, None
    for j in CHECK_SIGMA2_INDEX:
        cv = ClosedFormCV(RBF(sigma2s[j])(X), y.astype(np.float64), folds,
                          strategy=strategy, n_gammas=len(gammas))
        for i, gamma in enumerate(gammas):
            for V, f in zip(folds, cv.latent(gamma)):
                d = float(np.max(np.abs(f - naive_latent[i, j, V])))
                if d > worst:
                    worst, where = d, (gamma, sigma2s[j])
    return worst, where


def bench_cv(n, repeats, naive_repeats):
    X, y = make_data(n)
    folds = make_split(X, y)
    gammas, sigma2s = list(GAMMA_0), list(initial_sigma2_grid(2))
    times = {name: [] for name in ("naive",) + STRATEGIES}
    scores = {}
    for r in range(max(repeats, naive_repeats)):
        if r < naive_repeats:
            t, (acc, lat) = timed(lambda: naive_cv(X, y, folds, gammas, sigma2s))
            times["naive"].append(t)
            scores["naive"], naive_latent = acc, lat
        if r < repeats:
            for s in STRATEGIES:
                t, scores[s] = timed(
                    lambda s=s: closed_cv(X, y, folds, gammas, sigma2s, s))
                times[s].append(t)
    t_naive = min(times["naive"])
    print(f"\n[1] 10-fold CV, N={n}: {len(gammas)} gammas x {len(sigma2s)} sigma2 = "
          f"{len(gammas) * len(sigma2s)} points, {len(gammas) * len(sigma2s) * N_FOLDS}"
          f" naive fits; best mean accuracy "
          f"{scores['naive'].mean(axis=2).max():.3f}")
    header = (f"{'method':>9} {'time s':>8} {'naive/this':>11} "
              f"{'max|d fold acc|':>16} {'max|d CV err|':>14}  target")
    print(header)
    print("-" * len(header))
    print(f"{'naive':>9} {t_naive:>8.2f} {1.0:>11.2f}")
    ok = True
    for s in STRATEGIES:
        t = min(times[s])
        d_fold = float(np.max(np.abs(scores[s] - scores["naive"])))
        d_mean = float(np.max(np.abs(scores[s].mean(axis=2)
                                     - scores["naive"].mean(axis=2))))
        ok &= d_fold <= TOL and d_mean <= TOL
        verdict = ""
        if s == "auto" and n == TARGET_N:
            verdict = ("PASS" if t_naive / t >= TARGET else "MISS") + f" (>= {TARGET}x)"
        print(f"{s:>9} {t:>8.2f} {t_naive / t:>11.2f} {d_fold:>16.1e} {d_mean:>14.1e}"
              f"  {verdict}", flush=True)
    checked = [sigma2s[j] for j in CHECK_SIGMA2_INDEX]
    for s in ("eigen", "cholesky"):
        worst, (g, s2) = latent_check(X, y, folds, gammas, sigma2s, naive_latent, s)
        print(f"held-out latent outputs, {s} vs refit, 11 gammas x sigma2 in "
              f"{[f'{v:g}' for v in checked]}: max|d| = {worst:.1e} "
              f"(at gamma={g:g}, sigma2={s2:g})", flush=True)
    print(f"accuracies identical (<= {TOL:g}): {'yes' if ok else 'NO'}")
    return {
        "n_samples": n, "n_gammas": len(gammas), "n_sigma2s": len(sigma2s),
        "n_folds": N_FOLDS, "seconds": times,  # every timed run, per method
        "best_mean_accuracy": float(scores["naive"].mean(axis=2).max()),
        "accuracies_identical": bool(ok),
    }  # fmt: skip


# -- 2. leave-one-out -----------------------------------------------------------------
def bench_loo(n, gammas, sample, repeats, naive_repeats):
    X, y = make_data(n)
    yf = y.astype(np.float64)
    folds = make_folds("loo", X, y, classifier=True)
    picked = np.sort(np.random.default_rng(1).choice(n, size=sample, replace=False))

    def closed(strategy):
        cv = ClosedFormCV(RBF(LOO_SIGMA2)(X), yf, folds, strategy=strategy,
                          n_gammas=len(gammas))
        return [np.concatenate(cv.latent(g)) for g in gammas]

    def naive():
        out = np.empty((len(gammas), sample))
        for i, g in enumerate(gammas):
            for m, k in enumerate(picked):
                T = np.delete(np.arange(n), k)
                clf = LSSVMClassifier(gamma=g, sigma2=LOO_SIGMA2).fit(X[T], y[T])
                out[i, m] = clf.decision_function(X[k : k + 1])[0]
        return out

    times = {name: [] for name in ("naive",) + STRATEGIES}
    outs = {}
    for r in range(max(repeats, naive_repeats)):
        if r < naive_repeats:
            t, outs["naive"] = timed(naive)
            times["naive"].append(t)
        if r < repeats:
            for s in STRATEGIES:
                t, outs[s] = timed(lambda s=s: closed(s))
                times[s].append(t)
    t_naive = min(times["naive"]) * n / sample  # extrapolated to all n folds
    print(f"\n[2] leave-one-out, N={n}, sigma2={LOO_SIGMA2:g}, gammas "
          f"{[float(g) for g in gammas]}: naive = {sample} sampled refits per gamma "
          f"x {n / sample:g}")
    header = (f"{'method':>9} {'time s':>9} {'naive/this':>11} "
              f"{'max|d latent| (sampled)':>24}")
    print(header)
    print("-" * len(header))
    print(f"{'naive':>9} {t_naive:>9.1f} {1.0:>11.1f}   (estimated: "
          f"{min(times['naive']):.2f} s for {sample * len(gammas)} refits)")
    ok = True
    for s in STRATEGIES:
        t = min(times[s])
        d = float(np.max(np.abs(np.array(outs[s])[:, picked] - outs["naive"])))
        ok &= d <= TOL
        print(f"{s:>9} {t:>9.2f} {t_naive / t:>11.1f} {d:>24.1e}", flush=True)
    print(f"sampled held-out outputs agree (<= {TOL:g}): {'yes' if ok else 'NO'}")
    return {
        "n_samples": n, "sigma2": LOO_SIGMA2, "gammas": [float(g) for g in gammas],
        "naive_sampled_refits_per_gamma": sample, "seconds": times,
        "naive_seconds_estimated": t_naive, "outputs_agree": bool(ok),
    }  # fmt: skip


# -- 3. eigen / cholesky crossover ----------------------------------------------------
def bench_crossover(sizes, repeats):
    print(f"\n[3] strategy crossover, 10-fold, sigma2={CROSS_SIGMA2:g}, kernel matrix "
          f"built beforehand; lssvm.model_selection.closed_form.EIGEN_MIN_GAMMAS = {EIGEN_MIN_GAMMAS}")
    header = (f"{'N':>6} {'n_gammas':>9} {'eigen s':>8} {'cholesky s':>11} "
              f"{'chol/eigen':>11} {'faster':>9} {'auto':>9}")
    record = {}
    for n in sizes:
        X, y = make_data(n)
        yf = y.astype(np.float64)
        folds = make_split(X, y)
        K = RBF(CROSS_SIGMA2)(X)

        def run(strategy, gammas):
            cv = ClosedFormCV(K, yf, folds, strategy=strategy, n_gammas=len(gammas))
            for g in gammas:
                cv.latent(g)

        times = np.full((len(CROSS_N_GAMMAS), 2), np.inf)
        for _ in range(repeats):
            for a, k in enumerate(CROSS_N_GAMMAS):
                gammas = spread(GAMMA_0, k)
                for b, s in enumerate(("eigen", "cholesky")):
                    times[a, b] = min(times[a, b], timed(lambda: run(s, gammas))[0])
        print(header)
        print("-" * len(header))
        for (t_e, t_c), k in zip(times, CROSS_N_GAMMAS):
            auto = "eigen" if k >= EIGEN_MIN_GAMMAS else "cholesky"
            faster = "eigen" if t_e < t_c else "cholesky"
            print(f"{n:>6} {k:>9} {t_e:>8.3f} {t_c:>11.3f} {t_c / t_e:>11.2f} "
                  f"{faster:>9} {auto:>9}")
        ks = np.array(CROSS_N_GAMMAS, dtype=float)
        b, a = np.polyfit(ks, times[:, 0], 1)  # t_eigen = a + b n
        c = float(ks @ times[:, 1] / (ks @ ks))  # t_chol = c n
        n_star = a / (c - b) if c > b else np.inf
        wrong = [k for k, (t_e, t_c) in zip(CROSS_N_GAMMAS, times)
                 if (t_e < t_c) != (k >= EIGEN_MIN_GAMMAS)]
        print(f"N={n}: fit t_eigen = {a:.3f} + {b:.4f} n, t_cholesky = {c:.4f} n "
              f"-> eigen faster for n > {n_star:.2f} gammas; auto (eigen from "
              f"{EIGEN_MIN_GAMMAS} on) picks the faster strategy "
              + ("at every n_gammas measured" if not wrong else
                 f"except at n_gammas {wrong}"), flush=True)
        record[str(n)] = {"n_gammas": list(CROSS_N_GAMMAS),
                          "eigen_seconds": times[:, 0].tolist(),
                          "cholesky_seconds": times[:, 1].tolist()}
    return record


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000],
                        help="numbers of samples N for sections 1 and 3")
    parser.add_argument("--repeats", type=int, default=2,
                        help="rounds of the closed-form timings; the minimum is "
                             "reported")
    parser.add_argument("--naive-repeats", type=int, default=1,
                        help="rounds (the first ones) that also time the naive refits")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS threads (numpy's and scipy's OpenBLAS)")
    parser.add_argument("--loo-size", type=int, default=2000, help="N of section 2")
    parser.add_argument("--loo-sample", type=int, default=100,
                        help="refits per gamma timed for the naive leave-one-out")
    parser.add_argument("--loo-gammas", type=float, nargs="+",
                        default=[0.1, 10.0, 1000.0], help="gammas of section 2")
    parser.add_argument("--sections", nargs="+", default=["cv", "loo", "crossover"],
                        choices=["cv", "loo", "crossover"])
    parser.add_argument("--out", type=Path, default=None,
                        help="also write the results (merged into FILE if it exists)")
    args = parser.parse_args(argv)
    results = (json.loads(args.out.read_text())
               if args.out is not None and args.out.exists() else {})

    with threadpool_limits(limits=args.threads, user_api="blas"):
        print_environment()
        print(f"repeats={args.repeats} (minimum time), naive-repeats="
              f"{args.naive_repeats}")
        written = []  # this pass's records
        if "cv" in args.sections:
            for n in args.sizes:
                written.append(bench_cv(n, args.repeats, args.naive_repeats))
                results.setdefault("cv", {})[str(n)] = written[-1]
        if "loo" in args.sections:
            written.append(bench_loo(args.loo_size, args.loo_gammas, args.loo_sample,
                                     args.repeats, args.naive_repeats))
            results["loo"] = written[-1]
        if "crossover" in args.sections:
            written.append(bench_crossover(args.sizes, args.repeats))
            results["crossover"] = written[-1]
    if args.out is not None:
        results["settings"] = {
            "data": "x ~ N(0, I) in 2-D, labels sign(x1 x2 + 0.3 noise), rng seed 0",
            "split": "StratifiedKFold(10), no shuffling", "threads": args.threads,
            "timing": "each run after a 0.2 s idle gap; rounds interleaved",
        }  # fmt: skip
        stamp(results, argv=None if argv is None else ["benchmarks/bench_cv.py", *argv])
        for record in written:  # the provenance entry (and machine) of each record
            record["pass"] = len(results["provenance"]) - 1
        save_json(args.out, results, stamp_pass=False)  # stamped above, with its records
        print(f"-> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
