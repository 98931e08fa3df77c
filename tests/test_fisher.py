"""Fisher discriminant analysis and its link with the LS-SVM, Suykens et al. 3.3.

Linear FDA (3.15)-(3.20), the kernel Fisher discriminant, and the properties derived
in book/fisher.md: for any two-valued targets t_+ > t_- the LS-SVM direction is
w ∝ (S_W + I/gamma)^{-1} (mu_1 - mu_2) with S_W the pooled (unnormalised)
within-class scatter, b = mean(t) - w^T mean(phi), so LS-SVM and LS-SVM_F (3.23)
differ only in the cut, and the kernel Fisher discriminant with the penalty
mu ||w||^2, mu = 1/gamma, gives the same direction.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier
from lssvm import multiclass as mc
from lssvm.relatives.fisher import (
    FisherDiscriminant,
    class_statistics,
    fisher_direction,
    kernel_fisher_discriminant,
    rayleigh_quotient,
)
from lssvm.kernels import RBF

# Mixing matrices of the two classes: different, tilted covariances, so that the
# book's Sigma_W = S_1 + S_2 and the pooled (N_1 - 1) S_1 + (N_2 - 1) S_2 point
# their inverses' images of d in different directions when N_1 != N_2.
MIX_1 = np.array([[1.5, 0.0], [0.8, 0.6]])
MIX_2 = np.array([[0.5, 0.0], [-0.4, 1.2]])

GAMMAS = np.logspace(-3, 4, 15)


def two_classes(n1, n2, seed=7):
    """Class 1 (label +1, n1 points) and class 2 (label -1, n2 points) in 2-D."""
    rng = np.random.default_rng(seed)
    X = np.r_[
        rng.standard_normal((n1, 2)) @ MIX_1.T + [1.0, 0.5],
        rng.standard_normal((n2, 2)) @ MIX_2.T,
    ]
    return X, np.r_[np.ones(n1), -np.ones(n2)]


def unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


def angle_deg(u, v):
    """Angle between the lines of u and v in degrees, accurate near 0 (no arccos)."""
    u, v = unit(u), unit(v)
    if u @ v < 0:
        v = -v
    return float(np.degrees(2 * np.arcsin(min(1.0, np.linalg.norm(u - v) / 2))))


def pooled_scatter(X, y):
    """Pooled S_W = (N_1 - 1) S_1 + (N_2 - 1) S_2 and d = mu_1 - mu_2."""
    means, covs, counts = class_statistics(X, y)
    S_W = (counts[0] - 1) * covs[0] + (counts[1] - 1) * covs[1]
    return S_W, means[0] - means[1]


def linear_lssvm_w(X, y, gamma, targets="pm1"):
    clf = LSSVMClassifier(kernel="linear", gamma=gamma, targets=targets).fit(X, y)
    return X.T @ clf.dual_coef_


def assert_proportional(p, q, rtol, *, positive=True):
    """p = c q for one scalar c (> 0 if ``positive``), to rtol relative to |p|."""
    p, q = np.ravel(p), np.ravel(q)
    c = (p @ q) / (q @ q)
    if positive:
        assert c > 0, c
    resid = np.linalg.norm(p - c * q) / np.linalg.norm(p)
    assert resid < rtol, resid
    return c


# -- 1. Statistics, Rayleigh quotient and the Fisher direction (3.15)-(3.20) -----------


@pytest.fixture
def fda_data():
    """Unbalanced 3-D problem with labels 2 (class 2) and 5 (class 1)."""
    rng = np.random.default_rng(11)
    A = np.array([[1.0, 0.7, 0.0], [0.0, 0.5, 0.3], [0.2, 0.0, 1.3]])
    X = np.r_[
        rng.standard_normal((35, 3)) @ A.T + [1.0, -0.5, 0.3],
        rng.standard_normal((25, 3)) @ A.T * 0.8,
    ]
    y = np.r_[np.full(35, 5), np.full(25, 2)]
    perm = rng.permutation(60)
    return X[perm], y[perm]


def test_class_statistics_are_numpy_means_and_covariances(fda_data):
    X, y = fda_data
    means, covs, counts = class_statistics(X, y)
    assert means.shape == (2, 3) and covs.shape == (2, 3, 3)
    np.testing.assert_array_equal(counts, [35, 25])  # class 1 = larger label, 5
    for j, label in enumerate((5, 2)):
        Xj = X[y == label]
        np.testing.assert_allclose(means[j], Xj.mean(axis=0), rtol=1e-13, atol=1e-15)
        # (3.20): normalised by N_j - 1
        centred = Xj - Xj.mean(axis=0)
        np.testing.assert_allclose(
            covs[j], centred.T @ centred / (len(Xj) - 1), rtol=1e-12, atol=1e-15
        )
        np.testing.assert_allclose(
            covs[j], np.cov(Xj, rowvar=False, ddof=1), rtol=1e-13, atol=1e-15
        )


def test_class_statistics_one_feature():
    X = np.array([[0.0], [1.0], [5.0], [7.0], [9.0]])
    y = np.array([0, 0, 1, 1, 1])
    means, covs, counts = class_statistics(X, y)
    np.testing.assert_allclose(means, [[7.0], [0.5]])
    np.testing.assert_allclose(covs, [[[4.0]], [[0.5]]])
    np.testing.assert_array_equal(counts, [3, 2])


def test_rayleigh_quotient_by_hand_and_invariances(fda_data):
    X, y = fda_data
    z = X @ np.array([0.3, -1.2, 0.8])
    z1, z2 = z[y == 5], z[y == 2]
    by_hand = (z1.mean() - z2.mean()) ** 2 / (
        np.sum((z1 - z1.mean()) ** 2) / (len(z1) - 1)
        + np.sum((z2 - z2.mean()) ** 2) / (len(z2) - 1)
    )
    J = rayleigh_quotient(z, y)
    assert isinstance(J, float)
    assert abs(J - by_hand) <= 1e-12 * by_hand
    # independent of b and of the scale (and sign) of w, (3.16)
    for scale, shift in ((3.7, 0.0), (1.0, -12.5), (-0.02, 4.0), (1e3, 1e2)):
        assert abs(rayleigh_quotient(scale * z + shift, y) - J) <= 1e-10 * J
    # label values do not matter, only which points share a class
    assert rayleigh_quotient(z, np.where(y == 5, "b", "a")) == J


def test_fisher_direction_is_normalised_solve(fda_data):
    X, y = fda_data
    means, covs, _ = class_statistics(X, y)
    expected = unit(np.linalg.solve(covs[0] + covs[1], means[0] - means[1]))
    w = fisher_direction(X, y)
    assert abs(np.linalg.norm(w) - 1) < 1e-14
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)  # same sign too
    # regularised: (Sigma_W + reg I)^{-1} d
    reg = 0.7
    expected = unit(
        np.linalg.solve(covs[0] + covs[1] + reg * np.eye(3), means[0] - means[1])
    )
    np.testing.assert_allclose(
        fisher_direction(X, y, reg=reg), expected, rtol=1e-10, atol=1e-12
    )
    assert angle_deg(fisher_direction(X, y, reg=reg), w) > 0.1  # reg does something


def test_fisher_direction_maximises_the_rayleigh_quotient(fda_data):
    X, y = fda_data
    w = fisher_direction(X, y)
    J_fd = rayleigh_quotient(X @ w, y)
    # the maximum of (w^T d)^2 / w^T Sigma_W w is d^T Sigma_W^{-1} d
    means, covs, _ = class_statistics(X, y)
    d = means[0] - means[1]
    assert abs(J_fd - d @ np.linalg.solve(covs[0] + covs[1], d)) < 1e-10 * J_fd
    rng = np.random.default_rng(5)
    directions = rng.standard_normal((200, 3))
    J_random = np.array([rayleigh_quotient(X @ v, y) for v in directions])
    assert np.all(J_random <= J_fd * (1 + 1e-12))
    # and directions close to w_FD come close to it, far ones do not
    assert J_random.max() > 0.5 * J_fd
    near = [rayleigh_quotient(X @ (w + 1e-3 * v), y) for v in directions[:20]]
    assert np.all(np.array(near) <= J_fd) and min(near) > J_fd * (1 - 1e-4)


@pytest.mark.parametrize("n_classes", [1, 3])
def test_not_two_classes_raise(n_classes):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 2))
    y = np.arange(30) % n_classes
    K = RBF(1.0)(X)
    match = "exactly 2 classes"
    with pytest.raises(ValueError, match=match):
        class_statistics(X, y)
    with pytest.raises(ValueError, match=match):
        rayleigh_quotient(X[:, 0], y)
    with pytest.raises(ValueError, match=match):
        fisher_direction(X, y)
    with pytest.raises(ValueError, match=match):
        kernel_fisher_discriminant(K, y)
    with pytest.raises(ValueError, match=match):
        FisherDiscriminant().fit(X, y)


# -- 2. FisherDiscriminant -------------------------------------------------------------


def test_fisher_discriminant_midpoint_rule_and_classes(fda_data):
    X, y = fda_data
    fda = FisherDiscriminant().fit(X, y)
    np.testing.assert_array_equal(fda.classes_, [2, 5])
    np.testing.assert_allclose(fda.coef_, fisher_direction(X, y), rtol=1e-14)
    means, covs, _ = class_statistics(X, y)
    np.testing.assert_allclose(fda.means_, means, rtol=1e-14)
    np.testing.assert_allclose(fda.covariances_, covs, rtol=1e-14)
    midpoint = (means[0] + means[1]) / 2
    scale = np.abs(X @ fda.coef_).max()
    assert abs(fda.decision_function(midpoint[None])[0]) < 1e-13 * scale
    # class 1 (the larger label) on the positive side
    f_means = fda.decision_function(means)
    assert f_means[0] > 0 > f_means[1]
    assert abs(f_means[0] + f_means[1]) < 1e-13 * scale  # symmetric about the cut
    pred = fda.predict(X)
    np.testing.assert_array_equal(pred, np.where(fda.decision_function(X) > 0, 5, 2))
    assert fda.score(X, y) > 0.8


def test_fisher_discriminant_string_labels(fda_data):
    X, y = fda_data
    names = np.where(y == 5, "yes", "no")
    fda = FisherDiscriminant().fit(X, names)
    np.testing.assert_array_equal(fda.classes_, ["no", "yes"])
    # "yes" > "no": class 1, the same line as the numeric fit with 5 > 2
    np.testing.assert_allclose(
        fda.coef_, FisherDiscriminant().fit(X, y).coef_, rtol=1e-14
    )
    pred = fda.predict(X)
    assert pred.dtype.kind == "U"
    np.testing.assert_array_equal(pred == "yes", fda.decision_function(X) > 0)
    # swapping which name is larger flips the line
    flipped = FisherDiscriminant().fit(X, np.where(y == 5, "a", "b"))
    np.testing.assert_allclose(flipped.coef_, -fda.coef_, rtol=1e-12)


def test_fisher_discriminant_reg_with_more_features_than_samples():
    rng = np.random.default_rng(2)
    n, p = 20, 50
    X = rng.standard_normal((n, p))
    y = np.repeat([0, 1], n // 2)
    X[y == 1, :3] += 1.5
    reg = 0.5
    fda = FisherDiscriminant(reg=reg).fit(X, y)
    means, covs, _ = class_statistics(X, y)
    assert np.linalg.matrix_rank(covs[0] + covs[1]) < p  # Sigma_W singular
    expected = unit(
        np.linalg.solve(covs[0] + covs[1] + reg * np.eye(p), means[0] - means[1])
    )
    np.testing.assert_allclose(fda.coef_, expected, rtol=1e-9, atol=1e-12)
    assert np.all(np.isfinite(fda.decision_function(X)))
    assert fda.score(X, y) == 1.0  # separable: p > n


@pytest.mark.parametrize("reg", [-1e-3, -1.0, np.nan, np.inf])
def test_fisher_discriminant_bad_reg_raises(fda_data, reg):
    X, y = fda_data
    with pytest.raises(ValueError, match="reg must be a finite float >= 0"):
        FisherDiscriminant(reg=reg).fit(X, y)


def test_fisher_discriminant_is_binary_only():
    assert FisherDiscriminant().__sklearn_tags__().classifier_tags.multi_class is False


@parametrize_with_checks([FisherDiscriminant()])
def test_fisher_discriminant_sklearn_compatible(estimator, check):
    check(estimator)


def test_fisher_discriminant_unfitted_decision_function_raises():
    X = np.zeros((3, 2))
    with pytest.raises(NotFittedError):
        FisherDiscriminant().decision_function(X)


def test_fisher_discriminant_unfitted_predict_raises_not_fitted():
    X = np.zeros((3, 2))
    with pytest.raises(NotFittedError):
        FisherDiscriminant().predict(X)


# -- 3. Linear LS-SVM direction -> Fisher direction as gamma grows ---------------------


def test_lssvm_direction_converges_to_fisher_balanced():
    X, y = two_classes(60, 60)
    w_fd = fisher_direction(X, y)
    ws = [linear_lssvm_w(X, y, g) for g in GAMMAS]
    angles = np.array([angle_deg(w, w_fd) for w in ws])
    assert all(w @ w_fd > 0 for w in ws)  # class 1 on the positive side
    assert angles[0] > 5  # small gamma: nearly d itself, far from w_FD
    # monotone decrease, up to round-off once the angle is tiny
    assert np.all(np.diff(angles) <= 1e-9), angles
    assert angles[-1] < 1e-3
    # balanced: the pooled direction is the book's Sigma_W^{-1} d
    S_W, d = pooled_scatter(X, y)
    assert angle_deg(np.linalg.solve(S_W, d), w_fd) < 1e-10


def test_lssvm_direction_converges_to_pooled_unbalanced():
    X, y = two_classes(150, 30)
    S_W, d = pooled_scatter(X, y)
    pooled = np.linalg.solve(S_W, d)
    w_fd = fisher_direction(X, y)
    limit = angle_deg(pooled, w_fd)
    assert limit > 1  # the two Fisher directions really differ here
    w_end = linear_lssvm_w(X, y, GAMMAS[-1])
    assert angle_deg(w_end, pooled) < 1e-3
    assert abs(angle_deg(w_end, w_fd) - limit) < 1e-3  # not the book's (3.17)


@pytest.mark.parametrize("n1, n2", [(60, 60), (150, 30)])
@pytest.mark.parametrize("targets", ["pm1", "fisher"])
def test_lssvm_direction_exact_finite_gamma(n1, n2, targets):
    # w ∝ (S_W + I/gamma)^{-1} d for every gamma and both target choices
    X, y = two_classes(n1, n2)
    S_W, d = pooled_scatter(X, y)
    for g in GAMMAS:
        w = linear_lssvm_w(X, y, g, targets=targets)
        expected = unit(np.linalg.solve(S_W + np.eye(2) / g, d))
        assert unit(w) @ expected > 0
        assert np.linalg.norm(unit(w) - expected) < 1e-9, g


# -- 4. The LS-SVM never beats the Fisher optimum --------------------------------------


@pytest.mark.parametrize("n1, n2", [(60, 60), (150, 30)])
def test_lssvm_rayleigh_quotient_below_fisher_optimum(n1, n2):
    X, y = two_classes(n1, n2)
    J_max = rayleigh_quotient(X @ fisher_direction(X, y), y)
    J = np.array(
        [
            rayleigh_quotient(X @ linear_lssvm_w(X, y, g), y)
            for g in np.logspace(-4, 4, 20)
        ]
    )
    assert np.all(J <= J_max * (1 + 1e-9)), (J, J_max)
    if n1 != n2:  # the pooled limit scores strictly below the optimum
        assert J[-1] < J_max * (1 - 1e-3)


# -- 5. LS-SVM (and LS-SVM_F) = kernel Fisher discriminant with penalty "norm" ---------


GAMMA_K, SIGMA2_K = 5.0, 0.5


@pytest.fixture
def kernel_problem():
    """Balanced nonlinear 2-D problem (40 + 40) and 60 test points."""
    rng = np.random.default_rng(4)
    X = rng.uniform(-1.5, 1.5, (400, 2))
    score = X[:, 1] - 0.8 * np.sin(2 * X[:, 0]) + 0.3 * rng.standard_normal(400)
    idx = np.r_[np.flatnonzero(score > 0)[:40], np.flatnonzero(score <= 0)[:40]]
    X_train, y = X[idx], np.where(score[idx] > 0, 1.0, -1.0)
    return X_train, y, rng.uniform(-1.5, 1.5, (60, 2))


def kfd_by_eig(K, y, mu, penalty):
    """Top eigenvector of M a = lambda (N + mu P) a, from scipy's solvers."""
    one, two = y == y.max(), y == y.min()
    m_diff = K[:, one].mean(axis=1) - K[:, two].mean(axis=1)
    Kc = K - np.where(
        one, K[:, one].mean(axis=1)[:, None], K[:, two].mean(axis=1)[:, None]
    )
    N_within = Kc @ Kc.T
    M = np.outer(m_diff, m_diff)
    if penalty == "norm":
        vals, vecs = scipy.linalg.eig(M, N_within + mu * K)  # QZ
        vals = np.where(np.isfinite(vals), vals.real, -np.inf)
        return vecs[:, np.argmax(vals)].real
    vals, vecs = scipy.linalg.eigh(M, N_within + mu * np.eye(len(K)))
    return vecs[:, -1]


