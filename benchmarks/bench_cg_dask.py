"""The exact LS-SVM's CG with its kernel products on Dask, against threads.

Run from the repository root::

    python benchmarks/bench_cg_dask.py [--n 50000] [--repeats 5]

Data and model as in ``bench_fixed_size.py``: ``lssvm.datasets.xor_sine`` (10 inputs,
seed 0), RBF sigma2 = 10, gamma = 1, CG tolerance 1e-8 (Nystrom preconditioner of
rank 500). Two backends on the same two cores:

- threaded: :class:`lssvm.linalg.operators.KernelOperator` with ``n_jobs=2`` (the estimators'
  ``solver="cg", n_jobs=2``);
- Dask: :class:`lssvm.linalg.dask_operators.DaskKernelOperator` on a ``LocalCluster`` of two
  worker processes with one thread each (2 GB each), the estimator fitted on a Dask X.

Measured: (1) one product (K + I/gamma) V with V of shape (N, 2), the two CG systems
of the classifier, median of ``--repeats`` products per backend, interleaved; (2) one
full ``LSSVMClassifier(solver="cg").fit`` per backend: CG iterations, the largest
difference of alpha relative to max |alpha|, test agreement and accuracy on 20,000
points, fit seconds. The overhead ratio is Dask / threaded for both.

Results: ``benchmarks/results/cg_dask.json`` with provenance (``_common.stamp``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
# worker processes import lssvm from this checkout too
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
from benchmarks._common import save_json  # noqa: E402

import numpy as np  # noqa: E402

SIGMA2, GAMMA, TOL, N_FEATURES = 10.0, 1.0, 1e-8, 10


def main(argv=None):
    import dask
    import dask.array as da
    import distributed
    from distributed import Client, LocalCluster

    from lssvm import LSSVMClassifier
    from lssvm.linalg.dask_operators import DaskKernelOperator
    from lssvm.datasets import xor_sine
    from lssvm.kernels import RBF
    from lssvm.linalg.operators import KernelOperator

    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/cg_dask.json"))
    args = parser.parse_args(argv)

    X, y = xor_sine(args.n, n_features=N_FEATURES, random_state=0)
    X_test, y_test = xor_sine(20_000, n_features=N_FEATURES, random_state=1000)
    V = np.random.default_rng(0).standard_normal((args.n, 2))
    params = dict(gamma=GAMMA, sigma2=SIGMA2, solver="cg", tol=TOL)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit="2GB") as cluster, \
            Client(cluster):
        threaded = KernelOperator(RBF(SIGMA2), X, shift=1 / GAMMA, n_jobs=2)
        remote = DaskKernelOperator(RBF(SIGMA2), X, shift=1 / GAMMA)
        remote(V[:, :1])  # warm-up: the workers import lssvm
        times = {"threaded": [], "dask": []}
        for _ in range(args.repeats):
            for name, op in (("threaded", threaded), ("dask", remote)):
                t0 = time.perf_counter()
                out = op(V)
                times[name].append(time.perf_counter() - t0)
                if name == "threaded":
                    ref = out
                else:
                    product_diff = float(np.max(np.abs(out - ref))
                                         / np.max(np.abs(ref)))
        product = {k: float(np.median(v)) for k, v in times.items()}
        print(f"N={args.n} product: threaded {product['threaded']:.2f} s, Dask "
              f"{product['dask']:.2f} s (medians of {args.repeats}), relative "
              f"difference {product_diff:.1e}", flush=True)

        fits = {}
        for name in ("threaded", "dask"):
            t0 = time.perf_counter()
            if name == "threaded":
                clf = LSSVMClassifier(n_jobs=2, **params).fit(X, y)
            else:
                clf = LSSVMClassifier(**params).fit(
                    da.from_array(X, chunks=(10_000, -1)),
                    da.from_array(y, chunks=10_000))
            fits[name] = dict(seconds=time.perf_counter() - t0, model=clf)
            print(f"  fit {name}: {fits[name]['seconds']:.1f} s, {clf.n_iter_} "
                  "iterations", flush=True)
        a, b = fits["threaded"]["model"], fits["dask"]["model"]
        pred_a, pred_b = a.predict(X_test), b.predict(X_test)
        result = dict(
            n_samples=args.n, n_features=N_FEATURES, sigma2=SIGMA2, gamma=GAMMA,
            tol=TOL,
            data="lssvm.datasets.xor_sine, seed 0; test: 20,000 points, seed 1000",
            cluster="LocalCluster: 2 worker processes x 1 thread, 2 GB each",
            n_blocks=remote.n_blocks, repeats=args.repeats,
            product_seconds=times, product_median_seconds=product,
            product_overhead_ratio=product["dask"] / product["threaded"],
            product_relative_difference=product_diff,
            fit_seconds={k: v["seconds"] for k, v in fits.items()},
            fit_overhead_ratio=fits["dask"]["seconds"] / fits["threaded"]["seconds"],
            n_iter={"threaded": int(a.n_iter_), "dask": int(b.n_iter_)},
            alpha_relative_difference=float(
                np.max(np.abs(a.alpha_ - b.alpha_)) / np.max(np.abs(a.alpha_))),
            b_difference=float(np.max(np.abs(np.asarray(a.b_) - np.asarray(b.b_)))),
            test_agreement=float(np.mean(pred_a == pred_b)),
            test_accuracy={"threaded": float(np.mean(pred_a == y_test)),
                           "dask": float(np.mean(pred_b == y_test))},
            versions=dict(dask=dask.__version__, distributed=distributed.__version__),
        )
    print(f"overhead: product {result['product_overhead_ratio']:.2f}x, fit "
          f"{result['fit_overhead_ratio']:.2f}x; iterations {result['n_iter']}; alpha "
          f"difference {result['alpha_relative_difference']:.1e}", flush=True)
    out = Path(args.out)
    save_json(out, result, [sys.argv[0], *argv])
    print(f"-> {out}")


if __name__ == "__main__":
    main()
