"""Every file in benchmarks/results/ records where it came from (CONTRIBUTING.md).

A results file holds a "provenance" list, one entry per pass that wrote it
(``benchmarks/_common.py``: :func:`stamp`), each with the command, the date, the
commit, the versions of Python, numpy, scipy, scikit-learn and lssvm, the BLAS and
its thread count, and the wall time. Files written before provenance was recorded
carry a backfilled entry whose unknown fields say so ("unknown (...)") instead of
being left out. No benchmark is run here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import _common

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

FILES = sorted(RESULTS.glob("*.json"))


def _missing(entry: dict) -> list[str]:
    """Fields of PROVENANCE_FIELDS absent from ``entry`` or empty there."""
    return [
        field
        for field in _common.PROVENANCE_FIELDS
        if field not in entry or entry[field] in (None, "", [], {})
    ]


def test_there_are_results_files():
    assert FILES, f"no results file in {RESULTS}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_results_file_records_its_provenance(path):
    results = json.loads(path.read_text())
    passes = results.get("provenance")
    assert isinstance(passes, list) and passes, (
        f"{path.name} has no 'provenance' list: write results through "
        "benchmarks/_common.py (save_json)"
    )
    for i, entry in enumerate(passes):
        missing = _missing(entry)
        assert not missing, f"{path.name}, provenance pass {i}: missing {missing}"
        # an unknown value must say so, not pass for a value
        for field in ("commit", "date", "command"):
            value = str(entry[field])
            assert value.startswith("unknown") or len(value) >= 7, (path.name, field)


def test_stamp_records_every_field_and_one_entry_per_pass():
    results: dict = {}
    _common.stamp(results, ["benchmarks/uci.py", "--sets", "iri"])
    _common.stamp(results, ["benchmarks/uci.py", "--sets", "iri"])  # same pass
    assert len(results["provenance"]) == 1
    entry = results["provenance"][0]
    assert _missing(entry) == []
    assert entry["command"] == "python benchmarks/uci.py --sets iri"
    assert entry["blas_threads"] and all(isinstance(n, int) for n in entry["blas_threads"])
    assert isinstance(entry["wall_seconds"], float)
    _common.stamp(results, ["benchmarks/uci.py", "--sets", "hea"])  # another pass
    assert len(results["provenance"]) == 2


def test_helper_detects_a_missing_field():
    entry = {field: "x" * 8 for field in _common.PROVENANCE_FIELDS}
    assert _missing(entry) == []
    del entry["commit"]
    entry["blas"] = []
    assert _missing(entry) == ["commit", "blas"]


def test_make_reproduce_regenerates_every_results_file():
    from benchmarks import reproduce

    steps = reproduce.steps()
    assert {step.file for step in steps} == {path.name for path in FILES}
    for step in steps:
        assert (ROOT / "benchmarks" / step.script).is_file(), step.script


def test_stamp_records_the_machine():
    """CPU model, cores, SIMD level and BLAS: a stored time names its machine."""
    results: dict = {}
    _common.stamp(results, ["benchmarks/bench_cv.py"])
    entry = results["provenance"][0]
    for field in _common.MACHINE_FIELDS:
        assert entry.get(field) not in (None, "", [], {}), field
    assert entry["cpu"] in entry["machine_text"] and "cores" in entry["machine_text"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_new_passes_record_the_machine(path):
    """Every pass written from 2026-11-26 on (when the fields were added) has them."""
    for i, entry in enumerate(json.loads(path.read_text())["provenance"]):
        date = str(entry.get("date", ""))
        if date[:1].isdigit() and date >= "2026-11-26":
            missing = [f for f in _common.MACHINE_FIELDS if not entry.get(f)]
            assert not missing, f"{path.name}, pass {i}: missing {missing}"
