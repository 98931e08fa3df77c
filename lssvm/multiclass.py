r"""Output codes for multiclass LS-SVMs: Suykens et al. (2002), [S 3.8-3.14].

A multiclass problem with M classes becomes n_y binary problems through a code
matrix C of shape (M, n_y) with entries in {-1, 0, +1}: row i is the codeword of
class i, column j the binary problem of bit j (classes with C_ij = 0 take no part in
it). The primal [S 3.9] is a sum of n_y binary LS-SVMs, so its KKT system [S 3.12] is
block diagonal and each bit is solved on its own; bits with the same rows and
hyper-parameters share one factorisation (see :class:`lssvm.LSSVMClassifier`).

Codes (:func:`codebook`):

- ``"moc"``, minimum output coding: ceil(log2 M) bits, class i's codeword is the
  binary expansion of i (0 -> -1, 1 -> +1).
- ``"ova"``, one-versus-all (1vsA): M bits, bit j is +1 for class j, -1 for all others.
- ``"ovo"``, one-versus-one (1vs1): M(M-1)/2 bits, one per pair i < j, -1 for class i,
  +1 for class j, 0 for the other classes.
- ``"ecoc"``, error-correcting output codes: a dense random {-1, +1} code of
  ceil(10 log2 M) bits (Allwein, Schapire & Singer 2000), the best of
  ``n_candidates`` seeded draws by minimal Hamming distance between codewords, with
  no constant, repeated or complementary columns. When that length reaches the
  2^(M-1) - 1 such columns that exist (M <= 5), the exhaustive code, every one of
  them, is used (Dietterich & Bakiri 1995).

For two classes every code is the single bit [-1, +1]^T: the binary LS-SVM.

Decoding (:func:`decode`), from the latent outputs f_j(x) (the argument of sign in
[S 3.14]):

- ``"hamming"``, the book's rule: the class whose codeword is nearest to
  sign(f(x)) in Hamming distance, a zero entry counting 1/2 whatever the sign. For
  1vs1 every class has the same number of zeros, so this is max-wins voting. Ties
  go to the smaller loss-based distance, then to the first class in ``classes_``.
- ``"loss"``: the class with the smallest sum over bits of the LS-SVM's own squared
  loss (t_ij - f_j)^2, t_ij the target of class i on bit j (+-1 for the usual
  targets); a zero entry adds 1, the loss of f = 0 on a +-1 target.
- ``"dag"``, 1vs1 codes only: the decision DAG of Platt et al. (2000); classes are
  kept in a list, the bit of the first and last class removes the loser, M - 1 bits
  are read per point.

Examples
--------
The book's three-class 1vs1 example lists the vectors [-1; +1; 0], [-1; 0; +1] and
[0; -1; +1]. They are the columns of our code matrix, one per binary classifier
(class 1 vs 2, 1 vs 3, 2 vs 3); a class's codeword is a row:

>>> import numpy as np
>>> from lssvm.multiclass import codebook, encode, decode
>>> C = codebook(3, "ovo")
>>> C
array([[-1, -1,  0],
       [ 1,  0, -1],
       [ 0,  1,  1]])
>>> encode(np.array([0, 2, 1]), C)
array([[-1, -1,  0],
       [ 0,  1,  1],
       [ 1,  0, -1]])

Class 3 wins its two duels (bits 2 and 3 positive) and gets both votes:

>>> decode(np.array([[0.4, 0.9, 0.2]]), C)
array([2])

Sources: Suykens et al. (2002), [S §3.2]; Dietterich & Bakiri (1995) for ECOC;
Allwein, Schapire & Singer (2000) for loss-based decoding and random codes; Platt,
Cristianini & Shawe-Taylor (2000) for the DAG.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CODINGS",
    "DECODINGS",
    "codebook",
    "check_codebook",
    "encode",
    "bit_targets",
    "code_targets",
    "hamming_distance",
    "loss_distance",
    "decode",
    "class_scores",
    "is_one_vs_one",
]

CODINGS = ("ovo", "ova", "moc", "ecoc")
DECODINGS = ("hamming", "loss", "dag")


def codebook(
    n_classes: int,
    coding="ovo",
    *,
    n_bits: int | None = None,
    n_candidates: int = 1000,
    random_state=0,
) -> NDArray[np.int64]:
    """The code matrix, shape (n_classes, n_bits), entries in {-1, 0, +1}.

    Parameters
    ----------
    n_classes : int
        M >= 2.
    coding : {"ovo", "ova", "moc", "ecoc"} or array-like
        A named code (module docstring), or an explicit matrix, which is checked by
        :func:`check_codebook` and returned as is.
    n_bits : int, optional
        ECOC length; default ceil(10 log2 M). Ignored by the other codes.
    n_candidates : int
        ECOC: random codes drawn; the one with the largest minimal Hamming distance
        between codewords is kept (the first of equals).
    random_state : int or Generator
        Seed of the ECOC draws.
    """
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)):
        raise ValueError(f"n_classes must be an int >= 2; got {n_classes!r}.")
    if n_classes < 2:
        raise ValueError(f"n_classes must be >= 2; got n_classes={n_classes}.")
    if not isinstance(coding, str):
        return check_codebook(coding, n_classes)
    if coding not in CODINGS:
        raise ValueError(
            f"coding must be one of {list(CODINGS)} or a code matrix; "
            f"got coding={coding!r}."
        )
    M = int(n_classes)
    if M == 2:
        return np.array([[-1], [1]])  # every code reduces to the binary LS-SVM
    if coding == "ova":
        return 2 * np.eye(M, dtype=np.int64) - 1
    if coding == "ovo":
        pairs = [(i, j) for i in range(M) for j in range(i + 1, M)]
        C = np.zeros((M, len(pairs)), dtype=np.int64)
        for col, (i, j) in enumerate(pairs):
            C[i, col], C[j, col] = -1, 1
        return C
    if coding == "moc":
        L = math.ceil(math.log2(M))
        bits = (np.arange(M)[:, None] >> np.arange(L)[None, :]) & 1
        return 2 * bits.astype(np.int64) - 1
    return _random_dense_code(M, n_bits, n_candidates, random_state)


def _random_dense_code(M, n_bits, n_candidates, random_state):
    n_useful = 2 ** (M - 1) - 1  # columns that are neither constant nor repeated
    if n_bits is None:
        L = min(math.ceil(10 * math.log2(M)), n_useful)
    else:
        L = int(n_bits)
    if L < 1:
        raise ValueError(f"codebook: n_bits must be >= 1; got n_bits={n_bits!r}.")
    if L > n_useful:
        raise ValueError(
            f"codebook: n_bits must be at most 2**(M-1) - 1 = {n_useful}, the "
            f"distinct useful columns of an ECOC for M={M} classes; got n_bits={L}."
        )
    if L == n_useful:  # the exhaustive code of Dietterich & Bakiri: every column
        return _columns_from_integers(np.arange(1, n_useful + 1), M)
    rng = np.random.default_rng(random_state)
    best, best_dist = None, -1
    for _ in range(max(n_candidates, 1)):
        if M <= 21:  # L distinct useful columns, drawn as integers 1..2^(M-1) - 1
            v = rng.choice(n_useful, size=L, replace=False) + 1
        else:  # too many to enumerate: collisions are then vanishingly rare
            v = rng.integers(1, n_useful + 1, size=L)
            if len(np.unique(v)) < L:
                continue
        C = _columns_from_integers(v, M)
        dist = _min_row_distance(C)
        if dist > best_dist:
            best, best_dist = C, dist
    if best is None or best_dist == 0:
        raise ValueError(
            f"No ECOC of {L} bits with distinct codewords was found for {M} classes; "
            f"use more bits (at least ceil(log2 M) = {math.ceil(math.log2(M))})."
        )
    return best


def _columns_from_integers(v, M):
    """Column j: class 0 coded -1, class i >= 1 coded by bit i-1 of v_j (0 -> -1)."""
    v = np.asarray(v, dtype=np.int64)
    bits = (v[None, :] >> np.arange(M - 1, dtype=np.int64)[:, None]) & 1
    return np.vstack([-np.ones((1, len(v)), dtype=np.int64), 2 * bits - 1])


def _min_row_distance(C):
    diff = (C[:, None, :] != C[None, :, :]).sum(axis=2)
    np.fill_diagonal(diff, C.shape[1] + 1)
    return int(diff.min())


def check_codebook(C, n_classes: int | None = None) -> NDArray[np.int64]:
    """Validate an explicit code matrix and return it as int64.

    Entries must be -1, 0 or +1; codewords (rows) distinct; every column must use
    both signs (else the binary problem has one class); one row per class.
    """
    C = np.asarray(C)
    if C.ndim != 2 or C.size == 0:
        raise ValueError(
            f"A code matrix must be 2-D and non-empty; got shape {C.shape}."
        )
    if n_classes is not None and C.shape[0] != n_classes:
        raise ValueError(
            f"The code matrix has {C.shape[0]} rows but there are {n_classes} "
            "classes: one row (codeword) per class is needed."
        )
    if not np.all(np.isin(C, (-1, 0, 1))):
        raise ValueError("Code matrix entries must be -1, 0 or +1.")
    C = C.astype(np.int64)
    for j in range(C.shape[1]):
        if not (np.any(C[:, j] == 1) and np.any(C[:, j] == -1)):
            raise ValueError(
                f"Column {j} of the code matrix does not have both a +1 and a -1 "
                "class: its binary problem would have a single class."
            )
    if len({tuple(row) for row in C}) < C.shape[0]:
        raise ValueError("Codewords (rows of the code matrix) must be distinct.")
    return C


def encode(y_index, C) -> NDArray[np.int64]:
    """Bit labels of each sample: row ``y_index[k]`` of C, shape (n_samples, n_bits)."""
    return np.asarray(C)[np.asarray(y_index)]


def bit_targets(Y, targets="pm1") -> NDArray[np.float64]:
    """Regression targets of each bit: the +-1 codes, or LS-SVM_F's [S 3.23].

    ``Y``: encoded labels (n_samples, n_bits), 0 where a sample takes no part.
    ``"fisher"``: +N/N_1 for the N_1 samples coded +1 and -N/N_2 for the N_2
    samples coded -1, N = N_1 + N_2 counted within each bit.
    """
    Y = np.asarray(Y, dtype=np.float64)
    if targets == "pm1":
        return Y.copy()
    if targets != "fisher":
        raise ValueError(f"targets must be 'pm1' or 'fisher'; got targets={targets!r}.")
    n_pos = np.sum(Y > 0, axis=0)
    n_neg = np.sum(Y < 0, axis=0)
    n = n_pos + n_neg
    return np.where(Y > 0, n / n_pos, 0.0) + np.where(Y < 0, -n / n_neg, 0.0)


def code_targets(y_index, T) -> NDArray[np.float64]:
    """Target of each class on each bit, shape (n_classes, n_bits), from bit targets.

    ``T`` (n_samples, n_bits) from :func:`bit_targets` depends only on a sample's
    class, so the row of any sample of class i is class i's row (0 where the class
    is not used); every class must occur in ``y_index``.
    """
    _, first = np.unique(np.asarray(y_index), return_index=True)
    return np.asarray(T, dtype=np.float64)[first]


def hamming_distance(latent, C) -> NDArray[np.float64]:
    """Hamming distance of sign(latent) to every codeword, shape (n_samples, M).

    sign(f) is +1 for f > 0 and -1 otherwise (as the binary ``predict``); a zero
    code entry counts 1/2.
    """
    S = np.where(np.asarray(latent) > 0, 1.0, -1.0)
    C = np.asarray(C, dtype=np.float64)
    return 0.5 * (C.shape[1] - S @ C.T)  # sum_j (1 - s_j C_ij)/2


def loss_distance(latent, C, T=None) -> NDArray[np.float64]:
    """Sum over bits of (t_ij - f_j)^2, a zero code entry adding 1; (n_samples, M).

    ``T`` (M, n_bits): the target of each class on each bit; default C (+-1).
    """
    F = np.asarray(latent, dtype=np.float64)
    C = np.asarray(C, dtype=np.float64)
    T = C if T is None else np.asarray(T, dtype=np.float64)
    used = C != 0
    # sum_j used_ij (t_ij - f_j)^2 + (1 - used_ij), expanded as matrix products
    sq = (F**2) @ used.T.astype(np.float64)
    cross = F @ (T * used).T
    const = np.sum(np.where(used, T**2, 1.0), axis=1)
    return sq - 2.0 * cross + const


def is_one_vs_one(C) -> bool:
    """True if every pair of classes has a column with exactly those two nonzero."""
    return pair_columns(np.asarray(C)) is not None


def pair_columns(C):
    M = C.shape[0]
    cols = np.full((M, M), -1, dtype=np.intp)  # cols[i, j]: bit of pair (i, j)
    for j in range(C.shape[1]):
        nz = np.flatnonzero(C[:, j])
        if len(nz) == 2:
            p, q = nz
            cols[p, q] = cols[q, p] = j
    off = ~np.eye(M, dtype=bool)
    return cols if np.all(cols[off] >= 0) else None


def _dag(latent, C):
    cols = pair_columns(C)
    if cols is None:
        raise ValueError(
            "decoding='dag' needs a one-versus-one code: a column for every pair of "
            "classes with only those two classes nonzero."
        )
    F = np.asarray(latent, dtype=np.float64)
    n, M = F.shape[0], C.shape[0]
    lo, hi = np.zeros(n, dtype=np.intp), np.full(n, M - 1, dtype=np.intp)
    rows = np.arange(n)
    for _ in range(M - 1):
        col = cols[lo, hi]
        # the sign of the pair's bit points at the winner: +1 -> the class coded +1
        winner_is_hi = np.where(F[rows, col] > 0, 1, -1) == C[hi, col]
        lo = np.where(winner_is_hi, lo + 1, lo)
        hi = np.where(winner_is_hi, hi, hi - 1)
    return lo


def class_scores(latent, C, decoding="hamming", T=None) -> NDArray[np.float64]:
    """Per-class scores whose argmax (first of equals) is the decoded class.

    ``"hamming"``: minus the Hamming distance, minus the loss-based distance L
    squashed into [0, 1/2) as L / (2 (1 + L)): Hamming distances differ by at least
    1/2, so the loss only breaks their ties (as scikit-learn's one-vs-one adds
    squashed confidences to its votes). ``"loss"``: minus the loss-based distance.
    ``"dag"``: 1 for the class the DAG reaches, 0 for the others.
    """
    latent = np.asarray(latent, dtype=np.float64)
    if latent.ndim == 1:
        latent = latent[:, None]
    if decoding not in DECODINGS:
        raise ValueError(
            f"decoding must be one of {list(DECODINGS)}; got decoding={decoding!r}."
        )
    if decoding == "dag":
        scores = np.zeros((latent.shape[0], np.asarray(C).shape[0]))
        scores[np.arange(latent.shape[0]), _dag(latent, C)] = 1.0
        return scores
    L = loss_distance(latent, C, T)
    if decoding == "loss":
        return -L
    return -hamming_distance(latent, C) - L / (2.0 * (1.0 + L))


def decode(latent, C, decoding="hamming", T=None) -> NDArray[np.intp]:
    """Class index (row of C) of each sample from the latent bit outputs."""
    return np.argmax(class_scores(latent, C, decoding, T), axis=1)
