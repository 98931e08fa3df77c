"""Fixed-size LS-SVM by preconditioned CG at N = 10^6: m = 10,000 against m = 1000.

Run from the repository root (one BLAS thread, one worker; about 20-30 minutes)::

    python benchmarks/bench_fixed_size_million.py --parts floor,m1000,m10000

Data: ``lssvm.datasets.xor_sine`` with 10 inputs, N = 10^6 training points (seed
0) and 100,000 test points (seed 1000); RBF sigma2 = 10, gamma = 1 (the fixed-size
chapter's settings); prototypes drawn uniformly (random_state 0), tol 1e-8.

Parts (each in its own process, so that its peak memory is its own):

- floor: per row block of 4096 x m (the solver's chunk), the median seconds of
  numpy's ``exp`` over the block's entries (the floor of any matrix-free product)
  and of the solver's work on the block (the RBF kernel block, K alpha + b and
  K^T f), for m = 1000 and 10,000; their ratio is the cost of one PCG iteration
  against ``exp`` over the N x m kernel entries.
- m1000, m10000: ``FixedSizeLSSVMClassifier(n_prototypes=m, solver="pcg")``: fit
  seconds, PCG iterations, test accuracy, peak resident memory of the process
  (``ru_maxrss``).

scikit-learn's Nystroem + RidgeClassifier at m = 10,000 needs the N x m feature
matrix (10^6 x 10^4 float64 = 80 GB): it does not fit, and is not run.

Results: ``benchmarks/results/fixed_size_million.json`` (parts merged; every pass
stamped with its machine by ``_common.stamp``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import stamp  # noqa: E402

SIGMA2, GAMMA, N_FEATURES, N, N_TEST, TOL, CHUNK = 10.0, 1.0, 10, 10**6, 10**5, 1e-8, 4096
OUT = ROOT / "benchmarks" / "results" / "fixed_size_million.json"


def data(n, seed):
    from lssvm.datasets import xor_sine

    return xor_sine(n, n_features=N_FEATURES, random_state=seed)


def part_floor(blocks=15):
    """Median seconds per 4096 x m block: exp alone, and the solver's block work."""
    from lssvm.kernels import RBF

    X, _ = data(CHUNK * blocks, 0)
    rng = np.random.default_rng(0)
    rows = []
    for m in (1000, 10_000):
        Z = X[rng.choice(len(X), m, replace=False)]
        kern = RBF(sigma2=SIGMA2)
        alpha = rng.standard_normal((m, 1))
        t_exp, t_work = [], []
        for i in range(blocks):
            Xc = X[i * CHUNK:(i + 1) * CHUNK]
            D = rng.standard_normal((len(Xc), m))  # same shape, entries as -||x-z||^2/s
            t0 = time.perf_counter()
            np.exp(D, out=D)
            t_exp.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            Kc = kern(Xc, Z)  # the kernel block
            F = Kc @ alpha + 0.1  # K alpha + b
            Kc.T @ F  # K^T f
            t_work.append(time.perf_counter() - t0)
        exp_s, work_s = float(np.median(t_exp)), float(np.median(t_work))
        rows.append(dict(m=m, exp_seconds_per_block=exp_s, work_seconds_per_block=work_s,
                         ratio=work_s / exp_s, blocks=blocks, block_rows=CHUNK,
                         iteration_seconds_estimate=work_s * N / CHUNK))
        print(rows[-1], flush=True)
    return {"floor": rows}


def part_fit(m):
    from lssvm import FixedSizeLSSVMClassifier

    X, y = data(N, 0)
    X_test, y_test = data(N_TEST, 1000)
    t0 = time.perf_counter()
    est = FixedSizeLSSVMClassifier(
        n_prototypes=m, gamma=GAMMA, sigma2=SIGMA2, prototypes="random",
        random_state=0, solver="pcg", tol=TOL, n_jobs=1, chunk_size=CHUNK,
    ).fit(X, y)
    sec = time.perf_counter() - t0
    pred = est.predict(X_test)
    row = dict(m=m, seed=0, solver=est.solver_, fit_seconds=sec,
               n_iter=int(np.max(est.n_iter_)), accuracy=float(np.mean(pred == y_test)),
               peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
               correct=(pred == y_test).astype(np.int8).tobytes().hex())
    print({k: v for k, v in row.items() if k != "correct"}, flush=True)
    return {f"m{m}": row}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="floor,m1000,m10000")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one part in this process: print its JSON
        out = part_floor() if args.child == "floor" else part_fit(int(args.child[1:]))
        print("RESULT " + json.dumps(out), flush=True)
        return
    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    for part in args.parts.split(","):
        proc = subprocess.run([sys.executable, __file__, "--child", part],
                              capture_output=True, text=True, check=True)
        sys.stdout.write(proc.stdout)
        line = [s for s in proc.stdout.splitlines() if s.startswith("RESULT ")][-1]
        results.update(json.loads(line[len("RESULT "):]))
        stamp(results)
        OUT.write_text(json.dumps(results, indent=1))
    if "m1000" in results and "m10000" in results:
        a = np.frombuffer(bytes.fromhex(results["m1000"]["correct"]), np.int8)
        b = np.frombuffer(bytes.fromhex(results["m10000"]["correct"]), np.int8)
        d = b.astype(float) - a
        results["gain_points"] = 100 * float(d.mean())
        results["gain_se_points"] = 100 * float(d.std(ddof=1) / np.sqrt(len(d)))
        stamp(results)
        OUT.write_text(json.dumps(results, indent=1))
        print("gain of m = 10,000 over m = 1000: "
              f"{results['gain_points']:.2f} +- {results['gain_se_points']:.2f} points")


if __name__ == "__main__":
    main()
