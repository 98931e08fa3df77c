r"""Relevance vector machine (RVM): sparse Bayesian learning, [C8 §8.7].

Tipping (2001) keeps the LS-SVM's kernel expansion but gives every weight its own
Gaussian prior (automatic relevance determination, ARD). With the design matrix
:math:`\Phi = [1_v, K]` (N x M, M = N + 1 with a bias column, else N) and
:math:`t = \Phi w + e`, :math:`e \sim N(0, \sigma^2 I)`, :math:`\beta = 1/\sigma^2`:

.. math::
   p(w \mid \alpha) = \prod_i N(w_i \mid 0, \alpha_i^{-1}), \qquad
   \Sigma = (A + \beta \Phi^T \Phi)^{-1}, \quad \mu = \beta\, \Sigma \Phi^T t,

with :math:`A = \mathrm{diag}(\alpha)` [C8 §8.7.1]. Integrating the weights out gives
the evidence (log marginal likelihood), with :math:`C = \sigma^2 I + \Phi A^{-1}\Phi^T`,

.. math:: \mathcal{L}(\alpha, \beta) = -\tfrac12 \big(N \log 2\pi + \log|C|
          + t^T C^{-1} t\big).

Two optimisers of the same :math:`\mathcal{L}` are implemented.

- ``solver="em"``: Tipping's re-estimation (MacKay's fixed point) on all M basis
  functions, :math:`\gamma_i = 1 - \alpha_i \Sigma_{ii}`, :math:`\alpha_i = \gamma_i
  / \mu_i^2`, :math:`\sigma^2 = \|t - \Phi\mu\|^2 / (N - \sum_i \gamma_i)`; a basis
  function leaves when :math:`\alpha_i` exceeds ``alpha_max``. The first iterations
  cost :math:`O(M^3)`.
- ``solver="fast"`` (default): the sequential algorithm of Tipping and Faul (2003)
  [C8 §8.7.3]. With :math:`C_{-i}` the covariance without basis i, the evidence
  separates as :math:`\mathcal{L} = \mathcal{L}(\alpha_{-i}) + \ell(\alpha_i)`,

  .. math:: \ell(\alpha_i) = \tfrac12\Big(\log\alpha_i - \log(\alpha_i + s_i)
            + \frac{q_i^2}{\alpha_i + s_i}\Big),

  with :math:`s_i = \phi_i^T C_{-i}^{-1}\phi_i` and :math:`q_i = \phi_i^T C_{-i}^{-1} t`,

  maximised at :math:`\alpha_i = s_i^2/(q_i^2 - s_i)` if :math:`\theta_i = q_i^2 -
  s_i > 0`, else at :math:`\alpha_i = \infty` (basis i out of the model). The
  sparsity and quality factors follow from :math:`S_i = \phi_i^T C^{-1}\phi_i`,
  :math:`Q_i = \phi_i^T C^{-1} t` of the current model as :math:`s_i = \alpha_i S_i
  / (\alpha_i - S_i)`, :math:`q_i = \alpha_i Q_i / (\alpha_i - S_i)` (basis in the
  model) or :math:`s_i = S_i`, :math:`q_i = Q_i` (out). Each iteration computes the
  gain :math:`\Delta\mathcal{L}` of the add, re-estimate or delete action of every
  basis function and applies the largest; the matrices are those of the current
  model only (m x m, m the number of relevance vectors).

Classification (:class:`RVMClassifier`, [C8 §8.7.2]) replaces the Gaussian likelihood
by the Bernoulli one with the logistic link; the weights are not integrable, so each
:math:`\alpha` gets a Laplace approximation: the mode :math:`w_{MP}` by Newton's
method (IRLS), :math:`\Sigma = (\Phi^T B \Phi + A)^{-1}`, :math:`B = \mathrm{diag}
(y_n(1 - y_n))`. The regression formulas then hold with :math:`\beta I` replaced by
B and t by :math:`\hat t = \Phi w_{MP} + B^{-1}(t - y)`; at the mode
:math:`Q_i = \phi_i^T (t - y)`.

Sources: M. E. Tipping, Sparse Bayesian learning and the relevance vector machine,
JMLR 1 (2001) 211-244; M. E. Tipping and A. C. Faul, Fast marginal likelihood
maximisation for sparse Bayesian models, AISTATS 2003; [C8 §8.7.1-8.7.3].
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import KERNEL_CONSTRAINTS
from .._validation import (
    Boolean,
    Count,
    NoneValue,
    Options,
    Positive,
    check_classes,
    check_finite_output,
    check_numeric_targets,
    validate_params,
)
from ..kernels import Precomputed, make_kernel
from ..linalg.memory import check_dense_memory

__all__ = ["RVMRegressor", "RVMClassifier", "SOLVERS", "log_evidence"]

SOLVERS = ("fast", "em")
_LOG_2PI = np.log(2.0 * np.pi)
#: The noise variance never goes below NOISE_FLOOR var(t) (noise-free targets would
#: drive it to zero, one ever smaller step per iteration).
NOISE_FLOOR = 1e-6
#: The fast solver's noise has settled when |log(sigma^2_new / sigma^2)| < NOISE_RTOL.
NOISE_RTOL = 1e-5
# When the Cholesky factorisation of H = A + G fails on round-off (a near-singular
# G), _JITTER times the mean diagonal of H is added to its diagonal: a relative
# shift of about 4.5e5 machine epsilons, enough to lift pivots that round-off made
# non-positive and small next to the diagonal. _TINY, a positive floor far below
# any weight that matters, keeps the re-estimate alpha_i = gamma_i / mu_i^2 finite
# when mu_i = 0 and the jitter positive when H is 0.
_JITTER = 1e-10
_TINY = 1e-300


# --- linear algebra of one model --------------------------------------------------


def _posterior(G, alpha):
    """Cholesky of H = A + G (G = beta Phi^T Phi or Phi^T B Phi) and Sigma = H^-1."""
    H = G + np.diag(alpha)
    try:
        factor = cho_factor(H, lower=True, check_finite=False)
    except np.linalg.LinAlgError:  # round-off on a (near-)singular G: a tiny jitter
        H[np.diag_indices_from(H)] += _JITTER * max(np.trace(H) / len(H), _TINY)
        factor = cho_factor(H, lower=True, check_finite=False)
    Sigma = cho_solve(factor, np.eye(len(alpha)), check_finite=False)
    logdet_H = 2.0 * np.sum(np.log(np.diag(factor[0])))
    return Sigma, logdet_H, factor


def log_evidence(Phi, t, alpha, noise_variance):
    r"""Log marginal likelihood of sparse Bayesian regression, by the N x N formula.

    :math:`\mathcal{L} = -\tfrac12 (N\log 2\pi + \log|C| + t^T C^{-1} t)`,
    :math:`C = \sigma^2 I + \Phi A^{-1}\Phi^T` [C8 §8.7.1]; ``alpha`` may hold inf
    (basis function out of the model). The reference for the tests: O(N^3).
    """
    Phi = np.asarray(Phi, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    alpha = np.asarray(alpha, dtype=np.float64)
    keep = np.isfinite(alpha)
    P = Phi[:, keep]
    C = noise_variance * np.eye(len(t)) + (P / alpha[keep]) @ P.T
    L = np.linalg.cholesky(C)
    z = solve_triangular(L, t, lower=True)
    return -0.5 * (len(t) * _LOG_2PI + 2.0 * np.sum(np.log(np.diag(L))) + z @ z)


def _ell(alpha, s, q):
    """The evidence's part in alpha_i: 0.5 (log a - log(a + s) + q^2/(a + s))."""
    return 0.5 * (np.log(alpha) - np.log(alpha + s) + q * q / (alpha + s))