@pytest.mark.parametrize("targets", ["pm1", "fisher"])
def test_lssvm_is_kernel_fisher_discriminant(kernel_problem, targets):
    X, y, X_test = kernel_problem
    kernel = RBF(SIGMA2_K)
    K, K_test = kernel(X), kernel(X_test, X)
    clf = LSSVMClassifier(gamma=GAMMA_K, sigma2=SIGMA2_K, targets=targets).fit(X, y)
    a, b = kernel_fisher_discriminant(K, y, mu=1 / GAMMA_K, penalty="norm")
    # same direction in feature space: projections proportional, positive factor
    c = assert_proportional(K @ clf.dual_coef_, K @ a, 1e-8)
    assert_proportional(K_test @ clf.dual_coef_, K_test @ a, 1e-8)
    np.testing.assert_allclose(
        clf.dual_coef_, c * a, rtol=1e-6, atol=1e-8 * np.abs(c * a).max()
    )
    # balanced: both cut at the midpoint of the projected class means
    f_kfd = K_test @ a + b
    np.testing.assert_allclose(
        clf.decision_function(X_test),
        c * f_kfd,
        rtol=0,
        atol=1e-8 * np.abs(c * f_kfd).max(),
    )
    np.testing.assert_array_equal(clf.predict(X_test), np.where(f_kfd > 0, 1.0, -1.0))
    assert 0.2 < np.mean(f_kfd > 0) < 0.8  # both decisions occur on the test set


