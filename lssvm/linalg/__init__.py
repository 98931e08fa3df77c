"""Matrices and factorisations: the layer every LS-SVM stands on.

- :mod:`lssvm.linalg.solvers`: the one bordered-KKT solver [S 3.24] (Cholesky or
  conjugate gradient [S 3.25]) and the CG itself;
- :mod:`lssvm.linalg.factor`: :class:`~lssvm.linalg.factor.CholeskyFactor`, the one
  factor object of H = K + diag(1/gamma_k) that the estimators reuse (the one
  Cholesky factorisation, solves, the inverse diagonal, closed-form leave-one-out,
  the ordered Cholesky up/downdate), with :class:`NotPositiveDefiniteError` and
  :class:`NumericalWarning`;
- :mod:`lssvm.linalg.nystrom`: the one Nystrom factorisation (one eigenvalue
  tolerance), used by the CG preconditioner and the fixed-size feature map;
- :mod:`lssvm.linalg.operators`: matrix-free kernel products and the Nystrom
  preconditioner built on it; :mod:`lssvm.linalg.dask_operators`: the same
  products on Dask;
- :mod:`lssvm.linalg.kkt`: the explicit KKT matrices, for teaching and checks;
- :mod:`lssvm.linalg.memory`: the memory guard before every N x N allocation.

This layer imports no estimator (``tests/test_layout.py`` enforces it): solvers know
matrices, not models.
"""

from .factor import CholeskyFactor, NotPositiveDefiniteError, NumericalWarning
from .memory import InsufficientMemoryError
from .operators import KernelOperator, NystromPreconditioner
from .solvers import CGResult, KKTSolution, conjugate_gradient, solve_bordered_kkt

__all__ = [
    "solve_bordered_kkt", "conjugate_gradient", "KKTSolution", "CGResult",
    "NotPositiveDefiniteError", "NumericalWarning", "InsufficientMemoryError",
    "KernelOperator", "NystromPreconditioner", "CholeskyFactor",
]  # fmt: skip
