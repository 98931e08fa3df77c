r"""Hyper-parameter search for (gamma, sigma2) on top of the closed-form CV.

- :func:`grid_search`: every (gamma, sigma2) pair of two lists; one kernel matrix
  (and, from a few gammas on, one eigendecomposition) per sigma2 serves all gammas.
- :func:`shrinking_grid_search`: the book's "LS-SVM tuning - grid search algorithm"
  ([S §3.4.2]): 10-fold CV over the initial grids
  :data:`SIGMA_0` :math:`\times \sqrt{n}` (values of sigma, so sigma2 = sigma^2) and
  :data:`GAMMA_0`, then ``n_refinements`` (the book's i_max = 3) local refinements
  around the best point. The book does not say how the refined grids are built; ours
  is stated in the function's docstring.
- :func:`random_search`: log-uniform samples in the box of the initial grids.
- :func:`simplex_search`: Nelder-Mead on (log10 gamma, log10 sigma2), started from
  the best point of a grid, as LS-SVMlab refines its tuning with a simplex.

Scores follow scikit-learn: greater is better; the mean over folds is maximised,
ties going to the first point evaluated. Results come as ``cv_results`` dicts in
scikit-learn's format (``params``, ``param_gamma``, ``param_sigma2``,
``mean_test_score``, ``std_test_score``, ``rank_test_score``, ``split<i>_test_score``)
plus ``stage`` (0 for the initial grid, i for the i-th refinement).

BLAS threads: a search runs many small products (per gamma and fold) and one
eigendecomposition per kernel matrix. With several BLAS threads these thin products
spend their time waking and synchronising the threads, and when another process
keeps a core busy OpenBLAS's spinning threads collapse: each synchronisation waits
for a thread that is not running, so the search can take several times as long as
with one thread, while one thread gives up only the parallel part of the
eigendecompositions. Every search therefore runs with the BLAS libraries of numpy
and scipy limited to :data:`SEARCH_BLAS_THREADS` threads (one; threadpoolctl,
restored afterwards); set it to None to keep the process's setting.
``benchmarks/bench_blas_threads.py`` measures both settings, on an idle machine and
beside one busy process; the figures, with their machines, are in
``benchmarks/README.md``.

Memory: the closed form holds about four N x N matrices (the kernel matrix and its
eigendecomposition); their bytes are compared with the available memory before
anything is allocated (:class:`lssvm.linalg.memory.InsufficientMemoryError`).

Source: Suykens et al. (2002), ch. 3, [S §3.4.2].
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize

from .._log import Progress
from .._validation import positive_weight_rows
from ..kernels import Precomputed, blas_controller, make_kernel
from ..linalg.memory import check_dense_memory
from .closed_form import ClosedFormCV, restrict_folds, score_latent

__all__ = [
    "GAMMA_0",
    "SIGMA_0",
    "initial_sigma2_grid",
    "SearchResult",
    "grid_search",
    "per_bit_grid_search",
    "shrinking_grid_search",
    "random_search",
    "simplex_search",
    "SEARCH_BLAS_THREADS",
]

# BLAS threads during a search (module docstring); None: leave the setting alone.
# One: most of a search's BLAS calls are small per-gamma and per-fold products, for
# which a second thread saves little even on an idle machine, and with one thread no
# call waits for a descheduled sibling. Chosen by benchmarks/bench_blas_threads.py
# (its runs are in benchmarks/README.md; it writes no results file).
SEARCH_BLAS_THREADS = 1
# N x N matrices the closed-form CV holds at its peak (K, sytrd, eigenvectors, kept U)
_CV_MATRICES = 4

# [S §3.4.2]: initial candidate sets of the shrinking grid search.
GAMMA_0 = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 50.0, 100.0, 500.0, 1000.0)
SIGMA_0 = (0.5, 5.0, 10.0, 15.0, 25.0, 50.0, 100.0, 250.0, 500.0)  # times sqrt(n)


def initial_sigma2_grid(n_features: int) -> tuple[float, ...]:
    """sigma2 = (sigma sqrt(n))^2 for sigma in SIGMA_0: the book's Sigma_0 as widths."""
    return tuple(float(s * s * n_features) for s in SIGMA_0)  # exact: 15^2 2 = 450


