r"""The evidence framework for LS-SVMs: levels 1-3 of Bayesian inference.

Follows [VanGestel01] (the equation numbers below are that paper's). The cost [VG 1]
:math:`J_1 = \mu E_W + \zeta E_D`, with :math:`E_W = \tfrac12 w^Tw` and
:math:`E_D = \tfrac12\sum_k e_k^2`, is the negative log posterior of (w, b) for a
Gaussian prior of precision :math:`\mu` on w, a flat prior on b and Gaussian errors
of precision :math:`\zeta`; :math:`\gamma = \zeta/\mu`.

- Level 1: the MAP model, the linear system [VG 3], solved by
  :func:`lssvm.linalg.solvers.solve_bordered_kkt` through the estimators (:func:`level1`).
- Level 2: :math:`\gamma_{MP}` minimises the scalar cost [VG 9]; :math:`\mu_{MP}`,
  :math:`\zeta_{MP}` follow from :math:`2\mu(E_W + \gamma E_D) = N - 1` and
  :math:`\zeta = \gamma\mu`; :math:`\gamma_{eff}` is [VG 7] (:func:`level2`).
- Level 3: the evidence P(D | H) of [VG 10-11] compares kernels; :func:`level3`
  maximises it over sigma2 (one width, or one per input: ARD), with the analytic
  gradient of :func:`log_evidence_gradient`.

**Classifier = regression on the labels.** Since :math:`y_k^2 = 1`,
:math:`e_k = 1 - y_k(w^T\varphi(x_k) + b)` gives :math:`y_k e_k = y_k -
w^T\varphi(x_k) - b`, so :math:`E_D` is the regression cost on the targets
:math:`t_k = y_k = \pm 1`, and the matrix of [VG 8],
:math:`(I - YY^T/N)\Omega = D M K D` with :math:`D = \mathrm{diag}(y)`,
:math:`M = I - 1_v 1_v^T/N`, has the eigenvalues of the centred Gram matrix
:math:`M K M`. Every formula here therefore holds for regression (real targets)
and for classification (targets +-1) alike.

**Eigenvalue convention.** :math:`\lambda_{G,i}` are the N - 1 eigenvalues of
:math:`M K M` restricted to the complement of :math:`1_v` (eigenvalue 0 included
where K is singular; a zero eigenvalue adds nothing to [VG 7], [VG 9] or [VG 11], so N_eff
of the paper is immaterial here): the eigenvalues of the centred Gram matrix itself,
as in the paper, NOT divided by N - 1 as in LS-SVMlab's Bayesian routines. With
:math:`p = V^T t` (V the eigenvectors) and :math:`r_i = 1/(1 + \gamma\lambda_i)`,
one eigendecomposition per kernel gives, in O(N) per value of gamma,

.. math:: E_D = \tfrac12\sum_i p_i^2 r_i^2, \qquad
    E_W = \tfrac12\sum_i \gamma^2\lambda_i p_i^2 r_i^2, \qquad
    \gamma_{eff} = N - \sum_i r_i .

**Evidence.** ``log_evidence`` is [VG 10] with unit prior widths
:math:`\sigma_{\log\mu} = \sigma_{\log\zeta} = 1`: the exact level-2 log evidence
:math:`\log P(D|\mu_{MP}, \zeta_{MP}, H)` (a Gaussian integral, including its
constants) plus :math:`\log 2 - \tfrac12\log(\gamma_{eff} - 1)
- \tfrac12\log(N - \gamma_{eff})`. It differs from the log of [VG 11] by a constant
that does not depend on the kernel.

Sources: [VanGestel01] Van Gestel, Suykens, De Moor & Vandewalle (2001), [VG 1-11];
MacKay (1992, 1995) for the evidence framework; [RW 2.42] for the flat prior
on b in :func:`class_probability`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq, minimize
from scipy.sparse import issparse
from sklearn.base import clone
from sklearn.utils.validation import check_X_y

from .._validation import check_fraction, check_numeric_targets
from ..classifier import LSSVMClassifier
from ..kernels import make_kernel
from ..linalg.memory import check_dense_memory
from ..regressor import LSSVMRegressor

__all__ = [
    "Spectrum",
    "Level2Result",
    "Level3Result",
    "TASKS",
    "centred_spectrum",
    "energies",
    "effective_parameters",
    "level2_cost",
    "solve_level2",
    "level1",
    "level2",
    "level3",
    "log_evidence_gradient",
    "class_probability",
]

TASKS = ("classification", "regression")
_LOG_GAMMA_SPAN = (-8.0, 22.0)  # search gamma * lambda_max in [e^-8, e^22]
# 121 points over the 30 of _LOG_GAMMA_SPAN: a step of 0.25 in log gamma, the
# bracket Brent's method then refines to machine precision; chosen, not measured.
_N_GRID = 121
# Bounds of level3's L-BFGS-B search over log sigma2, sigma2 in [1e-3, 1e6] (ard's
# weight floor 1/sigma2 sits just above 1e-6); chosen, not measured.
LOG_SIGMA2_BOUNDS = (np.log(1e-3), np.log(1e6))
# N x N matrices held while the centred spectrum [VG 8] is computed (K, Q K, Q K Q,
# its eigenvectors, Q and V), compared with the available memory before allocating.
_SPECTRUM_MATRICES = 6
# n_eff of Level2Result (N_eff of [VG 8-11]): the eigenvalues lambda_G,i above
# _N_EFF_RTOL times the largest, a relative rank cutoff of about 4500 machine
# epsilons (the eigensolver's round-off on a singular M K M is of order N eps times
# the largest eigenvalue). _TINY keeps the largest eigenvalue positive in the cutoff
# for an all-zero spectrum (K = 0): no eigenvalue counts there.
_N_EFF_RTOL = 1e-12
_TINY = 1e-300


class Spectrum(NamedTuple):
    """Eigendecomposition of the centred Gram matrix, [VG 8], and projected targets.

    Attributes
    ----------
    eigvals : ndarray of shape (n_samples - 1,)
        lambda_G,i >= 0, in ascending order.
    eigvecs : ndarray of shape (n_samples, n_samples - 1)
        Orthonormal eigenvectors, all orthogonal to 1_v.
    proj : ndarray of shape (n_samples - 1,)
        p = eigvecs^T t, the targets in the eigenbasis.
    targets : ndarray of shape (n_samples,)
        t: +-1 labels (classification) or real targets (regression).
    """

    eigvals: NDArray[np.float64]
    eigvecs: NDArray[np.float64]
    proj: NDArray[np.float64]
    targets: NDArray[np.float64]


@dataclass(frozen=True)
class Level2Result:
    """Levels 1 and 2 for one kernel: hyper-parameters, energies, evidence.

    Attributes
    ----------
    gamma, mu, zeta : float
        gamma_MP minimising [VG 9], mu_MP and zeta_MP = gamma_MP mu_MP.
    gamma_eff : float
        Effective number of parameters [VG 7], between 1 and N.
    E_W, E_D : float
        Regularisation and error terms of [VG 1] at the level-1 optimum.
    log_evidence : float
        Level-3 log evidence [VG 10-11] of the kernel (module docstring).
    n_eff : int
        Number of eigenvalues lambda_G,i above round-off.
    eigvals : ndarray of shape (n_samples - 1,)
    sigma2 : float or ndarray
        Kernel width(s) used.
    targets : ndarray of shape (n_samples,)
    classes : ndarray or None
        The two labels (coded -1, +1) for classification; None for regression.
    model : LSSVMClassifier, LSSVMRegressor or None
        The level-1 model fitted at gamma_MP (None with ``fit_model=False``); the
        classifier with ``probability="bayes"`` (its ``predict_proba`` is the
        moderated output; it keeps the Cholesky factor of K + I/gamma, 8 N^2 bytes).
    stationary : bool
        False if gamma_MP sits at the edge of the search range (see
        :func:`solve_level2`); the relations at the optimum then do not hold.
    """

    gamma: float
    mu: float
    zeta: float
    gamma_eff: float
    E_W: float
    E_D: float
    log_evidence: float
    n_eff: int
    eigvals: NDArray[np.float64]
    sigma2: float | NDArray[np.float64]
    targets: NDArray[np.float64]
    classes: NDArray | None = None
    model: LSSVMClassifier | LSSVMRegressor | None = None
    stationary: bool = True

    @property
    def n_eff_params(self) -> float:
        """gamma_eff under the package's name for it (``n_eff_params``, apart from ``gamma``)."""
        return self.gamma_eff


