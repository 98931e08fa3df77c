"""Fixed-size LS-SVM: feature map, primal ridge, closed-form CV, entropy, contract."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from lssvm.datasets import xor_sine
from lssvm.linalg.nystrom import NystromFeatureMap
from lssvm.sparse._blocks import pairwise_sum
from lssvm.sparse.primal_ridge import accumulate, solve_ridge
from lssvm.sparse.prototypes import entropy_prototypes, renyi_entropy
from lssvm.kernels import RBF
from lssvm.multiclass import codebook


#: The default prototypes are a uniform draw of m rows: a row repeated k times is k
#: times as likely to be drawn as a row of weight k, so the two fits of scikit-learn's
#: weight check use different prototypes (with m >= n every row is a prototype and
#: the check passes: the regressor below; with the prototypes given as an array a
#: weight k equals k repetitions: test_sample_weight_equals_repetition_given_prototypes).
FIXED_SIZE_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data": "random prototypes are drawn "
    "over rows, so a repeated row is more likely to be a prototype than a weighted one",
}


@parametrize_with_checks(
    [
        FixedSizeLSSVMClassifier(n_prototypes=20, random_state=0),
        FixedSizeLSSVMRegressor(n_prototypes=100, gamma=100.0, random_state=0),
    ],
    expected_failed_checks=lambda est: (
        FIXED_SIZE_XFAIL if est.n_prototypes < 100 else {}
    ),
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture
def data():
    return xor_sine(600, n_features=4, random_state=1)


def explicit_ridge(Phi, y, gamma):
    """[w; b] of the primal problem from the explicit N x (r+1) feature matrix."""
    A = np.hstack([Phi, np.ones((len(Phi), 1))])
    P = np.eye(A.shape[1])
    P[-1, -1] = 0.0
    return np.linalg.solve(A.T @ A + P / gamma, A.T @ y)


def test_feature_map_reproduces_kernel_on_prototypes():
    Z = np.random.default_rng(0).standard_normal((30, 3))
    fmap = NystromFeatureMap(RBF(4.0), Z)
    Phi = fmap.transform(Z)
    np.testing.assert_allclose(Phi @ Phi.T, RBF(4.0)(Z), atol=1e-8)


def test_fit_equals_explicit_primal_ridge(data):
    X, y = data
    est = FixedSizeLSSVMRegressor(n_prototypes=40, gamma=3.0, sigma2=2.0,
                                  random_state=0, chunk_size=97).fit(X, y)
    theta = explicit_ridge(est.feature_map_.transform(X), y.astype(float), 3.0)
    np.testing.assert_allclose(est.coef_[:, 0], theta[:-1], rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(est.intercept_[0], theta[-1], rtol=1e-7, atol=1e-9)


def test_all_prototypes_give_the_exact_lssvm(data):
    """With every training point a prototype the Nystrom kernel is K: the LS-SVM."""
    from lssvm import LSSVMRegressor

    X, y = data[0][:120], data[1][:120].astype(float)
    fs = FixedSizeLSSVMRegressor(n_prototypes=120, gamma=2.0, sigma2=3.0,
                                 prototypes="random", random_state=0).fit(X, y)
    exact = LSSVMRegressor(gamma=2.0, sigma2=3.0).fit(X, y)
    X_test = xor_sine(50, n_features=4, random_state=9)[0]
    np.testing.assert_allclose(fs.predict(X_test), exact.predict(X_test), atol=1e-6)


def test_chunking_and_threads_do_not_change_results(data):
    X, y = data
    ref = FixedSizeLSSVMClassifier(n_prototypes=30, random_state=0, chunk_size=600)
    ref.fit(X, y)
    for chunk, jobs in [(50, 1), (37, 2), (600, 2)]:
        est = FixedSizeLSSVMClassifier(n_prototypes=30, random_state=0,
                                       chunk_size=chunk, n_jobs=jobs).fit(X, y)
        np.testing.assert_allclose(est.decision_function(X), ref.decision_function(X),
                                   rtol=1e-9, atol=1e-12)


def test_closed_form_cv_equals_refits(data):
    X, y = data
    X, y = X[:300], y[:300].astype(float)
    Z = X[:25]
    kernel = RBF(2.0)
    fmap = NystromFeatureMap(kernel, Z)
    gammas = [0.1, 1.0, 10.0]
    est = FixedSizeLSSVMRegressor(gamma=gammas, prototypes=Z, sigma2=2.0, cv=3).fit(X, y)
    folds = np.arange(300) % 3
    refit = np.zeros(3)
    for g, gamma in enumerate(gammas):
        for f in range(3):
            train, test = folds != f, folds == f
            theta = explicit_ridge(fmap.transform(X[train]), y[train], gamma)
            pred = fmap.transform(X[test]) @ theta[:-1] + theta[-1]
            refit[g] += np.sum((y[test] - pred) ** 2)
    np.testing.assert_allclose(est.cv_errors_, refit / 300, rtol=1e-7)
    assert est.gamma_ == gammas[int(np.argmin(refit))]


@pytest.mark.parametrize("chunk, jobs", [(4096, 1), (17, 2)])
def test_closed_form_loo_equals_refits(data, chunk, jobs):
    X, y = data
    X, y = X[:80], y[:80].astype(float) + 0.3  # a non-zero mean: the bias matters
    Z = X[::4][:15]
    fmap = NystromFeatureMap(RBF(2.0), Z)
    gammas = [0.01, 0.3, 5.0, 200.0]
    est = FixedSizeLSSVMRegressor(gamma=gammas, prototypes=Z, sigma2=2.0, cv="loo",
                                  chunk_size=chunk, n_jobs=jobs).fit(X, y)
    refit = np.zeros(len(gammas))
    for g, gamma in enumerate(gammas):
        for i in range(len(X)):
            train = np.arange(len(X)) != i
            theta = explicit_ridge(fmap.transform(X[train]), y[train], gamma)
            pred = fmap.transform(X[i:i + 1]) @ theta[:-1] + theta[-1]
            refit[g] += (y[i] - pred[0]) ** 2
    np.testing.assert_allclose(est.cv_errors_, refit / len(X), rtol=1e-8)
    assert est.gamma_ == gammas[int(np.argmin(refit))]


def test_closed_form_loo_multiclass_sums_the_bits():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0] + 0.3 * rng.standard_normal(60), [-0.5, 0.5])
    Z = X[:12]
    est = FixedSizeLSSVMClassifier(gamma=[0.1, 10.0], prototypes=Z, cv="loo").fit(X, y)
    Y = codebook(3, "ova")[y].astype(float)
    bits = [FixedSizeLSSVMRegressor(gamma=[0.1, 10.0], prototypes=Z, cv="loo")
            .fit(X, Y[:, j]).cv_errors_ for j in range(3)]
    np.testing.assert_allclose(est.cv_errors_, np.sum(bits, axis=0), rtol=1e-10)


def test_entropy_swaps_raise_the_entropy(data):
    X = data[0]
    rng_idx = np.sort(np.random.default_rng(0).choice(len(X), 20, replace=False))
    idx, history = entropy_prototypes(X, 20, 2.0, random_state=0)
    assert len(np.unique(idx)) == 20
    assert np.all(np.diff(history) >= -1e-12)  # only improving swaps are kept
    np.testing.assert_allclose(history[-1], renyi_entropy(X[idx], 2.0), rtol=1e-10)
    assert renyi_entropy(X[idx], 2.0) > renyi_entropy(X[rng_idx], 2.0)


def test_pairwise_sum_order():
    calls = []

    def add(a, b):
        calls.append((a, b))
        return a + b

    assert pairwise_sum([1, 2, 3, 4, 5], add) == 15
    assert calls[:3] == [(1, 2), (3, 4), (3, 7)]


def test_multiclass_shares_one_factorisation():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])  # 3 classes
    est = FixedSizeLSSVMClassifier(n_prototypes=30, gamma=10.0, random_state=0,
                                   coding="ova").fit(X, y)
    assert est.coef_.shape[1] == 3 and est.codebook_.shape == (3, 3)
    assert est.score(X, y) > 0.9
    # each bit equals the binary fit on its +-1 targets (same feature map)
    Y = codebook(3, "ova")[y].astype(float)
    Z = est.prototypes_
    for j in range(3):
        bit = FixedSizeLSSVMRegressor(gamma=10.0, prototypes=Z).fit(X, Y[:, j])
        np.testing.assert_allclose(bit.coef_[:, 0], est.coef_[:, j], atol=1e-8)


def test_solve_ridge_does_not_penalise_the_bias():
    G = np.array([[2.0, 1.0], [1.0, 4.0]])
    c = np.array([[1.0], [2.0]])
    theta = solve_ridge(G, c, gamma=0.5)
    np.testing.assert_allclose((G + np.diag([2.0, 0.0])) @ theta, c)


def test_accumulate_counts_every_row_once(data):
    X, y = data
    S, C, yy, counts = accumulate(X, y, RBF(1.0), X[:5], n_folds=3, chunk_size=64)
    assert counts.sum() == len(X) and S.shape == (3, 6, 6)
    np.testing.assert_allclose(S[:, -1, -1], counts)


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(n_prototypes=0), "n_prototypes must be an integer >= 1"),
        (dict(n_prototypes=2.5), "n_prototypes must be an integer >= 1"),
        (dict(gamma=-1.0), "gamma must be a positive float"),
        (dict(gamma=[1.0, -2.0]), "gamma must be a positive float"),
        (dict(gamma=[1.0, 2.0], cv=1), "cv must be >= 2"),
        (dict(gamma=[1.0, 2.0], cv="LOO"), "cv must be >= 2"),
        (dict(prototypes="kmeans"), "prototypes must be one of"),
        (dict(prototypes=np.zeros((3, 7))), r"prototypes must be an array of shape"),
        (dict(chunk_size=0), "chunk_size must be an integer >= 1"),
        (dict(coding="ovo"), "coding must be a dense code"),
        (dict(sigma2=-1.0, prototypes="random"), "sigma2 must be"),
    ],
)
def test_clear_errors(data, params, match):
    X, y = xor_sine(60, n_features=4, flip=0.0, random_state=0)
    y = np.arange(60) % 3 if params.get("coding") == "ovo" else y
    with pytest.raises(ValueError, match=match):
        FixedSizeLSSVMClassifier(**params).fit(X, y)


def test_predict_checks_features(data):
    X, y = data
    est = FixedSizeLSSVMClassifier(n_prototypes=10, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :2])


def test_import_lssvm_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, lssvm; print(any(m.split('.')[0] == 'dask' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_fit_matches_a_qr_least_squares_reference():
    """Ill-conditioned W (cond ~1e11): the fit still agrees with a QR solution.

    The primal problem is the least-squares problem ||[Phi 1; I/sqrt(gamma) 0] theta
    - [y; 0]||; its QR solution is the backward-stable reference. Accumulating in
    kernel space and mapping at the end lost about 1e-6 here.
    """
    rng = np.random.default_rng(0)
    n = 2000
    X = np.vstack([rng.normal(-1, 1, (n // 2, 2)), rng.normal(1, 1, (n // 2, 2))])
    y = np.r_[-np.ones(n // 2), np.ones(n // 2)]
    Z = X[rng.choice(n, 80, replace=False)]
    est = FixedSizeLSSVMRegressor(gamma=10.0, sigma2=1.0, prototypes=Z,
                                  chunk_size=256).fit(X, y)
    Phi = est.feature_map_.transform(X)
    r = Phi.shape[1]
    A = np.vstack([np.hstack([Phi, np.ones((n, 1))]),
                   np.hstack([np.eye(r) / np.sqrt(10.0), np.zeros((r, 1))])])
    Q, R = np.linalg.qr(A)
    theta = np.linalg.solve(R, Q.T @ np.r_[y, np.zeros(r)])
    ours = np.r_[est.coef_[:, 0], est.intercept_[0]]
    assert np.linalg.norm(ours - theta) / np.linalg.norm(theta) < 1e-10
    f_ref = Phi @ theta[:-1] + theta[-1]
    assert np.max(np.abs(est.predict(X) - f_ref)) < 1e-9


# --- solver="pcg": preconditioned CG on the same (r+1)-dimensional system ----------


def _pcg_pair(cls, X, y, **kw):
    kw.setdefault("prototypes", "entropy")  # the configuration of the iteration bound
    common = dict(n_prototypes=40, gamma=3.0, sigma2=2.0, random_state=0,
                  chunk_size=97, **kw)
    normal = cls(solver="normal", **common).fit(X, y)
    pcg = cls(solver="pcg", tol=1e-13, **common).fit(X, y)
    return normal, pcg


def _rel(a, b):
    return np.max(np.abs(a - b)) / np.max(np.abs(b))


@pytest.mark.parametrize("coding", [None, "ova", "moc"])
def test_pcg_equals_normal_equations(data, coding):
    X, y = data
    if coding is None:  # regressor, one output
        normal, pcg = _pcg_pair(FixedSizeLSSVMRegressor, X, y.astype(float) + 0.3)
    else:  # classifier with several output bits (4 classes)
        y4 = np.digitize(X[:, 0] + X[:, 1], [-0.6, 0.0, 0.6])
        normal, pcg = _pcg_pair(FixedSizeLSSVMClassifier, X, y4, coding=coding)
        assert pcg.coef_.shape[1] == normal.coef_.shape[1] > 1
        np.testing.assert_array_equal(pcg.predict(X), normal.predict(X))
    assert pcg.solver_ == "pcg" and normal.solver_ == "normal" and normal.n_iter_ == 0
    assert _rel(pcg._latent_numpy(X), normal._latent_numpy(X)) < 1e-8
    assert _rel(pcg.coef_, normal.coef_) < 1e-8
    assert _rel(pcg.intercept_, normal.intercept_) < 1e-8
    res = pcg.cg_residuals_
    assert res.shape == (pcg.n_iter_ + 1, pcg.coef_.shape[1])
    assert np.all(res[-1] <= 1e-13) and pcg.n_iter_ <= pcg.coef_.shape[0] + 1


@pytest.mark.parametrize("cls", [FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor])
def test_sample_weight_equals_repetition_given_prototypes(data, cls):
    X, y = data
    X, y = X[:200], (y[:200] if cls is FixedSizeLSSVMClassifier else X[:200, 0])
    w = np.arange(200) % 3  # weights 0, 1, 2
    rep = np.repeat(np.arange(200), w)
    kw = dict(n_prototypes=30, gamma=3.0, sigma2=2.0, prototypes=X[::7][:30])
    weighted = cls(**kw).fit(X, y, sample_weight=w.astype(float))
    repeated = cls(**kw).fit(X[rep], y[rep])
    np.testing.assert_allclose(weighted._latent_numpy(X), repeated._latent_numpy(X),
                               rtol=1e-9, atol=1e-12)


def test_pcg_equals_normal_equations_random_prototypes(data):
    """The default (random) prototypes: the same model to 1e-8. At tol 1e-13 CG runs
    past the m + 1 steps of exact arithmetic here (round-off), so no bound on n_iter_
    beyond the solver's cap is claimed."""
    X, y = data
    normal, pcg = _pcg_pair(FixedSizeLSSVMRegressor, X, y.astype(float) + 0.3,
                            prototypes="random")
    assert _rel(pcg._latent_numpy(X), normal._latent_numpy(X)) < 1e-8
    assert _rel(pcg.coef_, normal.coef_) < 1e-8
    assert np.all(pcg.cg_residuals_[-1] <= 1e-13)


