"""Sparse and large-scale LS-SVMs.

- :mod:`lssvm.sparse.pruning`: sparseness by pruning the smallest support values
  [S §3.7] (``prune``, stopped by a sign test against the unpruned model,
  [S Table 3.5]), from the private ``_stage_factor`` (the Cholesky factor downdated
  between stages) and ``_pruned_codes`` (the bits of an output code pruned on their
  own rows);
- :mod:`lssvm.sparse.fixed_size`: the fixed-size LS-SVM [S §3.6.1] (Nystrom features
  from prototypes, a primal ridge problem streamed over chunks or Dask blocks), from
  :mod:`lssvm.sparse.prototypes` (the prototypes: quadratic Renyi entropy, ridge
  leverage scores or a uniform draw), :mod:`lssvm.sparse.primal_ridge` (the
  accumulated normal equations, closed-form cross-validation and leave-one-out) and
  :mod:`lssvm.sparse.nystrom_pcg` (the same problem by FALKON-preconditioned CG).
"""

from .fixed_size import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from .pruning import PrunedOutputCode, PruningPath, PruningWarning, prune

__all__ = [
    "prune", "PruningPath", "PruningWarning", "PrunedOutputCode",
    "FixedSizeLSSVMClassifier", "FixedSizeLSSVMRegressor",
]  # fmt: skip
