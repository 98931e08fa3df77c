r"""The factor pruning carries from stage to stage: retraining without a new Cholesky.

Each pruning stage retrains the LS-SVM on fewer points ([S §3.7], step 3 of the loop
of :func:`lssvm.sparse.pruning.prune`). With H = K + I/gamma the bordered system
[S 3.24] is solved through H (the elimination [S 3.25]); removing points removes rows
and columns of H. The Cholesky factor is kept in an order with the points most likely
to stay (large abs(alpha_k)) first: the factor rows of the unchanged leading points
are reused, and only the trailing block is rebuilt from its Schur complement
(:meth:`lssvm.linalg.factor.CholeskyFactor.update`, whose order is refreshed with the
new abs(alpha_k) ranking at every stage; :class:`StageFactor`). The system of each
stage is then solved on the downdated factor by the elimination [S 3.25]
(:func:`lssvm.linalg.solvers.solve_bordered_kkt` with ``factor=``,
:func:`solve_on_factor`): two triangular solves per stage, no new factorisation.
The first stage after the unpruned fit rebuilds the whole factor (the input order
says nothing about abs(alpha_k)), so a path costs about two full factorisations plus
one small trailing block per stage, where refitting costs one factorisation per
stage.

A stage is fitted by the estimator's own ``fit`` (:func:`fit_stage`), its KKT solve
replaced through :func:`lssvm._base.fit_with_kkt_solver`: the fitted stage is an
ordinary estimator. Systems the factor does not cover (one-versus-one codes, bits
with their own gamma or kernel) fall back to :func:`lssvm._base.solve_kkt_default`,
and the path then refits.

These helpers serve :mod:`lssvm.sparse.pruning` and the per-bit problems beside it
only: a private module (no user needs them), whose names carry no underscore so that
the sibling modules may import them.

Sources: Suykens et al. (2002), [S §3.7], [S 3.24], [S 3.25].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from .._base import fit_with_kkt_solver, fitted_kernel, solve_kkt_default
from ..linalg.factor import CholeskyFactor
from ..linalg.solvers import KKTSolution, solve_bordered_kkt

__all__ = [
    "StageFactor", "new_stage_factor", "fit_stage", "fit_or_reason", "solve_on_factor",
]  # fmt: skip


@dataclass
class StageFactor:
    """The factor pruning carries from stage to stage, and what it was built for.

    ``factor`` is the :class:`lssvm.linalg.factor.CholeskyFactor` of H = K + I/gamma
    on the kept points (empty until the first covered fit); ``kernel`` the kernel it
    was built with; ``created`` is the stage at which it was set up: the fit of that
    stage factors in the input order, the next stage rebuilds it in the order of
    decreasing abs(alpha_k), and later ones keep the factor rows of the leading
    points that stay and rebuild only the trailing block
    (:meth:`~lssvm.linalg.factor.CholeskyFactor.update`).
    """

    kernel: object
    factor: CholeskyFactor
    created: int

    def shrink(self, kept, priority, stage):
        """Downdate to the points ``kept``; ``priority`` orders the rebuilt block."""
        if len(self.factor):  # the input order says nothing about abs(alpha_k)
            self.factor.update(kept, priority, keep_prefix=stage > self.created + 1)


def new_stage_factor(template, X, update, stage=0):
    """An empty :class:`StageFactor` for ``template`` on X, set up at ``stage``.

    None for ``update="refit"`` and for ``solver="cg"`` (no factor to carry).
    """
    if update == "refit" or template.solver == "cg":
        return None
    kernel = fitted_kernel(template, X)
    empty = CholeskyFactor.from_kernel(kernel(X, X), float(template.gamma), order=[])
    return StageFactor(kernel, empty, stage)


def fit_stage(template, X, y, kept, stage_factor):
    """A clone of ``template`` fitted on the points ``kept``.

    With a factor, the estimator's own ``fit`` runs through
    :func:`lssvm._base.fit_with_kkt_solver` with its KKT solve replaced
    by the elimination [S 3.25] on the factor of H on the kept points: two
    triangular solves, the factor computed once at the first stage (then kept) and
    downdated between stages. The fitted estimator is a normal one, its solution
    that of the kept points. Returns (estimator, covered), ``covered`` False if fit
    solved a system the factor does not cover (e.g. 1-vs-1 codes).
    """
    est = clone(template)
    if stage_factor is None:
        return est.fit(X[kept], y[kept]), False
    factor = stage_factor.factor
    calls = {"covered": 0, "other": 0}

    def solve(kernel, X_sub, gamma, a, d, signs=None):
        # a is None for the model without bias: the fit applies [S 3.62]
        # (fit_with_kkt_solver's contract)
        covered = (
            X_sub.shape[0] == len(kept)
            and np.ndim(gamma) == 0
            and float(gamma) == factor.gamma
            and kernel == stage_factor.kernel  # same class and parameters, exactly
        )
        if not covered:
            calls["other"] += 1
            return solve_kkt_default(  # prune's X is a numpy array (check_X_y)
                est, kernel, X_sub, gamma, a, d, signs=signs, on_dask=False
            )
        calls["covered"] += 1
        if not len(factor):  # [S 3.24] by one Cholesky of H, kept for the next stages
            factor.reorder(kept)
        # [S 3.24] by the elimination [S 3.25] on the (downdated) factor; the rows
        # of a, d and alpha follow kept, those of the factor factor.order.
        return solve_on_factor(factor, a, d, signs, kept)

    fit_with_kkt_solver(est, solve, X[kept], y[kept])
    return est, calls["other"] == 0 and calls["covered"] > 0


def fit_or_reason(template, X, y, kept, stage_factor, classifier):
    """(estimator, downdated, None) for a stage, or (None, False, reason) if unfit."""
    if classifier and len(np.unique(y[kept])) < 2:
        return None, False, (
            f"its {len(kept)} points leave one class only ({np.unique(y[kept])})"
        )
    try:
        est, downdated = fit_stage(template, X, y, kept, stage_factor)
    except Exception as exc:  # any failing fit ends the path, never loses it
        return None, False, f"fit raised {type(exc).__name__}: {exc}"
    return est, downdated, None


def solve_on_factor(factor, a, d, signs, index):
    """[S 3.24] on the points of ``factor``, the rows of a, d, signs and alpha
    following ``index``: put in factor order, two triangular solves, put back."""
    pos = factor.positions(index)  # None: index is the factor order
    if pos is not None:
        a, d, signs = (None if v is None else np.asarray(v)[pos] for v in (a, d, signs))
    sol = solve_bordered_kkt(None, None, a, d, signs=signs, factor=factor)  # [S 3.25]
    if pos is None:
        return sol
    alpha = np.empty_like(sol.alpha)
    alpha[pos] = sol.alpha
    return KKTSolution(alpha, sol.b, sol.n_iter, sol.converged, None)