def test_pcg_binary_classifier_equals_normal(data):
    X, y = data
    normal, pcg = _pcg_pair(FixedSizeLSSVMClassifier, X, y)
    assert _rel(pcg.decision_function(X), normal.decision_function(X)) < 1e-8


def test_pcg_does_not_depend_on_threads_or_chunks(data):
    X, y = data
    common = dict(n_prototypes=30, random_state=0, solver="pcg", tol=1e-8)
    ref = FixedSizeLSSVMClassifier(chunk_size=600, n_jobs=1, **common).fit(X, y)
    same = FixedSizeLSSVMClassifier(chunk_size=600, n_jobs=2, **common).fit(X, y)
    np.testing.assert_array_equal(same.decision_function(X), ref.decision_function(X))
    assert same.n_iter_ == ref.n_iter_
    # other chunks change the order of the sums, hence the rounding, hence possibly
    # the iteration at which CG stops: compared at tol = 1e-12, where the stopping
    # point no longer matters, what remains is rounding (measured 4e-14)
    tight = {**common, "tol": 1e-12}
    ref = FixedSizeLSSVMClassifier(chunk_size=600, n_jobs=1, **tight).fit(X, y)
    other = FixedSizeLSSVMClassifier(chunk_size=37, n_jobs=2, **tight).fit(X, y)
    np.testing.assert_allclose(other.decision_function(X), ref.decision_function(X),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", ["rbf", "ard", "poly"])
def test_pcg_tiles_equal_the_kernel_matrix(data, monkeypatch, kernel):
    """Several tiles per chunk (TILE_BYTES made small): each pass equals the explicit
    products with kernel(X, Z), stored blocks equal computed ones bit for bit, and
    the threads change nothing."""
    import lssvm.sparse.nystrom_pcg as npcg
    from lssvm.kernels import ARDRBF, Polynomial
    from lssvm.sparse.nystrom_pcg import NystromRidgePCG

    X, y = data
    kern = {"rbf": RBF(2.0), "ard": ARDRBF(np.array([1.0, 2.0, 3.0, 4.0])),
            "poly": Polynomial(2, 1.0)}[kernel]
    m = 25
    monkeypatch.setattr(npcg, "TILE_BYTES", 8 * m * 9)  # tiles of 9 rows
    fmap = NystromFeatureMap(kern, X[:m])
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(X))
    V = np.random.default_rng(0).standard_normal((fmap.n_components + 1, 2))
    A = np.hstack([fmap.transform(X), np.ones((len(X), 1))])
    P = np.eye(A.shape[1]) / 3.0
    P[-1, -1] = 0.0
    expected = (A.T * w) @ A @ V + P @ V
    out = {}
    for store in (False, True):
        for jobs in (1, 2):
            pcg = NystromRidgePCG(X, kern, fmap, 3.0, chunk_size=50, n_jobs=jobs,
                                  sample_weight=w, store_blocks=store)
            assert pcg._tiler.rows == 9
            rhs = pcg.rhs(y.astype(float))  # the first pass (stores the blocks)
            out[store, jobs] = pcg.matvec(V)
            np.testing.assert_allclose(rhs, (A.T * w) @ y.astype(float)[:, None],
                                       rtol=1e-12, atol=1e-12 * np.abs(rhs).max())
            np.testing.assert_allclose(out[store, jobs], expected, rtol=1e-12,
                                       atol=1e-12 * np.abs(expected).max())
    for key in out:
        np.testing.assert_array_equal(out[key], out[False, 1])