@dataclass(frozen=True)
class Level3Result:
    """Kernel widths maximising the evidence, and the level-2 fit there.

    Attributes
    ----------
    sigma2 : float or ndarray of shape (n_features,)
        Optimal width (isotropic) or widths (ARD); weights u_i = 1 / sigma2_i.
    log_evidence : float
    level2 : Level2Result
    n_iter : int
        Iterations of the optimiser.
    path : ndarray of shape (n_iter + 1, n_widths)
        sigma2 after each iteration, starting point first.
    """

    sigma2: float | NDArray[np.float64]
    log_evidence: float
    level2: Level2Result
    n_iter: int
    path: NDArray[np.float64]


# ------------------------------------------------------------------ level 2 core
def centred_spectrum(K: NDArray, targets: NDArray) -> Spectrum:
    """Eigenvalues and eigenvectors of the centred Gram matrix M K M, [VG 8].

    A Householder reflection Q with Q 1_v proportional to e_1 gives an orthonormal
    basis of the complement of 1_v (the columns 2..N of Q): the eigenproblem of
    Q^T K Q there has size N - 1 and no spurious zero eigenvalue for 1_v.
    """
    N = K.shape[0]
    v = np.ones(N)
    v[0] += np.sqrt(N)
    v /= np.linalg.norm(v)
    QK = K - 2.0 * np.outer(v, v @ K)  # Q K, Q = I - 2 v v^T
    QKQ = QK - 2.0 * np.outer(QK @ v, v)
    lam, U = np.linalg.eigh(QKQ[1:, 1:])  # [VG 8] on the complement of 1_v
    Q = np.eye(N)[:, 1:] - 2.0 * np.outer(v, v[1:])
    V = Q @ U
    lam = np.maximum(lam, 0.0)  # round-off below 0 on a PSD matrix
    return Spectrum(lam, V, V.T @ targets, np.asarray(targets, dtype=np.float64))


