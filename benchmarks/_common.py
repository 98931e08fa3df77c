"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<name>.py``)."""

from __future__ import annotations

import time

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_info


def timed(fn):
    """(seconds, result) of ``fn()``, after an idle gap.

    Idle first: OpenBLAS workers spin for about 0.1 s after a threaded call and would
    slow down whatever is timed next.
    """
    time.sleep(0.2)
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def print_environment():
    """Library versions and the thread count of every loaded BLAS."""
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}")
    for lib in threadpool_info():
        if lib["user_api"] == "blas":
            print(f"BLAS {lib['internal_api']} {lib['version']} "
                  f"({lib['filepath'].rsplit('/', 1)[-1]}): "
                  f"num_threads={lib['num_threads']}")
