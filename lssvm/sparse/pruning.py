r"""Sparse LS-SVMs by pruning the support value spectrum.

LS-SVMs are not sparse: every training point has a support value alpha_k = gamma e_k
[S 3.4], [S 3.31]. [Suykens00] and [S §3.7] of Suykens et al. (2002) impose sparseness
by pruning:

1. train an LS-SVM on N points;
2. remove a small part of the points (5% of the current set) with the smallest
   values in the sorted abs(alpha_k) spectrum;
3. retrain on the reduced set;
4. go to 2 unless a user-defined performance index degrades.

:func:`prune` runs this loop for :class:`lssvm.LSSVMClassifier` and
:class:`lssvm.LSSVMRegressor` and returns the whole path (:class:`PruningPath`). For
a multiclass classifier there are two readings of step 2. By default the rows shared
by the bits are pruned, a row ranked by the largest quantile of abs(alpha_kj)
within the bits that use it (bits may have different gamma). With ``per_bit=True``
every bit is a binary LS-SVM pruned on its own rows by its own abs(alpha_k), the
stages are :class:`PrunedOutputCode` models decoded as the classifier decodes, and
the support vectors are counted over the bits, as the book's [S Table 3.5] counts them.
The stop rule is applied to the decoded classes in both cases.

Step 3 needs no new factorisation. [S 3.24] is solved through H = K + I/gamma by
the elimination [S 3.25], and the Cholesky factor of H is kept from stage to stage,
the points most likely to stay (large abs(alpha_k)) first, so that a stage reuses
the factor rows of the leading points and rebuilds only a trailing block; a path
costs about two full factorisations plus one small block per stage, where refitting
costs one factorisation per stage (the private module ``lssvm.sparse._stage_factor``).
The bits pruned on their own rows (``per_bit=True``) are set up by the private
module ``lssvm.sparse._pruned_codes``.

Step 4 stops at a significant loss ([S Table 3.5]'s SL 5% and SL 1%). On a
validation set the loss of each point is the 0/1 error (classifier) or the squared
error (regressor). Stage s is compared with the unpruned stage 0 by a one-sided
paired sign test: among the n_d validation points where the two losses differ, n_w
are worse at stage s; under the null hypothesis (no degradation)
n_w ~ Binomial(n_d, 1/2) and

    p_s = P(Binomial(n_d, 1/2) >= n_w)

(for 0/1 losses this is the exact one-sided McNemar test), :func:`sign_test_pvalue`.
The rule fires at the first stage with p_s < level, and the selected model is the
stage before it.

Sources: Suykens et al. (2002), [S §3.7], [S 3.52], [S Table 3.5]; [Suykens00] Suykens,
Lukas and Vandewalle, Sparse least squares support vector machine classifiers,
ESANN 2000.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numpy.typing import NDArray
from scipy.stats import binom, rankdata
from sklearn.base import ClassifierMixin, clone, is_classifier
from sklearn.utils.validation import check_array, check_X_y

from .. import multiclass as mc
from .._base import LSSVMBase
from .._log import Progress
from .._validation import (
    check_count,
    check_feature_names,
    check_fraction,
    check_numeric_targets,
    feature_names,
)
from ..linalg.memory import check_dense_memory
from ._pruned_codes import bit_problems, remove_in_bit
from ._stage_factor import fit_or_reason, fit_stage, new_stage_factor

__all__ = [
    "PruningPath", "PrunedOutputCode", "PruningWarning", "prune", "pruned_fraction",
    "sign_test_pvalue", "STOP_RULES", "CRITERIA",
]  # fmt: skip

#: The named stop rules of ``prune(stop=...)`` (a callable ``stop(path)`` also works).
STOP_RULES = (None, "significance")
CRITERIA = ("abs", "signed")
UPDATES = ("downdate", "refit")


class PruningWarning(UserWarning):
    """A pruning path ended early: a stage could not be fitted (see ``end_reason``)."""


@dataclass
class PruningPath:
    """The stages of a pruning run, stage 0 being the unpruned model.

    Attributes
    ----------
    estimators : list of fitted estimators
        One per stage, fitted on ``X[support[s]]``; their ``predict`` works.
    support : list of ndarray of int
        Indices (into the X given to :func:`prune`, sorted) of each stage's points.
    n_support : ndarray of int
        Number of support vectors at each stage.
    spectra : list of ndarray
        The abs(alpha_k) of each stage sorted in decreasing order (for several bits or
        outputs, the largest over them; the ranking then uses within-bit quantiles).
    scores : ndarray
        ``estimator.score`` on the validation set (accuracy or R^2); NaN without one.
    p_values : ndarray
        One-sided sign-test p-value of each stage against stage 0 (see the module
        docstring); NaN without a validation set.
    stop_stage : int or None
        The stage at which the stop rule fired (it stays in the path), else None.
    selected : int
        The chosen stage: the one before ``stop_stage``, else the last.
    update : {"downdate", "refit"}
        How the stages after the first were solved ("refit" when the estimator's fit
        does not solve one system on all its rows, e.g. one-versus-one codes).
    end_reason : str or None
        Why the path ended before its schedule, when a stage could not be fitted
        (a removal that would leave one class, or a fit that raised); the path then
        keeps every stage computed so far and a :class:`PruningWarning` says so.
        None when the path ran its schedule or the stop rule fired.
    """

    estimators: list = field(default_factory=list)
    support: list = field(default_factory=list)
    n_support: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, int))
    spectra: list = field(default_factory=list)
    scores: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    p_values: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    stop_stage: int | None = None
    selected: int = 0
    update: str = "downdate"
    end_reason: str | None = None

    @property
    def estimator_(self):
        """The selected (pruned) estimator."""
        return self.estimators[self.selected]

    def last_before(self, level: float) -> int:
        """Stage selected by the significance rule at ``level`` (on ``p_values``)."""
        fired = np.flatnonzero(self.p_values < level)
        return int(fired[0]) - 1 if len(fired) else len(self.estimators) - 1

    def _append(self, estimator, support, spectrum, score, p_value, n_support=None):
        self.estimators.append(estimator)
        self.support.append(support)
        self.spectra.append(spectrum)
        n_support = len(support) if n_support is None else n_support
        self.n_support = np.append(self.n_support, n_support)
        self.scores = np.append(self.scores, score)
        self.p_values = np.append(self.p_values, p_value)


class PrunedOutputCode(ClassifierMixin):
    """A multiclass LS-SVM whose bits were pruned separately (``prune(per_bit=True)``).

    Bit j is a binary :class:`lssvm.LSSVMClassifier` fitted on its own kept rows
    with the labels ``codebook_[:, j]`` of their classes (+1 / -1); the classes are
    decoded from the bits' latent outputs as :class:`lssvm.LSSVMClassifier` does
    (:func:`lssvm.multiclass.class_scores`).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    codebook_ : ndarray of shape (n_classes, n_bits)
    estimators_ : list of LSSVMClassifier
        One fitted binary LS-SVM per bit (classes -1, +1).
    support_ : list of ndarray of int
        The rows (indices into the X given to :func:`prune`) each bit was fitted on.
    decoding : str
    """

    def __init__(self, classes, codebook, estimators, support, decoding):
        self.classes_ = classes
        self.codebook_ = codebook
        self.estimators_ = estimators
        self.support_ = support
        self.decoding = decoding

    @property
    def n_support_(self) -> NDArray[np.int64]:
        """Number of support vectors of each bit."""
        return np.array([len(s) for s in self.support_])

    def bit_outputs(self, X):
        """Latent outputs of the bits, shape (n_samples, n_bits)."""
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def decision_function(self, X):
        """Per-class scores whose argmax is ``predict``."""
        C = self.codebook_
        return mc.class_scores(self.bit_outputs(X), C, self.decoding)

    def predict(self, X):
        """The decoded class of each sample."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


