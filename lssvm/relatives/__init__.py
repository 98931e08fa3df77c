"""The systems the LS-SVM is usually compared with, one module per method.

- :mod:`lssvm.relatives.psvm`: the proximal SVM [C8 §8.4.4] (Fung & Mangasarian
  2001), linear and kernel, binary and one-versus-rest [C8 §8.5.3];
- :mod:`lssvm.relatives.kpls`: kernel partial least squares [C8 §8.2.4] (Rosipal &
  Trejo 2001);
- :mod:`lssvm.relatives.laplacian`: Laplacian RLS / LS-SVM and the Laplacian SVM
  [C8 §8.2.5] through the deformed kernel, graph regression [C8 §8.2.3];
- :mod:`lssvm.relatives.rfe`: SVM recursive feature elimination [C8 §8.4.5] (Guyon
  et al. 2002) with the LS-SVM as base model and its closed-form leave-one-out error
  as the stopping rule;
- :mod:`lssvm.relatives.rls_svm`: the L2-loss SVM of Peng, Rafferty & Ferguson (2016)
  solved by regularised least squares on its margin violators [P]
  (``RLSSVMClassifier``, also reachable as ``lssvm.RLSSVMClassifier``);
- :mod:`lssvm.relatives.fisher`: linear and kernel Fisher discriminant analysis, the
  LS-SVM's relative through the Fisher targets [S §3.3];
- :mod:`lssvm.relatives.rvm`: the relevance vector machine [C8 §8.7] (Tipping 2001),
  regression and classification, by the fast marginal-likelihood algorithm of
  Tipping & Faul (2003) [C8 §8.7.3] or the original re-estimation.

The C-SVC, nu-SVC, epsilon-SVR and nu-SVR of [C8 §8.3-8.4] are LIBSVM's, used
through scikit-learn (``SVC``, ``NuSVC``, ``SVR``, ``NuSVR``). These modules reuse
:mod:`lssvm.kernels` and :func:`lssvm.linalg.solvers.solve_bordered_kkt`; nothing in the
core package imports them.
"""

from .kpls import KernelPLSRegression
from .laplacian import (
    LapRLSClassifier,
    LapSVMClassifier,
    graph_laplacian,
    graph_regression,
)
from .psvm import PSVMClassifier
from .fisher import FisherDiscriminant, kernel_fisher_discriminant
from .rfe import LSSVMRFE, RFEResult, rfe
from .rls_svm import RLSSVMClassifier
from .rvm import RVMClassifier, RVMRegressor

__all__ = [
    "PSVMClassifier", "KernelPLSRegression", "LSSVMRFE", "RFEResult", "rfe",
    "LapRLSClassifier", "LapSVMClassifier", "graph_laplacian", "graph_regression",
    "RVMRegressor", "RVMClassifier", "RLSSVMClassifier", "FisherDiscriminant",
    "kernel_fisher_discriminant",
]  # fmt: skip
