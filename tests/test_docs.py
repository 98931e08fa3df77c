"""The shared hyper-parameter texts (lssvm._docs): one source, quoted whole."""

import pytest

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm._base import LSSVMBase
from lssvm._docs import parameter_entries, shared_parameters

SHARED = ("gamma", "kernel", "sigma2", "degree", "tau", "solver", "tol", "n_jobs")


@pytest.mark.parametrize("cls", [LSSVMClassifier, LSSVMRegressor])
def test_estimators_quote_the_base_entries_whole(cls):
    base = parameter_entries(LSSVMBase.__doc__)
    own = parameter_entries(cls.__doc__)
    assert "{shared:" not in cls.__doc__
    for name in SHARED:
        assert own[name] == base[name], name
    # the estimator's own entries stay its own
    assert own["fit_intercept"] != base["fit_intercept"]


def test_unknown_shared_name_is_refused():
    class Doc:
        """X.

        Parameters
        ----------
        {shared: gamma nosuch}
        """

    with pytest.raises(KeyError, match="nosuch"):
        shared_parameters(LSSVMBase)(Doc)


def test_parameter_entries_needs_the_section():
    with pytest.raises(ValueError, match="Parameters"):
        parameter_entries("No sections here.")