def test_pcg_tiles_fit_equals_normal(data, monkeypatch):
    """With several tiles per chunk the fit still equals the normal equations."""
    import lssvm.sparse.nystrom_pcg as npcg

    monkeypatch.setattr(npcg, "TILE_BYTES", 8 * 40 * 10)  # tiles of 10 rows
    X, y = data
    normal, pcg = _pcg_pair(FixedSizeLSSVMClassifier, X, y)
    assert _rel(pcg.decision_function(X), normal.decision_function(X)) < 1e-8


def test_pcg_preconditioner_inverts_the_arrow_matrix(data):
    from lssvm.sparse.nystrom_pcg import NystromRidgePCG

    X = data[0]
    fmap = NystromFeatureMap(RBF(2.0), X[:25])
    pcg = NystromRidgePCG(X, RBF(2.0), fmap, 3.0, chunk_size=50)
    n, m = X.shape[0], 25
    A_Z = np.hstack([fmap.kernel(fmap.Z) @ fmap.projection, np.ones((m, 1))])
    P = np.eye(A_Z.shape[1]) / 3.0
    P[-1, -1] = 0.0
    M = n / m * A_Z.T @ A_Z + P  # the Nystrom estimate of H on the centres
    V = np.random.default_rng(0).standard_normal((M.shape[0], 2))
    np.testing.assert_allclose(M @ pcg.precondition(V), V, rtol=1e-9, atol=1e-9)
    # and H V by the row-block pass equals the explicit normal matrix
    A = np.hstack([fmap.transform(X), np.ones((n, 1))])
    np.testing.assert_allclose(pcg.matvec(V), (A.T @ A + P) @ V, rtol=1e-9,
                               atol=1e-9 * np.abs(A.T @ A).max())


