"""Compare LS-SVM (targets +-1) and LS-SVM_F (targets +N/N_1, -N/N_2) on Table 3.3.

Protocol as ``table_3_4.py`` (:func:`lssvm.model_selection.protocol.randomized_splits`: ten
stratified 2/3-1/3 splits, seed ``--seed``; inputs standardised on the training
part; ``LSSVMClassifierCV(search="shrinking", targets=...)``, RBF kernel, 10-fold
closed-form CV; test accuracy), on the nine binary sets of Table 3.1 available
offline (:data:`lssvm.datasets.BINARY_SETS`; adu is not included). Writes
``benchmarks/results/table_3_3_fisher.json`` with the book's RBF rows, read by the
Fisher chapter. Regenerate (about 2 minutes on one core) with::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/table_3_3_fisher.py

Options: ``--sets snr hea``, ``--targets pm1``, ``--n-rand 3``, ``--out PATH``; a
subset run merges into an existing file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifierCV
from lssvm.datasets import BINARY_SETS, load_binary
from lssvm.model_selection.protocol import randomized_splits

from benchmarks import paper
from benchmarks._common import (
    open_results,
    print_environment,
    save_json,
    progress,
)

OUT = Path(__file__).parent / "results" / "table_3_3_fisher.json"
TARGETS = ("pm1", "fisher")

# [S Table 3.3]: the RBF rows, mean (std) test accuracy in %, 10 randomizations
PAPER = paper.rows("3.3", ("RBF LS-SVM", "RBF LS-SVM_F"))
PAPER_ROW = {"pm1": "RBF LS-SVM", "fisher": "RBF LS-SVM_F"}


def run_one(X, y, split, targets):
    """Test accuracy and tuned parameters for one (train, test) split."""
    train, test = split
    model = make_pipeline(
        StandardScaler(), LSSVMClassifierCV(targets=targets, search="shrinking")
    )
    t0 = time.perf_counter()
    model.fit(X[train], y[train])
    return {
        "accuracy": float(np.mean(model.predict(X[test]) == y[test])),
        "seconds": time.perf_counter() - t0,
        "params": model[-1].best_params_,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(BINARY_SETS))
    parser.add_argument("--targets", nargs="+", default=list(TARGETS))
    parser.add_argument("--n-rand", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    print_environment()
    results, runs = open_results(args.out, args.seed, n_rand=args.n_rand, paper=PAPER)
    for name in progress(args.sets, "data sets"):
        X, y = load_binary(name)
        splits = randomized_splits(y, args.n_rand, random_state=args.seed)
        for targets in args.targets:
            rows = [run_one(X, y, split, targets) for split in splits]
            acc = 100 * np.array([row["accuracy"] for row in rows])
            runs.setdefault(name, {})[targets] = {
                "accuracies": [row["accuracy"] for row in rows],
                "params": [row["params"] for row in rows],
                "seconds": [row["seconds"] for row in rows],
            }
            paper = PAPER[PAPER_ROW[targets]][name]
            print(
                f"{name} {targets:6s}: ours {acc.mean():5.1f} ({acc.std(ddof=1):.1f}), "
                f"paper {paper[0]:5.1f} ({paper[1]:.1f}), "
                f"{sum(row['seconds'] for row in rows):6.1f} s",
                flush=True,
            )
            save_json(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
