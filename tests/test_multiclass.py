"""Multiclass LS-SVMs, Suykens et al. (2002) section 3.2, (3.8)-(3.14): output codes,
decoding, the block-diagonal KKT system (3.12), per-bit hyper-parameters, tuning."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from lssvm import LSSVMClassifier, LSSVMClassifierCV
from lssvm import classifier as classifier_module
from lssvm import multiclass as mc
from lssvm.kernels import RBF
from lssvm.linalg.kkt import kkt_matrix, kkt_residual, omega
from lssvm.model_selection.closed_form import make_folds

CODINGS = ["ovo", "ova", "moc", "ecoc"]
DECODINGS = ["hamming", "loss", "dag"]
N_CLASSES = range(2, 9)  # M = 2..8

RTOL_SAME = 1e-12  # identical computations (binary fit through any code)
RTOL_SHARED = 1e-10  # one factorisation, several right-hand sides, vs separate solves
RTOL_BLOCK = 1e-8  # the whole (3.12) by numpy.linalg.solve vs the per-bit solves
RTOL_KKT = 1e-10  # relative backward error of a Cholesky solve (as test_classifier)
CV_GRID = dict(gamma=[1, 10], sigma2=[0.5, 2], cv=3)


def _blobs(counts, seed=0, spread=0.9):
    """Gaussian blobs on a circle of radius 2, len(counts) classes, shuffled rows."""
    rng = np.random.default_rng(seed)
    M = len(counts)
    angles = 2 * np.pi * np.arange(M) / M
    centers = 2.0 * np.c_[np.cos(angles), np.sin(angles)]
    blobs = [c + spread * rng.standard_normal((n, 2)) for c, n in zip(centers, counts)]
    X = np.vstack(blobs)
    y = np.repeat(np.arange(M), counts)
    order = rng.permutation(len(y))
    return X[order], y[order]


def _sign(f):
    """The library's sign: +1 for f > 0, -1 otherwise (as binary predict)."""
    return np.where(f > 0, 1, -1)


def _min_row_distance(C):
    d = [np.sum(C[i] != C[k]) for i, k in itertools.combinations(range(len(C)), 2)]
    return min(d)


def _assert_close(actual, expected, rtol):
    """Equal to rtol relative to the largest entry of expected."""
    scale = max(float(np.max(np.abs(expected))), 1.0)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale)


# -- codebooks ------------------------------------------------------------------------


@pytest.mark.parametrize("coding", CODINGS)
@pytest.mark.parametrize("M", N_CLASSES)
def test_codebook_common_properties(M, coding):
    C = mc.codebook(M, coding)
    assert C.ndim == 2 and C.shape[0] == M
    assert np.issubdtype(C.dtype, np.integer)
    assert set(np.unique(C).tolist()) <= {-1, 0, 1}
    assert len({tuple(row) for row in C}) == M  # distinct codewords
    for j in range(C.shape[1]):
        assert np.any(C[:, j] == 1) and np.any(C[:, j] == -1), j
    np.testing.assert_array_equal(mc.check_codebook(C, M), C)


@pytest.mark.parametrize("coding", CODINGS)
def test_two_classes_every_code_is_the_binary_bit(coding):
    # Documented: for M = 2 every code (also "ova", which would otherwise have M = 2
    # complementary bits) is the single bit [-1, +1]^T, the binary LS-SVM.
    np.testing.assert_array_equal(mc.codebook(2, coding), [[-1], [1]])


@pytest.mark.parametrize("M", N_CLASSES)
def test_moc_is_the_binary_expansion(M):
    C = mc.codebook(M, "moc")
    assert C.shape == (M, math.ceil(math.log2(M)))
    assert np.all(C != 0)
    bits = (C + 1) // 2  # -1 -> 0, +1 -> 1
    np.testing.assert_array_equal(bits @ (2 ** np.arange(C.shape[1])), np.arange(M))


