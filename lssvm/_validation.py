"""Shared checks and messages: one wording for every estimator.

A message says what is wrong, for which parameter and owner, what is allowed and what
was received. Checks run once, at the public boundary.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .kernels import make_kernel

#: The estimators' ``solver`` parameter (estimator policy: the solvers know only
#: "direct" and "cg"; ``lssvm.linalg.solvers.choose_method`` resolves "auto").
ESTIMATOR_SOLVERS = ("direct", "cg", "auto")

__all__ = [
    "check_positive",
    "check_solver",
    "check_classes",
    "check_kernel",
    "check_n_jobs",
    "check_count",
    "check_numeric_targets",
    "check_finite_output",
    "feature_names",
    "check_feature_names",
]


def _owner(owner) -> str:
    """'Name: ' of an estimator, or of a function given by its name."""
    if owner is None:
        return ""
    return f"{owner if isinstance(owner, str) else type(owner).__name__}: "


def check_positive(value, name: str, *, meaning: str = "", owner=None) -> float:
    """Return ``value`` as float if it is a finite number > 0, else raise ValueError.

    >>> check_positive(-1.0, "gamma")
    Traceback (most recent call last):
    ...
    ValueError: gamma must be a positive float; got gamma=-1.0.
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if ok and np.isfinite(value) and value > 0:
        return float(value)
    what = f" ({meaning})" if meaning else ""
    raise ValueError(
        f"{_owner(owner)}{name} must be a positive float{what}; got {name}={value!r}."
    )


def check_solver(value, *, owner=None) -> str:
    """Return ``value`` if it names an estimator solver, else raise ValueError.

    >>> check_solver("lu")
    Traceback (most recent call last):
    ...
    ValueError: solver must be one of ['direct', 'cg', 'auto']; got solver='lu'.
    """
    if isinstance(value, str) and value in ESTIMATOR_SOLVERS:
        return value
    raise ValueError(
        f"{_owner(owner)}solver must be one of {list(ESTIMATOR_SOLVERS)}; "
        f"got solver={value!r}."
    )


def check_classes(classes, *, owner) -> None:
    """Raise unless ``classes`` (the sorted unique labels) has at least two entries."""
    n_classes = len(classes)
    if n_classes < 2:
        raise ValueError(
            f"{type(owner).__name__} needs at least 2 classes; got {n_classes} class: "
            f"{list(classes)}."
        )


def check_n_jobs(value, *, owner=None) -> None:
    """Raise unless ``value`` is None or a non-zero integer (-1: all CPUs).

    >>> check_n_jobs(0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be None or a non-zero integer (-1: all CPUs); got n_jobs=0.
    """
    ok = value is None or (
        isinstance(value, numbers.Integral) and not isinstance(value, bool) and value
    )
    if not ok:
        raise ValueError(
            f"{_owner(owner)}n_jobs must be None or a non-zero integer (-1: all "
            f"CPUs); got n_jobs={value!r}."
        )


def check_count(value, name: str, *, minimum: int, meaning: str = "", owner=None):
    """Return ``value`` as int if it is an integer >= ``minimum``, else raise.

    >>> check_count(0, "n_iter", minimum=1)
    Traceback (most recent call last):
    ...
    ValueError: n_iter must be an integer >= 1; got n_iter=0.
    """
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if ok and value >= minimum:
        return int(value)
    what = f" ({meaning})" if meaning else ""
    raise ValueError(
        f"{_owner(owner)}{name} must be an integer >= {minimum}{what}; "
        f"got {name}={value!r}."
    )


def check_numeric_targets(y, *, owner=None):
    """Return ``y`` as float64, or raise naming y if it is not numeric (regression).

    scikit-learn's ``y_numeric=True`` converts only object arrays, so an array of
    strings would reach the solver.

    >>> check_numeric_targets(np.array(["a", "b"]))
    Traceback (most recent call last):
    ...
    ValueError: y must be numeric (real regression targets); got an array of dtype <U1.
    """
    y = np.asarray(y)
    if y.dtype.kind in "biuf":
        return y.astype(np.float64, copy=False)
    if y.dtype.kind == "O":
        try:
            return y.astype(np.float64)
        except (TypeError, ValueError):
            pass
    raise ValueError(
        f"{_owner(owner)}y must be numeric (real regression targets); got an "
        f"array of dtype {y.dtype}."
    )


