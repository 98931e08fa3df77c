"""No module reaches a private method or attribute that another lssvm module defines.

``model._helper(...)``, ``model._flag`` or ``getattr(model, "_flag")``, where
``_helper`` / ``_flag`` is defined in another module of the package, ties one
module to another's internals; the defining module offers a public function
instead (pruning calls ``lssvm._base.fit_with_kkt_solver``; the evidence framework
reads the classifier's public ``probability_`` and calls its ``moderated_output``;
the last tests here check those). ``tests/test_layout.py`` checks the imports; this
test checks attribute access, read from the source by ``ast`` (the scan imports no
module).

The private names a module defines: its functions, classes and methods, the names
assigned at module or class level, and the attributes it assigns through ``self``
or ``cls`` (``self._x = ...``, ``setattr(self, "_x", ...)``). An access
``obj._name`` (or ``getattr``/``hasattr``/``setattr``/``delattr`` of ``obj`` and
``"_name"``) is a crossing when ``obj`` is not ``self``, ``cls``, ``type(self)``
or ``super()``, the accessing module defines no ``_name`` of its own, and another
module does. Dunder names (``__init__``) are public.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone

from lssvm import LSSVMClassifier, LSSVMRegressor
from lssvm._base import fit_with_kkt_solver, fitted_kernel, solve_kkt_default

PACKAGE = Path(__file__).resolve().parents[1] / "lssvm"
ATTRIBUTE_FUNCTIONS = ("getattr", "hasattr", "setattr", "delattr")

#: Crossings the modules that hold them still need: (module, private name) -> why.
ALLOWED = {
    ("lssvm._validation", "_parameter_constraints"): (
        "scikit-learn's name for the constraints table every estimator class defines"
    ),
    ("lssvm.linalg.operators", "_prepare"): "kernel hook of lssvm.kernels: inputs once",
    ("lssvm.linalg.operators", "_sq_norms"): "kernel hook: squared norms of the tiles",
    ("lssvm.linalg.operators", "_width"): "kernel hook: the RBF width of the tiles",
    ("lssvm.linalg.operators", "_block"): "kernel hook: one tile of K, no allocation",
    ("lssvm.linalg.dask_operators", "_tile"): (
        "the workers run KernelOperator's own tile code (lssvm/linalg/operators.py)"
    ),
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_own(obj: ast.expr) -> bool:
    """``self``, ``cls``, ``type(self)``, ``type(cls)`` or ``super()``."""
    if isinstance(obj, ast.Name):
        return obj.id in ("self", "cls")
    if isinstance(obj, ast.Call) and isinstance(obj.func, ast.Name):
        if obj.func.id == "super":
            return True
        return obj.func.id == "type" and len(obj.args) == 1 and _is_own(obj.args[0])
    return False


def _named_attribute(node: ast.AST) -> tuple[ast.expr, str] | None:
    """(obj, name) of ``getattr(obj, "name", ...)`` and its kin, else None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ATTRIBUTE_FUNCTIONS
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return None
    return node.args[0], node.args[1].value


def defined_private_names(tree: ast.Module) -> set[str]:
    """The private names a module defines (see the module docstring)."""
    names: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(child.name)
                visit(child, in_function or not isinstance(child, ast.ClassDef))
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                if not in_function:  # module or class level, not a local
                    names.add(child.id)
            elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Store):
                if _is_own(child.value):
                    names.add(child.attr)
            named = _named_attribute(child)  # setattr(self, "_x", ...)
            if named and child.func.id == "setattr" and _is_own(named[0]):
                names.add(named[1])
            visit(child, in_function)

    visit(tree, False)
    return {name for name in names if _private(name)}