def test_auto_solver_rule(data, monkeypatch):
    import lssvm.sparse.fixed_size as fs

    X, y = data
    est = FixedSizeLSSVMClassifier(n_prototypes=30, random_state=0).fit(X, y)
    assert est.solver_ == "normal"  # m <= AUTO_PCG_MIN_PROTOTYPES
    monkeypatch.setattr(fs, "AUTO_PCG_MIN_PROTOTYPES", 20)
    assert FixedSizeLSSVMClassifier(n_prototypes=30, random_state=0).fit(X, y).solver_ \
        == "pcg"
    tuned = FixedSizeLSSVMClassifier(n_prototypes=30, random_state=0,
                                     gamma=[1.0, 10.0]).fit(X, y)
    assert tuned.solver_ == "normal"  # "auto" chooses gamma from all cv folds' sums


def test_pcg_errors(data):
    X, y = data
    with pytest.raises(ValueError, match="cv='loo' needs the accumulated sums"):
        FixedSizeLSSVMClassifier(solver="pcg", gamma=[1.0, 2.0], cv="loo").fit(X, y)
    with pytest.raises(ValueError, match="solver must be one of"):
        FixedSizeLSSVMClassifier(solver="cg").fit(X, y)
    with pytest.raises(ValueError, match="tol"):
        FixedSizeLSSVMClassifier(solver="pcg", tol=0.0).fit(X, y)