def _check_options(estimator, fraction, n_remove, min_support, n_stages, stop, level):
    if not isinstance(estimator, LSSVMBase) or not hasattr(estimator, "fit"):
        raise TypeError(
            "prune: estimator must be an LSSVMClassifier or LSSVMRegressor (an "
            f"LSSVMBase); got estimator={estimator!r}."
        )
    if n_remove is None:
        check_fraction(
            fraction, "fraction", meaning="share of the current set removed per stage",
            owner="prune",
        )  # fmt: skip
    else:
        check_count(
            n_remove, "n_remove", minimum=1, meaning="points removed per stage",
            owner="prune",
        )  # fmt: skip
    check_count(
        min_support, "min_support", minimum=1, meaning="support vectors at the end",
        owner="prune",
    )  # fmt: skip
    if n_stages is not None:
        check_count(
            n_stages, "n_stages", minimum=0, meaning="or None: no limit", owner="prune"
        )
    if not (callable(stop) or stop in STOP_RULES):
        raise ValueError(
            f"prune: stop must be one of {list(STOP_RULES)} or a callable path -> bool; got "
            f"stop={stop!r}."
        )
    check_fraction(
        level, "level", meaning="significance level of the stop rule", owner="prune"
    )


def _n_to_remove(n, fraction, n_remove, floor):
    """Points removed at the next stage: a fixed count, or round(fraction n) >= 1."""
    k = n_remove if n_remove is not None else max(1, int(round(fraction * n)))
    return min(k, n - floor)


