"""The pruning chapter's check of the stop rule's reading, on all ten sets of Table 3.5.

[S Table 3.5] stops pruning "when the cross-validation accuracy decreases
significantly at the 5% and 1% significance level"; it names neither the test nor the
model the accuracy is compared with. ``table_3_5_pruning.py`` reads it as a paired
one-sided sign test (exact McNemar) of each stage against the unpruned stage 0. This
script keeps everything else fixed (the ten splits of ``randomized_splits``, seed 0;
each split's stored tuned parameters from ``benchmarks/results/table_3_5_pruning.json``;
the same 3/4 - 1/4 pruning / validation split as ``table_3_5_pruning.run_split``; 5%
removed per stage) and runs each path on past the stored stop, recording every stage's
validation errors. Three readings of the stop are then applied to the same path:

- ``stage0``: the paired sign test against stage 0 (ours; reproduces the stored rows);
- ``previous``: the paired sign test of each stage against the stage before it
  ("decreases" read as a decrease from one stage to the next);
- ``unpaired``: a one-sided Fisher exact test of the two validation accuracies (stage
  s against stage 0) as two independent proportions, ignoring that the same points
  are scored.

Each reading selects, at each level, the stage before the first stage at which it
fires (binary sets: also before a class would fall under 4 points, as the stored run).
A path is run until every reading has fired at 1% or nothing more can be removed.

A fourth reading, for the multiclass sets (``per_bit``): every binary LS-SVM of the
one-versus-one code is pruned and stopped on its own, by the same sign test against its
own stage 0 on the validation points of its two classes (and before a class of the bit
would fall under 4 points), the L binary classifiers whose support vectors [S Table 3.5]
sums; the bits' selected stages are then decoded together as the classifier decodes.
And ``per_bit_common``: the same with one (gamma, sigma2) for all bits, the geometric
medians of the split's per-bit choices (no new tuning), the pair with which the chapter
tests whether the tiny per-bit gamma_j hold the pruning back.
Reported per split and reading: the test accuracy and support vectors of the selected
stages, and the unpruned model's.

Writes ``benchmarks/results/pruning_stop_readings.json``, read by the pruning chapter.
Regenerate (a few minutes on one core) with::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/pruning_stop_readings.py
"""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import fisher_exact
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifier
from lssvm import multiclass as mc
from lssvm.linalg import NumericalWarning
from lssvm.model_selection.protocol import randomized_splits
from lssvm.sparse.pruning import PrunedOutputCode, prune, sign_test_pvalue

from benchmarks._common import save_json
from benchmarks import table_3_5_pruning as t35

RESULTS = Path(__file__).parent / "results"
OUT = RESULTS / "pruning_stop_readings.json"
READINGS = ("stage0", "previous", "unpaired")
LEVELS = {"SL5": 0.05, "SL1": 0.01}


def unpaired_pvalue(err_s, err_0):
    """One-sided Fisher exact test that stage s's accuracy is below stage 0's, the two
    validation accuracies taken as independent proportions."""
    n = len(err_s)
    table = [[n - int(err_s.sum()), int(err_s.sum())], [n - int(err_0.sum()), int(err_0.sum())]]
    return float(fisher_exact(table, alternative="less")[1])


def bit_estimators(params, n_bits):
    """One binary LS-SVM per bit of the code: the common parameters and bit j's."""
    common = LSSVMClassifier(**params).get_params()
    overrides = common.pop("bit_params") or [{}] * n_bits
    for name in ("coding", "decoding", "random_state"):
        common.pop(name)
    return [LSSVMClassifier(**{**common, **extra}) for extra in overrides]


def common_pair(params):
    """The split's parameters with one (gamma, sigma2) for all bits: the geometric
    medians of its per-bit choices."""
    bits = params["bit_params"]
    common = {k: float(np.exp(np.median(np.log([b[k] for b in bits]))))
              for k in ("gamma", "sigma2")}
    return {**params, **common, "bit_params": None}


def per_bit_stops(params, X_p, y_p, X_v, y_v, Xte, yte, classes, prefix="per_bit"):
    """Every bit pruned and stopped on its own; the selected bits decoded together."""
    template = LSSVMClassifier(**params)
    C = mc.codebook(len(classes), template.coding, random_state=template.random_state)
    Y_p = mc.encode(np.searchsorted(classes, y_p), C)
    Y_v = mc.encode(np.searchsorted(classes, y_v), C)
    chosen = {"LS-SVM": [], "SL5": [], "SL1": []}
    for j, bit in enumerate(bit_estimators(params, C.shape[1])):
        rows, rows_v = np.flatnonzero(Y_p[:, j]), np.flatnonzero(Y_v[:, j])
        labels = Y_p[rows, j]

        def stop(path, labels=labels):  # SL 1%, or before a class falls under 4 points
            counts = np.bincount((labels[path.support[-1]] > 0).astype(int), minlength=2)
            return path.p_values[-1] < 0.01 or counts.min() < 4

        path = prune(bit, X_p[rows], labels, fraction=0.05,
                     validation=(X_v[rows_v], Y_v[rows_v, j]), stop=stop, min_support=4)
        sl5 = path.last_before(0.05)
        if path.stop_stage is not None:  # the class guard stops the SL 5% model too
            sl5 = min(sl5, path.stop_stage - 1)
        for key, stage in (("LS-SVM", 0), ("SL5", sl5), ("SL1", path.selected)):
            chosen[key].append((path.estimators[stage], rows[path.support[stage]]))
    out = {}
    for key, picks in chosen.items():
        model = PrunedOutputCode(classes, C, [e for e, _ in picks], [r for _, r in picks],
                                 template.decoding)
        out[f"{prefix}_{key}"] = float(np.mean(model.predict(Xte) == yte))
        out[f"{prefix}_n_{key}"] = int(sum(len(r) for _, r in picks))
    return out


