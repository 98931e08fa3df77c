"""benchmarks/uci.py: adu's splits (the paper's 33000 / 12222; no model is fitted), the
SVC rows (linear SVC and SVCs on the LS-SVMs' MOC code), and the polynomial per-pair
record and its summary.

Also the paper's statistics: Wilcoxon tests, best-on-k counts, bootstrap.
"""


import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from benchmarks import paper, reference, stats, uci
from lssvm import multiclass as mc
from lssvm.datasets import load_adult_uci


def test_adu_splits_are_the_papers_sizes_disjoint_and_stratified():
    _, y = load_adult_uci()
    splits = uci.adu_splits(y, 3, seed=0)
    assert uci.ADU_SPLIT == (33000, 12222)  # [S Table 3.1]: N_CV, N_test
    share = y.mean()  # 24.8% earn >50K
    for train, test in splits:
        assert (len(train), len(test)) == uci.ADU_SPLIT
        assert len(np.intersect1d(train, test)) == 0
        assert len(np.union1d(train, test)) == len(y)  # 33000 + 12222 = 45222
        # stratified: each part's class share within one point of the whole's
        for part in (train, test):
            assert abs(y[part].sum() - share * len(part)) <= 1
    # different splits per randomisation, and the first splits do not depend on n_rand
    assert not np.array_equal(np.sort(splits[0][1]), np.sort(splits[1][1]))
    first = uci.adu_splits(y, 1, seed=0)[0]
    np.testing.assert_array_equal(first[1], splits[0][1])
    # the runner uses them for adu, the 2/3-1/3 splits elsewhere
    np.testing.assert_array_equal(uci.splits_for("adu", y, 1)[0][0], splits[0][0])


def test_adu_tuning_subsample_is_stratified_within_the_training_part():
    _, y = load_adult_uci()
    train, _ = uci.adu_splits(y, 1, seed=0)[0]
    keep = uci._subsample_positions(y[train], 0)
    assert len(keep) == uci.ADU_SUBSAMPLE and len(np.unique(keep)) == len(keep)
    assert keep.max() < len(train)
    assert abs(y[train][keep].sum() - y[train].mean() * len(keep)) <= 1


class _Stub(ClassifierMixin, BaseEstimator):
    """Records the labels it is fitted on; outputs a constant ``value_``."""

    def fit(self, X, y):
        self.y_ = np.asarray(y).copy()
        self.classes_ = np.unique(y)
        self.value_ = 0.0
        return self

    def decision_function(self, X):
        return np.full(len(X), self.value_)


@pytest.fixture(scope="module")
def iris():
    X, y = uci.load("iri")
    return StandardScaler().fit_transform(X), y


def test_bits_are_the_packages_moc_codewords(iris):
    X, y = iris
    labels = np.array(["c", "a", "b"])[y]  # sorted classes: a, b, c
    model = reference.CodedBinaryClassifier(_Stub(), coding="moc").fit(X, labels)
    C = mc.codebook(3, "moc")
    np.testing.assert_array_equal(model.codebook_, C)
    index = np.searchsorted(model.classes_, labels)
    assert len(model.estimators_) == C.shape[1] == 2
    for j, bit in enumerate(model.estimators_):
        np.testing.assert_array_equal(bit.y_, C[index, j])  # every row, its codeword
    # ten classes (led): four bits, class i is the binary expansion of i
    y10 = np.repeat(np.arange(10), 3)
    model10 = reference.CodedBinaryClassifier(_Stub()).fit(np.zeros((30, 1)), y10)
    np.testing.assert_array_equal(model10.codebook_, mc.codebook(10, "moc"))
    for j, bit in enumerate(model10.estimators_):
        np.testing.assert_array_equal(bit.y_, 2 * ((y10 >> j) & 1) - 1)


def test_decoding_nearest_codeword_and_ties(iris):
    X, y = iris
    model = reference.CodedBinaryClassifier(_Stub()).fit(X, y)
    # codewords: class 0 (-1, -1), class 1 (+1, -1), class 2 (-1, +1)
    for (f0, f1), want in [((-0.5, -2.0), 0), ((1.5, -0.1), 1), ((-0.3, 0.4), 2),
                           # (+, +) is no codeword: Hamming 1 from classes 1 and 2;
                           # the tie goes to the smaller sum of (C_ij - F_j)^2
                           ((0.2, 0.9), 2), ((0.9, 0.2), 1)]:  # fmt: skip
        model.estimators_[0].value_, model.estimators_[1].value_ = f0, f1
        assert np.all(model.predict(X[:3]) == want), (f0, f1)