def test_kernel_fisher_discriminant_scaling_and_midpoint(kernel_problem):
    X, y, _ = kernel_problem
    K = RBF(SIGMA2_K)(X)
    one, two = y == 1, y == -1
    for penalty in ("identity", "norm"):
        a, b = kernel_fisher_discriminant(K, y, mu=0.2, penalty=penalty)
        z = K @ a
        assert abs(z[one].mean() - z[two].mean() - 1) < 1e-10  # class 1 above, gap 1
        assert abs(z[one].mean() + b + z[two].mean() + b) < 1e-10  # midpoint at 0


@pytest.mark.parametrize("penalty", ["norm", "identity"])
def test_kernel_fisher_discriminant_is_the_generalised_eigenvector(
    kernel_problem, penalty
):
    X, y, X_test = kernel_problem
    kernel = RBF(SIGMA2_K)
    K, K_test = kernel(X), kernel(X_test, X)
    mu = 1 / GAMMA_K if penalty == "norm" else 0.05
    a, _ = kernel_fisher_discriminant(K, y, mu=mu, penalty=penalty)
    a_eig = kfd_by_eig(K, y, mu, penalty)
    # an eigenvector's sign is arbitrary: compare up to scale
    assert_proportional(K @ a_eig, K @ a, 1e-8, positive=False)
    assert_proportional(K_test @ a_eig, K_test @ a, 1e-8, positive=False)
    if penalty == "identity":  # well conditioned: the coefficients themselves
        assert_proportional(a_eig, a, 1e-8, positive=False)


