"""lssvm.bayes: levels 1-3 of [VanGestel01], (1)-(11), and the moderated output."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from lssvm import LSSVMClassifier, LSSVMRegressor, bayes
from lssvm.kernels import make_kernel

RTOL_RELATIONS = 1e-8  # level-2 optimality relations (root found to machine precision)
RTOL_DIRECT = 1e-9  # eigenbasis formulas against a Cholesky fit
RTOL_FD = 1e-4  # analytic gradients against finite differences (step 1e-6)


@pytest.fixture
def two_class(rng):
    X = rng.standard_normal((120, 3))
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 + 0.4 * rng.standard_normal(120)
    return X, np.where(score > 0, 1, -1)


def _centring(n):
    return np.eye(n) - 1.0 / n


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("sigma2", [0.5, 3.0, [1.0, 2.0, 10.0]])
def test_level2_relations_at_the_optimum(two_class, rng, task, sigma2):
    X, y = two_class
    if task == "regression":
        y = np.sin(X[:, 0]) + 0.2 * rng.standard_normal(len(y))
    N = len(y)
    res = bayes.level2(X, y, sigma2=sigma2, task=task)
    # [VanGestel01] after (6): 2 mu E_W = gamma_eff - 1, 2 zeta E_D = N - gamma_eff
    np.testing.assert_allclose(2 * res.mu * res.E_W, res.gamma_eff - 1, RTOL_RELATIONS)
    np.testing.assert_allclose(
        2 * res.zeta * res.E_D, N - res.gamma_eff, RTOL_RELATIONS
    )
    np.testing.assert_allclose(2 * res.mu * (res.E_W + res.gamma * res.E_D), N - 1)
    np.testing.assert_allclose(res.gamma, res.zeta / res.mu, rtol=1e-14)
    assert 1.0 < res.gamma_eff < N
    assert res.n_eff_params == res.gamma_eff


def test_gamma_minimises_the_level2_cost(two_class):
    X, y = two_class
    K = make_kernel("rbf", sigma2=2.0)(X)
    spectrum = bayes.centred_spectrum(K, y.astype(float))
    res = bayes.level2(X, y, sigma2=2.0)
    grid = res.gamma * np.exp(np.linspace(-3, 3, 61))
    J = bayes.level2_cost(spectrum, grid)
    assert bayes.level2_cost(spectrum, res.gamma) <= J.min() + 1e-12
    assert J[0] > J[30] + 1e-3 and J[-1] > J[30] + 1e-3  # a real interior minimum


def test_spectrum_is_that_of_the_centred_gram_matrix(two_class):
    X, y = two_class
    K = make_kernel("rbf", sigma2=2.0)(X)
    spectrum = bayes.centred_spectrum(K, y.astype(float))
    M = _centring(len(y))
    direct = np.linalg.eigvalsh(M @ K @ M)[1:]  # (8), dropping the eigenvalue of 1_v
    np.testing.assert_allclose(spectrum.eigvals, direct, rtol=0, atol=1e-10)
    np.testing.assert_allclose(spectrum.eigvecs.T @ np.ones(len(y)), 0, atol=1e-12)
    # (8) for the classifier: (I - Y Y^T / N) Omega has the same spectrum
    Omega = np.outer(y, y) * K
    lam = np.sort(np.linalg.eigvals((np.eye(len(y)) - np.outer(y, y) / len(y)) @ Omega))
    np.testing.assert_allclose(spectrum.eigvals, lam.real[1:], rtol=0, atol=1e-9)
    gamma_eff = bayes.effective_parameters(spectrum.eigvals, 3.0)
    np.testing.assert_allclose(gamma_eff, 1 + np.sum(3 * direct / (1 + 3 * direct)))


@pytest.mark.parametrize("gamma", [0.1, 1.7, 50.0])
def test_eigenbasis_energies_equal_an_ordinary_fit(two_class, gamma):
    X, y = two_class
    clf = LSSVMClassifier(gamma=gamma, sigma2=2.0).fit(X, y)  # level 1, (3)
    K = clf.kernel_(X)
    E_W_fit = 0.5 * clf.dual_coef_ @ K @ clf.dual_coef_  # w^T w / 2 = a^T K a / 2
    E_D_fit = 0.5 * np.sum(clf.e_**2)
    spectrum = bayes.centred_spectrum(K, y.astype(float))
    E_W, E_D = bayes.energies(spectrum, gamma)
    np.testing.assert_allclose([E_W, E_D], [E_W_fit, E_D_fit], rtol=RTOL_DIRECT)
    # (9) from the eigenvalues of M K M computed directly
    lam = np.linalg.eigvalsh(_centring(len(y)) @ K @ _centring(len(y)))[1:]
    J2 = np.sum(np.log(np.maximum(lam, 0) + 1 / gamma)) + (len(y) - 1) * np.log(
        E_W_fit + gamma * E_D_fit
    )
    np.testing.assert_allclose(bayes.level2_cost(spectrum, gamma), J2, rtol=1e-10)


def test_level2_model_is_the_level1_fit_at_gamma_mp(two_class):
    X, y = two_class
    res = bayes.level2(X, y, sigma2=2.0)
    ref = LSSVMClassifier(gamma=res.gamma, sigma2=2.0).fit(X, y)
    np.testing.assert_allclose(res.model.alpha_, ref.alpha_, rtol=1e-12)
    np.testing.assert_allclose(0.5 * np.sum(ref.e_**2), res.E_D, rtol=RTOL_DIRECT)


def test_evidence_is_the_gaussian_process_marginal_likelihood(two_class):
    """log P(D | mu, zeta) at the optimum = GP marginal with a flat prior on b."""
    X, y = two_class
    res = bayes.level2(X, y, sigma2=2.0)
    N, t = len(y), y.astype(float)
    C = make_kernel("rbf", sigma2=2.0)(X) / res.mu + np.eye(N) / res.zeta
    Ci = np.linalg.inv(C)
    ones = np.ones(N)
    s = ones @ Ci @ ones
    P = Ci - np.outer(Ci @ ones, Ci @ ones) / s
    log_marginal = (  # integral over b of N(t; b 1, C) db, [RW06] (2.45) with B^-1 = 0
        -0.5 * (N - 1) * np.log(2 * np.pi)
        - 0.5 * np.linalg.slogdet(C)[1]
        - 0.5 * np.log(s)
        - 0.5 * t @ P @ t
    )
    occam = (
        np.log(2) - 0.5 * np.log(res.gamma_eff - 1) - 0.5 * np.log(N - res.gamma_eff)
    )
    np.testing.assert_allclose(res.log_evidence, log_marginal + occam, rtol=1e-10)


def test_classification_is_regression_on_pm1_labels(two_class):
    X, y = two_class
    labels = np.where(y > 0, "b", "a")
    cls = bayes.level2(X, labels, sigma2=2.0)
    reg = bayes.level2(X, y.astype(float), sigma2=2.0, task="regression")
    for name in ["gamma", "mu", "zeta", "gamma_eff", "log_evidence"]:
        np.testing.assert_allclose(getattr(cls, name), getattr(reg, name), rtol=1e-12)
    assert isinstance(cls.model, LSSVMClassifier)
    assert isinstance(reg.model, LSSVMRegressor)


@pytest.mark.parametrize("sigma2", [[0.7, 2.0, 8.0], [3.0, 3.0, 3.0]])
def test_ard_gradient_against_finite_differences(two_class, sigma2):
    X, y = two_class
    log_s = np.log(sigma2)
    value, grad = bayes.log_evidence_gradient(X, y, sigma2=np.exp(log_s))

    def f(x):
        return bayes.log_evidence_gradient(X, y, sigma2=np.exp(x))[0]

    fd = approx_fprime(log_s, f, 1e-6)
    np.testing.assert_allclose(grad, fd, rtol=RTOL_FD, atol=1e-5)
    assert np.abs(grad).max() > 1e-2  # not trivially flat
    assert value == pytest.approx(bayes.level2(X, y, sigma2=sigma2).log_evidence)


def test_isotropic_and_regression_gradients_against_finite_differences(two_class, rng):
    X, y = two_class
    _, g = bayes.log_evidence_gradient(X, y, sigma2=1.5)
    fd = approx_fprime(
        np.log([1.5]),
        lambda x: bayes.log_evidence_gradient(X, y, sigma2=float(np.exp(x[0])))[0],
        1e-6,
    )
    np.testing.assert_allclose(g, fd[0], rtol=RTOL_FD)
    t = np.sin(2 * X[:, 0]) + 0.1 * rng.standard_normal(len(y))
    s = np.array([0.5, 1.0, 4.0])
    _, g = bayes.log_evidence_gradient(X, t, sigma2=s, task="regression")

    def f(x):
        return bayes.log_evidence_gradient(X, t, sigma2=np.exp(x), task="regression")[0]

    np.testing.assert_allclose(g, approx_fprime(np.log(s), f, 1e-6), rtol=RTOL_FD)


def test_level3_maximises_the_evidence(two_class):
    X, y = two_class
    iso = bayes.level3(X, y)
    for factor in [0.7, 1.4]:
        other = bayes.level2(X, y, sigma2=iso.sigma2 * factor, fit_model=False)
        assert other.log_evidence < iso.log_evidence
    _, g = bayes.log_evidence_gradient(X, y, sigma2=iso.sigma2)
    assert abs(g) < 1e-3
    ard = bayes.level3(X, y, sigma2=np.full(3, iso.sigma2), ard=True)
    assert ard.log_evidence >= iso.log_evidence
    assert ard.path.shape == (ard.n_iter + 1, 3)
    # input 2 does not enter the labels: by far the largest width (smallest weight)
    assert ard.sigma2[2] > 10 * max(ard.sigma2[0], ard.sigma2[1])


def test_paper_weights_give_the_paper_hyperparameters():
    """[VanGestel01] section 5, last stage: u = [1.9461, 0.1386] on x1, x2 of Ripley's
    data (standardised; no random input involved) gives mu = 1.56, zeta = 2.87 and
    89.6% / 91.0% training / test accuracy. N = 250, as in the paper."""
    from lssvm.datasets import load_ripley

    X, y = load_ripley("train")
    X_test, y_test = load_ripley("test")
    mean, scale = X.mean(axis=0), X.std(axis=0)
    u = np.array([1.9461, 0.1386])
    res = bayes.level2((X - mean) / scale, y, sigma2=1 / u)
    assert res.mu == pytest.approx(1.56, abs=0.01)
    assert res.zeta == pytest.approx(2.87, abs=0.01)
    assert res.model.score((X - mean) / scale, y) == pytest.approx(0.896, abs=0.005)
    assert res.model.score((X_test - mean) / scale, y_test) == pytest.approx(
        0.910, abs=0.005
    )


def test_class_probability(two_class):
    X, y = two_class
    res = bayes.level2(X, y, sigma2=2.0)
    p = bayes.class_probability(res, X, prior=0.5)
    latent = res.model.decision_function(X)
    assert np.all((p > 0) & (p < 1))
    np.testing.assert_array_equal(p > 0.5, latent > 0)  # equal priors: same decision
    # moderation: the posterior variance of z pulls probabilities towards 1/2
    unmoderated = 1 / (1 + np.exp(-2 * latent * res.zeta))
    assert np.all(np.abs(p - 0.5) <= np.abs(unmoderated - 0.5) + 1e-12)
    far = bayes.class_probability(res, 20 + X[:5], prior=0.5)  # far from the data
    assert np.all(np.abs(far - 0.5) < np.abs(p[:5] - 0.5).max())
    skewed = bayes.class_probability(res, X, prior=0.9)
    assert np.all(skewed >= p)



def test_class_probability_is_the_models_moderated_output(two_class):
    """The public LSSVMClassifier.moderated_output with the level-2 mu and zeta."""
    X, y = two_class
    res = bayes.level2(X, y, sigma2=2.0)
    assert res.model.probability_ == "bayes"
    expected = res.model.moderated_output(X, mu=res.mu, zeta=res.zeta, prior=0.4)
    np.testing.assert_array_equal(bayes.class_probability(res, X, prior=0.4), expected)
    # a level-1 model fitted by hand without the moderated output: refitted once as
    # a clone with probability="bayes"; the given model is left as it is
    plain = dataclasses.replace(
        res, model=bayes.level1(X, y, gamma=res.gamma, sigma2=2.0)
    )
    assert plain.model.probability_ is False
    np.testing.assert_allclose(
        bayes.class_probability(plain, X, prior=0.4), expected, rtol=1e-12
    )
    assert plain.model.probability_ is False and not hasattr(plain.model, "mu_")


def test_input_validation(two_class):
    X, y = two_class
    with pytest.raises(ValueError, match="sigma2 must be"):
        bayes.level2(X, y, sigma2=-1.0)
    with pytest.raises(ValueError, match="sigma2 has 2 entries"):
        bayes.level2(X, y, sigma2=[1.0, 2.0])
    with pytest.raises(ValueError, match="inconsistent|one entry per row"):
        bayes.level2(X, y[:-1], sigma2=1.0)
    with pytest.raises(ValueError, match="2-D"):
        bayes.level2(X[:, 0], y, sigma2=1.0)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        bayes.level2(X, np.arange(len(y)) % 3, sigma2=1.0)
    with pytest.raises(ValueError, match="task must be"):
        bayes.level2(X, y, sigma2=1.0, task="ranking")
    with pytest.raises(ValueError, match="sigma2 must be"):
        bayes.log_evidence_gradient(X, y, sigma2=[1.0, 0.0, 1.0])
    reg = bayes.level2(X, y.astype(float), sigma2=1.0, task="regression")
    with pytest.raises(ValueError, match="task='classification'"):
        bayes.class_probability(reg, X)
    cls = bayes.level2(X, y, sigma2=1.0)
    with pytest.raises(ValueError, match="prior must be"):
        bayes.class_probability(cls, X, prior=1.0)


# -- issue 25: validation like the estimators, feature names ---------------------------


@pytest.fixture
def regression_pair(rng):
    X = rng.standard_normal((40, 2))
    return X, np.sin(X[:, 0])


def test_nan_targets_are_refused(regression_pair):
    X, y = regression_pair
    y = y.copy()
    y[5] = np.nan
    with pytest.raises(ValueError, match="y contains NaN"):
        bayes.level2(X, y, task="regression", fit_model=False)
    y[5] = np.inf
    with pytest.raises(ValueError, match="y contains infinity"):
        bayes.level2(X, y, task="regression", fit_model=False)


def test_complex_inputs_are_refused_not_truncated(regression_pair):
    X, y = regression_pair
    with pytest.raises(ValueError, match="level2: X must be real-valued"):
        bayes.level2(X + 1j, np.sign(X[:, 0]), fit_model=False)
    with pytest.raises(ValueError, match="level2: y must be real-valued"):
        bayes.level2(X, y + 1j, task="regression")


def test_sparse_and_string_inputs_name_the_argument(regression_pair):
    from scipy.sparse import csr_matrix

    X, y = regression_pair
    with pytest.raises(TypeError, match="level2: X must be a dense array"):
        bayes.level2(csr_matrix(X), np.sign(X[:, 0]))
    with pytest.raises(ValueError, match="level2: y must be numeric"):
        bayes.level2(X, np.array(["a", "b"] * 20), task="regression")
    with pytest.raises(ValueError, match="level2: X must be numeric"):
        bayes.level2(np.array([["a", "b"]] * 40), np.sign(X[:, 0]))


def test_level2_model_keeps_feature_names(two_class):
    pd = pytest.importorskip("pandas")
    X, y = two_class
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    res = bayes.level2(frame, y, sigma2=1.0)
    assert list(res.model.feature_names_in_) == list(frame.columns)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false "fitted without feature names"
        res.model.predict(frame)
        bayes.class_probability(res, frame)
    with pytest.raises(ValueError, match="feature names should match"):
        res.model.predict(frame[frame.columns[::-1]])
    with pytest.raises(ValueError, match="feature names should match"):
        bayes.class_probability(res, frame[frame.columns[::-1]])
