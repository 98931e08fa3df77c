"""The KKT solve of a fit (lssvm._base): one rule for the model without bias.

``LSSVMBase._solve_kkt`` drops the border a when ``fit_intercept=False`` ([S 3.62])
before it calls either :func:`lssvm._base.solve_kkt_default` or the solver handed to
the fit by :func:`lssvm._base.fit_with_kkt_solver`; neither solver reads
``fit_intercept``, and whether X came as a Dask array is an argument of the default
solver, not estimator state read by it.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm._base import fit_with_kkt_solver, solve_kkt_default


def _data(kind):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((45, 2))
    if kind == "regressor":
        return LSSVMRegressor, X, np.sin(X[:, 0]) + 0.1 * rng.standard_normal(45)
    if kind == "multiclass":
        return LSSVMClassifier, X, np.repeat([0, 1, 2], 15)
    return LSSVMClassifier, X, np.where(X[:, 0] > 0, 1, -1)


@pytest.mark.parametrize("kind", ["binary", "multiclass", "regressor"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_custom_solver_gets_the_border_only_with_the_bias(
    kind, fit_intercept, weighted
):
    cls, X, y = _data(kind)
    fit_params = {}
    if weighted:
        w = np.linspace(0.0, 2.0, len(y))  # the first row has weight 0: dropped
        fit_params["sample_weight"] = w
    borders = []

    def solve(kernel, X_sub, gamma, a, d, signs=None):
        borders.append(a)
        return solve_kkt_default(est, kernel, X_sub, gamma, a, d, signs=signs)

    est = cls(gamma=5.0, sigma2=2.0, fit_intercept=fit_intercept)
    fit_with_kkt_solver(est, solve, X, y, **fit_params)
    assert borders
    if fit_intercept:
        assert all(a is not None and np.all(a == 1.0) for a in borders)
    else:
        assert all(a is None for a in borders)  # [S 3.62]: no border
        assert np.all(est.b_ == 0.0)
    plain = cls(gamma=5.0, sigma2=2.0, fit_intercept=fit_intercept).fit(
        X, y, **fit_params
    )
    np.testing.assert_array_equal(est.alpha_, plain.alpha_)  # the same solves
    np.testing.assert_array_equal(est.b_, plain.b_)


def test_the_default_solver_reads_neither_the_bias_flag_nor_dask_state():
    """a=None is what drops the border; the estimator's flag no longer does."""
    _, X, y = _data("regressor")
    est = LSSVMRegressor(gamma=5.0, sigma2=2.0, fit_intercept=True)
    kernel = est.fit(X, y).kernel_
    ones = np.ones(len(y))
    with_border = solve_kkt_default(est, kernel, X, 5.0, ones, y)
    without = solve_kkt_default(est, kernel, X, 5.0, None, y)
    assert with_border.b != 0.0 and without.b == 0.0
    on_dask = inspect.signature(solve_kkt_default).parameters["on_dask"]
    assert on_dask.kind is inspect.Parameter.KEYWORD_ONLY and on_dask.default is False
