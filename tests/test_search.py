"""Hyper-parameter searches (lssvm.model_selection.search) against scikit-learn's GridSearchCV and the
book's shrinking grid search (Suykens et al. 2002, section 3.4.2)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.model_selection.search import (
    GAMMA_0,
    SIGMA_0,
    grid_search,
    initial_sigma2_grid,
    per_bit_grid_search,
    random_search,
    shrinking_grid_search,
    simplex_search,
)
from lssvm.model_selection.closed_form import make_folds

RTOL_SCORE = 1e-9  # closed-form MSE scores against refitted ones (sklearn)
ATOL_LOG = 1e-12  # grid centres and spans in log10

# Section 3.4.2, "LS-SVM tuning - grid search algorithm", step (2).
BOOK_SIGMA_0 = (0.5, 5, 10, 15, 25, 50, 100, 250, 500)  # times sqrt(n)
BOOK_GAMMA_0 = (0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50, 100, 500, 1000)

# On the seeded classification data and SPLITTER below this grid has 3 points tied
# at the top accuracy (0.95) and ties further down: GridSearchCV takes the first.
GAMMAS = [0.01, 0.1, 1.0, 10.0, 100.0]
SIGMA2S = [0.5, 2.0, 8.0, 50.0]
SPLITTER = StratifiedKFold(5, shuffle=True, random_state=0)

RESULT_KEYS = ["mean_test_score", "std_test_score", "rank_test_score"]


def _split_keys(n_splits):
    return [f"split{i}_test_score" for i in range(n_splits)]


def _assert_same_params(ours, theirs):
    assert len(ours["params"]) == len(theirs["params"])
    for a, b in zip(ours["params"], theirs["params"]):
        assert a == b
    np.testing.assert_array_equal(
        ours["param_gamma"], np.asarray(theirs["param_gamma"], dtype=float)
    )
    np.testing.assert_array_equal(
        ours["param_sigma2"], np.asarray(theirs["param_sigma2"], dtype=float)
    )


# -- grid_search against GridSearchCV --------------------------------------------------


def test_grid_search_equals_grid_search_cv_classifier(classification_data):
    X, y = classification_data
    folds = make_folds(SPLITTER, X, y, classifier=True)
    result = grid_search(X, y.astype(float), folds, gammas=GAMMAS, sigma2s=SIGMA2S)
    ours = result.cv_results
    ref = GridSearchCV(
        LSSVMClassifier(), {"gamma": GAMMAS, "sigma2": SIGMA2S}, cv=SPLITTER
    ).fit(X, y)
    theirs = ref.cv_results_
    _assert_same_params(ours, theirs)
    for key in _split_keys(len(folds)) + ["mean_test_score"]:
        np.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)
    np.testing.assert_allclose(
        ours["std_test_score"], theirs["std_test_score"], rtol=0, atol=1e-15
    )
    np.testing.assert_array_equal(ours["rank_test_score"], theirs["rank_test_score"])
    assert result.best_params == ref.best_params_
    assert result.best_score == ref.best_score_
    assert (ours["stage"] == 0).all()


def test_grid_search_ties_are_broken_as_grid_search_cv(classification_data):
    X, y = classification_data
    folds = make_folds(SPLITTER, X, y, classifier=True)
    result = grid_search(X, y.astype(float), folds, gammas=GAMMAS, sigma2s=SIGMA2S)
    mean = result.cv_results["mean_test_score"]
    top = np.flatnonzero(mean == mean.max())
    assert len(top) > 1  # the data really have a tie at the top
    assert len(np.unique(mean)) < len(mean) - len(top) + 1  # and ties further down
    ranks = result.cv_results["rank_test_score"]
    assert (ranks[top] == 1).all()
    # "min" ranking: a tie of m points at rank r is followed by rank r + m
    np.testing.assert_array_equal(ranks, rankdata(-mean, method="min"))
    ref = GridSearchCV(
        LSSVMClassifier(), {"gamma": GAMMAS, "sigma2": SIGMA2S}, cv=SPLITTER
    ).fit(X, y)
    assert result.best_params == ref.best_params_ == result.cv_results["params"][top[0]]
    np.testing.assert_array_equal(ranks, ref.cv_results_["rank_test_score"])


def test_grid_search_equals_grid_search_cv_regressor(regression_data):
    X, y = regression_data
    splitter = KFold(5, shuffle=True, random_state=0)
    folds = make_folds(splitter, X, y, classifier=False)
    gammas, sigma2s = [0.1, 10.0, 1000.0], [0.5, 2.0, 8.0]
    result = grid_search(
        X, y, folds, gammas=gammas, sigma2s=sigma2s, scoring="neg_mean_squared_error"
    )
    ours = result.cv_results
    ref = GridSearchCV(
        LSSVMRegressor(),
        {"gamma": gammas, "sigma2": sigma2s},
        cv=splitter,
        scoring="neg_mean_squared_error",
    ).fit(X, y)
    theirs = ref.cv_results_
    _assert_same_params(ours, theirs)
    for key in _split_keys(len(folds)) + ["mean_test_score", "std_test_score"]:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=RTOL_SCORE, err_msg=key)
    np.testing.assert_array_equal(ours["rank_test_score"], theirs["rank_test_score"])
    assert result.best_params == ref.best_params_
    np.testing.assert_allclose(result.best_score, ref.best_score_, rtol=RTOL_SCORE)


@pytest.mark.parametrize("strategy", ["auto", "eigen", "cholesky"])
def test_grid_search_strategies_agree(classification_data, strategy):
    X, y = classification_data
    folds = make_folds(SPLITTER, X, y, classifier=True)
    base = grid_search(X, y.astype(float), folds, gammas=GAMMAS, sigma2s=SIGMA2S)
    other = grid_search(
        X, y.astype(float), folds, gammas=GAMMAS, sigma2s=SIGMA2S, strategy=strategy
    )
    np.testing.assert_array_equal(
        base.cv_results["mean_test_score"], other.cv_results["mean_test_score"]
    )


def test_grid_search_invalid_scoring_raises(classification_data):
    X, y = classification_data
    folds = make_folds(3, X, y, classifier=True)
    with pytest.raises(ValueError, match="score_latent: scoring must be one of"):
        grid_search(
            X, y.astype(float), folds, gammas=[1.0], sigma2s=[1.0], scoring="f1"
        )


# -- shrinking grid search (section 3.4.2) ---------------------------------------------


def test_initial_grids_are_the_books():
    assert GAMMA_0 == BOOK_GAMMA_0
    assert SIGMA_0 == BOOK_SIGMA_0
    for n in [1, 3, 10]:
        expected = [(s * np.sqrt(n)) ** 2 for s in BOOK_SIGMA_0]
        np.testing.assert_allclose(initial_sigma2_grid(n), expected, rtol=1e-15)


def _stage(result, stage):
    return [r for r in result.records if r[0] == stage]


def _best_before(result, stage):
    earlier = [r for r in result.records if r[0] < stage]
    return earlier[int(np.argmax([np.mean(r[3]) for r in earlier]))]


def _span_and_centre(values):
    logs = np.log10(np.unique(values))
    return logs[-1] - logs[0], (logs[-1] + logs[0]) / 2


@pytest.fixture(scope="module")
def shrinking_setup():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    y = np.where(
        X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 + 0.3 * rng.standard_normal(60) > 0,
        1.0,
        -1.0,
    )
    return X, y, make_folds(10, X, y, classifier=True)  # the book's 10-fold CV


def test_shrinking_stage_zero_is_the_books_grid(shrinking_setup):
    X, y, folds = shrinking_setup
    result = shrinking_grid_search(X, y, folds)
    stage0 = _stage(result, 0)
    assert len(stage0) == 11 * 9 == 99
    sigma2s = [(s * np.sqrt(X.shape[1])) ** 2 for s in BOOK_SIGMA_0]
    expected = [(g, s) for g in BOOK_GAMMA_0 for s in sigma2s]  # ParameterGrid order
    np.testing.assert_allclose([r[1] for r in stage0], [g for g, _ in expected])
    np.testing.assert_allclose([r[2] for r in stage0], [s for _, s in expected])
    for r in stage0:
        assert len(r[3]) == len(folds) == 10
    # and it is exactly grid_search on those grids
    grid = grid_search(X, y, folds, gammas=BOOK_GAMMA_0, sigma2s=sigma2s)
    np.testing.assert_array_equal(
        [np.mean(r[3]) for r in stage0], grid.cv_results["mean_test_score"]
    )


@pytest.mark.parametrize("n_points", [5, 4, 3])
@pytest.mark.parametrize("n_refinements", [3, 2])
def test_shrinking_refinements_centred_on_best_and_shrinking(
    shrinking_setup, n_refinements, n_points
):
    X, y, folds = shrinking_setup
    result = shrinking_grid_search(
        X, y, folds, n_refinements=n_refinements, n_points=n_points
    )
    stages = result.cv_results["stage"]
    assert stages.max() == n_refinements
    spans = {"gamma": [], "sigma2": []}
    for stage in range(n_refinements + 1):
        records = _stage(result, stage)
        gammas, sigma2s = [r[1] for r in records], [r[2] for r in records]
        if stage > 0:
            assert len(records) == n_points**2
            assert len(np.unique(gammas)) == len(np.unique(sigma2s)) == n_points
        best = _best_before(result, stage) if stage > 0 else None
        for name, values, index in [("gamma", gammas, 1), ("sigma2", sigma2s, 2)]:
            span, centre = _span_and_centre(values)
            spans[name].append(span)
            if stage > 0:  # centred (in log10) on the best point so far
                assert abs(centre - np.log10(best[index])) < ATOL_LOG, (
                    f"stage {stage}: {name} grid centred at 10^{centre:.4f}, best "
                    f"point so far at 10^{np.log10(best[index]):.4f}"
                )
    for name, s in spans.items():
        assert s[1] < s[0], name
        for stage in range(2, n_refinements + 1):  # uniform grids: span * 2/(n-1)
            np.testing.assert_allclose(
                s[stage], s[stage - 1] * 2 / (n_points - 1), rtol=1e-12, err_msg=name
            )


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_shrinking_best_never_decreases(classification_data, regression_data, task):
    if task == "classification":
        X, y = classification_data
        scoring, y = "accuracy", y.astype(float)
        folds = make_folds(10, X, y, classifier=True)
    else:
        X, y = regression_data
        scoring = "neg_mean_squared_error"
        folds = make_folds(10, X, y, classifier=False)
    result = shrinking_grid_search(X, y, folds, scoring=scoring)
    means = result.cv_results["mean_test_score"]
    stages = result.cv_results["stage"]
    best_by_stage = [means[stages <= s].max() for s in range(4)]
    assert np.all(np.diff(best_by_stage) >= 0)
    assert result.best_score == means.max() == best_by_stage[-1]
    first = int(np.flatnonzero(means == means.max())[0])
    assert result.best_params == result.cv_results["params"][first]
    assert result.cv_results["rank_test_score"][first] == 1
    if task == "regression":  # a smooth score: the refinements do improve on stage 0
        assert best_by_stage[-1] > best_by_stage[0]


# -- random search ---------------------------------------------------------------------


def test_random_search_deterministic_and_in_box(classification_data):
    X, y = classification_data
    y = y.astype(float)
    folds = make_folds(5, X, y, classifier=True)
    gammas, sigma2s = [0.1, 5.0, 100.0], [0.2, 30.0]
    kw = dict(gammas=gammas, sigma2s=sigma2s, n_iter=40)
    a = random_search(X, y, folds, random_state=3, **kw)
    b = random_search(X, y, folds, random_state=3, **kw)
    c = random_search(X, y, folds, random_state=4, **kw)
    assert len(a.records) == 40
    assert a.records == b.records
    pa = [(r[1], r[2]) for r in a.records]
    pc = [(r[1], r[2]) for r in c.records]
    assert set(pa).isdisjoint(pc)
    g = np.array([p[0] for p in pa])
    s = np.array([p[1] for p in pa])
    assert g.min() >= 0.1 and g.max() <= 100.0
    assert s.min() >= 0.2 and s.max() <= 30.0
    # log-uniform: about half below the geometric middle of the box (a uniform draw
    # would put about 0.1% of gamma there)
    assert 8 <= (g < np.sqrt(0.1 * 100.0)).sum() <= 32
    assert 8 <= (s < np.sqrt(0.2 * 30.0)).sum() <= 32
    assert a.best_score == max(np.mean(r[3]) for r in a.records)


def test_random_search_default_box_is_the_books(classification_data):
    X, y = classification_data
    folds = make_folds(5, X, y, classifier=True)
    result = random_search(X, y.astype(float), folds, n_iter=30, random_state=0)
    g = result.cv_results["param_gamma"]
    s = result.cv_results["param_sigma2"]
    sig = initial_sigma2_grid(X.shape[1])
    assert g.min() >= min(BOOK_GAMMA_0) and g.max() <= max(BOOK_GAMMA_0)
    assert s.min() >= min(sig) and s.max() <= max(sig)


# -- simplex search --------------------------------------------------------------------


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_simplex_at_least_as_good_as_grid(classification_data, regression_data, task):
    if task == "classification":
        X, y = classification_data
        y, scoring = y.astype(float), "accuracy"
        folds = make_folds(5, X, y, classifier=True)
    else:
        X, y = regression_data
        scoring = "neg_mean_squared_error"
        folds = make_folds(5, X, y, classifier=False)
    kw = dict(gammas=GAMMAS, sigma2s=SIGMA2S, scoring=scoring)
    grid = grid_search(X, y, folds, **kw)
    simplex = simplex_search(X, y, folds, n_iter=30, **kw)
    n_grid = len(GAMMAS) * len(SIGMA2S)
    assert simplex.records[:n_grid] == grid.records  # the grid comes first
    assert len(simplex.records) > n_grid
    assert (simplex.cv_results["stage"][n_grid:] == 1).all()
    assert simplex.best_score >= grid.best_score
    assert simplex.best_score == simplex.cv_results["mean_test_score"].max()


# -- non-RBF kernels: gamma only -------------------------------------------------------


def test_linear_kernel_searches_gamma_only(classification_data):
    X, y = classification_data
    folds = make_folds(SPLITTER, X, y, classifier=True)
    gammas = [0.01, 1.0, 100.0]
    result = grid_search(
        X, y.astype(float), folds, gammas=gammas, sigma2s=[0.5, 2.0], kernel="linear"
    )
    res = result.cv_results
    assert len(res["params"]) == 3
    assert np.isnan(res["param_sigma2"]).all()
    assert all(p["sigma2"] is None for p in res["params"])
    np.testing.assert_array_equal(res["param_gamma"], gammas)
    assert result.best_params["sigma2"] is None
    ref = GridSearchCV(
        LSSVMClassifier(kernel="linear"), {"gamma": gammas}, cv=SPLITTER
    ).fit(X, y)
    np.testing.assert_array_equal(
        res["mean_test_score"], ref.cv_results_["mean_test_score"]
    )


def test_linear_kernel_shrinking_refines_gamma_only(classification_data):
    X, y = classification_data
    folds = make_folds(5, X, y, classifier=True)
    result = shrinking_grid_search(
        X, y.astype(float), folds, kernel="linear", n_refinements=2, n_points=5
    )
    stages = result.cv_results["stage"]
    assert (stages == 0).sum() == len(BOOK_GAMMA_0)
    assert (stages == 1).sum() == (stages == 2).sum() == 5
    assert np.isnan(result.cv_results["param_sigma2"]).all()


# -- progress output -------------------------------------------------------------------


def test_verbose_prints_progress_to_stderr(classification_data, capsys):
    X, y = classification_data
    folds = make_folds(3, X, y, classifier=True)
    grid_search(
        X,
        y.astype(float),
        folds,
        gammas=[1.0, 10.0],
        sigma2s=[0.5, 1.0, 2.0],
        verbose=1,
    )
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 3  # one per kernel matrix
    assert all(line.startswith("[lssvm search] stage 0") for line in lines)
    assert "kernel matrix 3/3" in lines[-1] and "6 points done" in lines[-1]


def test_verbose_zero_prints_nothing(classification_data, capsys):
    X, y = classification_data
    folds = make_folds(3, X, y, classifier=True)
    shrinking_grid_search(X, y.astype(float), folds, n_refinements=1, verbose=0)
    out, err = capsys.readouterr()
    assert out == "" and err == ""


def test_per_bit_grid_search_equals_one_search_per_bit(rng):
    # Bits sharing rows share the eigendecompositions but each gets its own optimum.
    X = rng.standard_normal((90, 2))
    Y = np.column_stack(
        [np.sign(X[:, 0]), np.sign(X[:, 0] * X[:, 1]), np.sign(X[:, 1] - 0.3)]
    )
    folds = make_folds(5, X, Y[:, 0], classifier=True)
    grid = dict(gammas=[0.1, 1.0, 10.0, 100.0], sigma2s=[0.1, 1.0, 10.0])
    per_bit = per_bit_grid_search(X, Y, folds, **grid)
    assert len(per_bit) == Y.shape[1]
    best = []
    for c, result in enumerate(per_bit):
        single = grid_search(X, Y[:, c], folds, **grid)
        assert result.best_params == single.best_params
        np.testing.assert_array_equal(
            result.cv_results["mean_test_score"], single.cv_results["mean_test_score"]
        )
        best.append(tuple(result.best_params.values()))
    assert len(set(best)) > 1  # the bits do not all want the same (gamma, sigma2)


# -- issue 25: BLAS threads, exact initial grid ----------------------------------------


def test_search_limits_blas_threads(rng):
    from threadpoolctl import threadpool_info, threadpool_limits

    import lssvm.model_selection.search as search

    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    folds = make_folds(4, X, y, classifier=True)
    seen = []

    def scoring(y_true, latent):  # runs inside the search: record the BLAS threads
        seen.append({lib["num_threads"] for lib in threadpool_info()
                     if lib["user_api"] == "blas"})  # fmt: skip
        return float(np.mean(np.sign(latent) == y_true))

    with threadpool_limits(limits=2, user_api="blas"):
        grid_search(X, y, folds, gammas=[1.0], sigma2s=[1.0], scoring=scoring)
        assert seen and all(threads == {search.SEARCH_BLAS_THREADS} for threads in seen)
        after = {lib["num_threads"] for lib in threadpool_info()
                 if lib["user_api"] == "blas"}  # fmt: skip
    assert after == {2}  # restored


def test_initial_sigma2_grid_is_exact():
    assert initial_sigma2_grid(2)[3] == 450.0  # (15 sqrt(2))^2, not 450.00000000000006