def test_moc_svc_learns_and_decodes_with_the_package(iris):
    X, y = iris
    model = reference.CodedBinaryClassifier(SVC(kernel="linear")).fit(X, y)
    F = model.decision_function(X)
    for j, bit in enumerate(model.estimators_):
        np.testing.assert_array_equal(bit.predict(X), np.where(F[:, j] > 0, 1, -1))
    np.testing.assert_array_equal(model.predict(X), mc.decode(F, mc.codebook(3, "moc")))
    # bit 0 (versicolor against the other two) is not linearly separable: 0.78 here
    assert np.mean(model.predict(X) == y) > 0.7


def test_fit_svm_records_bits_and_convergence_warnings(iris, monkeypatch):
    X, y = iris
    model, params = reference.fit_svm("SVC (SMO, linear, MOC)", X, y)
    assert len(params["bits"]) == len(params["cv_scores"]) == 2
    assert all(b["C"] in reference.LINEAR_C_GRID for b in params["bits"])
    assert params["fits"] == 2 * (len(reference.LINEAR_C_GRID) * 10 + 1)
    # bit 0 is not separable: its C = 100 solves may stop at LINEAR_MAX_ITER
    assert params["convergence_warnings"] < params["fits"] / 10
    monkeypatch.setattr(reference, "LINEAR_MAX_ITER", 1)  # every solve stops early
    _, params = reference.fit_svm("SVC (SMO, linear)", X, y)
    assert params["C"] in reference.LINEAR_C_GRID
    assert params["convergence_warnings"] == params["fits"] == 6 * 10 + 1


def test_paper_rows_and_sets_of_the_svc_rows():
    assert uci.paper_row("SVC (SMO, linear)", "3.3") == "Lin SVM"
    assert uci.paper_row("SVC (SMO, linear)", "3.4") == "Lin SVM (1vs1)"
    assert uci.paper_row("SVC (SMO, RBF, MOC)", "3.4") == "RBF SVM (MOC)"
    assert uci.paper_row("SVC (SMO, linear, MOC)", "3.4") == "Lin SVM (MOC)"
    assert reference.MOC_SVMS <= set(uci.methods_for("iri"))
    assert not reference.MOC_SVMS & set(uci.methods_for("hea"))
    assert "SVC (SMO, linear)" in set(uci.methods_for("hea")) & uci.SUBSAMPLED


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


def test_poly_max_degree_limits_the_search(monkeypatch):
    # --poly-max-degree 5 remakes the committed d = 2..5 rows of ims, led, wav and adu
    X, y = uci.load("iri")
    X = (X - X.mean(0)) / X.std(0)
    monkeypatch.setattr(uci, "poly_max_degree", 3)
    _, params = uci.fit_lssvm("Pol LS-SVM (1vs1)", X[::3], y[::3])
    assert sorted({p["degree"] for p in params["pairs"]}) == [2, 3]


def test_wilcoxon_smallest_p_is_two_over_two_to_the_n():
    best = np.arange(10, dtype=float) + 80
    # every set worse, all |differences| distinct: the exact two-sided p = 2 / 2^10
    p, n = stats.wilcoxon_p(best - np.arange(1, 11), best)
    assert n == 10 and p == pytest.approx(2 / 1024)
    assert stats.wilcoxon_min_p(10) == pytest.approx(0.001953125)
    assert stats.wilcoxon_min_p(8) == pytest.approx(2 / 256)
    # one tie with the best row is dropped (zero_method="wilcox"): 9 left, 2 / 2^9
    worse = best - np.arange(0, 10)
    p, n = stats.wilcoxon_p(worse, best)
    assert n == 9 and p == pytest.approx(2 / 512)


def test_wilcoxon_tied_differences_exact_enumeration():
    # |d| all equal (ties): the p of the sign pattern 8 minus, 2 plus by enumeration
    d = np.array([-1.0] * 8 + [1.0] * 2)
    p, n = stats.wilcoxon_p(d, np.zeros(10))
    # all ranks tie at 5.5: the statistic is a function of the number of plus signs,
    # so p equals the two-sided sign test's, 2 * (1 + 10 + 45) / 1024
    assert n == 10 and p == pytest.approx(2 * 56 / 1024)
    # float noise is not a difference; identical rows give NaN
    p, n = stats.wilcoxon_p([0.1 + 0.2, 1.0], [0.3, 1.0])
    assert n == 0 and np.isnan(p)