def run_split(params, X, y, split, seed):
    """One split: the path run past the stored stop, every reading applied to it."""
    train, test = split
    scaler = StandardScaler().fit(X[train])
    Xtr, Xte = scaler.transform(X[train]), scaler.transform(X[test])
    X_p, X_v, y_p, y_v = train_test_split(Xtr, y[train], test_size=0.25,
                                          stratify=y[train], random_state=seed)
    classes = np.unique(y)
    errors, p = [], {r: [] for r in READINGS}
    guard = []  # binary sets: a class of the pruning set under 4 points

    def stop(path):
        errors.append((path.estimators[-1].predict(X_v) != y_v).astype(float))
        s = len(errors) - 1
        p["stage0"].append(sign_test_pvalue(errors[s], errors[0]) if s else 1.0)
        p["previous"].append(sign_test_pvalue(errors[s], errors[s - 1]) if s else 1.0)
        p["unpaired"].append(unpaired_pvalue(errors[s], errors[0]) if s else 1.0)
        if len(classes) == 2:
            counts = np.bincount(np.searchsorted(classes, y_p[path.support[-1]]),
                                 minlength=2)
            guard.append(bool(counts.min() < 4))
        else:
            guard.append(False)
        every = all(np.any(np.array(p[r]) < LEVELS["SL1"]) for r in READINGS)
        return guard[-1] or every

    estimator = LSSVMClassifier(**params)
    if len(classes) > 2:
        path = prune(estimator, X_p, y_p, fraction=0.05, stop=stop, per_bit=True)
    else:
        path = prune(estimator, X_p, y_p, fraction=0.05, stop=stop,
                     min_support=2 * len(classes))
    acc = [float(np.mean(e.predict(Xte) == y[test])) for e in path.estimators]
    row = {"n_prune": int(path.n_support[0]), "n_stages": len(path.n_support),
           "LS-SVM": acc[0], "n_LS-SVM": int(path.n_support[0])}
    last = len(path.n_support) - 1
    for reading in READINGS:
        for key, level in LEVELS.items():
            fired = [s for s in range(1, last + 1) if p[reading][s] < level or guard[s]]
            s = fired[0] - 1 if fired else last
            row[f"{reading}_{key}"] = acc[s]
            row[f"{reading}_n_{key}"] = int(path.n_support[s])
            row[f"{reading}_fired_{key}"] = bool(fired)
    if len(classes) > 2:
        row.update(per_bit_stops(params, X_p, y_p, X_v, y_v, Xte, y[test], classes))
        row.update(per_bit_stops(common_pair(params), X_p, y_p, X_v, y_v, Xte, y[test],
                                 classes, prefix="per_bit_common"))
    return row


def main():
    # a bit model that predicts one class is part of the results (the chapter counts them)
    warnings.filterwarnings("ignore", message=".*predicts one class", category=NumericalWarning)
    stored = json.loads((RESULTS / "table_3_5_pruning.json").read_text())
    n_rand, seed = stored["protocol"]["n_rand"], stored["protocol"]["seed"]
    runs = {}
    for name in t35.SETS:
        X, y = t35.load(name)
        rows = []
        t0 = time.perf_counter()
        for r, split in enumerate(randomized_splits(y, n_rand, random_state=seed)):
            params = stored["runs"][name]["splits"][r]["params"]
            rows.append(run_split(params, X, y, split, seed + r))
        runs[name] = {"splits": rows}
        gap = max(abs(row[f"stage0_{k}"] - old[k]) + abs(row[f"stage0_n_{k}"] - old[f"n_{k}"])
                  for row, old in zip(rows, stored["runs"][name]["splits"])
                  for k in ("SL5", "SL1"))
        print(f"{name}: {time.perf_counter() - t0:.0f} s; stage0 reading against the "
              f"stored rows: largest difference {gap}", flush=True)
    save_json(OUT, {"protocol": {"n_rand": n_rand, "seed": seed,
                                 "params": "stored per split",
                                 "validation": "1/4 of the training part, as stored",
                                 "readings": [*READINGS, "per_bit", "per_bit_common"]},
                    "runs": runs})


if __name__ == "__main__":
    main()
