"""adu's splits in benchmarks/uci.py: the paper's 33000 / 12222 (no model is fitted)."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import uci  # noqa: E402

from lssvm.datasets import load_adult_uci  # noqa: E402


def test_adu_splits_are_the_papers_sizes_disjoint_and_stratified():
    _, y = load_adult_uci()
    splits = uci.adu_splits(y, 3, seed=0)
    assert uci.ADU_SPLIT == (33000, 12222)  # [S Table 3.1]: N_CV, N_test
    share = y.mean()  # 24.8% earn >50K
    for train, test in splits:
        assert (len(train), len(test)) == uci.ADU_SPLIT
        assert len(np.intersect1d(train, test)) == 0
        assert len(np.union1d(train, test)) == len(y)  # 33000 + 12222 = 45222
        # stratified: each part's class share within one point of the whole's
        for part in (train, test):
            assert abs(y[part].sum() - share * len(part)) <= 1
    # different splits per randomisation, and the first splits do not depend on n_rand
    assert not np.array_equal(np.sort(splits[0][1]), np.sort(splits[1][1]))
    first = uci.adu_splits(y, 1, seed=0)[0]
    np.testing.assert_array_equal(first[1], splits[0][1])
    # the runner uses them for adu, the 2/3-1/3 splits elsewhere
    np.testing.assert_array_equal(uci.splits_for("adu", y, 1)[0][0], splits[0][0])


def test_adu_tuning_subsample_is_stratified_within_the_training_part():
    _, y = load_adult_uci()
    train, _ = uci.adu_splits(y, 1, seed=0)[0]
    keep = uci._subsample_positions(y[train], 0)
    assert len(keep) == uci.ADU_SUBSAMPLE and len(np.unique(keep)) == len(keep)
    assert keep.max() < len(train)
    assert abs(y[train][keep].sum() - y[train].mean() * len(keep)) <= 1
