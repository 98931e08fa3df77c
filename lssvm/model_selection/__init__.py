"""Choosing gamma and the kernel: exact closed-form CV, searches, CV estimators [S §3.4.2].

- :mod:`lssvm.model_selection.closed_form`: exact k-fold and leave-one-out
  cross-validation of the dual without refitting (``ClosedFormCV``, ``make_folds``);
- :mod:`lssvm.model_selection.search`: the grid, the book's shrinking grid, random
  and simplex searches over (gamma, sigma2);
- :mod:`lssvm.model_selection.estimators`: ``LSSVMClassifierCV`` and
  ``LSSVMRegressorCV``, a search followed by a refit;
- :mod:`lssvm.model_selection.protocol`: the randomized-split benchmark protocol of
  [S §3.4.2] (``randomized_splits``, ``randomized_test_accuracy``) and the corrected
  standard error over its overlapping splits (``corrected_resampled_se``).
"""

from .closed_form import ClosedFormCV, make_folds, score_latent
from .estimators import LSSVMClassifierCV, LSSVMRegressorCV
from .protocol import (
    corrected_resampled_se,
    randomized_splits,
    randomized_test_accuracy,
)
from .search import (
    SearchResult,
    grid_search,
    per_bit_grid_search,
    random_search,
    shrinking_grid_search,
    simplex_search,
)

__all__ = [
    "ClosedFormCV", "make_folds", "score_latent", "LSSVMClassifierCV", "LSSVMRegressorCV",
    "randomized_splits", "randomized_test_accuracy", "corrected_resampled_se",
    "grid_search", "per_bit_grid_search",
    "random_search", "shrinking_grid_search", "simplex_search", "SearchResult",
]  # fmt: skip
