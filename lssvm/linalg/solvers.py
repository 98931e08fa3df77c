r"""Solvers for the bordered LS-SVM KKT system [S 3.24], and conjugate gradient.

One solver serves every LS-SVM in the package: the classifier [S 3.5], regression
[S 3.32], other targets (Fisher, output codes) and several right-hand sides at once.
It uses the elimination of [S 3.25]: with :math:`H = \Omega + I/\gamma`,

1. solve :math:`H\eta = a` and :math:`H\nu = d` (one factorisation, both at once),
2. :math:`s = a^T \eta > 0`,
3. :math:`b = \eta^T d / s` and :math:`\alpha = \nu - \eta b`.

Without the border (``a=None``) it solves :math:`H\alpha = d` with b = 0: the
zero-bias system [S 3.62] of regularization networks [S 3.50] and Gaussian processes.

The "direct" method factors H once (Cholesky) and returns that factor as a
:class:`lssvm.linalg.factor.CholeskyFactor`, which a later solve on the same points
takes back (``factor=``: two triangular solves); "cg" runs conjugate gradient on
:math:`H\eta = a`, :math:`H\nu = d` together, given Omega as a matrix or as an
operator V -> Omega V (:class:`lssvm.linalg.operators.KernelOperator`: the paper's large
scale algorithm, which never stores the matrix), optionally preconditioned
(:class:`lssvm.linalg.operators.NystromPreconditioner`).

Solvers know matrices, not models: they never import an estimator. The estimators'
``solver="auto"`` rule is here too (:func:`choose_method`: by the memory available
and the speed crossover ``AUTO_DIRECT_MAX_N``), with the module constants
``AUTO_DIRECT_MAX_N`` and ``NYSTROM_MAX_RANK``, which may be overridden by
assignment (``lssvm.linalg.solvers.AUTO_DIRECT_MAX_N = 5000``). Before the direct solver
allocates its N x N matrix, :func:`check_direct_memory` compares the 8 N^2 bytes with
the memory available and raises
:class:`~lssvm.linalg.memory.InsufficientMemoryError` (a ``MemoryError`` and a
``ValueError``) that suggests ``solver="cg"``.

Sources: Suykens et al. (2002), ch. 3, [S 3.24-3.27].
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import blas
from sklearn.exceptions import ConvergenceWarning

from . import memory as _memory
from .factor import PD_ADVICE, CholeskyFactor, NotPositiveDefiniteError

__all__ = [
    "KKTSolution",
    "CGResult",
    "solve_bordered_kkt",
    "conjugate_gradient",
    "eliminate_border",
    "choose_method",
    "check_direct_memory",
    "preconditioner_rank",
    "SOLVER_METHODS",
    "STOPPING_RULES",
    "AUTO_DIRECT_MAX_N",
    "NYSTROM_MAX_RANK",
]

SOLVER_METHODS = ("direct", "cg")  # methods of solve_bordered_kkt
STOPPING_RULES = ("residual", "energy")

# solver="auto": the speed crossover. Beyond this many training points matrix-free CG
# is chosen even when the N x N matrix would fit in memory. The direct solver costs
# N^2/2 kernel values and a Cholesky factorisation of N^3/3 flops; CG costs N^2/2
# kernel values per iteration (KernelOperator recomputes them at every product), so
# k iterations cost about k N^2/2. The two meet near N = 1.5 k t_kernel / t_flop
# (t_kernel: the time of one kernel value, mostly its exp; t_flop: that of one flop of
# the factorisation): linear in k and in a ratio that depends on the machine (SIMD
# width of exp, BLAS). 15000 makes the direct solve cost about as much as k = 100
# iterations, the order of a hard problem's count (the narrow kernel of
# benchmarks/results/cg_hard_spectrum.json), on the machine of the stored runs of
# benchmarks/bench_fit.py and benchmarks/bench_large_scale.py
# (benchmarks/results/large_scale.json); benchmarks/README.md gives the arithmetic.
# Below it, "auto" is "direct" when the matrix takes at most
# _memory.AUTO_MEMORY_FRACTION of the available memory.
AUTO_DIRECT_MAX_N = 15000
# Landmarks of the Nystrom preconditioner used by the estimators' matrix-free CG.
# The cap bounds its O(N r^2) set-up and N r memory (preconditioner_rank); chosen,
# not measured: the stored benchmarks run at 500, and benchmarks/uci.py raises it to
# 1000 for adu's cubic kernel (rank 680; 82 CG iterations with 500).
NYSTROM_MAX_RANK = 500


@dataclass(frozen=True)
class KKTSolution:
    """Solution of the bordered system [S 3.24].

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,) or (n_samples, n_rhs)
        Support values; one column per column of ``d``.
    b : float or ndarray of shape (n_rhs,)
        Bias term(s); 0 for the system without the border (``a=None``).
    n_iter : int
        CG iterations (0 for the direct solver).
    converged : bool
        False only when CG stopped at ``max_iter`` before reaching ``tol``.
    factor : CholeskyFactor or None
        Direct solver: the :class:`lssvm.linalg.factor.CholeskyFactor` of
        K + I/gamma (K the matrix passed, before the ``signs`` scaling), on the
        points 0, ..., n - 1 in order, with the ``gamma`` of the solve
        (:meth:`~lssvm.linalg.factor.CholeskyFactor.factorize`). It is the
        factor computed in place, not a copy: ``factor.upper`` is U (U^T U =
        K + I/gamma) in the upper triangle of an F-ordered array. None for CG and
        for a solve given a ``factor`` (its caller holds it).
    eta : ndarray of shape (n_samples,) or None
        eta = H^{-1} a of [S 3.25] step 1 (H = Omega + I/gamma, Omega after the
        ``signs`` scaling): the regression form's H^{-1} 1_v, which closed-form
        leave-one-out reuses. None without the border (``a=None``) and where a
        caller builds a solution without it.
    s : float or None
        s = a^T eta > 0 of [S 3.25] step 2; None with ``eta``.
    """

    alpha: NDArray[np.float64]
    b: float | NDArray[np.float64]
    n_iter: int
    converged: bool
    factor: CholeskyFactor | None = None
    eta: NDArray[np.float64] | None = None
    s: float | None = None


@dataclass(frozen=True)
class CGResult:
    """Result of :func:`conjugate_gradient`.

    Attributes
    ----------
    x : ndarray of shape (n,) or (n, n_rhs)
    n_iter : int
    converged : bool
    residuals : ndarray of shape (n_iter + 1, n_rhs)
        Relative residuals ||r_i|| / ||rhs|| of each column, i = 0, ..., n_iter.
    energies : ndarray of shape (n_iter + 1, n_rhs)
        V(x_i) = x_i^T A x_i / 2 - x_i^T rhs of each column; V(x_0) = 0.
    """

    x: NDArray[np.float64]
    n_iter: int
    converged: bool
    residuals: NDArray[np.float64]
    energies: NDArray[np.float64]


def choose_method(solver: str, n_samples: int) -> str:
    """The method of :func:`solve_bordered_kkt` for an estimator's ``solver``.

    "auto" is "direct" when both hold, "cg" otherwise:

    - memory: the N x N matrix of the direct solver (8 N^2 bytes) takes at most
      ``lssvm.linalg.memory.AUTO_MEMORY_FRACTION`` (one half) of the available memory
      (:func:`lssvm.linalg.memory.available_memory`);
    - speed: N <= ``AUTO_DIRECT_MAX_N``, the crossover beyond which CG is expected
      to be faster: the factorisation's N^3/3 flops grow faster than the N^2/2
      kernel values of each CG iteration (read at each call, so assigning the
      module constant changes it).

    >>> choose_method("auto", 100), choose_method("auto", 10**6)
    ('direct', 'cg')
    """
    if solver == "auto":
        if n_samples > AUTO_DIRECT_MAX_N:
            return "cg"
        fits = _memory.fits_in_memory(
            n_samples, fraction=_memory.AUTO_MEMORY_FRACTION
        )
        return "direct" if fits else "cg"
    return solver


def check_direct_memory(n_samples: int, *, owner=None, n_matrices: int = 1) -> None:
    """Raise InsufficientMemoryError if the direct solver's N x N matrix won't fit.

    The direct solver holds one N x N float64 matrix (8 N^2 bytes: the Gram matrix,
    factored in place); ``n_matrices`` counts more where the kernel's evaluation
    holds another at the same time (a callable kernel: its result and the copy).
    The message names N, the bytes needed and available, and suggests
    ``solver="cg"``.
    """
    _memory.check_dense_memory(n_samples, n_matrices=n_matrices, owner=owner)


def preconditioner_rank(n_samples: int) -> int:
    """Landmarks of the estimators' Nystrom preconditioner: min(500, N // 2), >= 1.

    The cap ``NYSTROM_MAX_RANK`` bounds the setup, O(N r^2), and the memory, N r;
    N // 2 keeps the preconditioner an approximation (r = N would make it exact).
    """
    return max(1, min(NYSTROM_MAX_RANK, n_samples // 2))


def solve_bordered_kkt(
    Omega,
    gamma,
    a: NDArray | None,
    d: NDArray,
    *,
    signs: NDArray | None = None,
    method: str = "direct",
    tol: float = 1e-10,
    max_iter: int | None = None,
    overwrite: bool = False,
    preconditioner: Callable[[NDArray], NDArray] | None = None,
    stopping: str = "residual",
    factor: CholeskyFactor | None = None,
) -> KKTSolution:
    r"""Solve [[0, a^T], [a, Omega + I/gamma]] [b; alpha] = [0; d], [S 3.24].

    With ``a=None`` there is no border and no b: (Omega + I/gamma) alpha = d,
    [S 3.62], and b = 0.

    Parameters
    ----------
    Omega : ndarray of shape (n_samples, n_samples), or operator
        Symmetric positive semi-definite. An array: only its lower triangle is read,
        so the output of :meth:`lssvm.kernels.Kernel.gram_lower` can be passed
        directly. An operator (``method="cg"`` only): any callable V -> Omega V for
        V of shape (n_samples, k), with a ``shape`` attribute, such as
        :class:`lssvm.linalg.operators.KernelOperator` (with ``shift=0``: the solver adds
        I/gamma itself).
    gamma : float or ndarray of shape (n_samples,)
        Regularization constant of [S 3.1]; an array weights each sample's error.
    a : ndarray of shape (n_samples,) or None
        Border vector: y for the classifier [S 3.5], ones for regression [S 3.32].
        None: the system without the border, [S 3.62], for a model without bias.
    d : ndarray of shape (n_samples,) or (n_samples, n_rhs)
        Right-hand side(s): ones for the classifier, y for regression; columns share
        one factorisation.
    signs : ndarray of shape (n_samples,) with entries +-1, optional
        If given, the matrix of the system is S Omega S with S = diag(signs). The
        classifier passes the kernel matrix K and ``signs=y`` instead of forming
        Omega = y y^T * K [S 3.6]: H^{-1} v = S (K + I/gamma)^{-1} S v.
    method : {"direct", "cg"}
        "direct": one in-place Cholesky factorisation of H. "cg": conjugate gradient
        on H eta = a and H nu = d together [S 3.25].
    tol, max_iter, stopping : float, int, {"residual", "energy"}
        CG stopping rule, see :func:`conjugate_gradient` (ignored by "direct").
    overwrite : bool
        Let the direct solver factor ``Omega`` in place (no N x N copy). Omega is
        destroyed; it must be C-contiguous float64 for this to avoid a copy.
    preconditioner : callable, optional
        V -> M^{-1} V with M close to Omega + I/gamma (before the ``signs``
        scaling), e.g. :class:`lssvm.linalg.operators.NystromPreconditioner` with
        ``shift=1/gamma``; CG only.
    factor : CholeskyFactor, optional
        A :class:`lssvm.linalg.factor.CholeskyFactor` of Omega + I/gamma computed
        earlier (as :attr:`KKTSolution.factor`), e.g. one kept up to date by row and
        column removals (:func:`lssvm.sparse.pruning.prune`) or between RLS-SVM
        iterations. The rows of ``a``, ``d`` and ``signs``, and those of the
        returned ``alpha``, follow its ``order``
        (:meth:`~lssvm.linalg.factor.CholeskyFactor.positions` maps others). The
        direct solver then only does the two triangular solves and reads neither
        ``Omega`` nor ``gamma`` (both may be None); the returned solution has no
        factor.

    Returns
    -------
    KKTSolution

    Raises
    ------
    NotPositiveDefiniteError
        If the Cholesky factorisation of H fails, or CG meets p^T H p <= 0.
    """
    if method not in SOLVER_METHODS:
        raise ValueError(
            f"solve_bordered_kkt: method must be one of {list(SOLVER_METHODS)}; "
            f"got method={method!r}."
        )
    if stopping not in STOPPING_RULES:
        raise ValueError(
            f"solve_bordered_kkt: stopping must be one of {list(STOPPING_RULES)}; "
            f"got stopping={stopping!r}."
        )
    if factor is not None and method != "direct":
        raise ValueError(
            "solve_bordered_kkt: factor must be None unless method='direct' (it is a "
            f"Cholesky factor of H); got method={method!r} with a factor."
        )
    if factor is not None and not isinstance(factor, CholeskyFactor):
        raise TypeError(
            "solve_bordered_kkt: factor must be a CholeskyFactor "
            "(lssvm.linalg.factor), as KKTSolution.factor, or None; got "
            f"{type(factor).__name__}."
        )
    if method == "direct" and callable(Omega):
        raise TypeError(
            "solve_bordered_kkt: Omega must be an array for method='direct' (it "
            f"factors Omega); got Omega of type {type(Omega).__name__} (an operator). "
            "Use method='cg'."
        )
    d = np.asarray(d, dtype=np.float64)
    d2 = d.reshape(d.shape[0], -1)  # (n, n_rhs)
    bordered = a is not None
    if bordered:
        a = np.asarray(a, dtype=np.float64)
        rhs = np.column_stack([a, d2])  # [a | d], (n, 1 + n_rhs)
    else:
        rhs = d2.copy()  # [d]: [S 3.62] has no border
    if signs is not None:
        rhs *= np.asarray(signs, dtype=np.float64)[:, None]

    if factor is not None:  # [S 3.24] with a factor of H already at hand
        if len(factor) != rhs.shape[0]:
            raise ValueError(
                f"solve_bordered_kkt: factor must be of the {rhs.shape[0]} points of "
                f"d; got a factor of {len(factor)} points."
            )
        Z = factor.solve(rhs)  # two triangular solves, no new factor
        n_iter, converged, factor = 0, True, None  # the caller holds the factor
    elif method == "direct":  # one in-place Cholesky of H, the package's one
        factor = CholeskyFactor.factorize(Omega, gamma, overwrite=overwrite)
        Z = factor.solve(rhs)  # two triangular solves
        n_iter, converged = 0, True
    else:
        inv_gamma = 1.0 / np.asarray(gamma, dtype=np.float64)
        result = _cg_solve(
            Omega, inv_gamma, rhs, tol=tol, max_iter=max_iter,
            preconditioner=preconditioner, stopping=stopping,
        )  # fmt: skip
        Z, n_iter, converged, factor = result.x, result.n_iter, result.converged, None
    if signs is not None:
        Z *= np.asarray(signs, dtype=np.float64)[:, None]

    eta = s = None
    if bordered:
        eta, nu = Z[:, 0], Z[:, 1:]  # [S 3.25] step 1: H eta = a, H nu = d
        s = float(a @ eta)  # [S 3.25] step 2
        alpha, b = eliminate_border(eta, s, nu, d2)  # [S 3.25] step 3
    else:
        alpha, b = Z, np.zeros(d2.shape[1])  # [S 3.62]: H alpha = d, b = 0
    if not np.all(np.isfinite(alpha)):
        raise NotPositiveDefiniteError(
            "The KKT solution contains NaN or inf: Omega + I/gamma is singular or "
            f"Omega is not finite (e.g. a kernel that overflows). {PD_ADVICE}"
        )
    if d.ndim == 1:
        alpha, b = alpha[:, 0], float(b[0])
    return KKTSolution(alpha, b, n_iter, converged, factor, eta, s)


def eliminate_border(eta, s, nu, d):
    r"""[S 3.25] step 3: b = eta^T d / s and alpha = nu - eta b, per column of d.

    Given step 1 (eta = H^{-1} a, nu = H^{-1} d) and step 2 (s = a^T eta), this
    solves the bordered system [S 3.24]: the one place the elimination is written
    (:func:`solve_bordered_kkt`, and the eigendecomposition path of
    :class:`lssvm.model_selection.closed_form.ClosedFormCV`, which gets eta and nu otherwise).

    Parameters
    ----------
    eta : ndarray of shape (n,)
    s : float
    nu, d : ndarray of shape (n, m)

    Returns
    -------
    alpha : ndarray of shape (n, m)
    b : ndarray of shape (m,)

    >>> eta, nu, d = np.array([0.5, 0.5]), np.array([[1.0], [0.0]]), np.ones((2, 1))
    >>> alpha, b = eliminate_border(eta, 1.0, nu, d)
    >>> alpha.ravel().tolist(), b.tolist()
    ([0.5, -0.5], [1.0])
    """
    b = (eta @ d) / s  # [S 3.25] step 3, one b per column of d
    return nu - np.outer(eta, b), b  # alpha = nu - eta b


def _cg_solve(Omega, inv_gamma, rhs, **options):
    """CG on (Omega + I/gamma) Z = rhs, Omega an operator or a lower triangle."""
    shift = inv_gamma if np.ndim(inv_gamma) == 0 else inv_gamma[:, None]
    if callable(Omega):

        def matvec(V):  # (Omega + I/gamma) V, Omega never stored
            return Omega(V) + shift * V

    else:
        K = np.asarray(Omega, dtype=np.float64)

        def matvec(V):  # (Omega + I/gamma) V, reading the lower triangle of Omega only
            return blas.dsymm(1.0, K.T, V, side=0, lower=0) + shift * V

    return conjugate_gradient(matvec, rhs, **options)


def conjugate_gradient(
    matvec: Callable[[NDArray], NDArray],
    rhs: NDArray,
    *,
    tol: float = 1e-10,
    max_iter: int | None = None,
    preconditioner: Callable[[NDArray], NDArray] | None = None,
    stopping: str = "residual",
) -> CGResult:
    r"""Hestenes-Stiefel conjugate gradient for A X = rhs with A = A^T > 0, [S 3.25].

    The columns of ``rhs`` are independent systems that share each product
    ``matvec(P)`` (one call per iteration for all columns); a column stops updating
    once it meets the stopping rule:

    - ``"residual"`` (default): :math:`\|r_i\| / \|b\| \le` tol, with
      :math:`r_i = b - A x_i` the (recursively updated) residual.
    - ``"energy"``, the criterion of [S §3.4.1]: CG minimises
      :math:`V(x) = \tfrac12 x^T A x - x^T b` along each search direction, and one
      step decreases it by :math:`V(x_{i-1}) - V(x_i) = (r_{i-1}^T z_{i-1})^2 /
      (2\, p_i^T A p_i)` (:math:`z = M^{-1} r`, z = r without preconditioner). The
      column stops at the first i with

      .. math:: V(x_{i-1}) - V(x_i) \le \mathrm{tol}\, |V(x_i)|,

      or when :math:`r_i = 0` exactly. Since :math:`V(x) - V(x_*) =
      \tfrac12 \|x - x_*\|_A^2` and :math:`V(x_*) = -\tfrac12 \|x_*\|_A^2`, the
      last decrease estimates (from below) the squared relative A-norm error
      :math:`\|x_i - x_*\|_A^2 / \|x_*\|_A^2`: expect a relative A-norm error of
      about :math:`\sqrt{\mathrm{tol}}`, more when convergence is slow.

    V decreases monotonically; the residual norm need not ([S §3.4.1]).

    Parameters
    ----------
    matvec : callable
        V -> A V for V of shape (n, n_rhs).
    rhs : ndarray of shape (n,) or (n, n_rhs)
    tol : float
        Tolerance of the stopping rule.
    max_iter : int, optional
        Defaults to 10 n. A :class:`~sklearn.exceptions.ConvergenceWarning` is issued
        when it is reached before ``tol``.
    preconditioner : callable, optional
        V -> M^{-1} V for a symmetric positive definite M close to A.
    stopping : {"residual", "energy"}, default="residual"

    Returns
    -------
    CGResult
        With the histories ``residuals`` (relative residual) and ``energies``
        (V(x_i), computed as :math:`-\tfrac12 x_i^T (b + r_i)`, no extra product),
        both of shape (n_iter + 1, n_rhs).
    """
    if stopping not in STOPPING_RULES:
        raise ValueError(
            f"conjugate_gradient: stopping must be one of {list(STOPPING_RULES)}; "
            f"got stopping={stopping!r}."
        )
    B = np.asarray(rhs, dtype=np.float64)
    vector = B.ndim == 1
    B = B.reshape(B.shape[0], -1)
    max_iter = 10 * B.shape[0] if max_iter is None else max_iter
    apply_m = (lambda R: R) if preconditioner is None else preconditioner
    norm_b = np.linalg.norm(B, axis=0)
    norm_b[norm_b == 0] = 1.0

    X = np.zeros_like(B)  # x_0 = 0, r_0 = B, V(x_0) = 0
    R = B.copy()
    Zr = apply_m(R)
    P = Zr.copy()
    rz = np.einsum("ij,ij->j", R, Zr)
    residuals, energies = [np.linalg.norm(R, axis=0) / norm_b], [np.zeros(B.shape[1])]
    decrease = np.full(B.shape[1], np.inf)
    active = ~_stops(stopping, tol, residuals[-1], decrease, energies[-1])
    it = 0
    while np.any(active) and it < max_iter:
        it += 1
        AP = matvec(P)
        pAp = np.einsum("ij,ij->j", P, AP)
        if np.any(active & ~(pAp > 0)):  # also catches NaN
            raise NotPositiveDefiniteError(
                f"CG met a direction with p^T A p = {pAp[active].min():.1e} <= 0 at "
                f"iteration {it}: matrix not positive definite. {PD_ADVICE}"
            )
        step = np.where(active, rz / np.where(pAp > 0, pAp, 1.0), 0.0)  # lambda_i
        decrease = step * rz / 2  # V(x_{i-1}) - V(x_i) = (r^T z)^2 / (2 p^T A p)
        X += step * P
        R -= step * AP
        Zr = apply_m(R)
        rz_new = np.einsum("ij,ij->j", R, Zr)
        beta = np.where(active, rz_new / np.where(rz > 0, rz, 1.0), 0.0)  # beta_i
        P = Zr + beta * P
        rz = rz_new
        residuals.append(np.linalg.norm(R, axis=0) / norm_b)
        energies.append(-0.5 * np.einsum("ij,ij->j", X, B + R))  # V(x_i)
        active &= ~_stops(stopping, tol, residuals[-1], decrease, energies[-1])
    converged = not np.any(active)
    if not converged:
        warnings.warn(
            _not_converged_message(it, tol, stopping, residuals, decrease, energies),
            ConvergenceWarning,
            stacklevel=2,
        )
    return CGResult(
        X[:, 0] if vector else X, it, converged, np.array(residuals), np.array(energies)
    )


def _stops(stopping, tol, residual, decrease, energy):
    """Columns that meet the stopping rule (NaN never does)."""
    if stopping == "residual":
        return residual <= tol
    return (decrease <= tol * np.abs(energy)) | (residual == 0)


def _not_converged_message(it, tol, stopping, residuals, decrease, energies):
    if stopping == "residual":
        what = f"relative residual {residuals[-1].max():.1e}"
    else:
        ratio = decrease / np.where(energies[-1] != 0, np.abs(energies[-1]), 1.0)
        what = f"relative decrease of V(x) {ratio.max():.1e}"
    return (
        f"CG stopped after {it} iterations, {what} > tol {tol:.0e}; raise max_iter, "
        f'loosen tol, or use solver="direct".'
    )
