"""Matrix-free kernel operator and Nystrom preconditioner (section 3.4.1)."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from lssvm.kernels import ARDRBF, RBF, CallableKernel, Linear, Polynomial
from lssvm.linalg.operators import KernelOperator, NystromPreconditioner
from lssvm.linalg.solvers import preconditioner_rank, solve_bordered_kkt

RTOL_OPERATOR = 1e-12  # tiled product against the dense one: summation order only
RTOL_WOODBURY = 1e-8  # M^{-1} (M v) against v
RTOL_CG = 1e-6  # CG (residual tol 1e-10) against the direct solve
N = 203  # a prime: no block size below divides it

KERNELS = [
    RBF(1.5),
    ARDRBF(np.array([0.5, 2.0, 4.0])),
    Linear(),
    Polynomial(2, 1.0),
    CallableKernel(lambda A, B: np.exp(-np.abs(A[:, None] - B[None]).sum(axis=2))),
]


def _close(actual, desired, rtol):
    desired = np.asarray(desired)
    np.testing.assert_allclose(
        actual, desired, rtol=rtol, atol=rtol * np.abs(desired).max()
    )


@pytest.fixture(name="X")
def inputs(rng):
    return rng.standard_normal((N, 3))


# -- KernelOperator --------------------------------------------------------------------


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: type(k).__name__)
@pytest.mark.parametrize("block_size", [5, 64, 256])
@pytest.mark.parametrize("shift", [0.0, 0.1])
def test_operator_equals_dense_product(X, rng, kernel, block_size, shift):
    H = kernel(X) + shift * np.eye(N)
    op = KernelOperator(kernel, X, shift=shift, block_size=block_size)
    v = rng.standard_normal(N)
    V = rng.standard_normal((N, 4))
    Hv, HV = op(v), op(V)
    assert Hv.shape == (N,) and HV.shape == (N, 4)
    _close(Hv, H @ v, RTOL_OPERATOR)
    _close(HV, H @ V, RTOL_OPERATOR)


def test_operator_shape_and_diag(X):
    kernel = Polynomial(2, 1.0)
    op = KernelOperator(kernel, X, shift=0.25)
    assert op.shape == (N, N)
    _close(op.diag(), np.diag(kernel(X)) + 0.25, RTOL_OPERATOR)


def test_operator_never_stores_the_matrix(rng):
    # K would take 8 N^2 = 18 MB; the operator may use one 64 x 64 tile and O(N k).
    n = 1500
    X = rng.standard_normal((n, 2))
    op = KernelOperator(RBF(1.0), X, block_size=64)
    V = rng.standard_normal((n, 2))
    tracemalloc.start()
    op(V)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000  # bytes; 18x below the dense matrix


def test_operator_rejects_wrong_rows_and_block_size(X):
    with pytest.raises(ValueError, match="block_size must be a positive integer"):
        KernelOperator(RBF(1.0), X, block_size=0)
    with pytest.raises(ValueError, match="cannot multiply an array with 5 rows"):
        KernelOperator(RBF(1.0), X)(np.ones(5))


# -- NystromPreconditioner -------------------------------------------------------------


@pytest.mark.parametrize("sigma2, rank", [(1.0, 40), (0.05, N), (5.0, 100)])
def test_nystrom_inverse_is_exact_for_its_dense_matrix(X, rng, sigma2, rank):
    # M = L L^T + shift I formed densely: M^{-1} (M V) = V.
    shift = 0.1
    P = NystromPreconditioner(RBF(sigma2), X, shift=shift, rank=rank)
    M = P.L @ P.L.T + shift * np.eye(N)
    V = rng.standard_normal((N, 3))
    _close(P(M @ V), V, RTOL_WOODBURY)
    _close(P(M @ V[:, 0]), V[:, 0], RTOL_WOODBURY)
    M_inv = P(np.eye(N))  # symmetric positive definite, as CG requires
    _close(M_inv, M_inv.T, RTOL_WOODBURY)
    assert np.linalg.eigvalsh(M_inv).min() > 0


def test_nystrom_factor_is_c_w_inverse_c(X):
    # A well-conditioned W (cond ~ 1e7 here): nothing dropped, L L^T = C W^{-1} C^T,
    # and the approximation interpolates K on the landmark columns.
    kernel = RBF(1.0)
    P = NystromPreconditioner(kernel, X, shift=0.1, rank=40)
    assert P.L.shape == (N, 40) and len(np.unique(P.landmarks)) == 40
    C = kernel(X, X[P.landmarks])
    K_nys = C @ np.linalg.solve(C[P.landmarks], C.T)
    _close(P.L @ P.L.T, K_nys, 1e-8)
    _close((P.L @ P.L.T)[:, P.landmarks], C, 1e-8)


def test_nystrom_with_every_point_a_landmark_is_exact(X, rng):
    # rank = N and cond(K) ~ 1e3: K_nys = K, so M = K + shift I exactly.
    kernel = RBF(0.05)
    P = NystromPreconditioner(kernel, X, shift=0.1, rank=N)
    v = rng.standard_normal(N)
    _close(P(kernel(X) @ v + 0.1 * v), v, RTOL_WOODBURY)


def test_nystrom_is_seeded(X):
    a = NystromPreconditioner(RBF(1.0), X, shift=0.1, rank=30, random_state=3)
    b = NystromPreconditioner(RBF(1.0), X, shift=0.1, rank=30, random_state=3)
    c = NystromPreconditioner(RBF(1.0), X, shift=0.1, rank=30, random_state=4)
    np.testing.assert_array_equal(a.landmarks, b.landmarks)
    assert not np.array_equal(a.landmarks, c.landmarks)


def test_nystrom_of_negative_kernel_keeps_only_the_shift(X, rng):
    # W negative definite: nothing kept, M = shift I, still positive definite.
    kernel = CallableKernel(lambda A, B: -RBF(1.0)(A, B))
    P = NystromPreconditioner(kernel, X, shift=0.5, rank=20)
    assert P.L.shape == (N, 0)
    v = rng.standard_normal(N)
    _close(P(v), v / 0.5, RTOL_WOODBURY)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"shift": 0.0, "rank": 10}, "shift must be a positive float"),
        ({"shift": np.nan, "rank": 10}, "shift must be a positive float"),
        ({"shift": 0.1, "rank": 0}, "rank must be an integer in"),
        ({"shift": 0.1, "rank": N + 1}, "rank must be an integer in"),
    ],
)
def test_nystrom_bad_parameters(X, params, match):
    with pytest.raises(ValueError, match=match):
        NystromPreconditioner(RBF(1.0), X, **params)


def test_preconditioned_cg_needs_far_fewer_iterations(rng):
    # RBF problem of the brief: N = 2000 in 2-D, sigma2 = 1, gamma = 10, the
    # estimators' rank (500 landmarks). Measured: 193 iterations plain, 10 with the
    # preconditioner (181 of the 500 eigenvalues of W kept).
    n, gamma, kernel = 2000, 10.0, RBF(1.0)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    ones = np.ones(n)
    op = KernelOperator(kernel, X)
    P = NystromPreconditioner(kernel, X, 1.0 / gamma, preconditioner_rank(n))
    K = kernel.gram_lower(X)
    plain = solve_bordered_kkt(K, gamma, y, ones, signs=y, method="cg")
    fast = solve_bordered_kkt(
        op, gamma, y, ones, signs=y, method="cg", preconditioner=P
    )
    direct = solve_bordered_kkt(K, gamma, y, ones, signs=y)
    assert plain.converged and fast.converged
    assert plain.n_iter >= 5 * fast.n_iter, (plain.n_iter, fast.n_iter)
    _close(fast.alpha, direct.alpha, RTOL_CG)
    assert fast.b == pytest.approx(direct.b, rel=RTOL_CG, abs=RTOL_CG)


def test_operator_cg_with_max_iter_too_small_warns(X, rng):
    op = KernelOperator(RBF(1.0), X)
    P = NystromPreconditioner(RBF(1.0), X, 0.1, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # exactly one ConvergenceWarning, re-raised
        with pytest.raises(ConvergenceWarning, match="CG stopped after 1 iterations"):
            solve_bordered_kkt(
                op, 10.0, np.ones(N), rng.standard_normal(N), method="cg",
                preconditioner=P, max_iter=1,
            )  # fmt: skip


def test_kernel_operator_result_does_not_depend_on_threads():
    """Lanes are summed in a fixed order: n_jobs changes the speed, not the bits."""
    from lssvm.kernels import RBF
    from lssvm.linalg.operators import KernelOperator

    rng = np.random.default_rng(3)
    X, V = rng.standard_normal((1000, 3)), rng.standard_normal((1000, 2))
    results = [
        KernelOperator(RBF(2.0), X, shift=0.5, block_size=64, n_jobs=j)(V)
        for j in (1, 2, 3, 8)
    ]
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    dense = (RBF(2.0)(X) + 0.5 * np.eye(1000)) @ V
    np.testing.assert_allclose(results[0], dense, rtol=1e-12, atol=1e-12)


def test_kernel_operator_rejects_bad_n_jobs():
    from lssvm.kernels import RBF
    from lssvm.linalg.operators import KernelOperator

    with pytest.raises(ValueError, match="KernelOperator: n_jobs must be None or a non-zero"):
        KernelOperator(RBF(1.0), np.zeros((4, 2)), n_jobs=0)


def test_n_jobs_has_one_meaning_everywhere():
    """None = 1 (outside a joblib.parallel_config), -1 = all CPUs (capped at N_LANES)."""
    import joblib

    from lssvm import FixedSizeLSSVMRegressor
    from lssvm.kernels import RBF
    from lssvm.linalg.operators import N_LANES, KernelOperator

    X = np.zeros((4, 2))
    assert KernelOperator(RBF(1.0), X).n_jobs == 1
    assert KernelOperator(RBF(1.0), X, n_jobs=-1).n_jobs == min(joblib.cpu_count(), N_LANES)
    with joblib.parallel_config(n_jobs=2):
        assert KernelOperator(RBF(1.0), X).n_jobs == 2
    rng = np.random.default_rng(0)
    Xr, yr = rng.normal(size=(60, 2)), rng.normal(size=60)
    fits = [FixedSizeLSSVMRegressor(n_prototypes=10, random_state=0, n_jobs=n).fit(Xr, yr)
            for n in (None, 1, -1)]
    for fit in fits[1:]:
        np.testing.assert_array_equal(fit.predict(Xr), fits[0].predict(Xr))
    with pytest.raises(ValueError, match="FixedSizeLSSVMRegressor: n_jobs must be None"):
        FixedSizeLSSVMRegressor(n_jobs=0).fit(Xr, yr)


def test_one_nystrom_factor_serves_the_preconditioner_and_the_feature_map(X):
    """L L^T of the preconditioner equals Phi Phi^T of the fixed-size feature map."""
    from lssvm.linalg.nystrom import NystromFeatureMap

    kernel = RBF(1.0)
    P = NystromPreconditioner(kernel, X, shift=0.1, rank=30)
    Phi = NystromFeatureMap(kernel, X[P.landmarks]).transform(X)
    np.testing.assert_allclose(P.L @ P.L.T, Phi @ Phi.T, atol=1e-10)
