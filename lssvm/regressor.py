r"""LS-SVM function estimation, Suykens et al. (2002), [S 3.28-3.34], [S 3.62-3.63].

Primal [S 3.29]: minimise :math:`\tfrac12 w^T w + \gamma \tfrac12 \sum_k e_k^2` subject to
:math:`y_k = w^T\varphi(x_k) + b + e_k`. Dual [S 3.32]: the bordered KKT system with
border :math:`1_v` and :math:`\Omega = K` [S 3.33]. Model [S 3.34]:
:math:`y(x) = \sum_k \alpha_k K(x, x_k) + b`. This is kernel ridge regression with
an unpenalised intercept; ``fit_intercept=False`` drops b and solves
:math:`(\Omega + I/\gamma)\alpha = y` [S 3.62], the regularization network [S 3.50] and
the Gaussian-process mean [S 3.63].

Several outputs (columns of Y) share one factorisation of :math:`\Omega + I/\gamma`.
``predict(X, return_std=True)`` adds the Gaussian-process error bars of
:mod:`lssvm.gp`, [S 3.60].
"""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.utils.validation import validate_data

from ._base import ACCEPT_SPARSE, LSSVMBase
from ._docs import shared_parameters
from ._validation import (
    check_finite_output,
    check_numeric_targets,
    positive_weight_rows,
    validate_params,
)
from .gp import predictive_variance
from .kernels import Precomputed
from .linalg.factor import CholeskyFactor
from .linalg.memory import check_dense_memory

__all__ = ["LSSVMRegressor"]


