"""Seeded generators and offline loaders of lssvm.datasets."""

from __future__ import annotations

import numpy as np
import pytest

from lssvm.datasets import gaussian_classes, load_ripley, sinc, two_spirals


def test_two_spirals_default_shape_and_labels():
    X, y = two_spirals()
    assert X.shape == (194, 2) and y.shape == (194,)
    assert set(np.unique(y)) == {-1, 1}
    assert np.sum(y == 1) == np.sum(y == -1) == 97
    assert np.linalg.norm(X, axis=1).max() == pytest.approx(6.5)


def test_two_spirals_arms_are_mirror_images():
    X, y = two_spirals()
    np.testing.assert_allclose(X[y == -1], -X[y == 1], rtol=0, atol=0)


def test_two_spirals_scale_fits_the_book_range():
    X, _ = two_spirals(scale=6)
    assert np.abs(X).max() <= 40.0  # Fig. 3.2 plots [-40, 40]
    np.testing.assert_allclose(X, 6 * two_spirals()[0], rtol=1e-15)


def test_two_spirals_deterministic():
    X1, y1 = two_spirals(noise=0.3, random_state=5)
    X2, y2 = two_spirals(noise=0.3, random_state=5)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = two_spirals(noise=0.3, random_state=6)
    assert not np.allclose(X1, X3)
    X4, _ = two_spirals(noise=0.3, random_state=np.random.default_rng(5))
    np.testing.assert_array_equal(X1, X4)


def test_two_spirals_denser_sampling_stays_on_the_curve():
    X, y = two_spirals(n_per_arm=193)
    assert X.shape == (386, 2)
    np.testing.assert_allclose(X[::2][:97], two_spirals()[0][:97], rtol=0, atol=1e-12)


def test_two_spirals_offset_points_lie_between_the_training_points():
    X_train, _ = two_spirals()
    X_test, y_test = two_spirals(97, offset=0.5)
    assert X_test.shape == (192, 2) and np.sum(y_test == 1) == 96
    # no test point coincides with a training point ...
    gaps = np.linalg.norm(X_test[:, None, :] - X_train[None, :, :], axis=-1)
    assert gaps.min() > 1e-3
    # ... and each lies on its arm between two consecutive training points
    arm_train, arm_test = X_train[:97], X_test[:96]
    to_prev = np.linalg.norm(arm_test - arm_train[:-1], axis=1)
    to_next = np.linalg.norm(arm_test - arm_train[1:], axis=1)
    spacing = np.linalg.norm(np.diff(arm_train, axis=0), axis=1)
    assert np.all(to_prev < spacing) and np.all(to_next < spacing)


def test_two_spirals_denser_offset_grid_is_disjoint_from_the_training_set():
    X_train, _ = two_spirals(scale=6)
    X_test, _ = two_spirals(193, scale=6, offset=0.5)
    assert len(X_test) == 384
    rows_train = {tuple(np.round(x, 9)) for x in X_train}
    assert not rows_train & {tuple(np.round(x, 9)) for x in X_test}


def test_two_spirals_offset_out_of_range_raises():
    with pytest.raises(ValueError, match="offset must be in"):
        two_spirals(offset=1.0)


def test_two_spirals_too_few_points_raises():
    with pytest.raises(ValueError, match="n_per_arm must be"):
        two_spirals(n_per_arm=1)


def test_gaussian_classes_shapes_and_labels():
    X, y = gaussian_classes(60, n_features=3)
    assert X.shape == (120, 3) and y.shape == (120,)
    assert np.sum(y == 1) == np.sum(y == -1) == 60


def test_gaussian_classes_deterministic():
    X1, _ = gaussian_classes(50, random_state=3)
    X2, _ = gaussian_classes(50, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    X3, _ = gaussian_classes(50, random_state=4)
    assert not np.allclose(X1, X3)
    np.testing.assert_array_equal(gaussian_classes(50)[0], gaussian_classes(50)[0])


def test_gaussian_classes_moments():
    # 100 points per class, std 0.5: class means within 4 standard errors (0.2).
    X, y = gaussian_classes(100, mean=0.8, variance=0.25)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), 0.8, atol=0.2)
    np.testing.assert_allclose(X[y == -1].mean(axis=0), -0.8, atol=0.2)
    np.testing.assert_allclose(X[y == 1].std(axis=0), 0.5, atol=0.1)


def test_sinc_shape_and_noise_free_values():
    X, y = sinc(50, noise=0.0)
    assert X.shape == (50, 1) and y.shape == (50,)
    np.testing.assert_allclose(X[:, 0], np.linspace(-10, 10, 50), rtol=0, atol=0)
    np.testing.assert_allclose(y, np.sin(X[:, 0]) / X[:, 0], rtol=1e-13, atol=1e-15)


def test_sinc_noise_level_and_determinism():
    X, y = sinc(200, noise=0.1, random_state=2)
    _, y0 = sinc(200, noise=0.0)
    assert np.std(y - y0) == pytest.approx(0.1, rel=0.2)
    np.testing.assert_array_equal(y, sinc(200, noise=0.1, random_state=2)[1])
    assert not np.allclose(y, sinc(200, noise=0.1, random_state=3)[1])


@pytest.mark.parametrize("subset, n", [("train", 250), ("test", 1000)])
def test_load_ripley(subset, n):
    X, y = load_ripley(subset)
    assert X.shape == (n, 2) and y.shape == (n,)
    assert X.dtype == np.float64 and np.all(np.isfinite(X))
    assert set(np.unique(y)) == {0, 1}
    assert np.sum(y == 0) == np.sum(y == 1) == n // 2


def test_load_ripley_bad_subset_raises():
    with pytest.raises(ValueError, match="subset must be one of"):
        load_ripley("validation")
