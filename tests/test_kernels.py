"""Kernels: the shared contract, formulas, block building, make_kernel."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

import lssvm.kernels
from lssvm.kernels import (
    ARDRBF,
    RBF,
    CallableKernel,
    Kernel,
    Linear,
    Polynomial,
    make_kernel,
)

RTOL = 1e-12  # closed-form kernels: only round-off separates two computations
ATOL = 1e-12
PSD_TOL = 1e-10  # min eigenvalue >= -PSD_TOL * max eigenvalue

SIGMA2 = 2.5
ARD_WIDTHS = np.array([0.5, 2.0, 8.0])


def _laplacian(A, B):
    """A PSD user kernel: exp(-||a - b||_1)."""
    return np.exp(-np.abs(A[:, None, :] - B[None, :, :]).sum(axis=2))


def _naive_rbf(X, Z, sigma2):
    """exp(-||x - z||^2 / sigma2) entry by entry, (3.13)."""
    return np.array([[np.exp(-np.sum((x - z) ** 2) / sigma2) for z in Z] for x in X])


def _naive_ard(X, Z, widths):
    return np.array([[np.exp(-np.sum((x - z) ** 2 / widths)) for z in Z] for x in X])


# (id, kernel, naive formula (X, Z) -> K)
KERNEL_CASES = [
    ("linear", Linear(), lambda X, Z: np.array([[x @ z for z in Z] for x in X])),
    (
        "poly",
        Polynomial(degree=3, tau=1.5),
        lambda X, Z: np.array([[(x @ z + 1.5) ** 3 for z in Z] for x in X]),
    ),
    ("rbf", RBF(sigma2=SIGMA2), lambda X, Z: _naive_rbf(X, Z, SIGMA2)),
    ("ardrbf", ARDRBF(ARD_WIDTHS), lambda X, Z: _naive_ard(X, Z, ARD_WIDTHS)),
    ("callable", CallableKernel(_laplacian), _laplacian),
]
KERNELS = [pytest.param(k, f, id=name) for name, k, f in KERNEL_CASES]


@pytest.fixture
def xz(rng):
    return rng.standard_normal((40, 3)), rng.standard_normal((25, 3))


# -- contract over all kernels ---------------------------------------------------------


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_shapes_and_formula(kernel, naive, xz):
    X, Z = xz
    K_xz = kernel(X, Z)
    assert K_xz.shape == (40, 25)
    assert K_xz.dtype == np.float64
    np.testing.assert_allclose(K_xz, naive(X, Z), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(kernel(Z, X), K_xz.T, rtol=RTOL, atol=ATOL)
    assert kernel(X).shape == (40, 40)


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_symmetric_and_psd(kernel, naive, xz):
    X, _ = xz
    K = kernel(X)
    np.testing.assert_allclose(K, K.T, rtol=RTOL, atol=ATOL)
    eigvals = np.linalg.eigvalsh(K)
    assert eigvals.min() >= -PSD_TOL * eigvals.max()


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_diag_matches_gram_diagonal(kernel, naive, xz):
    X, _ = xz
    d = kernel.diag(X)
    assert d.shape == (40,)
    np.testing.assert_allclose(d, np.diag(kernel(X)), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_gram_lower_matches_lower_triangle(kernel, naive, xz):
    X, _ = xz
    G = kernel.gram_lower(X)
    assert G.shape == (40, 40)
    np.testing.assert_allclose(np.tril(G), np.tril(kernel(X)), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_blocks_when_larger_than_one_block(kernel, naive, rng, monkeypatch):
    # With _BLOCK_ROWS = 64, 150 rows make three blocks, the last one partial.
    monkeypatch.setattr(lssvm.kernels, "_BLOCK_ROWS", 64)
    X, Z = rng.standard_normal((150, 3)), rng.standard_normal((70, 3))
    np.testing.assert_allclose(kernel(X, Z), naive(X, Z), rtol=RTOL, atol=ATOL)
    K_naive = naive(X, X)
    np.testing.assert_allclose(kernel(X), K_naive, rtol=RTOL, atol=ATOL)
    G = kernel.gram_lower(X)
    np.testing.assert_allclose(np.tril(G), np.tril(K_naive), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("kernel, naive", KERNELS)
def test_accepts_lists_and_integers(kernel, naive):
    X = [[0, 1, 2], [1, 0, -1], [2, 2, 0]]
    np.testing.assert_allclose(
        kernel(X), naive(np.asarray(X, float), np.asarray(X, float)), rtol=RTOL
    )


# -- formulas --------------------------------------------------------------------------


def test_rbf_is_book_convention_not_sklearn_factor(xz):
    # (3.13): exp(-||x - z||^2 / sigma2), i.e. scikit-learn's gamma = 1/sigma2 (no 1/2).
    X, Z = xz
    expected = rbf_kernel(X, Z, gamma=1.0 / SIGMA2)
    np.testing.assert_allclose(RBF(SIGMA2)(X, Z), expected, rtol=RTOL, atol=ATOL)
    wrong = rbf_kernel(X, Z, gamma=1.0 / (2 * SIGMA2))
    assert not np.allclose(RBF(SIGMA2)(X, Z), wrong)


def test_rbf_identical_points_give_one(rng):
    # Round-off in ||x||^2 + ||z||^2 - 2 x^T z (about eps ||x||^2 / sigma2) must not
    # give values above 1, and duplicated points must give about 1.
    X = 100.0 * rng.standard_normal((20, 3))
    K = RBF(1.0)(np.vstack([X, X]))
    assert K.max() <= 1.0
    np.testing.assert_allclose(np.diag(K[:20, 20:]), 1.0, rtol=0, atol=1e-10)


def test_polynomial_matches_sklearn(xz):
    X, Z = xz
    expected = polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=0.7)
    np.testing.assert_allclose(Polynomial(2, 0.7)(X, Z), expected, rtol=RTOL)


@pytest.mark.parametrize("degree", range(1, 11))
def test_polynomial_of_every_degree_keeps_the_sign_of_negative_bases(degree):
    # the kernel raises |x^T z + tau| and puts the sign back (numpy's power is slow for
    # negative bases): the values must be those of the plain power, signs included
    rng = np.random.default_rng(degree)
    X, Z = rng.standard_normal((30, 4)), rng.standard_normal((25, 4))
    G = X @ Z.T + 0.5
    assert (G < 0).mean() > 0.2
    K = Polynomial(degree, 0.5)(X, Z)
    np.testing.assert_allclose(K, G**degree, rtol=4e-16 * degree, atol=0)
    assert np.array_equal(np.sign(K), np.sign(G) ** degree)


def test_ard_with_equal_widths_equals_rbf(xz):
    X, Z = xz
    ard = ARDRBF(np.full(3, SIGMA2))
    np.testing.assert_allclose(ard(X, Z), RBF(SIGMA2)(X, Z), rtol=RTOL, atol=ATOL)
    G = ard.gram_lower(X)
    np.testing.assert_allclose(
        np.tril(G), np.tril(RBF(SIGMA2)(X)), rtol=RTOL, atol=ATOL
    )


def test_ard_width_scales_its_own_input(rng):
    # Doubling every input and every width by 4 leaves the ARD kernel unchanged.
    X = rng.standard_normal((10, 3))
    np.testing.assert_allclose(
        ARDRBF(4 * ARD_WIDTHS)(2 * X), ARDRBF(ARD_WIDTHS)(X), rtol=RTOL
    )


@pytest.mark.parametrize(
    "widths", [[1.0, 2.0], [1.0, 2.0, 3.0, 4.0], [[1.0, 2.0, 3.0]]]
)
def test_ard_wrong_number_of_widths_raises(widths, xz):
    X, _ = xz
    with pytest.raises(ValueError, match="one sigma2 per input"):
        ARDRBF(widths)(X)


def test_callable_kernel_wrong_shape_raises(xz):
    X, Z = xz
    kernel = CallableKernel(lambda A, B: A @ A.T)
    with pytest.raises(ValueError, match="must return an array of shape"):
        kernel(X, Z)


def test_callable_kernel_non_finite_raises(xz):
    X, _ = xz
    kernel = CallableKernel(lambda A, B: np.full((len(A), len(B)), np.nan))
    with pytest.raises(ValueError, match="NaN or inf"):
        kernel(X)


def test_kernel_equality_and_repr():
    assert RBF(2.0) == RBF(2.0)
    assert RBF(2.0) != RBF(3.0)
    assert RBF(2.0) != ARDRBF([2.0])
    assert "sigma2=2.0" in repr(RBF(2.0))
    assert ARDRBF([1.0, 2.0]) == ARDRBF(np.array([1.0, 2.0]))


# -- make_kernel -----------------------------------------------------------------------


def test_make_kernel_builds_each_kind():
    assert make_kernel("rbf", sigma2=3.0) == RBF(3.0)
    assert make_kernel("linear") == Linear()
    assert make_kernel("poly", degree=2, tau=0.5) == Polynomial(2, 0.5)
    ard = make_kernel("rbf", sigma2=[1.0, 2.0])
    assert isinstance(ard, ARDRBF)
    np.testing.assert_array_equal(ard.sigma2, [1.0, 2.0])
    kernel = RBF(5.0)
    assert make_kernel(kernel) is kernel
    assert isinstance(make_kernel(_laplacian), CallableKernel)
    assert isinstance(make_kernel(_laplacian), Kernel)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"kernel": "sigmoid"}, "kernel must be one of"),
        ({"kernel": 3}, "kernel must be one of"),
        ({"kernel": None}, "kernel must be one of"),
        ({"sigma2": 0.0}, "sigma2 must be"),
        ({"sigma2": -1.0}, "sigma2 must be"),
        ({"sigma2": np.nan}, "sigma2 must be"),
        ({"sigma2": np.inf}, "sigma2 must be"),
        ({"sigma2": True}, "sigma2 must be"),
        ({"sigma2": "1"}, "sigma2 must be"),
        ({"sigma2": [1.0, 0.0]}, "sigma2 must be"),
        ({"sigma2": [1.0, np.nan]}, "sigma2 must be"),
        ({"kernel": "poly", "degree": 0}, "degree must be"),
        ({"kernel": "poly", "degree": 2.5}, "degree must be"),
        ({"kernel": "poly", "tau": -1.0}, "tau must be"),
        ({"kernel": "poly", "tau": np.nan}, "tau must be"),
    ],
)
def test_make_kernel_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_kernel(**kwargs)


def test_make_kernel_message_names_the_value():
    with pytest.raises(ValueError, match=r"got sigma2=-2\.0"):
        make_kernel("rbf", sigma2=-2.0)
    with pytest.raises(ValueError, match=r"\['rbf', 'linear', 'poly'\].*'sigmoid'"):
        make_kernel("sigmoid")


def test_rbf_exponent_factors_give_the_kernel():
    from lssvm.kernels import ARDRBF, RBF, Polynomial, rbf_exponent_factors

    rng = np.random.default_rng(0)
    X, Z = rng.standard_normal((7, 3)), rng.standard_normal((5, 3))
    for kernel in (RBF(2.5), ARDRBF([0.5, 2.0, 4.0])):
        A, B = rbf_exponent_factors(kernel, X, Z)
        assert A.shape == (7, 5) and B.shape == (5, 5)
        np.testing.assert_allclose(np.exp(A @ B), kernel(X, Z), rtol=1e-13, atol=1e-15)
        assert rbf_exponent_factors(kernel, X, None)[1] is None
    with pytest.raises(TypeError, match="RBF or ARDRBF"):
        rbf_exponent_factors(Polynomial(2), X, Z)


def test_kernel_equality_compares_parameters_exactly():
    """Two kernels whose parameters differ beyond the printed digits are not equal
    (pruning reuses a factor only for an equal kernel)."""
    from lssvm.kernels import ARDRBF, RBF

    assert RBF(2.0) == RBF(2.0) and RBF(2.0) != RBF(2.0 + 1e-12)
    a = ARDRBF(np.array([0.5, 2.0]))
    assert a == ARDRBF([0.5, 2.0]) and a != ARDRBF([0.5, 2.0 * (1 + 1e-13)])
    assert RBF(2.0) != ARDRBF([2.0])
