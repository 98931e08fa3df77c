"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<name>.py``).

- the one writer of ``benchmarks/results/``: :func:`save_json` (a results file, with
  this pass's provenance, :func:`stamp`) and :func:`save_figure` (a PNG figure, with
  the provenance in its metadata), and :func:`open_results` to resume a results file
  under :data:`TABLE_PROTOCOL`;
- provenance: :func:`provenance` (command, date, commit, versions, BLAS, machine,
  wall time; its fields :data:`PROVENANCE_FIELDS`, :data:`MACHINE_FIELDS`),
  :func:`stamp`, :func:`print_environment`;
- measuring: :func:`timed` (a wall time after an idle gap), :func:`peak_rss_mb` (this
  process's peak resident memory) and :func:`in_child` (a case run in a fresh
  process, so that its peak memory is its own); :func:`progress` (an optional tqdm
  bar).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import shlex
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_info

from lssvm.reporting.ledger import describe_machine, machine

#: Fields every entry of a results file's "provenance" list carries
#: (``tests/test_results_provenance.py`` checks them).
PROVENANCE_FIELDS = (
    "command", "date", "commit", "python", "numpy", "scipy", "scikit-learn", "lssvm",
    "blas", "blas_threads", "wall_seconds",
)  # fmt: skip
#: Machine fields every entry written since 2026-11-26 carries (CPU model, cores, SIMD).
MACHINE_FIELDS = ("cpu", "cores", "cpu_count", "simd", "machine_text")
# When this process started (the scripts import this module first): a pass's wall time.
_STARTED = time.perf_counter()
_STARTED_AT = datetime.now(timezone.utc).isoformat(timespec="seconds")
_ROOT = Path(__file__).resolve().parents[1]


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


def pack_mask(mask) -> str:
    """A boolean vector (e.g. which test points a model got right) as compact text:
    base64 of its bits, 8 per byte (one hex byte per point took 16 times more)."""
    import base64

    return base64.b64encode(np.packbits(np.asarray(mask, dtype=bool))).decode("ascii")


def unpack_mask(text: str, n: int) -> np.ndarray:
    """The n booleans that :func:`pack_mask` wrote."""
    import base64

    bits = np.unpackbits(np.frombuffer(base64.b64decode(text), dtype=np.uint8))
    return bits[:n].astype(bool)


def peak_rss_mb():
    """Peak resident memory of this process so far, in MiB.

    Linux: the high-water mark ``VmHWM`` of ``/proc/self/status`` (KiB / 1024), this
    process's own. ``ru_maxrss`` is the fallback where there is no ``/proc`` (KiB on
    Linux, bytes on macOS); on Linux it is not used because a process started by fork
    + exec (a "spawn" child, :func:`in_child`) inherits in it the resident size its
    parent had at the fork.
    """
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        status = ""
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource  # POSIX only: not at the top, so that Windows imports this module

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def in_child(fn, *args):
    """``fn(*args)`` run in a fresh process ("spawn"), and its return value.

    A case run there starts from a bare interpreter, so its :func:`peak_rss_mb` counts
    that case only (plus the interpreter and its imports), not what the parent or an
    earlier case allocated. ``fn`` must be importable (defined at the top level of a
    module, which may be the script run as ``__main__``); the arguments and the result
    must pickle. An exception in the child is raised here; a child killed by the
    system (out of memory) raises ``concurrent.futures.process.BrokenProcessPool``
    instead of waiting for ever.
    """
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(fn, *args).result()


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


def _git_commit():
    """HEAD of the repository, "+dirty" when tracked files differ from it."""
    try:
        run = dict(cwd=_ROOT, capture_output=True, text=True, timeout=10, check=True)
        head = subprocess.run(["git", "rev-parse", "HEAD"], **run).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], **run
        ).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown (not a git checkout)"


def provenance(argv=None):
    """This process's provenance: command, date, commit, versions, BLAS, wall time.

    ``argv`` defaults to ``sys.argv``; the command is given relative to the
    repository root. ``wall_seconds`` counts from the import of this module, which
    every benchmark script does first.
    """
    import lssvm

    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve() if argv else None
    if script is not None and script.is_relative_to(_ROOT):
        argv[0] = str(script.relative_to(_ROOT))
    blas = [
        lib for lib in threadpool_info() if lib["user_api"] == "blas"
    ]  # numpy's and scipy's own OpenBLAS
    return {
        "command": "python " + shlex.join(argv),
        "date": _STARTED_AT,
        "commit": _git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "lssvm": getattr(lssvm, "__version__", "unknown"),
        "blas": [
            f"{lib['internal_api']} {lib['version']} "
            f"({lib['filepath'].rsplit('/', 1)[-1]})"
            for lib in blas
        ],
        "blas_threads": sorted({lib["num_threads"] for lib in blas}),
        "thread_env": {
            k: os.environ.get(k, "unset")
            for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
        },
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        # CPU model, cores, SIMD level and BLAS kernel: a time means nothing without them
        **{k: v for k, v in machine().items() if k not in ("blas", "blas_threads")},
        "machine_text": describe_machine(),
        "wall_seconds": round(time.perf_counter() - _STARTED, 1),
    }