def energies(spectrum: Spectrum, gamma) -> tuple[NDArray, NDArray]:
    """E_W and E_D of the level-1 solution at ``gamma`` (scalar or array), O(N) each.

    From alpha = gamma V diag(r) p, e = alpha / gamma and E_W = alpha^T K alpha / 2.
    """
    lam, p = spectrum.eigvals, spectrum.proj
    g = np.asarray(gamma, dtype=np.float64)[..., None]
    r = 1.0 / (1.0 + g * lam)
    E_D = 0.5 * np.sum(p**2 * r**2, axis=-1)
    E_W = 0.5 * np.sum(g**2 * lam * p**2 * r**2, axis=-1)
    return E_W, E_D


def effective_parameters(eigvals: NDArray, gamma: float) -> float:
    """gamma_eff = 1 + sum_i gamma lambda_i / (1 + gamma lambda_i), [VG 7]."""
    return float(1.0 + np.sum(gamma * eigvals / (1.0 + gamma * eigvals)))  # [VG 7]


def level2_cost(spectrum: Spectrum, gamma) -> NDArray:
    """J_2(gamma) of [VG 9], vectorised over an array of gamma values."""
    lam = spectrum.eigvals
    g = np.asarray(gamma, dtype=np.float64)
    E_W, E_D = energies(spectrum, g)
    logdet = np.sum(np.log(lam + 1.0 / g[..., None]), axis=-1)
    return logdet + (len(lam)) * np.log(E_W + g * E_D)  # [VG 9], N - 1 = len(lam)