def _floor(n, min_support, checkpoints):
    """Size the next stage must not go below: the next checkpoint or min_support."""
    below = [c for c in checkpoints if c < n]
    return max([min_support, *below])


def _ranking(estimator, criterion):
    """Per-point importance: the smallest values are pruned first."""
    alpha = np.asarray(estimator.alpha_)
    if criterion == "signed":  # remark after [S Fig. 3.11]: prune negative alpha_k first
        return alpha
    if alpha.ndim == 1:
        return np.abs(alpha)
    return _bit_quantiles(np.abs(alpha)).max(axis=1)  # bits, outputs: scale-free


def _bit_quantiles(A):
    """Quantile of each abs(alpha_kj) among the rows bit j uses (alpha_kj != 0).

    Bits may have very different gamma and scales (one-versus-one codes tuned per
    bit), so a row is ranked by its best within-bit quantile: it is pruned when it
    is among the smallest support values of every bit that uses it.
    """
    Q = np.zeros_like(A)
    for j in range(A.shape[1]):
        used = np.flatnonzero(A[:, j])
        Q[used, j] = rankdata(A[used, j]) / max(len(used), 1)
    return Q


def _end_early(path, stage, reason):
    """End ``path`` at its last valid stage: record and warn why stage failed."""
    path.end_reason = f"stage {stage} could not be fitted: {reason}"
    warnings.warn(
        f"Pruning ended at stage {stage - 1} ({path.n_support[-1]} support vectors): "
        f"{path.end_reason}. The path keeps the {len(path.estimators)} stages "
        "computed so far.",
        PruningWarning,
        stacklevel=3,
    )
    return path


