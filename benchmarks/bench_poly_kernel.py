"""Polynomial kernel blocks: the package's ``_power`` against ``np.power``.

numpy's ``power`` is slow for negative bases, which ``x^T z + tau`` gives for about half
the pairs of standardised inputs. This prints, for degrees 2-10, the median time (of 7)
of both (each in place on a fresh copy, as the kernel does) on a 2000 x 2000 block of standardised inner products and their ratio, and the
largest relative difference of the values. One BLAS thread. Writes no results file::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_poly_kernel.py
"""

import time

import numpy as np

from lssvm.kernels import _power


def _old_power(G, degree):
    """The kernel's power before the change: numpy's, in place."""
    return np.power(G, degree, out=G)


def median_time(fn, repeats=7):
    fn()  # warm-up: first-touch page faults of the copies are not the kernel's cost
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((2000, 14))
    G = X @ X.T + 1.0  # (x^T z + tau), tau = 1
    print(f"negative share of the block: {np.mean(G < 0):.2f}")
    print(f"{'degree':>6} {'np.power s':>11} {'_power s':>9} {'ratio':>6} {'max rel diff':>12}")
    for degree in range(2, 11):
        ref = np.power(G, degree)
        ours = _power(G.copy(), degree)
        rel = float(np.max(np.abs(ours - ref) / np.maximum(np.abs(ref), 1e-300)))
        t_ref = median_time(lambda: _old_power(G.copy(), degree))
        t_ours = median_time(lambda: _power(G.copy(), degree))
        print(f"{degree:>6} {t_ref:>11.4f} {t_ours:>9.4f} {t_ref / t_ours:>6.1f} {rel:>12.1e}")


if __name__ == "__main__":
    main()