def _dcost_dlog_gamma(spectrum: Spectrum, t: float) -> float:
    """dJ_2/d(log gamma) = -sum r_i + (N - 1) sum p^2 r^2 / sum p^2 r."""
    lam, p = spectrum.eigvals, spectrum.proj
    r = 1.0 / (1.0 + np.exp(t) * lam)
    return -r.sum() + len(lam) * np.sum(p**2 * r**2) / np.sum(p**2 * r)


def solve_level2(spectrum: Spectrum, *, warn: bool = True) -> dict:
    """Minimise [VG 9] over log gamma: a grid, then a root of the derivative.

    Returns a dict with gamma, mu, zeta, gamma_eff, E_W, E_D, log_evidence and
    stationary. The root is found by Brent's method to machine precision, so the
    relations 2 mu E_W = gamma_eff - 1 and 2 zeta E_D = N - gamma_eff hold to
    round-off. If the smallest J_2 on the grid lies at its edge (a degenerate
    kernel, e.g. sigma2 tiny: K close to I), that edge is returned with
    ``stationary=False`` and, if ``warn``, a RuntimeWarning.
    """
    lam = spectrum.eigvals
    top = max(lam[-1], np.finfo(float).tiny)
    ts = np.linspace(*_LOG_GAMMA_SPAN, _N_GRID) - np.log(top)
    J = level2_cost(spectrum, np.exp(ts))
    i = int(np.argmin(J))
    t = ts[i]
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, _N_GRID - 1)]
    f_lo, f_hi = _dcost_dlog_gamma(spectrum, lo), _dcost_dlog_gamma(spectrum, hi)
    stationary = bool(f_lo < 0.0 < f_hi)
    if stationary:
        t = brentq(lambda s: _dcost_dlog_gamma(spectrum, s), lo, hi, xtol=1e-14)
    elif warn:
        warnings.warn(
            f"level 2: the minimum of J_2 [VG 9] lies at the edge of the search range "
            f"gamma in [{np.exp(ts[0]):.3g}, {np.exp(ts[-1]):.3g}]; "
            f"gamma={np.exp(t):.3g} is not a stationary point.",
            RuntimeWarning,
            stacklevel=3,
        )
    return {**_level2_at(spectrum, float(np.exp(t))), "stationary": stationary}


def _level2_at(spectrum: Spectrum, gamma: float) -> dict:
    """mu, zeta, gamma_eff and the level-3 evidence at a given gamma (the optimum)."""
    lam = spectrum.eigvals
    N = len(lam) + 1
    E_W, E_D = (float(v) for v in energies(spectrum, gamma))
    mu = (N - 1) / (2.0 * (E_W + gamma * E_D))  # 2 mu (E_W + gamma E_D) = N - 1
    zeta = gamma * mu  # gamma = zeta / mu
    gamma_eff = effective_parameters(lam, gamma)  # [VG 7]
    log_p_d = (  # exact log P(D | mu, zeta, H): the Gaussian integral of exp(-J_1)
        -0.5 * (N - 1) * np.log(2.0 * np.pi) - 0.5 * np.log(N)
        + 0.5 * (N - 1) * (np.log(mu) + np.log(zeta))
        - 0.5 * np.sum(np.log(mu + zeta * lam)) - mu * E_W - zeta * E_D
    )  # fmt: skip
    occam = np.log(2.0) - 0.5 * np.log(gamma_eff - 1.0) - 0.5 * np.log(N - gamma_eff)
    return dict(
        gamma=gamma, mu=mu, zeta=zeta, gamma_eff=gamma_eff, E_W=E_W, E_D=E_D,
        log_evidence=float(log_p_d + occam),  # [VG 10], unit prior widths; [VG 11]
    )  # fmt: skip


