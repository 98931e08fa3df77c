"""LS-SVM estimators that tune (gamma, sigma2) by exact closed-form cross-validation.

``LSSVMClassifierCV`` and ``LSSVMRegressorCV`` run one of the searches of
:mod:`lssvm.model_selection.search` with held-out outputs from :class:`lssvm.model_selection.closed_form.ClosedFormCV`
(identical to refitting every fold), then refit the best model on all the data, as
step (5) of the book's tuning algorithm ([S §3.4.2]) and scikit-learn's
``GridSearchCV(refit=True)`` do.
"""

from __future__ import annotations

import numbers
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import multiclass as mc
from .._base import (
    ACCEPT_SPARSE,
    KERNEL_CONSTRAINTS,
    SOLVER_CONSTRAINTS,
    LSSVMBase,
    NamedParameters,
)
from .._validation import positive_weight_rows
from .._docs import shared_parameters
from .._log import Progress
from .._validation import (
    GAMMA_MEANING,
    Boolean,
    Callable,
    Count,
    NoneValue,
    Options,
    PositiveList,
    RandomState,
    Splitter,
    check_classes,
    check_numeric_targets,
    validate_params,
)
from ..classifier import CLASSIFIER_CONSTRAINTS, LSSVMClassifier, has_probability
from ..kernels import Precomputed, fit_view
from ..regressor import LSSVMRegressor
from . import search as _search
from .closed_form import SCORINGS, STRATEGIES, make_folds

__all__ = ["LSSVMClassifierCV", "LSSVMRegressorCV", "SEARCHES"]

SEARCHES = ("grid", "shrinking", "random", "simplex")
#: Parameters shared with LSSVMClassifier/LSSVMRegressor that reach the refit as given
#: (fit_intercept also reaches the closed-form CV: it scores the same model).
SHARED_REFIT_PARAMS = ("solver", "tol", "fit_intercept", "n_jobs")


class _SearchData(NamedTuple):
    """The rows one search uses, passed as an argument (never stored on the estimator).

    ``X``, ``y``: those rows (the Gram matrix of those points with
    kernel="precomputed"); ``w``: their positive weights or None; ``rows``: their
    indices in the data as given; ``held_out``: the held-out index sets of an
    explicit ``cv``, on the data as given (None for an int or "loo");
    ``n_given``: the number of rows as given.
    """

    X: object
    y: np.ndarray
    w: np.ndarray | None
    rows: np.ndarray
    held_out: list | None
    n_given: int

    def subset(self, rows, precomputed):
        """The same search restricted to ``rows`` (positions in this one)."""
        X = self.X[np.ix_(rows, rows)] if precomputed else self.X[rows]
        w = None if self.w is None else self.w[rows]
        return self._replace(X=X, y=self.y[rows], w=w, rows=self.rows[rows])


