"""Memory checks before dense N x N matrices (lssvm.linalg.memory), issue 25.

No test allocates a large matrix: they replace ``available_memory``.
"""

from __future__ import annotations

import numpy as np
import pytest

import lssvm.linalg.memory
from lssvm import (
    LSSVMClassifier,
    LSSVMClassifierCV,
    LSSVMRegressor,
    RLSSVMClassifier,
    bayes,
)
from lssvm.linalg.memory import InsufficientMemoryError, dense_bytes
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