# ------------------------------------------------------------------ validation
def check_data(X, y, task, *, owner="level2"):
    """X (float64, finite, >= 3 rows), targets t (+-1 or real) and the classes.

    Validated as the estimators validate: sparse, complex or string input and
    NaN/inf in X or y raise messages naming the argument; before the N x N kernel
    matrix, the memory needed is compared with the memory available.
    """
    if task not in TASKS:
        raise ValueError(
            f"{owner}: task must be one of {list(TASKS)}; got task={task!r}."
        )
    for name, value in (("X", X), ("y", y)):
        _reject_input(value, name, owner)
    try:
        X, y = check_X_y(X, y, dtype=np.float64, ensure_min_samples=3)
    except ValueError as exc:
        if "could not convert" in str(exc):
            raise ValueError(f"{owner}: X must be numeric; {exc}") from None
        raise
    check_dense_memory(
        X.shape[0], n_matrices=_SPECTRUM_MATRICES, owner=owner,
        what="the evidence framework (eigendecomposition of the centred kernel "
        "matrix)", alternative="use a subsample of the data",
    )  # fmt: skip
    if task == "regression":
        return X, check_numeric_targets(y, owner=owner), None
    classes, index = np.unique(y, return_inverse=True)
    if len(classes) != 2:
        raise ValueError(
            f"{owner}: y must have exactly 2 classes for task='classification'; got "
            f"{len(classes)} classes ({classes.tolist()})."
        )
    return X, np.where(index == 1, 1.0, -1.0), classes


def _reject_input(value, name, owner):
    """Sparse, complex and string arrays: a message that names the argument."""
    if issparse(value):
        raise TypeError(
            f"{owner}: {name} must be a dense array (the evidence needs the "
            f"eigendecomposition of the N x N kernel matrix); got a sparse "
            f"{type(value).__name__}. Convert it with .toarray()."
        )
    try:
        kind = np.asarray(value).dtype.kind
    except (TypeError, ValueError):  # ragged input: check_X_y explains
        return
    if name == "X" and np.ndim(value) != 2:
        raise ValueError(
            f"{owner}: X must be a 2-D array (n_samples, n_features); got "
            f"{np.shape(value)}."
        )
    if kind == "c":
        raise ValueError(
            f"{owner}: {name} must be real-valued; got complex values (the "
            "imaginary part is not dropped silently)."
        )
    if name == "X" and kind in "USV":
        raise ValueError(
            f"{owner}: X must be numeric; got an array of dtype "
            f"{np.asarray(value).dtype}."
        )


def _check_sigma2(sigma2, n_features, owner="level2"):
    s = np.asarray(sigma2, dtype=np.float64)
    if s.ndim > 1 or not np.all(np.isfinite(s)) or not np.all(s > 0):
        raise ValueError(
            f"{owner}: sigma2 must be a positive float or a 1-D array of positive "
            f"floats (RBF width(s) of [S 3.13]); got sigma2={sigma2!r}."
        )
    if s.ndim == 1 and s.shape[0] != n_features:
        raise ValueError(
            f"{owner}: sigma2 has {s.shape[0]} entries but X has {n_features} "
            "features; give one width per input (ARD)."
        )
    return float(s) if s.ndim == 0 else s


# ------------------------------------------------------------------ public levels
def level1(X, y, *, gamma: float, sigma2=1.0, kernel="rbf", task="classification"):
    """Level 1: the MAP model, the linear system [VG 3], as a fitted estimator.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    gamma : float
        zeta / mu, usually the level-2 gamma_MP.
    sigma2 : float or ndarray of shape (n_features,)
        RBF width(s) of [S 3.13]; an array gives the ARD kernel.
    kernel : str, Kernel or callable
    task : {"classification", "regression"}

    Returns
    -------
    LSSVMClassifier or LSSVMRegressor, fitted.
    """
    cls = LSSVMClassifier if task == "classification" else LSSVMRegressor
    return cls(gamma=gamma, kernel=kernel, sigma2=sigma2).fit(X, y)  # [VG 3]