@pytest.mark.parametrize("M", N_CLASSES)
def test_ovo_has_one_column_per_pair(M):
    C = mc.codebook(M, "ovo")
    assert C.shape == (M, M * (M - 1) // 2)
    pairs = []
    for j in range(C.shape[1]):
        nz = np.flatnonzero(C[:, j])
        assert len(nz) == 2
        assert sorted(C[nz, j].tolist()) == [-1, 1]
        pairs.append(tuple(nz))
    assert sorted(pairs) == list(itertools.combinations(range(M), 2))  # each once
    assert mc.is_one_vs_one(C)


@pytest.mark.parametrize("M", range(3, 9))
def test_ova_has_one_plus_per_column(M):
    C = mc.codebook(M, "ova")
    assert C.shape == (M, M)
    assert np.all(C != 0)
    np.testing.assert_array_equal(np.sum(C == 1, axis=0), np.ones(M))
    np.testing.assert_array_equal(np.argmax(C, axis=0), np.arange(M))  # bit j: class j
    assert not mc.is_one_vs_one(C)


@pytest.mark.parametrize("M", N_CLASSES)
def test_ecoc_default_length(M):
    C = mc.codebook(M, "ecoc")
    assert C.shape == (M, min(math.ceil(10 * math.log2(M)), 2 ** (M - 1) - 1))
    assert np.all(C != 0)  # dense code


@pytest.mark.parametrize("M", range(3, 9))
def test_ecoc_columns_neither_repeated_nor_complementary(M):
    C = mc.codebook(M, "ecoc")
    for j, k in itertools.combinations(range(C.shape[1]), 2):
        assert not np.array_equal(C[:, j], C[:, k]), (j, k)
        assert not np.array_equal(C[:, j], -C[:, k]), (j, k)


@pytest.mark.parametrize("M", range(3, 9))
def test_ecoc_min_distance_at_least_one_vs_all(M):
    ova = _min_row_distance(mc.codebook(M, "ova"))
    assert ova == 2
    assert _min_row_distance(mc.codebook(M, "ecoc")) >= ova


@pytest.mark.parametrize("M", [3, 4, 5])
def test_ecoc_is_exhaustive_for_small_m(M):
    # 2^(M-1) - 1 <= ceil(10 log2 M): every useful column, once (up to sign).
    C = mc.codebook(M, "ecoc")
    normalised = {tuple(c * -c[0]) for c in C.T}  # class 0 coded -1
    assert len(normalised) == C.shape[1] == 2 ** (M - 1) - 1
    every = {
        (-1,) + rest
        for rest in itertools.product((-1, 1), repeat=M - 1)
        if set(rest) != {-1}
    }
    assert normalised == every


def test_ecoc_is_seeded():
    C0 = mc.codebook(8, "ecoc", random_state=0)
    np.testing.assert_array_equal(mc.codebook(8, "ecoc", random_state=0), C0)
    C1 = mc.codebook(8, "ecoc", random_state=1)
    assert C1.shape == C0.shape and not np.array_equal(C1, C0)


@pytest.mark.parametrize("M", [6, 7, 8])
def test_ecoc_keeps_the_best_draw(M):
    # The best of n_candidates seeded draws: the first k draws are the same for every
    # n_candidates >= k, so the minimal distance cannot decrease with n_candidates.
    dists = [
        _min_row_distance(mc.codebook(M, "ecoc", n_candidates=k, random_state=0))
        for k in (1, 10, 100, 1000)
    ]
    assert dists == sorted(dists)
    assert dists[-1] > dists[0]  # the search does improve on a single draw here
    assert _min_row_distance(mc.codebook(M, "ecoc")) == dists[-1]  # default: 1000


def test_classifier_ecoc_uses_random_state():
    X, y = _blobs([10] * 8, seed=3)
    clf = LSSVMClassifier(coding="ecoc", random_state=1).fit(X, y)
    np.testing.assert_array_equal(clf.codebook_, mc.codebook(8, "ecoc", random_state=1))
    assert clf.n_factorizations_ == 1  # dense code: every bit on every row


def test_ecoc_with_too_few_bits_raises():
    with pytest.raises(ValueError, match="distinct codewords"):
        mc.codebook(8, "ecoc", n_bits=2)


def test_book_three_class_one_vs_one_example():
    # Section 3.2 / Table 3.4: the vectors [-1; +1; 0], [-1; 0; +1], [0; -1; +1].
    C = mc.codebook(3, "ovo")
    np.testing.assert_array_equal(C[:, 0], [-1, 1, 0])
    np.testing.assert_array_equal(C[:, 1], [-1, 0, 1])
    np.testing.assert_array_equal(C[:, 2], [0, -1, 1])


@pytest.mark.parametrize(
    "C, n_classes, match",
    [
        ([[-1], [1]], 3, "has 2 rows but there are 3 classes"),
        ([[-1, 2], [1, -1], [0, 1]], 3, r"entries must be -1, 0 or \+1"),
        ([[-1, 0.5], [1, -1], [0, 1]], 3, r"entries must be -1, 0 or \+1"),
        ([[-1, 1], [1, 1], [0, 1]], 3, "Column 1 .* both a \\+1 and a -1"),
        ([[-1, 0], [1, -1], [0, -1]], 3, "Column 1 .* both a \\+1 and a -1"),
        ([[-1, -1], [1, 1], [-1, -1]], 3, "must be distinct"),
        ([-1, 1, 0], 3, "2-D and non-empty"),
    ],
    ids=["rows", "entry-2", "entry-half", "no-minus", "no-plus", "repeated", "1d"],
)
def test_check_codebook_errors(C, n_classes, match):
    with pytest.raises(ValueError, match=match):
        mc.check_codebook(C, n_classes)
    X, y = _blobs([8] * n_classes)
    with pytest.raises(ValueError, match=match):  # the classifier's coding too
        LSSVMClassifier(coding=np.array(C)).fit(X, y)


@pytest.mark.parametrize(
    "args, match",
    [
        ((1, "ovo"), "n_classes must be >= 2"),
        ((3.0, "ovo"), "n_classes must be an int"),
        ((3, "1vs1"), "coding must be one of"),
    ],
)
def test_codebook_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        mc.codebook(*args)


# -- decoding -------------------------------------------------------------------------


def test_hamming_distance_counts_zero_as_half():
    C = mc.codebook(3, "ovo")  # rows [-1,-1,0], [1,0,-1], [0,1,1]
    H = mc.hamming_distance(np.array([[0.3, 2.0, 1.0], [-1.0, 0.0, -5.0]]), C)
    # row 1: signs (+,+,+); row 2: signs (-,-,-) (f = 0 counts as -1)
    np.testing.assert_array_equal(H, [[2.5, 1.5, 0.5], [0.5, 1.5, 2.5]])


@pytest.mark.parametrize("coding", ["ovo", "ova", "ecoc"])
def test_hamming_distance_by_hand(coding, rng):
    C = mc.codebook(5, coding)
    F = rng.standard_normal((30, C.shape[1]))
    expected = np.array(
        [
            [
                sum(0.5 if c == 0 else float(c != s) for c, s in zip(row, _sign(f)))
                for row in C
            ]
            for f in F
        ]
    )
    np.testing.assert_array_equal(mc.hamming_distance(F, C), expected)


def test_loss_distance_by_hand():
    C = mc.codebook(3, "ovo")  # rows [-1,-1,0], [1,0,-1], [0,1,1]
    f = np.array([[0.5, -2.0, 0.3]])
    # class 0: (-1-0.5)^2 + (-1+2)^2 + 1;  class 1: (1-0.5)^2 + 1 + (-1-0.3)^2;
    # class 2: 1 + (1+2)^2 + (1-0.3)^2  (a zero entry adds 1)
    expected = [[2.25 + 1 + 1, 0.25 + 1 + 1.69, 1 + 9 + 0.49]]
    np.testing.assert_allclose(mc.loss_distance(f, C), expected, rtol=1e-14)
    np.testing.assert_array_equal(mc.decode(f, C, "loss"), [1])
    # other targets per class and bit (e.g. LS-SVM_F's): the zero entries still add 1
    T = np.array([[-2.0, -3.0, 0.0], [2.0, 0.0, -1.5], [0.0, 3.0, 1.5]])
    expected_T = [[6.25 + 1 + 1, 2.25 + 1 + 3.24, 1 + 25 + 1.44]]
    np.testing.assert_allclose(mc.loss_distance(f, C, T), expected_T, rtol=1e-14)


@pytest.mark.parametrize("M", [4, 5])
def test_ovo_hamming_is_max_wins_voting(M, rng):
    C = mc.codebook(M, "ovo")
    F = rng.standard_normal((300, C.shape[1]))
    votes = np.zeros((len(F), M), dtype=int)
    for col in range(C.shape[1]):
        i, j = np.flatnonzero(C[:, col])
        winner_j = _sign(F[:, col]) == C[j, col]  # the sign points at the winner
        votes[winner_j, j] += 1
        votes[~winner_j, i] += 1
    assert np.all(votes.sum(axis=1) == C.shape[1])
    unique = np.sum(votes == votes.max(axis=1, keepdims=True), axis=1) == 1
    assert unique.sum() > 100  # the comparison is not vacuous
    decoded = mc.decode(F, C, "hamming")
    np.testing.assert_array_equal(decoded[unique], np.argmax(votes[unique], axis=1))
    # on tied votes the decoded class is still one of the leaders
    leaders = votes == votes.max(axis=1, keepdims=True)
    assert np.all(leaders[np.arange(len(F)), decoded])


@pytest.mark.parametrize(
    "f, winner",
    [
        ([-0.1, 0.9, -0.5], 1),  # loss-based distances 5.42, 2.46, 3.26
        ([-0.9, 0.9, -0.1], 2),  # 4.62, 5.42, 2.22
        ([-0.9, 0.1, -0.5], 0),  # 2.22, 4.86, 4.06
    ],
)
def test_cyclic_tie_goes_to_smaller_loss(f, winner):
    # Class 0 beats 1 (bit 0 < 0), 2 beats 0 (bit 1 > 0), 1 beats 2 (bit 2 < 0): one
    # win each, equal Hamming distances; the loss-based distance decides.
    C = mc.codebook(3, "ovo")
    f = np.array([f])
    H = mc.hamming_distance(f, C)
    np.testing.assert_array_equal(H, [[1.5, 1.5, 1.5]])
    L = mc.loss_distance(f, C)
    assert np.argmin(L[0]) == winner and np.sum(L[0] == L[0].min()) == 1
    np.testing.assert_array_equal(mc.decode(f, C, "hamming"), [winner])


@pytest.mark.parametrize(
    "decoding, f",
    [
        ("hamming", [-0.4, 0.4, -0.4]),  # the cyclic tie with equal losses
        ("loss", [0.0, 0.0, 0.0]),  # f = 0 is equally far from every codeword
    ],
)
def test_exact_tie_goes_to_first_class(decoding, f):
    C = mc.codebook(3, "ovo")
    f = np.array([f])
    scores = mc.class_scores(f, C, decoding)
    np.testing.assert_array_equal(scores, np.full((1, 3), scores[0, 0]))
    np.testing.assert_array_equal(mc.decode(f, C, decoding), [0])


def _dag_by_hand(f, C):
    """Platt's DAG as list elimination: the bit of (first, last) removes the loser."""
    classes = list(range(C.shape[0]))
    while len(classes) > 1:
        i, j = classes[0], classes[-1]
        (col,) = [
            c for c in range(C.shape[1]) if set(np.flatnonzero(C[:, c])) == {i, j}
        ]
        s = 1 if f[col] > 0 else -1
        classes.remove(j if C[i, col] == s else i)
    return classes[0]


@pytest.mark.parametrize("M", [4, 5])
@pytest.mark.parametrize("shuffled", [False, True], ids=["ovo", "permuted-flipped"])
def test_dag_equals_list_elimination(M, shuffled, rng):
    C = mc.codebook(M, "ovo")
    if shuffled:  # an explicit 1vs1 code: columns permuted, some signs flipped
        C = C[:, rng.permutation(C.shape[1])] * rng.choice([-1, 1], C.shape[1])
    F = rng.standard_normal((200, C.shape[1]))
    F[:5] = 0.0  # sign(0) = -1 as everywhere
    expected = [_dag_by_hand(f, C) for f in F]
    np.testing.assert_array_equal(mc.decode(F, C, "dag"), expected)
    scores = mc.class_scores(F, C, "dag")
    np.testing.assert_array_equal(scores.sum(axis=1), 1.0)  # one-hot
    np.testing.assert_array_equal(scores[np.arange(len(F)), expected], 1.0)


@pytest.mark.parametrize("coding", ["ova", "moc", "ecoc"])
def test_dag_on_non_one_vs_one_code_raises(coding):
    C = mc.codebook(4, coding)
    with pytest.raises(ValueError, match="needs a one-versus-one code"):
        mc.decode(np.zeros((2, C.shape[1])), C, "dag")
    X, y = _blobs([8] * 4)
    with pytest.raises(ValueError, match="decoding='dag' needs a one-versus-one code"):
        LSSVMClassifier(coding=coding, decoding="dag").fit(X, y)


@pytest.mark.parametrize(
    "coding, decoding",
    [(c, d) for c in CODINGS for d in DECODINGS if d != "dag" or c == "ovo"],
)
def test_class_scores_argmax_is_the_decoded_class(coding, decoding, rng):
    C = mc.codebook(5, coding)
    F = rng.standard_normal((200, C.shape[1]))
    scores = mc.class_scores(F, C, decoding)
    assert scores.shape == (200, 5)
    decoded = mc.decode(F, C, decoding)
    np.testing.assert_array_equal(np.argmax(scores, axis=1), decoded)
    # and that class is the one the rule chooses, recomputed independently
    H, L = mc.hamming_distance(F, C), mc.loss_distance(F, C)
    if decoding == "hamming":  # smallest H, then smallest L, then first class
        expected = [np.lexsort((np.arange(5), L[k], H[k]))[0] for k in range(len(F))]
    elif decoding == "loss":
        expected = np.argmin(L, axis=1)
    else:
        expected = [_dag_by_hand(f, C) for f in F]
    np.testing.assert_array_equal(decoded, expected)


def test_unknown_decoding_raises():
    with pytest.raises(ValueError, match="decoding must be one of"):
        mc.class_scores(np.zeros((1, 3)), mc.codebook(3), "vote")
    X, y = _blobs([8] * 3)
    with pytest.raises(ValueError, match="LSSVMClassifier: decoding must be one of"):
        LSSVMClassifier(decoding="vote").fit(X, y)


# -- two classes: the binary LS-SVM whatever the code ---------------------------------


@pytest.mark.parametrize("decoding", DECODINGS)
@pytest.mark.parametrize("coding", CODINGS)
def test_two_classes_equal_the_binary_classifier(classification_data, coding, decoding):
    X, y = classification_data
    X_test = np.random.default_rng(5).standard_normal((20, X.shape[1]))
    params = dict(gamma=3.0, sigma2=2.0)
    binary = LSSVMClassifier(**params).fit(X, y)
    clf = LSSVMClassifier(coding=coding, decoding=decoding, **params).fit(X, y)
    np.testing.assert_array_equal(clf.codebook_, [[-1], [1]])
    assert clf.alpha_.shape == (len(X),) and isinstance(clf.b_, float)
    _assert_close(clf.alpha_, binary.alpha_, RTOL_SAME)
    assert clf.b_ == pytest.approx(binary.b_, rel=RTOL_SAME, abs=RTOL_SAME)
    _assert_close(
        clf.decision_function(X_test), binary.decision_function(X_test), RTOL_SAME
    )
    np.testing.assert_array_equal(clf.predict(X_test), binary.predict(X_test))
    np.testing.assert_array_equal(clf.predict(X), binary.predict(X))


def test_two_classes_flipped_explicit_code(classification_data):
    X, y = classification_data
    default = LSSVMClassifier(gamma=3.0).fit(X, y)
    flipped = LSSVMClassifier(gamma=3.0, coding=np.array([[1], [-1]])).fit(X, y)
    np.testing.assert_array_equal(flipped.predict(X), default.predict(X))
    # the flipped bit is the default bit negated; the decision keeps its meaning
    np.testing.assert_array_equal(
        np.sign(flipped.decision_function(X)), np.sign(default.decision_function(X))
    )


def test_two_classes_explicit_code_with_two_bits(classification_data):
    X, y = classification_data
    clf = LSSVMClassifier(coding=np.array([[-1, -1], [1, 1]])).fit(X, y)
    assert clf.bit_outputs(X).shape == (len(X), 2)
    assert clf.score(X, y) > 0.8


# -- (3.12): block diagonal, shared factorisations ------------------------------------


def _binary_fit(X, labels, **params):
    """A binary LSSVMClassifier on +-1 labels (-1 is classes_[0], coded -1)."""
    clf = LSSVMClassifier(**params).fit(X, labels)
    np.testing.assert_array_equal(clf.classes_, [-1, 1])
    return clf


def _assert_bits_equal_separate_fits(clf, X, y, X_test, per_bit_params):
    """Every bit's (alpha, dual_coef, b, e, latent) equals a separate binary fit."""
    Y = mc.encode(y, clf.codebook_)
    latent = clf.bit_outputs(X_test)
    for j in range(Y.shape[1]):
        rows = np.flatnonzero(Y[:, j])
        binary = _binary_fit(X[rows], Y[rows, j], **per_bit_params[j])
        _assert_close(clf.dual_coef_[rows, j], binary.dual_coef_, RTOL_SHARED)
        _assert_close(clf.alpha_[rows, j], binary.alpha_, RTOL_SHARED)
        _assert_close(clf.e_[rows, j], binary.e_, RTOL_SHARED)
        assert clf.b_[j] == pytest.approx(binary.b_, rel=RTOL_SHARED, abs=RTOL_SHARED)
        unused = Y[:, j] == 0
        assert np.all(clf.alpha_[unused, j] == 0)
        assert np.all(clf.dual_coef_[unused, j] == 0)
        _assert_close(latent[:, j], binary.decision_function(X_test), RTOL_SHARED)


@pytest.mark.parametrize("coding", ["ova", "ecoc", "moc"])
def test_shared_factorisation_equals_separate_solves(coding):
    X, y = _blobs([15, 20, 25, 18])
    X_test = np.random.default_rng(1).standard_normal((15, 2))
    params = dict(gamma=5.0, sigma2=1.5)
    clf = LSSVMClassifier(coding=coding, **params).fit(X, y)
    n_bits = clf.codebook_.shape[1]
    assert n_bits == {"ova": 4, "ecoc": 7, "moc": 2}[coding]
    assert clf.n_factorizations_ == 1
    assert clf.alpha_.shape == clf.dual_coef_.shape == clf.e_.shape == (len(X), n_bits)
    assert clf.b_.shape == (n_bits,)
    _assert_bits_equal_separate_fits(clf, X, y, X_test, [params] * n_bits)


def test_one_vs_one_bits_are_fits_on_their_two_classes():
    X, y = _blobs([15, 20, 25, 18])
    X_test = np.random.default_rng(1).standard_normal((15, 2))
    params = dict(gamma=5.0, sigma2=1.5)
    clf = LSSVMClassifier(coding="ovo", **params).fit(X, y)
    assert clf.codebook_.shape == (4, 6)
    assert clf.n_factorizations_ == 6  # one per pair: different rows
    _assert_bits_equal_separate_fits(clf, X, y, X_test, [params] * 6)


def test_two_gammas_two_factorisations():
    X, y = _blobs([15, 20, 25, 18])
    X_test = np.random.default_rng(1).standard_normal((15, 2))
    bit_params = [{"gamma": 1.0}, {"gamma": 20.0}, {"gamma": 1.0}, {"gamma": 20.0}]
    clf = LSSVMClassifier(coding="ova", sigma2=1.5, bit_params=bit_params).fit(X, y)
    assert clf.n_factorizations_ == 2
    np.testing.assert_array_equal(clf.gammas_, [1.0, 20.0, 1.0, 20.0])
    assert clf.kernel_ == RBF(1.5)  # same kernel for every bit
    per_bit = [{"sigma2": 1.5, **p} for p in bit_params]
    _assert_bits_equal_separate_fits(clf, X, y, X_test, per_bit)
    np.testing.assert_allclose(clf.e_, clf.alpha_ / clf.gammas_, rtol=1e-15)


def test_block_diagonal_system_3_12_as_one_matrix():
    # (3.12): [[0, Y_M^T], [Y_M, Omega_M + D_M]] [b_M; alpha_M] = [0; 1_v], built
    # whole (n_y + n_y N unknowns) and solved densely.
    X, y = _blobs([15, 20, 25], seed=2)
    N, gammas, sigma2s = len(y), [2.0, 30.0], [0.7, 3.0]
    bit_params = [{"gamma": g, "sigma2": s} for g, s in zip(gammas, sigma2s)]
    clf = LSSVMClassifier(coding="moc", bit_params=bit_params).fit(X, y)
    Yb = mc.encode(y, clf.codebook_).astype(float)  # (N, n_y), no zeros for MOC
    n_y = Yb.shape[1]
    assert n_y == 2 and np.all(Yb != 0)
    A = np.zeros((n_y + n_y * N, n_y + n_y * N))
    for i in range(n_y):
        blk = slice(n_y + i * N, n_y + (i + 1) * N)
        A[i, blk] = Yb[:, i]  # Y_M^T
        A[blk, i] = Yb[:, i]  # Y_M
        Omega = np.outer(Yb[:, i], Yb[:, i]) * RBF(sigma2s[i])(X)  # (3.12)-(3.13)
        A[blk, blk] = Omega + np.eye(N) / gammas[i]  # Omega^(i) + D^(i)
    rhs = np.r_[np.zeros(n_y), np.ones(n_y * N)]
    sol = np.linalg.solve(A, rhs)
    b_M, alpha_M = sol[:n_y], sol[n_y:].reshape(n_y, N).T
    _assert_close(clf.alpha_, alpha_M, RTOL_BLOCK)
    _assert_close(clf.b_, b_M, RTOL_BLOCK)
    # each diagonal block is the bordered matrix of its bit (lssvm.linalg.kkt)
    for i in range(n_y):
        Omega = omega(RBF(sigma2s[i])(X), Yb[:, i])
        idx = np.r_[i, n_y + i * N + np.arange(N)]
        np.testing.assert_array_equal(
            A[np.ix_(idx, idx)], kkt_matrix(Omega, gammas[i], Yb[:, i])
        )


@pytest.mark.parametrize("coding", CODINGS)
def test_each_bit_satisfies_its_kkt_system(coding):
    X, y = _blobs([15, 20, 25, 18], seed=4)
    clf = LSSVMClassifier(coding=coding, gamma=4.0, sigma2=1.0).fit(X, y)
    Y = mc.encode(y, clf.codebook_).astype(float)
    for j in range(Y.shape[1]):
        rows = np.flatnonzero(Y[:, j])
        yj = Y[rows, j]
        K = clf.kernels_[j](X[rows])
        res = kkt_residual(
            omega(K, yj), clf.gammas_[j], yj, np.ones(len(rows)),
            clf.alpha_[rows, j], clf.b_[j],
        )  # fmt: skip
        assert res < RTOL_KKT, (j, res)
        assert abs(yj @ clf.alpha_[rows, j]) < RTOL_KKT * np.abs(clf.alpha_).sum()


# -- per-bit hyper-parameters ---------------------------------------------------------


def test_bit_params_give_each_bit_its_kernel():
    X, y = _blobs([15, 20, 25], seed=1)
    X_test = np.random.default_rng(2).standard_normal((12, 2))
    bit_params = [
        {"sigma2": 0.5},
        {"sigma2": 4.0, "gamma": 50.0},
        {"kernel": "poly", "degree": 2, "tau": 0.5},
    ]
    clf = LSSVMClassifier(gamma=2.0, bit_params=bit_params).fit(X, y)  # ovo: 3 bits
    assert clf.kernel_ is None
    assert clf.kernels_[0] == RBF(0.5) and clf.kernels_[1] == RBF(4.0)
    assert clf.kernels_[0] != clf.kernels_[1]
    assert type(clf.kernels_[2]).__name__ == "Polynomial"
    np.testing.assert_array_equal(clf.gammas_, [2.0, 50.0, 2.0])
    per_bit = [{"gamma": 2.0, **p} for p in bit_params]
    _assert_bits_equal_separate_fits(clf, X, y, X_test, per_bit)
    # predictions decode the separate fits' outputs
    Y = mc.encode(y, clf.codebook_)
    latent = np.empty((len(X_test), 3))
    for j in range(3):
        rows = Y[:, j] != 0
        binary = _binary_fit(X[rows], Y[rows, j], **per_bit[j])
        latent[:, j] = binary.decision_function(X_test)
    np.testing.assert_array_equal(clf.predict(X_test), mc.decode(latent, clf.codebook_))


class _WidthRBF:
    """A callable RBF kernel whose repr does not show its width: two of them with
    different widths print alike but are different kernels (``==`` is identity)."""

    def __init__(self, sigma2):
        self.sigma2 = sigma2

    def __call__(self, X, Z):
        sq = (X**2).sum(1)[:, None] + (Z**2).sum(1)[None, :] - 2 * X @ Z.T
        return np.exp(-np.maximum(sq, 0.0) / self.sigma2)

    def __repr__(self):
        return "_WidthRBF()"


def test_kernels_that_print_alike_stay_apart():
    """Bits are grouped by kernel ``==``, not by repr: each bit is predicted with its
    own kernel (a repr grouping predicted bit 1 with bit 0's kernel)."""
    X, y = _blobs([15, 20, 25], seed=1)
    X_test = np.random.default_rng(2).standard_normal((12, 2))
    narrow, wide = _WidthRBF(0.3), _WidthRBF(5.0)
    bit_params = [{"kernel": narrow}, {"kernel": wide}, {"kernel": narrow}]
    clf = LSSVMClassifier(gamma=2.0, bit_params=bit_params).fit(X, y)  # ovo: 3 bits
    assert repr(clf.kernels_[0]) == repr(clf.kernels_[1])
    assert clf.kernels_[0] != clf.kernels_[1] and clf.kernels_[0] == clf.kernels_[2]
    per_bit = [{"gamma": 2.0, **p} for p in bit_params]
    _assert_bits_equal_separate_fits(clf, X, y, X_test, per_bit)
    # the held-out check of the fit groups the same way
    assert [bits for _, bits in classifier_module._kernel_groups(clf.kernels_)] == [
        [0, 2], [1]
    ]


@pytest.mark.parametrize(
    "bit_params, match",
    [
        ([{"gamma": 1.0}] * 2, "bit_params has 2 entries but the code has 3 bits"),
        ([{}] * 4, "bit_params has 4 entries but the code has 3 bits"),
        ([{}, {"C": 1.0}, {}], r"bit_params\[1\] has unknown keys \['C'\]"),
        ([{}, {}, {"gamma": -1.0}], "gamma must be a positive float"),
        ([{}, {}, {"sigma2": 0.0}], "sigma2 must be"),
    ],
    ids=["too-few", "too-many", "unknown-key", "bad-gamma", "bad-sigma2"],
)
def test_bad_bit_params_raise(bit_params, match):
    X, y = _blobs([8, 8, 8])
    with pytest.raises(ValueError, match=match):
        LSSVMClassifier(bit_params=bit_params).fit(X, y)


# -- LS-SVM_F targets (3.23) per bit --------------------------------------------------


def test_fisher_bit_targets():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 50)
    for coding in CODINGS:
        C = mc.codebook(4, coding)
        Y = mc.encode(y, C)
        T = mc.bit_targets(Y, "fisher")
        for j in range(C.shape[1]):
            used = Y[:, j] != 0
            n1, n2 = np.sum(Y[:, j] > 0), np.sum(Y[:, j] < 0)
            n = n1 + n2  # counted within the bit's rows
            np.testing.assert_allclose(T[Y[:, j] > 0, j], n / n1, rtol=1e-15)
            np.testing.assert_allclose(T[Y[:, j] < 0, j], -n / n2, rtol=1e-15)
            assert np.all(T[~used, j] == 0)
            assert abs(T[used, j].sum()) < 1e-12 * n
        np.testing.assert_array_equal(mc.bit_targets(Y, "pm1"), Y)
    with pytest.raises(ValueError, match="targets must be 'pm1' or 'fisher'"):
        mc.bit_targets(Y, "fda")


