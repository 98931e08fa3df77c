"""The fixed-size LS-SVM on Dask: a two-worker LocalCluster gives the in-process results."""

from __future__ import annotations

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

from lssvm import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor  # noqa: E402
from lssvm.datasets import xor_sine  # noqa: E402

CHUNK = 250


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        memory_limit="2GB",
    ) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def data():
    X, y = xor_sine(2000, n_features=5, random_state=3)
    X_test = xor_sine(300, n_features=5, random_state=4)[0]
    return X, y, X_test


def relative(a, b):
    return np.max(np.abs(a - b)) / np.max(np.abs(b))


@pytest.mark.parametrize("prototypes", ["entropy", "random"])
def test_classifier_on_cluster_equals_in_process(client, data, prototypes):
    X, y, X_test = data
    params = dict(n_prototypes=60, gamma=[0.1, 1.0, 10.0], sigma2=4.0,
                  prototypes=prototypes, random_state=0, chunk_size=CHUNK)
    local = FixedSizeLSSVMClassifier(**params).fit(X, y)
    Xd = da.from_array(X, chunks=(CHUNK, -1))
    yd = da.from_array(y, chunks=CHUNK)
    remote = FixedSizeLSSVMClassifier(**params).fit(Xd, yd)
    np.testing.assert_array_equal(remote.prototype_indices_, local.prototype_indices_)
    assert relative(remote.dual_coef_, local.dual_coef_) < 1e-10
    assert remote.gamma_ == local.gamma_
    np.testing.assert_allclose(remote.cv_errors_, local.cv_errors_, rtol=1e-10)
    scores = remote.decision_function(da.from_array(X_test, chunks=(100, -1)))
    assert isinstance(scores, da.Array)
    assert relative(scores.compute(), local.decision_function(X_test)) < 1e-10
    labels = remote.predict(da.from_array(X_test, chunks=(100, -1)))
    assert isinstance(labels, da.Array)
    np.testing.assert_array_equal(labels.compute(), local.predict(X_test))


def test_other_chunkings_agree_to_round_off(client, data):
    X, y, X_test = data
    params = dict(n_prototypes=40, gamma=2.0, sigma2=4.0, random_state=0,
                  chunk_size=CHUNK)
    local = FixedSizeLSSVMRegressor(**params).fit(X, y.astype(float))
    remote = FixedSizeLSSVMRegressor(**params).fit(
        da.from_array(X, chunks=(333, 5)), y.astype(float)  # numpy y with Dask X
    )
    assert relative(remote.predict(X_test), local.predict(X_test)) < 1e-10


def test_loo_tuning_on_cluster_equals_in_process(client, data):
    X, y, X_test = data
    params = dict(n_prototypes=40, gamma=[0.1, 1.0, 10.0], sigma2=4.0, cv="loo",
                  random_state=0, chunk_size=CHUNK)
    local = FixedSizeLSSVMClassifier(**params).fit(X, y)
    remote = FixedSizeLSSVMClassifier(**params).fit(
        da.from_array(X, chunks=(CHUNK, -1)), da.from_array(y, chunks=CHUNK))
    np.testing.assert_allclose(remote.cv_errors_, local.cv_errors_, rtol=1e-10)
    assert remote.gamma_ == local.gamma_
    assert relative(remote.dual_coef_, local.dual_coef_) < 1e-10


def test_multiclass_on_cluster(client):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((900, 2))
    y = np.array(["a", "b", "c"])[np.digitize(X[:, 0], [-0.5, 0.5])]
    params = dict(n_prototypes=30, gamma=10.0, random_state=0, chunk_size=300)
    local = FixedSizeLSSVMClassifier(**params).fit(X, y)
    remote = FixedSizeLSSVMClassifier(**params).fit(
        da.from_array(X, chunks=(300, -1)), da.from_array(y, chunks=300)
    )
    np.testing.assert_array_equal(remote.classes_, local.classes_)
    assert relative(remote.dual_coef_, local.dual_coef_) < 1e-10
    scores = remote.decision_function(da.from_array(X, chunks=(300, -1)))
    assert scores.shape == (900, 3)


def test_dask_input_errors(client, data):
    X, y, _ = data
    est = FixedSizeLSSVMClassifier(n_prototypes=10)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        est.fit(da.from_array(X, chunks=(500, -1)), da.from_array(y[:-1], chunks=500))
    unknown = da.from_array(X, chunks=(500, -1))
    unknown = unknown[unknown[:, 0] > -10]  # unknown chunk sizes
    with pytest.raises(ValueError, match="known chunk sizes"):
        est.fit(unknown, y)
    est.fit(da.from_array(X, chunks=(500, -1)), y)
    with pytest.raises(ValueError, match="features"):
        est.predict(da.from_array(X[:, :3], chunks=(500, -1)))


# --- solver="pcg": the N-side products of each CG iteration as tasks on the blocks ---