def private_accesses(tree: ast.Module):
    """(line, name, source) of every private attribute reached through an object."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            obj, name = node.value, node.attr
        else:
            named = _named_attribute(node)
            if named is None:
                continue
            obj, name = named
        if _private(name) and not _is_own(obj):
            yield node.lineno, name, ast.unparse(node)


def crossings(sources: dict[str, str]) -> list[tuple[str, int, str, str, list[str]]]:
    """(module, line, name, source, defining modules) of every crossing."""
    trees = {module: ast.parse(text) for module, text in sources.items()}
    defined = {module: defined_private_names(tree) for module, tree in trees.items()}
    found = []
    for module, tree in trees.items():
        for line, name, source in private_accesses(tree):
            if name in defined[module]:
                continue  # the module's own name
            owners = sorted(m for m, names in defined.items() if name in names)
            if owners:
                found.append((module, line, name, source, owners))
    return found


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_sources() -> dict[str, str]:
    return {_module(p): p.read_text() for p in sorted(PACKAGE.rglob("*.py"))}


def test_no_private_attribute_crosses_a_module_line():
    found = crossings(package_sources())
    unexpected = [
        f"{module}:{line}: {source} ({name} is defined in {', '.join(owners)})"
        for module, line, name, source, owners in found
        if (module, name) not in ALLOWED
    ]
    assert not unexpected, "\n".join(unexpected)


def test_every_allowed_crossing_still_exists():
    """The allowlist stays as short as the code allows: drop an entry once unused."""
    present = {(module, name) for module, _, name, _, _ in crossings(package_sources())}
    stale = sorted(set(ALLOWED) - present)
    assert not stale, f"allowed crossings no longer in the code: {stale}"


def test_the_detector_finds_fabricated_crossings():
    owner = textwrap.dedent(
        """
        _LIMIT = 3

        class Model:
            def fit(self):
                self._state = 1
                return self._solve()

            def _solve(self):
                return self._state + _LIMIT
        """
    )
    user = textwrap.dedent(
        """
        class Wrapper(Model):
            def fit(self):
                super()._solve()            # the class's own: allowed
                return type(self)._solve    # allowed

        def run(model):
            model._solve()                  # crossing: a method
            getattr(model, "_state", None)  # crossing: an attribute, by name
            model.inner._state = 2          # crossing: a write through an object
            model._own()                    # not defined elsewhere: not a crossing
            return model._helper            # defined here too: the module's own

        def _helper():
            pass
        """
    )
    found = crossings({"pkg.owner": owner, "pkg.user": user})
    assert sorted((module, name) for module, _, name, _, _ in found) == [
        ("pkg.user", "_solve"), ("pkg.user", "_state"), ("pkg.user", "_state"),
    ]  # fmt: skip
    assert all(owners == ["pkg.owner"] for *_, owners in found)
    assert defined_private_names(ast.parse(owner)) == {"_LIMIT", "_state", "_solve"}


# --- the public paths that replaced the crossings --------------------------------


def _binary_data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1, -1)
    return X, y


def test_fit_with_kkt_solver_runs_fit_through_the_given_solve():
    X, y = _binary_data()
    calls = []

    def solve(kernel, X_sub, gamma, a, d, signs=None):
        calls.append(X_sub.shape[0])
        # an argument of the fit, never state on the estimator (not even during it)
        assert not any(v is solve for v in vars(est).values())
        return solve_kkt_default(est, kernel, X_sub, gamma, a, d, signs=signs)

    est = LSSVMClassifier(gamma=2.0, sigma2=1.5)
    assert fit_with_kkt_solver(est, solve, X, y) is est
    assert calls == [len(y)]
    plain = LSSVMClassifier(gamma=2.0, sigma2=1.5).fit(X, y)
    np.testing.assert_array_equal(est.alpha_, plain.alpha_)
    assert est.b_ == plain.b_
    assert set(vars(est)) == set(vars(plain))  # an ordinary fitted estimator

    def failing(*args, **kwargs):
        raise RuntimeError("no solve")

    with pytest.raises(RuntimeError, match="no solve"):
        fit_with_kkt_solver(est, failing, X, y)
    assert not any(v is failing for v in vars(est).values())  # nor when fit raises


def test_fitted_kernel_is_the_kernel_of_the_fit_and_checks_the_parameters():
    X, y = _binary_data()
    est = LSSVMRegressor(sigma2="scale")
    assert fitted_kernel(est, X) == clone(est).fit(X, y.astype(float)).kernel_
    with pytest.raises(ValueError, match="gamma"):
        fitted_kernel(LSSVMRegressor(gamma=-1.0), X)


def test_moderated_output_is_the_bayes_predict_proba():
    X, y = _binary_data()
    clf = LSSVMClassifier(gamma=2.0, sigma2=1.5)
    assert not hasattr(clf, "probability_")
    clf.set_params(probability="bayes").fit(X, y)
    assert clf.probability_ == "bayes"
    p1 = clf.predict_proba(X)[:, 1]
    np.testing.assert_array_equal(clf.moderated_output(X), p1)
    p = clf.moderated_output(X, mu=2 * clf.mu_, zeta=clf.zeta_, prior=0.3)
    assert p.shape == (len(X),) and not np.allclose(p, p1)
    clf.set_params(probability=True)  # the fit, not the parameter, decides
    assert clf.probability_ == "bayes"
