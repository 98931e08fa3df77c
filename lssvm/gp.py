r"""LS-SVM regression as a Gaussian process: error bars, [S 3.54-3.63].

With :math:`C_N = \Omega + I/\gamma`, :math:`\Omega_{kl} = K(x_k, x_l)`, the zero-bias
LS-SVM [S 3.62] is the posterior mean of a zero-mean Gaussian process with covariance
K observed with noise variance :math:`1/\gamma` [S 3.63]. With
:math:`\theta(x) = [K(x, x_1); \dots; K(x, x_N)]` and the prior variance
:math:`\nu = K(x, x)` (the :math:`\nu` of [S 3.55], not that of [S 3.25]), [S 3.60] gives
the posterior variance of the latent function f(x):

.. math:: \sigma^2(x) = \nu - \theta^T C_N^{-1} \theta.

**With the bias b** [S 3.32], take b as a constant basis function with a flat
(improper) prior, as regularization networks do and as [RW §2.7] does for
explicit basis functions with a vague prior. Let
:math:`f(x) = g(x) + b`, :math:`g \sim GP(0, K)`, :math:`b \sim N(0, c)`
independent of g. Then :math:`\mathrm{cov}(y) = C_N + c\, 1_v 1_v^T`,
:math:`\mathrm{cov}(f(x), y) = \theta + c\, 1_v`, :math:`\mathrm{var} f(x) = \nu + c`,
and [S 3.60] with Sherman-Morrison on :math:`(C_N + c\, 1_v 1_v^T)^{-1}` gives, with

.. math::

    q = \theta^T C_N^{-1} \theta, \quad p = 1_v^T C_N^{-1} \theta, \quad
    s = 1_v^T C_N^{-1} 1_v \ (\text{the } s \text{ of [S 3.25]}),

.. math:: \sigma_c^2(x) = \nu - q + \frac{(1 - p)^2}{s + 1/c}
    \ \xrightarrow{c \to \infty}\ \nu - q + \frac{(1 - p)^2}{s}.

The limit is [RW 2.42] with h(x) = 1: the second term is the variance added by
not knowing b. The posterior mean tends to :math:`\theta^T C_N^{-1}(y - 1_v \hat b)
+ \hat b` with :math:`\hat b = 1_v^T C_N^{-1} y / s`, which is [S 3.25] step 3: the
LS-SVM model [S 3.34] with bias is this GP's posterior mean, as [S 3.63] is without it.
Equivalently, :math:`\sigma^2(x) = \nu - [1; \theta]^T A^{-1} [1; \theta]` with A the
bordered matrix of [S 3.32]: [S 3.60] with C_N replaced by the KKT matrix (the ordinary
kriging variance).

The variance is of the latent f(x). A new observation y(x) = f(x) + e has variance
:math:`\sigma^2(x) + 1/\gamma`.

Sources: Suykens et al. (2002), [S 3.54-3.63]. [RW06] Rasmussen & Williams (2006),
*Gaussian Processes for Machine Learning*, [RW §2.7, 2.41-2.42].
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import NDArray

from .linalg.factor import CholeskyFactor, NumericalWarning

__all__ = ["predictive_variance", "NEGATIVE_VARIANCE_RTOL"]

# Computed variances below 0 but above -NEGATIVE_VARIANCE_RTOL * (nu + q + bias term)
# are round-off of a cancellation between terms of that size: clipped silently.
NEGATIVE_VARIANCE_RTOL = 1e-10


def predictive_variance(
    K_test: NDArray,
    prior_var: NDArray,
    factor: CholeskyFactor,
    *,
    fit_intercept: bool,
) -> NDArray[np.float64]:
    r"""Error bars of the LS-SVM regressor seen as a Gaussian process, [S 3.60].

    .. math:: \sigma^2(x) = \nu - \theta^T C_N^{-1} \theta
        \ \left[ + \frac{(1 - 1_v^T C_N^{-1}\theta)^2}{1_v^T C_N^{-1} 1_v}
        \text{ with the bias} \right]

    with C_N = H = Omega + I/gamma (the identification made after [S 3.63]); the
    bias term is derived in the module docstring. Costs one triangular solve with
    n_test right-hand sides, O(N^2 n_test).

    Parameters
    ----------
    K_test : ndarray of shape (n_test, n_samples)
        Row i is theta(x_i)^T = [K(x_i, x_1), ..., K(x_i, x_N)].
    prior_var : ndarray of shape (n_test,)
        Prior variances K(x_i, x_i), the nu of [S 3.55] (not the nu of [S 3.25]).
    factor : CholeskyFactor
        The :class:`lssvm.linalg.factor.CholeskyFactor` of C_N = Omega + I/gamma
        on the training points in the order of the columns of ``K_test``: the
        direct solver's :attr:`lssvm.linalg.solvers.KKTSolution.factor`, the one
        the estimators keep, or ``CholeskyFactor.from_kernel(K, gamma)``.
    fit_intercept : bool
        Whether the model has the bias b [S 3.32], with a flat prior: adds
        (1 - p)^2 / s. False: the zero-bias model [S 3.62], formula [S 3.60].

    Returns
    -------
    var : ndarray of shape (n_test,)
        Posterior variance of the latent f(x_i), without the noise 1/gamma.
        Negatives from round-off are clipped to 0: silently above
        -``NEGATIVE_VARIANCE_RTOL`` times the size of the cancelling terms, with a
        :class:`NumericalWarning` below.

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.kernels import RBF
    >>> from lssvm.linalg import CholeskyFactor
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> K, gamma = RBF(1.0)(X), 100.0
    >>> factor = CholeskyFactor.from_kernel(K, gamma)  # of K + I/gamma
    >>> x = np.array([[1.0], [10.0]])  # a training point, and one far away
    >>> var = predictive_variance(RBF(1.0)(x, X), np.ones(2), factor,
    ...                           fit_intercept=False)
    >>> bool(var[0] < 1 / gamma), float(np.round(var[1], 12))
    (True, 1.0)

    Source: Suykens et al. (2002), [S 3.54-3.63]; [RW 2.42].
    """
    K_test, prior_var = _check_inputs(K_test, prior_var, factor)
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise ValueError(
            f"predictive_variance: fit_intercept must be a bool; got "
            f"fit_intercept={fit_intercept!r}."
        )
    # V = L^{-1} theta (L L^T = C_N), so that theta^T C_N^{-1} theta = ||V||^2
    V = factor.half_solve(K_test.T)  # (n_samples, n_test)
    q = np.einsum("ij,ij->j", V, V)  # theta^T C_N^{-1} theta
    var = prior_var - q  # [S 3.60]
    extra = np.zeros_like(var)
    if fit_intercept:
        # w = L^{-1} 1_v and s = 1^T C_N^{-1} 1 (the s of [S 3.25]): once per
        # factor, not once per block of test points
        w, s = factor.half_solve_ones()
        p = w @ V  # 1^T C_N^{-1} theta
        extra = (1.0 - p) ** 2 / s  # flat prior on b: [RW 2.42]
        var += extra
    return _clip_round_off(var, np.abs(prior_var) + q + extra)


def _check_inputs(K_test, prior_var, factor):
    K_test = np.asarray(K_test, dtype=np.float64)
    prior_var = np.asarray(prior_var, dtype=np.float64)
    if K_test.ndim != 2:
        raise ValueError(
            f"predictive_variance: K_test must be 2-D, of shape (n_test, n_samples); "
            f"got shape {K_test.shape}."
        )
    if prior_var.shape != (K_test.shape[0],):
        raise ValueError(
            f"predictive_variance: prior_var must have shape (n_test,) = "
            f"({K_test.shape[0]},), one K(x, x) per row of K_test; got shape "
            f"{prior_var.shape}."
        )
    if not isinstance(factor, CholeskyFactor):
        raise TypeError(
            "predictive_variance: factor must be a CholeskyFactor "
            "(lssvm.linalg.factor) of C_N = Omega + I/gamma, e.g. "
            "CholeskyFactor.from_kernel(K, gamma) or KKTSolution.factor; got "
            f"{type(factor).__name__}."
        )
    n = K_test.shape[1]
    if len(factor) != n:
        raise ValueError(
            f"predictive_variance: the Cholesky factor must be of n_samples = {n} "
            f"points, one per column of K_test; got a factor of {len(factor)} points."
        )
    return K_test, prior_var


def _clip_round_off(var, scale):
    """Clip negatives to 0; warn for those beyond round-off of the terms' size."""
    bad = var < -NEGATIVE_VARIANCE_RTOL * scale
    if np.any(bad):
        warnings.warn(
            f"Predictive variance negative at {int(bad.sum())} of {var.size} points "
            f"(down to {var.min():.1e}), beyond round-off (tol "
            f"{NEGATIVE_VARIANCE_RTOL:.0e} relative); clipped to 0. Omega + I/gamma "
            f"is ill-conditioned (decrease gamma) or the kernel is not positive "
            f"semi-definite.",
            NumericalWarning,
            stacklevel=3,
        )
    return np.maximum(var, 0.0)
