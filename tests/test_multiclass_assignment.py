"""MOC class-to-codeword assignments (benchmarks/multiclass_assignment.py) and the
code sizes of [S Table 3.2] (Suykens et al., 2002) checked by the Multiclass chapter."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.multiclass_assignment import moc_with_negative
from lssvm import LSSVMClassifier
from lssvm.multiclass import codebook

# [S Table 3.2]: M, n_y,MOC, n_y,1vs1 as printed (wav's n_y,1vs1 = 2 is a misprint:
# M = 3 classes have M(M-1)/2 = 3 pairs).
TABLE_3_2_CODES = {
    "bal": (3, 2, 3), "cmc": (3, 2, 3), "ims": (7, 3, 21), "iri": (3, 2, 3),
    "led": (10, 4, 45), "thy": (3, 2, 3), "usp": (10, 4, 45), "veh": (4, 2, 6),
    "wav": (3, 2, 2), "win": (3, 2, 3),
}  # fmt: skip


@pytest.mark.parametrize("c", [0, 1, 2])
def test_moc_with_negative_puts_the_all_negative_codeword_on_class_c(c):
    C = moc_with_negative(c)
    assert C.shape == (3, 2)
    np.testing.assert_array_equal(C[c], [-1, -1])
    assert len({tuple(row) for row in C}) == 3  # three distinct codewords


def test_moc_with_negative_zero_is_the_sorted_order():
    np.testing.assert_array_equal(moc_with_negative(0), codebook(3, "moc"))


def test_moc_with_negative_is_the_same_code_as_the_cmc_followup():
    """The construction of table_3_4_followup.py's cmc-assign, for both classes."""
    C3 = codebook(3, "moc")
    for c in (1, 2):
        order = [c] + [k for k in range(3) if k != c]
        C = np.empty_like(C3)
        C[order] = C3
        np.testing.assert_array_equal(moc_with_negative(c), C)


def _canonical(C):
    """C up to the sign and order of its bits: flip each bit so that the unused
    codeword of {-1, +1}^2 becomes (+1, +1), then sort the columns."""
    words = {(a, b) for a in (-1, 1) for b in (-1, 1)}
    unused = np.array(sorted(words - {tuple(row) for row in C})[0])
    D = C * unused  # the unused codeword maps to (+1, +1)
    return tuple(sorted(tuple(col) for col in D.T))


def test_the_three_assignments_are_all_there_are():
    """Every 3-class 2-bit code with distinct codewords (24 of them) equals, up to the
    sign and order of its bits, one of the three moc_with_negative codes."""
    words = [(a, b) for a in (-1, 1) for b in (-1, 1)]
    codes = {_canonical(np.array([words[i], words[j], words[k]]))
             for i in range(4) for j in range(4) for k in range(4)
             if len({i, j, k}) == 3}
    assert codes == {_canonical(moc_with_negative(c)) for c in range(3)}
    assert len(codes) == 3


def test_flipping_a_bit_changes_no_decision(rng):
    X = rng.standard_normal((90, 2)) + np.repeat(np.eye(3, 2) * 3, 30, axis=0)
    y = np.repeat(np.arange(3), 30)
    C = moc_with_negative(1)
    flipped = C * np.array([1, -1])
    a = LSSVMClassifier(gamma=10.0, sigma2=1.0, coding=C).fit(X, y)
    b = LSSVMClassifier(gamma=10.0, sigma2=1.0, coding=flipped).fit(X, y)
    grid = rng.uniform(-3, 6, (500, 2))
    np.testing.assert_array_equal(a.predict(grid), b.predict(grid))


@pytest.mark.parametrize("name", sorted(TABLE_3_2_CODES))
def test_code_sizes_of_table_3_2(name):
    M, n_moc, n_ovo = TABLE_3_2_CODES[name]
    assert codebook(M, "moc").shape[1] == n_moc
    if name == "wav":  # the misprint the chapter's ledger enters as an erratum
        assert codebook(M, "ovo").shape[1] == 3 != n_ovo
    else:
        assert codebook(M, "ovo").shape[1] == n_ovo
