r"""Prototypes of the fixed-size LS-SVM: the m rows its Nystrom feature map is built on.

The fixed-size LS-SVM [S §3.6.1] (:mod:`lssvm.sparse.fixed_size`) takes m prototype
vectors :math:`z_1, \dots, z_m` among the rows of X. ``"entropy"`` maximises the
quadratic Renyi entropy estimate
:math:`H_R = -\log \frac{1}{m^2} \sum_{k,l} K(z_k, z_l)` (RBF window of width
``sigma2``) by random swaps with a candidate pool (:func:`entropy_prototypes`);
``"leverage"`` draws m rows of a uniform pool with probabilities proportional to
their approximate ridge leverage scores for the LS-SVM's regularisation
(:func:`ridge_leverage_scores`, Alaoui & Mahoney 2015; Musco & Musco 2017);
``"random"`` is a uniform draw of m rows (:func:`draw_prototypes` takes all three).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import cholesky, solve_triangular

from ..kernels import RBF
from ..linalg.nystrom import NystromFeatureMap

__all__ = [
    "renyi_entropy", "entropy_prototypes", "ridge_leverage_scores", "draw_prototypes",
]

# "entropy" and "leverage": a candidate pool of POOL_FACTOR * m rows; entropy swaps:
# PROPOSALS_FACTOR * m proposals. Both keep the work proportional to m, not N (10
# candidate rows and 10 proposals per prototype); chosen, not measured.
POOL_FACTOR = 10
PROPOSALS_FACTOR = 10
#: "leverage": the Nystrom sketch of the pool has s = min(pool, m, LEVERAGE_SKETCH_MAX)
#: rows, so the scores cost O(pool s^2) flops and O(pool s) memory at any m
#: (benchmarks/bench_fixed_size_pcg.py, part prototypes, measures the choice).
LEVERAGE_SKETCH_MAX = 2000


def renyi_entropy(Z: NDArray, sigma2: float) -> float:
    r"""Quadratic Renyi entropy estimate :math:`-\log \frac{1}{m^2}\sum_{kl} K(z_k,z_l)`.

    The Parzen estimate of :math:`\int p(x)^2 dx` with an RBF window of width
    ``sigma2`` (normalising constants dropped: they shift H_R by a constant).
    """
    return float(-np.log(np.mean(RBF(sigma2)(Z))))


def entropy_prototypes(X: NDArray, n_prototypes: int, sigma2: float, *,
                       n_proposals: int | None = None, random_state=None):
    """Indices of ``n_prototypes`` rows of X with a large quadratic Renyi entropy.

    Starts from a random subset; each proposal swaps a random prototype with a random
    non-prototype row and is kept when the entropy rises (the sum of the prototype
    kernel matrix falls). O(m d) per proposal, the m x m matrix kept up to date.
    Returns the indices and the entropy after each proposal.
    """
    rng = np.random.default_rng(random_state)
    n, m = X.shape[0], int(n_prototypes)
    kernel = RBF(sigma2)
    order = rng.permutation(n)
    chosen, others = order[:m].copy(), order[m:].copy()
    Kzz = kernel(X[chosen])
    total = Kzz.sum()
    n_proposals = PROPOSALS_FACTOR * m if n_proposals is None else int(n_proposals)
    history = np.full(n_proposals if len(others) else 0, np.nan)
    for t in range(len(history)):
        i, j = rng.integers(m), rng.integers(len(others))
        k_new = kernel(X[others[j]][None, :], X[chosen])[0]  # K(c, z_l)
        k_new[i] = 1.0  # K(c, c) for the RBF window
        # sum over the new set: old sum - 2 row_i + K_ii + 2 (row_c - K_ci) + K_cc
        new_total = total - 2 * Kzz[i].sum() + Kzz[i, i] + 2 * k_new.sum() - k_new[i]
        if new_total < total:
            Kzz[i, :], Kzz[:, i] = k_new, k_new
            chosen[i], others[j] = others[j], chosen[i]
            total = new_total
        history[t] = -np.log(total / m**2)
    return np.sort(chosen), history


def ridge_leverage_scores(X: NDArray, kernel, lam: float, *,
                          sketch_size: int | None = None, random_state=None,
                          chunk_size: int = 4096) -> NDArray[np.float64]:
    r"""Approximate ridge leverage scores of the rows of X for the ridge parameter lam.

    Exact: :math:`l_i = [K (K + \lambda I)^{-1}]_{ii}`, K = K(X, X) (Alaoui &
    Mahoney 2015). A uniform sketch of s rows (all of them when ``sketch_size`` is
    None or >= n) gives the Nystrom features :math:`\phi_i` of
    :class:`NystromFeatureMap` (:math:`K \approx \Phi \Phi^T`), and

    .. math:: \tilde l_i = \phi_i^T (\Phi^T \Phi + \lambda I)^{-1} \phi_i
       + (K_{ii} - \|\phi_i\|^2) / \lambda ,

    the leverage of the Nystrom kernel (at most the exact score, as
    :math:`\Phi \Phi^T \preceq K`) plus what the sketch misses of row i over lambda
    (the residual term of Musco & Musco 2017's estimates). With the sketch = all rows
    the second term holds only the dropped eigenvalues (:math:`s_j u_{ij}^2 /
    \lambda` for :math:`s_j / (s_j + \lambda) u_{ij}^2`) and the scores are exact
    to round-off. Cost: O(n s^2) flops; memory O(n s) (Phi).
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    lam = float(lam)
    if not lam > 0.0:
        raise ValueError(f"ridge_leverage_scores: lam must be > 0; got lam={lam!r}.")
    rng = np.random.default_rng(random_state)
    s = n if sketch_size is None else min(int(sketch_size), n)
    sketch = np.arange(n) if s == n else np.sort(rng.choice(n, size=s, replace=False))
    fmap = NystromFeatureMap(kernel, X[sketch])
    Phi = np.empty((n, fmap.n_components))
    for i in range(0, n, chunk_size):
        Phi[i:i + chunk_size] = fmap.transform(X[i:i + chunk_size])  # K ~ Phi Phi^T
    G = Phi.T @ Phi
    G[np.diag_indices_from(G)] += lam  # Phi^T Phi + lambda I
    L = cholesky(G, lower=True)
    scores = np.empty(n)
    for i in range(0, n, chunk_size):
        P = Phi[i:i + chunk_size]
        V = solve_triangular(L, P.T, lower=True)  # L^-1 phi_i
        missed = np.maximum(kernel.diag(X[i:i + chunk_size]) - np.einsum(
            "ij,ij->i", P, P), 0.0)  # K_ii - ||phi_i||^2 >= 0 (round-off clipped)
        scores[i:i + chunk_size] = np.einsum("ij,ij->j", V, V) + missed / lam
    return scores


def draw_prototypes(X, n_rows, n_prototypes, method, sigma2, rng, take, *,
                     kernel=None, gamma=None):
    """Indices (sorted) and rows of the prototypes; ``take(idx)`` gathers rows of X.

    "entropy" and "leverage" choose among a uniform pool of POOL_FACTOR * m rows.
    "leverage" needs ``kernel`` (None: RBF(sigma2)) and ``gamma``: the largest of
    several candidates sets the ridge parameter lambda = pool / (n gamma) of
    :func:`ridge_leverage_scores`.
    """
    m = min(int(n_prototypes), n_rows)
    if method == "random":
        idx = np.sort(rng.choice(n_rows, size=m, replace=False))
        return idx, take(idx)
    pool = np.sort(rng.choice(n_rows, size=min(n_rows, POOL_FACTOR * m), replace=False))
    X_pool = take(pool)
    if method == "leverage":
        kernel = RBF(sigma2) if kernel is None else kernel
        local = _leverage_draw(X_pool, n_rows, m, kernel, gamma, rng)
        return pool[local], X_pool[local]
    local, _ = entropy_prototypes(X_pool, m, sigma2, random_state=rng)
    return pool[local], X_pool[local]


def _leverage_draw(X_pool, n_rows, m, kernel, gamma, rng):
    r"""m pool rows (sorted local indices) drawn without replacement, with probability
    proportional to their approximate ridge leverage scores.

    The primal problem over all n rows is ridge regression with
    :math:`\Phi_n^T \Phi_n + \gamma^{-1} I`; a uniform pool of p rows has
    :math:`\Phi_p^T \Phi_p \approx (p/n) \Phi_n^T \Phi_n`, so the pool's ridge
    parameter is :math:`\lambda = p / (n \gamma)` (the scores are then p/n times
    those over all rows: the same probabilities). The bias is left out. Of several
    candidates of gamma the largest (least regularised: the most directions to
    cover) is used. The draw is sequential sampling without replacement
    (Efraimidis & Spirakis 2006): the m smallest :math:`E_i / l_i`, E_i ~ Exp(1).
    """
    if gamma is None:
        raise ValueError("draw_prototypes: prototypes='leverage' needs gamma (the "
                         "regularisation of the scores); got gamma=None.")
    gamma = float(np.max(np.atleast_1d(np.asarray(gamma, dtype=np.float64))))
    p = X_pool.shape[0]
    lam = p / (n_rows * gamma)  # lambda = p / (n gamma)
    scores = ridge_leverage_scores(X_pool, kernel, lam, random_state=rng,
                                   sketch_size=min(m, LEVERAGE_SKETCH_MAX))
    keys = rng.exponential(size=p) / scores  # score 0: key inf, drawn last
    return np.sort(np.argpartition(keys, m - 1)[:m]) if m < p else np.arange(p)
