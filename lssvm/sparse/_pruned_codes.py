r"""Pruning the bits of a multiclass output code on their own rows (``per_bit=True``).

A multiclass LS-SVM is a set of binary LS-SVMs, one per bit of the output code (the
block-diagonal system [S 3.12] of [S 3.9], :mod:`lssvm.multiclass`). [S Table 3.5]
counts the support vectors of a multiclass model summed over the bits, each bit
pruned on its own rows: bit j is a binary LS-SVM on the rows of the classes it uses,
labelled +1 / -1 by the codebook column j (:func:`bit_problems`), it removes
``fraction`` of its current rows with the smallest abs(alpha_k) of that bit while
keeping a point of each of its two classes (:func:`remove_in_bit`, step 2 of
[S §3.7] within the bit), and the stage is the
:class:`lssvm.sparse.pruning.PrunedOutputCode` of the pruned bits, decoded as the
classifier decodes (:func:`lssvm.multiclass.class_scores`). The loop itself is that
of :func:`lssvm.sparse.pruning.prune`.

Memory: every bit keeps its kernel matrix and, from its first fit on, its Cholesky
factor (n_j x n_j each, n_j the rows of bit j), and a bit whose factor is rebuilt
holds its old and new factor for a moment, so the bits need

    8 (2 sum_j n_j^2 + max_j n_j^2) bytes

(:func:`check_bit_memory`, before any kernel matrix is built), 8 (2M + 1) N^2 for M
bits on all N rows.

These helpers serve :mod:`lssvm.sparse.pruning` only: a private module (no user
needs them), whose names carry no underscore so that the sibling module may import
them.

Sources: Suykens et al. (2002), [S 3.9], [S 3.12], [S §3.7], [S Table 3.5].
"""

from __future__ import annotations

import numpy as np

from .. import multiclass as mc
from ..linalg.memory import check_memory
from ._stage_factor import new_stage_factor

__all__ = ["bit_problems", "bit_templates", "check_bit_memory", "remove_in_bit"]


def bit_templates(template, n_bits):
    """A binary LS-SVM template per bit: the common parameters and bit_params[j]."""
    params = template.get_params()
    overrides = params.pop("bit_params") or [{}] * n_bits
    if len(overrides) != n_bits:
        raise ValueError(
            f"prune: bit_params must hold one dict per bit of the code ({n_bits} "
            f"bits); got {len(overrides)} entries, bit_params={overrides!r}."
        )
    for name in ("coding", "decoding", "random_state"):
        params.pop(name)
    return [type(template)(**{**params, **extra}) for extra in overrides]


def check_bit_memory(templates, rows, update):
    """Raise InsufficientMemoryError unless the bits' matrices fit in memory.

    Only the bits that carry a factor count (``update="downdate"`` and a direct
    solver, :func:`lssvm.sparse._stage_factor.new_stage_factor`): each keeps its
    kernel matrix and its factor, and one factor rebuilt at a time adds its new
    copy, 8 (2 sum_j n_j^2 + max_j n_j^2) bytes (see the module docstring).
    """
    sizes = [
        len(r) for t, r in zip(templates, rows, strict=True)
        if update != "refit" and t.solver != "cg"
    ]  # fmt: skip
    if not sizes:
        return
    squares = np.square(np.array(sizes, dtype=np.int64))
    check_memory(
        int(8 * (2 * squares.sum() + squares.max())),
        f'update="downdate" with per_bit=True needs a kernel matrix and a Cholesky '
        f"factor per bit ({len(sizes)} bits of up to {max(sizes)} rows) and one "
        "factor rebuilt at a time: ",
        alternative='use update="refit" with solver="cg", or use fewer samples',
        owner="prune",
    )


def bit_problems(template, X, y, update):
    """(classes, codebook, bits): the binary problem of each bit of the code.

    Bit j has its ``template`` (:func:`bit_templates`), its ``rows`` (the points of
    the classes it uses), their ``labels`` (+1 / -1, codebook column j), the
    positions ``kept`` in those rows (all at stage 0) and its stage ``factor``
    (:func:`lssvm.sparse._stage_factor.new_stage_factor`, or None). The memory the
    factors need is checked before the first kernel matrix is built
    (:func:`check_bit_memory`).
    """
    classes, y_index = np.unique(y, return_inverse=True)
    C = mc.codebook(len(classes), template.coding, random_state=template.random_state)
    Y = mc.encode(y_index, C)  # (N, n_bits): +-1 on a bit's rows, 0 elsewhere
    templates = bit_templates(template, C.shape[1])
    rows = [np.flatnonzero(Y[:, j]) for j in range(C.shape[1])]
    check_bit_memory(templates, rows, update)
    bits = []
    for j, (bit_template, bit_rows) in enumerate(zip(templates, rows, strict=True)):
        bits.append({
            "template": bit_template, "rows": bit_rows, "labels": Y[bit_rows, j],
            "kept": np.arange(len(bit_rows)),
            "factor": new_stage_factor(bit_template, X[bit_rows], update),
        })  # fmt: skip
    return classes, C, bits


def remove_in_bit(importance, labels, k):
    """Positions of up to k smallest importances, keeping one point of each label."""
    left = {lab: int(np.sum(labels == lab)) for lab in (-1, 1)}
    out = []
    for i in np.argsort(importance, kind="stable"):
        if len(out) >= k:
            break
        if left[labels[i]] > 1:
            left[labels[i]] -= 1
            out.append(i)
    return np.array(out, dtype=int)