@dataclass
class SearchResult:
    """Every evaluation made, in order; the best is the first with the top mean score.

    Within one grid, records are in scikit-learn's ``ParameterGrid`` order (gamma
    outer, sigma2 inner), so ties are broken as ``GridSearchCV`` breaks them.
    """

    records: list = field(default_factory=list)  # (stage, gamma, sigma2, fold scores)

    def _best_index(self):
        return int(np.argmax([np.mean(r[3]) for r in self.records]))

    @property
    def best_params(self) -> dict:
        _, gamma, sigma2, _ = self.records[self._best_index()]
        return {"gamma": gamma, "sigma2": sigma2}

    @property
    def best_score(self) -> float:
        return float(np.mean(self.records[self._best_index()][3]))

    @property
    def cv_results(self) -> dict:
        """The evaluations in scikit-learn's ``cv_results_`` format."""
        scores = np.array([r[3] for r in self.records])  # (n_points, n_folds)
        mean = scores.mean(axis=1)
        order = np.argsort(-mean, kind="stable")
        rank = np.empty(len(mean), dtype=np.int32)
        rank[order] = np.arange(1, len(mean) + 1)
        # equal means share the best rank among them, as in scikit-learn
        for i in range(1, len(order)):
            if mean[order[i]] == mean[order[i - 1]]:
                rank[order[i]] = rank[order[i - 1]]
        results = {
            "params": [{"gamma": r[1], "sigma2": r[2]} for r in self.records],
            "param_gamma": np.array([r[1] for r in self.records]),
            "param_sigma2": np.array([r[2] for r in self.records], dtype=float),
            "stage": np.array([r[0] for r in self.records]),
            "mean_test_score": mean,
            "std_test_score": scores.std(axis=1),
            "rank_test_score": rank,
        }
        for i in range(scores.shape[1]):
            results[f"split{i}_test_score"] = scores[:, i]
        return results


class _Evaluator:
    """CV scores of (gamma, sigma2) pairs: one kernel matrix per sigma2."""

    def __init__(
        self, X, Y, folds, *, kernel="rbf", degree=3, tau=1.0, scoring="accuracy",
        strategy="auto", verbose=0, per_column=False, sample_weight=None,
        fit_intercept=True, owner=None, name="search",
    ):  # fmt: skip
        owner = name if owner is None else owner  # the search function by default
        # The one memory check of the closed-form CV (the searches and the CV
        # estimators, which pass themselves as ``owner`` for the message).
        check_dense_memory(
            X.shape[0], n_matrices=_CV_MATRICES, what="closed-form cross-validation",
            alternative="tune on a subsample, or use GridSearchCV on LSSVMClassifier"
            ' / LSSVMRegressor with solver="cg"', owner=owner,
        )  # fmt: skip
        # The package's one check-and-drop of the weights (as the estimators' fit):
        # a weight 0 is an infinite diagonal entry 1/(gamma w_k), no row at all.
        keep, sample_weight = positive_weight_rows(sample_weight, X, owner=owner)
        if keep is not None and len(keep) < X.shape[0]:
            precomputed = isinstance(kernel, Precomputed) or (
                isinstance(kernel, str) and kernel == "precomputed"
            )
            folds = restrict_folds(folds, keep, X.shape[0])
            X = X[np.ix_(keep, keep)] if precomputed else X[keep]
            Y = Y[keep]
        self.X, self.Y, self.folds = X, Y, folds
        self.sample_weight = sample_weight  # weighted LS-SVM and weighted scores
        self.fit_intercept = fit_intercept  # the bias of [S 3.24], or none [S 3.62]
        self.kernel, self.degree, self.tau = kernel, degree, tau
        self.scoring, self.strategy, self.verbose = scoring, strategy, verbose
        # per_column: one SearchResult per column of Y (per-bit tuning), else one
        self.per_column = per_column
        n_results = Y.shape[1] if per_column else 1
        self.results = [SearchResult() for _ in range(n_results)]
        self.result = self.results[0]
        self._log = Progress("search", verbose)

    def _weights(self, V):
        return None if self.sample_weight is None else self.sample_weight[V]

    def _scores(self, latent):
        """Fold scores, one list per result (per column of Y when per_column)."""
        if not self.per_column:
            return [
                [
                    score_latent(self.scoring, self.Y[V], f, self._weights(V))
                    for V, f in zip(self.folds, latent)
                ]
            ]
        return [
            [
                score_latent(self.scoring, self.Y[V, c], f[:, c], self._weights(V))
                for V, f in zip(self.folds, latent)
            ]
            for c in range(self.Y.shape[1])
        ]

    def grid(self, gammas, sigma2s, stage=0):
        """Evaluate ``gammas x sigma2s`` with BLAS at SEARCH_BLAS_THREADS threads."""
        if SEARCH_BLAS_THREADS is None:
            return self._grid(gammas, sigma2s, stage)
        with blas_controller().limit(limits=SEARCH_BLAS_THREADS):
            return self._grid(gammas, sigma2s, stage)

    def _grid(self, gammas, sigma2s, stage):
        sigma2s = [float(s) for s in sigma2s] if self.kernel == "rbf" else [None]
        gammas = [float(g) for g in gammas]
        stage_records = {}
        for j, sigma2 in enumerate(sigma2s):
            kernel = make_kernel(
                self.kernel,
                sigma2=1.0 if sigma2 is None else sigma2,
                degree=self.degree,
                tau=self.tau,
            )
            cv = ClosedFormCV(
                kernel(self.X),
                self.Y,
                self.folds,
                strategy=self.strategy,
                n_gammas=len(gammas),
                sample_weight=self.sample_weight,
                fit_intercept=self.fit_intercept,
            )
            for i, gamma in enumerate(gammas):
                stage_records[i, j] = (
                    stage,
                    gamma,
                    sigma2,
                    self._scores(cv.latent(gamma)),
                )
            self._progress(stage, j + 1, len(sigma2s), len(stage_records))
        # ParameterGrid order: gamma outer, sigma2 inner
        for key in sorted(stage_records):
            stage, gamma, sigma2, scores = stage_records[key]
            for result, column_scores in zip(self.results, scores):
                result.records.append((stage, gamma, sigma2, column_scores))
        return self.result

    def _progress(self, stage, done, total, n_new):
        self._log(
            f"stage {stage}: kernel matrix {done}/{total}, "
            f"{len(self.result.records) + n_new} points done"
        )


