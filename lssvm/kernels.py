r"""Kernel functions K(x, z) and their Gram matrices.

Every kernel states its formula; the RBF follows the book's convention [S 3.13],

.. math:: K(x, z) = \exp(-\|x - z\|_2^2 / \sigma^2),

with the parameter ``sigma2`` = :math:`\sigma^2` (no hidden factor 2; LS-SVMlab's
code uses :math:`2\sigma^2`, scikit-learn's ``gamma`` is :math:`1/\sigma^2`).

Gram matrices are built with BLAS: the cross term :math:`x^T z` by a matrix
product written straight into the output, then :math:`\|x\|^2 + \|z\|^2 - 2 x^T z`
and the elementwise map in place, in blocks of rows, with no temporaries.
:meth:`Kernel.gram_lower` builds only the lower triangle of K(X, X), which is all a
Cholesky factorisation reads. The products have an inner dimension of only
n_features (2 n_features flops per entry written), so they run on one BLAS thread:
otherwise the idle BLAS workers keep spinning after the build and slow down the
factorisation that follows (``benchmarks/bench_fit.py`` times the fit against a bare
factorisation; measured figures in ``benchmarks/README.md``).

Sources: Suykens et al. (2002), ch. 3, [S 3.13] and the kernels listed after [S 3.7];
[VanGestel01] for the ARD weighting.
"""

from __future__ import annotations

import functools
import numbers
from typing import Callable

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

__all__ = [
    "Kernel",
    "rbf_exponent_factors",
    "Linear",
    "Polynomial",
    "RBF",
    "ARDRBF",
    "CallableKernel",
    "Precomputed",
    "PrecomputedGram",
    "make_kernel",
    "fit_view",
    "KERNEL_NAMES",
]

KERNEL_NAMES = ("rbf", "linear", "poly")

# Rows per block when building Gram matrices: small enough that the rows of X and
# of the output stay in cache, large enough for an efficient matrix product.
_BLOCK_ROWS = 128


def _row_blocks(n_rows: int):
    for start in range(0, n_rows, _BLOCK_ROWS):
        yield start, min(start + _BLOCK_ROWS, n_rows)


def _inner(Xb, Z, out, scale=1.0):
    """Write scale * Xb Z^T into ``out``: a dense gemm, or a sparse product.

    Sparse inputs (CSR after :meth:`Kernel._prepare`) go through scipy's sparse
    product, whose (small) result is densified into ``out``.
    """
    if sp.issparse(Xb) or sp.issparse(Z):
        G = Xb @ Z.T
        out[...] = G.toarray() if sp.issparse(G) else G
        if scale != 1.0:
            out *= scale
        return out
    if scale != 1.0:
        Xb = Xb * scale
    return np.matmul(Xb, Z.T, out=out)


def _row_sq_norms(X):
    """||x_i||^2 of every row; for sparse X by ``X.multiply(X).sum(1)``."""
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel()
    return np.einsum("ij,ij->i", X, X)


def _same_value(a, b) -> bool:
    """Exact equality of two kernel parameters (numbers, arrays, callables)."""
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if sp.issparse(a) or sp.issparse(b):
        return a is b
    return bool(a is b or a == b)


@functools.cache
def blas_controller():
    """The loaded BLAS libraries (numpy's and scipy's), found once per process."""
    return ThreadpoolController().select(user_api="blas")