def test_feature_map_holds_at_most_two_square_matrices():
    """The map is built in two m x m float64 matrices (K(Z, Z), overwritten by the
    eigensolver, and U, scaled in place into T), so that m = 10,000 fits in 2 GiB;
    numpy's eigh with a symmetrised copy took six. tracemalloc sees numpy's and
    f2py's allocations (the LAPACK workspace is a numpy array)."""
    import tracemalloc

    m = 600
    Z = np.random.default_rng(0).standard_normal((m, 5))
    kernel = RBF(5.0)
    tracemalloc.start()
    try:
        fmap = NystromFeatureMap(kernel, Z)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    square = 8 * m * m
    assert peak < 2.2 * square, peak / square
    assert fmap.projection.shape == (m, fmap.n_components)
    # the kept map is the same as from numpy's eigh on the symmetric matrix
    s, U = np.linalg.eigh(kernel(Z))
    np.testing.assert_allclose(fmap.eigvals, s[::-1][: fmap.n_components], rtol=1e-10,
                               atol=1e-12 * s[-1])
    Phi = fmap.transform(Z)
    np.testing.assert_allclose(Phi @ Phi.T, kernel(Z), atol=1e-8)


@pytest.mark.parametrize("weighted", [False, True])
def test_pcg_gamma_by_held_out_fold(data, weighted):
    """solver="pcg" with several gamma: each candidate solved on the rows i with
    i mod cv != 0 and scored on the others, then the chosen one solved on all rows.
    Checked against solver="normal" fits on the same split, made by hand."""
    X, y = data
    v = np.random.default_rng(3).uniform(0.5, 2.0, len(y)) if weighted else None
    gammas, cv = [0.1, 1.0, 30.0], 4
    common = dict(n_prototypes=30, random_state=0, tol=1e-12)
    est = FixedSizeLSSVMClassifier(solver="pcg", gamma=gammas, cv=cv,
                                   **common).fit(X, y, sample_weight=v)
    held = np.arange(len(y)) % cv == 0
    w = np.ones(len(y)) if v is None else v
    errors = []
    same = dict(prototypes=est.prototypes_, tol=1e-12)  # zero weights: not drawn from
    for g in gammas:
        ref = FixedSizeLSSVMClassifier(solver="normal", gamma=g, **same)
        ref.fit(X, y, sample_weight=np.where(held, 0.0, w))
        t = np.where(y[held] == ref.classes_[1], 1.0, -1.0)
        r = (t - ref.decision_function(X[held])) ** 2
        errors.append(float(r @ w[held] / w[held].sum()))
    np.testing.assert_allclose(est.cv_errors_, errors, rtol=1e-8)
    assert est.gamma_ == gammas[int(np.argmin(errors))]
    final = FixedSizeLSSVMClassifier(solver="normal", gamma=est.gamma_, **same)
    final.fit(X, y, sample_weight=v)
    assert _rel(est.decision_function(X), final.decision_function(X)) < 1e-8