@shared_parameters(LSSVMBase)
class _LSSVMCVBase(NamedParameters, BaseEstimator):
    """Shared parameters and fit of the tuned estimators.

    Parameters
    ----------
    gamma : list of float, optional
        Candidate regularization constants; default the book's Gamma_0.
    sigma2 : list of float, optional
        Candidate RBF widths sigma2; default the book's Sigma_0 sqrt(n) squared.
        Ignored (not searched) for the linear and polynomial kernels.
    kernel : {"rbf", "linear", "poly", "precomputed"}, Kernel or callable, \
default="rbf"
        As in :class:`LSSVMClassifier` and :class:`LSSVMRegressor`.
    degree : int, default=3
        Degree d of the polynomial kernel (x^T z + tau)^d.
    tau : float, default=1.0
        Offset of the polynomial kernel.
    cv : int, "loo" or scikit-learn splitter, default=10
        An int k gives k-fold CV without shuffling (scikit-learn's ``KFold``;
        ``StratifiedKFold`` for the classifier). Classifier: every class needs at
        least 2 members (else a ValueError names the class), and when the smallest
        class (within the rows of a bit, for per-bit tuning) has fewer than k
        members, the folds are capped at that count with a ``UserWarning``, so
        every fold holds a member of every class.
    search : {"grid", "shrinking", "random", "simplex"}, default="grid"
    scoring : str or callable, optional
        "accuracy" (classifier default), "neg_mean_squared_error" (regressor
        default), "r2", "roc_auc" (of the held-out latent outputs), "neg_log_loss"
        (of Platt probabilities fitted to the held-out latent outputs, as
        ``probability=True`` fits them to leave-one-out ones; see
        :func:`lssvm.model_selection.closed_form.score_latent`), or
        ``scoring(y_true, latent) -> float``, greater is better.
        Other scikit-learn scorer names and scorer objects are not accepted: they need a fitted
        estimator per fold, which the closed form never builds.
    n_refinements : int >= 0, default=3
        Local refinements of the shrinking grid (the book's i_max).
    n_iter : int >= 1, default=50
        Samples of the random search; simplex iterations of the simplex search.
    random_state : int, RandomState instance or None, default=0
        Seed of the random search (and, for the classifier, of the ECOC); None
        gives a different draw at each fit.
    strategy : {"auto", "eigen", "cholesky"}, default="auto"
        How the closed-form CV gets H^{-1} (see :mod:`lssvm.model_selection.closed_form`).
    verbose : int or bool, default=0
        An integer >= 0 (True counts as 1). If > 0, print progress to standard error: which bit (multiclass) and stage
        runs, a line per kernel matrix, and the total time after the refit.
    {shared: solver tol fit_intercept n_jobs}
        These four reach the refit as given; ``fit_intercept`` also reaches the
        closed-form CV, which then scores the model without bias [S 3.62].

    Notes
    -----
    The closed-form CV holds about four N x N matrices (kernel matrix,
    eigendecomposition); their bytes are compared with the available memory
    before anything is allocated (:class:`lssvm.linalg.memory.InsufficientMemoryError`).
    Its linear algebra runs with BLAS limited to
    ``lssvm.model_selection.search.SEARCH_BLAS_THREADS`` threads (see :mod:`lssvm.model_selection.search`).

    ``kernel="precomputed"`` takes the Gram matrix at fit (sigma2 is then not
    searched) and K(X_test, X_train) at predict; sparse CSR/CSC X is accepted for
    the linear, polynomial and RBF kernels. ``fit(X, y, sample_weight=w)`` tunes and
    refits the weighted LS-SVM (gamma w_k for sample k): the closed-form CV then
    uses the "cholesky" strategy (the eigendecomposition shortcut needs the same
    1/gamma on the whole diagonal), rows of weight 0 take no part in it, and the
    fold scores weight the held-out points (accuracy, MSE, r2; a callable scoring
    gets no weights), so integer weights tune as repeated rows would. An explicit
    ``cv`` (a splitter or a list of (train, test) on the rows as given) is split
    once on all the rows and restricted to the rows each search uses (positive
    weight; the two classes of a one-versus-one bit).

    Attributes
    ----------
    best_params_, best_score_, best_estimator_, cv_results_ :
        As in scikit-learn's ``GridSearchCV``; ``cv_results_`` also has ``stage``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.pairwise = isinstance(self.kernel, str) and (
            self.kernel == "precomputed"
        )
        return tags

    def _precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def _search_data(self, X, y, sample_weight, held_out):
        """The search's :class:`_SearchData`: rows of weight 0 dropped, as in fit."""
        if self._precomputed():
            X = fit_view(Precomputed(), X)[1].K  # checks that the Gram matrix is square
        keep, w = positive_weight_rows(sample_weight, X, owner=self)
        n = X.shape[0]
        data = _SearchData(X, y, None, np.arange(n), held_out, n)
        if keep is None:
            return data
        return data.subset(keep, self._precomputed())._replace(w=w)

    _estimator_class = None
    _default_scoring = None

    #: Allowed values of each parameter, checked once at the start of ``fit``.
    _parameter_constraints = {
        "gamma": [
            PositiveList(f"candidate values of the {GAMMA_MEANING}"), NoneValue()
        ],
        "sigma2": [
            PositiveList("candidate RBF widths sigma^2 of [S 3.13]"), NoneValue()
        ],
        "kernel": KERNEL_CONSTRAINTS["kernel"],
        "degree": KERNEL_CONSTRAINTS["degree"],
        "tau": KERNEL_CONSTRAINTS["tau"],
        "cv": [Count(2), Options(("loo",)), Splitter(), NoneValue()],
        "search": [Options(SEARCHES)],
        "scoring": [Options(SCORINGS), Callable(), NoneValue()],
        "n_refinements": [Count(0, "local refinements of the shrinking grid search")],
        "n_iter": [Count(1, "random samples or simplex iterations")],
        "random_state": [NoneValue(), RandomState()],
        "strategy": [Options(STRATEGIES)],
        "verbose": [
            Count(0, "0: silent, > 0: progress on standard error"), Boolean()
        ],
        **SOLVER_CONSTRAINTS,
    }

    def __init__(
        self,
        *,
        gamma=None,
        sigma2=None,
        kernel="rbf",
        degree=3,
        tau=1.0,
        cv=10,
        search="grid",
        scoring=None,
        n_refinements=3,
        n_iter=50,
        random_state=0,
        strategy="auto",
        verbose=0,
        solver="direct",
        tol=1e-10,
        fit_intercept=True,
        n_jobs=None,
    ):
        self.gamma = gamma
        self.sigma2 = sigma2
        self.kernel = kernel
        self.degree = degree
        self.tau = tau
        self.cv = cv
        self.search = search
        self.scoring = scoring
        self.n_refinements = n_refinements
        self.n_iter = n_iter
        self.random_state = random_state
        self.strategy = strategy
        self.verbose = verbose
        self.solver = solver
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.n_jobs = n_jobs

    def _candidates(self, name, default):
        """The candidate values of ``name`` (validated by the constraints table)."""
        values = default if getattr(self, name) is None else getattr(self, name)
        return [values] if np.ndim(values) == 0 else list(values)

    def _search_options(self, sample_weight, scoring=None):
        """The options every search of this estimator gets (the one list, so that a
        parameter such as ``fit_intercept`` reaches the grid, per-bit grid and the
        other strategies alike)."""
        return dict(
            kernel=self.kernel,
            degree=self.degree,
            tau=self.tau,
            scoring=scoring or self.scoring or self._default_scoring,
            strategy=self.strategy,
            verbose=self.verbose,
            sample_weight=sample_weight,
            fit_intercept=self.fit_intercept,
            owner=self,
        )

    def _search_one(self, X, Y, folds, gammas, sigma2s, sample_weight, scoring=None):
        """One search of :mod:`lssvm.model_selection.search` over (gamma, sigma2).

        The search checks the memory of the closed form (its N x N matrices) before
        it allocates; the message names this estimator.
        """
        common = self._search_options(sample_weight, scoring)
        search, extra = {
            "grid": (_search.grid_search, {}),
            "shrinking": (_search.shrinking_grid_search,
                          {"n_refinements": self.n_refinements}),
            "random": (_search.random_search,
                       {"n_iter": self.n_iter, "random_state": self.random_state}),
            "simplex": (_search.simplex_search, {"n_iter": self.n_iter}),
        }[self.search]  # fmt: skip
        return search(X, Y, folds, gammas=gammas, sigma2s=sigma2s, **extra, **common)

    def _grids(self, X):
        gammas = self._candidates("gamma", _search.GAMMA_0)
        sigma2s = self._candidates("sigma2", _search.initial_sigma2_grid(X.shape[1]))
        return gammas, sigma2s

    @staticmethod
    def _params_of(result):
        params = dict(result.best_params)
        if params["sigma2"] is None:  # non-RBF kernels: not searched
            del params["sigma2"]
        return params

    def _split_once(self, X, y, classifier):
        """Explicit splits (a splitter or a list of (train, test)) on the data as given.

        Their indices refer to all the rows of X; the search uses subsets (rows of
        positive weight, the rows of a bit), so the held-out sets are taken here
        once and restricted to each subset by :meth:`_folds`. None for an int or
        "loo" (folds made on each subset).
        """
        cv = self.cv
        explicit = not (
            cv is None
            or (isinstance(cv, numbers.Integral) and not isinstance(cv, bool))
            or (isinstance(cv, str) and cv == "loo")
        )
        return make_folds(cv, X, y, classifier=classifier) if explicit else None

    def _folds(self, data, classifier):
        """The folds of the search over ``data`` (a :class:`_SearchData`).

        Explicit splits: the held-out sets of :meth:`_split_once` restricted to the
        rows used, empty ones dropped. Otherwise make_folds(cv), an int cv capped at
        the smallest class for classifiers.
        """
        if data.held_out is not None:
            position = np.full(data.n_given, -1)
            position[data.rows] = np.arange(len(data.rows))
            folds = [position[V] for V in data.held_out]
            return [V[V >= 0] for V in folds if np.any(V >= 0)]
        X, y = data.X, data.y
        cv = self.cv
        if classifier and isinstance(cv, numbers.Integral) and not isinstance(
            cv, bool
        ):
            labels, counts = np.unique(y, return_counts=True)
            smallest = int(counts.min())
            label = labels[int(np.argmin(counts))]
            label = label.item() if hasattr(label, "item") else label  # to print
            if smallest < 2:
                raise ValueError(
                    f"{type(self).__name__}: stratified {cv}-fold cross-validation "
                    f"needs at least 2 members in every class; class {label!r} has "
                    f"{smallest}. Remove it, or pass cv as a splitter."
                )
            if cv > smallest:
                warnings.warn(
                    f"{type(self).__name__}: cv={cv}, but class {label!r} has only "
                    f"{smallest} members; using {smallest} stratified folds.",
                    UserWarning,
                    stacklevel=4,
                )
                cv = smallest
        return make_folds(cv, X, y, classifier=classifier)

    def _refit(self, X, y, sample_weight, log):
        """Step (5): the best model on all the data (X as given: feature names)."""
        log("refit on all the data", timed=False)
        self.best_estimator_.fit(X, y, sample_weight=sample_weight)
        log(f"done in {log.elapsed:.1f} s", timed=False)

    def _start(self):
        """Validate the parameters (once) and open the fit's progress printer."""
        validate_params(self)
        return Progress("tune", int(self.verbose))

    def _tune(self, data, Y, classifier, scoring=None, **fixed):
        gammas, sigma2s = self._grids(data.X)
        folds = self._folds(data, classifier)
        result = self._search_one(
            data.X, Y, folds, gammas, sigma2s, data.w, scoring=scoring
        )
        self.best_params_ = self._params_of(result)
        self.best_score_ = result.best_score
        self.cv_results_ = result.cv_results
        self.n_splits_ = len(folds)
        self.best_estimator_ = self._estimator_class(
            kernel=self.kernel, degree=self.degree, tau=self.tau, **fixed,
            **self._shared_params(), **self.best_params_,
        )  # fmt: skip

    def _shared_params(self):
        """The parameters of :class:`lssvm._base.LSSVMBase` that the refit takes as given."""
        return {name: getattr(self, name) for name in SHARED_REFIT_PARAMS}

    def _delegate(self, X):
        """``best_estimator_``, after checking X's features against this estimator."""
        check_is_fitted(self, "best_estimator_")
        shape = getattr(X, "shape", None)
        if (shape is not None and len(shape) == 2) or (
            isinstance(X, (list, tuple)) and len(X) and isinstance(X[0], (list, tuple))
        ):  # the delegate explains other shapes ("Reshape your data")
            validate_data(self, X, reset=False, skip_check_array=True)  # this class
        return self.best_estimator_


