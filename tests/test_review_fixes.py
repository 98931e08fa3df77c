"""Weights, support indices, the moderated output and error owners of public helpers.

The public tuning functions check ``sample_weight`` as the estimators' ``fit`` does;
``RLSSVMClassifier.support_`` numbers the rows of the X passed to ``fit``;
``class_probability`` refits only a hand-built model; and the hand-written checks
name their owner ("Owner: name must be ...; got ...").
"""

from __future__ import annotations

import dataclasses
from unittest import mock

import numpy as np
import pytest

from lssvm import LSSVMClassifier, bayes
from lssvm.kernels import RBF
from lssvm.linalg.solvers import conjugate_gradient, solve_bordered_kkt
from lssvm.model_selection.closed_form import (
    ClosedFormCV,
    make_folds,
    restrict_folds,
    score_latent,
)
from lssvm.model_selection.search import grid_search, random_search
from lssvm.multiclass import codebook
from lssvm.relatives.rls_svm import RLSSVMClassifier


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1.0, -1.0)
    w = rng.uniform(0.5, 2.0, 60)
    return X, y, w


# ------------------------------------------------ sample_weight of the tuning functions
@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf])
def test_grid_search_rejects_bad_weights_naming_sample_weight(data, bad):
    X, y, w = data
    w = w.copy()
    w[4] = bad
    folds = make_folds(5, X, y, classifier=True)
    with pytest.raises(
        ValueError, match=r"grid_search: sample_weight must be finite and >= 0.*"
        r"sample_weight\[4\]="
    ):
        grid_search(X, y, folds, gammas=[1.0], sigma2s=[1.0], sample_weight=w)


@pytest.mark.parametrize("bad", [-1.0, np.nan])
def test_closed_form_cv_rejects_bad_weights_naming_sample_weight(data, bad):
    X, y, w = data
    w = w.copy()
    w[0] = bad
    folds = make_folds(5, X, y, classifier=True)
    with pytest.raises(ValueError, match="ClosedFormCV: sample_weight must be finite"):
        ClosedFormCV(RBF(1.0)(X), y, folds, sample_weight=w)


def test_the_estimators_and_the_searches_share_the_weight_check(data):
    X, y, w = data
    w = w.copy()
    w[2] = -1.0
    with pytest.raises(ValueError, match="LSSVMClassifier: sample_weight must be"):
        LSSVMClassifier().fit(X, y, sample_weight=w)
    folds = make_folds(5, X, y, classifier=True)
    with pytest.raises(ValueError, match="random_search: sample_weight must be finite"):
        random_search(X, y, folds, sample_weight=w, n_iter=2)


def _zero_some(w):
    w = w.copy()
    w[[0, 7, 8, 30, 59]] = 0.0
    return w


