"""Fixed-size LS-SVM benchmarks: accuracy against m, scale, scikit-learn, Dask.

Run from the repository root (each part can be run alone)::

    python benchmarks/bench_fixed_size.py [--parts accuracy,scale,sklearn,dask]

Data: ``lssvm.datasets.xor_sine`` (10 inputs, labels sign(x1 x2 + sin(2 x3)/2)
flipped with probability 0.1, Bayes accuracy 0.90), RBF kernel sigma2 = 10,
gamma = 1 (chosen by the closed-form 5-fold CV of the fixed-size model on a
separate 10,000-point draw; the exact LS-SVM uses the same values).

- accuracy: N = 20,000 training points, 20,000 test points, seeds 0-4 (data seed =
  prototype seed): test accuracy of the fixed-size classifier for m in M_GRID with
  entropy and random prototypes, and of the exact LS-SVM (matrix-free CG). Then
  N = 50,000 (seeds 0-2, 50,000 test points): m = 1000 entropy against the exact
  LS-SVM (target: within 0.3 points).
- close_gap (``--parts close_gap``): the same N = 50,000 seeds with m = 2000 and
  4000 entropy prototypes at gamma = 1, and m = 1000 and 2000 with gamma chosen by
  the closed-form leave-one-out error (``cv="loo"``) from LOO_GAMMAS.
- scale: N = 10^6, m = 1000, fit in a fresh process (2 threads over chunks): fit
  seconds, peak RSS (VmHWM), test accuracy on 100,000 points. Targets < 60 s, < 2 GB.
- sklearn: N = 200,000, m = 1000, the same prototypes: ``Nystroem(n_components=m)``
  fitted on them + ``RidgeClassifier(alpha=1/gamma)`` (2 BLAS threads) against ours,
  each in a fresh process: fit seconds, peak RSS, test accuracy, agreement.
- dask: N = 10^7 (``--dask-n``) generated lazily block by block on a two-worker
  LocalCluster (1 thread, 2 GB each), m = 500 (``--dask-m``): fit seconds, the peak
  RSS of each worker, test accuracy on 100,000 points. ``dask1000``: the same with
  m = 1000.

Results: ``benchmarks/results/fixed_size.json`` with the command, date, commit,
versions and wall time of the run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
from benchmarks._common import in_child, peak_rss_mb, save_json  # noqa: E402

SIGMA2, GAMMA, N_FEATURES = 10.0, 1.0, 10
M_GRID = [25, 50, 100, 200, 400, 800, 1600]
SEEDS = [0, 1, 2, 3, 4]


def data(n, seed):
    from lssvm.datasets import xor_sine

    return xor_sine(n, n_features=N_FEATURES, random_state=seed)


def test_data(n, seed):
    return data(n, 1000 + seed)


def fixed_size(m, prototypes, seed, **kw):
    from lssvm import FixedSizeLSSVMClassifier

    kw.setdefault("solver", "normal")  # the stored runs used the normal equations
    return FixedSizeLSSVMClassifier(n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2,
                                    prototypes=prototypes, random_state=seed, **kw)


def exact_accuracy(X, y, X_test, y_test):
    from lssvm import LSSVMClassifier

    t0 = time.perf_counter()
    clf = LSSVMClassifier(gamma=GAMMA, sigma2=SIGMA2, solver="cg", tol=1e-8).fit(X, y)
    seconds = time.perf_counter() - t0
    return float(clf.score(X_test, y_test)), seconds, int(clf.n_iter_)


def part_accuracy(n=20_000, n_test=20_000, seeds=SEEDS, m_grid=M_GRID):
    rows = []
    for seed in seeds:
        X, y = data(n, seed)
        X_test, y_test = test_data(n_test, seed)
        acc, sec, it = exact_accuracy(X, y, X_test, y_test)
        rows.append(dict(seed=seed, method="exact", m=n, accuracy=acc, seconds=sec,
                         n_iter=it))
        print(f"N={n} seed {seed}: exact {acc:.4f} ({sec:.1f} s, {it} it)", flush=True)
        for method in ("entropy", "random"):
            for m in m_grid:
                t0 = time.perf_counter()
                est = fixed_size(m, method, seed, n_jobs=2).fit(X, y)
                sec = time.perf_counter() - t0
                acc = float(est.score(X_test, y_test))
                rows.append(dict(seed=seed, method=method, m=m, accuracy=acc,
                                 seconds=sec))
                print(f"  {method:>7} m={m:>5}: {acc:.4f} ({sec:.1f} s)", flush=True)
    return rows


def part_accuracy_50k():
    return part_accuracy(n=50_000, n_test=50_000, seeds=[0, 1, 2], m_grid=[1000])


LOO_GAMMAS = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]


def part_close_gap(seeds=(0, 1, 2), m_grid=(2000, 4000)):
    """N = 50,000: does a larger m, or gamma tuned by closed-form LOO, close the gap?

    The exact LS-SVM's accuracies are those of ``accuracy50k`` (same data and seeds,
    gamma = 1); tuning sees the training data only.
    """
    rows = []
    for seed in seeds:
        X, y = data(50_000, seed)
        X_test, y_test = test_data(50_000, seed)
        cases = [(m, GAMMA, "entropy") for m in m_grid]
        cases += [(m, LOO_GAMMAS, "entropy") for m in (1000, 2000)]
        for m, gamma, method in cases:
            t0 = time.perf_counter()
            est = fixed_size(m, method, seed, n_jobs=2,
                             **({"cv": "loo"} if isinstance(gamma, list) else {}))
            est.set_params(gamma=gamma).fit(X, y)
            sec = time.perf_counter() - t0
            acc = float(est.score(X_test, y_test))
            tuned = isinstance(gamma, list)
            rows.append(dict(seed=seed, method=method, m=m, tuned=tuned,
                             gamma=est.gamma_, accuracy=acc, seconds=sec,
                             loo_errors=None if not tuned else est.cv_errors_.tolist()))
            print(f"N=50000 seed {seed} m={m} {'LOO' if tuned else 'fixed'} gamma="
                  f"{est.gamma_:g}: {acc:.4f} ({sec:.1f} s)", flush=True)
    return rows


def scale_case(n, m, n_test):
    X, y = data(n, 0)
    X_test, y_test = test_data(n_test, 0)
    base = peak_rss_mb()
    t0 = time.perf_counter()
    est = fixed_size(m, "entropy", 0, n_jobs=2).fit(X, y)
    seconds = time.perf_counter() - t0
    peak = peak_rss_mb()
    return dict(n_samples=n, m=m, fit_seconds=seconds, peak_rss_mb=peak,
                base_rss_mb=base, data_mb=X.nbytes / 2**20,
                test_accuracy=float(est.score(X_test, y_test)), n_test=n_test)


def part_scale():
    out = in_child(scale_case, 1_000_000, 1000, 100_000)
    print(f"N=10^6, m=1000: fit {out['fit_seconds']:.1f} s, peak "
          f"{out['peak_rss_mb']:.0f} MB (data {out['data_mb']:.0f} MB), accuracy "
          f"{out['test_accuracy']:.4f}", flush=True)
    return out


def sklearn_case(which, n, m, n_test):
    from threadpoolctl import threadpool_limits

    X, y = data(n, 0)
    X_test, y_test = test_data(n_test, 0)
    # the same prototypes for both: the entropy selection of our estimator
    from lssvm.sparse.prototypes import draw_prototypes

    rng = np.random.default_rng(0)
    idx, Z = draw_prototypes(X, n, m, "entropy", SIGMA2, rng, lambda i: X[i])
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import RidgeClassifier
    from sklearn.pipeline import make_pipeline

    base = peak_rss_mb()
    t0 = time.perf_counter()
    if which == "ours":
        est = fixed_size(m, Z, 0, n_jobs=2).fit(X, y)
        predict = est.predict
    else:
        with threadpool_limits(2):
            est = make_pipeline(
                Nystroem(kernel="rbf", gamma=1 / SIGMA2, n_components=m,
                         random_state=0).fit(Z),
                RidgeClassifier(alpha=1 / GAMMA),
            )
            Phi = est[0].transform(X)  # the N x m feature matrix
            est[1].fit(Phi, y)
            del Phi
        predict = est.predict
    seconds = time.perf_counter() - t0
    peak = peak_rss_mb()
    pred = predict(X_test)
    return dict(which=which, n_samples=n, m=m, fit_seconds=seconds, peak_rss_mb=peak,
                base_rss_mb=base, test_accuracy=float(np.mean(pred == y_test)),
                predictions=pred.tolist())


def part_sklearn(n=200_000, m=1000, n_test=20_000):
    ours = in_child(sklearn_case, "ours", n, m, n_test)
    theirs = in_child(sklearn_case, "sklearn", n, m, n_test)
    agree = float(np.mean(np.array(ours.pop("predictions"))
                          == np.array(theirs.pop("predictions"))))
    out = dict(ours=ours, sklearn=theirs, agreement=agree,
               ratio=theirs["fit_seconds"] / ours["fit_seconds"],
               feature_matrix_mb=8 * n * m / 2**20)
    print(f"N={n}, m={m}: ours {ours['fit_seconds']:.1f} s {ours['peak_rss_mb']:.0f} MB "
          f"acc {ours['test_accuracy']:.4f}; sklearn {theirs['fit_seconds']:.1f} s "
          f"{theirs['peak_rss_mb']:.0f} MB acc {theirs['test_accuracy']:.4f}; ratio "
          f"{out['ratio']:.2f}, agreement {agree:.4f}", flush=True)
    return out


def _block(block_info=None, part="X", chunk=0):
    """Rows of one block of the lazily generated data (seeded by the block index)."""
    from lssvm.datasets import xor_sine

    info = block_info[None]
    i = info["chunk-location"][0]
    rows = info["chunk-shape"][0]
    X, y = xor_sine(rows, n_features=N_FEATURES, random_state=[7, i])
    return X if part == "X" else y


def lazy_data(n, chunk):
    """(X, y) as Dask arrays of n rows in blocks of ``chunk``, generated on the workers
    (:func:`_block`, seeded by the block index)."""
    import dask.array as da

    chunks = ((chunk,) * (n // chunk) + ((n % chunk,) if n % chunk else ()),)
    X = da.map_blocks(_block, dtype=np.float64, chunks=(chunks[0], (N_FEATURES,)),
                      part="X")
    y = da.map_blocks(_block, dtype=np.int64, chunks=chunks, part="y")
    return X, y


def local_cluster():
    """The benchmarks' stand-in cluster: 2 worker processes, 1 thread and 2 GB each."""
    from distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                        dashboard_address=None, memory_limit="2GB")