def stamp(results, argv=None):
    """Record this pass in ``results["provenance"]`` (a list, one entry per pass).

    A resumable file is written by several passes; each keeps its own entry, and
    saving again during the same pass updates that entry (its wall time grows).
    """
    entry = provenance(argv)
    if isinstance(results.get("provenance"), dict):  # an older single-pass record
        results["provenance"] = [results["provenance"]]
    passes = results.setdefault("provenance", [])
    if passes and passes[-1].get("date") == entry["date"] and (
        passes[-1].get("command") == entry["command"]
    ):
        passes[-1] = entry
    else:
        passes.append(entry)
    return results


#: The protocol of the table reproductions: a shrinking grid search with
#: 10-fold CV, a stratified test part of ceil(N/3) points, standardised inputs.
TABLE_PROTOCOL = {
    "search": "shrinking", "cv": 10, "test_size": "ceil(N/3)", "stratified": True,
    "standardized": True,
}  # fmt: skip


def open_results(out, seed, *, n_rand=None, paper=None, **protocol):
    """The results of a resumable run: ``out``'s contents (or a new dict), with its
    protocol refreshed and this machine recorded. Returns (results, runs), ``runs``
    being ``results["runs"]`` (data set -> variant -> per-split lists).

    A subset run merges into the existing file; a file run with another ``seed`` is
    refused (its splits differ). The protocol is ``seed`` (and ``n_rand`` when given),
    :data:`TABLE_PROTOCOL` and the keyword arguments; ``paper`` (the source's table)
    is stored under ``"paper"`` when given.
    """
    out = Path(out)
    results = json.loads(out.read_text()) if out.exists() else {}
    stored = results.get("protocol", {}).get("seed", seed)
    if stored != seed:
        raise ValueError(f"{out} was run with seed {stored}, not {seed}.")
    if paper is not None:
        results["paper"] = paper
    head = {"seed": seed} if n_rand is None else {"n_rand": n_rand, "seed": seed}
    results["protocol"] = {**results.get("protocol", {}), **head, **TABLE_PROTOCOL,
                           **protocol}
    results["machine"] = describe_machine()
    return results, results.setdefault("runs", {})


def save_json(out, results, argv=None, *, stamp_pass=True):
    """Write a results file: the one writer of ``benchmarks/results/``.

    Records this pass's provenance first (:func:`stamp` with ``argv``; pass
    ``stamp_pass=False`` when the caller stamped already, e.g. to annotate its entry),
    then writes ``json.dumps(results, indent=1)`` and a newline to a temporary file
    that replaces ``out``, so an interrupted run never leaves half a file. Called after
    every data set or split by the long scripts, so a run can be resumed.
    """
    if stamp_pass:
        stamp(results, argv)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(results, indent=1) + "\n")
    tmp.replace(out)
    return out


#: The PNG text key under which :func:`save_figure` stores the provenance list.
FIGURE_PROVENANCE_KEY = "provenance"


def save_figure(out, fig, argv=None, *, passes=None, dpi=80):
    """Write a matplotlib figure as a PNG into ``benchmarks/results/``, with provenance.

    The figure's counterpart of :func:`save_json`: the list of provenance entries
    (``passes``, e.g. the one the script stamped into its results file, else this
    pass's :func:`provenance` with ``argv``) is stored as JSON in the PNG's text
    metadata under :data:`FIGURE_PROVENANCE_KEY` (read it with
    ``PIL.Image.open(out).text["provenance"]``). Written to a temporary file that
    replaces ``out``, so an interrupted run never leaves half a file.
    """
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise ValueError(f"save_figure: out must be a .png file; got out={out}")
    if passes is None:
        passes = [provenance(argv)]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    fig.savefig(tmp, format="png", dpi=dpi,
                metadata={FIGURE_PROVENANCE_KEY: json.dumps(passes)})  # fmt: skip
    tmp.replace(out)
    return out
