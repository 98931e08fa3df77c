r"""The one Nystrom factorisation: the preconditioner of CG and the fixed-size feature map.

Given landmarks (prototypes) Z and W = K(Z, Z) = U diag(s) U^T, the Nystrom
approximation of the kernel is K ~ C W^+ C^T with C = K(X, Z). Both users of it
factor W the same way here:

- :class:`lssvm.linalg.operators.NystromPreconditioner` needs L with L L^T = C W^+ C^T
  (:func:`nystrom_factor`);
- the fixed-size LS-SVM [S §3.6.1] needs the feature map
  x -> diag(s)^{-1/2} U^T k_Z(x) (:class:`NystromFeatureMap`).

Eigenvalues of W at most ``EIGVAL_RTOL`` times the largest, and non-positive ones
(of an indefinite user kernel only the positive part is kept), are dropped
(:func:`kept_eigenpairs`): they carry round-off, not spectrum. The column of the
feature map for eigenvalue s carries a round-off of about eps / sqrt(s / s_max)
relative to the largest, 3e-12 at the cutoff.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import NDArray

__all__ = ["EIGVAL_RTOL", "kept_eigenpairs", "nystrom_factor", "NystromFeatureMap"]

#: One tolerance for both uses (before: 1e-10 in the preconditioner, 1e-9 in the map).
EIGVAL_RTOL = 1e-9


def kept_eigenpairs(W: NDArray, *, overwrite: bool = False) -> tuple[NDArray, NDArray]:
    """(s, U) of the symmetric W, largest first, eigenvalues <= EIGVAL_RTOL * max dropped.

    Only the lower triangle of W is read (as by ``Kernel.gram_lower``). With
    ``overwrite`` W is the eigensolver's workspace and is destroyed: the peak is W
    and U, two m x m matrices (LAPACK ``syevr``, O(m) workspace; ``syevd``, numpy's
    choice, needs two more, and symmetrising a copy of W one more again). U is a
    view of the solver's output with its columns reordered in place.
    """
    # the lower triangle of a C-ordered W is the upper triangle of W.T, which is
    # Fortran-ordered: LAPACK takes it without a copy
    s, U = scipy.linalg.eigh(W.T, lower=False, overwrite_a=overwrite,
                             check_finite=False, driver="evr")  # W = U diag(s) U^T
    s_max = s[-1] if len(s) else 0.0  # ascending
    first = int(np.searchsorted(s, max(EIGVAL_RTOL * s_max, 0.0), side="right"))
    _reverse_columns(U)  # largest first; the kept ones are then the leading columns
    return s[first:][::-1].copy(), U[:, : len(s) - first]


def _reverse_columns(U: NDArray) -> None:
    """Reverse the order of the columns of U in place (a column pair at a time:
    no m x m temporary)."""
    m = U.shape[1]
    for j in range(m // 2):
        k = m - 1 - j
        first = U[:, j].copy()
        U[:, j] = U[:, k]
        U[:, k] = first


def nystrom_factor(C: NDArray, landmarks) -> NDArray[np.float64]:
    """L with L L^T = C W^+ C^T, W = C[landmarks], small eigenvalues of W dropped."""
    s, U = kept_eigenpairs(C[landmarks], overwrite=True)  # C[landmarks]: a copy
    U /= np.sqrt(s)
    return C @ U


class NystromFeatureMap:
    r"""x -> diag(s)^{-1/2} U^T k_Z(x) from W = K(Z, Z) = U diag(s) U^T.

    Eigenvalues at most ``EIGVAL_RTOL`` times the largest (and non-positive ones)
    are dropped: ``transform`` has ``n_components`` <= m columns.

    Memory: the map keeps ``projection`` :math:`T = U S^{-1/2}` (m x r) and the
    eigenvalues s, not U as well (``eigvecs`` is computed from T when asked for).
    Building it holds at most two m x m matrices: W (its lower triangle filled, by
    ``Kernel.gram_lower``), overwritten by the eigensolver, and U, scaled in place
    into T.
    """

    def __init__(self, kernel, Z: NDArray):
        self.kernel = kernel
        self.Z = np.asarray(Z, dtype=np.float64)
        gram = getattr(kernel, "gram_lower", None)  # half the kernel evaluations
        W = gram(self.Z) if gram is not None else np.array(kernel(self.Z), dtype=float)
        s, U = kept_eigenpairs(W, overwrite=True)
        del W
        U /= np.sqrt(s)  # in place: T = U diag(s)^-1/2, (m, r)
        self.eigvals, self.projection = s, U

    @property
    def eigvecs(self) -> NDArray[np.float64]:
        """U = T diag(s)^{1/2}, (m, r): a new array on every call."""
        return self.projection * np.sqrt(self.eigvals)

    @property
    def n_components(self) -> int:
        return self.projection.shape[1]

    def transform(self, X: NDArray) -> NDArray[np.float64]:
        """Phi(X), shape (n, n_components)."""
        return self.kernel(X, self.Z) @ self.projection
