r"""Robust weighted LS-SVM: weights from the residuals of a first, unweighted fit.

The weighted LS-SVM of Suykens, De Brabanter, Lukas and Vandewalle (2002) (weighted
least squares SVMs: robustness and sparse approximation, Neurocomputing 48) refits
with the cost :math:`\tfrac{\gamma}{2}\sum_k v_k e_k^2`, every estimator's
``fit(X, y, sample_weight=v)``, where the weights come from the errors
:math:`e_k = \alpha_k/\gamma` of the unweighted fit, scaled by a robust estimate of
their standard deviation, :math:`\hat s = 1.483\,\mathrm{MAD}(e)`:

.. math:: v_k = \begin{cases} 1 & |e_k/\hat s| \le c_1 \\
    \dfrac{c_2 - |e_k/\hat s|}{c_2 - c_1} & c_1 < |e_k/\hat s| \le c_2 \\
    10^{-4} & \text{otherwise,} \end{cases}

with :math:`c_1 = 2.5`, :math:`c_2 = 3` (Gaussian errors fall outside 2.5 standard
deviations 1.2% of the time). Outliers get almost no weight in the second fit.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from sklearn.base import clone

__all__ = ["robust_weights", "robust_fit"]

#: MAD-to-standard-deviation factor of the robust scale s = MAD_TO_SD MAD(e): for
#: Gaussian errors MAD = Phi^{-1}(3/4) sd, so the exact factor is 1/Phi^{-1}(3/4) =
#: 1.4826...; 1.483 is the value the weighted LS-SVM paper (Suykens, De Brabanter,
#: Lukas & Vandewalle 2002) prints, kept so the weights are those of the source
#: (``tests/test_robust.py`` checks them against 1.483 MAD).
MAD_TO_SD = 1.483
#: Weight of an error beyond c2 robust standard deviations: the paper's 10^-4 (not
#: 0, so every row stays in the weighted system).
OUTLIER_WEIGHT = 1e-4


def robust_weights(e, *, c1: float = 2.5, c2: float = 3.0) -> NDArray[np.float64]:
    """The weights v_k of the robust weighted LS-SVM from the errors e_k.

    >>> robust_weights(np.array([0.1, -0.2, 0.15, -0.1, 0.05, 5.0])).round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.0001]
    """
    e = np.asarray(e, dtype=np.float64)
    if not (0 < c1 < c2):
        raise ValueError(
            "robust_weights: c1 and c2 must be floats with 0 < c1 < c2 (the error "
            f"bounds of the weights); got c1={c1!r}, c2={c2!r}."
        )
    mad = np.median(np.abs(e - np.median(e)))
    s = MAD_TO_SD * mad  # robust standard deviation of the errors
    if s == 0:
        return np.ones_like(e)
    r = np.abs(e / s)
    v = np.where(r <= c1, 1.0, (c2 - r) / (c2 - c1))
    return np.where(r > c2, OUTLIER_WEIGHT, v)


def robust_fit(estimator, X, y, *, c1: float = 2.5, c2: float = 3.0):
    """Fit ``estimator`` (an LS-SVM regressor or classifier) twice: plain, then weighted.

    Returns the refit clone; its ``sample_weight_`` attribute holds the weights v_k
    computed from the first fit's ``e_`` (for the classifier, errors of the binary
    problem: ``e_`` is then 1-D).
    """
    first = clone(estimator).fit(X, y)
    if np.ndim(first.e_) != 1:
        raise ValueError(
            f"robust_fit needs one error per sample (a 1-D y, or two classes); got "
            f"e_ of shape {np.shape(first.e_)}."
        )
    v = robust_weights(first.e_, c1=c1, c2=c2)
    second = clone(estimator).fit(X, y, sample_weight=v)
    second.sample_weight_ = v
    return second
