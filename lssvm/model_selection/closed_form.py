r"""Exact closed-form cross-validation and leave-one-out for LS-SVMs with a bias term.

With :math:`A = [[0, 1^T], [1, H]]`, :math:`H = K + I/\gamma`, the regression form of
the KKT system [S 3.32], and :math:`C` the lower-right block of :math:`A^{-1}`,

.. math:: C = H^{-1} - \eta\eta^T / s, \qquad \eta = H^{-1} 1_v,\ s = 1_v^T \eta,

the residuals of the points of a held-out set V under the model trained on all other
points are, without refitting (Cawley & Talbot 2004 for leave-one-out; An, Liu &
Venkatesh 2007 for k-fold),

.. math:: r_V = y_V - f^{(-V)}(x_V) = C_{VV}^{-1} \beta_V,

where :math:`\beta` are the dual coefficients of the model trained on all points.
The LS-SVM classifier is the regressor on +-1 targets with :math:`\beta_k = \alpha_k
y_k` (see the Classification chapter), so one formula serves both: the held-out
latent outputs are :math:`f^{(-V)}(x_V) = y_V - r_V`.

Two strategies give :math:`H^{-1}` for a grid of gammas at one kernel matrix:

- ``"eigen"``: one eigendecomposition :math:`K = U \Lambda U^T`; then
  :math:`H^{-1} = \gamma I + U \operatorname{diag}(-\gamma^2\lambda/(1 + \gamma
  \lambda)) U^T` costs O(N r) per gamma for the coefficients and N^2 r/k for the k
  diagonal blocks, where only the r eigenpairs with :math:`|\lambda|` above round-off
  (:data:`EIGEN_RTOL` times the largest) are kept: a smooth kernel has few of them.
  The eigenpairs come from one tridiagonal reduction (LAPACK ``sytrd``), all
  eigenvalues of the tridiagonal matrix (MRRR), and the back-transformation of the
  kept vectors only. Dropping an eigenvalue :math:`|\lambda| \le` tol changes
  :math:`H^{-1}` by at most :math:`\gamma^2` tol;
- ``"cholesky"``: :func:`lssvm.linalg.solvers.solve_bordered_kkt` per gamma, then,
  from its factor (:class:`lssvm.linalg.factor.CholeskyFactor`), the leave-one-out
  outputs by :meth:`~lssvm.linalg.factor.CholeskyFactor.loo_latent` (the formula
  the fits' probabilities use) or, for k folds, the inverse (LAPACK ``potri``).

The eigen strategy is a separate algorithm, not a second copy of the factor's: it
gets diag(H^{-1}) for every gamma from one eigendecomposition of K, where a Cholesky
factor of H (and so the factor object) would cost N^3 per gamma; the leave-one-out
formula applied to that diagonal is the shared one
(:func:`lssvm.linalg.factor.loo_from_diagonal`).

``"auto"`` takes the eigendecomposition from :data:`EIGEN_MIN_GAMMAS` gammas on. The
eigendecomposition is paid once (``sytrd``'s 4/3 N^3 flops, half of them in
matrix-vector products), Cholesky per gamma (``potrf`` and ``potri``, N^3 flops in
matrix-matrix products); both grow as N^3, so the crossover, a number of gammas,
hardly depends on N, but it depends on the machine through the speed of
matrix-vector against matrix-matrix products. ``benchmarks/bench_cv.py`` measures it
(its runs, with their machines, are in ``benchmarks/README.md``). All
per-gamma linear algebra uses scipy's BLAS and LAPACK, like the decomposition: numpy
and scipy load separate OpenBLAS libraries, whose idle threads otherwise compete.

Sources: Suykens et al. (2002), ch. 3, [S §3.4.2] (tuning by 10-fold CV);
G. C. Cawley and N. L. C. Talbot, Neural Networks 17 (2004); S. An, W. Liu and
S. Venkatesh, Pattern Recognition 40 (2007).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import blas, eigh_tridiagonal, lapack
from sklearn.model_selection import check_cv

from .._validation import check_sample_weight, positive_weight_rows
from ..linalg.factor import PD_ADVICE, NotPositiveDefiniteError, loo_from_diagonal
from ..linalg.solvers import eliminate_border, solve_bordered_kkt

__all__ = [
    "ClosedFormCV",
    "make_folds",
    "restrict_folds",
    "score_latent",
    "SCORINGS",
    "EIGEN_MIN_GAMMAS",
]

# "auto": eigen from this many gammas on (module docstring). Set from the crossover
# that benchmarks/bench_cv.py measured (section [3] of its runs in
# benchmarks/README.md; it writes no results file).
EIGEN_MIN_GAMMAS = 4
EIGEN_RTOL = 1e-15  # eigenvalues of K below this times ||K||_inf are round-off
STRATEGIES = ("auto", "eigen", "cholesky")
SCORINGS = ("accuracy", "neg_mean_squared_error", "r2", "roc_auc", "neg_log_loss")


def make_folds(cv, X, y, *, classifier: bool) -> list[NDArray[np.intp]]:
    """Held-out index sets from ``cv`` (an int, "loo", or a scikit-learn splitter).

    An int k gives scikit-learn's default k-fold split, stratified for classifiers
    (:func:`sklearn.model_selection.check_cv`), without shuffling. The closed form
    needs every training set to be the complement of its test set.
    """
    n = len(y)
    if isinstance(cv, str) and cv == "loo":
        return [np.array([k]) for k in range(n)]
    splitter = check_cv(cv, y, classifier=classifier)
    folds = []
    for train, test in splitter.split(X, y):
        joined = np.sort(np.concatenate([train, test]))
        if not np.array_equal(joined, np.arange(n)):
            raise ValueError(
                "make_folds: cv must split the data into a test set and its "
                "complement for the closed-form cross-validation; got a split with "
                f"{len(train)} training and {len(test)} test points out of {n}."
            )
        folds.append(np.sort(np.asarray(test)))
    return folds


def restrict_folds(folds, rows, n) -> list[NDArray[np.intp]]:
    """``folds`` (index sets of ``n`` rows) restricted to ``rows`` and renumbered as
    positions in ``rows``; the folds left empty are dropped (as the tuned
    estimators do with an explicit ``cv`` when weight-0 rows are left out).
    """
    position = np.full(n, -1)
    position[rows] = np.arange(len(rows))
    restricted = [position[np.asarray(V)] for V in folds]
    return [np.sort(V[V >= 0]) for V in restricted if np.any(V >= 0)]


@dataclass(frozen=True)
class _Coefficients:
    eta: NDArray  # H^{-1} 1, (n,)
    s: float  # 1^T eta
    beta: NDArray  # dual coefficients of the full fit, (n, n_targets)


class ClosedFormCV:
    """Held-out latent outputs of every fold, for any gamma, at one kernel matrix.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        The full (symmetric) kernel matrix of the training inputs.
    Y : ndarray of shape (n_samples,) or (n_samples, n_targets)
        Regression targets, or +-1 class codes for classification (several columns:
        several binary problems, e.g. the bits of an output code, at once).
    folds : list of index arrays
        The held-out sets (from :func:`make_folds`); the model for each is trained on
        all other points.
    strategy : {"auto", "eigen", "cholesky"}
    n_gammas : int
        How many gammas will be evaluated; "auto" uses it to choose the strategy.
    sample_weight : ndarray of shape (n_samples,), optional
        Weights >= 0 of the weighted LS-SVM, H = K + diag(1/(gamma w_k)): the
        closed form holds for any positive definite H, but the eigendecomposition
        shortcut needs a scalar diagonal, so weights use the "cholesky" strategy.
        A weight 0 (an infinite diagonal entry) leaves its row out exactly, as in
        the estimators' ``fit``: the rows of positive weight (``rows``) make up the
        problem, and ``folds`` are the given ones restricted to them (see
        :func:`restrict_folds`). Negative, NaN or infinite weights raise a
        ValueError naming ``sample_weight``.
    fit_intercept : bool, default=True
        With the bias, C = H^{-1} - eta eta^T / s; without it (the model
        sum_k alpha_k K(x, x_k) of [S 3.62]), C = H^{-1} and beta = H^{-1} Y.

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.kernels import RBF
    >>> X = np.random.default_rng(0).standard_normal((40, 2)); y = np.sign(X[:, 0])
    >>> cv = ClosedFormCV(RBF(1.0)(X), y, make_folds(5, X, y, classifier=True))
    >>> [f.shape for f in cv.latent(10.0)][:2]
    [(8,), (8,)]
    """

    def __init__(
        self, K, Y, folds, *, strategy="auto", n_gammas=1, sample_weight=None,
        fit_intercept=True,
    ):
        if strategy not in STRATEGIES:
            raise ValueError(
                f"ClosedFormCV: strategy must be one of {list(STRATEGIES)}; "
                f"got strategy={strategy!r}."
            )
        K = np.asarray(K, dtype=np.float64)
        Y = np.asarray(Y, dtype=np.float64)
        n = K.shape[0]
        # the package's one check-and-drop of the weights: w_k = 0 is no row at all
        keep, sample_weight = positive_weight_rows(
            sample_weight, K, owner="ClosedFormCV"
        )
        self.rows = np.arange(n) if keep is None else keep  # rows of the problem
        if keep is not None and len(keep) < n:
            K, Y = K[np.ix_(keep, keep)], Y[keep]
            folds = restrict_folds(folds, keep, n)
            if any(len(V) == len(keep) for V in folds):
                raise ValueError(
                    "ClosedFormCV: sample_weight must leave a row of positive weight "
                    "outside every held-out set (each fold trains on the others); got "
                    f"all {len(keep)} rows of positive weight in one held-out set."
                )
        self.sample_weight = sample_weight
        self.fit_intercept = bool(fit_intercept)
        if sample_weight is not None:  # no scalar diagonal: no eigen shortcut
            strategy = "cholesky"
        if strategy == "auto":
            strategy = "eigen" if n_gammas >= EIGEN_MIN_GAMMAS else "cholesky"
        self.strategy = strategy
        self.K = K
        self._vector = Y.ndim == 1
        self.Y = Y.reshape(len(Y), -1)
        self.folds = [np.asarray(f) for f in folds]
        self._loo = all(len(f) == 1 for f in self.folds)
        if strategy == "eigen":
            tol = EIGEN_RTOL * np.abs(self.K).sum(axis=1).max()  # times ||K||_inf
            self.eigvals, self.U = _eigh_above(self.K, tol)  # (r,), (n, r)
            self._rhs = np.column_stack([np.ones(len(Y)), self.Y])  # [1, Y]
            self._Ut_rhs = blas.dgemm(1.0, self.U, self._rhs, trans_a=1)
            if self._loo:
                self._U2 = self.U**2
            else:
                self._UV = [np.asfortranarray(self.U[V]) for V in self.folds]

    def latent(self, gamma: float) -> list[NDArray[np.float64]]:
        """Held-out latent outputs f^(-V)(x_V), one array per fold of ``folds``."""
        if self.strategy == "eigen":
            coef, inverse_block, inverse_diag = self._eigen_inverse(gamma)
            loo = None
        else:
            coef, inverse_block, inverse_diag, loo = self._cholesky_inverse(gamma)
        if self._loo:
            if loo is None:  # eigen: diag(H^{-1}) from the eigenpairs, same formula
                eta = coef.eta if self.fit_intercept else None
                loo = loo_from_diagonal(self.Y, coef.beta, inverse_diag(), eta)
            out = [loo[f] for f in self.folds]
        else:
            out = []
            for f, V in enumerate(self.folds):
                # C_VV = (H^{-1})_VV - eta_V eta_V^T / s (upper triangle is read)
                C_VV = inverse_block(f) - np.outer(coef.eta[V] / coef.s, coef.eta[V])
                _, R_V, info = lapack.dposv(C_VV, coef.beta[V], lower=0, overwrite_a=1)
                if info:
                    raise NotPositiveDefiniteError(
                        f"The held-out block C_VV of fold {f} is not positive "
                        f"definite (gamma={gamma!r}). {PD_ADVICE}"
                    )
                out.append(self.Y[V] - R_V)  # f^(-V)(x_V) = y_V - r_V
        return [o[:, 0] for o in out] if self._vector else out

    def _eigen_inverse(self, gamma):
        """H^{-1} = gamma I + U diag(e) U^T, e = -gamma^2 lam / (1 + gamma lam)."""
        lam = self.eigvals
        if np.any(1.0 + gamma * lam <= 0):
            raise NotPositiveDefiniteError(
                "K + I/gamma is not positive definite: smallest eigenvalue "
                f"{lam.min() + 1 / gamma:.1e} at gamma={gamma!r}. {PD_ADVICE}"
            )
        e = -gamma * (gamma * lam) / (1.0 + gamma * lam)
        Z = gamma * self._rhs + blas.dgemm(1.0, self.U, e[:, None] * self._Ut_rhs)
        coef = self._coefficients(Z[:, 0], Z[:, 1:])

        def inverse_block(f):  # (H^{-1})_VV = gamma I + U_V diag(e) U_V^T
            UV = self._UV[f]
            B = blas.dgemm(1.0, UV * e, UV, trans_b=1)
            B.flat[:: B.shape[0] + 1] += gamma
            return B

        def inverse_diag():
            return gamma + self._U2 @ e

        return coef, inverse_block, inverse_diag

    def _cholesky_inverse(self, gamma):
        n = len(self.Y)
        ones = np.ones(n)
        if self.sample_weight is not None:
            gamma = gamma * np.asarray(self.sample_weight)  # gamma_k = gamma w_k
        # [S 3.32] by one Cholesky of H = K + diag(1/gamma_k) and the elimination
        # [S 3.25], whose eta = H^{-1} 1_v and s are the C of the closed form;
        # without the bias [S 3.62]: beta = H^{-1} Y, C = H^{-1}
        a = ones if self.fit_intercept else None
        sol = solve_bordered_kkt(self.K, gamma, a, self.Y)
        factor = sol.factor  # the CholeskyFactor of H
        beta = sol.alpha.reshape(n, -1)
        if self.fit_intercept:
            coef = _Coefficients(sol.eta, sol.s, beta)
        else:
            coef = _Coefficients(np.zeros(n), 1.0, beta)
        if self._loo:  # the one leave-one-out formula, from the factor
            loo = factor.loo_latent(
                self.Y, coef.beta, fit_intercept=self.fit_intercept, overwrite=True,
                eta=sol.eta,
            )  # fmt: skip
            return coef, None, None, loo
        # H^{-1} in place of the factor; only its upper triangle is valid, which is
        # the upper triangle of each block (H^{-1})_VV for sorted V.
        Hinv = factor.inverse(overwrite=True)

        def inverse_block(f):
            V = self.folds[f]
            return np.asfortranarray(Hinv[np.ix_(V, V)])

        return coef, inverse_block, None, None

    def _coefficients(self, eta, nu):
        if not self.fit_intercept:  # C = H^{-1}: no eta term, beta = H^{-1} Y
            return _Coefficients(np.zeros_like(eta), 1.0, nu)
        s = eta.sum()  # [S 3.25] step 2 with a = 1_v
        beta, _ = eliminate_border(eta, s, nu, self.Y)  # [S 3.25] step 3
        return _Coefficients(eta, s, beta)


def _eigh_above(K, tol):
    """Eigenpairs of the symmetric K with |eigenvalue| > tol, by one tridiagonal
    reduction (LAPACK sytrd, 4/3 N^3), every eigenvalue and eigenvector of the
    tridiagonal matrix by MRRR (O(N^2)), and the back-transformation (ormqr, 2 N^2 r)
    of the r kept vectors only; numpy's eigh transforms all N vectors back."""
    n = K.shape[0]
    lwork = int(lapack.dsytrd_lwork(n, lower=1)[0])
    c, d, e, tau, info = lapack.dsytrd(K, lower=1, lwork=lwork)
    try:
        w, Z = eigh_tridiagonal(d, e, lapack_driver="stemr", check_finite=False)
    except np.linalg.LinAlgError:  # MRRR can fail on tight clusters: full eigh
        w, Z = np.linalg.eigh(K)
        keep = np.abs(w) > tol
        return w[keep], np.asfortranarray(Z[:, keep])
    keep = np.abs(w) > tol
    w, Z = w[keep], np.asfortranarray(Z[:, keep])
    if n > 1 and Z.shape[1]:
        # Q = H(1) ... H(n-1); H(i) acts on rows i+1..n: QR storage of c[1:, :n-1]
        reflectors = np.asfortranarray(c[1:, : n - 1])
        lwork = 64 * Z.shape[1]
        Z[1:], _, info = lapack.dormqr(
            "L", "N", reflectors, tau, Z[1:], lwork, overwrite_c=1
        )
    return w, Z