@pytest.mark.parametrize("coding", ["ovo", "ova"])
def test_fisher_fit_is_an_affine_map_of_the_pm1_fit(coding):
    # Regression form of each bit: [[0, 1^T], [1, H]] [b; beta] = [0; z]. For z = 1_v
    # the solution is b = 1, beta = 0; LS-SVM_F's targets z = c1 y + c0 1_v with
    # c1 = (N/N1 + N/N2)/2, c0 = (N/N1 - N/N2)/2, so by linearity
    # beta_F = c1 beta, b_F = c1 b + c0, alpha_F = c1 alpha, latent_F = c1 f + c0.
    X, y = _blobs([12, 20, 28], seed=5)
    X_test = np.random.default_rng(4).standard_normal((15, 2))
    params = dict(gamma=3.0, sigma2=1.0, coding=coding)
    pm1 = LSSVMClassifier(**params).fit(X, y)
    fis = LSSVMClassifier(targets="fisher", **params).fit(X, y)
    Y = mc.encode(y, pm1.codebook_)
    n1, n2 = np.sum(Y > 0, axis=0), np.sum(Y < 0, axis=0)
    n = n1 + n2
    c1, c0 = (n / n1 + n / n2) / 2, (n / n1 - n / n2) / 2
    assert np.all(np.abs(c0) > 0.05)  # unbalanced bits: a real shift
    _assert_close(fis.dual_coef_, c1 * pm1.dual_coef_, RTOL_SHARED)
    _assert_close(fis.alpha_, c1 * pm1.alpha_, RTOL_SHARED)
    _assert_close(fis.b_, c1 * pm1.b_ + c0, RTOL_SHARED)
    _assert_close(fis.bit_outputs(X_test), c1 * pm1.bit_outputs(X_test) + c0, 1e-9)
    # each bit solves the classifier form of (3.23): right-hand side t = |z|
    T = mc.bit_targets(Y, "fisher")
    for j in range(Y.shape[1]):
        rows = np.flatnonzero(Y[:, j])
        yj = Y[rows, j].astype(float)
        K = fis.kernels_[j](X[rows])
        res = kkt_residual(
            omega(K, yj), 3.0, yj, np.abs(T[rows, j]), fis.alpha_[rows, j], fis.b_[j]
        )
        assert res < RTOL_KKT
    # targets of each class on each bit, used by loss decoding
    np.testing.assert_allclose(
        fis.code_targets_,
        np.where(pm1.codebook_ > 0, n / n1, np.where(pm1.codebook_ < 0, -n / n2, 0.0)),
        rtol=1e-15,
    )
    np.testing.assert_array_equal(pm1.code_targets_, pm1.codebook_)
    assert fis.score(X, y) > 0.8


