"""Pol LS-SVM at high degree with the gamma grid scaled to the kernel ([S §3.4.2]).

On standardised inputs the kernel (x^T z + tau)^d has entries of about (n + tau)^d:
1e9 to 1e12 at d = 10. The paper's initial grid Gamma_0 = 0.01 ... 1000 then puts a
ridge I/gamma of at most 100 on the diagonal, negligible next to K, and every gamma
of the grid gives the same unregularised interpolant. This runner repeats the LU
probe of ``uci.py --poly-lu`` (10-fold CV over Gamma_0, no refinement, refit, test
accuracy; +-1 targets) twice per (set, split, d, tau):

- "printed": Gamma_0 as printed (recording every grid point's CV accuracy, which
  shows whether the grid does anything);
- "scaled": Gamma_0 divided by c = median_k K(x_k, x_k) of the training part, so
  that the ridge I/gamma = c I/gamma_0 keeps its size relative to K at every degree
  (the median: at d = 10 a few outlying inputs dominate the mean diagonal).

Splits: ``randomized_splits(y, 10, random_state=0)``, the benchmark's. Results:
``results/uci_poly_scaled.json`` (resumable; provenance by ``_common.stamp``).

    python benchmarks/uci_poly_scaled.py --degrees 10 [--sets pid bld] [--n-rand 10]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from benchmarks import uci
from benchmarks._common import save_json

from lssvm.datasets import BINARY_SETS
from lssvm.model_selection.protocol import randomized_splits

OUT = uci.RESULTS / "uci_poly_scaled.json"
GRIDS = {"printed": False, "scaled": True}


def key(degree, tau_name, grid):
    return f"d={degree}, tau={tau_name}, {grid}"


def run(sets, degrees, n_rand=10, seed=0, out=OUT, grids=tuple(GRIDS)):
    """Fill ``out`` with poly_lu_split records for every (set, d, tau, grid)."""
    out = Path(out)
    results = json.loads(out.read_text()) if out.exists() else {}
    results.setdefault("protocol", {
        "seed": seed, "row": "Pol LS-SVM (+-1 targets)", "cv": 10,
        "gamma_grid": "Gamma_0, no refinement; scaled: Gamma_0 / median diag of the "
                      "training kernel", "solver": "LU (numpy.linalg.solve)",
        "standardized": True, "test_size": "ceil(N/3)", "stratified": True,
    })  # fmt: skip
    runs = results.setdefault("runs", {})
    for name in sets:
        X, y = uci.load(name)
        splits = randomized_splits(y, n_rand, random_state=seed)
        for degree in degrees:
            for tau_name in ("1", "n"):
                for grid in grids:
                    entry = runs.setdefault(name, {}).setdefault(
                        key(degree, tau_name, grid),
                        {"accuracies": [], "params": [], "seconds": []})
                    t0 = time.perf_counter()
                    for r in range(len(entry["accuracies"]), n_rand):
                        t1 = time.perf_counter()
                        rec = uci.poly_lu_split(X, y, splits[r], degree, tau_name,
                                                scaled=GRIDS[grid])
                        entry["accuracies"].append(rec.pop("test_accuracy"))
                        entry["params"].append(rec)
                        entry["seconds"].append(time.perf_counter() - t1)
                    acc = [a for a in entry["accuracies"] if a is not None] or [np.nan]
                    print(f"{name} {key(degree, tau_name, grid)}: "
                          f"{100 * np.mean(acc):5.1f}, "
                          f"{time.perf_counter() - t0:5.1f} s",
                          flush=True)
                save_json(out, results)
    return results


def headline(results, grid, sets=BINARY_SETS):
    """{(degree, tau): {"mean", "se", "n", "sets", "missing", "per_set"}} of one grid,
    as :func:`uci.poly_lu_headline` (per split the mean over the sets, then mean and SE
    over the splits)."""
    renamed = {"runs": {
        s: {k.rsplit(", ", 1)[0]: v for k, v in entries.items()
            if k.endswith(f", {grid}")}
        for s, entries in results["runs"].items()}}  # fmt: skip
    return uci.poly_lu_headline(renamed, sets)


def headline_cv(results, degree, grid, sets=BINARY_SETS):
    """{"mean", "se", "n", "sets"}: tau of {1, n} chosen per (set, split) by the CV
    accuracy (ties: tau = 1), then as :func:`headline` (mean over the sets per split,
    mean and SE over the splits; a split counts only with a fit on every set)."""
    have = [s for s in sets if s in results["runs"]]
    per_split = []
    n_rand = min(len(results["runs"][s][key(degree, "1", grid)]["accuracies"])
                 for s in have)  # fmt: skip
    for r in range(n_rand):
        accs = []
        for name in have:
            one, big = (results["runs"][name][key(degree, t, grid)] for t in ("1", "n"))
            pick = (big if (big["params"][r]["cv_score"] or -1)
                    > (one["params"][r]["cv_score"] or -1) else one)  # fmt: skip
            accs.append(pick["accuracies"][r])
        if all(a is not None for a in accs):
            per_split.append(100 * np.mean(accs))
    return {**uci._mean_se(per_split), "sets": have}


def inert_share(results, degree, tau_name, grid="printed", sets=BINARY_SETS):
    """Share of (set, split) records whose CV accuracy is the same at every gamma of
    the grid (the grid does nothing there)."""
    flat = [len({s for s in p["cv_scores"] if s is not None}) <= 1
            for name in sets if name in results["runs"]
            for p in results["runs"][name].get(key(degree, tau_name, grid), {})
            .get("params", [])]  # fmt: skip
    return float(np.mean(flat)) if flat else float("nan"), len(flat)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", default=list(BINARY_SETS))
    parser.add_argument("--degrees", nargs="*", type=int, default=[10])
    parser.add_argument("--grids", nargs="*", default=list(GRIDS), choices=list(GRIDS))
    parser.add_argument("--n-rand", type=int, default=10)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    run(args.sets, args.degrees, args.n_rand, out=args.out, grids=tuple(args.grids))


if __name__ == "__main__":
    main()
