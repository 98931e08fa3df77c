"""Table 3.5: sparse LS-SVMs by pruning, stopped at the SL 5% and SL 1% levels.

Protocol (ours; the book gives only the stop levels): the splits of
:func:`lssvm.model_selection.protocol.randomized_splits` (stratified 2/3-1/3, seed ``--seed``),
``--n-rand`` of them (default 3; the paper used 10), inputs standardised on the
training part. Hyper-parameters: ``LSSVMClassifierCV(search="shrinking")`` (RBF,
10-fold CV; one-versus-one codes with per-bit (gamma, sigma2) for the multiclass sets)
tuned on each split's training part alone (no test point is seen). On each
split the training part is divided (stratified, 3/4 - 1/4) into a pruning set and a
validation set. :func:`lssvm.sparse.pruning.prune` removes 5% of the pruning set per stage
(smallest |alpha_k|; for multiclass sets every bit of the one-versus-one code on its
own rows, ``prune(per_bit=True)``, support vectors summed over the bits as in the
book's table) and stops at the first stage whose
validation errors are significantly worse than the unpruned model's at the 1%
level (one-sided exact McNemar/sign test, :func:`lssvm.sparse.pruning.sign_test_pvalue`);
the SL 5% model is the last stage before p < 0.05 on the same path. Reported: test
accuracy of the unpruned model (trained on the pruning set), of the SL 5% and SL 1%
models, their numbers of support vectors and the percentage of the pruning set
removed (PPTE).

Writes ``benchmarks/results/table_3_5_pruning.json``, read by the pruning chapter.
``--validation-fraction 0.5 --sets acr bld gcr hea ion --params-from
benchmarks/results/table_3_5_pruning.json --out
benchmarks/results/table_3_5_pruning_val50.json`` writes the chapter's check of the
stop rule's power (twice the validation points, the same splits and tuned parameters).
Resumable: sets already in the file are skipped unless ``--force``. Run with::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/table_3_5_pruning.py [--sets iri hea] [--n-rand 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifier, LSSVMClassifierCV
from lssvm.datasets import load_binary, load_multiclass
from lssvm.model_selection.protocol import randomized_splits
from lssvm.sparse.pruning import prune

from benchmarks import paper
from benchmarks._common import (
    open_results,
    print_environment,
    save_json,
    progress,
)

OUT = Path(__file__).parent / "results" / "table_3_5_pruning.json"
BINARY = ("acr", "bld", "gcr", "hea", "ion")
MULTICLASS = ("bal", "cmc", "ims", "iri", "led")
SETS = BINARY + MULTICLASS
LEVELS = (0.05, 0.01)

PAPER = paper.TABLE_3_5  # [S Table 3.5] (benchmarks/paper.py)


def load(name):
    return load_binary(name) if name in BINARY else load_multiclass(name)


def tune(X, y, split):
    """LSSVMClassifierCV on the split's (standardised) training part, never its test."""
    train = split[0]
    scaler = StandardScaler().fit(X[train])
    cv = LSSVMClassifierCV(search="shrinking").fit(scaler.transform(X[train]), y[train])
    return clone(cv.best_estimator_), cv.best_params_


def run_split(estimator, X, y, split, seed, validation_fraction=0.25):
    train, test = split
    scaler = StandardScaler().fit(X[train])
    Xtr, Xte = scaler.transform(X[train]), scaler.transform(X[test])
    X_p, X_v, y_p, y_v = train_test_split(
        Xtr, y[train], test_size=validation_fraction, stratify=y[train],
        random_state=seed,
    )
    n_classes = len(np.unique(y))
    t0 = time.perf_counter()
    if n_classes > 2:  # every bit pruned on its own rows; the stop on the classes
        path = prune(estimator, X_p, y_p, fraction=0.05, validation=(X_v, y_v),
                     stop="significance", level=0.01, per_bit=True)  # fmt: skip
    else:

        def stop(path):  # SL 1%, or before a class could vanish from the pruning set
            counts = np.bincount(
                np.searchsorted(np.unique(y), y_p[path.support[-1]]),
                minlength=n_classes,
            )
            return path.p_values[-1] < 0.01 or counts.min() < 4

        path = prune(estimator, X_p, y_p, fraction=0.05, validation=(X_v, y_v),
                     stop=stop, min_support=2 * n_classes)  # fmt: skip
    row = {"seconds": time.perf_counter() - t0, "n_prune": int(path.n_support[0]),
           "n_rows": len(y_p), "n_stages": len(path.n_support),
           "update": path.update}  # fmt: skip
    stages = {"LS-SVM": 0, "SL5": path.last_before(0.05), "SL1": path.selected}
    for key, s in stages.items():
        est = path.estimators[s]
        row[key] = float(np.mean(est.predict(Xte) == y[test]))
        row[f"n_{key}"] = int(path.n_support[s])
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    parser.add_argument("--n-rand", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--force", action="store_true")
    parser.add_argument(
        "--validation-fraction", type=float, default=0.25,
        help="share of each training part held out for the stop rule (default 0.25; "
        "the pruning chapter's power check uses 0.5 with --out ..._val50.json)",
    )  # fmt: skip
    parser.add_argument(
        "--params-from", type=Path, default=None,
        help="reuse each split's tuned (gamma, sigma2) from this results file instead "
        "of tuning again (binary sets only; the tuning is deterministic and sees only "
        "the training part, so this gives the same parameters)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    stored = None
    if args.params_from is not None:
        stored = json.loads(args.params_from.read_text())["runs"]
        if any(name not in BINARY for name in args.sets):
            parser.error(f"--params-from needs binary sets only {BINARY}; got {args.sets}")
    print_environment()
    results, runs = open_results(args.out, args.seed, n_rand=args.n_rand, paper=PAPER)
    results["protocol"].update(
        tuning="per split, on that split's training part", prune_fraction=0.05,
        validation=f"{args.validation_fraction:g} of the training part, stratified",
        stop="sign test vs stage 0",
    )  # fmt: skip
    for name in progress(args.sets, "data sets"):
        if name in runs and not args.force:
            print(f"{name}: in {args.out.name}, skipped", flush=True)
            continue
        X, y = load(name)
        splits = randomized_splits(y, args.n_rand, random_state=args.seed)
        rows = []
        for r, split in enumerate(splits):
            t0 = time.perf_counter()
            if stored is not None:  # the same split's parameters, tuned before
                params = stored[name]["splits"][r]["params"]
                estimator = LSSVMClassifier(**params)
            else:
                estimator, params = tune(X, y, split)  # each split tuned on its own
            t_tune = time.perf_counter() - t0  # training part: no test point seen
            rows.append(run_split(estimator, X, y, split, seed=args.seed + r,
                                  validation_fraction=args.validation_fraction))
            row = rows[-1]
            row.update(params=params, tuning_seconds=t_tune)
            print(
                f"{name} split {r + 1}/{args.n_rand}: "
                f"LS-SVM {100 * row['LS-SVM']:.1f}, "
                f"SL5 {100 * row['SL5']:.1f} ({row['n_SL5']} SV), SL1 "
                f"{100 * row['SL1']:.1f} ({row['n_SL1']} SV) of {row['n_prune']}, "
                f"{row['n_stages']} stages, {row['seconds']:.1f} s",
                flush=True,
            )
        runs[name] = {"splits": rows}
        save_json(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