@shared_parameters(_LSSVMCVBase)
class LSSVMClassifierCV(ClassifierMixin, _LSSVMCVBase):
    """LS-SVM classifier with (gamma, sigma2) tuned by closed-form CV.

    Two classes: one search. More classes, ``per_bit=True`` (default): the output
    code's bits are tuned one by one, each on its own binary problem (its rows, its
    +-1 or Fisher targets, its CV accuracy), as [S 3.13] advises; the refit classifier
    gets the winners as ``bit_params``. Bits that share their rows (every code but
    one-versus-one) share the folds, and with ``search="grid"`` also each kernel
    matrix and its eigendecomposition. ``per_bit=False``: one (gamma, sigma2) for
    all bits, chosen by the CV accuracy of the decoded classes; this needs every
    bit's held-out output on every point, so codes with zeros (one-versus-one) are
    refused (use scikit-learn's ``GridSearchCV`` on :class:`LSSVMClassifier`).

    Parameters
    ----------
    {shared: gamma sigma2 kernel degree tau cv search scoring n_refinements n_iter}
    {shared: random_state strategy verbose solver tol fit_intercept n_jobs}
    coding, decoding, targets
        As in :class:`LSSVMClassifier`; ``random_state`` also seeds the ECOC.
    per_bit : bool, default=True
        Tune each bit separately (more than two classes).
    probability : {False, True, "bayes"}, default=False
        Passed to the refit :class:`LSSVMClassifier`: enables ``predict_proba``
        (Platt's sigmoid on its exact leave-one-out outputs, or the moderated
        output); see there.

    Attributes
    ----------
    best_params_ : dict
        Two classes: ``{"gamma", "sigma2"}``. More classes: ``{"bit_params": [one
        dict per bit]}``.
    best_score_ : float
        Mean CV score of the best point; more classes: the mean over bits of each
        bit's best binary CV score.
    cv_results_ : dict, or list of dict (one per bit) for more than two classes

    Examples
    --------
    >>> from lssvm import LSSVMClassifierCV
    >>> from lssvm.datasets import load_ripley
    >>> X, y = load_ripley("train")
    >>> clf = LSSVMClassifierCV(search="shrinking").fit(X, y)
    >>> sorted(clf.best_params_)
    ['gamma', 'sigma2']
    """

    _estimator_class = LSSVMClassifier
    _default_scoring = "accuracy"
    _parameter_constraints = {
        **_LSSVMCVBase._parameter_constraints,
        **{k: v for k, v in CLASSIFIER_CONSTRAINTS.items() if k != "random_state"},
        "per_bit": [Boolean("tune each bit separately")],
    }

    def __init__(
        self,
        *,
        gamma=None,
        sigma2=None,
        kernel="rbf",
        degree=3,
        tau=1.0,
        cv=10,
        search="grid",
        scoring=None,
        n_refinements=3,
        n_iter=50,
        random_state=0,
        strategy="auto",
        verbose=0,
        solver="direct",
        tol=1e-10,
        fit_intercept=True,
        n_jobs=None,
        coding="ovo",
        decoding="hamming",
        targets="pm1",
        per_bit=True,
        probability=False,
    ):
        super().__init__(
            gamma=gamma, sigma2=sigma2, kernel=kernel, degree=degree, tau=tau, cv=cv,
            search=search, scoring=scoring, n_refinements=n_refinements,
            n_iter=n_iter, random_state=random_state, strategy=strategy,
            verbose=verbose, solver=solver, tol=tol, fit_intercept=fit_intercept,
            n_jobs=n_jobs,
        )  # fmt: skip
        self.coding = coding
        self.decoding = decoding
        self.targets = targets
        self.per_bit = per_bit
        self.probability = probability

    def fit(self, X, y, sample_weight=None):
        """Tune on (X, y), then refit the best LSSVMClassifier on all of it.

        ``sample_weight``: see the class docstring (weighted LS-SVM).
        """
        log = self._start()
        X_given = X
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=ACCEPT_SPARSE)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        check_classes(self.classes_.tolist(), owner=self)
        held_out = self._split_once(X, y, classifier=True)
        data = self._search_data(X, y, sample_weight, held_out)
        missing = np.setdiff1d(self.classes_, data.y)
        if len(missing):
            raise ValueError(
                f"{type(self).__name__}: sample_weight is 0 for every sample of "
                f"class(es) {missing.tolist()}; each of the classes "
                f"{self.classes_.tolist()} needs a sample of positive weight."
            )
        index = np.searchsorted(self.classes_, data.y)
        C = mc.codebook(len(self.classes_), self.coding, random_state=self.random_state)
        Y = mc.encode(index, C).astype(np.float64)
        T = mc.bit_targets(Y, self.targets)
        fixed = dict(
            coding=self.coding, decoding=self.decoding, targets=self.targets,
            random_state=self.random_state, probability=self.probability,
        )  # fmt: skip
        if C.shape[1] == 1:  # two classes, one bit: the binary LS-SVM
            self._tune(data, T[:, 0], classifier=True, **fixed)
        elif self.per_bit:
            self._tune_bits(data, Y, T, fixed, log)
        else:
            self._tune_shared(data, C, T, fixed)
        self._refit(X_given, y, sample_weight, log)
        return self

    def _tune_bits(self, data, Y, T, fixed, log):
        """One search per bit; bits on the same rows share folds (and grids)."""
        gammas, sigma2s = self._grids(data.X)
        groups: dict = {}
        for j in range(Y.shape[1]):
            groups.setdefault((Y[:, j] != 0).tobytes(), []).append(j)
        results = [None] * Y.shape[1]
        n_splits = []
        for bits in groups.values():
            rows = np.flatnonzero(Y[:, bits[0]])
            bit = data.subset(rows, self._precomputed())  # the bit's rows and weights
            Tr = T[np.ix_(rows, bits)]
            folds = self._folds(bit, classifier=True)
            n_splits.append(len(folds))
            log(
                f"bit{'s' if len(bits) > 1 else ''} "
                f"{', '.join(str(j + 1) for j in bits)} of {Y.shape[1]} "
                f"(classes {np.unique(bit.y).tolist()}, {len(rows)} rows, "
                f"{len(folds)} folds), {log.elapsed:.1f} s",
                timed=False,
            )
            if self.search == "grid":
                found = _search.per_bit_grid_search(
                    bit.X, Tr, folds, gammas=gammas, sigma2s=sigma2s,
                    **self._search_options(bit.w),
                )  # fmt: skip
            else:
                found = []
                for i, j in enumerate(bits):
                    if len(bits) > 1:
                        log(
                            f"bit {j + 1} of {Y.shape[1]}: search {self.search!r}",
                            timed=False,
                        )
                    found.append(
                        self._search_one(bit.X, Tr[:, i], folds, gammas, sigma2s, bit.w)
                    )
            for j, result in zip(bits, found):
                results[j] = result
        bit_params = [self._params_of(r) for r in results]
        self.best_params_ = {"bit_params": bit_params}
        self.best_score_ = float(np.mean([r.best_score for r in results]))
        self.cv_results_ = [r.cv_results for r in results]
        self.n_splits_ = int(max(n_splits))
        self.best_estimator_ = LSSVMClassifier(
            kernel=self.kernel, degree=self.degree, tau=self.tau,
            bit_params=bit_params, **self._shared_params(), **fixed,
        )  # fmt: skip

    def _tune_shared(self, data, C, T, fixed):
        """One (gamma, sigma2) for every bit, by the CV accuracy of decoded classes."""
        if np.any(C == 0):
            raise ValueError(
                f"{type(self).__name__}: per_bit=False needs a code without zeros "
                f"(coding 'ova', 'moc' or 'ecoc'); got coding={self.coding!r}. "
                "The decoded CV accuracy needs every bit's held-out output on every "
                "point, which a bit trained on two classes does not give."
            )
        decoding = self.decoding
        # target of each class on each bit (+-1, or LS-SVM_F's), for loss decoding
        code_targets = mc.code_targets(np.searchsorted(self.classes_, data.y), T)

        def decoded_accuracy(codes_true, latent):
            truth = mc.decode(codes_true, C)  # signs are the codeword: distance 0
            return float(np.mean(mc.decode(latent, C, decoding, code_targets) == truth))

        self._tune(data, T, classifier=True, scoring=self.scoring or decoded_accuracy,
                   **fixed)  # fmt: skip

    def decision_function(self, X):
        return self._delegate(X).decision_function(X)

    def predict(self, X):
        return self._delegate(X).predict(X)

    @available_if(has_probability)
    def predict_proba(self, X):
        """Class probabilities of the refit classifier (needs ``probability``)."""
        return self._delegate(X).predict_proba(X)

    @available_if(has_probability)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        return self._delegate(X).predict_log_proba(X)