def test_public_helpers_take_n_jobs_as_everywhere(data):
    """n_jobs=None means 1 and -1 all CPUs in the public helpers too (same sums)."""
    from lssvm.sparse.nystrom_pcg import NystromRidgePCG
    from lssvm.sparse.primal_ridge import accumulate

    X, y = data
    fmap = NystromFeatureMap(RBF(1.0), X[:20])
    Y = np.where(y == y[0], 1.0, -1.0)[:, None]
    ref = accumulate(X, Y, RBF(1.0), fmap.Z, chunk_size=100, n_jobs=1, T=fmap.projection)
    for n_jobs in (None, -1):
        got = accumulate(X, Y, RBF(1.0), fmap.Z, chunk_size=100, n_jobs=n_jobs,
                         T=fmap.projection)
        for a, b in zip(got, ref):
            np.testing.assert_array_equal(a, b)
        pcg = NystromRidgePCG(X, RBF(1.0), fmap, 1.0, chunk_size=100, n_jobs=n_jobs)
        assert pcg.n_jobs >= 1


def test_solve_ridge_warns_when_cholesky_fails(monkeypatch):
    import lssvm.sparse.primal_ridge as ridge
    from lssvm.linalg import NumericalWarning

    def fail(*args, **kwargs):
        raise np.linalg.LinAlgError("not positive definite")

    monkeypatch.setattr(ridge, "cho_factor", fail)
    G = np.eye(3)
    with pytest.warns(NumericalWarning, match="least-norm solution"):
        theta = ridge.solve_ridge(G, np.ones((3, 1)), 1.0)
    np.testing.assert_allclose((G + np.diag([1.0, 1.0, 0.0])) @ theta, 1.0)


def test_default_fit_is_deterministic(data):
    """random_state defaults to 0, as in the other estimators: same data, same model."""
    X, y = data
    a = FixedSizeLSSVMClassifier(n_prototypes=20).fit(X, y)
    b = FixedSizeLSSVMClassifier(n_prototypes=20).fit(X, y)
    np.testing.assert_array_equal(a.prototype_indices_, b.prototype_indices_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
