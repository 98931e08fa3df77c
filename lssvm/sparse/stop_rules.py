r"""When pruning stops: a significant loss on a validation set ([S Table 3.5]).

[S Table 3.5] prunes until the loss becomes significant (its SL 5% and SL 1%). On a
validation set the loss of each point is the 0/1 error (classifier) or the squared
error (regressor), :func:`validation_loss`. Stage s is compared with the unpruned
stage 0 by a one-sided paired sign test: among the n_d validation points where the
two losses differ, n_w are worse at stage s; under the null hypothesis (no
degradation) n_w ~ Binomial(n_d, 1/2) and

    p_s = P(Binomial(n_d, 1/2) >= n_w)

(for 0/1 losses this is the exact one-sided McNemar test), :func:`sign_test_pvalue`.
The rule fires at the first stage with p_s < level, and the selected model is the
stage before it (:func:`apply_stop_rule`, step 4 of the loop of
:func:`lssvm.sparse.pruning.prune`).

Sources: Suykens et al. (2002), [S §3.7], [S Table 3.5].
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binom

__all__ = [
    "STOP_RULES", "sign_test_pvalue", "validation_loss", "score_stage",
    "apply_stop_rule",
]  # fmt: skip

#: The named stop rules of ``prune(stop=...)`` (a callable ``stop(path)`` also works).
STOP_RULES = (None, "significance")


def sign_test_pvalue(loss_pruned, loss_reference) -> float:
    """One-sided paired sign test that ``loss_pruned`` is larger than the reference.

    Returns P(Binomial(n_d, 1/2) >= n_w), with n_w the points where the pruned loss
    is larger and n_d those where the two differ; 1.0 when none differ.

    >>> sign_test_pvalue([1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0])  # 5 of 5 worse
    0.03125
    >>> sign_test_pvalue([0, 1], [1, 0])
    0.75
    """
    loss_pruned, loss_reference = np.asarray(loss_pruned), np.asarray(loss_reference)
    n_worse = int(np.sum(loss_pruned > loss_reference))
    n_diff = n_worse + int(np.sum(loss_pruned < loss_reference))
    if n_diff == 0:
        return 1.0
    return float(binom.sf(n_worse - 1, n_diff, 0.5))  # P(Binomial(n_d, 1/2) >= n_w)


def validation_loss(estimator, X_val, y_val, classifier):
    """Per-point loss on the validation set: 0/1 error or squared error."""
    pred = estimator.predict(X_val)
    if classifier:
        return (pred != y_val).astype(float)
    return np.sum(np.reshape((pred - y_val) ** 2, (len(y_val), -1)), axis=1)


def score_stage(model, validation, reference, classifier):
    """(score, p-value, reference loss) of a stage on the validation set, if any.

    ``reference`` is the loss of stage 0 (None at stage 0, which becomes its own
    reference, p = 1); without a validation set the score and p-value are NaN.
    """
    if validation is None:
        return np.nan, np.nan, reference
    X_val, y_val = validation
    loss = validation_loss(model, X_val, y_val, classifier)
    reference = loss if reference is None else reference
    return (
        float(model.score(X_val, y_val)),
        sign_test_pvalue(loss, reference),
        reference,
    )


def apply_stop_rule(path, stop, level, stage) -> bool:
    """Step 4 after a stage: True (stage before selected) when the stop rule fires.

    Sets ``path.stop_stage`` and ``path.selected``: the stage before a firing one
    (p_s < level for ``stop="significance"``, or ``stop(path)`` true), else this one.
    """
    fired = (stop == "significance" and path.p_values[-1] < level) or (
        callable(stop) and bool(stop(path))
    )
    if fired and stage > 0:
        path.stop_stage, path.selected = stage, stage - 1
        return True
    path.selected = stage
    return False
