"""Shared checks and messages: one wording for every estimator.

A message says what is wrong, for which parameter and owner, what is allowed and what
was received: "Owner: name must be <allowed> (meaning); got name=<value>." Checks run
once, at the public boundary. Every estimator declares its parameters' allowed kinds
in a class-level ``_parameter_constraints`` table (the constraint classes below:
:class:`Positive`, :class:`Count`, :class:`Options`, ...), which
:func:`validate_params` checks as the first step of ``fit``.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.utils.validation import _check_sample_weight

from .kernels import make_kernel

#: The estimators' ``solver`` parameter (estimator policy: the solvers know only
#: "direct" and "cg"; ``lssvm.linalg.solvers.choose_method`` resolves "auto").
ESTIMATOR_SOLVERS = ("direct", "cg", "auto")

__all__ = [
    "N_JOBS",
    "check_positive",
    "check_classes",
    "check_kernel",
    "check_n_jobs",
    "check_count",
    "check_numeric_targets",
    "owner_name",
    "owner_prefix",
    "check_sample_weight",
    "positive_weight_rows",
    "check_finite_output",
    "feature_names",
    "check_feature_names",
    "validate_params",
    "Positive",
    "NonNegative",
    "Count",
    "IntegerValued",
    "Options",
    "Boolean",
    "NoneValue",
    "Callable",
    "KernelSpec",
    "PositiveArray",
    "PositiveList",
    "NonZeroInteger",
    "Splitter",
    "RandomState",
    "Unchecked",
    "GAMMA_MEANING",
]

#: The one wording of gamma's meaning (every LS-SVM estimator's ``gamma``).
GAMMA_MEANING = "regularization constant of [S 3.1]"


def owner_name(owner) -> str:
    """The name a message gives its owner: a string as is (a function's name), else
    the class name of the object (an estimator).

    >>> owner_name("prune"), owner_name(np.zeros(1))
    ('prune', 'ndarray')
    """
    return owner if isinstance(owner, str) else type(owner).__name__


def owner_prefix(owner) -> str:
    """The start of a message, "Name: " (:func:`owner_name`); "" for no owner (None).

    >>> owner_prefix("level2") + "gamma must be ..."
    'level2: gamma must be ...'
    """
    return "" if owner is None else f"{owner_name(owner)}: "


def check_sample_weight(sample_weight, X, *, owner):
    """``sample_weight`` as a float array (None stays None), checked: >= 0, finite.

    The weighted LS-SVM multiplies gamma by w_k on the diagonal of [S 3.24]
    (H = Omega + diag(1 / (gamma w_k))); a zero weight is an infinite diagonal
    entry, which removes the row exactly: callers drop those rows (``w > 0``).

    ``X``: the data, or only its number of rows N (an int: a Dask X, whose rows
    are not gathered). ``sample_weight``: one weight per row, one number for
    every row, or a Dask array (gathered here: 8 N bytes).

    >>> check_sample_weight(2.0, 3, owner="fit")
    array([2., 2., 2.])
    >>> check_sample_weight([1.0, -1.0, 0.0], 3, owner="fit")
    Traceback (most recent call last):
    ...
    ValueError: fit: sample_weight must be finite and >= 0 (0 leaves the row out); got 1 negative or non-finite entry, the first sample_weight[1]=-1.0.
    >>> check_sample_weight([0.0, 0.0], 2, owner="fit")
    Traceback (most recent call last):
    ...
    ValueError: fit: sample_weight must have at least one positive entry; got 2 zero weights.
    """
    if sample_weight is None:
        return None
    if hasattr(sample_weight, "compute"):  # a Dask array (or other lazy array)
        sample_weight = np.asarray(sample_weight.compute())
    if isinstance(X, numbers.Integral):
        X = np.empty((int(X), 0))  # only the row count is read
    try:
        values = np.asarray(sample_weight, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        values = np.zeros(0)  # not numbers: scikit-learn's check below names it
    bad = np.flatnonzero(~(values >= 0) | ~np.isfinite(values))  # NaN fails both
    if bad.size:
        k = int(bad[0])
        raise ValueError(
            f"{owner_prefix(owner)}sample_weight must be finite and >= 0 (0 leaves "
            f"the row out); got {bad.size} negative or non-finite "
            f"entr{'y' if bad.size == 1 else 'ies'}, the first "
            f"sample_weight[{k}]={float(values[k])!r}."
        )
    n = X.shape[0]
    valid_length = np.isscalar(sample_weight) or values.size == n
    if values.size and valid_length and not np.any(values > 0):
        # all zero, of a valid length: before scikit-learn's own wording of it (a
        # wrong length is left to scikit-learn's check below, which names both)
        raise ValueError(
            f"{owner_prefix(owner)}sample_weight must have at least one positive "
            f"entry; got {n} zero weights."
        )
    try:
        return _check_sample_weight(
            sample_weight, X, dtype=np.float64, ensure_non_negative=True
        )
    except ValueError as exc:
        raise ValueError(f"{owner_prefix(owner)}sample_weight: {exc}") from None


def positive_weight_rows(sample_weight, X, labels=None, *, owner, classes=None):
    """The one check-and-drop of ``sample_weight`` for every weighted fit.

    Returns ``(keep, w)``: the indices of the rows that take part (w_k > 0; a zero
    weight is an infinite diagonal entry 1/(gamma w_k), i.e. no row at all) and their
    weights; ``(None, None)`` without weights (every row takes part). With
    ``labels`` and ``classes`` (labels of the rows, classes the fit must keep), a
    class whose every row has weight 0 raises a ValueError naming it.
    """
    w = check_sample_weight(sample_weight, X, owner=owner)
    if w is None:
        return None, None
    keep = np.flatnonzero(w > 0)
    if labels is not None and classes is not None:
        kept_labels = np.asarray(labels)[keep]
        classes = np.asarray(classes).tolist()
        missing = [c for c in classes if not np.any(kept_labels == c)]
        if missing:
            raise ValueError(
                f"{owner_prefix(owner)}sample_weight is 0 for every sample of "
                f"class(es) {missing}; each of the classes {classes} "
                "needs a sample of positive weight (drop the class from y instead)."
            )
    return keep, w[keep]


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
        f"{owner_prefix(owner)}{name} must be a positive float{what}; "
        f"got {name}={value!r}."
    )


def check_fraction(value, name: str, *, meaning: str = "", owner=None) -> float:
    """Return ``value`` as float if it is a number in the open interval (0, 1).

    >>> check_fraction(1.0, "level", meaning="significance level", owner="prune")
    Traceback (most recent call last):
    ...
    ValueError: prune: level must be a float in (0, 1) (significance level); got level=1.0.
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if ok and 0.0 < value < 1.0:
        return float(value)
    what = f" ({meaning})" if meaning else ""
    raise ValueError(
        f"{owner_prefix(owner)}{name} must be a float in (0, 1){what}; "
        f"got {name}={value!r}."
    )


def check_classes(classes, *, owner) -> None:
    """Raise unless ``classes`` (the sorted unique labels) has at least two entries."""
    n_classes = len(classes)
    if n_classes < 2:
        raise ValueError(
            f"{owner_name(owner)} needs at least 2 classes; got {n_classes} class: "
            f"{list(classes)}."
        )


def check_n_jobs(value, *, owner=None) -> None:
    """Raise unless ``value`` is None or a non-zero integer (-1: all CPUs).

    >>> check_n_jobs(0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be None or a non-zero integer (-1: all CPUs); got n_jobs=0.
    """
    check_constraints(value, "n_jobs", N_JOBS, owner=owner)


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
        f"{owner_prefix(owner)}{name} must be an integer >= {minimum}{what}; "
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
        f"{owner_prefix(owner)}y must be numeric (real regression targets); got an "
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
        f"{owner_prefix(owner)}the model's output is NaN or inf for {len(rows)} of "
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
        name = owner_name(owner)
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
        raise ValueError(f"{owner_prefix(owner)}{exc}") from None


# ------------------------------------------------------------------ constraints table
# scikit-learn's declarative idea (``_parameter_constraints``: parameter name -> list
# of allowed kinds), with this module's messages: an estimator declares, at class
# level, one list per parameter of ``get_params()``; ``validate_params(self)``, the
# first line of its ``fit``, checks them all and raises ValueError
# "Owner: name must be <allowed>[ (meaning)]; got name=<repr>." at the first that fails.
# A constraint's ``meaning`` (the parameter's role) is printed once, in parentheses.


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class Constraint:
    """One allowed kind of value: ``allows(value)`` and its wording ``text``."""

    text = ""

    def __init__(self, meaning: str = ""):
        self.meaning = meaning

    def allows(self, value) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def bad_values(self) -> list:
        """Values this constraint refuses (for tests; empty if it refuses none)."""
        return []

    def __repr__(self):
        return f"{type(self).__name__}({self.text!r})"


class Positive(Constraint):
    """A finite real number > 0 (not a bool): "a positive float"."""

    text = "a positive float"

    def allows(self, value):
        return _real(value) and bool(np.isfinite(value)) and value > 0

    def bad_values(self):
        return [0.0, -1.0, np.nan, np.inf, True, "1"]


class NonNegative(Constraint):
    """A finite real number >= 0: "a finite float >= 0"."""

    text = "a finite float >= 0"

    def allows(self, value):
        return _real(value) and bool(np.isfinite(value)) and value >= 0

    def bad_values(self):
        return [-1.0, np.nan, np.inf, True, "0"]


class Count(Constraint):
    """An integer >= ``minimum`` (not a bool): "an integer >= m"."""

    def __init__(self, minimum: int, meaning: str = ""):
        super().__init__(meaning)
        self.minimum = minimum
        self.text = f"an integer >= {minimum}"

    def allows(self, value):
        return _integer(value) and value >= self.minimum

    def bad_values(self):
        return [self.minimum - 1, float(self.minimum) + 0.5, True, "1"]


class IntegerValued(Constraint):
    """A finite real with an integer value >= 1 (3 or 3.0): "a positive integer"."""

    text = "a positive integer"

    def allows(self, value):
        return (
            _real(value) and bool(np.isfinite(value))
            and float(value).is_integer() and value >= 1
        )  # fmt: skip

    def bad_values(self):
        return [0, 2.5, -1, True, "3"]


class NonZeroInteger(Constraint):
    """An integer other than 0 (not a bool): "a non-zero integer"."""

    text = "a non-zero integer"

    def allows(self, value):
        return _integer(value) and value != 0

    def bad_values(self):
        return [0, 1.5, True, "1"]


class Options(Constraint):
    """One of the given values (compared with ==, strings only among strings)."""

    def __init__(self, values, meaning: str = ""):
        super().__init__(meaning)
        self.values = tuple(values)
        one = len(self.values) == 1
        self.text = repr(self.values[0]) if one else f"one of {list(self.values)}"

    def allows(self, value):
        for v in self.values:
            if isinstance(v, bool) or isinstance(value, (bool, np.bool_)):
                if isinstance(v, bool) and isinstance(value, (bool, np.bool_)) and (
                    bool(value) is v
                ):
                    return True
            elif isinstance(v, str):
                if isinstance(value, str) and value == v:
                    return True
            elif value is v or (_real(value) and _real(v) and value == v):
                return True
        return False

    def bad_values(self):
        return ["not-an-option", 3.5]


class Boolean(Constraint):
    """A bool (numpy's too): "a bool"."""

    text = "a bool"

    def allows(self, value):
        return isinstance(value, (bool, np.bool_))

    def bad_values(self):
        return ["yes", None, 1]


class NoneValue(Constraint):
    """None."""

    text = "None"

    def allows(self, value):
        return value is None


class Callable(Constraint):
    """A callable: "a callable"."""

    text = "a callable"

    def allows(self, value):
        return callable(value)

    def bad_values(self):
        return [3]


class KernelSpec(Constraint):
    """A kernel name ('precomputed' too unless refused), a Kernel or a callable."""

    def __init__(self, precomputed: bool = True, meaning: str = ""):
        super().__init__(meaning)
        from .kernels import KERNEL_NAMES

        self.names = tuple(KERNEL_NAMES)
        self.precomputed = precomputed
        extra = ", 'precomputed'" if precomputed else ""
        self.text = (
            f"one of {list(self.names)}{extra}, a Kernel or a callable kernel(X, Z)"
        )

    def allows(self, value):
        from .kernels import Kernel

        if isinstance(value, str):
            return value in self.names or (self.precomputed and value == "precomputed")
        return isinstance(value, Kernel) or callable(value)

    def bad_values(self):
        return ["sigmoid", 3, None] + ([] if self.precomputed else ["precomputed"])


class PositiveArray(Constraint):
    """A 1-D array of finite positive floats (one per input)."""

    text = "a 1-D array of positive floats"

    def allows(self, value):
        if isinstance(value, (str, bytes)) or np.ndim(value) != 1:
            return False
        try:
            a = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            return False
        return a.size > 0 and bool(np.all(np.isfinite(a)) and np.all(a > 0))

    def bad_values(self):
        return [[1.0, -1.0], [1.0, np.nan]]


class PositiveList(Constraint):
    """A positive float or a non-empty list of them (candidate values)."""

    text = "a positive float or a non-empty list of positive floats"

    def allows(self, value):
        if isinstance(value, (str, bytes)) or np.ndim(value) > 1:
            return False
        values = [value] if np.ndim(value) == 0 else list(value)
        return len(values) > 0 and all(Positive().allows(v) for v in values)

    def bad_values(self):
        return [[], [1.0, -1.0], "1", 0.0, [[1.0, 2.0]]]


class Splitter(Constraint):
    """A cross-validation splitter (``split``) or an iterable of (train, test)."""

    text = "a splitter or a list of (train, test) index arrays"

    def allows(self, value):
        if hasattr(value, "split") and hasattr(value, "get_n_splits"):
            return True
        return not isinstance(value, (str, bytes, numbers.Number)) and hasattr(
            value, "__iter__"
        )

    def bad_values(self):
        return []  # strings and numbers are judged by the other entries


class RandomState(Constraint):
    """An int, a numpy RandomState/Generator (None: give NoneValue too)."""

    text = "an int or a RandomState instance"

    def allows(self, value):
        return _integer(value) or isinstance(
            value, (np.random.RandomState, np.random.Generator)
        )

    def bad_values(self):
        return ["0", 1.5]


class Unchecked(Constraint):
    """Any value here; ``where`` says which code checks it (its own message)."""

    def __init__(self, where: str):
        super().__init__("")
        self.text = f"anything (checked by {where})"

    def allows(self, value):
        return True


def describe(constraints) -> str:
    """'<a> or <b>[ (meaning)]': the allowed kinds of one table entry."""
    texts = [c.text for c in constraints]
    allowed = texts[-1]
    if len(texts) > 1:
        allowed = ", ".join(texts[:-1]) + " or " + allowed
    meaning = next((c.meaning for c in constraints if c.meaning), "")
    return allowed + (f" ({meaning})" if meaning else "")


def check_constraints(value, name: str, constraints, *, owner=None):
    """Raise ValueError unless ``value`` satisfies one of ``constraints``.

    >>> check_constraints(0, "n_iter", [Count(1, "random samples")], owner="search")
    Traceback (most recent call last):
    ...
    ValueError: search: n_iter must be an integer >= 1 (random samples); got n_iter=0.
    >>> check_constraints(None, "n_jobs", [NoneValue(), NonZeroInteger("-1: all CPUs")])
    """
    if any(c.allows(value) for c in constraints):
        return value
    raise ValueError(
        f"{owner_prefix(owner)}{name} must be {describe(constraints)}; "
        f"got {name}={value!r}."
    )


def validate_params(estimator) -> None:
    """Check every parameter of ``estimator`` against its ``_parameter_constraints``.

    Called once, first thing in ``fit``. The table must cover exactly the
    parameters of ``get_params(deep=False)`` (a missing or extra entry is a bug of
    the class, reported as such).

    >>> from lssvm import LSSVMRegressor
    >>> validate_params(LSSVMRegressor(gamma=-1.0))
    Traceback (most recent call last):
    ...
    ValueError: LSSVMRegressor: gamma must be a positive float (regularization constant of [S 3.1]); got gamma=-1.0.
    """
    table = type(estimator)._parameter_constraints
    params = estimator.get_params(deep=False)
    if set(table) != set(params):
        raise RuntimeError(
            f"{type(estimator).__name__}._parameter_constraints covers "
            f"{sorted(table)}, but the parameters are {sorted(params)}."
        )
    for name, constraints in table.items():
        check_constraints(params[name], name, constraints, owner=estimator)


#: ``n_jobs`` everywhere: None (1 unless in a joblib context) or a non-zero integer.
N_JOBS = [NoneValue(), NonZeroInteger("-1: all CPUs")]