@pytest.mark.parametrize("kind", ["regressor", "classifier"])
def test_pcg_on_cluster_equals_in_process(client, data, kind):
    X, y, X_test = data
    if kind == "regressor":
        est, target = FixedSizeLSSVMRegressor, y.astype(float) + 0.3
    else:  # three classes: three output columns share every pass
        est = FixedSizeLSSVMClassifier
        target = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])
    params = dict(n_prototypes=60, gamma=2.0, sigma2=4.0, random_state=0,
                  chunk_size=CHUNK, solver="pcg", tol=1e-12)
    local = est(**params).fit(X, target)
    Xd = da.from_array(X, chunks=(CHUNK, -1))
    remote = est(**params).fit(Xd, da.from_array(target, chunks=CHUNK))
    assert remote.solver_ == "pcg" and remote.n_iter_ == local.n_iter_ > 1
    assert relative(remote.dual_coef_, local.dual_coef_) < 1e-10
    assert relative(remote.intercept_, local.intercept_) < 1e-10
    again = est(**params).fit(Xd, da.from_array(target, chunks=CHUNK))
    np.testing.assert_array_equal(again.dual_coef_, remote.dual_coef_)  # deterministic
    # other blocks than chunks: the sums are grouped otherwise, equal to round-off
    other = est(**params).fit(da.from_array(X, chunks=(333, -1)), target)
    assert relative(other.dual_coef_, local.dual_coef_) < 1e-10
    out = remote._latent_numpy(X_test)
    assert relative(out, local._latent_numpy(X_test)) < 1e-10


def test_weighted_pcg_on_cluster_equals_in_process(client, data):
    X, y, _ = data
    w = np.random.default_rng(0).integers(0, 4, len(X)).astype(float)
    params = dict(n_prototypes=40, gamma=2.0, sigma2=4.0, random_state=0,
                  chunk_size=CHUNK, solver="pcg", tol=1e-12)
    local = FixedSizeLSSVMClassifier(**params).fit(X, y, sample_weight=w)
    remote = FixedSizeLSSVMClassifier(**params).fit(
        da.from_array(X, chunks=(CHUNK, -1)), y, sample_weight=w)
    np.testing.assert_array_equal(remote.prototype_indices_, local.prototype_indices_)
    assert relative(remote.dual_coef_, local.dual_coef_) < 1e-10


# --- the exact LS-SVM's CG with its kernel products on the cluster -------------------


def test_cg_operator_on_cluster_equals_in_process(client):
    from lssvm.linalg.dask_operators import DaskKernelOperator, cyclic_pairs
    from lssvm.kernels import RBF
    from lssvm.linalg.operators import KernelOperator

    for p in range(1, 8):  # every pair of blocks once, tasks of equal size
        pairs = [frozenset((w[0], j)) for w in cyclic_pairs(p) for j in w[1:]]
        assert len(set(pairs)) == len(pairs) == p * (p - 1) // 2
        assert np.ptp([len(w) for w in cyclic_pairs(p)]) <= 1
    rng = np.random.default_rng(0)
    X, V = rng.standard_normal((1501, 3)), rng.standard_normal((1501, 2))
    expected = KernelOperator(RBF(2.0), X, shift=0.1)(V)
    for n_blocks in [None, 1, 4]:
        H = DaskKernelOperator(RBF(2.0), X, shift=0.1, block_size=100,
                               n_blocks=n_blocks)
        assert relative(H(V), expected) < 1e-13
        assert relative(H(V[:, 0]), expected[:, 0]) < 1e-13


@pytest.mark.parametrize("kind", ["regressor", "classifier"])
def test_cg_fit_on_cluster_equals_in_process(client, data, kind):
    from lssvm import LSSVMClassifier, LSSVMRegressor

    X, y, X_test = data
    X, y = X[:1500], y[:1500]
    est = LSSVMRegressor if kind == "regressor" else LSSVMClassifier
    target = y.astype(float) if kind == "regressor" else y
    params = dict(gamma=10.0, sigma2=1.0, solver="cg", tol=1e-8)
    local = est(**params).fit(X, target)
    remote = est(**params).fit(da.from_array(X, chunks=(CHUNK, -1)),
                               da.from_array(target, chunks=CHUNK))
    assert remote.n_iter_ == local.n_iter_ > 1
    # equal to the solver tolerance: both solve the same KKT system to tol = 1e-8
    scale = np.max(np.abs(local.alpha_))
    assert np.max(np.abs(remote.alpha_ - local.alpha_)) < 1e-6 * scale
    out = remote.predict(X_test) if kind == "regressor" else remote.decision_function(
        X_test)
    ref = local.predict(X_test) if kind == "regressor" else local.decision_function(
        X_test)
    assert relative(out, ref) < 1e-6


def test_cg_on_cluster_refuses_the_direct_solver(client, data):
    from lssvm import LSSVMRegressor

    X, y, _ = data
    with pytest.raises(ValueError, match="solver must be 'cg' or 'auto'"):
        LSSVMRegressor(solver="direct").fit(da.from_array(X[:100], chunks=(50, -1)),
                                             y[:100].astype(float))
    with pytest.raises(ValueError, match="kernel must not be 'precomputed'"):
        LSSVMRegressor(solver="cg", kernel="precomputed").fit(
            da.from_array(np.eye(100), chunks=(50, -1)), y[:100].astype(float))


def test_cg_operator_without_a_client_says_so(data, monkeypatch):
    from lssvm.linalg.dask_operators import DaskKernelOperator
    from lssvm.kernels import RBF

    def no_client():  # as distributed.get_client() when no client was started
        raise ValueError("No clients found")

    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(ValueError, match="found no client"):
        DaskKernelOperator(RBF(1.0), data[0][:50])
