"""The explicit KKT matrices of (3.5)/(3.32) and the relative residual of (3.24)."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm.kernels import RBF
from lssvm.linalg.kkt import kkt_matrix, kkt_residual, omega

RTOL_DIRECT = 1e-10  # backward error of a stable direct solve
N = 30
GAMMA = 5.0


@pytest.fixture
def system(rng):
    X = rng.standard_normal((N, 2))
    K = RBF(2.0)(X)
    y = np.where(rng.standard_normal(N) > 0, 1.0, -1.0)
    return K, y


def test_omega_classifier_entries(system):
    K, y = system
    Omega = omega(K, y)
    expected = np.array([[y[k] * y[l] * K[k, l] for l in range(N)] for k in range(N)])
    np.testing.assert_array_equal(Omega, expected)  # (3.6)


def test_omega_regression_is_a_copy_of_k(system):
    K, _ = system
    Omega = omega(K)  # (3.33)
    np.testing.assert_array_equal(Omega, K)
    Omega[0, 0] = 123.0
    assert K[0, 0] != 123.0


def test_kkt_matrix_blocks(system):
    K, y = system
    A = kkt_matrix(K, GAMMA, y)
    assert A.shape == (N + 1, N + 1)
    assert A[0, 0] == 0.0
    np.testing.assert_array_equal(A[0, 1:], y)
    np.testing.assert_array_equal(A[1:, 0], y)
    np.testing.assert_allclose(A[1:, 1:], K + np.eye(N) / GAMMA, rtol=1e-15)
    np.testing.assert_allclose(A, A.T, rtol=1e-15, atol=1e-15)


def test_kkt_matrix_with_one_gamma_per_sample(system, rng):
    K, y = system
    gamma = rng.uniform(0.5, 5.0, N)
    A = kkt_matrix(K, gamma, np.ones(N))
    np.testing.assert_allclose(A[1:, 1:], K + np.diag(1.0 / gamma), rtol=1e-15)


def test_residual_of_exact_solution_is_tiny(system):
    K, y = system
    Omega = omega(K, y)
    x = np.linalg.solve(kkt_matrix(Omega, GAMMA, y), np.r_[0.0, np.ones(N)])
    assert kkt_residual(Omega, GAMMA, y, np.ones(N), x[1:], x[0]) < RTOL_DIRECT


def test_residual_detects_a_wrong_solution(system):
    K, y = system
    a, d = np.ones(N), y
    x = np.linalg.solve(kkt_matrix(K, GAMMA, a), np.r_[0.0, d])
    alpha, b = x[1:], x[0]
    assert kkt_residual(K, GAMMA, a, d, alpha, b + 1e-3) > 1e-6
    alpha_bad = alpha.copy()
    alpha_bad[3] += 1e-3
    assert kkt_residual(K, GAMMA, a, d, alpha_bad, b) > 1e-6


def test_residual_formula(system, rng):
    # ||A x - r|| / (||A||_F ||x|| + ||r||) at an arbitrary point.
    K, y = system
    a, d = np.ones(N), y
    alpha, b = rng.standard_normal(N), 0.7
    A = kkt_matrix(K, GAMMA, a)
    x, r = np.r_[b, alpha], np.r_[0.0, d]
    expected = np.linalg.norm(A @ x - r) / (
        np.linalg.norm(A, "fro") * np.linalg.norm(x) + np.linalg.norm(r)
    )
    np.testing.assert_allclose(
        kkt_residual(K, GAMMA, a, d, alpha, b), expected, rtol=1e-12
    )


def test_residual_several_rhs_is_the_largest(system, rng):
    K, y = system
    a = np.ones(N)
    D = rng.standard_normal((N, 3))
    X = np.linalg.solve(kkt_matrix(K, GAMMA, a), np.vstack([np.zeros((1, 3)), D]))
    alpha, b = X[1:].copy(), X[0].copy()
    alpha[0, 1] += 1e-2  # spoil the middle column only
    per_column = [
        kkt_residual(K, GAMMA, a, D[:, j], alpha[:, j], b[j]) for j in range(3)
    ]
    assert per_column[0] < RTOL_DIRECT and per_column[2] < RTOL_DIRECT
    assert kkt_residual(K, GAMMA, a, D, alpha, b) == pytest.approx(per_column[1])
    assert per_column[1] > 1e-6