def check_finite_output(values, kernel, *, owner=None):
    """Return ``values`` (decision values, predictions) if finite, else raise.

    A kernel can overflow at predict time for inputs far larger than the training
    data (the polynomial (x^T z + tau)^d at norms near 1e100); never return NaN
    without a message: a silent NaN is the worst answer an estimator can give.
    """
    bad = ~np.isfinite(values)
    if not bad.any():
        return values
    rows = np.flatnonzero(bad.reshape(bad.shape[0], -1).any(axis=1))
    raise ValueError(
        f"{_owner(owner)}the model's output is NaN or inf for {len(rows)} of "
        f"{bad.shape[0]} rows of X (first: {rows[:5].tolist()}): the kernel "
        f"{kernel!r} overflows (or X holds extreme values) at these inputs. Scale "
        "the inputs as the training data were scaled, or use a bounded kernel "
        "(rbf)."
    )


def feature_names(X):
    """The column names of a data frame X as an object array, or None.

    None unless X has a ``columns`` attribute whose entries are all strings, the
    rule scikit-learn applies before it records ``feature_names_in_``.
    """
    columns = getattr(X, "columns", None)
    if columns is None:
        return None
    names = np.asarray(list(columns), dtype=object)
    if len(names) and all(isinstance(name, str) for name in names):
        return names
    return None


def check_feature_names(expected, X, *, owner: str) -> None:
    """scikit-learn's feature-name contract for objects that are not estimators.

    ``expected``: the names recorded at fit (or None). Different or reordered
    names raise ValueError; names on one side only give scikit-learn's UserWarning.
    """
    given = feature_names(X)
    if expected is None and given is None:
        return
    if expected is None:
        warnings.warn(
            f"X has feature names, but {owner} was fitted without feature names",
            UserWarning,
            stacklevel=3,
        )
    elif given is None:
        warnings.warn(
            f"X does not have valid feature names, but {owner} was fitted with "
            "feature names",
            UserWarning,
            stacklevel=3,
        )
    elif len(given) != len(expected) or np.any(given != expected):
        raise ValueError(
            "The feature names should match those that were passed during fit. "
            f"{owner} was fitted with {list(expected)}; got {list(given)}."
        )


def check_not_precomputed(kernel, *, owner) -> None:
    """Refuse ``kernel="precomputed"`` where the method needs the inputs themselves.

    >>> check_not_precomputed("precomputed", owner="rfe")
    Traceback (most recent call last):
    ...
    ValueError: rfe: kernel='precomputed' is not supported by rfe; kernel must be a kernel name, a Kernel or a callable (the method needs the inputs, not only their Gram matrix); got kernel='precomputed'.
    """
    if isinstance(kernel, str) and kernel == "precomputed":
        name = owner if isinstance(owner, str) else type(owner).__name__
        raise ValueError(
            f"{name}: kernel='precomputed' is not supported by {name}; kernel must "
            "be a kernel name, a Kernel or a callable (the method needs the inputs, "
            "not only their Gram matrix); got kernel='precomputed'."
        )


def check_kernel(kernel, *, sigma2, degree, tau, owner):
    """:func:`lssvm.kernels.make_kernel`, its messages prefixed with the owner.

    >>> check_kernel("poly", sigma2=1.0, degree=0, tau=1.0, owner="level2")
    Traceback (most recent call last):
    ...
    ValueError: level2: degree must be a positive integer; got degree=0.
    """
    try:
        return make_kernel(kernel, sigma2=sigma2, degree=degree, tau=tau)
    except ValueError as exc:
        raise ValueError(f"{_owner(owner)}{exc}") from None
