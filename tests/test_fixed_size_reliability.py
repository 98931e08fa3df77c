"""Fixed-size LS-SVM: bad input, memory, sigma2="scale", weights, stored kernels."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lssvm.linalg.memory as memory
from lssvm import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from lssvm.kernels import RBF, Precomputed
from lssvm.linalg import NumericalWarning
from lssvm.linalg.nystrom import NystromFeatureMap

da = pytest.importorskip("dask.array")

ESTIMATORS = [FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor]


@pytest.fixture
def small():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    y = (X[:, 0] + 0.3 * rng.standard_normal(60) > 0).astype(int)
    y_reg = X[:, 0] + 0.1 * rng.standard_normal(60)
    return X, y, y_reg


def _target(cls, small):
    X, y, y_reg = small
    return y if cls is FixedSizeLSSVMClassifier else y_reg


# --- targets and non-finite input --------------------------------------------------


@pytest.mark.parametrize("dask_y", [False, True])
def test_dask_classifier_refuses_continuous_targets(small, dask_y):
    """A continuous y is refused with a Dask X as with a numpy X (60 classes before)."""
    X, _, _ = small
    y = np.random.default_rng(1).standard_normal(60)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        FixedSizeLSSVMClassifier(n_prototypes=10).fit(X, y)
    y_in = da.from_array(y, chunks=20) if dask_y else y
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        FixedSizeLSSVMClassifier(n_prototypes=10).fit(da.from_array(X, chunks=20), y_in)


def test_dask_classifier_keeps_integer_and_string_labels(small):
    X, y, _ = small
    for labels in (y.astype(float), np.array(["a", "b"])[y]):
        est = FixedSizeLSSVMClassifier(n_prototypes=10, random_state=0).fit(
            da.from_array(X, chunks=(20, -1)), labels)
        assert len(est.classes_) == 2


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_dask_predict_with_nan_raises(small, cls):
    X = small[0]
    est = cls(n_prototypes=10, random_state=0).fit(X, _target(cls, small))
    T = X[:10].copy()
    T[7, 0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.predict(T)
    out = est.predict(da.from_array(T, chunks=(5, -1)))  # lazy: raises at compute
    with pytest.raises(ValueError, match=r"Input X contains NaN or infinity .* row 5"):
        out.compute()
    if cls is FixedSizeLSSVMClassifier:
        with pytest.raises(ValueError, match="Input X contains NaN"):
            est.decision_function(da.from_array(T, chunks=(5, -1))).compute()
    finite = est.predict(da.from_array(X[:10], chunks=(5, -1))).compute()
    # blocks of 5 rows against one of 10: BLAS may sum in another order (measured: 1
    # unit in the last place on one of 10 outputs in one run, 0 in others)
    np.testing.assert_allclose(finite, est.predict(X[:10]), rtol=1e-14, atol=1e-15)


def test_nan_prototypes_raise_a_clear_error(small):
    X, _, y_reg = small
    Z = X[:5].copy()
    Z[0, 0] = np.nan
    with pytest.raises(ValueError, match="prototypes must be finite"):
        FixedSizeLSSVMRegressor(prototypes=Z, n_prototypes=5).fit(X, y_reg)


@pytest.mark.parametrize("solver", ["normal", "pcg"])
def test_nan_in_dask_x_at_fit_raises_a_clear_error(small, solver):
    X, _, y_reg = small
    Xn = X.copy()
    Xn[43, 1] = np.nan
    common = dict(n_prototypes=5, prototypes=X[:5], solver=solver)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        FixedSizeLSSVMRegressor(**common).fit(Xn, y_reg)
    with pytest.raises(ValueError, match=r"Input X contains NaN .* row 40"):
        FixedSizeLSSVMRegressor(**common).fit(da.from_array(Xn, chunks=(20, -1)), y_reg)
    # a NaN row drawn as a prototype is named too (not a LinAlgError)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        FixedSizeLSSVMRegressor(n_prototypes=60, prototypes="random", solver=solver
                                ).fit(da.from_array(Xn, chunks=(20, -1)), y_reg)


# --- kernel="precomputed" -----------------------------------------------------------


@pytest.mark.parametrize("cls", ESTIMATORS)
@pytest.mark.parametrize("kernel", ["precomputed", Precomputed()])
def test_precomputed_kernel_is_refused(small, cls, kernel):
    X = small[0]
    K = RBF(2.0)(X)
    with pytest.raises(ValueError, match="kernel='precomputed' is not supported"):
        cls(kernel=kernel, n_prototypes=15).fit(K, _target(cls, small))


# --- sigma2="scale" -----------------------------------------------------------------


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_sigma2_scale_is_n_features_times_variance(small, cls):
    X = small[0] * 7.0
    y = _target(cls, small)
    width = X.shape[1] * X.var()
    common = dict(n_prototypes=15, random_state=0)
    a = cls(sigma2="scale", **common).fit(X, y)
    b = cls(sigma2=width, **common).fit(X, y)
    assert a.kernel_.sigma2 == pytest.approx(width, rel=1e-15)
    np.testing.assert_array_equal(a.prototype_indices_, b.prototype_indices_)
    np.testing.assert_allclose(a._latent_numpy(X), b._latent_numpy(X), rtol=1e-12)
    c = cls(sigma2="scale", **common).fit(da.from_array(X, chunks=(20, -1)), y)
    assert c.kernel_.sigma2 == pytest.approx(width, rel=1e-12)
    np.testing.assert_allclose(c._latent_numpy(X), a._latent_numpy(X), rtol=1e-9,
                               atol=1e-12)


def test_degenerate_width_warns_and_scale_does_not(small):
    X, y, _ = small
    X = X * 1e4  # unscaled inputs: K(X, X) is numerically the identity for sigma2=1
    with pytest.warns(NumericalWarning, match="numerically the identity"):
        FixedSizeLSSVMClassifier(n_prototypes=10, random_state=0).fit(X, y)
    with pytest.warns(NumericalWarning, match="numerically the identity"):
        FixedSizeLSSVMClassifier(n_prototypes=10, random_state=0).fit(
            da.from_array(X, chunks=(20, -1)), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        est = FixedSizeLSSVMClassifier(n_prototypes=10, sigma2="scale",
                                       random_state=0).fit(X, y)
    assert est.score(X, y) > 0.8


# --- memory -------------------------------------------------------------------------


def test_all_rows_as_prototypes_at_400k_fails_before_allocating():
    """m = N = 400,000 needs terabytes for the m x m work: a clear error at once."""
    X = np.random.default_rng(0).standard_normal((400_000, 1))
    with pytest.raises(memory.InsufficientMemoryError, match="m = 400000 prototypes"):
        FixedSizeLSSVMRegressor(n_prototypes=400_000, prototypes="random").fit(
            X, X[:, 0])


@pytest.mark.parametrize("solver", ["normal", "pcg"])
def test_memory_guard_with_a_small_limit(small, monkeypatch, solver):
    X, _, y_reg = small
    monkeypatch.setattr(memory, "available_memory", lambda: 2**15)  # 32 KiB
    est = FixedSizeLSSVMRegressor(n_prototypes=60, prototypes="random", solver=solver)
    with pytest.raises(MemoryError,
                       match=r"Nothing was allocated; use fewer prototypes \(n_proto"):
        est.fit(X, y_reg)
    with pytest.raises(ValueError, match="m = 60 prototypes"):  # also a ValueError
        est.fit(da.from_array(X, chunks=(20, -1)), y_reg)
    monkeypatch.setattr(memory, "available_memory", lambda: None)  # unknown: no check
    est.fit(X, y_reg)


# --- sample weights -----------------------------------------------------------------


def _weights_and_repeats(n, seed=0):
    w = np.random.default_rng(seed).integers(0, 4, n)
    return w, np.repeat(np.arange(n), w)


@pytest.mark.parametrize("solver", ["normal", "pcg"])
@pytest.mark.parametrize("cls", ESTIMATORS)
def test_integer_weights_equal_repeated_rows(small, cls, solver):
    X = small[0]
    y = _target(cls, small)
    w, rep = _weights_and_repeats(len(X))
    common = dict(prototypes=X[w > 0][:12], gamma=5.0, sigma2=2.0, solver=solver,
                  tol=1e-13, chunk_size=17)
    weighted = cls(**common).fit(X, y, sample_weight=w)
    repeated = cls(**common).fit(X[rep], y[rep])
    scale = np.max(np.abs(repeated._latent_numpy(X)))
    assert np.max(np.abs(weighted._latent_numpy(X) - repeated._latent_numpy(X))) \
        < 1e-8 * scale
    ones = cls(**common).fit(X, y, sample_weight=np.ones(len(X)))
    plain = cls(**common).fit(X, y)
    np.testing.assert_array_equal(ones.dual_coef_, plain.dual_coef_)


def test_drawn_prototypes_skip_zero_weight_rows(small):
    X, y, _ = small
    w = np.ones(len(X))
    w[::2] = 0.0
    est = FixedSizeLSSVMClassifier(n_prototypes=20, prototypes="random",
                                   random_state=0).fit(X, y, sample_weight=w)
    assert np.all(w[est.prototype_indices_] > 0)


def test_weighted_loo_equals_weighted_refits(small):
    """cv="loo" with weights: each row left out with all its weight, errors weighted."""
    X, _, y = small
    y = y + 0.3
    w = np.random.default_rng(2).uniform(0.2, 3.0, len(X))
    Z = X[:10]
    fmap = NystromFeatureMap(RBF(2.0), Z)
    gammas = [0.1, 3.0, 100.0]
    est = FixedSizeLSSVMRegressor(gamma=gammas, prototypes=Z, sigma2=2.0, cv="loo",
                                  chunk_size=13).fit(X, y, sample_weight=w)
    refit = np.zeros(len(gammas))
    for g, gamma in enumerate(gammas):
        for i in range(len(X)):
            train = np.arange(len(X)) != i
            A = np.hstack([fmap.transform(X[train]), np.ones((len(X) - 1, 1))])
            P = np.eye(A.shape[1]) / gamma
            P[-1, -1] = 0.0
            theta = np.linalg.solve(A.T @ (w[train, None] * A) + P,
                                    A.T @ (w[train] * y[train]))
            pred = fmap.transform(X[i:i + 1]) @ theta[:-1] + theta[-1]
            refit[g] += w[i] * (y[i] - pred[0]) ** 2
    np.testing.assert_allclose(est.cv_errors_, refit / w.sum(), rtol=1e-8)


def test_sample_weight_errors(small):
    X, y, _ = small
    est = FixedSizeLSSVMClassifier(n_prototypes=10)
    with pytest.raises(ValueError, match="sample_weight"):
        est.fit(X, y, sample_weight=-np.ones(len(X)))
    with pytest.raises(ValueError, match="sample_weight"):
        est.fit(X, y, sample_weight=np.ones(5))
    w = np.where(y == 1, 0.0, 1.0)
    with pytest.raises(ValueError, match="sample_weight is 0 for every sample"):
        est.fit(X, y, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight"):
        est.fit(da.from_array(X, chunks=(20, -1)), y, sample_weight=-np.ones(len(X)))


@pytest.mark.parametrize("solver", ["normal", "pcg"])
def test_dask_weights_equal_in_memory_weights(small, solver):
    X, y, _ = small
    w, _ = _weights_and_repeats(len(X), seed=3)
    common = dict(n_prototypes=12, random_state=0, solver=solver, tol=1e-13,
                  chunk_size=20)
    local = FixedSizeLSSVMClassifier(**common).fit(X, y, sample_weight=w)
    remote = FixedSizeLSSVMClassifier(**common).fit(
        da.from_array(X, chunks=(20, -1)), y, sample_weight=da.from_array(w, chunks=20))
    np.testing.assert_array_equal(remote.prototype_indices_, local.prototype_indices_)
    np.testing.assert_allclose(remote.dual_coef_, local.dual_coef_, rtol=1e-10,
                               atol=1e-10 * np.abs(local.dual_coef_).max())


# --- stored kernel blocks for solver="pcg" ------------------------------------------


def test_stored_kernel_blocks_give_the_same_fit(small, monkeypatch):
    X, y, _ = small
    common = dict(n_prototypes=15, random_state=0, solver="pcg", chunk_size=16)
    stored = FixedSizeLSSVMClassifier(store_kernel=True, **common).fit(X, y)
    again = FixedSizeLSSVMClassifier(store_kernel=False, **common).fit(X, y)
    assert stored.kernel_stored_ and not again.kernel_stored_
    np.testing.assert_array_equal(stored.dual_coef_, again.dual_coef_)
    assert stored.n_iter_ == again.n_iter_
    assert FixedSizeLSSVMClassifier(**common).fit(X, y).kernel_stored_  # auto: fits
    normal = FixedSizeLSSVMClassifier(store_kernel=True, n_prototypes=15,
                                      random_state=0, solver="normal").fit(X, y)
    assert not normal.kernel_stored_  # only "pcg" stores blocks
    needed = 8 * 60 * 15  # the N x m blocks
    auto = FixedSizeLSSVMClassifier(**common)
    monkeypatch.setattr(memory, "available_memory", lambda: 2 * needed)
    assert auto._store_kernel(60, 15)  # at most AUTO_MEMORY_FRACTION = 1/2
    monkeypatch.setattr(memory, "available_memory", lambda: 2 * needed - 1)
    assert not auto._store_kernel(60, 15)
    with pytest.raises(memory.InsufficientMemoryError, match="store_kernel=True"):
        FixedSizeLSSVMClassifier(store_kernel=True, **common)._store_kernel(
            60, needed // 8 // 60 * 2 + 1)
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    with pytest.raises(ValueError, match="store_kernel must be"):
        FixedSizeLSSVMClassifier(store_kernel="yes", **common).fit(X, y)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_kernel_overflow_at_predict_raises(small, cls):
    """The polynomial kernel overflows at 1e120 times the inputs: an error, not NaN."""
    X = small[0]
    est = cls(kernel="poly", n_prototypes=10, random_state=0)
    est.fit(X, _target(cls, small))
    with pytest.raises(ValueError, match="the model's output is NaN or inf"):
        est.predict(X[:3] * 1e120)
    with pytest.raises(ValueError, match="the model's output is NaN or inf"):
        est.predict(da.from_array(X[:3] * 1e120, chunks=(3, -1))).compute()


@pytest.mark.parametrize("weighted", [False, True])
def test_dask_pcg_gamma_grid_equals_in_memory(small, weighted):
    """solver="pcg" with several gamma on a Dask X: the held-out fold's errors, the
    chosen gamma and the refit equal the in-memory run's (also with stored blocks)."""
    X, y, _ = small
    w = _weights_and_repeats(len(X), seed=3)[0] if weighted else None
    common = dict(n_prototypes=12, random_state=0, solver="pcg", tol=1e-13,
                  chunk_size=20, gamma=[0.1, 1.0, 10.0], cv=3)
    local = FixedSizeLSSVMClassifier(**common).fit(X, y, sample_weight=w)
    stored = FixedSizeLSSVMClassifier(store_kernel=True, **common).fit(
        X, y, sample_weight=w)
    remote = FixedSizeLSSVMClassifier(**common).fit(
        da.from_array(X, chunks=(20, -1)), y,
        sample_weight=None if w is None else da.from_array(w, chunks=20))
    for other in (stored, remote):
        np.testing.assert_allclose(other.cv_errors_, local.cv_errors_, rtol=1e-10)
        assert other.gamma_ == local.gamma_
        np.testing.assert_allclose(other.dual_coef_, local.dual_coef_, rtol=1e-10,
                                   atol=1e-10 * np.abs(local.dual_coef_).max())