class Kernel:
    """Base class: a positive (semi-)definite kernel K(x, z).

    Subclasses implement :meth:`_block` (the kernel between a block of rows of X and
    the rows of Z, given their inner products) and :meth:`diag`.
    """

    def __call__(self, X: NDArray, Z: NDArray | None = None) -> NDArray[np.float64]:
        """Kernel matrix K(X[i], Z[j]) of shape (n_X, n_Z); Z defaults to X."""
        X, Z = self._prepare(X), self._prepare(X if Z is None else Z)
        K = np.empty((X.shape[0], Z.shape[0]))
        sq_X, sq_Z = self._sq_norms(X), self._sq_norms(Z)
        with blas_controller().limit(limits=1):
            for i0, i1 in _row_blocks(X.shape[0]):
                rows = None if sq_X is None else sq_X[i0:i1]
                self._block(X[i0:i1], Z, rows, sq_Z, out=K[i0:i1])
        return K

    def gram_lower(self, X: NDArray) -> NDArray[np.float64]:
        """K(X, X) with only its lower triangle (diagonal included) filled in.

        The strict upper triangle is left uninitialised: pass the result only to code
        that reads the lower triangle (LAPACK ``potrf``, BLAS ``symm``), such as
        :func:`lssvm.linalg.solvers.solve_bordered_kkt`. Costs half the full build.
        """
        X = self._prepare(X)
        n = X.shape[0]
        K = np.empty((n, n))
        sq = self._sq_norms(X)
        with blas_controller().limit(limits=1):
            for i0, i1 in _row_blocks(n):
                rows, cols = (None, None) if sq is None else (sq[i0:i1], sq[:i1])
                self._block(X[i0:i1], X[:i1], rows, cols, out=K[i0:i1, :i1])
        return K

    def diag(self, X: NDArray) -> NDArray[np.float64]:
        """The diagonal K(x_i, x_i) without building the matrix."""
        raise NotImplementedError

    # -- to implement ---------------------------------------------------------------
    def _block(self, Xb, Z, sq_Xb, sq_Z, out) -> NDArray[np.float64]:
        """Write K(Xb, Z) into ``out`` (shape (len(Xb), len(Z))) and return it."""
        raise NotImplementedError

    def _sq_norms(self, X):
        return None

    def _prepare(self, X):
        if sp.issparse(X):  # CSR: cheap row blocks and sparse products
            return sp.csr_matrix(X, dtype=np.float64)
        return np.asarray(X, dtype=np.float64)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"

    def __eq__(self, other) -> bool:
        """Same class and the same parameters, arrays compared exactly (not by their
        printed digits)."""
        if type(self) is not type(other) or vars(self).keys() != vars(other).keys():
            return False
        return all(_same_value(v, vars(other)[k]) for k, v in vars(self).items())

    __hash__ = None


class Linear(Kernel):
    r"""Linear kernel :math:`K(x, z) = x^T z`."""

    def _block(self, Xb, Z, sq_Xb, sq_Z, out):
        return _inner(Xb, Z, out)

    def diag(self, X):
        return _row_sq_norms(self._prepare(X))


def _power(G, degree):
    """``G ** degree`` in place.

    numpy's ``power`` takes a slow path for negative bases
    (``benchmarks/bench_poly_kernel.py`` times it against the path below; the figures,
    with their machine, are in ``benchmarks/README.md``), and ``x^T z + tau`` is
    negative for a large share of the pairs of standardised inputs. For an integer
    degree above 2 we raise ``|G|`` and, for an odd degree, copy the sign
    back; the result differs from ``np.power`` by at most one unit in the last place.
    """
    if degree == 2 or not float(degree).is_integer():
        return np.power(G, degree, out=G)  # the square has no slow path
    signs = G.copy() if degree % 2 else None  # one block, as the kernel's own
    np.abs(G, out=G)
    np.power(G, degree, out=G)
    if signs is not None:
        np.copysign(G, signs, out=G)
    return G


class Polynomial(Kernel):
    r"""Polynomial kernel :math:`K(x, z) = (x^T z + \tau)^d` (``degree`` d, ``tau``).

    The offset must be non-negative for K to be positive semi-definite.
    """

    def __init__(self, degree: int = 3, tau: float = 1.0):
        self.degree = degree
        self.tau = tau

    def _block(self, Xb, Z, sq_Xb, sq_Z, out):
        G = _inner(Xb, Z, out)
        G += self.tau
        return _power(G, self.degree)

    def diag(self, X):
        return (_row_sq_norms(self._prepare(X)) + self.tau) ** self.degree


