r"""The LS-SVM KKT system: the Omega matrices and the residual of the bordered system.

Both the classifier [S 3.5] and the function estimator [S 3.32] lead to one bordered
linear system [S 3.24],

.. math::

    \begin{bmatrix} 0 & a^T \\ a & \Omega + I/\gamma \end{bmatrix}
    \begin{bmatrix} b \\ \alpha \end{bmatrix} =
    \begin{bmatrix} 0 \\ d \end{bmatrix},

with :math:`a = y, d = 1_v, \Omega_{kl} = y_k y_l K(x_k, x_l)` for the classifier
[S 3.5-3.6] and :math:`a = 1_v, d = y, \Omega = K` for regression [S 3.32-3.33].
These helpers form the matrices explicitly, for teaching and for checks; the solver
in :mod:`lssvm.linalg.solvers` never needs them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["omega", "kkt_matrix", "kkt_residual"]


def omega(K: NDArray, y: NDArray | None = None) -> NDArray[np.float64]:
    """Omega: y_k y_l K_kl for the classifier [S 3.6]; K for regression [S 3.33], y=None."""
    K = np.asarray(K, dtype=np.float64)
    if y is None:
        return K.copy()
    y = np.asarray(y, dtype=np.float64)
    return np.outer(y, y) * K  # [S 3.6]


def kkt_matrix(Omega: NDArray, gamma, a: NDArray) -> NDArray[np.float64]:
    """The full (N+1) x (N+1) matrix [[0, a^T], [a, Omega + I/gamma]] of [S 3.24]."""
    Omega = np.asarray(Omega, dtype=np.float64)
    n = Omega.shape[0]
    A = np.zeros((n + 1, n + 1))
    A[0, 1:] = a
    A[1:, 0] = a
    A[1:, 1:] = Omega
    A[1:, 1:][np.diag_indices(n)] += 1.0 / np.asarray(gamma, dtype=np.float64)
    return A


def kkt_residual(Omega, gamma, a, d, alpha, b) -> float:
    r"""Relative residual of the bordered system [S 3.24] at (b, alpha).

    .. math:: \frac{\|A x - r\|_2}{\|A\|_F \|x\|_2 + \|r\|_2},
        \quad x = [b; \alpha],\ r = [0; d],

    a backward-error measure: about machine precision for a stable solver, whatever
    the conditioning. Several right-hand sides (columns of d) give the largest value.
    """
    A = kkt_matrix(Omega, gamma, a)
    alpha = np.asarray(alpha, dtype=np.float64)
    d = np.asarray(d, dtype=np.float64)
    x = np.vstack([np.atleast_1d(b)[None, :], alpha.reshape(alpha.shape[0], -1)])
    r = np.vstack([np.zeros((1, x.shape[1])), d.reshape(d.shape[0], -1)])
    res = np.linalg.norm(A @ x - r, axis=0)
    scale = np.linalg.norm(A) * np.linalg.norm(x, axis=0) + np.linalg.norm(r, axis=0)
    return float(np.max(res / scale))