def level2(
    X, y, *, kernel="rbf", sigma2=1.0, task="classification", fit_model=True
) -> Level2Result:
    """Levels 1 and 2 for one kernel: gamma_MP, mu_MP, zeta_MP, gamma_eff, evidence.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two class labels (coded -1, +1 in sorted order) or real targets.
    kernel : {"rbf", "linear", "poly"}, Kernel or callable, default="rbf"
    sigma2 : float or ndarray of shape (n_features,), default=1.0
        RBF width(s), K(x, z) = exp(-sum_i (x_i - z_i)^2 / sigma2_i).
    task : {"classification", "regression"}
    fit_model : bool, default=True
        Also fit the level-1 model at gamma_MP (``model`` of the result).

    Returns
    -------
    Level2Result

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((80, 2))
    >>> y = np.where(X[:, 0] + 0.3 * rng.standard_normal(80) > 0, 1, -1)
    >>> res = level2(X, y, sigma2=2.0)
    >>> bool(np.isclose(2 * res.mu * res.E_W, res.gamma_eff - 1))
    True
    """
    X_given = X  # the level-1 model is fitted on X as given: its feature names
    X, t, classes = check_data(X, y, task, owner="level2")
    if isinstance(kernel, str) and kernel == "rbf":
        sigma2 = _check_sigma2(sigma2, X.shape[1])
    K = make_kernel(kernel, sigma2=sigma2)(X)
    spectrum = centred_spectrum(K, t)  # [VG 8]
    out = solve_level2(spectrum)  # [VG 9], [VG 7], [VG 11]
    model = None
    if fit_model and task == "classification" and not (
        isinstance(kernel, str) and kernel == "precomputed"
    ):
        # level 1 with the moderated output: class_probability reads this model
        model = LSSVMClassifier(
            gamma=out["gamma"], kernel=kernel, sigma2=sigma2, probability="bayes"
        ).fit(X_given, y)  # [VG 3]
    elif fit_model:
        model = level1(
            X_given, y, gamma=out["gamma"], sigma2=sigma2, kernel=kernel, task=task
        )
    top = max(spectrum.eigvals[-1], _TINY)  # eigh sorts ascending: the largest
    n_eff = int(np.sum(spectrum.eigvals > _N_EFF_RTOL * top))
    return Level2Result(
        **out, n_eff=n_eff, eigvals=spectrum.eigvals, sigma2=sigma2, targets=t,
        classes=classes, model=model,
    )  # fmt: skip


# ------------------------------------------------------------------ level 3
def _gradient_matrix(spectrum: Spectrum, gamma: float, implicit=True) -> NDArray:
    r"""S with d log_evidence / d theta = sum_kl S_kl dK_kl / d theta.

    The total derivative of [VG 10] through the level-2 optimum: the explicit
    dependence on K at fixed gamma, plus the implicit one through gamma_MP
    (implicit function theorem on dJ_2/d log gamma = 0). Every term is a trace
    tr(S dK) built from B = V diag(r) V^T, alpha and c = B alpha. With
    ``implicit=False`` (gamma pinned at the edge of its range) only the explicit
    part is returned.
    """
    lam, p, V = spectrum.eigvals, spectrum.proj, spectrum.eigvecs
    n1 = len(lam)  # N - 1
    r = 1.0 / (1.0 + gamma * lam)
    T = r.sum()  # N - gamma_eff
    F = 0.5 * gamma * np.sum(p**2 * r)  # E_W + gamma E_D
    E_D = 0.5 * np.sum(p**2 * r**2)
    dE_D = -np.sum(p**2 * lam * r**3)  # d E_D / d gamma
    B = (V * r) @ V.T
    B2 = (V * r**2) @ V.T
    alpha = gamma * V @ (r * p)
    c = gamma * V @ (r**2 * p)  # B alpha
    aa = np.outer(alpha, alpha)
    ca = np.outer(c, alpha)
    occam_T = 1.0 / T - 1.0 / (n1 - T)  # d/dT [log(N-1-T) + log T]
    dT_t = -np.sum(gamma * lam * r**2)  # dT / d log gamma
    h = gamma * E_D / F
    g_t = -dT_t + n1 * (h + gamma**2 * dE_D / F - h**2)  # d^2 J_2 / d(log gamma)^2
    S_explicit = -0.5 * (gamma * B - n1 / (2 * F) * aa - occam_T * gamma * B2)
    if not implicit:
        return S_explicit
    S_g = gamma * B2 - n1 / F * 0.5 * (ca + ca.T) + n1 * gamma * E_D / (2 * F**2) * aa
    return S_explicit + 0.5 * occam_T * dT_t / g_t * S_g