@shared_parameters(_LSSVMCVBase)
class LSSVMRegressorCV(RegressorMixin, _LSSVMCVBase):
    """LS-SVM regression with (gamma, sigma2) tuned by closed-form CV (MSE by default).

    ``predict(X, return_std=True)`` gives the Gaussian-process error bars of the
    refit :class:`LSSVMRegressor`, in the units of y (see there).

    Parameters
    ----------
    {shared: gamma sigma2 kernel degree tau cv search scoring n_refinements n_iter}
    {shared: random_state strategy verbose solver tol fit_intercept n_jobs}

    Attributes
    ----------
    best_params_ : dict
        ``{"gamma", "sigma2"}`` (no sigma2 for the linear and polynomial kernels).
    best_score_ : float
        Mean CV score of the best point.
    best_estimator_ : LSSVMRegressor
        Refit on all the data; ``noise_variance_`` and ``signal_variance_`` are its.
    cv_results_ : dict

    Examples
    --------
    >>> from lssvm import LSSVMRegressorCV
    >>> from lssvm.datasets import sinc
    >>> X, y = sinc(100, noise=0.1)
    >>> reg = LSSVMRegressorCV(gamma=[1, 10, 100], sigma2=[0.5, 1, 5]).fit(X, y)
    >>> reg.cv_results_["mean_test_score"].shape
    (9,)
    """

    _estimator_class = LSSVMRegressor
    _default_scoring = "neg_mean_squared_error"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True  # Y of shape (n, m), as LSSVMRegressor
        return tags

    def fit(self, X, y, sample_weight=None):
        """Tune on (X, y), then refit the best LSSVMRegressor on all of it.

        A 2-D y (several outputs) is tuned for one (gamma, sigma2) shared by the
        outputs, the score being the mean over outputs, as ``LSSVMRegressor``
        fits them with one factorisation. ``sample_weight``: see the class
        docstring (weighted LS-SVM).
        """
        log = self._start()
        X_given = X
        X, y = validate_data(
            self, X, y, y_numeric=True, multi_output=True, dtype=np.float64,
            accept_sparse=ACCEPT_SPARSE,
        )  # fmt: skip
        y = check_numeric_targets(y, owner=self)
        held_out = self._split_once(X, y, classifier=False)
        data = self._search_data(X, y, sample_weight, held_out)
        self._tune(data, data.y, classifier=False)
        self._refit(X_given, y, sample_weight, log)
        return self

    def predict(self, X, return_std=False):
        """Predict with ``best_estimator_``; ``return_std``: its GP error bars.

        See :meth:`lssvm.LSSVMRegressor.predict`: the standard deviation is in the
        units of y, and a new observation adds ``best_estimator_.noise_variance_``.
        """
        return self._delegate(X).predict(X, return_std=return_std)
