"""Shared seeded fixtures: small data (N <= 200), seeded generators, so tests are fast and exact."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fresh seeded generator for each test, so tests do not depend on their order."""
    return np.random.default_rng(0)


@pytest.fixture
def regression_data(rng):
    """60 points in 3 dimensions with a smooth target plus noise."""
    X = rng.standard_normal((60, 3))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] - 0.2 * X[:, 2] ** 2
    y += 0.1 * rng.standard_normal(60)
    return X, y


@pytest.fixture
def classification_data(rng):
    """60 points in 3 dimensions, labels in {-1, +1} from a noisy nonlinear rule."""
    X = rng.standard_normal((60, 3))
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 + 0.3 * rng.standard_normal(60)
    y = np.where(score > 0, 1, -1)
    return X, y