def prune(
    estimator,
    X,
    y,
    *,
    fraction: float = 0.05,
    n_remove: int | None = None,
    min_support: int = 1,
    n_stages: int | None = None,
    checkpoints=(),
    validation=None,
    stop=None,
    level: float = 0.05,
    criterion: str = "abs",
    retune: Callable | None = None,
    retune_at=(),
    update: str = "downdate",
    per_bit: bool = False,
    verbose: int = 0,
) -> PruningPath:
    """Sparse LS-SVM by gradually pruning the smallest abs(alpha_k) ([S §3.7]).

    Parameters
    ----------
    estimator : LSSVMClassifier or LSSVMRegressor
        Unfitted template; each stage fits a clone.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fraction : float in (0, 1), default=0.05
        Share of the *current* set removed per stage, round(fraction n) >= 1.
    n_remove : int >= 1, optional
        A fixed number of points removed per stage instead of ``fraction``.
    min_support : int, default=1
        Pruning ends at this many support vectors (the last removal is clipped).
    n_stages : int, optional
        At most this many pruning stages after stage 0.
    checkpoints : sequence of int
        Sizes the path must pass exactly (removals are clipped), e.g. (250,) with
        ``min_support=50`` for the snapshots 500 -> 250 -> 50 of [S Figs. 3.9-3.11].
    validation : (X_val, y_val), optional
        Held-out data for ``scores`` and ``p_values``.
    stop : None, "significance" or callable
        None: prune until ``min_support`` or ``n_stages``. "significance": stop at
        the first stage whose sign test against stage 0 gives p < ``level`` (needs
        ``validation``; the module docstring). A callable ``stop(path) -> bool``
        is called after each stage.
    level : float, default=0.05
        Significance level of ``stop="significance"``.
    criterion : {"abs", "signed"}, default="abs"
        "abs": prune the smallest abs(alpha_k) ([Suykens00]). "signed" (binary
        classifier only): prune the smallest alpha_k, i.e. the most negative, the
        points beyond the margin y_k f(x_k) > 1 (remark after [S Fig. 3.11]).
    retune : callable, optional
        ``retune(stage, X_kept, y_kept) -> dict or None``, called before fitting each
        stage in ``retune_at``; a dict of parameters is set on the estimator (e.g.
        new gamma, sigma2) and the factor is rebuilt.
    retune_at : sequence of int
        Stages (>= 1) at which ``retune`` is called.
    update : {"downdate", "refit"}, default="downdate"
        "downdate": reuse the Cholesky factor between stages (direct solver only);
        "refit": fit each stage from scratch (the reference).
    per_bit : bool, default=False
        Multiclass classifiers only. False: prune the training rows shared by the
        bits (a row leaves every bit at once). True: prune every bit of the output
        code on its own rows, each bit removing ``fraction`` of its current rows with
        the smallest abs(alpha_k) of that bit, as the book counts [S Table 3.5]'s
        multiclass support vectors (summed over the bits). The stages are then
        :class:`PrunedOutputCode` models, ``support[s]`` is a list with the kept rows
        of each bit, ``n_support`` the sum over the bits, and ``min_support`` a
        floor per bit (each bit also keeps at least one point of each of its two
        classes). ``checkpoints``, ``retune`` and ``criterion="signed"`` are not
        available in this mode.
    verbose : int, default=0
        If > 0, print a line per stage (support vectors, validation score and
        p-value, elapsed time) and the total time to standard error.

    Notes
    -----
    The stage estimators keep scikit-learn's feature-name contract: when X is a
    data frame with string column names, every stage (and every bit of a
    :class:`PrunedOutputCode`) has ``feature_names_in_``, so a frame with other or
    reordered columns raises at predict. With ``update="downdate"`` the kernel
    matrix and the factor (three N x N matrices: K, the factor and a rebuilt
    factor) are checked against the available memory before they are allocated;
    with ``per_bit=True`` every bit keeps its own kernel matrix and factor, so
    M bits on all N rows need 2M + 1 of them.

    Returns
    -------
    PruningPath

    Examples
    --------
    >>> from lssvm import LSSVMRegressor
    >>> from lssvm.datasets import sinc
    >>> X, y = sinc(100, noise=0.0)
    >>> path = prune(LSSVMRegressor(gamma=100.0, sigma2=4.0), X, y, min_support=50)
    >>> int(path.n_support[0]), int(path.n_support[1]), int(path.n_support[-1])
    (100, 95, 50)
    """
    _check_options(estimator, fraction, n_remove, min_support, n_stages, stop, level)
    if criterion not in CRITERIA:
        raise ValueError(
            f"prune: criterion must be one of {list(CRITERIA)}; "
            f"got criterion={criterion!r}."
        )
    if update not in UPDATES:
        raise ValueError(
            f"prune: update must be one of {list(UPDATES)}; got update={update!r}."
        )
    names = feature_names(X)
    X, y = check_X_y(X, y, dtype=np.float64, y_numeric=not is_classifier(estimator))
    if not is_classifier(estimator):
        y = check_numeric_targets(y, owner="prune")
    if update == "downdate" and estimator.solver != "cg" and not per_bit:
        # K, the factor and its rebuilt copy; per_bit=True counts every bit's own
        # (lssvm.sparse._pruned_codes.check_bit_memory)
        check_dense_memory(
            len(y), n_matrices=3, owner="prune",
            what='update="downdate" (kernel matrix and Cholesky factor)',
            alternative='use update="refit" with solver="cg"',
        )  # fmt: skip
    if validation is not None:  # names checked here; the stages see arrays
        X_val, y_val = validation
        check_feature_names(names, X_val, owner="prune")
        validation = (check_array(X_val, dtype=np.float64), y_val)
    log = Progress("prune", verbose)
    path = _prune(
        estimator, X, y, fraction, n_remove, min_support, n_stages, checkpoints,
        validation, stop, level, criterion, retune, retune_at, update, per_bit,
        verbose,
    )  # fmt: skip
    if names is not None:
        for model in path.estimators:
            _set_feature_names(model, names)
    log(
        f"done: {len(path.estimators)} stages, selected stage {path.selected} "
        f"({path.n_support[path.selected]} support vectors)"
    )
    return path


def _set_feature_names(model, names):
    """Record the names of the frame given to prune (stages are fit on arrays)."""
    for est in getattr(model, "estimators_", [model]):
        est.feature_names_in_ = names
    model.feature_names_in_ = names