def test_penalties_give_different_directions(kernel_problem):
    X, y, _ = kernel_problem
    K = RBF(SIGMA2_K)(X)
    a_norm, _ = kernel_fisher_discriminant(K, y, mu=0.2, penalty="norm")
    a_id, _ = kernel_fisher_discriminant(K, y, mu=0.2, penalty="identity")
    p, q = K @ a_norm, K @ a_id
    c = (p @ q) / (q @ q)
    assert np.linalg.norm(p - c * q) > 1e-3 * np.linalg.norm(p)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(mu=0.0), "mu must be a positive float"),
        (dict(mu=-1.0), "mu must be a positive float"),
        (dict(mu=np.nan), "mu must be a positive float"),
        (dict(penalty="ridge"), "penalty must be 'identity' or 'norm'"),
    ],
)
def test_kernel_fisher_discriminant_bad_arguments(kernel_problem, kwargs, match):
    X, y, _ = kernel_problem
    with pytest.raises(ValueError, match=match):
        kernel_fisher_discriminant(RBF(1.0)(X), y, **kwargs)


# -- 6. LS-SVM and LS-SVM_F differ only in the cut -------------------------------------


def test_lssvm_and_lssvm_f_differ_only_in_the_cut():
    X, y = two_classes(50, 20, seed=3)
    n1, n2 = 50, 20
    n = n1 + n2
    X_test = np.random.default_rng(8).standard_normal((40, 2)) * 1.5
    params = dict(gamma=2.0, sigma2=2.0)
    pm1 = LSSVMClassifier(**params).fit(X, y)
    fis = LSSVMClassifier(targets="fisher", **params).fit(X, y)
    K = RBF(2.0)(X)
    # b = mean(t) - w^T mean(phi): mean(t) = (N1 - N2)/N for +-1, 0 for Fisher
    t_bar = {"pm1": (n1 - n2) / n, "fisher": 0.0}
    for model, key in ((pm1, "pm1"), (fis, "fisher")):
        assert abs(model.b_ - (t_bar[key] - np.mean(K @ model.dual_coef_))) < 1e-10
    assert abs(np.mean(fis.decision_function(X))) < 1e-10  # cut at the mean projection
    # w^T (phi(x) - mean phi): proportional between the two models, positive factor
    for Z in (X, X_test):
        centred_pm1 = pm1.decision_function(Z) - t_bar["pm1"]
        centred_fis = fis.decision_function(Z) - t_bar["fisher"]
        c = assert_proportional(centred_fis, centred_pm1, 1e-8)
        assert abs(c - (n / n1 + n / n2) / 2) < 1e-8 * c
    # ... but the cuts differ: uncentred outputs are not proportional
    f_pm1, f_fis = pm1.decision_function(X_test), fis.decision_function(X_test)
    c = (f_fis @ f_pm1) / (f_pm1 @ f_pm1)
    assert np.linalg.norm(f_fis - c * f_pm1) > 1e-2 * np.linalg.norm(f_fis)


