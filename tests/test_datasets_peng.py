"""The splice and adult loaders of Peng et al.'s Tables 2 and 4-5 (offline)."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm.datasets import ADULT_COLUMNS, load_adult, load_splice


def test_splice_matches_table_2_and_the_ordinal_code():
    X, y = load_splice()
    assert X.shape == (3175, 60)  # 1000 + 2175 in Table 2, 60 features
    assert set(np.unique(X)) == {1.0, 2.0, 3.0, 4.0}
    assert np.bincount(y).tolist() == [1648, 762 + 765]  # neither; EI + IE
    # every code is used at every position of a DNA window
    assert all(len(np.unique(X[:, j])) == 4 for j in range(60))


def test_adult_is_the_a1a_coding():
    X, y = load_adult()
    assert X.shape == (32561, 123)  # 1605 + 30956 in Table 2, 123 features
    assert set(np.unique(X)) == {0.0, 1.0}
    assert int(y.sum()) == 7841  # >50K
    # each attribute is one block; a row has at most one 1 per block (none if missing)
    widths = []
    start = 0
    for name, n_bins in ADULT_COLUMNS:
        width = n_bins if n_bins is not None else None
        if width is None:  # categorical: the block ends where the next begins
            width = {"workclass": 8, "education": 16, "marital-status": 7,
                     "occupation": 14, "relationship": 6, "race": 5, "sex": 2,
                     "native-country": 41}[name]  # fmt: skip
        block = X[:, start : start + width]
        assert block.sum(axis=1).max() == 1, name
        if n_bins is not None:  # binned continuous attributes are never missing
            assert np.all(block.sum(axis=1) == 1), name
        widths.append(width)
        start += width
    assert start == 123
    # quintile bins of age hold about a fifth of the records each
    age = X[:, :5].sum(axis=0) / len(y)
    assert np.all(np.abs(age - 0.2) < 0.05)


@pytest.mark.parametrize("loader", [load_splice, load_adult])
def test_loaders_are_deterministic(loader):
    X1, y1 = loader()
    X2, y2 = loader()
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)


def test_load_splice_takes_another_nucleotide_code():
    from lssvm.datasets import load_splice

    X, y = load_splice()
    X2, y2 = load_splice(code={"A": 2, "G": 4, "C": 1, "T": 3})
    np.testing.assert_array_equal(y, y2)
    recode = np.array([0.0, 2.0, 4.0, 1.0, 3.0])  # default value v -> new value
    np.testing.assert_array_equal(recode[X.astype(int)], X2)
    for bad in ({"A": 1}, {"A": 1, "G": 1, "C": 2, "T": 3}, [1, 2, 3, 4]):
        with pytest.raises(ValueError, match="load_splice: code must be a dict"):
            load_splice(code=bad)
