"""Memory checks before dense N x N matrices (lssvm.linalg.memory), issue 25.

No test allocates a large matrix: they replace ``available_memory``.
"""

from __future__ import annotations

import numpy as np
import pytest

import lssvm.linalg.memory
from lssvm import (
    FixedSizeLSSVMRegressor,
    LSSVMClassifier,
    LSSVMClassifierCV,
    LSSVMRegressor,
    RLSSVMClassifier,
    bayes,
)
from lssvm.linalg.memory import InsufficientMemoryError, check_memory, dense_bytes
from lssvm.bayes.ard import ard
from lssvm.sparse.pruning import prune
from lssvm.linalg.solvers import choose_method

N = 40
SMALL = 10_000  # bytes "available": less than one 40 x 40 matrix (12800 bytes)


@pytest.fixture
def data(rng):
    X = rng.standard_normal((N, 2))
    return X, np.where(X[:, 0] > 0, 1, -1)


@pytest.fixture
def little_memory(monkeypatch):
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: SMALL)


def test_available_memory_reads_the_system():
    available = lssvm.linalg.memory.available_memory()
    assert available is None or available > 0
    assert dense_bytes(200_000) == 320_000_000_000  # the probe's 298 GiB


def test_direct_solver_refuses_with_a_clear_message(data, little_memory):
    X, y = data
    with pytest.raises(InsufficientMemoryError) as info:
        LSSVMClassifier(solver="direct").fit(X, y)
    message = str(info.value)
    assert "LSSVMClassifier: the direct solver" in message
    assert "N = 40" in message and "12800 bytes" in message and "10000 bytes" in message
    assert 'solver="cg"' in message
    assert isinstance(info.value, MemoryError) and isinstance(info.value, ValueError)


def test_cg_needs_no_dense_matrix(data, little_memory):
    X, y = data
    clf = LSSVMClassifier(solver="cg").fit(X, y)
    assert clf.n_iter_ > 0


def test_auto_chooses_by_available_memory(data, monkeypatch):
    X, y = data
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: 10**12)
    assert choose_method("auto", N) == "direct"
    assert LSSVMRegressor(solver="auto").fit(X, X[:, 0]).n_iter_ == 0
    # 12800 bytes: more than half of 20000, so "auto" leaves the direct solver
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: 20_000)
    assert choose_method("auto", N) == "cg"
    assert LSSVMRegressor(solver="auto").fit(X, X[:, 0]).n_iter_ > 0
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: None)  # unknown
    assert choose_method("auto", N) == "direct"


def test_return_std_checks_memory(data, monkeypatch):
    X, y = data
    reg = LSSVMRegressor(solver="cg").fit(X, X[:, 0])
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: SMALL)
    with pytest.raises(MemoryError, match=r"predict\(return_std=True\).*N = 40"):
        reg.predict(X, return_std=True)


@pytest.mark.parametrize(
    "run, owner",
    [
        (lambda X, y: RLSSVMClassifier().fit(X, y), "RLSSVMClassifier"),
        (lambda X, y: bayes.level2(X, y), "level2"),
        (lambda X, y: ard(X, y), "ard"),
        (lambda X, y: prune(LSSVMClassifier(), X, y), "prune"),
        (lambda X, y: LSSVMClassifierCV(cv=3).fit(X, y), "LSSVMClassifierCV"),
    ],
    ids=["rls_svm", "level2", "ard", "prune", "classifier_cv"],
)
def test_every_dense_path_checks_memory(data, little_memory, run, owner):
    X, y = data
    with pytest.raises(InsufficientMemoryError, match=rf"{owner}: .*N = 40"):
        run(X, y)


#: The one wording of the error (lssvm.linalg.memory.check_memory): what is needed,
#: what is available, that nothing was allocated, what to do instead.
WORDING = (
    r"^{owner}: {needs}[\d.]+ [KMGT]iB \({needed} bytes\){detail}, but only 9\.8 KiB "
    r"\(10000 bytes\) of memory is available\. Nothing was allocated; {alternative}\.$"
)


def test_check_memory_words_the_error(monkeypatch):
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: SMALL)
    with pytest.raises(InsufficientMemoryError) as info:
        check_memory(2**31, "the sketch needs ", detail=" for its blocks",
                     alternative="use fewer rows", owner="sketch")
    assert str(info.value) == (
        "sketch: the sketch needs 2.0 GiB (2147483648 bytes) for its blocks, but only "
        "9.8 KiB (10000 bytes) of memory is available. Nothing was allocated; use "
        "fewer rows."
    )
    check_memory(SMALL, "the sketch needs ", alternative="-")  # fits: no error
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: None)
    check_memory(2**60, "the sketch needs ", alternative="-")  # unknown: no check


def test_dense_and_fixed_size_errors_share_the_wording(data, little_memory):
    X, y = data
    with pytest.raises(InsufficientMemoryError, match=WORDING.format(
        owner="LSSVMClassifier",
        needs="the direct solver needs an N x N float64 matrix for N = 40 samples: ",
        needed=12800, detail="",
        alternative=r'use solver="cg" \(matrix-free, memory O\(N\)\), or use fewer '
        "samples",
    )):
        LSSVMClassifier(solver="direct").fit(X, y)
    with pytest.raises(InsufficientMemoryError, match=WORDING.format(
        owner="FixedSizeLSSVMRegressor",
        needs="the fit with m = 30 prototypes needs about ", needed=r"\d+",
        detail=r" at its peak \(8 \(m\+1\) x \(m\+1\) float64 matrices: .*the "
        r"accumulated sums; and row chunks of chunk_size x \(m\+1\)\)",
        alternative=r"use fewer prototypes \(n_prototypes=30\) or a smaller chunk_size",
    )):
        FixedSizeLSSVMRegressor(n_prototypes=30, solver="normal").fit(X, X[:, 0])


def test_store_kernel_error_shares_the_wording(data, monkeypatch):
    X, y = data  # the fit needs 8 (2 (m+1)^2 + 5 (m+1)) = 2376 bytes, the blocks 3200
    monkeypatch.setattr(lssvm.linalg.memory, "available_memory", lambda: 3000)
    est = FixedSizeLSSVMRegressor(n_prototypes=10, solver="pcg", store_kernel=True,
                                  chunk_size=5)
    with pytest.raises(InsufficientMemoryError) as info:
        est.fit(X, X[:, 0])
    assert str(info.value) == (
        "FixedSizeLSSVMRegressor: store_kernel=True keeps the N x m kernel blocks, "
        "3.1 KiB (3200 bytes) for N = 40, m = 10, but only 2.9 KiB (3000 bytes) of "
        "memory is available. Nothing was allocated; use store_kernel=False or "
        "'auto' (blocks computed again in each CG iteration)."
    )