def part_dask(n, m, chunk=250_000, n_test=100_000):
    from distributed import Client

    X, y = lazy_data(n, chunk)
    X_test, y_test = test_data(n_test, 0)
    with local_cluster() as cluster, Client(cluster) as client:
        t0 = time.perf_counter()
        est = fixed_size(m, "entropy", 0, chunk_size=4096).fit(X, y)
        seconds = time.perf_counter() - t0
        peaks = client.run(peak_rss_mb)
        acc = float(np.mean(est.predict(X_test) == y_test))
    out = dict(n_samples=n, m=m, dask_chunk_rows=chunk, fit_seconds=seconds,
               worker_peak_rss_mb=sorted(peaks.values()), test_accuracy=acc,
               n_test=n_test, workers=2, memory_limit="2GB", threads_per_worker=1)
    print(f"Dask N={n}, m={m}: fit {seconds:.1f} s, worker peaks "
          f"{[round(p) for p in out['worker_peak_rss_mb']]} MB, accuracy {acc:.4f}",
          flush=True)
    return out


def provenance(argv, wall):
    import dask
    import distributed
    import scipy
    import sklearn

    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    return dict(command="python benchmarks/bench_fixed_size.py " + " ".join(argv),
                date=datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"),
                commit=commit, wall_seconds=wall, cpu_count=os.cpu_count(),
                machine=f"{platform.machine()}, Python {platform.python_version()}",
                versions=dict(numpy=np.__version__, scipy=scipy.__version__,
                              sklearn=sklearn.__version__, dask=dask.__version__,
                              distributed=distributed.__version__))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="accuracy,accuracy50k,scale,sklearn,dask")
    parser.add_argument("--dask-n", type=int, default=10_000_000)
    parser.add_argument("--dask-m", type=int, default=500)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/fixed_size.json"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    results = json.loads(out.read_text()) if out.exists() else {}
    settings = dict(sigma2=SIGMA2, gamma=GAMMA, n_features=N_FEATURES,
                    data="lssvm.datasets.xor_sine (Bayes accuracy 0.90)")
    t0 = time.perf_counter()
    runs = {
        "accuracy": part_accuracy,
        "accuracy50k": part_accuracy_50k,
        "close_gap": part_close_gap,
        "scale": part_scale,
        "sklearn": part_sklearn,
        "dask": lambda: part_dask(args.dask_n, args.dask_m),
        "dask1000": lambda: part_dask(args.dask_n, 1000),
    }
    for part in args.parts.split(","):
        start = time.perf_counter()
        results[part] = runs[part]()
        results.setdefault("part_provenance", {})[part] = provenance(
            argv, time.perf_counter() - start)
        results["settings"] = settings
        save_json(out, results, [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"total {time.perf_counter() - t0:.0f} s -> {out}")


if __name__ == "__main__":
    main()
