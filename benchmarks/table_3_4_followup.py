"""Follow-up measurements for the Multiclass chapter's reading of [S Table 3.4].

Same protocol as ``benchmarks/table_3_4.py`` (ten stratified 2/3-1/3 splits, seed 0,
standardised inputs, shrinking-grid tuning by closed-form 10-fold CV), on all ten
splits, for three questions the chapter asks of its MOC results:

- ``cmc-assign``: MOC on cmc with each class in the place of the all-negative
  codeword (-1, -1) (class 0 there is the committed ``moc`` run);
- ``veh-pairing``: MOC on vehicle with each of the three ways to pair four classes
  on two bits (the sorted-order pairing is the committed ``moc`` run);
- ``moc-shared-bits``: one (gamma, sigma2) for both MOC bits chosen by the mean CV
  accuracy of the two bits (``LSSVMClassifierCV(per_bit=False,
  scoring="accuracy")``), to separate "one shared pair" from "decoded-accuracy
  criterion" in the committed ``moc-shared`` run, on the five sets with cheap runs.

Every accuracy is paired by split with the committed runs of ``table_3_4.json``
(same splits, same seed). Writes ``benchmarks/results/table_3_4_followup.json``
(about 5 minutes on one core)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/table_3_4_followup.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifierCV
from lssvm.datasets import load_multiclass
from lssvm.model_selection.protocol import randomized_splits
from lssvm.multiclass import codebook

from benchmarks._common import print_environment, save_json

OUT = Path(__file__).parent / "results" / "table_3_4_followup.json"
N_RAND, SEED = 10, 0

# vehicle classes in sorted order: bus, Opel, Saab, van
VEH_SPLITS = {
    "bus+Opel | Saab+van": [-1, -1, 1, 1],
    "bus+Saab | Opel+van": [-1, 1, -1, 1],
    "bus+van | Opel+Saab": [-1, 1, 1, -1],
}
VEH_PAIRINGS = {  # the sorted-order MOC code is the first pairing
    "sorted order": ("bus+Saab | Opel+van", "bus+Opel | Saab+van"),
    "cars together, split 1": ("bus+Opel | Saab+van", "bus+van | Opel+Saab"),
    "cars together, split 2": ("bus+Saab | Opel+van", "bus+van | Opel+Saab"),
}
SHARED_BITS_SETS = ("bal", "cmc", "iri", "veh", "win")


def accuracies(name, **options):
    X, y = load_multiclass(name)
    out, seconds = [], []
    for train, test in randomized_splits(y, N_RAND, random_state=SEED):
        model = make_pipeline(
            StandardScaler(), LSSVMClassifierCV(search="shrinking", **options)
        )
        t0 = time.perf_counter()
        model.fit(X[train], y[train])
        seconds.append(time.perf_counter() - t0)
        out.append(float(np.mean(model.predict(X[test]) == y[test])))
    print(name, options if "coding" not in options or isinstance(options["coding"], str)
          else "custom code", f"{100 * np.mean(out):.1f}", f"{sum(seconds):.0f} s",
          flush=True)
    return {"accuracies": out, "seconds": seconds}


def main(argv=None):
    print_environment()
    results = {"protocol": {"n_rand": N_RAND, "seed": SEED, "search": "shrinking",
                            "cv": 10, "standardized": True}}
    C3 = codebook(3, "moc")  # class 0 gets (-1, -1)
    cmc = {}
    for c in (1, 2):  # give (-1, -1) to class c instead
        order = [c] + [k for k in range(3) if k != c]
        C = np.empty_like(C3)
        C[order] = C3
        cmc[str(c)] = accuracies("cmc", coding=C) | {"code": C.tolist()}
    results["cmc-assign"] = cmc
    veh = {}
    for label, columns in VEH_PAIRINGS.items():
        if label == "sorted order":
            continue
        C = np.array([VEH_SPLITS[col] for col in columns]).T
        veh[label] = accuracies("veh", coding=C) | {"code": C.tolist()}
    results["veh-pairing"] = veh
    results["moc-shared-bits"] = {
        name: accuracies(name, coding="moc", per_bit=False, scoring="accuracy")
        for name in SHARED_BITS_SETS
    }
    save_json(OUT, results, argv)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