class RBF(Kernel):
    r"""Gaussian RBF kernel :math:`K(x, z) = \exp(-\|x - z\|_2^2 / \sigma^2)` [S 3.13]."""

    def __init__(self, sigma2: float = 1.0):
        self.sigma2 = sigma2

    def _sq_norms(self, X):
        return _row_sq_norms(X)

    def _block(self, Xb, Z, sq_Xb, sq_Z, out):
        # -||x - z||^2 / w = (2/w) x^T z - ||x||^2 / w - ||z||^2 / w: the scalings go
        # into the small operands, so the block sees one gemm and four passes.
        w = self._width()
        D = _inner(Xb, Z, out, scale=2.0 / w)
        D -= (sq_Xb / w)[:, None]
        D -= sq_Z / w
        np.minimum(D, 0.0, out=D)  # round-off can make tiny distances negative
        return np.exp(D, out=D)

    def _width(self):
        return self.sigma2

    def diag(self, X):
        return np.ones(np.shape(X)[0])


class ARDRBF(RBF):
    r"""RBF kernel with one width per input (automatic relevance determination).

    .. math:: K(x, z) = \exp\Big(-\sum_{i=1}^{n} (x_i - z_i)^2 / \sigma_i^2\Big)

    ``sigma2`` is an array with one :math:`\sigma_i^2` per input. [VanGestel01] writes
    the same kernel with weights :math:`\bar u_i = 1/\sigma_i^2`; the ARD covariance
    [S 3.69] carries an extra factor 1/2 inside the exponent.
    """

    def __init__(self, sigma2):
        self.sigma2 = sigma2

    def _prepare(self, X):
        # Scale each input by 1/sigma_i, then use the unit-width RBF.
        X = super()._prepare(X)
        scale = np.sqrt(np.asarray(self.sigma2, dtype=np.float64))
        if scale.ndim != 1 or scale.shape[0] != X.shape[1]:
            raise ValueError(
                f"ARDRBF needs one sigma2 per input: X has {X.shape[1]} features, "
                f"got sigma2 of shape {np.shape(self.sigma2)}."
            )
        if sp.issparse(X):
            return sp.csr_matrix(X @ sp.diags(1.0 / scale))
        return X / scale

    def _width(self):
        return 1.0

    def __repr__(self):
        return f"ARDRBF(sigma2={np.asarray(self.sigma2).tolist()!r})"


def rbf_exponent_factors(kernel: RBF, X: NDArray, Z: NDArray):
    r"""(A, B) with A B = -||x - z||^2 / sigma^2 for every row pair, one GEMM away.

    For :class:`RBF` and :class:`ARDRBF` (whose inputs are scaled first): the
    scalings and both squared norms fold into the factors,

    .. math:: -\|x - z\|^2/\sigma^2
       = [\tfrac{2}{\sigma^2} x^T,\ -\|x\|^2/\sigma^2,\ -1]\,[z;\ 1;\ \|z\|^2/\sigma^2],

    A of shape (n_X, d + 2) and B of shape (d + 2, n_Z), so that a block of the
    kernel matrix is ``np.exp(A[rows] @ B)`` (unclipped: an entry with x = z can
    exceed 1 by about 1e-16 ||x||^2 / sigma^2). X or Z may be None (its factor is
    then None). Dense inputs only.
    """
    if type(kernel) not in (RBF, ARDRBF):  # a subclass may change the formula
        raise TypeError(f"rbf_exponent_factors needs RBF or ARDRBF; got {kernel!r}.")
    width = float(kernel._width())
    A = B = None
    if X is not None:
        Xp = kernel._prepare(X)
        n, d = Xp.shape
        A = np.empty((n, d + 2))
        np.multiply(Xp, 2.0 / width, out=A[:, :d])
        A[:, d] = np.einsum("ij,ij->i", Xp, Xp) / -width
        A[:, d + 1] = -1.0
    if Z is not None:
        Zp = kernel._prepare(Z)
        sq = np.einsum("ij,ij->i", Zp, Zp)
        B = np.vstack([Zp.T, np.ones((1, Zp.shape[0])), sq[None, :] / width])
    return A, B


#: N x N matrices a direct fit holds at its peak with a callable kernel: the
#: function's result and the copy that is factored in place.
CALLABLE_KERNEL_MATRICES = 2


