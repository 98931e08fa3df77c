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
from numpy.typing import NDArray

__all__ = ["EIGVAL_RTOL", "kept_eigenpairs", "nystrom_factor", "NystromFeatureMap"]

#: One tolerance for both uses (before: 1e-10 in the preconditioner, 1e-9 in the map).
EIGVAL_RTOL = 1e-9


def kept_eigenpairs(W: NDArray) -> tuple[NDArray, NDArray]:
    """(s, U) of the symmetric W, largest first, eigenvalues <= EIGVAL_RTOL * max dropped."""
    s, U = np.linalg.eigh((W + W.T) / 2)  # W = U diag(s) U^T
    keep = (s > EIGVAL_RTOL * s.max()) & (s > 0)
    return s[keep][::-1], U[:, keep][:, ::-1]


def nystrom_factor(C: NDArray, landmarks) -> NDArray[np.float64]:
    """L with L L^T = C W^+ C^T, W = C[landmarks], small eigenvalues of W dropped."""
    s, U = kept_eigenpairs(C[landmarks])
    return C @ (U / np.sqrt(s))


class NystromFeatureMap:
    r"""x -> diag(s)^{-1/2} U^T k_Z(x) from W = K(Z, Z) = U diag(s) U^T.

    Eigenvalues at most ``EIGVAL_RTOL`` times the largest (and non-positive ones)
    are dropped: ``transform`` has ``n_components`` <= m columns.
    """

    def __init__(self, kernel, Z: NDArray):
        self.kernel = kernel
        self.Z = np.asarray(Z, dtype=np.float64)
        self.eigvals, self.eigvecs = kept_eigenpairs(kernel(self.Z))
        self.projection = self.eigvecs / np.sqrt(self.eigvals)  # (m, r): U diag(s)^-1/2

    @property
    def n_components(self) -> int:
        return self.projection.shape[1]

    def transform(self, X: NDArray) -> NDArray[np.float64]:
        """Phi(X), shape (n, n_components)."""
        return self.kernel(X, self.Z) @ self.projection