def grid_search(
    X,
    Y,
    folds,
    *,
    gammas,
    sigma2s,
    **options,
) -> SearchResult:
    """CV score of every (gamma, sigma2) in ``gammas x sigma2s``.

    ``Y``: +-1 codes (classification) or targets; ``folds`` from
    :func:`lssvm.model_selection.closed_form.make_folds`. Keyword ``options``, shared by every search:
    ``kernel`` ("rbf"; for other kernels sigma2 is not searched), ``degree``, ``tau``,
    ``scoring`` ("accuracy", see :func:`lssvm.model_selection.closed_form.score_latent`), ``strategy``
    ("auto", see :class:`lssvm.model_selection.closed_form.ClosedFormCV`), ``verbose`` (0; if > 0, a
    progress line per kernel matrix on standard error), ``sample_weight`` (None;
    weights >= 0 of the weighted LS-SVM; they also weight the held-out points of
    the named scores, see :func:`lssvm.model_selection.closed_form.score_latent`; a
    weight 0 leaves its row out exactly, as the estimators' ``fit`` does, and the
    folds are restricted to the other rows, empty ones dropped; negative or NaN
    weights raise a ValueError naming ``sample_weight``) and
    ``fit_intercept`` (True; False scores the model without bias, [S 3.62]) and
    ``owner`` (None: the search function's name; the estimator or name that
    errors name).
    """
    ev = _Evaluator(X, Y, folds, name="grid_search", **options)
    return ev.grid(gammas, sigma2s)


def per_bit_grid_search(
    X,
    Y,
    folds,
    *,
    gammas,
    sigma2s,
    **options,
) -> list[SearchResult]:
    """One grid search per column of ``Y`` (e.g. the +-1 bits of an output code).

    All columns share the training rows, so they share each kernel matrix and its
    eigendecomposition; each column gets its own best (gamma, sigma2), as [S 3.13]
    recommends for the binary sub-problems of a multiclass LS-SVM. Bits that use
    different rows (one-vs-one) need one call per set of rows.
    """
    Y = np.asarray(Y, dtype=np.float64).reshape(len(Y), -1)
    ev = _Evaluator(
        X, Y, folds, per_column=True, name="per_bit_grid_search", **options
    )
    ev.grid(gammas, sigma2s)
    return ev.results


