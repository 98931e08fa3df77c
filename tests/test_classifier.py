"""LSSVMClassifier: KKT conditions (3.4)-(3.5), model (3.7), labels, equivalences."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.metrics.pairwise import rbf_kernel

import lssvm._base
from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import two_spirals
from lssvm.linalg.kkt import kkt_residual, omega
from lssvm.linalg.solvers import NotPositiveDefiniteError

RTOL_DIRECT = 1e-10  # backward error of the Cholesky solve; equalities of (3.4)
RTOL_CG = 1e-6  # solver="cg" (tol 1e-10 on the residual) against solver="direct"
ATOL_MODEL = 1e-8  # model outputs recomputed from alpha_, b_ on training points

KERNELS = ["rbf", "linear", "poly"]
GAMMAS = [0.1, 100.0]


def _pm(clf, y):
    """Labels coded as in the fit: classes_[0] -> -1, classes_[1] -> +1."""
    return np.where(y == clf.classes_[1], 1.0, -1.0)


@pytest.mark.parametrize("gamma", GAMMAS)
@pytest.mark.parametrize("kernel", KERNELS)
def test_kkt_conditions(classification_data, kernel, gamma):
    X, y = classification_data
    clf = LSSVMClassifier(kernel=kernel, gamma=gamma, sigma2=2.0, degree=2).fit(X, y)
    y_pm = _pm(clf, y)
    alpha, b, e = clf.alpha_, clf.b_, clf.e_
    K = clf.kernel_(X)
    # The bordered system (3.5), with Omega = y y^T * K (3.6).
    residual = kkt_residual(omega(K, y_pm), gamma, y_pm, np.ones(len(y)), alpha, b)
    assert residual < RTOL_DIRECT
    # (3.4): sum_k alpha_k y_k = 0 and alpha_k = gamma e_k.
    assert abs(y_pm @ alpha) <= RTOL_DIRECT * np.abs(alpha).sum()
    np.testing.assert_allclose(e, alpha / gamma, rtol=1e-15)
    # (3.4): y_k [w^T phi(x_k) + b] = 1 - e_k, with the model (3.7).
    np.testing.assert_allclose(
        y_pm * clf.decision_function(X), 1.0 - e, rtol=0, atol=ATOL_MODEL
    )
    np.testing.assert_allclose(clf.dual_coef_, alpha * y_pm, rtol=1e-15)


@pytest.mark.parametrize("kernel", KERNELS)
def test_equals_regressor_on_pm1_targets(classification_data, kernel):
    # D = diag(y): D (K + I/gamma) D alpha_c + y b = 1  <=>  (K + I/gamma) D alpha_c
    # + b = y, so the regressor on +-1 targets has alpha = y * alpha_c and the same b.
    X, y = classification_data
    params = dict(kernel=kernel, gamma=3.0, sigma2=2.0, degree=2)
    clf = LSSVMClassifier(**params).fit(X, y)
    reg = LSSVMRegressor(**params).fit(X, y.astype(float))
    y_pm = y.astype(float)
    np.testing.assert_allclose(
        clf.dual_coef_, reg.alpha_, rtol=RTOL_DIRECT, atol=RTOL_DIRECT
    )
    np.testing.assert_allclose(
        clf.alpha_, y_pm * reg.alpha_, rtol=RTOL_DIRECT, atol=RTOL_DIRECT
    )
    assert clf.b_ == pytest.approx(reg.b_, rel=RTOL_DIRECT, abs=RTOL_DIRECT)
    np.testing.assert_allclose(
        clf.decision_function(X), reg.predict(X), rtol=RTOL_DIRECT, atol=RTOL_DIRECT
    )


@pytest.mark.parametrize("kernel", KERNELS)
def test_cg_agrees_with_direct(classification_data, kernel):
    X, y = classification_data
    params = dict(kernel=kernel, gamma=2.0, sigma2=2.0, degree=2)
    direct = LSSVMClassifier(solver="direct", **params).fit(X, y)
    cg = LSSVMClassifier(solver="cg", **params).fit(X, y)
    scale = np.abs(direct.alpha_).max()
    np.testing.assert_allclose(
        cg.alpha_, direct.alpha_, rtol=RTOL_CG, atol=RTOL_CG * scale
    )
    assert cg.b_ == pytest.approx(direct.b_, rel=RTOL_CG, abs=RTOL_CG)
    X_test = np.random.default_rng(1).standard_normal((30, X.shape[1]))
    np.testing.assert_allclose(
        cg.decision_function(X_test),
        direct.decision_function(X_test),
        rtol=RTOL_CG,
        atol=RTOL_CG,
    )
    np.testing.assert_array_equal(cg.predict(X), direct.predict(X))
    assert direct.n_iter_ == 0 and cg.n_iter_ > 0


def test_two_spirals_zero_training_error():
    # Fig. 3.2: RBF LS-SVM with gamma = 10, sigma2 = 10 separates the two spirals.
    X, y = two_spirals(scale=6)
    clf = LSSVMClassifier(gamma=10.0, sigma2=10.0).fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), y)
    assert clf.score(X, y) == 1.0


# -- labels ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "labels",
    [
        (-1, 1),
        (0, 1),
        (3, 7),
        (1.0, -2.0),
        ("cat", "dog"),
        ("yes", "no"),
        (True, False),
    ],
    ids=["pm1", "01", "ints", "floats", "strings", "strings-unsorted", "bools"],
)
def test_any_two_labels(classification_data, labels):
    X, y = classification_data
    y_labels = np.where(y > 0, labels[0], labels[1]).astype(np.asarray(labels).dtype)
    clf = LSSVMClassifier(gamma=10.0).fit(X, y_labels)
    np.testing.assert_array_equal(clf.classes_, np.sort(np.asarray(labels)))
    pred = clf.predict(X)
    assert pred.dtype == clf.classes_.dtype
    assert set(pred.tolist()) <= set(clf.classes_.tolist())
    np.testing.assert_array_equal(pred == clf.classes_[1], clf.decision_function(X) > 0)
    assert clf.score(X, y_labels) > 0.9  # training accuracy on a nearly separable set


def test_labels_only_rename_the_model(classification_data):
    # The same partition with other labels gives the same model up to the sign of
    # the decision function, which follows classes_[1].
    X, y = classification_data
    pm = LSSVMClassifier().fit(X, y)
    zero_one = LSSVMClassifier().fit(X, (y > 0).astype(int))
    flipped = LSSVMClassifier().fit(X, np.where(y > 0, "a", "b"))  # "a" is classes_[0]
    np.testing.assert_allclose(zero_one.decision_function(X), pm.decision_function(X))
    np.testing.assert_allclose(flipped.decision_function(X), -pm.decision_function(X))
    np.testing.assert_allclose(flipped.alpha_, pm.alpha_, rtol=1e-12)
    np.testing.assert_array_equal(
        flipped.predict(X), np.where(pm.predict(X) > 0, "a", "b")
    )


def test_one_class_raises(classification_data):
    X, _ = classification_data
    with pytest.raises(ValueError, match="at least 2 classes; got 1 class"):
        LSSVMClassifier().fit(X, np.zeros(len(X)))


def test_continuous_targets_raise(classification_data):
    X, _ = classification_data
    with pytest.raises(ValueError, match="Unknown label type"):
        LSSVMClassifier().fit(X, np.linspace(0, 1, len(X)))


# -- fitted state, blocks, errors ------------------------------------------------------


def test_fitted_attributes(classification_data):
    X, y = classification_data
    clf = LSSVMClassifier(gamma=2.0).fit(X, y)
    n, p = X.shape
    assert clf.alpha_.shape == clf.e_.shape == clf.dual_coef_.shape == (n,)
    assert isinstance(clf.b_, float)
    np.testing.assert_array_equal(clf.support_vectors_, X)
    assert clf.support_vectors_ is not X
    assert clf.n_features_in_ == p
    assert clf.classes_.shape == (2,)
    assert clf.n_iter_ == 0
    assert clf.kernel_.sigma2 == 1.0



def _attribute_entries(cls):
    """The Attributes section of a class docstring."""
    doc = cls.__doc__
    return doc[doc.index("Attributes\n    ----------") : doc.index("Examples\n")]


def test_probability_attribute_records_the_fit(classification_data):
    X, y = classification_data
    clf = LSSVMClassifier(gamma=2.0)
    assert not hasattr(clf, "probability_")
    for given, fitted in [(False, False), (True, True), ("bayes", "bayes")]:
        clf.set_params(probability=given).fit(X, y)
        assert clf.probability_ is fitted or clf.probability_ == fitted == "bayes"
    clf.set_params(probability=True)  # the fit, not the parameter, decides
    assert clf.probability_ == "bayes"
    with pytest.raises(NotFittedError, match="fitted with probability='bayes'"):
        clf.predict_proba(X)
    assert '    probability_ : {False, True, "bayes"}\n' in _attribute_entries(
        LSSVMClassifier
    )


def test_moderated_output_is_the_bayes_predict_proba(classification_data):
    X, y = classification_data
    clf = LSSVMClassifier(gamma=2.0, sigma2=1.5, probability="bayes").fit(X, y)
    p1 = clf.predict_proba(X)[:, 1]
    np.testing.assert_array_equal(clf.moderated_output(X), p1)
    same = clf.moderated_output(X, mu=clf.mu_, zeta=clf.zeta_)
    np.testing.assert_array_equal(same, p1)
    p = clf.moderated_output(X, mu=2 * clf.mu_, zeta=clf.zeta_, prior=0.3)
    assert p.shape == (len(X),) and not np.allclose(p, p1)
    # the prior enters as the log prior odds, log(pi_+ / pi_-), added to the logit
    even = clf.moderated_output(X, mu=2 * clf.mu_, zeta=clf.zeta_, prior=0.5)
    np.testing.assert_allclose(
        np.log(p / (1 - p)) - np.log(even / (1 - even)), np.log(0.3 / 0.7),
        rtol=1e-9,
    )  # fmt: skip
    doc = LSSVMClassifier.moderated_output.__doc__
    for entry in ("mu, zeta : float", "prior : float", "Returns", "NotFittedError"):
        assert entry in doc, entry
    assert ":meth:`moderated_output`" in LSSVMClassifier.__doc__
    assert "    mu_, zeta_ : float\n" in _attribute_entries(LSSVMClassifier)


def test_moderated_output_needs_a_bayes_fit_and_valid_values(classification_data):
    X, y = classification_data
    with pytest.raises(NotFittedError, match="not fitted"):
        LSSVMClassifier(probability="bayes").moderated_output(X)
    for method in (False, True):
        clf = LSSVMClassifier(probability=method).fit(X, y)
        with pytest.raises(
            NotFittedError,
            match=rf"^LSSVMClassifier: probability_ must be 'bayes' for "
            rf"moderated_output .*; got probability_={method!r}\. Fit it again",
        ):
            clf.moderated_output(X)
    clf = LSSVMClassifier(probability="bayes").fit(X, y)
    for name, value in [("mu", 0.0), ("mu", np.nan), ("zeta", -1.0), ("zeta", "x")]:
        with pytest.raises(
            ValueError,
            match=rf"^LSSVMClassifier\.moderated_output: {name} must be a positive "
            rf"float; got {name}=",
        ):
            clf.moderated_output(X, **{name: value})
    for prior in (0.0, 1.0, np.nan, "x"):
        with pytest.raises(
            ValueError,
            match=r"^LSSVMClassifier\.moderated_output: prior must be a float in "
            r"\(0, 1\) .*; got prior=",
        ):
            clf.moderated_output(X, prior=prior)


def test_prediction_in_blocks(classification_data, rng, monkeypatch):
    X, y = classification_data
    clf = LSSVMClassifier().fit(X, y)
    X_test = rng.standard_normal((25, X.shape[1]))
    expected = clf.kernel_(X_test, X) @ clf.dual_coef_ + clf.b_  # (3.7), unblocked
    monkeypatch.setattr(lssvm._base, "_PREDICT_BLOCK_ENTRIES", 7 * len(X))  # 7 rows
    np.testing.assert_allclose(clf.decision_function(X_test), expected, rtol=1e-12)


def test_callable_kernel_equals_named_kernel(classification_data):
    X, y = classification_data
    named = LSSVMClassifier(sigma2=2.0).fit(X, y)
    call = LSSVMClassifier(kernel=lambda A, B: rbf_kernel(A, B, gamma=0.5)).fit(X, y)
    np.testing.assert_allclose(call.alpha_, named.alpha_, rtol=1e-10)
    assert call.b_ == pytest.approx(named.b_, rel=1e-10)


def test_predict_before_fit_raises(classification_data):
    X, _ = classification_data
    clf = LSSVMClassifier()
    for method in (clf.predict, clf.decision_function):
        with pytest.raises(NotFittedError):
            method(X)


@pytest.mark.parametrize("solver", ["direct", "cg"])
def test_negative_definite_kernel_raises(classification_data, solver):
    X, y = classification_data
    clf = LSSVMClassifier(kernel=lambda A, B: -5.0 * rbf_kernel(A, B), solver=solver)
    with pytest.raises(NotPositiveDefiniteError, match="not positive definite"):
        clf.fit(X, y)


# -- issue 25: n_jobs, NaN at predict --------------------------------------------------


@pytest.mark.parametrize("n_jobs, threads", [(None, 1), (1, 1), (2, 2)])
def test_n_jobs_reaches_the_matrix_free_operator(monkeypatch, rng, n_jobs, threads):
    seen = []

    class Spy(lssvm._base.KernelOperator):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            seen.append(self.n_jobs)

    monkeypatch.setattr(lssvm._base, "KernelOperator", Spy)
    X = rng.standard_normal((600, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    clf = LSSVMClassifier(solver="cg", n_jobs=n_jobs).fit(X, y)
    assert seen and set(seen) == {threads}
    reference = LSSVMClassifier(solver="cg", n_jobs=1).fit(X, y)
    np.testing.assert_array_equal(clf.alpha_, reference.alpha_)  # same for any n_jobs


@pytest.mark.parametrize("n_jobs", [0, 1.5, "2", True])
def test_bad_n_jobs_raises(rng, n_jobs):
    X = rng.standard_normal((20, 2))
    with pytest.raises(ValueError, match=r"LSSVMClassifier: n_jobs must be None or"):
        LSSVMClassifier(n_jobs=n_jobs).fit(X, np.where(X[:, 0] > 0, 1, -1))


def test_overflow_at_predict_raises_instead_of_nan(rng):
    X = rng.standard_normal((40, 2))
    y = (X[:, 0] > 0).astype(int)
    clf = LSSVMClassifier(kernel="poly").fit(X, y)
    with np.errstate(over="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match=r"NaN or inf for 3 of 3 rows.*overflows"):
            clf.decision_function(X[:3] * 1e120)
        with pytest.raises(ValueError, match="Polynomial"):
            clf.predict(X[:3] * 1e120)


@pytest.mark.parametrize("sigma2, match", [(1e-12, "the identity"), (1e12, "constant")])
def test_degenerate_width_warns(rng, sigma2, match):
    from lssvm.linalg import NumericalWarning

    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    message = rf"LSSVMClassifier: .*numerically {match}"
    with pytest.warns(NumericalWarning, match=message):
        LSSVMClassifier(sigma2=sigma2).fit(X, y)


# -- sigma2="scale" and the warning for a kernel matrix that is the identity -------------


def _breast_cancer_split():
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    X, y = load_breast_cancer(return_X_y=True)  # raw features, from 0.001 to 4000
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


def test_unscaled_inputs_warn_that_the_kernel_is_the_identity():
    # sigma2 = 1 on raw breast-cancer features: K = I for most rows, every test
    # decision is b, the score the majority share (0.626 measured); it must not be silent.
    from lssvm.linalg import NumericalWarning

    X_tr, X_te, y_tr, y_te = _breast_cancer_split()
    with pytest.warns(NumericalWarning, match="numerically the identity"):
        clf = LSSVMClassifier().fit(X_tr, y_tr)
    assert clf.score(X_te, y_te) == pytest.approx(max(np.mean(y_te), 1 - np.mean(y_te)))


def test_a_model_that_predicts_one_class_away_from_its_points_warns():
    # Standardised breast cancer, sigma2 = 1: K is not the identity (most points have
    # a neighbour with K > 1e-12), yet away from the training points the model is the
    # majority rule (test predictions one class: measured 0.994-1.0 of them).
    import warnings

    from sklearn.preprocessing import StandardScaler

    from lssvm.linalg import NumericalWarning

    X_tr, X_te, y_tr, y_te = _breast_cancer_split()
    scaler = StandardScaler().fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)
    with pytest.warns(NumericalWarning, match="predicts one class") as record:
        clf = LSSVMClassifier().fit(X_tr, y_tr)
    assert not any("identity" in str(w.message) for w in record)  # one cause, one warning
    predicted = clf.predict(X_te)
    assert np.max(np.unique(predicted, return_counts=True)[1]) >= 0.95 * len(predicted)
    with warnings.catch_warnings():  # a sound width: silent
        warnings.simplefilter("error", NumericalWarning)
        LSSVMClassifier(sigma2="scale").fit(X_tr, y_tr)
        LSSVMClassifier(sigma2="scale", coding="ova").fit(X_tr, y_tr)


def test_sigma2_scale_is_n_features_times_the_variance():
    import warnings

    from lssvm.linalg import NumericalWarning

    X_tr, X_te, y_tr, y_te = _breast_cancer_split()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        clf = LSSVMClassifier(sigma2="scale").fit(X_tr, y_tr)
    assert clf.score(X_te, y_te) > 0.9  # 0.912 measured; SVC() 0.906
    width = X_tr.shape[1] * X_tr.var()
    ref = LSSVMClassifier(sigma2=width).fit(X_tr, y_tr)
    np.testing.assert_allclose(
        clf.decision_function(X_te), ref.decision_function(X_te), rtol=1e-10
    )


def test_sigma2_scale_sparse_equals_dense(classification_data):
    import scipy.sparse as sps

    from lssvm import LSSVMRegressor

    X, y = classification_data
    X = np.abs(X) * (np.abs(X) > 0.5)
    dense = LSSVMRegressor(sigma2="scale").fit(X, y)
    sparse = LSSVMRegressor(sigma2="scale").fit(sps.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.predict(X), dense.predict(X), rtol=1e-9)
    assert dense.kernel_.sigma2 == pytest.approx(X.shape[1] * X.var())


def test_bayes_probabilities_with_bits_of_different_kernels_use_bit_0():
    """A two-class code of two bits with different kernels: the moderated output is
    bit 0's (its latent output, kernel and factor), as for the one-bit code."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(40) > 0, 1, 0)
    two = LSSVMClassifier(
        coding=np.array([[-1, -1], [1, 1]]), probability="bayes",
        bit_params=[{"sigma2": 1.0}, {"sigma2": 4.0}],
    ).fit(X, y)  # fmt: skip
    one = LSSVMClassifier(sigma2=1.0, probability="bayes").fit(X, y)
    np.testing.assert_allclose(
        two.moderated_output(X[:5], mu=one.mu_, zeta=one.zeta_),
        one.moderated_output(X[:5]), rtol=1e-10,
    )  # fmt: skip
