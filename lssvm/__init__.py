"""lssvm: Least Squares Support Vector Machines, with the book that derives them.

Public estimators are re-exported here; everything else is reached by module
(``lssvm.kernels``, ``lssvm.kkt``, ``lssvm.solvers``, ``lssvm.operators``,
``lssvm.dask_operators``,
``lssvm.tuning``, ``lssvm.fixed_size``, ``lssvm.search``, ``lssvm.multiclass``, ``lssvm.fisher``,
``lssvm.gp``, ``lssvm.timeseries``, ``lssvm.rls_svm``, ``lssvm.evaluation``,
``lssvm.probability``, ``lssvm.robust``, ``lssvm.datasets``).
The book's equation numbers refer to Suykens et al. (2002), chapter 3.
"""

from .classifier import LSSVMClassifier
from .fixed_size import FixedSizeLSSVMClassifier, FixedSizeLSSVMRegressor
from .regressor import LSSVMRegressor
from .rls_svm import RLSSVMClassifier
from .tuned import LSSVMClassifierCV, LSSVMRegressorCV

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
