"""The Bayesian evidence framework for LS-SVMs (Van Gestel et al. 2001) [VG].

- :mod:`lssvm.bayes.evidence`: the three levels of inference (level 1: the model;
  level 2: gamma = zeta/mu from the evidence; level 3: kernel widths) and the
  moderated class probability;
- :mod:`lssvm.bayes.ard`: automatic relevance determination of the inputs.

``lssvm.bayes.level2(...)`` and the other level functions are reached here directly;
``lssvm.bayes.ard`` is the ARD function (its module is ``lssvm.bayes.ard`` too, as
``lssvm.relatives.rfe``).
"""

from .ard import ARDResult, ARDStage, ard
from .evidence import (
    TASKS,
    Level2Result,
    Level3Result,
    Spectrum,
    centred_spectrum,
    class_probability,
    effective_parameters,
    energies,
    level1,
    level2,
    level2_cost,
    level3,
    log_evidence_gradient,
    solve_level2,
)

__all__ = [
    "Spectrum",
    "Level2Result",
    "Level3Result",
    "TASKS",
    "centred_spectrum",
    "energies",
    "effective_parameters",
    "level2_cost",
    "solve_level2",
    "level1",
    "level2",
    "level3",
    "log_evidence_gradient",
    "class_probability",
    "ard",
    "ARDResult",
    "ARDStage",
]