@shared_parameters(LSSVMBase)
class LSSVMRegressor(RegressorMixin, LSSVMBase):
    """LS-SVM regression: dual system [S 3.32], model [S 3.34]; GP error bars [S 3.60].

    Parameters
    ----------
    {shared: gamma kernel sigma2 degree tau solver tol}
    fit_intercept : bool, default=True
        False fits the model without bias by (Omega + I/gamma) alpha = y [S 3.62]: the
        regularization network [S 3.50] and the Gaussian-process mean [S 3.63].
    {shared: n_jobs}

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,) or (n_samples, n_outputs)
        Support values of [S 3.32]; the model is sum_k alpha_k K(x, x_k) + b [S 3.34].
        One column per column of a 2-D target Y (a 1-D y gives 1-D attributes).
    b_ : float or ndarray of shape (n_outputs,)
        Bias term(s); 0 with ``fit_intercept=False``.
    e_ : ndarray, shape of ``alpha_``
        Errors e_k = alpha_k / gamma_k [S 3.31]: y_k = y(x_k) + e_k.
    sample_gamma_ : float or ndarray of shape (n_samples,)
        The gamma_k of the fitted system, H = K + diag(1/gamma_k): ``gamma``, or
        gamma w_k of each row kept with ``sample_weight`` (the rows of
        ``support_vectors_``). ``predict(X, return_std=True)`` factors this H.
    dual_coef_ : ndarray, shape of ``alpha_``
        The coefficients of K(x, x_k) in the model; for regression equal to ``alpha_``.
    support_vectors_ : ndarray of shape (n_samples, n_features)
    kernel_ : Kernel
    n_iter_ : int
        CG iterations (0 for the direct solver).
    signal_variance_ : float or ndarray of shape (n_outputs,)
        Amplitude s2 of the Gaussian-process link (units of y^2): cov(y) = s2 (K +
        I/gamma), its maximum-likelihood value for the fitted gamma, closed form:
        s2 = y^T alpha / N = y^T H^{-1} y / N without bias; with the bias (flat
        prior on b, the restricted likelihood) s2 = r^T H^{-1} r / (N - 1) =
        y^T alpha / (N - 1) for the GLS residual r = y - 1_v b, because alpha =
        H^{-1} r and 1_v^T alpha = 0 [S 3.31]. ``predict(X, return_std=True)``
        scales the unit-prior latent standard deviation [S 3.60] by sqrt(s2).
    noise_variance_ : float or ndarray of shape (n_outputs,)
        s2 / gamma, the variance of the noise e in units of y^2. The 95% interval
        for a new observation is ``mean +- 1.96 sqrt(std**2 + noise_variance_)``.
    n_features_in_ : int

    Notes
    -----
    No solver keeps an N x N matrix after the fit. ``predict(X, return_std=True)``
    factors K + diag(1/gamma_k) on its first call (8 N^2 bytes, checked against the
    available memory first) and keeps that factor, a
    :class:`lssvm.linalg.factor.CholeskyFactor` in the private cache
    ``_cholesky_`` (None until then; every fit empties it), for later calls,
    whatever the ``solver`` of the fit: after a CG fit the error bars equal the
    direct fit's. This is a choice: keeping the fit's own factor would save that
    second factorisation (N^3/3 flops) but hold 8 N^2 bytes in every fitted
    regressor, most of which are never asked for error bars; the factorisation
    itself is the package's one (:meth:`~lssvm.linalg.factor.CholeskyFactor.factorize`,
    as in the direct solver).
    Inputs of any float dtype are converted to float64; outputs are float64.

    scikit-learn's ``KernelRidge(alpha)`` is this estimator with
    ``fit_intercept=False`` at gamma = 1/alpha (same kernel, sample weights and
    precomputed or sparse input; scikit-learn's RBF ``gamma`` is 1/sigma2):
    ``tests/test_kernel_ridge_sklearn.py`` runs scikit-learn's own KernelRidge tests
    against it. One deliberate difference: alpha = 0 (gamma = infinity, the
    interpolation limit) has no LS-SVM counterpart; gamma must be a positive finite
    float, and a clear error replaces KernelRidge's least-squares fallback.

    Examples
    --------
    >>> from lssvm import LSSVMRegressor
    >>> from lssvm.datasets import sinc
    >>> X, y = sinc(100, noise=0.1, random_state=0)
    >>> reg = LSSVMRegressor(gamma=10.0, sigma2=1.0).fit(X, y)
    >>> bool(reg.score(X, y) > 0.8)
    True

    Error bars of the Gaussian-process view [S 3.60], in the units of y: the
    amplitude s2 of the prior is estimated by maximum likelihood at the fit, and
    the noise standard deviation sqrt(s2 / gamma) comes out near the 0.1 of the
    data. The latent standard deviation is small among the data and tends to the
    prior's sqrt(s2 K(x, x)) far from them, plus the uncertainty of b.

    >>> float(reg.noise_variance_ ** 0.5).__round__(2)
    0.09
    >>> mean, std = reg.predict([[0.0], [100.0]], return_std=True)
    >>> std.round(2).tolist()
    [0.05, 0.29]

    A 95% interval for a new observation: ``mean +- 1.96 sqrt(std**2 + noise_variance_)``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True  # Y of shape (n, m): one factorisation
        return tags

    def fit(self, X, y, sample_weight=None):
        """Solve the KKT system [S 3.32], or [S 3.62] without bias, for (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix (n_samples, n_samples) with kernel="precomputed".
            A Dask array (``solver="cg"`` or ``"auto"``): CG's kernel products run
            on the current ``dask.distributed`` client
            (:class:`lssvm.linalg.dask_operators.DaskKernelOperator`).
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
            Targets; the columns of a 2-D y share one factorisation of
            Omega + I/gamma (one right-hand side each).
        sample_weight : array-like of shape (n_samples,), optional
            Weighted LS-SVM: the error of sample k is weighted by gamma w_k (the
            cost gamma/2 sum_k w_k e_k^2), i.e. 1/(gamma w_k) on the diagonal of
            [S 3.32]. Integer weights give the model of repeated rows; rows of
            weight 0 are left out (exactly: an infinite diagonal entry).

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight=None, *, kkt_solver=None):
        """``fit``, its KKT solve replaced by ``kkt_solver`` when given
        (:func:`lssvm._base.fit_with_kkt_solver`)."""
        validate_params(self)  # the constraints table of LSSVMBase
        X, y = self._from_dask(X, y)  # a Dask X: CG products on the cluster
        X, y = validate_data(
            self, X, y, y_numeric=True, multi_output=True, dtype=np.float64,
            accept_sparse=ACCEPT_SPARSE,
        )  # fmt: skip
        y = check_numeric_targets(y, owner=self)
        # [S 3.32]: a = 1_v, d = y, Omega = K [S 3.33]; [S 3.62] without the border.
        self._fit_kkt(
            X, a=np.ones(X.shape[0]), d=y, sample_weight=sample_weight,
            kkt_solver=kkt_solver,
        )  # fmt: skip
        self.dual_coef_ = self.alpha_
        self._fit_amplitude(X, y, sample_weight)
        return self

    def _fit_amplitude(self, X, y, sample_weight):
        r"""Maximum-likelihood amplitude s2 of the GP link for the fitted gamma.

        cov(y) = s2 H with H = K + I/gamma: without bias the ML scale is
        s2 = y^T H^{-1} y / N = y^T alpha / N. With the bias (flat prior on b, as
        in the error bars) the restricted likelihood of the residual
        r = y - 1_v b_hat, b_hat = 1_v^T H^{-1} y / s, gives
        s2 = r^T H^{-1} r / (N - 1) = y^T alpha / (N - 1), since
        alpha = H^{-1} r [S 3.25] and 1_v^T alpha = 0 [S 3.31]. Weighted rows count
        w_k times (N = sum_k w_k), as repeated rows would.
        """
        keep, w = positive_weight_rows(sample_weight, X, owner=self)
        d = y if keep is None else y[keep]
        n_eff = float(d.shape[0] if w is None else w.sum())
        dof = n_eff - (1.0 if self.fit_intercept else 0.0)
        if dof <= 0.0:
            dof = max(n_eff, 1.0)
        quad = np.einsum("i...,i...->...", d, self.alpha_)  # y^T H^{-1} r per output
        self.signal_variance_ = np.maximum(quad, 0.0) / dof
        self.noise_variance_ = self.signal_variance_ / self.gamma

    def predict(self, X, return_std=False):
        """Model [S 3.34]: sum_k alpha_k K(x, x_k) + b; optionally the GP error bar.

        Parameters
        ----------
        X : array-like of shape (n_test, n_features)
        return_std : bool, default=False
            Also return the posterior standard deviation of the latent function
            f(x) in the Gaussian-process view, in the units of y: [S 3.60] with
            C_N = Omega + I/gamma (:func:`lssvm.gp.predictive_variance`, the
            unit-prior variance) times the amplitude ``signal_variance_`` estimated
            by maximum likelihood at the fit (closed form for fixed gamma; see
            ``signal_variance_``). With the bias, b has a flat prior and its
            uncertainty is included. It does NOT include the noise: a new
            observation y(x) has standard deviation
            ``sqrt(std**2 + noise_variance_)``, and the 95% interval for it is
            ``mean +- 1.96 sqrt(std**2 + noise_variance_)``. The first call factors
            K + I/gamma (O(N^3) time, 8 N^2 bytes, whatever the ``solver``) and
            keeps the factor for later calls; fitting again drops it.

        Returns
        -------
        y_pred : ndarray of shape (n_test,) or (n_test, n_outputs)
        y_std : ndarray, shape of ``y_pred``
            Only with ``return_std=True``. The unit-prior variance depends on the
            inputs only; each output's amplitude scales it.
        """
        if not return_std:
            return self._latent(X)
        mean, var = self._mean_unit_var(X)
        scale = np.sqrt(self.signal_variance_)  # units of y, one per output
        return mean, np.sqrt(var).reshape((-1,) + (1,) * (mean.ndim - 1)) * scale

    def _mean_unit_var(self, X):
        """Mean [S 3.34] and latent variance for the unit prior K, [S 3.60]."""
        X = self._check_input(X)
        if isinstance(self.kernel_, Precomputed):
            raise ValueError(
                f"{type(self).__name__}: return_std=True needs the training Gram "
                "matrix and K(x, x) of the test points, which kernel='precomputed' "
                "does not give; use a kernel name, a Kernel or a callable."
            )
        if self._cholesky_ is None:  # the cache that fit empties
            check_dense_memory(
                self.support_vectors_.shape[0], what="predict(return_std=True)",
                alternative="use predict(X) without return_std", owner=self,
            )  # fmt: skip
            K = self.kernel_.gram_lower(self.support_vectors_)
            self._cholesky_ = CholeskyFactor.factorize(  # K + diag(1/gamma_k)
                K, self.sample_gamma_, overwrite=True
            )
        coef = self.dual_coef_
        mean = np.empty((X.shape[0],) + coef.shape[1:])
        var = np.empty(X.shape[0])
        for rows, Kx in self._kernel_blocks(X):
            mean[rows] = Kx @ coef  # [S 3.34]
            var[rows] = predictive_variance(
                Kx, self.kernel_.diag(X[rows]), self._cholesky_,
                fit_intercept=bool(self.fit_intercept),
            )  # fmt: skip
        mean = check_finite_output(mean + self.b_, self.kernel_, owner=self)
        return mean, var
