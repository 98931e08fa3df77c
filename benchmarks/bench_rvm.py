"""Benchmark and comparison for the relevance vector machine [C8 §8.7].

Two parts, both written to ``--out`` (default ``benchmarks/results/rvm.json``) with
provenance, read by the chapter ``book/relatives_bayes.md``:

1. ``solvers``: the fast sequential algorithm of Tipping and Faul (2003) [C8 §8.7.3]
   against Tipping's (2001) re-estimation alpha_i = gamma_i / mu_i^2 ("em") on noisy
   sinc regression (``lssvm.datasets.sinc``, noise 0.1, RBF width sigma2 = 4, bias
   column) at N in ``--sizes`` (default 1000 and 5000). Both optimise the same
   evidence on the same design matrix (built once, outside the timings); each run
   records its evidence after every iteration with the time since its start. The
   target is the lower of the two solvers' best evidence minus ``--gap`` (0.1 nat:
   the two may stop at different local maxima); we report the
   iterations and seconds each solver takes to reach it (None if never), its final
   evidence, its relevance vectors and its total time. Medians over ``--repeats``
   runs; "em" has a time cap (``--em-cap`` s) and at N = 5000 runs once: its first
   iterations cost O(N^3) (a Cholesky factorisation of the N x N matrix
   A + beta Phi^T Phi, after the O(N^3) product Phi^T Phi).
2. ``compare``: RVM, pruned LS-SVM (``lssvm.sparse.pruning.prune``), SVM (scikit-learn) and
   LS-SVM on sinc regression and Ripley's classification, test error and the number
   of kernel vectors kept.

   - sinc: 100 points on [-10, 10], noise 0.1, ``--n-draws`` noise seeds; RMSE
     against the noise-free sinc on 1000 points; the SVM is epsilon-SVR.
   - Ripley: (a) the original split (250 training / 1000 test points, as in
     Tipping 2001) with ``--n-draws`` seeds of the cross-validation folds;
     (b) ``--n-draws`` stratified re-splits of the pooled 1250 points into 250 / 1000
     (seed = draw). The SVM is C-SVC.

   Every method is tuned by 5-fold cross-validation on the training part only
   (``GridSearchCV``, the same folds for all): the RBF width (all methods, the same
   grid), gamma (LS-SVM) or C (SVM) on 10^{-1..3}, epsilon (SVR) on {0.01, 0.05, 0.1,
   0.2}. The RVM has no regularisation constant: only its width is tuned. The pruned
   LS-SVM starts from the tuned LS-SVM's constants, holds out a stratified 20% of the
   training part as validation set, and prunes 5% of the points per stage with
   ``stop="significance"`` (level 0.05), the pruning chapter's rule; it is then
   trained on the other 80%. The RVM at Tipping's width (r = 0.5, sigma2 = r^2 =
   0.25) is also fitted on the original Ripley split without tuning.

3. Diagnostics (also alone with ``--diagnostics-only``, which keeps parts 1-2):
   ``pruning_paths``: the whole pruning path of every comparison draw (same constants
   and split), with each stage's test error, held-out score, sign-test p-value and
   the share of its points that stage 0 misclassifies; ``tipping_subsets``: Tipping's
   Ripley protocol as we recall it (100 random points of the 250, r = 0.5 for RVM
   and SVM, the SVM's C by 5-fold CV; ``--n-subsets`` draws) and the SVM at r = 0.5
   on all 250; ``solver_stationarity``: fast against re-estimation at N = 1000 on
   three noise seeds, with the best single-action gain left at each end point.

BLAS runs on one thread. Usage::

    .venv/bin/python benchmarks/bench_rvm.py [--sizes 1000 5000] [--n-draws 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, train_test_split
from sklearn.svm import SVC, SVR
from threadpoolctl import threadpool_limits

from benchmarks._common import print_environment, save_json

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import load_ripley, sinc
from lssvm.kernels import RBF
from lssvm.sparse.pruning import prune
from lssvm.relatives import RVMClassifier, RVMRegressor
from lssvm.relatives.rvm import _em_regression, _fast_regression

ROOT = Path(__file__).resolve().parents[1]

SINC_WIDTH = 4.0
TIPPING_WIDTH = 0.25  # r = 0.5 in exp(-||x - z||^2 / r^2)
REG_GRID = [0.1, 1.0, 10.0, 100.0, 1000.0]
EPS_GRID = [0.01, 0.05, 0.1, 0.2]
WIDTHS = {"sinc": list(np.logspace(-0.5, 2.0, 6)), "ripley": list(np.logspace(-2, 1, 7))}


class _Capped(Exception):
    pass


def solver_runs(sizes, repeats, em_cap, gap):
    results = []
    for N in sizes:
        X, y = sinc(N, noise=0.1, random_state=0)
        Phi = np.column_stack([np.ones(N), RBF(SINC_WIDTH)(X)])
        runs = {"fast": [], "em": []}
        for solver in ("fast", "em"):
            reps = repeats if (solver == "fast" or N <= 2000) else 1
            for _ in range(reps):
                rec = _Recorder(em_cap if solver == "em" else None)
                out, capped = rec.run(solver, Phi, y)
                runs[solver].append(dict(
                    evidence=rec.evidence, times=rec.times, capped=capped,
                    n_iter=len(rec.evidence),
                    n_relevance=None if out is None else int(len(out[0])),
                    converged=None if out is None else bool(out[7]),
                    total_s=rec.total,
                ))  # fmt: skip
                print(f"N={N} {solver}: {len(rec.evidence)} it, L={rec.evidence[-1]:.3f},"
                      f" {rec.total:.2f} s{' (capped)' if capped else ''}", flush=True)
        # the evidence both solvers reach: the lower of their best values, less gap
        reached = {k: min(max(r["evidence"]) for r in rs) for k, rs in runs.items()}
        target = min(reached.values()) - gap
        entry = {"N": N, "target_evidence": target, "gap": gap, "em_cap_s": em_cap}
        for solver, rs in runs.items():
            reach_it, reach_s = [], []
            for r in rs:
                ev = np.asarray(r["evidence"])
                hit = np.flatnonzero(ev >= target)
                reach_it.append(int(hit[0]) + 1 if hit.size else None)
                reach_s.append(float(r["times"][hit[0]]) if hit.size else None)
            ok = [s for s in reach_s if s is not None]
            entry[solver] = {
                "repeats": len(rs),
                "iterations_to_target": reach_it[0],
                "seconds_to_target_median": float(np.median(ok)) if ok else None,
                "seconds_to_target": reach_s,
                "final_evidence": float(rs[0]["evidence"][-1]),
                "max_evidence": float(max(rs[0]["evidence"])),
                "n_iter": rs[0]["n_iter"],
                "n_relevance": rs[0]["n_relevance"],
                "converged": rs[0]["converged"],
                "capped": rs[0]["capped"],
                "total_s_median": float(np.median([r["total_s"] for r in rs])),
                # the evidence path of the first run, thinned to <= 250 points
                "path": _thin(rs[0]["times"], rs[0]["evidence"]),
            }
        results.append(entry)
    return results


def _thin(times, evidence, n=200):
    # every one of the first 50 iterations, then log-spaced: the early ones matter
    k = len(times)
    idx = np.unique(np.r_[np.arange(min(50, k)),
                          np.geomspace(1, k, min(n, k)).astype(int) - 1, k - 1])
    return {"seconds": [float(times[i]) for i in idx],
            "evidence": [float(evidence[i]) for i in idx],
            "iteration": [int(i) + 1 for i in idx]}  # fmt: skip


class _Recorder:
    """Runs a solver with a timer that records; the evidence comes from the
    solver's history, recovered even when the cap interrupts it."""

    def __init__(self, cap):
        self.cap = cap
        self.times, self.evidence, self.total = [], [], 0.0

    def run(self, solver, Phi, y):
        import lssvm.relatives.rvm as rvm

        start = time.perf_counter()
        original = rvm._regression_state
        evidence = self.evidence

        def recording_state(*args, **kwargs):  # the evidence of every iteration
            out = original(*args, **kwargs)
            evidence.append(float(out[2]))
            return out

        def timer():
            now = time.perf_counter() - start
            self.times.append(now)
            if self.cap is not None and now > self.cap:
                raise _Capped
            return now

        rvm._regression_state = recording_state
        noise0 = 0.1 * np.var(y)
        capped, out = False, None
        try:
            if solver == "fast":
                out = _fast_regression(Phi, y, noise0, True, 100000, 1e-6, timer)
            else:
                out = _em_regression(Phi, y, noise0, True, 100000, 1e-6, 1e9, timer)
        except _Capped:
            capped = True
        finally:
            rvm._regression_state = original
        self.total = time.perf_counter() - start
        n = min(len(self.times), len(self.evidence))
        self.times, self.evidence[:] = self.times[:n], self.evidence[:n]
        return out, capped


