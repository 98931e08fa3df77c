"""The SVC rows of benchmarks/uci.py: linear SVC and SVCs on the LS-SVMs' MOC code."""

import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from lssvm import multiclass as mc

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import uci  # noqa: E402


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