def _prune(estimator, X, y, fraction, n_remove, min_support, n_stages, checkpoints,
           validation, stop, level, criterion, retune, retune_at, update, per_bit,
           verbose):  # fmt: skip
    """The checks of prune's options on the data, then the pruning loop."""
    if min_support > len(y):
        raise ValueError(
            f"prune: min_support must be at most the {len(y)} training points; got "
            f"min_support={min_support}."
        )
    if stop == "significance" and validation is None:
        raise ValueError(
            'prune: validation must be (X_val, y_val) for stop="significance" (it '
            "tests the validation loss); got validation=None."
        )
    binary = is_classifier(estimator) and len(np.unique(y)) == 2
    if criterion == "signed" and not binary:
        raise ValueError(
            'prune: criterion must be "abs" unless the estimator is a binary '
            'classifier ("signed" is defined for binary classifiers only); got '
            f"criterion={criterion!r} for a {type(estimator).__name__} on "
            f"{len(np.unique(y))} distinct targets."
        )
    if per_bit:
        if not is_classifier(estimator) or len(np.unique(y)) < 3:
            raise ValueError(
                "prune: per_bit must be False unless the estimator is a multiclass "
                "classifier (per_bit=True prunes the bits of its output code); got "
                f"per_bit={per_bit!r} for a {type(estimator).__name__} on "
                f"{len(np.unique(y))} distinct targets."
            )
        if checkpoints or retune is not None or criterion != "abs":
            raise ValueError(
                "prune: checkpoints, retune and criterion must keep their defaults "
                "with per_bit=True (it supports neither checkpoints, retune nor "
                f'criterion="signed"); got checkpoints={checkpoints!r}, '
                f"retune={retune!r}, criterion={criterion!r}."
            )
        if estimator.targets != "pm1" and estimator.decoding == "loss":
            raise ValueError(
                'prune: targets must be "pm1" for per_bit=True with decoding="loss" '
                "(the bits decode loss-based only on +1/-1 targets); got "
                f"targets={estimator.targets!r}."
            )
        return _run_bits(
            estimator, X, y, fraction, n_remove, min_support, n_stages, validation,
            stop, level, update, verbose,
        )  # fmt: skip
    return _run(
        estimator, X, y, fraction, n_remove, min_support, n_stages, tuple(checkpoints),
        validation, stop, level, criterion, retune, set(retune_at), update, verbose,
    )  # fmt: skip


def _report(path, log):
    """A progress line for the stage just appended (nothing unless verbose)."""
    if not log.verbose:
        return
    stage = len(path.estimators) - 1
    score = path.scores[-1]
    extra = "" if np.isnan(score) else (
        f", validation score {score:.4g}, p = {path.p_values[-1]:.3g}"
    )
    log(f"stage {stage}: {path.n_support[-1]} support vectors{extra}")


def _run(template, X, y, fraction, n_remove, min_support, n_stages, checkpoints,
         validation, stop, level, criterion, retune, retune_at, update,
         verbose=0):  # fmt: skip
    log = Progress("prune", verbose)
    path = PruningPath(update=update)
    template = clone(template)
    stage_factor = new_stage_factor(template, X, update)
    kept = np.arange(len(y))
    priority = np.zeros(len(y))  # stage 0: natural order
    reference = None
    stage = 0
    while True:
        if stage in retune_at and retune is not None:
            params = retune(stage, X[kept], y[kept])
            if params:
                template = clone(template).set_params(**params)
                try:
                    stage_factor = new_stage_factor(template, X, update, stage)
                except Exception as exc:  # e.g. retuned to invalid parameters
                    reason = f"its parameters failed: {type(exc).__name__}: {exc}"
                    return _end_early(path, stage, reason)
        if stage_factor is not None:
            stage_factor.shrink(kept, priority, stage)
        if stage == 0:  # the unpruned model: its errors are the user's to see
            est, downdated = fit_stage(template, X, y, kept, stage_factor)
        else:
            est, downdated, reason = fit_or_reason(
                template, X, y, kept, stage_factor, is_classifier(template)
            )
            if reason is not None:
                return _end_early(path, stage, reason)
        if stage_factor is not None and not downdated:  # e.g. one-versus-one codes
            stage_factor, path.update = None, "refit"
        importance = _ranking(est, criterion)
        priority = np.zeros(len(y))
        priority[kept] = importance
        score, p_value, reference = _score_stage(
            est, validation, reference, is_classifier(est)
        )
        alpha = np.abs(np.asarray(est.alpha_)).reshape(len(kept), -1).max(axis=1)
        spectrum = np.sort(alpha)[::-1]
        path._append(est, kept.copy(), spectrum, score, p_value)
        _report(path, log)
        if _apply_stop_rule(path, stop, level, stage):
            return path
        floor = _floor(len(kept), min_support, checkpoints)
        if len(kept) <= floor or (n_stages is not None and stage >= n_stages):
            return path
        k = _n_to_remove(len(kept), fraction, n_remove, floor)
        removed = kept[np.argsort(importance, kind="stable")[:k]]  # step 2
        kept = np.setdiff1d(kept, removed)
        stage += 1