def test_fisher_two_classes_is_the_shifted_binary(classification_data):
    X, y = classification_data
    pm1 = LSSVMClassifier(gamma=3.0).fit(X, y)
    fis = LSSVMClassifier(gamma=3.0, targets="fisher").fit(X, y)
    n1, n2 = np.sum(y > 0), np.sum(y < 0)
    n = n1 + n2
    c1, c0 = (n / n1 + n / n2) / 2, (n / n1 - n / n2) / 2
    _assert_close(fis.decision_function(X), c1 * pm1.decision_function(X) + c0, 1e-9)


def test_bad_targets_raise():
    X, y = _blobs([8, 8, 8])
    with pytest.raises(ValueError, match="targets must be 'pm1' or 'fisher'"):
        LSSVMClassifier(targets="lsq").fit(X, y)


# -- labels and the estimator contract -----------------------------------------------


@pytest.mark.parametrize(
    "coding, decoding",
    [(c, "hamming") for c in CODINGS] + [("ovo", "loss"), ("ovo", "dag")],
)
def test_string_labels_three_classes(coding, decoding):
    X, y = _blobs([15, 20, 25])
    names = np.array(["cat", "dog", "emu"])
    y_str = names[y]
    clf = LSSVMClassifier(coding=coding, decoding=decoding, sigma2=2.0).fit(X, y_str)
    np.testing.assert_array_equal(clf.classes_, names)
    X_test = np.random.default_rng(6).uniform(-3, 3, (40, 2))
    pred = clf.predict(X_test)
    assert set(pred.tolist()) <= set(names.tolist())
    scores = clf.decision_function(X_test)
    assert scores.shape == (40, 3)
    np.testing.assert_array_equal(pred, names[np.argmax(scores, axis=1)])
    # the same model as with integer labels, renamed
    ints = LSSVMClassifier(coding=coding, decoding=decoding, sigma2=2.0).fit(X, y)
    np.testing.assert_array_equal(pred, names[ints.predict(X_test)])
    assert clf.score(X, y_str) > 0.8