def test_closed_form_cv_leaves_zero_weight_rows_out_exactly(data):
    X, y, w = data
    w = _zero_some(w)
    keep = np.flatnonzero(w > 0)
    folds = make_folds(4, X, y, classifier=True)
    K = RBF(1.5)(X)
    cv = ClosedFormCV(K, y, folds, sample_weight=w)
    dropped = ClosedFormCV(
        K[np.ix_(keep, keep)], y[keep], restrict_folds(folds, keep, len(y)),
        sample_weight=w[keep],
    )  # fmt: skip
    np.testing.assert_array_equal(cv.rows, keep)
    for a, b in zip(cv.latent(3.0), dropped.latent(3.0), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    # the closed form is the refit: a weighted fit on the rows of each training set
    V = cv.folds[0]
    train = np.setdiff1d(np.arange(len(keep)), V)
    model = LSSVMClassifier(gamma=3.0, sigma2=1.5).fit(
        X[keep][train], y[keep][train], sample_weight=w[keep][train]
    )
    np.testing.assert_allclose(
        cv.latent(3.0)[0], model.decision_function(X[keep][V]), rtol=1e-7, atol=1e-9
    )


def test_grid_search_with_zero_weights_is_the_search_without_those_rows(data):
    X, y, w = data
    w = _zero_some(w)
    keep = np.flatnonzero(w > 0)
    folds = make_folds(4, X, y, classifier=True)
    grid = dict(gammas=[0.5, 5.0], sigma2s=[0.5, 2.0])
    weighted = grid_search(X, y, folds, sample_weight=w, **grid)
    dropped = grid_search(
        X[keep], y[keep], restrict_folds(folds, keep, len(y)), sample_weight=w[keep],
        **grid,
    )  # fmt: skip
    np.testing.assert_allclose(
        weighted.cv_results["mean_test_score"], dropped.cv_results["mean_test_score"]
    )
    assert weighted.best_params == dropped.best_params


def test_a_fold_of_every_positive_row_is_a_clear_error(data):
    X, y, w = data
    w = np.zeros(len(y))
    w[:10] = 1.0
    folds = [np.arange(20), np.arange(20, 60)]  # the second fold: only weight-0 rows
    with pytest.raises(ValueError, match="ClosedFormCV: sample_weight must leave a"):
        ClosedFormCV(RBF(1.0)(X), y, folds, sample_weight=w)


def test_restrict_folds_renumbers_and_drops_empty_folds():
    folds = [np.array([0, 3]), np.array([1, 2]), np.array([4])]
    out = restrict_folds(folds, np.array([0, 1, 2, 3]), 5)
    assert [f.tolist() for f in out] == [[0, 3], [1, 2]]
    out = restrict_folds(folds, np.array([1, 3, 4]), 5)
    assert [f.tolist() for f in out] == [[1], [0], [2]]


# ------------------------------------------------------------ RLSSVMClassifier.support_
def test_rls_support_numbers_the_rows_of_the_x_given_to_fit(data):
    X, y, w = data
    w = _zero_some(w)
    clf = RLSSVMClassifier(C=10.0, sigma2=1.0).fit(X, y, sample_weight=w)
    assert np.array_equal(clf.support_vectors_, X[clf.support_])
    assert np.all(w[clf.support_] > 0)  # a weight-0 row takes no part in [P 6]
    # the same model as the fit on the rows of positive weight, renumbered
    keep = np.flatnonzero(w > 0)
    ref = RLSSVMClassifier(C=10.0, sigma2=1.0)
    ref.fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_array_equal(clf.support_, keep[ref.support_])
    np.testing.assert_allclose(clf.theta_, ref.theta_)
    # the optimality conditions of the fit read support_ on the rows of X
    opt = clf.optimality(X, y, sample_weight=w)
    ref_opt = ref.optimality(X[keep], y[keep], sample_weight=w[keep])
    assert opt.min_error_support == pytest.approx(ref_opt.min_error_support)
    assert opt.max_error_outside == pytest.approx(ref_opt.max_error_outside)
    assert opt.gradient_w_norm == pytest.approx(ref_opt.gradient_w_norm, abs=1e-8)
    assert clf.support_[-1] >= 40
    with pytest.raises(ValueError, match="X must be the training input of fit"):
        clf.optimality(X[:40], y[:40])


# ------------------------------------------------------ class_probability: no refit
def test_class_probability_refits_only_a_model_without_the_bayes_output(data):
    X, y, _ = data
    res = bayes.level2(X, y, sigma2=2.0)
    with mock.patch.object(LSSVMClassifier, "fit", side_effect=AssertionError):
        p = bayes.class_probability(res, X[:5], prior=0.5)  # the level-2 model as is
    plain = LSSVMClassifier(gamma=res.gamma, sigma2=2.0).fit(X, y)  # by hand
    hand = dataclasses.replace(res, model=plain)
    calls = []
    fit = LSSVMClassifier.fit

    def counted(self, *args, **kwargs):
        calls.append(self)
        return fit(self, *args, **kwargs)

    with mock.patch.object(LSSVMClassifier, "fit", counted):
        q = bayes.class_probability(hand, X[:5], prior=0.5)
    assert len(calls) == 1 and calls[0] is not plain  # one refit, of a clone
    np.testing.assert_allclose(p, q, rtol=1e-6)
    doc = " ".join(bayes.class_probability.__doc__.split())  # the docstring says so
    assert "is used as it is, not refitted; only a model built by hand" in doc


# ------------------------------------------------- owners of the hand-written checks
def test_hand_written_checks_name_their_owner(data):
    X, y, _ = data
    K = RBF(1.0)(X)
    folds = make_folds(3, X, y, classifier=True)
    with pytest.raises(ValueError, match=r"^ClosedFormCV: strategy must be one of"):
        ClosedFormCV(K, y, folds, strategy="lu")
    with pytest.raises(ValueError, match=r"^score_latent: scoring must be one of"):
        score_latent("f1", y, y)
    with pytest.raises(ValueError, match=r"^score_latent: scoring='roc_auc' needs"):
        score_latent("roc_auc", np.ones(4), np.ones(4))
    with pytest.raises(ValueError, match=r"^make_folds: cv must split the data"):
        make_folds([(np.arange(10), np.arange(10, 20))], X, y, classifier=True)
    ones = np.ones(len(y))
    with pytest.raises(ValueError, match=r"^solve_bordered_kkt: method must be one of"):
        solve_bordered_kkt(K, 1.0, ones, y, method="lu")
    with pytest.raises(ValueError, match=r"^solve_bordered_kkt: stopping must be one"):
        solve_bordered_kkt(K, 1.0, ones, y, method="cg", stopping="gradient")
    factor = solve_bordered_kkt(K, 1.0, ones, y).factor
    with pytest.raises(ValueError, match=r"^solve_bordered_kkt: factor must be None"):
        solve_bordered_kkt(K, 1.0, ones, y, method="cg", factor=factor)
    with pytest.raises(ValueError, match=r"^conjugate_gradient: stopping must be one"):
        conjugate_gradient(lambda V: K @ V, y, stopping="gradient")
    with pytest.raises(ValueError, match=r"^codebook: n_bits must be >= 1"):
        codebook(5, "ecoc", n_bits=0)
    with pytest.raises(ValueError, match=r"^codebook: n_bits must be at most"):
        codebook(4, "ecoc", n_bits=50)
    with pytest.raises(ValueError, match=r"^level2: task must be one of"):
        bayes.level2(X, y, task="ranking")
