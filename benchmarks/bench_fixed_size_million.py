"""Fixed-size LS-SVM by preconditioned CG at N = 10^6: m = 10,000 against m = 1000.

Run from the repository root (a 16-core machine with 128 GB: about 4-5 minutes,
estimated below)::

    python benchmarks/bench_fixed_size_million.py --parts floor,m1000,m10000 \\
        --tol 1e-3 --n-jobs 16

Data: ``lssvm.datasets.xor_sine`` with 10 inputs, N = 10^6 training points (seed
0) and 100,000 test points (seed 1000); RBF sigma2 = 10, gamma = 1 (the fixed-size
chapter's settings); prototypes drawn uniformly (random_state 0).

Options: ``--tol``, the CG tolerance of m1000 and m10000 (default 1e-3, the
tolerance chosen by the part tol); ``--n-jobs``, threads over the row chunks of
each CG pass (the result does not depend on it) and BLAS threads of the m x m
eigendecomposition of the prototypes' kernel matrix (whose rounding may);
``--blocks``, row blocks timed by the part floor. Each pass records them.

Parts (each in its own process, so that its peak memory is its own):

- floor (one thread): per row block of 4096 x m (the solver's chunk), the median
  seconds of numpy's ``exp`` over the block's entries (the floor of any
  matrix-free product) and of the solver's work on the block (the RBF kernel
  block, K alpha + b and K^T f) for m = 1000 and 10,000: "before" is the code
  before the tiled pass (``kernel(X_c, Z)``, then two products over the whole
  block), "computed" the solver's pass with its default tile (kernel tile by one
  matrix product and ``exp`` in place, both products while the tile is in cache),
  "stored" the same products from kernel blocks kept in memory (``store_kernel``),
  "distances" the tiles' distance GEMM alone (no ``exp``, no products), and the
  computed pass for other tile sizes. Their ratio to ``exp`` is the cost of
  one PCG iteration against ``exp`` over the N x m kernel entries. Also the largest
  relative difference between the two products.
- m1000, m10000: ``FixedSizeLSSVMClassifier(n_prototypes=m, solver="pcg")``: fit
  seconds, PCG iterations, test accuracy, peak resident memory of the process
  (``VmHWM``, :func:`benchmarks._common.peak_rss_mb`; the stored m1000 and
  m10000 runs read ``ru_maxrss`` of the child process, started by a parent of
  about 160 MB), whether the kernel blocks were stored.
- dask10m: N = 10^7 on a two-worker ``LocalCluster`` (1 thread and 2 GB each; data
  generated on the workers), m = 5000 random prototypes, ``solver="pcg"`` at
  ``--tol``: fit seconds, iterations, the workers' and the client's peak memory
  (VmHWM), test accuracy on the test points of m1000 and m10000.
- tol: the tolerance study at N = 10^5 (``--tol-n``; test N = 10^5, m = 1000,
  seeds ``--seeds``: training seed s, test seed 1000 + s, prototypes random_state
  s): iterations and test accuracy for tol = 1e-2 ... 1e-8. The tolerance chosen
  (the default of ``--tol``) is the loosest one whose accuracy equals that of
  tol = 1e-8 within 0.05 points on every seed, among 1e-3 ... 1e-8 (the grid
  studied first; 1e-2 is shown outside the rule).
- iters: the residual history of the tol = 1e-8 fit (m = 1000, seed 0) at N =
  10^5, 2 10^5 and 4 10^5: the iterations each tol takes, against N.

Estimated time of the command above on a 16-core machine, from the one-thread
timings of the parts floor and iters on a 2-core AMD EPYC (AVX-512; assuming 16
cores of that speed, and chunks spread evenly over 16 threads): floor (15 blocks)
under a minute; m1000: the kernel blocks are stored (8 GB), a pass costs 0.46 s of
one core (0.03-0.1 s on 16, bound by memory bandwidth), and tol 1e-3 took 31, 41 and
46 iterations at N = 10^5, 2 10^5 and 4 10^5 (about 60 at 10^6 by extrapolation, not
measured): under a minute with the data and the prediction; m10000: the 80 GB of
blocks do not fit in half of the memory, so each pass computes them, 13.5 s of one
core, 0.85 s on 16; with up to 150 iterations about 2 minutes, plus the
eigendecomposition of the 10^4 x 10^4 prototype kernel matrix (16 BLAS threads; not
measured, assumed about a minute) and the prediction (10^9 kernel values, a few
seconds). In all about 4-5 minutes, under 8 unless m = 10,000 needs more than about
250 iterations. Peak memory: about 9 GB (the stored blocks at m = 1000; at m =
10,000 about 6 m^2 float64 = 4.8 GB, and 15 blocks of 4096 x 10^4 = 4.9 GB in the
part floor). BLAS threads are set to ``--n-jobs`` only where OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are unset.

scikit-learn's Nystroem + RidgeClassifier at m = 10,000 needs the N x m feature
matrix (10^6 x 10^4 float64 = 80 GB): it is not run.

Results: ``benchmarks/results/fixed_size_million_v2.json`` (parts merged; every
pass stamped with its machine by ``_common.stamp``); the results of the code
before the tiled pass (tol 1e-8, one thread) stay in ``fixed_size_million.json``.
"""

