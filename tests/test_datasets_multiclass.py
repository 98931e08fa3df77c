"""Multiclass benchmarks of Table 3.2 (Suykens et al., 2002) in lssvm.datasets."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm.datasets import (
    _LED_SEGMENTS,
    MULTICLASS_SETS,
    _waveform_attributes,
    balance_scale,
    led_display,
    load_multiclass,
    waveform,
)

# Table 3.2: N (size), n (inputs), M (classes).
TABLE_3_2 = {
    "bal": (625, 4, 3),
    "cmc": (1473, 9, 3),
    "ims": (2310, 18, 7),
    "iri": (150, 4, 3),
    "led": (3000, 7, 10),
    "veh": (846, 18, 4),
    "wav": (3600, 19, 3),
    "win": (178, 13, 3),
}


def test_multiclass_sets_in_table_order():
    assert MULTICLASS_SETS == ("bal", "cmc", "ims", "iri", "led", "veh", "wav", "win")


@pytest.mark.parametrize("name", MULTICLASS_SETS)
def test_sizes_match_table_3_2(name):
    N, n, M = TABLE_3_2[name]
    X, y = load_multiclass(name)
    assert X.shape == (N, n)
    assert X.dtype == np.float64
    assert not np.isnan(X).any()
    assert y.shape == (N,)
    assert np.issubdtype(y.dtype, np.integer)
    # Labels are exactly 0..M-1, every class present.
    np.testing.assert_array_equal(np.unique(y), np.arange(M))


@pytest.mark.parametrize("name", MULTICLASS_SETS)
def test_deterministic_under_fixed_seed(name):
    X1, y1 = load_multiclass(name, random_state=7)
    X2, y2 = load_multiclass(name, random_state=7)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)


@pytest.mark.parametrize("name", ["led", "wav"])
def test_generated_sets_depend_on_the_seed(name):
    X1, _ = load_multiclass(name, random_state=1)
    X2, _ = load_multiclass(name, random_state=2)
    assert not np.array_equal(X1, X2)
    X3, _ = load_multiclass(name, random_state=np.random.default_rng(1))
    np.testing.assert_array_equal(X1, X3)


def test_loaded_class_counts():
    # Known class sizes of the UCI files (sorted original labels -> 0..M-1).
    expected = {
        "cmc": [629, 333, 511],  # contraceptive classes 1, 2, 3
        "ims": [330] * 7,  # segment: balanced
        "iri": [50, 50, 50],
        "veh": [218, 212, 217, 199],  # bus, opel, saab, van
        "win": [59, 71, 48],
    }
    for name, counts in expected.items():
        _, y = load_multiclass(name)
        assert np.bincount(y).tolist() == counts, name


def test_segment_drops_only_the_constant_column():
    X, _ = load_multiclass("ims")
    assert np.all(X.std(axis=0) > 0)


def test_balance_scale_is_the_uci_grid():
    X, y = balance_scale()
    # Class counts of the UCI file: 49 B, 288 L, 288 R (codes 0, 1, 2).
    assert np.bincount(y).tolist() == [49, 288, 288]
    # Every combination of 1..5 exactly once, first row (1,1,1,1) is balanced.
    assert len({tuple(row) for row in X.astype(int)}) == 625
    assert X.min() == 1 and X.max() == 5
    np.testing.assert_array_equal(X[0], [1, 1, 1, 1])
    assert y[0] == 0 and y[1] == 2  # UCI rows "B,1,1,1,1" and "R,1,1,1,2"
    torque = X[:, 0] * X[:, 1] - X[:, 2] * X[:, 3]
    np.testing.assert_array_equal(y, np.select([torque == 0, torque > 0], [0, 1], 2))


def test_led_flip_rate_is_close_to_p():
    n, p = 3000, 0.1
    X, y = led_display(n, flip=p, random_state=0)
    assert set(np.unique(X)) <= {0.0, 1.0}
    rate = np.mean(X != _LED_SEGMENTS[y])
    # 7 n independent Bernoulli(p) flips: std of the rate is sqrt(p (1-p) / (7 n)),
    # about 0.0021 here; allow 4 standard deviations.
    std = np.sqrt(p * (1 - p) / (7 * n))
    assert abs(rate - p) < 4 * std


def test_led_without_flips_shows_the_digits():
    X, y = led_display(200, flip=0.0, random_state=3)
    np.testing.assert_array_equal(X, _LED_SEGMENTS[y])
    # The ten patterns are distinct, and 8 lights every segment.
    assert len({tuple(r) for r in _LED_SEGMENTS}) == 10
    assert _LED_SEGMENTS[8].sum() == 7 and _LED_SEGMENTS[1].sum() == 2


def test_led_digits_roughly_uniform():
    _, y = led_display(3000, random_state=0)
    counts = np.bincount(y, minlength=10)
    # Binomial(3000, 0.1): std about 16.4; allow 5 standard deviations.
    assert np.all(np.abs(counts - 300) < 5 * np.sqrt(3000 * 0.1 * 0.9))


def test_led_bad_flip_raises():
    with pytest.raises(ValueError, match="flip must be"):
        led_display(10, flip=1.5)


def test_waveform_noise_free_end_columns_are_constant():
    X21, y21 = _waveform_attributes(500, 0.0, np.random.default_rng(0))
    assert X21.shape == (500, 21)
    np.testing.assert_array_equal(X21[:, 0], 0.0)
    np.testing.assert_array_equal(X21[:, 20], 0.0)
    assert np.all(X21[:, 1:20].std(axis=0) > 0)
    # The public noise-free set is attributes 2..20 of the same draw.
    X, y = waveform(500, random_state=0)
    np.testing.assert_array_equal(X, X21[:, 1:20])
    np.testing.assert_array_equal(y, y21)


def test_waveform_with_noise_keeps_21_attributes():
    X0, y0 = waveform(2000, noise=0.0, random_state=4)
    X1, y1 = waveform(2000, noise=1.0, random_state=4)
    assert X1.shape == (2000, 21)
    np.testing.assert_array_equal(y0, y1)  # same classes at every noise level
    residual = X1[:, 1:20] - X0
    assert abs(residual.std() - 1.0) < 0.02
    assert abs(X1[:, 0].std() - 1.0) < 0.1  # end attributes are pure noise


def test_waveform_is_a_convex_mix_of_two_waves():
    X, y = waveform(300, random_state=0)
    # Without noise every attribute is a convex mix of values in [0, 6].
    assert X.min() >= 0.0 and X.max() <= 6.0
    # Class 0 mixes h1 (peak 6 at m=11) and h2 (peak 6 at m=15): the values at
    # m=11 and m=15 sum to 6 + 2 = 8 for every mixing weight u.
    Xc = X[y == 0]
    np.testing.assert_allclose(Xc[:, 9] + Xc[:, 13], 8.0)


def test_waveform_negative_noise_raises():
    with pytest.raises(ValueError, match="noise must be"):
        waveform(10, noise=-1.0)


@pytest.mark.parametrize("name", ["thy", "usp"])
def test_thy_usp_not_available_offline(name):
    with pytest.raises(ValueError, match="not available offline"):
        load_multiclass(name)


def test_unknown_name_lists_valid_ones():
    with pytest.raises(ValueError, match="Unknown multiclass data set") as info:
        load_multiclass("iris")
    for valid in MULTICLASS_SETS:
        assert valid in str(info.value)
