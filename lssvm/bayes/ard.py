r"""Automatic relevance determination (ARD) for LS-SVMs by evidence maximisation.

The practical algorithm of [VanGestel01] [VG §4], on the RBF kernel with one
weight per input,

.. math::

    K(x, z) &= \exp\big(-(x - z)^T \mathrm{diag}(\bar u) (x - z)\big) \\
    &= \exp\Big(-\sum_i (x_i - z_i)^2 / \sigma_i^2\Big), \qquad
    \bar u_i = 1/\sigma_i^2 ,

the paper's weights :math:`\bar u` being the inverse widths of
:class:`lssvm.kernels.ARDRBF`. The paper writes :math:`\bar U = U/\sigma` and
starts from :math:`\bar u = 1/\sigma`; for the weighted kernel to equal the
isotropic :math:`\exp(-\|x - z\|^2/\sigma^2)` at the start, the starting weights
must be :math:`1/\sigma^2`, which is what :func:`ard` uses.

1. Standardise the inputs to zero mean and unit variance.
2. Maximise the evidence [VG 11] over one width sigma^2 (u = 1), with gamma, mu, zeta
   inferred on level 2 for each width (:func:`lssvm.bayes.evidence.level3`).
3. Start the weights at 1/sigma^2 (or at the previous weights without the
   removed inputs).
4. Maximise the evidence over the weights (L-BFGS-B on log sigma_i^2 with the
   analytic gradient of :func:`lssvm.bayes.evidence.log_evidence_gradient`).
5. Remove inputs with a low weight and go back to 3.

Sources: [VanGestel01] Van Gestel, Suykens, De Moor & Vandewalle (2001), [VG §4].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.utils.validation import check_array

from .._log import Progress
from .._validation import (
    check_count,
    check_feature_names,
    check_fraction,
    feature_names,
)
from . import evidence

__all__ = ["ARDStage", "ARDResult", "ard"]


@dataclass(frozen=True)
class ARDStage:
    """One optimisation of the weights on a subset of the inputs.

    Attributes
    ----------
    features : ndarray of int
        Column indices of X (the original numbering) used in this stage.
    weights : ndarray of shape (len(features),)
        Optimal u_i = 1 / sigma2_i.
    level2 : lssvm.bayes.Level2Result
        gamma, mu, zeta, gamma_eff, the evidence and the fitted model at the optimum.
    n_iter : int
    """

    features: NDArray[np.intp]
    weights: NDArray[np.float64]
    level2: evidence.Level2Result
    n_iter: int

    @property
    def log_evidence(self) -> float:
        return self.level2.log_evidence


@dataclass(frozen=True)
class ARDResult:
    """Result of :func:`ard`.

    Attributes
    ----------
    weights_path : ndarray of shape (n_rows, n_features)
        The weights u after each optimiser iteration, all stages one after the
        other (the first row of each stage is its starting point); NaN for inputs
        removed before that stage. [VanGestel01] [VG Fig. 1] plots its first stage.
    path_stage : ndarray of shape (n_rows,)
        The stage of each row of ``weights_path``.
    ranking : ndarray of int
        All inputs, most relevant first: the selected inputs by decreasing final
        weight, then the removed ones, the last removed first.
    selected : ndarray of int
        The inputs kept at the end, in increasing order.
    removed : list of int
        Removed inputs, in the order of removal.
    sigma2 : float
        The isotropic width of step 2 (u = 1).
    isotropic : lssvm.bayes.Level2Result
        Level 2 at that width.
    stages : list of ARDStage
    mean, scale : ndarray of shape (n_features,)
        The standardisation applied to X (0 and 1 with ``standardize=False``); the
        fitted models expect (X - mean) / scale restricted to their ``features``.
    feature_names_in_ : ndarray of str or None
        The column names of X when it was a data frame with string column names;
        :meth:`transform` then checks them as scikit-learn estimators do.
    """

    weights_path: NDArray[np.float64]
    path_stage: NDArray[np.intp]
    ranking: NDArray[np.intp]
    selected: NDArray[np.intp]
    removed: list
    sigma2: float
    isotropic: evidence.Level2Result
    stages: list
    mean: NDArray[np.float64]
    scale: NDArray[np.float64]
    feature_names_in_: NDArray[np.object_] | None = None

    @property
    def selected_feature_names(self) -> NDArray[np.object_] | None:
        """Names of the selected inputs (None without ``feature_names_in_``)."""
        names = self.feature_names_in_
        return None if names is None else names[self.selected]

    def transform(self, X) -> NDArray[np.float64]:
        """Standardise X as in training and keep the selected columns.

        A data frame must have the columns of training, in the same order
        (ValueError otherwise, as scikit-learn's estimators do); names on one
        side only give scikit-learn's UserWarning. The stage models are fitted on
        these plain arrays, so ``stage.level2.model.predict(result.transform(X))``
        is the way to predict.
        """
        check_feature_names(self.feature_names_in_, X, owner="ard")
        X = check_array(X, dtype=np.float64)
        if X.shape[1] != len(self.mean):
            raise ValueError(
                f"ARDResult.transform: X must have the {len(self.mean)} features "
                f"ard was fitted with; got X with {X.shape[1]} features."
            )
        Z = (X - self.mean) / self.scale
        return Z[:, self.selected]


def _standardize(X, standardize):
    if not standardize:
        return X, np.zeros(X.shape[1]), np.ones(X.shape[1])
    mean, scale = X.mean(axis=0), X.std(axis=0)
    if np.any(scale == 0):
        raise ValueError(
            f"ard: inputs {np.flatnonzero(scale == 0).tolist()} are constant; "
            "remove them before standardising."
        )
    return (X - mean) / scale, mean, scale


def _check_options(threshold, min_features, max_iter, max_stages, n_features):
    check_fraction(
        threshold, "threshold", owner="ard",
        meaning="weight relative to the largest below which an input is removed",
    )  # fmt: skip
    check_count(min_features, "min_features", minimum=1, owner="ard")
    if min_features > n_features:
        raise ValueError(
            f"ard: min_features must be between 1 and n_features={n_features}; "
            f"got min_features={min_features!r}."
        )
    check_count(max_iter, "max_iter", minimum=1, owner="ard")
    check_count(max_stages, "max_stages", minimum=1, owner="ard")


def _to_remove(weights, path, threshold, one_at_a_time):
    """Positions (within the stage) of the inputs to remove: weights below threshold.

    Weights at the optimiser's lower bound tie; the tie is broken by the mean log
    weight along the stage's path (the input switched off sooner goes first).
    """
    relative = weights / weights.max()
    low = np.flatnonzero(relative < threshold)
    if one_at_a_time and low.size:
        floor = 1.01 * np.exp(-evidence.LOG_SIGMA2_BOUNDS[1])  # just above the bound
        key = np.lexsort(
            (np.log(path[:, low]).mean(axis=0), np.maximum(weights[low], floor))
        )
        return low[key[:1]]
    return low


def _ranking(stages, removed):
    last = stages[-1]
    order = last.features[np.argsort(-last.weights, kind="stable")]
    return np.array(list(order) + removed[::-1], dtype=np.intp)


def ard(
    X,
    y,
    *,
    task="classification",
    standardize=True,
    threshold=0.05,
    one_at_a_time=True,
    min_features=1,
    max_iter=100,
    max_stages=10,
    verbose=0,
) -> ARDResult:
    """ARD by evidence maximisation: the algorithm of [VanGestel01] [VG §4].

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two class labels, or real targets with ``task="regression"``.
    task : {"classification", "regression"}
    standardize : bool, default=True
        Step 1: scale every input to zero mean and unit variance.
    threshold : float in (0, 1), default=0.05
        Step 5: an input whose weight is below ``threshold`` times the largest
        weight of its stage is removed.
    one_at_a_time : bool, default=True
        Remove only the lowest such input per stage (as in the paper's example),
        instead of all of them.
    min_features : int, default=1
        Never go below this many inputs.
    max_iter : int, default=100
        Iteration cap of each optimisation (step 2 and each step 4).
    max_stages : int, default=10
        Cap on the number of weight optimisations.
    verbose : int, default=0
        If > 0, print a line per stage (inputs kept, evidence, iterations, elapsed
        time) and the total time to standard error.

    Returns
    -------
    ARDResult

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((100, 3))  # input 2 is pure noise
    >>> y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.standard_normal(100) > 0, 1, -1)
    >>> res = ard(X, y)
    >>> res.selected.tolist(), int(res.ranking[-1])
    ([0, 1], 2)
    """
    say = Progress("ard", verbose)

    names = feature_names(X)
    X, t, _ = evidence.check_data(X, y, task, owner="ard")
    y = np.asarray(y)
    n = X.shape[1]
    _check_options(threshold, min_features, max_iter, max_stages, n)
    Z, mean, scale = _standardize(X, standardize)  # step 1
    say(f"step 2: one width for the {n} inputs")
    iso = evidence.level3(Z, y, task=task, max_iter=max_iter)  # step 2, u = 1
    features = np.arange(n)
    sigma2 = np.full(n, iso.sigma2)  # step 3: u = 1 / sigma^2
    stages, removed, rows, row_stage = [], [], [], []
    for stage in range(max_stages):
        res = evidence.level3(
            Z[:, features], y, sigma2=sigma2, ard=True, task=task, max_iter=max_iter
        )  # step 4
        weights = 1.0 / res.sigma2
        stages.append(ARDStage(features.copy(), weights, res.level2, res.n_iter))
        say(
            f"stage {stage + 1} of at most {max_stages}: {len(features)} inputs, "
            f"log evidence {res.log_evidence:.4g}, {res.n_iter} iterations"
        )
        block = np.full((len(res.path), n), np.nan)
        block[:, features] = 1.0 / res.path
        rows.append(block)
        row_stage += [stage] * len(res.path)
        drop = _to_remove(weights, 1.0 / res.path, threshold, one_at_a_time)  # step 5
        drop = drop[: max(len(features) - int(min_features), 0)]
        if drop.size == 0 or stage == max_stages - 1:
            break
        removed += features[drop].tolist()
        keep = np.setdiff1d(np.arange(len(features)), drop)
        features, sigma2 = features[keep], res.sigma2[keep]  # step 3, previous u
    say(f"done: {len(stages)} stages, inputs kept {np.sort(features).tolist()}")
    return ARDResult(
        weights_path=np.vstack(rows), path_stage=np.array(row_stage),
        ranking=_ranking(stages, removed), selected=np.sort(stages[-1].features),
        removed=removed, sigma2=float(iso.sigma2), isotropic=iso.level2,
        stages=stages, mean=mean, scale=scale, feature_names_in_=names,
    )  # fmt: skip
