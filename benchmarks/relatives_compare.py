"""The LS-SVM beside its relatives on the same data and splits (Relatives chapter).

Classification (Ripley, two spirals, UCI pid and ion): LS-SVM, kernel PSVM, C-SVC and
nu-SVC, all with the RBF kernel. Regression (noisy sinc, Santa Fe laser one step
ahead): LS-SVM, epsilon-SVR, nu-SVR and kernel PLS, RBF kernel. For each data set
``--n-splits`` splits (seed 0) share every method:

- Ripley: the 250 + 1000 points pooled, stratified 250 / 1000 splits;
- spirals (97 points per arm) and the UCI sets: stratified 2/3 - 1/3 splits;
- sinc: 200 noisy points on [-10, 10] (noise 0.1, seed = split), scored against the
  noise-free function on 1000 points;
- laser: 16 lagged values predict the next one; split s trains on the pairs of
  points [1000 s, 1000 s + 500) and tests on the next 300 (one step ahead).

Inputs (and the laser's targets) are standardised with the training part's mean and
deviation. Every method is tuned by 5-fold cross-validation on the training part only
(``GridSearchCV``, the same folds for all), over the same RBF widths
sigma2 = n 10^{-3, -2.5, ..., 1} (scikit-learn's gamma = 1/sigma2) and the same grid
10^{-1, ..., 2} for the LS-SVM/PSVM gamma and the SVMs' C (C = 1000 made LIBSVM's
fits up to 100 times slower on sinc); nu in {0.2, 0.4, 0.6}, epsilon in
{0.01, 0.05, 0.2} (standardised units), KPLS components in {2, 5, 10, 20, 40}.
Grid points where LIBSVM reports an infeasible nu score NaN and are skipped. The tuned model is refitted on the training part ``--repeats``
times: the median fit time, the number of support vectors (points with a non-zero
coefficient in the kernel expansion) and the test accuracy or RMSE are stored.

BLAS runs on one thread (threadpoolctl). ``run_split`` is imported by the chapter to
rerun one split live. Usage::

    .venv/bin/python benchmarks/relatives_compare.py [--n-splits 5] [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import sklearn
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, train_test_split
from sklearn.svm import SVC, SVR, NuSVC, NuSVR
from threadpoolctl import threadpool_limits

from benchmarks._common import save_json

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import load_binary, load_ripley, load_santafe, sinc, two_spirals
from lssvm.relatives import KernelPLSRegression, PSVMClassifier
from lssvm.timeseries import lag_embed

ROOT = Path(__file__).resolve().parents[1]

CLASSIFICATION = ("ripley", "spirals", "pid", "ion")
REGRESSION = ("sinc", "laser")
CLASSIFIERS = ("LS-SVM", "PSVM", "C-SVC", "nu-SVC")
REGRESSORS = ("LS-SVM", "eps-SVR", "nu-SVR", "KPLS")
REG_GRID = [0.1, 1.0, 10.0, 100.0]
NU_GRID = [0.2, 0.4, 0.6]
EPS_GRID = [0.01, 0.05, 0.2]
COMPONENTS = [2, 5, 10, 20, 40]
LAGS, LASER_TRAIN, LASER_TEST = 16, 500, 300


def sigma2_grid(n_features):
    return [n_features * 10.0**p for p in np.arange(-3.0, 1.01, 0.5)]


def load_split(name, split):
    """(X_train, y_train, X_test, y_test) of split ``split``; classification labels
    as given, regression targets raw (the laser's in its own units)."""
    rng_seed = split
    if name == "ripley":
        Xa, ya = load_ripley("train")
        Xb, yb = load_ripley("test")
        X, y = np.vstack([Xa, Xb]), np.r_[ya, yb]
        return _stratified(X, y, train_size=250, seed=rng_seed)
    if name == "spirals":
        X, y = two_spirals()
        return _stratified(X, y, train_size=2 / 3, seed=rng_seed)
    if name in ("pid", "ion"):
        X, y = load_binary(name)
        return _stratified(X, y, train_size=2 / 3, seed=rng_seed)
    if name == "sinc":
        X, y = sinc(200, noise=0.1, random_state=split)
        X_test = np.linspace(-10, 10, 1000)[:, None]
        return X, y, X_test, np.sinc(X_test[:, 0] / np.pi)
    if name == "laser":
        series = load_santafe()
        start = 1000 * split
        part = series[start : start + LASER_TRAIN + LASER_TEST + LAGS]
        X, y = lag_embed(part, LAGS)
        return X[:LASER_TRAIN], y[:LASER_TRAIN], X[LASER_TRAIN:], y[LASER_TRAIN:]
    raise ValueError(f"unknown data set {name!r}")


def _stratified(X, y, *, train_size, seed):
    # split s draws its own permutation: seed 0 for split 0, and so on
    Xtr, Xte, ytr, yte = train_test_split(
        X, y, train_size=train_size, stratify=y, random_state=seed
    )
    return Xtr, ytr, Xte, yte


def _searches(name, method, n_features, classification):
    s2 = sigma2_grid(n_features)
    g = [1.0 / s for s in s2]
    if method == "LS-SVM":
        est = LSSVMClassifier() if classification else LSSVMRegressor()
        return est, {"gamma": REG_GRID, "sigma2": s2}
    if method == "PSVM":
        return PSVMClassifier(kernel="rbf"), {"gamma": REG_GRID, "sigma2": s2}
    if method == "C-SVC":
        return SVC(kernel="rbf"), {"C": REG_GRID, "gamma": g}
    if method == "nu-SVC":
        return NuSVC(kernel="rbf"), {"nu": NU_GRID, "gamma": g}
    if method == "eps-SVR":
        return SVR(kernel="rbf"), {"C": REG_GRID, "gamma": g, "epsilon": EPS_GRID}
    if method == "nu-SVR":
        return NuSVR(kernel="rbf"), {"C": REG_GRID, "gamma": g, "nu": NU_GRID}
    if method == "KPLS":
        return KernelPLSRegression(), {"n_components": COMPONENTS, "sigma2": s2}
    raise ValueError(f"unknown method {method!r}")


def n_support(model, n_train):
    """Training points with a non-zero coefficient in the kernel expansion."""
    if hasattr(model, "support_"):  # LIBSVM
        return int(len(model.support_))
    coef = np.asarray(model.dual_coef_).reshape(n_train, -1)
    return int(np.sum(np.any(np.abs(coef) > 0, axis=1)))


def run_split(name, method, split, *, repeats=5):
    """Tune on the training part, refit ``repeats`` times, score on the test part."""
    classification = name in CLASSIFICATION
    Xtr, ytr, Xte, yte = load_split(name, split)
    mean, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd == 0] = 1.0
    Xtr, Xte = (Xtr - mean) / sd, (Xte - mean) / sd
    y_mean, y_sd = (0.0, 1.0) if classification or name == "sinc" else (
        ytr.mean(), ytr.std())  # fmt: skip
    ytr_s = ytr if classification else (ytr - y_mean) / y_sd
    est, grid = _searches(name, method, Xtr.shape[1], classification)
    folds = (StratifiedKFold if classification else KFold)(5, shuffle=True,
                                                           random_state=0)  # fmt: skip
    scoring = "accuracy" if classification else "neg_mean_squared_error"
    with warnings.catch_warnings():  # infeasible nu (nu-SVC): NaN scores, skipped
        warnings.simplefilter("ignore")
        search = GridSearchCV(est, grid, cv=folds, scoring=scoring).fit(Xtr, ytr_s)
    times = []
    for _ in range(repeats):
        model = sklearn.clone(search.best_estimator_)
        t0 = time.perf_counter()
        model.fit(Xtr, ytr_s)
        times.append(time.perf_counter() - t0)
    pred = model.predict(Xte)
    if classification:
        score = float(np.mean(pred == yte))
    else:
        score = float(np.sqrt(np.mean((y_mean + y_sd * pred - yte) ** 2)))
    params = {k: float(v) for k, v in search.best_params_.items()}
    return {
        "data": name, "method": method, "split": split, "n_train": len(ytr),
        "n_test": len(yte), "score": score,
        "n_sv": n_support(model, len(ytr)), "fit_s": float(np.median(times)),
        "params": params,
    }  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-splits", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--data", nargs="+", default=list(CLASSIFICATION + REGRESSION))
    parser.add_argument("--out", type=Path,
                        default=ROOT / "benchmarks" / "results" / "relatives.json")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = []
    with threadpool_limits(limits=1):
        for name in args.data:
            methods = CLASSIFIERS if name in CLASSIFICATION else REGRESSORS
            for split in range(args.n_splits):
                for method in methods:
                    row = run_split(name, method, split, repeats=args.repeats)
                    rows.append(row)
                    print(f"{name:8s} {method:8s} split {split}: score "
                          f"{row['score']:.4f}, {row['n_sv']} SV, "
                          f"fit {1e3 * row['fit_s']:.1f} ms {row['params']}",
                          flush=True)  # fmt: skip
    results = {
        "benchmark": "relatives_compare.py",  # command, date, commit, versions: stamp()
        "threads": 1,
        "n_splits": args.n_splits, "repeats": args.repeats,
        "rows": rows,
        "wall_s": time.perf_counter() - start,
    }  # fmt: skip
    save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"wrote {args.out} ({results['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
