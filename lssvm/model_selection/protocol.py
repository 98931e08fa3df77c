"""The book's benchmark protocol: randomized 2/3-1/3 splits, test accuracy.

[S Tables 3.3 and 3.4] of Suykens et al. (2002) report the mean (std) test accuracy over
10 randomizations of a split into 2/3 for training (where the hyper-parameters are
tuned by 10-fold CV) and 1/3 for testing. :func:`randomized_test_accuracy` runs that
protocol for any scikit-learn classifier. Our choices, which the book does not state:
the test part has ceil(N/3) points (this gives the sizes N_test of [S Tables 3.1-3.2]),
the splits are stratified by class and seeded, and inputs are standardised with the
training part's mean and standard deviation.

Sources: Suykens et al. (2002), [S §3.4.3]; Van Gestel et al., Machine Learning
54 (2004), for the benchmark itself.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from sklearn.base import clone
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from .._log import Progress

__all__ = ["corrected_resampled_se", "randomized_splits", "randomized_test_accuracy"]


def corrected_resampled_se(sd: float, n_splits: int, test_train_ratio: float) -> float:
    r"""Standard error of a mean over ``n_splits`` overlapping random splits.

    Random splits of one data set share most of their training points, so the
    differences they give are correlated and the naive :math:`s/\sqrt{k}` is too
    small. Nadeau and Bengio's corrected resampled t (Machine Learning 52, 2003)
    replaces the factor :math:`1/k` of the variance by
    :math:`1/k + n_\text{test}/n_\text{train}`:

    .. math:: \widehat{\mathrm{SE}} = s \sqrt{1/k + n_\text{test}/n_\text{train}} .

    ``sd`` is the standard deviation s (ddof = 1) over the k = ``n_splits`` splits.

    >>> round(corrected_resampled_se(2.0, 10, 0.5), 6)  # 2 sqrt(0.1 + 0.5)
    1.549193
    """
    if n_splits < 2:
        raise ValueError(f"corrected_resampled_se: n_splits must be >= 2; "
                         f"got n_splits={n_splits!r}.")
    if not test_train_ratio >= 0:
        raise ValueError(f"corrected_resampled_se: test_train_ratio must be >= 0; "
                         f"got test_train_ratio={test_train_ratio!r}.")
    return float(sd) * math.sqrt(1.0 / n_splits + float(test_train_ratio))


def randomized_splits(y, n_rand=10, *, random_state=0):
    """``n_rand`` stratified (train, test) index pairs with ceil(N/3) test points."""
    y = np.asarray(y)
    n_test = math.ceil(len(y) / 3)
    splitter = StratifiedShuffleSplit(
        n_splits=n_rand, test_size=n_test, random_state=random_state
    )
    return list(splitter.split(np.zeros((len(y), 1)), y))


def randomized_test_accuracy(
    estimator, X, y, *, n_rand=10, random_state=0, standardize=True, verbose=0
) -> NDArray[np.float64]:
    """Test accuracy of ``estimator`` on each of ``n_rand`` randomized splits.

    The estimator is cloned and fitted on each training part (a tuned estimator
    such as :class:`lssvm.LSSVMClassifierCV` tunes there), after a
    ``StandardScaler`` if ``standardize``. With ``verbose`` > 0 a line per split
    goes to standard error.

    Returns
    -------
    ndarray of shape (n_rand,)
        Test accuracies, in the order of :func:`randomized_splits`.
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    accuracies = np.empty(n_rand)
    log = Progress("evaluation", verbose)
    for r, (train, test) in enumerate(
        randomized_splits(y, n_rand, random_state=random_state)
    ):
        model = clone(estimator)
        if standardize:
            model = make_pipeline(StandardScaler(), model)
        model.fit(X[train], y[train])
        accuracies[r] = np.mean(model.predict(X[test]) == y[test])
        log(f"split {r + 1}/{n_rand}: accuracy {accuracies[r]:.4f}")
    return accuracies