# -- 7. Fisher targets (3.23) ----------------------------------------------------------


def test_bit_targets_fisher_binary():
    y = np.r_[np.ones(13), -np.ones(7)]
    T = mc.bit_targets(y[:, None], "fisher")
    assert T.shape == (20, 1)
    np.testing.assert_allclose(T[y > 0, 0], 20 / 13, rtol=1e-15)
    np.testing.assert_allclose(T[y < 0, 0], -20 / 7, rtol=1e-15)
    assert abs(T.sum()) < 1e-12
    np.testing.assert_array_equal(mc.bit_targets(y[:, None], "pm1"), y[:, None])


@pytest.mark.parametrize("targets", ["fda", "Fisher", ""])
def test_invalid_targets_raise(targets):
    X, y = two_classes(10, 10)
    with pytest.raises(ValueError, match="targets must be 'pm1' or 'fisher'"):
        LSSVMClassifier(targets=targets).fit(X, y)
    with pytest.raises(ValueError, match="targets must be 'pm1' or 'fisher'"):
        mc.bit_targets(y[:, None], targets)


def test_fisher_input_errors_are_clear():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((10, 3))
    y = np.r_[np.ones(9), -np.ones(1)]
    with pytest.raises(ValueError, match="at least 2 points"):
        FisherDiscriminant().fit(X, y)
    y = np.repeat([1, -1], 5)
    X_same = np.r_[X[:5], X[:5]]
    with pytest.raises(ValueError, match="means are equal"):
        fisher_direction(X_same, y)
    X_wide = rng.standard_normal((10, 30))
    with pytest.raises(ValueError, match="set reg > 0"):
        fisher_direction(X_wide, y)
    with pytest.raises(ValueError, match="reg must be"):
        FisherDiscriminant(reg="big").fit(X, y)
    with pytest.raises(ValueError, match="reg must be"):
        fisher_direction(X, y, reg=-1.0)
    with pytest.raises(ValueError, match="same length"):
        rayleigh_quotient(np.zeros(9), y)
