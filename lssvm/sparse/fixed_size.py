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
   + \tfrac{\gamma}{2} \sum_{k=1}^N (y_k - w^T \hat\varphi(x_k) - b)^2 ,

whose normal equations need only :math:`\Phi^T \Phi` and :math:`\Phi^T y`
((m+1) x (m+1) and (m+1) x q with the bias column). Both are sums over rows, so they
are accumulated over chunks of rows, in feature space: :math:`A_c^T A_c` with
:math:`A_c = [K(X_c, Z)\, U \operatorname{diag}(s)^{-1/2}, 1]`, one product with the
m x r map and one symmetric rank-k update per chunk: memory O(m^2 + chunk m), one
pass over the data. (Accumulating :math:`B^T B`, :math:`B = [K(X_c, Z), 1]`, and
mapping once at the end saves the per-chunk product, about half the flops, but the
final scaling by :math:`s^{-1/2}` amplifies the round-off of the large directions
into the small ones by up to s_max / s_min: relative errors of 1e-7 to 1e-6 in the
fit where the feature-space sums give 1e-11.) Chunk results
are added by a pairwise tree whose shape depends only on the number of chunks, so the
in-process sum and the Dask tree reduction add the same numbers in the same order.

``solver="pcg"`` solves the same (r+1) x (r+1) system by conjugate gradients
preconditioned from K(Z, Z) alone, after FALKON (:class:`NystromRidgePCG`): O(N m)
kernel values and flops per iteration instead of the O(N m^2) accumulation; the
N x m kernel blocks are kept from the first pass when they fit in memory
(``store_kernel``), else computed again in each pass. ``solver="auto"`` uses it
above ``AUTO_PCG_MIN_PROTOTYPES`` prototypes (``benchmarks/bench_fixed_size_pcg.py``
measures the crossover).

Classifiers regress the +-1 codes of each output bit [S 3.8-3.14] (for y = +-1 the
classifier's error 1 - y f equals the regression error y - f); every bit shares the
feature map and the one (m+1) x (m+1) factorisation, so only dense codes ("ova",
"moc", "ecoc") are accepted. ``gamma`` may be a list of candidates: the fold sums of
the accumulated matrices give the k-fold cross-validated squared error of every
candidate in closed form, without another pass over the data; ``cv="loo"`` gives
the exact leave-one-out squared error of every candidate from one more pass
(:class:`LeaveOneOut`: e_k / (1 - h_kk) with the hat-matrix diagonal h_kk of the
primal ridge problem), again without refitting.

Prototypes: ``"entropy"`` maximises the quadratic Renyi entropy estimate
:math:`H_R = -\log \frac{1}{m^2} \sum_{k,l} K(z_k, z_l)` (RBF window of width
``sigma2``) by random swaps with a candidate pool; ``"leverage"`` draws m rows of a
uniform pool with probabilities proportional to their approximate ridge leverage
scores for the LS-SVM's regularisation (:func:`ridge_leverage_scores`, Alaoui &
Mahoney 2015; Musco & Musco 2017); ``"random"`` (the default: a uniform draw,
chosen by measurement, ``benchmarks/bench_fixed_size_pcg.py`` part ``prototypes``:
random prototypes were at least as accurate as entropy and leverage ones at every m
measured and need the fewest CG iterations); or an array.

Dask: X (and y) may be ``dask.array`` arrays chunked by rows; ``fit`` then runs the
accumulation (or, for ``solver="pcg"``, each CG pass) as a tree reduction on the
current scheduler (a ``dask.distributed`` client if one exists), and
``predict``/``decision_function`` return Dask arrays; each row block is checked for
NaN and infinity when its task runs (a ValueError naming X). Dask is imported only
then (``pip install lssvm[dask]``).
"""

from __future__ import annotations

import math
import warnings
import numbers
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs
from numpy.typing import NDArray
from scipy.linalg import cho_factor, cho_solve, cholesky, solve_triangular
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import (
    KERNEL_CONSTRAINTS,
    is_dask,
    resolve_sigma2,
    warn_degenerate_width,
)
from .._validation import check_sample_weight, positive_weight_rows
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
    validate_params,
)
from ..kernels import (ARDRBF, RBF, Precomputed, blas_controller, make_kernel,
                       rbf_exponent_factors)
from ..linalg import memory
from ..linalg.nystrom import NystromFeatureMap
from ..linalg.solvers import NumericalWarning, conjugate_gradient
from ..multiclass import codebook

__all__ = [
    "FixedSizeLSSVMClassifier",
    "FixedSizeLSSVMRegressor",
    "renyi_entropy",
    "entropy_prototypes",
    "ridge_leverage_scores",
    "pairwise_sum",
    "LeaveOneOut",
    "loo_errors",
    "NystromRidgePCG",
]

# "entropy" and "leverage": a candidate pool of POOL_FACTOR * m rows; entropy swaps:
# PROPOSALS_FACTOR * m proposals.
POOL_FACTOR = 10
PROPOSALS_FACTOR = 10
PROTOTYPE_METHODS = ("entropy", "leverage", "random")
#: "leverage": the Nystrom sketch of the pool has s = min(pool, m, LEVERAGE_SKETCH_MAX)
#: rows, so the scores cost O(pool s^2) flops and O(pool s) memory at any m
#: (benchmarks/bench_fixed_size_pcg.py, part prototypes, measures the choice).
LEVERAGE_SKETCH_MAX = 2000
SOLVERS = ("auto", "normal", "pcg")
#: solver="auto" uses "pcg" when m exceeds this (and gamma is one value, X in memory):
#: the normal equations cost O(N m^2) flops, PCG O(N m) kernel values and flops per
#: iteration (benchmarks/bench_fixed_size_pcg.py measures the crossover).
AUTO_PCG_MIN_PROTOTYPES = 2000


# --- prototypes ----------------------------------------------------------------------


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


def _draw_prototypes(X, n_rows, n_prototypes, method, sigma2, rng, take, *,
                     kernel=None, gamma=None):
    """Indices (sorted) and rows of the prototypes; ``take(idx)`` gathers rows of X.

    "entropy" and "leverage" choose among a uniform pool of POOL_FACTOR * m rows.
    "leverage" needs ``kernel`` (None: RBF(sigma2)) and ``gamma`` (the largest of
    several candidates is used, see below).
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
        raise ValueError("_draw_prototypes: prototypes='leverage' needs gamma (the "
                         "regularisation of the scores); got gamma=None.")
    gamma = float(np.max(np.atleast_1d(np.asarray(gamma, dtype=np.float64))))
    p = X_pool.shape[0]
    lam = p / (n_rows * gamma)  # lambda = p / (n gamma)
    scores = ridge_leverage_scores(X_pool, kernel, lam, random_state=rng,
                                   sketch_size=min(m, LEVERAGE_SKETCH_MAX))
    keys = rng.exponential(size=p) / scores  # score 0: key inf, drawn last
    return np.sort(np.argpartition(keys, m - 1)[:m]) if m < p else np.arange(p)


