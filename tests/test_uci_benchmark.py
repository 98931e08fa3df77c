"""benchmarks/uci.py: adu's splits (the paper's 33000 / 12222; no model is fitted) and
the SVC rows (linear SVC and SVCs on the LS-SVMs' MOC code)."""

import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from lssvm import multiclass as mc
from lssvm.datasets import load_adult_uci

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import uci  # noqa: E402


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
    model = uci.CodedBinaryClassifier(_Stub(), coding="moc").fit(X, labels)
    C = mc.codebook(3, "moc")
    np.testing.assert_array_equal(model.codebook_, C)
    index = np.searchsorted(model.classes_, labels)
    assert len(model.estimators_) == C.shape[1] == 2
    for j, bit in enumerate(model.estimators_):
        np.testing.assert_array_equal(bit.y_, C[index, j])  # every row, its codeword
    # ten classes (led): four bits, class i is the binary expansion of i
    y10 = np.repeat(np.arange(10), 3)
    model10 = uci.CodedBinaryClassifier(_Stub()).fit(np.zeros((30, 1)), y10)
    np.testing.assert_array_equal(model10.codebook_, mc.codebook(10, "moc"))
    for j, bit in enumerate(model10.estimators_):
        np.testing.assert_array_equal(bit.y_, 2 * ((y10 >> j) & 1) - 1)


def test_decoding_nearest_codeword_and_ties(iris):
    X, y = iris
    model = uci.CodedBinaryClassifier(_Stub()).fit(X, y)
    # codewords: class 0 (-1, -1), class 1 (+1, -1), class 2 (-1, +1)
    for (f0, f1), want in [((-0.5, -2.0), 0), ((1.5, -0.1), 1), ((-0.3, 0.4), 2),
                           # (+, +) is no codeword: Hamming 1 from classes 1 and 2;
                           # the tie goes to the smaller sum of (C_ij - F_j)^2
                           ((0.2, 0.9), 2), ((0.9, 0.2), 1)]:  # fmt: skip
        model.estimators_[0].value_, model.estimators_[1].value_ = f0, f1
        assert np.all(model.predict(X[:3]) == want), (f0, f1)


def test_moc_svc_learns_and_decodes_with_the_package(iris):
    X, y = iris
    model = uci.CodedBinaryClassifier(SVC(kernel="linear")).fit(X, y)
    F = model.decision_function(X)
    for j, bit in enumerate(model.estimators_):
        np.testing.assert_array_equal(bit.predict(X), np.where(F[:, j] > 0, 1, -1))
    np.testing.assert_array_equal(model.predict(X), mc.decode(F, mc.codebook(3, "moc")))
    # bit 0 (versicolor against the other two) is not linearly separable: 0.78 here
    assert np.mean(model.predict(X) == y) > 0.7


def test_fit_svm_records_bits_and_convergence_warnings(iris, monkeypatch):
    X, y = iris
    model, params = uci.fit_svm("SVC (SMO, linear, MOC)", X, y)
    assert len(params["bits"]) == len(params["cv_scores"]) == 2
    assert all(b["C"] in uci.LINEAR_C_GRID for b in params["bits"])
    assert params["fits"] == 2 * (len(uci.LINEAR_C_GRID) * 10 + 1)
    # bit 0 is not separable: its C = 100 solves may stop at LINEAR_MAX_ITER
    assert params["convergence_warnings"] < params["fits"] / 10
    monkeypatch.setattr(uci, "LINEAR_MAX_ITER", 1)  # every solve stops early
    _, params = uci.fit_svm("SVC (SMO, linear)", X, y)
    assert params["C"] in uci.LINEAR_C_GRID
    assert params["convergence_warnings"] == params["fits"] == 6 * 10 + 1


def test_paper_rows_and_sets_of_the_svc_rows():
    assert uci.paper_row("SVC (SMO, linear)", "3.3") == "Lin SVM"
    assert uci.paper_row("SVC (SMO, linear)", "3.4") == "Lin SVM (1vs1)"
    assert uci.paper_row("SVC (SMO, RBF, MOC)", "3.4") == "RBF SVM (MOC)"
    assert uci.paper_row("SVC (SMO, linear, MOC)", "3.4") == "Lin SVM (MOC)"
    assert uci.MOC_SVMS <= set(uci.methods_for("iri"))
    assert not uci.MOC_SVMS & set(uci.methods_for("hea"))
    assert "SVC (SMO, linear)" in set(uci.methods_for("hea")) & uci.SUBSAMPLED
