"""Shared checks and messages (style guide, section 7).

A message says what is wrong, for which parameter and owner, what is allowed and what
was received. Checks run once, at the public boundary.
"""

from __future__ import annotations

import numbers

import numpy as np

from .solvers import ESTIMATOR_SOLVERS

__all__ = ["check_positive", "check_solver", "check_classes"]


def _owner(owner) -> str:
    return "" if owner is None else f"{type(owner).__name__}: "


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