class CallableKernel(Kernel):
    """Wraps a user function ``kernel(X, Z) -> ndarray of shape (n_X, n_Z)``.

    Its values are always copied into a new array, so the function may return an
    array it keeps: the estimators change theirs in place. The copy makes the peak
    memory of a direct fit two N x N matrices (the function's and the copy), which
    the memory guard counts (:data:`CALLABLE_KERNEL_MATRICES`).
    """

    def __init__(self, function: Callable):
        self.function = function

    def __call__(self, X, Z=None):
        X = self._prepare(X)
        Z = X if Z is None else self._prepare(Z)
        K = self.function(X, Z)
        if sp.issparse(K):  # a sparse kernel matrix: densified (the solvers are dense)
            K = K.toarray()
        # a new array, always: callers may change it in place (the direct solver
        # factors it, PSVM adds 1), and the function may return one it keeps
        K = np.array(K, dtype=np.float64, order="C")
        if K.shape != (X.shape[0], Z.shape[0]):
            raise ValueError(
                f"The kernel callable must return an array of shape "
                f"{(X.shape[0], Z.shape[0])} for inputs of {X.shape[0]} and "
                f"{Z.shape[0]} rows; got shape {K.shape}."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("The kernel callable returned NaN or inf values.")
        return K

    def gram_lower(self, X):
        """K(X, X), a new C-ordered array (the caller may factor it in place)."""
        return self(X)

    def diag(self, X):
        X = self._prepare(X)
        return np.array([self(X[i : i + 1])[0, 0] for i in range(X.shape[0])])


def _indices(Z) -> NDArray[np.intp]:
    """Training indices stored as a column (n, 1) of floats by :func:`fit_view`."""
    return np.asarray(Z, dtype=np.float64)[:, 0].astype(np.intp)


class Precomputed(Kernel):
    """``kernel="precomputed"``: the user passes kernel values instead of inputs.

    At fit, X is the Gram matrix K(X_train, X_train) (n_train, n_train); at predict,
    X is K(X_test, X_train) (n_test, n_train), one column per training point, as in
    scikit-learn's ``SVC`` and ``KernelRidge``. Fitted estimators store the training
    points as their indices, a column (n, 1) (see :func:`fit_view`), so
    ``Precomputed()(X_test_kernel, indices)`` selects the columns of those points.
    The input is never modified: selections are copies.
    """

    def __call__(self, X, Z=None):
        if sp.issparse(X):  # a sparse K(X_test, X_train): densify the columns used
            X = sp.csc_matrix(X, dtype=np.float64)
            return (X if Z is None else X[:, _indices(Z)]).toarray()
        X = np.asarray(X, dtype=np.float64)
        if Z is None:
            return X.copy()
        return X[:, _indices(Z)]

    def gram_lower(self, X):
        raise TypeError(
            "kernel='precomputed' has no inputs to build a Gram matrix from; "
            "estimators fit through lssvm.kernels.fit_view."
        )

    def diag(self, X):
        raise TypeError(
            "kernel='precomputed' cannot give K(x, x) of test points: only "
            "K(X_test, X_train) is passed."
        )


class PrecomputedGram(Kernel):
    """The fit-time view of a precomputed Gram matrix K: points are row indices.

    ``PrecomputedGram(K)(A, B) = K[a][:, b]`` for the index columns A, B made by
    :func:`fit_view`: so every code path that calls ``kernel(X[rows], X[cols])``
    works unchanged on a precomputed matrix. Returns copies; K is only read.
    """

    def __init__(self, K):
        self.K = K

    def __call__(self, X, Z=None):
        a = _indices(X)
        b = a if Z is None else _indices(Z)
        return np.array(self.K[np.ix_(a, b)], dtype=np.float64)

    def gram_lower(self, X):
        return self(X)

    def diag(self, X):
        a = _indices(X)
        return np.array(self.K[a, a], dtype=np.float64)

    def __repr__(self):
        return f"PrecomputedGram(n={self.K.shape[0]})"


#: A precomputed Gram matrix is symmetric when max |K - K^T| <= GRAM_SYMMETRY_RTOL
#: max |K| (round-off of a product such as X X^T stays far below).
GRAM_SYMMETRY_RTOL = 1e-8


def check_symmetric_gram(K) -> None:
    """Raise ValueError naming the largest asymmetry of a precomputed Gram matrix.

    The solvers read one triangle of K: a non-symmetric K would be fitted as a
    different, symmetric matrix without a word.
    """
    K = np.asarray(K, dtype=np.float64)
    if K.size == 0:
        return
    gap = np.abs(K - K.T)
    worst = float(gap.max())
    scale = float(np.abs(K).max())
    if worst > GRAM_SYMMETRY_RTOL * scale:
        i, j = np.unravel_index(int(gap.argmax()), gap.shape)
        raise ValueError(
            "kernel='precomputed': the Gram matrix K(X_train, X_train) must be "
            f"symmetric (max |K - K^T| <= {GRAM_SYMMETRY_RTOL:.0e} max |K|); got "
            f"max |K - K^T| = {worst:.3g} at ({i}, {j}), max |K| = {scale:.3g}."
        )


def fit_view(kernel: Kernel, X):
    """(X, kernel) as the fit sees them: unchanged, or indices and PrecomputedGram.

    For :class:`Precomputed`, X must be the square Gram matrix of the training
    points; the training points become their indices, a float column (n, 1),
    and the kernel a :class:`PrecomputedGram` over X.
    """
    if not isinstance(kernel, Precomputed):
        return X, kernel
    if sp.issparse(X):
        X = X.toarray()
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[0] != X.shape[1]:
        raise ValueError(
            f"kernel='precomputed' needs the square Gram matrix K(X_train, X_train) "
            f"at fit; got X of shape {X.shape}."
        )
    check_symmetric_gram(X)
    return np.arange(X.shape[0], dtype=np.float64)[:, None], PrecomputedGram(X)


def _check_kernel_param(value, name, allowed_desc, *, integer=False, positive=True):
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    ok = ok and np.isfinite(value)
    if ok and integer:
        ok = float(value).is_integer() and value >= 1
    elif ok and positive:
        ok = value > 0
    if not ok:
        raise ValueError(f"{name} must be {allowed_desc}; got {name}={value!r}.")


def make_kernel(kernel="rbf", *, sigma2=1.0, degree=3, tau=1.0) -> Kernel:
    """Kernel object from an estimator's ``kernel`` parameter.

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly", "precomputed"}, Kernel instance or callable
        A callable is used as ``kernel(X, Z)`` and must return the kernel matrix.
        "precomputed": X holds kernel values (:class:`Precomputed`).
    sigma2 : float or array
        Width of the RBF kernel [S 3.13]; an array of one width per input gives
        :class:`ARDRBF`.
    degree, tau : int, float
        Degree and offset of the polynomial kernel (x^T z + tau)^degree.
    """
    if isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, str):
        if kernel == "rbf":
            if np.ndim(sigma2) == 1:
                sigma2_arr = np.asarray(sigma2, dtype=np.float64)
                if not (np.all(np.isfinite(sigma2_arr)) and np.all(sigma2_arr > 0)):
                    raise ValueError(
                        "sigma2 must be positive (RBF width of [S 3.13]); "
                        f"got sigma2={sigma2!r}."
                    )
                return ARDRBF(sigma2_arr)
            _check_kernel_param(
                sigma2, "sigma2", "a positive float (RBF width sigma^2 of [S 3.13])"
            )
            return RBF(float(sigma2))
        if kernel == "linear":
            return Linear()
        if kernel == "precomputed":
            return Precomputed()
        if kernel == "poly":
            _check_kernel_param(degree, "degree", "a positive integer", integer=True)
            _check_kernel_param(
                tau, "tau", "a non-negative float (offset of (x^T z + tau)^d)",
                positive=False,
            )
            if tau < 0:
                raise ValueError(
                    "tau must be a non-negative float (offset of (x^T z + tau)^d); "
                    f"got tau={tau!r}."
                )
            return Polynomial(int(degree), float(tau))
    elif callable(kernel):
        return CallableKernel(kernel)
    raise ValueError(
        f"kernel must be one of {list(KERNEL_NAMES)}, 'precomputed', a Kernel or a "
        f"callable kernel(X, Z); got kernel={kernel!r}."
    )
