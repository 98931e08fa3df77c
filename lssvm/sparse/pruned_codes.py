r"""Pruning the bits of a multiclass output code on their own rows (``per_bit=True``).

A multiclass LS-SVM is a set of binary LS-SVMs, one per bit of the output code (the
block-diagonal system [S 3.12] of [S 3.9], :mod:`lssvm.multiclass`). [S Table 3.5]
counts the support vectors of a multiclass model summed over the bits, each bit
pruned on its own rows: bit j is a binary LS-SVM on the rows of the classes it uses,
labelled +1 / -1 by the codebook column j (:func:`bit_problems`), it removes
``fraction`` of its current rows with the smallest abs(alpha_k) of that bit while
keeping a point of each of its two classes (:func:`remove_in_bit`, step 2 of
[S §3.7] within the bit), and the stage is the :class:`PrunedOutputCode` of the
pruned bits, decoded as the classifier decodes
(:func:`lssvm.multiclass.class_scores`). The loop itself is that of
:func:`lssvm.sparse.pruning.prune`.

Sources: Suykens et al. (2002), [S 3.9], [S 3.12], [S §3.7], [S Table 3.5].
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from sklearn.base import ClassifierMixin

from .. import multiclass as mc
from .stage_factor import new_stage_factor

__all__ = ["PrunedOutputCode", "bit_problems", "bit_templates", "remove_in_bit"]


class PrunedOutputCode(ClassifierMixin):
    """A multiclass LS-SVM whose bits were pruned separately (``prune(per_bit=True)``).

    Bit j is a binary :class:`lssvm.LSSVMClassifier` fitted on its own kept rows
    with the labels ``codebook_[:, j]`` of their classes (+1 / -1); the classes are
    decoded from the bits' latent outputs as :class:`lssvm.LSSVMClassifier` does
    (:func:`lssvm.multiclass.class_scores`).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    codebook_ : ndarray of shape (n_classes, n_bits)
    estimators_ : list of LSSVMClassifier
        One fitted binary LS-SVM per bit (classes -1, +1).
    support_ : list of ndarray of int
        The rows (indices into the X given to :func:`lssvm.sparse.prune`) each bit
        was fitted on.
    decoding : str
    """

    def __init__(self, classes, codebook, estimators, support, decoding):
        self.classes_ = classes
        self.codebook_ = codebook
        self.estimators_ = estimators
        self.support_ = support
        self.decoding = decoding

    @property
    def n_support_(self) -> NDArray[np.int64]:
        """Number of support vectors of each bit."""
        return np.array([len(s) for s in self.support_])

    def bit_outputs(self, X):
        """Latent outputs of the bits, shape (n_samples, n_bits)."""
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def decision_function(self, X):
        """Per-class scores whose argmax is ``predict``."""
        C = self.codebook_
        return mc.class_scores(self.bit_outputs(X), C, self.decoding)

    def predict(self, X):
        """The decoded class of each sample."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


def bit_templates(template, n_bits):
    """A binary LS-SVM template per bit: the common parameters and bit_params[j]."""
    params = template.get_params()
    overrides = params.pop("bit_params") or [{}] * n_bits
    if len(overrides) != n_bits:
        raise ValueError(
            f"bit_params has {len(overrides)} entries but the code has {n_bits} bits."
        )
    for name in ("coding", "decoding", "random_state"):
        params.pop(name)
    return [type(template)(**{**params, **extra}) for extra in overrides]


def bit_problems(template, X, y, update):
    """(classes, codebook, bits): the binary problem of each bit of the code.

    Bit j has its ``template`` (:func:`bit_templates`), its ``rows`` (the points of
    the classes it uses), their ``labels`` (+1 / -1, codebook column j), the
    positions ``kept`` in those rows (all at stage 0) and its stage ``factor``
    (:func:`lssvm.sparse.stage_factor.new_stage_factor`, or None).
    """
    classes, y_index = np.unique(y, return_inverse=True)
    C = mc.codebook(len(classes), template.coding, random_state=template.random_state)
    Y = mc.encode(y_index, C)  # (N, n_bits): +-1 on a bit's rows, 0 elsewhere
    bits = []
    for j, bit_template in enumerate(bit_templates(template, C.shape[1])):
        rows = np.flatnonzero(Y[:, j])
        bits.append({
            "template": bit_template, "rows": rows, "labels": Y[rows, j],
            "kept": np.arange(len(rows)),
            "factor": new_stage_factor(bit_template, X[rows], update),
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