def _action_gains(alpha, S, Q, in_model, min_in_model):
    """Gain in the evidence of the best action (add, re-estimate, delete) per basis.

    [C8 §8.7.3] steps 5-8: s, q from S, Q; theta = q^2 - s; the new alpha is
    s^2 / theta when theta > 0 (add or re-estimate), else infinity (delete).
    """
    s, q = S.copy(), Q.copy()
    a = alpha[in_model]
    denom = a - S[in_model]
    s[in_model] = a * S[in_model] / denom  # s_i = alpha_i S_i / (alpha_i - S_i)
    q[in_model] = a * Q[in_model] / denom  # q_i = alpha_i Q_i / (alpha_i - S_i)
    theta = q * q - s
    new_alpha = np.full_like(alpha, np.inf)
    pos = theta > 0
    new_alpha[pos] = s[pos] ** 2 / theta[pos]  # alpha_i = s_i^2 / (q_i^2 - s_i)
    gain = np.full_like(alpha, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        add = pos & ~in_model
        gain[add] = _ell(new_alpha[add], s[add], q[add])
        re = pos & in_model
        gain[re] = _ell(new_alpha[re], s[re], q[re]) - _ell(alpha[re], s[re], q[re])
        if in_model.sum() > min_in_model:
            de = ~pos & in_model
            gain[de] = -_ell(alpha[de], s[de], q[de])
    gain[~np.isfinite(gain)] = -np.inf
    return gain, new_alpha


def _initial_basis(Phi, t, noise_variance):
    """The basis function best aligned with t and its optimal alpha ([C8 §8.7.3] 3)."""
    norms = np.einsum("ij,ij->j", Phi, Phi)
    proj = (Phi.T @ t) ** 2 / norms
    i = int(np.argmax(proj))
    excess = proj[i] - noise_variance
    alpha = norms[i] / excess if excess > 0 else norms[i] / max(1e-3 * proj[i], 1e-12)
    return i, alpha


# --- regression -------------------------------------------------------------------


def _regression_state(PtP_a, Pt_t_a, tt, N, alpha_a, beta):
    """Sigma, mu and the evidence of the current regression model (m x m algebra)."""
    Sigma, logdet_H, _ = _posterior(beta * PtP_a, alpha_a)
    mu = beta * Sigma @ Pt_t_a  # mu = beta Sigma Phi^T t  [C8 §8.7.1]
    # log|C| = -N log beta - sum log alpha + log|A + beta Phi^T Phi| (determinant lemma)
    logdet_C = -N * np.log(beta) - np.sum(np.log(alpha_a)) + logdet_H
    # t^T C^-1 t = beta t^T t - beta (Phi^T t)^T mu  (Woodbury)
    quad = beta * tt - beta * Pt_t_a @ mu
    L = -0.5 * (N * _LOG_2PI + logdet_C + quad)
    return Sigma, mu, L


def _noise_update(Phi_a, t, mu, Sigma, alpha_a, N):
    """sigma^2 = ||t - Phi mu||^2 / (N - sum_i gamma_i), gamma_i = 1 - a_i Sigma_ii."""
    r = t - Phi_a @ mu
    gamma_sum = np.sum(1.0 - alpha_a * np.diag(Sigma))
    return float(r @ r) / max(N - gamma_sum, 1e-12)


def _fast_regression(Phi, t, noise0, fit_noise, max_iter, tol, timer):
    N, M = Phi.shape
    Pt_t = Phi.T @ t
    diag = np.einsum("ij,ij->j", Phi, Phi)
    tt = float(t @ t)
    beta = 1.0 / noise0
    floor = NOISE_FLOOR * max(float(np.var(t)), 1e-12)
    alpha = np.full(M, np.inf)
    i0, a0 = _initial_basis(Phi, t, noise0)
    alpha[i0] = a0
    active = [i0]
    cross = (Phi.T @ Phi[:, i0])[:, None]  # Phi^T Phi_a, one column per basis in
    history, times, converged = [], [], False
    for it in range(1, max_iter + 1):
        idx = np.array(active)
        Sigma, mu, L = _regression_state(cross[idx], Pt_t[idx], tt, N, alpha[idx], beta)
        history.append(L)
        times.append(timer())
        # S_m = beta phi^T phi - beta^2 phi^T Phi Sigma Phi^T phi  [C8 8.7.35]
        S = beta * diag - beta**2 * np.sum((cross @ Sigma) * cross, axis=1)
        # Q_m = beta phi^T t - beta^2 phi^T Phi Sigma Phi^T t
        #     = beta (phi^T t - phi^T Phi mu)
        Q = beta * (Pt_t - cross @ mu)
        in_model = np.isfinite(alpha)
        gain, new_alpha = _action_gains(alpha, S, Q, in_model, 1)
        best = int(np.argmax(gain))
        noise_moved = False
        if fit_noise:
            noise = max(_noise_update(Phi[:, idx], t, mu, Sigma, alpha[idx], N), floor)
            noise_moved = abs(np.log(noise * beta)) > NOISE_RTOL
        if gain[best] <= tol and not noise_moved:
            converged = True
            break
        if gain[best] > tol:
            if np.isfinite(new_alpha[best]):
                if not in_model[best]:  # add (step 7)
                    active.append(best)
                    cross = np.column_stack([cross, Phi.T @ Phi[:, best]])
                alpha[best] = new_alpha[best]  # add or re-estimate (steps 6-7)
            else:  # delete (step 8)
                j = active.index(best)
                active.pop(j)
                cross = np.delete(cross, j, axis=1)
                alpha[best] = np.inf
        if fit_noise:  # step 9, from the model before this iteration's action
            beta = 1.0 / noise
    idx = np.array(active)
    Sigma, mu, L = _regression_state(cross[idx], Pt_t[idx], tt, N, alpha[idx], beta)
    if converged or len(history) < max_iter:
        history.append(L)
        times.append(timer())
    return idx, alpha[idx], mu, Sigma, 1.0 / beta, history, times, converged, it


def _em_regression(Phi, t, noise0, fit_noise, max_iter, tol, alpha_max, timer):
    N, M = Phi.shape
    PtP = Phi.T @ Phi
    Pt_t = Phi.T @ t
    tt = float(t @ t)
    beta = 1.0 / noise0
    floor = NOISE_FLOOR * max(float(np.var(t)), 1e-12)
    idx = np.arange(M)
    alpha = np.full(M, 1.0 / max(np.var(t), 1e-12))
    history, times, converged = [], [], False
    for it in range(1, max_iter + 1):
        Sigma, mu, L = _regression_state(PtP[np.ix_(idx, idx)], Pt_t[idx], tt, N,
                                         alpha, beta)  # fmt: skip
        history.append(L)
        times.append(timer())
        gamma = 1.0 - alpha * np.diag(Sigma)  # gamma_i = 1 - alpha_i Sigma_ii
        new_alpha = gamma / np.maximum(mu * mu, _TINY)  # alpha_i = gamma_i / mu_i^2
        if fit_noise:
            r = t - Phi[:, idx] @ mu
            noise = max(float(r @ r) / max(N - gamma.sum(), 1e-12), floor)
            d_noise = abs(np.log(noise * beta))
            beta = 1.0 / noise
        else:
            d_noise = 0.0
        keep = new_alpha < alpha_max
        if not keep.any():
            keep[np.argmin(new_alpha)] = True
        change = np.max(np.abs(np.log(new_alpha[keep] / alpha[keep])))
        pruned = not keep.all()
        idx, alpha = idx[keep], new_alpha[keep]
        if not pruned and change < tol and d_noise < max(tol, NOISE_RTOL):
            converged = True
            break
    Sigma, mu, L = _regression_state(PtP[np.ix_(idx, idx)], Pt_t[idx], tt, N, alpha,
                                     beta)  # fmt: skip
    history.append(L)
    times.append(timer())
    return idx, alpha, mu, Sigma, 1.0 / beta, history, times, converged, it


# --- classification ---------------------------------------------------------------


def _log_sigmoid_terms(f, t):
    """sum_n t log y + (1 - t) log(1 - y), y = sigmoid(f), computed stably."""
    return float(np.sum(t * f - np.logaddexp(0.0, f)))


def _irls(Phi_a, t, alpha_a, w, max_iter, tol):
    """Mode of the weight posterior (Laplace step) by Newton's method with halving.

    Maximises Psi(w) = sum_n [t log y + (1 - t) log(1 - y)] - w^T A w / 2; the
    gradient is Phi^T (t - y) - A w and the Hessian -(Phi^T B Phi + A) [C8 §8.7.2].
    Returns w, Sigma, log|H|, Psi and whether the gradient fell below ``tol``.
    """
    def psi(w):
        return _log_sigmoid_terms(Phi_a @ w, t) - 0.5 * np.sum(alpha_a * w * w)

    current = psi(w)
    converged = False
    for _ in range(max_iter):
        y = expit(Phi_a @ w)
        grad = Phi_a.T @ (t - y) - alpha_a * w
        if np.max(np.abs(grad)) < tol:
            converged = True
            break
        B = y * (1.0 - y)
        H = (Phi_a * B[:, None]).T @ Phi_a + np.diag(alpha_a)
        step = cho_solve(cho_factor(H, lower=True, check_finite=False), grad)
        for _ in range(30):  # halve the Newton step until Psi increases
            trial = psi(w + step)
            if trial >= current:
                break
            step *= 0.5
        w = w + step
        current = trial
    y = expit(Phi_a @ w)
    B = y * (1.0 - y)
    G = (Phi_a * B[:, None]).T @ Phi_a
    Sigma, logdet_H, _ = _posterior(G, alpha_a)
    return w, Sigma, logdet_H, current, y, B, converged


def _laplace_evidence(psi, logdet_H, alpha_a):
    """Laplace evidence: Psi(w_MP) + 0.5 sum log alpha - 0.5 log|H|."""
    return psi + 0.5 * np.sum(np.log(alpha_a)) - 0.5 * logdet_H


def _fit_classifier(Phi, t, solver, max_iter, tol, irls_max_iter, irls_tol, alpha_max,
                    timer):  # fmt: skip
    N, M = Phi.shape
    history, times = [], []
    irls_failures = 0
    converged = False
    if solver == "fast":
        alpha = np.full(M, np.inf)
        i0, _ = _initial_basis(Phi, 2.0 * t - 1.0, 0.1)
        alpha[i0] = 1.0
        active = [i0]
        w = np.zeros(1)
        Phi2 = Phi * Phi
        for it in range(1, max_iter + 1):
            idx = np.array(active)
            Pa = Phi[:, idx]
            w, Sigma, logdet_H, psi, y, B, ok = _irls(
                Pa, t, alpha[idx], w, irls_max_iter, irls_tol)  # fmt: skip
            irls_failures += not ok
            history.append(_laplace_evidence(psi, logdet_H, alpha[idx]))
            times.append(timer())
            cross = Phi.T @ (Pa * B[:, None])  # Phi^T B Phi_a
            # S_m = phi^T B phi - phi^T B Phi Sigma Phi^T B phi; Q_m = phi^T (t - y)
            S = Phi2.T @ B - np.sum((cross @ Sigma) * cross, axis=1)
            Q = Phi.T @ (t - y)
            in_model = np.isfinite(alpha)
            gain, new_alpha = _action_gains(alpha, S, Q, in_model, 1)
            best = int(np.argmax(gain))
            if gain[best] <= tol:
                converged = True
                break
            if np.isfinite(new_alpha[best]):
                if not in_model[best]:
                    active.append(best)
                    w = np.append(w, 0.0)
                alpha[best] = new_alpha[best]
            else:
                j = active.index(best)
                active.pop(j)
                w = np.delete(w, j)
                alpha[best] = np.inf
        idx = np.array(active)
        alpha_a = alpha[idx]
    else:
        idx = np.arange(M)
        alpha_a = np.ones(M)
        w = np.zeros(M)
        for it in range(1, max_iter + 1):
            Pa = Phi[:, idx]
            w, Sigma, logdet_H, psi, y, B, ok = _irls(Pa, t, alpha_a, w, irls_max_iter,
                                                     irls_tol)  # fmt: skip
            irls_failures += not ok
            history.append(_laplace_evidence(psi, logdet_H, alpha_a))
            times.append(timer())
            gamma = 1.0 - alpha_a * np.diag(Sigma)
            new_alpha = gamma / np.maximum(w * w, _TINY)  # alpha_i = gamma_i / mu_i^2
            keep = new_alpha < alpha_max
            if not keep.any():
                keep[np.argmin(new_alpha)] = True
            change = np.max(np.abs(np.log(new_alpha[keep] / alpha_a[keep])))
            pruned = not keep.all()
            idx, alpha_a, w = idx[keep], new_alpha[keep], w[keep]
            if not pruned and change < tol:
                converged = True
                break
    Pa = Phi[:, idx]
    w, Sigma, logdet_H, psi, y, B, ok = _irls(Pa, t, alpha_a, w, irls_max_iter,
                                             irls_tol)  # fmt: skip
    irls_failures += not ok
    history.append(_laplace_evidence(psi, logdet_H, alpha_a))
    times.append(timer())
    return idx, alpha_a, w, Sigma, history, times, converged, it, irls_failures


# --- estimators -------------------------------------------------------------------


#: The parameters both relevance vector machines share.
_RVM_CONSTRAINTS = {
    **KERNEL_CONSTRAINTS,
    "fit_intercept": [Boolean("fit the bias term b")],
    "solver": [Options(SOLVERS)],
    "max_iter": [Count(1)],
    "tol": [Positive("convergence tolerance")],
    "alpha_max": [Positive("threshold above which a weight is pruned (em)")],
}


class _RVMBase(BaseEstimator):
    def _check_common(self):
        """The kernel (the parameters are validated at the start of ``fit``)."""
        kernel = make_kernel(self.kernel, sigma2=self.sigma2, degree=self.degree,
                             tau=self.tau)  # fmt: skip
        if isinstance(kernel, Precomputed):
            raise ValueError(
                f"{type(self).__name__}: kernel='precomputed' is not supported; pass "
                "'rbf', 'linear', 'poly', a Kernel or a callable."
            )
        return kernel

    def _design(self, X, Z):
        """Phi = [1, K(X, Z)] with the bias column, else K(X, Z) [C8 8.7.10]."""
        check_dense_memory(  # Phi (N x N+1), Phi^T Phi and the posterior covariance
            len(X), n_matrices=3, what=f"{type(self).__name__} (the N x N design "
            "matrix and its products)", alternative="fit on a subsample", owner=self,
        )  # fmt: skip
        K = check_finite_output(self.kernel_(X, Z), self.kernel_, owner=self)
        if self.fit_intercept:
            return np.column_stack([np.ones(len(X)), K])
        return K

    def _store(self, X, idx, alpha, mu, Sigma, history, times, converged, n_iter):
        order = np.argsort(idx)
        idx, alpha, mu = idx[order], alpha[order], mu[order]
        Sigma = Sigma[np.ix_(order, order)]
        offset = 1 if self.fit_intercept else 0
        has_bias = self.fit_intercept and idx.size and idx[0] == 0
        rv = idx[idx >= offset] - offset
        self.basis_ = idx
        self.relevance_indices_ = rv
        self.relevance_vectors_ = X[rv]
        self.coef_ = mu[idx >= offset]
        self.intercept_ = float(mu[0]) if has_bias else 0.0
        self.alpha_ = alpha[idx >= offset]
        self.intercept_alpha_ = float(alpha[0]) if has_bias else np.inf
        self.weights_ = mu
        self.covariance_ = Sigma
        self.evidence_history_ = np.asarray(history)
        self.evidence_times_ = np.asarray(times)
        self.log_evidence_ = float(history[-1])
        self.converged_ = bool(converged)
        self.n_iter_ = int(n_iter)
        self.n_relevance_ = int(rv.size)

    def _features(self, X):
        """The kept basis functions at X: [1, K(X, relevance vectors)]."""
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        K = self.kernel_(X, self.relevance_vectors_) if self.n_relevance_ else np.zeros(
            (len(X), 0))
        if self.fit_intercept and np.isfinite(self.intercept_alpha_):
            return np.column_stack([np.ones(len(X)), K])
        return K


def _clock():
    import time

    start = time.perf_counter()
    return lambda: time.perf_counter() - start


class RVMRegressor(RegressorMixin, _RVMBase):
    r"""Relevance vector regression (Tipping 2001), [C8 §8.7.1], [C8 §8.7.3].

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly"}, Kernel or callable, default="rbf"
        Any kernel of :mod:`lssvm.kernels`; the basis functions are K(., x_n).
    sigma2 : float, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13] (not the noise).
    degree, tau : int, float
        Polynomial kernel (x^T z + tau)^degree.
    fit_intercept : bool, default=True
        Add the constant basis function (the bias w_0) to the design [C8 8.7.10].
    solver : {"fast", "em"}, default="fast"
        "fast": sequential add/re-estimate/delete of Tipping and Faul (2003)
        [C8 §8.7.3]; "em": re-estimation alpha_i = gamma_i / mu_i^2 on all basis
        functions (Tipping 2001).
    noise_variance : float or None, default=None
        Initial noise variance sigma^2; None: 0.1 var(t) ([C8 §8.7.3] step 1).
    fit_noise : bool, default=True
        Re-estimate sigma^2 (else keep ``noise_variance`` fixed).
    max_iter : int, default=2000
        Iterations of the chosen solver (one action per iteration for "fast").
    tol : float, default=1e-6
        "fast": stop when no action gains more than ``tol`` in the log evidence and
        the noise has settled (relative change below 1e-5); "em": stop when no
        log(alpha_i) moves by more than tol. sigma^2 is kept >= 1e-6 var(t).
    alpha_max : float, default=1e9
        "em" only: a basis function with alpha_i above this is pruned. alpha is
        compared on targets scaled to unit root mean square (the fit works on
        y / rms(y) and scales back), so the fit is equivariant under y -> c y.

    Attributes
    ----------
    relevance_indices_ : ndarray of int
        Training indices of the relevance vectors (kernel columns kept).
    relevance_vectors_ : ndarray of shape (n_relevance, n_features)
    coef_ : ndarray of shape (n_relevance,)
        Posterior mean weights mu of the relevance vectors.
    intercept_ : float
        Posterior mean of the bias weight (0 when absent or pruned).
    alpha_ : ndarray of shape (n_relevance,)
        Prior precisions of the relevance vectors' weights; ``intercept_alpha_``
        the bias's (inf when pruned).
    noise_variance_ : float
        sigma^2 = 1 / beta at the end.
    covariance_ : ndarray of shape (m, m)
        Posterior covariance Sigma of the kept weights (bias first when kept).
    log_evidence_ : float
        Log marginal likelihood at the end; ``evidence_history_`` (one per
        iteration) and ``evidence_times_`` (seconds since the fit started).
    n_iter_, converged_ : int, bool
    """

    def __init__(
        self, *, kernel="rbf", sigma2=1.0, degree=3, tau=1.0, fit_intercept=True,
        solver="fast", noise_variance=None, fit_noise=True, max_iter=2000, tol=1e-6,
        alpha_max=1e9,
    ):  # fmt: skip
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.noise_variance = noise_variance
        self.fit_noise = fit_noise
        self.max_iter = max_iter
        self.tol = tol
        self.alpha_max = alpha_max

    _parameter_constraints = {
        **_RVM_CONSTRAINTS,
        "noise_variance": [Positive("initial noise variance"), NoneValue()],
        "fit_noise": [Boolean("re-estimate the noise variance")],
    }

    def fit(self, X, y):
        """Maximise the evidence over alpha (and sigma^2) by the chosen solver."""
        validate_params(self)  # the constraints table, once
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        y = check_numeric_targets(y, owner=self)
        if len(y) < 2:
            raise ValueError(
                f"RVMRegressor needs at least 2 samples; got n_samples={len(y)}."
            )
        self.kernel_ = self._check_common()
        # Scale equivariance: fit t / s with s the RMS of y (the floors and guards of
        # the solvers are relative to var(t) or absolute: y * 1e-10 collapsed), then
        # scale back: weights s, covariance and noise s^2, alpha 1/s^2.
        s = float(np.sqrt(np.mean(y * y)))
        s = s if s > 0.0 and np.isfinite(s) else 1.0
        t = y / s
        if self.noise_variance is None:
            noise0 = 0.1 * max(float(np.var(t)), 1e-12)
        else:
            noise0 = float(self.noise_variance) / s**2
        Phi = self._design(X, X)  # checked: memory, finite (polynomial overflow)
        timer = _clock()
        if self.solver == "fast":
            out = _fast_regression(Phi, t, noise0, bool(self.fit_noise), self.max_iter,
                                   self.tol, timer)  # fmt: skip
        else:
            out = _em_regression(Phi, t, noise0, bool(self.fit_noise), self.max_iter,
                                 self.tol, self.alpha_max, timer)  # fmt: skip
        idx, alpha, mu, Sigma, noise, history, times, converged, n_iter = out
        alpha, mu, Sigma, noise = alpha / s**2, mu * s, Sigma * s**2, noise * s**2
        history = np.asarray(history) - len(y) * np.log(s)  # log p(y) = log p(t) - N log s
        self.noise_variance_ = float(noise)
        self._store(X, idx, alpha, mu, Sigma, history, times, converged, n_iter)
        if not converged:
            warnings.warn(
                f"RVMRegressor(solver={self.solver!r}) stopped after max_iter="
                f"{self.max_iter} iterations before the evidence converged.",
                ConvergenceWarning, stacklevel=2,
            )
        return self

    def predict(self, X, return_std=False):
        r"""Predictive mean Phi(x) mu; with ``return_std`` also the predictive
        standard deviation sqrt(sigma^2 + phi(x)^T Sigma phi(x)) (Tipping 2001)."""
        F = self._features(X)
        mean = check_finite_output(F @ self.weights_, self.kernel_, owner=self)
        if not return_std:
            return mean
        var = self.noise_variance_ + np.sum((F @ self.covariance_) * F, axis=1)
        return mean, np.sqrt(var)


class RVMClassifier(ClassifierMixin, _RVMBase):
    r"""Relevance vector classification (Tipping 2001), [C8 §8.7.2], two classes.

    Bernoulli likelihood with the logistic link, P(classes_[1] | x) =
    sigmoid(phi(x)^T w); each evidence evaluation uses the Laplace approximation at
    the mode found by IRLS (Newton's method).

    Parameters
    ----------
    kernel, sigma2, degree, tau, fit_intercept, solver, alpha_max
        As in :class:`RVMRegressor`.
    max_iter : int, default=1000
        Outer iterations (actions for "fast", re-estimations for "em").
    tol : float, default=1e-6
        As in :class:`RVMRegressor` (the evidence is the Laplace approximation).
    irls_max_iter : int, default=50
        Newton iterations per Laplace step; a ConvergenceWarning says when the last
        one, or any step, stopped before its gradient fell below ``irls_tol``.
    irls_tol : float, default=1e-6
        Largest absolute gradient component at the mode.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    relevance_indices_, relevance_vectors_, coef_, intercept_, alpha_,
    intercept_alpha_, covariance_, log_evidence_, evidence_history_, n_iter_,
    converged_
        As in :class:`RVMRegressor`; the evidence is the Laplace approximation.
    irls_failures_ : int
        Laplace steps whose Newton iteration stopped at ``irls_max_iter``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # two classes only
        return tags

    _parameter_constraints = {
        **_RVM_CONSTRAINTS,
        "irls_max_iter": [Count(1)],
        "irls_tol": [Positive("IRLS gradient tolerance")],
    }

    def __init__(
        self, *, kernel="rbf", sigma2=1.0, degree=3, tau=1.0, fit_intercept=True,
        solver="fast", max_iter=1000, tol=1e-6, alpha_max=1e9, irls_max_iter=50,
        irls_tol=1e-6,
    ):  # fmt: skip
        self.kernel = kernel
        self.sigma2 = sigma2
        self.degree = degree
        self.tau = tau
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.alpha_max = alpha_max
        self.irls_max_iter = irls_max_iter
        self.irls_tol = irls_tol

    def fit(self, X, y):
        """Maximise the Laplace evidence over alpha; IRLS finds each mode."""
        validate_params(self)  # the constraints table, once
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, t = np.unique(y, return_inverse=True)
        check_classes(self.classes_.tolist(), owner=self)
        if len(self.classes_) != 2:
            raise ValueError(
                f"RVMClassifier handles two classes; got {len(self.classes_)} classes: "
                f"{self.classes_.tolist()}. Only binary classification is supported."
            )
        self.kernel_ = self._check_common()
        Phi = self._design(X, X)
        out = _fit_classifier(Phi, t.astype(np.float64), self.solver, self.max_iter,
                              self.tol, self.irls_max_iter, self.irls_tol,
                              self.alpha_max, _clock())  # fmt: skip
        idx, alpha, mu, Sigma, history, times, converged, n_iter, failures = out
        self.irls_failures_ = int(failures)
        self._store(X, idx, alpha, mu, Sigma, history, times, converged, n_iter)
        if failures:
            warnings.warn(
                f"RVMClassifier: {failures} Laplace step(s) stopped at irls_max_iter="
                f"{self.irls_max_iter} Newton iterations before the gradient fell "
                f"below irls_tol={self.irls_tol:g}.",
                ConvergenceWarning, stacklevel=2,
            )
        if not converged:
            warnings.warn(
                f"RVMClassifier(solver={self.solver!r}) stopped after max_iter="
                f"{self.max_iter} iterations before the evidence converged.",
                ConvergenceWarning, stacklevel=2,
            )
        return self

    def decision_function(self, X):
        """phi(x)^T w_MP (> 0: classes_[1])."""
        out = self._features(X) @ self.weights_
        return check_finite_output(out, self.kernel_, owner=self)

    def predict_proba(self, X):
        """[1 - p, p] with p = sigmoid(phi(x)^T w_MP) (Tipping 2001)."""
        p = expit(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """classes_[1] where phi(x)^T w_MP > 0, else classes_[0]."""
        positive = self.decision_function(X) > 0  # checks that the model is fitted
        return self.classes_[positive.astype(int)]