@parametrize_with_checks(
    [
        LSSVMClassifier(coding="moc"),
        LSSVMClassifier(coding="ova"),
        LSSVMClassifier(coding="ecoc"),
        LSSVMClassifier(decoding="loss"),
        LSSVMClassifier(decoding="dag"),
    ]
)
def test_sklearn_compatible_multiclass(estimator, check):
    check(estimator)


# -- LSSVMClassifierCV: one search per bit -------------------------------------------


def _folds_as_splits(folds, n):
    everything = np.arange(n)
    return [(np.setdiff1d(everything, test), test) for test in folds]


@pytest.mark.parametrize("coding", CODINGS)
def test_cv_tunes_each_bit_as_its_binary_problem(coding):
    X, y = _blobs([20, 25, 30], seed=4, spread=1.2)
    cv = LSSVMClassifierCV(coding=coding, **CV_GRID).fit(X, y)
    C = cv.best_estimator_.codebook_
    n_bits = C.shape[1]
    bit_params = cv.best_params_["bit_params"]
    assert set(cv.best_params_) == {"bit_params"}
    assert len(bit_params) == n_bits and len(cv.cv_results_) == n_bits
    assert cv.n_splits_ == 3
    Y = mc.encode(y, C)
    best_scores = []
    for j in range(n_bits):
        rows = np.flatnonzero(Y[:, j])
        if coding == "ovo":  # StratifiedKFold(3) on the two classes = on their +-1
            splits = 3
            for a, b in zip(
                make_folds(3, X[rows], y[rows], classifier=True),
                make_folds(3, X[rows], Y[rows, j], classifier=True),
            ):
                np.testing.assert_array_equal(a, b)
        else:  # every bit on all rows, folds stratified by class (as the library)
            splits = _folds_as_splits(make_folds(3, X, y, classifier=True), len(y))
        grid = {**CV_GRID, "cv": splits}
        binary = LSSVMClassifierCV(**grid).fit(X[rows], Y[rows, j])
        assert bit_params[j] == binary.best_params_, j
        assert isinstance(cv.cv_results_[j], dict)
        assert cv.cv_results_[j]["params"] == binary.cv_results_["params"]
        np.testing.assert_allclose(
            cv.cv_results_[j]["mean_test_score"],
            binary.cv_results_["mean_test_score"],
            rtol=1e-12,
        )
        best_scores.append(binary.best_score_)
    assert cv.best_score_ == pytest.approx(np.mean(best_scores), rel=1e-12)
    # the tuned bits differ (else this test would not see a per-bit mix-up)
    assert len({tuple(sorted(p.items())) for p in bit_params}) > 1
    # the refit is LSSVMClassifier(bit_params=...)
    X_test = np.random.default_rng(8).uniform(-3, 3, (30, 2))
    refit = LSSVMClassifier(coding=coding, bit_params=bit_params).fit(X, y)
    np.testing.assert_array_equal(cv.predict(X_test), refit.predict(X_test))
    np.testing.assert_array_equal(
        cv.best_estimator_.predict(X_test), refit.predict(X_test)
    )
    _assert_close(cv.decision_function(X_test), refit.decision_function(X_test), 1e-12)


