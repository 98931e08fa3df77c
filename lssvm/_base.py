"""What the LS-SVM estimators share: hyper-parameters, the KKT solve, the dual model.

The classifier [S 3.5-3.7] and the function estimator [S 3.32-3.34] differ only in
the border vector ``a``, the right-hand side ``d`` and the signs of Omega; both
hand their system to :func:`lssvm.linalg.solvers.solve_bordered_kkt`, through
:meth:`LSSVMBase._solve_kkt`, which drops the border (and b) when
``fit_intercept=False`` ([S 3.62], the system of regularization networks [S 3.50] and
Gaussian processes [S 3.63]) and then calls :func:`solve_kkt_default` (the direct
solver or matrix-free CG) or the solver :func:`fit_with_kkt_solver` handed the fit.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import scipy.sparse as sp
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import (
    ESTIMATOR_SOLVERS,
    GAMMA_MEANING,
    N_JOBS,
    Boolean,
    IntegerValued,
    KernelSpec,
    NonNegative,
    Options,
    Positive,
    PositiveArray,
    check_finite_output,
    check_kernel,
    owner_name,
    positive_weight_rows,
    validate_params,
)
from .kernels import CALLABLE_KERNEL_MATRICES, RBF, CallableKernel, fit_view
from .linalg import solvers
from .linalg.factor import NotPositiveDefiniteError, NumericalWarning
from .linalg.operators import KernelOperator, NystromPreconditioner
from .linalg.solvers import solve_bordered_kkt

# Rows of test inputs per block in predictions: keeps K(X_test, X_fit) blocks
# near 2**22 entries (8 x 2**22 bytes = 32 MiB).
_PREDICT_BLOCK_ENTRIES = 2**22
# Sparse formats accepted for X (linear, polynomial and RBF kernels).
ACCEPT_SPARSE = ("csr", "csc")

#: Constraints of the kernel parameters (every kernel estimator's table starts here);
#: checked whatever the kernel, as scikit-learn checks SVC's ``degree``.
KERNEL_CONSTRAINTS = {
    "kernel": [KernelSpec()],
    "sigma2": [Positive("RBF width sigma^2 of [S 3.13]"), PositiveArray()],
    "degree": [IntegerValued("degree d of (x^T z + tau)^d")],
    "tau": [NonNegative("offset of (x^T z + tau)^d")],
}
#: The parameters of every KKT solve (LSSVMBase and the tuned estimators' refit).
SOLVER_CONSTRAINTS = {
    "solver": [Options(ESTIMATOR_SOLVERS)],
    "tol": [Positive("CG tolerance on the relative residual")],
    "fit_intercept": [Boolean("fit the bias term b")],
    "n_jobs": N_JOBS,
}


def is_dask(a) -> bool:
    """True for a Dask array (any object of a dask.* module with chunks)."""
    return type(a).__module__.startswith("dask.") and hasattr(a, "chunks")


def resolve_sigma2(sigma2, X, kernel="rbf"):
    """``sigma2``, with "scale" replaced by n_features * X.var().

    The RBF width of scikit-learn's ``SVC(gamma="scale")`` (its gamma is 1/sigma2):
    the variance of all entries of X times the number of inputs. 1.0 when X is
    constant; ignored (returns 1.0) for ``kernel="precomputed"``.
    """
    if not (isinstance(sigma2, str) and sigma2 == "scale"):
        return sigma2
    if (isinstance(kernel, str) and kernel == "precomputed") or X is None:
        return 1.0 if X is not None else sigma2
    if sp.issparse(X):
        var = float(X.multiply(X).mean() - X.mean() ** 2)
    else:
        var = float(np.var(np.asarray(X, dtype=np.float64)))
    return X.shape[1] * var if var > 0.0 else 1.0


# Rows sampled (evenly spaced) to detect an RBF width that makes K numerically the
# identity (off-diagonal entries below _WIDTH_ZERO in at least _WIDTH_ALONE of the
# sampled rows: most points see no other) or numerically constant (all entries above
# 1 - _WIDTH_FLAT: squared distances below 1e-9 sigma2).
# The values are chosen, not measured: 200 rows keep the check O(200 N); an entry
# below 1e-12 counts as zero; "most points" is at least half of the sampled rows.
WIDTH_SAMPLE_ROWS = 200
_WIDTH_ZERO = 1e-12
_WIDTH_FLAT = 1e-9
_WIDTH_ALONE = 0.5


def degenerate_width(kernel, X) -> str | None:
    """Why sigma2 makes the RBF kernel matrix numerically I or all ones, else None.

    sigma2 far below the squared distances between the points gives K = I: every
    held-out output equals b. sigma2 far above them gives K = 1 1^T: the model is
    (numerically) constant. Checked on a sample of rows, O(s^2) for s <= 200.
    """
    if not isinstance(kernel, RBF) or X.shape[0] < 2:
        return None
    rows = np.unique(np.linspace(0, X.shape[0] - 1, WIDTH_SAMPLE_ROWS).astype(int))
    # each sampled row against every row (O(s N), in column blocks): its nearest
    # neighbour may be any training point, not only another sampled one
    Xs = X[rows]
    nearest = np.full(len(rows), -1.0)  # largest K(x_s, x_j), j != s
    smallest = np.inf  # smallest off-diagonal entry
    for c0 in range(0, X.shape[0], 8192):
        K = kernel(Xs, X[c0:c0 + 8192])
        own = (rows >= c0) & (rows < c0 + K.shape[1])
        K[np.flatnonzero(own), rows[own] - c0] = np.nan  # leave out the point itself
        nearest = np.fmax(nearest, np.nanmax(K, axis=1, initial=-1.0))
        smallest = min(smallest, float(np.nanmin(K, initial=np.inf)))
    alone = np.mean(nearest < _WIDTH_ZERO)
    if alone >= _WIDTH_ALONE:
        return (
            f"the identity for {100 * alone:.0f}% of the sampled rows: sigma2 is far "
            "below the squared distances between the points, so the model is b "
            "away from the training points (every test decision equal: the "
            "majority class)"
        )
    if smallest > 1.0 - _WIDTH_FLAT:
        return (
            "constant (all ones): sigma2 is far above the squared distances "
            "between the points, so the model is numerically flat"
        )
    return None


def warn_degenerate_width(kernel, X, *, owner):
    """NumericalWarning when sigma2 makes the RBF kernel matrix I or all ones."""
    what = degenerate_width(kernel, X)
    if what is None:
        return
    warnings.warn(
        f"{owner_name(owner)}: with {kernel!r} the kernel matrix is numerically "
        f"{what}. Choose sigma2 on the scale of the squared distances (or scale "
        "the inputs).",
        NumericalWarning,
        stacklevel=4,
    )


def fitted_kernel(estimator, X=None):
    """The kernel a fit of ``estimator`` (an :class:`LSSVMBase`) on X would use.

    Every parameter is validated first (the constraints table, as at the start of
    ``fit``), then the kernel is built with sigma2="scale" resolved on X. Pruning
    builds the kernel matrix of its first factor with it
    (the private ``lssvm.sparse._stage_factor``).
    """
    validate_params(estimator)
    return estimator._make_kernel(X)


def fit_with_kkt_solver(estimator, solve, X, y, **fit_params):
    """``estimator.fit(X, y, **fit_params)`` with ``solve`` in place of its KKT solve.

    ``solve(kernel, X, gamma, a, d, signs=None) -> KKTSolution`` solves [S 3.24] for
    the rows X; it may call :func:`solve_kkt_default` for the systems it does not
    cover. It receives the system the fit's rule gives: ``a=None`` for the model
    without bias (``fit_intercept=False``: no border, b = 0, [S 3.62]), so it
    never reads ``fit_intercept`` itself. This is the one hook through which a
    caller hands a fit a factor it already has (pruning passes its downdated
    Cholesky factor, the private ``lssvm.sparse._stage_factor``). ``solve`` is an
    argument of the fit (``LSSVMBase._fit(X, y, ..., kkt_solver=solve)``, the body
    of every ``fit``), never stored on the estimator: the fitted estimator is an
    ordinary one.
    Returns what ``fit`` returns.
    """
    return estimator._fit(X, y, **fit_params, kkt_solver=solve)


def solve_kkt_default(estimator, kernel, X, gamma, a, d, signs=None, *, on_dask=False):
    """Solve [S 3.24] with Omega = S K S for K = kernel(X, X), by ``estimator.solver``.

    The KKT solve of every LS-SVM fit unless :func:`fit_with_kkt_solver` hands the
    fit another. ``a=None`` solves the system without border,
    (Omega + I/gamma) alpha = d, [S 3.62], b = 0: the fit passes it for
    ``fit_intercept=False`` (:meth:`LSSVMBase._solve_kkt`). "direct": the lower
    triangle of K, factored in place. "cg": K as an operator, never stored, and a
    Nystrom preconditioner for K + I/gamma. ``on_dask``: the fit's X came as a Dask
    array (always CG, the kernel products on the current ``dask.distributed``
    client). ``estimator`` gives the parameters ``solver``, ``tol`` and ``n_jobs``
    and names the owner in errors and warnings.
    """
    n = X.shape[0]
    warn_degenerate_width(kernel, X, owner=estimator)
    if np.ndim(gamma):  # weighted: the preconditioner takes the mean diagonal
        shift = float(np.mean(1.0 / np.asarray(gamma)))
    else:
        shift = 1.0 / gamma
    if not on_dask and solvers.choose_method(estimator.solver, n) == "direct":
        # before the N x N matrix (two at the peak for a callable kernel's copy)
        solvers.check_direct_memory(
            n, owner=estimator,
            n_matrices=CALLABLE_KERNEL_MATRICES if isinstance(kernel, CallableKernel)
            else 1,
        )  # fmt: skip
        K = kernel.gram_lower(X)  # lower triangle only: all that Cholesky reads
        return solve_bordered_kkt(
            K, gamma, a, d, signs=signs, method="direct", overwrite=True
        )
    preconditioner = NystromPreconditioner(
        kernel, X, shift=shift, rank=solvers.preconditioner_rank(n)
    )
    if on_dask:  # the products on the current dask.distributed client
        from .linalg.dask_operators import DaskKernelOperator

        operator = DaskKernelOperator(kernel, X)
    else:
        operator = KernelOperator(
            kernel, X, n_jobs=effective_n_jobs(estimator.n_jobs)
        )
    return solve_bordered_kkt(
        operator, gamma, a, d, signs=signs, method="cg",
        tol=estimator.tol, preconditioner=preconditioner,
    )  # fmt: skip


class NamedParameters:
    """Mixin: a wrong constructor argument raises a TypeError naming the public class.

    Python's own message names the class that defines ``__init__`` (a private base,
    "LSSVMBase.__init__() got an unexpected keyword argument"); this one names the
    class constructed and lists its parameters. The ``__init__`` signature, which
    scikit-learn's ``get_params`` reads, is unchanged.
    """

    def __init_subclass__(cls, **kwargs):
        # inspect.signature(cls) must read __init__, not the generic __new__ below
        # (Python before 3.11.5 prefers __new__): scikit-learn's checks build
        # estimators from it. Each subclass gets its own __init__'s signature.
        super().__init_subclass__(**kwargs)
        init = inspect.signature(cls.__init__)
        cls.__signature__ = init.replace(parameters=list(init.parameters.values())[1:])

    def __new__(cls, *args, **kwargs):
        names = cls._get_param_names()
        unknown = sorted(set(kwargs) - set(names))
        if args or unknown:
            got = ", ".join(
                [repr(a) for a in args] + [f"{k}={kwargs[k]!r}" for k in unknown]
            )
            raise TypeError(
                f"{cls.__name__}: parameters must be passed by keyword, among "
                f"{names}; got {got}."
            )
        return super().__new__(cls)


class LSSVMBase(NamedParameters, BaseEstimator):
    """Hyper-parameters and fitted state common to the LS-SVM estimators.

    Parameters
    ----------
    gamma : float, default=1.0
        Regularization constant of [S 3.1]: the weight of the squared errors.
    kernel : {"rbf", "linear", "poly", "precomputed"}, Kernel or callable, \