def test_wilcoxon_vs_best_uses_means_and_ranks():
    means = pd.DataFrame(
        {f"s{i}": [90.0 + i, 89.0 + i - 0.1 * i, 50.0] for i in range(10)},
        index=["top", "close", "bad"],
    )
    out = stats.wilcoxon_vs_best(means)
    assert np.isnan(out.loc["top", "p_AA"]) and out.loc["top", "n_AA"] == 0
    # "bad" is last on every set: the AA and the AR test both reach 2 / 2^10
    assert out.loc["bad", "p_AA"] == pytest.approx(2 / 1024)
    assert out.loc["bad", "p_AR"] == pytest.approx(2 / 1024)
    # "close" is second on every set: constant rank differences (all tied) still give
    # the all-one-sign p on ranks
    assert out.loc["close", "p_AR"] == pytest.approx(2 / 1024)


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")
def test_best_counts_with_ties_and_marks():
    rng = np.random.default_rng(0)
    base = 0.8 + 0.01 * rng.standard_normal(10)
    per_split = {
        "s1": {"a": base + 0.05, "b": base + 0.05, "c": base},  # a and b tied best
        "s2": {"a": base, "b": base + 0.05, "c": base + 0.0501 + 1e-4 * rng.standard_normal(10)},
    }
    counts = stats.best_counts(per_split)
    assert counts.loc["a", "best"] == 1 and counts.loc["b", "best"] == 1
    assert counts.loc["c", "best"] == 1  # best on s2
    assert counts.loc["b", "not worse"] == 1  # b on s2: 0.0001 below, not significant
    assert counts.loc["a", "worse 1%"] == 1 and counts.loc["c", "worse 1%"] == 1
    assert (counts["sets"] == 2).all()
    assert counts[["best", "not worse", "worse 5%", "worse 1%"]].sum(axis=1).eq(2).all()


def test_paper_best_counts_match_printed_means():
    """The text's "best on k domains" against the highest printed means."""
    for table in ("3.3", "3.4"):
        means = pd.DataFrame({m: {s: v[0] for s, v in row.items()}
                              for m, row in paper.PAPER[table].items()}).T  # fmt: skip
        best = stats.best_rows(means)
        n_sets = len(paper.PAPER_SETS[table])
        assert sum(paper.PAPER_BEST_COUNTS[table].values()) == n_sets
        for row, k in paper.PAPER_BEST_COUNTS[table].items():
            # every row the text names is (one of) the highest printed means on at
            # least one set, except RBF SVM in 3.3: its pid is underlined in the
            # paper, but Pol LS-SVM_F's printed 79.0 there is higher (a slip)
            if (table, row) == ("3.3", "RBF SVM"):
                assert best["pid"] == ["Pol LS-SVM_F"]
                continue
            assert sum(row in rows for rows in best.values()) >= 1, row


def test_bootstrap_keeps_rows_paired():
    rng = np.random.default_rng(1)
    noise = {s: 5 * rng.standard_normal(10) for s in ("s1", "s2", "s3")}
    # "b" is "a" minus 0.5 on every split: unresolvable unpaired, certain when paired
    per_split = {s: {"a": 80 + e, "b": 79.5 + e} for s, e in noise.items()}
    aa, ar, means = stats.bootstrap_summary(per_split, ["a", "b"], n_boot=500)
    assert aa.shape == ar.shape == (500, 2) and means.shape == (500, 2, 3)
    assert stats.order_share(aa, 0, 1) == 1.0
    assert stats.order_share(ar, 0, 1, higher=False) == 1.0
    np.testing.assert_allclose(ar.sum(axis=1), 3.0)  # ranks 1 and 2 on each set
    # a row with fewer splits draws on its own: still finite, still 2 columns
    per_split["s1"]["b"] = per_split["s1"]["b"][:3]
    aa, _, _ = stats.bootstrap_summary(per_split, ["a", "b"], n_boot=200)
    assert np.isfinite(aa).all() and stats.order_share(aa, 0, 1) > 0.5
