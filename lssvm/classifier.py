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

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from . import multiclass as mc
from ._base import LSSVMBase
from ._validation import (
    check_classes,
    check_finite_output,
    check_kernel,
    check_positive,
)
from .solvers import NotPositiveDefiniteError

__all__ = ["LSSVMClassifier", "BIT_PARAM_NAMES"]

BIT_PARAM_NAMES = ("gamma", "kernel", "sigma2", "degree", "tau")


class LSSVMClassifier(ClassifierMixin, LSSVMBase):
    """LS-SVM classifier: dual system [S 3.5], model [S 3.7]; output codes [S 3.8-3.14].

    Parameters
    ----------
    gamma : float, default=1.0
        Regularization constant of [S 3.1]: the weight of the squared errors.
    kernel : {"rbf", "linear", "poly"}, Kernel or callable, default="rbf"
        Kernel function; a callable is used as ``kernel(X, Z)``.
    sigma2 : float or array, default=1.0
        RBF width, K(x, z) = exp(-||x - z||^2 / sigma2) [S 3.13]; one value per input
        gives the ARD kernel.
    degree : int, default=3
        Degree d of the polynomial kernel (x^T z + tau)^d.
    tau : float, default=1.0
        Offset of the polynomial kernel.
    solver : {"direct", "cg", "auto"}, default="direct"
        "direct": one Cholesky factorisation; "cg": the conjugate-gradient algorithm
        [S 3.25] with matrix-free kernel products and a Nystrom preconditioner;
        "auto": "direct" when its N x N matrix takes at most half the available
        memory and N <= ``lssvm.solvers.AUTO_DIRECT_MAX_N`` (the speed crossover),
        else "cg" (:func:`lssvm.solvers.choose_method`). Before "direct" allocates,
        the 8 N^2 bytes are compared with the available memory: a clear
        :class:`lssvm._memory.InsufficientMemoryError` suggests "cg" instead of
        numpy's "Unable to allocate".
    tol : float, default=1e-10
        CG tolerance on the relative residual (ignored by the direct solver).
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
    n_jobs : int or None, default=None
        Threads of the matrix-free kernel products of ``solver="cg"``
        (:class:`lssvm.operators.KernelOperator`); results do not depend on it.
        None means 1 unless in a ``joblib.parallel_config`` context, -1 all CPUs.

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

    def _per_bit(self, n_bits):
        """(gamma, kernel) of every bit: the estimator's, overridden by bit_params."""
        self._check_solver_params()
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
            p = {**common, **extra}
            gamma = check_positive(
                p["gamma"], "gamma", meaning="regularization constant of [S 3.1]",
                owner=self,
            )  # fmt: skip
            kernel = check_kernel(
                p["kernel"], sigma2=p["sigma2"], degree=p["degree"], tau=p["tau"],
                owner=self,
            )  # fmt: skip
            out.append((gamma, kernel))
        return out

    def fit(self, X, y):
        """Solve the KKT system of every bit of the output code, [S 3.5] and [S 3.12]."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        check_classes(self.classes_.tolist(), owner=self)
        M = len(self.classes_)
        if self.decoding not in mc.DECODINGS:
            raise ValueError(
                f"{type(self).__name__}: decoding must be one of {list(mc.DECODINGS)}; "
                f"got decoding={self.decoding!r}."
            )
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
        n_bits = C.shape[1]
        per_bit = self._per_bit(n_bits)

        # Bits with the same rows, kernel and gamma share H = K + I/gamma.
        groups: dict = {}
        for j, (gamma, kernel) in enumerate(per_bit):
            key = ((Y[:, j] != 0).tobytes(), gamma, repr(kernel))
            groups.setdefault(key, []).append(j)
        N = X.shape[0]
        beta = np.zeros((N, n_bits))
        b = np.zeros(n_bits)
        n_iter = 0
        for bits in groups.values():
            gamma, kernel = per_bit[bits[0]]
            rows = np.flatnonzero(Y[:, bits[0]])
            try:
                # [S 3.5] in regression form: a = 1_v, d = targets, beta = alpha * y
                sol = self._solve_kkt(
                    kernel, X[rows], gamma, np.ones(len(rows)), T[np.ix_(rows, bits)]
                )
            except NotPositiveDefiniteError as exc:
                raise NotPositiveDefiniteError(
                    f"{exc} Got kernel {kernel!r} and gamma={gamma!r}."
                ) from None
            beta[np.ix_(rows, bits)] = sol.alpha
            b[bits] = sol.b
            n_iter = max(n_iter, sol.n_iter)

        self.codebook_ = C
        self.kernels_ = [kernel for _, kernel in per_bit]
        self.gammas_ = np.array([gamma for gamma, _ in per_bit])
        same = all(k == self.kernels_[0] for k in self.kernels_)
        self.kernel_ = self.kernels_[0] if same else None
        self.n_factorizations_ = len(groups)
        self.n_iter_ = n_iter
        self.support_vectors_ = X.copy()
        alpha = beta * Y  # alpha_k = beta_k y_k (y_k = +-1; 0 on unused rows)
        e = alpha / self.gammas_  # alpha_k = gamma e_k, [S 3.4]
        # Target of each class on each bit, for loss-based decoding
        self.code_targets_ = mc.code_targets(y_index, T)
        self._binary = M == 2 and np.array_equal(C, [[-1], [1]])
        if self._binary:  # the binary LS-SVM [S 3.5]: 1-D attributes
            self.alpha_, self.dual_coef_, self.e_ = alpha[:, 0], beta[:, 0], e[:, 0]
            self.b_ = float(b[0])
        else:
            self.alpha_, self.dual_coef_, self.e_, self.b_ = alpha, beta, e, b
        return self

    def bit_outputs(self, X):
        """Latent outputs of the binary classifiers (3.14, before the sign).

        Returns an array of shape (n_samples, n_bits): column j is
        sum_k alpha_k^(j) y_k^(j) K_j(x, x_k) + b^(j).
        """
        X = self._check_input(X)
        coef = self.dual_coef_.reshape(self.support_vectors_.shape[0], -1)
        out = np.empty((X.shape[0], coef.shape[1]))
        by_kernel: dict = {}  # one kernel evaluation per distinct kernel
        for j, kernel in enumerate(self.kernels_):
            by_kernel.setdefault(repr(kernel), (kernel, []))[1].append(j)
        for kernel, bits in by_kernel.values():
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
