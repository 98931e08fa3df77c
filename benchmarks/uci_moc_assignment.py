"""Diagnostic: does the MOC class-to-codeword assignment move the MOC SVC rows?

For a multiclass set, the linear (or RBF) MOC SVC of ``uci.py`` (each bit tuned by
10-fold CV, Hamming decoding) is run with every distinct assignment of classes to the
MOC codewords, on the first ``--n-rand`` randomizations of ``uci.py`` (seed 0).
For 3 classes the two bits are "class 1 against the rest" and "class 2 against the
rest", so what matters is which class gets the codeword (-1, -1): 3 codes. The
package's code gives it to the first of the sorted labels. Prints mean (s.d.) test
accuracy per assignment; writes no results file.

    OMP_NUM_THREADS=1 python benchmarks/uci_moc_assignment.py --sets bal iri
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.preprocessing import StandardScaler

from benchmarks import reference, uci
from lssvm import multiclass as mc
from lssvm.model_selection.protocol import randomized_splits


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["bal", "iri"])
    parser.add_argument("--kernel", default="linear")
    parser.add_argument("--n-rand", type=int, default=10)
    args = parser.parse_args(argv)
    for name in args.sets:
        X, y = uci.load(name)
        classes = np.unique(y)
        if len(classes) != 3:
            raise ValueError(f"{name}: 3 classes only; got {len(classes)}.")
        C0 = mc.codebook(3, "moc")
        splits = randomized_splits(y, args.n_rand, random_state=0)
        for first in range(3):  # the class coded (-1, -1)
            order = [first] + [c for c in range(3) if c != first]
            C = np.empty_like(C0)
            C[order] = C0  # class order[i] gets codeword i
            acc, t0 = [], time.perf_counter()
            for train, test in splits:
                scaler = StandardScaler().fit(X[train])
                search = reference.svc_search(args.kernel, X.shape[1])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model = reference.CodedBinaryClassifier(search, C).fit(
                        scaler.transform(X[train]), y[train]
                    )
                acc.append(np.mean(model.predict(scaler.transform(X[test])) == y[test]))
            acc = 100 * np.array(acc)
            print(
                f"{name} {args.kernel} MOC, class {classes[first].item()} coded (-1,-1)"
                f"{' (package)' if first == 0 else ''}: {acc.mean():.1f} "
                f"({acc.std(ddof=1):.1f}), n={len(acc)}, "
                f"{time.perf_counter() - t0:.1f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
