"""Benchmark: output codes that share one factorisation against one fit per bit.

``LSSVMClassifier`` solves every bit of an output code whose rows, kernel and gamma
are equal with one Cholesky factorisation of K + I/gamma (the bits differ only in
the right-hand side of (3.12) written in regression form). For N points in 4-D from
``np.random.default_rng(0)`` (M = 10 Gaussian classes, centres 3 N(0, I)), RBF
kernel sigma2 = 8, gamma = 10, it times, for each ``--sizes``:

- ``LSSVMClassifier(coding=C).fit`` with C the code matrix of "ova" (10 bits) or
  "ecoc" (34 bits), given as a matrix: one factorisation. The ECOC code search (best
  of a thousand draws), which ``fit(coding="ecoc")`` runs on every call, is timed
  apart (``code s``): the separate fits reuse the code, so the shared fit is timed
  without the search too;
- the same bits as separate binary ``LSSVMClassifier`` fits (one factorisation each);
- ``coding="ovo"`` (45 bits on the rows of their two classes, 45 small
  factorisations) for reference;

and prints the ratio separate / shared, and the largest difference of the dual
coefficients (must be below 1e-8). Each time is the minimum of ``--repeats``
rounds, BLAS threads pinned with threadpoolctl (``--threads``, default 1)::

    .venv/bin/python benchmarks/bench_codes.py
    .venv/bin/python benchmarks/bench_codes.py --sizes 1000 --repeats 5
"""

from __future__ import annotations

import argparse

import numpy as np
from threadpoolctl import threadpool_limits

from lssvm import LSSVMClassifier
from lssvm.multiclass import codebook, encode

from benchmarks._common import print_environment, timed


def data(n, n_classes=10, seed=0):
    rng = np.random.default_rng(seed)
    centres = 3 * rng.standard_normal((n_classes, 4))
    y = rng.integers(0, n_classes, n)
    return centres[y] + rng.standard_normal((n, 4)), y


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        print_environment()
        params = dict(gamma=10.0, sigma2=8.0)
        print(
            f"{'N':>6} {'code':>5} {'bits':>5} {'code s':>7} {'shared s':>9} "
            f"{'separate s':>11} {'ratio':>6} {'max diff':>9}"
        )
        for n in args.sizes:
            X, y = data(n)
            for coding in ("ova", "ecoc"):
                t_code, t_shared, t_sep = np.inf, np.inf, np.inf
                for _ in range(args.repeats):
                    t, C = timed(lambda: codebook(10, coding))
                    t_code = min(t_code, t)
                    t, shared = timed(
                        lambda: LSSVMClassifier(coding=C, **params).fit(X, y)
                    )
                    t_shared = min(t_shared, t)
                    bits = encode(y, shared.codebook_).T
                    t, separate = timed(
                        lambda: [LSSVMClassifier(**params).fit(X, b) for b in bits]
                    )
                    t_sep = min(t_sep, t)
                gap = max(
                    np.abs(s.dual_coef_ - shared.dual_coef_[:, j]).max()
                    for j, s in enumerate(separate)
                )
                assert shared.n_factorizations_ == 1
                print(
                    f"{n:6d} {coding:>5} {len(bits):5d} {t_code:7.3f} {t_shared:9.3f} "
                    f"{t_sep:11.3f} "
                    f"{t_sep / t_shared:6.1f} {gap:9.1e}",
                    flush=True,
                )
            t_ovo = min(
                timed(lambda: LSSVMClassifier(coding="ovo", **params).fit(X, y))[0]
                for _ in range(args.repeats)
            )
            print(f"{n:6d} {'ovo':>5} {45:5d} {t_ovo:9.3f} {'(45 factorisations)':>18}")


if __name__ == "__main__":
    main()
