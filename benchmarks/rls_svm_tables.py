"""Peng, Rafferty & Ferguson (2016), Tables 4-5 and 9-10, on the offline data.

Tables 4-5: ten random training/test splits of the paper's sizes (splice 1000 /
2175, adult 1605 / 30956; :func:`lssvm.datasets.load_splice`, :func:`load_adult`),
linear and Gaussian kernels, at the paper's tuned parameters of its Table 3
converted to our conventions (Gaussian exp(-g ||x - z||^2) -> ``sigma2 = 1 / g``;
the L2-loss C is kept for the RLS-SVM and the primal reference, and is the LS-SVM's
gamma, since both objectives are w^T w + C * (sum of squared errors)). Methods:

- ``RLS-SVM``: :class:`lssvm.RLSSVMClassifier` (the paper's algorithm);
- ``Primal (L2)``: an independent solve of the same L2-loss objective (6):
  scikit-learn's ``LinearSVC(loss="squared_hinge", C=C/2)`` with a large
  ``intercept_scaling`` for the linear kernel, and L-BFGS on the kernel expansion
  (:func:`primal_l2svm`) for the Gaussian one (the paper used Chapelle's Newton code);
- ``SVC (L1)``: scikit-learn's ``SVC`` (LIBSVM's SMO, hinge loss) at the paper's
  L1-loss parameters (the paper's LIBSVM and SVMLight rows);
- ``LS-SVM``: :class:`lssvm.LSSVMClassifier` (no pruning) at the L2-loss parameters.

Tables 9-10: fit time against C = 1e-4 ... 1e4, linear kernel, first split.

Writes ``benchmarks/results/rls_svm_tables.json``, read by the RLS-SVM chapter.
The file records the provenance of every run that wrote it (command, date, commit,
library versions, BLAS threads, wall time: ``_common.stamp``, called by
``save_json``). Regenerate (about 5 minutes on one core) with::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/rls_svm_tables.py

Options: ``--sets splice``, ``--n-rand 3``, ``--out PATH``; a subset run merges into
an existing file. Times are seconds on this machine; compare them as ratios.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import scipy
import sklearn

import numpy as np
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, LinearSVC

from lssvm import LSSVMClassifier, RLSSVMClassifier
from lssvm.datasets import load_adult, load_splice
from lssvm.kernels import make_kernel

from benchmarks._common import print_environment, save_json, progress
from benchmarks.paper import PENG_PARAMS, PENG_TABLES, PENG_TIME_VS_C

OUT = Path(__file__).parent / "results" / "rls_svm_tables.json"
LOADERS = {"splice": load_splice, "adult": load_adult}
N_TRAIN = {"splice": 1000, "adult": 1605}  # Table 2
METHODS = ("RLS-SVM", "Primal (L2)", "SVC (L1)", "LS-SVM")
C_GRID = [10.0**k for k in range(-4, 5)]

# SVC's iteration cap in the time-against-C runs (its time grows without bound in C).
SVC_MAX_ITER = 10**6


def primal_l2svm(K, y_pm, C, *, tol=1e-10, max_iter=20000):
    """Minimise (6) in the kernel expansion f = K beta + b by L-BFGS.

    J(beta, b) = beta^T K beta + C sum max(0, 1 - y_k f(x_k))^2, the L2-loss SVM
    with an unregularised bias. Returns (beta, b).
    """
    n = len(y_pm)

    def fun(z):
        beta, b = z[:n], z[n]
        Kb = K @ beta
        viol = np.maximum(0.0, 1.0 - y_pm * (Kb + b))
        value = beta @ Kb + C * viol @ viol
        g_f = -2.0 * C * viol * y_pm  # dJ/df_k
        return value, np.append(2.0 * Kb + K @ g_f, g_f.sum())

    res = minimize(
        fun, np.zeros(n + 1), jac=True, method="L-BFGS-B",
        options={"maxiter": max_iter, "ftol": tol, "gtol": tol, "maxcor": 30},
    )  # fmt: skip
    return res.x[:n], res.x[n]


def _time(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _rates(predict, X_tr, y_tr, X_te, y_te):
    return 100 * np.mean(predict(X_tr) == y_tr), 100 * np.mean(predict(X_te) == y_te)


def fit_method(method, kernel, params, X, y):
    """Fit one method; returns (seconds, predict function, number of SVs)."""
    y_pm = np.where(y == 1, 1.0, -1.0)
    l1, l2 = params["L1"][kernel], params["L2"][kernel]
    kw2 = {"sigma2": 1.0 / l2[1]} if kernel == "rbf" else {}
    if method == "RLS-SVM":
        model = RLSSVMClassifier(C=l2[0], kernel=kernel, max_iter=200, **kw2)
        seconds, _ = _time(lambda: model.fit(X, y))
        return seconds, model.predict, len(model.support_)
    if method == "LS-SVM":
        model = LSSVMClassifier(gamma=l2[0], kernel=kernel, **kw2)
        seconds, _ = _time(lambda: model.fit(X, y))
        return seconds, model.predict, len(y)
    if method == "SVC (L1)":
        kw1 = {"gamma": l1[1]} if kernel == "rbf" else {}
        model = SVC(kernel=kernel, C=l1[0], **kw1)
        seconds, _ = _time(lambda: model.fit(X, y))
        return seconds, model.predict, int(model.n_support_.sum())
    if method == "Primal (L2)" and kernel == "linear":
        model = LinearSVC(
            loss="squared_hinge", C=l2[0] / 2, intercept_scaling=1e3, tol=1e-10,
            max_iter=100000,
        )  # fmt: skip
        seconds, _ = _time(lambda: model.fit(X, y))
        n_sv = int(np.sum(1 - y_pm * model.decision_function(X) > 1e-8))
        return seconds, model.predict, n_sv
    if method == "Primal (L2)":
        kern = make_kernel("rbf", sigma2=kw2["sigma2"])

        def fit():  # the kernel matrix is part of the fit, as for the other methods
            K = kern(X, X)
            return K, primal_l2svm(K, y_pm, l2[0])

        seconds, (K, (beta, b)) = _time(fit)

        def predict(Z):
            return (kern(Z, X) @ beta + b > 0).astype(int)

        n_sv = int(np.sum(1 - y_pm * (K @ beta + b) > 1e-8))
        return seconds, predict, n_sv
    raise ValueError(method)


def split(n, n_train, seed):
    """Training and test indices of one random split (the seed is the split index)."""
    perm = np.random.default_rng(seed).permutation(n)
    return perm[:n_train], perm[n_train:]


def run_split(name, kernel, seed, X, y, methods=METHODS):
    """One row per method: #SV, seconds, training and test rates (%)."""
    tr, te = split(len(y), N_TRAIN[name], seed)
    rows = {}
    for method in methods:
        seconds, predict, n_sv = fit_method(
            method, kernel, PENG_PARAMS[name], X[tr], y[tr]
        )
        t_rate, v_rate = _rates(predict, X[tr], y[tr], X[te], y[te])
        rows[method] = {
            "n_sv": n_sv,
            "seconds": seconds,
            "train": t_rate,
            "test": v_rate,
        }
    return rows