# --- accumulation ----------------------------------------------------------------------


def pairwise_sum(items, add):
    """Sum an iterable by a binary-counter tree: equal-size partial sums are merged.

    The tree depends only on the number of items, so two callers with the same items
    (numpy arrays, or Dask delayed objects with ``add`` delayed) get the same sums in
    the same order. Memory: O(log n) partial sums.
    """
    stack = []  # (level, partial sum)
    for item in items:
        level, value = 0, item
        while stack and stack[-1][0] == level:
            value = add(stack.pop()[1], value)
            level += 1
        stack.append((level, value))
    if not stack:
        raise ValueError("pairwise_sum needs at least one item.")
    value = stack.pop()[1]
    while stack:
        value = add(stack.pop()[1], value)
    return value


def _add_stats(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _chunk_stats(Xc, Yc, start, kernel, Z, n_folds, T=None, Wc=None):
    """Per-fold A^T A, A^T Y, Y^T Y (diagonal), row counts for A = [K(Xc, Z) T, 1].

    T: the m x r feature map U diag(s)^{-1/2} (A = [Phi, 1]); None: B = [K(Xc, Z), 1]
    (kernel space). Row i (global index start + i) is in fold (start + i) mod n_folds.
    Wc: sample weights v_k of the rows, or None (all 1). The weighted normal
    equations A^T V A, A^T V Y (V = diag(v)) are those of the rows scaled by
    sqrt(v_k), and the counts are sums of weights (an integer weight is a repeated row).
    """
    q = Yc.shape[1]
    r = Z.shape[0] if T is None else T.shape[1]
    S = np.zeros((n_folds, r + 1, r + 1))
    C = np.zeros((n_folds, r + 1, q))
    yy = np.zeros((n_folds, q))
    counts = np.zeros(n_folds)
    with blas_controller().limit(limits=1):  # one thread per chunk: the same sums everywhere
        B = np.empty((Xc.shape[0], r + 1))
        Kc = kernel(Xc, Z)
        B[:, :r] = Kc if T is None else Kc @ T  # Phi(X_c) = K(X_c, Z) U diag(s)^-1/2
        B[:, r] = 1.0
        if Wc is not None:  # V^{1/2} A and V^{1/2} Y
            root = np.sqrt(Wc)[:, None]
            B *= root
            Yc = Yc * root
        folds = (start + np.arange(Xc.shape[0])) % n_folds
        for f in range(n_folds):
            rows = slice(None) if n_folds == 1 else folds == f
            Bf, Yf = B[rows], Yc[rows]
            S[f] = Bf.T @ Bf  # symmetric rank-k update
            C[f] = Bf.T @ Yf
            yy[f] = np.einsum("ij,ij->j", Yf, Yf)
            counts[f] = Bf.shape[0] if Wc is None else Wc[rows].sum()
    return S, C, yy, counts


def _check_block(Xb, Yb=None, Wb=None, start=0):
    """Raise a ValueError naming the input if a row block of a Dask input is not finite.

    The in-memory path checks X and y when ``fit``/``predict`` is called; a Dask
    array is checked block by block when its task runs (O(n_b d) per block).
    """
    for name, block in (("X", Xb), ("y", Yb), ("sample_weight", Wb)):
        if block is not None and not np.all(np.isfinite(block)):
            raise ValueError(
                f"Input {name} contains NaN or infinity (in the row block of the Dask "
                f"array that starts at row {start}); {name} must be finite."
            )
    if Wb is not None and np.any(Wb < 0):
        raise ValueError(
            f"sample_weight must be non-negative; got a negative weight in the row "
            f"block of the Dask array that starts at row {start}."
        )


def _block_stats(Xb, Yb, start, kernel, Z, n_folds, chunk_size, T=None, Wb=None):
    """_chunk_stats over the chunks of one block, summed by ``pairwise_sum``."""
    Xb, Yb = np.asarray(Xb, dtype=np.float64), _as_2d(np.asarray(Yb, dtype=np.float64))
    Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
    _check_block(Xb, Yb, Wb, start)
    bounds = range(0, Xb.shape[0], chunk_size)
    return pairwise_sum(
        (_chunk_stats(Xb[i:i + chunk_size], Yb[i:i + chunk_size], start + i, kernel, Z,
                      n_folds, T, None if Wb is None else Wb[i:i + chunk_size])
         for i in bounds), _add_stats)


def _as_2d(Y):
    return Y[:, None] if Y.ndim == 1 else Y


def accumulate(X, Y, kernel, Z, *, n_folds=1, chunk_size=4096, n_jobs=1, T=None,
               W=None):
    """Fold sums of A^T V A, A^T V Y, Y^T V Y and weights over row chunks of in-memory X.

    A = [K(X, Z) T, 1] (feature space) or, with T None, [K(X, Z), 1]; V = diag(W)
    (W None: V = I, and the counts are row counts).

    Chunks run on ``n_jobs`` threads (numpy releases the GIL), at most 2 n_jobs
    chunks in flight, and are added in chunk order by :func:`pairwise_sum`.
    """
    n_jobs = effective_n_jobs(n_jobs)  # None: 1, -1: all CPUs
    Y = _as_2d(np.asarray(Y, dtype=np.float64))
    starts = list(range(0, X.shape[0], chunk_size))

    def one(i):
        return _chunk_stats(X[i:i + chunk_size], Y[i:i + chunk_size], i, kernel, Z,
                            n_folds, T, None if W is None else W[i:i + chunk_size])

    if n_jobs == 1 or len(starts) == 1:
        return pairwise_sum(map(one, starts), _add_stats)

    def stream(pool):
        window = 2 * n_jobs
        for w in range(0, len(starts), window):
            yield from pool.map(one, starts[w:w + window])

    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return pairwise_sum(stream(pool), _add_stats)


def _block_starts(X):
    """First row of each row block of a Dask array."""
    return np.concatenate([[0], np.cumsum(X.chunks[0])[:-1]]).astype(int)


def _weight_blocks(W, n_blocks):
    """Delayed row blocks of a Dask weight vector, or Nones."""
    return [None] * n_blocks if W is None else list(W.to_delayed().ravel())


def accumulate_dask(X, Y, kernel, Z, *, n_folds=1, chunk_size=4096, T=None, W=None):
    """As :func:`accumulate` for Dask arrays: one task per block, a pairwise tree.

    W: None or a Dask vector of weights with the row chunks of X. Each task checks
    its blocks (finite X, y and weights, weights >= 0) before it computes.
    """
    import dask

    starts = _block_starts(X)
    kernel_d, Z_d, T_d = dask.delayed(kernel), dask.delayed(Z), dask.delayed(T)
    block = dask.delayed(_block_stats, pure=True)
    x_blocks = X.to_delayed().ravel()
    blocks = [
        block(xb, yb, int(s), kernel_d, Z_d, n_folds, chunk_size, T_d, wb)
        for xb, yb, s, wb in zip(x_blocks, Y.to_delayed().ravel(), starts,
                                 _weight_blocks(W, len(x_blocks)))
    ]
    total = pairwise_sum(blocks, dask.delayed(_add_stats, pure=True))
    return dask.compute(total)[0]


# --- the ridge problem -----------------------------------------------------------------


def _feature_space(stats):
    """Feature-space sums (accumulated with the map T): symmetrised G, c, yy, counts."""
    S, C, yy, counts = stats
    return (S + S.transpose(0, 2, 1)) / 2, C, yy, counts


def solve_ridge(G, c, gamma):
    """[w; b] from (G + diag(1, ..., 1, 0)/gamma) [w; b] = c: the normal equations.

    G = A^T A with A = [Phi, 1]; the bias (last coordinate) is not penalised.
    """
    H = G.copy()
    idx = np.arange(H.shape[0] - 1)
    H[idx, idx] += 1.0 / gamma
    try:
        return cho_solve(cho_factor(H, lower=True), c)
    except np.linalg.LinAlgError:  # H is positive definite in exact arithmetic
        warnings.warn(
            "solve_ridge: the regularised normal equations are not numerically "
            "positive definite (Cholesky failed); the least-norm solution is used. "
            "A larger gamma^-1 (smaller gamma) or fewer prototypes avoid it.",
            NumericalWarning, stacklevel=2)
        return np.linalg.lstsq(H, c, rcond=None)[0]


def cv_errors(G, c, yy, counts, gammas):
    """k-fold cross-validated mean squared error of each gamma, from fold sums alone.

    For fold f, [w; b] is fitted on the other folds' sums and its held-out squared
    error is yy_f - 2 theta^T c_f + theta^T G_f theta, summed over outputs.
    """
    G_all, c_all = G.sum(axis=0), c.sum(axis=0)
    errors = np.zeros(len(gammas))
    for g, gamma in enumerate(gammas):
        for f in range(G.shape[0]):
            theta = solve_ridge(G_all - G[f], c_all - c[f], gamma)
            sse = yy[f].sum() - 2 * np.sum(theta * c[f]) + np.sum(theta * (G[f] @ theta))
            errors[g] += sse
    return errors / counts.sum()


class LeaveOneOut:
    r"""Closed-form leave-one-out errors of the primal ridge problem for many gamma.

    With the bias unpenalised, the ridge solution is that of the centred problem:
    :math:`\bar\varphi = \frac1N \sum_k \hat\varphi(x_k)`,
    :math:`G_c = \sum_k (\hat\varphi_k - \bar\varphi)(\hat\varphi_k - \bar\varphi)^T
    = Q \operatorname{diag}(\lambda) Q^T` (from the accumulated sums),
    :math:`w = Q \operatorname{diag}(d) Q^T \Phi_c^T y` with
    :math:`d_j = 1/(\lambda_j + 1/\gamma)` and :math:`b = \bar y - \bar\varphi^T w`.
    The hat matrix is :math:`\frac1N 1 1^T + \Phi_c Q \operatorname{diag}(d)
    Q^T \Phi_c^T`, so with :math:`u_k = Q^T(\hat\varphi_k - \bar\varphi)`

    .. math:: h_{kk} = \tfrac1N + \textstyle\sum_j d_j u_{kj}^2, \qquad
       y_k - f^{(-k)}(x_k) = \frac{y_k - f(x_k)}{1 - h_{kk}},

    the leave-one-out residual of a linear smoother. One eigendecomposition of the
    r x r matrix :math:`G_c` serves every gamma; one more pass over the rows computes
    :math:`u_k` (one product with the m x r matrix ``T`` per chunk) and every
    gamma's residuals: no refit, memory O(m r + chunk r).
    """

    def __init__(self, G, c, fmap, gammas):
        r = G.shape[0] - 1
        n = G[r, r]
        self.inv_n = 1.0 / n
        phibar, self.ybar = G[:r, r] / n, c[r] / n  # (r,), (q,)
        Gc = G[:r, :r] - n * np.outer(phibar, phibar)  # sum (phi - phibar)(...)^T
        cc = c[:r] - n * np.outer(phibar, self.ybar)  # Phi_c^T y_c, (r, q)
        lam, Q = np.linalg.eigh((Gc + Gc.T) / 2)
        lam = np.maximum(lam, 0.0)  # PSD up to round-off
        self.shrink = 1.0 / (lam[None, :] + 1.0 / np.asarray(gammas)[:, None])  # d
        self.QTc = Q.T @ cc  # (r, q)
        self.T = fmap.projection @ Q  # k_Z(x)^T T = phi(x)^T Q
        self.u0 = phibar @ Q

    def chunk(self, Xc, Yc, kernel, Z, Wc=None):
        r"""Sum over the rows of a chunk of the squared LOO residuals, per gamma.

        With sample weights v_k (the sums G, c accumulated with them, N their sum,
        the means weighted) the hat matrix is :math:`h_{kl} = v_l (\frac1N +
        u_k^T \operatorname{diag}(d) u_l)`, leaving out row k (all of its weight)
        gives :math:`e_k / (1 - h_{kk})`, and the sum is weighted by v_k.
        """
        with blas_controller().limit(limits=1):
            U = kernel(Xc, Z) @ self.T - self.u0  # u_k, (n_c, r)
            H = self.inv_n + (U * U) @ self.shrink.T  # h_kk, (n_c, n_gammas)
            if Wc is not None:
                H *= Wc[:, None]  # h_kk = v_k (1/N + sum_j d_j u_kj^2)
            sse = np.zeros(self.shrink.shape[0])
            for g, d in enumerate(self.shrink):
                E = Yc - (self.ybar + U @ (d[:, None] * self.QTc))  # y_k - f(x_k)
                with np.errstate(divide="ignore", invalid="ignore"):
                    R2 = (E / (1.0 - H[:, g:g + 1])) ** 2
                    if Wc is not None:
                        R2 = np.where(Wc[:, None] > 0, R2, 0.0) * Wc[:, None]
                    sse[g] = np.sum(R2)
        return sse

    def block(self, Xb, Yb, kernel, Z, chunk_size, Wb=None):
        Xb = np.asarray(Xb, dtype=np.float64)
        Yb = _as_2d(np.asarray(Yb, dtype=np.float64))
        Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
        return pairwise_sum(
            (self.chunk(Xb[i:i + chunk_size], Yb[i:i + chunk_size], kernel, Z,
                        None if Wb is None else Wb[i:i + chunk_size])
             for i in range(0, Xb.shape[0], chunk_size)), np.add)


def _loo_block(loo, Xb, Yb, kernel, Z, chunk_size, Wb=None):
    return loo.block(Xb, Yb, kernel, Z, chunk_size, Wb)


def loo_errors(X, Y, kernel, fmap, G, c, gammas, *, chunk_size=4096, n_jobs=1, W=None):
    """Mean squared leave-one-out error of each gamma (:class:`LeaveOneOut`).

    A second pass over the rows of X (in memory, or a Dask array: one task per
    block, added by :func:`pairwise_sum`). W: sample weights (the mean is weighted).
    """
    n_jobs = effective_n_jobs(n_jobs)  # None: 1, -1: all CPUs
    loo = LeaveOneOut(G, c, fmap, gammas)
    Z = fmap.Z
    if is_dask(X):
        import dask

        block = dask.delayed(_loo_block, pure=True)
        loo_d, Z_d, kernel_d = dask.delayed(loo), dask.delayed(Z), dask.delayed(kernel)
        x_blocks = X.to_delayed().ravel()
        parts = [block(loo_d, xb, yb, kernel_d, Z_d, chunk_size, wb)
                 for xb, yb, wb in zip(x_blocks, Y.to_delayed().ravel(),
                                       _weight_blocks(W, len(x_blocks)))]
        total = dask.compute(pairwise_sum(parts, dask.delayed(np.add, pure=True)))[0]
    else:
        Y = _as_2d(np.asarray(Y, dtype=np.float64))
        starts = list(range(0, X.shape[0], chunk_size))

        def one(i):
            return loo.chunk(X[i:i + chunk_size], Y[i:i + chunk_size], kernel, Z,
                             None if W is None else W[i:i + chunk_size])

        if n_jobs == 1 or len(starts) == 1:
            total = pairwise_sum(map(one, starts), np.add)
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                total = pairwise_sum(pool.map(one, starts), np.add)
    return total * loo.inv_n


# --- the ridge problem by preconditioned CG (FALKON) ---------------------------------


#: Bytes of kernel values per tile: a pass computes K(X_c, Z) a tile of rows at a
#: time and takes both of its products from each tile while the tile is in cache.
#: ``benchmarks/bench_fixed_size_million.py`` (part floor) times tiles of 16 to 1024
#: rows on one thread: at m = 1000 the 2 MiB tile (262 rows) was as fast as the
#: fastest, at m = 10,000 (26 rows) about 10% slower than 128 rows (10 MiB); the
#: smaller tile is kept so that the tiles of 16 threads (32 MiB) fit in a shared L3.
TILE_BYTES = 2**21


def _tile_rows(m: int, chunk_size: int) -> int:
    """Rows per tile: TILE_BYTES of float64 kernel values, at least 8 rows."""
    return max(8, min(int(chunk_size), TILE_BYTES // (8 * max(int(m), 1))))


class _KernelTiles:
    r"""K(X_c, Z) of a row chunk, tile by tile, for :class:`NystromRidgePCG`.

    The RBF kernel (and :class:`~lssvm.kernels.ARDRBF`, through its input scaling)
    takes one matrix product per tile, with the scalings and both squared norms
    folded in,

    .. math:: -\|x - z\|^2/\sigma^2
       = [\tfrac{2}{\sigma^2} x^T,\ -\|x\|^2/\sigma^2,\ -1]\,[z;\ 1;\ \|z\|^2/\sigma^2],

    then ``exp`` in place: two passes over the tile. The entries agree with
    ``kernel(X_c, Z)`` to round-off; unlike it they are not clipped at 1 (an entry
    with x = z can exceed 1 by about 1e-16 :math:`\|x\|^2/\sigma^2`). Other kernels:
    ``kernel(X_c, Z)`` for the whole chunk, then tiles of it.
    """

    def __init__(self, kernel, Z, chunk_size):
        self.kernel = kernel
        self.m = Z.shape[0]
        self.rows = _tile_rows(self.m, chunk_size)
        # RBF and ARDRBF only: a subclass may change the formula
        self.rbf = type(kernel) in (RBF, ARDRBF)
        if self.rbf:  # [z; 1; ||z||^2 / sigma2] as the columns of a (d + 2) x m matrix
            self.ZaT = rbf_exponent_factors(kernel, None, Z)[1]
        else:
            self.Z = Z

    def _augment(self, Xc):
        """[2 x / sigma2, -||x||^2 / sigma2, -1] for the rows x of the chunk."""
        return rbf_exponent_factors(self.kernel, Xc, None)[0]

    def tiles(self, Xc, keep=None):
        """(rows, K(X_c[rows], Z)) per tile; with ``keep`` (n_c x m) the tiles are
        written into it (the stored block), else into one tile-sized buffer."""
        n, t = Xc.shape[0], self.rows
        if not self.rbf:
            K = self.kernel(Xc, self.Z)
            if keep is not None:
                keep[...] = K
            for i in range(0, n, t):
                yield slice(i, i + t), K[i:i + t]
            return
        Xa = self._augment(Xc)
        buf = keep if keep is not None else np.empty((min(t, n), self.m))
        for i in range(0, n, t):
            D = buf[i:i + t] if keep is not None else buf[:min(t, n - i)]
            np.matmul(Xa[i:i + t], self.ZaT, out=D)  # -||x - z||^2 / sigma2
            yield slice(i, i + t), np.exp(D, out=D)  # K(x, z)


def _tile_products(K, Yt, Wt, alpha, b, out):
    """out += [K^T V F; 1^T V F] for one tile, F = K alpha + 1 b (or F = Yt)."""
    F = K @ alpha + b if Yt is None else Yt
    if Wt is not None:
        F = F * Wt[:, None]  # V F
    out[:-1] += K.T @ F  # K(X_t, Z)^T V f
    out[-1] += F.sum(axis=0)  # 1^T V f


def _chunk_products(tiler, Xc, Yc, Wc, alpha, b, Kc=None, keep=None):
    """[K_c^T V_c F; 1^T V_c F], F = K_c alpha + 1 b (or F = Yc): one chunk's share.

    Both products of a tile are taken while it is in cache: one pass over K(X_c, Z)
    per chunk, read from ``Kc`` (a stored block) or computed tile by tile (into
    ``keep`` when the block is to be stored). The tiles are added in row order.
    """
    if Yc is not None:
        Yc = _as_2d(np.asarray(Yc, dtype=np.float64))
    q = Yc.shape[1] if Yc is not None else alpha.shape[1]
    out = np.zeros((tiler.m + 1, q))
    if Kc is not None:
        t = tiler.rows
        tiles = ((slice(i, i + t), Kc[i:i + t]) for i in range(0, Kc.shape[0], t))
    else:
        tiles = tiler.tiles(Xc, keep)
    for rows, K in tiles:
        _tile_products(K, None if Yc is None else Yc[rows],
                       None if Wc is None else Wc[rows], alpha, b, out)
    return out


def _pcg_block(Xb, Yb, Wb, coef, kernel, Z, chunk_size, start):
    """One Dask task of a PCG pass: the chunks of one row block, pairwise summed."""
    Xb = np.asarray(Xb, dtype=np.float64)
    Wb = None if Wb is None else np.asarray(Wb, dtype=np.float64)
    _check_block(Xb, None if Yb is None else np.asarray(Yb), Wb, start)
    alpha, b = (None, None) if coef is None else coef
    tiler = _KernelTiles(kernel, Z, chunk_size)

    def one(i):
        rows = slice(i, i + chunk_size)
        return _chunk_products(tiler, Xb[rows], None if Yb is None else Yb[rows],
                               None if Wb is None else Wb[rows], alpha, b)

    with blas_controller().limit(limits=1):
        return pairwise_sum(map(one, range(0, Xb.shape[0], chunk_size)), np.add)


class NystromRidgePCG:
    r"""The primal ridge problem with its bias by CG, preconditioned from K_mm alone.

    The system is the one :func:`solve_ridge` factors, in the same coordinates
    (the r kept eigen-directions of :math:`W = K_{mm} = U S U^T`,
    :math:`\Phi = K_{nm} T`, :math:`T = U S^{-1/2}`, the bias last):

    .. math:: H \theta = A^T Y, \quad A = [\Phi, 1], \quad
       H = A^T A + \operatorname{diag}(I_r/\gamma, 0),

    but H is never formed: a product :math:`H V` is one pass over row blocks,
    :math:`f = K(X_c, Z) (T V_w) + 1 v_b`, accumulating :math:`K(X_c, Z)^T f` and
    :math:`1^T f` (4 n_c m q flops and n_c m kernel values per block; the N x m
    kernel matrix is not stored unless ``store_blocks``: memory O(N d + m^2 + chunk
    m), or 8 N m bytes more with the blocks kept from the first pass). Within a
    chunk the kernel values come a tile of rows at a time (``TILE_BYTES``), and
    both products of a tile are taken while it is in cache, stored or computed:
    the pass reads each kernel value once. With sample
    weights v the pass accumulates :math:`K(X_c, Z)^T V f` and :math:`1^T V f`. A
    Dask X runs each pass as one task per row block (persisted for the run); the
    client gets the (m+1) x q sums. Blocks are added
    by :func:`pairwise_sum` in block order, one BLAS thread each: the result does not
    depend on ``n_jobs``.

    Preconditioner (Rudi, Carratino & Rosasco 2017, FALKON; Meanti et al. 2020),
    derived for the bordered problem. FALKON replaces the data term by its
    Nystrom estimate on the centres, :math:`K_{nm}^T K_{nm} \approx
    \frac{N}{m} K_{mm}^2`, i.e. it pretends that the N rows are N/m copies of the
    m centres. Doing the same with the border column (:math:`1_N^T 1_N = N =
    \frac{N}{m} 1_m^T 1_m`) gives, with :math:`A_Z = [K_{mm} T, 1_m] = [U S^{1/2},
    1_m]`,

    .. math:: M = \tfrac{N}{m} A_Z^T A_Z + \operatorname{diag}(I_r/\gamma, 0)
       = \begin{bmatrix} D & c \\ c^T & N \end{bmatrix},

    .. math:: D = \tfrac{N}{m} S + I/\gamma, \quad c = \tfrac{N}{m} S^{1/2} U^T 1_m .

    In kernel coordinates (:math:`f = K_{nm}\alpha`, penalty
    :math:`\alpha^T K_{mm} \alpha / \gamma`) FALKON's preconditioner of the
    unbordered problem is :math:`\frac{N}{m}K_{mm}^2 + K_{mm}/\gamma
    = R^T (\frac{N}{m} R R^T + I/\gamma) R` with two Cholesky factorisations,
    :math:`K_{mm} = R^T R` and :math:`\frac{N}{m} R R^T + I/\gamma = Q^T Q`, so that
    :math:`M^{-1} = R^{-1} Q^{-1} Q^{-T} R^{-T}`. Taking for R the square root
    from the eigendecomposition the feature map already holds
    (:math:`R = S^{1/2} U^T`, :math:`R R^T = S`), the second factor is diagonal,
    :math:`Q^T Q = D`, and in the feature coordinates w (:math:`\alpha = T w`,
    :math:`R\alpha = w`) the
    preconditioner of the unbordered problem is D itself. The bias adds one row
    and column: M is an arrow matrix, positive definite (for :math:`[w; b] \ne 0`,
    :math:`[w; b]^T M [w; b] \ge \|w\|^2/\gamma > 0` unless w = 0, and then it is
    :math:`N b^2`), solved by its Schur complement

    .. math:: \sigma = N - c^T D^{-1} c = \tfrac{N}{m}\Big(\|1_m - U U^T 1_m\|^2
       + \textstyle\sum_j \frac{(U^T 1_m)_j^2}{\gamma D_j}\Big) > 0,

    written as a sum of non-negative terms (no cancellation):
    :math:`b = (v_b - c^T D^{-1} v_w)/\sigma`, :math:`w = D^{-1}(v_w - c\, b)`,
    O(r q) per application. CG then runs on H with this M
    (:func:`lssvm.linalg.solvers.conjugate_gradient`: the same stopping rule and
    histories as the exact LS-SVM's CG), all output columns sharing each product.
    """

    def __init__(self, X, kernel, fmap, gamma, *, chunk_size=4096, n_jobs=1,
                 sample_weight=None, store_blocks=False):
        self.dask = is_dask(X)
        if self.dask:  # kept on the workers (or in memory) for every pass of CG
            X = X.persist()
        self.X, self.kernel, self.Z = X, kernel, fmap.Z
        self.T = fmap.projection  # (m, r)
        self.chunk_size, self.n_jobs = int(chunk_size), effective_n_jobs(n_jobs)
        self.starts = list(range(0, X.shape[0], self.chunk_size))
        # store_blocks: keep the K(X_c, Z) of the first pass (8 N m bytes) and reuse
        # them in every product; in-memory X only
        self.store_blocks = bool(store_blocks) and not self.dask
        self._blocks = {}
        self._tiler = _KernelTiles(kernel, self.Z, self.chunk_size)
        m = self.Z.shape[0]
        root = np.sqrt(fmap.eigvals)  # U = T S^{1/2}: U is not kept
        self._m, self._s = m, fmap.eigvals
        self._u = root * (self.T.T @ np.ones(m))  # U^T 1_m = S^{1/2} T^T 1_m
        # ||1 - U U^T 1||^2
        self._outside = float(np.sum((1.0 - self.T @ (root * self._u)) ** 2))
        self.set_weights(sample_weight, gamma)
        self.n_matvec = 0

    def set_weights(self, sample_weight, gamma):
        """Use other row weights v_k (None: all 1) and gamma; stored blocks stay."""
        if self.dask and sample_weight is not None:
            sample_weight = sample_weight.persist()
        self.W = sample_weight  # v_k: H = A^T V A + ..., right-hand side A^T V Y
        if sample_weight is None:
            n = self.X.shape[0]
        else:  # the weighted row count sum_k v_k takes the place of N
            total = sample_weight.sum()
            n = float(total.compute() if self.dask else total)
        self._scale = n / self._m
        self.set_gamma(gamma)

    def set_gamma(self, gamma):
        """Use another gamma: only the O(r) parts of M change (stored blocks stay)."""
        self.gamma = float(gamma)
        scale, s, u = self._scale, self._s, self._u
        self.D = scale * s + 1.0 / self.gamma  # N/m S + I/gamma
        self.c = scale * np.sqrt(s) * u  # N/m S^{1/2} U^T 1_m
        self.sigma = scale * (self._outside + float(np.sum(u**2 / (self.gamma * self.D))))

    # one pass over the rows ------------------------------------------------------
    def _chunk(self, i, alpha, b, Y):
        rows = slice(i, i + self.chunk_size)
        W = None if self.W is None else self.W[rows]
        Yc = None if Y is None else Y[rows]
        Kc = self._blocks.get(i)
        if Kc is not None:  # stored block: both products per tile, one read of it
            return _chunk_products(self._tiler, None, Yc, W, alpha, b, Kc=Kc)
        Xc = self.X[rows]
        keep = np.empty((Xc.shape[0], self.Z.shape[0])) if self.store_blocks else None
        out = _chunk_products(self._tiler, Xc, Yc, W, alpha, b, keep=keep)
        if keep is not None:
            self._blocks[i] = keep
        return out

    def _pass(self, alpha=None, b=None, Y=None):
        """[K_nm^T V F; 1^T V F] with F = K_nm alpha + 1 b (or F = Y), by row blocks."""
        if self.dask:
            return self._pass_dask(alpha, b, Y)

        def one(i):
            return self._chunk(i, alpha, b, Y)

        with blas_controller().limit(limits=1):  # one BLAS thread per chunk
            if self.n_jobs == 1 or len(self.starts) == 1:
                return pairwise_sum(map(one, self.starts), np.add)
            with ThreadPoolExecutor(max_workers=self.n_jobs) as pool:
                return pairwise_sum(pool.map(one, self.starts), np.add)

    def _pass_dask(self, alpha, b, Y):
        """The pass as one task per row block of the Dask X, added by a pairwise tree
        (its shape depends only on the number of blocks); the client gets (m+1) x q."""
        import dask

        x_blocks = self.X.to_delayed().ravel()
        p = len(x_blocks)
        y_blocks = [None] * p if Y is None else list(Y.to_delayed().ravel())
        coef = dask.delayed((alpha, b)) if Y is None else None
        kernel_d, Z_d = dask.delayed(self.kernel), dask.delayed(self.Z)
        task = dask.delayed(_pcg_block, pure=True)
        parts = [task(xb, yb, wb, coef, kernel_d, Z_d, self.chunk_size, int(start))
                 for xb, yb, wb, start in zip(x_blocks, y_blocks,
                                              _weight_blocks(self.W, p),
                                              _block_starts(self.X))]
        return dask.compute(pairwise_sum(parts, dask.delayed(np.add, pure=True)))[0]

    def _to_features(self, G):
        with blas_controller().limit(limits=1):
            return np.vstack([self.T.T @ G[:-1], G[-1:]])

    def rhs(self, Y):
        """A^T V Y = [T^T K_nm^T V Y; 1^T V Y] (Y: (N, q), in memory or Dask)."""
        if not is_dask(Y):
            Y = _as_2d(np.asarray(Y, dtype=np.float64))
        return self._to_features(self._pass(Y=Y))

    def matvec(self, V):
        """H V = A^T V A V + [V_w / gamma; 0]: one pass over the rows."""
        self.n_matvec += 1
        with blas_controller().limit(limits=1):
            alpha = self.T @ V[:-1]  # kernel-space coefficients T w
        out = self._to_features(self._pass(alpha=alpha, b=V[-1]))
        out[:-1] += V[:-1] / self.gamma
        return out

    def precondition(self, V):
        """M^{-1} V for the arrow matrix M (class docstring), O(r q)."""
        Vw, vb = V[:-1], V[-1]
        b = (vb - self.c @ (Vw / self.D[:, None])) / self.sigma
        out = np.empty_like(V)
        out[:-1] = (Vw - self.c[:, None] * b) / self.D[:, None]
        out[-1] = b
        return out

    def solve(self, Y, *, tol=1e-8, max_iter=None):
        """theta = [w; b], shape (r + 1, q), and the :class:`CGResult`."""
        res = conjugate_gradient(self.matvec, self.rhs(Y), tol=tol, max_iter=max_iter,
                                 preconditioner=self.precondition)
        return res.x, res


def _heldout_sse(Xh, Yh, Wh, coef, kernel, Z, chunk_size):
    """sum_k v_k ||y_k - f(x_k)||^2 over the rows of one block, f = K(x, Z) beta + b."""
    beta, b = coef
    Xh = np.asarray(Xh, dtype=np.float64)
    Yh = _as_2d(np.asarray(Yh, dtype=np.float64))
    total = 0.0
    with blas_controller().limit(limits=1):
        for i in range(0, Xh.shape[0], chunk_size):
            rows = slice(i, i + chunk_size)
            r = np.sum((Yh[rows] - (kernel(Xh[rows], Z) @ beta + b)) ** 2, axis=1)
            total += float(r @ Wh[rows]) if Wh is not None else float(r.sum())
    return total


def holdout_errors(pcg, X, Y, W, weights, held, gammas, fmap, *, tol):
    r"""Held-out mean squared error of each gamma for :class:`NystromRidgePCG`.

    ``pcg`` was built with the weights of the training part (the held-out rows
    weighted 0, so that every pass reads the same row blocks, in memory or on Dask);
    for each gamma it is re-preconditioned (:meth:`NystromRidgePCG.set_gamma`) and
    solved, and the held-out rows ``held`` (a boolean mask) are predicted (``W``: the
    weights as the passes take them, numpy or Dask; ``weights``: the same in memory,
    or None for all 1). Error:
    :math:`\sum_{k \in h} v_k \|y_k - f(x_k)\|^2 / \sum_{k \in h} v_k`, the criterion
    of :func:`cv_errors` on one fold.
    """
    Xh, Yh = pcg.X[held], Y[held]  # pcg.X: a Dask X as persisted for the passes
    Wh = None if W is None else W[held]
    errors = np.empty(len(gammas))
    for g, gamma in enumerate(gammas):
        pcg.set_gamma(gamma)
        theta, _ = pcg.solve(Y, tol=tol)
        coef = (fmap.projection @ theta[:-1], theta[-1])  # beta, b
        if is_dask(Xh):
            import dask

            parts = [dask.delayed(_heldout_sse, pure=True)(xb, yb, wb, coef, pcg.kernel,
                                                           fmap.Z, pcg.chunk_size)
                     for xb, yb, wb in zip(Xh.to_delayed().ravel(),
                                           Yh.to_delayed().ravel(),
                                           _weight_blocks(Wh, Xh.numblocks[0]))]
            sse = float(dask.compute(sum(parts))[0])
        else:
            sse = _heldout_sse(Xh, Yh, Wh, coef, pcg.kernel, fmap.Z, pcg.chunk_size)
        errors[g] = sse
    total = float(held.sum()) if weights is None else float(weights[held].sum())
    return errors / total


# --- estimators -----------------------------------------------------------------------


def _size(n_bytes: float) -> str:
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes / 2**10:.1f} KiB"


def check_sample_weight_1d(sample_weight, n, *, owner):
    """``sample_weight`` for a Dask X: gathered (8 N bytes), checked, or None."""
    if sample_weight is None:
        return None
    if is_dask(sample_weight):
        sample_weight = sample_weight.compute()
    w = np.asarray(sample_weight, dtype=np.float64) if np.ndim(sample_weight) else (
        np.full(n, float(sample_weight)))
    return check_sample_weight(w, np.empty((n, 0)), owner=owner)



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
        chosen gamma is solved on every row (:func:`holdout_errors`).
    kernel, sigma2, degree, tau
        As for :class:`lssvm.LSSVMClassifier` (RBF K(x, z) = exp(-||x-z||^2/sigma2)
        [S 3.13]); ``sigma2="scale"`` is n_features * X.var() of the training X
        (scikit-learn's ``SVC(gamma="scale")``), and a width that makes the kernel
        matrix numerically the identity or constant gives a
        :class:`lssvm.linalg.NumericalWarning`. ``kernel="precomputed"`` is refused:
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
        (:func:`ridge_leverage_scores`; O(p s^2) flops, 8 p s bytes).
    random_state : int, Generator or None, default=0
        Seed of the prototype selection (0, as for the other estimators: two fits
        of the same data give the same model; None draws anew each time).
    chunk_size : int, default=4096
        Rows per chunk of the accumulation (memory about 8 chunk_size m bytes).
    cv : int or "loo", default=5
        Folds for a sequence of ``gamma`` (row i is in fold i mod cv), from the
        fold sums of the one pass ("pcg": fold 0 held out, see ``gamma``). "loo"
        ("normal" only): the exact leave-one-out squared error of
        every candidate in closed form (:class:`LeaveOneOut`; a second pass over the
        rows, no refit).
    n_jobs : int or None, default=None
        Threads over chunks for in-memory data (results do not depend on it). None
        means 1 unless in a ``joblib.parallel_config`` context, -1 all CPUs, as
        everywhere in lssvm (:func:`joblib.effective_n_jobs`).
    solver : {"auto", "normal", "pcg"}, default="auto"
        "normal": accumulate the (r+1) x (r+1) normal equations in one pass
        (O(N m^2) flops, memory O(m^2 + chunk m)) and factor them. "pcg": CG on the
        same system preconditioned from K_mm alone (:class:`NystromRidgePCG`,
        FALKON): one pass over the rows per iteration, O(N m) kernel values and
        4 N m q flops each; several ``gamma`` by a held-out fold. A Dask X runs each pass as one task per
        row block (the m x m work on the client) and is persisted for the run.
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
            return X, y, n, check_sample_weight_1d(sample_weight, n, owner=self)
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
        idx, Z = _draw_prototypes(X, len(rows), self.n_prototypes, self.prototypes,
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
        """theta by :class:`NystromRidgePCG`; several gamma on a held-out fold."""
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
        checked on up to 200 evenly spaced rows (as the exact LS-SVM does)."""
        if not isinstance(kernel, RBF) or X.shape[0] < 2:
            return
        rows = np.unique(np.linspace(0, X.shape[0] - 1, 200).astype(int))
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
        available = memory.available_memory()
        if available is None or needed <= available:
            return
        sums = " and the accumulated sums" if solver == "normal" else ""
        raise memory.InsufficientMemoryError(
            f"{type(self).__name__}: the fit with m = {m} prototypes needs about "
            f"{_size(needed)} ({needed} bytes) at its peak ({square:g} (m+1) x (m+1) "
            f"float64 matrices: the prototype kernel matrix, its eigendecomposition, "
            f"the feature map{sums}"
            f"; and row chunks of chunk_size x (m+1)), but only {_size(available)} "
            f"({available} bytes) of memory is available. Nothing was allocated; use "
            f"fewer prototypes (n_prototypes={self.n_prototypes!r}) or a smaller "
            f"chunk_size."
        )

    def _store_kernel(self, n, m):
        """Whether "pcg" keeps the N x m kernel blocks (``store_kernel``)."""
        needed = 8 * n * m
        available = memory.available_memory()
        if isinstance(self.store_kernel, str):  # "auto"
            fraction = memory.AUTO_MEMORY_FRACTION
            return available is None or needed <= fraction * available
        if self.store_kernel and available is not None and needed > available:
            raise memory.InsufficientMemoryError(
                f"{type(self).__name__}: store_kernel=True keeps the N x m kernel "
                f"blocks, {_size(needed)} ({needed} bytes) for N = {n}, m = {m}, but "
                f"only {_size(available)} ({available} bytes) of memory is available. "
                f"Nothing was allocated; use store_kernel=False or 'auto' (blocks "
                f"computed again in each CG iteration)."
            )
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
            _check_block(Xb, start=start)
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