def score_latent(scoring, y_true, latent, sample_weight=None) -> float:
    """Score of latent outputs: greater is better, as in scikit-learn.

    ``"accuracy"``: fraction of sign(latent) equal to sign(``y_true``), the +-1
    codes or any signed targets such as LS-SVM_F's (latent > 0 counts as +1, as in
    ``LSSVMClassifier.predict``);
    ``"neg_mean_squared_error"``; ``"r2"``; ``"roc_auc"``: the area under the ROC
    curve of the latent outputs against y_true > 0; ``"neg_log_loss"``: minus the
    mean log loss of Platt probabilities (:func:`lssvm.probability.platt_fit`)
    fitted to these held-out latent outputs, as ``LSSVMClassifier(probability=True)``
    fits them to its leave-one-out outputs (the sigmoid's two parameters are
    fitted on the outputs it scores: slightly optimistic, by O(2 / n_held_out));
    or a callable ``scoring(y_true, latent)``. For the last two, rows with
    y_true = 0 (a bit's unused rows) are left out, and each held-out set needs
    both signs. Several columns (several binary problems) give the mean over columns.
    ``sample_weight`` weights the held-out points of the named scores (a weight-2
    point counts as a repeated one, as scikit-learn's metrics); a callable gets
    no weights.
    """
    y_true, latent = np.asarray(y_true), np.asarray(latent)
    if callable(scoring):
        return float(scoring(y_true, latent))
    # the one weight check (>= 0, finite, one per held-out row, one positive)
    sample_weight = check_sample_weight(
        sample_weight, len(y_true), owner="score_latent"
    )
    w = sample_weight
    if w is not None and y_true.ndim > 1:
        w = w[:, None] * np.ones(y_true.shape[1:])
    if scoring == "accuracy":
        hits = np.where(latent > 0, 1.0, -1.0) == np.where(y_true > 0, 1.0, -1.0)
        return float(np.average(hits, weights=w))
    if scoring == "neg_mean_squared_error":
        return float(-np.average((y_true - latent) ** 2, weights=w))
    if scoring in ("roc_auc", "neg_log_loss"):
        return _binary_score(scoring, y_true, latent, sample_weight)
    if scoring == "r2":
        w = np.ones_like(y_true, dtype=np.float64) if w is None else w
        mean = np.sum(w * y_true, axis=0) / np.sum(w, axis=0)
        total = np.sum(w * (y_true - mean) ** 2, axis=0)
        return float(np.mean(1.0 - np.sum(w * (y_true - latent) ** 2, axis=0) / total))
    raise ValueError(
        f"score_latent: scoring must be one of {list(SCORINGS)} or a callable "
        f"scoring(y_true, latent); got scoring={scoring!r}."
    )