def _refine(values, best, n_points):
    """A grid of n_points in log10 around ``best``, spanning its neighbours' gaps."""
    logs = np.log10(np.sort(np.unique(values)))
    i = int(np.argmin(np.abs(logs - np.log10(best))))
    gaps = [logs[i] - logs[i - 1]] if i > 0 else []
    gaps += [logs[i + 1] - logs[i]] if i < len(logs) - 1 else []
    step = float(np.mean(gaps)) if gaps else 1.0
    return 10.0 ** (np.log10(best) + np.linspace(-step, step, n_points))


def shrinking_grid_search(
    X,
    Y,
    folds,
    *,
    gammas=GAMMA_0,
    sigma2s=None,
    n_refinements=3,
    n_points=5,
    **options,
) -> SearchResult:
    """The book's shrinking grid search ([S §3.4.2], i_max = ``n_refinements``).

    Stage 0 evaluates ``gammas x sigma2s`` (default: Gamma_0 and Sigma_0 sqrt(n)
    squared). Each refinement builds, around the current best point and separately in
    log10 gamma and log10 sigma2, ``n_points`` equally spaced values spanning from the
    best value's lower to its upper neighbour in the previous grid (one mean gap on
    each side), so the spacing halves at every stage for ``n_points=5``.
    """
    sigma2s = initial_sigma2_grid(X.shape[1]) if sigma2s is None else sigma2s
    ev = _Evaluator(X, Y, folds, name="shrinking_grid_search", **options)
    ev.grid(gammas, sigma2s, stage=0)
    for stage in range(1, n_refinements + 1):
        best = ev.result.best_params
        gammas = _refine(gammas, best["gamma"], n_points)
        if ev.kernel == "rbf":
            sigma2s = _refine(sigma2s, best["sigma2"], n_points)
        ev.grid(gammas, sigma2s, stage=stage)
    return ev.result


def random_search(
    X,
    Y,
    folds,
    *,
    gammas=GAMMA_0,
    sigma2s=None,
    n_iter=50,
    random_state=0,
    **options,
) -> SearchResult:
    """``n_iter`` log-uniform (gamma, sigma2) samples in the box of the grids."""
    sigma2s = initial_sigma2_grid(X.shape[1]) if sigma2s is None else sigma2s
    rng = np.random.default_rng(random_state)
    log_g = rng.uniform(np.log10(min(gammas)), np.log10(max(gammas)), n_iter)
    log_s = rng.uniform(np.log10(min(sigma2s)), np.log10(max(sigma2s)), n_iter)
    ev = _Evaluator(X, Y, folds, name="random_search", **options)
    for g, s in zip(10.0**log_g, 10.0**log_s):
        ev.grid([g], [s])
    return ev.result


def simplex_search(
    X,
    Y,
    folds,
    *,
    gammas=GAMMA_0,
    sigma2s=None,
    n_iter=100,
    **options,
) -> SearchResult:
    """Grid search, then Nelder-Mead on (log10 gamma, log10 sigma2) from its best point.

    At most ``n_iter`` simplex iterations; the simplex stops when its points agree to
    0.01 in log10. CV accuracy is piecewise constant, so the simplex mostly helps
    smooth scores (MSE); the grid's best point is kept if the simplex finds nothing
    better.
    """
    sigma2s = initial_sigma2_grid(X.shape[1]) if sigma2s is None else sigma2s
    ev = _Evaluator(X, Y, folds, name="simplex_search", **options)
    ev.grid(gammas, sigma2s, stage=0)
    best = ev.result.best_params
    rbf = ev.kernel == "rbf"
    start = [np.log10(best["gamma"])] + ([np.log10(best["sigma2"])] if rbf else [])

    def objective(z):
        g, s = 10.0 ** z[0], (10.0 ** z[1] if rbf else None)
        ev.grid([g], [s] if rbf else [None], stage=1)
        return -np.mean(ev.result.records[-1][3])

    minimize(
        objective,
        start,
        method="Nelder-Mead",
        options={"maxiter": n_iter, "xatol": 0.01, "fatol": 1e-12},
    )
    return ev.result