def _ard_trace(S, K, Z):
    """sum_kl S_kl K_kl (z_kd - z_ld)^2 for each input d: d log P / d log sigma2_d."""
    W = S * K
    w1 = W.sum(axis=1)
    return 2.0 * (w1 @ Z**2 - np.einsum("kd,kl,ld->d", Z, W, Z))


def _evidence_and_gradient(X, t, sigma2):
    """log evidence [VG 10] and its gradient w.r.t. log sigma2 (array, one per input)."""
    Z = X / np.sqrt(sigma2)  # ARDRBF: unit-width RBF on scaled inputs
    K = make_kernel("rbf", sigma2=1.0)(Z)
    spectrum = centred_spectrum(K, t)
    out = solve_level2(spectrum, warn=False)  # the optimiser may probe extremes
    S = _gradient_matrix(spectrum, out["gamma"], implicit=out["stationary"])
    return out["log_evidence"], _ard_trace(S, K, Z), out


def log_evidence_gradient(
    X, y, *, sigma2, task="classification"
) -> tuple[float, NDArray[np.float64]]:
    """Level-3 log evidence [VG 10-11] and its gradient w.r.t. log sigma2.

    The gradient is analytic and total: through the Gram matrix at fixed gamma and
    through gamma_MP(sigma2) by implicit differentiation of the level-2 condition;
    mu_MP and zeta_MP need no such term (envelope argument: [VG 6] is stationary in
    them). For the ARD weights u_i = 1 / sigma2_i, d/d log u_i = -d/d log sigma2_i.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sigma2 : float or ndarray of shape (n_features,)
        RBF width(s). A float gives the derivative w.r.t. the log of that one width.
    task : {"classification", "regression"}

    Returns
    -------
    log_evidence : float
    gradient : float or ndarray of shape (n_features,)
    """
    X, t, _ = check_data(X, y, task, owner="log_evidence_gradient")
    s = _check_sigma2(sigma2, X.shape[1], owner="log_evidence_gradient")
    widths = np.broadcast_to(np.asarray(s, dtype=np.float64), (X.shape[1],))
    value, grad, _ = _evidence_and_gradient(X, t, widths)
    return value, (float(grad.sum()) if np.ndim(s) == 0 else grad)


def _initial_sigma2(X, t):
    """Best isotropic width on a log grid around the number of inputs."""
    grid = X.shape[1] * np.logspace(-1.5, 2.0, 15)
    values = []
    for s in grid:  # extreme widths may put gamma_MP at an edge: no warning
        spectrum = centred_spectrum(make_kernel("rbf", sigma2=s)(X), t)
        values.append(solve_level2(spectrum, warn=False)["log_evidence"])
    return float(grid[int(np.argmax(values))])