def _run_bits(template, X, y, fraction, n_remove, min_support, n_stages, validation,
              stop, level, update, verbose=0):  # fmt: skip
    """The pruning loop with every bit pruned on its own rows (per_bit=True)."""
    log = Progress("prune", verbose)
    template = clone(template)
    classes, C, bits = bit_problems(template, X, y, update)  # one LS-SVM per bit
    path = PruningPath(update=update)
    reference = None
    stage = 0
    while True:
        estimators, importances = [], []
        for bit in bits:
            stage_factor, kept = bit["factor"], bit["kept"]
            X_bit, y_bit = X[bit["rows"]], bit["labels"]
            if stage_factor is not None:
                stage_factor.shrink(kept, bit.get("priority"), stage)
            if stage == 0:
                est, _ = fit_stage(bit["template"], X_bit, y_bit, kept, stage_factor)
            else:
                est, _, reason = fit_or_reason(
                    bit["template"], X_bit, y_bit, kept, stage_factor, True
                )
                if reason is not None:
                    return _end_early(path, stage, f"bit {len(estimators)}: {reason}")
            estimators.append(est)
            importance = np.abs(est.alpha_)
            bit["priority"] = np.zeros(len(bit["rows"]))
            bit["priority"][kept] = importance
            importances.append(importance)
        support = [bit["rows"][bit["kept"]] for bit in bits]
        model = PrunedOutputCode(classes, C, estimators, support, template.decoding)
        score, p_value, reference = _score_stage(model, validation, reference, True)
        spectrum = np.sort(np.concatenate(importances))[::-1]
        path._append(model, support, spectrum, score, p_value,
                     n_support=sum(len(s) for s in support))  # fmt: skip
        _report(path, log)
        if _apply_stop_rule(path, stop, level, stage):
            return path
        removed_any = False
        if n_stages is None or stage < n_stages:
            for bit, importance in zip(bits, importances, strict=True):
                kept = bit["kept"]
                floor = max(min_support, 2)
                k = _n_to_remove(len(kept), fraction, n_remove, min(floor, len(kept)))
                drop = remove_in_bit(importance, bit["labels"][kept], k)
                if len(drop):
                    bit["kept"] = np.delete(kept, drop)  # step 2, within the bit
                    removed_any = True
        if not removed_any:
            return path
        stage += 1


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


def _validation_loss(estimator, X_val, y_val, classifier):
    """Per-point loss on the validation set: 0/1 error or squared error."""
    pred = estimator.predict(X_val)
    if classifier:
        return (pred != y_val).astype(float)
    return np.sum(np.reshape((pred - y_val) ** 2, (len(y_val), -1)), axis=1)


def _score_stage(model, validation, reference, classifier):
    """(score, p-value, reference loss) of a stage on the validation set, if any.

    ``reference`` is the loss of stage 0 (None at stage 0, which becomes its own
    reference, p = 1); without a validation set the score and p-value are NaN.
    """
    if validation is None:
        return np.nan, np.nan, reference
    X_val, y_val = validation
    loss = _validation_loss(model, X_val, y_val, classifier)
    reference = loss if reference is None else reference
    return (
        float(model.score(X_val, y_val)),
        sign_test_pvalue(loss, reference),
        reference,
    )


def _apply_stop_rule(path, stop, level, stage) -> bool:
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


def pruned_fraction(path: PruningPath, stage: int | None = None) -> float:
    """Share of the training points removed at ``stage`` (default: selected)."""
    stage = path.selected if stage is None else stage
    return 1.0 - path.n_support[stage] / path.n_support[0]
