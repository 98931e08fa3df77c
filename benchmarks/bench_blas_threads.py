"""Closed-form CV over the book's grid: default BLAS threads against one thread.

The searches of :mod:`lssvm.model_selection.search` run many small products (per gamma and fold) and
one eigendecomposition per kernel matrix. This script times
``lssvm.model_selection.search.grid_search`` (10-fold closed-form CV, 11 gammas ``GAMMA_0`` x 9
sigma2 ``initial_sigma2_grid(2)``, the book's initial grid) on 2-D data, N = 1000 by
default, in four conditions:

- BLAS "default": every BLAS library (numpy's and scipy's OpenBLAS) at one thread per
  CPU, as a process gets without ``OMP_NUM_THREADS``, and
  ``lssvm.model_selection.search.SEARCH_BLAS_THREADS = None`` (the search leaves it alone);
- BLAS "limited": the same process setting, and the library's behaviour,
  ``SEARCH_BLAS_THREADS = 1`` (the search limits BLAS to one thread);

each on an otherwise idle machine and with one other busy process (a child
``python -c 'while True: pass'`` that this script starts and kills). It prints the
median of ``--repeats`` runs per condition (conditions interleaved within each
repeat) and the ratios default / limited and busy / idle.

Usage::

    .venv/bin/python benchmarks/bench_blas_threads.py             # about 1-2 minutes
    .venv/bin/python benchmarks/bench_blas_threads.py --n 500 --repeats 3

Timings are only comparable within one run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from contextlib import contextmanager

import numpy as np
from threadpoolctl import threadpool_limits


import lssvm.model_selection.search as search
from benchmarks._common import print_environment
from lssvm.model_selection.closed_form import make_folds


@contextmanager
def busy_process(on):
    """One other process spinning on a core while the block runs (if ``on``)."""
    if not on:
        yield
        return
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)  # let it start spinning
        yield
    finally:
        child.kill()
        child.wait()


def run_search(X, y, folds, limited):
    """Seconds of one closed-form grid search over the book's grid."""
    search.SEARCH_BLAS_THREADS = 1 if limited else None
    time.sleep(0.2)  # idle gap: spinning BLAS workers from the previous run settle
    t0 = time.perf_counter()
    search.grid_search(
        X, y, folds, gammas=search.GAMMA_0, sigma2s=search.initial_sigma2_grid(2),
    )  # fmt: skip
    return time.perf_counter() - t0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="training points")
    parser.add_argument("--repeats", type=int, default=3, help="runs per condition")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.n, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(args.n) > 0, 1.0, -1.0)
    folds = make_folds(10, X, y, classifier=True)
    n_cpu = os.cpu_count() or 1
    conditions = [(busy, lim) for busy in (False, True) for lim in (False, True)]
    times = {c: [] for c in conditions}
    saved = search.SEARCH_BLAS_THREADS
    try:
        with threadpool_limits(limits=n_cpu, user_api="blas"):  # the default setting
            print_environment()
            load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
            print(f"load average before the runs (1, 5, 15 min): {load}")
            run_search(X, y, folds, True)  # warm-up (imports, page faults)
            for _ in range(args.repeats):
                for busy, limited in conditions:
                    with busy_process(busy):
                        times[busy, limited].append(run_search(X, y, folds, limited))
    finally:
        search.SEARCH_BLAS_THREADS = saved

    med = {c: float(np.median(t)) for c, t in times.items()}
    print(
        f"closed-form 10-fold CV, N={args.n}, 11 gammas x 9 sigma2 (99 points), "
        f"{args.repeats} repeats (median), {n_cpu} CPUs, default = {n_cpu} BLAS "
        "threads"
    )
    print(f"{'other process':>14} {'default s':>10} {'limited s':>10} {'ratio':>7}")
    for busy in (False, True):
        d, lim = med[busy, False], med[busy, True]
        label = "one busy" if busy else "idle"
        print(f"{label:>14} {d:10.2f} {lim:10.2f} {d / lim:7.2f}")
    print(
        f"busy / idle: default {med[True, False] / med[False, False]:.2f}, "
        f"limited {med[True, True] / med[False, True]:.2f}"
    )
    print("all times (s):", {f"busy={b},limited={lim}": [round(v, 2) for v in t]
                              for (b, lim), t in times.items()})  # fmt: skip


if __name__ == "__main__":
    main()