def test_cv_shrinking_search_on_three_classes():
    X, y = _blobs([20, 25, 30], seed=4, spread=1.2)
    cv = LSSVMClassifierCV(search="shrinking", n_refinements=2, **CV_GRID).fit(X, y)
    bit_params = cv.best_params_["bit_params"]
    assert len(bit_params) == 3 and len(cv.cv_results_) == 3
    for result in cv.cv_results_:
        np.testing.assert_array_equal(np.unique(result["stage"]), [0, 1, 2])
        assert len(result["params"]) == 4 + 2 * 25
    for p in bit_params:
        assert set(p) == {"gamma", "sigma2"} and p["gamma"] > 0 and p["sigma2"] > 0
    # bit 0 (classes 0 vs 1) equals the binary shrinking search on its rows
    Y = mc.encode(y, cv.best_estimator_.codebook_)
    rows = np.flatnonzero(Y[:, 0])
    binary = LSSVMClassifierCV(search="shrinking", n_refinements=2, **CV_GRID)
    binary.fit(X[rows], Y[rows, 0])
    assert bit_params[0] == binary.best_params_
    refit = LSSVMClassifier(bit_params=bit_params).fit(X, y)
    np.testing.assert_array_equal(cv.predict(X), refit.predict(X))
    assert cv.score(X, y) > 0.8


