"""Benchmark: class probabilities, log loss and reliability, against scikit-learn.

Data sets (binary):

- ``ripley``: Ripley's synth.tr (250) for training, synth.te (1000) for testing;
- ``pid``, ``acr``: UCI Pima diabetes (768 x 8) and Statlog Australian credit
  (690 x 14) from ``lssvm.datasets.load_binary``, one stratified split of 2/3 for
  training and 1/3 for testing (``random_state=0``); inputs standardised with the
  mean and standard deviation of the training part.

Hyper-parameters, chosen once on the training part (not timed):

- LS-SVM: ``LSSVMClassifierCV(search="shrinking", cv=10)`` (the book's tuning), whose
  (gamma, sigma2) serve every LS-SVM variant below;
- SVC: ``GridSearchCV(SVC(), C in 10^-2..10^3, gamma = 1/sigma2 for sigma2 in
  lssvm.model_selection.search.initial_sigma2_grid(n), 5-fold, accuracy)``.

Probability models compared on the test part (log loss, Brier score, accuracy of the
argmax):

- ``lssvm platt``: ``LSSVMClassifier(probability=True)``: Platt's sigmoid on the exact
  closed-form leave-one-out outputs;
- ``lssvm bayes``: ``LSSVMClassifier(probability="bayes")``: the moderated output;
- ``svc``: ``SVC(probability=True)`` (LIBSVM's internal 5-fold Platt scaling);
- ``calibrated``: ``CalibratedClassifierCV(LSSVMClassifier())`` (sigmoid, 5-fold,
  ensemble of 5 models).

Times: the median over ``--repeats`` interleaved rounds of each fit (0.2 s idle gap
before each), printed as ratios to the plain ``LSSVMClassifier().fit`` at the same
hyper-parameters. Targets (issue 25): log loss of ``lssvm platt`` no worse than
``svc`` and ``calibrated``; its fit at most 2x the plain fit. PASS/MISS is printed,
the exit status is 0 either way. The ratio is also timed at larger N
(``--timing-sizes``, default 1000 2000 4000; 2-D Gaussian data, labels
sign(x1 x2 + 0.3 noise), gamma 10, sigma2 1), where the O(N^3) work dominates: the
leave-one-out outputs cost one triangular inversion of the fit's Cholesky factor.

scikit-learn 1.9 deprecates ``SVC(probability=True)`` (removal in 1.11) in favour of
``CalibratedClassifierCV(SVC(), ensemble=False)``; its FutureWarning is silenced here.

Output: a table per data set, ``benchmarks/results/probability.json`` and a
reliability diagram ``benchmarks/results/probability_reliability.png`` (10 bins of
predicted probability, observed frequency of the positive class; the provenance of the
JSON file is stored in the PNG's metadata as well). BLAS threads are
pinned to ``--threads`` (default 1). Usage::

    .venv/bin/python benchmarks/bench_probability.py [--repeats 7] [--threads 1]
        [--sets ripley pid acr] [--timing-sizes 1000 2000 4000]
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import warnings
from pathlib import Path

import numpy as np
from benchmarks._common import (
    print_environment, save_figure, save_json, stamp, timed,
)
from sklearn.calibration import CalibratedClassifierCV, calibration_curve
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from lssvm import LSSVMClassifier, LSSVMClassifierCV
from lssvm.datasets import load_binary, load_ripley
from lssvm.model_selection.search import initial_sigma2_grid

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("lssvm platt", "lssvm bayes", "svc", "calibrated")


def load(name):
    """(X_train, y_train, X_test, y_test), standardised on the training part."""
    if name == "ripley":
        (X, y), (X_test, y_test) = load_ripley("train"), load_ripley("test")
    else:
        X, y = load_binary(name)
        X, X_test, y, y_test = train_test_split(
            X, y, test_size=1 / 3, stratify=y, random_state=0
        )
    mean, std = X.mean(axis=0), X.std(axis=0)
    std[std == 0] = 1.0
    return (X - mean) / std, y, (X_test - mean) / std, y_test


def tune(X, y):
    """LS-SVM (gamma, sigma2) by the book's search; SVC (C, gamma) by GridSearchCV."""
    params = LSSVMClassifierCV(search="shrinking", cv=10).fit(X, y).best_params_
    sigma2s = initial_sigma2_grid(X.shape[1])
    grid = {"C": np.logspace(-2, 3, 6), "gamma": [1.0 / s for s in sigma2s]}
    svc = GridSearchCV(SVC(), grid, cv=5).fit(X, y).best_params_
    return params, {k: float(v) for k, v in svc.items()}


def models(params, svc):
    return {
        "plain": lambda: LSSVMClassifier(**params),
        "lssvm platt": lambda: LSSVMClassifier(**params, probability=True),
        "lssvm bayes": lambda: LSSVMClassifier(**params, probability="bayes"),
        "svc": lambda: SVC(**svc, probability=True, random_state=0),
        "calibrated": lambda: CalibratedClassifierCV(LSSVMClassifier(**params)),
    }


