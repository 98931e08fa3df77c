"""The one Cholesky factor object of H = K + diag(1/gamma_k) (lssvm.linalg.factor)."""

import numpy as np
import pytest

from lssvm.kernels import RBF
from lssvm.linalg.factor import CholeskyFactor, loo_from_diagonal
from lssvm.linalg.solvers import solve_bordered_kkt


def _problem(n=40, seed=0, weighted=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(n)
    gamma = 5.0 * (rng.uniform(0.5, 2.0, n) if weighted else 1.0)
    return X, y, RBF(1.5)(X), gamma


def _h(K, gamma, idx):
    inv = 1.0 / np.broadcast_to(np.asarray(gamma, float), (len(K),))
    return K[np.ix_(idx, idx)] + np.diag(inv[idx])


@pytest.mark.parametrize("weighted", [False, True])
def test_solve_matches_numpy_with_several_right_hand_sides(weighted):
    _, _, K, gamma = _problem(weighted=weighted)
    F = CholeskyFactor.from_kernel(K, gamma)
    B = np.random.default_rng(1).standard_normal((len(K), 3))
    H = _h(K, gamma, np.arange(len(K)))
    expected = np.linalg.solve(H, B)
    np.testing.assert_allclose(F.solve(B), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(F.solve(B[:, 0]), expected[:, 0], rtol=1e-10)


@pytest.mark.parametrize("intercept", [True, False])
def test_bordered_solve_matches_the_direct_solver(intercept):
    _, y, K, gamma = _problem(weighted=True)
    F = CholeskyFactor.from_kernel(K, gamma)
    a = np.ones(len(y)) if intercept else None
    mine = solve_bordered_kkt(None, None, a, y, factor=F)
    ref = solve_bordered_kkt(K, gamma, a, y)
    np.testing.assert_allclose(mine.alpha, ref.alpha, rtol=1e-10, atol=1e-12)
    assert mine.b == pytest.approx(ref.b, abs=1e-12)
    # the direct solver's own factor is one of these: same points, same gamma
    assert isinstance(ref.factor, CholeskyFactor)
    np.testing.assert_array_equal(ref.factor.order, np.arange(len(y)))
    np.testing.assert_allclose(np.tril(ref.factor.L), F.L, rtol=1e-12, atol=1e-14)
    # rows given in another order than the factor's: permuted in and out
    perm = np.random.default_rng(2).permutation(len(y))
    G = CholeskyFactor.from_kernel(K, gamma, order=perm)
    pos = G.positions(np.arange(len(y)))
    np.testing.assert_array_equal(np.arange(len(y))[pos], G.order)
    assert G.positions(perm) is None  # already in factor order
    sol = solve_bordered_kkt(
        None, None, None if a is None else a[pos], y[pos], factor=G
    )
    other = np.empty_like(sol.alpha)
    other[pos] = sol.alpha
    np.testing.assert_allclose(other, ref.alpha, rtol=1e-9, atol=1e-12)


def test_inverse_and_its_diagonal_match_numpy():
    _, _, K, gamma = _problem(weighted=True)
    Hinv = np.linalg.inv(_h(K, gamma, np.arange(len(K))))
    F = CholeskyFactor.from_kernel(K, gamma)
    np.testing.assert_allclose(F.inverse_diagonal(), np.diag(Hinv), rtol=1e-10)
    upper = np.triu(F.inverse())
    np.testing.assert_allclose(upper, np.triu(Hinv), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_leave_one_out_equals_refitting_without_each_point(intercept, weighted):
    X, y, K, gamma = _problem(n=25, weighted=weighted)
    a = np.ones(len(y)) if intercept else None
    F = CholeskyFactor.from_kernel(K, gamma)
    fit = solve_bordered_kkt(None, None, a, y, factor=F)
    loo = F.loo_latent(y, fit.alpha, fit_intercept=intercept)
    g = np.broadcast_to(np.asarray(gamma, float), (len(y),))
    for k in range(len(y)):
        rest = np.delete(np.arange(len(y)), k)
        refit = solve_bordered_kkt(
            K[np.ix_(rest, rest)], g[rest], None if a is None else a[rest], y[rest]
        )
        f_k = K[k, rest] @ refit.alpha + refit.b  # the model without point k, at x_k
        assert loo[k] == pytest.approx(f_k, abs=1e-10)
    # the formula on diag(H^{-1}) gives the same numbers
    eta = F.solve(np.ones(len(y))) if intercept else None
    np.testing.assert_array_equal(
        loo, loo_from_diagonal(y, fit.alpha, F.inverse_diagonal(), eta)
    )


def test_downdates_match_a_fresh_factor_of_the_kept_points():
    _, _, K, gamma = _problem(n=60, weighted=True)
    rng = np.random.default_rng(3)
    F = CholeskyFactor.from_kernel(K, gamma)
    kept = np.arange(60)
    for step in range(5):
        kept = np.sort(rng.choice(kept, len(kept) - 7, replace=False))
        priority = rng.standard_normal(60)
        F.update(kept, priority, keep_prefix=step > 0)
        assert sorted(F.order.tolist()) == kept.tolist()
        fresh = np.linalg.cholesky(_h(K, gamma, F.order))
        np.testing.assert_allclose(np.tril(F.L), fresh, rtol=1e-9, atol=1e-12)
    # the order: the kept prefix first, the rest by decreasing priority
    head = F.order.copy()
    kept = np.setdiff1d(kept, head[3:4])  # remove the 4th point of the order
    F.update(kept, priority)
    np.testing.assert_array_equal(F.order[:3], head[:3])
    tail = F.order[3:]
    assert np.all(np.diff(priority[tail]) <= 0)


def test_update_may_add_points_as_rls_svm_does():
    _, _, K, gamma = _problem(n=30)
    F = CholeskyFactor.from_kernel(K, gamma, order=np.arange(20))
    members = np.r_[np.arange(2, 20), [25, 27]]  # two leave, two join
    F.update(members, priority=np.arange(30.0))
    assert F.order[:3].tolist() == [27, 25, 19]  # 0 left first: no prefix is kept
    np.testing.assert_allclose(
        np.tril(F.L), np.linalg.cholesky(_h(K, gamma, F.order)), rtol=1e-9, atol=1e-12
    )


def test_empty_factor_is_filled_by_the_first_reorder_and_errors_name_the_problem():
    _, _, K, gamma = _problem(n=10)
    F = CholeskyFactor.from_kernel(K, gamma, order=[])
    assert len(F) == 0
    F.reorder(np.arange(10)[::-1])
    np.testing.assert_allclose(
        np.tril(F.L), np.linalg.cholesky(_h(K, gamma, F.order)), rtol=1e-10
    )
    with pytest.raises(ValueError, match="index must list the points"):
        F.positions(np.arange(9))
    with pytest.raises(ValueError, match=r"CholeskyFactor: L must have shape \(2, 2\)"):
        CholeskyFactor(np.eye(3), [0, 1], 1.0)
    with pytest.raises(ValueError, match="CholeskyFactor.reorder: kernel_block must"):
        CholeskyFactor(np.eye(2), [0, 1], 1.0).reorder([1, 0])


# --- the one Cholesky factorisation, and what a solve hands on (eta, s) -----------

from lssvm.linalg import NotPositiveDefiniteError, NumericalWarning  # noqa: E402
from lssvm.linalg.factor import PD_ADVICE  # noqa: E402


@pytest.mark.parametrize("weighted", [False, True])
def test_factorize_and_from_kernel_give_the_same_factor(weighted):
    _, _, K, gamma = _problem(weighted=weighted)
    lower = np.tril(K) + np.triu(np.full_like(K, np.nan), 1)  # only the lower is read
    F = CholeskyFactor.factorize(lower, gamma)
    G = CholeskyFactor.from_kernel(K, gamma)
    np.testing.assert_allclose(np.tril(F.L), G.L, rtol=1e-12, atol=1e-14)
    assert F.order.tolist() == list(range(len(K))) and F.kernel_block is None
    assert np.isnan(lower[0, 1])  # overwrite=False leaves the input alone


@pytest.mark.parametrize(
    "make", [
        lambda K: CholeskyFactor.factorize(K, 1e6),
        lambda K: CholeskyFactor.from_kernel(K, 1e6),
        lambda K: solve_bordered_kkt(K, 1e6, np.ones(len(K)), np.ones(len(K))),
    ],
    ids=["factorize", "from_kernel", "solver"],
)  # fmt: skip
def test_every_way_to_factor_fails_with_the_same_error_and_advice(make):
    K = -np.eye(4)  # not positive semi-definite: K + I/gamma is not PD
    with pytest.raises(NotPositiveDefiniteError, match="leading minor 1 of 4") as err:
        make(K)
    assert PD_ADVICE in str(err.value)


@pytest.mark.parametrize("how", ["factorize", "from_kernel"])
def test_every_way_to_factor_warns_when_h_is_singular_to_working_precision(how):
    X = np.repeat(np.random.default_rng(0).standard_normal((5, 2)), 2, axis=0)
    K = RBF(1.0)(X)  # duplicated rows: rank 5 of 10
    make = getattr(CholeskyFactor, how)
    with pytest.warns(NumericalWarning, match="ill-conditioned"):
        make(K, 1e15)


@pytest.mark.parametrize("signs", [False, True])
def test_the_solution_carries_eta_and_s_of_the_elimination(signs):
    _, y, K, gamma = _problem(weighted=True)
    rng = np.random.default_rng(3)
    a = np.sign(rng.standard_normal(len(y))) if signs else np.ones(len(y))
    S = np.diag(a) if signs else np.eye(len(y))
    sol = solve_bordered_kkt(K, gamma, a, y, signs=a if signs else None)
    H = S @ _h(K, gamma, np.arange(len(K))) @ S  # Omega + I/gamma, Omega = S K S
    eta = np.linalg.solve(H, a)  # [S 3.25] step 1
    np.testing.assert_allclose(sol.eta, eta, rtol=1e-10)
    np.testing.assert_allclose(sol.s, a @ eta, rtol=1e-10)  # step 2
    assert solve_bordered_kkt(K, gamma, None, y).eta is None  # no border, no eta


def test_half_solve_gives_the_quadratic_forms_and_caches_the_ones():
    _, _, K, gamma = _problem()
    F = CholeskyFactor.from_kernel(K, gamma)
    B = np.random.default_rng(2).standard_normal((len(K), 3))
    V = F.half_solve(B)
    Hinv = np.linalg.inv(_h(K, gamma, np.arange(len(K))))
    np.testing.assert_allclose(V.T @ V, B.T @ Hinv @ B, rtol=1e-10)
    w, s = F.half_solve_ones()
    np.testing.assert_allclose(s, Hinv.sum(), rtol=1e-10)  # 1^T H^{-1} 1
    assert F.half_solve_ones()[0] is w  # kept while the factor is the same
    F.update(np.arange(10), priority=np.zeros(len(K)))  # the factor changes
    assert len(F.half_solve_ones()[0]) == 10


def test_error_bars_solve_for_the_ones_once_per_factor_not_per_block(monkeypatch):
    from lssvm import LSSVMRegressor
    from lssvm.linalg import factor as factor_module

    X, y, _, _ = _problem(n=60)
    reg = LSSVMRegressor(gamma=5.0, sigma2=1.5).fit(X, y)
    monkeypatch.setattr("lssvm._base._PREDICT_BLOCK_ENTRIES", 60 * 7)  # 7-row blocks
    calls = []
    real = factor_module.CholeskyFactor.half_solve

    def counting(self, B):
        calls.append(np.ndim(B))
        return real(self, B)

    monkeypatch.setattr(factor_module.CholeskyFactor, "half_solve", counting)
    reg.predict(X[:30], return_std=True)
    assert calls.count(1) == 1 and calls.count(2) == 5  # ones once; 5 blocks of rows


def test_factorize_copies_what_it_may_not_destroy():
    _, _, K, gamma = _problem()
    F_ordered = np.asfortranarray(K)  # in place would need a copy: it makes one
    F = CholeskyFactor.factorize(F_ordered, gamma, overwrite=True)
    L = np.tril(F.L)  # only the lower triangle is the factor
    np.testing.assert_allclose(L @ L.T, K + np.eye(len(K)) / gamma, atol=1e-12)
    np.testing.assert_array_equal(F_ordered, K)  # the caller's array is intact


def test_a_callable_kernel_returning_a_stored_matrix_survives_fit_and_error_bars():
    from lssvm import LSSVMRegressor

    X, y, K, _ = _problem()
    stored = K.copy()
    index = {tuple(x): i for i, x in enumerate(X)}

    def kernel(A, B):  # returns the stored matrix itself on the training inputs
        if A.shape == B.shape == X.shape and np.array_equal(A, X) and A is B:
            return stored
        return RBF(1.5)(A, B)

    assert len(index) == len(X)
    reg = LSSVMRegressor(kernel=kernel, gamma=5.0).fit(X, y)
    _, std = reg.predict(X[:5], return_std=True)
    np.testing.assert_array_equal(stored, K)  # fit and the error bars copied it
    assert np.all(np.isfinite(std))


def test_a_factor_destroyed_by_overwrite_refuses_further_use():
    _, y, K, gamma = _problem()
    F = CholeskyFactor.from_kernel(K, gamma)
    F.half_solve_ones()
    F.loo_latent(y, F.solve(y), fit_intercept=False, overwrite=True)
    with pytest.raises(ValueError, match="destroyed by an earlier call with overwrite"):
        F.solve(y)
    with pytest.raises(ValueError, match="destroyed"):
        F.half_solve_ones()  # the cache went with the factor
    F.update(np.arange(10), priority=np.zeros(len(K)), keep_prefix=False)  # fresh
    assert np.all(np.isfinite(F.solve(np.ones(10))))


def test_the_conditioning_warning_is_given_once_per_factor_at_the_callers_line():
    X = np.repeat(np.random.default_rng(0).standard_normal((6, 2)), 2, axis=0)
    K = RBF(1.0)(X)
    with pytest.warns(NumericalWarning) as caught:
        F = CholeskyFactor.from_kernel(K, 1e15)
        F.update(np.arange(10), priority=np.zeros(12))
        F.update(np.arange(8), priority=np.zeros(12))
    mine = [w for w in caught if issubclass(w.category, NumericalWarning)]
    assert len(mine) == 1 and mine[0].filename == __file__


def test_psvm_leaves_a_stored_kernel_matrix_of_a_callable_alone():
    from lssvm.relatives import PSVMClassifier

    X, y, K, _ = _problem()
    labels = np.where(y > np.median(y), 1, -1)
    stored = K.copy()

    def kernel(A, B):
        if A is B and np.array_equal(A, X):
            return stored  # the training Gram matrix, kept by the caller
        return RBF(1.5)(A, B)

    PSVMClassifier(kernel=kernel).fit(X, labels)
    np.testing.assert_array_equal(stored, K)  # PSVM adds 1 to its own copy


def test_the_memory_guard_counts_a_callable_kernels_copy(monkeypatch):
    from lssvm import LSSVMRegressor
    from lssvm.linalg import InsufficientMemoryError

    X, y, _, _ = _problem(n=100)
    # room for one and a half 100 x 100 matrices: enough for RBF, not for a callable
    room = int(8 * 100**2 * 1.5)
    monkeypatch.setattr("lssvm.linalg.memory.available_memory", lambda: room)
    LSSVMRegressor(solver="direct").fit(X, y)
    with pytest.raises(InsufficientMemoryError):
        LSSVMRegressor(kernel=lambda A, B: RBF(1.5)(A, B), solver="direct").fit(X, y)