# --- the comparison -------------------------------------------------------------


def _search(est, grid, folds, scoring, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GridSearchCV(est, grid, cv=folds, scoring=scoring).fit(X, y)


def compare_one(name, Xtr, ytr, Xte, yte, fold_seed):
    classification = name == "ripley"
    widths = WIDTHS[name]
    folds = (StratifiedKFold if classification else KFold)(5, shuffle=True,
                                                           random_state=fold_seed)  # fmt: skip
    scoring = "accuracy" if classification else "neg_mean_squared_error"

    def error(model):
        pred = model.predict(Xte)
        if classification:
            return float(np.mean(pred != yte))
        return float(np.sqrt(np.mean((pred - yte) ** 2)))

    out = {}
    if classification:
        rvm = RVMClassifier()
        svm, svm_grid = SVC(kernel="rbf"), {"C": REG_GRID, "gamma": [1 / w for w in widths]}
        ls = LSSVMClassifier()
    else:
        rvm = RVMRegressor()
        svm = SVR(kernel="rbf")
        svm_grid = {"C": REG_GRID, "gamma": [1 / w for w in widths], "epsilon": EPS_GRID}
        ls = LSSVMRegressor()
    s = _search(rvm, {"sigma2": widths}, folds, scoring, Xtr, ytr)
    m = s.best_estimator_
    out["RVM"] = dict(error=error(m), n_vectors=int(m.n_relevance_),
                      params={"sigma2": float(m.sigma2)})  # fmt: skip
    s = _search(svm, svm_grid, folds, scoring, Xtr, ytr)
    m = s.best_estimator_
    out["SVM"] = dict(error=error(m), n_vectors=int(len(m.support_)),
                      params={k: float(v) for k, v in s.best_params_.items()})  # fmt: skip
    s = _search(ls, {"gamma": REG_GRID, "sigma2": widths}, folds, scoring, Xtr, ytr)
    m = s.best_estimator_
    out["LS-SVM"] = dict(error=error(m), n_vectors=int(len(ytr)),
                         params={k: float(v) for k, v in s.best_params_.items()})  # fmt: skip
    # pruned LS-SVM: the tuned constants, 80% to prune, 20% to stop by the sign test
    Xp, Xv, yp, yv = train_test_split(
        Xtr, ytr, test_size=0.2, random_state=fold_seed,
        stratify=ytr if classification else None)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = prune(clone(s.best_estimator_), Xp, yp, validation=(Xv, yv),
                     stop="significance", level=0.05)  # fmt: skip
    out["pruned LS-SVM"] = dict(error=error(path.estimator_),
                                n_vectors=int(path.n_support[path.selected]),
                                params=out["LS-SVM"]["params"])  # fmt: skip
    return out


def compare_runs(n_draws):
    rows = []
    for draw in range(n_draws):  # sinc: noise seeds
        X, y = sinc(100, noise=0.1, random_state=draw)
        Xte = np.linspace(-10, 10, 1000)[:, None]
        res = compare_one("sinc", X, y, Xte, np.sinc(Xte[:, 0] / np.pi), draw)
        rows += [dict(data="sinc", setting="noise seeds", draw=draw, method=k, **v)
                 for k, v in res.items()]  # fmt: skip
        print(f"sinc {draw}: " + ", ".join(f"{k} {v['error']:.4f}/{v['n_vectors']}"
                                            for k, v in res.items()), flush=True)
    Xa, ya = load_ripley("train")
    Xb, yb = load_ripley("test")
    for draw in range(n_draws):  # the original split, fold seeds
        res = compare_one("ripley", Xa, ya, Xb, yb, draw)
        rows += [dict(data="ripley", setting="original split", draw=draw, method=k, **v)
                 for k, v in res.items()]  # fmt: skip
        print(f"ripley orig {draw}: " + ", ".join(
            f"{k} {v['error']:.3f}/{v['n_vectors']}" for k, v in res.items()), flush=True)
    X, y = np.vstack([Xa, Xb]), np.r_[ya, yb]
    for draw in range(n_draws):  # re-splits of the pooled points
        Xtr, Xte, ytr, yte = train_test_split(X, y, train_size=250, stratify=y,
                                              random_state=draw)  # fmt: skip
        res = compare_one("ripley", Xtr, ytr, Xte, yte, draw)
        rows += [dict(data="ripley", setting="re-splits", draw=draw, method=k, **v)
                 for k, v in res.items()]  # fmt: skip
        print(f"ripley split {draw}: " + ", ".join(
            f"{k} {v['error']:.3f}/{v['n_vectors']}" for k, v in res.items()), flush=True)
    tipping = RVMClassifier(sigma2=TIPPING_WIDTH).fit(Xa, ya)
    fixed = dict(sigma2=TIPPING_WIDTH, n_vectors=int(tipping.n_relevance_),
                 error=float(np.mean(tipping.predict(Xb) != yb)),
                 log_evidence=float(tipping.log_evidence_))  # fmt: skip
    return rows, fixed


# --- diagnostics asked by the review (issue 23) ------------------------------------


def _ripley_draw(setting, draw):
    Xa, ya = load_ripley("train")
    Xb, yb = load_ripley("test")
    if setting == "original split":
        return Xa, ya, Xb, yb
    X, y = np.vstack([Xa, Xb]), np.r_[ya, yb]
    Xtr, Xte, ytr, yte = train_test_split(X, y, train_size=250, stratify=y, random_state=draw)
    return Xtr, ytr, Xte, yte


def pruning_paths(compare_rows):
    """The whole pruning path of every draw of ``compare`` (same constants, same
    200/50 split as the pruned LS-SVM there), with the test error of every stage:
    which stage the sign test picks, which stage would have been best (oracle, test
    data: a diagnostic, never a method), and the stage a zero-tolerance rule picks
    (the last before the validation score first falls below stage 0's)."""
    out = []
    for r in compare_rows:
        if r["method"] != "LS-SVM":
            continue
        classification = r["data"] == "ripley"
        if classification:
            Xtr, ytr, Xte, yte = _ripley_draw(r["setting"], r["draw"])
            est = LSSVMClassifier(**r["params"])
        else:
            Xtr, ytr = sinc(100, noise=0.1, random_state=r["draw"])
            Xte = np.linspace(-10, 10, 1000)[:, None]
            yte = np.sinc(Xte[:, 0] / np.pi)
            est = LSSVMRegressor(**r["params"])
        Xp, Xv, yp, yv = train_test_split(
            Xtr, ytr, test_size=0.2, random_state=r["draw"],
            stratify=ytr if classification else None)  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = prune(est, Xp, yp, validation=(Xv, yv))
        errs = []
        for m in path.estimators:
            pred = m.predict(Xte)
            errs.append(float(np.mean(pred != yte)) if classification
                        else float(np.sqrt(np.mean((pred - yte) ** 2))))  # fmt: skip
        # classification: the share of each stage's points that stage 0 misclassifies
        # (pruning by |alpha_k| = gamma |e_k| keeps the worst-fitted points last)
        missed = None
        if classification:
            wrong = path.estimators[0].predict(Xp) != yp
            missed = [float(np.mean(wrong[sup])) for sup in path.support]
        sig = path.last_before(0.05)
        drop = np.flatnonzero(path.scores < path.scores[0])
        zero_tol = int(drop[0]) - 1 if len(drop) else len(errs) - 1
        out.append(dict(data=r["data"], setting=r["setting"], draw=r["draw"],
                        n_support=[int(v) for v in path.n_support], test_error=errs,
                        val_score=[float(v) for v in path.scores],
                        p_values=[float(v) for v in path.p_values],
                        stage0_missed=missed, significance_stage=sig, zero_tolerance_stage=zero_tol,
                        oracle_stage=int(np.argmin(errs)), n_train=len(yp),
                        n_validation=len(yv)))  # fmt: skip
        print(f"{r['data']} {r['setting']} {r['draw']}: stage0 {errs[0]:.3f}, "
              f"sign test {errs[sig]:.3f}/{path.n_support[sig]}, zero-tol "
              f"{errs[zero_tol]:.3f}/{path.n_support[zero_tol]}, oracle "
              f"{min(errs):.3f}/{path.n_support[int(np.argmin(errs))]}", flush=True)
    return out


def _best_gain(Phi, t, idx, alpha_a, noise):
    """The largest evidence gain of one add / delete / re-estimate action
    [C8 §8.7.3] at the state (idx, alpha_a, noise), the noise held fixed."""
    beta = 1.0 / noise
    Pa = Phi[:, idx]
    Sigma = np.linalg.inv(np.diag(alpha_a) + beta * Pa.T @ Pa)  # [C8 8.7.5]
    PP = Phi.T @ Pa
    S = beta * np.einsum("ij,ij->j", Phi, Phi) - beta**2 * np.einsum(
        "ma,ab,mb->m", PP, Sigma, PP)
    Q = beta * (Phi.T @ t) - beta**2 * PP @ (Sigma @ (Pa.T @ t))
    alpha = np.full(Phi.shape[1], np.inf)
    alpha[idx] = alpha_a
    s, q = S.copy(), Q.copy()
    inn = np.isfinite(alpha)
    s[inn] = alpha[inn] * S[inn] / (alpha[inn] - S[inn])
    q[inn] = alpha[inn] * Q[inn] / (alpha[inn] - S[inn])
    theta = q**2 - s

    def ell(a):
        return 0.5 * (np.log(a) - np.log(a + s) + q**2 / (a + s))

    new = np.where(theta > 0, s**2 / np.where(theta > 0, theta, 1.0), np.inf)
    l_new = np.where(np.isfinite(new), ell(np.where(np.isfinite(new), new, 1.0)), 0.0)
    l_old = np.where(inn, ell(np.where(inn, alpha, 1.0)), 0.0)
    gain = l_new - l_old
    return float(np.max(gain)), int(np.sum((theta > 0) != inn))


def solver_stationarity(N=1000, seeds=(0, 1, 2)):
    """Fast against re-estimation on several noise seeds: evidence, noise, the
    relevance vectors each keeps, and the best single-action gain left at each end
    point (the fast solver's rule evaluated at both)."""
    rows = []
    for seed in seeds:
        X, y = sinc(N, noise=0.1, random_state=seed)
        Phi = np.column_stack([np.ones(N), RBF(SINC_WIDTH)(X)])
        noise0 = 0.1 * np.var(y)
        row = {"seed": seed}
        ends = {}
        for name in ("fast", "em"):
            if name == "fast":
                out = _fast_regression(Phi, y, noise0, True, 100000, 1e-6, lambda: 0.0)
            else:
                out = _em_regression(Phi, y, noise0, True, 100000, 1e-6, 1e9, lambda: 0.0)
            idx, alpha_a, noise = out[0], out[1], out[4]
            gain, n_wrong = _best_gain(Phi, y, idx, alpha_a, noise)
            ends[name] = set(int(i) for i in idx)
            row[name] = dict(evidence=float(out[5][-1]), noise_sd=float(np.sqrt(noise)),
                             n_relevance=int(len(idx)), converged=bool(out[7]),
                             best_single_gain=gain, n_theta_sign_mismatch=n_wrong)  # fmt: skip
        row["shared_basis"] = len(ends["fast"] & ends["em"])
        rows.append(row)
        print(f"seed {seed}: " + ", ".join(
            f"{k} L={row[k]['evidence']:.2f} sd={row[k]['noise_sd']:.4f} "
            f"m={row[k]['n_relevance']} gain={row[k]['best_single_gain']:.2e} "
            f"mismatch={row[k]['n_theta_sign_mismatch']}" for k in ("fast", "em"))
            + f", shared {row['shared_basis']}", flush=True)
    return rows


TIPPING_C = list(np.logspace(-1, 3, 9))


def tipping_subsets(n_subsets, n_train=100):
    """Tipping's (2001) Ripley protocol as we recall it (not in our seeds): 100
    points drawn at random from the 250 training points, RBF width r = 0.5 for RVM
    and SVM, the SVM's C by cross-validation; test on the 1000. Also the SVM at
    that width on all 250 points (C by 5-fold CV, seeds of the folds)."""
    Xa, ya = load_ripley("train")
    Xb, yb = load_ripley("test")
    rows = []
    for s in range(n_subsets):
        idx = np.random.default_rng(s).choice(len(ya), n_train, replace=False)
        X, y = Xa[idx], ya[idx]
        rvm = RVMClassifier(sigma2=TIPPING_WIDTH).fit(X, y)
        folds = StratifiedKFold(5, shuffle=True, random_state=s)
        g = _search(SVC(kernel="rbf", gamma=1 / TIPPING_WIDTH), {"C": TIPPING_C},
                    folds, "accuracy", X, y)  # fmt: skip
        svm = g.best_estimator_
        rows.append(dict(subset=s, n_train=n_train,
                         rvm_error=float(np.mean(rvm.predict(Xb) != yb)),
                         rvm_vectors=int(rvm.n_relevance_),
                         svm_error=float(np.mean(svm.predict(Xb) != yb)),
                         svm_vectors=int(len(svm.support_)), svm_C=float(svm.C)))  # fmt: skip
        print(f"subset {s}: RVM {rows[-1]['rvm_error']:.3f}/{rows[-1]['rvm_vectors']}, "
              f"SVM {rows[-1]['svm_error']:.3f}/{rows[-1]['svm_vectors']} "
              f"(C={svm.C:g})", flush=True)
    full = []
    for s in range(5):
        folds = StratifiedKFold(5, shuffle=True, random_state=s)
        g = _search(SVC(kernel="rbf", gamma=1 / TIPPING_WIDTH), {"C": TIPPING_C},
                    folds, "accuracy", Xa, ya)  # fmt: skip
        svm = g.best_estimator_
        full.append(dict(fold_seed=s, svm_error=float(np.mean(svm.predict(Xb) != yb)),
                         svm_vectors=int(len(svm.support_)), svm_C=float(svm.C)))  # fmt: skip
    return dict(subsets=rows, svm_full=full, c_grid=TIPPING_C)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--em-cap", type=float, default=120.0)
    p.add_argument("--gap", type=float, default=0.1)
    p.add_argument("--n-draws", type=int, default=5)
    p.add_argument("--skip-solvers", action="store_true")
    p.add_argument("--diagnostics-only", action="store_true",
                   help="keep the file's solver and comparison parts; (re)compute the "
                   "pruning paths and the 100-point Tipping subsets")
    p.add_argument("--n-subsets", type=int, default=10)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "rvm.json")
    args = p.parse_args(argv)
    print_environment()
    # a full run replaces the file; --skip-solvers keeps its solver part
    resume = args.skip_solvers and args.out.exists()
    results = json.loads(args.out.read_text()) if resume else {}
    if args.diagnostics_only:
        results = json.loads(args.out.read_text())
        with threadpool_limits(limits=1, user_api="blas"):
            results["pruning_paths"] = pruning_paths(results["compare"])
            results["tipping_subsets"] = tipping_subsets(args.n_subsets)
            results["solver_stationarity"] = solver_stationarity()
        save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
        print(f"wrote {args.out}")
        return
    with threadpool_limits(limits=1, user_api="blas"):
        if not args.skip_solvers:
            results["solvers"] = solver_runs(args.sizes, args.repeats, args.em_cap,
                                             args.gap)  # fmt: skip
            save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
        rows, fixed = compare_runs(args.n_draws)
    results["compare"] = rows
    results["ripley_tipping_width"] = fixed
    results["pruning_paths"] = pruning_paths(rows)
    results["tipping_subsets"] = tipping_subsets(args.n_subsets)
    results["solver_stationarity"] = solver_stationarity()
    results["settings"] = dict(widths=WIDTHS, reg_grid=REG_GRID, eps_grid=EPS_GRID,
                               sinc_width=SINC_WIDTH, n_draws=args.n_draws)  # fmt: skip
    save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