def time_against_c(X, y, n_train):
    """Fit time of each method for C = 1e-4 ... 1e4 (linear kernel, split 0)."""
    tr, _ = split(len(y), n_train, 0)
    X, y = X[tr], y[tr]
    out = {"C": C_GRID, "seconds": {m: [] for m in METHODS}, "rls_iter": [],
           "svc_capped": []}  # fmt: skip
    for C in C_GRID:
        rls = RLSSVMClassifier(C=C, kernel="linear", max_iter=200)
        models = {
            "RLS-SVM": rls,
            "Primal (L2)": LinearSVC(loss="squared_hinge", C=C / 2,
                                     intercept_scaling=1e3, tol=1e-6, max_iter=100000),
            "SVC (L1)": SVC(kernel="linear", C=C, max_iter=SVC_MAX_ITER),
            "LS-SVM": LSSVMClassifier(gamma=C, kernel="linear"),
        }  # fmt: skip
        capped = False
        for method, model in models.items():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                seconds, _ = _time(lambda m=model: m.fit(X, y))
            if method == "SVC (L1)":
                capped = any(issubclass(w.category, ConvergenceWarning) for w in caught)
            out["seconds"][method].append(seconds)
        out["rls_iter"].append(rls.n_iter_)
        out["svc_capped"].append(capped)
        print(
            f"  C={C:g}: "
            + ", ".join(f"{m} {out['seconds'][m][-1]:.3f}s" for m in METHODS),
            flush=True,
        )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", nargs="+", default=list(LOADERS), choices=list(LOADERS)
    )
    parser.add_argument("--n-rand", type=int, default=10)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    print_environment()
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    results.update(
        paper_params=PENG_PARAMS, paper_tables=PENG_TABLES,
        paper_time_vs_c=PENG_TIME_VS_C, n_train=N_TRAIN, n_rand=args.n_rand,
        svc_max_iter=SVC_MAX_ITER,
    )  # fmt: skip
    runs = results.setdefault("runs", {})
    timing = results.setdefault("time_vs_c", {})
    for name in progress(args.sets, "data sets"):
        X, y = LOADERS[name]()
        runs[name] = {}
        for kernel in ("linear", "rbf"):
            per_split = []
            for seed in range(args.n_rand):
                t0 = time.perf_counter()
                per_split.append(run_split(name, kernel, seed, X, y))
                test = ", ".join(
                    f"{m} {r['test']:.2f}" for m, r in per_split[-1].items()
                )
                print(f"{name} {kernel} split {seed}: {test} "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)  # fmt: skip
            runs[name][kernel] = per_split
        print(f"{name}: time against C (linear kernel)", flush=True)
        timing[name] = time_against_c(X, y, N_TRAIN[name])
        save_json(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
