"""Sparse and large-scale LS-SVMs.

- :mod:`lssvm.sparse.pruning`: sparseness by pruning the smallest support values
  [S §3.7] (``prune``);
- :mod:`lssvm.sparse.fixed_size`: the fixed-size LS-SVM [S §3.6.1] (Nystrom features
  from prototypes chosen by the quadratic Renyi entropy, a primal ridge problem
  streamed over chunks or Dask blocks).
"""

from .fixed_size import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from .pruning import PrunedOutputCode, PruningPath, PruningWarning, prune

__all__ = [
    "prune", "PruningPath", "PruningWarning", "PrunedOutputCode",
    "FixedSizeLSSVMClassifier", "FixedSizeLSSVMRegressor",
]  # fmt: skip
