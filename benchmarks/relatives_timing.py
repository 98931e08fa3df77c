"""Fit-time checks behind the Relatives chapter's speed statements [C8 §8.4.4].

Three small measurements, on one BLAS thread, written to
``benchmarks/results/relatives_timing.json`` (with provenance):

1. ``refits``: for every classification run and every laser run of the SVRs and the
   LS-SVM in ``results/relatives.json``, the tuned model (the stored parameters, no
   new tuning) is refitted ``--repeats`` times on the same split; the median and the
   quartiles of the fit times are kept, and LIBSVM's iteration count (``n_iter_``).
   For the laser SVRs the same fit is repeated with C = 1 (the other parameters
   kept), to see how the iteration count and the fit time follow C.
2. ``scaling``: the RBF LS-SVM (sigma2 = 1, gamma = 10) against LIBSVM's C-SVC
   (scikit-learn gamma = 1, C = 10) on two overlapping Gaussian classes in two
   dimensions (``gaussian_classes``: means +-0.5 (1, 1), variance 0.25) for N up to
   ``--max-n``, median of ``--repeats`` fits (3 at the largest N).
3. ``psvm_parts``: at N = 10^6, 10 inputs (the data of ``bench_psvm.py``) the fit of
   ``PSVMClassifier`` against the bare primal LS-SVM of ``bench_psvm.py`` and the
   parts of the estimator's fit: input validation, ``np.unique`` of the labels, and
   the linear algebra (X^T X, the column sums, X^T y).

Usage::

    .venv/bin/python benchmarks/relatives_timing.py [--repeats 11] [--max-n 4000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.svm import SVC
from sklearn.utils import check_X_y
from threadpoolctl import threadpool_limits

from benchmarks._common import save_json
from benchmarks.bench_psvm import data as psvm_data
from benchmarks.bench_psvm import linear_lssvm_primal
from benchmarks.relatives_compare import CLASSIFICATION, _searches, load_split

from lssvm import LSSVMClassifier
from lssvm.datasets import gaussian_classes
from lssvm.relatives import PSVMClassifier

ROOT = Path(__file__).resolve().parents[1]


def times_of(fit, repeats):
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fit()
        out.append(time.perf_counter() - t0)
    q25, q50, q75 = np.percentile(out, [25, 50, 75])
    return {"median_s": float(q50), "q25_s": float(q25), "q75_s": float(q75),
            "min_s": float(min(out)), "max_s": float(max(out))}


def prepared(name, split):
    """The standardised split exactly as ``relatives_compare.run_split`` builds it."""
    classification = name in CLASSIFICATION
    Xtr, ytr, Xte, yte = load_split(name, split)
    mean, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd == 0] = 1.0
    Xtr = (Xtr - mean) / sd
    if not classification and name != "sinc":
        ytr = (ytr - ytr.mean()) / ytr.std()
    return Xtr, ytr


def refits(stored, repeats):
    rows = []
    for r in stored["rows"]:
        laser = r["data"] == "laser" and r["method"] in ("LS-SVM", "eps-SVR", "nu-SVR")
        if r["data"] not in CLASSIFICATION and not laser:
            continue
        X, y = prepared(r["data"], r["split"])
        est = _searches(r["data"], r["method"], X.shape[1], r["data"] in CLASSIFICATION)[0]
        variants = [("tuned", dict(r["params"]))]
        if laser and r["method"] != "LS-SVM":
            variants.append(("C = 1", {**r["params"], "C": 1.0}))
        for label, params in variants:
            model = sklearn.clone(est).set_params(**params)
            t = times_of(lambda: model.fit(X, y), repeats)
            it = getattr(model, "n_iter_", None)
            rows.append({"data": r["data"], "method": r["method"], "split": r["split"],
                         "variant": label, "params": params, "n_train": len(y),
                         "n_iter": None if it is None else int(np.sum(it)), **t})
            print(r["data"], r["method"], r["split"], label,
                  f"{1e3 * t['median_s']:.2f} ms", rows[-1]["n_iter"], flush=True)
    return rows


def scaling(max_n, repeats):
    rows = []
    n = 500
    while n <= max_n:
        X, y = gaussian_classes(n // 2, random_state=0)
        rep = repeats if n < max_n else min(repeats, 3)
        for method, make in [("LS-SVM", lambda: LSSVMClassifier(sigma2=1.0, gamma=10.0)),
                             ("C-SVC", lambda: SVC(gamma=1.0, C=10.0))]:
            model = make()
            t = times_of(lambda: model.fit(X, y), rep)
            n_sv = len(model.support_) if hasattr(model, "support_") else n
            rows.append({"N": n, "method": method, "n_sv": int(n_sv), "repeats": rep, **t})
            print("scaling", n, method, f"{t['median_s']:.3f} s", n_sv, flush=True)
        n *= 2
    return rows


def psvm_parts(repeats, n=1_000_000, n_features=10):
    X, y = psvm_data(n, n_features, 0)
    Y = np.where(y == 1, 1.0, -1.0)[:, None]
    parts = {
        "PSVMClassifier.fit": lambda: PSVMClassifier(gamma=1.0).fit(X, y),
        "bare LS-SVM primal (bench_psvm)": lambda: linear_lssvm_primal(X, y, 1.0),
        "check_X_y (validation)": lambda: check_X_y(X, y, dtype=np.float64),
        "np.unique(y, return_inverse=True)": lambda: np.unique(y, return_inverse=True),
        "X^T X": lambda: X.T @ X,
        "X.sum(axis=0)": lambda: X.sum(axis=0),
        "X^T Y": lambda: X.T @ Y,
    }
    rows = []
    for name, f in parts.items():
        t = times_of(f, repeats)
        rows.append({"part": name, **t})
        print("psvm", name, f"{t['median_s']:.4f} s", flush=True)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--max-n", type=int, default=4000)
    parser.add_argument("--out", type=Path,
                        default=ROOT / "benchmarks" / "results" / "relatives_timing.json")
    args = parser.parse_args(argv)
    stored = json.loads((ROOT / "benchmarks" / "results" / "relatives.json").read_text())
    t0 = time.perf_counter()
    with threadpool_limits(1):
        results = {"benchmark": "relatives_timing", "repeats": args.repeats,
                   "refits": refits(stored, args.repeats),
                   "scaling": scaling(args.max_n, args.repeats),
                   "psvm_parts": psvm_parts(5)}
    results["wall_s"] = time.perf_counter() - t0
    save_json(args.out, results, [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"wrote {args.out} in {results['wall_s']:.0f} s")


if __name__ == "__main__":
    main()