default="rbf"
        Kernel function; a callable is used as ``kernel(X, Z)``. "precomputed": fit
        takes the Gram matrix K(X_train, X_train) as X, predict K(X_test, X_train)
        (as scikit-learn's SVC and KernelRidge); the fitted ``support_vectors_`` are
        then the indices of the training points, a column of shape (n, 1). The
        linear, polynomial and RBF kernels also accept scipy.sparse CSR/CSC input.
    sigma2 : float, array or "scale", default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13]; one value per input
        gives the ARD kernel. "scale": n_features * X.var() of the training X, the
        width of scikit-learn's ``SVC(gamma="scale")`` (whose gamma is 1/sigma2).
        A width far below the squared distances between the points (unscaled
        inputs, say) makes K numerically the identity: a
        :class:`lssvm.linalg.factor.NumericalWarning` says so at the fit.
    degree : int, default=3
        Degree d of the polynomial kernel (x^T z + tau)^d.
    tau : float, default=1.0
        Offset of the polynomial kernel.
    solver : {"direct", "cg", "auto"}, default="direct"
        How the KKT system [S 3.24] is solved.

        - "direct": build the lower triangle of the N x N Gram matrix and factor
          K + I/gamma once (Cholesky). Memory 8 N^2 bytes, time O(N^3).
        - "cg": the large-scale algorithm of [S §3.4.1], matrix-free: conjugate
          gradient on [S 3.25] with K recomputed in tiles at every product
          (:class:`lssvm.linalg.operators.KernelOperator`, memory O(N)), preconditioned by
          a Nystrom approximation of K + I/gamma with r = min(500, N // 2) random
          landmarks (:class:`lssvm.linalg.operators.NystromPreconditioner`,
          :func:`lssvm.linalg.solvers.preconditioner_rank`). Stops when the relative
          residual of each of the systems H eta = a, H nu = d is at most ``tol``.
        - "auto": "direct" when its N x N matrix takes at most half the memory
          available (:func:`lssvm.linalg.memory.available_memory`) and N <=
          ``lssvm.linalg.solvers.AUTO_DIRECT_MAX_N`` (15000, the speed crossover; assign
          the module constant to change it), "cg" otherwise
          (:func:`lssvm.linalg.solvers.choose_method`). N counts the rows of each system
          (for output codes, the rows a bit uses).

        The choice changes run time and memory, not results beyond ``tol``.
        Before "direct" allocates, the 8 N^2 bytes are compared with the memory
        available: :class:`lssvm.linalg.memory.InsufficientMemoryError` (a
        ``MemoryError`` and a ``ValueError``) names N, both sizes and suggests
        ``solver="cg"``.
    tol : float, default=1e-10
        CG tolerance on the relative residual (ignored by the direct solver).
        A :class:`~sklearn.exceptions.ConvergenceWarning` is issued if CG stops
        at its iteration limit (10 N) before reaching it.
    fit_intercept : bool, default=True
        Fit the bias term b (the border of [S 3.24]). False fits the model without
        bias, sum_k alpha_k K(x, x_k), by (Omega + I/gamma) alpha = d, [S 3.62]:
        the regularization network [S 3.50] and the Gaussian-process mean [S 3.63].
        Then ``b_ = 0`` and the constraint sum_k alpha_k = 0 [S 3.31] no longer holds.
    n_jobs : int or None, default=None
        Threads of the matrix-free kernel products of ``solver="cg"``
        (:class:`lssvm.linalg.operators.KernelOperator`); the result does not depend on
        it. None means 1 unless in a ``joblib.parallel_config`` context, -1 all
        CPUs, as in scikit-learn (:func:`joblib.effective_n_jobs`). The direct
        solver ignores it (its BLAS threads follow threadpoolctl / the
        ``OMP_NUM_THREADS`` environment).
    """

    def __init__(
        self,
        *,
        gamma=1.0,
        kernel="rbf",
        sigma2=1.0,
        degree=3,
        tau=1.0,
        solver="direct",
        tol=1e-10,
        fit_intercept=True,
        n_jobs=None,
    ):
        self.gamma = gamma
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.solver = solver
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.n_jobs = n_jobs

    #: Allowed values of each parameter, checked once at the start of ``fit`` by
    #: :func:`lssvm._validation.validate_params`.
    _parameter_constraints = {
        "gamma": [Positive(GAMMA_MEANING)],
        **KERNEL_CONSTRAINTS,
        "sigma2": [*KERNEL_CONSTRAINTS["sigma2"], Options(("scale",))],
        **SOLVER_CONSTRAINTS,
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # CSR/CSC through sparse products
        tags.input_tags.pairwise = isinstance(self.kernel, str) and (
            self.kernel == "precomputed"
        )
        return tags

    def _make_kernel(self, X=None):
        """The kernel of the (validated) parameters; sigma2="scale" resolved on X."""
        return check_kernel(
            self.kernel, sigma2=resolve_sigma2(self.sigma2, X, self.kernel),
            degree=self.degree, tau=self.tau, owner=self,
        )  # fmt: skip

    def _fit(self, X, y, sample_weight=None, *, kkt_solver=None):
        """The body of each subclass's ``fit`` (which calls it without
        ``kkt_solver``); ``kkt_solver`` replaces :func:`solve_kkt_default`
        (:func:`fit_with_kkt_solver`) and is passed down to every KKT solve of the
        fit (:meth:`_solve_kkt`), not stored on the estimator."""
        raise NotImplementedError(f"{type(self).__name__} defines no _fit.")

    def _solve_kkt(self, kernel, X, gamma, a, d, signs=None, *, kkt_solver=None):
        """A KKT solve of ``fit``: ``kkt_solver`` when given
        (:func:`fit_with_kkt_solver`), else :func:`solve_kkt_default`.

        The one place of the rule for ``fit_intercept=False``: both solvers get
        ``a=None`` then. Called after :meth:`_from_dask` (which sets ``_on_dask``).
        """
        if not self.fit_intercept:
            a = None  # [S 3.62]: no border, no b
        if kkt_solver is not None:
            return kkt_solver(kernel, X, gamma, a, d, signs=signs)
        return solve_kkt_default(
            self, kernel, X, gamma, a, d, signs=signs, on_dask=self._on_dask
        )

    def _from_dask(self, X, y):
        """X, y as numpy arrays; remember whether X came as a Dask array.

        A Dask X sends the kernel products of CG to the current ``dask.distributed``
        client (:class:`lssvm.linalg.dask_operators.DaskKernelOperator`): X (N x d, small
        next to the N^2 / 2 kernel values of each product) is gathered once here for
        the checks, the preconditioner and ``support_vectors_``, then scattered in
        row blocks that stay on the workers for the whole CG run.
        """
        self._on_dask = is_dask(X)
        if not self._on_dask:
            return X, (y.compute() if is_dask(y) else y)
        if self.solver == "direct":
            raise ValueError(
                f"{type(self).__name__}: a Dask X runs the kernel products of CG on "
                "the current dask.distributed client; solver must be 'cg' or 'auto' "
                "with a Dask X (or pass X as a numpy array for 'direct'); got "
                f"solver={self.solver!r}."
            )
        if isinstance(self.kernel, str) and self.kernel == "precomputed":
            raise ValueError(
                f"{type(self).__name__}: a Dask X sends the kernel computations to "
                "the workers; kernel must not be 'precomputed' with a Dask X (pass "
                "the inputs and a kernel name); got kernel='precomputed'."
            )
        return X.compute(), (y.compute() if is_dask(y) else y)

    def _fit_kkt(self, X, a, d, signs=None, sample_weight=None, *, kkt_solver=None):
        """Solve [S 3.24] for the training inputs X and store the dual model.

        The regressor keeps no N x N matrix after the fit: the Gaussian-process
        error bars of :mod:`lssvm.gp` factor K + diag(1/gamma_k) again when first
        asked for (see ``LSSVMRegressor.predict``) and cache it in ``_cholesky_``
        (a :class:`lssvm.linalg.factor.CholeskyFactor`, None until then); the
        classifier keeps its factor only with ``probability="bayes"`` (the
        moderated output needs it). ``sample_weight`` w gives the weighted LS-SVM,
        gamma_k = gamma w_k (stored as ``sample_gamma_``); rows with w_k = 0 are
        dropped (an infinite diagonal). ``kkt_solver``: see :meth:`_solve_kkt`.
        """
        kernel = self._make_kernel(X)  # parameters validated at the start of fit
        X, fit_kernel = fit_view(kernel, X)  # precomputed: indices and K
        gamma = self.gamma
        keep, w = positive_weight_rows(sample_weight, X, owner=self)
        if keep is not None:
            X, a, d = X[keep], a[keep], d[keep]
            gamma = self.gamma * w  # gamma_k = gamma w_k on the diagonal
        try:
            sol = self._solve_kkt(
                fit_kernel, X, gamma, a, d, signs=signs, kkt_solver=kkt_solver
            )
        except NotPositiveDefiniteError as exc:
            raise NotPositiveDefiniteError(
                f"{exc} Got kernel {kernel!r} and gamma={self.gamma!r}."
            ) from None
        self.kernel_ = kernel
        self.alpha_ = sol.alpha
        self.b_ = sol.b
        self._cholesky_ = None  # CholeskyFactor made by predict(return_std=True)
        self.sample_gamma_ = gamma  # gamma, or gamma w_k of the rows kept
        gamma_k = np.reshape(gamma, (-1,) + (1,) * (sol.alpha.ndim - 1))
        self.e_ = sol.alpha / gamma_k  # alpha_k = gamma_k e_k, [S 3.4] and [S 3.31]
        self.n_iter_ = sol.n_iter
        self.support_vectors_ = (
            X.copy() if sp.issparse(X) else np.array(X, dtype=np.float64, copy=True)
        )
        return self

    def _check_input(self, X):
        """Check that the model is fitted and X matches it; X as float64."""
        check_is_fitted(self, "alpha_")
        return validate_data(
            self, X, reset=False, dtype=np.float64, accept_sparse=ACCEPT_SPARSE
        )

    def _kernel_blocks(self, X, kernel=None):
        """Yield (rows, K(X[rows], support_vectors_)) for a checked X, by row blocks.

        ``kernel`` defaults to ``kernel_``. Each block has about
        ``_PREDICT_BLOCK_ENTRIES`` entries.
        """
        kernel = self.kernel_ if kernel is None else kernel
        SV = self.support_vectors_
        step = max(1, _PREDICT_BLOCK_ENTRIES // max(SV.shape[0], 1))
        for i0 in range(0, X.shape[0], step):
            rows = slice(i0, i0 + step)
            yield rows, kernel(X[rows], SV)

    def _latent(self, X):
        """sum_k dual_coef_k K(x, x_k) + b: the argument of sign in [S 3.7], or [S 3.34].

        Shape (n_samples,), or (n_samples, n_outputs) for a 2-D ``dual_coef_``.
        """
        X = self._check_input(X)
        coef = self.dual_coef_
        out = np.empty((X.shape[0],) + coef.shape[1:])
        for rows, Kx in self._kernel_blocks(X):
            out[rows] = Kx @ coef
        return check_finite_output(out + self.b_, self.kernel_, owner=self)
