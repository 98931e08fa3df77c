"""Holm's correction and the scaled polynomial grid of the UCI benchmark (tiny data)."""


import numpy as np
import pytest
from scipy import stats

from benchmarks import (
    uci,
    uci_poly_scaled,
)
from benchmarks.stats import chance_flags, data_controls, holm_k_se, within_controls


def _holm_rejections(z, alpha):
    """Holm's step-down test written from its definition, on two-sided p-values."""
    p = 2 * stats.norm.sf(z)
    order = np.argsort(p, kind="stable")
    reject = np.zeros(len(z), bool)
    for rank, i in enumerate(order):
        if p[i] > alpha / (len(z) - rank):
            break
        reject[i] = True
    return reject


@pytest.mark.parametrize("seed", range(5))
def test_holm_thresholds_flag_exactly_holms_rejections(seed):
    rng = np.random.default_rng(seed)
    z = np.abs(np.r_[rng.normal(size=200), rng.normal(4.5, 1.0, size=20)])
    k = holm_k_se(z, 0.05)
    np.testing.assert_array_equal(z > k, _holm_rejections(z, 0.05))
    # the first threshold is Bonferroni's; none is below the plain two-sided 5% one
    assert k.max() == pytest.approx(stats.norm.isf(0.05 / (2 * len(z))))
    assert k.min() >= stats.norm.isf(0.025) - 1e-12


def test_holm_one_entry_is_the_plain_two_sided_test():
    assert holm_k_se([0.5])[0] == pytest.approx(stats.norm.isf(0.025))


def test_holm_rejects_nan():
    with pytest.raises(ValueError, match="n_se"):
        holm_k_se([1.0, np.nan])


def test_chance_flags_at_two_se():
    # 387 entries at 2 SE: about 17.6 flags under exact reproduction
    assert chance_flags(387) == pytest.approx(387 * 0.0455, rel=1e-3)


def _toy(n=90, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.5).astype(int)
    split = (np.arange(60), np.arange(60, n))
    return X, y, split


def test_printed_grid_is_inert_at_degree_ten_and_the_scaled_grid_is_not():
    X, y, split = _toy()
    printed = uci.poly_lu_split(X, y, split, 10, "n", folds=5)
    scaled = uci.poly_lu_split(X, y, split, 10, "n", folds=5, scaled=True)
    # with (x^T z + n)^10 entries of ~1e6..1e12 a ridge of at most 100 changes nothing
    assert len({s for s in printed["cv_scores"] if s is not None}) == 1
    assert printed["gamma_scale"] == 1.0
    # the scaled grid divides Gamma_0 by the median diagonal of the training kernel
    Xtr = (X[split[0]] - X[split[0]].mean(0)) / X[split[0]].std(0)
    median = np.median((np.sum(Xtr**2, axis=1) + 4.0) ** 10)
    assert scaled["gamma_scale"] == pytest.approx(median, rel=1e-9)
    assert len({s for s in scaled["cv_scores"] if s is not None}) > 1
    assert 0.0 <= scaled["test_accuracy"] <= 1.0


def test_headlines_of_a_results_file():
    acc = {"1": [0.6, 0.7], "n": [0.8, 0.9]}
    cv = {"1": [0.9, 0.1], "n": [0.5, 0.5]}  # split 0 picks tau = 1, split 1 tau = n
    entry = {
        uci_poly_scaled.key(10, tau, grid): {
            "accuracies": acc[tau],
            "params": [{"cv_score": c, "cv_scores": [c, c]} for c in cv[tau]],
        }
        for tau in ("1", "n") for grid in ("printed", "scaled")
    }
    results = {"runs": {"a": entry, "b": entry}}
    head = uci_poly_scaled.headline(results, "scaled", sets=("a", "b"))
    assert head[10, "n"]["mean"] == pytest.approx(85.0)
    cv_pick = uci_poly_scaled.headline_cv(results, 10, "scaled", sets=("a", "b"))
    assert cv_pick["mean"] == pytest.approx((60.0 + 90.0) / 2)
    share, n = uci_poly_scaled.inert_share(results, 10, "1", sets=("a", "b"))
    assert (share, n) == (1.0, 4)


def _entry(name, row, diff, n_se):
    return {"set": name, "row": row, "diff": diff, "n_se": n_se, "limit": 2.0}


def test_data_controls_need_enough_untuned_rows_beyond_two_se():
    shifted = [_entry("a", r, d, 5.0) for r, d in (
        ("LDA", 1.0), ("Logit", 2.0), ("NB_n", 3.0), ("NB_k", 0.5), ("QDA", 40.0))]
    shifted += [_entry("a", "IB1", -0.5, 0.3), _entry("a", "RBF SVM", 9.0, 9.0)]
    calm = [_entry("b", r, 3.0, 5.0) for r in ("LDA", "Logit", "NB_n")]
    calm += [_entry("b", "RBF SVM", 3.0, 5.0)]  # a tuned row never counts
    out = data_controls(shifted + calm, min_rows=4, own_cause={("QDA", "a")})
    # set a: 4 untuned rows beyond 2 SE besides QDA, which has its own cause and is
    # left out of the count and the range
    assert out == {"a": (4, 5, -0.5, 3.0)}
    # with QDA's gap not explained it would count: still 5 rows beyond of 6
    assert data_controls(shifted, min_rows=4)["a"] == (5, 6, -0.5, 40.0)
    assert within_controls(4.0, 0.6, (-0.5, 3.0))
    assert not within_controls(9.0, 1.0, (-0.5, 3.0))