# -- one (gamma, sigma2) for all bits, by the decoded CV accuracy ---------------------


def test_shared_tuning_refuses_codes_with_zeros():
    X, y = _blobs([20, 20, 20], seed=5)
    with pytest.raises(ValueError, match="per_bit=False needs a code without zeros"):
        LSSVMClassifierCV(coding="ovo", per_bit=False, gamma=[1.0], sigma2=[1.0]).fit(
            X, y
        )


@pytest.mark.parametrize("coding", ["moc", "ova"])
@pytest.mark.parametrize("decoding", ["hamming", "loss"])
def test_shared_tuning_scores_are_decoded_cv_accuracies(coding, decoding):
    """per_bit=False: every grid point's score is the decoded accuracy of refits."""
    from lssvm.model_selection.closed_form import make_folds

    X, y = _blobs([25, 20, 15], seed=6)
    gammas, sigma2s = [0.5, 20.0], [0.3, 3.0]
    cv = LSSVMClassifierCV(
        coding=coding, decoding=decoding, per_bit=False, gamma=gammas,
        sigma2=sigma2s, cv=3,
    ).fit(X, y)  # fmt: skip
    folds = make_folds(3, X, y, classifier=True)
    results = cv.cv_results_
    for params, mean in zip(results["params"], results["mean_test_score"]):
        scores = []
        for V in folds:
            train = np.setdiff1d(np.arange(len(y)), V)
            model = LSSVMClassifier(coding=coding, decoding=decoding, **params)
            scores.append(model.fit(X[train], y[train]).score(X[V], y[V]))
        assert abs(np.mean(scores) - mean) < 1e-12, params
    best = cv.best_estimator_
    assert best.bit_params is None and best.gamma == cv.best_params_["gamma"]
    assert best.n_factorizations_ == 1


def test_code_targets_is_each_class_row_of_the_bit_targets():
    y_index = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 2])
    C = mc.codebook(3, "ovo")
    T = mc.bit_targets(mc.encode(y_index, C), "fisher")
    # bit (0 vs 1): 5 rows, N1 = 2 (+1), N2 = 3 (-1); bit (0 vs 2): 8 rows, 5 and 3;
    # bit (1 vs 2): 7 rows, 5 and 2
    expected = np.array(
        [[-5 / 3, -8 / 3, 0.0], [5 / 2, 0.0, -7 / 2], [0.0, 8 / 5, 7 / 5]]
    )
    np.testing.assert_allclose(mc.code_targets(y_index, T), expected, rtol=1e-15)
