r"""LS-SVM classifier, Suykens et al. (2002): binary [S 3.1-3.7], codes [S 3.8-3.14].

Primal [S 3.1]: minimise :math:`\tfrac12 w^T w + \gamma \tfrac12 \sum_k e_k^2` subject to
:math:`y_k [w^T\varphi(x_k) + b] = 1 - e_k`. Dual [S 3.5]: the bordered KKT system with
:math:`\Omega_{kl} = y_k y_l K(x_k, x_l)` [S 3.6]. Model [S 3.7]:
:math:`y(x) = \mathrm{sign}[\sum_k \alpha_k y_k K(x, x_k) + b]`.

The fit never forms Omega. With :math:`\beta = \alpha \circ y` and :math:`y_k^2 = 1`,
[S 3.5] is the regression system [S 3.32] on the targets y:
:math:`[[0, 1^T], [1, K + I/\gamma]] [b; \beta] = [0; y]`. So the solver factors
:math:`K + I/\gamma` (built in place, lower triangle only) once, and every binary
problem with the same rows, kernel and gamma is one more right-hand side: the bits of
a multiclass output code [S 3.12] with equal hyper-parameters share one factorisation.
LS-SVM_F [S 3.23] changes only the right-hand side: targets +N/N_1 and -N/N_2.

Multiclass problems go through an output code (:mod:`lssvm.multiclass`): one binary
LS-SVM per column of the code matrix, trained on the rows of the classes it uses,
decoded by Hamming distance (the book's rule), loss, or a decision DAG.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import multiclass as mc
from . import probability as prob
from ._base import (
    ACCEPT_SPARSE,
    LSSVMBase,
    degenerate_width,
    resolve_sigma2,
)
from ._docs import shared_parameters
from ._validation import (
    NoneValue,
    Options,
    RandomState,
    Unchecked,
    check_classes,
    check_constraints,
    check_finite_output,
    check_fraction,
    check_kernel,
    check_positive,
    positive_weight_rows,
    validate_params,
)
from .gp import predictive_variance
from .kernels import Precomputed, fit_view
from .linalg.factor import CholeskyFactor, NotPositiveDefiniteError, NumericalWarning
from .linalg.memory import check_dense_memory

__all__ = ["LSSVMClassifier", "BIT_PARAM_NAMES", "PROBABILITY_METHODS"]

BIT_PARAM_NAMES = ("gamma", "kernel", "sigma2", "degree", "tau")
PROBABILITY_METHODS = (False, True, "bayes")
#: The held-out check of a fit (``_warn_constant_held_out``): training points sampled
#: (evenly spaced); it warns when at least _HELD_OUT_ONE_CLASS of them get one class
#: whose share of their labels is at most _HELD_OUT_MAX_SHARE.
_HELD_OUT_SAMPLE = 200
_HELD_OUT_ONE_CLASS = 0.98
_HELD_OUT_MAX_SHARE = 0.9


# Attributes made by the probability part of a fit (removed by every new fit).
_PROBABILITY_ATTRIBUTES = (
    "probA_", "probB_", "loo_decision_", "mu_", "zeta_", "_prior", "_cholesky_",
)


class _BitSolutions(NamedTuple):
    """What the KKT solves of a fit give (``LSSVMClassifier._solve_bits``).

    ``beta`` (N, n_bits): alpha_k y_k of every bit, 0 on the rows a bit does not use;
    ``b`` (n_bits,); ``loo``: the leave-one-out latent outputs (probability=True,
    else None); ``factor``: the Cholesky factor of H of bit 0 (the bit the
    moderated output uses) with probability="bayes", else None (the leave-one-out
    outputs of probability=True destroy theirs, so none is kept); ``n_iter``: the
    most CG iterations;
    ``n_factorizations``: the number of groups of bits sharing H.
    """

    beta: np.ndarray
    b: np.ndarray
    loo: np.ndarray | None
    factor: CholeskyFactor | None
    n_iter: int
    n_factorizations: int


def _kernel_groups(kernels):
    """[(kernel, bits)]: the bits of each distinct kernel, in order of first appearance.

    Kernels are compared by ``==`` (same class and parameters; a callable by
    identity or its own ``==``), never by their printed form: two different
    callables may print alike. Kernels are unhashable, hence the linear scan.
    """
    groups: list = []
    for j, kernel in enumerate(kernels):
        for g_kernel, g_bits in groups:
            if g_kernel == kernel:
                g_bits.append(j)
                break
        else:
            groups.append((kernel, [j]))
    return groups


def has_probability(estimator):
    """``predict_proba`` exists only with ``probability`` set (as in SVC)."""
    return estimator.probability is not False and estimator.probability is not None


#: ``probability``: Platt's sigmoid on leave-one-out outputs, or the moderated output.
PROBABILITY_CONSTRAINTS = [
    Options(
        PROBABILITY_METHODS,
        meaning="True: Platt's sigmoid on leave-one-out outputs; 'bayes': "
        "moderated output",
    )
]


def check_probability(value, owner):
    """``probability`` as True, False or "bayes"; anything else raises ValueError."""
    check_constraints(value, "probability", PROBABILITY_CONSTRAINTS, owner=owner)
    return value if isinstance(value, str) else bool(value)


#: The parameters LSSVMClassifier adds to LSSVMBase (also LSSVMClassifierCV's).
CLASSIFIER_CONSTRAINTS = {
    "coding": [Unchecked("lssvm.multiclass.codebook")],
    "decoding": [Options(mc.DECODINGS)],
    "targets": [Unchecked("lssvm.multiclass.bit_targets")],
    "random_state": [NoneValue(), RandomState()],
    "probability": PROBABILITY_CONSTRAINTS,
}


@shared_parameters(LSSVMBase)
class LSSVMClassifier(ClassifierMixin, LSSVMBase):
    """LS-SVM classifier: dual system [S 3.5], model [S 3.7]; output codes [S 3.8-3.14].

    Parameters
    ----------
    {shared: gamma kernel sigma2 degree tau solver tol}
    fit_intercept : bool, default=True
        False drops the bias of every bit: ``b_ = 0`` and (Omega + I/gamma) alpha = 1_v,
        the classifier's [S 3.5] without its border (cf. [S 3.62]).
    coding : {"ovo", "ova", "moc", "ecoc"} or array of shape (n_classes, n_bits)
        Output code for more than two classes (:func:`lssvm.multiclass.codebook`):
        one-versus-one (default, the best coding of the book's [S Table 3.4]),
        one-versus-all, minimum output coding, error-correcting; or an explicit
        code matrix with entries in {-1, 0, +1}, rows in the order of ``classes_``.
        Two classes always give the single binary LS-SVM.
    decoding : {"hamming", "loss", "dag"}, default="hamming"
        How bit outputs become a class (:func:`lssvm.multiclass.decode`).
    targets : {"pm1", "fisher"}, default="pm1"
        Targets of each binary problem: +-1 (LS-SVM), or +N/N_1, -N/N_2 (LS-SVM_F,
        [S 3.23]), counted within the rows of each bit.
    bit_params : list of dict, optional
        One dict per bit overriding any of ``gamma``, ``kernel``, ``sigma2``,
        ``degree``, ``tau`` for that binary problem: [S 3.13] advises its own
        (gamma_i, sigma_i) per bit. ``LSSVMClassifierCV`` fills it by tuning.
    random_state : int, RandomState instance or None, default=0
        Seed of the ECOC construction (the only random step); None draws a
        different code at each fit.
    probability : {False, True, "bayes"}, default=False
        Enable ``predict_proba`` / ``predict_log_proba`` (as SVC's ``probability``).
        True: Platt's sigmoid per bit, fitted to the exact closed-form
        leave-one-out outputs of the fit
        (:meth:`lssvm.linalg.factor.CholeskyFactor.loo_latent`: one triangular
        inversion of the fit's Cholesky factor, no refit); more than two
        classes: pairwise coupling (Wu, Lin & Weng 2004, as LIBSVM) for a
        one-versus-one code, for other codes the product over bits of
        P(bit = code entry), a zero entry counting 1/2, normalised
        (:func:`lssvm.probability.code_probabilities`). "bayes" (two classes): the
        moderated output of the evidence framework at this gamma
        (:func:`lssvm.probability.moderated_output`, the same formula as
        :func:`lssvm.bayes.evidence.class_probability`, with mu from
        :func:`lssvm.probability.evidence_mu`; :meth:`moderated_output` gives it
        for other mu, zeta and prior); it keeps the Cholesky factor of
        K + I/gamma (8 N^2 bytes; a :class:`lssvm.linalg.factor.CholeskyFactor` in
        the private ``_cholesky_``). The argmax of ``predict_proba`` can differ from
        ``predict`` near the boundary (as in SVC).
    {shared: n_jobs}

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted labels; for two classes ``classes_[0]`` is coded y = -1,
        ``classes_[1]`` y = +1.
    codebook_ : ndarray of shape (n_classes, n_bits)
        The code matrix used; row i is the codeword of ``classes_[i]``.
    alpha_ : ndarray of shape (n_samples,) or (n_samples, n_bits)
        Support values alpha_k of [S 3.5], in the book's convention (the model is
        sum_k alpha_k y_k K(x, x_k) + b, [S 3.7]); one column per bit when there are
        more than two classes, 0 for the rows a bit does not use.
    b_ : float or ndarray of shape (n_bits,)
        Bias term(s); 0 with ``fit_intercept=False``.
    e_ : ndarray, shape of ``alpha_``
        Errors e_k = alpha_k / gamma [S 3.4].
    dual_coef_ : ndarray, shape of ``alpha_``
        alpha_k y_k, the coefficients of K(x, x_k) in the model.
    support_vectors_ : ndarray of shape (n_samples, n_features)
        The training inputs: every point is a support vector (no sparseness).
    kernel_ : Kernel or None
        The kernel shared by every bit (None if ``bit_params`` gives bits different
        kernels; see ``kernels_``).
    kernels_ : list of Kernel
        The kernel of each bit.
    gammas_ : ndarray of shape (n_bits,)
        The regularization constant of each bit.
    n_factorizations_ : int
        KKT systems solved: bits with the same rows, kernel and gamma share one.
    n_iter_ : int
        CG iterations (the most over the systems; 0 for the direct solver).
    n_features_in_ : int
    probability_ : {False, True, "bayes"}
        The ``probability`` of the last fit (``probability`` checked, as
        ``predict_proba`` uses it). It decides which of the attributes below exist,
        and it stays when ``set_params(probability=...)`` changes the parameter
        after the fit (``predict_proba`` then asks for a new fit).
    probA_, probB_ : ndarray of shape (n_bits,)
        With ``probability=True``: Platt's sigmoid of each bit,
        P(bit = +1 | f) = 1 / (1 + exp(A f + B)).
    loo_decision_ : ndarray of shape (n_samples,) or (n_samples, n_bits)
        With ``probability=True``: the leave-one-out latent outputs the sigmoids
        were fitted to (0 on rows a bit does not use).
    mu_, zeta_ : float
        With ``probability="bayes"``: the evidence framework's mu and
        zeta = gamma mu at this gamma (:func:`lssvm.probability.evidence_mu`),
        the defaults of :meth:`moderated_output`.

    Examples
    --------
    >>> from lssvm import LSSVMClassifier
    >>> from lssvm.datasets import two_spirals
    >>> X, y = two_spirals(random_state=0)
    >>> clf = LSSVMClassifier(gamma=10.0, sigma2=1.0).fit(X, y)
    >>> float(clf.score(X, y))
    1.0

    Three classes with minimum output coding: two bits, one factorisation.

    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = LSSVMClassifier(gamma=10.0, sigma2=2.0, coding="moc").fit(X, y)
    >>> clf.codebook_.shape, clf.n_factorizations_
    ((3, 2), 1)
    """

    _parameter_constraints = {
        **LSSVMBase._parameter_constraints,
        **CLASSIFIER_CONSTRAINTS,
        "bit_params": [NoneValue(), Unchecked("fit: a list of one dict per bit")],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if isinstance(self.probability, str) and self.probability == "bayes":
            tags.classifier_tags.multi_class = False  # the moderated output: 2 classes
        return tags

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
        coding="ovo",
        decoding="hamming",
        targets="pm1",
        bit_params=None,
        random_state=0,
        probability=False,
        n_jobs=None,
    ):
        super().__init__(
            gamma=gamma, kernel=kernel, sigma2=sigma2, degree=degree, tau=tau,
            solver=solver, tol=tol, fit_intercept=fit_intercept, n_jobs=n_jobs,
        )  # fmt: skip
        self.coding = coding
        self.decoding = decoding
        self.targets = targets
        self.bit_params = bit_params
        self.random_state = random_state
        self.probability = probability

    def _per_bit(self, n_bits, X=None):
        """(gamma, kernel) of every bit: the estimator's, overridden by bit_params.

        The estimator's own values are validated at the start of ``fit``; the values
        of ``bit_params`` are checked here against the same constraints.
        """
        common = {name: getattr(self, name) for name in BIT_PARAM_NAMES}
        if self.bit_params is None:
            overrides = [{}] * n_bits
        else:
            if isinstance(self.bit_params, dict) or not all(
                isinstance(p, dict) for p in self.bit_params
            ):
                raise ValueError(
                    f"{type(self).__name__}: bit_params must be a list with one dict "
                    f"per bit; got bit_params={self.bit_params!r}."
                )
            overrides = list(self.bit_params)
            if len(overrides) != n_bits:
                raise ValueError(
                    f"{type(self).__name__}: bit_params has {len(overrides)} entries "
                    f"but the code has {n_bits} bits; give one dict per bit."
                )
        out = []
        for j, extra in enumerate(overrides):
            unknown = set(extra) - set(BIT_PARAM_NAMES)
            if unknown:
                raise ValueError(
                    f"{type(self).__name__}: bit_params[{j}] has unknown keys "
                    f"{sorted(unknown)}; allowed: {list(BIT_PARAM_NAMES)}."
                )
            for name, value in extra.items():
                check_constraints(
                    value, name, self._parameter_constraints[name], owner=self
                )
            p = {**common, **extra}
            gamma = float(p["gamma"])
            kernel = check_kernel(
                p["kernel"], sigma2=resolve_sigma2(p["sigma2"], X, p["kernel"]),
                degree=p["degree"], tau=p["tau"], owner=self,
            )  # fmt: skip
            out.append((gamma, kernel))
        return out

    def fit(self, X, y, sample_weight=None):
        """Solve the KKT system of every bit of the output code, [S 3.5] and [S 3.12].

        The steps, in the book's order: check the data, code the classes as the
        targets of the bits [S 3.12], solve one KKT system [S 3.5] per group of
        bits sharing K + I/gamma, store the model [S 3.7], then calibrate the
        probabilities (with ``probability`` set).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix (n_samples, n_samples) with kernel="precomputed".
            A Dask array (``solver="cg"`` or ``"auto"``): CG's kernel products run
            on the current ``dask.distributed`` client
            (:class:`lssvm.linalg.dask_operators.DaskKernelOperator`).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Weighted LS-SVM: gamma w_k instead of gamma for sample k (the cost
            gamma/2 sum_k w_k e_k^2 of [S 3.1]). Integer weights give the model of
            repeated rows; rows of weight 0 are left out, exactly (an infinite
            diagonal entry), and every class must keep a row of positive weight.
        """
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight=None, *, kkt_solver=None):
        """``fit``, its KKT solves replaced by ``kkt_solver`` when given
        (:func:`lssvm._base.fit_with_kkt_solver`)."""
        X, y_index, gram, w, method = self._check_fit_data(X, y, sample_weight)
        C, Y, T = self._code_targets(y_index)  # output code [S 3.12], bit targets
        per_bit = self._per_bit(C.shape[1], X)  # (gamma, kernel) of every bit
        self._check_probability_method(method, per_bit)
        solved = self._solve_bits(  # [S 3.5]
            X, gram, w, Y, T, per_bit, method, kkt_solver=kkt_solver
        )
        self._store_model(X, y_index, w, C, Y, T, per_bit, solved)  # [S 3.7]
        self._warn_constant_held_out(X, y_index)
        self._fit_probability(method, Y, T, w, solved)  # Platt or moderated output
        return self

    def _check_fit_data(self, X, y, sample_weight):
        """Validate the parameters and the data; set ``classes_``.

        Returns (X, y_index, gram, w, method): the rows of positive weight (all
        without ``sample_weight``), the index of each row's class in ``classes_``,
        the Gram matrix for kernel="precomputed" (else None), the weights of the
        rows kept (or None) and the checked ``probability``.
        """
        validate_params(self)  # the constraints table, once
        X, y = self._from_dask(X, y)  # a Dask X: CG products on the cluster
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=ACCEPT_SPARSE)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        check_classes(self.classes_.tolist(), owner=self)
        method = check_probability(self.probability, self)
        precomputed = isinstance(self.kernel, str) and self.kernel == "precomputed"
        X, gram = fit_view(Precomputed(), X) if precomputed else (X, None)
        keep, w = positive_weight_rows(  # zero weight: no row at all
            sample_weight, X, self.classes_[y_index], owner=self, classes=self.classes_
        )
        if keep is not None:
            X, y_index = X[keep], y_index[keep]
        return X, y_index, gram, w, method

    def _code_targets(self, y_index):
        """The output code [S 3.12] and the targets of every bit.

        Returns (C, Y, T): the code matrix (n_classes, n_bits), the +-1 label of
        each row on each bit (0 where the bit does not use the row) and the bit
        targets (+-1, or LS-SVM_F's +N/N_1, -N/N_2 [S 3.23]).
        """
        M = len(self.classes_)
        try:
            C = mc.codebook(M, self.coding, random_state=self.random_state)
            Y = mc.encode(y_index, C).astype(np.float64)  # (N, n_bits), 0: unused
            T = mc.bit_targets(Y, self.targets)
        except ValueError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None
        if self.decoding == "dag" and M > 2 and not mc.is_one_vs_one(C):
            raise ValueError(
                f"{type(self).__name__}: decoding='dag' needs a one-versus-one code "
                f"(coding='ovo'); got coding={self.coding!r}."
            )
        return C, Y, T

    def _check_probability_method(self, method, per_bit):
        """probability="bayes" needs two classes and K(x, x) at test points."""
        M = len(self.classes_)
        if method == "bayes" and M > 2:
            raise ValueError(
                f"{type(self).__name__}: probability='bayes' is for two classes; got "
                f"{M} classes. Only binary classification is supported with "
                "probability='bayes'; use probability=True (Platt scaling and "
                "coupling)."
            )
        if method == "bayes" and isinstance(per_bit[0][1], Precomputed):
            raise ValueError(
                f"{type(self).__name__}: probability='bayes' needs K(x, x) at test "
                "points, which kernel='precomputed' does not give; use "
                "probability=True."
            )

    def _solve_bits(self, X, gram, w, Y, T, per_bit, method, *, kkt_solver=None):
        """[S 3.5] for every bit: one KKT solve per group of bits sharing H.

        Bits with the same rows, kernel and gamma share H = K + I/gamma, so each
        group is one factorisation with one right-hand side per bit. With
        ``probability`` set, the factor of H is computed (also after CG): for True
        it gives the exact leave-one-out outputs of every bit and is then dropped
        (they overwrite it); for "bayes" the factor of bit 0's group is kept.
        ``kkt_solver`` replaces the default solve (:meth:`_solve_kkt`).
        """
        groups: list = []  # [bits]: the same kernel, then the same rows and gamma
        for _, same_kernel in _kernel_groups([kernel for _, kernel in per_bit]):
            same_h: dict = {}
            for j in same_kernel:
                key = ((Y[:, j] != 0).tobytes(), per_bit[j][0])  # (rows, gamma)
                same_h.setdefault(key, []).append(j)
            groups.extend(same_h.values())
        N, n_bits = X.shape[0], Y.shape[1]
        beta = np.zeros((N, n_bits))
        b = np.zeros(n_bits)
        loo = np.zeros((N, n_bits)) if method is True else None
        n_iter = 0
        factor = None
        for bits in groups:
            gamma, kernel = per_bit[bits[0]]
            rows = np.flatnonzero(Y[:, bits[0]])
            if isinstance(kernel, Precomputed):
                kernel = gram
            gamma_rows = gamma if w is None else gamma * w[rows]  # gamma_k = gamma w_k
            try:
                # [S 3.5] in regression form: a = 1_v, d = targets, beta = alpha * y
                sol = self._solve_kkt(
                    kernel, X[rows], gamma_rows, np.ones(len(rows)),
                    T[np.ix_(rows, bits)], kkt_solver=kkt_solver,
                )  # fmt: skip
            except NotPositiveDefiniteError as exc:
                raise NotPositiveDefiniteError(
                    f"{exc} Got kernel {kernel!r} and gamma={gamma!r}."
                ) from None
            beta[np.ix_(rows, bits)] = sol.alpha
            b[bits] = sol.b
            n_iter = max(n_iter, sol.n_iter)
            if method is True:  # exact leave-one-out outputs from the factor of H
                h_factor = self._probability_factor(
                    sol, kernel, X[rows], gamma_rows, method
                )
                # overwrite=True destroys h_factor: it is dropped here, never kept
                loo[np.ix_(rows, bits)] = h_factor.loo_latent(
                    T[np.ix_(rows, bits)], sol.alpha.reshape(len(rows), -1),
                    fit_intercept=bool(self.fit_intercept), overwrite=True,
                )  # fmt: skip
            elif method == "bayes" and bits[0] == 0:  # kept: bit 0's H, intact
                factor = self._probability_factor(
                    sol, kernel, X[rows], gamma_rows, method
                )
        return _BitSolutions(beta, b, loo, factor, n_iter, len(groups))

    def _probability_factor(self, sol, kernel, X_rows, gamma_rows, method):
        """The Cholesky factor of H the probabilities need: the solve's, or (CG) H's."""
        if sol.factor is not None:
            return sol.factor
        check_dense_memory(  # before the N x N matrix, as "direct" does
            len(X_rows), owner=self,
            what=f"probability={method!r} (the Cholesky factor of K + I/gamma)",
            alternative="use probability=False with solver='cg'",
        )  # fmt: skip
        # the package's one factorisation of K + diag(1/gamma_k), in place
        return CholeskyFactor.factorize(
            kernel.gram_lower(X_rows), gamma_rows, overwrite=True
        )

    def _store_model(self, X, y_index, w, C, Y, T, per_bit, solved):
        """The fitted model [S 3.7]: alpha_k = beta_k y_k, e_k = alpha_k / gamma_k."""
        self.codebook_ = C
        self.kernels_ = [kernel for _, kernel in per_bit]
        self.gammas_ = np.array([gamma for gamma, _ in per_bit])
        same = all(k == self.kernels_[0] for k in self.kernels_)
        self.kernel_ = self.kernels_[0] if same else None
        self.n_factorizations_ = solved.n_factorizations
        self.n_iter_ = solved.n_iter
        self.support_vectors_ = X.copy()
        beta, b = solved.beta, solved.b
        alpha = beta * Y  # alpha_k = beta_k y_k (y_k = +-1; 0 on unused rows)
        gammas = self.gammas_ if w is None else np.outer(w, self.gammas_)
        e = alpha / gammas  # alpha_k = gamma_k e_k, [S 3.4]
        # Target of each class on each bit, for loss-based decoding
        self.code_targets_ = mc.code_targets(y_index, T)
        self._binary = len(self.classes_) == 2 and np.array_equal(C, [[-1], [1]])
        if self._binary:  # the binary LS-SVM [S 3.5]: 1-D attributes
            self.alpha_, self.dual_coef_, self.e_ = alpha[:, 0], beta[:, 0], e[:, 0]
            self.b_ = float(b[0])
        else:
            self.alpha_, self.dual_coef_, self.e_, self.b_ = alpha, beta, e, b

    def _warn_constant_held_out(self, X, y_index):
        """NumericalWarning when the model predicts one class away from its own points.

        At a sample of at most 200 training points, evenly spaced, the decision is
        computed without the point's own term, f(x_k) - beta_k K(x_k, x_k): the
        output of the other points' expansion and b, which is what a new point near
        x_k gets. If at least 98% of the sampled points then fall in one class
        although its share of their labels is at most 90%, the model is (nearly)
        the majority rule away from the training points: a kernel far narrower
        than the distances between the inputs does this (standardised inputs with
        30 features and sigma2 = 1), whether or not K is numerically the identity.
        O(200 N) kernel values.
        """
        if any(isinstance(k, Precomputed) for k in self.kernels_):
            return
        if any(degenerate_width(k, X) for k in self.kernels_):
            return  # warned at the solve, with the cause
        rows = np.unique(np.linspace(0, X.shape[0] - 1, _HELD_OUT_SAMPLE).astype(int))
        if len(np.unique(y_index[rows])) < 2:
            return
        coef = self.dual_coef_.reshape(X.shape[0], -1)
        latent = np.empty((len(rows), coef.shape[1]))
        for kernel, bits in _kernel_groups(self.kernels_):  # one evaluation each
            Xs = X[rows]
            latent[:, bits] = kernel(Xs, X) @ coef[:, bits]
            latent[:, bits] -= kernel.diag(Xs)[:, None] * coef[rows][:, bits]
        latent += np.asarray(self.b_)
        if self._binary:
            labels = (latent[:, 0] > 0).astype(int)
        else:
            scores = mc.class_scores(
                latent, self.codebook_, self.decoding, self.code_targets_
            )
            labels = np.argmax(scores, axis=1)
        top = int(np.argmax(np.bincount(labels, minlength=len(self.classes_))))
        predicted = float(np.mean(labels == top))
        actual = float(np.mean(y_index[rows] == top))
        if predicted < _HELD_OUT_ONE_CLASS or actual > _HELD_OUT_MAX_SHARE:
            return
        warnings.warn(
            f"{type(self).__name__}: away from its training points the model predicts "
            f"one class: at {len(rows)} sampled training points the decision without "
            f"the point's own term is class {self.classes_[top:top + 1].tolist()[0]!r} for "
            f"{100 * predicted:.0f}% of them, although {100 * actual:.0f}% of their "
            f"labels are that class. Check the kernel ({self.kernels_[0]!r}) against "
            "the distances between the inputs (an RBF sigma2 far below them does "
            "this; sigma2='scale' or scaled inputs avoid it) and gamma (a small gamma "
            "shrinks every output to b), or tune them (LSSVMClassifierCV).",
            NumericalWarning,
            stacklevel=4,  # the caller of fit (fit -> _fit -> here)
        )

    def _fit_probability(self, method, Y, T, w, solved):
        """Platt's sigmoids on the leave-one-out outputs, or the Bayesian mu, zeta.

        A previous fit's probability attributes are removed first: a model refit
        with another ``probability`` keeps none that its own fit did not make.
        """
        for name in _PROBABILITY_ATTRIBUTES:
            self.__dict__.pop(name, None)
        self.probability_ = method
        if method is True:
            loo = solved.loo
            n_bits = Y.shape[1]
            self.probA_, self.probB_ = np.zeros(n_bits), np.zeros(n_bits)
            for j in range(n_bits):
                rows = np.flatnonzero(Y[:, j])
                self.probA_[j], self.probB_[j] = prob.platt_fit(
                    loo[rows, j], Y[rows, j] > 0, None if w is None else w[rows]
                )
            self.loo_decision_ = loo[:, 0] if self._binary else loo
        elif method == "bayes":
            t = T[:, 0]
            self.mu_, self.zeta_ = prob.evidence_mu(
                t, solved.beta[:, 0], solved.b[0], self.gammas_[0], w
            )
            w = np.ones_like(t) if w is None else w
            self._prior = float(w[t > 0].sum() / w.sum())  # pi_+, weighted
            self._cholesky_ = solved.factor  # of K + diag(1/gamma_k), CholeskyFactor

    @available_if(has_probability)
    def predict_proba(self, X):
        """Class probabilities, columns in the order of ``classes_``.

        Needs ``probability=True`` (Platt's sigmoid on the leave-one-out outputs;
        pairwise coupling or the code rule for more classes) or "bayes" (moderated
        output, two classes); see the class docstring.
        """
        latent = self.bit_outputs(X)  # checks that the model is fitted
        method = check_probability(self.probability, self)
        fitted = self.probability_
        if fitted != method:  # set_params(probability=...) after the fit
            raise NotFittedError(
                f"{type(self).__name__}: predict_proba needs a model fitted with "
                f"probability={method!r}; this one was fitted with "
                f"probability={fitted!r}. Fit it again."
            )
        if method == "bayes":
            p1 = self._bayes_proba(X, latent[:, 0])
            return np.column_stack([1.0 - p1, p1])
        P = prob.platt_predict(latent, self.probA_, self.probB_)  # P(bit = +1 | x)
        C = self.codebook_
        if len(self.classes_) == 2 and C.shape[1] == 1:
            p_pos = P[:, 0] if C[1, 0] > 0 else 1.0 - P[:, 0]
            return np.column_stack([1.0 - p_pos, p_pos])
        M = len(self.classes_)
        cols = mc.pair_columns(C)
        if cols is None or C.shape[1] != M * (M - 1) // 2:  # not one-versus-one
            return prob.code_probabilities(P, C)
        R = np.full((P.shape[0], M, M), 0.5)  # R_ij = P(class i | i or j, x)
        for i in range(M):
            for j in range(M):
                if i != j:
                    col = cols[i, j]
                    R[:, i, j] = P[:, col] if C[i, col] > 0 else 1.0 - P[:, col]
        return prob.pairwise_coupling(R)

    @available_if(has_probability)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def moderated_output(self, X, *, mu=None, zeta=None, prior=None):
        r"""P(y = ``classes_[1]`` | x) of the moderated output [VanGestel01].

        The ``predict_proba`` of ``probability="bayes"`` (its second column), with
        the option of other hyper-parameters: the latent m(x) of [S 3.7] and the
        Gaussian-process variance var_gp(x) of [S 3.60] (from the Cholesky factor
        the fit keeps) give
        :math:`P = 1 / (1 + \exp(-2 m / v - \log(\pi_+/\pi_-)))`,
        :math:`v = 1/\zeta + \mathrm{var}_{gp}/\mu`
        (:func:`lssvm.probability.moderated_output`).
        :func:`lssvm.bayes.evidence.class_probability` passes the mu and zeta of a level-2
        result.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        mu, zeta : float, optional
            Precisions of the prior on w and of the errors [VG 1]; default
            ``mu_``, ``zeta_`` (the evidence framework's at the fit's gamma).
        prior : float in (0, 1), optional
            pi_+ = P(y = ``classes_[1]``); default: the share of ``classes_[1]``
            among the training rows, weighted by ``sample_weight``.

        Returns
        -------
        ndarray of shape (n_samples,)

        Raises
        ------
        NotFittedError
            If the model is not fitted, or was fitted without ``probability="bayes"``
            (``probability_`` says how it was fitted).
        """
        check_is_fitted(self, "alpha_")
        if not (isinstance(self.probability_, str) and self.probability_ == "bayes"):
            raise NotFittedError(
                f"{type(self).__name__}: probability_ must be 'bayes' for "
                "moderated_output (only that fit keeps the Cholesky factor it "
                f"needs); got probability_={self.probability_!r}. Fit it again "
                "with probability='bayes'."
            )
        owner = f"{type(self).__name__}.moderated_output"
        mu = None if mu is None else check_positive(mu, "mu", owner=owner)
        zeta = None if zeta is None else check_positive(zeta, "zeta", owner=owner)
        if prior is not None:
            prior = check_fraction(
                prior, "prior", meaning="pi_+ = P(y = classes_[1])", owner=owner
            )
        m = self.bit_outputs(X)[:, 0]  # features and their names checked
        return self._bayes_proba(X, m, mu=mu, zeta=zeta, prior=prior)

    def _bayes_proba(self, X, m, *, mu=None, zeta=None, prior=None):
        """Moderated output [VanGestel01] with the GP variance of [S 3.60].

        ``mu``, ``zeta``, ``prior`` default to the fit's (``mu_``, ``zeta_``, the
        weighted share of class +1); :meth:`moderated_output` passes others.
        """
        mu = self.mu_ if mu is None else mu
        zeta = self.zeta_ if zeta is None else zeta
        prior = self._prior if prior is None else prior
        X = self._check_input(X)
        kernel = self.kernels_[0]  # bit 0's, whose factor the fit kept
        var = np.empty(X.shape[0])
        for rows, Kx in self._kernel_blocks(X, kernel):
            var[rows] = predictive_variance(
                Kx, kernel.diag(X[rows]), self._cholesky_,
                fit_intercept=bool(self.fit_intercept),
            )  # fmt: skip
        return prob.moderated_output(m, var, mu, zeta, prior)

    def bit_outputs(self, X):
        """Latent outputs of the binary classifiers (3.14, before the sign).

        Returns an array of shape (n_samples, n_bits): column j is
        sum_k alpha_k^(j) y_k^(j) K_j(x, x_k) + b^(j).
        """
        X = self._check_input(X)
        coef = self.dual_coef_.reshape(self.support_vectors_.shape[0], -1)
        out = np.empty((X.shape[0], coef.shape[1]))
        for kernel, bits in _kernel_groups(self.kernels_):  # one evaluation each
            for rows, Kx in self._kernel_blocks(X, kernel):
                out[rows, bits] = Kx @ coef[:, bits]
        out += np.asarray(self.b_)
        return check_finite_output(out, self.kernels_[0], owner=self)

    def decision_function(self, X):
        """Two classes: the latent output of [S 3.7], > 0 for ``classes_[1]``.

        More classes: per-class scores of shape (n_samples, n_classes) whose argmax
        is ``predict`` (see :func:`lssvm.multiclass.class_scores`).
        """
        latent = self.bit_outputs(X)
        if self._binary:
            return latent[:, 0]
        scores = mc.class_scores(
            latent, self.codebook_, self.decoding, self.code_targets_
        )
        if len(self.classes_) == 2:  # an explicit two-class code: > 0 for classes_[1]
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """Class labels: sign of [S 3.7] for two classes, else the decoded output code."""
        scores = self.decision_function(X)  # checks that the model is fitted
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
