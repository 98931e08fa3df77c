"""The systems the LS-SVM is usually compared with, one module per method.

- :mod:`lssvm.relatives.psvm`: the proximal SVM [C8 §8.4.4] (Fung & Mangasarian
  2001), linear and kernel, binary and one-versus-rest [C8 §8.5.3];
- :mod:`lssvm.relatives.kpls`: kernel partial least squares [C8 §8.2.4] (Rosipal &
  Trejo 2001);
- :mod:`lssvm.relatives.rfe`: SVM recursive feature elimination [C8 §8.4.5] (Guyon
  et al. 2002) with the LS-SVM as base model and its closed-form leave-one-out error
  as the stopping rule.

The C-SVC, nu-SVC, epsilon-SVR and nu-SVR of [C8 §8.3-8.4] are LIBSVM's, used
through scikit-learn (``SVC``, ``NuSVC``, ``SVR``, ``NuSVR``). These modules reuse
:mod:`lssvm.kernels` and :func:`lssvm.solvers.solve_bordered_kkt`; nothing in the
core package imports them.
"""

from .kpls import KernelPLSRegression
from .psvm import PSVMClassifier
from .rfe import LSSVMRFE, RFEResult, rfe

__all__ = ["PSVMClassifier", "KernelPLSRegression", "LSSVMRFE", "RFEResult", "rfe"]

# The relevance vector machine [C8 §8.7] (Tipping 2001; Tipping and Faul 2003).
from .rvm import RVMClassifier, RVMRegressor  # noqa: E402

__all__ += ["RVMRegressor", "RVMClassifier"]
