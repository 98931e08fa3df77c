r"""Class probabilities from LS-SVM outputs: arrays in, probabilities out.

The estimators (``predict_proba`` of :class:`lssvm.LSSVMClassifier`,
:class:`lssvm.LSSVMClassifierCV`, :class:`lssvm.RLSSVMClassifier`) and
:func:`lssvm.bayes.evidence.class_probability` call these functions; this module imports no
estimator, so both can (imports point down: an estimator whose ``predict_proba``
called into ``bayes`` would close a cycle). The leave-one-out outputs Platt's
sigmoid is fitted to come from the factor of the fit
(:meth:`lssvm.linalg.factor.CholeskyFactor.loo_latent`, the formula the closed-form
cross-validation also uses).

- :func:`platt_fit`, :func:`platt_predict`: Platt's sigmoid
  :math:`P(y = +1 | f) = 1 / (1 + \exp(A f + B))`, fitted by the Newton method with
  backtracking of Lin, Lin & Weng (2007) to Platt's smoothed targets
  :math:`(N_+ + 1)/(N_+ + 2)` and :math:`1/(N_- + 2)`. Fitted to leave-one-out
  outputs, not to the training outputs (which are biased towards the labels).
- :func:`pairwise_coupling`: class probabilities from the pairwise probabilities of
  a one-versus-one code, method 2 of Wu, Lin & Weng (2004) (LIBSVM's), solved
  exactly as a small linear system per sample.
- :func:`code_probabilities`: the rule for the other output codes (one-versus-all,
  minimum output, ECOC, explicit codes): each class's score is the product over
  bits of the probability that the bit takes the class's code entry, a zero entry
  counting 1/2 (as in Hamming decoding), normalised over the classes. This treats
  the bits as independent given x.
- :func:`evidence_mu`, :func:`moderated_output`: the Bayesian moderated output of the
  evidence framework [VanGestel01] for a classifier fitted at a given gamma.

Sources: J. Platt (1999), probabilistic outputs for SVMs; H.-T. Lin, C.-J. Lin and
R. C. Weng, Machine Learning 68 (2007); T.-F. Wu, C.-J. Lin and R. C. Weng, JMLR 5
(2004); G. C. Cawley and N. L. C. Talbot, Neural Networks 17 (2004);
[VanGestel01], [RW 2.42].
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit

from ._validation import check_sample_weight

__all__ = [
    "platt_fit",
    "platt_predict",
    "pairwise_coupling",
    "code_probabilities",
    "evidence_mu",
    "moderated_output",
]

# Pairwise probabilities are kept in [eps, 1 - eps] before coupling (as LIBSVM).
_COUPLING_EPS = 1e-7


def _platt_cost(f, t, w, A, B):
    z = A * f + B  # P(y=+1) = 1 / (1 + exp(z))
    return float(np.sum(w * (t * np.logaddexp(0.0, z) + (1 - t) * np.logaddexp(0.0, -z))))


def platt_fit(f, y, sample_weight=None, *, max_iter=100) -> tuple[float, float]:
    """Platt's sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B)) fitted to outputs f.

    Parameters
    ----------
    f : ndarray of shape (n,)
        Decision values, ideally held-out ones
        (:meth:`lssvm.linalg.factor.CholeskyFactor.loo_latent`).
    y : ndarray of shape (n,)
        True where the label is the positive class.
    sample_weight : ndarray of shape (n,), optional
        Weights of the log-likelihood terms (and of the class counts of the targets):
        finite, >= 0, at least one > 0 (else ValueError).

    Returns
    -------
    (A, B) : floats. A < 0 when f grows with P(y = +1).
    """
    f = np.asarray(f, dtype=np.float64)
    y = np.asarray(y, dtype=bool)
    w = check_sample_weight(sample_weight, f, owner="platt_fit")  # one per output
    w = np.ones_like(f) if w is None else w
    n_pos, n_neg = w[y].sum(), w[~y].sum()
    t = np.where(y, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))  # Platt
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    cost = _platt_cost(f, t, w, A, B)
    for _ in range(max_iter):  # Newton with backtracking, Lin, Lin & Weng (2007)
        p = expit(-(A * f + B))  # P(y = +1 | f)
        d1 = w * (t - p)  # derivative of the cost in z = A f + B
        d2 = w * p * (1.0 - p)
        g = np.array([f @ d1, d1.sum()])
        if np.max(np.abs(g)) < 1e-5:
            break
        H = np.array([[f * f @ d2, f @ d2], [f @ d2, d2.sum()]]) + 1e-12 * np.eye(2)
        step_dir = -np.linalg.solve(H, g)
        slope = g @ step_dir
        step = 1.0
        while step >= 1e-10:
            A_new, B_new = A + step * step_dir[0], B + step * step_dir[1]
            cost_new = _platt_cost(f, t, w, A_new, B_new)
            if cost_new < cost + 1e-4 * step * slope:
                A, B, cost = A_new, B_new, cost_new
                break
            step /= 2.0
        else:
            break  # no decrease along the Newton direction: at the optimum
    return float(A), float(B)


def platt_predict(f, A, B) -> NDArray[np.float64]:
    """P(y = +1 | f) = 1 / (1 + exp(A f + B)); A, B scalars or one per column of f."""
    return expit(-(np.asarray(A) * np.asarray(f, dtype=np.float64) + np.asarray(B)))


def pairwise_coupling(R) -> NDArray[np.float64]:
    """Class probabilities from pairwise ones, method 2 of Wu, Lin & Weng (2004).

    Parameters
    ----------
    R : ndarray of shape (n_samples, M, M)
        R[:, i, j] = P(class i | class i or j, x) for i != j (R_ij + R_ji = 1); the
        diagonal is ignored.

    Returns
    -------
    ndarray of shape (n_samples, M): the p minimising sum_i sum_{j != i}
    (R_ji p_i - R_ij p_j)^2 with sum_i p_i = 1, i.e. the solution of
    [[Q, 1], [1^T, 0]] [p; b] = [0; 1] with Q_ii = sum_{j != i} R_ji^2,
    Q_ij = -R_ji R_ij; Wu, Lin & Weng show it is non-negative (negatives from
    round-off are clipped).
    """
    R = np.clip(np.asarray(R, dtype=np.float64), _COUPLING_EPS, 1.0 - _COUPLING_EPS)
    n, M, _ = R.shape
    off = ~np.eye(M, dtype=bool)
    RT = np.swapaxes(R, 1, 2)  # RT[:, i, j] = R_ji
    Q = -RT * R * off
    Q[:, np.arange(M), np.arange(M)] = np.sum(RT**2 * off, axis=2)
    system = np.zeros((n, M + 1, M + 1))
    system[:, :M, :M] = Q
    system[:, :M, M] = system[:, M, :M] = 1.0
    rhs = np.zeros((n, M + 1, 1))
    rhs[:, M] = 1.0
    p = np.linalg.solve(system, rhs)[:, :M, 0]
    p = np.maximum(p, 0.0)
    return p / p.sum(axis=1, keepdims=True)


def code_probabilities(bit_proba, C) -> NDArray[np.float64]:
    """Class probabilities from bit probabilities for any code (the stated rule).

    Parameters
    ----------
    bit_proba : ndarray of shape (n_samples, n_bits)
        P(bit j = +1 | x) of each bit's binary classifier.
    C : ndarray of shape (M, n_bits)
        Code matrix, entries -1, 0, +1.

    Returns
    -------
    ndarray of shape (n_samples, M): proportional to prod_j P(bit j = C_ij | x),
    a zero entry counting 1/2, normalised to sum 1.
    """
    P = np.clip(np.asarray(bit_proba, dtype=np.float64), 1e-15, 1.0 - 1e-15)
    C = np.asarray(C, dtype=np.float64)
    log_score = (
        np.log(P) @ (C > 0).T + np.log1p(-P) @ (C < 0).T + np.log(0.5) * (C == 0).sum(1)
    )
    log_score -= log_score.max(axis=1, keepdims=True)
    score = np.exp(log_score)
    return score / score.sum(axis=1, keepdims=True)


def evidence_mu(t, beta, b, gamma, sample_weight=None) -> tuple[float, float]:
    r"""mu and zeta = gamma mu of the evidence framework at a given gamma.

    With the level-1 model fitted at gamma (regression form: targets t, dual
    coefficients beta, bias b), E_W = w^T w / 2 = beta^T K beta / 2 and
    E_D = sum_k e_k^2 / 2 [VG 1], mu maximises the level-2 evidence along
    zeta = gamma mu: :math:`2\mu(E_W + \gamma E_D) = N - 1` (the relation
    :func:`lssvm.bayes.evidence.solve_level2` uses at gamma_MP). K is not needed: from
    [S 3.32], :math:`K\beta = t - b 1_v - \beta/\gamma_k`, and :math:`1_v^T\beta = 0`.
    With sample weights, gamma_k = gamma w_k and E_D = sum_k w_k e_k^2 / 2; every
    w_k must be finite and > 0 (a row of weight 0 is no row of the fit: leave it
    out, as the estimators do), else ValueError.
    """
    t, beta = np.asarray(t, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    w = check_sample_weight(sample_weight, t, owner="evidence_mu")  # one per row
    if w is None:
        w = np.ones_like(t)
    elif not np.all(w > 0):  # gamma_k = 0: e_k = beta_k / gamma_k undefined
        k = int(np.flatnonzero(w <= 0)[0])
        raise ValueError(
            "evidence_mu: sample_weight must be > 0 (leave the rows of weight 0 "
            f"out of t and beta, as the fit does); got sample_weight[{k}]="
            f"{float(w[k])!r}."
        )
    gamma_k = gamma * w
    e = beta / gamma_k  # beta_k = gamma_k e_k (regression form)
    E_W = 0.5 * beta @ (t - b - e)  # beta^T K beta / 2, K beta = t - b - e
    E_D = 0.5 * np.sum(w * e**2)
    mu = (len(t) - 1) / (2.0 * (E_W + gamma * E_D))
    return float(mu), float(gamma * mu)


def moderated_output(m, var_gp, mu, zeta, prior) -> NDArray[np.float64]:
    r"""Moderated output P(y = +1 | x, D) of the Bayesian LS-SVM classifier.

    The likelihood of level 1 makes the latent z(x) Gaussian around the label,
    N(y, 1/zeta); the posterior of (w, b) makes it Gaussian with mean m(x) (the
    LS-SVM latent) and variance var_gp(x) / mu, var_gp the Gaussian-process variance
    [S 3.60] with the flat prior on b (:func:`lssvm.gp.predictive_variance`).
    Integrating w and b out gives z | y ~ N(y, v), v = 1/zeta + var_gp/mu, and Bayes'
    rule with prior pi_+ = ``prior``:

    .. math:: P(y = +1 | x) = 1 / (1 + \exp(-2 m(x) / v - \log(\pi_+/\pi_-))).
    """
    v = 1.0 / zeta + np.asarray(var_gp) / mu  # noise plus posterior variance of z
    logit = 2.0 * np.asarray(m) / v + np.log(prior / (1.0 - prior))
    return expit(logit)
