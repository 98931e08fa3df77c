"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<name>.py``)."""

from __future__ import annotations

import json
import platform
import time

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_info


def progress(iterable, desc=None):
    """``tqdm(iterable)`` when the optional tqdm is installed, else ``iterable``.

    tqdm (``pip install lssvm[progress]``) is never required: without it the
    scripts run the same and print their usual lines.
    """
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, desc=desc)


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
    print(
        f"numpy {np.__version__}, scipy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}"
    )
    for lib in threadpool_info():
        if lib["user_api"] == "blas":
            print(
                f"BLAS {lib['internal_api']} {lib['version']} "
                f"({lib['filepath'].rsplit('/', 1)[-1]}): "
                f"num_threads={lib['num_threads']}"
            )


def open_table_results(out, paper, n_rand, seed):
    """The results of a table reproduction: ``out``'s contents, protocol refreshed.

    A subset run merges into an existing file. Returns (results, runs), ``runs``
    being ``results["runs"]`` (data set -> variant -> per-split lists).
    """
    results = json.loads(out.read_text()) if out.exists() else {}
    results["paper"] = paper
    results["protocol"] = {
        "n_rand": n_rand, "seed": seed, "search": "shrinking", "cv": 10,
        "test_size": "ceil(N/3)", "stratified": True, "standardized": True,
    }  # fmt: skip
    results["machine"] = f"{platform.machine()}, {platform.python_version()}"
    return results, results.setdefault("runs", {})


def save_table_results(out, results):
    """Write the results file (after every data set, so a long run can be resumed)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