def _binary_score(scoring, y_true, latent, sample_weight):
    """roc_auc or neg_log_loss (Platt) of latent outputs, mean over columns."""
    from sklearn.metrics import roc_auc_score

    from ..probability import platt_fit

    y2 = y_true.reshape(len(y_true), -1)
    f2 = latent.reshape(len(latent), -1)
    scores = []
    for c in range(y2.shape[1]):
        used = y2[:, c] != 0
        pos, f = y2[used, c] > 0, f2[used, c]
        w = None if sample_weight is None else sample_weight[used]
        if pos.all() or not pos.any():
            raise ValueError(
                f"score_latent: scoring={scoring!r} needs both classes in every "
                f"held-out set; one has {int(used.sum())} point(s), all of one "
                "class. Use stratified "
                "folds with at least one point of each class per fold (not "
                "cv='loo'), or scoring='accuracy'."
            )
        if scoring == "roc_auc":
            scores.append(roc_auc_score(pos, f, sample_weight=w))
            continue
        A, B = platt_fit(f, pos, w)
        z = A * f + B  # P(+1) = 1 / (1 + exp(z)): -log P = logaddexp(0, z)
        loss = np.where(pos, np.logaddexp(0.0, z), np.logaddexp(0.0, -z))
        scores.append(-np.average(loss, weights=w))
    return float(np.mean(scores))