def run_set(name, repeats):
    X, y, X_test, y_test = load(name)
    params, svc = tune(X, y)
    makers = models(params, svc)
    times = {key: [] for key in makers}
    fitted = {}
    for _ in range(repeats):  # interleaved rounds
        for key, make in makers.items():
            seconds, fitted[key] = timed(lambda make=make: make().fit(X, y))
            times[key].append(seconds)
    out = {
        "n_train": len(y), "n_test": len(y_test), "n_features": X.shape[1],
        "lssvm_params": params, "svc_params": svc, "methods": {}, "curves": {},
    }  # fmt: skip
    plain = float(np.median(times["plain"]))
    out["plain_fit_s"] = plain
    for key in METHODS:
        P = fitted[key].predict_proba(X_test)
        p1 = P[:, list(fitted[key].classes_).index(fitted[key].classes_[1])]
        pos = y_test == fitted[key].classes_[1]
        median = float(np.median(times[key]))
        out["methods"][key] = {
            "log_loss": float(log_loss(y_test, P, labels=fitted[key].classes_)),
            "brier": float(brier_score_loss(pos, p1)),
            "accuracy": float(accuracy_score(y_test, fitted[key].classes_[P.argmax(1)])),
            "fit_s": median,
            "fit_ratio": median / plain,
        }  # fmt: skip
        frac, mean = calibration_curve(pos, p1, n_bins=10)
        out["curves"][key] = [mean.tolist(), frac.tolist()]
    return out


def time_ratio(n, repeats):
    """Median plain and probability=True fit times on synthetic 2-D data of size n."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 2))
    y = np.sign(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(n))
    plain, platt = [], []
    for _ in range(repeats):
        plain.append(timed(lambda: LSSVMClassifier(gamma=10.0).fit(X, y))[0])
        platt.append(
            timed(lambda: LSSVMClassifier(gamma=10.0, probability=True).fit(X, y))[0]
        )
    return float(np.median(plain)), float(np.median(platt))


def report(name, r):
    print(f"\n{name}: N_train={r['n_train']}, N_test={r['n_test']}, "
          f"n={r['n_features']}, LS-SVM {r['lssvm_params']}, SVC {r['svc_params']}, "
          f"plain LSSVMClassifier fit {r['plain_fit_s'] * 1e3:.1f} ms")  # fmt: skip
    print(f"{'method':14s} {'log loss':>9s} {'Brier':>7s} {'acc':>6s} "
          f"{'fit ms':>8s} {'x plain':>8s}")  # fmt: skip
    for key, m in r["methods"].items():
        print(f"{key:14s} {m['log_loss']:9.4f} {m['brier']:7.4f} {m['accuracy']:6.3f} "
              f"{m['fit_s'] * 1e3:8.1f} {m['fit_ratio']:8.2f}")  # fmt: skip
    ours = r["methods"]["lssvm platt"]
    best_other = min(r["methods"][k]["log_loss"] for k in ("svc", "calibrated"))
    print(f"log loss lssvm platt / best of svc, calibrated: "
          f"{ours['log_loss'] / best_other:.3f}  "
          f"{'PASS' if ours['log_loss'] <= best_other else 'MISS'} (<= 1); "
          f"fit x plain {ours['fit_ratio']:.2f}  "
          f"{'PASS' if ours['fit_ratio'] <= 2 else 'MISS'} (<= 2)")  # fmt: skip


def plot(results):
    """The reliability diagrams of ``results`` (one panel per data set)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(3.2 * len(results), 3.2))
    for ax, (name, r) in zip(np.atleast_1d(axes), results.items()):
        ax.plot([0, 1], [0, 1], color="0.7", lw=1)
        for i, key in enumerate(METHODS):
            mean, frac = r["curves"][key]
            ax.plot(mean, frac, marker="o", ms=3, lw=1, color=f"C{i}",
                    label=f"{key} ({r['methods'][key]['log_loss']:.3f})")  # fmt: skip
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("predicted probability", fontsize=8)
        ax.set_ylabel("observed frequency", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6, title="method (log loss)", title_fontsize=6)
    fig.tight_layout()
    return fig


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--sets", nargs="+", default=["ripley", "pid", "acr"])
    parser.add_argument("--timing-sizes", nargs="*", type=int,
                        default=[1000, 2000, 4000])  # fmt: skip
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="The `probability` parameter")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], text=True,
                            capture_output=True).stdout.strip()  # fmt: skip
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"bench_probability.py, {started}, commit {commit}, repeats={args.repeats}")
    with threadpool_limits(limits=args.threads, user_api="blas"):
        print_environment()
        results = {name: run_set(name, args.repeats) for name in args.sets}
        scaling = {n: time_ratio(n, args.repeats) for n in args.timing_sizes}
        provenance = stamp({})["provenance"]  # inside the BLAS limit: its thread count
    for name, r in results.items():
        report(name, r)
    print("\nFit time at larger N (gamma 10, sigma2 1): probability=True vs plain")
    print(f"{'N':>6s} {'plain s':>8s} {'platt s':>8s} {'ratio':>6s}")
    for n, (plain, platt) in scaling.items():
        print(f"{n:6d} {plain:8.3f} {platt:8.3f} {platt / plain:6.2f}  "
              f"{'PASS' if platt / plain <= 2 else 'MISS'} (<= 2)")  # fmt: skip
    meta = {"date": started, "commit": commit, "repeats": args.repeats,
            "threads": args.threads}  # fmt: skip
    save_json(RESULTS / "probability.json",
              {"meta": meta, "sets": results, "scaling": scaling, "provenance": provenance},
              stamp_pass=False)  # stamped inside the BLAS limit, above
    save_figure(RESULTS / "probability_reliability.png", plot(results),
                passes=provenance)  # fmt: skip


if __name__ == "__main__":
    main()
