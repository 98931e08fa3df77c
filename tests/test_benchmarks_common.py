"""benchmarks/_common.py's process helpers: ``peak_rss_mb`` and ``in_child``, the one
copy the benchmark scripts use, and ``save_figure``, the writer of the figures in
``benchmarks/results/`` (the scripts themselves are not run here)."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import numpy as np
import pytest

from benchmarks import _common

ROOT = Path(__file__).resolve().parents[1]
MIB = 2**20


def _allocate_and_peak(mib):
    """(peak before, peak after) touching ``mib`` MiB in this process."""
    before = _common.peak_rss_mb()
    block = np.ones(mib * MIB // 8)  # written, so every page is resident
    after = _common.peak_rss_mb()
    del block
    return before, after


def _fail(message):
    raise ValueError(message)


def _status_mib(field):
    """A memory field of /proc/self/status ("VmHWM", "VmRSS") in MiB."""
    line = next(line for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith(field + ":"))
    return int(line.split()[1]) / 1024


LINUX = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")


def test_peak_rss_mb_is_a_float_in_mib():
    peak = _common.peak_rss_mb()
    assert isinstance(peak, float)
    # an interpreter with numpy, scipy and scikit-learn: tens of MiB, far below a TiB
    assert 10 < peak < 2**20, peak


@LINUX
def test_peak_rss_mb_reads_vmhwm():
    assert _common.peak_rss_mb() == pytest.approx(_status_mib("VmHWM"), abs=16)


@LINUX
def test_peak_rss_mb_follows_an_allocation():
    # a block 64 MiB larger than the gap between the peak and the resident size now
    # must raise the peak by about 64 MiB
    gap = _status_mib("VmHWM") - _status_mib("VmRSS")
    before, after = _allocate_and_peak(int(gap) + 64)
    assert after > before + 32, (before, after)


def test_in_child_runs_in_another_process_and_returns():
    assert _common.in_child(os.getpid) != os.getpid()
    assert _common.in_child(divmod, 7, 2) == (3, 1)


def test_in_child_raises_the_child_exception():
    with pytest.raises(ValueError, match="from the child"):
        _common.in_child(_fail, "from the child")


@LINUX
def test_in_child_peak_is_its_own():
    # the parent holds 512 MiB; the spawned child's peak counts its own 128 MiB and
    # its imports, never the parent's block (ru_maxrss would: fork + exec inherits
    # the parent's resident size)
    block = np.ones(512 * MIB // 8)
    parent = _status_mib("VmRSS")
    before, after = _common.in_child(_allocate_and_peak, 128)
    del block
    assert parent > 512
    assert after < parent - 256, (after, parent)
    assert after > before + 64, (before, after)


def test_one_copy_of_the_process_helpers():
    # the scripts import peak_rss_mb and in_child from _common instead of their own
    own = {}
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name == "_common.py":
            continue  # its part_fit still reads ru_maxrss itself
        tree = ast.parse(path.read_text())
        defs = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        reads = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        found = (defs & {"peak_rss_mb", "in_child"}) | (reads & {"ru_maxrss"})
        if found:
            own[path.name] = sorted(found)
    assert not own, f"use benchmarks._common.peak_rss_mb / in_child: {own}"


def _figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [0, 1])
    return fig


def _png_provenance(path):
    from PIL import Image

    with Image.open(path) as image:
        assert image.format == "PNG"
        return json.loads(image.text[_common.FIGURE_PROVENANCE_KEY])


def test_save_figure_records_this_pass_in_the_png(tmp_path):
    out = tmp_path / "results" / "plot.png"
    written = _common.save_figure(out, _figure(), ["benchmarks/bench_x.py", "--n", "5"])
    assert written == out and out.exists()
    assert [p.name for p in out.parent.iterdir()] == ["plot.png"]  # no temporary left
    passes = _png_provenance(out)
    assert len(passes) == 1
    entry = passes[0]
    assert not [f for f in _common.PROVENANCE_FIELDS if entry.get(f) in (None, "", [])]
    assert entry["command"] == "python benchmarks/bench_x.py --n 5"


def test_save_figure_stores_the_given_passes(tmp_path):
    # a script passes the entries it stamped into its results file: the two agree
    results = _common.stamp({}, ["benchmarks/bench_x.py"])
    out = _common.save_figure(tmp_path / "plot.png", _figure(),
                              passes=results["provenance"])  # fmt: skip
    assert _png_provenance(out) == json.loads(json.dumps(results["provenance"]))
    # saving again replaces the file
    _common.save_figure(out, _figure(), ["benchmarks/bench_y.py"])
    assert _png_provenance(out)[0]["command"] == "python benchmarks/bench_y.py"


def test_save_figure_refuses_another_format(tmp_path):
    with pytest.raises(ValueError, match=r"save_figure: out must be a \.png file; "
                                         r"got out=.*plot\.svg"):
        _common.save_figure(tmp_path / "plot.svg", _figure())
    assert not list(tmp_path.iterdir())


def test_figures_are_written_through_save_figure():
    # _common is the only writer of results files: no script saves a figure itself
    own = []
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name == "_common.py":
            continue
        tree = ast.parse(path.read_text())
        if any(isinstance(n, ast.Attribute) and n.attr in ("savefig", "imsave")
               for n in ast.walk(tree)):
            own.append(path.name)
    assert not own, f"use benchmarks._common.save_figure: {own}"


def test_pack_mask_round_trips_any_length():
    from benchmarks._common import pack_mask, unpack_mask

    rng = np.random.default_rng(0)
    for n in (1, 7, 8, 9, 50_000):
        m = rng.random(n) < 0.8
        text = pack_mask(m)
        assert len(text) <= 4 * (n // 24 + 1) + 4  # base64 of n bits
        np.testing.assert_array_equal(unpack_mask(text, n), m)