def level3(
    X, y, *, sigma2=None, ard=False, task="classification", max_iter=100
) -> Level3Result:
    """Level 3: maximise the evidence [VG 11] over the RBF width(s) (L-BFGS-B).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sigma2 : float, ndarray of shape (n_features,) or None
        Starting width(s); None: the best of a log grid of isotropic widths.
    ard : bool, default=False
        One width per input (the weights 1/sigma2_i of ARD) instead of one.
    task : {"classification", "regression"}
    max_iter : int, default=100
        Iteration cap of the optimiser.

    Returns
    -------
    Level3Result
        ``path`` has one row per iteration, for plots such as [VanGestel01] [VG Fig. 1].
    """
    X_given = X
    X, t, _ = check_data(X, y, task, owner="level3")
    n = X.shape[1]
    s0 = (
        _initial_sigma2(X, t)
        if sigma2 is None
        else _check_sigma2(sigma2, n, owner="level3")
    )
    x0 = np.log(np.broadcast_to(s0, (n,)) if ard else np.atleast_1d(np.mean(s0)))

    def widths(x):
        return np.exp(x) if ard else np.full(n, np.exp(x[0]))

    def objective(x):
        value, grad, _ = _evidence_and_gradient(X, t, widths(x))
        return -value, -(grad if ard else np.atleast_1d(grad.sum()))

    path = [np.exp(x0)]
    opt = minimize(
        objective, x0, jac=True, method="L-BFGS-B",
        bounds=[LOG_SIGMA2_BOUNDS] * len(x0),
        options=dict(maxiter=max_iter), callback=lambda x: path.append(np.exp(x)),
    )  # fmt: skip
    best = widths(opt.x) if ard else float(np.exp(opt.x[0]))
    res2 = level2(X_given, y, sigma2=best, task=task)
    return Level3Result(best, res2.log_evidence, res2, int(opt.nit), np.array(path))


# ------------------------------------------------------------------ moderated output
def class_probability(result: Level2Result, X, *, prior=None) -> NDArray[np.float64]:
    r"""Moderated output P(y = +1 | x, D) of the Bayesian LS-SVM classifier.

    The likelihood of level 1 makes the latent z(x) = w^T phi(x) + b Gaussian
    around the label, N(y, 1/zeta); the posterior of (w, b) makes z(x) Gaussian
    with mean m(x) (the LS-SVM latent) and variance s^2(x) = sigma_GP^2(x) / mu,
    with sigma_GP^2 the Gaussian-process variance [S 3.60] with the flat prior on b
    (:func:`lssvm.gp.predictive_variance`). Integrating w and b out gives
    z | y ~ N(y, v), v = 1/zeta + s^2(x), and Bayes' rule with prior pi_+:

    .. math:: P(y = +1 | x) = 1 / (1 + \exp(-2 m(x) / v - \log(\pi_+/\pi_-))).

    It is :meth:`lssvm.LSSVMClassifier.moderated_output` of a classifier fitted with
    ``probability="bayes"`` (the model :func:`level2` fits), with the level-2 mu and
    zeta and the given prior. A ``result.model`` whose ``probability_`` is "bayes"
    (as :func:`level2` and :func:`level3` fit it) is used as it is, not refitted;
    only a model built by hand without it is refitted, once: a clone with
    ``probability="bayes"``, fitted on its own training data (its
    ``support_vectors_`` and ``result.targets``).

    Parameters
    ----------
    result : Level2Result
        From :func:`level2` or :func:`level3` with task="classification".
    X : array-like of shape (n_test, n_features)
    prior : float, optional
        pi_+ = P(y = +1); default: the fraction of +1 labels in training.

    Returns
    -------
    ndarray of shape (n_test,)
        Probabilities of ``result.classes[1]``.
    """
    if result.classes is None or result.model is None:
        raise ValueError(
            "class_probability: result must be a Level2Result of "
            "task='classification' fitted with fit_model=True."
        )
    t = result.targets
    pi = check_fraction(  # before any refit below
        float(np.mean(t > 0)) if prior is None else prior, "prior",
        meaning="pi_+ = P(y = +1)", owner="class_probability",
    )  # fmt: skip
    model = result.model
    if model.probability_ != "bayes":
        # a level-1 model fitted without probability="bayes" (built by hand): the
        # same model with the moderated output, fitted once on its own data
        model = clone(model).set_params(probability="bayes")
        model.fit(result.model.support_vectors_, result.classes[(t > 0).astype(int)])
    # LSSVMClassifier(probability="bayes"): m(x) and the GP variance of [S 3.60],
    # z | y ~ N(y, 1/zeta + var/mu), Bayes' rule (lssvm.probability), with the
    # level-2 mu, zeta and this prior
    return model.moderated_output(X, mu=result.mu, zeta=result.zeta, prior=pi)
