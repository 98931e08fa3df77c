"""The bordered KKT solver (3.24)-(3.25), direct and CG, and conjugate gradient."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.linalg import cho_solve
from sklearn.exceptions import ConvergenceWarning

from lssvm.kernels import RBF
from lssvm.kkt import kkt_matrix, kkt_residual, omega
from lssvm.solvers import (
    NotPositiveDefiniteError,
    conjugate_gradient,
    solve_bordered_kkt,
)

RTOL_DIRECT = 1e-10  # direct solve against a dense solve: round-off only
RTOL_CG = 1e-6  # CG (tol 1e-10 on the residual) against the direct solve
N = 50
GAMMA = 10.0
METHODS = ["direct", "cg"]


def _close(actual, desired, rtol):
    """assert_allclose with the tolerance relative to the largest entry."""
    desired = np.asarray(desired)
    np.testing.assert_allclose(
        actual, desired, rtol=rtol, atol=rtol * np.abs(desired).max()
    )


def _dense(Omega, gamma, a, d):
    """(b, alpha) by np.linalg.solve on the full (N+1) x (N+1) matrix of (3.24)."""
    d2 = d.reshape(len(d), -1)
    rhs = np.vstack([np.zeros((1, d2.shape[1])), d2])
    x = np.linalg.solve(kkt_matrix(Omega, gamma, a), rhs)
    return x[0], x[1:]


@pytest.fixture(name="K")
def kernel_matrix(rng):
    X = rng.standard_normal((N, 2))
    return RBF(1.5)(X)


@pytest.fixture
def y(rng):
    return np.where(rng.standard_normal(N) > 0, 1.0, -1.0)


@pytest.fixture
def spd(rng):
    """A random SPD matrix with condition number about 1e3."""
    Q, _ = np.linalg.qr(rng.standard_normal((40, 40)))
    return (Q * np.logspace(0, 3, 40)) @ Q.T


# -- solve_bordered_kkt ----------------------------------------------------------------


def test_classifier_system_with_signs_equals_explicit_omega(K, y):
    # (3.5): a = y, d = 1_v, Omega = y y^T * K (3.6); signs=y must give the same.
    ones = np.ones(N)
    with_signs = solve_bordered_kkt(K, GAMMA, y, ones, signs=y)
    explicit = solve_bordered_kkt(omega(K, y), GAMMA, y, ones)
    b_dense, alpha_dense = _dense(omega(K, y), GAMMA, y, ones)
    _close(with_signs.alpha, explicit.alpha, RTOL_DIRECT)
    _close(with_signs.alpha, alpha_dense[:, 0], RTOL_DIRECT)
    assert with_signs.b == pytest.approx(explicit.b, rel=RTOL_DIRECT)
    assert with_signs.b == pytest.approx(b_dense[0], rel=RTOL_DIRECT)
    residual = kkt_residual(omega(K, y), GAMMA, y, ones, with_signs.alpha, with_signs.b)
    assert residual < RTOL_DIRECT


def test_regression_system_equals_dense_solve(K, rng):
    d = rng.standard_normal(N)
    sol = solve_bordered_kkt(K, GAMMA, np.ones(N), d)
    b_dense, alpha_dense = _dense(K, GAMMA, np.ones(N), d)
    _close(sol.alpha, alpha_dense[:, 0], RTOL_DIRECT)
    assert sol.b == pytest.approx(b_dense[0], rel=RTOL_DIRECT)
    assert kkt_residual(K, GAMMA, np.ones(N), d, sol.alpha, sol.b) < RTOL_DIRECT
    assert abs(sol.alpha.sum()) < RTOL_DIRECT * np.abs(sol.alpha).sum()  # a^T alpha = 0


def test_solution_types_and_shapes(K, rng):
    d = rng.standard_normal(N)
    sol = solve_bordered_kkt(K, GAMMA, np.ones(N), d)
    assert sol.alpha.shape == (N,)
    assert isinstance(sol.b, float)
    assert sol.n_iter == 0 and sol.converged
    sol = solve_bordered_kkt(K, GAMMA, np.ones(N), d[:, None])
    assert sol.alpha.shape == (N, 1) and np.shape(sol.b) == (1,)


@pytest.mark.parametrize("method", METHODS)
def test_several_rhs_equal_separate_solves(K, y, rng, method):
    D = rng.standard_normal((N, 4))
    sol = solve_bordered_kkt(K, GAMMA, y, D, signs=y, method=method)
    assert sol.alpha.shape == (N, 4) and sol.b.shape == (4,)
    rtol = RTOL_DIRECT if method == "direct" else RTOL_CG
    for j in range(4):
        one = solve_bordered_kkt(K, GAMMA, y, D[:, j], signs=y, method=method)
        _close(sol.alpha[:, j], one.alpha, rtol)
        assert sol.b[j] == pytest.approx(one.b, rel=rtol, abs=rtol)
    assert kkt_residual(omega(K, y), GAMMA, y, D, sol.alpha, sol.b) < (
        RTOL_DIRECT if method == "direct" else RTOL_CG
    )


@pytest.mark.parametrize("method", METHODS)
def test_reads_only_the_lower_triangle(K, y, method):
    ones = np.ones(N)
    reference = solve_bordered_kkt(K, GAMMA, y, ones, signs=y, method=method)
    for garbage in (np.nan, 1e6):
        K_lower = K.copy()
        K_lower[np.triu_indices(N, 1)] = garbage
        sol = solve_bordered_kkt(K_lower, GAMMA, y, ones, signs=y, method=method)
        np.testing.assert_array_equal(sol.alpha, reference.alpha)
        assert sol.b == reference.b


@pytest.mark.parametrize("method", METHODS)
def test_overwrite_false_leaves_input_unchanged(K, y, method):
    K_in = K.copy()
    K_in[np.triu_indices(N, 1)] = np.nan
    before = K_in.copy()
    solve_bordered_kkt(K_in, GAMMA, y, np.ones(N), signs=y, method=method)
    np.testing.assert_array_equal(K_in, before)  # NaNs compare equal here
    solve_bordered_kkt(
        K_in, GAMMA, y, np.ones(N), signs=y, method=method, overwrite=False
    )
    np.testing.assert_array_equal(K_in, before)


def test_overwrite_true_gives_the_same_solution(K, y):
    reference = solve_bordered_kkt(K, GAMMA, y, np.ones(N), signs=y)
    K_in = K.copy()
    sol = solve_bordered_kkt(K_in, GAMMA, y, np.ones(N), signs=y, overwrite=True)
    np.testing.assert_array_equal(sol.alpha, reference.alpha)
    assert sol.b == reference.b


@pytest.mark.parametrize("method", METHODS)
def test_one_gamma_per_sample(K, rng, method):
    gamma = rng.uniform(1.0, 20.0, N)
    d = rng.standard_normal(N)
    sol = solve_bordered_kkt(K, gamma, np.ones(N), d, method=method)
    b_dense, alpha_dense = _dense(K, gamma, np.ones(N), d)
    rtol = RTOL_DIRECT if method == "direct" else RTOL_CG
    _close(sol.alpha, alpha_dense[:, 0], rtol)
    assert sol.b == pytest.approx(b_dense[0], rel=rtol)


def test_direct_factor_is_cholesky_of_k_plus_identity_over_gamma(K, y, rng):
    sol = solve_bordered_kkt(K, GAMMA, y, np.ones(N), signs=y)
    U = np.triu(sol.factor)
    _close(U.T @ U, K + np.eye(N) / GAMMA, RTOL_DIRECT)
    v = rng.standard_normal(N)
    _close(
        cho_solve((sol.factor, False), v),
        np.linalg.solve(K + np.eye(N) / GAMMA, v),
        RTOL_DIRECT,
    )
    assert solve_bordered_kkt(K, GAMMA, y, np.ones(N), method="cg").factor is None


@pytest.mark.parametrize("signs", [False, True])
def test_cg_agrees_with_direct(K, y, signs):
    s = y if signs else None
    a, d = (y, np.ones(N)) if signs else (np.ones(N), y)
    direct = solve_bordered_kkt(K, GAMMA, a, d, signs=s, method="direct")
    cg = solve_bordered_kkt(K, GAMMA, a, d, signs=s, method="cg")
    assert cg.converged and cg.n_iter > 0
    _close(cg.alpha, direct.alpha, RTOL_CG)
    assert cg.b == pytest.approx(direct.b, rel=RTOL_CG, abs=RTOL_CG)


def test_cg_max_iter_too_small_warns(K, y):
    with pytest.warns(ConvergenceWarning, match="CG stopped after 2 iterations"):
        sol = solve_bordered_kkt(
            K, GAMMA, y, np.ones(N), signs=y, method="cg", max_iter=2
        )
    assert not sol.converged
    assert sol.n_iter == 2


def test_unknown_method_raises(K, y):
    with pytest.raises(ValueError, match="method must be one of"):
        solve_bordered_kkt(K, GAMMA, y, np.ones(N), method="lu")


@pytest.mark.parametrize("method", METHODS)
def test_not_positive_definite_raises(K, y, method):
    # H = -10 K + I/gamma has a negative diagonal: no Cholesky factor exists.
    with pytest.raises(NotPositiveDefiniteError, match="not positive definite"):
        solve_bordered_kkt(-10.0 * K, GAMMA, np.ones(N), y, method=method)


@pytest.mark.parametrize("method", METHODS)
def test_indefinite_raises(rng, method):
    # Symmetric H with one negative eigenvalue among positive ones.
    Q, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    eigvals = np.linspace(0.5, 3.0, 20)
    eigvals[0] = -0.3
    Omega = (Q * eigvals) @ Q.T
    Omega = (Omega + Omega.T) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.raises(NotPositiveDefiniteError, match="not positive definite"):
            solve_bordered_kkt(
                Omega, 1e6, np.ones(20), rng.standard_normal(20), method=method
            )


def test_not_positive_definite_error_is_a_value_error():
    assert issubclass(NotPositiveDefiniteError, ValueError)
    assert issubclass(NotPositiveDefiniteError, np.linalg.LinAlgError)


# -- conjugate_gradient ----------------------------------------------------------------


def test_cg_matches_dense_solve(spd, rng):
    rhs = rng.standard_normal(40)
    result = conjugate_gradient(lambda V: spd @ V, rhs, tol=1e-12)
    assert result.converged
    assert result.x.shape == (40,)
    _close(result.x, np.linalg.solve(spd, rhs), RTOL_CG)
    assert result.residuals.shape == (result.n_iter + 1, 1)
    assert result.residuals[0, 0] == pytest.approx(1.0)
    assert result.residuals[-1, 0] <= 1e-12
    # The reported residual is the true one, ||b - A x|| / ||b||.
    true = np.linalg.norm(rhs - spd @ result.x) / np.linalg.norm(rhs)
    assert true < 1e-10


def test_cg_several_rhs(spd, rng):
    B = rng.standard_normal((40, 3))
    B[:, 1] = 0.0  # a zero column converges at once, to zero
    result = conjugate_gradient(lambda V: spd @ V, B, tol=1e-12)
    assert result.converged and result.x.shape == (40, 3)
    _close(result.x, np.linalg.solve(spd, B), RTOL_CG)
    np.testing.assert_array_equal(result.x[:, 1], 0.0)


def test_cg_with_preconditioner(rng):
    # Badly scaled SPD matrix: Jacobi preconditioning must cut the iterations.
    Q, _ = np.linalg.qr(rng.standard_normal((40, 40)))
    B = (Q * np.linspace(1.0, 3.0, 40)) @ Q.T
    scale = np.logspace(0, 3, 40)
    A = scale[:, None] * B * scale[None, :]
    rhs = rng.standard_normal(40)
    inv_diag = 1.0 / np.diag(A)
    plain = conjugate_gradient(lambda V: A @ V, rhs, tol=1e-10, max_iter=2000)
    jacobi = conjugate_gradient(
        lambda V: A @ V, rhs, tol=1e-10, preconditioner=lambda V: inv_diag[:, None] * V
    )
    assert jacobi.converged
    _close(jacobi.x, np.linalg.solve(A, rhs), RTOL_CG)
    assert jacobi.n_iter < plain.n_iter


def test_cg_max_iter_too_small_warns_and_reports(spd, rng):
    rhs = rng.standard_normal(40)
    with pytest.warns(ConvergenceWarning, match="CG stopped after 3 iterations"):
        result = conjugate_gradient(lambda V: spd @ V, rhs, max_iter=3)
    assert not result.converged
    assert result.n_iter == 3
    assert result.residuals[-1, 0] > 1e-10


def test_cg_converged_run_does_not_warn(spd, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        conjugate_gradient(lambda V: spd @ V, rng.standard_normal(40))


def test_cg_never_reports_convergence_with_non_finite_x(rng):
    # A is symmetric but indefinite: CG must not claim convergence with NaN/inf in x.
    Q, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    eigvals = np.linspace(0.5, 3.0, 20)
    eigvals[0] = -0.3
    A = (Q * eigvals) @ Q.T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        try:
            result = conjugate_gradient(lambda V: A @ V, rng.standard_normal(20))
        except NotPositiveDefiniteError:
            return  # an explicit error is an acceptable answer
    assert not (result.converged and not np.all(np.isfinite(result.x)))
