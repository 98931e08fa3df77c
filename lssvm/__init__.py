"""lssvm: Least Squares Support Vector Machines, with the book that derives them.

The public estimators are re-exported here. Everything else is reached by module,
in layers that import only downwards (``tests/test_layout.py``):

- core: ``lssvm.kernels``, ``lssvm.classifier``, ``lssvm.regressor``,
  ``lssvm.multiclass`` (output codes), ``lssvm.probability``, ``lssvm.gp``,
  ``lssvm.timeseries``, ``lssvm.robust``, ``lssvm.datasets``;
- ``lssvm.linalg``: the bordered-KKT solver, CG, factors, kernel operators, memory
  guard (imports no estimator);
- ``lssvm.model_selection``: closed-form CV, searches, the CV estimators, the
  randomized-split protocol;
- ``lssvm.bayes``: the evidence framework and ARD;
- ``lssvm.sparse``: pruning and the fixed-size LS-SVM;
- ``lssvm.relatives``: the methods compared with the LS-SVM (PSVM, KPLS, Laplacian
  RLS/SVM, RFE, RVM, RLS-SVM, Fisher discriminants);
- ``lssvm.reporting``: the book's ledgers, tables and figure style.

The book's equation numbers refer to Suykens et al. (2002), chapter 3.
"""

from .classifier import LSSVMClassifier
from .model_selection.estimators import LSSVMClassifierCV, LSSVMRegressorCV
from .regressor import LSSVMRegressor
from .sparse.fixed_size import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor

__all__ = [
    "FixedSizeLSSVMClassifier",
    "FixedSizeLSSVMRegressor",
    "LSSVMClassifier",
    "LSSVMRegressor",
    "LSSVMClassifierCV",
    "LSSVMRegressorCV",
    "RLSSVMClassifier",
]
__version__ = "0.1.0"


def __getattr__(name):
    """``lssvm.RLSSVMClassifier`` is loaded on first use: ``import lssvm`` loads no
    module of ``lssvm.relatives`` (the top-level name stays, as before the layers)."""
    if name == "RLSSVMClassifier":
        from .relatives.rls_svm import RLSSVMClassifier

        return RLSSVMClassifier
    raise AttributeError(f"module 'lssvm' has no attribute {name!r}")
