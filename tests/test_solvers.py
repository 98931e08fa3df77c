"""The bordered KKT solver (3.24)-(3.25), direct and CG; conjugate gradient
(3.25)-(3.27); the estimators' solver choice ("direct", matrix-free "cg", "auto")."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.linalg import cho_solve
from sklearn.exceptions import ConvergenceWarning

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.linalg import solvers
from lssvm.kernels import RBF
from lssvm.linalg.factor import CholeskyFactor
from lssvm.linalg.kkt import kkt_matrix, kkt_residual, omega
from lssvm.linalg.operators import KernelOperator, NystromPreconditioner
from lssvm.linalg.solvers import (
    NotPositiveDefiniteError,
    choose_method,
    conjugate_gradient,
    preconditioner_rank,
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
    F = sol.factor
    assert isinstance(F, CholeskyFactor)
    assert F.order.tolist() == list(range(N)) and F.gamma == GAMMA
    U = np.triu(F.upper)
    _close(U.T @ U, K + np.eye(N) / GAMMA, RTOL_DIRECT)
    v = rng.standard_normal(N)
    expected = np.linalg.solve(K + np.eye(N) / GAMMA, v)
    _close(cho_solve((F.upper, False), v), expected, RTOL_DIRECT)
    _close(F.solve(v), expected, RTOL_DIRECT)
    assert solve_bordered_kkt(K, GAMMA, y, np.ones(N), method="cg").factor is None


def test_a_given_factor_gives_the_same_solution_by_two_triangular_solves(K, y):
    direct = solve_bordered_kkt(K, GAMMA, y, np.ones(N), signs=y)
    again = solve_bordered_kkt(None, None, y, np.ones(N), signs=y, factor=direct.factor)
    np.testing.assert_array_equal(again.alpha, direct.alpha)
    assert again.b == direct.b and again.factor is None  # the caller holds it
    with pytest.raises(TypeError, match="factor must be a CholeskyFactor"):
        solve_bordered_kkt(None, None, y, np.ones(N), factor=direct.factor.upper)
    with pytest.raises(ValueError, match=f"factor must be of the {N - 1} points"):
        solve_bordered_kkt(None, None, y[1:], np.ones(N - 1), factor=direct.factor)


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
    with pytest.raises(ValueError, match="solve_bordered_kkt: method must be one of"):
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


# -- conjugate_gradient: the energy V(x) and its stopping rule (section 3.4.1) ---------


def _energy(A, b, x):
    """V(x) = x^T A x / 2 - x^T b, the cost CG minimises."""
    return 0.5 * x @ A @ x - x @ b


def test_cg_records_the_energy_of_each_iterate(spd, rng):
    rhs = rng.standard_normal(40)
    result = conjugate_gradient(lambda V: spd @ V, rhs, tol=1e-12)
    energies = result.energies[:, 0]
    assert result.energies.shape == result.residuals.shape == (result.n_iter + 1, 1)
    assert energies[0] == 0.0  # x_0 = 0
    # The recorded V(x_k) is that of the k-th iterate (CG is deterministic, so a run
    # stopped by max_iter=k ends at x_k).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for k in (1, 5, 20, result.n_iter):
            x_k = conjugate_gradient(lambda V: spd @ V, rhs, tol=1e-12, max_iter=k).x
            assert energies[k] == pytest.approx(_energy(spd, rhs, x_k), rel=1e-12)


def test_energy_decreases_monotonically_while_the_residual_does_not(spd, rng):
    # The paper's argument for the energy criterion: V(x_i) decreases at every step,
    # ||A x_i - b|| need not. On this SPD matrix (cond 1e3) the residual grows at
    # 27 of 77 steps (measured; the first step multiplies it by 2.0).
    rhs = rng.standard_normal(40)
    result = conjugate_gradient(lambda V: spd @ V, rhs, tol=1e-12)
    residuals, energies = result.residuals[:, 0], result.energies[:, 0]
    assert np.any(np.diff(residuals) > 0.1 * residuals[:-1])  # grows by > 10%
    v_star = _energy(spd, rhs, np.linalg.solve(spd, rhs))
    assert np.all(np.diff(energies) <= 1e-14 * abs(v_star))  # round-off only
    assert energies[-1] == pytest.approx(v_star, rel=1e-12)


def test_residual_grows_on_a_two_by_two_example():
    # A = diag(1, 1000), b = (10, 1): x_1 = lambda b with lambda = 101 / 1100, so
    # r_1 = (9.08, -90.8), 9.1 times ||r_0||, while V drops from 0 to -4.6.
    A = np.diag([1.0, 1000.0])
    b = np.array([10.0, 1.0])
    result = conjugate_gradient(lambda V: A @ V, b, tol=1e-14)
    assert result.residuals[1, 0] > 9 * result.residuals[0, 0]
    assert result.energies[1, 0] < result.energies[0, 0]
    assert result.n_iter == 2  # exact in n steps
    _close(result.x, [10.0, 0.001], 1e-12)


@pytest.mark.parametrize("jacobi", [False, True])
@pytest.mark.parametrize("tol", [1e-6, 1e-8, 1e-10, 1e-12])
def test_energy_stopping_accuracy_follows_from_tol(spd, rng, tol, jacobi):
    # V(x) - V(x*) = ||x - x*||_A^2 / 2 and V(x*) = -||x*||_A^2 / 2, and the rule
    # stops when the last decrease of V is <= tol |V|: the relative A-norm error is
    # about sqrt(tol) (measured 2 to 5.3 sqrt(tol) here; bound 10 sqrt(tol)).
    rhs = rng.standard_normal(40)
    x_star = np.linalg.solve(spd, rhs)
    inv_diag = 1.0 / np.diag(spd)
    result = conjugate_gradient(
        lambda V: spd @ V, rhs, tol=tol, stopping="energy",
        preconditioner=(lambda V: inv_diag[:, None] * V) if jacobi else None,
    )  # fmt: skip
    assert result.converged
    error = result.x - x_star
    a_error = np.sqrt(error @ spd @ error / (x_star @ spd @ x_star))
    assert a_error <= 10 * np.sqrt(tol)
    # The identity behind the rule, on the recorded energy of the last iterate.
    v_star = _energy(spd, rhs, x_star)
    gap = (result.energies[-1, 0] - v_star) / abs(v_star)
    assert gap == pytest.approx(a_error**2, rel=1e-3, abs=1e-15)
    # And the stopping test held at the last step, not before.
    decrease = -np.diff(result.energies[:, 0])
    assert decrease[-1] <= tol * abs(result.energies[-1, 0]) * (1 + 1e-6)
    assert np.all(decrease[:-1] > tol * np.abs(result.energies[1:-1, 0]) * (1 - 1e-6))


def test_energy_stopping_several_rhs_and_zero_column(spd, rng):
    B = rng.standard_normal((40, 3))
    B[:, 1] = 0.0
    result = conjugate_gradient(lambda V: spd @ V, B, tol=1e-16, stopping="energy")
    assert result.converged
    np.testing.assert_array_equal(result.x[:, 1], 0.0)
    np.testing.assert_array_equal(result.energies[:, 1], 0.0)
    _close(result.x, np.linalg.solve(spd, B), RTOL_CG)


def test_energy_stopping_max_iter_too_small_warns(spd, rng):
    match = "CG stopped after 3 iterations, relative decrease of V"
    with pytest.warns(ConvergenceWarning, match=match):
        result = conjugate_gradient(
            lambda V: spd @ V, rng.standard_normal(40), max_iter=3, stopping="energy"
        )
    assert not result.converged and result.n_iter == 3


def test_energy_stopping_through_the_kkt_solver(K, y):
    direct = solve_bordered_kkt(K, GAMMA, y, np.ones(N), signs=y)
    cg = solve_bordered_kkt(
        K, GAMMA, y, np.ones(N), signs=y, method="cg", tol=1e-20, stopping="energy"
    )
    assert cg.converged
    _close(cg.alpha, direct.alpha, RTOL_CG)


def test_unknown_stopping_rule_raises(K, y, spd):
    with pytest.raises(ValueError, match="conjugate_gradient: stopping must be one of"):
        conjugate_gradient(lambda V: spd @ V, np.ones(40), stopping="gradient")
    with pytest.raises(ValueError, match="solve_bordered_kkt: stopping must be one of"):
        solve_bordered_kkt(K, GAMMA, y, np.ones(N), method="cg", stopping=None)


# -- solve_bordered_kkt with an operator and a preconditioner --------------------------


@pytest.fixture
def inputs(rng):
    return rng.standard_normal((N, 2))


@pytest.mark.parametrize("signs", [False, True])
def test_operator_and_preconditioner_agree_with_direct(inputs, y, signs):
    kernel = RBF(1.5)
    s = y if signs else None
    a, d = (y, np.ones(N)) if signs else (np.ones(N), y)
    direct = solve_bordered_kkt(kernel.gram_lower(inputs), GAMMA, a, d, signs=s)
    op = KernelOperator(kernel, inputs, block_size=16)
    P = NystromPreconditioner(kernel, inputs, shift=1.0 / GAMMA, rank=20)
    plain = solve_bordered_kkt(op, GAMMA, a, d, signs=s, method="cg")
    fast = solve_bordered_kkt(op, GAMMA, a, d, signs=s, method="cg", preconditioner=P)
    for sol in (plain, fast):
        assert sol.converged and sol.factor is None
        _close(sol.alpha, direct.alpha, RTOL_CG)
        assert sol.b == pytest.approx(direct.b, rel=RTOL_CG, abs=RTOL_CG)
    assert fast.n_iter < plain.n_iter


def test_direct_method_rejects_an_operator(inputs, y):
    op = KernelOperator(RBF(1.0), inputs)
    match = "solve_bordered_kkt: Omega must be an array for method='direct'"
    with pytest.raises(TypeError, match=match):
        solve_bordered_kkt(op, GAMMA, y, np.ones(N))


def test_auto_is_not_a_method_of_the_kkt_solver(K, y):
    with pytest.raises(ValueError, match="solve_bordered_kkt: method must be one of"):
        solve_bordered_kkt(K, GAMMA, y, np.ones(N), method="auto")


def test_choose_method_reads_the_threshold_at_call_time(monkeypatch):
    assert choose_method("auto", solvers.AUTO_DIRECT_MAX_N) == "direct"
    assert choose_method("auto", solvers.AUTO_DIRECT_MAX_N + 1) == "cg"
    monkeypatch.setattr(solvers, "AUTO_DIRECT_MAX_N", 10)
    assert choose_method("auto", 11) == "cg"
    assert choose_method("direct", 10**9) == "direct"
    assert choose_method("cg", 5) == "cg"
    assert preconditioner_rank(1) == 1 and preconditioner_rank(300) == 150
    assert preconditioner_rank(10**6) == solvers.NYSTROM_MAX_RANK


# -- estimators: solver="cg" (matrix-free) and "auto" against "direct" -----------------

RTOL_ESTIMATOR = 1e-6  # alpha_, b_ of CG (tol 1e-10) against the direct solver
N_AUTO = 300


@pytest.fixture
def three_class_data(rng):
    X = rng.standard_normal((N_AUTO, 2))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] ** 2, [-0.3, 0.6])  # labels 0, 1, 2
    return X, y


def _assert_same_model(fast, direct):
    _close(fast.alpha_, direct.alpha_, RTOL_ESTIMATOR)
    _close(fast.b_, direct.b_, RTOL_ESTIMATOR)
    assert direct.n_iter_ == 0 and fast.n_iter_ > 0


@pytest.mark.parametrize("solver", ["cg", "auto"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_classifier_solvers_agree(monkeypatch, three_class_data, solver, n_classes):
    monkeypatch.setattr(solvers, "AUTO_DIRECT_MAX_N", 100)  # auto -> matrix-free CG
    X, y = three_class_data
    if n_classes == 2:
        y = np.where(y > 0, 1, -1)
    params = dict(gamma=10.0, sigma2=1.0)
    direct = LSSVMClassifier(solver="direct", **params).fit(X, y)
    fast = LSSVMClassifier(solver=solver, **params).fit(X, y)
    assert len(fast.classes_) == n_classes
    _assert_same_model(fast, direct)
    np.testing.assert_array_equal(fast.predict(X), direct.predict(X))
    X_test = np.random.default_rng(1).standard_normal((50, 2))
    np.testing.assert_array_equal(fast.predict(X_test), direct.predict(X_test))


@pytest.mark.parametrize("solver", ["cg", "auto"])
def test_regressor_solvers_agree(monkeypatch, rng, solver):
    monkeypatch.setattr(solvers, "AUTO_DIRECT_MAX_N", 100)
    X = rng.standard_normal((N_AUTO, 2))
    y = np.sinc(X[:, 0]) + 0.1 * rng.standard_normal(N_AUTO)
    direct = LSSVMRegressor(gamma=10.0, sigma2=1.0).fit(X, y)
    fast = LSSVMRegressor(gamma=10.0, sigma2=1.0, solver=solver).fit(X, y)
    _assert_same_model(fast, direct)
    _close(fast.predict(X), direct.predict(X), RTOL_ESTIMATOR)


def test_auto_below_the_threshold_is_direct(rng):
    X = rng.standard_normal((60, 2))
    y = X[:, 0] ** 2
    auto = LSSVMRegressor(solver="auto").fit(X, y)
    direct = LSSVMRegressor(solver="direct").fit(X, y)
    assert auto.n_iter_ == 0
    np.testing.assert_array_equal(auto.alpha_, direct.alpha_)


def test_estimator_tol_is_the_cg_tolerance(rng):
    X = rng.standard_normal((100, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    loose = LSSVMClassifier(solver="cg", tol=1e-3).fit(X, y)
    tight = LSSVMClassifier(solver="cg", tol=1e-12).fit(X, y)
    assert loose.get_params()["tol"] == 1e-3
    assert loose.n_iter_ < tight.n_iter_


@pytest.mark.parametrize("estimator_cls", [LSSVMClassifier, LSSVMRegressor])
def test_unreached_tol_warns_through_the_estimator(monkeypatch, rng, estimator_cls):
    # The estimators do not expose max_iter: make it 2 inside the solver, and check
    # that the ConvergenceWarning reaches the user (it is never silenced).
    run_cg = solvers.conjugate_gradient

    def two_iterations(matvec, rhs, **options):
        return run_cg(matvec, rhs, **{**options, "max_iter": 2})

    monkeypatch.setattr(solvers, "conjugate_gradient", two_iterations)
    X = rng.standard_normal((60, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.warns(ConvergenceWarning, match="CG stopped after 2 iterations"):
        est = estimator_cls(solver="cg", tol=1e-12).fit(X, y)
    assert est.n_iter_ == 2


@pytest.mark.parametrize("estimator_cls", [LSSVMClassifier, LSSVMRegressor])
@pytest.mark.parametrize(
    "params, match",
    [
        (
            {"solver": "lu"},
            r"solver must be one of \['direct', 'cg', 'auto'\]; got solver='lu'",
        ),
        ({"solver": "AUTO"}, "solver must be one of"),
        ({"tol": 0.0}, r"tol must be a positive float \(CG tolerance.*got tol=0\.0"),
        ({"tol": -1e-6}, "tol must be a positive float"),
        ({"tol": np.nan}, "tol must be a positive float"),
        ({"tol": "1e-6"}, "tol must be a positive float"),
        ({"tol": None}, "tol must be a positive float"),
    ],
)
def test_bad_solver_or_tol_raises(rng, estimator_cls, params, match):
    X = rng.standard_normal((20, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    name = estimator_cls.__name__
    with pytest.raises(ValueError, match=f"{name}: {match}"):
        estimator_cls(**params).fit(X, y)


# -- issue 25: the advice of NotPositiveDefiniteError ----------------------------------


def test_not_positive_definite_advice_points_the_right_way():
    """1/gamma keeps H positive definite: the hint says decrease gamma, not increase."""
    X = np.random.default_rng(9).standard_normal((40, 2))
    y = X[:, 0] - X[:, 1]
    LSSVMRegressor(kernel="linear", gamma=1e14).fit(X, y)  # still positive definite
    with pytest.raises(NotPositiveDefiniteError) as info:
        LSSVMRegressor(kernel="linear", gamma=1e16).fit(X, y)
    message = str(info.value)
    assert "decrease gamma" in message and "positive semi-definite" in message
    assert "scale the inputs" in message and "increase gamma" not in message
    assert "gamma=1e+16" in message


def test_ill_conditioned_system_warns(rng):
    """Duplicated rows at gamma = 1e15: solved to round-off, but alpha is not split
    reliably between identical rows; a NumericalWarning says so."""
    from lssvm.linalg import NumericalWarning

    X = rng.standard_normal((40, 2))
    X = np.vstack([X, X])
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.warns(NumericalWarning, match=r"ill-conditioned.*Decrease the regularization constant \(gamma"):
        LSSVMClassifier(gamma=1e15).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LSSVMClassifier(gamma=10.0).fit(X, y)  # well conditioned: silent
