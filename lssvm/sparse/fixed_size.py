r"""Fixed-size LS-SVM: a Nystrom feature map from m prototypes, the primal ridge problem.

The dual LS-SVM [S 3.24] is an N x N system. The primal problem is parametric with a
weight vector of fixed size [S §3.1]; when the feature map is infinite-dimensional
(RBF) it cannot be solved there, but an m-dimensional approximation of it can. From m
prototype vectors :math:`z_1, \dots, z_m` with kernel matrix
:math:`W = K(Z, Z) = U \operatorname{diag}(s) U^T`, the Nystrom method (Williams &
Seeger 2001) approximates the kernel's eigenfunctions and gives the feature map

.. math:: \hat\varphi(x) = \operatorname{diag}(s)^{-1/2} U^T k_Z(x),
   \qquad k_Z(x) = [K(z_1, x), \dots, K(z_m, x)]^T,

with :math:`\hat\varphi(x)^T \hat\varphi(x') = k_Z(x)^T W^{+} k_Z(x')`, exact on the
prototypes. The fixed-size LS-SVM (Suykens et al. 2002, ch. 6; De Brabanter et al.
2010) then solves the ridge problem with the bias in that space,

.. math:: \min_{w, b}\ \tfrac12 w^T w
   + \tfrac{\gamma}{2} \sum_{k=1}^N (y_k - w^T \hat\varphi(x_k) - b)^2 .

The estimators here take their steps from three modules:

- :mod:`lssvm.sparse.prototypes`: the m prototypes (``prototypes``);
- :mod:`lssvm.sparse.primal_ridge`: ``solver="normal"``, the normal equations
  accumulated over chunks of rows in one pass and factored, and the closed-form
  cross-validation (``cv``) and leave-one-out (``cv="loo"``) errors of several
  ``gamma``;
- :mod:`lssvm.sparse.nystrom_pcg`: ``solver="pcg"``, the same system by conjugate
  gradients preconditioned from K(Z, Z) alone (FALKON), one pass over the rows per
  iteration, and the held-out errors of several ``gamma``.

``solver="auto"`` uses "pcg" above ``AUTO_PCG_MIN_PROTOTYPES`` prototypes
(``benchmarks/bench_fixed_size_pcg.py`` measures the crossover).

Classifiers regress the +-1 codes of each output bit [S 3.8-3.14] (for y = +-1 the
classifier's error 1 - y f equals the regression error y - f); every bit shares the
feature map and the one (m+1) x (m+1) factorisation, so only dense codes ("ova",
"moc", "ecoc") are accepted. ``gamma`` may be a list of candidates, chosen without
refitting (``cv``).

Prototypes: ``"entropy"`` (the quadratic Renyi entropy), ``"leverage"`` (approximate
ridge leverage scores), ``"random"`` (the default: a uniform draw, chosen by
measurement, ``benchmarks/bench_fixed_size_pcg.py`` part ``prototypes``: random
prototypes were at least as accurate as entropy and leverage ones at every m
measured and need the fewest CG iterations); or an array
(:mod:`lssvm.sparse.prototypes`).

Dask: X (and y) may be ``dask.array`` arrays chunked by rows; ``fit`` then runs the
accumulation (or, for ``solver="pcg"``, each CG pass) as a tree reduction on the
current scheduler (a ``dask.distributed`` client if one exists), and
``predict``/``decision_function`` return Dask arrays; each row block is checked for
NaN and infinity when its task runs (a ValueError naming X). Dask is imported only
then (``pip install lssvm[dask]``).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import (
    KERNEL_CONSTRAINTS,
    WIDTH_SAMPLE_ROWS,
    is_dask,
    resolve_sigma2,
    warn_degenerate_width,
)
from .._validation import (
    GAMMA_MEANING,
    N_JOBS,
    Boolean,
    Count,
    NoneValue,
    Options,
    Positive,
    PositiveList,
    RandomState,
    Unchecked,
    check_classes,
    check_finite_output,
    check_not_precomputed,
    check_sample_weight,
    positive_weight_rows,
    validate_params,
)
from ..kernels import RBF, Precomputed, make_kernel
from ..linalg import memory
from ..linalg.nystrom import NystromFeatureMap
from ..multiclass import codebook
from ._blocks import check_block
from .nystrom_pcg import NystromRidgePCG, holdout_errors
from .primal_ridge import (accumulate, accumulate_dask, cv_errors, loo_errors,
                           solve_ridge)
from .prototypes import draw_prototypes

__all__ = [
    "FixedSizeLSSVMClassifier", "FixedSizeLSSVMRegressor", "AUTO_PCG_MIN_PROTOTYPES",
]  # fmt: skip

PROTOTYPE_METHODS = ("entropy", "leverage", "random")
SOLVERS = ("auto", "normal", "pcg")
#: solver="auto" uses "pcg" when m exceeds this (and gamma is one value, X in memory):
#: the normal equations cost O(N m^2) flops, PCG O(N m) kernel values and flops per
#: iteration (benchmarks/bench_fixed_size_pcg.py measures the crossover).
AUTO_PCG_MIN_PROTOTYPES = 2000

# --- estimators -----------------------------------------------------------------------


def _feature_space(stats):
    """Feature-space sums (accumulated with the map T): symmetrised G, c, yy, counts."""
    S, C, yy, counts = stats
    return (S + S.transpose(0, 2, 1)) / 2, C, yy, counts


class _FixedSizeBase(BaseEstimator):
    """Parameters and the fit shared by the fixed-size classifier and regressor.

    Parameters
    ----------
    n_prototypes : int, default=100
        m, the number of prototype vectors (at most n_samples are used).
    gamma : float or sequence of floats, default=1.0
        Regularization constant of the primal problem. A sequence: candidates, the
        one with the smallest closed-form ``cv``-fold squared error is used
        (``gamma_``, ``cv_errors_``). With ``solver="pcg"``, which has no
        accumulated sums to take folds from, one fold is held out instead (rows i
        with i mod cv == 0, weighted 0 in the passes): each candidate is one PCG
        solve on the other rows and a prediction of the held-out ones, then the
        chosen gamma is solved on every row
        (:func:`~lssvm.sparse.nystrom_pcg.holdout_errors`).
    kernel, sigma2, degree, tau
        As for :class:`lssvm.LSSVMClassifier` (RBF K(x, z) = exp(-||x-z||^2/sigma2)
        [S 3.13]); ``sigma2="scale"`` is n_features * X.var() of the training X
        (scikit-learn's ``SVC(gamma="scale")``), and a width that makes the kernel
        matrix numerically the identity or constant gives a
        :class:`lssvm.linalg.factor.NumericalWarning`. ``kernel="precomputed"`` is refused:
        the feature map evaluates the kernel between new inputs and the prototypes.
    prototypes : {"random", "entropy", "leverage"} or array of shape (m, n_features), \
default="random"
        How the prototypes are chosen (module docstring). "random" (the default) is a
        uniform draw of m rows: on the xor_sine benchmarks it was at least as
        accurate as the other two at every m measured (25 to 5000) and needs the
        fewest CG iterations (``benchmarks/bench_fixed_size_pcg.py``, part
        ``prototypes``). "entropy": the quadratic Renyi entropy criterion of the
        fixed-size literature (Suykens et al. 2002, ch. 6). "leverage": m rows of a
        uniform pool of 10 m drawn with probabilities proportional to their
        approximate ridge leverage scores for the estimator's kernel and ridge
        parameter p / (n gamma) (pool size p; the largest of several ``gamma``),
        from a Nystrom sketch of s = min(p, m, 2000) pool rows
        (:func:`~lssvm.sparse.prototypes.ridge_leverage_scores`; O(p s^2) flops,
        8 p s bytes).
    random_state : int, Generator or None, default=0
        Seed of the prototype selection (0, as for the other estimators: two fits
        of the same data give the same model; None draws anew each time).
    chunk_size : int, default=4096
        Rows per chunk of the accumulation (memory about 8 chunk_size m bytes).
    cv : int or "loo", default=5
        Folds for a sequence of ``gamma`` (row i is in fold i mod cv), from the
        fold sums of the one pass ("pcg": fold 0 held out, see ``gamma``). "loo"
        ("normal" only): the exact leave-one-out squared error of
        every candidate in closed form
        (:class:`~lssvm.sparse.primal_ridge.LeaveOneOut`; a second pass over the
        rows, no refit).
    n_jobs : int or None, default=None
        Threads over chunks for in-memory data (results do not depend on it). None
        means 1 unless in a ``joblib.parallel_config`` context, -1 all CPUs, as
        everywhere in lssvm (:func:`joblib.effective_n_jobs`).
    solver : {"auto", "normal", "pcg"}, default="auto"
        "normal": accumulate the (r+1) x (r+1) normal equations in one pass
        (O(N m^2) flops, memory O(m^2 + chunk m)) and factor them. "pcg": CG on the
        same system preconditioned from K_mm alone
        (:class:`~lssvm.sparse.nystrom_pcg.NystromRidgePCG`, FALKON): one pass over
        the rows per iteration, O(N m) kernel values and 4 N m q flops each; several
        ``gamma`` by a held-out fold. A Dask X runs each pass as one task per row
        block (the m x m work on the client) and is persisted for the run.
        "auto": "pcg" when m > ``AUTO_PCG_MIN_PROTOTYPES`` (2000), ``gamma`` is one
        value and X is in memory; "normal" otherwise.
    tol : float, default=1e-8
        "pcg": CG stops when every column's relative residual
        ||A^T Y - H theta|| / ||A^T Y|| is at most ``tol`` (at most 10 (r + 1)
        iterations, with a ConvergenceWarning if that is reached first). The
        default solves the system to near round-off. For prediction a looser
        tolerance suffices: the loosest of 1e-3 ... 1e-8 whose test accuracy equals
        that of 1e-8 within 0.05 points on each of 3 seeds was 1e-3 (xor_sine, 10
        inputs, N = 10^5, m = 1000, sigma2 = 10, gamma = 1; about a third of the
        iterations; ``benchmarks/bench_fixed_size_million.py``, part tol). Check
        the rule on your own data before relying on it.
    store_kernel : {"auto", True, False}, default="auto"
        "pcg" with in-memory X: keep the N x m kernel blocks K(X_c, Z) of the first
        pass (8 N m bytes) and reuse them in every iteration (True), or compute them
        again in each pass (False: memory O(chunk m)). "auto": store them when they
        take at most ``lssvm.linalg.memory.AUTO_MEMORY_FRACTION`` of the available
        memory. ``kernel_stored_`` records what was done. The result is the same
        either way.

    ``fit(X, y, sample_weight=None)``: weights v_k >= 0 of the rows, the weighted
    primal problem (gamma/2 sum_k v_k (y_k - w^T phi(x_k) - b)^2 in place of the
    plain sum): the normal equations A^T V A, A^T V Y and every sum of rows weighted
    (an integer weight is a repeated row; CV errors are weighted means). Prototypes
    are drawn from the rows of positive weight. With a Dask X the weights are
    gathered on the client (8 N bytes).

    Memory: before the m x m work (the prototype kernel matrix, its
    eigendecomposition, the accumulated sums) and before stored kernel blocks, the
    bytes needed are compared with the available memory
    (:func:`lssvm.linalg.memory.available_memory`); too many raise
    :class:`lssvm.linalg.memory.InsufficientMemoryError` before anything is allocated.

    Fitted attributes of both solvers: ``solver_`` (the one used), ``n_iter_`` (CG
    iterations, 0 for "normal"), ``cg_residuals_`` (relative residual of each output
    column after each iteration, shape (n_iter_ + 1, q); None for "normal").
    """

    #: Checked once at the start of fit (lssvm._validation.validate_params); what
    #: depends on the data (a prototype array's shape, cv against several gamma) is
    #: checked after it.
    _parameter_constraints = {
        "n_prototypes": [Count(1, "number m of prototype vectors")],
        "gamma": [PositiveList(GAMMA_MEANING)],
        **KERNEL_CONSTRAINTS,
        "sigma2": [*KERNEL_CONSTRAINTS["sigma2"], Options(("scale",))],
        "prototypes": [
            Options(PROTOTYPE_METHODS),
            Unchecked("fit: an array of shape (m, n_features)"),
        ],
        "random_state": [NoneValue(), RandomState()],
        "chunk_size": [Count(1, "rows per chunk")],
        # cv is read only to choose among several gamma (then checked: >= 2 or "loo")
        "cv": [Count(2, "folds"), Options(("loo",)),
               Unchecked("fit, and only with several gamma")],  # fmt: skip
        "n_jobs": N_JOBS,
        "solver": [Options(SOLVERS)],
        "tol": [Positive("CG tolerance")],
        "store_kernel": [Options(("auto",)), Boolean()],
    }

    def __init__(self, *, n_prototypes=100, gamma=1.0, kernel="rbf", sigma2=1.0,
                 degree=3, tau=1.0, prototypes="random", random_state=0,
                 chunk_size=4096, cv=5, n_jobs=None, solver="auto", tol=1e-8,
                 store_kernel="auto"):
        self.n_prototypes = n_prototypes
        self.gamma = gamma
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.prototypes = prototypes
        self.random_state = random_state
        self.chunk_size = chunk_size
        self.cv = cv
        self.n_jobs = n_jobs
        self.solver = solver
        self.tol = tol
        self.store_kernel = store_kernel

    # checks -------------------------------------------------------------------------
    def _check_params(self, n_features, sigma2):
        gammas = np.atleast_1d(np.asarray(self.gamma, dtype=object))  # validated
        if len(gammas) > 1 and not (isinstance(self.cv, str) and self.cv == "loo"):
            if (isinstance(self.cv, bool) or not isinstance(self.cv, numbers.Integral)
                    or self.cv < 2):
                raise ValueError(
                    f"{type(self).__name__}: cv must be >= 2 (folds) or 'loo' to "
                    f"choose among {len(gammas)} values of gamma; got cv={self.cv!r}."
                )
        p = self.prototypes
        if isinstance(p, str):
            if p not in PROTOTYPE_METHODS:
                raise ValueError(
                    f"{type(self).__name__}: prototypes must be one of "
                    f"{list(PROTOTYPE_METHODS)} or an array of shape (m, n_features); "
                    f"got prototypes={p!r}."
                )
            if p == "entropy" and np.ndim(sigma2) != 0:
                raise ValueError(
                    f"{type(self).__name__}: prototypes='entropy' needs a scalar "
                    f"sigma2 (the width of its Parzen window); got sigma2={self.sigma2!r}."
                )
        else:
            Z = np.asarray(p, dtype=np.float64)
            if Z.ndim != 2 or Z.shape[1] != n_features or Z.shape[0] < 1:
                raise ValueError(
                    f"{type(self).__name__}: prototypes must be an array of shape "
                    f"(m, n_features={n_features}); got shape {Z.shape}."
                )
            if not np.all(np.isfinite(Z)):
                bad = np.flatnonzero(~np.isfinite(Z).all(axis=1))
                raise ValueError(
                    f"{type(self).__name__}: prototypes must be finite; got NaN or "
                    f"infinity in {len(bad)} of its {Z.shape[0]} rows (first: "
                    f"{bad[:5].tolist()})."
                )
        kernel = make_kernel(self.kernel, sigma2=sigma2, degree=self.degree,
                             tau=self.tau)
        return kernel, np.array([float(g) for g in gammas])

    def _check_kernel_name(self):
        """Refuse a precomputed kernel (the feature map needs the inputs)."""
        check_not_precomputed(self.kernel, owner=self)
        if isinstance(self.kernel, Precomputed):
            check_not_precomputed("precomputed", owner=self)

    # fit ------------------------------------------------------------------------------
    def _fit(self, X, y, sample_weight=None):
        """The steps: the data, the parameters, the prototypes and the feature map
        [S §3.6.1], then the primal ridge problem by one of the two solvers."""
        validate_params(self)
        self._check_kernel_name()
        dask_input = is_dask(X) or is_dask(y)
        X, y, n, weights = self._fit_data(X, y, sample_weight, dask_input)
        positive = None if weights is None else np.flatnonzero(weights > 0)
        y_classes = y if positive is None else y[positive]  # rows that take part
        sigma2 = self._resolve_sigma2(X, dask_input)
        kernel, gammas = self._check_params(X.shape[1], sigma2)
        targets = self._targets_setup(y_classes)  # y -> (n, q) targets, in each chunk
        n_rows = n if positive is None else len(positive)
        m = (min(self.n_prototypes, n_rows) if isinstance(self.prototypes, str)
             else len(self.prototypes))
        solver = self._choose_solver(m, len(gammas), dask_input)
        loo = len(gammas) > 1 and isinstance(self.cv, str)  # cv="loo" (checked)
        n_folds = min(int(self.cv), n) if len(gammas) > 1 and not loo else 1
        n_jobs = effective_n_jobs(self.n_jobs)
        self._check_memory(m, n, n_folds, solver, dask_input, n_jobs)
        self._warn_width(kernel, X, dask_input)
        Z = self._choose_prototypes(X, n, positive, sigma2, dask_input, kernel, gammas)
        fmap = NystromFeatureMap(kernel, Z)
        self.kernel_, self.feature_map_ = kernel, fmap
        self.prototypes_ = fmap.Z
        self.n_prototypes_ = Z.shape[0]
        self.n_samples_fit_ = n
        self.solver_ = solver
        self.kernel_stored_ = False
        W = weights
        if dask_input:
            Y = y.map_blocks(targets, dtype=np.float64,
                             chunks=(y.chunks[0], (self._n_outputs,)), new_axis=1)
            if weights is not None:
                import dask.array as da

                W = da.from_array(weights, chunks=(X.chunks[0],))
        else:
            Y = targets(y)
        if solver == "pcg":
            theta = self._solve_pcg(X, Y, W, weights, kernel, fmap, gammas, n_jobs)
        else:
            theta = self._solve_normal(X, Y, W, kernel, fmap, gammas, n_folds, loo,
                                       n_jobs)
        return self._set_coefficients(theta, fmap)

    def _fit_data(self, X, y, sample_weight, dask_input):
        """(X, y, n, weights): validated data and the row weights (None: all 1;
        rows of weight 0 stay in X with weight 0)."""
        if dask_input:
            X, y, n = self._dask_inputs(X, y)
            return X, y, n, check_sample_weight(sample_weight, n, owner=self)
        X, y = self._validate(X, y)
        n = X.shape[0]
        labels = None
        if self._is_clf and sample_weight is not None:
            from sklearn.utils.multiclass import check_classification_targets

            check_classification_targets(y)
            labels = y
        keep, w = positive_weight_rows(
            sample_weight, X, labels, owner=self,
            classes=None if labels is None else np.unique(labels))
        weights = None
        if keep is not None:
            weights = np.zeros(n)
            weights[keep] = w
        return X, y, n, weights

    def _choose_prototypes(self, X, n, positive, sigma2, dask_input, kernel, gammas):
        """Z: drawn among the rows of positive weight (``prototypes`` a method;
        ``prototype_indices_`` records them), or the given array."""
        if not isinstance(self.prototypes, str):
            self.prototype_indices_ = None
            return np.asarray(self.prototypes, float)
        rows = np.arange(n) if positive is None else positive

        def take(idx):  # rows of X by index among the rows of positive weight
            chosen = X[rows[idx]]
            return np.asarray(chosen.compute()) if dask_input else chosen

        rng = np.random.default_rng(self.random_state)
        idx, Z = draw_prototypes(X, len(rows), self.n_prototypes, self.prototypes,
                                  sigma2, rng, take, kernel=kernel, gamma=gammas)
        self.prototype_indices_ = rows[idx]
        if not np.all(np.isfinite(Z)):  # a Dask X is otherwise checked per block
            bad = self.prototype_indices_[~np.isfinite(Z).all(axis=1)]
            raise ValueError(
                f"{type(self).__name__}: Input X contains NaN or infinity (rows "
                f"{bad[:5].tolist()}, drawn as prototypes); X must be finite."
            )
        return Z

    def _solve_pcg(self, X, Y, W, weights, kernel, fmap, gammas, n_jobs):
        """theta by :class:`~lssvm.sparse.nystrom_pcg.NystromRidgePCG`; several gamma
        on a held-out fold."""
        n = X.shape[0]
        store = False if is_dask(X) else self._store_kernel(n, fmap.Z.shape[0])
        self.cv_errors_, self.gamma_ = None, float(gammas[0])
        W_train = W
        if len(gammas) > 1:  # one fold held out: rows i with i mod cv == 0
            held = np.arange(n) % min(int(self.cv), n) == 0
            W_train = np.where(held, 0.0, 1.0 if weights is None else weights)
            if is_dask(X):
                import dask.array as da

                W_train = da.from_array(W_train, chunks=(X.chunks[0],))
        pcg = NystromRidgePCG(X, kernel, fmap, gammas[0], chunk_size=self.chunk_size,
                              n_jobs=n_jobs, sample_weight=W_train, store_blocks=store)
        if len(gammas) > 1:
            self.cv_errors_ = holdout_errors(pcg, X, Y, W, weights, held, gammas, fmap,
                                             tol=self.tol)
            self.gamma_ = float(gammas[np.argmin(self.cv_errors_)])
            pcg.set_weights(W, self.gamma_)  # the refit on every row
        theta, res = pcg.solve(Y, tol=self.tol)
        self.kernel_stored_ = store
        self.n_iter_, self.cg_residuals_ = int(res.n_iter), res.residuals
        return theta

    def _solve_normal(self, X, Y, W, kernel, fmap, gammas, n_folds, loo, n_jobs):
        """theta from the accumulated normal equations; several gamma by the fold
        sums or the closed-form leave-one-out (a second pass)."""
        self.n_iter_, self.cg_residuals_ = 0, None
        Z = fmap.Z
        if is_dask(X):
            stats = accumulate_dask(X, Y, kernel, Z, n_folds=n_folds,
                                    chunk_size=self.chunk_size, T=fmap.projection, W=W)
        else:
            stats = accumulate(X, Y, kernel, Z, n_folds=n_folds,
                               chunk_size=self.chunk_size, n_jobs=n_jobs,
                               T=fmap.projection, W=W)
        G, c, yy, counts = _feature_space(stats)
        if loo:  # a second pass: closed-form LOO residuals, every gamma at once
            self.cv_errors_ = loo_errors(
                X, Y, kernel, fmap, G.sum(axis=0), c.sum(axis=0), gammas,
                chunk_size=self.chunk_size, n_jobs=n_jobs, W=W)
            self.gamma_ = float(gammas[np.argmin(self.cv_errors_)])
        elif len(gammas) > 1:
            self.cv_errors_ = cv_errors(G, c, yy, counts, gammas)
            self.gamma_ = float(gammas[np.argmin(self.cv_errors_)])
        else:
            self.cv_errors_, self.gamma_ = None, float(gammas[0])
        return solve_ridge(G.sum(axis=0), c.sum(axis=0), self.gamma_)  # (r+1, q)

    def _resolve_sigma2(self, X, dask_input):
        """``sigma2``, "scale" replaced by n_features * X.var() (a Dask reduction)."""
        if not (isinstance(self.sigma2, str) and self.sigma2 == "scale"):
            return self.sigma2
        if not dask_input:
            return resolve_sigma2(self.sigma2, X, self.kernel)
        var = float(X.var().compute())
        return X.shape[1] * var if var > 0.0 else 1.0

    def _warn_width(self, kernel, X, dask_input):
        """NumericalWarning if the RBF kernel matrix is numerically I or constant,
        checked on up to WIDTH_SAMPLE_ROWS evenly spaced rows (as the exact LS-SVM
        does)."""
        if not isinstance(kernel, RBF) or X.shape[0] < 2:
            return
        rows = np.unique(np.linspace(0, X.shape[0] - 1, WIDTH_SAMPLE_ROWS).astype(int))
        sample = np.asarray(X[rows].compute()) if dask_input else X[rows]
        warn_degenerate_width(kernel, sample, owner=self)

    def _check_memory(self, m, n, n_folds, solver, dask_input, n_jobs):
        """InsufficientMemoryError before the m x m work if it cannot fit.

        Peak, in (m+1) x (m+1) float64 matrices: the feature map is built with two,
        K(Z, Z) overwritten by the eigensolver and the eigenvectors scaled in place
        into T (:class:`NystromFeatureMap`), and "pcg" keeps only T; "normal" holds
        T, the summed G, its symmetrising temporaries (2), the regularised copy and
        its Cholesky factor (6 in all), plus the accumulated sums of the chunks in
        flight and of the pairwise tree (n_folds each); in memory, each chunk in
        flight also holds K(X_c, Z) (and [Phi_c, 1] for "normal"), chunk_size x (m+1).
        """
        chunk = min(self.chunk_size, n)
        n_chunks = -(-n // chunk)
        in_flight = 1 if n_jobs == 1 else min(2 * n_jobs, n_chunks)
        square = 2.0
        rows = 0.0
        if solver == "normal":
            depth = 1 if dask_input else math.ceil(math.log2(n_chunks)) + 1
            square = 6.0 + n_folds * ((0 if dask_input else in_flight) + depth)
            rows = 0.0 if dask_input else 2.0 * in_flight * chunk
        elif not dask_input:
            rows = float(in_flight * chunk)
        needed = int(8 * (square * (m + 1) ** 2 + rows * (m + 1)))
        sums = " and the accumulated sums" if solver == "normal" else ""
        memory.check_memory(
            needed, f"the fit with m = {m} prototypes needs about ",
            detail=f" at its peak ({square:g} (m+1) x (m+1) float64 matrices: the "
            f"prototype kernel matrix, its eigendecomposition, the feature map{sums}; "
            "and row chunks of chunk_size x (m+1))",
            alternative=f"use fewer prototypes (n_prototypes={self.n_prototypes!r}) "
            "or a smaller chunk_size",
            owner=self)

    def _store_kernel(self, n, m):
        """Whether "pcg" keeps the N x m kernel blocks (``store_kernel``)."""
        needed = 8 * n * m
        if isinstance(self.store_kernel, str):  # "auto"
            available = memory.available_memory()
            fraction = memory.AUTO_MEMORY_FRACTION
            return available is None or needed <= fraction * available
        if self.store_kernel:
            memory.check_memory(
                needed, "store_kernel=True keeps the N x m kernel blocks, ",
                detail=f" for N = {n}, m = {m}",
                alternative="use store_kernel=False or 'auto' (blocks computed again "
                "in each CG iteration)",
                owner=self)
        return bool(self.store_kernel)

    def _set_coefficients(self, theta, fmap):
        self.coef_ = theta[:-1]  # w in feature space, (r, q)
        self.intercept_ = theta[-1]
        self.dual_coef_ = fmap.projection @ self.coef_  # beta: f = k_Z(x)^T beta + b
        return self

    def _choose_solver(self, m, n_gammas, dask_input):
        """The solver used: ``solver``, or for "auto" the rule of the class docstring."""
        if self.solver == "auto":
            pcg = m > AUTO_PCG_MIN_PROTOTYPES and n_gammas == 1 and not dask_input
            return "pcg" if pcg else "normal"
        if self.solver == "pcg" and n_gammas > 1 and isinstance(self.cv, str):
            raise ValueError(
                f"{type(self).__name__}: cv='loo' needs the accumulated sums of "
                f"solver='normal' (or 'auto'); solver='pcg' chooses among {n_gammas} "
                f"values of gamma on one held-out fold, so cv must be an int >= 2; "
                f"got cv={self.cv!r}."
            )
        return self.solver

    def _validate(self, X, y):
        return validate_data(self, X, y, dtype=np.float64, y_numeric=not self._is_clf)

    def _dask_inputs(self, X, y):
        import dask.array as da

        if not is_dask(X):
            X = da.from_array(np.asarray(X, dtype=np.float64),
                              chunks=(self.chunk_size, -1))
        if X.ndim != 2 or any(math.isnan(c) for c in X.shape):
            raise ValueError(
                f"{type(self).__name__}: a Dask X must be 2-D with known chunk sizes "
                f"(call X.compute_chunk_sizes()); got shape {X.shape}."
            )
        X = X.rechunk({1: -1}).astype(np.float64)
        if not is_dask(y):
            y = np.asarray(y)
            if y.ndim != 1 or len(y) != X.shape[0]:
                raise ValueError(
                    "X and y have inconsistent numbers of samples: "
                    f"[{X.shape[0]}, {len(y)}]."
                )
            y = da.from_array(y, chunks=(X.chunks[0],))
        elif y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(
                "X and y have inconsistent numbers of samples: "
                f"[{X.shape[0]}, {y.shape[0] if y.ndim else y.shape}]."
            )
        y = y.rechunk((X.chunks[0],))
        self.n_features_in_ = X.shape[1]
        if X.shape[0] < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 samples.")
        return X, y, X.shape[0]

    # prediction ----------------------------------------------------------------------
    def _latent_numpy(self, X):
        X = np.asarray(X, dtype=np.float64)
        out = np.empty((X.shape[0], self.dual_coef_.shape[1]))
        for i in range(0, X.shape[0], self.chunk_size):
            rows = slice(i, i + self.chunk_size)
            out[rows] = self.kernel_(X[rows], self.prototypes_) @ self.dual_coef_
        return check_finite_output(out + self.intercept_, self.kernel_, owner=self)

    def _check_X(self, X):
        check_is_fitted(self, "dual_coef_")
        if is_dask(X):
            if X.ndim != 2 or X.shape[1] != self.n_features_in_:
                raise ValueError(
                    f"X has {X.shape[1] if X.ndim == 2 else X.shape} features, but "
                    f"{type(self).__name__} was fitted with {self.n_features_in_}."
                )
            return X.rechunk({1: -1})
        return validate_data(self, X, reset=False, dtype=np.float64)

    def _map_rows(self, X, func, dtype, n_cols):
        """func on every row block of a Dask X; (n,) or (n, n_cols) Dask array.

        Each block is checked when its task runs: NaN or infinity in X raises a
        ValueError naming X (as ``validate_data`` does for in-memory X).
        """
        func = _FiniteRows(func, type(self).__name__)
        if n_cols is None:
            return X.map_blocks(func, dtype=dtype, drop_axis=1)
        return X.map_blocks(func, dtype=dtype, chunks=(X.chunks[0], (n_cols,)))


class _FiniteRows:
    """A prediction function on row blocks of a Dask X, checking each block first."""

    def __init__(self, func, owner):
        self.func, self.owner = func, owner

    def __call__(self, Xb, block_info=None):
        start = 0
        if block_info and 0 in block_info:
            start = int(block_info[0]["array-location"][0][0])
        Xb = np.asarray(Xb, dtype=np.float64)
        try:
            check_block(Xb, start=start)
        except ValueError as exc:
            raise ValueError(f"{self.owner}: {exc}") from None
        return self.func(Xb)


class FixedSizeLSSVMRegressor(RegressorMixin, _FixedSizeBase):
    """Fixed-size LS-SVM function estimation (module docstring); f = w^T phi(x) + b.

    Fitted attributes: ``prototypes_`` (m, d), ``prototype_indices_``,
    ``feature_map_`` (:class:`NystromFeatureMap`), ``coef_`` (w), ``intercept_`` (b),
    ``dual_coef_`` (beta, with f(x) = k_Z(x)^T beta + b), ``gamma_``, ``cv_errors_``.
    """

    _is_clf = False

    def _targets_setup(self, y):
        self._n_outputs = 1
        return _regression_targets

    def fit(self, X, y, sample_weight=None):
        """Fit on X (array or Dask array, rows = samples) and y; optional weights
        ``sample_weight`` (n_samples,) >= 0 (class docstring of the base)."""
        return self._fit(X, y, sample_weight)

    def predict(self, X):
        X = self._check_X(X)
        if is_dask(X):
            return self._map_rows(X, self._predict_numpy, np.float64, None)
        return self._predict_numpy(X)

    def _predict_numpy(self, X):
        return self._latent_numpy(X)[:, 0]


def _regression_targets(y):
    return np.asarray(y, dtype=np.float64).reshape(-1, 1)


class _CodeTargets:
    """Labels -> +-1 code rows (a picklable function for the Dask tasks)."""

    def __init__(self, classes, code):
        self.classes, self.code = classes, code.astype(np.float64)

    def __call__(self, y):
        return self.code[np.searchsorted(self.classes, np.asarray(y))]


class FixedSizeLSSVMClassifier(ClassifierMixin, _FixedSizeBase):
    """Fixed-size LS-SVM classifier: the +-1 codes of each bit regressed (module docstring).

    ``coding``: a dense output code, "ova" (default), "moc" or "ecoc" (or a code
    matrix without zeros); decoding by the LS-SVM's own squared loss
    (:func:`lssvm.multiclass.decode` with ``"loss"``), i.e. the nearest codeword.
    For two classes, ``classes_[1]`` is coded +1 and ``decision_function`` is the
    latent output, > 0 for ``classes_[1]``.
    """

    _is_clf = True

    _parameter_constraints = {
        **_FixedSizeBase._parameter_constraints,
        "coding": [Unchecked("fit: a dense output code, with the classes")],
    }

    def __init__(self, *, n_prototypes=100, gamma=1.0, kernel="rbf", sigma2=1.0,
                 degree=3, tau=1.0, prototypes="random", random_state=0,
                 chunk_size=4096, cv=5, n_jobs=None, solver="auto", tol=1e-8,
                 store_kernel="auto", coding="ova"):
        super().__init__(n_prototypes=n_prototypes, gamma=gamma, kernel=kernel,
                         sigma2=sigma2, degree=degree, tau=tau, prototypes=prototypes,
                         random_state=random_state, chunk_size=chunk_size, cv=cv,
                         n_jobs=n_jobs, solver=solver, tol=tol,
                         store_kernel=store_kernel)
        self.coding = coding

    def _targets_setup(self, y):
        from sklearn.utils.multiclass import check_classification_targets

        if is_dask(y):
            import dask.array as da

            classes = np.asarray(da.unique(y).compute())
            # the target type of the distinct values is that of y (binary,
            # multiclass, or continuous: refused, as for in-memory y)
            check_classification_targets(classes)
        else:
            check_classification_targets(y)
            classes = np.unique(y)
        check_classes(classes.tolist(), owner=self)
        code = codebook(len(classes), self.coding)
        if np.any(code == 0):
            raise ValueError(
                f"{type(self).__name__}: coding must be a dense code (no zeros: 'ova', "
                f"'moc', 'ecoc') so that every bit shares the rows and the one "
                f"factorisation; got coding={self.coding!r}."
            )
        self.classes_, self.codebook_ = classes, code
        self._n_outputs = code.shape[1]
        return _CodeTargets(classes, code)

    def fit(self, X, y, sample_weight=None):
        """Fit on X (array or Dask array, rows = samples) and y; optional weights
        ``sample_weight`` (n_samples,) >= 0 (class docstring of the base)."""
        return self._fit(X, y, sample_weight)

    def decision_function(self, X):
        """Latent outputs: (n,) for two classes, else class scores (n, n_classes)."""
        X = self._check_X(X)
        if is_dask(X):
            n_cols = None if len(self.classes_) == 2 else len(self.classes_)
            return self._map_rows(X, self._decision_numpy, np.float64, n_cols)
        return self._decision_numpy(X)

    def _decision_numpy(self, X):
        F = self._latent_numpy(X)
        if len(self.classes_) == 2:
            return F[:, 0] * self.codebook_[1, 0]  # > 0 for classes_[1]
        C = self.codebook_.astype(np.float64)
        return -((F[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)

    def predict(self, X):
        X = self._check_X(X)
        if is_dask(X):
            return self._map_rows(X, self._predict_numpy, self.classes_.dtype, None)
        return self._predict_numpy(X)

    def _predict_numpy(self, X):
        scores = self._decision_numpy(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]