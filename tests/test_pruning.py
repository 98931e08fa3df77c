"""Tests of lssvm.sparse.pruning: the pruning path of section 3.7 and [Suykens00]."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm.datasets import gaussian_classes, sinc
from lssvm.sparse.pruning import PruningWarning, prune, pruned_fraction, sign_test_pvalue

RTOL_DIRECT = 1e-10


@pytest.fixture
def regression():
    X, y = sinc(120, noise=0.1, random_state=0)
    return LSSVMRegressor(gamma=100.0, sigma2=4.0), X, y


@pytest.fixture
def classification():
    X, y = gaussian_classes(60, mean=0.5, random_state=0)
    return LSSVMClassifier(gamma=10.0, sigma2=9.0), X, y


def _fresh(template, X, y, support):
    return (
        LSSVMRegressor(**template.get_params()).fit(X[support], y[support])
        if (isinstance(template, LSSVMRegressor))
        else LSSVMClassifier(**template.get_params()).fit(X[support], y[support])
    )


def test_fraction_schedule(regression):
    est, X, y = regression
    path = prune(est, X, y, fraction=0.1, min_support=40)
    n = path.n_support
    expected = [120]
    while expected[-1] > 40:
        expected.append(max(40, expected[-1] - max(1, round(0.1 * expected[-1]))))
    np.testing.assert_array_equal(n, expected)


def test_n_remove_schedule_and_checkpoints(regression):
    est, X, y = regression
    path = prune(est, X, y, n_remove=7, min_support=50, checkpoints=(100,))
    n = path.n_support
    assert 100 in n and n[-1] == 50
    steps = -np.diff(n)
    assert np.all(steps <= 7) and np.all(steps >= 1)
    assert np.sum(steps < 7) <= 2  # only the clipped steps at 100 and 50
    assert len(prune(est, X, y, n_remove=5, n_stages=3).n_support) == 4


@pytest.mark.parametrize("problem", ["regression", "classification"])
def test_downdated_solution_equals_a_fresh_fit(problem, request):
    est, X, y = request.getfixturevalue(problem)
    path = prune(est, X, y, fraction=0.05, min_support=20)
    assert path.update == "downdate"
    for stage in range(len(path.estimators)):
        fitted, support = path.estimators[stage], path.support[stage]
        fresh = _fresh(est, X, y, support)
        scale = np.max(np.abs(fresh.alpha_))
        np.testing.assert_allclose(
            fitted.alpha_, fresh.alpha_, rtol=0, atol=RTOL_DIRECT * max(scale, 1)
        )
        assert abs(fitted.b_ - fresh.b_) <= RTOL_DIRECT * max(abs(fresh.b_), 1)
        np.testing.assert_allclose(
            fitted.predict(X), fresh.predict(X), rtol=0, atol=1e-9
        )


def test_pruning_never_adds_points_and_removes_the_smallest(classification):
    est, X, y = classification
    path = prune(est, X, y, min_support=30)
    for s in range(1, len(path.support)):
        prev, cur = path.support[s - 1], path.support[s]
        assert set(cur) < set(prev)
        removed = np.setdiff1d(prev, cur)
        alpha = np.abs(path.estimators[s - 1].alpha_)
        kept_min = alpha[np.isin(prev, cur)].min()
        assert alpha[np.isin(prev, removed)].max() <= kept_min
    assert np.array_equal(path.n_support, [len(s) for s in path.support])
    assert all(np.all(np.diff(sp) <= 0) for sp in path.spectra)  # sorted spectra


def test_downdate_and_refit_give_the_same_path(regression):
    est, X, y = regression
    a = prune(est, X, y, min_support=30, update="downdate")
    b = prune(est, X, y, min_support=30, update="refit")
    assert a.update == "downdate" and b.update == "refit"
    for s_a, s_b in zip(a.support, b.support, strict=True):
        np.testing.assert_array_equal(s_a, s_b)


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_downdate_without_bias_solves_the_model_without_bias(kind):
    """fit_intercept=False: the stages on the downdated factor solve [S 3.62]."""
    if kind == "regressor":
        X, y = sinc(80, noise=0.1, random_state=1)
        est = LSSVMRegressor(gamma=50.0, sigma2=2.0, fit_intercept=False)
    else:
        X, y = gaussian_classes(40, mean=0.5, random_state=1)
        est = LSSVMClassifier(gamma=10.0, sigma2=4.0, fit_intercept=False)
    path = prune(est, X, y, n_remove=8, n_stages=4)
    assert path.update == "downdate" and len(path.estimators) == 5
    for stage, support in zip(path.estimators, path.support, strict=True):
        assert np.all(stage.b_ == 0.0)  # no border, no b
        fresh = _fresh(est, X, y, support)
        np.testing.assert_allclose(stage.alpha_, fresh.alpha_, rtol=0, atol=1e-10)


def test_public_names_keep_their_paths():
    """The documented paths: lssvm.sparse and lssvm.sparse.pruning."""
    import lssvm.sparse as sparse
    import lssvm.sparse.pruning as pruning

    for name in ("prune", "PruningPath", "PruningWarning", "PrunedOutputCode"):
        assert name in sparse.__all__ and name in pruning.__all__
        assert getattr(sparse, name) is getattr(pruning, name)
    assert pruning.prune is prune and pruning.PruningWarning is PruningWarning
    assert pruning.sign_test_pvalue is sign_test_pvalue
    assert pruning.pruned_fraction is pruned_fraction
    for name in pruning.__all__:
        assert hasattr(pruning, name), name
    # book/api.md titles each entry by its defining module: the public names are
    # defined here, the helpers of the loop live in private modules
    public = ("prune", "PruningPath", "PruningWarning", "PrunedOutputCode",
              "sign_test_pvalue", "pruned_fraction")  # fmt: skip
    for name in public:
        assert getattr(pruning, name).__module__ == "lssvm.sparse.pruning", name


def test_a_pruned_output_code_pickles_under_its_public_module():
    """Pickles name the class by lssvm.sparse.pruning, where it has always been."""
    import pickle

    X, y = _three_classes(n=15)
    model = prune(LSSVMClassifier(gamma=5.0, sigma2=1.0), X, y, per_bit=True,
                  n_stages=1).estimator_  # fmt: skip
    data = pickle.dumps(model)
    assert b"lssvm.sparse.pruning" in data and b"PrunedOutputCode" in data
    np.testing.assert_array_equal(pickle.loads(data).predict(X), model.predict(X))


@pytest.mark.parametrize("coding, n_bits", [("moc", 2), ("ova", 4)])
def test_the_per_bit_memory_guard_counts_every_bit(monkeypatch, coding, n_bits):
    """Every bit keeps its kernel matrix and factor (n_j = N rows for these codes),
    and one factor is rebuilt at a time: 8 (2 M + 1) N^2 bytes for M bits."""
    import re

    import lssvm.linalg.memory as memory

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 2)), np.repeat([0, 1, 2, 3], 10)
    monkeypatch.setattr(memory, "available_memory", lambda: 10_000)
    with pytest.raises(memory.InsufficientMemoryError) as info:
        prune(LSSVMClassifier(coding=coding), X, y, per_bit=True)
    message = str(info.value)
    assert message.startswith("prune: update=\"downdate\" with per_bit=True needs")
    assert f"({n_bits} bits of up to 40 rows)" in message
    needed = int(re.search(r"\((\d+) bytes\)", message).group(1))
    assert needed == 8 * (2 * n_bits + 1) * 40**2
    monkeypatch.setattr(memory, "available_memory", lambda: needed)  # just fits
    prune(LSSVMClassifier(coding=coding), X, y, per_bit=True, n_stages=1)
    monkeypatch.setattr(memory, "available_memory", lambda: 10_000)
    prune(LSSVMClassifier(coding=coding, solver="cg"), X, y, per_bit=True,
          n_stages=1, update="refit")  # the alternative: no factor, no N x N matrix


def test_sign_test_values():
    assert sign_test_pvalue([1] * 5, [0] * 5) == pytest.approx(1 / 32)
    assert sign_test_pvalue([0, 0], [0, 0]) == 1.0
    assert sign_test_pvalue([0, 1, 0], [1, 0, 1]) == pytest.approx(7 / 8)


def test_significance_stop_fires_on_a_constructed_case(regression):
    # Noiseless validation data: pruning to a handful of points must degrade the
    # squared error on (nearly) every validation point, so the rule fires.
    est, X, y = regression
    X_val, y_val = sinc(60, noise=0.0, low=-9.5, high=9.5)
    path = prune(
        est, X, y, n_remove=10, min_support=5, validation=(X_val, y_val),
        stop="significance", level=0.01,
    )  # fmt: skip
    assert path.stop_stage is not None
    assert path.p_values[path.stop_stage] < 0.01
    assert np.all(path.p_values[: path.stop_stage] >= 0.01)
    assert path.selected == path.stop_stage - 1
    assert path.estimator_ is path.estimators[path.selected]
    assert path.n_support[-1] > 5  # it stopped before min_support
    assert path.last_before(0.01) == path.selected


def test_callable_stop_and_no_stop(classification):
    est, X, y = classification
    path = prune(est, X, y, min_support=10, stop=lambda p: p.n_support[-1] < 80)
    assert path.n_support[path.stop_stage] < 80 <= path.n_support[path.selected]
    full = prune(est, X, y, min_support=10)
    assert full.stop_stage is None and full.n_support[-1] == 10
    assert pruned_fraction(full) == pytest.approx(1 - 10 / 120)


def test_signed_criterion_prunes_negative_values_first(classification):
    est, X, y = classification
    path = prune(est, X, y, n_remove=10, n_stages=1, criterion="signed")
    first = path.estimators[0].alpha_
    removed = np.setdiff1d(path.support[0], path.support[1])
    assert np.all(first[removed] < 0)
    assert np.sort(first)[9] == pytest.approx(first[removed].max())


def test_multiclass_prunes_shared_rows():
    X, y = gaussian_classes(40, random_state=1)
    y = np.where(X[:, 0] > 0.8, 2, (y > 0).astype(int))  # three classes
    est = LSSVMClassifier(gamma=10.0, sigma2=4.0, coding="moc")
    path = prune(est, X, y, fraction=0.1, min_support=40)
    assert path.update == "downdate"  # moc: every bit uses every row
    fresh = LSSVMClassifier(**est.get_params()).fit(
        X[path.support[-1]], y[path.support[-1]]
    )
    np.testing.assert_allclose(path.estimator_.alpha_, fresh.alpha_, atol=1e-9)
    ovo = prune(LSSVMClassifier(gamma=10.0, sigma2=4.0), X, y, n_remove=10, n_stages=2)
    assert ovo.update == "refit" and list(ovo.n_support) == [80, 70, 60]
    assert ovo.estimators[-1].predict(X).shape == y.shape


def test_retune_hook_changes_parameters(regression):
    est, X, y = regression
    seen = []

    def retune(stage, X_kept, y_kept):
        seen.append((stage, len(y_kept)))
        return {"gamma": 10.0}

    path = prune(est, X, y, n_remove=20, n_stages=3, retune=retune, retune_at=(2,))
    assert seen == [(2, 80)]
    assert [e.gamma for e in path.estimators] == [100.0, 100.0, 10.0, 10.0]
    fresh = LSSVMRegressor(gamma=10.0, sigma2=4.0).fit(
        X[path.support[3]], y[path.support[3]]
    )
    np.testing.assert_allclose(path.estimators[3].alpha_, fresh.alpha_, atol=1e-9)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"fraction": 0.0}, "prune: fraction must be a float in \\(0, 1\\)"),
        ({"fraction": 1.0}, "prune: fraction must be"),
        ({"n_remove": 0}, "prune: n_remove must be an integer >= 1"),
        ({"n_remove": 2.5}, "prune: n_remove must be"),
        ({"min_support": 0}, "prune: min_support must be"),
        ({"min_support": 1000}, "prune: min_support must be at most the 120 training "
         "points; got min_support=1000"),
        ({"n_stages": -1}, "prune: n_stages must be"),
        ({"stop": "cv"}, "prune: stop must be one of"),
        ({"stop": "significance"}, 'prune: validation must be \\(X_val, y_val\\) for '
         'stop="significance" .*got validation=None'),
        ({"level": 1.5}, "prune: level must be"),
        ({"criterion": "signed"}, 'prune: criterion must be "abs" unless .*binary '
         "classifiers only.*got criterion='signed'"),
        ({"criterion": "size"}, "prune: criterion must be one of"),
        ({"update": "qr"}, "prune: update must be one of"),
    ],
)
def test_bad_input_gives_clear_errors(regression, kwargs, match):
    est, X, y = regression
    with pytest.raises(ValueError, match=match):
        prune(est, X, y, **kwargs)


def test_not_an_lssvm_is_a_type_error(regression):
    from sklearn.linear_model import Ridge

    _, X, y = regression
    with pytest.raises(
        TypeError, match=r"prune: estimator must be an LSSVMClassifier or "
        r"LSSVMRegressor \(an LSSVMBase\); got estimator=Ridge\(\)"
    ):  # fmt: skip
        prune(Ridge(), X, y)


def _three_classes(seed=0, n=40):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.8]])
    X = np.vstack([c + 0.7 * rng.standard_normal((n, 2)) for c in centres])
    return X, np.repeat([0, 1, 2], n)


@pytest.mark.parametrize("coding", ["ovo", "moc"])
def test_per_bit_stage_zero_is_the_multiclass_model(coding):
    X, y = _three_classes()
    template = LSSVMClassifier(gamma=5.0, sigma2=1.0, coding=coding)
    path = prune(template, X, y, per_bit=True, n_stages=3)
    full = LSSVMClassifier(gamma=5.0, sigma2=1.0, coding=coding).fit(X, y)
    np.testing.assert_allclose(
        path.estimators[0].decision_function(X), full.decision_function(X), atol=1e-10
    )
    np.testing.assert_array_equal(path.estimators[0].predict(X), full.predict(X))
    assert path.n_support[0] == np.count_nonzero(full.codebook_[y])  # summed rows


def test_per_bit_schedule_subsets_and_fresh_fits():
    X, y = _three_classes(seed=1)
    bits = [{"gamma": 2.0}, {"gamma": 20.0, "sigma2": 0.5}, {"gamma": 5.0}]
    template = LSSVMClassifier(sigma2=1.0, coding="ovo", bit_params=bits)
    path = prune(template, X, y, per_bit=True, n_stages=6)
    for s in range(1, len(path.estimators)):
        model = path.estimators[s]
        for j, (before, now) in enumerate(zip(path.support[s - 1], path.support[s])):
            assert set(now) < set(before)  # strictly fewer, never added
            assert len(before) - len(now) == max(1, round(0.05 * len(before)))
            labels = model.codebook_[y[now], j]
            assert set(labels) == {-1, 1}  # both classes of the bit stay
            fresh = LSSVMClassifier(**{"sigma2": 1.0, **bits[j]}).fit(X[now], labels)
            np.testing.assert_allclose(
                model.estimators_[j].alpha_, fresh.alpha_, rtol=0, atol=1e-10
            )
            assert abs(model.estimators_[j].b_ - fresh.b_) < 1e-10
        assert path.n_support[s] == sum(len(k) for k in path.support[s])


def test_per_bit_removes_the_smallest_support_values_of_each_bit():
    X, y = _three_classes(seed=2)
    path = prune(LSSVMClassifier(gamma=5.0, sigma2=1.0), X, y, per_bit=True,
                 n_stages=1)  # fmt: skip
    stage0 = path.estimators[0]
    for j, (before, now) in enumerate(zip(path.support[0], path.support[1])):
        alpha = np.abs(stage0.estimators_[j].alpha_)
        gone = ~np.isin(before, now)
        assert alpha[gone].max() <= alpha[~gone].min()


def test_per_bit_significance_stop_and_errors():
    X, y = _three_classes(seed=3, n=60)
    X_val, y_val = _three_classes(seed=4, n=60)
    path = prune(
        LSSVMClassifier(gamma=5.0, sigma2=1.0), X, y, per_bit=True,
        validation=(X_val, y_val), stop="significance", level=0.01,
    )  # fmt: skip
    assert path.p_values[0] == 1.0 and path.selected == len(path.estimators) - 1 - (
        path.stop_stage is not None
    )
    if path.stop_stage is not None:
        assert path.p_values[path.stop_stage] < 0.01
        assert np.all(path.p_values[: path.stop_stage] >= 0.01)
    with pytest.raises(ValueError, match="prune: per_bit must be False unless the "
                       "estimator is a multiclass classifier"):
        prune(LSSVMClassifier(), X[y < 2], y[y < 2], per_bit=True)
    with pytest.raises(ValueError, match="prune: checkpoints, retune and criterion "
                       "must keep their defaults with per_bit=True .*checkpoints"):
        prune(LSSVMClassifier(), X, y, per_bit=True, checkpoints=(100,))
    with pytest.raises(ValueError, match="prune: bit_params must hold one dict per "
                       "bit of the code \\(3 bits\\); got 2 entries"):
        prune(LSSVMClassifier(bit_params=[{}, {}]), X, y, per_bit=True)
    with pytest.raises(ValueError, match='prune: targets must be "pm1" for '
                       "per_bit=True with decoding=\"loss\".*got targets='fisher'"):
        prune(LSSVMClassifier(targets="fisher", decoding="loss"), X, y, per_bit=True)


def test_a_stage_leaving_one_class_ends_the_path_with_a_warning():
    # 25 points per stage on two Gaussians: the smallest |alpha_k| of one stage all
    # come from one class, and a later stage would leave one class only.
    X, y = gaussian_classes(250, mean=0.5, random_state=0)
    with pytest.warns(PruningWarning, match="leave one class only"):
        path = prune(LSSVMClassifier(gamma=10.0, sigma2=9.0), X, y, n_remove=25)
    assert path.end_reason is not None and "one class" in path.end_reason
    last = path.support[-1]
    assert len(np.unique(y[last])) == 2  # every kept stage has both classes
    assert len(path.estimators) == len(path.n_support) == len(path.scores) >= 2
    assert path.selected == len(path.estimators) - 1
    np.testing.assert_array_equal(path.n_support, 500 - 25 * np.arange(len(path.n_support)))
    assert path.estimator_.predict(X).shape == y.shape


def test_a_stage_whose_fit_fails_ends_the_path_at_the_last_valid_stage(regression):
    est, X, y = regression

    def retune(stage, X_kept, y_kept):
        return {"gamma": -1.0}  # invalid: this stage cannot be fitted

    with pytest.warns(PruningWarning, match="gamma must be"):
        path = prune(est, X, y, n_remove=20, n_stages=4, retune=retune, retune_at=(2,))
    assert list(path.n_support) == [120, 100]
    assert "stage 2" in path.end_reason
    fresh = _fresh(est, X, y, path.support[1])
    np.testing.assert_allclose(path.estimator_.alpha_, fresh.alpha_, atol=1e-9)


def test_a_complete_path_has_no_end_reason(regression):
    est, X, y = regression
    assert prune(est, X, y, n_remove=20, n_stages=2).end_reason is None
# -- issue 25: feature names, string targets, progress ---------------------------------


@pytest.mark.parametrize("per_bit", [False, True])
def test_stages_keep_the_feature_name_contract(rng, per_bit):
    pd = pytest.importorskip("pandas")
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0], [-0.4, 0.4]) if per_bit else np.where(X[:, 0] > 0, 1, -1)
    frame = pd.DataFrame(X, columns=["a", "b"])
    path = prune(LSSVMClassifier(), frame, y, n_stages=2, per_bit=per_bit,
                 validation=(frame, y))  # fmt: skip
    for model in path.estimators:
        assert list(model.feature_names_in_) == ["a", "b"]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no false "fitted without feature names"
            model.predict(frame)
        with pytest.raises(ValueError, match="feature names should match"):
            model.predict(frame[["b", "a"]])


def test_string_targets_for_a_regressor_name_y(rng):
    X = rng.standard_normal((40, 2))
    with pytest.raises(ValueError, match="prune: y must be numeric"):
        prune(LSSVMRegressor(), X, np.array(["a", "b"] * 20))


def test_verbose_reports_stages_and_total(rng, capsys):
    X, y = sinc(60, noise=0.1, random_state=0)
    prune(LSSVMRegressor(gamma=10.0), X, y, n_stages=2, verbose=1)
    err = capsys.readouterr().err
    assert "[lssvm prune] stage 0: 60 support vectors" in err
    assert "stage 2:" in err and "done: 3 stages" in err


def test_stages_reuse_the_factor_rows_of_the_kept_prefix(regression, monkeypatch):
    """Stage 0 factors in the input order, stage 1 afresh in the abs(alpha_k) order,
    and later stages keep the factor rows of the leading points that stay."""
    import lssvm.linalg.factor as factor_module

    kept_rows = []
    update = factor_module.update_cholesky

    def spy(L, order, new_order, rows):
        n = min(len(order), len(new_order))
        differ = np.flatnonzero(order[:n] != new_order[:n])
        if len(new_order):  # not the empty factor set up before stage 0
            kept_rows.append(int(differ[0]) if len(differ) else n)
        return update(L, order, new_order, rows)

    monkeypatch.setattr(factor_module, "update_cholesky", spy)
    est, X, y = regression
    path = prune(est, X, y, n_remove=10, n_stages=5)
    assert path.update == "downdate" and len(kept_rows) == 6  # one per stage
    assert kept_rows[:2] == [0, 0]
    assert all(k > 0 for k in kept_rows[2:]), kept_rows
    for stage in (2, 5):  # the solutions are those of fresh fits
        fresh = _fresh(est, X, y, path.support[stage])
        np.testing.assert_allclose(
            path.estimators[stage].alpha_, fresh.alpha_, rtol=1e-8, atol=1e-10
        )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_remove": 0}, "prune: n_remove must be an integer >= 1 (points removed "
         "per stage); got n_remove=0."),
        ({"min_support": 1.5}, "prune: min_support must be an integer >= 1"),
        ({"n_stages": True}, "prune: n_stages must be an integer >= 0 (or None: no "
         "limit); got n_stages=True."),
    ],
)  # fmt: skip
def test_integer_options_name_owner_allowed_values_and_value(
    regression, kwargs, message
):
    est, X, y = regression
    with pytest.raises(ValueError) as info:
        prune(est, X, y, **kwargs)
    assert str(info.value).startswith(message)