from __future__ import annotations

import os
import sys


def _n_jobs_from_argv(argv):
    for i, arg in enumerate(argv):
        if arg == "--n-jobs" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--n-jobs="):
            return arg.split("=", 1)[1]
    return "1"


# BLAS threads before numpy loads: n_jobs for the m x m eigendecomposition (the CG
# passes limit themselves to one BLAS thread per chunk)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, _n_jobs_from_argv(sys.argv))

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
from benchmarks._common import peak_rss_mb, save_json  # noqa: E402

SIGMA2, GAMMA, N_FEATURES, N, N_TEST, CHUNK = 10.0, 1.0, 10, 10**6, 10**5, 4096
TOL = 1e-3  # the tolerance chosen by the part tol
TOLS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)
RULE_TOLS = TOLS[1:]  # the default is chosen among these
N_TOL_STUDY, M_TOL_STUDY = 10**5, 1000
TILES = (16, 32, 64, 128, 256, 512, 1024)
OUT = ROOT / "benchmarks" / "results" / "fixed_size_million.json"


def data(n, seed):
    from lssvm.datasets import xor_sine

    return xor_sine(n, n_features=N_FEATURES, random_state=seed)


def part_floor(blocks=15, ms=(1000, 10_000), tiles=TILES):
    """Median seconds per 4096 x m block: exp alone, the work before and after."""
    from threadpoolctl import threadpool_limits

    from lssvm.kernels import RBF
    from lssvm.sparse.nystrom_pcg import _chunk_products, _KernelTiles

    X, _ = data(CHUNK * blocks, 0)
    rng = np.random.default_rng(0)
    rows = []
    for m in ms:
        Z = X[rng.choice(len(X), m, replace=False)]
        kern = RBF(sigma2=SIGMA2)
        alpha = rng.standard_normal((m, 1))
        tiler = _KernelTiles(kern, Z, CHUNK)
        default_tile = tiler.rows
        chunks = [X[i * CHUNK:(i + 1) * CHUNK] for i in range(blocks)]
        t = {key: [] for key in ("exp", "before", "computed", "stored", "distances")}
        t_tile = {r: [] for r in tiles}
        rel_diff = 0.0
        with threadpool_limits(limits=1, user_api="blas"):
            stored = [np.empty((CHUNK, m)) for _ in chunks]  # kept blocks
            for Xc, keep in zip(chunks, stored):
                _chunk_products(tiler, Xc, None, None, alpha, 0.1, keep=keep)
            for Xc, Kc in zip(chunks, stored):
                D = rng.standard_normal((len(Xc), m))  # entries like -||x-z||^2/s
                t0 = time.perf_counter()
                np.exp(D, out=D)
                t["exp"].append(time.perf_counter() - t0)
                del D
                t0 = time.perf_counter()
                K = kern(Xc, Z)  # before: the whole kernel block,
                F = K @ alpha + 0.1  # K alpha + b
                before = K.T @ F  # and K^T f, each a pass over the block
                t["before"].append(time.perf_counter() - t0)
                del K, F
                tiler.rows = default_tile
                t0 = time.perf_counter()
                after = _chunk_products(tiler, Xc, None, None, alpha, 0.1)
                t["computed"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                _chunk_products(tiler, None, None, None, alpha, 0.1, Kc=Kc)
                t["stored"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()  # the distance product of each tile alone
                Xa, buf = tiler._augment(Xc), np.empty((tiler.rows, m))
                for i in range(0, len(Xc), tiler.rows):
                    Xt = Xa[i:i + tiler.rows]
                    np.matmul(Xt, tiler.ZaT, out=buf[:len(Xt)])
                t["distances"].append(time.perf_counter() - t0)
                del Xa, buf
                rel_diff = max(rel_diff, float(np.max(np.abs(after[:-1] - before))
                                               / np.max(np.abs(before))))
                for r in tiles:
                    if r * m * 8 > 2**26:  # tiles over 64 MiB: beyond any cache
                        continue
                    tiler.rows = r
                    t0 = time.perf_counter()
                    _chunk_products(tiler, Xc, None, None, alpha, 0.1)
                    t_tile[r].append(time.perf_counter() - t0)
            del stored
        med = {key: float(np.median(v)) for key, v in t.items()}
        row = dict(m=m, blocks=blocks, block_rows=CHUNK, tile_rows=default_tile,
                   exp_seconds_per_block=med["exp"],
                   before_seconds_per_block=med["before"],
                   computed_seconds_per_block=med["computed"],
                   stored_seconds_per_block=med["stored"],
                   distances_seconds_per_block=med["distances"],
                   ratio_distances=med["distances"] / med["exp"],
                   ratio_before=med["before"] / med["exp"],
                   ratio_computed=med["computed"] / med["exp"],
                   ratio_stored=med["stored"] / med["exp"],
                   ratio_by_tile_rows={str(r): float(np.median(v)) / med["exp"]
                                       for r, v in t_tile.items() if v},
                   max_relative_difference=rel_diff,
                   iteration_seconds_estimate=med["computed"] * N / CHUNK,
                   iteration_seconds_estimate_stored=med["stored"] * N / CHUNK)
        rows.append(row)
        print(row, flush=True)
    return {"floor": rows}


def part_fit(m, tol, n_jobs):
    from lssvm import FixedSizeLSSVMClassifier

    X, y = data(N, 0)
    X_test, y_test = data(N_TEST, 1000)
    t0 = time.perf_counter()
    est = FixedSizeLSSVMClassifier(
        n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2, prototypes="random",
        random_state=0, solver="pcg", tol=tol, n_jobs=n_jobs, chunk_size=CHUNK,
    ).fit(X, y)
    sec = time.perf_counter() - t0
    pred = est.predict(X_test)
    row = dict(m=m, seed=0, solver=est.solver_, tol=tol, n_jobs=n_jobs,
               kernel_stored=bool(est.kernel_stored_), fit_seconds=sec,
               n_iter=int(np.max(est.n_iter_)), accuracy=float(np.mean(pred == y_test)),
               peak_rss_mb=peak_rss_mb(),
               correct=(pred == y_test).astype(np.int8).tobytes().hex())
    print({k: v for k, v in row.items() if k != "correct"}, flush=True)
    return {f"m{m}": row}


DASK_N, DASK_M, DASK_CHUNK = 10**7, 5000, 250_000


def part_dask(n=DASK_N, m=DASK_M, chunk=DASK_CHUNK, tol=TOL):
    """N = 10^7 by PCG on a two-worker LocalCluster (one thread, 2 GB each): the data
    generated on the workers block by block (``bench_fixed_size.lazy_data``), random
    prototypes, m = 5000; fit seconds, iterations, the workers' and the client's
    peak memory (VmHWM), test accuracy on the 100,000 test points of m1000/m10000."""
    from distributed import Client

    from benchmarks.bench_fixed_size import lazy_data, local_cluster
    from lssvm import FixedSizeLSSVMClassifier

    X, y = lazy_data(n, chunk)
    X_test, y_test = data(N_TEST, 1000)
    with local_cluster() as cluster, Client(cluster) as client:
        t0 = time.perf_counter()
        est = FixedSizeLSSVMClassifier(
            n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2, prototypes="random",
            random_state=0, solver="pcg", tol=tol, chunk_size=CHUNK).fit(X, y)
        sec = time.perf_counter() - t0
        peaks = client.run(peak_rss_mb)
    pred = est.predict(X_test)
    row = dict(n=n, m=m, solver=est.solver_, tol=tol, dask_chunk_rows=chunk,
               workers=2, threads_per_worker=1, memory_limit="2GB",
               fit_seconds=sec, n_iter=int(np.max(est.n_iter_)),
               accuracy=float(np.mean(pred == y_test)),
               worker_peak_rss_mb=sorted(peaks.values()),
               client_peak_rss_mb=peak_rss_mb())
    print(row, flush=True)
    return {"dask10m": row}


def part_tol(seed, n_jobs, n=N_TOL_STUDY):
    """Iterations and test accuracy against tol at N = n (one seed)."""
    from lssvm import FixedSizeLSSVMClassifier

    X, y = data(n, seed)
    X_test, y_test = data(N_TEST, 1000 + seed)
    rows = []
    for tol in TOLS:
        t0 = time.perf_counter()
        est = FixedSizeLSSVMClassifier(
            n_prototypes=M_TOL_STUDY, gamma=GAMMA, sigma2=SIGMA2, prototypes="random",
            random_state=seed, solver="pcg", tol=tol, n_jobs=n_jobs, chunk_size=CHUNK,
        ).fit(X, y)
        sec = time.perf_counter() - t0
        rows.append(dict(n=n, seed=seed, tol=tol, n_iter=int(np.max(est.n_iter_)),
                         accuracy=float(np.mean(est.predict(X_test) == y_test)),
                         fit_seconds=sec, kernel_stored=bool(est.kernel_stored_)))
        print(rows[-1], flush=True)
    return {f"tol_n{n}_seed{seed}": rows}


def part_iters(n, n_jobs):
    """The tol = 1e-8 fit's residual history at N = n (seed 0): iterations per tol."""
    from lssvm import FixedSizeLSSVMClassifier

    X, y = data(n, 0)
    t0 = time.perf_counter()
    est = FixedSizeLSSVMClassifier(
        n_prototypes=M_TOL_STUDY, gamma=GAMMA, sigma2=SIGMA2, prototypes="random",
        random_state=0, solver="pcg", tol=min(TOLS), n_jobs=n_jobs, chunk_size=CHUNK,
    ).fit(X, y)
    res = est.cg_residuals_[:, 0]
    row = dict(n=n, m=M_TOL_STUDY, seed=0, fit_seconds=time.perf_counter() - t0,
               kernel_stored=bool(est.kernel_stored_),
               n_iter_by_tol={repr(t): int(np.argmax(res <= t)) for t in TOLS},
               residuals=[float(r) for r in res])
    print({k: v for k, v in row.items() if k != "residuals"}, flush=True)
    return {f"iters_n{n}": row}


def tol_summary(results, n=N_TOL_STUDY):
    """Per tol: iterations and accuracy over the seeds at N = n, the chosen tol."""
    runs = [r for k, v in sorted(results.items())
            if k.startswith(f"tol_n{n}_seed") for r in v]
    if not runs:
        return None
    seeds = sorted({r["seed"] for r in runs})
    ref = {r["seed"]: r["accuracy"] for r in runs if r["tol"] == min(TOLS)}
    table = []
    for tol in TOLS:
        rs = [r for r in runs if r["tol"] == tol]
        acc = 100 * np.array([r["accuracy"] for r in rs])
        gap = 100 * np.array([r["accuracy"] - ref[r["seed"]] for r in rs])
        table.append(dict(tol=tol, n_seeds=len(rs), gap_points=gap.tolist(),
                          mean_gap_points=float(gap.mean()),
                          n_iter=[r["n_iter"] for r in rs],
                          accuracy_mean=float(acc.mean()),
                          accuracy_sd=float(acc.std(ddof=1)) if len(rs) > 1 else None,
                          max_abs_gap_points=float(np.max(np.abs(gap)))))
    ok = [row["tol"] for row in table
          if row["max_abs_gap_points"] <= 0.05 and row["tol"] in RULE_TOLS]
    return dict(n=n, seeds=seeds, rule="loosest tol in 1e-3 ... 1e-8 whose test "
                "accuracy equals that of tol = 1e-8 within 0.05 points on every seed",
                table=table,
                chosen=max(ok) if ok else None)


def _settings(part, args):
    """The options a part used (floor: one thread; tol, iters: their own tols)."""
    if part == "floor":
        return dict(blocks=args.blocks, n_jobs=1)
    if part.startswith("tol"):
        return dict(n=args.tol_n, tols=list(TOLS), n_jobs=args.n_jobs)
    if part.startswith("iters"):
        return dict(tols=list(TOLS), n_jobs=args.n_jobs)
    return dict(tol=args.tol, n_jobs=args.n_jobs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="floor,m1000,m10000",
                        help="comma-separated: floor, m1000, m10000, tol, iters, "
                             "dask10m")
    parser.add_argument("--tol", type=float, default=TOL,
                        help="CG tolerance of m1000, m10000")
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="threads over the row chunks of a CG pass (and BLAS "
                             "threads of the eigendecomposition)")
    parser.add_argument("--blocks", type=int, default=15,
                        help="row blocks timed by floor")
    parser.add_argument("--seeds", default="0,1,2", help="seeds of the part tol")
    parser.add_argument("--tol-n", type=int, default=N_TOL_STUDY,
                        help="training points of the part tol")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one part in this process: print its JSON
        if args.child == "floor":
            out = part_floor(args.blocks)
        elif args.child.startswith("iters"):
            out = part_iters(int(float(args.child[5:])), args.n_jobs)
        elif args.child == "dask10m":
            out = part_dask(tol=args.tol)
        elif args.child.startswith("tol"):
            out = part_tol(int(args.child[3:]), args.n_jobs, args.tol_n)
        else:
            out = part_fit(int(args.child[1:]), args.tol, args.n_jobs)
        print("RESULT " + json.dumps(out), flush=True)
        return
    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    parts = []
    for part in args.parts.split(","):
        if part == "tol":
            parts += [f"tol{s}" for s in args.seeds.split(",")]
        elif part == "iters":
            parts += [f"iters{n}" for n in (100_000, 200_000, 400_000)]
        else:
            parts.append(part)
    common = ["--tol", repr(args.tol), "--n-jobs", str(args.n_jobs),
              "--blocks", str(args.blocks), "--tol-n", str(args.tol_n)]
    for part in parts:
        proc = subprocess.run([sys.executable, __file__, "--child", part, *common],
                              capture_output=True, text=True, check=True)
        sys.stdout.write(proc.stdout)
        line = [s for s in proc.stdout.splitlines() if s.startswith("RESULT ")][-1]
        results.update(json.loads(line[len("RESULT "):]))
        results.setdefault("settings", {})[part] = _settings(part, args)
        for n in sorted({r["n"] for k, v in results.items()
                         if k.startswith("tol_n") for r in v}):
            results[f"tol_study_n{n}"] = tol_summary(results, n)
        save_json(OUT, results)
    if "m1000" in results and "m10000" in results:
        a = np.frombuffer(bytes.fromhex(results["m1000"]["correct"]), np.int8)
        b = np.frombuffer(bytes.fromhex(results["m10000"]["correct"]), np.int8)
        d = b.astype(float) - a
        results["gain_points"] = 100 * float(d.mean())
        results["gain_se_points"] = 100 * float(d.std(ddof=1) / np.sqrt(len(d)))
        save_json(OUT, results)
        print("gain of m = 10,000 over m = 1000: "
              f"{results['gain_points']:.2f} +- {results['gain_se_points']:.2f} points")
    for key in sorted(k for k in results if k.startswith("tol_study")):
        print(key, json.dumps(results[key]["table"]), "chosen", results[key]["chosen"])


if __name__ == "__main__":
    main()
