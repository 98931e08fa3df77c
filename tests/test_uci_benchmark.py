"""benchmarks/uci.py: the polynomial per-pair record and its summary (fast)."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import uci  # noqa: E402


def test_poly_grid_covers_the_papers_degrees():
    assert sorted({d for d, _ in uci.POLY_GRID}) == list(range(2, 11))
    assert {t for _, t in uci.POLY_GRID} == {"1", "n"}


def _pairs(scores, tests, skipped=()):
    """pairs for degrees 2, 6, 10 x tau 1, n from {(d, tau): value} dicts."""
    out = []
    for d in (2, 6, 10):
        for t in ("1", "n"):
            skip = (d, t) in skipped
            out.append({"degree": d, "tau": t, "skipped": skip,
                        "cv_score": None if skip else scores.get((d, t), 0.5),
                        "test_accuracy": None if skip else tests.get((d, t), 0.5)})
    return out


def _results():
    # set "a", two splits: split 0 chooses d = 6 (CV 0.9) whose test accuracy 0.7
    # differs from the best d <= 5 pair's (d = 2, tau n: 0.8); split 1 keeps d = 2.
    a0 = _pairs({(2, "n"): 0.85, (6, "1"): 0.9}, {(2, "1"): 0.6, (2, "n"): 0.8,
                (6, "1"): 0.7, (10, "1"): 0.4, (10, "n"): 0.9})
    a1 = _pairs({(2, "1"): 0.95, (10, "n"): 0.95},  # tie: the first pair wins
                {(2, "1"): 0.7, (2, "n"): 0.9, (10, "1"): 0.6, (10, "n"): 0.8},
                skipped={(6, "n")})
    # set "b": one split only on tau n at d = 10 skipped
    b0 = _pairs({(2, "1"): 0.8}, {(2, "1"): 1.0, (2, "n"): 0.9, (10, "1"): 0.2},
                skipped={(10, "n")})
    b1 = _pairs({(2, "1"): 0.8}, {(2, "1"): 0.8, (2, "n"): 0.7, (10, "1"): 0.4,
                (10, "n"): 0.6})
    entry = lambda *ps: {"accuracies": [0.0] * len(ps),  # noqa: E731
                         "params": [{"pairs": p} for p in ps]}
    return {"runs": {"a": {"Pol LS-SVM": entry(a0, a1), "LDA": entry(a0)},
                     "b": {"Pol LS-SVM": entry(b0, b1)}}}


def test_degree_counts():
    out = uci.poly_degree_summary(_results(), sets=("a", "b"))["degrees"]
    a = out[("a", "Pol LS-SVM")]
    assert (a["n"], a["above"], a["changed"], a["skipped"]) == (2, 1, 1, 1)
    assert a["delta"] == pytest.approx(100 * (0.7 - 0.8) / 2)
    assert out[("b", "Pol LS-SVM")]["above"] == 0
    assert ("a", "LDA") not in out


def test_headline_averages_sets_per_split():
    head = uci.poly_degree_summary(_results(), sets=("a", "b"))["headline"]
    h = head["Pol LS-SVM"]
    # d = 2, tau 1: split 0 (60 + 100) / 2 = 80, split 1 (70 + 80) / 2 = 75
    assert h[(2, "1")]["mean"] == pytest.approx(77.5)
    assert h[(2, "1")]["se"] == pytest.approx(np.std([80, 75], ddof=1) / np.sqrt(2))
    assert h[(2, "1")]["sets"] == ["a", "b"]
    # d = 10, tau n: split 0 dropped (skipped on b), split 1 (80 + 60) / 2
    assert (h[(10, "n")]["n"], h[(10, "n")]["missing"]) == (1, 1)
    assert h[(10, "n")]["mean"] == pytest.approx(70.0)
    # tau chosen by CV at d = 10: a0 tie at 0.5 -> tau 1 (0.4); b0 tau 1 (0.2);
    # a1 tau n (0.95 -> 0.8); b1 tie -> tau 1 (0.4)
    assert h[(10, "cv")]["mean"] == pytest.approx(np.mean([30.0, 60.0]))


def test_fit_lssvm_records_every_pair(monkeypatch):
    monkeypatch.setattr(uci, "POLY_GRID", ((2, "1"), (3, "n")))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    model, params = uci.fit_lssvm("Pol LS-SVM", X[:30], y[:30], test=(X[30:], y[30:]))
    pairs = params["pairs"]
    assert [(p["degree"], p["tau"]) for p in pairs] == [(2, "1"), (3, "n")]
    best = max(pairs, key=lambda p: p["cv_score"])
    assert (params["degree"], params["tau"]) == (best["degree"], 1.0 if
                                                 best["tau"] == "1" else 2.0)
    assert best["test_accuracy"] == np.mean(model.predict(X[30:]) == y[30:])


def test_headline_per_set_keeps_the_splits_that_ran():
    h = uci.poly_degree_summary(_results(), sets=("a", "b"))["headline"]["Pol LS-SVM"]
    per_set = h[(10, "n")]["per_set"]
    assert (per_set["a"]["n"], per_set["b"]["n"]) == (2, 1)
    assert per_set["a"]["mean"] == pytest.approx(85.0)
    assert per_set["b"]["mean"] == pytest.approx(60.0)


def test_lu_solver_matches_the_package_on_a_well_posed_kernel():
    from lssvm import LSSVMClassifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] + X[:, 1] ** 2 > 1, 1.0, -1.0)
    K = (X @ X.T + 1.0) ** 2
    alpha, b = uci._lu_lssvm(K, y, 0.5)
    ours = K @ alpha + b
    clf = LSSVMClassifier(kernel="poly", degree=2, tau=1.0, gamma=0.5).fit(X, y)
    np.testing.assert_allclose(ours, clf.decision_function(X), rtol=1e-6, atol=1e-8)


def test_lu_headline_averages_sets_per_split():
    lu = {"runs": {
        "a": {"d=10, tau=1": {"accuracies": [0.6, 0.7]}, "d=2, tau=1": {"accuracies": [0.8, 0.9]}},
        "b": {"d=10, tau=1": {"accuracies": [0.8, None]}, "d=2, tau=1": {"accuracies": [1.0, 0.9]}},
    }}  # fmt: skip
    h = uci.poly_lu_headline(lu, sets=("a", "b"))
    assert list(h) == [(2, "1"), (10, "1")]
    assert h[(2, "1")]["mean"] == pytest.approx(90.0)
    assert (h[(10, "1")]["n"], h[(10, "1")]["missing"]) == (1, 1)
    assert h[(10, "1")]["mean"] == pytest.approx(70.0)
    assert h[(10, "1")]["per_set"]["a"]["mean"] == pytest.approx(65.0)
